/**
 * The history tables' ceiling (docs/operations.md#bounded-history, src/store/schema/ceiling.ts) on
 * both engines: real SQLite files and a real PostgreSQL server (a schema of its own per test:
 * migrated once, emptied between tests — test/support/pg-schemas.ts). At the ceiling a new row
 * replaces the oldest one-off row (a DID seen exactly once, no other row) or is refused, in the
 * record's one transaction; coalescing still works; a store without a ceiling (the CLI's) is
 * unbounded. On PostgreSQL the ceiling holds across several daemons on one database: two stores
 * (pools) recording at once never exceed it, and the count is the database's own (a row written or
 * deleted by another writer is counted). SQLite-only checks follow (cost at the ceiling, the group
 * commit's connection).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { HASH_PROFILE } from '../../src/core/canonical.js';
import type { McpObservationStore, NewObservation, ObservationStore } from '../../src/core/store.js';
import { inspectMcp } from '../../src/core/mcp/inspect.js';
import type { RowUsage } from '../../src/store/schema/ceiling.js';
import { openStore, type OpenStoreOptions, type Store } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { PLAIN_TOOLS, startSdk2Server } from '../support/mcp-servers.js';
import { schemaPool } from '../support/pg-schemas.js';
import { describePostgres, postgresUrl } from '../support/postgres.js';
import { sampleObservation, tempDir, tempStore, type TempStore } from '../support/store.js';

/** Migrated schemas, emptied and reused from test to test (each test still starts on an empty database). */
const schemas = schemaPool();
afterAll(() => schemas.dispose());

type Bounds = Pick<OpenStoreOptions, 'maxObservations' | 'maxMcpObservations' | 'onFirstRefusal'>;

/** One store open on a database, as one daemon (or CLI) holds it. */
interface Opened {
  observations: ObservationStore & { usage(): RowUsage | Promise<RowUsage> };
  mcpObservations: McpObservationStore & { usage(): RowUsage | Promise<RowUsage> };
  close(): Promise<void>;
}

/** A fresh database of one engine: stores opened on it (each its own connection or pool) and raw SQL. */
interface Database {
  open(bounds?: Bounds): Promise<Opened>;
  rows<T = Record<string, unknown>>(statement: string): Promise<T[]>;
  done(): Promise<void>;
}

interface Engine {
  name: string;
  describe: (name: string, fn: () => void) => void;
  fresh(): Promise<Database>;
}

const ENGINES: Engine[] = [
  {
    name: 'SQLite',
    describe,
    async fresh() {
      const { dir, cleanup } = tempDir('svc-ceiling-');
      const file = `${dir}/svc.db`;
      const opened: Store[] = [];
      let reader: Store | undefined;
      return {
        async open(bounds = {}) {
          const store = openStore({ path: file, ...bounds });
          opened.push(store);
          return { observations: store.observations, mcpObservations: store.mcpObservations, close: async () => store.close() };
        },
        // A connection of its own, as another process reading the file.
        rows: async <T>(statement: string) => (reader ??= openStore({ path: file })).db.prepare(statement).all() as T[],
        async done() {
          for (const store of opened) store.close();
          reader?.close();
          cleanup();
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    describe: describePostgres,
    async fresh() {
      const { schema, drop } = await schemas.take();
      const pools: Array<{ close(): Promise<void> }> = [];
      const raw = new pg.Pool({ connectionString: postgresUrl, max: 2, options: `-c search_path=${schema}` });
      return {
        async open(bounds = {}) {
          const store = await openPostgresStore({ url: postgresUrl, schema, ...bounds });
          const closing = { close: () => store.close() };
          pools.push(closing);
          return { observations: store.observations, mcpObservations: store.mcpObservations, close: closing.close };
        },
        rows: async <T>(statement: string) => (await raw.query(statement)).rows as T[],
        async done() {
          for (const p of pools) await p.close();
          await raw.end();
          await drop();
        },
      };
    },
  },
];

const hash = (n: number): string => n.toString(16).padStart(64, '0');
let clock = 0;
/** Observations in chronological order: each one a second after the previous. */
function obs(did: string, snapshot = 0, overrides: Partial<NewObservation> = {}): NewObservation {
  clock += 1;
  const observedAt = `${new Date(Date.UTC(2026, 0, 1) + clock * 1000).toISOString().slice(0, 19)}Z`;
  return sampleObservation({ did, documentHash: hash(snapshot), document: { id: did, snapshot }, observedAt, ...overrides });
}
const didOf = (name: string): string => `did:web:${name}.example`;

const snapshot = (endpoint: string, inventory = 1) => ({
  endpoint,
  inventoryHash: hash(inventory),
  profile: HASH_PROFILE,
  negotiatedVersion: '2026-07-28',
  observedAt: '2026-01-01T00:00:00Z',
  tools: [],
});

let databases: Database[] = [];
afterEach(async () => {
  for (const d of databases) await d.done();
  databases = [];
});

for (const engine of ENGINES) {
  engine.describe(`observation ceiling: ${engine.name}`, () => {
    let db: Database;
    async function bounded(maxObservations: number | undefined, extra: Bounds = {}): Promise<Opened> {
      db = await engine.fresh();
      databases.push(db);
      return db.open({ maxObservations, ...extra });
    }
    const dids = async (): Promise<string[]> => (await db.rows<{ did: string }>('SELECT did FROM observations ORDER BY id')).map((r) => r.did);
    const dump = () => db.rows('SELECT * FROM observations ORDER BY id');

    it('below the ceiling a new row is stored; at it, the oldest one-off row is evicted for it', async () => {
      const store = await bounded(3);
      expect(await store.observations.record(obs(didOf('a')))).toMatchObject({ outcome: 'stored', evicted: 0, row: { did: didOf('a') } });
      await store.observations.record(obs(didOf('b')));
      await store.observations.record(obs(didOf('c')));
      const recorded = await store.observations.record(obs(didOf('d')));
      expect(recorded).toMatchObject({ outcome: 'evicted', evicted: 1, row: { did: didOf('d'), seenCount: 1 } });
      expect(await dids()).toEqual([didOf('b'), didOf('c'), didOf('d')]);
      expect(await store.observations.count(didOf('a'))).toBe(0);
      expect(await store.observations.usage()).toEqual({ stored: 3, ceiling: 3, evicted: 1, refused: 0 });
    });

    it('a row seen twice, a DID with two rows and the DID being recorded are never evicted; the oldest one-off is', async () => {
      const store = await bounded(5);
      await store.observations.record(obs(didOf('twice')));
      await store.observations.record(obs(didOf('twice'))); // coalesced: seenCount 2
      await store.observations.record(obs(didOf('changed'), 1));
      await store.observations.record(obs(didOf('changed'), 2)); // a second row: history
      await store.observations.record(obs(didOf('self'))); // the one-off whose DID is recorded next
      await store.observations.record(obs(didOf('oneoff'))); // evicted once 'self' changes
      expect(await store.observations.count(didOf('changed'))).toBe(2);
      expect(await dids()).toHaveLength(5);
      expect((await store.observations.usage()).stored).toBe(5);

      // 'self' changes: its only row is its history now, so the next one-off goes instead.
      const changed = await store.observations.record(obs(didOf('self'), 9));
      expect(changed).toMatchObject({ outcome: 'evicted', evicted: 1, row: { did: didOf('self') } });
      expect(await dids()).toEqual([didOf('twice'), didOf('changed'), didOf('changed'), didOf('self'), didOf('self')]);

      // Nothing left to evict: a new DID is refused, every row stays.
      const before = await dump();
      expect(await store.observations.record(obs(didOf('new')))).toEqual({ outcome: 'refused', row: null, evicted: 0 });
      expect(await dump()).toEqual(before);
      expect(await store.observations.list(didOf('twice'), 10)).toMatchObject([{ seenCount: 2 }]);
    });

    it("a DID's own one-off row, passed over when its change is refused, is the next other DID's victim", async () => {
      const store = await bounded(3);
      await store.observations.record(obs(didOf('self')));
      await store.observations.record(obs(didOf('history'), 1));
      await store.observations.record(obs(didOf('history'), 2));
      // 'self' changes: its only row would become history, but nothing else is evictable.
      for (let i = 1; i <= 3; i++) expect((await store.observations.record(obs(didOf('self'), i))).outcome).toBe('refused');
      expect(await store.observations.list(didOf('self'), 10)).toMatchObject([{ documentHash: hash(0), seenCount: 1 }]);
      // Another DID takes its place: it is the oldest one-off row.
      expect(await store.observations.record(obs(didOf('new')))).toMatchObject({ outcome: 'evicted', evicted: 1 });
      expect(await dids()).toEqual([didOf('history'), didOf('history'), didOf('new')]);
    });

    it('at the ceiling with nothing evictable the row is refused and the transaction writes nothing', async () => {
      const store = await bounded(2);
      await store.observations.record(obs(didOf('x'), 1));
      await store.observations.record(obs(didOf('x'), 2));
      const before = await dump();
      for (let i = 0; i < 3; i++) {
        expect(await store.observations.record(obs(didOf(`new${i}`)))).toEqual({ outcome: 'refused', row: null, evicted: 0 });
        // A changed snapshot of a stored DID is a new row too: refused as well.
        expect((await store.observations.record(obs(didOf('x'), 3 + i))).outcome).toBe('refused');
      }
      expect(await dump()).toEqual(before);
      expect(await store.observations.usage()).toEqual({ stored: 2, ceiling: 2, evicted: 0, refused: 6 });
      // What another connection reads: the same two rows.
      expect(await db.rows('SELECT count(*) AS n FROM observations')).toEqual([{ n: engine.name === 'SQLite' ? 2 : '2' }]);
    });

    it('coalescing at the ceiling still updates seenCount and lastSeenAt (no row is added)', async () => {
      const store = await bounded(2);
      await store.observations.record(obs(didOf('x'), 1));
      await store.observations.record(obs(didOf('x'), 2));
      expect((await store.observations.record(obs(didOf('new')))).outcome).toBe('refused');
      const again = obs(didOf('x'), 2);
      const recorded = await store.observations.record(again);
      expect(recorded).toMatchObject({ outcome: 'coalesced', evicted: 0, row: { did: didOf('x'), seenCount: 2, lastSeenAt: again.observedAt } });
      expect(await store.observations.usage()).toMatchObject({ stored: 2, refused: 1 });
    });

    it('the first refusal is reported once (the daemon logs it)', async () => {
      const calls: unknown[] = [];
      const store = await bounded(1, { onFirstRefusal: (table, ceiling) => calls.push([table, ceiling]) });
      await store.observations.record(obs(didOf('x'), 1));
      await store.observations.record(obs(didOf('x'), 1));
      for (let i = 0; i < 4; i++) await store.observations.record(obs(didOf(`n${i}`)));
      expect(calls).toEqual([['observations', 1]]);
    });

    it('0 stores no new row, evicts nothing, and still coalesces', async () => {
      const cli = await bounded(undefined);
      await cli.observations.record(obs(didOf('kept')));
      await cli.close();
      const store = await db.open({ maxObservations: 0 });
      expect((await store.observations.record(obs(didOf('new')))).outcome).toBe('refused');
      expect((await store.observations.record(obs(didOf('kept')))).outcome).toBe('coalesced');
      expect(await dids()).toEqual([didOf('kept')]);
    });

    it('without a ceiling (the CLI) nothing is evicted or refused', async () => {
      const store = await bounded(undefined);
      for (let i = 0; i < 50; i++) expect((await store.observations.record(obs(didOf(`d${i}`)))).outcome).toBe('stored');
      expect(await store.observations.usage()).toEqual({ stored: 50, ceiling: null, evicted: 0, refused: 0 });
    });

    it('a lowered ceiling is reached gradually: each new row evicts up to two one-off rows', async () => {
      const cli = await bounded(undefined);
      for (let i = 0; i < 6; i++) await cli.observations.record(obs(didOf(`old${i}`)));
      await cli.close();
      const store = await db.open({ maxObservations: 3 });
      const counts: number[] = [];
      for (let i = 0; i < 4; i++) {
        expect((await store.observations.record(obs(didOf(`new${i}`)))).evicted).toBe(i < 3 ? 2 : 1);
        counts.push((await store.observations.usage()).stored);
      }
      expect(counts).toEqual([5, 4, 3, 3]);
      // Oldest first: every old row went before any new one.
      expect(await dids()).toEqual([didOf('new1'), didOf('new2'), didOf('new3')]);
    });

    it('rows another connection wrote meanwhile are counted (a CLI writing to the same database)', async () => {
      const store = await bounded(4);
      await store.observations.record(obs(didOf('a')));
      const cli = await db.open();
      for (const name of ['b', 'c', 'd']) await cli.observations.record(obs(didOf(name)));
      await cli.close();
      expect(await store.observations.record(obs(didOf('e')))).toMatchObject({ outcome: 'evicted', evicted: 1 });
      expect(await dids()).toEqual([didOf('b'), didOf('c'), didOf('d'), didOf('e')]);
    });

    it('a failed write rolls back whole and leaves the ceiling exact', async () => {
      const store = await bounded(2);
      await store.observations.record(obs(didOf('a')));
      await store.observations.record(obs(didOf('b')));
      const before = await dump();
      // The JSON check refuses the document: the insert fails after the eviction, which rolls back.
      const broken = { ...obs(didOf('c')), document: { id: didOf('c') } };
      const original = JSON.stringify;
      JSON.stringify = ((value: unknown, ...rest: unknown[]) =>
        value === broken.document ? '{not json' : (original as (...a: unknown[]) => string)(value, ...rest)) as typeof JSON.stringify;
      try {
        await expect(store.observations.record(broken)).rejects.toThrow();
      } finally {
        JSON.stringify = original;
      }
      expect(await dump()).toEqual(before);
      expect(await store.observations.record(obs(didOf('c')))).toMatchObject({ outcome: 'evicted', evicted: 1 });
      expect(await dids()).toEqual([didOf('b'), didOf('c')]);
      expect(await store.observations.usage()).toEqual({ stored: 2, ceiling: 2, evicted: 1, refused: 0 });
    });

    it('a bad ceiling is refused when the store is opened', async () => {
      db = await engine.fresh();
      databases.push(db);
      for (const bad of [-1, 1.5, Number.NaN]) await expect(db.open({ maxObservations: bad })).rejects.toThrow(/whole number/);
    });
  });

  engine.describe(`MCP inventory ceiling: ${engine.name}`, () => {
    it('evicts the oldest one-off endpoint, keeps an endpoint with drift history, refuses when nothing is evictable', async () => {
      const db = await engine.fresh();
      databases.push(db);
      const store = await db.open({ maxMcpObservations: 3 });
      const endpoints = async () => (await db.rows<{ endpoint: string }>('SELECT endpoint FROM mcp_observations ORDER BY id')).map((r) => r.endpoint);
      const mcp = store.mcpObservations;
      await mcp.record(snapshot('https://a.example/mcp', 1));
      await mcp.record(snapshot('https://a.example/mcp', 2));
      await mcp.record(snapshot('https://b.example/mcp'));
      expect(await mcp.record(snapshot('https://c.example/mcp'))).toMatchObject({ outcome: 'evicted', evicted: 1 });
      expect(await endpoints()).toEqual(['https://a.example/mcp', 'https://a.example/mcp', 'https://c.example/mcp']);
      expect((await mcp.record(snapshot('https://c.example/mcp'))).outcome).toBe('coalesced');
      expect(await mcp.record(snapshot('https://d.example/mcp'))).toEqual({ outcome: 'refused', row: null, evicted: 0 });
      expect(await mcp.usage()).toEqual({ stored: 3, ceiling: 3, evicted: 1, refused: 1 });
      // The observation table has its own ceiling (unbounded here).
      expect((await store.observations.usage()).ceiling).toBeNull();
    });

    it('an inspection refused at the ceiling is still an answer: historyPersistence WARN, nothing stored', async () => {
      const server = await startSdk2Server({ tools: PLAIN_TOOLS });
      try {
        const db = await engine.fresh();
        databases.push(db);
        const store = await db.open({ maxMcpObservations: 0 });
        const runtime = server.host.runtime();
        runtime.store = store as unknown as typeof runtime.store;
        const result = await inspectMcp(server.url, { runtime });
        expect(result.status).toBe('INSPECTED');
        expect(result.checks.find((c) => c.id === 'historyPersistence')).toMatchObject({
          status: 'WARN',
          detail: "Not stored: the inventory history is at this service's ceiling; the next comparison may use an older snapshot.",
        });
        expect(await store.mcpObservations.usage()).toEqual({ stored: 0, ceiling: 0, evicted: 0, refused: 1 });
      } finally {
        await server.close();
      }
    });
  });
}

describePostgres('PostgreSQL: one ceiling across daemons', () => {
  let db: Database;
  const dids = async (): Promise<string[]> => (await db.rows<{ did: string }>('SELECT did FROM observations ORDER BY id')).map((r) => r.did);
  it('two daemons (pools) recording new DIDs at once never exceed the ceiling, and evict only one-off rows', async () => {
    const db = await ENGINES[1]!.fresh();
    databases.push(db);
    const [a, b] = await Promise.all([db.open({ maxObservations: 20 }), db.open({ maxObservations: 20 })]);
    // History neither may evict: 5 DIDs with two rows each.
    for (let i = 0; i < 5; i++) for (const n of [1, 2]) await a.observations.record(obs(didOf(`h${i}`), n));
    const counts: number[] = [];
    const watcher = (async () => {
      for (let i = 0; i < 40; i++) counts.push(Number((await db.rows<{ n: string }>('SELECT count(*) AS n FROM observations'))[0]!.n));
    })();
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).observations.record(obs(didOf(`n${i}`)))));
    await watcher;
    counts.push(Number((await db.rows<{ n: string }>('SELECT count(*) AS n FROM observations'))[0]!.n));
    expect(Math.max(...counts)).toBeLessThanOrEqual(20);
    expect(counts.at(-1)).toBe(20);
    expect(outcomes.every((o) => o.outcome === 'stored' || o.outcome === 'evicted')).toBe(true);
    // Every history row is still there.
    for (let i = 0; i < 5; i++) expect(await a.observations.count(didOf(`h${i}`))).toBe(2);
    const [ua, ub] = await Promise.all([a.observations.usage(), b.observations.usage()]);
    expect(ua.stored).toBe(20);
    expect(ua.evicted + ub.evicted).toBe(50);
  });

  it('at a full ceiling of history, concurrent new rows from both daemons are all refused', async () => {
    const db = await ENGINES[1]!.fresh();
    databases.push(db);
    const [a, b] = await Promise.all([db.open({ maxObservations: 6 }), db.open({ maxObservations: 6 })]);
    for (let i = 0; i < 3; i++) for (const n of [1, 2]) await a.observations.record(obs(didOf(`h${i}`), n));
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).observations.record(obs(didOf(`n${i}`)))));
    expect(outcomes.map((o) => o.outcome)).toEqual(Array(30).fill('refused'));
    expect(await db.rows('SELECT count(*)::int AS n FROM observations')).toEqual([{ n: 6 }]);
  });

  it('the MCP ceiling holds across daemons too', async () => {
    const db = await ENGINES[1]!.fresh();
    databases.push(db);
    const [a, b] = await Promise.all([db.open({ maxMcpObservations: 5 }), db.open({ maxMcpObservations: 5 })]);
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).mcpObservations.record(snapshot(`https://m${i}.example/mcp`))));
    expect(await db.rows('SELECT count(*)::int AS n FROM mcp_observations')).toEqual([{ n: 5 }]);
  });

  it("the count is the database's own: rows deleted by hand or written by an older writer are counted exactly", async () => {
    const db = await ENGINES[1]!.fresh();
    databases.push(db);
    const store = await db.open({ maxObservations: 3 });
    for (const name of ['a', 'b', 'c']) await store.observations.record(obs(didOf(name)));
    // An operator prunes by hand: room for two new rows without any eviction.
    await db.rows(`DELETE FROM observations WHERE did IN ('${didOf('a')}', '${didOf('b')}')`);
    expect(await store.observations.record(obs(didOf('d')))).toMatchObject({ outcome: 'stored' });
    expect(await store.observations.record(obs(didOf('e')))).toMatchObject({ outcome: 'stored' });
    expect(await store.observations.record(obs(didOf('f')))).toMatchObject({ outcome: 'evicted', evicted: 1 });
    // A row inserted by plain SQL (no svc code at all) is counted too.
    await db.rows(`INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, latency_ms, resolver_version, summary)
      VALUES ('${didOf('sql')}', '${hash(1)}', '{}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1, '0.1.0', 'Resolved')`);
    expect(await store.observations.usage()).toMatchObject({ stored: 4, ceiling: 3 });
    // Over the ceiling: the next new row replaces two one-off rows.
    expect(await store.observations.record(obs(didOf('g')))).toMatchObject({ outcome: 'evicted', evicted: 2 });
    expect(await db.rows('SELECT count(*)::int AS n FROM observations')).toEqual([{ n: 3 }]);
    // The table emptied at once: the count follows.
    await db.rows('TRUNCATE observations');
    expect(await store.observations.usage()).toMatchObject({ stored: 0 });
  });

  it('a one-off row another transaction holds is passed over, never waited for (no lock cycle with a hand-made DELETE)', async () => {
    db = await ENGINES[1]!.fresh();
    databases.push(db);
    const store = await db.open({ maxObservations: 3 });
    for (const name of ['a', 'b', 'c']) await store.observations.record(obs(didOf(name)));
    // Another session deletes the oldest row by hand and has not committed: it holds the row,
    // and its trigger will want the count the recorder holds.
    const other = new pg.Client({
      connectionString: postgresUrl,
      options: `-c search_path=${(await db.rows<{ s: string }>('SELECT current_schema() AS s'))[0]!.s}`,
    });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT id FROM observations WHERE did = '${didOf('a')}' FOR UPDATE`);
      expect(await store.observations.record(obs(didOf('d')))).toMatchObject({ outcome: 'evicted', evicted: 1 });
      await other.query('ROLLBACK');
    } finally {
      await other.end();
    }
    expect(await dids()).toEqual([didOf('a'), didOf('c'), didOf('d')]);
  });

  it('a database whose rows predate the count is counted when a daemon first opens it', async () => {
    const db = await ENGINES[1]!.fresh();
    databases.push(db);
    const cli = await db.open();
    for (let i = 0; i < 4; i++) await cli.observations.record(obs(didOf(`old${i}`)));
    // As a database from before the count: no triggers, no count.
    await db.rows(
      'DROP TRIGGER svc_count_added ON observations; DROP TRIGGER svc_count_removed ON observations; DROP TRIGGER svc_count_truncated ON observations; DROP TABLE svc_row_counts',
    );
    const store = await db.open({ maxObservations: 4 });
    expect(await store.observations.usage()).toMatchObject({ stored: 4 });
    expect(await store.observations.record(obs(didOf('new')))).toMatchObject({ outcome: 'evicted', evicted: 1 });
  });
});

describe('SQLite only', () => {
  let opened: TempStore[] = [];
  afterEach(() => {
    for (const t of opened) t.cleanup();
    opened = [];
  });
  /**
   * Counts the rows the ceiling's one-off scans walk over (from their watermark to the row they
   * find, or to the last row): the work a refusal costs, counted rather than timed. Set before
   * the repositories are built (on first use), so their statements are the counted ones.
   */
  function rowsWalkedByOneOffScans(db: Store['db']): () => number {
    let walked = 0;
    const prepare = db.prepare.bind(db);
    const maxId = prepare('SELECT max(id) FROM observations').pluck();
    db.prepare = ((sql: string) => {
      const statement = prepare(sql);
      if (!/^SELECT o\.id AS v FROM observations o WHERE o\.id >/.test(sql)) return statement;
      const counted = statement.pluck();
      const get = counted.get.bind(counted);
      counted.pluck = () => counted;
      counted.get = ((from: number, ...rest: unknown[]) => {
        const found = get(from, ...rest) as number | undefined;
        walked += (found ?? (maxId.get() as number)) - from;
        return found;
      }) as typeof counted.get;
      return counted;
    }) as typeof db.prepare;
    return () => walked;
  }

  function bounded(maxObservations: number | undefined, extra: Parameters<typeof tempStore>[0] = {}): TempStore {
    const t = tempStore({ maxObservations, ...extra });
    opened.push(t);
    return t;
  }

  it('stays cheap at the ceiling: refusals among 2,000 large rows do not read them again each time', async () => {
    const { store } = bounded(2_001);
    const big = JSON.stringify({ big: 'x'.repeat(40_000) });
    const insert = store.db.prepare(
      `INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, latency_ms, resolver_version, summary)
       VALUES (?, ?, ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1, '0.1.0', 'Resolved')`,
    );
    store.db.transaction(() => {
      insert.run(didOf('self'), hash(0), big);
      for (let i = 0; i < 1_000; i++) for (const n of [1, 2]) insert.run(didOf(`h${i}`), hash(n), big);
    })();
    const walked = rowsWalkedByOneOffScans(store.db);
    // The oldest row is the only one-off, and its own DID changes again and again: its row
    // cannot make room for it (that would erase the change), so each change is refused.
    for (let i = 0; i < 500; i++) expect((await store.observations.record(obs(didOf('self'), 10 + i))).outcome).toBe('refused');
    // New DIDs: the first takes the place of that row, each next one that of the one before.
    for (let i = 0; i < 500; i++) expect(await store.observations.record(obs(didOf(`n${i}`)))).toMatchObject({ outcome: 'evicted', evicted: 1 });
    for (let i = 0; i < 500; i++) expect((await store.observations.record(obs(didOf('n499'), 10 + i))).outcome).toBe('refused');
    expect(await store.observations.count(didOf('self'))).toBe(0);
    // One pass over the rows (the first refusal), then only the rows added since: about 2,000 +
    // 1,500 rows in all. Reading the 2,000 rows again on each refusal of one of the three series
    // would walk over a million.
    expect(walked()).toBeLessThan(10_000);
  });

  it('a bad ceiling is refused when the store is built', () => {
    const t = bounded(undefined);
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => openStore({ path: t.path, maxObservations: bad })).toThrow(/whole number/);
  });
});
