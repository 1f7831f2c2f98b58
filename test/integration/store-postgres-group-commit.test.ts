/**
 * The group commit of the PostgreSQL history (src/store/postgres/sql.ts GroupCommit) on a real
 * server (a schema of its own per test): the observations recorded in one turn are written by
 * one transaction (every row carries the same xmin) over one connection checkout, in order (a
 * later record of a DID coalesces into an earlier one of the same batch), bounded or not; a
 * failure of the batch rejects every caller and writes nothing; two daemons' batches over the
 * same DIDs in opposite orders neither deadlock nor insert a DID twice.
 */
import { afterAll, expect, it } from 'vitest';
import type pg from 'pg';
import type { NewObservation } from '../../src/core/store.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { schemaPool } from '../support/pg-schemas.js';
import { describePostgres, postgresUrl } from '../support/postgres.js';
import { sampleObservation } from '../support/store.js';

const schemas = schemaPool();
afterAll(() => schemas.dispose());

/** Connection checkouts and statements sent (each one round trip) by the store's pool. */
function countRoundTrips(pool: pg.Pool): { checkouts: number; queries: number } {
  const counts = { checkouts: 0, queries: 0 };
  const wrapped = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    counts.checkouts += 1;
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      counts.queries += 1;
      return query(...args);
    };
  });
  return counts;
}

/** A store on a schema of its own for `work`, then the schema given back. */
async function withStores(
  count: number,
  bounds: { maxObservations?: number; recordBatch?: number },
  work: (stores: PostgresStore[]) => Promise<void>,
): Promise<void> {
  const { schema, drop } = await schemas.take();
  const stores: PostgresStore[] = [];
  try {
    for (let i = 0; i < count; i++) stores.push(await openPostgresStore({ url: postgresUrl, schema, ...bounds }));
    await work(stores);
  } finally {
    for (const s of stores) await s.close();
    await drop();
  }
}

const observation = (did: string, hash = 'a'): NewObservation => sampleObservation({ did, documentHash: hash.repeat(64) });

/** The transaction ids of the observation rows (xmin: the transaction that wrote each row's version). */
async function writers(store: PostgresStore): Promise<string[]> {
  const { rows } = await store.pool.query<{ x: string }>('SELECT DISTINCT xmin::text AS x FROM observations');
  return rows.map((r) => r.x);
}

describePostgres('PostgreSQL group commit of observations', () => {
  for (const [label, bounds] of [
    ['unbounded', {}],
    ['under a ceiling', { maxObservations: 1_000 }],
  ] as const) {
    it(`${label}: concurrent records are one transaction over one checkout, in order`, async () => {
      await withStores(1, bounds, async ([store]) => {
        const counts = countRoundTrips(store!.pool);
        const dids = Array.from({ length: 20 }, (_, i) => `did:example:batch-${i}`);
        // The first DID twice: the second record coalesces into the row the first inserts.
        const recorded = await Promise.all([...dids, dids[0]!].map((did) => store!.observations.record(observation(did))));
        expect(recorded.slice(0, 20).map((r) => r.outcome)).toEqual(dids.map(() => 'stored'));
        expect(recorded[20]).toMatchObject({ outcome: 'coalesced', row: { did: dids[0], seenCount: 2 } });
        // Ids ascending in the order of the records.
        const ids = recorded.slice(0, 20).map((r) => r.row!.id);
        expect([...ids].sort((a, b) => a - b)).toEqual(ids);
        expect(counts.checkouts).toBe(1);
        expect(await writers(store!)).toHaveLength(1);
        expect(await store!.observations.count(dids[0]!)).toBe(1);
      });
    });
  }

  it('at the ceiling: the batch makes room one record at a time, as records of their own would', async () => {
    await withStores(1, { maxObservations: 3 }, async ([store]) => {
      const recorded = await Promise.all([1, 2, 3, 4, 5].map((i) => store!.observations.record(observation(`did:example:full-${i}`))));
      expect(recorded.map((r) => r.outcome)).toEqual(['stored', 'stored', 'stored', 'evicted', 'evicted']);
      const { rows } = await store!.pool.query<{ did: string }>('SELECT did FROM observations ORDER BY id');
      expect(rows.map((r) => r.did)).toEqual(['did:example:full-3', 'did:example:full-4', 'did:example:full-5']);
      expect(await writers(store!)).toHaveLength(1);
      expect((await store!.observations.usage()).evicted).toBe(2);
    });
  });

  it('a batch that the count seen before said would fit, but no longer does (another writer filled the table), is written step by step', async () => {
    await withStores(2, { maxObservations: 40 }, async ([store, other]) => {
      // The store sees the count at 1: a batch of 3 looks far from the ceiling of 40.
      expect((await store!.observations.record(observation('did:example:seen-0'))).outcome).toBe('stored');
      // Meanwhile another daemon fills the table to the ceiling.
      await Promise.all(Array.from({ length: 39 }, (_, i) => other!.observations.record(observation(`did:example:other-${i}`))));
      const recorded = await Promise.all([1, 2, 3].map((i) => store!.observations.record(observation(`did:example:late-${i}`))));
      expect(recorded.map((r) => r.outcome)).toEqual(['evicted', 'evicted', 'evicted']);
      const { rows } = await store!.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations');
      expect(rows[0]!.n).toBe(40);
      expect((await store!.observations.usage()).stored).toBe(40);
      // The first three rows (one-offs, oldest first) made room.
      expect(await store!.observations.count('did:example:seen-0')).toBe(0);
      for (const i of [1, 2, 3]) expect(await store!.observations.count(`did:example:late-${i}`)).toBe(1);
    });
  });

  for (const [label, bounds] of [
    ['unbounded', {}],
    ['under a ceiling', { maxObservations: 1_000 }],
  ] as const) {
    it(`${label}: SVC_RECORD_BATCH bounds a transaction's records (recordBatch 2: five records, three transactions)`, async () => {
      await withStores(1, { ...bounds, recordBatch: 2 }, async ([store]) => {
        const recorded = await Promise.all([1, 2, 3, 4, 5].map((i) => store!.observations.record(observation(`did:example:batch-of-two-${i}`))));
        expect(recorded.map((r) => r.outcome)).toEqual(['stored', 'stored', 'stored', 'stored', 'stored']);
        expect(await writers(store!)).toHaveLength(3);
      });
    });
  }

  for (const [label, bounds, rowsBefore] of [
    ['unbounded', {}, 1],
    ['under a ceiling', { maxObservations: 1_000 }, 1],
    // 18 rows seen under a ceiling of 20: the next batch is written step by step (BEGIN, the locks, …).
    ['near the ceiling', { maxObservations: 20 }, 18],
  ] as const) {
    it(`${label}: a connection whose prepared statements were discarded (DISCARD ALL) prepares them again and writes the batch once`, async () => {
      await withStores(1, bounds, async ([store]) => {
        const pool = store!.pool;
        const before = Array.from({ length: rowsBefore }, (_, i) => `did:example:before-discard-${i}`);
        const first = await Promise.all(before.map((did) => store!.observations.record(observation(did))));
        expect(first.map((r) => r.outcome)).toEqual(before.map(() => 'stored'));
        const prepared = async (client: pg.PoolClient) =>
          (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'svc_observations_%'")).rows[0]!.n;
        // The store's one connection, as a pooler resetting it between clients would leave it.
        expect(pool.totalCount).toBe(1);
        const client = await pool.connect();
        expect(await prepared(client)).toBe(3);
        await client.query('DISCARD ALL');
        client.release();
        const recorded = await Promise.all([1, 2].map((i) => store!.observations.record(observation(`did:example:after-discard-${i}`))));
        expect(recorded.map((r) => r.outcome)).toEqual(['stored', 'stored']);
        const { rows } = await pool.query<{ did: string }>('SELECT did FROM observations ORDER BY id');
        expect(rows.map((r) => r.did)).toEqual([...before, 'did:example:after-discard-1', 'did:example:after-discard-2']);
        const again = await pool.connect();
        expect(await prepared(again)).toBe(3);
        again.release();
      });
    });
  }

  it('at most two batches are written at once: records submitted over many turns while both are busy go in later batches, every one written', async () => {
    await withStores(1, { maxObservations: 10_000 }, async ([store]) => {
      const pool = store!.pool;
      let open = 0;
      let most = 0;
      pool.on('acquire', () => {
        open += 1;
        most = Math.max(most, open);
      });
      pool.on('release', () => {
        open -= 1;
      });
      const pending: Array<Promise<unknown>> = [];
      // Records over 40 turns of the event loop, a few each.
      for (let turn = 0; turn < 40; turn++) {
        for (let i = 0; i < 3; i++) pending.push(store!.observations.record(observation(`did:example:turn-${turn}-${i}`)));
        await new Promise((resolve) => setImmediate(resolve));
      }
      const recorded = (await Promise.all(pending)) as Array<{ outcome: string }>;
      expect(recorded.every((r) => r.outcome === 'stored')).toBe(true);
      expect((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations')).rows[0]!.n).toBe(120);
      expect(most).toBeLessThanOrEqual(2);
    });
  });

  it('a record batch that is not a whole number of at least 1 is refused when the store opens', async () => {
    for (const recordBatch of [0, 1.5, -1]) await expect(openPostgresStore({ url: postgresUrl, recordBatch })).rejects.toThrow(/whole number, 1 or more/);
  });

  for (const [label, bounds] of [
    ['unbounded', {}],
    ['under a ceiling', { maxObservations: 1_000 }],
  ] as const) {
    it(`${label}: a failure of the batch rejects every record of it and writes none`, async () => {
      await withStores(1, bounds, async ([store]) => {
        // A binding status outside the column's CHECK fails the batch's statement.
        const bad = sampleObservation({ did: 'did:example:bad', domainBindingStatus: 'NOT-A-STATUS' as 'VERIFIED' });
        const settled = await Promise.allSettled([
          ...[1, 2, 3].map((i) => store!.observations.record(observation(`did:example:good-${i}`))),
          store!.observations.record(bad),
        ]);
        expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
        expect((await store!.pool.query('SELECT count(*)::int AS n FROM observations')).rows[0].n).toBe(0);
        // The store goes on: the next batch is written.
        expect((await store!.observations.record(observation('did:example:good-1'))).outcome).toBe('stored');
      });
    });
  }

  it("two daemons' batches over the same DIDs in opposite orders: no deadlock, each DID one row seen twice", async () => {
    await withStores(2, { maxObservations: 1_000 }, async ([a, b]) => {
      const dids = Array.from({ length: 30 }, (_, i) => `did:example:shared-${i}`);
      await Promise.all([
        ...dids.map((did) => a!.observations.record(observation(did))),
        ...[...dids].reverse().map((did) => b!.observations.record(observation(did))),
      ]);
      const { rows } = await a!.pool.query<{ n: number; seen: number }>(
        'SELECT count(*)::int AS n, min(seen_count)::int AS seen FROM observations GROUP BY did',
      );
      expect(rows).toHaveLength(30);
      expect(rows.every((r) => r.n === 1 && r.seen === 2)).toBe(true);
    });
  });

  it('MCP inventories recorded at once are one transaction, and a closing store writes what was submitted', async () => {
    await withStores(1, {}, async ([store]) => {
      const counts = countRoundTrips(store!.pool);
      const snapshot = (i: number) => ({
        endpoint: `https://mcp.example/${i}`,
        inventoryHash: 'b'.repeat(64),
        profile: 'p1',
        negotiatedVersion: '2025-06-18',
        observedAt: '2025-03-04T05:06:07Z',
        tools: [],
      });
      const recorded = await Promise.all([1, 2, 3, 1].map((i) => store!.mcpObservations.record(snapshot(i) as never)));
      expect(recorded.map((r) => r.outcome)).toEqual(['stored', 'stored', 'stored', 'coalesced']);
      expect(counts.checkouts).toBe(1);
      const { rows } = await store!.pool.query<{ n: number }>('SELECT count(DISTINCT xmin::text)::int AS n FROM mcp_observations');
      expect(rows[0]!.n).toBe(1);
      const pending = store!.observations.record(observation('did:example:at-close'));
      await store!.observations.drain();
      expect((await pending).outcome).toBe('stored');
    });
  });
});
