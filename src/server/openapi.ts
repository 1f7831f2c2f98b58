/**
 * The OpenAPI 3.1 document of the daemon: its fixed parts (info, servers, budgets) and the
 * options of @fastify/swagger, which generates `paths` and `components.schemas` from the route
 * schemas (schemas/). GET /openapi.json serves it; `npm run openapi` writes the same bytes to
 * openapi.json at the repository root (committed; test/integration/openapi.test.ts holds the two
 * equal).
 *
 * Nothing in the document depends on the daemon's configuration (profile, limits, port): every
 * daemon serves the same bytes. Budgets are documented with their defaults (SPEC §4, §8).
 *
 * `webhooks` documents the operator monitor event of SPEC §6.2 (schemas/webhooks.ts): its
 * envelope, headers and signature, so receivers can be written and checked against it.
 */
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { VERSION } from '../version.js';
import type { Budget } from './context.js';
import { DEFAULT_LIMITS } from './limits.js';
import { WEBHOOKS } from './schemas/webhooks.js';

/**
 * The `x-svc-budget` of an operation: `resolve` draws on standard, intensive for did:webvh;
 * `inspection` on intensive, none without a query.
 */
export function budgetExtension(budget: Budget): Record<string, string> {
  if (budget === 'resolve') return { 'x-svc-budget': 'standard', 'x-svc-budget-did-webvh': 'intensive' };
  if (budget === 'inspection') return { 'x-svc-budget': 'intensive', 'x-svc-budget-without-query': 'none' };
  return { 'x-svc-budget': budget };
}

/** Budgets (SPEC §4, §8), documented once at the top of the document with their defaults. */
const BUDGETS = {
  description:
    'Per-client rate budgets. Each operation names its budget in x-svc-budget. The public profile (svc serve --public) ' +
    'has the standard and intensive budgets; the direct profile one bucket per client shared by every budgeted route ' +
    '(SVC_RATE_LIMIT_PER_MIN). Over budget: 429 RATE_LIMITED with Retry-After. Routes with budget "none" are never rate limited.',
  standard: { publicPerMinute: DEFAULT_LIMITS.standardPerMinute },
  intensive: { publicPerMinute: DEFAULT_LIMITS.intensivePerMinute },
  none: {},
  directPerMinute: DEFAULT_LIMITS.directPerMinute,
} as const;

/**
 * A wildcard route (`/v1/resolve/*`) is documented with a named path parameter: the name of the
 * one property of the route's params schema (`/v1/resolve/{did}`), `did` when it has none.
 */
export function documentedUrl(url: string, params: unknown): string {
  if (!url.includes('*')) return url;
  const properties = (params as { properties?: Record<string, unknown> } | undefined)?.properties;
  const name = properties ? Object.keys(properties)[0] : undefined;
  return url.replace('*', `:${name ?? 'did'}`);
}

export function swaggerOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'svc',
        version: VERSION,
        description:
          'Identity evidence service: resolves DIDs and reports what can actually be shown about them, dimension by dimension; ' +
          'verifies credentials, JWS, delegation receipts and policies; inspects MCP servers and A2A agent cards. ' +
          'Errors are RFC 9457 problems (application/problem+json); the /1.0 routes follow the W3C DID Resolution HTTPS binding.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: 'http://127.0.0.1:8080', description: 'svc serve with its default --host and --port' }],
      webhooks: WEBHOOKS as unknown as Record<string, object>,
      // An extension (copied to the document as it is); the type of `openapi` has no room for it.
      ...({ 'x-svc-budgets': BUDGETS } as object),
    },
    // Components are named by their `$id` (not def-0, def-1…).
    refResolver: {
      buildLocalReference: (json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, i: number) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: ({ schema, url }) => {
      const documented = documentedUrl(url, (schema as { params?: unknown } | undefined)?.params);
      return { schema, url: documented };
    },
  };
}

/** The document as served and committed: pretty, with a trailing newline. */
export function openApiText(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}
