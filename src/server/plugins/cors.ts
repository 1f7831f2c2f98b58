/**
 * CORS: any origin may read any answer (no credentials are involved: the API's bearer
 * tokens are not cookies), and a preflight is answered for every known path with the methods
 * served there. The headers are on every answer, refusals included (set with the security headers:
 * request-id.ts responseHeaders).
 */
import type { FastifyInstance } from 'fastify';
import type { RouteTable } from '../http.js';
import { notFound } from './not-found.js';

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After, Content-Type, Svc-Signature, X-Request-Id',
} as const;

/** OPTIONS on every path of `table` (the mounted routes): 204 with the methods; an unknown path is 404. */
export function corsPreflight(app: FastifyInstance, table: RouteTable): void {
  app.options('*', { config: { budget: 'none' }, schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const methods = table.methodsFor(path);
    if (methods.length === 0) throw notFound(path);
    const requested = request.headers['access-control-request-headers'];
    return reply
      .code(204)
      .headers({
        'access-control-allow-methods': methods.join(', '),
        'access-control-allow-headers': typeof requested === 'string' && requested.length <= 1024 ? requested : 'Accept, Content-Type',
        'access-control-max-age': '600',
      })
      .send();
  });
}
