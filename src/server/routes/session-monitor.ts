/**
 * Customer monitoring through owner sessions (docs/daemon.md#customer-monitoring): a
 * project's watches, their events (a bounded list, paging from a snapshot, a complete report), the
 * project's webhook and its delivery metadata, and the scheduled usage. Session core routes, as
 * session-keys.ts: reached only through the cookie gateway (requireBridge before any body is
 * read: 401 without this start's bridge secret), direct profile only, 501 with the mode off.
 *
 * Refusals never tell another owner's ids from absent ones: a project the subject does not own
 * and one that does not exist are the same 404 ("no project of yours"), decided by the store
 * inside the action's own transaction; a watch or event id of another project (of anyone) is the
 * same 404 as one that does not exist. svc answers 404, never 403, for both: a 403 would confirm
 * that the id exists.
 *
 * Cursors travel only in POST bodies: the event routes take no query option (400 INVALID_OPTIONS)
 * and event-page has no GET (405).
 */
import type { FastifyRequest } from 'fastify';
import { parseDid } from '../../core/did/syntax.js';
import { requireResolvable } from '../../core/methods/registry.js';
import { customerWebhookSecret, eventPublicId, requireWatchable, rowOf } from '../../core/monitoring/customer.js';
import { notReplayable } from '../../core/monitoring/rules.js';
import { ProblemError } from '../../core/problems.js';
import { rfc3339 } from '../../core/runtime.js';
import { INSTANT_RANGE, parseInstant } from '../../core/storable.js';
import { CUSTOMER_MONITOR_LIMITS as L, type CustomerEvent, type CustomerMonitorStore, type EventPageQuery } from '../../core/store.js';
import { StoreError } from '../../store/schema/errors.js';
import { storeOf, type RouteDef, type ServerContext } from '../context.js';
import { queryOptions } from '../http.js';
import { noBaselineForDid, subjectOf as namedSubject, targetSubject } from '../watch-subject.js';
import { empty, EmptyBodySchema, EmptyQuerySchema, json, problem, ProjectParamsSchema, ref } from '../schemas/common.js';
import {
  CustomerDeliveryListSchema,
  CustomerEventListSchema,
  CustomerWebhookCreatedSchema,
  CustomerWebhookRequestSchema,
  CustomerWebhookStateSchema,
  EventPageRequestSchema,
  EventPageSchema,
  ProjectWatchCreatedSchema,
  ProjectWatchListSchema,
  ProjectWatchParamsSchema,
  ProjectWatchRequestSchema,
  ScheduledUsageListSchema,
  WatchReportSchema,
  CustomerDeliveryReplaySchema,
  CustomerWatchReplaySchema,
  ProjectDeliveryParamsSchema,
  ProjectWatchReplayRequestSchema,
} from '../schemas/session-monitor.js';
import type { CustomerReplay } from '../../core/monitoring/customer-store.js';
import { retentionCutoff } from '../../core/monitoring/rules.js';
import { COMMERCIAL_OFF, sessionGuard, UNMOUNTED } from './commercial.js';

const NOT_YOURS = `NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or ${UNMOUNTED}.`;
const NO_WATCH = `NOT_FOUND: no project of the owner has this id, or the project has no watch of this id (another project's watch looks the same); or ${UNMOUNTED}.`;

const SESSION_PROBLEMS = {
  400: problem('INVALID_OPTIONS: a query option (none is taken: cursors go in POST bodies); INVALID_REQUEST: no Host header, or a body that is not JSON.'),
  401: problem('UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject.'),
  404: problem(NOT_YOURS),
  429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
  500: problem('INTERNAL_ERROR: the monitor could not be read or written.'),
  501: problem(COMMERCIAL_OFF),
  503: problem('SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After).'),
};

/** A store refusal as the owner reads it. */
function monitorProblem(err: unknown, what: 'watch' | 'event' | 'delivery'): unknown {
  if (!(err instanceof StoreError)) return err;
  switch (err.code) {
    case 'NOT_OWNER':
      return new ProblemError('NOT_FOUND', 'No project of yours has this id.');
    case 'NOT_FOUND':
      return new ProblemError(
        'NOT_FOUND',
        what === 'watch'
          ? 'The project has no watch of this id.'
          : what === 'delivery'
            ? 'The project has no webhook delivery of this id.'
            : 'The watch has no event of this id in its window.',
      );
    case 'UNAVAILABLE':
      return new ProblemError('SERVICE_UNAVAILABLE', 'The database is unavailable just now; see /ready.', { retryAfter: 5 });
    default:
      return err;
  }
}

async function guarded<T>(work: Promise<T>, what: 'watch' | 'event' | 'delivery' = 'watch'): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw monitorProblem(err, what);
  }
}

/**
 * The same 404 as an unknown project unless `subject` owns it — asked before an action does work
 * of its own (DNS, egress checks) that a caller who owns nothing must not be able to trigger.
 */
async function requireOwner(ctx: ServerContext, subject: string, projectId: string): Promise<void> {
  if (!(await guarded(storeOf(ctx.runtime).accounts.ownsProject(subject, projectId)))) {
    throw new ProblemError('NOT_FOUND', 'No project of yours has this id.');
  }
}

/** A watch id from the path: `wch_<n>`, else the same 404 as an unknown one. */
function watchRow(id: string): number {
  const n = rowOf('wch', id);
  if (n === null) throw new ProblemError('NOT_FOUND', 'The project has no watch of this id.');
  return n;
}

/** An event id of a page body: `evt_<n>`, else 400 naming the member. */
function eventRow(member: string, id: string): number {
  const n = rowOf('evt', id);
  if (n === null) throw new ProblemError('INVALID_REQUEST', `${member} is not an event id (evt_<n>) as an earlier page gave it.`);
  return n;
}

/**
 * An RFC 3339 instant as the schema stores times: UTC, whole seconds, rounded down ("at or before"
 * keeps its meaning). The schema's date-time format has refused what is not one within the range
 * both engines hold (core/storable.ts); a caller of pageQuery gets the same refusal here.
 */
function asOfOf(raw: string): string {
  const ms = parseInstant(raw);
  if (ms === null) throw new ProblemError('INVALID_REQUEST', `"asOf" is not an RFC 3339 date-time from ${INSTANT_RANGE}.`);
  return rfc3339(new Date(Math.floor(ms / 1000) * 1000));
}

/** The page query of a validated body. */
export function pageQuery(body: { limit: number; asOf?: string; snapshotEventId?: string; beforeEventId?: string }): EventPageQuery {
  if (body.beforeEventId !== undefined && body.snapshotEventId === undefined) {
    throw new ProblemError('INVALID_REQUEST', 'beforeEventId needs the snapshotEventId of the same pages: pass back the whole next cursor.');
  }
  return {
    limit: body.limit,
    ...(body.asOf !== undefined ? { asOf: asOfOf(body.asOf) } : {}),
    ...(body.snapshotEventId !== undefined ? { snapshotEventId: eventRow('snapshotEventId', body.snapshotEventId) } : {}),
    ...(body.beforeEventId !== undefined ? { beforeEventId: eventRow('beforeEventId', body.beforeEventId) } : {}),
  };
}

/** A delivery id from the path: `dlv_<webhook>_<event>`, else the same 404 as an unknown one. */
function deliveryOf(id: string): string {
  if (!/^dlv_[1-9][0-9]{0,14}_[1-9][0-9]{0,14}$/.test(id)) throw new ProblemError('NOT_FOUND', 'The project has no webhook delivery of this id.');
  return id;
}

const NO_WEBHOOK = () =>
  new ProblemError(
    'CONFLICT',
    'The project has no active webhook to replay to: set one first (POST /v1/session/projects/{project}/webhook, or svc owner webhook set).',
  );

/** The one-line CONFLICT of a refused owner replay: the state, and the way out. */
function customerReplayRefusal(id: string, refused: Exclude<CustomerReplay, { outcome: 'replayed' }>): ProblemError {
  switch (refused.outcome) {
    case 'no-webhook':
      return NO_WEBHOOK();
    case 'not-replayable':
      return notReplayable(id, refused.status, 'deliveries');
    case 'watch-removed':
      return new ProblemError('CONFLICT', `The watch of ${id} (${refused.watchId}) was removed; only events of an active watch can be replayed.`);
    case 'already':
      return new ProblemError(
        'CONFLICT',
        `The active webhook already has ${refused.deliveryId} for this event, ${refused.status}; replay that one when it is DEAD_LETTER or CANCELLED.`,
      );
  }
}

/** Oldest first by event row (the report reads as a log). */
const byRow = (a: CustomerEvent, b: CustomerEvent): number => rowOf('evt', a.id)! - rowOf('evt', b.id)!;

export function sessionMonitorRoutes(ctx: ServerContext): RouteDef[] {
  // Before anything else is read: a caller without the bridge learns nothing.
  const { onRequest, subjectOf } = sessionGuard(ctx);
  const options = { onRequest };
  const tags = ['session'];
  const params = (request: FastifyRequest) => request.params as { project: string; watch?: string };
  const monitor = (): CustomerMonitorStore => storeOf(ctx.runtime).customerMonitor;
  const workerActive = (): boolean => ctx.customerWorker === true;
  const base = { budget: 'standard' as const, auth: 'bridge' as const, directOnly: true, options };

  return [
    {
      ...base,
      method: 'GET',
      url: '/v1/session/projects/:project/watches',
      schema: {
        summary: "List a project's watches (owner session)",
        operationId: 'sessionListWatches',
        description: 'Session core (through the cookie gateway). Active watches, oldest first, and whether this daemon runs the automatic worker.',
        tags,
        params: ProjectParamsSchema,
        querystring: EmptyQuerySchema,
        response: { 200: json(ref(ProjectWatchListSchema), 'The watches.'), ...SESSION_PROBLEMS },
      },
      handler: async (request) => {
        queryOptions(request, []);
        const watches = await guarded(monitor().listWatches(subjectOf(request), params(request).project));
        return { watches, workerActive: workerActive(), intervalSeconds: L.intervalSeconds, limit: L.watchesPerProject };
      },
    },
    {
      ...base,
      method: 'POST',
      url: '/v1/session/projects/:project/watches',
      schema: {
        summary: 'Watch an identifier, an MCP endpoint or an A2A agent card for a project (owner session)',
        operationId: 'sessionCreateWatch',
        description: `Session core (through the cookie gateway). Exactly one of did (did:key, did:jwk, did:web), mcpEndpoint (a Streamable HTTP MCP endpoint: its inventory) or a2aCard (an agent's origin or card URL: its card), the last two through the egress policy and optionally with an approved baseline file (baseline) that the first check compares with. Checked hourly by the automatic worker; each check is one of the project's ${L.attempts} attempts per rolling ${L.windowDays} days. A subject the project already watches gives its existing watch (200; a baseline sent with it is not used).`,
        tags,
        params: ProjectParamsSchema,
        querystring: EmptyQuerySchema,
        body: ref(ProjectWatchRequestSchema),
        response: {
          200: json(ref(ProjectWatchCreatedSchema), 'The project already watches this DID: its watch.'),
          201: json(ref(ProjectWatchCreatedSchema), 'The new watch.'),
          ...SESSION_PROBLEMS,
          400: problem(
            'INVALID_REQUEST: the body names none or several of did, mcpEndpoint and a2aCard, did names a method projects cannot watch (did:webvh), or the baseline does not parse or holds no entry approved from the subject; INVALID_DID: did is not a DID; INVALID_OPTIONS: a query option.',
          ),
          403: problem('EGRESS_BLOCKED: the MCP endpoint or card URL is not https or its host resolves to a non-public address.'),
          429: problem(
            `RATE_LIMITED: the client's budget is used up; WATCH_CAPACITY_EXHAUSTED: the project has ${L.watchesPerProject} active watches (remove one first).`,
          ),
          501: problem(`${COMMERCIAL_OFF}; METHOD_NOT_SUPPORTED: did names a method svc does not resolve.`),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const body = request.body as Record<string, unknown>;
        const named = namedSubject(body);
        let added: Awaited<ReturnType<CustomerMonitorStore['addWatch']>>;
        if (named.kind === 'did') {
          noBaselineForDid(body);
          const { did } = parseDid(named.value);
          requireResolvable(did, 'so it cannot be watched');
          requireWatchable(did);
          added = await guarded(monitor().addWatch(subjectOf(request), params(request).project, did, L.watchesPerProject));
        } else {
          // The owner first: the endpoint's egress check says nothing to anyone else.
          await requireOwner(ctx, subjectOf(request), params(request).project);
          const target = await targetSubject(ctx.runtime, named.kind, named.value, body['baseline'], rfc3339(ctx.runtime.clock.now()));
          added = await guarded(
            monitor().addWatch(subjectOf(request), params(request).project, target.subject, L.watchesPerProject, {
              kind: named.kind,
              ...(target.baseline ? { baseline: target.baseline } : {}),
            }),
          );
        }
        if (added === 'full') {
          throw new ProblemError(
            'WATCH_CAPACITY_EXHAUSTED',
            `The project has ${L.watchesPerProject} active watches, the most a project keeps; remove one to add another.`,
          );
        }
        return reply.code(added.created ? 201 : 200).send({ watch: added.watch, workerActive: workerActive() });
      },
    },
    {
      ...base,
      method: 'DELETE',
      url: '/v1/session/projects/:project/watches/:watch',
      schema: {
        summary: 'Stop watching (owner session)',
        operationId: 'sessionDeleteWatch',
        description:
          'Session core (through the cookie gateway). The watch stops; its queued deliveries are cancelled (one in flight finishes). Its events stay readable for their window.',
        tags,
        params: ProjectWatchParamsSchema,
        querystring: EmptyQuerySchema,
        response: { 204: empty('Removed.'), ...SESSION_PROBLEMS, 404: problem(NO_WATCH) },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const { project, watch } = params(request);
        await guarded(monitor().removeWatch(subjectOf(request), project, watchRow(watch!)));
        return reply.code(204).send();
      },
    },
    {
      ...base,
      method: 'GET',
      url: '/v1/session/projects/:project/watches/:watch/events',
      schema: {
        summary: "A watch's events of the last 30 days (owner session)",
        operationId: 'sessionListEvents',
        description: `Session core (through the cookie gateway). Every event of the last ${L.windowDays} days, newest first — or, above ${L.eventList}, a refusal (409 MONITOR_REPORT_CAPACITY), never a truncated list: page them with event-page. No query option is taken (cursors are POST bodies).`,
        tags,
        params: ProjectWatchParamsSchema,
        querystring: EmptyQuerySchema,
        response: {
          200: json(ref(CustomerEventListSchema), 'The events.'),
          ...SESSION_PROBLEMS,
          404: problem(NO_WATCH),
          409: problem(`MONITOR_REPORT_CAPACITY: more than ${L.eventList} events in the window; use event-page.`),
        },
      },
      handler: async (request) => {
        queryOptions(request, []);
        const { project, watch } = params(request);
        const windowStart = rfc3339(new Date(ctx.runtime.clock.now().getTime() - L.windowMs));
        const events = await guarded(monitor().listEvents(subjectOf(request), project, watchRow(watch!), L.eventList));
        if (events === 'too-many') {
          throw new ProblemError(
            'MONITOR_REPORT_CAPACITY',
            `The watch has more than ${L.eventList} events in the last ${L.windowDays} days; the list is refused rather than cut. Page them with POST …/event-page.`,
          );
        }
        return { events, windowStart };
      },
    },
    {
      ...base,
      method: 'POST',
      url: '/v1/session/projects/:project/watches/:watch/event-page',
      schema: {
        summary: "A page of a watch's events from a snapshot (owner session)",
        operationId: 'sessionEventPage',
        description:
          'Session core (through the cookie gateway). The first page (no snapshotEventId) fixes the snapshot watermark: the newest event of the 30-day window (at or before asOf). Pages go newest first in persistence order; each gives hasMore and the next cursor (snapshotEventId, beforeEventId, asOf) to send back as the body with a limit. Events recorded after the watermark never appear in its pages, and every event up to it appears exactly once. Strict body; cursors in a query string or a GET are refused.',
        tags,
        params: ProjectWatchParamsSchema,
        querystring: EmptyQuerySchema,
        body: ref(EventPageRequestSchema),
        response: {
          200: json(ref(EventPageSchema), 'The page.'),
          ...SESSION_PROBLEMS,
          400: problem(
            'INVALID_REQUEST: the body is not an EventPageRequest (limit 1..100; nothing else), an event id is malformed, or beforeEventId comes without snapshotEventId; INVALID_OPTIONS: a query option.',
          ),
          404: problem(`${NO_WATCH.replace(`; or ${UNMOUNTED}.`, '')}; or snapshotEventId / beforeEventId is not an event of this watch; or ${UNMOUNTED}.`),
        },
      },
      handler: async (request) => {
        queryOptions(request, []);
        const { project, watch } = params(request);
        const query = pageQuery(request.body as { limit: number });
        const page = await guarded(monitor().eventPage(subjectOf(request), project, watchRow(watch!), query), 'event');
        const watermark = page.snapshotEventId === null ? null : eventPublicId(page.snapshotEventId);
        return {
          events: page.events,
          snapshotEventId: watermark,
          asOf: page.asOf,
          hasMore: page.hasMore,
          // Exactly the members of the next request (asOf only when the pages have one): `{limit, ...next}` is that request.
          next:
            page.next === null
              ? null
              : {
                  snapshotEventId: eventPublicId(page.next.snapshotEventId),
                  beforeEventId: eventPublicId(page.next.beforeEventId),
                  ...(page.asOf !== null ? { asOf: page.asOf } : {}),
                },
        };
      },
    },
    {
      ...base,
      budget: 'intensive',
      method: 'POST',
      url: '/v1/session/projects/:project/watches/:watch/report',
      schema: {
        summary: 'A complete 30-day report of one watch (owner session)',
        operationId: 'sessionWatchReport',
        description: `Session core (through the cookie gateway). The watch and every event of the last ${L.windowDays} days, from one snapshot — complete, or refused with 409 MONITOR_REPORT_CAPACITY above ${L.reportRows} events or ${L.reportBytes / 1024 / 1024} MiB; never partial. No baseline document is included.`,
        tags,
        params: ProjectWatchParamsSchema,
        querystring: EmptyQuerySchema,
        body: EmptyBodySchema,
        response: {
          200: json(ref(WatchReportSchema), 'The report.'),
          ...SESSION_PROBLEMS,
          400: problem('INVALID_REQUEST: the body is not an empty object; INVALID_OPTIONS: a query option.'),
          404: problem(NO_WATCH),
          409: problem(`MONITOR_REPORT_CAPACITY: more than ${L.reportRows} events, or more than ${L.reportBytes / 1024 / 1024} MiB.`),
        },
      },
      handler: async (request) => {
        queryOptions(request, []);
        const { project, watch } = params(request);
        const report = await guarded(monitor().report(subjectOf(request), project, watchRow(watch!), L.reportRows));
        if (report === 'too-many') {
          throw new ProblemError(
            'MONITOR_REPORT_CAPACITY',
            `The watch has more than ${L.reportRows} events in the last ${L.windowDays} days: too many for one report, which is never cut. Page them with POST …/event-page.`,
          );
        }
        const events = [...report.events].sort(byRow);
        const eventsByType: Record<string, number> = {};
        for (const e of events) eventsByType[e.type] = (eventsByType[e.type] ?? 0) + 1;
        const body = { watch: report.watch, windowStart: report.windowStart, windowEnd: report.windowEnd, eventCount: events.length, eventsByType, events };
        if (Buffer.byteLength(JSON.stringify(body), 'utf8') > L.reportBytes) {
          throw new ProblemError(
            'MONITOR_REPORT_CAPACITY',
            `The report would be larger than ${L.reportBytes / 1024 / 1024} MiB, the most one answer carries; it is never cut. Page the events with POST …/event-page.`,
          );
        }
        return body;
      },
    },
    {
      ...base,
      method: 'GET',
      url: '/v1/session/projects/:project/webhook',
      schema: {
        summary: "The project's webhook (owner session)",
        operationId: 'sessionGetWebhook',
        description:
          'Session core (through the cookie gateway). The active configuration (never its secret), or the last one when a receiver disabled it by answering 410 Gone (active false, with disabledReason: set a webhook again to resume deliveries), or null; and whether this daemon runs the worker that delivers.',
        tags,
        params: ProjectParamsSchema,
        querystring: EmptyQuerySchema,
        response: { 200: json(ref(CustomerWebhookStateSchema), 'The webhook.'), ...SESSION_PROBLEMS },
      },
      handler: async (request) => {
        queryOptions(request, []);
        const config = await guarded(monitor().getWebhook(subjectOf(request), params(request).project));
        return { config, workerActive: workerActive() };
      },
    },
    {
      ...base,
      method: 'POST',
      url: '/v1/session/projects/:project/webhook',
      schema: {
        summary: "Set the project's webhook (owner session)",
        operationId: 'sessionSetWebhook',
        description:
          'Session core (through the cookie gateway). The URL must pass the egress policy (https, public addresses) now and at every delivery. The service makes the signing secret: it is in this answer only. A webhook already set is replaced: disabled, its queued deliveries cancelled. Events recorded from now on are delivered (none from before).',
        tags,
        params: ProjectParamsSchema,
        querystring: EmptyQuerySchema,
        body: ref(CustomerWebhookRequestSchema),
        response: {
          201: json(ref(CustomerWebhookCreatedSchema), 'The configuration and its secret (shown once).'),
          ...SESSION_PROBLEMS,
          400: problem('INVALID_REQUEST: the body is not {url}; INVALID_OPTIONS: a query option.'),
          403: problem('EGRESS_BLOCKED: the URL is not https or its host resolves to a non-public address.'),
          502: problem('UPSTREAM_UNAVAILABLE: the webhook host does not resolve.'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const { url } = request.body as { url: string };
        // Who may, before any work: the URL's host is looked up only for the project's owner.
        await requireOwner(ctx, subjectOf(request), params(request).project);
        await ctx.runtime.net.checkDestination(url, 'webhook');
        const secret = customerWebhookSecret();
        const config = await guarded(monitor().setWebhook(subjectOf(request), params(request).project, url, secret));
        return reply.code(201).send({ config, secret });
      },
    },
    {
      ...base,
      method: 'DELETE',
      url: '/v1/session/projects/:project/webhook',
      schema: {
        summary: "Disable the project's webhook (owner session)",
        operationId: 'sessionDeleteWebhook',
        description:
          'Session core (through the cookie gateway). Disables the webhook and cancels its queued deliveries (an attempt in flight finishes; a failed one is not retried). Idempotent: 204 also when none is set.',
        tags,
        params: ProjectParamsSchema,
        querystring: EmptyQuerySchema,
        response: { 204: empty('Disabled (or none was set).'), ...SESSION_PROBLEMS },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        await guarded(monitor().disableWebhook(subjectOf(request), params(request).project));
        return reply.code(204).send();
      },
    },
    {
      ...base,
      method: 'GET',
      url: '/v1/session/projects/:project/webhook-deliveries',
      schema: {
        summary: "The project's recent webhook deliveries (owner session)",
        operationId: 'sessionListDeliveries',
        description: `Session core (through the cookie gateway). The newest ${L.deliveryList} deliveries of the last ${L.windowDays} days: metadata only — never a body, signature, secret or lease — with each delivery's attempt decisions (newest first, at most 10: DELIVERED, RETRY, DEAD_LETTER, WEBHOOK_DISABLED after a 410 Gone, CANCELLED) and their one-line details.`,
        tags,
        params: ProjectParamsSchema,
        querystring: EmptyQuerySchema,
        response: { 200: json(ref(CustomerDeliveryListSchema), 'The deliveries.'), ...SESSION_PROBLEMS },
      },
      handler: async (request) => {
        queryOptions(request, []);
        const deliveries = await guarded(monitor().listDeliveries(subjectOf(request), params(request).project, L.deliveryList));
        return { deliveries };
      },
    },
    {
      ...base,
      method: 'POST',
      url: '/v1/session/projects/:project/webhook-deliveries/:delivery/replay',
      schema: {
        summary: 'Replay a dead-lettered or cancelled delivery (owner session)',
        operationId: 'sessionReplayDelivery',
        description:
          "Session core (through the cookie gateway). A new delivery of the same event (same evt_ id and body bytes) to the project's active webhook, five fresh attempts: the same delivery when it was that webhook's (its stored signature kept), else a new one signed with the active webhook's secret. Only DEAD_LETTER or CANCELLED deliveries of an active watch. The signature's t stays the event's creation time: verify a replay of an old event with a window that covers it. svc never replays by itself.",
        tags,
        params: ProjectDeliveryParamsSchema,
        querystring: EmptyQuerySchema,
        body: EmptyBodySchema,
        response: {
          202: json(ref(CustomerDeliveryReplaySchema), 'The delivery, queued.'),
          ...SESSION_PROBLEMS,
          400: problem('INVALID_REQUEST: the body is not an empty object; INVALID_OPTIONS: a query option.'),
          404: problem(`NOT_FOUND: no project of the owner has this id, or the project has no delivery of this id; or ${UNMOUNTED}.`),
          409: problem(
            "CONFLICT: the delivery is not DEAD_LETTER or CANCELLED, its watch was removed, the project has no active webhook, or the active webhook's delivery of the event is still on its way.",
          ),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const { project, delivery } = request.params as { project: string; delivery: string };
        const id = deliveryOf(delivery);
        const replayed = await guarded(monitor().replayDelivery(subjectOf(request), project, id), 'delivery');
        if (replayed.outcome !== 'replayed') throw customerReplayRefusal(id, replayed);
        return reply.code(202).send({ delivery: replayed.delivery });
      },
    },
    {
      ...base,
      method: 'POST',
      url: '/v1/session/projects/:project/watches/:watch/replay',
      schema: {
        summary: "Replay a watch's dead letters since an instant (owner session)",
        operationId: 'sessionReplayWatch',
        description:
          "Session core (through the cookie gateway). Every event of the watch created at or after `since` with a DEAD_LETTER delivery is queued again to the project's active webhook, as a replay of each delivery, in one transaction. None is an empty list. svc never replays by itself.",
        tags,
        params: ProjectWatchParamsSchema,
        querystring: EmptyQuerySchema,
        body: ProjectWatchReplayRequestSchema,
        response: {
          202: json(ref(CustomerWatchReplaySchema), 'The deliveries queued again.'),
          ...SESSION_PROBLEMS,
          400: problem(
            `INVALID_REQUEST: the body is not {since}, or since is not an RFC 3339 date-time with seconds and an offset from ${INSTANT_RANGE}; INVALID_OPTIONS: a query option.`,
          ),
          404: problem(NO_WATCH),
          409: problem('CONFLICT: the project has no active webhook to replay to (set one first).'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const { project, watch } = params(request);
        const since = retentionCutoff((request.body as { since: string }).since);
        if (since === null) {
          throw new ProblemError(
            'INVALID_REQUEST',
            `"since" must be an RFC 3339 date-time with seconds and an offset, such as 2026-01-01T00:00:00Z, from ${INSTANT_RANGE}.`,
          );
        }
        const replayed = await guarded(monitor().replayDeadLetters(subjectOf(request), project, watchRow(watch!), since));
        if (replayed.outcome === 'no-webhook') throw NO_WEBHOOK();
        return reply.code(202).send({ replayed: replayed.deliveries.map((d) => d.id), count: replayed.deliveries.length });
      },
    },
    {
      ...base,
      method: 'GET',
      url: '/v1/session/scheduled-usage',
      schema: {
        summary: "The owner's scheduled monitor usage (owner session)",
        operationId: 'sessionScheduledUsage',
        description: `Session core (through the cookie gateway). Per project of the owner: the allowance (${L.attempts} attempts per rolling ${L.windowDays} days, failures counted; it does not consume the API allowance), the attempts used, the due checks skipped because it was used up, and the next due check.`,
        tags,
        querystring: EmptyQuerySchema,
        response: { 200: json(ref(ScheduledUsageListSchema), 'The usage.'), ...SESSION_PROBLEMS, 404: problem(`NOT_FOUND: ${UNMOUNTED}.`) },
      },
      handler: async (request) => {
        queryOptions(request, []);
        const projects = await guarded(monitor().scheduledUsage(subjectOf(request), L.attempts));
        return { projects, workerActive: workerActive(), intervalSeconds: L.intervalSeconds, pollSeconds: ctx.limits.monitorPeriodSeconds };
      },
    },
  ];
}
