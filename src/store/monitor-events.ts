/**
 * Monitor events and their delivery state (SPEC §3, §6.2) over SQLite: the `monitor_events`
 * table of schema v2 (leases since v3). Events are written by the watch checks; here they are
 * listed, counted, and moved along for the deliverer (claimDeliveries, settle). Timestamps are
 * RFC 3339 UTC at second precision, compared as text, as everywhere in the schema; "now" is the
 * database's clock.
 */
import type Database from 'better-sqlite3';
import type { JsonObject } from '../core/encoding/json.js';
import type {
  DeliveryClaim,
  DeliveryResult,
  DeliveryStatus,
  MonitorEvent,
  MonitorEventStore,
  MonitoringGauges,
  RetentionCandidates,
} from '../core/monitoring/store.js';
import { limitOf } from './observations.js';
import { isRowId, OPERATOR_ACTIVE, OPERATOR_EVENT, QUEUED } from './watches.js';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['PENDING', 'DELIVERING', 'RETRY', 'DELIVERED', 'DEAD_LETTER', 'CANCELLED'];

export const EVENT_COLUMNS = `id, watch_id AS watchId, did, event_type AS eventType, data, created_at AS createdAt,
  delivery_status AS deliveryStatus, attempts, next_attempt_at AS nextAttemptAt, last_attempt_at AS lastAttemptAt,
  last_error AS lastError`;

export type EventRow = Omit<MonitorEvent, 'data'> & { data: string };

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

/** The per-status counts as columns `s_<STATUS>` of the gauges query, so that one statement reads every gauge. */
const STATUS_COLUMNS = DELIVERY_STATUSES.map((s) => `coalesce(sum(delivery_status = '${s}'), 0) AS s_${s}`).join(', ');

/** The gauges' row on either engine (PostgreSQL gives the byte sum, a bigint, as a string). */
export type GaugeRow = Omit<MonitoringGauges, 'eventsByStatus' | 'eventPayloadBytes'> & Record<`s_${DeliveryStatus}`, number> & { eventPayloadBytes: number | string };

export function gaugesOf(row: GaugeRow): MonitoringGauges {
  return {
    watches: row.watches,
    events: row.events,
    eventsByStatus: byStatus(new Map(DELIVERY_STATUSES.map((s) => [s, row[`s_${s}`]]))),
    dueDeliveries: row.dueDeliveries,
    expiredLeases: row.expiredLeases,
    eventPayloadBytes: Number(row.eventPayloadBytes),
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

/** The retention preview on SQLite: GLOB is case-sensitive and matches the whole text. */
const SQLITE_RETENTION = retentionStatement((c) => `${c} GLOB '${TIMESTAMP_GLOB}'`, (c) => c, ':cutoff', 'count(*)');

/**
 * The event's columns (table alias `e`) and its watch's (alias `w`) for a delivery claim, with
 * quoted aliases that read alike on SQLite and PostgreSQL. The only statement that selects the
 * watch's secret: the sender signs with it.
 */
export const CLAIM_COLUMNS = `e.id, e.watch_id AS "watchId", e.did, e.event_type AS "eventType", e.data, e.created_at AS "createdAt",
  e.delivery_status AS "deliveryStatus", e.attempts, e.next_attempt_at AS "nextAttemptAt", e.last_attempt_at AS "lastAttemptAt",
  e.last_error AS "lastError", e.lease_expires_at AS "leaseExpiresAt",
  w.did AS "watchDid", w.webhook_url AS "webhookUrl", w.secret, w.active`;

/** A claim's row as both engines return it (`active` the schema's 0/1 INTEGER). */
export type ClaimRow = EventRow & { leaseExpiresAt: string; watchDid: string; webhookUrl: string; secret: string; active: number };

export function toClaim(row: ClaimRow): DeliveryClaim {
  const { leaseExpiresAt, watchDid, webhookUrl, secret, active, ...event } = row;
  return {
    event: toEvent(event),
    watch: { id: row.watchId, did: watchDid, webhookUrl, secret, active: active === 1 },
    attempt: row.attempts,
    leaseExpiresAt,
  };
}

/** Events of operator watches only (defined with the watches: their check counts the event capacity with it). */
export { OPERATOR_EVENT } from './watches.js';

/** What last_error says of an event whose sender let its lease lapse. */
export const LEASE_EXPIRED = 'the delivery lease expired before the attempt was settled';

/**
 * The claim's numbers, checked: a lease of whole seconds from 1 (a lease of 0 would be expired at
 * once, and the event claimable by another sender while this one sends), and at least one
 * attempt. Other values are a programming error: RangeError.
 */
export function claimArguments(leaseSeconds: number, maxAttempts: number, largest: number): { leaseSeconds: number; maxAttempts: number } {
  if (!Number.isSafeInteger(leaseSeconds) || leaseSeconds < 1 || leaseSeconds > largest) throw new RangeError(`leaseSeconds must be a whole number of seconds from 1, not ${leaseSeconds}`);
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > largest) throw new RangeError(`maxAttempts must be a whole number from 1, not ${maxAttempts}`);
  return { leaseSeconds, maxAttempts };
}

/** One line, at most 1,000 characters: what last_error keeps of a failure. */
export function oneLine(error: string): string {
  const line = error.replace(/\s+/g, ' ').trim();
  return line.length > 1000 ? `${line.slice(0, 999)}…` : line;
}

/**
 * The columns a settlement writes: the status, the delay of the next attempt (RETRY only, whole
 * seconds, rounded up), and the error (null: last_error is kept).
 */
export function settlementOf(result: DeliveryResult, largest: number): { status: DeliveryStatus; retryAfterSeconds: number | null; error: string | null } {
  if ('cancelled' in result) return { status: 'CANCELLED', retryAfterSeconds: null, error: null };
  if (result.delivered) return { status: 'DELIVERED', retryAfterSeconds: null, error: null };
  const error = oneLine(result.error);
  if (result.retryAfterSeconds === null) return { status: 'DEAD_LETTER', retryAfterSeconds: null, error };
  const after = Math.ceil(result.retryAfterSeconds);
  if (!Number.isSafeInteger(after) || after < 0 || after > largest) throw new RangeError(`retryAfterSeconds must be a number of seconds from 0, not ${result.retryAfterSeconds}`);
  return { status: 'RETRY', retryAfterSeconds: after, error };
}

/** The largest delay, lease or attempt count either engine takes (PostgreSQL's INTEGER). */
export const MAX_SECONDS = 2_147_483_647;

export class SqliteMonitorEventStore implements MonitorEventStore {
  readonly #list: Database.Statement<[number], EventRow>;
  readonly #listOfWatch: Database.Statement<[number, number], EventRow>;
  readonly #gauges: Database.Statement<{ now: string }, GaugeRow>;
  readonly #retention: Database.Statement<{ cutoff: string }, RetentionCandidates>;
  readonly #claim: (limit: number, leaseSeconds: number, maxAttempts: number) => DeliveryClaim[];
  readonly #settle: Database.Statement<{ id: number; attempt: number; status: DeliveryStatus; retryAfter: number | null; error: string | null }>;

  constructor(db: Database.Database) {
    // Operator events only: a project watch's events are its owner's (the session routes).
    this.#list = db.prepare(`SELECT ${EVENT_COLUMNS} FROM monitor_events WHERE ${OPERATOR_EVENT} ORDER BY id DESC LIMIT ?`);
    this.#listOfWatch = db.prepare(`SELECT ${EVENT_COLUMNS} FROM monitor_events WHERE watch_id = ? AND ${OPERATOR_EVENT} ORDER BY id DESC LIMIT ?`);
    // One statement, so every gauge is read from the same snapshot (the status counts add up
    // to `events`). length() of a BLOB counts bytes; of the TEXT it would count characters.
    this.#gauges = db.prepare(
      `SELECT
         (SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE}) AS watches,
         count(*) AS events,
         ${STATUS_COLUMNS},
         coalesce(sum(delivery_status IN ${QUEUED} AND (next_attempt_at IS NULL OR next_attempt_at <= :now)), 0) AS dueDeliveries,
         coalesce(sum(delivery_status = 'DELIVERING' AND lease_expires_at <= :now), 0) AS expiredLeases,
         coalesce(sum(length(CAST(data AS BLOB))), 0) AS eventPayloadBytes
       FROM monitor_events WHERE ${OPERATOR_EVENT}`,
    );

    this.#retention = db.prepare(SQLITE_RETENTION);

    // The database's clock, read once per claim (SQLite's 'now' is one instant within a
    // statement): "due", "expired", last_attempt_at and the lease all come from it.
    const clock = db.prepare(
      `SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now') AS now, strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '+' || ? || ' seconds') AS until`,
    ) as Database.Statement<[number], { now: string; until: string }>;
    // Expired leases: the sender died (or stalled) mid-attempt. RETRY due at once while an
    // attempt is left, else DEAD_LETTER.
    const recover = db.prepare<{ now: string; max: number }>(
      `UPDATE monitor_events SET
         delivery_status = CASE WHEN attempts < :max THEN 'RETRY' ELSE 'DEAD_LETTER' END,
         next_attempt_at = CASE WHEN attempts < :max THEN :now END,
         lease_expires_at = NULL,
         last_error = '${LEASE_EXPIRED}'
       WHERE delivery_status = 'DELIVERING' AND lease_expires_at <= :now AND ${OPERATOR_EVENT}`,
    );
    // Due events with no attempt left (maxAttempts lowered since, or a RETRY settled after the
    // last attempt) are not claimed beyond maxAttempts: they end as DEAD_LETTER.
    const exhaust = db.prepare<{ now: string; max: number }>(
      `UPDATE monitor_events SET delivery_status = 'DEAD_LETTER', next_attempt_at = NULL
       WHERE delivery_status IN ${QUEUED} AND (next_attempt_at IS NULL OR next_attempt_at <= :now) AND attempts >= :max
         AND ${OPERATOR_EVENT}`,
    );
    // Due as the gauges count it (a PENDING event has no next attempt set), oldest first.
    const claim = db
      .prepare(
        `UPDATE monitor_events SET delivery_status = 'DELIVERING', attempts = attempts + 1, last_attempt_at = :now, lease_expires_at = :until
         WHERE id IN (
           SELECT id FROM monitor_events
           WHERE delivery_status IN ${QUEUED} AND (next_attempt_at IS NULL OR next_attempt_at <= :now) AND attempts < :max
             AND ${OPERATOR_EVENT}
           ORDER BY id LIMIT :limit)
         RETURNING id`,
      )
      .pluck() as Database.Statement<[{ now: string; until: string; max: number; limit: number }], number>;
    const claimed = db.prepare(
      `SELECT ${CLAIM_COLUMNS} FROM monitor_events e JOIN watches w ON w.id = e.watch_id
       WHERE e.id IN (SELECT value FROM json_each(?)) ORDER BY e.id`,
    ) as Database.Statement<[string], ClaimRow>;
    // IMMEDIATE: recovery, selection and claim hold the write lock together, so two processes on
    // one file never claim the same event.
    const claimTransaction = db.transaction((limit: number, leaseSeconds: number, max: number): DeliveryClaim[] => {
      const { now, until } = clock.get(leaseSeconds)!;
      recover.run({ now, max });
      exhaust.run({ now, max });
      const ids = claim.all({ now, until, max, limit });
      return ids.length === 0 ? [] : claimed.all(JSON.stringify(ids)).map(toClaim);
    });
    this.#claim = (limit, leaseSeconds, maxAttempts) => claimTransaction.immediate(limit, leaseSeconds, maxAttempts);

    // One guarded statement: only the attempt that holds the event settles it.
    this.#settle = db.prepare(
      `UPDATE monitor_events SET
         delivery_status = :status,
         next_attempt_at = CASE WHEN :status = 'RETRY' THEN strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '+' || :retryAfter || ' seconds') END,
         last_error = coalesce(:error, last_error),
         lease_expires_at = NULL
       WHERE id = :id AND delivery_status = 'DELIVERING' AND attempts = :attempt`,
    );
  }

  async list(options: { watchId?: number; limit: number }): Promise<MonitorEvent[]> {
    const limit = limitOf(options.limit);
    if (options.watchId === undefined) return this.#list.all(limit).map(toEvent);
    if (!isRowId(options.watchId)) return [];
    return this.#listOfWatch.all(options.watchId, limit).map(toEvent);
  }

  async gauges(now: string): Promise<MonitoringGauges> {
    return gaugesOf(this.#gauges.get({ now })!);
  }

  /** One statement (one snapshot); reads only. */
  async retentionCandidates(cutoff: string): Promise<RetentionCandidates> {
    const row = this.#retention.get({ cutoff })!;
    return { observations: row.observations, mcpObservations: row.mcpObservations, terminalMonitorEvents: row.terminalMonitorEvents };
  }

  /** One IMMEDIATE transaction: expired leases recovered, exhausted events dead-lettered, due events claimed. */
  async claimDeliveries(limit: number, leaseSeconds: number, maxAttempts: number): Promise<DeliveryClaim[]> {
    const checked = claimArguments(leaseSeconds, maxAttempts, MAX_SECONDS);
    const n = limitOf(limit);
    return n === 0 ? [] : this.#claim(n, checked.leaseSeconds, checked.maxAttempts);
  }

  /** One guarded UPDATE; false when the event is not DELIVERING with that attempt count. */
  async settle(eventId: number, attempt: number, result: DeliveryResult): Promise<boolean> {
    const s = settlementOf(result, MAX_SECONDS);
    if (!isRowId(eventId) || !isRowId(attempt)) return false;
    return this.#settle.run({ id: eventId, attempt, status: s.status, retryAfter: s.retryAfterSeconds, error: s.error }).changes === 1;
  }
}
