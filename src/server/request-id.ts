/**
 * Request ids (docs/daemon.md#request-ids): every request of the daemon and of the cookie gateway
 * has one, Fastify's `request.id`. An incoming `X-Request-Id` of sane shape — 1 to 128 characters
 * from A-Z a-z 0-9 . _ : - — is kept (a proxy's or a client's own id follows the request); anything
 * else (too long, a space, a control character, repeated headers) is dropped, never echoed, and a
 * new id is made: `req_` and 16 random bytes in base64url. The id is the `X-Request-Id` response
 * header of every answer, the `requestId` of every problem body and SSE error frame, and the
 * `requestId` of the request's access-log line.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** The shape of an incoming id that is kept. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Random bytes drawn 256 ids at a time: one call into OpenSSL per 256 requests instead of one each. */
const POOL_BYTES = 16 * 256;
let pool = Buffer.alloc(0);
let taken = 0;

/** A new id: `req_` and 16 random bytes, base64url (22 characters). */
export function newRequestId(): string {
  if (taken + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  const id = `req_${pool.toString('base64url', taken, taken + 16)}`;
  taken += 16;
  return id;
}

/** The id of a request: its `X-Request-Id` when of sane shape, else a new one. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : newRequestId();
}

/** Fastify's `genReqId` (with `requestIdHeader: false`, so that only this reads the header). */
export function genReqId(req: IncomingMessage): string {
  return requestIdOf(req.headers[REQUEST_ID_HEADER]);
}

/**
 * onRequest, first of all: the id on every answer, refusals included, and with it the headers every
 * answer carries (`fixed`: the security and CORS headers) — one hook rather than one per header set.
 */
export function responseHeaders(app: FastifyInstance, fixed: Readonly<Record<string, string>>): void {
  const names = Object.keys(fixed);
  const values = names.map((name) => fixed[name]!);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    for (let i = 0; i < names.length; i++) reply.header(names[i]!, values[i]!);
    done();
  });
}
