/**
 * Request budgets shared through PostgreSQL (src/store/postgres/budgets.ts): the token buckets of
 * the public profile held as rows, so several daemons of one database give a client one budget.
 * Each test has a schema of its own; "daemons" are separate pools opened on it. Periods are
 * chosen so that the refill during a test cannot change the count (a token per 3 minutes where
 * only counting matters), and the refill tests age rows on the database's clock instead of
 * leaning on this process's timing, except one short wait with a wide margin.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { BUDGETS_DDL, PostgresBudgets, type BudgetTake, type PostgresBudgetsOptions } from '../../src/store/postgres/budgets.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { describePostgres, freshSchema, postgresUrl } from '../support/postgres.js';

const HOUR = 3_600_000;

describePostgres('PostgreSQL request budgets', () => {
  let cleanups: Array<() => Promise<void>> = [];

  afterEach(async () => {
    // Pools first (newest first), then the schema they used.
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups = [];
  });

  /** A fresh schema; each `daemon()` opens another pool on it and (unless told not to) runs BUDGETS_DDL. */
  async function database(): Promise<{
    daemon(options?: PostgresBudgetsOptions, createTable?: boolean): Promise<{ store: PostgresStore; budgets: PostgresBudgets }>;
  }> {
    const { schema, drop } = freshSchema();
    cleanups.push(drop);
    return {
      async daemon(options, createTable = true) {
        const store = await openPostgresStore({ url: postgresUrl, schema });
        cleanups.push(() => store.close());
        if (createTable) await store.pool.query(BUDGETS_DDL);
        return { store, budgets: new PostgresBudgets(store.pool, options) };
      },
    };
  }

  const allowedCount = (takes: BudgetTake[]) => takes.filter((t) => t.allowed).length;

  async function takeMany(budgets: PostgresBudgets, n: number, key: string, perPeriod: number, periodMs?: number): Promise<BudgetTake[]> {
    const takes: BudgetTake[] = [];
    for (let i = 0; i < n; i += 1) takes.push(await budgets.take(key, perPeriod, periodMs));
    return takes;
  }

  async function tokensOf(pool: pg.Pool, key: string): Promise<number> {
    const { rows } = await pool.query<{ tokens: number }>('SELECT tokens FROM svc_budgets WHERE key = $1', [key]);
    if (rows[0] === undefined) throw new Error(`no bucket ${key}`);
    return rows[0].tokens;
  }

  /** Moves a bucket's last take `seconds` into the past, as if it had been idle that long. */
  async function age(pool: pg.Pool, seconds: number, key?: string): Promise<void> {
    await pool.query(
      `UPDATE svc_budgets SET at = at - $1 * interval '1 second', full_by = full_by - $1 * interval '1 second'${key === undefined ? '' : ' WHERE key = $2'}`,
      key === undefined ? [seconds] : [seconds, key],
    );
  }

  it('gives 20 takes a minute, then refuses until a token is back (3 s at 20 a minute)', async () => {
    const { store, budgets } = await (await database()).daemon();
    const takes = await takeMany(budgets, 20, 'standard:203.0.113.9', 20);
    expect(takes.every((t) => t.allowed)).toBe(true);
    const refused = await budgets.take('standard:203.0.113.9', 20);
    // One token per 60 s / 20 = 3 s; less by what came back while the 20 takes ran.
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(3);
    const left = await tokensOf(store.pool, 'standard:203.0.113.9');
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBeLessThan(1);
    expect(refused.retryAfterSeconds).toBe(Math.max(1, Math.ceil((1 - left) * 3)));
  });

  it('says the exact wait for a slow bucket (one token an hour: about 3600 s)', async () => {
    const { budgets } = await (await database()).daemon();
    expect(await budgets.take('quota:198.51.100.7', 1, HOUR)).toEqual({ allowed: true });
    const refused = await budgets.take('quota:198.51.100.7', 1, HOUR);
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThan(3_590);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(3_600);
  });

  it('shares one budget between two daemons taking in turn: 20 of 21 allowed', async () => {
    const db = await database();
    const [a, b] = [await db.daemon(), await db.daemon()];
    const takes: BudgetTake[] = [];
    for (let i = 0; i < 21; i += 1) takes.push(await (i % 2 === 0 ? a : b).budgets.take('standard:192.0.2.1', 20, HOUR));
    expect(allowedCount(takes)).toBe(20);
    expect(takes.slice(0, 20).every((t) => t.allowed)).toBe(true);
    expect(takes[20]?.allowed).toBe(false);
  });

  it('never over-admits 40 concurrent takes over two daemons: exactly 20', async () => {
    const db = await database();
    const [a, b] = [await db.daemon(), await db.daemon()];
    const takes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).budgets.take('standard:192.0.2.2', 20, HOUR)));
    expect(allowedCount(takes)).toBe(20);
    expect(await tokensOf(a.store.pool, 'standard:192.0.2.2')).toBeLessThan(1);
  });

  it('keeps buckets apart: another client, another budget, another size', async () => {
    const { budgets } = await (await database()).daemon();
    expect(allowedCount(await takeMany(budgets, 21, 'standard:203.0.113.1', 20, HOUR))).toBe(20);
    // Another client is untouched by the first one's exhaustion.
    expect(allowedCount(await takeMany(budgets, 21, 'standard:203.0.113.2', 20, HOUR))).toBe(20);
    // The same client's intensive budget is its own bucket, of 10.
    const intensive = await takeMany(budgets, 11, 'intensive:203.0.113.1', 10, HOUR);
    expect(allowedCount(intensive)).toBe(10);
    expect(intensive[10]?.allowed).toBe(false);
  });

  it('refills continuously from the time of the last take on the database clock', async () => {
    const { store, budgets } = await (await database()).daemon();
    const key = 'standard:203.0.113.3';
    expect(allowedCount(await takeMany(budgets, 21, key, 20))).toBe(20);
    // Half a minute idle at 20 a minute is 10 tokens back: 10 more, not a fresh 20.
    await age(store.pool, 30, key);
    const after = await takeMany(budgets, 11, key, 20);
    expect(allowedCount(after)).toBe(10);
    expect(after[10]?.allowed).toBe(false);
  });

  it('gives back a token per elapsed share of the period, with no burst at a window edge', async () => {
    const { budgets } = await (await database()).daemon();
    const key = 'standard:203.0.113.4';
    // 2 tokens per second: one back every 500 ms.
    const drained = await takeMany(budgets, 3, key, 2, 1_000);
    expect(drained.map((t) => t.allowed)).toEqual([true, true, false]);
    expect(drained[2]).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 650));
    // More than a period's first half has passed: one token back, not the full two of a new window.
    const refilled = await takeMany(budgets, 2, key, 2, 1_000);
    expect(refilled.map((t) => t.allowed)).toEqual([true, false]);
  });

  it('cleans up the rows of idle buckets, never one in use, and now and then by itself', async () => {
    const db = await database();
    const { store, budgets } = await db.daemon();
    await budgets.take('standard:idle', 20);
    await budgets.take('standard:recent', 20);
    await budgets.take('quota:daily', 5, 24 * HOUR);
    // An hour idle: the minute buckets are full again, the daily one is not.
    await age(store.pool, 3_600, 'standard:idle');
    await age(store.pool, 3_600, 'quota:daily');
    await age(store.pool, 30, 'standard:recent');
    expect(await budgets.cleanup()).toBe(1);
    const keys = async () => (await store.pool.query<{ key: string }>('SELECT key FROM svc_budgets ORDER BY key')).rows.map((r) => r.key);
    expect(await keys()).toEqual(['quota:daily', 'standard:recent']);

    // A take is the row's use: an old row taken from again is not deleted.
    await age(store.pool, 3_600, 'standard:recent');
    await budgets.take('standard:recent', 20);
    expect(await budgets.cleanup()).toBe(0);
    expect(await keys()).toEqual(['quota:daily', 'standard:recent']);

    // Without an explicit call: an instance that cleans up at every chance deletes idle rows after a take.
    const eager = (await db.daemon({ cleanupEveryMs: 0 })).budgets;
    await age(store.pool, 3_600, 'standard:recent');
    await eager.take('standard:other', 20);
    await expect.poll(keys, { timeout: 5_000 }).toEqual(['quota:daily', 'standard:other']);
  });

  it('creates the table idempotently, also from two daemons at once', async () => {
    const db = await database();
    const daemons = await Promise.all(Array.from({ length: 4 }, () => db.daemon({}, false)));
    // Unserialised, concurrent CREATE … IF NOT EXISTS of one table can fail in the catalogue.
    await Promise.all(daemons.flatMap(({ store }) => [store.pool.query(BUDGETS_DDL), store.pool.query(BUDGETS_DDL)]));
    await daemons[0]!.store.pool.query(BUDGETS_DDL);
    expect(await daemons[0]!.budgets.take('standard:198.51.100.1', 20)).toEqual({ allowed: true });
    expect(await daemons[1]!.budgets.take('standard:198.51.100.1', 20)).toEqual({ allowed: true });
  });

  it('rejects instead of allowing when the database cannot be used', async () => {
    const { store, budgets } = await (await database()).daemon();
    await store.close();
    await expect(budgets.take('standard:198.51.100.2', 20)).rejects.toThrow();

    const unreachable = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/test', connectionTimeoutMillis: 2_000 });
    unreachable.on('error', () => undefined);
    cleanups.push(() => unreachable.end());
    await expect(new PostgresBudgets(unreachable).take('standard:198.51.100.2', 20)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('refuses a budget that could never admit anything', async () => {
    const { budgets } = await (await database()).daemon();
    await expect(budgets.take('standard:x', 0)).rejects.toThrow(RangeError);
    await expect(budgets.take('standard:x', 20, 0)).rejects.toThrow(RangeError);
  });
});
