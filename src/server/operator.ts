/**
 * The operator's access to the monitoring routes: enabled only on the direct daemon and only
 * when SVC_ADMIN_TOKEN holds at least 24 characters (else every monitoring route answers 501
 * MONITORING_DISABLED, and the daemon says why at start); each request then carries
 * `Authorization: Bearer <token>` (else 401 UNAUTHORIZED).
 *
 * Only the token's SHA-256 digest is kept, and the presented token is compared by digest with
 * timingSafeEqual: constant time whatever its length, and the token itself is never in a log,
 * an answer or the database.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../core/problems.js';
import type { Profile } from './limits.js';

export const MIN_ADMIN_TOKEN_LENGTH = 24;

export type OperatorAccess = { enabled: true; digest: Buffer } | { enabled: false; reason: string };

const digestOf = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** From SVC_ADMIN_TOKEN and the profile: enabled, or why not (one line, never the token). */
export function operatorAccess(token: string | undefined, profile: Profile): OperatorAccess {
  if (profile !== 'direct') return { enabled: false, reason: 'the operator routes exist only on the direct profile (not with --public)' };
  if (token === undefined || token === '') return { enabled: false, reason: 'SVC_ADMIN_TOKEN is not set' };
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) {
    return { enabled: false, reason: `SVC_ADMIN_TOKEN holds ${token.length} characters; at least ${MIN_ADMIN_TOKEN_LENGTH} are required` };
  }
  return { enabled: true, digest: digestOf(token) };
}

/** What a Bearer credential can carry (RFC 6750 b64token is stricter; any visible ASCII works in a header). */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;
const BEARER = /^Bearer ([\x21-\x7e]+)$/;

/**
 * Why SVC_ADMIN_TOKEN cannot be used at all, or null: a token with a space, a control character
 * or anything beyond ASCII could never be presented in `Authorization: Bearer …` (the daemon
 * would start, then refuse its own operator). The daemon refuses to start with the reason.
 */
export function unusableAdminToken(token: string | undefined): string | null {
  if (token === undefined || token === '' || TOKEN_CHARS.test(token)) return null;
  const bad = [...token].find((c) => !TOKEN_CHARS.test(c))!;
  const what = bad === ' ' ? 'a space' : bad.codePointAt(0)! < 0x20 || bad === '\x7f' ? 'a control character' : 'a character beyond ASCII';
  return `SVC_ADMIN_TOKEN holds ${what}; an operator token is printable ASCII without spaces (it travels in Authorization: Bearer <token>) — make one with: openssl rand -hex 32`;
}

/** Words a made-up token is often built of; a token that is nothing but these (and digits, punctuation) is guessable. */
const COMMON_WORDS = [
  'password',
  'passwd',
  'pass',
  'secret',
  'changeme',
  'change',
  'me',
  'letmein',
  'let',
  'in',
  'qwerty',
  'asdf',
  'admin',
  'administrator',
  'root',
  'welcome',
  'default',
  'token',
  'test',
  'testing',
  'example',
  'dummy',
  'foo',
  'bar',
  'baz',
  'abc',
  'xyz',
  'svc',
  'iloveyou',
  'monkey',
  'dragon',
  'master',
  'login',
  'access',
  'key',
  'api',
  'my',
  'the',
  'super',
];

/**
 * Why an operator token is trivially guessable, or null: one character repeated, a short
 * pattern repeated, a run of consecutive characters (`abcdef…`, `0123…`), or nothing but common
 * words with digits and punctuation (`password-1234567890123456`). Not an entropy meter: it
 * catches the tokens people type instead of generating.
 */
export function weakAdminToken(token: string): string | null {
  const chars = [...token];
  if (new Set(chars).size === 1) return 'it is one character repeated';
  for (let period = 2; period <= Math.min(12, chars.length / 2); period++) {
    if (chars.every((c, i) => c === chars[i % period])) return `it is a pattern of ${period} characters repeated`;
  }
  let steps = 0;
  for (let i = 1; i < chars.length; i++) if (Math.abs(chars[i]!.charCodeAt(0) - chars[i - 1]!.charCodeAt(0)) === 1) steps++;
  if (steps >= 0.75 * (chars.length - 1)) return 'it is mostly a run of consecutive characters';
  if (new Set(chars).size < 6) return `it uses only ${new Set(chars).size} different characters`;
  const letters = token.toLowerCase().replace(/[^a-z]/g, '');
  if (letters !== '' && composedOf(letters, COMMON_WORDS)) return 'it is made of common words, digits and punctuation';
  return null;
}

/** Whether `text` splits wholly into words of `words` (repeats allowed). */
function composedOf(text: string, words: readonly string[]): boolean {
  const reach = new Array<boolean>(text.length + 1).fill(false);
  reach[0] = true;
  for (let i = 0; i < text.length; i++) {
    if (!reach[i]) continue;
    for (const word of words) if (text.startsWith(word, i)) reach[i + word.length] = true;
  }
  return reach[text.length]!;
}

/** Throws MONITORING_DISABLED (501) or UNAUTHORIZED (401) unless the request is the operator's. */
export function requireOperator(access: OperatorAccess, request: FastifyRequest): void {
  if (!access.enabled) {
    throw new ProblemError('MONITORING_DISABLED', `Operator monitoring is not enabled on this daemon: ${access.reason}.`);
  }
  const header = request.headers.authorization;
  const presented = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
  if (presented === undefined || !timingSafeEqual(digestOf(presented), access.digest)) {
    throw new ProblemError('UNAUTHORIZED', 'The monitoring routes need Authorization: Bearer <the operator token>.');
  }
}
