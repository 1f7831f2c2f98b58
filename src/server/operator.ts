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

const BEARER = /^Bearer ([\x21-\x7e]+)$/;

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
