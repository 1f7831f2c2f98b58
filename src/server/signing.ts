/**
 * Signed results (docs/daemon.md#signed-results): the daemon's signing key, read from the file
 * SVC_SIGNING_KEY names (a private JWK, mode-checked like a secret), optionally under the did:web
 * SVC_SIGNING_DID; the signer routes and later features share (`ctx.signer`); and the `signed`
 * query option of the routes that sign when asked. The response header itself is set by
 * plugins/signed-results.ts, over the exact body sent.
 *
 * The private key is read once, at start, and lives only in the core's Signer: no message, answer
 * or log line holds it — refusals name the file and what is wrong, never its content.
 */
import type { FastifyRequest } from 'fastify';
import { ProblemError } from '../core/problems.js';
import type { Clock } from '../core/runtime.js';
import {
  createSigner,
  SigningKeyError,
  signCanonical,
  signCanonicalPayload,
  type CanonicalPayload,
  type DetachedJws,
  type Signer,
  type SigningIdentity,
} from '../core/signing/index.js';
import { readJwkFile, shownPath } from '../runtime/key-file.js';
import { ConfigError } from '../runtime/node.js';
import type { ServerContext } from './context.js';
import { booleanOption } from './http.js';

/** What routes (and later features: evidence bundles) sign with: `sign(value, typ)` at the daemon's clock. */
export interface ResultSigner {
  readonly identity: SigningIdentity;
  /** A detached JWS over the RFC 8785 form of `value`, typ `typ`, signed now. */
  sign(value: unknown, typ: string): DetachedJws;
  /** The same for a payload prepared once (canonicalPayload), signed now. */
  signPayload(payload: CanonicalPayload, typ: string): DetachedJws;
}

export function resultSigner(signer: Signer, clock: Clock): ResultSigner {
  return {
    identity: signer.identity,
    sign: (value, typ) => signCanonical(value, signer, { typ, iat: clock.now() }),
    signPayload: (payload, typ) => signCanonicalPayload(payload, signer, { typ, iat: clock.now() }),
  };
}

/**
 * The daemon's signer from SVC_SIGNING_KEY (and SVC_SIGNING_DID), or undefined when no key is set.
 * Refuses to start (ConfigError, exit 2, one line naming the file and the fix) when the file is
 * open to group or others, cannot be read, is not JSON, or holds no key svc signs with.
 */
export async function readSigningKey(env: NodeJS.ProcessEnv): Promise<Signer | undefined> {
  const file = env['SVC_SIGNING_KEY'] ?? '';
  const did = env['SVC_SIGNING_DID']?.trim() || undefined;
  if (file === '') {
    if (did !== undefined) throw new ConfigError('SVC_SIGNING_DID is set but SVC_SIGNING_KEY is not: name the private JWK file to sign with');
    return undefined;
  }
  const jwk = await readJwkFile(file, { what: 'SVC_SIGNING_KEY', holds: 'a private JWK', exposed: 'refuse' });
  try {
    return createSigner(jwk, did !== undefined ? { did } : {});
  } catch (err) {
    if (!(err instanceof SigningKeyError)) throw err;
    const setting = err.message.startsWith('The signing DID') ? 'SVC_SIGNING_DID' : `SVC_SIGNING_KEY: ${shownPath(file)}`;
    throw new ConfigError(`${setting}: ${err.message.replace(/\.$/, '')}`);
  }
}

/** The requests whose answer is signed (plugins/signed-results.ts reads it). */
const SIGNED = new WeakSet<FastifyRequest>();

/**
 * Reads the `signed` option of a route that signs when asked: true marks the request, whose
 * answer then carries svc-signature; without a signing key it is 400 INVALID_OPTIONS — never an
 * unsigned answer in place of a signed one. Called before the work, so a refusal costs nothing.
 */
export function signedOption(ctx: ServerContext, request: FastifyRequest, query: Record<string, string>): boolean {
  if (!booleanOption(query, 'signed')) return false;
  if (ctx.signer === undefined) {
    throw new ProblemError(
      'INVALID_OPTIONS',
      'signed=true: this daemon has no signing key, so it cannot sign its answer; its operator sets SVC_SIGNING_KEY to a private JWK file (docs/daemon.md#signed-results).',
    );
  }
  SIGNED.add(request);
  return true;
}

/** Whether the request asked for a signed answer (and the daemon can sign). */
export function isSignedRequest(request: FastifyRequest): boolean {
  return SIGNED.has(request);
}
