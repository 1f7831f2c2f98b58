/**
 * Customer monitoring through owner sessions (docs/daemon.md#customer-monitoring): project watches,
 * their events (a bounded list, paging from a snapshot, a report), the project's webhook and its
 * delivery metadata, and the scheduled usage. The customer webhook's body (`CustomerEvent`) is
 * svc's own design; it is documented under `webhooks` in openapi.json.
 */
import { INSTANT_RANGE } from '../../core/storable.js';
import Type, { type TSchema } from 'typebox';
import { CUSTOMER_MONITOR_LIMITS as L } from '../../core/store.js';
import { Nullable, StoredText } from './common.js';

const Time = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const WatchIdSchema = Type.String({ pattern: '^wch_[0-9]+$', description: 'wch_<n>.' });
const EventIdSchema = Type.String({ pattern: '^evt_[0-9]+$', description: 'evt_<n>: stable; receivers deduplicate on it.' });

/** The subject of a project watch or event: exactly one member, as the watch's kind names it. */
const SUBJECT = {
  did: Type.Optional(Type.String({ description: 'A DID watch: the identifier.' })),
  mcpEndpoint: Type.Optional(Type.String({ description: 'An MCP watch: the endpoint URL.' })),
  a2aCard: Type.Optional(Type.String({ description: 'An A2A watch: the card URL (or origin), as registered.' })),
};

export const ProjectWatchSchema = Type.Object(
  {
    id: WatchIdSchema,
    projectId: Type.String(),
    ...SUBJECT,
    createdAt: Time(),
    lastStatus: Nullable(Type.String({ description: 'RESOLVED, DEACTIVATED or FAILED after a check; null before the first.' })),
    lastHash: Nullable(Type.String({ description: 'The document hash of the last check that resolved.' })),
    lastCheckedAt: Nullable(Time()),
    nextDueAt: Time('When the watch is next due (hourly).'),
  },
  { $id: 'ProjectWatch', additionalProperties: false },
);

export const ProjectWatchRequestSchema = Type.Object(
  {
    did: Type.Optional(StoredText({ description: 'A did:key, did:jwk or did:web identifier (or mcpEndpoint, or a2aCard: exactly one).', maxLength: 2048 })),
    mcpEndpoint: Type.Optional(
      StoredText({ minLength: 1, maxLength: 2048, description: 'The https URL of a Streamable HTTP MCP endpoint: its inventory is watched.' }),
    ),
    a2aCard: Type.Optional(StoredText({ minLength: 1, maxLength: 2048, description: "An A2A agent's origin or card URL: its card is watched." })),
    baseline: Type.Optional(
      Type.Unsafe<Record<string, unknown>>(
        Type.Record(Type.String(), Type.Unknown(), {
          description:
            'mcpEndpoint and a2aCard only: an approved baseline file as JSON (svc-mcp-baseline or svc-a2a-baseline) holding the entry approved from this subject; the first check compares with it.',
        }),
      ),
    ),
  },
  { $id: 'ProjectWatchRequest', additionalProperties: false },
);

export const ProjectWatchCreatedSchema = Type.Object(
  {
    watch: Type.Ref('ProjectWatch'),
    workerActive: Type.Boolean({ description: 'Whether this daemon runs the automatic worker (hourly checks, deliveries).' }),
  },
  { $id: 'ProjectWatchCreated', additionalProperties: false },
);

export const ProjectWatchListSchema = Type.Object(
  {
    watches: Type.Array(Type.Ref('ProjectWatch'), { description: 'Active watches, oldest first.' }),
    workerActive: Type.Boolean({ description: 'Whether this daemon runs the automatic worker: without it nothing is checked or delivered.' }),
    intervalSeconds: Type.Literal(L.intervalSeconds, { description: 'Every watch is due hourly.' }),
    limit: Type.Integer({ description: 'Active watches a project may have.' }),
  },
  { $id: 'ProjectWatchList', additionalProperties: false },
);

export const CustomerEventSchema = Type.Object(
  {
    id: EventIdSchema,
    type: Type.Ref('MonitorEventType'),
    projectId: Type.String({ description: 'The project the event belongs to: receivers bind it to their owner.' }),
    watchId: WatchIdSchema,
    ...SUBJECT,
    createdAt: Time("When the event was recorded; its unix seconds are the signature's t."),
    data: Type.Ref('MonitorEventData'),
  },
  { $id: 'CustomerEvent', additionalProperties: false },
);

export const CustomerEventListSchema = Type.Object(
  {
    events: Type.Array(Type.Ref('CustomerEvent'), { description: `Newest first: every event of the last ${L.windowDays} days (at most ${L.eventList}).` }),
    windowStart: Time(),
  },
  { $id: 'CustomerEventList', additionalProperties: false },
);

export const EventPageRequestSchema = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: L.pageMax }),
    asOf: Type.Optional(
      Time('Only events recorded at or before this instant (first page; later pages repeat it), from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z.'),
    ),
    snapshotEventId: Type.Optional(StoredText({ description: 'The watermark of an earlier page (opaque: pass it back as received).', maxLength: 64 })),
    beforeEventId: Type.Optional(StoredText({ description: 'The cursor of an earlier page (needs snapshotEventId).', maxLength: 64 })),
  },
  { $id: 'EventPageRequest', additionalProperties: false },
);

const CursorSchema = Type.Object(
  { snapshotEventId: Type.String(), beforeEventId: Type.String(), asOf: Type.Optional(Time('Present when the first page named one.')) },
  { additionalProperties: false, description: 'The body members of the next page: send it back as it is, with a limit.' },
);

export const EventPageSchema = Type.Object(
  {
    events: Type.Array(Type.Ref('CustomerEvent'), { description: 'Newest first, in persistence order.' }),
    snapshotEventId: Nullable(
      Type.String({ description: 'The snapshot watermark: no later event appears on any page of it. Null when the window was empty.' }),
    ),
    asOf: Nullable(Time()),
    hasMore: Type.Boolean(),
    next: Nullable(CursorSchema),
  },
  { $id: 'EventPage', additionalProperties: false },
);

export const WatchReportSchema = Type.Object(
  {
    watch: Type.Ref('ProjectWatch'),
    windowStart: Time(),
    windowEnd: Time(),
    eventCount: Type.Integer({ minimum: 0 }),
    eventsByType: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Events of the window per type.' }),
    events: Type.Array(Type.Ref('CustomerEvent'), { description: 'Every event of the window, oldest first: the report is complete or refused.' }),
  },
  { $id: 'WatchReport', additionalProperties: false },
);

export const CustomerWebhookConfigSchema = Type.Object(
  {
    id: Type.String({ pattern: '^whk_[0-9]+$' }),
    url: Type.String(),
    createdAt: Time(),
    active: Type.Boolean(),
    disabledAt: Nullable(Time()),
    disabledReason: Nullable(
      Type.String({
        description:
          'Why a receiver disabled the webhook (it answered 410 Gone: when, and to which event); set a webhook again to resume deliveries. null while active, or when the owner disabled it.',
      }),
    ),
  },
  { $id: 'CustomerWebhookConfig', additionalProperties: false },
);

export const CustomerWebhookRequestSchema = Type.Object(
  {
    url: StoredText({
      maxLength: 2048,
      description: 'An https URL whose host resolves to public addresses (the egress policy), checked now and at every delivery.',
    }),
  },
  { $id: 'CustomerWebhookRequest', additionalProperties: false },
);

export const CustomerWebhookCreatedSchema = Type.Object(
  {
    config: Type.Ref('CustomerWebhookConfig'),
    secret: Type.String({ description: 'The signing secret (whsec_…): in this answer only. Verify X-SVC-Signature with it.' }),
  },
  { $id: 'CustomerWebhookCreated', additionalProperties: false },
);

export const CustomerWebhookStateSchema = Type.Object(
  {
    config: Nullable(Type.Ref('CustomerWebhookConfig')),
    workerActive: Type.Boolean({ description: 'Whether this daemon runs the automatic worker that delivers.' }),
  },
  { $id: 'CustomerWebhookState', additionalProperties: false },
);

export const CustomerDeliverySchema = Type.Object(
  {
    id: Type.String(),
    eventId: EventIdSchema,
    eventType: Type.Ref('MonitorEventType'),
    watchId: WatchIdSchema,
    webhookId: Type.String(),
    createdAt: Time(),
    status: Type.Ref('DeliveryStatus'),
    attempts: Type.Integer({ minimum: 0, maximum: 5 }),
    nextAttemptAt: Nullable(Time()),
    lastAttemptAt: Nullable(Time()),
    deliveredAt: Nullable(Time()),
    decisions: Type.Array(
      Type.Object(
        {
          replay: Type.Integer({ minimum: 0, description: '0: the first delivery; n: the n-th replay.' }),
          attempt: Type.Integer({ minimum: 1, maximum: 5 }),
          attemptedAt: Time(),
          decision: Type.Union(['DELIVERED', 'RETRY', 'DEAD_LETTER', 'WEBHOOK_DISABLED', 'CANCELLED'].map((d) => Type.Literal(d))),
          detail: Type.String({ description: 'One line: what the receiver answered and why the decision.' }),
          nextAttemptAt: Nullable(Time()),
        },
        { additionalProperties: false },
      ),
      { maxItems: 10, description: "The attempts' decisions, newest first (at most 10)." },
    ),
  },
  { $id: 'CustomerDelivery', additionalProperties: false },
);

export const CustomerDeliveryListSchema = Type.Object(
  { deliveries: Type.Array(Type.Ref('CustomerDelivery'), { description: `The newest ${L.deliveryList} of the last ${L.windowDays} days; metadata only.` }) },
  { $id: 'CustomerDeliveryList', additionalProperties: false },
);

export const ScheduledUsageSchema = Type.Object(
  {
    projectId: Type.String(),
    allowance: Type.Integer({ description: `Scheduled attempts per rolling ${L.windowDays} days.` }),
    windowStart: Time(),
    used: Type.Integer({ minimum: 0, description: 'Attempts in the window, failed ones included.' }),
    failed: Type.Integer({ minimum: 0 }),
    remaining: Type.Integer({ minimum: 0 }),
    skipped: Type.Integer({ minimum: 0, description: 'Due checks skipped in the window because the allowance was used up.' }),
    lastSkippedAt: Nullable(Time()),
    activeWatches: Type.Integer({ minimum: 0 }),
    nextDueAt: Nullable(Time('The next due check; null without watches.')),
  },
  { $id: 'ScheduledUsage', additionalProperties: false },
);

export const ScheduledUsageListSchema = Type.Object(
  {
    projects: Type.Array(Type.Ref('ScheduledUsage'), { description: "The owner's projects, oldest first." }),
    workerActive: Type.Boolean(),
    intervalSeconds: Type.Literal(L.intervalSeconds),
    pollSeconds: Type.Integer({ description: 'How often this daemon looks for due work.' }),
  },
  { $id: 'ScheduledUsageList', additionalProperties: false },
);

export const CustomerDeliveryReplaySchema = Type.Object(
  {
    delivery: Type.Ref('CustomerDelivery', {
      description:
        "The delivery that carries the event to the project's active webhook, PENDING with five fresh attempts: the same one when it was that webhook's, else a new one (same body bytes, signed with the active webhook's secret).",
    }),
  },
  { $id: 'CustomerDeliveryReplay', additionalProperties: false },
);

export const CustomerWatchReplaySchema = Type.Object(
  {
    replayed: Type.Array(Type.String({ pattern: '^dlv_[0-9]+_[0-9]+$' }), {
      description: 'The deliveries queued again to the active webhook, one per event (oldest event first).',
    }),
    count: Type.Integer({ minimum: 0 }),
  },
  { $id: 'CustomerWatchReplay', additionalProperties: false },
);

export const SESSION_MONITOR_SCHEMAS: TSchema[] = [
  ProjectWatchSchema,
  ProjectWatchRequestSchema,
  ProjectWatchCreatedSchema,
  ProjectWatchListSchema,
  CustomerEventSchema,
  CustomerEventListSchema,
  EventPageRequestSchema,
  EventPageSchema,
  WatchReportSchema,
  CustomerWebhookConfigSchema,
  CustomerWebhookRequestSchema,
  CustomerWebhookCreatedSchema,
  CustomerWebhookStateSchema,
  CustomerDeliverySchema,
  CustomerDeliveryListSchema,
  ScheduledUsageSchema,
  ScheduledUsageListSchema,
  CustomerDeliveryReplaySchema,
  CustomerWatchReplaySchema,
];

// Request schemas of the routes (no `$id`: inlined where a route uses them; `{project}` is common.ts's).

/** `{project, watch}`: a watch of a project. */
export const ProjectWatchParamsSchema = Type.Object({ project: StoredText(), watch: StoredText() }, { additionalProperties: false });

/** `{project, delivery}`: a delivery of a project's webhook (`dlv_<webhook>_<event>`). */
export const ProjectDeliveryParamsSchema = Type.Object({ project: StoredText(), delivery: StoredText() }, { additionalProperties: false });

/** The body of POST …/watches/{watch}/replay. */
export const ProjectWatchReplayRequestSchema = Type.Object(
  {
    since: Type.String({
      minLength: 1,
      maxLength: 64,
      description: `Replay the dead letters of the watch's events created at or after this instant: an RFC 3339 date-time with seconds and an offset (2026-01-01T00:00:00Z), from ${INSTANT_RANGE}; a fraction rounds up to the next second.`,
    }),
  },
  { additionalProperties: false },
);
