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
import { readFile, stat } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { parseJsonStrict } from '../core/encoding/json.js';
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

/** A key file larger than this is no JWK. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/** A path as a message shows it: control characters escaped, at most 200 characters. */
function shown(file: string): string {
  const text = file.length > 200 ? `${file.slice(0, 200)}…` : file;
  return /[\u0000-\u001f\u007f\s'"]/.test(text) ? JSON.stringify(text) : text;
}

function unreadable(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return (err as NodeJS.ErrnoException).code ?? 'it cannot be read';
  }
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
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    throw new ConfigError(`SVC_SIGNING_KEY: cannot read ${shown(file)}: ${unreadable(err)}`);
  }
  if (info.isDirectory()) throw new ConfigError(`SVC_SIGNING_KEY: cannot read ${shown(file)}: it is a directory`);
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
    throw new ConfigError(
      `SVC_SIGNING_KEY: the private key file ${shown(file)} is open to group or others (mode ${mode}); restrict it with: chmod 600 ${shown(file)}`,
    );
  }
  if (info.size > MAX_KEY_FILE_BYTES) throw new ConfigError(`SVC_SIGNING_KEY: ${shown(file)} is larger than 64 KiB: it is no JWK`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(file));
  } catch (err) {
    throw new ConfigError(`SVC_SIGNING_KEY: cannot read ${shown(file)}: ${err instanceof TypeError ? 'it is not UTF-8 text' : unreadable(err)}`);
  }
  let jwk: unknown;
  try {
    jwk = parseJsonStrict(text, { maxDepth: 8 });
  } catch {
    // The parser's message could quote the file's content (the key): it is not repeated.
    throw new ConfigError(`SVC_SIGNING_KEY: ${shown(file)} is not a JSON object (a private JWK, as svc keygen writes)`);
  }
  try {
    return createSigner(jwk, did !== undefined ? { did } : {});
  } catch (err) {
    if (!(err instanceof SigningKeyError)) throw err;
    const setting = err.message.startsWith('The signing DID') ? 'SVC_SIGNING_DID' : `SVC_SIGNING_KEY: ${shown(file)}`;
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
