/**
 * The resolution cache shared by several daemons over PostgreSQL (src/store/postgres/
 * resolution-cache.ts) and the single flight on top of it (src/server/shared-cache.ts). Two
 * stores opened on one schema are two daemons: two pools, one database. Expiry is moved with SQL
 * on the database clock rather than waited for, and no assertion depends on tight timing.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ProblemError } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { sharedResolution, type SharedResolutionOptions } from '../../src/server/shared-cache.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { PostgresResolutionCache, RESOLUTION_LEASES_DDL, type PostgresResolutionCacheOptions } from '../../src/store/postgres/resolution-cache.js';
import { ED25519_DID } from '../support/dids.js';
import { describePostgres, freshSchema, postgresUrl } from '../support/postgres.js';
import { testRuntime } from '../support/runtime.js';

const NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/** A real resolution (did:key: derived, no network), as the daemon would share it. */
async function resolution(): Promise<EnrichedResolution> {
  return resolve(ED25519_DID, testRuntime());
}

function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(deeplyFrozen);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A `work` that counts its calls and how many ran at once, taking `ms` each. */
function countingWork(result: () => Promise<EnrichedResolution>, ms = 200) {
  const counts = { calls: 0, running: 0, mostAtOnce: 0 };
  const work = async (): Promise<EnrichedResolution> => {
    counts.calls++;
    counts.running++;
    counts.mostAtOnce = Math.max(counts.mostAtOnce, counts.running);
    try {
      await sleep(ms);
      return await result();
    } finally {
      counts.running--;
    }
  };
  return { counts, work };
}

describePostgres('shared resolution cache (PostgreSQL)', () => {
  let schema: string;
  let drop: () => Promise<void>;
  let stores: PostgresStore[] = [];
  let value: EnrichedResolution;

  /** A daemon: its own store (pool) on the test's schema, and its cache. */
  async function daemon(options: PostgresResolutionCacheOptions = {}): Promise<{ store: PostgresStore; cache: PostgresResolutionCache }> {
    const store = await openPostgresStore({ url: postgresUrl, schema, maxConnections: 4 });
    stores.push(store);
    return { store, cache: new PostgresResolutionCache(store.pool, options) };
  }

  async function count(store: PostgresStore, table: 'resolution_cache' | 'svc_resolution_leases'): Promise<number> {
    const { rows } = await store.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    return rows[0]!.n;
  }

  const options = (extra: Partial<SharedResolutionOptions> = {}): SharedResolutionOptions => ({
    holder: 'test-daemon',
    leaseMs: 5_000,
    pollMs: 20,
    ttlSeconds: () => 3600,
    ...extra,
  });

  beforeEach(async () => {
    ({ schema, drop } = freshSchema());
    const first = await openPostgresStore({ url: postgresUrl, schema, maxConnections: 4 });
    stores = [first];
    await first.pool.query(RESOLUTION_LEASES_DDL);
    value = await resolution();
  });

  afterEach(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await drop();
  });

  it('the DDL is idempotent and leaves expires_at_ms wide enough for epoch milliseconds', async () => {
    const store = stores[0]!;
    await store.pool.query(RESOLUTION_LEASES_DDL);
    const { rows } = await store.pool.query<{ data_type: string }>(
      `SELECT data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'resolution_cache' AND column_name = 'expires_at_ms'`,
      [schema],
    );
    expect(rows[0]?.data_type).toBe('bigint');
    const { rows: persistence } = await store.pool.query<{ relpersistence: string }>(`SELECT relpersistence FROM pg_class WHERE oid = to_regclass($1)`, [
      `${schema}.svc_resolution_leases`,
    ]);
    expect(persistence[0]?.relpersistence).toBe('u');
  });

  it('a stored resolution reads back equal, deep-frozen, with cached: true; an unknown key is a miss', async () => {
    const cache = new PostgresResolutionCache(stores[0]!.pool);
    await cache.set(value.did, value.did, value, 3600);
    const hit = await cache.get(value.did);
    expect(hit).toEqual({ ...value, cached: true });
    expect(deeplyFrozen(hit)).toBe(true);
    expect(value.cached).toBe(false);
    expect(await cache.get('did:key:unknown')).toBeUndefined();
  });

  it('expiry is judged on the database clock', async () => {
    const store = stores[0]!;
    const cache = new PostgresResolutionCache(store.pool);
    await cache.set(value.did, value.did, value, 60);
    // Stored as database now + ttl (a generous window around it: the statement's own latency).
    const { rows } = await store.pool.query<{ left: string }>(`SELECT (expires_at_ms - ${NOW_MS})::text AS left FROM resolution_cache`);
    const left = Number(rows[0]!.left);
    expect(left).toBeGreaterThan(50_000);
    expect(left).toBeLessThanOrEqual(60_000);
    // Moved to the database's past: gone.
    await store.pool.query(`UPDATE resolution_cache SET expires_at_ms = ${NOW_MS} - 1`);
    expect(await cache.get(value.did)).toBeUndefined();
    // And a real expiry, waited for.
    await cache.set('short', value.did, value, 1);
    expect(await cache.get('short')).toBeDefined();
    await sleep(1_100);
    expect(await cache.get('short')).toBeUndefined();
  });

  it('stores nothing for a lifetime <= 0', async () => {
    const store = stores[0]!;
    const cache = new PostgresResolutionCache(store.pool);
    await cache.set('a', value.did, value, 0);
    await cache.set('b', value.did, value, -5);
    await cache.set('c', value.did, value, Number.NaN);
    expect(await count(store, 'resolution_cache')).toBe(0);
  });

  it('stays bounded: beyond maxEntries the entries closest to expiry go, expired entries and leases are purged', async () => {
    const store = stores[0]!;
    const cache = new PostgresResolutionCache(store.pool, { maxEntries: 3, maintenanceEvery: 1 });
    for (let i = 1; i <= 6; i++) await cache.set(`k${i}`, value.did, value, 100 * i);
    expect(await count(store, 'resolution_cache')).toBe(3);
    const { rows } = await store.pool.query<{ key: string }>('SELECT key FROM resolution_cache ORDER BY key');
    expect(rows.map((r) => r.key)).toEqual(['k4', 'k5', 'k6']);

    // Passes come every maintenanceEvery writes (the first write included), not on every one.
    const sparse = new PostgresResolutionCache(store.pool, { maxEntries: 3, maintenanceEvery: 4 });
    for (let i = 7; i <= 10; i++) await sparse.set(`k${i}`, value.did, value, 100 * i);
    expect(await count(store, 'resolution_cache')).toBe(6);
    await sparse.set('k11', value.did, value, 1100);
    expect(await count(store, 'resolution_cache')).toBe(3);

    await store.pool.query(`UPDATE resolution_cache SET expires_at_ms = ${NOW_MS} - 1 WHERE key = 'k11'`);
    await cache.claim('dead', 'gone', 1);
    await store.pool.query(`UPDATE svc_resolution_leases SET expires_at = clock_timestamp() - interval '1 second'`);
    await cache.maintain();
    expect(await count(store, 'resolution_cache')).toBe(2);
    expect(await count(store, 'svc_resolution_leases')).toBe(0);
  });

  it('a body that does not parse, or is not a stored resolution, is a miss and is deleted', async () => {
    const store = stores[0]!;
    const cache = new PostgresResolutionCache(store.pool);
    for (const body of ['{"did": "did:key:z', '42', 'null', '[]', JSON.stringify({ did: value.did })]) {
      await store.pool.query(`INSERT INTO resolution_cache (key, did, body, expires_at_ms) VALUES ('bad', 'did:key:z', $1, ${NOW_MS} + 60000)`, [body]);
      expect(await cache.get('bad')).toBeUndefined();
      expect(await count(store, 'resolution_cache')).toBe(0);
    }
  });

  it('a lease is exclusive between daemons, is taken over once expired, and is released only by its holder', async () => {
    const a = (await daemon()).cache;
    const b = (await daemon()).cache;
    const store = stores[0]!;

    expect(await a.claim('k', 'A', 10_000)).toBe(true);
    expect(await b.claim('k', 'B', 10_000)).toBe(false);
    // The holder's own live lease is renewed.
    expect(await a.claim('k', 'A', 10_000)).toBe(true);

    // Released only by its holder.
    await b.release('k', 'B');
    expect(await b.claim('k', 'B', 10_000)).toBe(false);
    await a.release('k', 'A');
    expect(await b.claim('k', 'B', 10_000)).toBe(true);

    // Expired (on the database clock): taken over; the old holder's release leaves it alone.
    await store.pool.query(`UPDATE svc_resolution_leases SET expires_at = clock_timestamp() - interval '1 millisecond'`);
    expect(await a.claim('k', 'A', 10_000)).toBe(true);
    await b.release('k', 'B');
    const { rows } = await store.pool.query<{ holder: string }>('SELECT holder FROM svc_resolution_leases');
    expect(rows).toEqual([{ holder: 'A' }]);

    // Claims at the same moment from two pools: exactly one wins, every time.
    for (let i = 0; i < 20; i++) {
      const won = await Promise.all([a.claim(`race${i}`, 'A', 10_000), b.claim(`race${i}`, 'B', 10_000)]);
      expect(won.filter(Boolean)).toHaveLength(1);
    }
  });

  it('single flight across two daemons: the work runs once, both get the same result', async () => {
    const a = (await daemon()).cache;
    const b = (await daemon()).cache;
    const { counts, work } = countingWork(resolution);
    const [first, second] = await Promise.all([
      sharedResolution(a, value.did, value.did, options({ holder: 'A' }), work),
      sharedResolution(b, value.did, value.did, options({ holder: 'B' }), work),
    ]);
    expect(counts.calls).toBe(1);
    expect({ ...first, cached: true }).toEqual({ ...second, cached: true });
    // One of them is the winner's own result, the other the shared (frozen) entry.
    expect([first.cached, second.cached].sort()).toEqual([false, true]);
    expect(await count(stores[0]!, 'svc_resolution_leases')).toBe(0);
    // A third caller is served from the shared cache.
    const third = await sharedResolution(a, value.did, value.did, options(), work);
    expect(third.cached).toBe(true);
    expect(counts.calls).toBe(1);
  });

  it('errors are never shared: after the winner fails, the waiter resolves for itself, and nothing is stored', async () => {
    const a = (await daemon()).cache;
    const b = (await daemon()).cache;
    const { counts, work } = countingWork(async () => {
      throw new ProblemError('INVALID_DID_DOCUMENT', 'no answer');
    });
    const settled = await Promise.allSettled([
      sharedResolution(a, value.did, value.did, options({ holder: 'A' }), work),
      sharedResolution(b, value.did, value.did, options({ holder: 'B' }), work),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect(counts.calls).toBe(2);
    expect(counts.mostAtOnce).toBe(1);
    expect(await count(stores[0]!, 'resolution_cache')).toBe(0);
    expect(await count(stores[0]!, 'svc_resolution_leases')).toBe(0);
  });

  it('a result that must not be kept (lifetime 0) is not shared: the waiter resolves for itself', async () => {
    const a = (await daemon()).cache;
    const b = (await daemon()).cache;
    const { counts, work } = countingWork(resolution);
    const results = await Promise.all([
      sharedResolution(a, value.did, value.did, options({ holder: 'A', ttlSeconds: () => 0 }), work),
      sharedResolution(b, value.did, value.did, options({ holder: 'B', ttlSeconds: () => 0 }), work),
    ]);
    expect(results.map((r) => r.cached)).toEqual([false, false]);
    expect(counts.calls).toBe(2);
    expect(counts.mostAtOnce).toBe(1);
    expect(await count(stores[0]!, 'resolution_cache')).toBe(0);
  });

  it('a winner that died holding its lease: the waiter resolves once the lease expires', async () => {
    const a = (await daemon()).cache;
    const b = (await daemon()).cache;
    expect(await a.claim(value.did, 'crashed', 400)).toBe(true);
    const { counts, work } = countingWork(resolution, 10);
    const started = performance.now();
    const result = await sharedResolution(b, value.did, value.did, options({ holder: 'B' }), work);
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    expect(result.cached).toBe(false);
    expect(counts.calls).toBe(1);
    expect(await a.get(value.did)).toEqual({ ...result, cached: true });
  });

  it('a holder that outlives its lease does not keep a waiter beyond leaseMs', async () => {
    const a = (await daemon()).cache;
    expect(await a.claim(value.did, 'slow', 60_000)).toBe(true);
    const { counts, work } = countingWork(resolution, 10);
    const result = await sharedResolution(a, value.did, value.did, options({ leaseMs: 300 }), work);
    expect(result.cached).toBe(false);
    expect(counts.calls).toBe(1);
  });

  it('an aborted wait rejects with the signal’s reason and runs nothing', async () => {
    const a = (await daemon()).cache;
    expect(await a.claim(value.did, 'other', 60_000)).toBe(true);
    const { counts, work } = countingWork(resolution, 10);
    const controller = new AbortController();
    const reason = new Error('client gone');
    setTimeout(() => controller.abort(reason), 100);
    await expect(sharedResolution(a, value.did, value.did, options({ signal: controller.signal }), work)).rejects.toBe(reason);
    expect(counts.calls).toBe(0);
    // The other holder's lease is untouched.
    expect(await count(stores[0]!, 'svc_resolution_leases')).toBe(1);
  });

  it('without the database, the work runs and its result is returned', async () => {
    const { store, cache } = await daemon();
    await store.close();
    const { counts, work } = countingWork(resolution, 10);
    const result = await sharedResolution(cache, value.did, value.did, options(), work);
    expect(result.did).toBe(value.did);
    expect(counts.calls).toBe(1);
    await expect(cache.get(value.did)).rejects.toThrow();
  });
});
