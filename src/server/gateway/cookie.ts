/**
 * The owner session cookie of the cookie gateway: `svc_session=<43 base64url characters>`,
 * HttpOnly (no script reads it), SameSite=Strict (no other site's request carries it), Path=/,
 * Secure when the gateway's configured origin is https, Max-Age the session's absolute lifetime.
 * The id itself lives only in the cookie; the store keeps its SHA-256 digest.
 */
import { isSecretToken, SESSION_COOKIE } from '../../core/accounts/sign-in.js';

/** The Set-Cookie value that starts a session. */
export function sessionCookie(id: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict${options.secure ? '; Secure' : ''}; Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`;
}

/** The Set-Cookie value that clears it. */
export function clearedSessionCookie(options: { secure: boolean }): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict${options.secure ? '; Secure' : ''}; Max-Age=0`;
}

/** The session id a Cookie header carries (the first well-formed svc_session), or null. */
export function sessionIdOf(header: string | string[] | undefined): string | null {
  const text = Array.isArray(header) ? header.join('; ') : header;
  if (typeof text !== 'string' || text.length > 16_384) return null;
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (isSecretToken(value)) return value;
  }
  return null;
}
