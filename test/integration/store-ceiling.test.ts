/**
 * The history tables' ceiling on real SQLite files (README "Bounded history", src/store/ceiling.ts):
 * at the ceiling a new row replaces the oldest one-off row (a DID seen exactly once, no other
 * row) or is refused, in the record's one IMMEDIATE transaction; coalescing still works; a store
 * without a ceiling (the CLI's) is unbounded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HASH_PROFILE } from '../../src/core/canonical.js';
import type { NewObservation } from '../../src/core/store.js';
import { inspectMcp } from '../../src/core/mcp/inspect.js';
import { openStore, type Store } from '../../src/store/index.js';
import { PLAIN_TOOLS, startSdk2Server } from '../support/mcp-servers.js';
import { sampleObservation, tempStore, type TempStore } from '../support/store.js';

let opened: TempStore[] = [];
afterEach(() => {
  for (const t of opened) t.cleanup();
  opened = [];
});

function bounded(maxObservations: number | undefined, extra: Parameters<typeof tempStore>[0] = {}): TempStore {
  const t = tempStore({ maxObservations, ...extra });
  opened.push(t);
  return t;
}

const hash = (n: number): string => n.toString(16).padStart(64, '0');
let clock = 0;
/** Observations in chronological order: each one a second after the previous. */
function obs(did: string, snapshot = 0, overrides: Partial<NewObservation> = {}): NewObservation {
  clock += 1;
  const observedAt = `${new Date(Date.UTC(2026, 0, 1) + clock * 1000).toISOString().slice(0, 19)}Z`;
  return sampleObservation({ did, documentHash: hash(snapshot), document: { id: did, snapshot }, observedAt, ...overrides });
}
const didOf = (name: string): string => `did:web:${name}.example`;

function dids(store: Store): string[] {
  return store.db.prepare<[], { did: string }>('SELECT did FROM observations ORDER BY id').all().map((r) => r.did);
}
function dump(store: Store): unknown {
  return {
    rows: store.db.prepare('SELECT * FROM observations ORDER BY id').all(),
    sequence: store.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'observations'").get(),
    changes: store.db.prepare('SELECT total_changes() AS n').get(),
  };
}

describe('observation ceiling', () => {
  it('below the ceiling a new row is stored; at it, the oldest one-off row is evicted for it', async () => {
    const { store } = bounded(3);
    expect(await store.observations.record(obs(didOf('a')))).toMatchObject({ outcome: 'stored', evicted: 0, row: { did: didOf('a') } });
    await store.observations.record(obs(didOf('b')));
    await store.observations.record(obs(didOf('c')));
    const recorded = await store.observations.record(obs(didOf('d')));
    expect(recorded).toMatchObject({ outcome: 'evicted', evicted: 1, row: { did: didOf('d'), seenCount: 1 } });
    expect(dids(store)).toEqual([didOf('b'), didOf('c'), didOf('d')]);
    expect(await store.observations.count(didOf('a'))).toBe(0);
    expect(store.observations.usage()).toEqual({ stored: 3, ceiling: 3, evicted: 1, refused: 0 });
  });

  it('a row seen twice, a DID with two rows and the DID being recorded are never evicted; the oldest one-off is', async () => {
    const { store } = bounded(5);
    await store.observations.record(obs(didOf('twice')));
    await store.observations.record(obs(didOf('twice'))); // coalesced: seenCount 2
    await store.observations.record(obs(didOf('changed'), 1));
    await store.observations.record(obs(didOf('changed'), 2)); // a second row: history
    await store.observations.record(obs(didOf('self'))); // the one-off whose DID is recorded next
    await store.observations.record(obs(didOf('oneoff'))); // evicted once 'self' changes
    expect(await store.observations.count(didOf('changed'))).toBe(2);
    expect(dids(store)).toHaveLength(5);
    expect(store.observations.usage().stored).toBe(5);

    // 'self' changes: its only row is its history now, so the next one-off goes instead.
    const changed = await store.observations.record(obs(didOf('self'), 9));
    expect(changed).toMatchObject({ outcome: 'evicted', evicted: 1, row: { did: didOf('self') } });
    expect(dids(store)).toEqual([didOf('twice'), didOf('changed'), didOf('changed'), didOf('self'), didOf('self')]);

    // Nothing left to evict: a new DID is refused, every row stays.
    const before = dump(store);
    expect(await store.observations.record(obs(didOf('new')))).toEqual({ outcome: 'refused', row: null, evicted: 0 });
    expect(dump(store)).toEqual(before);
    expect(await store.observations.list(didOf('twice'), 10)).toMatchObject([{ seenCount: 2 }]);
  });

  it("a DID's own one-off row, passed over when its change is refused, is the next other DID's victim", async () => {
    const { store } = bounded(3);
    await store.observations.record(obs(didOf('self')));
    await store.observations.record(obs(didOf('history'), 1));
    await store.observations.record(obs(didOf('history'), 2));
    // 'self' changes: its only row would become history, but nothing else is evictable.
    for (let i = 1; i <= 3; i++) expect((await store.observations.record(obs(didOf('self'), i))).outcome).toBe('refused');
    expect(await store.observations.list(didOf('self'), 10)).toMatchObject([{ documentHash: hash(0), seenCount: 1 }]);
    // Another DID takes its place: it is the oldest one-off row.
    expect(await store.observations.record(obs(didOf('new')))).toMatchObject({ outcome: 'evicted', evicted: 1 });
    expect(dids(store)).toEqual([didOf('history'), didOf('history'), didOf('new')]);
  });

  it('at the ceiling with nothing evictable the row is refused and the transaction writes nothing', async () => {
    const { store, path: file } = bounded(2);
    await store.observations.record(obs(didOf('x'), 1));
    await store.observations.record(obs(didOf('x'), 2));
    const before = dump(store);
    for (let i = 0; i < 3; i++) {
      expect(await store.observations.record(obs(didOf(`new${i}`)))).toEqual({ outcome: 'refused', row: null, evicted: 0 });
      // A changed snapshot of a stored DID is a new row too: refused as well.
      expect((await store.observations.record(obs(didOf('x'), 3 + i))).outcome).toBe('refused');
    }
    expect(store.db.inTransaction).toBe(false);
    expect(dump(store)).toEqual(before);
    expect(store.observations.usage()).toEqual({ stored: 2, ceiling: 2, evicted: 0, refused: 6 });
    // What another connection reads: the same two rows.
    const reader = openStore({ path: file });
    try {
      expect(reader.db.prepare('SELECT count(*) AS n FROM observations').get()).toEqual({ n: 2 });
    } finally {
      reader.close();
    }
  });

  it('coalescing at the ceiling still updates seenCount and lastSeenAt (no row is added)', async () => {
    const { store } = bounded(2);
    await store.observations.record(obs(didOf('x'), 1));
    await store.observations.record(obs(didOf('x'), 2));
    expect((await store.observations.record(obs(didOf('new')))).outcome).toBe('refused');
    const again = obs(didOf('x'), 2);
    const recorded = await store.observations.record(again);
    expect(recorded).toMatchObject({ outcome: 'coalesced', evicted: 0, row: { did: didOf('x'), seenCount: 2, lastSeenAt: again.observedAt } });
    expect(store.observations.usage()).toMatchObject({ stored: 2, refused: 1 });
  });

  it('the first refusal is reported once (the daemon logs it)', async () => {
    const calls: unknown[] = [];
    const { store } = bounded(1, { onFirstRefusal: (table, ceiling) => calls.push([table, ceiling]) });
    await store.observations.record(obs(didOf('x'), 1));
    await store.observations.record(obs(didOf('x'), 1));
    for (let i = 0; i < 4; i++) await store.observations.record(obs(didOf(`n${i}`)));
    expect(calls).toEqual([['observations', 1]]);
  });

  it('0 stores no new row, evicts nothing, and still coalesces', async () => {
    const t = bounded(undefined);
    await t.store.observations.record(obs(didOf('kept')));
    t.store.close();
    const store = openStore({ path: t.path, maxObservations: 0 });
    try {
      expect((await store.observations.record(obs(didOf('new')))).outcome).toBe('refused');
      expect((await store.observations.record(obs(didOf('kept')))).outcome).toBe('coalesced');
      expect(dids(store)).toEqual([didOf('kept')]);
    } finally {
      store.close();
    }
  });

  it('without a ceiling (the CLI) nothing is evicted or refused', async () => {
    const { store } = bounded(undefined);
    for (let i = 0; i < 50; i++) expect((await store.observations.record(obs(didOf(`d${i}`)))).outcome).toBe('stored');
    expect(store.observations.usage()).toEqual({ stored: 50, ceiling: null, evicted: 0, refused: 0 });
  });

  it('a lowered ceiling is reached gradually: each new row evicts up to two one-off rows', async () => {
    const t = bounded(undefined);
    for (let i = 0; i < 6; i++) await t.store.observations.record(obs(didOf(`old${i}`)));
    t.store.close();
    const store = openStore({ path: t.path, maxObservations: 3 });
    try {
      const counts: number[] = [];
      for (let i = 0; i < 4; i++) {
        expect((await store.observations.record(obs(didOf(`new${i}`)))).evicted).toBe(i < 3 ? 2 : 1);
        counts.push(store.observations.usage().stored);
      }
      expect(counts).toEqual([5, 4, 3, 3]);
      // Oldest first: every old row went before any new one.
      expect(dids(store)).toEqual([didOf('new1'), didOf('new2'), didOf('new3')]);
    } finally {
      store.close();
    }
  });

  it('rows another connection wrote meanwhile are counted (a CLI writing to the same file)', async () => {
    const { store, path: file } = bounded(4);
    await store.observations.record(obs(didOf('a')));
    const cli = openStore({ path: file });
    try {
      for (const name of ['b', 'c', 'd']) await cli.observations.record(obs(didOf(name)));
    } finally {
      cli.close();
    }
    expect(await store.observations.record(obs(didOf('e')))).toMatchObject({ outcome: 'evicted', evicted: 1 });
    expect(dids(store)).toEqual([didOf('b'), didOf('c'), didOf('d'), didOf('e')]);
  });

  it('a failed write rolls back whole and leaves the ceiling exact', async () => {
    const { store } = bounded(2);
    await store.observations.record(obs(didOf('a')));
    await store.observations.record(obs(didOf('b')));
    const before = dump(store);
    // json_valid() refuses the document: the insert fails after the eviction, which rolls back.
    const broken = { ...obs(didOf('c')), document: { id: didOf('c') } };
    const original = JSON.stringify;
    JSON.stringify = ((value: unknown, ...rest: unknown[]) =>
      value === broken.document ? '{not json' : (original as (...a: unknown[]) => string)(value, ...rest)) as typeof JSON.stringify;
    try {
      await expect(store.observations.record(broken)).rejects.toThrow();
    } finally {
      JSON.stringify = original;
    }
    expect(dump(store)).toMatchObject({ rows: (before as { rows: unknown }).rows });
    expect(await store.observations.record(obs(didOf('c')))).toMatchObject({ outcome: 'evicted', evicted: 1 });
    expect(dids(store)).toEqual([didOf('b'), didOf('c')]);
    expect(store.observations.usage()).toEqual({ stored: 2, ceiling: 2, evicted: 1, refused: 0 });
  });

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
    const started = performance.now();
    // The oldest row is the only one-off, and its own DID changes again and again: its row
    // cannot make room for it (that would erase the change), so each change is refused.
    for (let i = 0; i < 500; i++) expect((await store.observations.record(obs(didOf('self'), 10 + i))).outcome).toBe('refused');
    // New DIDs: the first takes the place of that row, each next one that of the one before.
    for (let i = 0; i < 500; i++) expect(await store.observations.record(obs(didOf(`n${i}`)))).toMatchObject({ outcome: 'evicted', evicted: 1 });
    for (let i = 0; i < 500; i++) expect((await store.observations.record(obs(didOf('n499'), 10 + i))).outcome).toBe('refused');
    expect(await store.observations.count(didOf('self'))).toBe(0);
    // One pass over the rows (the first refusal), then only the rows added since: ~0.15 s here.
    // Reading the 2,000 rows again on each refusal of one of the three series takes over 0.6 s.
    expect(performance.now() - started).toBeLessThan(450);
  });

  it('a bad ceiling is refused when the store is built', () => {
    const t = bounded(undefined);
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => openStore({ path: t.path, maxObservations: bad })).toThrow(/whole number/);
  });
});

describe('MCP inventory ceiling', () => {
  const snapshot = (endpoint: string, inventory = 1) => ({
    endpoint,
    inventoryHash: hash(inventory),
    profile: HASH_PROFILE,
    negotiatedVersion: '2026-07-28',
    observedAt: '2026-01-01T00:00:00Z',
    tools: [],
  });
  const endpoints = (store: Store): string[] =>
    store.db.prepare<[], { endpoint: string }>('SELECT endpoint FROM mcp_observations ORDER BY id').all().map((r) => r.endpoint);

  it('evicts the oldest one-off endpoint, keeps an endpoint with drift history, refuses when nothing is evictable', async () => {
    const { store } = bounded(undefined, { maxMcpObservations: 3 });
    const mcp = store.mcpObservations;
    await mcp.record(snapshot('https://a.example/mcp', 1));
    await mcp.record(snapshot('https://a.example/mcp', 2));
    await mcp.record(snapshot('https://b.example/mcp'));
    expect(await mcp.record(snapshot('https://c.example/mcp'))).toMatchObject({ outcome: 'evicted', evicted: 1 });
    expect(endpoints(store)).toEqual(['https://a.example/mcp', 'https://a.example/mcp', 'https://c.example/mcp']);
    expect((await mcp.record(snapshot('https://c.example/mcp'))).outcome).toBe('coalesced');
    expect(await mcp.record(snapshot('https://d.example/mcp'))).toEqual({ outcome: 'refused', row: null, evicted: 0 });
    expect(mcp.usage()).toEqual({ stored: 3, ceiling: 3, evicted: 1, refused: 1 });
    // The observation table has its own ceiling (unbounded here).
    expect(store.observations.usage().ceiling).toBeNull();
  });

  it('an inspection refused at the ceiling is still an answer: historyPersistence WARN, nothing stored', async () => {
    const server = await startSdk2Server({ tools: PLAIN_TOOLS });
    try {
      const { store } = bounded(undefined, { maxMcpObservations: 0 });
      const runtime = server.host.runtime();
      runtime.store = store;
      const result = await inspectMcp(server.url, { runtime });
      expect(result.status).toBe('INSPECTED');
      expect(result.checks.find((c) => c.id === 'historyPersistence')).toMatchObject({
        status: 'WARN',
        detail: "Not stored: the inventory history is at this service's ceiling; the next comparison may use an older snapshot.",
      });
      expect(store.mcpObservations.usage()).toEqual({ stored: 0, ceiling: 0, evicted: 0, refused: 1 });
    } finally {
      await server.close();
    }
  });
});
