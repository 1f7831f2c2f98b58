/**
 * A ceiling on the rows of one history table (observations by DID, MCP inventories by
 * endpoint): the daemon's bound on disk (docs/operations.md#bounded-history), on both engines. Used
 * inside the table's own record transaction, so that counting, evicting and inserting are one
 * write.
 *
 * The rule is written once (CeilingRule: which rows go, when a row is refused) as a generator of
 * the statements it runs (CEILING_STATEMENTS, written once for both engines), and driven by each
 * engine: synchronously inside the IMMEDIATE SQLite transaction by sqlite/ceiling.ts (RowCeiling), and over the
 * record's pooled connection by src/store/postgres/ceiling.ts, which reads the count from a
 * row the database keeps exact and locks it, so recorders on several daemons take turns.
 *
 * At the ceiling a new row first takes the place of a one-off row — the oldest row of a key
 * (DID, endpoint) that has no other row and was seen exactly once, never by this same record —
 * and is refused when there is none. A key with two rows, or a row seen twice, is history
 * (something changed, or was confirmed unchanged) and is never evicted. Coalescing into an
 * existing row adds no row and never reaches here.
 *
 * Cost: on SQLite the row count is kept in memory and read again only when another connection
 * has committed since (PRAGMA data_version); on PostgreSQL it is one locked row. The search for a one-off row walks rows in id order
 * from a watermark: a row that is not a one-off can never become one again (rows are only ever
 * deleted by this eviction, which never deletes a row of a key with two rows), so rows below
 * the watermark are never read twice and each record reads O(1) rows amortised, even at the
 * ceiling with nothing to evict. The one exception, the recording key's own one-off row passed
 * over by a refused record, is remembered (`deferred`) and offered to the next other key.
 * The eviction re-checks that its row is still a one-off (on PostgreSQL another daemon may have
 * coalesced into it meanwhile, without the count's lock); a row that is not is passed over.
 *
 * "Oldest" is id order, which is recording order: for a one-off row (never coalesced, so
 * lastSeenAt = observedAt) that is the order of lastSeenAt up to the seconds concurrent
 * resolutions take. No index on lastSeenAt exists, and the schema stays as it is (v8).
 */
import type { Recorded } from '../../core/history/store.js';

/** What /v1/status reports of one table (`components.storage`). */
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

export type CeilingTable = 'observations' | 'mcp_observations';
export type CeilingKey = 'did' | 'endpoint';
export type CeilingStatement = 'oneOff' | 'oneOffKey' | 'maxId' | 'rowsOf' | 'evict';

/** A row is a one-off: seen once, and the only row of its key. */
const oneOff = (table: CeilingTable, key: CeilingKey, row: string) =>
  `${row}.seen_count = 1 AND NOT EXISTS (SELECT 1 FROM ${table} q WHERE q.${key} = ${row}.${key} AND q.id <> ${row}.id)`;

/** What the two engines write differently in the rule's statements. */
export interface CeilingDialect {
  /** The n-th parameter: `?` on SQLite, `$n` on PostgreSQL. */
  p(n: number): string;
  /**
   * After the victim's SELECT: PostgreSQL's `FOR UPDATE SKIP LOCKED` (a row another transaction
   * is coalescing into or deleting is not waited for: it is passed over); empty on SQLite, whose
   * write lock excludes every other writer.
   */
  skipLocked: string;
}

/** The rule's statements for both engines, each answering one column `v`. */
export const CEILING_STATEMENTS: Record<CeilingStatement, (table: CeilingTable, key: CeilingKey, d: CeilingDialect) => string> = {
  // The oldest one-off row above the watermark, not of the recording key ($1 watermark, $2 key):
  // the key's own row is skipped, since the row being recorded would make it history.
  oneOff: (table, key, d) =>
    `SELECT o.id AS v FROM ${table} o WHERE o.id > ${d.p(1)} AND o.${key} <> ${d.p(2)} AND ${oneOff(table, key, 'o')} ORDER BY o.id LIMIT 1`,
  // The key of row $1 while it is a one-off.
  oneOffKey: (table, key, d) => `SELECT o.${key} AS v FROM ${table} o WHERE o.id = ${d.p(1)} AND ${oneOff(table, key, 'o')}`,
  maxId: (table) => `SELECT max(id) AS v FROM ${table}`,
  rowsOf: (table, key, d) => `SELECT id AS v FROM ${table} WHERE ${key} = ${d.p(1)} LIMIT 2`,
  // Deletes row $1 only while it is still a one-off: on PostgreSQL a row another transaction
  // updated meanwhile is read again once locked (a coalesced row is no longer seen once, and stays).
  evict: (table, key, d) =>
    `DELETE FROM ${table} WHERE id IN (SELECT o.id FROM ${table} o WHERE o.id = ${d.p(1)} AND ${oneOff(table, key, 'o')} ${d.skipLocked}) RETURNING id AS v`,
};

/** One statement the rule runs; the engine answers with the values of its column `v`. */
export interface CeilingStep {
  statement: CeilingStatement;
  args: Array<number | string>;
}
export type CeilingWork<T> = Generator<CeilingStep, T, unknown[]>;

function* run(statement: CeilingStatement, ...args: Array<number | string>): CeilingWork<unknown[]> {
  return yield { statement, args };
}

/**
 * The ceiling's rule, engine-neutral: which rows make room for a new one and when it is refused,
 * with the watermark and the counts of evictions and refusals since the store was opened. The
 * engine drives makeRoom() inside its record transaction, holding whatever makes it the only
 * recorder of a new row at that moment (SQLite's write lock, PostgreSQL's locked count).
 */
export class CeilingRule {
  readonly ceiling: number | null;
  readonly #onFirstRefusal: ((ceiling: number) => void) | undefined;
  /** Every row with id <= this is not a one-off (or is gone), except perhaps `#deferred`. */
  #scanFrom = 0;
  /** A one-off row below the watermark, passed over because its key was the one recording. */
  #deferred: number | null = null;
  #evicted = 0;
  #refused = 0;

  constructor(table: CeilingTable, options: CeilingOptions = {}) {
    checkCeiling(table, options.ceiling);
    this.ceiling = options.ceiling ?? null;
    this.#onFirstRefusal = options.onFirstRefusal;
  }

  /**
   * Before inserting a new row of `key` into a table of `count` rows: evicts what the ceiling
   * asks for and returns how many rows went, or null when the row must be refused (nothing was
   * written). While the table is at or over its ceiling the count never grows: each new row
   * replaces one or two one-off rows.
   */
  *makeRoom(key: string, count: number): CeilingWork<number | null> {
    const { ceiling } = this;
    if (ceiling === null) return 0;
    if (ceiling === 0) return null;
    let evicted = 0;
    while (count - evicted >= ceiling && evicted < MAX_EVICTIONS_PER_ROW) {
      const victim = yield* this.#nextVictim(key);
      if (victim === undefined) break;
      // Not deleted: it stopped being a one-off since it was found; the search goes on above it.
      if ((yield* run('evict', victim)).length > 0) evicted += 1;
    }
    if (count - evicted >= ceiling && evicted === 0) return null;
    return evicted;
  }

  /** The oldest one-off row not of `key`, or undefined. */
  *#nextVictim(key: string): CeilingWork<number | undefined> {
    if (this.#deferred !== null) {
      const [owner] = yield* run('oneOffKey', this.#deferred);
      // Older than every row above the watermark: first in line, unless it is the key's own.
      if (owner === undefined) this.#deferred = null;
      else if (owner !== key) {
        const victim = this.#deferred;
        this.#deferred = null;
        return victim;
      }
    }
    const [victim] = yield* run('oneOff', this.#scanFrom, key);
    if (victim !== undefined) {
      this.#scanFrom = Number(victim);
      return Number(victim);
    }
    // No one-off row above the watermark: every row there is history now, except perhaps the
    // key's own one-off row, which is deferred to the next other key.
    const before = this.#scanFrom;
    const [max] = yield* run('maxId');
    this.#scanFrom = Math.max(before, Number(max ?? 0));
    const own = (yield* run('rowsOf', key)).map(Number);
    if (own.length === 1 && own[0]! > before && (yield* run('oneOffKey', own[0]!)).length > 0) this.#deferred = own[0]!;
    return undefined;
  }

  /** After the transaction committed: counts its evictions and a refusal (the first one is reported). */
  settle(recorded: Recorded<unknown>): void {
    this.#evicted += recorded.evicted;
    if (recorded.outcome !== 'refused') return;
    this.#refused += 1;
    if (this.#refused === 1 && this.ceiling !== null) this.#onFirstRefusal?.(this.ceiling);
  }

  /** After a transaction that failed (rolled back): the watermark is read again. */
  reset(): void {
    this.#scanFrom = 0;
    this.#deferred = null;
  }

  usage(stored: number): RowUsage {
    return { stored, ceiling: this.ceiling, evicted: this.#evicted, refused: this.#refused };
  }
}
