/**
 * Requests in flight: counted until their response closes (finished or abandoned),
 * for the drain, which waits for them and then closes every connection at once (serve.ts); each
 * logged as it closes (access-log.ts: method, route pattern, status, time, client — never a
 * header, query or body). While the daemon drains (after its notice period: serve.ts), a new request is refused (503
 * SERVICE_UNAVAILABLE, Retry-After 5) and every answer closes its connection: a kept-alive
 * socket would hold the shutdown open until the client or the keep-alive timeout lets go of it.
 */
import type { FastifyInstance } from 'fastify';
import { ProblemError } from '../../core/problems.js';
import type { AccessEntry } from '../access-log.js';
import type { ServerContext } from '../context.js';
import { clientOf } from '../rate-limit.js';
import type { RequestSpan } from '../telemetry.js';

/** onRequest, after the response headers; and onSend. Callback-style hooks: no promise per request on the hot path. */
export function inFlight(app: FastifyInstance, ctx: ServerContext, accessLog: ((entry: AccessEntry) => void) | undefined): void {
  const telemetry = ctx.telemetry;
  app.addHook('onRequest', (request, reply, done) => {
    ctx.active += 1;
    const res = reply.raw;
    // With telemetry, the rest of the request runs inside its span (telemetry.ts).
    let span: RequestSpan | undefined;
    res.once('close', () => {
      ctx.active -= 1;
      const route = request.routeOptions.url ?? null;
      const status = res.headersSent ? res.statusCode : null;
      span?.end(route, status);
      accessLog?.({
        method: request.method,
        route,
        status,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        client: clientOf(request),
        requestId: request.id,
      });
    });
    const proceed = () => {
      if (ctx.draining) {
        reply.header('connection', 'close');
        return done(new ProblemError('SERVICE_UNAVAILABLE', 'svc is shutting down; retry against another instance or after the restart.', { retryAfter: 5 }));
      }
      done();
    };
    if (telemetry) span = telemetry.request(request.method, request.id, proceed);
    else proceed();
  });
  // Answers finished while draining close their connection.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (ctx.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}
