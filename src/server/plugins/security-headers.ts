/**
 * Security headers (docs/daemon.md#requests-and-answers) on every answer of the daemon — routed,
 * refused, unknown, and the problems written before any route (plugins/errors.ts). Set when the
 * request arrives, so a hook or handler that refuses it later keeps them.
 */
import type { FastifyInstance } from 'fastify';

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** onRequest (first of the app's hooks). */
export function securityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}
