/**
 * The opt-in local commercial mode (docs/daemon.md#commercial-mode): whether it is on, and the
 * two credentials its routes take besides the operator token.
 *
 * On only when the operator asks for it (SVC_COMMERCIAL=on), on the direct profile, with the
 * operator routes enabled (SVC_ADMIN_TOKEN: the commercial control routes are the operator's) and
 * a configured origin (SVC_COMMERCIAL_ORIGIN: the cookie gateway's own origin, which every write
 * through it must carry). Off, every route of the mode answers 501 COMMERCIAL_DISABLED and the
 * daemon says why at start; with `--public` the routes are not mounted at all (404).
 *
 * The verified-session bridge (svc's own design): the daemon draws a random
 * 32-byte secret at every start and hands it, in memory, to the cookie gateway it starts in the
 * same process. The gateway forwards an owner's request to the session core over loopback with
 * `X-SVC-Bridge: <secret>` and `X-SVC-Subject: <the session's DID>` (after stripping any
 * client-sent ones). The core compares the presented secret by SHA-256 digest with
 * timingSafeEqual; a request without it is 401, whatever its subject header says — the core is
 * never reachable from the network on its own. The secret is never logged, stored or answered.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { parseDid } from '../core/did/syntax.js';
import { ProblemError } from '../core/problems.js';
import type { Profile } from './limits.js';
import type { OperatorAccess } from './operator.js';

export const BRIDGE_HEADER = 'x-svc-bridge';
export const SUBJECT_HEADER = 'x-svc-subject';

export type CommercialAccess =
  | {
      enabled: true;
      /** The cookie gateway's origin (scheme://host[:port]); writes through the gateway must carry it as Origin. */
      origin: string;
      /** This start's bridge secret (base64url, 43 characters): for the in-process gateway only. */
      bridgeSecret: string;
      bridgeDigest: Buffer;
    }
  | { enabled: false; reason: string };

const digestOf = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** An origin as the gateway compares it: scheme, host and port, nothing else; null when `text` is not one. */
export function canonicalOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || (url.pathname !== '/' && url.pathname !== '')) return null;
  return url.origin;
}

/** From SVC_COMMERCIAL, SVC_COMMERCIAL_ORIGIN, the operator access and the profile: on (with this start's bridge secret), or why not (one line). */
export function commercialAccess(setting: string | undefined, origin: string | undefined, operator: OperatorAccess, profile: Profile): CommercialAccess {
  if (profile !== 'direct') return { enabled: false, reason: 'the commercial mode exists only on the direct profile (not with --public)' };
  if (setting === undefined || setting === '' || setting === 'off') return { enabled: false, reason: 'SVC_COMMERCIAL is not on' };
  if (setting !== 'on') return { enabled: false, reason: `SVC_COMMERCIAL is "${setting.slice(0, 20)}"; it takes on or off` };
  if (!operator.enabled) return { enabled: false, reason: `the commercial mode needs the operator routes, which are off (${operator.reason})` };
  if (origin === undefined || origin === '')
    return { enabled: false, reason: 'SVC_COMMERCIAL_ORIGIN (the cookie gateway origin owners use, e.g. http://127.0.0.1:8081) is not set' };
  const canonical = canonicalOrigin(origin);
  if (canonical === null)
    return { enabled: false, reason: 'SVC_COMMERCIAL_ORIGIN is not an origin (http or https scheme, host, optional port; no path, query or credentials)' };
  const bridgeSecret = randomBytes(32).toString('base64url');
  return { enabled: true, origin: canonical, bridgeSecret, bridgeDigest: digestOf(bridgeSecret) };
}

/** Throws COMMERCIAL_DISABLED (501) unless the mode is on. */
export function requireCommercial(access: CommercialAccess | undefined): asserts access is Extract<CommercialAccess, { enabled: true }> {
  if (!access?.enabled) {
    throw new ProblemError('COMMERCIAL_DISABLED', `The commercial mode is not enabled on this daemon: ${access?.reason ?? 'it is not configured'}.`);
  }
}

/**
 * The subject of a request that carries this start's bridge secret and a subject header, else
 * null; never throws (the budget is charged before the route's own requireBridge answers 401).
 */
export function bridgedSubject(access: CommercialAccess | undefined, request: FastifyRequest): string | null {
  if (!access?.enabled) return null;
  const presented = request.headers[BRIDGE_HEADER];
  const subject = request.headers[SUBJECT_HEADER];
  if (typeof presented !== 'string' || typeof subject !== 'string' || subject.length > 2_048) return null;
  return timingSafeEqual(digestOf(presented), access.bridgeDigest) ? subject : null;
}

/**
 * The owner a session-core request acts for: requires the mode, then this start's bridge secret
 * (401 UNAUTHORIZED without it: the core is the gateway's, never the network's), then a DID in
 * X-SVC-Subject (set by the gateway from the session).
 */
export function requireBridge(access: CommercialAccess | undefined, request: FastifyRequest): string {
  requireCommercial(access);
  const presented = request.headers[BRIDGE_HEADER];
  if (typeof presented !== 'string' || !timingSafeEqual(digestOf(presented), access.bridgeDigest)) {
    throw new ProblemError('UNAUTHORIZED', 'The session routes are served through the cookie gateway only.');
  }
  const subject = request.headers[SUBJECT_HEADER];
  if (typeof subject !== 'string') throw new ProblemError('UNAUTHORIZED', 'The gateway named no subject.');
  try {
    parseDid(subject);
  } catch {
    throw new ProblemError('UNAUTHORIZED', 'The gateway named a subject that is not a DID.');
  }
  return subject;
}
