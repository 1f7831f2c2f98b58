/**
 * HTTP plumbing shared by every route: the problem responses (one place decides a status),
 * identifiers taken raw from the request line, strict query options, and the route table that
 * lets an unknown method on a known path answer 405 instead of 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeIdentifier } from '../core/did/syntax.js';
import { isJsonObject, type JsonObject } from '../core/encoding/json.js';
import { asProblemError, ProblemError, type Problem } from '../core/problems.js';
import { truncate } from '../core/text.js';
import { isValidationFailure, validationProblem } from './compilers.js';
import { errorResolutionBody } from './w3c.js';
import { StoreError } from '../store/schema/errors.js';

export const PROBLEM_JSON = 'application/problem+json';
export const DID_RESOLUTION = 'application/did-resolution';

/**
 * Why the request's Host cannot be believed (RFC 9112 §3.2), or null: an HTTP/1.1 request
 * without one, more than one Host header (Node keeps only the first, so svc and an intermediary
 * could each act on a different one), or an absolute request target naming another authority
 * than the Host header. One pass over the raw header list; the target is parsed only in the
 * rare absolute form.
 */
export function hostProblem(raw: {
  httpVersion: string;
  rawHeaders: string[];
  url?: string | undefined;
  headers: { host?: string | undefined };
}): ProblemError | null {
  const names = raw.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < names.length; i += 2) {
    const name = names[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) return new ProblemError('INVALID_REQUEST', `The request carries ${hosts} Host headers; exactly one is allowed (RFC 9112 §3.2).`);
  const host = raw.headers.host;
  if (host === undefined) {
    return raw.httpVersion === '1.1' ? new ProblemError('INVALID_REQUEST', 'An HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).') : null;
  }
  const target = raw.url ?? '';
  if (target.charCodeAt(0) === 47 /* "/" */ || target === '*' || target === '') return null;
  const authority = authorityOf(target);
  if (authority === null || authority !== authorityOf(`http://${host}/`)) {
    return new ProblemError('INVALID_REQUEST', 'The absolute request target names another host than the Host header (RFC 9112 §3.2).');
  }
  return null;
}

/** The host[:port] of an absolute http(s) URL, normalised (lower case, default port dropped); null when it is not one. */
function authorityOf(url: string): string | null {
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** The W3C binding embeds errors in a resolution result but for a 406. */
export function isW3cPath(url: string): boolean {
  return url.startsWith('/1.0/');
}

/**
 * The body as the route's response schema for this status and media type serialises it (the
 * routes whose media types Fastify does not serialise itself: application/did,
 * application/did-resolution; and bodies serialised once and kept); JSON.stringify where the
 * route has no schema (404, 405).
 */
export function serialized(reply: FastifyReply, status: number, mediaType: string, body: unknown): string {
  const serialize = reply.getSerializationFunction(String(status), mediaType) as ((data: unknown) => string) | undefined;
  return serialize ? serialize(body) : JSON.stringify(body);
}

/** Sends a problem: problem+json, or on /1.0 the resolution result carrying it. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, err: ProblemError, problemsBase: string): FastifyReply {
  const problem: Problem = { ...err.toProblem(problemsBase), requestId: request.id };
  if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
  if (isW3cPath(request.url) && err.w3cStatus !== null && err.code !== 'REPRESENTATION_NOT_SUPPORTED') {
    return reply
      .code(err.w3cStatus)
      .type(DID_RESOLUTION)
      .send(serialized(reply, err.w3cStatus, DID_RESOLUTION, errorResolutionBody(problem)));
  }
  return reply.code(problem.status).type(PROBLEM_JSON).send(problem);
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
}

/**
 * Maps what Fastify throws before a handler runs (body too large, bad JSON, wrong content
 * type, a request its route schema refuses, handler time limit) to svc's codes; anything else
 * unknown is INTERNAL_ERROR, its message never echoed (it may carry attacker text).
 * `optionsBody`: the route's body holds resolution options (the W3C binding).
 */
export function problemFromError(err: unknown, bodyLimitBytes: number, options: { optionsBody?: boolean } = {}): ProblemError {
  if (err instanceof ProblemError) return err;
  // A database server that cannot be reached (PostgreSQL down or restarting): the request may
  // succeed again shortly; /ready says the same to the load balancer.
  if (err instanceof StoreError && err.code === 'UNAVAILABLE') {
    return new ProblemError('SERVICE_UNAVAILABLE', 'The database cannot be reached just now; try again shortly (/ready says why).', { retryAfter: 5 });
  }
  if (isValidationFailure(err)) return validationProblem(err, options);
  const { code, statusCode } = (typeof err === 'object' && err !== null ? err : {}) as FastifyLikeError;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError('PAYLOAD_TOO_LARGE', `The request body is larger than ${bodyLimitBytes} bytes (${bodyLimitBytes / 1024} KiB).`);
    case 'FST_ERR_HANDLER_TIMEOUT':
      return new ProblemError('REQUEST_TIMEOUT', 'The request ran past its time limit and was abandoned; no answer was produced.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError('INVALID_REQUEST', 'Request bodies must be application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ProblemError('INVALID_REQUEST', 'The request declares a JSON body but sends none.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ProblemError('INVALID_REQUEST', 'The Content-Length does not match the body sent.');
    default:
      break;
  }
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new ProblemError('INVALID_REQUEST', 'The request could not be read.');
  }
  return asProblemError(err);
}

/** The path of the request line, undecoded, without the query. */
function rawPath(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** The raw query string of the request line ('' when absent). */
export function rawQuery(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

/**
 * The identifier after `prefix` in the request path, taken from the raw request line and
 * decoded exactly once (docs/daemon.md#requests-and-answers): Fastify's own parameter decoding
 * would turn the `%3A` of a raw did:web port into a colon.
 */
export function identifierAfter(request: FastifyRequest, prefix: string, code: 'INVALID_DID' | 'INVALID_DID_URL' = 'INVALID_DID'): string {
  const raw = rawPath(request).slice(prefix.length);
  if (raw === '') throw new ProblemError(code, `No identifier after ${prefix}; put the DID in the path, raw or percent-encoded.`);
  try {
    return decodeIdentifier(raw);
  } catch (err) {
    if (err instanceof ProblemError && code === 'INVALID_DID_URL') throw new ProblemError(code, err.detail);
    throw err;
  }
}

/** Query options of one route: each known once, nothing unknown (INVALID_OPTIONS otherwise). */
export function queryOptions(request: FastifyRequest, allowed: readonly string[]): Record<string, string> {
  const query = (request.query ?? {}) as Record<string, string | string[]>;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name)) {
      const known = allowed.length > 0 ? `; this route takes ${allowed.join(', ')}` : '; this route takes none';
      throw new ProblemError('INVALID_OPTIONS', `Unknown query option "${truncate(name)}"${known}.`);
    }
    if (Array.isArray(value)) throw new ProblemError('INVALID_OPTIONS', `The query option "${name}" is given ${value.length} times; give it once.`);
    out[name] = value;
  }
  return out;
}

export function booleanOption(options: Record<string, string>, name: string): boolean {
  const value = options[name];
  if (value === undefined) return false;
  if (value === 'true' || value === '1' || value === '') return true;
  if (value === 'false' || value === '0') return false;
  throw new ProblemError('INVALID_OPTIONS', `The query option "${name}" must be true or false, not "${truncate(value)}".`);
}

/** Route patterns by method, for 405 answers (`:param` and `*` as Fastify writes them). */
export class RouteTable {
  readonly #routes: Array<{ method: string; pattern: RegExp }> = [];

  add(method: string, url: string): void {
    const source = url
      .split('/')
      .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    this.#routes.push({ method, pattern: new RegExp(`^${source}$`) });
  }

  /** Methods served at this path (HEAD with GET), empty when the path is unknown. */
  methodsFor(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.#routes) {
      if (route.pattern.test(path)) {
        methods.add(route.method);
        if (route.method === 'GET') methods.add('HEAD');
      }
    }
    if (methods.size > 0) methods.add('OPTIONS');
    return [...methods];
  }
}

/** The JSON object body of a POST route (no query options but `query`), or 400 INVALID_REQUEST. */
export function objectBody(request: FastifyRequest, query: readonly string[] = []): JsonObject {
  queryOptions(request, query);
  const body = request.body;
  if (body === undefined) throw new ProblemError('INVALID_REQUEST', 'The request needs a JSON object body (Content-Type: application/json).');
  if (!isJsonObject(body)) throw new ProblemError('INVALID_REQUEST', 'The request body must be a JSON object.');
  return body;
}

/** Refuses members other than `allowed`: a misspelt option must not be silently ignored. */
export function onlyMembers(body: JsonObject, allowed: readonly string[]): void {
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    throw new ProblemError(
      'INVALID_REQUEST',
      `Unknown member${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(truncate(k))).join(', ')}; the request takes ${allowed.join(', ')}.`,
    );
  }
}
