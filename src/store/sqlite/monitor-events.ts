/**
 * Monitor events and their delivery state over SQLite: the `monitor_events`
 * table of schema v2 (leases since v3). Events are written by the watch checks; here they are
 * listed, counted, and moved along for the deliverer (claimDeliveries, settle). Timestamps are
 * RFC 3339 UTC at second precision, compared as text, as everywhere in the schema; "now" is the
 * database's clock.
 */
import type Database from 'better-sqlite3';
import type {
  DeliveryAttempt,
  DeliveryClaim,
  DeliveryResult,
  DeliveryStatus,
  MonitorEvent,
  MonitorEventStore,
  MonitoringGauges,
  ReplayOutcome,
  ReplaySinceOutcome,
  RetentionCandidates,
} from '../../core/monitoring/store.js';
import {
  ATTEMPT_MEMBERS,
  CLAIM_COLUMNS,
  claimArguments,
  DELIVERY_STATUSES,
  eventMembers,
  gaugesOf,
  goneReason,
  LEASE_EXPIRED,
  MAX_SECONDS,
  OPERATOR_EVENT,
  replayRefusal,
  replayStatements,
  retentionStatement,
  settlementOf,
  TIMESTAMP_GLOB,
  toAttempt,
  toClaim,
  toEvent,
  type ClaimRow,
  recoveredDetail,
  type RecoveredRow,
  type Settlement,
  type SettledRow,
  type EventRow,
  type GaugeRow,
  type ReplayFacts,
  typeColumns,
} from '../schema/monitor-events.js';
import { limitOf } from '../schema/observations.js';
import { isRowId, OPERATOR_ACTIVE, QUEUED } from '../schema/watches.js';

export const EVENT_COLUMNS = eventMembers();

/** The per-status counts as columns `s_<STATUS>` of the gauges query, so that one statement reads every gauge. */
const STATUS_COLUMNS = DELIVERY_STATUSES.map((s) => `coalesce(sum(delivery_status = '${s}'), 0) AS s_${s}`).join(', ');

/** The retention preview on SQLite: GLOB is case-sensitive and matches the whole text. */
const SQLITE_RETENTION = retentionStatement(
  (c) => `${c} GLOB '${TIMESTAMP_GLOB}'`,
  (c) => c,
  ':cutoff',
  'count(*)',
);

export class SqliteMonitorEventStore implements MonitorEventStore {
  readonly #list: Database.Statement<[number], EventRow>;
  readonly #listOfWatch: Database.Statement<[number, number], EventRow>;
  readonly #gauges: Database.Statement<{ now: string }, GaugeRow>;
  readonly #retention: Database.Statement<{ cutoff: string }, RetentionCandidates>;
  readonly #claim: (limit: number, leaseSeconds: number, maxAttempts: number) => DeliveryClaim[];
  readonly #settle: (eventId: number, attempt: number, s: Settlement) => boolean;
  readonly #attempts: (eventId: number) => DeliveryAttempt[] | undefined;
  readonly #replay: (eventId: number) => ReplayOutcome;
  readonly #replaySince: (watchId: number, since: string) => ReplaySinceOutcome;

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
         coalesce(sum(length(CAST(data AS BLOB))), 0) AS eventPayloadBytes,
         (SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE} AND webhook_disabled_at IS NOT NULL) AS disabledWebhooks,
         coalesce(sum(replays), 0) AS replays,
         ${typeColumns((c) => `coalesce(sum(${c}), 0)`)}
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
    // Each recovered attempt leaves its record (decided now: RETRY or DEAD_LETTER, no answer known).
    const recover = db.prepare<{ now: string; max: number }, RecoveredRow>(
      `UPDATE monitor_events SET
         delivery_status = CASE WHEN attempts < :max THEN 'RETRY' ELSE 'DEAD_LETTER' END,
         next_attempt_at = CASE WHEN attempts < :max THEN :now END,
         lease_expires_at = NULL,
         last_error = '${LEASE_EXPIRED}'
       WHERE delivery_status = 'DELIVERING' AND lease_expires_at <= :now AND ${OPERATOR_EVENT}
       RETURNING id, replays, attempts, coalesce(last_attempt_at, :now) AS "attemptedAt", delivery_status AS "status",
         next_attempt_at AS "nextAttemptAt", ${recoveredDetail('delivery_status')} AS "detail"`,
    );
    const recordRecovered = db.prepare(
      `INSERT INTO delivery_attempts (event_id, replay, attempt, attempted_at, response_status, decision, detail, next_attempt_at)
       VALUES (?, ?, ?, ?, NULL, ?, ?, ?)`,
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
      for (const r of recover.all({ now, max })) recordRecovered.run(r.id, r.replays, r.attempts, r.attemptedAt, r.status, r.detail, r.nextAttemptAt);
      exhaust.run({ now, max });
      const ids = claim.all({ now, until, max, limit });
      return ids.length === 0 ? [] : claimed.all(JSON.stringify(ids)).map(toClaim);
    });
    this.#claim = (limit, leaseSeconds, maxAttempts) => claimTransaction.immediate(limit, leaseSeconds, maxAttempts);

    // One guarded statement: only the attempt that holds the event settles it. It returns what
    // the attempt record needs: the event's watch, replay count, the claim's time and the next attempt.
    const settle = db.prepare<{ id: number; attempt: number; status: DeliveryStatus; retryAfter: number | null; error: string | null }, SettledRow>(
      `UPDATE monitor_events SET
         delivery_status = :status,
         next_attempt_at = CASE WHEN :status = 'RETRY' THEN strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '+' || :retryAfter || ' seconds') END,
         last_error = coalesce(:error, last_error),
         lease_expires_at = NULL
       WHERE id = :id AND delivery_status = 'DELIVERING' AND attempts = :attempt
       RETURNING watch_id AS "watchId", replays, coalesce(last_attempt_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) AS "attemptedAt",
         next_attempt_at AS "nextAttemptAt", strftime('%Y-%m-%dT%H:%M:%SZ', 'now') AS "now"`,
    );
    const record = db.prepare(
      `INSERT INTO delivery_attempts (event_id, replay, attempt, attempted_at, response_status, decision, detail, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // A 410 Gone: the watch's webhook off (the first 410 names the reason), its other queued events cancelled.
    const disable = db.prepare<[string, string, number]>(
      `UPDATE watches SET webhook_disabled_at = ?, webhook_disabled_reason = ? WHERE id = ? AND webhook_disabled_at IS NULL`,
    );
    const cancelQueued = db.prepare<[number]>(
      `UPDATE monitor_events SET delivery_status = 'CANCELLED', next_attempt_at = NULL WHERE watch_id = ? AND delivery_status IN ${QUEUED}`,
    );
    const settleTransaction = db.transaction((eventId: number, attempt: number, s: Settlement): boolean => {
      const row = settle.get({ id: eventId, attempt, status: s.status, retryAfter: s.retryAfterSeconds, error: s.error });
      if (row === undefined) return false;
      record.run(eventId, row.replays, attempt, row.attemptedAt, s.responseStatus, s.decision, s.detail, row.nextAttemptAt);
      if (s.gone) {
        disable.run(row.now, goneReason(row.now, `evt_${eventId}`), row.watchId);
        cancelQueued.run(row.watchId);
      }
      return true;
    });
    this.#settle = (eventId, attempt, s) => settleTransaction.immediate(eventId, attempt, s);

    const operatorEvent = db.prepare(`SELECT id FROM monitor_events WHERE id = ? AND ${OPERATOR_EVENT}`).pluck() as Database.Statement<[number], number>;
    const attempts = db.prepare(`SELECT ${ATTEMPT_MEMBERS} FROM delivery_attempts WHERE event_id = ? ORDER BY id`) as Database.Statement<
      [number],
      DeliveryAttempt
    >;
    const attemptsOf = db.transaction((eventId: number): DeliveryAttempt[] | undefined =>
      operatorEvent.get(eventId) === undefined ? undefined : attempts.all(eventId).map(toAttempt),
    );
    this.#attempts = (eventId) => attemptsOf.deferred(eventId);

    // Replays: each one IMMEDIATE transaction (the guarded update, then the event or the refusal's facts).
    const r = replayStatements(() => '?');
    const replayOne = db.prepare(r.one).pluck() as Database.Statement<[number], number>;
    const facts = db.prepare(r.facts) as Database.Statement<[number], ReplayFacts>;
    const event = db.prepare(`SELECT ${EVENT_COLUMNS} FROM monitor_events WHERE id = ?`) as Database.Statement<[number], EventRow>;
    const replayWatch = db.prepare(r.watch) as Database.Statement<[number], { id: number; disabledAt: string | null; disabledReason: string | null }>;
    const replaySince = db.prepare(r.since).pluck() as Database.Statement<[number, string], number>;
    const one = db.transaction((id: number): ReplayOutcome => {
      if (replayOne.get(id) === undefined) return replayRefusal(facts.get(id));
      return { outcome: 'replayed', event: toEvent(event.get(id)!) };
    });
    this.#replay = (id) => one.immediate(id);
    const since = db.transaction((watchId: number, instant: string): ReplaySinceOutcome => {
      const watch = replayWatch.get(watchId);
      if (watch === undefined) return { outcome: 'not-found' };
      if (watch.disabledAt !== null) return { outcome: 'webhook-disabled', watchId, since: watch.disabledAt, reason: watch.disabledReason };
      return { outcome: 'replayed', eventIds: replaySince.all(watchId, instant).sort((a, b) => a - b) };
    });
    this.#replaySince = (watchId, instant) => since.immediate(watchId, instant);
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

  /** One IMMEDIATE transaction: the guarded UPDATE (false when the event is not DELIVERING with that attempt count), the attempt record, and for a 410 the watch's webhook disabled. */
  async settle(eventId: number, attempt: number, result: DeliveryResult): Promise<boolean> {
    const s = settlementOf(result, MAX_SECONDS);
    if (!isRowId(eventId) || !isRowId(attempt)) return false;
    return this.#settle(eventId, attempt, s);
  }

  /** One read transaction: the event's scope, then its records. */
  async attempts(eventId: number): Promise<DeliveryAttempt[] | undefined> {
    return isRowId(eventId) ? this.#attempts(eventId) : undefined;
  }

  /** One IMMEDIATE transaction: the guarded update, then the event (or why it was refused). */
  async replay(eventId: number): Promise<ReplayOutcome> {
    if (!isRowId(eventId)) return { outcome: 'not-found' };
    return this.#replay(eventId);
  }

  /** One IMMEDIATE transaction: the watch's state, then its dead letters since the instant. */
  async replaySince(watchId: number, since: string): Promise<ReplaySinceOutcome> {
    if (!isRowId(watchId)) return { outcome: 'not-found' };
    return this.#replaySince(watchId, since);
  }
}
