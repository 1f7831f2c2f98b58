/**
 * The daemon as a Fastify app, composed: the cross-cutting rules are plugins (plugins/), each
 * registered here once and in this order — the order of the onRequest hooks is the order in
 * which a request is admitted (headers first, so every refusal carries them; budgets last,
 * before any body is read). Routes (routes/, with their schemas in schemas/) only translate to
 * and from the core; background work is in jobs/, started by serve.ts.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { AccessEntry } from './access-log.js';
import type { ServerContext } from './context.js';
import { RouteTable } from './http.js';
import { bodyParser } from './plugins/body-parser.js';
import { budgets } from './plugins/budgets.js';
import { CORS_HEADERS, corsPreflight } from './plugins/cors.js';
import { clientErrorHandler, errorHandler, frameworkErrors } from './plugins/errors.js';
import { hostHeader } from './plugins/host-header.js';
import { inFlight } from './plugins/in-flight.js';
import { notFound, notFoundHandler } from './plugins/not-found.js';
import { openApi, openApiRoute, openApiText, routeSchema } from './plugins/openapi.js';
import { SECURITY_HEADERS } from './plugins/security-headers.js';
import { signedResults } from './plugins/signed-results.js';
import { appRoutes } from './routes/index.js';
import { genReqId, responseHeaders } from './request-id.js';

export interface AppOptions {
  /** Milliseconds clock for the rate buckets (tests may step it). */
  nowMs?: () => number;
  /** Proxies (IPs / CIDRs, SVC_TRUST_PROXY) whose X-Forwarded-For names the client; none: ignored. */
  trustProxy?: readonly string[];
  /** Where the access log goes: one entry per request (see AccessEntry); none: no access log. */
  accessLog?: (entry: AccessEntry) => void;
}

export function buildApp(ctx: ServerContext, options: AppOptions = {}): FastifyInstance {
  const { limits, runtime, profile } = ctx;
  const problemsBase = runtime.config.problemsBase;
  const nowMs = options.nowMs ?? (() => runtime.clock.now().getTime());
  const app: FastifyInstance = Fastify({
    logger: false,
    // request.id: the client's X-Request-Id when of sane shape, else a new one (request-id.ts).
    requestIdHeader: false,
    genReqId,
    bodyLimit: limits.bodyLimitBytes,
    // Receiving the request: Node's own timers, which need the headers timeout and a short
    // checking interval to fire on time.
    requestTimeout: limits.requestTimeoutMs,
    // requireHostHeader off: Node's own answer to an HTTP/1.1 request without Host is a bare 400
    // with no body and none of the headers every answer carries; the onRequest hook answers it as a problem.
    http: {
      headersTimeout: Math.min(limits.requestTimeoutMs, 60_000),
      connectionsCheckingInterval: Math.min(1_000, limits.requestTimeoutMs),
      requireHostHeader: false,
    },
    keepAliveTimeout: 10_000,
    // did:jwk identifiers run to hundreds of characters; the router's default cap is 100.
    routerOptions: { maxParamLength: 16_384 },
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    trustProxy: trustProxyOption(options.trustProxy),
    clientErrorHandler: clientErrorHandler(problemsBase, options.accessLog),
    frameworkErrors: frameworkErrors(problemsBase),
  });

  // onRequest, in this order: response headers (the request id, the security and CORS headers: one hook); the
  // request counted in flight (and refused while draining); the Host check; the budget. Each may refuse, skipping those after it.
  responseHeaders(app, { ...SECURITY_HEADERS, ...CORS_HEADERS });
  inFlight(app, ctx, options.accessLog);
  hostHeader(app);
  budgets(app, ctx, nowMs);
  bodyParser(app);
  errorHandler(app, ctx);
  openApi(app);
  signedResults(app, ctx);

  const table = new RouteTable();
  const routes = appRoutes(ctx);
  let document: string | undefined;
  routes.push(openApiRoute(() => (document ??= openApiText(app))));
  for (const route of routes) if (route.directOnly !== true || profile === 'direct') table.add(route.method, route.url);
  // The routes are added once the swagger plugin has loaded (its onRoute hook sees them), in the
  // root context (skip-override, as fastify-plugin does): the hooks above apply to them as before.
  const addRoutes = async (instance: FastifyInstance) => {
    for (const route of routes) {
      // Not mounted on the public profile: documented alike (one document for every daemon),
      // answered as an unknown path (no handler, no route options, no CORS/405 entry).
      const unmounted = route.directOnly === true && profile !== 'direct';
      instance.route({
        method: route.method,
        url: route.url,
        config: { budget: route.budget, keyed: route.auth === undefined && route.budget !== 'none', bridged: route.auth === 'bridge' },
        ...(route.stream ? {} : { handlerTimeout: limits.requestTimeoutMs }),
        ...(route.schema ? { schema: routeSchema(route.schema, route.budget, route.auth === undefined && route.budget !== 'none') } : {}),
        ...(unmounted
          ? {
              onRequest: (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => done(notFound(request.url.split('?')[0]!)),
              handler: async () => undefined,
            }
          : { ...route.options, handler: route.handler }),
      });
    }
  };
  void app.register(Object.assign(addRoutes, { [Symbol.for('skip-override')]: true }));

  corsPreflight(app, table);
  notFoundHandler(app, table);
  return app;
}

/**
 * Only the listed proxies (proxy-addr: X-Forwarded-For is read from the right, up to the first
 * address not listed); never `true` or a hop count, which would let any client that connects
 * directly name itself (SVC_TRUST_PROXY refuses them).
 */
function trustProxyOption(value: AppOptions['trustProxy']): string[] | false {
  return value !== undefined && value.length > 0 ? [...value] : false;
}
