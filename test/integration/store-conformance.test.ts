/**
 * One conformance suite for every storage backend: the repositories of src/core/store.ts on the
 * embedded SQLite file and on a real PostgreSQL server (a schema of its own per suite), held to
 * the same behaviour — coalescing, ordering, limits, documents read back as written, upserts,
 * expiry, concurrent recorders, the watch limit under concurrent adds, delivery gauges. The PostgreSQL half skips with a visible message where no
 * server answers, and fails under CI=true (CI here has one). PostgreSQL-only checks follow:
 * migrations, two daemons migrating at once, a future schema, an unreachable server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DidDocument } from '../../src/core/resolve/types.js';
import type { DeliveryStatus, MonitorEventType, NewMcpSnapshot, NewObservation, NewWatch, RuntimeStore, StoredDelegationChain, Watch } from '../../src/core/store.js';
import { openStore, SCHEMA_VERSION, StoreError } from '../../src/store/index.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { describePostgres, freshSchema, postgresUrl } from '../support/postgres.js';

interface Backend {
  name: string;
  describe: (name: string, fn: () => void) => void;
  open(): Promise<{ store: RuntimeStore; close(): Promise<void>; sql(statement: string): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'SQLite',
    describe,
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-'));
      const store = openStore({ path: path.join(dir, 'svc.db') });
      return {
        store,
        close: async () => {
          store.close();
          rmSync(dir, { recursive: true, force: true });
        },
        sql: async (statement) => {
          store.db.exec(statement);
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    describe: describePostgres,
    async open() {
      const { schema, drop } = freshSchema();
      const store = await openPostgresStore({ url: postgresUrl, schema });
      return {
        store,
        close: async () => {
          await store.close();
          await drop();
        },
        sql: async (statement) => {
          await store.pool.query(statement);
        },
      };
    },
  },
];

const DID = 'did:web:conformance.example';

function documentOf(n: number): DidDocument {
  // Members in a deliberate, non-sorted order: a backend must give the text back as written.
  return { id: DID, '@context': ['https://www.w3.org/ns/did/v1'], verificationMethod: [{ id: `${DID}#k${n}`, type: 'Multikey', controller: DID, publicKeyMultibase: `z6Mk${n}` }] } as DidDocument;
}

function observation(n: number, observedAt: string, extra: Partial<NewObservation> = {}): NewObservation {
  return {
    did: DID,
    documentHash: `${String(n).padStart(2, '0')}`.repeat(32),
    document: documentOf(n),
    observedAt,
    latencyMs: 12.5,
    resolverVersion: '1.0.0',
    domainBindingStatus: 'VERIFIED',
    summary: `document ${n}`,
    ...extra,
  };
}

function chain(id: string, leafDid: string, expiresAt: string, registeredAt: string): StoredDelegationChain {
  return { id, chain: [`${id}.a.b`, `${id}.c.d`], rootDid: 'did:key:root', leafDid, expiresAt, registeredAt };
}

function snapshot(hash: string, observedAt: string, extra: Partial<NewMcpSnapshot> = {}): NewMcpSnapshot {
  return {
    endpoint: 'https://mcp.example/mcp',
    inventoryHash: hash,
    profile: 'rfc8785-binary64-v1',
    negotiatedVersion: '2025-11-25',
    observedAt,
    tools: [{ name: 'search', definitionSha256: 'ab'.repeat(32), definition: { name: 'search', description: 'Searches.' } }],
    ...extra,
  };
}

const SECRET = 'whsec_conformance_never_listed_4f1c';

function newWatch(n: number, extra: Partial<NewWatch> = {}): NewWatch {
  return {
    did: `did:web:watched-${n}.example`,
    webhookUrl: `https://hooks.example/svc/${n}?token=t${n}`,
    secret: SECRET,
    intervalSeconds: 300,
    createdAt: `2026-03-01T00:00:${String(n % 60).padStart(2, '0')}Z`,
    ...extra,
  };
}

/** `add` that must succeed (the test's limit leaves room). */
async function added(store: RuntimeStore, watch: NewWatch, limit = 100): Promise<Watch> {
  const result = await store.watches.add(watch, limit);
  if (result === 'full') throw new Error('the watch limit was unexpectedly reached');
  return result;
}

const quote = (text: string | null): string => (text === null ? 'NULL' : `'${text.replace(/'/g, "''")}'`);

interface RawEvent {
  status: DeliveryStatus;
  type?: MonitorEventType;
  data?: string;
  createdAt?: string;
  attempts?: number;
  nextAttemptAt?: string | null;
  leaseExpiresAt?: string | null;
  lastError?: string | null;
}

/**
 * Events as the checks and the deliverer would leave them, written with raw SQL (no repository
 * writes them yet): one INSERT per event, so ids follow the order given on both engines.
 */
function eventsSql(watch: Watch, events: RawEvent[]): string {
  return events
    .map(
      (e) =>
        `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, attempts, next_attempt_at, lease_expires_at, last_error)
         VALUES (${watch.id}, ${quote(watch.did)}, ${quote(e.type ?? 'identity.document.changed')}, ${quote(e.data ?? '{"n":1}')},
           ${quote(e.createdAt ?? '2026-03-02T00:00:00Z')}, ${quote(e.status)}, ${e.attempts ?? 0}, ${quote(e.nextAttemptAt ?? null)},
           ${quote(e.leaseExpiresAt ?? null)}, ${quote(e.lastError ?? null)})`,
    )
    .join(';\n');
}

for (const backend of BACKENDS) {
  backend.describe(`store conformance: ${backend.name}`, () => {
    let store: RuntimeStore;
    let close: () => Promise<void>;
    let sql: (statement: string) => Promise<void>;
    beforeAll(async () => {
      ({ store, close, sql } = await backend.open());
    });
    afterAll(async () => {
      await close?.();
    });

    it('observations: stored, coalesced while unchanged, a new row on change; newest first; limits', async () => {
      const { observations } = store;
      expect(await observations.count(DID)).toBe(0);
      expect(await observations.list(DID, 10)).toEqual([]);
      const first = await observations.record(observation(1, '2026-01-01T00:00:00Z'));
      expect(first.outcome).toBe('stored');
      const again = await observations.record(observation(1, '2026-01-02T00:00:00Z', { latencyMs: 7, summary: 'again' }));
      expect(again).toMatchObject({ outcome: 'coalesced', row: { id: first.row!.id, seenCount: 2, lastSeenAt: '2026-01-02T00:00:00Z', latencyMs: 7, summary: 'again', observedAt: '2026-01-01T00:00:00Z' } });
      // An observation stamped earlier never moves lastSeenAt back.
      const late = await observations.record(observation(1, '2025-12-31T00:00:00Z'));
      expect(late.row!.lastSeenAt).toBe('2026-01-02T00:00:00Z');
      // The binding status changing is a new row, as is a new document.
      expect((await observations.record(observation(1, '2026-01-03T00:00:00Z', { domainBindingStatus: 'NOT_LINKED' }))).outcome).toBe('stored');
      expect((await observations.record(observation(2, '2026-01-04T00:00:00Z'))).outcome).toBe('stored');
      expect(await observations.count(DID)).toBe(3);
      const list = await observations.list(DID, 10);
      expect(list.map((o) => o.observedAt)).toEqual(['2026-01-04T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-01T00:00:00Z']);
      expect(Object.keys(list[0]!).sort()).toEqual(['did', 'documentHash', 'domainBindingStatus', 'id', 'lastSeenAt', 'latencyMs', 'observedAt', 'resolverVersion', 'seenCount', 'summary']);
      expect(await observations.list(DID, 1)).toHaveLength(1);
      expect(await observations.list(DID, -5)).toEqual([]);
      expect(await observations.list('did:web:other.example', 10)).toEqual([]);
    });

    it('observations: documents read back as written; latest and findByHash', async () => {
      const { observations } = store;
      const latest = await observations.latest(DID, 2);
      expect(latest.map((o) => o.summary)).toEqual(['document 2', 'document 1']);
      expect(JSON.stringify(latest[0]!.document)).toBe(JSON.stringify(documentOf(2)));
      const byHash = await observations.findByHash(DID, observation(1, '').documentHash);
      // The latest row with that hash: the NOT_LINKED one.
      expect(byHash).toMatchObject({ domainBindingStatus: 'NOT_LINKED', document: documentOf(1) });
      expect(await observations.findByHash(DID, 'ff'.repeat(32))).toBeUndefined();
    });

    it('observations: concurrent recorders of one unchanged document make one row', async () => {
      const did = 'did:web:concurrent.example';
      const outcomes = await Promise.all(Array.from({ length: 12 }, () => store.observations.record(observation(3, '2026-02-01T00:00:00Z', { did }))));
      expect(outcomes.filter((o) => o.outcome === 'stored')).toHaveLength(1);
      expect(await store.observations.count(did)).toBe(1);
      expect((await store.observations.list(did, 1))[0]!.seenCount).toBe(12);
    });

    it('observations: an absent binding status coalesces with an absent one; a row of another fingerprint profile is never coalesced into', async () => {
      const did = 'did:web:profiles.example';
      const unbound = (observedAt: string) => observation(7, observedAt, { did, domainBindingStatus: null });
      expect((await store.observations.record(unbound('2026-02-01T00:00:00Z'))).outcome).toBe('stored');
      const again = await store.observations.record(unbound('2026-02-02T00:00:00Z'));
      expect(again).toMatchObject({ outcome: 'coalesced', row: { seenCount: 2, lastSeenAt: '2026-02-02T00:00:00Z', domainBindingStatus: null } });
      expect((await store.observations.record(observation(7, '2026-02-03T00:00:00Z', { did }))).outcome).toBe('stored');
      await sql(`UPDATE observations SET fingerprint_profile = 'an-older-profile' WHERE did = '${did}'`);
      const relabelled = await store.observations.record(observation(7, '2026-02-04T00:00:00Z', { did }));
      expect(relabelled.outcome).toBe('stored');
      expect(await store.observations.count(did)).toBe(3);
    });

    it('delegation chains: upsert, by agent (unexpired, newest first), all, count, remove, expiry', async () => {
      const chains = store.delegationChains;
      await chains.register(chain('c1', 'did:key:agent', '2030-01-01T00:00:00Z', '2026-01-01T00:00:00Z'));
      await chains.register(chain('c2', 'did:key:agent', '2026-06-01T00:00:00Z', '2026-01-02T00:00:00Z'));
      await chains.register(chain('c3', 'did:key:other', '2030-01-01T00:00:00Z', '2026-01-03T00:00:00Z'));
      expect(await chains.count()).toBe(3);
      expect((await chains.forAgent('did:key:agent', '2026-03-01T00:00:00Z')).map((c) => c.id)).toEqual(['c2', 'c1']);
      expect((await chains.forAgent('did:key:agent', '2026-07-01T00:00:00Z')).map((c) => c.id)).toEqual(['c1']);
      // Registering again replaces the record and refreshes registeredAt.
      await chains.register(chain('c1', 'did:key:agent', '2030-01-01T00:00:00Z', '2026-01-05T00:00:00Z'));
      expect(await chains.count()).toBe(3);
      const all = await chains.all();
      expect(all.map((c) => c.id)).toEqual(['c1', 'c3', 'c2']);
      expect(all[0]).toEqual(chain('c1', 'did:key:agent', '2030-01-01T00:00:00Z', '2026-01-05T00:00:00Z'));
      expect(await chains.removeExpired('2026-07-01T00:00:00Z')).toBe(1);
      await chains.remove('c3');
      await chains.remove('absent');
      expect((await chains.all()).map((c) => c.id)).toEqual(['c1']);
    });

    it('MCP inventories: latest, stored, coalesced while unchanged, a new row on change; no profile never coalesces', async () => {
      const mcp = store.mcpObservations;
      expect(await mcp.latest('https://mcp.example/mcp')).toBeUndefined();
      const first = await mcp.record(snapshot('aa'.repeat(32), '2026-01-01T00:00:00Z'));
      expect(first.outcome).toBe('stored');
      const again = await mcp.record(snapshot('aa'.repeat(32), '2026-01-02T00:00:00Z', { negotiatedVersion: '2026-07-28' }));
      expect(again).toMatchObject({ outcome: 'coalesced', row: { id: first.row!.id, seenCount: 2, negotiatedVersion: '2026-07-28', lastSeenAt: '2026-01-02T00:00:00Z' } });
      expect((await mcp.record(snapshot('bb'.repeat(32), '2026-01-03T00:00:00Z'))).outcome).toBe('stored');
      expect((await mcp.record(snapshot('bb'.repeat(32), '2026-01-04T00:00:00Z', { profile: null }))).outcome).toBe('stored');
      const latest = await mcp.latest('https://mcp.example/mcp');
      expect(latest).toMatchObject({ inventoryHash: 'bb'.repeat(32), profile: null, tools: snapshot('', '').tools });
    });

    /** Monitoring tests start from empty tables (the store is shared by the whole suite). */
    const emptyMonitoring = () => sql('DELETE FROM monitor_events; DELETE FROM watches');

    it('watches: add, list oldest first, get, count; the secret is stored but never read back', async () => {
      await emptyMonitoring();
      const { watches } = store;
      expect(await watches.list()).toEqual([]);
      expect(await watches.count()).toBe(0);
      const a = await added(store, newWatch(1));
      expect(a).toEqual({
        id: expect.any(Number) as number,
        did: 'did:web:watched-1.example',
        webhookUrl: 'https://hooks.example/svc/1?token=t1',
        intervalSeconds: 300,
        createdAt: '2026-03-01T00:00:01Z',
        lastHash: null,
        lastStatus: null,
        lastCheckedAt: null,
        active: true,
        revision: 0,
      });
      const b = await added(store, newWatch(2, { intervalSeconds: 86400 }));
      expect(b.id).toBeGreaterThan(a.id);
      const list = await watches.list();
      expect(list).toEqual([a, b]);
      expect(await watches.get(a.id)).toEqual(a);
      expect(await watches.get(b.id)).toEqual(b);
      for (const absent of [b.id + 1000, 0, -1, 1.5, Number.NaN, 2 ** 40]) expect(await watches.get(absent)).toBeUndefined();
      expect(await watches.count()).toBe(2);
      // Neither the add() result nor a listing nor get() carries the secret, under any name.
      const read = JSON.stringify([a, b, list, await watches.get(a.id)]);
      expect(read).not.toContain(SECRET);
      expect(Object.keys(list[0]!).sort()).toEqual(['active', 'createdAt', 'did', 'id', 'intervalSeconds', 'lastCheckedAt', 'lastHash', 'lastStatus', 'revision', 'webhookUrl']);
      // Kept as given, since deliveries are signed with it: copied into a listed column, it reads back whole.
      await sql(`UPDATE watches SET last_status = secret WHERE id = ${b.id}`);
      expect((await watches.get(b.id))!.lastStatus).toBe(SECRET);
      // The schema's bounds on the interval hold on both engines.
      await expect(watches.add(newWatch(3, { intervalSeconds: 59 }), 100)).rejects.toThrow();
      expect(await watches.count()).toBe(2);
    });

    it('watches: full at the limit; concurrent adds never pass it', async () => {
      await emptyMonitoring();
      const { watches } = store;
      await added(store, newWatch(1), 3);
      await added(store, newWatch(2), 3);
      const third = await added(store, newWatch(3), 3);
      expect(await watches.add(newWatch(4), 3)).toBe('full');
      expect(await watches.add(newWatch(4), 0)).toBe('full');
      expect(await watches.add(newWatch(4), Number.NaN)).toBe('full');
      expect(await watches.count()).toBe(3);
      // A removed watch no longer counts.
      expect(await watches.remove(third.id)).toBe(true);
      await added(store, newWatch(4), 3);
      expect(await watches.add(newWatch(5), 3)).toBe('full');

      await emptyMonitoring();
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => watches.add(newWatch(10 + i), 5)));
      expect(results.filter((r) => r === 'full')).toHaveLength(5);
      expect(await watches.count()).toBe(5);
      expect((await watches.list()).map((w) => w.id).sort((x, y) => x - y)).toEqual(
        results.flatMap((r) => (r === 'full' ? [] : [r.id])).sort((x, y) => x - y),
      );
    });

    it('watches: remove deactivates and cancels only the queued events, in one transaction', async () => {
      await emptyMonitoring();
      const { watches, monitorEvents } = store;
      const w = await added(store, newWatch(1));
      const other = await added(store, newWatch(2));
      await sql(
        eventsSql(w, [
          { status: 'PENDING' },
          { status: 'RETRY', attempts: 2, nextAttemptAt: '2026-03-02T00:04:00Z', lastError: 'HTTP 503' },
          { status: 'DELIVERING', attempts: 1, leaseExpiresAt: '2026-03-02T00:02:00Z' },
          { status: 'DELIVERED', attempts: 1 },
          { status: 'DEAD_LETTER', attempts: 5, lastError: 'HTTP 500' },
        ]),
      );
      await sql(eventsSql(other, [{ status: 'PENDING' }, { status: 'RETRY', attempts: 1 }]));

      expect(await watches.remove(w.id)).toBe(true);
      expect(await watches.remove(w.id)).toBe(false);
      for (const absent of [other.id + 1000, 0, 1.5, 2 ** 40]) expect(await watches.remove(absent)).toBe(false);
      expect(await watches.get(w.id)).toBeUndefined();
      expect(await watches.list()).toEqual([other]);
      expect(await watches.count()).toBe(1);

      const mine = (await monitorEvents.list({ watchId: w.id, limit: 10 })).reverse();
      expect(mine.map((e) => [e.deliveryStatus, e.attempts, e.lastError])).toEqual([
        ['CANCELLED', 0, null],
        ['CANCELLED', 2, 'HTTP 503'],
        ['DELIVERING', 1, null],
        ['DELIVERED', 1, null],
        ['DEAD_LETTER', 5, 'HTTP 500'],
      ]);
      // Another watch's queue is untouched.
      expect((await monitorEvents.list({ watchId: other.id, limit: 10 })).map((e) => e.deliveryStatus)).toEqual(['RETRY', 'PENDING']);

      // The row is kept (events name it), and its revision moved: a check that read revision 0
      // before the removal can no longer update it.
      await sql(`UPDATE watches SET active = 1 WHERE id = ${w.id}`);
      expect(await watches.get(w.id)).toMatchObject({ id: w.id, active: true, revision: 1 });
    });

    it('monitor events: newest first, by watch, at most limit; data read back as written', async () => {
      await emptyMonitoring();
      const { monitorEvents } = store;
      expect(await monitorEvents.list({ limit: 10 })).toEqual([]);
      const w1 = await added(store, newWatch(1));
      const w2 = await added(store, newWatch(2));
      const data = { before: { hash: 'aa'.repeat(32) }, after: { hash: 'bb'.repeat(32), note: 'Zürich – 東京 😀', list: [1, 2.5, true, null] } };
      await sql(eventsSql(w1, [{ status: 'DELIVERED', data: JSON.stringify(data), createdAt: '2026-03-02T00:00:00Z' }]));
      await sql(eventsSql(w2, [{ status: 'PENDING', type: 'identity.deactivated', createdAt: '2026-03-02T00:01:00Z' }]));
      await sql(
        eventsSql(w1, [
          { status: 'RETRY', type: 'identity.resolution.failed', attempts: 1, nextAttemptAt: '2026-03-02T00:03:00Z', lastError: 'timed out', createdAt: '2026-03-02T00:02:00Z' },
        ]),
      );

      const all = await monitorEvents.list({ limit: 10 });
      expect(all.map((e) => e.watchId)).toEqual([w1.id, w2.id, w1.id]);
      expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((x, y) => y - x));
      expect(all[0]).toEqual({
        id: all[0]!.id,
        watchId: w1.id,
        did: w1.did,
        eventType: 'identity.resolution.failed',
        data: { n: 1 },
        createdAt: '2026-03-02T00:02:00Z',
        deliveryStatus: 'RETRY',
        attempts: 1,
        nextAttemptAt: '2026-03-02T00:03:00Z',
        lastAttemptAt: null,
        lastError: 'timed out',
      });
      expect(all[2]!.data).toEqual(data);
      expect(JSON.stringify(all[2]!.data)).toBe(JSON.stringify(data));

      expect((await monitorEvents.list({ watchId: w1.id, limit: 10 })).map((e) => e.eventType)).toEqual(['identity.resolution.failed', 'identity.document.changed']);
      expect((await monitorEvents.list({ watchId: w2.id, limit: 10 })).map((e) => e.eventType)).toEqual(['identity.deactivated']);
      expect((await monitorEvents.list({ limit: 2 })).map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
      expect(await monitorEvents.list({ watchId: w1.id, limit: 1 })).toEqual([all[0]]);
      expect(await monitorEvents.list({ limit: 0 })).toEqual([]);
      expect(await monitorEvents.list({ limit: -1 })).toEqual([]);
      for (const absent of [w2.id + 1000, 0, 1.5, 2 ** 40]) expect(await monitorEvents.list({ watchId: absent, limit: 10 })).toEqual([]);
    });

    it('monitor events: gauges at a given time (due deliveries, expired leases, payload bytes)', async () => {
      await emptyMonitoring();
      const { watches, monitorEvents } = store;
      const now = '2026-04-01T00:00:00Z';
      expect(await monitorEvents.gauges(now)).toEqual({
        watches: 0,
        events: 0,
        eventsByStatus: { PENDING: 0, DELIVERING: 0, RETRY: 0, DELIVERED: 0, DEAD_LETTER: 0, CANCELLED: 0 },
        dueDeliveries: 0,
        expiredLeases: 0,
        eventPayloadBytes: 0,
      });
      const w = await added(store, newWatch(1));
      const removed = await added(store, newWatch(2));
      expect(await watches.remove(removed.id)).toBe(true);
      // 'ü' is 2 bytes, '–' and '東' 3, '😀' 4 (and two UTF-16 units): bytes, characters and
      // JavaScript string lengths all differ.
      const unicode = JSON.stringify({ note: 'Zürich – 東京 😀' });
      expect(Buffer.byteLength(unicode)).toBeGreaterThan(unicode.length);
      const events: RawEvent[] = [
        { status: 'PENDING', data: unicode }, // due: no next attempt set
        { status: 'PENDING', nextAttemptAt: '2026-05-01T00:00:00Z' }, // not yet due
        { status: 'RETRY', attempts: 1, nextAttemptAt: '2026-03-31T23:59:59Z' }, // due
        { status: 'RETRY', attempts: 2, nextAttemptAt: now }, // due: exactly now
        { status: 'RETRY', attempts: 3, nextAttemptAt: '2026-04-01T00:00:01Z' }, // not yet due
        { status: 'DELIVERING', attempts: 1, leaseExpiresAt: '2026-03-31T23:58:00Z' }, // expired lease
        { status: 'DELIVERING', attempts: 1, leaseExpiresAt: '2026-04-01T00:02:00Z' }, // live lease
        { status: 'DELIVERED', attempts: 1, data: '{"a":[1,2,3]}' },
        { status: 'DEAD_LETTER', attempts: 5 },
        { status: 'CANCELLED', nextAttemptAt: '2026-03-01T00:00:00Z' }, // past, but not queued
      ];
      await sql(eventsSql(w, events));
      const bytes = events.reduce((sum, e) => sum + Buffer.byteLength(e.data ?? '{"n":1}'), 0);
      expect(await monitorEvents.gauges(now)).toEqual({
        watches: 1,
        events: 10,
        eventsByStatus: { PENDING: 2, DELIVERING: 2, RETRY: 3, DELIVERED: 1, DEAD_LETTER: 1, CANCELLED: 1 },
        dueDeliveries: 3,
        expiredLeases: 1,
        eventPayloadBytes: bytes,
      });
      // Later, the not-yet-due ones are due and the live lease has expired too.
      expect(await monitorEvents.gauges('2026-06-01T00:00:00Z')).toMatchObject({ dueDeliveries: 5, expiredLeases: 2 });
    });
  });
}

describePostgres('PostgreSQL: schema versions', () => {
  it('migrates an empty schema to the current version once, with two daemons opening it at once', async () => {
    const { schema, drop } = freshSchema();
    const stores: PostgresStore[] = [];
    try {
      stores.push(...(await Promise.all([openPostgresStore({ url: postgresUrl, schema }), openPostgresStore({ url: postgresUrl, schema })])));
      expect(stores.map((s) => s.schemaVersion)).toEqual([SCHEMA_VERSION, SCHEMA_VERSION]);
      for (const s of stores) expect(await s.readiness()).toEqual({ ready: true, storage: 'postgres', schema: 'current' });
      const { rows } = await stores[0]!.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_schema_version');
      expect(rows[0]!.n).toBe(1);
    } finally {
      for (const s of stores) await s.close();
      await drop();
    }
  });

  it('has every table and column of the SQLite schema (one migration history for both)', async () => {
    const { schema, drop } = freshSchema();
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-schema-'));
    const sqlite = openStore({ path: path.join(dir, 'svc.db') });
    const postgres = await openPostgresStore({ url: postgresUrl, schema });
    try {
      const tables = sqlite.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
      const sqliteColumns = tables.flatMap((t) => (sqlite.db.prepare(`SELECT name FROM pragma_table_info('${t}')`).pluck().all() as string[]).map((c) => `${t}.${c}`)).sort();
      const { rows } = await postgres.pool.query<{ c: string }>(
        "SELECT table_name || '.' || column_name AS c FROM information_schema.columns WHERE table_schema = $1 AND table_name NOT LIKE 'svc\\_%'",
        [schema],
      );
      expect(rows.map((r) => r.c).sort()).toEqual(sqliteColumns);
      expect(sqliteColumns.length).toBeGreaterThan(80);
    } finally {
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
      await postgres.close();
      await drop();
    }
  });

  it('refuses a database from a newer build, untouched', async () => {
    const { schema, drop } = freshSchema();
    try {
      const store = await openPostgresStore({ url: postgresUrl, schema });
      await store.pool.query('UPDATE svc_schema_version SET version = $1', [SCHEMA_VERSION + 1]);
      expect(await store.readiness()).toEqual({ ready: false, reason: `the database has schema version ${SCHEMA_VERSION + 1}, expected ${SCHEMA_VERSION}` });
      await store.close();
      const refused = await openPostgresStore({ url: postgresUrl, schema }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(StoreError);
      expect((refused as StoreError).code).toBe('FUTURE_SCHEMA');
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${schema}.svc_schema_version`);
      await client.end();
      expect(rows[0]!.version).toBe(SCHEMA_VERSION + 1);
    } finally {
      await drop();
    }
  });

  it('an unreachable server is OPEN_FAILED with a reason and no password in it', async () => {
    const error = await openPostgresStore({ url: 'postgres://svc:s3cret@127.0.0.1:1/test' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('OPEN_FAILED');
    expect((error as StoreError).message).toContain('refused the connection');
    expect((error as StoreError).message).not.toContain('s3cret');
  });
});

describePostgres('PostgreSQL: watches across daemons', () => {
  it('two daemons adding at once on one database never pass the limit together', async () => {
    const { schema, drop } = freshSchema();
    const stores: PostgresStore[] = [];
    try {
      stores.push(...(await Promise.all([openPostgresStore({ url: postgresUrl, schema }), openPostgresStore({ url: postgresUrl, schema })])));
      const results = await Promise.all(Array.from({ length: 16 }, (_, i) => stores[i % 2]!.watches.add(newWatch(i), 7)));
      expect(results.filter((r) => r !== 'full')).toHaveLength(7);
      for (const s of stores) expect(await s.watches.count()).toBe(7);
    } finally {
      for (const s of stores) await s.close();
      await drop();
    }
  });
});
