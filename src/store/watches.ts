/**
 * Operator watches (SPEC §2.15, §4.18) over SQLite: the `watches` table of schema v2 (revision
 * since v3). Only operator watches are this repository's: rows with a project (customer
 * watches, schema v4) are neither listed, counted, nor removed here, so the operator's routes
 * never reach a customer's watch. The signing secret is written and never selected: no Watch
 * read from here can carry it. The methods are async because the interface is; add() and
 * remove() are each one synchronous IMMEDIATE transaction within the call.
 */
import type Database from 'better-sqlite3';
import type { NewWatch, Watch, WatchStore } from '../core/store.js';

/** The Watch members, aliased; deliberately without `secret`. */
const COLUMNS = `id, did, webhook_url AS webhookUrl, interval_seconds AS intervalSeconds, created_at AS createdAt,
  last_hash AS lastHash, last_status AS lastStatus, last_checked_at AS lastCheckedAt, active, revision`;
/** The rows of this repository: active operator watches. */
export const OPERATOR_ACTIVE = 'active = 1 AND project_id IS NULL';
export const QUEUED = `('PENDING', 'RETRY')`;

/** A row as both engines return it: `active` is the 0/1 INTEGER of the schema. */
export type WatchRow = Omit<Watch, 'active'> & { active: number };

export function toWatch(row: WatchRow): Watch {
  return { ...row, active: row.active === 1 };
}

/** Ids are positive whole numbers; anything else names no row (and never reaches SQL). */
export function isRowId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1;
}

export class SqliteWatchStore implements WatchStore {
  readonly #countActive: Database.Statement<[], number>;
  readonly #insert: Database.Statement<[string, string, string, number, string], WatchRow>;
  readonly #list: Database.Statement<[], WatchRow>;
  readonly #get: Database.Statement<[number], WatchRow>;
  readonly #deactivate: Database.Statement<[number]>;
  readonly #cancelQueued: Database.Statement<[number]>;
  readonly #add: (watch: NewWatch, limit: number) => Watch | 'full';
  readonly #remove: (id: number) => boolean;

  constructor(db: Database.Database) {
    this.#countActive = db.prepare(`SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE}`).pluck() as Database.Statement<[], number>;
    this.#insert = db.prepare(
      `INSERT INTO watches (did, webhook_url, secret, interval_seconds, created_at, active, revision)
       VALUES (?, ?, ?, ?, ?, 1, 0) RETURNING ${COLUMNS}`,
    );
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM watches WHERE ${OPERATOR_ACTIVE} ORDER BY id`);
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM watches WHERE id = ? AND ${OPERATOR_ACTIVE}`);
    // The revision moves too: a check that read the watch before its removal updates it only
    // WHERE revision is still what it read, so it can no longer write (nor queue events).
    this.#deactivate = db.prepare(`UPDATE watches SET active = 0, revision = revision + 1 WHERE id = ? AND ${OPERATOR_ACTIVE}`);
    // DELIVERING events are left alone: a deliverer holds them, and finishes or lets the lease lapse.
    this.#cancelQueued = db.prepare(`UPDATE monitor_events SET delivery_status = 'CANCELLED' WHERE watch_id = ? AND delivery_status IN ${QUEUED}`);

    // IMMEDIATE: the count and the insert hold the write lock together, so two processes on one
    // file cannot both see room for the last watch (a deferred transaction would also risk
    // SQLITE_BUSY_SNAPSHOT on upgrading its read to a write, which busy_timeout does not retry).
    const add = db.transaction((w: NewWatch, limit: number): Watch | 'full' => {
      // Written as "not below" so that a limit that is not a number refuses rather than admits.
      if (!(this.#countActive.get()! < limit)) return 'full';
      return toWatch(this.#insert.get(w.did, w.webhookUrl, w.secret, w.intervalSeconds, w.createdAt)!);
    });
    this.#add = (watch, limit) => add.immediate(watch, limit);
    const remove = db.transaction((id: number): boolean => {
      if (this.#deactivate.run(id).changes === 0) return false;
      this.#cancelQueued.run(id);
      return true;
    });
    this.#remove = (id) => remove.immediate(id);
  }

  async add(watch: NewWatch, limit: number): Promise<Watch | 'full'> {
    return this.#add(watch, limit);
  }

  async list(): Promise<Watch[]> {
    return this.#list.all().map(toWatch);
  }

  async get(id: number): Promise<Watch | undefined> {
    if (!isRowId(id)) return undefined;
    const row = this.#get.get(id);
    return row === undefined ? undefined : toWatch(row);
  }

  async remove(id: number): Promise<boolean> {
    return isRowId(id) && this.#remove(id);
  }

  async count(): Promise<number> {
    return this.#countActive.get() ?? 0;
  }
}
