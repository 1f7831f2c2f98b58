/**
 * Errors, answered once (docs/daemon.md#requests-and-answers): every error a hook or handler throws
 * becomes a problem (application/problem+json; on /1.0 the resolution result with the problem
 * embedded, http.ts), or on the web dossier's routes a page for a browser. Errors before any route
 * — a connection whose request cannot be read (malformed HTTP, headers or body past the time limit)
 * and the router's own (malformed percent-encoding) — are problems too, with the same headers.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '../../core/problems.js';
import type { AccessEntry } from '../access-log.js';
import type { ServerContext } from '../context.js';
import { isW3cPath, PROBLEM_JSON, problemFromError, sendProblem } from '../http.js';
import { clientKey } from '../rate-limit.js';
import { pageProblemFor, sendPage } from '../routes/web.js';
import { newRequestId, REQUEST_ID_HEADER } from '../request-id.js';
import { CORS_HEADERS } from './cors.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** The headers every answer carries (set by the onRequest hooks for routed requests). */
const RESPONSE_HEADERS = { ...SECURITY_HEADERS, ...CORS_HEADERS };

/** The error handler of the app. */
export function errorHandler(app: FastifyInstance, ctx: ServerContext): void {
  const { limits, runtime } = ctx;
  const problemsBase = runtime.config.problemsBase;
  app.setErrorHandler((err, request, reply) => {
    const problem = problemFromError(err, limits.bodyLimitBytes, { optionsBody: isW3cPath(request.url) });
    // The request may not even have been received whole (a body still trickling in): close the
    // connection after the 408 rather than keep reading (RFC 9110 §15.5.9).
    if (problem.code === 'REQUEST_TIMEOUT') reply.header('connection', 'close');
    if (problem.code === 'INTERNAL_ERROR') {
      runtime.log.error('request failed', { method: request.method, url: request.url, error: err instanceof Error ? err.message : String(err) });
    }
    // The web dossier's routes answer a browser with a page: what happened, what it means, what to do.
    const page = pageProblemFor(request, problem);
    if (page !== null) {
      if (problem.retryAfter !== undefined) reply.header('retry-after', String(problem.retryAfter));
      return sendPage(reply, problem.status, page);
    }
    return sendProblem(request, reply, problem, problemsBase);
  });
}

/**
 * Fastify's `frameworkErrors`: errors of the router itself (a path with malformed
 * percent-encoding) are a problem like any other, with the same headers, never Fastify's
 * default body echoing the path.
 */
export function frameworkErrors(problemsBase: string) {
  return (_error: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers(RESPONSE_HEADERS).header(REQUEST_ID_HEADER, request.id);
    sendProblem(request, reply, new ProblemError('INVALID_REQUEST', 'The request path has malformed percent-encoding.'), problemsBase);
  };
}

/**
 * Fastify's `clientErrorHandler`: errors on a connection before any request is routed (slow
 * headers or body past the time limit, malformed HTTP), answered as problem+json on the raw socket.
 */
export function clientErrorHandler(problemsBase: string, accessLog: ((entry: AccessEntry) => void) | undefined) {
  return (err: NodeJS.ErrnoException, socket: Socket) => {
    // A response already under way on this socket (the handler time limit answered a request
    // whose body was still arriving): a second response would break the framing; just close.
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || pending?.headersSent === true) return void socket.destroy();
    const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const problem = timeout
      ? new ProblemError('REQUEST_TIMEOUT', 'The request was not received within the time limit.')
      : new ProblemError('INVALID_REQUEST', 'The HTTP request could not be parsed.');
    // No request was read: the answer's id is a new one, in its header, body and log line alike.
    const requestId = newRequestId();
    const body = JSON.stringify({ ...problem.toProblem(problemsBase), requestId });
    const status = timeout ? '408 Request Timeout' : '400 Bad Request';
    const headers = Object.entries({ [REQUEST_ID_HEADER]: requestId, ...RESPONSE_HEADERS })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: ${PROBLEM_JSON}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`,
    );
    accessLog?.({ method: '-', route: null, status: timeout ? 408 : 400, durationMs: 0, client: clientKey(socket.remoteAddress ?? '-'), requestId });
  };
}
