/**
 * Unknown paths and methods: 405 METHOD_NOT_ALLOWED with Allow where the path is served by
 * other methods, 404 NOT_FOUND otherwise (a route not mounted on this profile included).
 */
import type { FastifyInstance } from 'fastify';
import { ProblemError } from '../../core/problems.js';
import { truncate } from '../../core/text.js';
import type { RouteTable } from '../http.js';

export function notFound(path: string): ProblemError {
  return new ProblemError('NOT_FOUND', `No route ${truncate(path, 120)}.`);
}

/** The not-found handler over `table` (the mounted routes). Charged once, by the budgets' onRequest hook (which runs for it too). */
export function notFoundHandler(app: FastifyInstance, table: RouteTable): void {
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const methods = table.methodsFor(path);
    if (methods.length > 0) {
      reply.header('allow', methods.join(', '));
      throw new ProblemError('METHOD_NOT_ALLOWED', `${request.method} is not served at ${truncate(path, 120)}; use ${methods.join(', ')}.`);
    }
    throw notFound(path);
  });
}
