/**
 * The Host header: a request without one, or with a malformed one, is 400
 * INVALID_REQUEST as a problem with the headers of every answer (Fastify's requireHostHeader is
 * off: Node's own answer would be a bare 400), and its connection is closed.
 */
import type { FastifyInstance } from 'fastify';
import { hostProblem } from '../http.js';

/** onRequest, after the requests in flight are counted and before any budget is charged. */
export function hostHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const badHost = hostProblem(request.raw);
    if (badHost !== null) {
      reply.header('connection', 'close');
      return done(badHost);
    }
    done();
  });
}
