/**
 * Monitor events and their delivery state (docs/daemon.md#operator-monitoring) on both engines: the
 * statuses, the row mappers, the gauges' row, the retention preview's statement, the delivery
 * claim's columns and the settlement of an attempt. The repositories: sqlite/monitor-events.ts,
 * postgres/monitor-events.ts.
 */
import type { JsonObject } from '../../core/encoding/json.js';
import {
  MONITOR_EVENT_TYPES,
  type DeliveryAttempt,
  type DeliveryClaim,
  type DeliveryResult,
  type DeliveryStatus,
  type MonitorEvent,
  type MonitorEventType,
  type MonitoringGauges,
  type ReplayOutcome,
} from '../../core/monitoring/store.js';
import { OPERATOR_EVENT } from './watches.js';

/** Events of operator watches only (defined with the watches: their check counts the event capacity with it). */
export { OPERATOR_EVENT } from './watches.js';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['PENDING', 'DELIVERING', 'RETRY', 'DELIVERED', 'DEAD_LETTER', 'CANCELLED'];

export type EventRow = Omit<MonitorEvent, 'data'> & { data: string };

/**
 * A MonitorEvent's columns as both engines select them from monitor_events (quoted aliases), its
 * watch's kind included; `t` a table alias with its dot, or none.
 */
export const eventMembers = (
  t = '',
): string => `${t}id, ${t}watch_id AS "watchId", ${t}did, ${t}event_type AS "eventType", ${t}data, ${t}created_at AS "createdAt",
  ${t}delivery_status AS "deliveryStatus", ${t}attempts, ${t}next_attempt_at AS "nextAttemptAt", ${t}last_attempt_at AS "lastAttemptAt",
  ${t}last_error AS "lastError", ${t}replays, (SELECT k.kind FROM watches k WHERE k.id = ${t || 'monitor_events.'}watch_id) AS "kind"`;

export function toEvent(row: EventRow): MonitorEvent {
  let data: JsonObject = {};
  try {
    const parsed: unknown = JSON.parse(row.data);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) data = parsed as JsonObject;
  } catch {
    // json_valid() in the table's CHECK makes this unreachable; the checks only ever write objects.
  }
  return { ...row, data };
}

/** Every status as a key, 0 where the table has none (the status route lists them all). */
export function byStatus(counts: ReadonlyMap<string, number>): Record<DeliveryStatus, number> {
  const result = {} as Record<DeliveryStatus, number>;
  for (const status of DELIVERY_STATUSES) result[status] = counts.get(status) ?? 0;
  return result;
}

/** The gauges' row on either engine (PostgreSQL gives the byte sum, a bigint, as a string). */
export type GaugeRow = Omit<MonitoringGauges, 'eventsByStatus' | 'eventPayloadBytes' | 'eventsByType' | 'replays'> &
  Record<`s_${DeliveryStatus}`, number> & { eventPayloadBytes: number | string; replays: number | string } & Record<`t_${number}`, number>;

export function gaugesOf(row: GaugeRow): MonitoringGauges {
  return {
    watches: row.watches,
    events: row.events,
    eventsByStatus: byStatus(new Map(DELIVERY_STATUSES.map((s) => [s, row[`s_${s}`]]))),
    dueDeliveries: row.dueDeliveries,
    expiredLeases: row.expiredLeases,
    eventPayloadBytes: Number(row.eventPayloadBytes),
    disabledWebhooks: Number(row.disabledWebhooks),
    replays: Number(row.replays),
    eventsByType: byType(row),
  };
}

/** The schema's timestamp form, exactly: `YYYY-MM-DDTHH:MM:SSZ` (a GLOB pattern for SQLite). */
export const TIMESTAMP_GLOB = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z';
/** The same form as a PostgreSQL regular expression (for `~`). */
export const TIMESTAMP_REGEX = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$';

/** The schema's statuses of an event that is done with (nothing more will be sent). */
export const TERMINAL = "('DELIVERED', 'CANCELLED')";

/**
 * The retention preview's statement for either engine, counting in one snapshot:
 * - observations (per DID) and mcp_observations (per endpoint): rows whose observed_at and
 *   last_seen_at are both well-formed and strictly before the cutoff, and that have a later row of
 *   the same key (later observed_at, or the same with a larger id; a well-formed observed_at) —
 *   so the latest row of every key, and any row with a malformed timestamp, is never counted;
 * - monitor_events of operator watches (customer events are kept by their own rules): DELIVERED or CANCELLED, no lease (lease_expires_at NULL), created_at
 *   well-formed and strictly before the cutoff.
 * `valid(column)` is the engine's format check, `text(column)` the column as compared (bytewise
 * on PostgreSQL, whatever the database's collation), `cutoff` the parameter.
 */
export function retentionStatement(valid: (column: string) => string, text: (column: string) => string, cutoff: string, count: string): string {
  const older = (table: string, key: string) => `(SELECT ${count} FROM ${table} r
      WHERE ${valid('r.observed_at')} AND ${valid('r.last_seen_at')}
        AND ${text('r.observed_at')} < ${cutoff} AND ${text('r.last_seen_at')} < ${cutoff}
        AND EXISTS (SELECT 1 FROM ${table} n
          WHERE n.${key} = r.${key} AND ${valid('n.observed_at')}
            AND (${text('n.observed_at')} > ${text('r.observed_at')} OR (n.observed_at = r.observed_at AND n.id > r.id))))`;
  return `SELECT
    ${older('observations', 'did')} AS "observations",
    ${older('mcp_observations', 'endpoint')} AS "mcpObservations",
    (SELECT ${count} FROM monitor_events
      WHERE delivery_status IN ${TERMINAL} AND lease_expires_at IS NULL AND ${OPERATOR_EVENT}
        AND ${valid('created_at')} AND ${text('created_at')} < ${cutoff}) AS "terminalMonitorEvents"`;
}

/**
 * The event's columns (table alias `e`) and its watch's (alias `w`) for a delivery claim, with
 * quoted aliases that read alike on SQLite and PostgreSQL. The only statement that selects the
 * watch's secret: the sender signs with it.
 */
export const CLAIM_COLUMNS = `${eventMembers('e.')}, e.lease_expires_at AS "leaseExpiresAt",
  w.did AS "watchDid", w.webhook_url AS "webhookUrl", w.secret, w.active, w.webhook_disabled_at AS "webhookDisabledAt"`;

/** A claim's row as both engines return it (`active` the schema's 0/1 INTEGER). */
export type ClaimRow = EventRow & {
  leaseExpiresAt: string;
  watchDid: string;
  webhookUrl: string;
  secret: string;
  active: number;
  webhookDisabledAt: string | null;
};

export function toClaim(row: ClaimRow): DeliveryClaim {
  const { leaseExpiresAt, watchDid, webhookUrl, secret, active, webhookDisabledAt, ...event } = row;
  return {
    event: toEvent(event),
    watch: { id: row.watchId, kind: row.kind, did: watchDid, webhookUrl, secret, active: active === 1, webhookDisabled: webhookDisabledAt !== null },
    attempt: row.attempts,
    leaseExpiresAt,
  };
}

/** What last_error says of an event whose sender let its lease lapse. */
export const LEASE_EXPIRED = 'the delivery lease expired before the attempt was settled';

/**
 * The attempt record of a recovered lease (the sender died mid-attempt), as a SQL expression of
 * the recovered row's status: the attempt counts, its answer is unknown.
 */
export const recoveredDetail = (status: string): string =>
  `CASE WHEN ${status} = 'RETRY' THEN '${LEASE_EXPIRED} (the sender stopped): next attempt at once'
    ELSE '${LEASE_EXPIRED} (the sender stopped): that was the last attempt: dead letter' END`;

/**
 * The claim's numbers, checked: a lease of whole seconds from 1 (a lease of 0 would be expired at
 * once, and the event claimable by another sender while this one sends), and at least one
 * attempt. Other values are a programming error: RangeError.
 */
export function claimArguments(leaseSeconds: number, maxAttempts: number, largest: number): { leaseSeconds: number; maxAttempts: number } {
  if (!Number.isSafeInteger(leaseSeconds) || leaseSeconds < 1 || leaseSeconds > largest)
    throw new RangeError(`leaseSeconds must be a whole number of seconds from 1, not ${leaseSeconds}`);
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > largest)
    throw new RangeError(`maxAttempts must be a whole number from 1, not ${maxAttempts}`);
  return { leaseSeconds, maxAttempts };
}

/** One line, at most 1,000 characters: what last_error keeps of a failure. */
export function oneLine(error: string): string {
  const line = error.replace(/\s+/g, ' ').trim();
  return line.length > 1000 ? `${line.slice(0, 999)}…` : line;
}

/** What a settlement writes: the delivery's columns, and its attempt record's decision, status and detail. */
export interface Settlement {
  status: DeliveryStatus;
  /** RETRY only: the delay of the next attempt, whole seconds (rounded up). */
  retryAfterSeconds: number | null;
  /** null: last_error is kept. */
  error: string | null;
  decision: DeliveryAttempt['decision'];
  /** The receiver's HTTP status (100..999), or null. */
  responseStatus: number | null;
  /** The attempt record's one line. */
  detail: string;
  /** A 410 Gone: the webhook is to be disabled and its queued deliveries cancelled. */
  gone: boolean;
}

/**
 * The columns a settlement writes and its attempt record: 2xx DELIVERED; a failure RETRY (with
 * a delay) or DEAD_LETTER (none); a 410 Gone (`gone`) CANCELLED, decision WEBHOOK_DISABLED; a
 * cancellation CANCELLED.
 */
export function settlementOf(result: DeliveryResult, largest: number): Settlement {
  const statusOf = (r: { status?: number }) =>
    r.status !== undefined && Number.isSafeInteger(r.status) && r.status >= 100 && r.status <= 999 ? r.status : null;
  if ('cancelled' in result) {
    return {
      status: 'CANCELLED',
      retryAfterSeconds: null,
      error: null,
      decision: 'CANCELLED',
      responseStatus: null,
      detail: oneLine(result.detail ?? 'cancelled: nothing was sent'),
      gone: false,
    };
  }
  const responseStatus = statusOf(result);
  if (result.delivered) {
    const detail = oneLine(result.detail ?? (responseStatus === null ? 'delivered' : `the receiver answered ${responseStatus}`));
    return { status: 'DELIVERED', retryAfterSeconds: null, error: null, decision: 'DELIVERED', responseStatus, detail, gone: false };
  }
  const error = oneLine(result.error);
  const detail = oneLine(result.detail ?? error);
  if (result.gone === true) return { status: 'CANCELLED', retryAfterSeconds: null, error, decision: 'WEBHOOK_DISABLED', responseStatus, detail, gone: true };
  if (result.retryAfterSeconds === null)
    return { status: 'DEAD_LETTER', retryAfterSeconds: null, error, decision: 'DEAD_LETTER', responseStatus, detail, gone: false };
  const after = Math.ceil(result.retryAfterSeconds);
  if (!Number.isSafeInteger(after) || after < 0 || after > largest)
    throw new RangeError(`retryAfterSeconds must be a number of seconds from 0, not ${result.retryAfterSeconds}`);
  return { status: 'RETRY', retryAfterSeconds: after, error, decision: 'RETRY', responseStatus, detail, gone: false };
}

/**
 * Why a webhook is disabled after a 410 Gone: the answer, when (database clock), and to which
 * event; the fix is the caller's to name (re-enable, or set a webhook again).
 */
export function goneReason(at: string, eventId: string): string {
  return `the receiver answered 410 Gone at ${at} to the delivery of ${eventId}`;
}

/** What a settlement's UPDATE returns on both engines: what the attempt record and a 410 need. */
export interface SettledRow {
  watchId: number;
  replays: number;
  /** The claim's last_attempt_at. */
  attemptedAt: string;
  nextAttemptAt: string | null;
  /** The database's clock at the settlement. */
  now: string;
}

/** A recovered lease's row as both engines return it: what its attempt record needs. */
export interface RecoveredRow {
  /** The event's id (operator) or the delivery's (customer). */
  id: number | string;
  replays: number;
  attempts: number;
  attemptedAt: string;
  status: 'RETRY' | 'DEAD_LETTER';
  nextAttemptAt: string | null;
  detail: string;
}

/** An attempt record's columns as both engines select them (quoted aliases). */
export const ATTEMPT_MEMBERS = `replay, attempt, attempted_at AS "attemptedAt", response_status AS "responseStatus", decision, detail,
  next_attempt_at AS "nextAttemptAt"`;

export function toAttempt(row: DeliveryAttempt): DeliveryAttempt {
  return {
    replay: Number(row.replay),
    attempt: Number(row.attempt),
    attemptedAt: row.attemptedAt,
    responseStatus: row.responseStatus === null ? null : Number(row.responseStatus),
    decision: row.decision,
    detail: row.detail,
    nextAttemptAt: row.nextAttemptAt,
  };
}

/** The largest delay, lease or attempt count either engine takes (PostgreSQL's INTEGER). */
export const MAX_SECONDS = 2_147_483_647;

// ---- replay (docs/daemon.md#operator-monitoring, "Replay"): never automatic, an operator asks ----

/** Statuses a replay takes an event from (the delivery ended without reaching the receiver). */
export const REPLAYABLE = "('DEAD_LETTER', 'CANCELLED')";

/** The columns a replay writes: a fresh delivery of the same event (five attempts again), the count of replays kept. */
const REPLAY_SET = `delivery_status = 'PENDING', attempts = 0, next_attempt_at = NULL, lease_expires_at = NULL, last_error = NULL,
  replays = replays + 1`;

/** Active operator watches whose webhook is enabled: the only ones whose events may be replayed. */
const REPLAY_WATCHES = 'SELECT id FROM watches WHERE project_id IS NULL AND active = 1 AND webhook_disabled_at IS NULL';

/**
 * The replay statements of either engine, `p(n)` its n-th parameter: one event (guarded: a
 * replayable status, its watch active with its webhook enabled; 0 rows when refused), the
 * refusal's facts (the event's status and its watch's state), the watch of a "since" replay, and
 * the dead letters of that watch created at or after the instant.
 */
export const replayStatements = (p: (n: number) => string) => ({
  one: `UPDATE monitor_events SET ${REPLAY_SET}
    WHERE id = ${p(1)} AND delivery_status IN ${REPLAYABLE} AND watch_id IN (${REPLAY_WATCHES})
    RETURNING id`,
  facts: `SELECT e.delivery_status AS "status", e.watch_id AS "watchId", w.active, w.webhook_disabled_at AS "disabledAt",
      w.webhook_disabled_reason AS "disabledReason"
    FROM monitor_events e JOIN watches w ON w.id = e.watch_id
    WHERE e.id = ${p(1)} AND w.project_id IS NULL`,
  watch: `SELECT id, webhook_disabled_at AS "disabledAt", webhook_disabled_reason AS "disabledReason"
    FROM watches WHERE id = ${p(1)} AND project_id IS NULL AND active = 1`,
  since: `UPDATE monitor_events SET ${REPLAY_SET}
    WHERE watch_id = ${p(1)} AND delivery_status = 'DEAD_LETTER' AND created_at >= ${p(2)}
    RETURNING id`,
});

/** A refusal's facts as both engines read them (`active` the schema's 0/1). */
export interface ReplayFacts {
  status: DeliveryStatus;
  watchId: number;
  active: number;
  disabledAt: string | null;
  disabledReason: string | null;
}

/** Why a replay of the event was refused, from its facts (undefined: no event of an operator watch). */
export function replayRefusal(facts: ReplayFacts | undefined): Exclude<ReplayOutcome, { outcome: 'replayed' }> {
  if (facts === undefined) return { outcome: 'not-found' };
  if (facts.status !== 'DEAD_LETTER' && facts.status !== 'CANCELLED') return { outcome: 'not-replayable', status: facts.status };
  if (Number(facts.active) !== 1) return { outcome: 'watch-removed', watchId: Number(facts.watchId) };
  if (facts.disabledAt !== null) return { outcome: 'webhook-disabled', watchId: Number(facts.watchId), since: facts.disabledAt, reason: facts.disabledReason };
  // The guarded update and the facts disagree only when another transaction moved the event in
  // between (PostgreSQL, READ COMMITTED): its status now is the answer.
  return { outcome: 'not-replayable', status: facts.status };
}

/** The gauges' per-type counts as columns `t_<n>` (n: the type's index in MONITOR_EVENT_TYPES), `count` the engine's counting expression. */
export const typeColumns = (count: (condition: string) => string): string =>
  MONITOR_EVENT_TYPES.map((type, i) => `${count(`event_type = '${type}'`)} AS "t_${i}"`).join(', ');

/** Every type as a key, from a gauges row's `t_<n>` columns. */
export function byType(row: Record<string, unknown>): Record<MonitorEventType, number> {
  const result = {} as Record<MonitorEventType, number>;
  MONITOR_EVENT_TYPES.forEach((type, i) => (result[type] = Number(row[`t_${i}`] ?? 0)));
  return result;
}
