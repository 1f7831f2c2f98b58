/**
 * The loopback cookie gateway (docs/daemon.md#owner-accounts-and-the-cookie-gateway): a second
 * Fastify listener in the daemon's process, started by `svc serve --gateway-port N` when the
 * commercial mode is on. It shares the process's Runtime and store (the ServerContext) and closes
 * at shutdown.
 *
 * It serves its own routes — sign-in, sign-out, the session, an owner page (gateway/sign-in.ts,
 * gateway/page.ts) with the daemon's stylesheet and icon (/assets/…) — and forwards exactly the owner-session routes (gateway/forward.ts) to the
 * daemon's own listener over loopback with the verified-session bridge (commercial.ts). Anything
 * else is its own 404. It listens on loopback only (127.0.0.0/8, ::1, localhost): an owner's
 * browser or `svc owner` on this machine reaches it; the network does not. Every request, of any
 * route, first takes a token of its client's bucket (SVC_GATEWAY_RATE_LIMIT_PER_MIN, 120 by
 * default): past it 429 RATE_LIMITED with the wait for the next token.
 */
import { isIP } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { ProblemError } from '../core/problems.js';
import { truncate } from '../core/text.js';
import type { AccessEntry } from './access-log.js';
import type { ServerContext } from './context.js';
import { TokenBuckets } from './rate-limit.js';
import { hostProblem, PROBLEM_JSON, problemFromError } from './http.js';
import { forward, forwardedMethods, forwardedRoute, type Upstream } from './gateway/forward.js';
import { rowOf } from '../core/monitoring/customer.js';
import { GATEWAY_CSP, ownerPage, PAGE_EVENTS, PAGE_WATCHES, type PageProject } from './gateway/page.js';
import { liveSession, type GatewayContext } from './gateway/session.js';
import { signInHandlers } from './gateway/sign-in.js';
import { clientOf, storeOf } from './context.js';
import { sendAsset } from './routes/web.js';
import { genReqId, REQUEST_ID_HEADER } from './request-id.js';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

/** Whether `host` is a loopback address or `localhost` (the only hosts the gateway listens on). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  if (isIP(bare) === 4) return bare.split('.')[0] === '127';
  if (isIP(bare) === 6) return bare === '::1' || /^(0{0,4}:){7}0{0,3}1$/.test(bare) || /^::ffff:127\./i.test(bare);
  return false;
}

/** Why the gateway may not start (one line), or null. */
export function gatewayRefusal(host: string, ctx: Pick<ServerContext, 'commercial'>): string | null {
  if (!isLoopbackHost(host))
    return `the cookie gateway listens on loopback only (127.0.0.0/8, ::1 or localhost), not ${truncate(host, 80)}: owners reach it from this machine`;
  if (!ctx.commercial?.enabled) return `the cookie gateway needs the commercial mode, which is off (${ctx.commercial?.reason ?? 'it is not configured'})`;
  return null;
}

/**
 * The gateway app. `accessLog`: one entry per request, as the daemon's (route: `gateway ` and the
 * route's template — never the raw path, a header, the cookie or a body).
 */
export function buildGateway(ctx: ServerContext, upstream: Upstream, accessLog?: (entry: AccessEntry) => void): FastifyInstance {
  const commercial = ctx.commercial;
  if (!commercial?.enabled) throw new RangeError('the cookie gateway needs the commercial mode');
  const g: GatewayContext = { ctx, commercial, secure: commercial.origin.startsWith('https:') };
  const problemsBase = ctx.runtime.config.problemsBase;
  const app = Fastify({
    logger: false,
    // request.id as on the daemon (request-id.ts); forwarded requests pass it on, so both logs agree.
    requestIdHeader: false,
    genReqId,
    bodyLimit: ctx.limits.bodyLimitBytes,
    requestTimeout: ctx.limits.requestTimeoutMs,
    keepAliveTimeout: 10_000,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    exposeHeadRoutes: false,
  });
  // Every body is kept as it came (size-limited): the gateway's own routes read it as strict
  // JSON; forwarded ones pass it on untouched with its Content-Type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // One budget over every gateway request, per client (its loopback address): sign-in, the
  // session, the page and what is forwarded alike, refilled continuously; a request over it is
  // answered 429 with the wait for the next token, before anything else is done for it. Per
  // replica, as the daemon's direct bucket: the gateway listens on this machine only.
  const budget = new TokenBuckets(ctx.limits.gatewayPerMinute, () => ctx.runtime.clock.now().getTime());
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS).header(REQUEST_ID_HEADER, request.id);
    if (ctx.draining) {
      reply.header('connection', 'close');
      return done(new ProblemError('SERVICE_UNAVAILABLE', 'The daemon is shutting down.', { retryAfter: 5 }));
    }
    ctx.active += 1;
    const res = reply.raw;
    res.once('close', () => {
      ctx.active -= 1;
      const path = (request.raw.url ?? '').split('?')[0]!;
      const own = request.routeOptions.url;
      const route = own === '/v1/*' ? forwardedRoute(request.method, path) : own;
      accessLog?.({
        method: request.method,
        route: route ? `gateway ${route}` : null,
        status: res.headersSent ? res.statusCode : null,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        client: clientOf(request),
        requestId: request.id,
      });
    });
    const badHost = hostProblem(request.raw);
    if (badHost !== null) {
      reply.header('connection', 'close');
      return done(badHost);
    }
    const taken = budget.take(clientOf(request));
    if (!taken.allowed) {
      const wait = taken.retryAfterSeconds;
      // A body still on its way is not read: the connection closes once the 429 is sent.
      const length = request.headers['content-length'];
      if (request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')) reply.header('connection', 'close');
      return done(
        new ProblemError(
          'RATE_LIMITED',
          `Too many requests: the gateway's budget of ${ctx.limits.gatewayPerMinute} requests per minute is used up. Retry after ${wait} s.`,
          { retryAfter: wait },
        ),
      );
    }
    done();
  });

  app.setErrorHandler((err, request, reply) => {
    const problem = problemFromError(err, ctx.limits.bodyLimitBytes);
    if (problem.code === 'INTERNAL_ERROR') {
      ctx.runtime.log.error('gateway request failed', { method: request.method, error: err instanceof Error ? err.message : String(err) });
    }
    if (problem.retryAfter !== undefined) reply.header('retry-after', String(problem.retryAfter));
    return reply
      .code(problem.status)
      .type(PROBLEM_JSON)
      .send({ ...problem.toProblem(problemsBase), requestId: request.id });
  });

  const handlers = signInHandlers(g);
  app.post('/sign-in/challenge', handlers.challenge);
  app.post('/sign-in', handlers.signIn);
  app.post('/sign-out', handlers.signOut);
  app.get('/session', handlers.session);
  // The owner page's stylesheet and icon: the daemon's own, from memory.
  app.get('/assets/:name', async (request, reply) => sendAsset(request, reply));
  app.get('/', async (request, reply) => {
    const live = await liveSession(g, request, reply);
    const projects = live ? await pageProjects(ctx, live.session.subject) : [];
    return reply
      .header('content-security-policy', GATEWAY_CSP)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(ownerPage(commercial.origin, live ? { session: live.session, projects } : null));
  });
  app.route({
    method: ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'],
    url: '/v1/*',
    handler: async (request, reply) => {
      const url = request.raw.url ?? request.url;
      const path = url.split('?')[0]!;
      if (forwardedRoute(request.method, path) === null) {
        // A forwarded path asked with another method (a GET of event-page, say): 405, as the daemon answers.
        const allowed = forwardedMethods(path);
        if (allowed === null) throw notFound(request.method, path);
        reply.header('allow', allowed.join(', '));
        throw new ProblemError('METHOD_NOT_ALLOWED', `${truncate(path, 120)} takes ${allowed.join(', ')}, not ${request.method.slice(0, 10)}.`);
      }
      return forward(g, upstream, request, reply);
    },
  });
  app.setNotFoundHandler(async (request) => {
    throw notFound(request.method, (request.raw.url ?? request.url).split('?')[0]!);
  });
  return app;
}

function notFound(method: string, path: string): ProblemError {
  return new ProblemError(
    'NOT_FOUND',
    `The cookie gateway serves no ${method.slice(0, 10)} ${truncate(path, 120)}: it forwards only the owner-session routes.`,
  );
}

/** The owner's projects with their first watches and each watch's newest events, for GET /. */
async function pageProjects(ctx: ServerContext, subject: string): Promise<PageProject[]> {
  const store = storeOf(ctx.runtime);
  const projects = await store.accounts.listProjectsOwnedBy(subject);
  return Promise.all(
    projects.map(async (project) => {
      const watches = await store.customerMonitor.listWatches(subject, project.id);
      const shown = await Promise.all(
        watches.slice(0, PAGE_WATCHES).map(async (watch) => ({
          watch,
          events: (await store.customerMonitor.eventPage(subject, project.id, rowOf('wch', watch.id)!, { limit: PAGE_EVENTS })).events,
        })),
      );
      const webhook = await store.customerMonitor.getWebhook(subject, project.id);
      const counts = await store.customerMonitor.projectCounts(subject, project.id);
      return { project, watches: shown, watchCount: watches.length, webhook, counts };
    }),
  );
}
