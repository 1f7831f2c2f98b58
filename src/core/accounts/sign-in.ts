/**
 * Owner sign-in at the cookie gateway (docs/daemon.md#owner-accounts-and-the-cookie-gateway): a
 * challenge, the exact statement an owner signs, and its verification — a compact JWS over that
 * statement by a key the DID authorises for `authentication`, the DID resolved afresh (as a
 * signature claim is checked: claims/verify.ts). No I/O of its own: keys come through a KeySource.
 *
 * The statement is canonical JSON (RFC 8785) of {aud: "svc-sign-in", nonce, origin, did}; the
 * JWS payload is base64url of its UTF-8 bytes, compared as text (both canonical), so nothing is
 * left to a JSON library.
 */
import { createHash, randomBytes } from 'node:crypto';
import { canonicalize } from '../canonical.js';
import { didKeySource, didOf, type KeySource } from '../credentials/keys.js';
import { isJsonObject } from '../encoding/json.js';
import { checkJwsSignature, isJwsParseError, parseCompactJws } from '../proofs/jws.js';
import { resolve } from '../resolve/resolve.js';
import type { Runtime } from '../runtime.js';
import { clause, truncate } from '../text.js';

export const SIGN_IN_AUDIENCE = 'svc-sign-in';
/** A sign-in challenge lives 5 minutes and is used once. */
export const SIGN_IN_CHALLENGE_TTL_SECONDS = 300;
/** An owner session: 30 minutes idle (each use moves it on), 12 hours at most from sign-in. */
export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;
/** The session cookie's name. */
export const SESSION_COOKIE = 'svc_session';

/** 32 random bytes, base64url (43 characters): a challenge token or a session id. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A token of that form (43 base64url characters). */
export function isSecretToken(text: unknown): text is string {
  return typeof text === 'string' && /^[A-Za-z0-9_-]{43}$/.test(text);
}

/** The digest the store keeps of a token or session id: SHA-256, 64 lower-case hex digits. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The exact statement an owner signs (canonical JSON). */
export function signInStatement(terms: { nonce: string; origin: string; did: string }): string {
  return canonicalize({ aud: SIGN_IN_AUDIENCE, nonce: terms.nonce, origin: terms.origin, did: terms.did });
}

/** The JWS payload part of a statement: base64url of its UTF-8 bytes. */
export function signInPayload(statement: string): string {
  return Buffer.from(statement, 'utf8').toString('base64url');
}

export type SignInRefusal =
  | 'JWS_MALFORMED'
  | 'JWS_UNSUPPORTED'
  | 'PAYLOAD_MISMATCH'
  | 'SIGNER_MISMATCH'
  | 'DID_UNRESOLVED'
  | 'DID_DEACTIVATED'
  | 'KEY_NOT_FOUND'
  | 'KEY_NOT_AUTHENTICATION'
  | 'SIGNATURE_INVALID';

export type SignInCheck = { ok: true; kid: string } | { ok: false; code: SignInRefusal; reason: string };

const refuse = (code: SignInRefusal, reason: string): SignInCheck => ({ ok: false, code, reason });

/** What a payload that is not the statement holds instead (never the expected nonce). */
function payloadMismatch(expected: Record<string, string>, payload: unknown): string {
  const lead = 'the JWS payload is not the sign-in statement';
  if (payload instanceof Uint8Array || !isJsonObject(payload)) return `${lead} (it is not a JSON statement)`;
  for (const member of ['aud', 'origin', 'did', 'nonce'] as const) {
    if (payload[member] !== expected[member]) {
      if (member === 'origin') return `${lead}: it is for another origin than this gateway's (${expected['origin']})`;
      if (member === 'nonce') return `${lead}: it is for another challenge`;
      return `${lead}: its "${member}" differs`;
    }
  }
  return `${lead}: the members are right but not in the exact form given; sign the statement's characters as they are`;
}

export interface SignInOptions {
  runtime: Runtime;
  signal?: AbortSignal;
  /** Where the DID's keys come from; default: resolved through the core, cache bypassed. */
  keySource?: KeySource;
}

/** Checks `jws` as the sign-in of `did` with `statement` (signInStatement). A refusal is a result. */
export async function checkSignIn(did: string, statement: string, jws: string, options: SignInOptions): Promise<SignInCheck> {
  const token = jws.trim();
  const parsed = parseCompactJws(token);
  if (isJwsParseError(parsed)) return refuse(parsed.kind === 'UNSUPPORTED' ? 'JWS_UNSUPPORTED' : 'JWS_MALFORMED', parsed.error);
  if (token.split('.')[1] !== signInPayload(statement)) {
    return refuse('PAYLOAD_MISMATCH', payloadMismatch(JSON.parse(statement) as Record<string, string>, parsed.payload));
  }
  const kid = parsed.header['kid'];
  if (typeof kid !== 'string')
    return refuse('JWS_MALFORMED', `the JWS header names no key ("kid"); it must name a key of ${truncate(did, 200)} listed under authentication`);
  const signer = didOf(kid);
  if (signer !== did)
    return refuse(
      'SIGNER_MISMATCH',
      `the kid ${signer === null ? 'is not a DID URL' : `names a key of ${truncate(signer, 200)}`}, not a key of ${truncate(did, 200)}`,
    );
  if (kid === did) return refuse('KEY_NOT_FOUND', `the kid is the DID itself, not one of its keys; name the verification method (${truncate(did, 200)}#…)`);
  const source =
    options.keySource ??
    didKeySource(options.runtime, (target, signal) => resolve(target, options.runtime, signal ? { noCache: true, signal } : { noCache: true }));
  const found = await source.keysOf(did, options.signal);
  if (!found.ok) return refuse('DID_UNRESOLVED', found.reason);
  if (found.deactivated) return refuse('DID_DEACTIVATED', `${truncate(did, 200)} is deactivated; its keys prove nothing`);
  const key = found.keys.find((k) => k.id === kid);
  if (!key) return refuse('KEY_NOT_FOUND', `${truncate(kid, 300)} is not a verification method in the DID document of ${truncate(did, 200)}`);
  if (!key.relationships.includes('authentication'))
    return refuse('KEY_NOT_AUTHENTICATION', `the key ${truncate(kid, 300)} is not listed under authentication`);
  if (key.status === 'INVALID_KEY') return refuse('SIGNATURE_INVALID', `the key ${truncate(kid, 300)} is invalid: ${clause(key.detail ?? 'no detail')}`);
  if (key.status === 'UNSUPPORTED_KEY' || !key.publicJwk) return refuse('JWS_UNSUPPORTED', `the key ${truncate(kid, 300)} is not one svc can verify with`);
  const check = checkJwsSignature(parsed, key.publicJwk);
  if (!check.valid) return refuse('SIGNATURE_INVALID', `${clause(check.reason)} (key ${truncate(kid, 300)})`);
  return { ok: true, kid };
}
