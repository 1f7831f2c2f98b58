/**
 * The operator monitoring routes (docs/daemon.md#operator-monitoring): watches registered, listed
 * and removed, their events and the gauges of the monitoring tables. Only the operator reaches them
 * (operator.ts: 501 MONITORING_DISABLED unless enabled, 401 without the bearer token); the check
 * runs before the body is read. Watches are checked by the poller (jobs/poller.ts) and, on request,
 * by POST …/{id}/check.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { parseDid } from '../../core/did/syntax.js';
import { requireResolvable } from '../../core/methods/registry.js';
import { ProblemError } from '../../core/problems.js';
import { rfc3339 } from '../../core/runtime.js';
import { INSTANT_RANGE } from '../../core/storable.js';
import type { CheckOutcome, DeliveryAttempt, MonitorEvent, Watch } from '../../core/store.js';
import { subjectMember } from '../../core/monitoring/store.js';
import { noBaselineForDid, subjectOf, targetSubject } from '../watch-subject.js';
import { storeOf, type RouteDef, type ServerContext } from '../context.js';
import { isJsonObject } from '../../core/encoding/json.js';
import { objectBody, queryOptions } from '../http.js';
import { requireOperator } from '../operator.js';
import { checkWatch } from '../jobs/poller.js';
import {
  EVENT_LIMIT,
  EVENT_PAYLOAD_LIMIT_BYTES,
  notReplayable,
  PRESERVATION_RULES,
  RETENTION_LIMITATIONS,
  retentionCutoff,
  WATCH_LIMIT,
} from '../../core/monitoring/rules.js';
import type { ReplayOutcome } from '../../core/monitoring/store.js';
import { empty, EmptyQuerySchema, json, problem, ref } from '../schemas/common.js';
import {
  DeliveryAttemptListSchema,
  EventIdParamsSchema,
  MonitorEventListSchema,
  MonitorEventsQuerySchema,
  MonitoringStatusSchema,
  RetentionPreviewQuerySchema,
  RetentionPreviewSchema,
  WATCH_INTERVAL,
  WatchCheckBodySchema,
  WatchCheckSchema,
  WatchCreatedSchema,
  WatchIdParamsSchema,
  WatchListSchema,
  WatchRequestSchema,
  WatchWebhookBodySchema,
  WatchWebhookSchema,
  EventReplayBodySchema,
  MonitorEventIdParamsSchema,
  MonitorEventReplaySchema,
  WatchReplayRequestSchema,
  WatchReplaySchema,
} from '../schemas/monitoring.js';

/** Events one listing returns at most (newest first). */
const EVENT_LIST_LIMIT = 200;

const SECRET_NOTE =
  'The secret signs every delivery of this watch (X-Svc-Signature-256, and the Standard Webhooks webhook-signature). It is shown only now: keep it with the receiver.';

/** The URL as listings show it: origin and path, no query (it may carry a token), no fragment. */
export function redactedWebhook(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(unreadable URL)';
  }
}

function watchView(watch: Watch) {
  return {
    id: String(watch.id),
    kind: watch.kind,
    [subjectMember(watch.kind)]: watch.did,
    webhook: redactedWebhook(watch.webhookUrl),
    intervalSeconds: watch.intervalSeconds,
    createdAt: watch.createdAt,
    lastHash: watch.lastHash,
    lastStatus: watch.lastStatus,
    lastCheckedAt: watch.lastCheckedAt,
    active: watch.active,
    webhookDisabled: watch.webhookDisabledAt === null ? null : { at: watch.webhookDisabledAt, reason: watch.webhookDisabledReason ?? '' },
  };
}

/** An event id from the path: `evt_<n>` (anything else is no event of ours: 404). */
function eventIdOf(request: FastifyRequest): number | null {
  const raw = (request.params as { id?: string }).id ?? '';
  const m = /^evt_([1-9][0-9]{0,15})$/.exec(raw);
  const id = m ? Number(m[1]) : Number.NaN;
  return Number.isSafeInteger(id) ? id : null;
}

function eventView(event: MonitorEvent) {
  return {
    id: `evt_${event.id}`,
    watchId: String(event.watchId),
    kind: event.kind,
    [subjectMember(event.kind)]: event.did,
    eventType: event.eventType,
    data: event.data,
    createdAt: event.createdAt,
    deliveryStatus: event.deliveryStatus,
    attempts: event.attempts,
    replays: event.replays,
  };
}

/** A watch id from the path: digits only (anything else is no watch of ours: 404). */
function watchIdOf(request: FastifyRequest): number | null {
  const raw = (request.params as { id?: string }).id ?? '';
  const id = /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/** The one-line CONFLICT (or NOT_FOUND) of a refused replay: the state, and the way out. */
export function replayRefusal(eventId: string, refused: Exclude<ReplayOutcome, { outcome: 'replayed' }>): ProblemError {
  switch (refused.outcome) {
    case 'not-found':
      return new ProblemError('NOT_FOUND', 'No event of an operator watch has this id (events are evt_<n>: svc monitor events lists them).');
    case 'not-replayable':
      return notReplayable(eventId, refused.status, 'events');
    case 'watch-removed':
      return new ProblemError(
        'CONFLICT',
        `The watch of ${eventId} (${refused.watchId}) was removed; only events of an active watch can be replayed: add a watch again to follow the DID.`,
      );
    case 'webhook-disabled':
      return webhookDisabled(refused.watchId, refused.since, refused.reason);
  }
}

function webhookDisabled(watchId: number, since: string, reason: string | null): ProblemError {
  return new ProblemError(
    'CONFLICT',
    `The watch's webhook is disabled since ${since}${reason === null ? '' : ` (${reason})`}: re-enable it first (POST /v1/monitoring/watches/${watchId}/webhook).`,
  );
}

const OPERATOR_PROBLEMS = {
  400: problem('INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: a body that is not JSON.'),
  401: problem('UNAUTHORIZED: no Authorization: Bearer header with the operator token.'),
  501: problem('MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters).'),
  429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)."),
  503: problem('SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After).'),
};

export function monitoringRoutes(ctx: ServerContext): RouteDef[] {
  const access = ctx.operator ?? { enabled: false as const, reason: 'SVC_ADMIN_TOKEN is not set' };
  // Before the body is read or validated: an unauthenticated caller learns nothing from a 400.
  const onRequest = (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => {
    try {
      requireOperator(access, request);
      done();
    } catch (err) {
      done(err as Error);
    }
  };
  const options = { onRequest };
  const tags = ['monitoring'];
  return [
    {
      method: 'POST',
      url: '/v1/monitoring/watches',
      budget: 'standard',
      options,
      schema: {
        summary: 'Watch an identifier, an MCP endpoint or an A2A agent card: its changes are posted to a webhook',
        operationId: 'createWatch',
        description: `Operator only. The body names exactly one subject: did (resolved at each check), mcpEndpoint (a Streamable HTTP MCP endpoint: its tools, prompts and resources inspected) or a2aCard (an agent's origin or card URL: its card inspected); for the last two, baseline may carry an approved baseline file (svc mcp approve / svc a2a approve) that the first check compares with, else the first check is the baseline. The webhook URL, the endpoint and the card must pass the egress policy (https, a public address) now and at every use. intervalSeconds defaults to ${WATCH_INTERVAL.default}. The signing secret is in this answer only.`,
        tags,
        body: ref(WatchRequestSchema),
        response: {
          201: json(ref(WatchCreatedSchema), 'The watch, its signing secret (shown once) and a note.'),
          ...OPERATOR_PROBLEMS,
          400: problem(
            'INVALID_REQUEST: the body is not a WatchRequest, names none or several of did, mcpEndpoint and a2aCard, or its baseline does not parse or holds no entry approved from the subject (the detail says which); INVALID_DID: did is not a DID.',
          ),
          403: problem('EGRESS_BLOCKED: the webhook URL, the MCP endpoint or the card URL is not https or its host resolves to a non-public address.'),
          429: problem(`RATE_LIMITED: the client's budget is used up; WATCH_CAPACITY_EXHAUSTED: ${WATCH_LIMIT} watches are stored (delete one first).`),
          501: problem('MONITORING_DISABLED, or METHOD_NOT_SUPPORTED: did names a method svc does not resolve.'),
          502: problem('UPSTREAM_UNAVAILABLE: the webhook host does not resolve.'),
        },
      },
      handler: async (request, reply) => {
        const body = objectBody(request) as { webhookUrl: string; intervalSeconds?: number; baseline?: unknown };
        const createdAt = rfc3339(ctx.runtime.clock.now());
        const named = subjectOf(body);
        let subject: { subject: string; baseline?: CheckOutcome };
        if (named.kind === 'did') {
          noBaselineForDid(body);
          const { did } = parseDid(named.value);
          requireResolvable(did, 'so it cannot be watched');
          subject = { subject: did };
        } else {
          subject = await targetSubject(ctx.runtime, named.kind, named.value, body.baseline, createdAt);
        }
        await ctx.runtime.net.checkDestination(body.webhookUrl, 'webhook');
        const store = storeOf(ctx.runtime);
        // Standard Webhooks' form (whsec_ + base64 of 32 random bytes): any of its verifiers takes it.
        const secret = `whsec_${randomBytes(32).toString('base64')}`;
        const added = await store.watches.add(
          {
            kind: named.kind,
            did: subject.subject,
            webhookUrl: body.webhookUrl,
            secret,
            intervalSeconds: body.intervalSeconds ?? WATCH_INTERVAL.default,
            createdAt,
            ...(subject.baseline ? { baseline: subject.baseline } : {}),
          },
          WATCH_LIMIT,
        );
        if (added === 'full') {
          throw new ProblemError('WATCH_CAPACITY_EXHAUSTED', `${WATCH_LIMIT} watches are stored, the most this daemon keeps; delete one to add another.`, {
            retryAfter: 60,
          });
        }
        return reply.code(201).send({ watch: watchView(added), secret, note: SECRET_NOTE });
      },
    },
    {
      method: 'GET',
      url: '/v1/monitoring/watches',
      budget: 'standard',
      options,
      schema: {
        summary: 'List the watches',
        operationId: 'listWatches',
        description: 'Operator only. Active watches, oldest first, each webhook URL redacted to origin and path; never a secret.',
        tags,
        querystring: EmptyQuerySchema,
        response: {
          200: json(ref(WatchListSchema), 'The active watches.'),
          ...OPERATOR_PROBLEMS,
          500: problem('INTERNAL_ERROR: the watches could not be read.'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const watches = await storeOf(ctx.runtime).watches.list();
        return reply.send({ watches: watches.map(watchView) });
      },
    },
    {
      method: 'DELETE',
      url: '/v1/monitoring/watches/:id',
      budget: 'standard',
      options,
      schema: {
        summary: 'Stop watching',
        operationId: 'deleteWatch',
        description: 'Operator only. The watch stops; its queued events (PENDING, RETRY) become CANCELLED. Events already delivered or dead-lettered are kept.',
        tags,
        params: WatchIdParamsSchema,
        querystring: EmptyQuerySchema,
        response: {
          204: empty('Removed.'),
          404: problem('NOT_FOUND: no active watch has this id.'),
          ...OPERATOR_PROBLEMS,
          500: problem('INTERNAL_ERROR: the watch could not be removed.'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const id = watchIdOf(request);
        if (id === null || !(await storeOf(ctx.runtime).watches.remove(id))) throw new ProblemError('NOT_FOUND', 'No active watch has this id.');
        return reply.code(204).send();
      },
    },
    {
      method: 'POST',
      url: '/v1/monitoring/watches/:id/check',
      budget: 'standard',
      options,
      schema: {
        summary: 'Check a watch now',
        operationId: 'checkWatch',
        description:
          "Operator only. Resolves the DID afresh and compares it with the watch's baselines, as the poller does. changed: whether the check emitted an event; eventId: the first of them (evt_<n>), or null; delivery: queued when an event waits for delivery, none otherwise (also while a receiver has disabled the webhook: its events are kept CANCELLED). The first check of a watch only establishes its baseline.",
        tags,
        params: WatchIdParamsSchema,
        querystring: EmptyQuerySchema,
        body: WatchCheckBodySchema,
        response: {
          200: json(ref(WatchCheckSchema), 'What the check found.'),
          404: problem('NOT_FOUND: no active watch has this id.'),
          ...OPERATOR_PROBLEMS,
          500: problem(
            `INTERNAL_ERROR: ${EVENT_LIMIT} events are stored, or an event would be over ${EVENT_PAYLOAD_LIMIT_BYTES} bytes: nothing was written (the change is reported once there is room).`,
          ),
          503: problem(
            'CAPACITY_EXHAUSTED, or SERVICE_UNAVAILABLE: the database is unavailable, another check of the watch was recorded at the same moment, or the daemon is shutting down (Retry-After).',
          ),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const id = watchIdOf(request);
        const input = id === null ? undefined : await storeOf(ctx.runtime).watches.forCheck(id);
        if (!input) throw new ProblemError('NOT_FOUND', 'No active watch has this id.');
        const report = await checkWatch(ctx, input);
        switch (report.outcome) {
          case 'recorded': {
            const first = report.eventIds[0];
            // A webhook a receiver disabled (410 Gone) queues nothing: the events are kept CANCELLED.
            const queued = report.changed && input.watch.webhookDisabledAt === null;
            return reply.send({ eventId: first === undefined ? null : `evt_${first}`, changed: report.changed, delivery: queued ? 'queued' : 'none' });
          }
          case 'stale':
            throw new ProblemError('SERVICE_UNAVAILABLE', 'Another check of this watch was recorded at the same moment; nothing was written. Try again.', {
              retryAfter: 1,
            });
          case 'event-capacity':
            throw new ProblemError(
              'INTERNAL_ERROR',
              `${EVENT_LIMIT} monitor events are stored, the most this daemon keeps: nothing was written, and the change will be reported once there is room.`,
            );
          case 'payload-too-large':
            throw new ProblemError('INTERNAL_ERROR', `The event would be larger than ${EVENT_PAYLOAD_LIMIT_BYTES} bytes: nothing was written.`);
          case 'skipped':
            throw new ProblemError('CAPACITY_EXHAUSTED', `The check could not run now: ${report.reason}`, { retryAfter: 5 });
        }
      },
    },
    {
      method: 'POST',
      url: '/v1/monitoring/watches/:id/webhook',
      budget: 'standard',
      options,
      schema: {
        summary: "Enable a watch's webhook again (after a 410 Gone), optionally at a new URL",
        operationId: 'enableWatchWebhook',
        description:
          'Operator only. A receiver that answered 410 Gone disabled the webhook: the watch was still checked, but no event was sent (its events were kept CANCELLED). This clears webhookDisabled; events from the next check on are delivered (earlier ones stay CANCELLED: replay them to send them). webhookUrl, when given, replaces the URL and must pass the egress policy as at registration; the signing secret stays. Also 200 for a webhook that was not disabled.',
        tags,
        params: WatchIdParamsSchema,
        querystring: EmptyQuerySchema,
        body: WatchWebhookBodySchema,
        response: {
          200: json(ref(WatchWebhookSchema), 'The watch, its webhook enabled.'),
          404: problem('NOT_FOUND: no active watch has this id.'),
          ...OPERATOR_PROBLEMS,
          400: problem('INVALID_REQUEST: the body is not {webhookUrl?}; INVALID_OPTIONS: a query option (none is taken).'),
          403: problem('EGRESS_BLOCKED: the new webhook URL is not https or its host resolves to a non-public address.'),
          500: problem('INTERNAL_ERROR: the watch could not be updated.'),
          502: problem('UPSTREAM_UNAVAILABLE: the new webhook host does not resolve.'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const id = watchIdOf(request);
        const store = storeOf(ctx.runtime);
        if (id === null || (await store.watches.get(id)) === undefined) throw new ProblemError('NOT_FOUND', 'No active watch has this id.');
        const body = request.body;
        const webhookUrl = isJsonObject(body) && typeof body['webhookUrl'] === 'string' ? body['webhookUrl'] : undefined;
        if (webhookUrl !== undefined) await ctx.runtime.net.checkDestination(webhookUrl, 'webhook');
        const watch = await store.watches.enableWebhook(id, webhookUrl);
        if (watch === undefined) throw new ProblemError('NOT_FOUND', 'No active watch has this id.');
        return reply.send({ watch: watchView(watch) });
      },
    },
    {
      method: 'GET',
      url: '/v1/monitoring/events/:id/attempts',
      budget: 'standard',
      options,
      schema: {
        summary: "An event's delivery attempts and what each decided",
        operationId: 'listEventAttempts',
        description:
          "Operator only. Every attempt of the event (evt_<n>), oldest first, replays included: when it was sent, the receiver's status, the decision (DELIVERED, RETRY, DEAD_LETTER, WEBHOOK_DISABLED, CANCELLED), a one-line detail (a 3xx not followed, a Retry-After honoured or capped) and the next attempt's time.",
        tags,
        params: EventIdParamsSchema,
        querystring: EmptyQuerySchema,
        response: {
          200: json(ref(DeliveryAttemptListSchema), 'The attempts.'),
          404: problem('NOT_FOUND: no operator event has this id (evt_<n>).'),
          ...OPERATOR_PROBLEMS,
          500: problem('INTERNAL_ERROR: the attempts could not be read.'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const id = eventIdOf(request);
        const attempts: DeliveryAttempt[] | undefined = id === null ? undefined : await storeOf(ctx.runtime).monitorEvents.attempts(id);
        if (attempts === undefined)
          throw new ProblemError('NOT_FOUND', 'No operator event has this id; event ids read evt_<n> (GET /v1/monitoring/events lists them).');
        return reply.send({ eventId: `evt_${id}`, attempts });
      },
    },
    {
      method: 'GET',
      url: '/v1/monitoring/events',
      budget: 'standard',
      options,
      schema: {
        summary: 'List monitor events and their delivery state',
        operationId: 'listMonitorEvents',
        description: `Operator only. Newest first, at most ${EVENT_LIST_LIMIT}; watchId narrows them to one watch (removed watches included).`,
        tags,
        querystring: MonitorEventsQuerySchema,
        response: {
          200: json(ref(MonitorEventListSchema), 'The events.'),
          ...OPERATOR_PROBLEMS,
          400: problem('INVALID_OPTIONS: an unknown or repeated option, or a watchId that is not a number (or beyond 2^53 − 1).'),
          500: problem('INTERNAL_ERROR: the events could not be read.'),
        },
      },
      handler: async (request, reply) => {
        const query = queryOptions(request, ['watchId']);
        const watchId = query['watchId'] === undefined ? undefined : Number(query['watchId']);
        // Sixteen digits may lie beyond 2^53: such a number would be read as a neighbour, never as itself.
        if (watchId !== undefined && !Number.isSafeInteger(watchId)) {
          throw new ProblemError('INVALID_OPTIONS', `The query option "watchId" is beyond the largest watch id (${Number.MAX_SAFE_INTEGER}).`);
        }
        const events = await storeOf(ctx.runtime).monitorEvents.list({ ...(watchId !== undefined ? { watchId } : {}), limit: EVENT_LIST_LIMIT });
        return reply.send({ events: events.map(eventView) });
      },
    },
    {
      method: 'POST',
      url: '/v1/monitoring/events/:id/replay',
      budget: 'standard',
      options,
      schema: {
        summary: 'Replay a dead-lettered or cancelled event',
        operationId: 'replayMonitorEvent',
        description:
          "Operator only. A new delivery of the same event (the same evt_ id and envelope bytes, fresh signatures): PENDING, five fresh attempts, due now; its replays count goes up by one. Only DEAD_LETTER or CANCELLED events, of an active watch whose webhook is enabled. svc never replays by itself: only this route (and the watch's replay) does.",
        tags,
        params: MonitorEventIdParamsSchema,
        querystring: EmptyQuerySchema,
        body: EventReplayBodySchema,
        response: {
          202: json(ref(MonitorEventReplaySchema), 'The event, queued for delivery again.'),
          404: problem('NOT_FOUND: no event of an operator watch has this id (evt_<n>).'),
          409: problem(
            "CONFLICT: the event is not DEAD_LETTER or CANCELLED (still being delivered, or delivered), its watch was removed, or the watch's webhook is disabled (re-enable it first).",
          ),
          ...OPERATOR_PROBLEMS,
          500: problem('INTERNAL_ERROR: the event could not be replayed.'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const raw = (request.params as { id: string }).id;
        const id = eventIdOf(request);
        const replayed = id === null ? ({ outcome: 'not-found' } as const) : await storeOf(ctx.runtime).monitorEvents.replay(id);
        if (replayed.outcome !== 'replayed') throw replayRefusal(raw, replayed);
        ctx.runtime.log.info('an operator replayed a monitor event', { eventId: replayed.event.id, replays: replayed.event.replays });
        return reply.code(202).send({ event: eventView(replayed.event) });
      },
    },
    {
      method: 'POST',
      url: '/v1/monitoring/watches/:id/replay',
      budget: 'standard',
      options,
      schema: {
        summary: "Replay a watch's dead letters since an instant",
        operationId: 'replayWatch',
        description:
          'Operator only. Every DEAD_LETTER event of the watch created at or after `since` is queued again in one transaction, as a replay of each (same ids and bytes, five fresh attempts). None is an empty list, not an error. Cancelled events are replayed one at a time (POST /v1/monitoring/events/{id}/replay). svc never replays by itself.',
        tags,
        params: WatchIdParamsSchema,
        querystring: EmptyQuerySchema,
        body: WatchReplayRequestSchema,
        response: {
          202: json(ref(WatchReplaySchema), 'The replayed events.'),
          404: problem('NOT_FOUND: no active watch has this id.'),
          409: problem("CONFLICT: the watch's webhook is disabled (re-enable it first)."),
          ...OPERATOR_PROBLEMS,
          400: problem(
            `INVALID_REQUEST: the body is not {since}, or since is not an RFC 3339 date-time with seconds and an offset from ${INSTANT_RANGE}; INVALID_OPTIONS: a query option.`,
          ),
          500: problem('INTERNAL_ERROR: the events could not be replayed.'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        const since = retentionCutoff((objectBody(request) as { since: string }).since);
        if (since === null) {
          throw new ProblemError(
            'INVALID_REQUEST',
            `"since" must be an RFC 3339 date-time with seconds and an offset, such as 2026-01-01T00:00:00Z or 2026-01-01T02:00:00+02:00, from ${INSTANT_RANGE}.`,
          );
        }
        const id = watchIdOf(request);
        const replayed = id === null ? ({ outcome: 'not-found' } as const) : await storeOf(ctx.runtime).monitorEvents.replaySince(id, since);
        if (replayed.outcome === 'not-found') throw new ProblemError('NOT_FOUND', 'No active watch has this id.');
        if (replayed.outcome === 'webhook-disabled') throw webhookDisabled(replayed.watchId, replayed.since, replayed.reason);
        ctx.runtime.log.info("an operator replayed a watch's dead letters", { watchId: id, since, count: replayed.eventIds.length });
        return reply.code(202).send({ replayed: replayed.eventIds.map((n) => `evt_${n}`), count: replayed.eventIds.length });
      },
    },
    {
      method: 'GET',
      url: '/v1/monitoring/status',
      budget: 'standard',
      options,
      schema: {
        summary: 'Gauges of the monitoring tables',
        operationId: 'monitoringStatus',
        description: 'Operator only. Counts and limits, no payloads or secrets. A storage failure is a 500, never zeros.',
        tags,
        querystring: EmptyQuerySchema,
        response: {
          200: json(ref(MonitoringStatusSchema), 'The gauges.'),
          ...OPERATOR_PROBLEMS,
          500: problem('INTERNAL_ERROR: the gauges could not be read.'),
        },
      },
      handler: async (request, reply) => {
        queryOptions(request, []);
        // A storage failure is a 500 here, never zeros (nor the 503 other routes answer for it).
        const unreadable = () => new ProblemError('INTERNAL_ERROR', 'The monitoring tables could not be read, so no gauge is given; /ready says why.');
        const store = ctx.runtime.store;
        if (!store) throw unreadable();
        const gauges = await store.monitorEvents.gauges(rfc3339(ctx.runtime.clock.now())).catch((err: unknown) => {
          ctx.runtime.log.error('reading the monitoring gauges failed', { error: err instanceof Error ? err.message : String(err) });
          throw unreadable();
        });
        return reply.send({ ...gauges, watchLimit: WATCH_LIMIT, eventLimit: EVENT_LIMIT, eventPayloadLimitBytes: EVENT_PAYLOAD_LIMIT_BYTES });
      },
    },
    {
      method: 'GET',
      url: '/v1/monitoring/retention-preview',
      budget: 'standard',
      options,
      schema: {
        summary: 'Preview what a retention cleanup could remove (nothing is deleted)',
        operationId: 'monitoringRetentionPreview',
        description:
          "Operator only. Read only: counts of the observations, MCP observations and settled monitor events (DELIVERED, CANCELLED, without a claim) strictly before the cutoff `before`, with the rules that keep rows and the preview's limitations. The latest row per DID and per endpoint, rows seen again at or after the cutoff, rows with malformed timestamps, unsettled and dead-lettered events are never counted. Counts only: no identifier or payload. A storage failure is a 500, never zeros.",
        tags,
        querystring: RetentionPreviewQuerySchema,
        response: {
          200: json(ref(RetentionPreviewSchema), 'The candidate counts at the cutoff.'),
          ...OPERATOR_PROBLEMS,
          400: problem(
            `INVALID_OPTIONS: before is missing, repeated or not an RFC 3339 date-time with seconds and an offset from ${INSTANT_RANGE}; or an unknown option.`,
          ),
          500: problem('INTERNAL_ERROR: the tables could not be read.'),
        },
      },
      handler: async (request, reply) => {
        const query = queryOptions(request, ['before']);
        const raw = query['before'];
        const cutoff = raw === undefined ? null : retentionCutoff(raw);
        if (cutoff === null) {
          throw new ProblemError(
            'INVALID_OPTIONS',
            `The query option "before" must be an RFC 3339 date-time with seconds and an offset, such as 2026-01-01T00:00:00Z or 2026-01-01T02:00:00+02:00, from ${INSTANT_RANGE}.`,
          );
        }
        // A storage failure is a 500 here, never zeros (as the status route answers).
        const unreadable = () => new ProblemError('INTERNAL_ERROR', 'The tables could not be read, so no count is given; /ready says why.');
        const store = ctx.runtime.store;
        if (!store) throw unreadable();
        const candidateCounts = await store.monitorEvents.retentionCandidates(cutoff).catch((err: unknown) => {
          ctx.runtime.log.error('reading the retention candidates failed', { error: err instanceof Error ? err.message : String(err) });
          throw unreadable();
        });
        return reply.send({ dryRun: true, cutoff, candidateCounts, preservationRules: PRESERVATION_RULES, limitations: RETENTION_LIMITATIONS });
      },
    },
  ];
}
