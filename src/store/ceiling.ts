/**
 * A ceiling on the rows of one history table (observations by DID, MCP inventories by
 * endpoint): the daemon's bound on disk (README "Bounded history"). Used inside the table's own
 * IMMEDIATE record transaction, so that counting, evicting and inserting are one write.
 *
 * At the ceiling a new row first takes the place of a one-off row — the oldest row of a key
 * (DID, endpoint) that has no other row and was seen exactly once, never by this same record —
 * and is refused when there is none. A key with two rows, or a row seen twice, is history
 * (something changed, or was confirmed unchanged) and is never evicted. Coalescing into an
 * existing row adds no row and never reaches here.
 *
 * Cost: the row count is kept in memory and read again only when another connection has
 * committed since (PRAGMA data_version). The search for a one-off row walks rows in id order
 * from a watermark: a row that is not a one-off can never become one again (rows are only ever
 * deleted by this eviction, which never deletes a row of a key with two rows), so rows below
 * the watermark are never read twice and each record reads O(1) rows amortised, even at the
 * ceiling with nothing to evict. The one exception, the recording key's own one-off row passed
 * over by a refused record, is remembered (`deferred`) and offered to the next other key.
 *
 * "Oldest" is id order, which is recording order: for a one-off row (never coalesced, so
 * lastSeenAt = observedAt) that is the order of lastSeenAt up to the seconds concurrent
 * resolutions take. No index on lastSeenAt exists, and the schema stays as it is (v8).
 */
import type Database from 'better-sqlite3';
import type { Recorded } from '../core/store.js';

/** What /v1/status reports of one table (SPEC §4.17 `components.storage`). */
export interface RowUsage {
  /** Rows in the table now. */
  stored: number;
  /** The ceiling, or null when the table is unbounded (the CLI's store). */
  ceiling: number | null;
  /** Rows evicted to make room, since this store was opened. */
  evicted: number;
  /** New rows refused at the ceiling, since this store was opened. */
  refused: number;
}

export interface CeilingOptions {
  /**
   * Most rows the table holds: whole number, 0 or more (0: no new row is ever stored; unchanged
   * snapshots still coalesce). Undefined: unbounded.
   */
  ceiling?: number;
  /** Called once, on the first refusal since the store was opened (the daemon logs it). */
  onFirstRefusal?: (ceiling: number) => void;
}

/** A RangeError unless `ceiling` is absent or a whole number, 0 or more (checked when a store opens). */
export function checkCeiling(table: 'observations' | 'mcp_observations', ceiling: number | undefined): void {
  if (ceiling !== undefined && !(Number.isSafeInteger(ceiling) && ceiling >= 0)) {
    throw new RangeError(`the ceiling of ${table} must be a whole number, 0 or more`);
  }
}

/** Rows evicted for one new row at most: enough to come back under a lowered ceiling gradually. */
const MAX_EVICTIONS_PER_ROW = 2;

export class RowCeiling {
  readonly ceiling: number | null;
  readonly #onFirstRefusal: ((ceiling: number) => void) | undefined;
  readonly #countAll: Database.Statement<[], number>;
  readonly #dataVersion: Database.Statement<[], number>;
  readonly #oneOff: Database.Statement<[number, string], number>;
  readonly #oneOffKey: Database.Statement<[number], string>;
  readonly #maxId: Database.Statement<[], number | null>;
  readonly #rowsOf: Database.Statement<[string], number>;
  readonly #delete: Database.Statement<[number]>;
  #count: number | null = null;
  #version: number | null = null;
  /** Every row with id <= this is not a one-off (or is gone), except perhaps `#deferred`. */
  #scanFrom = 0;
  /** A one-off row below the watermark, passed over because its key was the one recording. */
  #deferred: number | null = null;
  #evicted = 0;
  #refused = 0;

  constructor(db: Database.Database, table: 'observations' | 'mcp_observations', key: 'did' | 'endpoint', options: CeilingOptions = {}) {
    const { ceiling } = options;
    checkCeiling(table, ceiling);
    this.ceiling = ceiling ?? null;
    this.#onFirstRefusal = options.onFirstRefusal;
    this.#countAll = db.prepare(`SELECT count(*) FROM ${table}`).pluck() as Database.Statement<[], number>;
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck() as Database.Statement<[], number>;
    // The key's own row is skipped: the row being recorded would make it history.
    this.#oneOff = db
      .prepare(
        `SELECT o.id FROM ${table} o
         WHERE o.id > ? AND o.${key} <> ? AND o.seen_count = 1
           AND NOT EXISTS (SELECT 1 FROM ${table} p WHERE p.${key} = o.${key} AND p.id <> o.id)
         ORDER BY o.id LIMIT 1`,
      )
      .pluck() as Database.Statement<[number, string], number>;
    this.#oneOffKey = db
      .prepare(
        `SELECT o.${key} FROM ${table} o
         WHERE o.id = ? AND o.seen_count = 1 AND NOT EXISTS (SELECT 1 FROM ${table} p WHERE p.${key} = o.${key} AND p.id <> o.id)`,
      )
      .pluck() as Database.Statement<[number], string>;
    this.#maxId = db.prepare(`SELECT max(id) FROM ${table}`).pluck() as Database.Statement<[], number | null>;
    this.#rowsOf = db.prepare(`SELECT id FROM ${table} WHERE ${key} = ? LIMIT 2`).pluck() as Database.Statement<[string], number>;
    this.#delete = db.prepare(`DELETE FROM ${table} WHERE id = ?`);
  }

  /**
   * Inside the record transaction, before inserting a new row of `key`: evicts what the ceiling
   * asks for and returns how many rows went, or null when the row must be refused (nothing was
   * written). While the table is at or over its ceiling the count never grows: each new row
   * replaces one or two one-off rows.
   */
  makeRoom(key: string): number | null {
    const { ceiling } = this;
    if (ceiling === null) return 0;
    if (ceiling === 0) return null;
    const version = this.#dataVersion.get()!;
    if (this.#count === null || version !== this.#version) {
      this.#count = this.#countAll.get()!;
      this.#version = version;
    }
    let evicted = 0;
    while (this.#count - evicted >= ceiling && evicted < MAX_EVICTIONS_PER_ROW) {
      const victim = this.#nextVictim(key);
      if (victim === undefined) break;
      this.#delete.run(victim);
      evicted += 1;
    }
    this.#count -= evicted;
    if (this.#count >= ceiling && evicted === 0) return null;
    return evicted;
  }

  /** The oldest one-off row not of `key`, or undefined. */
  #nextVictim(key: string): number | undefined {
    if (this.#deferred !== null) {
      const owner = this.#oneOffKey.get(this.#deferred);
      // Older than every row above the watermark: first in line, unless it is the key's own.
      if (owner === undefined) this.#deferred = null;
      else if (owner !== key) {
        const victim = this.#deferred;
        this.#deferred = null;
        return victim;
      }
    }
    const victim = this.#oneOff.get(this.#scanFrom, key);
    if (victim !== undefined) {
      this.#scanFrom = victim;
      return victim;
    }
    // No one-off row above the watermark: every row there is history now, except perhaps the
    // key's own one-off row, which is deferred to the next other key.
    const before = this.#scanFrom;
    this.#scanFrom = Math.max(before, this.#maxId.get() ?? 0);
    const own = this.#rowsOf.all(key);
    if (own.length === 1 && own[0]! > before && this.#oneOffKey.get(own[0]!) !== undefined) this.#deferred = own[0]!;
    return undefined;
  }

  /** Inside the transaction, after the insert. */
  added(): void {
    if (this.#count !== null) this.#count += 1;
  }

  /**
   * Runs one recording transaction and keeps the counts true: settled after a commit, read
   * again after a rollback.
   */
  commit<T>(transaction: () => Recorded<T>): Recorded<T> {
    let recorded: Recorded<T>;
    try {
      recorded = transaction();
    } catch (error) {
      this.#reset();
      throw error;
    }
    this.#settle(recorded);
    return recorded;
  }

  /** As commit(), for one transaction that recorded several rows (a group commit). */
  commitMany<T>(transaction: () => Recorded<T>[]): Recorded<T>[] {
    let recorded: Recorded<T>[];
    try {
      recorded = transaction();
    } catch (error) {
      this.#reset();
      throw error;
    }
    for (const one of recorded) this.#settle(one);
    return recorded;
  }

  /** After the transaction committed. */
  #settle(recorded: Recorded<unknown>): void {
    this.#evicted += recorded.evicted;
    if (recorded.outcome !== 'refused') return;
    this.#refused += 1;
    if (this.#refused === 1 && this.ceiling !== null) this.#onFirstRefusal?.(this.ceiling);
  }

  /** After a transaction that failed (rolled back): counts and watermark are read again. */
  #reset(): void {
    this.#count = null;
    this.#version = null;
    this.#scanFrom = 0;
    this.#deferred = null;
  }

  usage(): RowUsage {
    return { stored: this.#countAll.get()!, ceiling: this.ceiling, evicted: this.#evicted, refused: this.#refused };
  }
}
