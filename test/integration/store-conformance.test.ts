/**
 * One conformance suite for every storage backend: the repositories of src/core/store.ts on the
 * embedded SQLite file and on a real PostgreSQL server (a schema of its own per suite), held to
 * the same behaviour — coalescing, ordering, limits, documents read back as written, upserts,
 * expiry, concurrent recorders. The PostgreSQL half skips with a visible message where no
 * server answers, and fails under CI=true (CI here has one). PostgreSQL-only checks follow:
 * migrations, two daemons migrating at once, a future schema, an unreachable server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DidDocument } from '../../src/core/resolve/types.js';
import type { NewMcpSnapshot, NewObservation, RuntimeStore, StoredDelegationChain } from '../../src/core/store.js';
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
