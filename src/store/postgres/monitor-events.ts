/**
 * Monitor events and their delivery state over PostgreSQL, as on SQLite; claims
 * shared by every daemon on the database (FOR UPDATE SKIP LOCKED).
 */
import type pg from 'pg';
import type {
  DeliveryAttempt,
  DeliveryClaim,
  DeliveryResult,
  MonitorEvent,
  MonitorEventStore,
  MonitoringGauges,
  ReplayOutcome,
  ReplaySinceOutcome,
  RetentionCandidates,
} from '../../core/monitoring/store.js';
import {
  ATTEMPT_MEMBERS,
  claimArguments,
  CLAIM_COLUMNS,
  DELIVERY_STATUSES,
  eventMembers,
  gaugesOf,
  goneReason,
  LEASE_EXPIRED,
  MAX_SECONDS,
  recoveredDetail,
  OPERATOR_EVENT,
  replayRefusal,
  replayStatements,
  retentionStatement,
  settlementOf,
  toClaim,
  TIMESTAMP_REGEX,
  toAttempt,
  toEvent,
  type ClaimRow,
  type SettledRow,
  type EventRow,
  type GaugeRow,
  type ReplayFacts,
  typeColumns,
} from '../schema/monitor-events.js';
import { limitOf } from '../schema/observations.js';
import { OPERATOR_ACTIVE, QUEUED } from '../schema/watches.js';
import { inTransaction } from './sql.js';
import { isPgRowId } from './watches.js';

const COLUMNS = eventMembers();

const STATUS_COLUMNS = DELIVERY_STATUSES.map((s) => `count(*) FILTER (WHERE delivery_status = '${s}')::int AS "s_${s}"`).join(', ');

/**
 * One statement: every gauge from the same snapshot. octet_length() counts the bytes of the text
 * in the server's encoding (UTF-8 for svc's databases), as SQLite's length() of a BLOB does;
 * the sum is BIGINT, which the driver hands over as a string.
 */
const GAUGES = `
  SELECT
    (SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE})::int AS watches,
    count(*)::int AS events,
    ${STATUS_COLUMNS},
    count(*) FILTER (WHERE delivery_status IN ${QUEUED} AND (next_attempt_at IS NULL OR next_attempt_at <= $1))::int AS "dueDeliveries",
    count(*) FILTER (WHERE delivery_status = 'DELIVERING' AND lease_expires_at <= $1)::int AS "expiredLeases",
    coalesce(sum(octet_length(data)), 0)::bigint AS "eventPayloadBytes",
    (SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE} AND webhook_disabled_at IS NOT NULL)::int AS "disabledWebhooks",
    coalesce(sum(replays), 0)::bigint AS "replays",
    ${typeColumns((c) => `count(*) FILTER (WHERE ${c})::int`)}
  FROM monitor_events WHERE ${OPERATOR_EVENT}`;

/**
 * Replays (one transaction each): the guarded update locks the event's row, so a concurrent
 * claim or settle either ran before (the status it left is judged) or waits. A "since" replay
 * locks the watch's row first (FOR UPDATE: a 410 disabling the webhook, or a removal, waits).
 */
const REPLAY = replayStatements((n) => `$${n}`);
const REPLAY_WATCH = `${REPLAY.watch} FOR UPDATE`;

/**
 * The retention preview: one statement (one snapshot). `~` checks the exact form; COLLATE "C"
 * compares the text bytewise, as SQLite does, whatever the database's collation.
 */
const RETENTION = retentionStatement(
  (c) => `${c} ~ '${TIMESTAMP_REGEX}'`,
  (c) => `(${c} COLLATE "C")`,
  '($1::text COLLATE "C")',
  'count(*)::int',
);

/** The schema's RFC 3339 text of a timestamptz expression, at second precision, in UTC. */
const rfc3339 = (t: string): string => `to_char(date_trunc('second', ${t}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/**
 * The first statement of a claim: the database's clock, read once (a MATERIALIZED CTE:
 * clock_timestamp() is volatile) as now and now + $1 seconds; expired leases recovered (RETRY
 * due now while attempts < $2, else DEAD_LETTER), each with its attempt record; due events with no
 * attempt left dead-lettered.
 * The two updates touch disjoint rows (DELIVERING, queued) and run whether or not the SELECT
 * reads them. Rows another transaction holds (a
 * settle, a claim, a removal cancelling) are skipped, not waited for: the next claim sees them.
 */
const RECOVER = `
  WITH clock AS MATERIALIZED (SELECT date_trunc('second', clock_timestamp()) AS t),
  texts AS MATERIALIZED (SELECT ${rfc3339('t')} AS now, ${rfc3339('t + make_interval(secs => $1::integer)')} AS until FROM clock),
  recovered AS (
    UPDATE monitor_events SET
      delivery_status = CASE WHEN attempts < $2::integer THEN 'RETRY' ELSE 'DEAD_LETTER' END,
      next_attempt_at = CASE WHEN attempts < $2::integer THEN (SELECT now FROM texts) END,
      lease_expires_at = NULL,
      last_error = '${LEASE_EXPIRED}'
    WHERE id IN (
      SELECT id FROM monitor_events
      WHERE delivery_status = 'DELIVERING' AND lease_expires_at <= (SELECT now FROM texts) AND ${OPERATOR_EVENT}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, replays, attempts, coalesce(last_attempt_at, (SELECT now FROM texts)) AS attempted_at, delivery_status, next_attempt_at
  ), recorded AS (
    INSERT INTO delivery_attempts (event_id, replay, attempt, attempted_at, response_status, decision, detail, next_attempt_at)
    SELECT id, replays, attempts, attempted_at, NULL, delivery_status, ${recoveredDetail('delivery_status')}, next_attempt_at FROM recovered
    RETURNING id
  ), exhausted AS (
    UPDATE monitor_events SET delivery_status = 'DEAD_LETTER', next_attempt_at = NULL
    WHERE id IN (
      SELECT id FROM monitor_events
      WHERE delivery_status IN ${QUEUED} AND (next_attempt_at IS NULL OR next_attempt_at <= (SELECT now FROM texts))
        AND attempts >= $2::integer AND ${OPERATOR_EVENT}
      FOR UPDATE SKIP LOCKED)
    RETURNING id
  )
  SELECT now, until FROM texts`;

/**
 * The second statement: a statement of its own, so that its snapshot includes the events the
 * first one recovered. FOR UPDATE OF e SKIP LOCKED: an event another claimer holds is skipped; one
 * claimed and committed since this statement's snapshot is re-read by PostgreSQL and, no longer
 * queued, left out. The watch is joined for the sender (removed ones included). RETURNING keeps
 * no order: the caller sorts by id.
 */
const CLAIM = `
  WITH due AS (
    SELECT e.id FROM monitor_events e JOIN watches w ON w.id = e.watch_id
    WHERE e.delivery_status IN ${QUEUED} AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= $1::text)
      AND e.attempts < $3::integer AND w.project_id IS NULL
    ORDER BY e.id
    LIMIT $4
    FOR UPDATE OF e SKIP LOCKED
  )
  UPDATE monitor_events e SET delivery_status = 'DELIVERING', attempts = e.attempts + 1, last_attempt_at = $1::text, lease_expires_at = $2::text
  FROM due, watches w
  WHERE e.id = due.id AND w.id = e.watch_id
  RETURNING ${CLAIM_COLUMNS}`;

/**
 * One guarded statement: only the attempt that holds the event settles it; "now" on the
 * database's clock. It returns what the attempt record needs (the watch, the replay count, the
 * claim's time, the next attempt) and that clock.
 */
const SETTLE = `
  WITH clock AS MATERIALIZED (SELECT date_trunc('second', clock_timestamp()) AS t)
  UPDATE monitor_events SET
    delivery_status = $3::text,
    next_attempt_at = CASE WHEN $3::text = 'RETRY' THEN (SELECT ${rfc3339('t + make_interval(secs => $4::integer)')} FROM clock) END,
    last_error = coalesce($5::text, last_error),
    lease_expires_at = NULL
  WHERE id = $1 AND delivery_status = 'DELIVERING' AND attempts = $2
  RETURNING watch_id AS "watchId", replays, coalesce(last_attempt_at, (SELECT ${rfc3339('t')} FROM clock)) AS "attemptedAt",
    next_attempt_at AS "nextAttemptAt", (SELECT ${rfc3339('t')} FROM clock) AS "now"`;

const RECORD_ATTEMPT = `
  INSERT INTO delivery_attempts (event_id, replay, attempt, attempted_at, response_status, decision, detail, next_attempt_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

/** A 410 Gone: the watch's webhook off (the first 410 names the reason). */
const DISABLE_WEBHOOK = `UPDATE watches SET webhook_disabled_at = $1, webhook_disabled_reason = $2 WHERE id = $3 AND webhook_disabled_at IS NULL`;

/**
 * Then its other queued events cancelled: a statement of its own, after DISABLE_WEBHOOK took the
 * watch's row (a check recording events waits for it, and then inserts them CANCELLED).
 */
const CANCEL_QUEUED = `UPDATE monitor_events SET delivery_status = 'CANCELLED', next_attempt_at = NULL WHERE watch_id = $1 AND delivery_status IN ${QUEUED}`;

export class PostgresMonitorEventStore implements MonitorEventStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(options: { watchId?: number; limit: number }): Promise<MonitorEvent[]> {
    const limit = limitOf(options.limit);
    if (options.watchId === undefined) {
      const { rows } = await this.pool.query<EventRow>(`SELECT ${COLUMNS} FROM monitor_events WHERE ${OPERATOR_EVENT} ORDER BY id DESC LIMIT $1`, [limit]);
      return rows.map(toEvent);
    }
    if (!isPgRowId(options.watchId)) return [];
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${COLUMNS} FROM monitor_events WHERE watch_id = $1 AND ${OPERATOR_EVENT} ORDER BY id DESC LIMIT $2`,
      [options.watchId, limit],
    );
    return rows.map(toEvent);
  }

  async gauges(now: string): Promise<MonitoringGauges> {
    const { rows } = await this.pool.query<GaugeRow>(GAUGES, [now]);
    return gaugesOf(rows[0]!);
  }

  /** Two statements in one transaction: RECOVER (with the clock), then CLAIM. */
  async retentionCandidates(cutoff: string): Promise<RetentionCandidates> {
    const { rows } = await this.pool.query<RetentionCandidates>(RETENTION, [cutoff]);
    const row = rows[0]!;
    return { observations: row.observations, mcpObservations: row.mcpObservations, terminalMonitorEvents: row.terminalMonitorEvents };
  }

  async claimDeliveries(limit: number, leaseSeconds: number, maxAttempts: number): Promise<DeliveryClaim[]> {
    const { leaseSeconds: lease, maxAttempts: max } = claimArguments(leaseSeconds, maxAttempts, MAX_SECONDS);
    const n = Math.min(limitOf(limit), MAX_SECONDS);
    if (n === 0) return [];
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ now: string; until: string }>(RECOVER, [lease, max]);
      const { now, until } = rows[0]!;
      const { rows: claimed } = await client.query<ClaimRow>(CLAIM, [now, until, max, n]);
      return claimed.sort((a, b) => a.id - b.id).map(toClaim);
    });
  }

  /** One transaction: the guarded UPDATE (false when the event is not DELIVERING with that attempt count), the attempt record, and for a 410 the watch's webhook disabled. */
  async settle(eventId: number, attempt: number, result: DeliveryResult): Promise<boolean> {
    const s = settlementOf(result, MAX_SECONDS);
    if (!isPgRowId(eventId) || !isPgRowId(attempt)) return false;
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<SettledRow>(SETTLE, [eventId, attempt, s.status, s.retryAfterSeconds, s.error]);
      const row = rows[0];
      if (row === undefined) return false;
      await client.query(RECORD_ATTEMPT, [eventId, row.replays, attempt, row.attemptedAt, s.responseStatus, s.decision, s.detail, row.nextAttemptAt]);
      if (s.gone) {
        await client.query(DISABLE_WEBHOOK, [row.now, goneReason(row.now, `evt_${eventId}`), row.watchId]);
        await client.query(CANCEL_QUEUED, [row.watchId]);
      }
      return true;
    });
  }

  /** One statement: the records, if the event is an operator event (a second column says whether it is). */
  async attempts(eventId: number): Promise<DeliveryAttempt[] | undefined> {
    if (!isPgRowId(eventId)) return undefined;
    const { rows } = await this.pool.query<DeliveryAttempt & { found: boolean }>(
      `SELECT a.*, true AS found FROM (SELECT id FROM monitor_events WHERE id = $1 AND ${OPERATOR_EVENT}) e
       LEFT JOIN LATERAL (SELECT id AS "rowId", ${ATTEMPT_MEMBERS} FROM delivery_attempts WHERE event_id = e.id) a ON true
       ORDER BY a."rowId"`,
      [eventId],
    );
    if (rows.length === 0) return undefined;
    return rows.filter((r) => r.attempt !== null).map(toAttempt);
  }

  async replay(eventId: number): Promise<ReplayOutcome> {
    if (!isPgRowId(eventId)) return { outcome: 'not-found' };
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query(REPLAY.one, [eventId]);
      if (rowCount !== 1) return replayRefusal((await client.query<ReplayFacts>(REPLAY.facts, [eventId])).rows[0]);
      const { rows } = await client.query<EventRow>(`SELECT ${COLUMNS} FROM monitor_events WHERE id = $1`, [eventId]);
      return { outcome: 'replayed', event: toEvent(rows[0]!) };
    });
  }

  async replaySince(watchId: number, since: string): Promise<ReplaySinceOutcome> {
    if (!isPgRowId(watchId)) return { outcome: 'not-found' };
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ id: number; disabledAt: string | null; disabledReason: string | null }>(REPLAY_WATCH, [watchId]);
      const watch = rows[0];
      if (watch === undefined) return { outcome: 'not-found' };
      if (watch.disabledAt !== null) return { outcome: 'webhook-disabled', watchId, since: watch.disabledAt, reason: watch.disabledReason };
      const { rows: replayed } = await client.query<{ id: number }>(REPLAY.since, [watchId, since]);
      return { outcome: 'replayed', eventIds: replayed.map((row) => row.id).sort((a, b) => a - b) };
    });
  }
}
