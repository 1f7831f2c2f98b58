/**
 * Operator watches (SPEC §2.15, §4.18) over PostgreSQL, shared by every daemon on the database.
 * As on SQLite: operator watches only (no project), the secret written and never selected.
 */
import type pg from 'pg';
import type { NewWatch, Watch, WatchStore } from '../../core/store.js';
import { isRowId, OPERATOR_ACTIVE, QUEUED, toWatch, type WatchRow } from '../watches.js';
import { inLockedTransaction, LOCK_CLASS } from './sql.js';

const COLUMNS = `id, did, webhook_url AS "webhookUrl", interval_seconds AS "intervalSeconds", created_at AS "createdAt",
  last_hash AS "lastHash", last_status AS "lastStatus", last_checked_at AS "lastCheckedAt", active, revision`;

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
  INSERT INTO watches (did, webhook_url, secret, interval_seconds, created_at, active, revision)
  SELECT $1, $2, $3, $4::integer, $5, 1, 0
  WHERE (SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE}) < $6::double precision
  RETURNING ${COLUMNS}`;

/**
 * One statement, so one transaction: deactivate (and bump the revision, so a check that read the
 * watch before cannot write any more) and cancel the queued events of the watch it deactivated.
 * A deliverer claiming an event at the same moment is waited for and re-checked by PostgreSQL:
 * an event that became DELIVERING is left to it.
 */
const REMOVE = `
  WITH removed AS (
    UPDATE watches SET active = 0, revision = revision + 1 WHERE id = $1 AND ${OPERATOR_ACTIVE} RETURNING id
  ), cancelled AS (
    UPDATE monitor_events SET delivery_status = 'CANCELLED'
    WHERE watch_id IN (SELECT id FROM removed) AND delivery_status IN ${QUEUED}
  )
  SELECT count(*)::int AS n FROM removed`;

export class PostgresWatchStore implements WatchStore {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Under a transaction-level advisory lock on one constant key (taken with BEGIN in one round
   * trip): daemons adding at once take turns, and the limit holds across them.
   */
  async add(watch: NewWatch, limit: number): Promise<Watch | 'full'> {
    // A limit that is not a number refuses, as on SQLite (PostgreSQL orders NaN above every
    // number, so `count < NaN` would admit).
    if (Number.isNaN(limit)) return 'full';
    return inLockedTransaction(this.pool, LOCK_CLASS.watches, ADD_LOCK_KEY, async (client) => {
      const { rows } = await client.query<WatchRow>(ADD, [watch.did, watch.webhookUrl, watch.secret, watch.intervalSeconds, watch.createdAt, limit]);
      return rows[0] === undefined ? 'full' : toWatch(rows[0]);
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

  async remove(id: number): Promise<boolean> {
    if (!isPgRowId(id)) return false;
    const { rows } = await this.pool.query<{ n: number }>(REMOVE, [id]);
    return (rows[0]?.n ?? 0) > 0;
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM watches WHERE ${OPERATOR_ACTIVE}`);
    return rows[0]?.n ?? 0;
  }
}
