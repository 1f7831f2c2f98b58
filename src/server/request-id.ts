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

/** A new id: `req_` and 16 random bytes, base64url (22 characters). */
export function newRequestId(): string {
  return `req_${randomBytes(16).toString('base64url')}`;
}

/** The id of a request: its `X-Request-Id` when of sane shape, else a new one. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID_PATTERN.test(header) ? header : newRequestId();
}

/** Fastify's `genReqId` (with `requestIdHeader: false`, so that only this reads the header). */
export function genReqId(req: IncomingMessage): string {
  return requestIdOf(req.headers[REQUEST_ID_HEADER]);
}

/** onRequest, first of all: the id on every answer, refusals included. */
export function requestIdResponseHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
