/**
 * The daemon as a Fastify app. Cross-cutting rules live here once: security and CORS headers,
 * rate budgets, the strict JSON body parser, one error handler (problem+json; embedded results
 * on /1.0), 404 and 405 answers, time limits. Routes only translate to and from the core.
 */
import type { Socket } from 'node:net';
import swagger from '@fastify/swagger';
import Type from 'typebox';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { parseJsonStrict, StrictJsonError } from '../core/encoding/json.js';
import { ProblemError } from '../core/problems.js';
import { truncate } from '../core/text.js';
import { clientKey, clientOf, TokenBuckets } from './rate-limit.js';
import type { Budget, RouteDef, ServerContext } from './context.js';
import { schemaCompilers } from './compilers.js';
import { hostProblem, isW3cPath, PROBLEM_JSON, problemFromError, queryOptions, RouteTable, sendProblem } from './http.js';
import { budgetExtension, openApiText, swaggerOptions } from './openapi.js';
import { json, problem, type RouteSchema } from './schemas/common.js';
import { ALL_SCHEMAS } from './schemas/index.js';
import { delegationRoutes } from './routes/delegation.js';
import { inspectionRoutes } from './routes/inspection.js';
import { claimRoutes } from './routes/claims.js';
import { commercialRoutes } from './routes/commercial.js';
import { monitoringRoutes } from './routes/monitoring.js';
import { sessionKeyRoutes } from './routes/session-keys.js';
import { KeyedRequests, presentedKey } from './project-keys.js';
import { bridgedSubject } from './commercial.js';
import { probeRoutes } from './routes/probes.js';
import { resolutionRoutes } from './routes/resolution.js';
import { sessionProjectRoutes } from './routes/session-projects.js';
import { sessionMonitorRoutes } from './routes/session-monitor.js';
import { vcApiRoutes } from './routes/vc-api.js';
import { verificationRoutes } from './routes/verification.js';
import { w3cRoutes } from './routes/w3c.js';
import { pageProblemFor, sendPage, webRoutes } from './routes/web.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    budget?: Budget;
    /** A public API route: `Bearer svck_…` is a project key there while the commercial mode is on. */
    keyed?: boolean;
    /** A session-core route: a request the gateway bridged draws on its owner's bucket, not the loopback client's. */
    bridged?: boolean;
  }
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After, Content-Type',
} as const;

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

const RESPONSE_HEADERS = { ...SECURITY_HEADERS, ...CORS_HEADERS };

export interface AppOptions {
  /** Milliseconds clock for the rate buckets (tests may step it). */
  nowMs?: () => number;
  /** Proxies (IPs / CIDRs, SVC_TRUST_PROXY) whose X-Forwarded-For names the client; none: ignored. */
  trustProxy?: readonly string[];
  /** Where the access log goes: one entry per request (see AccessEntry); none: no access log. */
  accessLog?: (entry: AccessEntry) => void;
}

/**
 * One access-log entry: what was asked (method and route pattern — never the raw path or query,
 * which may carry credentials), the answer, its time and the client. Never a header, cookie,
 * token or body.
 */
export interface AccessEntry {
  method: string;
  /** The route pattern (`/v1/resolve/*`), or null when no route matched or the request was unreadable. */
  route: string | null;
  /** The status sent, or null when the client left before any answer. */
  status: number | null;
  durationMs: number;
  client: string;
}

/**
 * Errors on a connection before any request is routed (slow headers or body past the time
 * limit, malformed HTTP): answered as problem+json on the raw socket.
 */
function clientErrorHandler(problemsBase: string, accessLog: AppOptions['accessLog']) {
  return (err: NodeJS.ErrnoException, socket: Socket) => {
    // A response already under way on this socket (the handler time limit answered a request
    // whose body was still arriving): a second response would break the framing; just close.
    const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || pending?.headersSent === true) return void socket.destroy();
    const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const problem = timeout
      ? new ProblemError('REQUEST_TIMEOUT', 'The request was not received within the time limit.')
      : new ProblemError('INVALID_REQUEST', 'The HTTP request could not be parsed.');
    const body = JSON.stringify(problem.toProblem(problemsBase));
    const status = timeout ? '408 Request Timeout' : '400 Bad Request';
    const headers = Object.entries(RESPONSE_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: ${PROBLEM_JSON}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`,
    );
    accessLog?.({ method: '-', route: null, status: timeout ? 408 : 400, durationMs: 0, client: clientKey(socket.remoteAddress ?? '-') });
  };
}

export function buildApp(ctx: ServerContext, options: AppOptions = {}): FastifyInstance {
  const { limits, runtime, profile } = ctx;
  const problemsBase = runtime.config.problemsBase;
  const nowMs = options.nowMs ?? (() => runtime.clock.now().getTime());
  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: limits.bodyLimitBytes,
    // Receiving the request: Node's own timers, which need the headers timeout and a short
    // checking interval to fire on time (DESIGN §10).
    requestTimeout: limits.requestTimeoutMs,
    // requireHostHeader off: Node's own answer to an HTTP/1.1 request without Host is a bare 400
    // with no body and none of the SPEC's headers; the onRequest hook answers it as a problem.
    http: { headersTimeout: Math.min(limits.requestTimeoutMs, 60_000), connectionsCheckingInterval: Math.min(1_000, limits.requestTimeoutMs), requireHostHeader: false },
    keepAliveTimeout: 10_000,
    // did:jwk identifiers run to hundreds of characters; the router's default cap is 100.
    routerOptions: { maxParamLength: 16_384 },
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    trustProxy: trustProxyOption(options.trustProxy),
    clientErrorHandler: clientErrorHandler(problemsBase, options.accessLog),
    // Errors of the router itself (a path with malformed percent-encoding): a problem like any
    // other, with the same headers, never Fastify's default body echoing the path.
    frameworkErrors: (_error, request, reply) => {
      reply.headers(RESPONSE_HEADERS);
      sendProblem(request, reply, new ProblemError('INVALID_REQUEST', 'The request path has malformed percent-encoding.'), problemsBase);
    },
  });

  // Budgets (SPEC §4, §8). The direct daemon has one bucket per client for every route but the
  // probes, answering 429 with Retry-After: 1; the public profile has the standard and
  // intensive budgets, with the wait until the next token as Retry-After.
  const direct = new TokenBuckets(limits.directPerMinute, nowMs);
  const standard = new TokenBuckets(limits.standardPerMinute, nowMs);
  const intensive = new TokenBuckets(limits.intensivePerMinute, nowMs);
  // Several daemons on one PostgreSQL database share the public budgets: the bucket is the
  // database's (one statement on its clock), so N replicas still give each client 20/min and
  // 10/min. While the database cannot be reached, this replica's own bucket decides — a client
  // then gets at most N times its budget, rather than every client being refused.
  const chargePublic = (kind: 'standard' | 'intensive', client: string): void | Promise<void> => {
    const per = kind === 'intensive' ? limits.intensivePerMinute : limits.standardPerMinute;
    const refuse = (outcome: { allowed: true } | { allowed: false; retryAfterSeconds: number }): void => {
      if (!outcome.allowed) throw rateLimited(outcome.retryAfterSeconds, `the ${kind} budget of ${per} requests per minute`);
    };
    const local = () => refuse((kind === 'intensive' ? intensive : standard).take(client));
    const shared = ctx.storage.shared;
    if (!shared) return local();
    return shared.budgets.take(`${kind}:${client}`, per).then(refuse, (err: unknown) => {
      runtime.log.warn('the shared budget could not be read; this replica decides alone', { error: err instanceof Error ? err.message : String(err) });
      local();
    });
  };
  // Project keys (commercial mode, direct profile): a keyed request draws on its project's bucket
  // (the direct budget's size) instead of the client's, and counts usage (project-keys.ts).
  if (profile === 'direct' && ctx.commercial?.enabled && !ctx.keyed) {
    ctx.keyed = new KeyedRequests(() => runtime.store?.accounts, limits.directPerMinute, nowMs, () => runtime.clock.now(), runtime.log);
  }
  const keyed = profile === 'direct' ? ctx.keyed : undefined;
  const charge = (request: FastifyRequest, routeBudget: Budget): void | Promise<void> => {
    const budget = routeBudget === 'inspection' ? (hasQuery(request) ? 'intensive' : 'none') : routeBudget;
    if (budget === 'none') return;
    if (keyed && request.routeOptions.config.keyed === true) {
      const key = presentedKey(request.headers.authorization);
      if (key !== undefined) return keyed.admit(key);
    }
    // Every owner reaches the session core through the gateway, from loopback: a request carrying
    // this start's bridge secret is charged to its owner (the subject the gateway vouches for).
    const owner = request.routeOptions.config.bridged === true ? bridgedSubject(ctx.commercial, request) : null;
    const client = owner !== null ? `owner:${owner}` : clientOf(request);
    if (profile === 'direct') {
      if (!direct.take(client).allowed) throw rateLimited(1, `${limits.directPerMinute} requests per minute`);
      return;
    }
    return chargePublic(budget === 'resolve' ? (isWebvhRequest(request) ? 'intensive' : 'standard') : budget, client);
  };

  // Callback-style hooks: no promise per request on the hot path.
  const accessLog = options.accessLog;
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(RESPONSE_HEADERS);
    // Requests in flight, until their response closes (finished or abandoned): the drain waits
    // for these, then closes every connection at once (idle keep-alive ones included).
    ctx.active += 1;
    const res = reply.raw;
    res.once('close', () => {
      ctx.active -= 1;
      accessLog?.({
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: res.headersSent ? res.statusCode : null,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        client: clientOf(request),
      });
    });
    if (ctx.draining) {
      reply.header('connection', 'close');
      return done(new ProblemError('SERVICE_UNAVAILABLE', 'svc is shutting down; retry against another instance or after the restart.', { retryAfter: 5 }));
    }
    const badHost = hostProblem(request.raw);
    if (badHost !== null) {
      reply.header('connection', 'close');
      return done(badHost);
    }
    // Budgets before bodies: the token is taken when the request arrives, so a body that then
    // fails to parse (400) or is too large (413) has cost its token, and a request over budget
    // is answered 429 before its body is read or parsed. A body still on its way is not read
    // at all: the connection closes after the 429 instead of draining it.
    const refuse = (err: unknown) => {
      if (hasPendingBody(request)) {
        // Not one more byte of it is read: the socket stops reading now and is closed as soon as
        // the 429 is flushed (the rest of the body dies with the connection).
        request.raw.pause();
        reply.header('connection', 'close');
        reply.raw.once('finish', () => request.raw.socket.destroy());
      }
      done(err as Error);
    };
    let pending: void | Promise<void>;
    try {
      pending = charge(request, request.routeOptions.config.budget ?? 'standard');
    } catch (err) {
      return refuse(err);
    }
    // A shared budget is read from the database; an in-memory one answers at once.
    if (pending) pending.then(() => done(), refuse);
    else done();
  });
  // Answers finished while draining close their connection: a kept-alive socket would hold
  // the shutdown open until the client or the keep-alive timeout lets go of it.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (ctx.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  // Bodies: JSON only, parsed strictly (duplicate members are ambiguous → 400 INVALID_REQUEST).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonStrict(text));
    } catch (err) {
      const reason = err instanceof StrictJsonError ? err.message : 'not JSON';
      done(new ProblemError('INVALID_REQUEST', `The request body is not acceptable JSON: ${reason}.`), undefined);
    }
  });

  app.setErrorHandler((err, request, reply) => {
    const problem = problemFromError(err, limits.bodyLimitBytes, { optionsBody: isW3cPath(request.url) });
    // The request may not even have been received whole (a body still trickling in): close the
    // connection after the 408 rather than keep reading (RFC 9110 §15.5.9).
    if (problem.code === 'REQUEST_TIMEOUT') reply.header('connection', 'close');
    if (problem.code === 'INTERNAL_ERROR') {
      runtime.log.error('request failed', { method: request.method, url: request.url, error: err instanceof Error ? err.message : String(err) });
    }
    // The web dossier's routes answer a browser with a page: what happened, what it means, what to do.
    const page = pageProblemFor(request, problem);
    if (page !== null) {
      if (problem.retryAfter !== undefined) reply.header('retry-after', String(problem.retryAfter));
      return sendPage(reply, problem.status, page);
    }
    return sendProblem(request, reply, problem, problemsBase);
  });

  // The API contract (SPEC §4): every route's schema goes into the OpenAPI document, validates
  // its requests and serialises its JSON responses (compilers.ts).
  void app.register(swagger, swaggerOptions());
  for (const schema of ALL_SCHEMAS) app.addSchema(schema);
  const { validatorCompiler, serializerCompiler } = schemaCompilers(ALL_SCHEMAS);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

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
        ...(route.schema ? { schema: fastifySchema(route.schema, route.budget, route.auth === undefined && route.budget !== 'none') } : {}),
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

  // CORS preflight for every known path.
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

  // Charged once, by the onRequest hook above (which runs for this handler too).
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const methods = table.methodsFor(path);
    if (methods.length > 0) {
      reply.header('allow', methods.join(', '));
      throw new ProblemError('METHOD_NOT_ALLOWED', `${request.method} is not served at ${truncate(path, 120)}; use ${methods.join(', ')}.`);
    }
    throw notFound(path);
  });

  return app;
}

/** The routes of the daemon, in the order they are registered (GET /openapi.json comes last). */
export function appRoutes(ctx: ServerContext): RouteDef[] {
  return [
    ...probeRoutes(ctx),
    ...resolutionRoutes(ctx),
    ...verificationRoutes(ctx),
    ...vcApiRoutes(ctx),
    ...delegationRoutes(ctx),
    ...inspectionRoutes(ctx),
    ...w3cRoutes(ctx),
    ...webRoutes(ctx).map((route): RouteDef => ({ ...route, auth: 'anonymous' })),
    ...claimRoutes(ctx),
    ...monitoringRoutes(ctx).map((route): RouteDef => ({ ...route, auth: 'operator' })),
    ...commercialRoutes(ctx),
    ...sessionKeyRoutes(ctx),
    ...sessionProjectRoutes(ctx),
    ...sessionMonitorRoutes(ctx),
  ];
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
        200: json(Type.Object({ openapi: Type.Literal('3.1.0'), info: Type.Object({}), paths: Type.Object({}) }), 'The OpenAPI 3.1 document (the same bytes as openapi.json in the repository)'),
        400: problem('INVALID_OPTIONS: a query option was given (this route takes none); INVALID_REQUEST: no Host header, or malformed percent-encoding'),
        503: problem('SERVICE_UNAVAILABLE: the daemon is shutting down'),
      },
    },
  };
}

/** A route's schema as Fastify (and @fastify/swagger) take it, with the route's budget. */
/** What every public API route may answer to a bad project key (commercial mode, direct profile). */
const KEY_REFUSED = problem('UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored).');

function fastifySchema(schema: RouteSchema, budget: Budget, keyed: boolean): Record<string, unknown> {
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
 * Only the listed proxies (proxy-addr: X-Forwarded-For is read from the right, up to the first
 * address not listed); never `true` or a hop count, which would let any client that connects
 * directly name itself (SVC_TRUST_PROXY refuses them).
 */
function trustProxyOption(value: AppOptions['trustProxy']): string[] | false {
  return value !== undefined && value.length > 0 ? [...value] : false;
}

/** True when the request announces a body (Content-Length > 0 or chunked) that may not be read yet. */
function hasPendingBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function notFound(path: string): ProblemError {
  return new ProblemError('NOT_FOUND', `No route ${truncate(path, 120)}.`);
}

function rateLimited(retryAfter: number, what: string): ProblemError {
  return new ProblemError('RATE_LIMITED', `Too many requests: ${what} is used up. Retry after ${retryAfter} s.`, { retryAfter });
}

/** The request's URL has a query (`?` and anything after it): a page route asked to do its work. */
function hasQuery(request: FastifyRequest): boolean {
  const url = request.raw.url ?? request.url;
  const at = url.indexOf('?');
  return at >= 0 && at < url.length - 1;
}

/** did:webvh resolutions (and their dossiers) draw on the intensive budget (SPEC §4), raw or percent-encoded. */
function isWebvhRequest(request: FastifyRequest): boolean {
  const path = (request.raw.url ?? request.url).split('?')[0]!;
  return /^\/(v1\/resolve|d)\/did(:|%3A)webvh(:|%3A)/i.test(path);
}
