/**
 * Request budgets shared by every daemon of one database: the per-client token buckets of the
 * public profile (src/server/rate-limit.ts keeps them in memory for a single daemon). Each
 * bucket holds up to `perPeriod` tokens, refilled continuously at `perPeriod` per period; a
 * request takes one. With N daemons behind a load balancer the bucket is one row here, so a
 * client still gets `perPeriod` per period in all, not N times as many.
 *
 * The refill and the take are one upsert on the database's clock (clock_timestamp()), never a
 * daemon's: daemons' clocks disagree, and a read-then-write in two statements would let two
 * daemons spend the same token. The upsert's row lock serialises concurrent takes of one key.
 */
import type pg from 'pg';

/**
 * One-key advisory lock ('svcb') held while the table is created: two daemons running
 * CREATE … IF NOT EXISTS at once can still collide in the catalogue (a duplicate pg_type row).
 * One-key and two-key advisory locks do not overlap, so this never meets LOCK_CLASS of sql.ts.
 */
const DDL_LOCK = 0x73766362;

/**
 * The budgets table, idempotent and safe to run from several daemons at once (one simple query:
 * its statements run as one transaction, so the advisory lock is held until the table exists).
 *
 * UNLOGGED: budgets are coordination state, not data. Skipping the WAL makes each take cheaper;
 * the price is that a crash of the server empties the table (every bucket full again) and
 * replicas do not carry it, which only forgives a minute of budgets. Not part of the versioned
 * migrations, which stay identical to the SQLite history.
 *
 * `full_by` is when the bucket, left alone, is surely full again (its last take plus one period):
 * from then on the row says nothing a missing row would not, and the cleanup may delete it. It
 * is stored rather than derived so that buckets of different periods (a minute, a day) share the
 * table and one index.
 */
export const BUDGETS_DDL = `SELECT pg_advisory_xact_lock(${DDL_LOCK});
CREATE UNLOGGED TABLE IF NOT EXISTS svc_budgets (
  key TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  at TIMESTAMPTZ NOT NULL,
  allowed BOOLEAN NOT NULL,
  full_by TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS svc_budgets_full_by ON svc_budgets (full_by);`;

/** Same shape as Take of src/server/rate-limit.ts (the store does not depend on the server layer). */
export type BudgetTake = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface PostgresBudgetsOptions {
  /** Least time between two cleanups by this instance, ms (default a minute). */
  cleanupEveryMs?: number;
}

/**
 * The tokens of an existing bucket, refilled up to now: `excluded.at` is the one clock_timestamp()
 * of the statement (read once: it advances within a statement). Elapsed time is clamped at zero
 * so a server clock stepped back never drains a bucket.
 */
const REFILLED = 'least($2::float8, b.tokens + greatest(0, extract(epoch FROM excluded.at - b.at)::float8) * $3::float8)';

/**
 * One take: a new bucket starts full and gives one token at once; an existing one is refilled,
 * then gives one when it holds at least one. Either way `at` and `full_by` move to now, and the
 * row returns the tokens left and whether this take was allowed. Parameters: $1 key, $2 the
 * bucket's size, $3 tokens per second, $4 the period in ms.
 */
const TAKE_SQL = `INSERT INTO svc_budgets AS b (key, tokens, at, allowed, full_by)
SELECT $1, $2::float8 - 1, clock.t, true, clock.t + $4::float8 * interval '1 millisecond'
FROM (SELECT clock_timestamp() AS t) AS clock
ON CONFLICT (key) DO UPDATE SET
  tokens = CASE WHEN ${REFILLED} >= 1 THEN ${REFILLED} - 1 ELSE ${REFILLED} END,
  allowed = ${REFILLED} >= 1,
  at = excluded.at,
  full_by = excluded.full_by
RETURNING tokens, allowed`;

/** Deletes the rows of buckets that are full again (see BUDGETS_DDL); the index keeps it cheap. */
const CLEANUP_SQL = 'DELETE FROM svc_budgets WHERE full_by < clock_timestamp()';

export class PostgresBudgets {
  readonly #cleanupEveryMs: number;
  /** When this instance last started a cleanup (this process's monotonic clock: it only paces). */
  #lastCleanupMs = performance.now();

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresBudgetsOptions = {},
  ) {
    this.#cleanupEveryMs = options.cleanupEveryMs ?? 60_000;
  }

  /**
   * Takes one token from the bucket `key` (a name the caller builds, e.g. `standard:203.0.113.9`)
   * of `perPeriod` tokens refilled over `periodMs`. Refused: the whole seconds until one token is
   * back, at least 1. Rejects with the driver's error when the database cannot be used.
   */
  async take(key: string, perPeriod: number, periodMs = 60_000): Promise<BudgetTake> {
    if (!Number.isFinite(perPeriod) || perPeriod < 1) throw new RangeError(`a budget holds at least one token, not ${perPeriod}`);
    if (!Number.isFinite(periodMs) || periodMs <= 0) throw new RangeError(`a budget's period is a positive number of ms, not ${periodMs}`);
    this.#cleanupNowAndThen();
    const perMs = perPeriod / periodMs;
    // Named: each connection parses and plans it once (it runs for every public request).
    const { rows } = await this.pool.query<{ tokens: number; allowed: boolean }>({
      name: 'svc-take-budget',
      text: TAKE_SQL,
      values: [key, perPeriod, perMs * 1000, periodMs],
    });
    const row = rows[0];
    if (row === undefined) throw new Error('the budget upsert returned no row');
    if (row.allowed) return { allowed: true };
    // The formula of TokenBuckets, so both backends answer the same Retry-After.
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - row.tokens) / perMs / 1000)) };
  }

  /**
   * Deletes the rows of buckets idle long enough to be full again and returns how many. Without
   * it the table would keep a row for every client ever seen; a missing row is a full bucket, so
   * nothing is lost. A row taken from meanwhile is kept: its take moved `full_by` on, and the
   * DELETE re-checks its condition on the row it waited for.
   */
  async cleanup(): Promise<number> {
    const { rowCount } = await this.pool.query(CLEANUP_SQL);
    return rowCount ?? 0;
  }

  /**
   * Starts a cleanup when this instance has not for `cleanupEveryMs`: not on every take (that
   * would put a DELETE beside each request), and not awaited by the take. Its failure is ignored:
   * the next one catches up, and a database that is down fails the takes themselves.
   */
  #cleanupNowAndThen(): void {
    const now = performance.now();
    if (now - this.#lastCleanupMs < this.#cleanupEveryMs) return;
    this.#lastCleanupMs = now;
    this.cleanup().catch(() => undefined);
  }
}
