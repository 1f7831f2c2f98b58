/**
 * Operator watches over PostgreSQL, shared by every daemon on the database.
 * As on SQLite: operator watches only (no project), the secret written and never selected.
 */
import type pg from 'pg';
import type { NewWatch, RecordCheck, RecordedCheck, Watch, WatchCheckInput, WatchStore } from '../../core/monitoring/store.js';
import { limitOf } from '../schema/observations.js';
import {
  CHECK_INPUT,
  isRevision,
  isRowId,
  OPERATOR_ACTIVE,
  OPERATOR_EVENT,
  QUEUED,
  serialisedData,
  storedOutcome,
  toCheckInput,
  toWatch,
  type CheckInputRow,
  watchMembers,
  type WatchRow,
} from '../schema/watches.js';
import { GroupCommit, inLockedTransaction, inTransaction, LOCK_CLASS, rounds, sqlArray, withLiterals } from './sql.js';

const COLUMNS = watchMembers();

/** The second key of the lock every add() takes: one key for all, since the limit counts them all. */
const ADD_LOCK_KEY = 'operator watches';

/** The id column is INTEGER (32-bit) here: a larger number names no row (and would be a cast error). */
export function isPgRowId(id: number): boolean {
  return isRowId(id) && id <= 2_147_483_647;
}

/**
 * Inserts only while fewer than $6 operator watches are active; no row back means full. Run
 * after the lock is held, so under READ COMMITTED its snapshot includes every add that held it
 * before (a count taken outside the lock could let two daemons both fill the last place). $6 is
 * compared as a double, as the SQLite store compares it (a JavaScript number), so a fractional
 * or infinite limit behaves alike on both engines.
 */
const ADD = `
  INSERT INTO watches (did, webhook_url, secret, interval_seconds, created_at, active, revision, kind)
  SELECT $1, $2, $3, $4::integer, $5, 1, 0, $7::text
  WHERE (SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE}) < $6::double precision
  RETURNING ${COLUMNS}`;

/** An uploaded baseline: the watch's revision 0, what its first check compares with (in add()'s transaction). */
const FIRST_BASELINE = `
  INSERT INTO monitor_baselines (watch_id, revision, status, document_hash, fingerprint_profile, domain_binding_status, document, problem, checked_at)
  VALUES ($1, 0, $2, $3, $4, $5, $6, $7, $8)`;

/**
 * Deactivates (and bumps the revision, so a check that read the watch before cannot write any
 * more). Waits for a check being recorded on the watch (it holds the row), then matches the row
 * as that check left it.
 */
const DEACTIVATE = `UPDATE watches SET active = 0, revision = revision + 1 WHERE id = $1 AND ${OPERATOR_ACTIVE}`;

/**
 * Cancels the queued events of the watch: a statement of its own after DEACTIVATE, so that its
 * snapshot includes the events of a check that committed while DEACTIVATE waited (one statement
 * would keep the snapshot taken before the wait, and leave them PENDING). A deliverer claiming
 * an event at the same moment is waited for and re-checked by PostgreSQL: an event that became
 * DELIVERING is left to it.
 */
const CANCEL_QUEUED = `UPDATE monitor_events SET delivery_status = 'CANCELLED' WHERE watch_id = $1 AND delivery_status IN ${QUEUED}`;

/** The largest INTEGER: a revision past it cannot be written (revision + 1 would overflow). */
const MAX_INTEGER = 2_147_483_647;

/**
 * Claims due watches (run in a transaction; the check inputs are read by the next statement).
 * The database's clock is read once (a MATERIALIZED CTE: clock_timestamp() is volatile, and
 * changes within a statement), at second precision, as the schema's RFC 3339 text. FOR UPDATE
 * SKIP LOCKED: a row another daemon's claim (or a check being recorded) holds is skipped, not
 * waited for; a row claimed and committed since this statement's snapshot is re-read by
 * PostgreSQL and, no longer due, left out. The returned `checked` (the last check before this
 * claim) gives the order back: RETURNING keeps none.
 */
const CLAIM = `
  WITH clock AS MATERIALIZED (SELECT date_trunc('second', clock_timestamp()) AS now),
  due AS (
    SELECT w.id, w.last_checked_at::timestamptz AS checked
    FROM watches w
    WHERE w.active = 1 AND w.project_id IS NULL
      AND (w.last_checked_at IS NULL
        OR w.last_checked_at::timestamptz + make_interval(secs => w.interval_seconds) <= (SELECT now FROM clock))
    ORDER BY w.last_checked_at::timestamptz NULLS FIRST, w.id
    LIMIT $1
    FOR UPDATE OF w SKIP LOCKED
  )
  UPDATE watches SET last_checked_at = (SELECT to_char(now AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM clock)
  FROM due WHERE watches.id = due.id
  RETURNING watches.id, due.checked`;

/**
 * The guard and the watch's new state at once: the row lock it takes makes a concurrent check of
 * the same revision wait, and then find the revision moved (no row: stale). Returns what the
 * inserts need: the DID and the id of the baseline the check compared with.
 */
const ADVANCE = `
  UPDATE watches SET revision = revision + 1,
    last_hash = CASE WHEN $3::text = 'FAILED' THEN last_hash ELSE $4::text END,
    last_status = $3::text, last_checked_at = $5::text
  WHERE id = $1 AND revision = $2 AND ${OPERATOR_ACTIVE}
  RETURNING did, (SELECT b.id FROM monitor_baselines b WHERE b.watch_id = watches.id AND b.revision = $2) AS "previousId"`;

/** Every check that inserts events takes this lock after its watch's row lock (never before: no deadlock). */
const CAPACITY_LOCK = `SELECT pg_advisory_xact_lock(${LOCK_CLASS.monitorEvents}, hashtext('event capacity'))`;

/**
 * The baseline and the events in one statement (PENDING, or CANCELLED while the watch's webhook
 * is disabled: a receiver answered 410 Gone), only while the events fit under the capacity
 * ($14, compared as a double as on SQLite): no baseline back means they do not (the caller rolls
 * the watch's update back). Events keep the order given (ORDINALITY); ids come back ascending,
 * which is that order.
 */
const INSERT_CHECK = `
  WITH baseline AS (
    INSERT INTO monitor_baselines (watch_id, revision, status, document_hash, fingerprint_profile, domain_binding_status, document, problem, checked_at,
      tls_leaf_sha256, tls_not_after, tls_announced_days)
    SELECT $1::integer, $2::integer, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $15::text, $16::text, $17::integer
    WHERE cardinality($12::text[]) = 0
      OR (SELECT count(*) FROM monitor_events WHERE ${OPERATOR_EVENT}) + cardinality($12::text[]) <= $14::double precision
    RETURNING id
  ), events AS (
    INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, attempts, next_attempt_at,
      watch_revision, baseline_id, previous_baseline_id)
    SELECT $1::integer, $10::text, e.type, e.data, $9::text,
      CASE WHEN (SELECT webhook_disabled_at FROM watches WHERE id = $1::integer) IS NULL THEN 'PENDING' ELSE 'CANCELLED' END,
      0, NULL, $2::integer, baseline.id, $11::integer
    FROM baseline CROSS JOIN unnest($12::text[], $13::text[]) WITH ORDINALITY AS e(type, data, n)
    ORDER BY e.n
    RETURNING id
  )
  SELECT (SELECT id FROM baseline) AS "baselineId", coalesce((SELECT array_agg(id ORDER BY id) FROM events), '{}') AS "eventIds"`;

/**
 * The quiet checks' commit does not wait for its WAL to reach the disk (for their transaction
 * only): what SQLite's synchronous = NORMAL gives every transaction. A daemon killed at any
 * moment loses nothing the server acknowledged; only a crash of the database server itself (or
 * its machine) may lose the last fraction of a second of them, never corrupting anything — and a
 * lost quiet check only means the watch is checked again at the next pass: it carried no event.
 * Checks with events, and everything else, keep waiting for the disk. An expression of
 * RECORD_QUIET (set_config(…, true) holds until the end of the statement's implicit transaction).
 */
const QUIET_COMMIT = "set_config('synchronous_commit', 'off', true)";

/**
 * The checks without events (the common pass: nothing changed) that finish in one turn go
 * together (a GroupCommit without advisory locks), in one statement per round of distinct
 * watches (sql.ts rounds; almost always one: then outside any explicit transaction) — one round trip
 * and one commit for several watches instead of four round trips (BEGIN, ADVANCE, INSERT_CHECK,
 * COMMIT) and a commit each; a prepared statement whose inputs are arrays, so the server parses
 * and plans it once per connection, not once per check. Per watch it is ADVANCE's guard and new
 * state and, only when the guard matched, the new baseline; no event is inserted, so no capacity
 * lock is needed. The rows are locked first in the order of their ids (two daemons' batches take
 * the watches' row locks in one order, never a deadlock); a row that a concurrent check updated
 * meanwhile is re-read by PostgreSQL and, its revision moved, not updated: no row back for it
 * (stale). A later round sees an earlier one's update, so a second check of the same revision in
 * one batch is stale, as it would be alone. The commit does not wait for the disk (QUIET_COMMIT).
 * $1 watches, $2 revisions read, $3 statuses, $4 hashes, $5 checkedAt, $6 profiles, $7 bindings,
 * $8 documents (DOCUMENTS), $9 problems, $10…$12 the certificates' state.
 */
const RECORD_QUIET = `
  WITH input AS MATERIALIZED (
    SELECT i.* FROM (SELECT ${QUIET_COMMIT}) AS quiet(setting),
      unnest($1::integer[], $2::integer[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
        string_to_array($8::text, chr(1), ''), $9::text[], $10::text[], $11::text[], $12::integer[])
      AS i(id, revision, status, hash, checked_at, profile, binding, document, problem, tls_leaf, tls_not_after, tls_announced)
  ), guarded AS MATERIALIZED (
    SELECT i.id FROM (SELECT id, revision FROM input ORDER BY id) i
    CROSS JOIN LATERAL (SELECT w.revision, w.active, w.project_id FROM watches w WHERE w.id = i.id FOR UPDATE OFFSET 0) w
    WHERE w.revision = i.revision AND w.active = 1 AND w.project_id IS NULL
  ), advanced AS (
    UPDATE watches w SET revision = w.revision + 1,
      last_hash = CASE WHEN i.status = 'FAILED' THEN w.last_hash ELSE i.hash END,
      last_status = i.status, last_checked_at = i.checked_at
    FROM guarded g JOIN input i ON i.id = g.id
    WHERE w.id = g.id
    RETURNING w.id, w.revision
  )
  INSERT INTO monitor_baselines (watch_id, revision, status, document_hash, fingerprint_profile, domain_binding_status, document, problem, checked_at,
    tls_leaf_sha256, tls_not_after, tls_announced_days)
  SELECT a.id, a.revision, i.status, i.hash, i.profile, i.binding, i.document, i.problem, i.checked_at, i.tls_leaf, i.tls_not_after, i.tls_announced
  FROM advanced a JOIN input i ON i.id = a.id
  RETURNING watch_id AS id`;

/**
 * The documents of a round as one text, U+0001 between them and an empty text for none: JSON
 * text never holds a raw control character (JSON.stringify escapes them), so the documents — most
 * of a round's bytes — need neither an array literal's escapes nor its parse on the server, only
 * a split (string_to_array; an element that is the empty text is NULL, and so is one the split
 * leaves out: unnest pads a shorter array with NULLs).
 */
function documentsOf(documents: ReadonlyArray<string | null>): string {
  if (documents.some((d) => d?.includes('\u0001') === true || d === '')) throw new RangeError('a document must be JSON text');
  return documents.map((d) => d ?? '').join('\u0001');
}

/** Thrown inside a transaction to roll it back and answer `result`. */
class Rollback extends Error {
  constructor(readonly result: RecordedCheck) {
    super(result.outcome);
  }
}

/** A quiet check as RECORD_QUIET takes it: one element of each of its twelve arrays. */
type QuietValues = [
  id: number,
  revision: number,
  status: string,
  hash: string | null,
  checkedAt: string,
  profile: string | null,
  binding: string | null,
  document: string | null,
  problem: string | null,
  tlsLeaf: string | null,
  tlsNotAfter: string | null,
  tlsAnnounced: number | null,
];

export class PostgresWatchStore implements WatchStore {
  readonly #quiet: GroupCommit<QuietValues, boolean>;

  constructor(private readonly pool: pg.Pool) {
    this.#quiet = new GroupCommit<QuietValues, boolean>(
      pool,
      null,
      (values) => String(values[0]),
      async (tx, list) => {
        const recorded: boolean[] = new Array(list.length).fill(false);
        const batch = rounds(list, (values) => String(values[0]));
        // One round (the usual batch): its statement's implicit transaction. More: one transaction for all.
        if (batch.length > 1) await tx.begin();
        for (const round of batch) {
          const columns: unknown[] = Array.from({ length: 12 }, (_, c) => round.map(({ item }) => item[c]));
          columns[7] = documentsOf(round.map(({ item }) => item[7]));
          const { rows } = await tx.client.query<{ id: number }>({ name: 'svc-record-quiet', text: RECORD_QUIET, values: columns });
          const written = new Set(rows.map((row) => row.id));
          for (const { item, index } of round) recorded[index] = written.has(item[0]);
        }
        return recorded;
      },
    );
  }

  /** Resolves when every quiet check submitted so far has been written (the store is closing). */
  drain(): Promise<void> {
    return this.#quiet.drain();
  }

  /**
   * Under a transaction-level advisory lock on one constant key (taken with BEGIN in one round
   * trip): daemons adding at once take turns, and the limit holds across them.
   */
  async add(watch: NewWatch, limit: number): Promise<Watch | 'full'> {
    // A limit that is not a number refuses, as on SQLite (PostgreSQL orders NaN above every
    // number, so `count < NaN` would admit).
    if (Number.isNaN(limit)) return 'full';
    return inLockedTransaction(this.pool, LOCK_CLASS.watches, ADD_LOCK_KEY, async (client) => {
      const { rows } = await client.query<WatchRow>(ADD, [
        watch.did,
        watch.webhookUrl,
        watch.secret,
        watch.intervalSeconds,
        watch.createdAt,
        limit,
        watch.kind ?? 'did',
      ]);
      if (rows[0] === undefined) return 'full';
      const added = toWatch(rows[0]);
      if (watch.baseline !== undefined) {
        const o = watch.baseline;
        const stored = storedOutcome(o);
        await client.query(FIRST_BASELINE, [
          added.id,
          o.status,
          o.documentHash,
          o.fingerprintProfile,
          o.domainBindingStatus,
          stored.document,
          stored.problem,
          o.checkedAt,
        ]);
      }
      return added;
    });
  }

  async list(): Promise<Watch[]> {
    const { rows } = await this.pool.query<WatchRow>(`SELECT ${COLUMNS} FROM watches WHERE ${OPERATOR_ACTIVE} ORDER BY id`);
    return rows.map(toWatch);
  }

  async get(id: number): Promise<Watch | undefined> {
    if (!isPgRowId(id)) return undefined;
    const { rows } = await this.pool.query<WatchRow>(`SELECT ${COLUMNS} FROM watches WHERE id = $1 AND ${OPERATOR_ACTIVE}`, [id]);
    return rows[0] === undefined ? undefined : toWatch(rows[0]);
  }

  /** One transaction: deactivate, then cancel the queued events (see CANCEL_QUEUED). */
  async remove(id: number): Promise<boolean> {
    if (!isPgRowId(id)) return false;
    return inTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query(DEACTIVATE, [id]);
      if (!rowCount) return false;
      await client.query(CANCEL_QUEUED, [id]);
      return true;
    });
  }

  async enableWebhook(id: number, webhookUrl?: string): Promise<Watch | undefined> {
    if (!isPgRowId(id)) return undefined;
    const { rows } = await this.pool.query<WatchRow>(
      `UPDATE watches SET webhook_disabled_at = NULL, webhook_disabled_reason = NULL, webhook_url = coalesce($2::text, webhook_url)
       WHERE id = $1 AND ${OPERATOR_ACTIVE} RETURNING ${COLUMNS}`,
      [id, webhookUrl ?? null],
    );
    return rows[0] === undefined ? undefined : toWatch(rows[0]);
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM watches WHERE ${OPERATOR_ACTIVE}`);
    return rows[0]?.n ?? 0;
  }

  /**
   * Two statements in one transaction: the claim, then the check inputs. The second statement's
   * snapshot includes every check recorded before the claim took its row locks, and the locks
   * keep the claimed watches (and so their baselines) as read until COMMIT. Two round trips:
   * BEGIN with the claim, then the inputs with COMMIT (simple queries, the limit and the ids as
   * literals).
   */
  async claimDue(limit: number): Promise<WatchCheckInput[]> {
    const n = Math.min(limitOf(limit), MAX_INTEGER);
    if (n === 0) return [];
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const [, claim] = (await client.query(`BEGIN; ${withLiterals(CLAIM, [n])}`)) as unknown as pg.QueryResult[];
      const claimed = claim!.rows as Array<{ id: number; checked: Date | null }>;
      if (claimed.length === 0) {
        await client.query('COMMIT');
        return [];
      }
      claimed.sort((a, b) => (a.checked?.getTime() ?? -Infinity) - (b.checked?.getTime() ?? -Infinity) || a.id - b.id);
      const order = new Map(claimed.map((c, i) => [c.id, i]));
      const ids = sqlArray(
        claimed.map((c) => c.id),
        'integer',
      );
      const [inputs] = (await client.query(`${CHECK_INPUT} AND w.id = ANY(${ids});\nCOMMIT`)) as unknown as pg.QueryResult[];
      return (inputs!.rows as CheckInputRow[]).sort((a, b) => order.get(a.id)! - order.get(b.id)!).map(toCheckInput);
    } catch (error) {
      // A connection that cannot roll back is not given back to the pool.
      await client.query('ROLLBACK').catch((rollback: unknown) => {
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** One statement: the watch and its baselines from one snapshot. */
  async forCheck(id: number): Promise<WatchCheckInput | undefined> {
    if (!isPgRowId(id)) return undefined;
    const { rows } = await this.pool.query<CheckInputRow>(`${CHECK_INPUT} AND w.id = $1`, [id]);
    return rows[0] === undefined ? undefined : toCheckInput(rows[0]);
  }

  /**
   * Without events: one statement (RECORD_QUIET). With events, one transaction: the guarded
   * update of the watch (stale when it matches no row), the capacity lock, then the baseline and the events in one statement — rolled back
   * as a whole when the events do not fit.
   */
  async recordCheck(check: RecordCheck): Promise<RecordedCheck> {
    const data = serialisedData(check.events, check.maxPayloadBytes);
    if (data === undefined) return { outcome: 'payload-too-large' };
    if (!isPgRowId(check.watchId) || !isRevision(check.revision) || check.revision >= MAX_INTEGER) return { outcome: 'stale' };
    const { watchId, revision, outcome: o } = check;
    // A capacity that is not a number refuses, as on SQLite (PostgreSQL orders NaN above every number).
    const maxEvents = Number.isNaN(check.maxEvents) ? -1 : check.maxEvents;
    if (data.length === 0) {
      const stored = storedOutcome(o);
      const recorded = await this.#quiet.submit([
        watchId,
        revision,
        o.status,
        o.documentHash,
        o.checkedAt,
        o.fingerprintProfile,
        o.domainBindingStatus,
        stored.document,
        stored.problem,
        stored.tlsLeaf,
        stored.tlsNotAfter,
        stored.tlsAnnounced,
      ]);
      return !recorded ? { outcome: 'stale' } : { outcome: 'recorded', revision: revision + 1, eventIds: [] };
    }
    try {
      return await inTransaction(this.pool, async (client): Promise<RecordedCheck> => {
        const { rows } = await client.query<{ did: string; previousId: number | null }>({
          name: 'svc-advance-watch',
          text: ADVANCE,
          values: [watchId, revision, o.status, o.documentHash, o.checkedAt],
        });
        const watch = rows[0];
        if (watch === undefined) return { outcome: 'stale' };
        await client.query(CAPACITY_LOCK);
        const stored = storedOutcome(o);
        const { rows: inserted } = await client.query<{ baselineId: number | null; eventIds: number[] }>({
          name: 'svc-insert-check',
          text: INSERT_CHECK,
          values: [
            watchId,
            revision + 1,
            o.status,
            o.documentHash,
            o.fingerprintProfile,
            o.domainBindingStatus,
            stored.document,
            stored.problem,
            o.checkedAt,
            watch.did,
            watch.previousId,
            check.events.map((e) => e.type),
            data,
            maxEvents,
            stored.tlsLeaf,
            stored.tlsNotAfter,
            stored.tlsAnnounced,
          ],
        });
        const result = inserted[0];
        if (result === undefined || result.baselineId === null) throw new Rollback({ outcome: 'event-capacity' });
        return { outcome: 'recorded', revision: revision + 1, eventIds: result.eventIds };
      });
    } catch (error) {
      if (error instanceof Rollback) return error.result;
      throw error;
    }
  }
}
