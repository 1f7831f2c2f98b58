/**
 * The API contract (docs/daemon.md#requests-and-answers): every route's schema goes into the
 * OpenAPI 3.1 document, validates its requests and serialises its JSON responses (compilers.ts).
 * This plugin registers @fastify/swagger, which generates `paths` and `components.schemas` (named
 * by `$id`, in the order of schemas/index.ts) from the route schemas (schemas/), and holds the
 * document's fixed parts (info, servers, budgets). GET /openapi.json serves it; `npm run openapi`
 * writes the same bytes to openapi.json at the repository root (committed;
 * test/integration/openapi.e2e.test.ts holds the two equal).
 *
 * Nothing in the document depends on the daemon's configuration (profile, limits, port): every
 * daemon serves the same bytes. Budgets are documented with their defaults.
 *
 * `webhooks` documents the operator monitor event (schemas/webhooks.ts): its
 * envelope, headers and signature, so receivers can be written and checked against it.
 */
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { VERSION } from '../../version.js';
import { schemaCompilers } from '../compilers.js';
import type { Budget, RouteDef } from '../context.js';
import { queryOptions } from '../http.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { json, problem, type RouteSchema } from '../schemas/common.js';
import { ALL_SCHEMAS } from '../schemas/index.js';
import { WEBHOOKS } from '../schemas/webhooks.js';

/**
 * Registers @fastify/swagger (loaded with the app: its onRoute hook sees the routes, which are
 * added after it, app.ts) and every `$id` schema, and makes the schemas the app's validator and
 * serializer (compilers.ts).
 */
export function openApi(app: FastifyInstance): void {
  void app.register(swagger, swaggerOptions());
  for (const schema of ALL_SCHEMAS) app.addSchema(schema);
  const { validatorCompiler, serializerCompiler } = schemaCompilers(ALL_SCHEMAS);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
}

/**
 * GET /openapi.json (both profiles): the document, built once on the first request. Budget
 * none, like /health: it is static, computed once, and clients and gateways fetch it to learn
 * the API before anything else.
 */
export function openApiRoute(text: () => string): RouteDef {
  return {
    method: 'GET',
    url: '/openapi.json',
    budget: 'none',
    handler: async (request, reply) => {
      queryOptions(request, []);
      return reply.type('application/json; charset=utf-8').send(text());
    },
    schema: {
      summary: 'The OpenAPI 3.1 document of this API',
      operationId: 'openApi',
      tags: ['service'],
      querystring: Type.Object({}, { additionalProperties: false }),
      response: {
        200: json(
          Type.Object({ openapi: Type.Literal('3.1.0'), info: Type.Object({}), paths: Type.Object({}) }),
          'The OpenAPI 3.1 document (the same bytes as openapi.json in the repository)',
        ),
        400: problem('INVALID_OPTIONS: a query option was given (this route takes none); INVALID_REQUEST: no Host header, or malformed percent-encoding'),
        503: problem('SERVICE_UNAVAILABLE: the daemon is shutting down'),
      },
    },
  };
}

/** What every public API route may answer to a bad project key (commercial mode, direct profile). */
const KEY_REFUSED = problem(
  'UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored).',
);

/** A route's schema as Fastify (and @fastify/swagger) take it, with the route's budget; a keyed route also answers 401. */
export function routeSchema(schema: RouteSchema, budget: Budget, keyed: boolean): Record<string, unknown> {
  return {
    summary: schema.summary,
    operationId: schema.operationId,
    ...(schema.description !== undefined ? { description: schema.description } : {}),
    tags: schema.tags,
    ...(schema.params ? { params: schema.params } : {}),
    ...(schema.querystring ? { querystring: schema.querystring } : {}),
    ...(schema.body ? { body: schema.body } : {}),
    response: keyed && !('401' in schema.response) ? { ...schema.response, 401: KEY_REFUSED } : schema.response,
    ...budgetExtension(budget),
  };
}

/**
 * The `x-svc-budget` of an operation: `resolve` draws on standard, intensive for did:webvh;
 * `inspection` on intensive, none without a query.
 */
export function budgetExtension(budget: Budget): Record<string, string> {
  if (budget === 'resolve') return { 'x-svc-budget': 'standard', 'x-svc-budget-did-webvh': 'intensive' };
  if (budget === 'inspection') return { 'x-svc-budget': 'intensive', 'x-svc-budget-without-query': 'none' };
  return { 'x-svc-budget': budget };
}

/** Budgets, documented once at the top of the document with their defaults. */
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
      buildLocalReference: (json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, i: number) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
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
