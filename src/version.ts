declare const __SVC_VERSION__: string;

/** The package version, injected at build time (tsup `define`, vitest `define`). */
export const VERSION: string = typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : '0.0.0-dev';

/** Name and version reported in every result (`resolver`, history `resolverVersion`). */
export const RESOLVER = Object.freeze({ name: 'svc', version: VERSION });
