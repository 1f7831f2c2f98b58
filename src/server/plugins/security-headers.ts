/**
 * Security headers (docs/daemon.md#requests-and-answers) on every answer of the daemon — routed,
 * refused, unknown, and the problems written before any route (plugins/errors.ts). Set when the
 * request arrives (the app's first onRequest hook, request-id.ts responseHeaders), so a hook or
 * handler that refuses it later keeps them.
 */

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;
