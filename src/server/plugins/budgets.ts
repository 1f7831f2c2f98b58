/**
 * Budgets (docs/operations.md#budgets): a token is taken when the request arrives, before its body
 * is read.
 *
 * - The direct daemon has one bucket per client for every budgeted route, answering 429 with
 *   Retry-After: 1.
 * - The public profile has the standard and intensive budgets (did:webvh resolutions and the
 *   dossier page with a query draw on the intensive one), with the wait until the next token as
 *   Retry-After. Several daemons on one PostgreSQL database share them: the bucket is the
 *   database's (one statement on its clock), so N replicas still give each client 20/min and
 *   10/min. While the database cannot be reached, this replica's own bucket decides — a client
 *   then gets at most N times its budget, rather than every client being refused.
 * - Keyed requests (commercial mode, direct profile): `Bearer svck_…` on a public API route draws
 *   on its project's bucket (the direct budget's size) instead of the client's, and counts usage
 *   (project-keys.ts); a bad key is 401.
 * - Bridged owners: every owner reaches the session core through the cookie gateway, from
 *   loopback; a request carrying this start's bridge secret is charged to its owner (the subject
 *   the gateway vouches for), not to the loopback client.
 *
 * Routes say which budget they draw on, and whether they are keyed or bridged, in their config
 * (app.ts sets it from the RouteDef).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from '../../core/problems.js';
import { bridgedSubject } from '../commercial.js';
import type { Budget, ServerContext } from '../context.js';
import { KeyedRequests, presentedKey } from '../project-keys.js';
import { clientOf, TokenBuckets } from '../rate-limit.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    budget?: Budget;
    /** A public API route: `Bearer svck_…` is a project key there while the commercial mode is on. */
    keyed?: boolean;
    /** A session-core route: a request the gateway bridged draws on its owner's bucket, not the loopback client's. */
    bridged?: boolean;
  }
}

/**
 * onRequest, last of the app's hooks (after the Host check). Budgets before bodies: a body that
 * then fails to parse (400) or is too large (413) has cost its token, and a request over budget
 * is answered 429 before its body is read or parsed. A body still on its way is not read at all:
 * the connection closes after the 429 instead of draining it.
 */
export function budgets(app: FastifyInstance, ctx: ServerContext, nowMs: () => number): void {
  const charge = charger(ctx, nowMs);
  app.addHook('onRequest', (request, reply, done) => {
    const refuse = (err: unknown) => {
      // A 429 is counted here, where it is decided (a bad project key's 401 is not a refusal of budget).
      if ((err as { code?: unknown }).code === 'RATE_LIMITED') ctx.telemetry?.record({ type: 'refusal', reason: 'budget' });
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
}

/** Charges a request to its budget: returns (or resolves) when it may go on, throws (or rejects) 429, 401 or 503. */
type Charge = (request: FastifyRequest, routeBudget: Budget) => void | Promise<void>;

function charger(ctx: ServerContext, nowMs: () => number): Charge {
  const { limits, runtime, profile } = ctx;
  const direct = new TokenBuckets(limits.directPerMinute, nowMs);
  const chargePublic = publicBudgets(ctx, nowMs);
  if (profile === 'direct' && ctx.commercial?.enabled && !ctx.keyed) {
    ctx.keyed = new KeyedRequests(
      () => runtime.store?.accounts,
      limits.directPerMinute,
      nowMs,
      () => runtime.clock.now(),
      runtime.log,
    );
  }
  const keyed = profile === 'direct' ? ctx.keyed : undefined;
  return (request, routeBudget) => {
    const budget = routeBudget === 'inspection' ? (hasQuery(request) ? 'intensive' : 'none') : routeBudget;
    if (budget === 'none') return;
    if (keyed && request.routeOptions.config.keyed === true) {
      const key = presentedKey(request.headers.authorization);
      if (key !== undefined) return keyed.admit(key);
    }
    const owner = request.routeOptions.config.bridged === true ? bridgedSubject(ctx.commercial, request) : null;
    const client = owner !== null ? `owner:${owner}` : clientOf(request);
    if (profile === 'direct') {
      if (!direct.take(client).allowed) throw rateLimited(1, `${limits.directPerMinute} requests per minute`);
      return;
    }
    return chargePublic(budget === 'resolve' ? (isWebvhRequest(request) ? 'intensive' : 'standard') : budget, client);
  };
}

/** The public profile's standard and intensive budgets: the database's buckets when it has shared ones, else (or while it is out of reach) this replica's. */
function publicBudgets(ctx: ServerContext, nowMs: () => number): (kind: 'standard' | 'intensive', client: string) => void | Promise<void> {
  const { limits, runtime } = ctx;
  const standard = new TokenBuckets(limits.standardPerMinute, nowMs);
  const intensive = new TokenBuckets(limits.intensivePerMinute, nowMs);
  return (kind, client) => {
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
}

/**
 * A refusal is an expected answer, thrown once per request of a flooding client: it is built
 * without a stack trace, which no one reads and which was a measurable part of its cost.
 */
function rateLimited(retryAfter: number, what: string): ProblemError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new ProblemError('RATE_LIMITED', `Too many requests: ${what} is used up. Retry after ${retryAfter} s.`, { retryAfter });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** True when the request announces a body (Content-Length > 0 or chunked) that may not be read yet. */
function hasPendingBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The request's URL has a query (`?` and anything after it): a page route asked to do its work. */
function hasQuery(request: FastifyRequest): boolean {
  const url = request.raw.url ?? request.url;
  const at = url.indexOf('?');
  return at >= 0 && at < url.length - 1;
}

/** did:webvh resolutions (and their dossiers) draw on the intensive budget, raw or percent-encoded. */
function isWebvhRequest(request: FastifyRequest): boolean {
  const path = (request.raw.url ?? request.url).split('?')[0]!;
  return /^\/(v1\/resolve|d)\/did(:|%3A)webvh(:|%3A)/i.test(path);
}
