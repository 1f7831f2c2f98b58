/**
 * Schemas of the operator monitoring routes (docs/daemon.md#operator-monitoring): a watch as listed
 * (the webhook URL redacted to origin + path, never the secret), the answer to a registration (the
 * secret, shown once), a monitor event with its delivery state, and the gauges of the monitoring
 * status. Ids are strings: a watch's is the `watchId` of its webhook envelopes, an event's the
 * envelope's `evt_<n>`.
 */
import Type, { type TSchema } from 'typebox';
import { MONITOR_EVENT_TYPES } from '../../core/monitoring/store.js';
import { INSTANT_RANGE } from '../../core/storable.js';
import { Nullable, StoredText } from './common.js';

export const WATCH_INTERVAL = { min: 60, max: 86_400, default: 3_600 } as const;

export const WatchKindSchema = Type.Union([Type.Literal('did'), Type.Literal('mcp'), Type.Literal('a2a')], {
  $id: 'WatchKind',
  description: 'What the watch watches: a DID (member did), an MCP endpoint (mcpEndpoint) or an A2A agent card (a2aCard).',
});

/** The subject of a watch or event: exactly one of these, as its kind says. */
const SUBJECT_PROPERTIES = {
  did: Type.Optional(Type.String({ description: 'kind did: the watched identifier.' })),
  mcpEndpoint: Type.Optional(Type.String({ description: 'kind mcp: the watched MCP endpoint URL.' })),
  a2aCard: Type.Optional(Type.String({ description: 'kind a2a: the watched agent card URL (or origin), as registered.' })),
};

/** The approved baseline a registration may carry (MCP and A2A watches). */
export const WatchBaselineSchema = Type.Unsafe<Record<string, unknown>>(
  Type.Record(Type.String(), Type.Unknown(), {
    description:
      'mcpEndpoint and a2aCard only: an approved baseline file as JSON (svc-mcp-baseline from svc mcp approve, svc-a2a-baseline from svc a2a approve) holding the entry approved from this subject. The first check compares with it; without it the first check is the baseline.',
  }),
);

export const WatchSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9]+$', description: 'The watch id; webhook envelopes carry it as watchId.' }),
    kind: Type.Ref('WatchKind'),
    ...SUBJECT_PROPERTIES,
    webhook: Type.String({ description: 'The webhook URL redacted to its origin and path (no query, no fragment).' }),
    intervalSeconds: Type.Integer({ minimum: WATCH_INTERVAL.min, maximum: WATCH_INTERVAL.max }),
    createdAt: Type.String({ description: 'RFC 3339 UTC.' }),
    lastHash: Nullable(Type.String({ description: 'The document hash of the last check that resolved; null before the first check.' })),
    lastStatus: Nullable(Type.String({ description: 'RESOLVED, DEACTIVATED or FAILED after a check; null before the first.' })),
    lastCheckedAt: Nullable(Type.String()),
    active: Type.Boolean(),
    webhookDisabled: Type.Union(
      [
        Type.Object(
          {
            at: Type.String({ description: 'RFC 3339 UTC (database clock): when the receiver answered 410 Gone.' }),
            reason: Type.String({ description: 'The answer, when, and to which event.' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description:
          'Set when a receiver answered 410 Gone: no event is sent (the watch is still checked, its events are kept CANCELLED) until POST /v1/monitoring/watches/{id}/webhook enables it again; null while enabled.',
      },
    ),
  },
  { $id: 'Watch', additionalProperties: false },
);

export const WatchWebhookSchema = Type.Object({ watch: Type.Ref('Watch') }, { $id: 'WatchWebhook', additionalProperties: false });

export const DeliveryAttemptSchema = Type.Object(
  {
    replay: Type.Integer({ minimum: 0, description: 'The delivery the attempt belongs to: 0 the first, n the n-th replay.' }),
    attempt: Type.Integer({ minimum: 1, maximum: 5, description: 'The attempt within that delivery (five in all).' }),
    attemptedAt: Type.String({ description: 'RFC 3339 UTC (database clock): when the attempt was sent.' }),
    responseStatus: Nullable(Type.Integer({ description: "The receiver's HTTP status; null when it did not answer or nothing was sent." })),
    decision: Type.Union(
      ['DELIVERED', 'RETRY', 'DEAD_LETTER', 'WEBHOOK_DISABLED', 'CANCELLED'].map((d) => Type.Literal(d)),
      { description: 'What the attempt decided: WEBHOOK_DISABLED after a 410 Gone; CANCELLED when nothing was sent (watch removed, webhook disabled).' },
    ),
    detail: Type.String({ description: 'One line: what the receiver answered and why the decision (e.g. a Retry-After honoured).' }),
    nextAttemptAt: Nullable(Type.String({ description: 'RETRY: when the next attempt is due (database clock); null otherwise.' })),
  },
  { $id: 'DeliveryAttempt', additionalProperties: false },
);

export const DeliveryAttemptListSchema = Type.Object(
  {
    eventId: Type.String({ pattern: '^evt_[0-9]+$' }),
    attempts: Type.Array(Type.Ref('DeliveryAttempt'), { description: 'Oldest first, replays included.' }),
  },
  { $id: 'DeliveryAttemptList', additionalProperties: false },
);

export const WatchRequestSchema = Type.Object(
  {
    did: Type.Optional(StoredText({ minLength: 1, maxLength: 16_384, description: 'The identifier to watch (or mcpEndpoint, or a2aCard: exactly one).' })),
    mcpEndpoint: Type.Optional(
      StoredText({
        minLength: 1,
        maxLength: 2_048,
        description: 'The https URL of a Streamable HTTP MCP endpoint to watch: its tools, prompts and resources.',
      }),
    ),
    a2aCard: Type.Optional(
      StoredText({ minLength: 1, maxLength: 2_048, description: "An A2A agent's origin or the URL of its agent card, to watch its card." }),
    ),
    baseline: Type.Optional(WatchBaselineSchema),
    webhookUrl: StoredText({
      minLength: 1,
      maxLength: 2_048,
      description: 'An https URL whose host resolves to a public address (the egress policy); checked again at every delivery.',
    }),
    intervalSeconds: Type.Optional(
      Type.Integer({ minimum: WATCH_INTERVAL.min, maximum: WATCH_INTERVAL.max, description: `Seconds between checks (default ${WATCH_INTERVAL.default}).` }),
    ),
  },
  { $id: 'WatchRequest', additionalProperties: false },
);

export const WatchCreatedSchema = Type.Object(
  {
    watch: Type.Ref('Watch'),
    secret: Type.String({ description: "The signing secret of this watch's deliveries (HMAC-SHA256). Shown once: it is never listed again." }),
    note: Type.String(),
  },
  { $id: 'WatchCreated', additionalProperties: false },
);

export const WatchListSchema = Type.Object({ watches: Type.Array(Type.Ref('Watch')) }, { $id: 'WatchList', additionalProperties: false });

export const DeliveryStatusSchema = Type.Union(
  ['PENDING', 'DELIVERING', 'RETRY', 'DELIVERED', 'DEAD_LETTER', 'CANCELLED'].map((s) => Type.Literal(s)),
  { $id: 'DeliveryStatus' },
);

export const MonitorEventSchema = Type.Object(
  {
    id: Type.String({ pattern: '^evt_[0-9]+$' }),
    watchId: Type.String({ pattern: '^[0-9]+$' }),
    kind: Type.Ref('WatchKind'),
    ...SUBJECT_PROPERTIES,
    eventType: Type.Ref('MonitorEventType'),
    data: Type.Ref('MonitorEventData'),
    createdAt: Type.String(),
    deliveryStatus: Type.Ref('DeliveryStatus'),
    attempts: Type.Integer({ minimum: 0, description: 'Attempts of the current delivery (a replay starts them again from 0).' }),
    replays: Type.Integer({ minimum: 0, description: 'How often an operator replayed the event (0: never; svc never replays by itself).' }),
  },
  { $id: 'MonitorEvent', additionalProperties: false },
);

export const MonitorEventListSchema = Type.Object({ events: Type.Array(Type.Ref('MonitorEvent')) }, { $id: 'MonitorEventList', additionalProperties: false });

const count = () => Type.Integer({ minimum: 0 });

export const MonitoringStatusSchema = Type.Object(
  {
    watches: count(),
    events: count(),
    eventsByStatus: Type.Object(
      { PENDING: count(), DELIVERING: count(), RETRY: count(), DELIVERED: count(), DEAD_LETTER: count(), CANCELLED: count() },
      { additionalProperties: false },
    ),
    dueDeliveries: count(),
    expiredLeases: count(),
    eventPayloadBytes: count(),
    watchLimit: count(),
    eventLimit: count(),
    eventPayloadLimitBytes: count(),
    disabledWebhooks: Type.Integer({
      minimum: 0,
      description: 'Active watches whose webhook the receiver disabled (410 Gone): re-enable it, then replay what was cancelled.',
    }),
    replays: Type.Integer({ minimum: 0, description: 'Replays of stored events, summed (an event replayed twice counts 2).' }),
    eventsByType: Type.Object(Object.fromEntries(MONITOR_EVENT_TYPES.map((type) => [type, count()])), {
      additionalProperties: false,
      description: 'Stored events per type: every type is a key, 0 where none.',
    }),
  },
  { $id: 'MonitoringStatus', additionalProperties: false },
);

export const WatchCheckSchema = Type.Object(
  {
    eventId: Nullable(Type.String({ pattern: '^evt_[0-9]+$', description: 'The first event the check emitted, or null.' })),
    changed: Type.Boolean({ description: 'Whether the check emitted an event (the first check of a watch only establishes its baseline).' }),
    delivery: Type.Union([Type.Literal('queued'), Type.Literal('none')], { description: 'queued: an event waits for delivery; none: nothing to deliver.' }),
  },
  { $id: 'WatchCheck', additionalProperties: false },
);

export const RetentionPreviewSchema = Type.Object(
  {
    dryRun: Type.Literal(true, { description: 'Always true: this is a preview, nothing is deleted.' }),
    cutoff: Type.String({
      description:
        'The instant the rows are compared with, in UTC at whole seconds (a fraction rounds up to the next second): a row counts only when it is strictly before it.',
    }),
    candidateCounts: Type.Object(
      {
        observations: count(),
        mcpObservations: count(),
        terminalMonitorEvents: count(),
      },
      { additionalProperties: false, description: 'How many rows a cleanup at this cutoff could remove, per table. Counts only: no identifier, no payload.' },
    ),
    preservationRules: Type.Array(Type.String(), { description: 'The rows that are never counted, in plain words.' }),
    limitations: Type.String({ description: 'What the preview does not promise.' }),
  },
  { $id: 'RetentionPreview', additionalProperties: false },
);

export const MonitorEventReplaySchema = Type.Object(
  { event: Type.Ref('MonitorEvent', { description: 'The event, PENDING again: five fresh attempts, due now.' }) },
  { $id: 'MonitorEventReplay', additionalProperties: false },
);

export const WatchReplaySchema = Type.Object(
  {
    replayed: Type.Array(Type.String({ pattern: '^evt_[0-9]+$' }), { description: 'The replayed events, oldest first: each PENDING again, due now.' }),
    count: count(),
  },
  { $id: 'WatchReplay', additionalProperties: false },
);

export const MONITORING_SCHEMAS: TSchema[] = [
  WatchKindSchema,
  WatchSchema,
  WatchRequestSchema,
  WatchCreatedSchema,
  WatchListSchema,
  WatchCheckSchema,
  DeliveryStatusSchema,
  MonitorEventSchema,
  MonitorEventListSchema,
  MonitoringStatusSchema,
  RetentionPreviewSchema,
  WatchWebhookSchema,
  DeliveryAttemptSchema,
  DeliveryAttemptListSchema,
  MonitorEventReplaySchema,
  WatchReplaySchema,
];

// Request schemas of the routes (no `$id`: inlined where a route uses them).

/** `{id}`: an operator watch. */
export const WatchIdParamsSchema = Type.Object({ id: Type.String() }, { additionalProperties: false });

/** The body of POST /v1/monitoring/watches/{id}/check: nothing, or an empty object. */
export const WatchCheckBodySchema = Type.Optional(
  Type.Object({}, { additionalProperties: false, description: 'Nothing: the check takes no options (an empty object, or no body).' }),
);

/** `{id}`: an operator event, `evt_<n>`. */
export const EventIdParamsSchema = Type.Object({ id: Type.String() }, { additionalProperties: false });

/** The body of POST /v1/monitoring/watches/{id}/webhook: nothing, an empty object, or a new webhook URL. */
export const WatchWebhookBodySchema = Type.Optional(
  Type.Object(
    {
      webhookUrl: Type.Optional(
        StoredText({
          minLength: 1,
          maxLength: 2_048,
          description: 'A new webhook URL in place of the old one (egress-checked as at registration); absent: the registered URL again.',
        }),
      ),
    },
    { additionalProperties: false, description: 'Nothing (the registered URL again), or {webhookUrl}.' },
  ),
);

/** The query of GET /v1/monitoring/events. */
export const MonitorEventsQuerySchema = Type.Object({ watchId: Type.Optional(Type.String({ pattern: '^[0-9]{1,16}$' })) }, { additionalProperties: false });

/** The query of GET /v1/monitoring/retention-preview. */
export const RetentionPreviewQuerySchema = Type.Object(
  {
    before: Type.String({
      minLength: 1,
      maxLength: 64,
      description: `The cutoff: an RFC 3339 date-time with seconds and an offset (2026-01-01T00:00:00Z, 2026-01-01T02:00:00+02:00, 2026-01-01T00:00:00.5Z), from ${INSTANT_RANGE}.`,
    }),
  },
  { additionalProperties: false },
);

/** `{id}`: an operator event, `evt_<n>`. */
export const MonitorEventIdParamsSchema = Type.Object({ id: Type.String() }, { additionalProperties: false });

/** The body of POST /v1/monitoring/events/{id}/replay: nothing, or an empty object. */
export const EventReplayBodySchema = Type.Optional(
  Type.Object({}, { additionalProperties: false, description: 'Nothing: a replay takes no options (an empty object, or no body).' }),
);

/** The body of POST /v1/monitoring/watches/{id}/replay. */
export const WatchReplayRequestSchema = Type.Object(
  {
    since: Type.String({
      minLength: 1,
      maxLength: 64,
      description: `Replay the watch's DEAD_LETTER events created at or after this instant: an RFC 3339 date-time with seconds and an offset (2026-01-01T00:00:00Z, 2026-01-01T02:00:00+02:00), from ${INSTANT_RANGE}; a fraction rounds up to the next second.`,
    }),
  },
  { additionalProperties: false },
);
