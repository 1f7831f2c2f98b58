/**
 * The storage layer on real SQLite files (docs/history.md#the-schema): migrations and the schema
 * history, refusal of future and foreign files, file modes, observation coalescing, the
 * persistent resolution cache, online backup, readiness, and a SIGKILL in the middle of a
 * burst of writes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HASH_PROFILE } from '../../src/core/canonical.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { defaultStorePath, openStore, SCHEMA_VERSION, StoreError, type Store, type StoreErrorCode } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/schema/migrations.js';
import { migrate, readSchemaVersion } from '../../src/store/sqlite/migrate.js';
import { ED25519_DID } from '../support/dids.js';
import { repoRoot } from '../support/fixtures.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { sampleObservation, tempDir, tempStore, type TempStore } from '../support/store.js';
import type { NewObservation } from '../../src/core/store.js';
import { StorageSlot } from '../../src/server/storage.js';
import { SqliteObservationStore } from '../../src/store/sqlite/observations.js';

/** Tables and added columns of each schema version. */
const SCHEMA_HISTORY: Record<number, { tables: string[]; columns?: Array<[string, string]> }> = {
  1: { tables: ['observations', 'resolution_cache'] },
  2: { tables: ['mcp_observations', 'delegation_chains', 'claims', 'directory_entries', 'watches', 'monitor_events'] },
  3: {
    tables: [],
    columns: [
      ['watches', 'revision'],
      ['monitor_events', 'watch_revision'],
      ['monitor_events', 'lease_expires_at'],
      ['observations', 'fingerprint_profile'],
      ['mcp_observations', 'fingerprint_profile'],
    ],
  },
  4: { tables: ['tenants', 'projects', 'api_keys', 'usage_counters'], columns: [['watches', 'project_id']] },
  5: { tables: ['plans', 'subscriptions', 'invoices', 'ledger_entries'] },
  6: { tables: ['scheduled_jobs', 'scheduled_attempts'] },
  7: {
    tables: ['monitor_baselines'],
    columns: [
      ['monitor_events', 'baseline_id'],
      ['monitor_events', 'previous_baseline_id'],
    ],
  },
  8: { tables: ['customer_webhooks', 'customer_webhook_deliveries'] },
  // Version 9 replaces version 2's claims and directory_entries (never written) with new ones.
  9: {
    tables: ['claim_challenges'],
    columns: [
      ['claims', 'lapsed_at_ms'],
      ['claims', 'next_check_at_ms'],
      ['directory_entries', 'seq'],
      ['directory_entries', 'search'],
    ],
  },
  10: { tables: ['tenant_owners', 'owner_sessions', 'sign_in_challenges'] },
  11: { tables: ['scheduled_skips'] },
  12: {
    tables: [],
    columns: [
      ['claim_challenges', 'client'],
      ['sign_in_challenges', 'client'],
    ],
  },
  13: { tables: [], columns: [['delegation_chains', 'client']] },
  14: { tables: ['webvh_kept_logs', 'webvh_kept_entries'] },
  // Version 15 rebuilds monitor_events (another event type): no table or column is added.
  15: { tables: [] },
  // Version 16 rebuilds monitor_events again (more event types, replays) and adds the rest.
  16: {
    tables: ['delivery_attempts'],
    columns: [
      ['watches', 'kind'],
      ['watches', 'webhook_disabled_at'],
      ['watches', 'webhook_disabled_reason'],
      ['monitor_baselines', 'tls_leaf_sha256'],
      ['monitor_baselines', 'tls_not_after'],
      ['monitor_baselines', 'tls_announced_days'],
      ['customer_webhooks', 'disabled_reason'],
      ['customer_webhook_deliveries', 'replays'],
      ['monitor_events', 'replays'],
    ],
  },
  // Version 17: the directory's FTS5 trigram index (a virtual table and FTS5's own tables).
  17: {
    tables: ['directory_search', 'directory_search_config', 'directory_search_data', 'directory_search_docsize', 'directory_search_idx'],
  },
};

function tablesOf(db: Database.Database): string[] {
  return db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((r) => r.name);
}

function columnsOf(db: Database.Database, table: string): string[] {
  return (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name);
}

function schemaOf(db: Database.Database): unknown[] {
  return db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name').all();
}

/** The StoreError `run` throws, after checking its code and that its message is one line. */
function storeErrorOf(run: () => unknown, code: StoreErrorCode): StoreError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StoreError);
  const error = caught as StoreError;
  expect(error.code).toBe(code);
  expect(error.message).not.toMatch(/\n/);
  return error;
}

const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;

let temp: { dir: string; cleanup(): void };
let opened: TempStore | undefined;
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => {
  opened?.cleanup();
  opened = undefined;
  temp.cleanup();
});

/** A store on a fresh file, closed and removed after the test. */
function freshStore(options: Parameters<typeof tempStore>[0] = {}): Store {
  opened = tempStore(options);
  return opened.store;
}

describe('migrations', () => {
  it('are numbered 1..17 without gaps, and SCHEMA_VERSION is the last', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(SCHEMA_VERSION).toBe(17);
  });

  it('each version adds its tables and columns, and only those', () => {
    const db = new Database(':memory:');
    try {
      for (let version = 1; version <= SCHEMA_VERSION; version++) {
        expect(migrate(db, version)).toBe(version);
        expect(readSchemaVersion(db)).toBe(version);
        const tables = tablesOf(db);
        for (const [v, step] of Object.entries(SCHEMA_HISTORY)) {
          for (const table of step.tables) expect(tables.includes(table), `${table} at version ${version}`).toBe(Number(v) <= version);
          for (const [table, column] of step.columns ?? []) {
            if (tables.includes(table)) expect(columnsOf(db, table).includes(column), `${table}.${column} at ${version}`).toBe(Number(v) <= version);
          }
        }
      }
    } finally {
      db.close();
    }
  });

  it('a new file reaches version 17 with every table of every version; the result is consistent', () => {
    const store = freshStore();
    expect(store.schemaVersion).toBe(17);
    expect(readSchemaVersion(store.db)).toBe(17);
    const tables = tablesOf(store.db);
    for (const step of Object.values(SCHEMA_HISTORY)) {
      expect(tables).toEqual(expect.arrayContaining(step.tables));
      for (const [table, column] of step.columns ?? []) expect(columnsOf(store.db, table)).toContain(column);
    }
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(store.db.pragma('foreign_key_check')).toEqual([]);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('foreign keys and enumerations are enforced', () => {
    const store = freshStore();
    const insertEvent = (watchId: number, status: string) =>
      store.db
        .prepare(
          `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status)
           VALUES (?, 'did:web:a.example', 'identity.document.changed', '{}', '2025-01-01T00:00:00Z', ?)`,
        )
        .run(watchId, status);
    expect(() => insertEvent(999, 'PENDING')).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }));
    const { lastInsertRowid } = store.db
      .prepare(
        `INSERT INTO watches (did, webhook_url, secret, interval_seconds, created_at)
         VALUES ('did:web:a.example', 'https://hooks.example/x', 's', 60, '2025-01-01T00:00:00Z')`,
      )
      .run();
    expect(() => insertEvent(Number(lastInsertRowid), 'SENT')).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_CHECK' }));
    expect(insertEvent(Number(lastInsertRowid), 'PENDING').changes).toBe(1);
  });

  it('brings a version 16 database with listings to 17: the trigram index holds them, and search finds them through it', async () => {
    const file = path.join(temp.dir, 'svc.db');
    const raw = new Database(file);
    raw.pragma('foreign_keys = ON');
    expect(migrate(raw, 16)).toBe(16);
    const now = Date.now();
    const list = raw.transaction((dids: string[]) => {
      for (const did of dids) {
        const claim = raw
          .prepare(
            `INSERT INTO claims (did, method, subject, token, verified_at_ms, checked_at_ms, expires_at_ms)
             VALUES (?, 'signature', ?, ?, ?, ?, ?)`,
          )
          .run(did, `${did}#key-1`, `token-${did}`, now, now, now + 86_400_000);
        raw
          .prepare(`INSERT INTO directory_entries (did, did_method, search, claim_id, listed_at_ms) VALUES (?, 'web', ?, ?, ?)`)
          .run(did, did.toLowerCase(), claim.lastInsertRowid, now);
      }
    });
    list(Array.from({ length: 300 }, (_, i) => `did:web:Host-${i}.example`));
    raw.close();

    const store = openStore({ path: file });
    try {
      expect(store.schemaVersion).toBe(17);
      expect(store.db.prepare(`SELECT count(*) AS n FROM directory_search WHERE directory_search MATCH '"host-29"'`).get()).toEqual({ n: 11 });
      // FTS5 compares the index with the listings themselves.
      store.db.exec(`INSERT INTO directory_search (directory_search, rank) VALUES ('integrity-check', 1)`);
      const page = await store.claims.directory({ q: 'HOST-299.', didMethod: null, limit: 10, after: null });
      expect(page.entries.map((e) => e.did)).toEqual(['did:web:Host-299.example']);
    } finally {
      store.close();
    }
  });

  it('reopening a version 17 database changes nothing', async () => {
    const file = path.join(temp.dir, 'svc.db');
    const first = openStore({ path: file });
    await first.observations.record(sampleObservation());
    const schema = schemaOf(first.db);
    first.close();
    const again = openStore({ path: file });
    try {
      expect(again.schemaVersion).toBe(17);
      expect(schemaOf(again.db)).toEqual(schema);
      expect(await again.observations.count('did:web:example.com')).toBe(1);
      expect(migrate(again.db)).toBe(17);
    } finally {
      again.close();
    }
  });

  it('brings a database left at version 3 to 17, keeping its rows; unprofiled rows are not relabelled', async () => {
    const file = path.join(temp.dir, 'svc.db');
    const raw = new Database(file);
    migrate(raw, 1);
    const old = sampleObservation();
    // A row written by a version 1 build: no fingerprint profile column yet.
    raw
      .prepare(
        `INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, seen_count, latency_ms,
          resolver_version, domain_binding_status, summary) VALUES (?, ?, ?, ?, ?, 4, 9, '0.0.1', ?, ?)`,
      )
      .run(old.did, old.documentHash, JSON.stringify(old.document), old.observedAt, old.observedAt, old.domainBindingStatus, old.summary);
    expect(migrate(raw, 3)).toBe(3);
    raw.close();

    const store = openStore({ path: file });
    try {
      expect(store.schemaVersion).toBe(17);
      expect(tablesOf(store.db)).toEqual(expect.arrayContaining([...SCHEMA_HISTORY[4]!.tables, ...SCHEMA_HISTORY[8]!.tables, ...SCHEMA_HISTORY[9]!.tables]));
      expect(store.db.prepare('SELECT fingerprint_profile AS p FROM observations').get()).toEqual({ p: null });
      const [historical] = await store.observations.list(old.did, 10);
      expect(historical).toMatchObject({ seenCount: 4, resolverVersion: '0.0.1' });

      // Same document and binding, but the old row carries no profile: a new row starts.
      const next = (await store.observations.record({ ...old, observedAt: '2025-03-05T00:00:00Z' })).row!;
      expect(next.id).not.toBe(historical!.id);
      expect(await store.observations.count(old.did)).toBe(2);
      expect(store.db.prepare('SELECT seen_count AS n, fingerprint_profile AS p FROM observations WHERE id = ?').get(historical!.id)).toEqual({
        n: 4,
        p: null,
      });
      expect(store.db.prepare('SELECT fingerprint_profile AS p FROM observations WHERE id = ?').get(next.id)).toEqual({ p: HASH_PROFILE });
      expect(await store.observations.record({ ...old, observedAt: '2025-03-06T00:00:00Z' })).toMatchObject({
        outcome: 'coalesced',
        row: { id: next.id, seenCount: 2 },
      });
    } finally {
      store.close();
    }
  });

  it('brings a version 8 database to 17: the unused claims tables of version 2 give way to the new ones', async () => {
    const file = path.join(temp.dir, 'svc.db');
    const raw = new Database(file);
    raw.pragma('foreign_keys = ON');
    expect(migrate(raw, 8)).toBe(8);
    expect(columnsOf(raw, 'claims')).toContain('status');
    expect(columnsOf(raw, 'directory_entries')).toContain('label');
    raw.close();

    const store = openStore({ path: file });
    try {
      expect(store.schemaVersion).toBe(17);
      expect(columnsOf(store.db, 'claims')).toEqual([
        'id',
        'did',
        'method',
        'subject',
        'token',
        'verified_at_ms',
        'checked_at_ms',
        'expires_at_ms',
        'next_check_at_ms',
        'check_failures',
        'last_error',
        'lapsed_at_ms',
        'lapse_reason',
      ]);
      expect(columnsOf(store.db, 'directory_entries')).toEqual(['seq', 'did', 'did_method', 'search', 'claim_id', 'listed_at_ms']);
      expect(tablesOf(store.db)).toContain('claim_challenges');
      expect(store.db.pragma('foreign_key_check')).toEqual([]);
      // At most one unlapsed claim per DID and method, enforced by the schema.
      const insert = store.db.prepare(
        `INSERT INTO claims (did, method, subject, token, verified_at_ms, checked_at_ms, expires_at_ms) VALUES ('did:web:a.example', 'dns', 's', 't', 1, 1, 2)`,
      );
      insert.run();
      expect(() => insert.run()).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_UNIQUE' }));
      store.db.exec(`UPDATE claims SET lapsed_at_ms = 2, lapse_reason = 'expired'`);
      expect(insert.run().changes).toBe(1);
      const challenge = await store.claims.createChallenge(
        { token: 'x'.repeat(43), did: 'did:web:a.example', method: 'dns', purpose: 'list', ttlSeconds: 60, client: '192.0.2.1' },
        { total: 10, perClient: 10, perDid: 10 },
      );
      expect(challenge).toMatchObject({ did: 'did:web:a.example', attempts: 0, usedAt: null });
    } finally {
      store.close();
    }
  });

  it('a failing migration leaves the database at the version before it', () => {
    const file = path.join(temp.dir, 'svc.db');
    const raw = new Database(file);
    migrate(raw, 3);
    // A stray table that version 4 would create: its script fails half-way.
    raw.exec('CREATE TABLE api_keys (x TEXT)');
    raw.close();
    const error = storeErrorOf(() => openStore({ path: file }), 'OPEN_FAILED');
    expect(error.message).toContain('migration 4');
    const check = new Database(file, { readonly: true });
    try {
      expect(readSchemaVersion(check)).toBe(3);
      expect(tablesOf(check)).not.toContain('tenants');
    } finally {
      check.close();
    }
  });
});

describe('openStore', () => {
  it.each(['delete', 'wal'])('refuses a database from a future schema (journal mode %s) and leaves it byte-identical', (mode) => {
    const file = path.join(temp.dir, 'future.db');
    const raw = new Database(file);
    raw.pragma(`journal_mode = ${mode}`);
    raw.exec("CREATE TABLE something_new (x TEXT); INSERT INTO something_new VALUES ('kept')");
    raw.pragma('user_version = 18');
    raw.close();
    const before = fs.readFileSync(file);
    const error = storeErrorOf(() => openStore({ path: file }), 'FUTURE_SCHEMA');
    expect(error.message).toMatch(/\b18\b/);
    expect(error.message).toMatch(/\b17\b/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.readdirSync(temp.dir)).toEqual(['future.db']);
    // migrate() refuses it as well.
    const direct = new Database(file, { readonly: true });
    try {
      expect(() => migrate(direct)).toThrow(expect.objectContaining({ code: 'FUTURE_SCHEMA' }));
    } finally {
      direct.close();
    }
  });

  it('refuses a file that is not a SQLite database, naming the reason on one line', () => {
    const file = path.join(temp.dir, 'notes.db');
    fs.writeFileSync(file, 'These are not the pages you are looking for.\n'.repeat(100));
    const before = fs.readFileSync(file);
    const error = storeErrorOf(() => openStore({ path: file }), 'OPEN_FAILED');
    expect(error.message).toContain('not a SQLite database');
    expect(error.message).not.toMatch(/SELECT|PRAGMA|\bat /);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a directory and an empty path', () => {
    storeErrorOf(() => openStore({ path: temp.dir }), 'OPEN_FAILED');
    storeErrorOf(() => openStore({ path: '' }), 'OPEN_FAILED');
  });

  it('refuses :memory: in production mode; allows it otherwise', async () => {
    const error = storeErrorOf(() => openStore({ path: ':memory:', production: true }), 'MEMORY_IN_PRODUCTION');
    expect(error.message).toBe('production mode requires a database file');
    const store = openStore({ path: ':memory:' });
    try {
      expect(store.storage).toBe('memory');
      expect(store.schemaVersion).toBe(SCHEMA_VERSION);
      expect((await store.observations.record(sampleObservation())).row?.seenCount).toBe(1);
    } finally {
      store.close();
    }
  });

  it('creates missing directories 0700 and the database 0600 (its WAL too)', async () => {
    const file = path.join(temp.dir, 'state', 'svc', 'svc.db');
    const store = openStore({ path: file, production: true });
    try {
      expect(store.storage).toBe('file');
      expect(store.path).toBe(file);
      await store.observations.record(sampleObservation());
      expect(modeOf(path.join(temp.dir, 'state'))).toBe(0o700);
      expect(modeOf(path.join(temp.dir, 'state', 'svc'))).toBe(0o700);
      expect(modeOf(file)).toBe(0o600);
      expect(modeOf(`${file}-wal`)).toBe(0o600);
    } finally {
      store.close();
    }
  });

  it('defaultStorePath follows the XDG base directory specification', () => {
    expect(defaultStorePath({ XDG_STATE_HOME: '/var/state', HOME: '/home/a' })).toBe('/var/state/svc/svc.db');
    expect(defaultStorePath({ XDG_STATE_HOME: 'relative/state', HOME: '/home/a' })).toBe('/home/a/.local/state/svc/svc.db');
    expect(defaultStorePath({ XDG_STATE_HOME: '', HOME: '/home/a' })).toBe('/home/a/.local/state/svc/svc.db');
    expect(defaultStorePath({ HOME: '/home/b' })).toBe('/home/b/.local/state/svc/svc.db');
  });
});

describe('observations', () => {
  const DID = 'did:web:example.com';
  const A = 'a'.repeat(64);
  const B = 'b'.repeat(64);

  it('coalesces an unchanged snapshot: one row, seenCount 2, lastSeenAt and the latest details', async () => {
    const { observations } = freshStore();
    const first = (await observations.record(sampleObservation({ observedAt: '2025-03-04T05:00:00Z', latencyMs: 30 }))).row!;
    expect(first).toEqual({
      id: first.id,
      did: DID,
      documentHash: A,
      observedAt: '2025-03-04T05:00:00Z',
      lastSeenAt: '2025-03-04T05:00:00Z',
      seenCount: 1,
      latencyMs: 30,
      resolverVersion: '0.1.0',
      domainBindingStatus: 'VERIFIED',
      summary: 'Resolved',
    });
    const second = (
      await observations.record(sampleObservation({ observedAt: '2025-03-04T06:00:00Z', latencyMs: 7, resolverVersion: '0.2.0', summary: 'Resolved again' }))
    ).row;
    expect(second).toEqual({ ...first, lastSeenAt: '2025-03-04T06:00:00Z', seenCount: 2, latencyMs: 7, resolverVersion: '0.2.0', summary: 'Resolved again' });
    expect(await observations.count(DID)).toBe(1);
    expect(await observations.list(DID, 10)).toEqual([second]);
  });

  it('coalesces a null binding status with null, and never moves lastSeenAt back', async () => {
    const { observations } = freshStore();
    await observations.record(sampleObservation({ domainBindingStatus: null, observedAt: '2025-03-04T06:00:00Z' }));
    const again = (await observations.record(sampleObservation({ domainBindingStatus: null, observedAt: '2025-03-04T05:00:00Z' }))).row;
    expect(again).toMatchObject({ seenCount: 2, domainBindingStatus: null, lastSeenAt: '2025-03-04T06:00:00Z' });
  });

  it('a changed domain binding status starts a new row', async () => {
    const { observations } = freshStore();
    await observations.record(sampleObservation({ observedAt: '2025-03-04T05:00:00Z' }));
    const changed = (await observations.record(sampleObservation({ observedAt: '2025-03-04T06:00:00Z', domainBindingStatus: 'NOT_LINKED' }))).row;
    expect(changed).toMatchObject({ seenCount: 1, domainBindingStatus: 'NOT_LINKED' });
    expect(await observations.count(DID)).toBe(2);
  });

  it('A → B → A gives three rows: only the latest row is coalesced into', async () => {
    const { observations } = freshStore();
    await observations.record(sampleObservation({ documentHash: A, observedAt: '2025-03-04T05:00:00Z' }));
    await observations.record(sampleObservation({ documentHash: B, observedAt: '2025-03-04T06:00:00Z' }));
    await observations.record(sampleObservation({ documentHash: A, observedAt: '2025-03-04T07:00:00Z' }));
    expect((await observations.list(DID, 10)).map((o) => [o.documentHash, o.seenCount])).toEqual([
      [A, 1],
      [B, 1],
      [A, 1],
    ]);
  });

  it('list is newest first by observedAt then id, limited, per DID; count counts rows', async () => {
    const { observations } = freshStore();
    const o1 = (await observations.record(sampleObservation({ documentHash: '1'.repeat(64), observedAt: '2025-03-04T10:00:00Z' }))).row!;
    const o2 = (await observations.record(sampleObservation({ documentHash: '2'.repeat(64), observedAt: '2025-03-04T09:00:00Z' }))).row!;
    const o3 = (await observations.record(sampleObservation({ documentHash: '3'.repeat(64), observedAt: '2025-03-04T10:00:00Z' }))).row!;
    await observations.record(sampleObservation({ did: 'did:web:other.example', observedAt: '2025-03-04T11:00:00Z' }));
    expect((await observations.list(DID, 10)).map((o) => o.id)).toEqual([o3.id, o1.id, o2.id]);
    expect((await observations.list(DID, 2)).map((o) => o.id)).toEqual([o3.id, o1.id]);
    expect(await observations.list(DID, 0)).toEqual([]);
    expect(await observations.list(DID, -1)).toEqual([]);
    expect(await observations.count(DID)).toBe(3);
    expect(await observations.count('did:web:nobody.example')).toBe(0);
    expect(await observations.list('did:web:nobody.example', 5)).toEqual([]);
  });

  it('latest returns documents, newest first; findByHash the latest row of that hash', async () => {
    const { observations } = freshStore();
    const docA = { id: DID, service: [{ id: '#a', type: 'A', serviceEndpoint: 'https://a.example/' }] };
    const docB = { id: DID, alsoKnownAs: ['https://b.example/'] };
    await observations.record(sampleObservation({ documentHash: A, document: docA, observedAt: '2025-03-04T05:00:00Z' }));
    await observations.record(sampleObservation({ documentHash: B, document: docB, observedAt: '2025-03-04T06:00:00Z' }));
    const lastA = (await observations.record(sampleObservation({ documentHash: A, document: docA, observedAt: '2025-03-04T07:00:00Z' }))).row!;

    const latest = await observations.latest(DID, 2);
    expect(latest.map((o) => [o.documentHash, o.document])).toEqual([
      [A, docA],
      [B, docB],
    ]);
    expect(latest[0]).toEqual({ ...lastA, document: docA });

    expect(await observations.findByHash(DID, A)).toEqual({ ...lastA, document: docA });
    expect(await observations.findByHash(DID, B)).toMatchObject({ documentHash: B, observedAt: '2025-03-04T06:00:00Z', document: docB });
    expect(await observations.findByHash(DID, 'c'.repeat(64))).toBeUndefined();
    expect(await observations.findByHash('did:web:other.example', A)).toBeUndefined();
  });
});

describe('observations: group commit', () => {
  const DID = 'did:web:example.com';
  /** Records made in one turn: new DIDs, an unchanged snapshot twice, and a change. */
  const turn = (): NewObservation[] => [
    sampleObservation({ did: 'did:web:a.example', observedAt: '2025-03-04T05:00:00Z' }),
    sampleObservation({ observedAt: '2025-03-04T05:00:01Z' }),
    sampleObservation({ did: 'did:web:b.example', observedAt: '2025-03-04T05:00:02Z' }),
    sampleObservation({ observedAt: '2025-03-04T05:00:03Z', latencyMs: 5 }),
    sampleObservation({ documentHash: 'b'.repeat(64), observedAt: '2025-03-04T05:00:04Z' }),
    sampleObservation({ did: 'did:web:a.example', observedAt: '2025-03-04T05:00:05Z' }),
  ];
  const rows = (db: Database.Database) => db.prepare('SELECT id, did, document_hash, seen_count, last_seen_at, latency_ms FROM observations ORDER BY id').all();

  it('writes the records of one turn together, at the end of the turn, exactly as one at a time would', async () => {
    const store = freshStore();
    const reader = new Database(store.path, { readonly: true });
    try {
      const pending = turn().map((o) => store.observations.record(o));
      // Nothing is committed while the turn runs: the records wait for one transaction.
      expect(rows(reader)).toEqual([]);
      // A promise settles after the commit that holds it: the whole group is visible then.
      const visibleAtFirst = await pending[0]!.then(() => rows(reader).length);
      expect(visibleAtFirst).toBe(6 - 2);
      const recorded = await Promise.all(pending);
      expect(recorded.map((r) => r.outcome)).toEqual(['stored', 'stored', 'stored', 'coalesced', 'stored', 'coalesced']);
      expect(recorded[3]!.row).toMatchObject({ did: DID, seenCount: 2, latencyMs: 5 });

      // The same records, each its own transaction at once (batch 1), give the same rows.
      const single = tempStore({ recordBatch: 1 });
      try {
        const first = single.store.observations.record(turn()[0]!);
        expect(rows(single.store.db)).toHaveLength(1);
        await first;
        for (const o of turn().slice(1)) await single.store.observations.record(o);
        expect(rows(reader)).toEqual(rows(single.store.db));
      } finally {
        single.cleanup();
      }
    } finally {
      reader.close();
    }
  });

  it('a record that fails in a group rejects alone; the others are written', async () => {
    const store = freshStore();
    const bad = sampleObservation({ did: 'did:web:bad.example', document: { id: 'did:web:bad.example', n: 1n } as unknown as NewObservation['document'] });
    const results = await Promise.allSettled([
      store.observations.record(sampleObservation({ did: 'did:web:a.example' })),
      store.observations.record(bad),
      store.observations.record(sampleObservation({ did: 'did:web:b.example' })),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rows(store.db).map((r) => (r as { did: string }).did)).toEqual(['did:web:a.example', 'did:web:b.example']);
    expect(store.observations.usage().stored).toBe(2);
  });

  it('closing the store writes the records still waiting for their commit', async () => {
    const store = freshStore();
    const pending = store.observations.record(sampleObservation());
    store.close();
    expect((await pending).outcome).toBe('stored');
    const again = new Database(store.path, { readonly: true });
    try {
      expect(rows(again)).toHaveLength(1);
    } finally {
      again.close();
    }
  });

  it("the daemon's storage passes SVC_RECORD_BATCH on: with 1, a record commits at once", async () => {
    for (const [recordBatch, atOnce] of [
      [1, 1],
      [64, 0],
    ] as const) {
      const file = path.join(temp.dir, `slot-${recordBatch}.db`);
      const slot = new StorageSlot(file, false, { maxObservations: 10, maxMcpObservations: 10, recordBatch });
      await slot.open();
      const reader = new Database(file, { readonly: true });
      try {
        const pending = slot.store!.observations.record(sampleObservation());
        expect(rows(reader)).toHaveLength(atOnce);
        await pending;
        expect(rows(reader)).toHaveLength(1);
      } finally {
        reader.close();
        await slot.close();
      }
    }
  });

  it('refuses a batch size that is not a whole number of at least 1', () => {
    expect(() => tempStore({ recordBatch: 0 })).toThrow(/the observation batch must be a whole number, 1 or more/);
    expect(() => tempStore({ recordBatch: 1.5 })).toThrow(/the observation batch must be a whole number/);
  });
});

describe("observations: the daemon's writer thread", () => {
  const rows = (db: Database.Database) =>
    db.prepare('SELECT id, did, document_hash, seen_count, last_seen_at, latency_ms, document FROM observations ORDER BY id').all();
  const turn = (): NewObservation[] => [
    sampleObservation({ did: 'did:web:a.example', observedAt: '2025-03-04T05:00:00Z' }),
    sampleObservation({ observedAt: '2025-03-04T05:00:01Z' }),
    sampleObservation({ observedAt: '2025-03-04T05:00:03Z', latencyMs: 5 }),
    sampleObservation({ documentHash: 'b'.repeat(64), observedAt: '2025-03-04T05:00:04Z' }),
    sampleObservation({ did: 'did:web:a.example', observedAt: '2025-03-04T05:00:05Z' }),
  ];

  it('writes on its own connection exactly the rows, answers and counts the event loop would', async () => {
    const store = freshStore({ recordThread: true, maxObservations: 100 });
    const inline = tempStore({ maxObservations: 100 });
    try {
      const [threaded, local] = await Promise.all([
        Promise.all(turn().map((o) => store.observations.record(o))),
        Promise.all(turn().map((o) => inline.store.observations.record(o))),
      ]);
      expect(threaded).toEqual(local);
      expect(threaded.map((r) => r.outcome)).toEqual(['stored', 'stored', 'coalesced', 'stored', 'coalesced']);
      expect(threaded[2]!.row).toMatchObject({ id: 2, seenCount: 2, latencyMs: 5, lastSeenAt: '2025-03-04T05:00:03Z' });
      // The store's own connection reads what the thread committed before it answered.
      expect(rows(store.db)).toEqual(rows(inline.store.db));
      expect(await store.observations.list('did:web:example.com', 10)).toEqual(await inline.store.observations.list('did:web:example.com', 10));
      expect(store.observations.usage()).toEqual(inline.store.observations.usage());
    } finally {
      inline.cleanup();
    }
  });

  it('a record its transaction refuses rejects alone, with its SQLite code; the others of its group are written', async () => {
    const store = freshStore({ recordThread: true });
    const bad = sampleObservation({ did: 'did:web:bad.example', domainBindingStatus: 'NOT_A_STATUS' as NewObservation['domainBindingStatus'] });
    const results = await Promise.allSettled([
      store.observations.record(sampleObservation({ did: 'did:web:a.example' })),
      store.observations.record(bad),
      store.observations.record(sampleObservation({ did: 'did:web:b.example' })),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const reason = (results[1] as PromiseRejectedResult).reason as Error & { code?: string };
    expect(reason).toBeInstanceOf(Error);
    expect(reason.code).toBe('SQLITE_CONSTRAINT_CHECK');
    expect(reason.message).toMatch(/CHECK constraint failed/);
    expect(rows(store.db).map((r) => (r as { did: string }).did)).toEqual(['did:web:a.example', 'did:web:b.example']);
    // The thread goes on writing.
    expect((await store.observations.record(sampleObservation({ did: 'did:web:c.example' }))).outcome).toBe('stored');
  });

  it('closing the store waits for the thread to commit what it was sent, and settles every record', async () => {
    const store = freshStore({ recordThread: true });
    await store.observations.record(sampleObservation({ did: 'did:web:first.example' }));
    const pending = ['a', 'b', 'c'].map((d) => store.observations.record(sampleObservation({ did: `did:web:${d}.example` })));
    store.close();
    expect((await Promise.all(pending)).map((r) => r.outcome)).toEqual(['stored', 'stored', 'stored']);
    const again = new Database(store.path, { readonly: true });
    try {
      expect(rows(again)).toHaveLength(4);
    } finally {
      again.close();
    }
  });

  it('at the ceiling, evictions and refusals made by the thread are counted and told once', async () => {
    const told: number[] = [];
    const store = freshStore({ recordThread: true, maxObservations: 2, onFirstRefusal: (_table, ceiling) => told.push(ceiling) });
    const recorded = [];
    for (const d of ['a', 'b', 'c']) recorded.push(await store.observations.record(sampleObservation({ did: `did:web:${d}.example` })));
    // A DID seen twice is history, never evicted: with a and b gone or kept, the next is refused.
    await store.observations.record(sampleObservation({ did: 'did:web:c.example', observedAt: '2025-03-04T06:00:00Z' }));
    await store.observations.record(sampleObservation({ did: 'did:web:b.example', observedAt: '2025-03-04T06:00:00Z' }));
    const refused = await store.observations.record(sampleObservation({ did: 'did:web:d.example' }));
    expect(recorded.map((r) => r.outcome)).toEqual(['stored', 'stored', 'evicted']);
    expect(refused.outcome).toBe('refused');
    expect(store.observations.usage()).toEqual({ stored: 2, ceiling: 2, evicted: 1, refused: 1 });
    expect(told).toEqual([2]);
  });

  it('a thread that cannot open the file leaves the records to the event loop: all are written, none lost', async () => {
    const store = freshStore();
    // An addon that does not exist: the thread's driver cannot load, so its connection never opens.
    const observations = new SqliteObservationStore(store.db, { thread: { path: store.path, nativeBinding: path.join(temp.dir, 'missing.node') } });
    const recorded = await Promise.all(['a', 'b'].map((d) => observations.record(sampleObservation({ did: `did:web:${d}.example` }))));
    expect(recorded.map((r) => r.outcome)).toEqual(['stored', 'stored']);
    expect((await observations.record(sampleObservation({ did: 'did:web:c.example' }))).outcome).toBe('stored');
    expect(rows(store.db)).toHaveLength(3);
    observations.close();
  });

  it('a store in memory, and a batch of 1, write on the event loop: a record of a batch of 1 commits at once', async () => {
    const memory = openStore({ path: ':memory:', recordThread: true });
    try {
      expect((await memory.observations.record(sampleObservation())).outcome).toBe('stored');
    } finally {
      memory.close();
    }
    const store = freshStore({ recordThread: true, recordBatch: 1 });
    const pending = store.observations.record(sampleObservation());
    expect(rows(store.db)).toHaveLength(1);
    await pending;
  });
});

describe('resolution cache (persistent tier)', () => {
  it('serves a deep-frozen hit with cached: true until the clock reaches expiry, then deletes the row', async () => {
    const clock = fixedClock();
    const result = await resolve(ED25519_DID, testRuntime(clock), { noCache: true });
    const store = freshStore({ clock });
    const cache = store.resolutionCache;
    cache.set(ED25519_DID, result, 60);
    expect(cache.size).toBe(1);
    const hit = cache.get(ED25519_DID)!;
    expect(hit).toEqual({ ...result, cached: true });
    expect(Object.isFrozen(hit)).toBe(true);
    expect(Object.isFrozen(hit.dimensions[0])).toBe(true);
    expect(Object.isFrozen(hit.didDocument)).toBe(true);

    clock.advance(59_999);
    expect(cache.get(ED25519_DID)).toBeDefined();
    clock.advance(1);
    expect(cache.size).toBe(0);
    expect(store.db.prepare('SELECT count(*) AS n FROM resolution_cache').get()).toEqual({ n: 1 });
    expect(cache.get(ED25519_DID)).toBeUndefined();
    expect(store.db.prepare('SELECT count(*) AS n FROM resolution_cache').get()).toEqual({ n: 0 });
  });

  it('ignores ttl ≤ 0; delete, clear and size; survives a reopen; keeps at most maxEntries', async () => {
    const clock = fixedClock();
    const result = await resolve(ED25519_DID, testRuntime(clock), { noCache: true });
    const store = freshStore({ clock, cacheMaxEntries: 2 });
    const cache = store.resolutionCache;
    cache.set('zero', result, 0);
    cache.set('negative', result, -5);
    expect(cache.size).toBe(0);

    cache.set('short', result, 10);
    cache.set('long', result, 1000);
    cache.set('middle', result, 100);
    // Over the cap: the entry closest to expiry went.
    expect(cache.size).toBe(2);
    expect(cache.get('short')).toBeUndefined();
    cache.delete('long');
    expect(cache.get('long')).toBeUndefined();
    expect(cache.size).toBe(1);

    store.close();
    const reopened = openStore({ path: opened!.path, clock });
    try {
      expect(reopened.resolutionCache.get('middle')).toEqual({ ...result, cached: true });
      reopened.resolutionCache.clear();
      expect(reopened.resolutionCache.size).toBe(0);
      expect(reopened.resolutionCache.get('middle')).toBeUndefined();
    } finally {
      reopened.close();
    }
  });
});

describe('backup', () => {
  it('copies a live database to a new file, mode 0600, that opens with the same rows', async () => {
    const store = freshStore();
    for (let i = 0; i < 20; i++) {
      await store.observations.record(
        sampleObservation({ documentHash: i.toString(16).padStart(64, '0'), observedAt: `2025-03-04T05:00:${String(i).padStart(2, '0')}Z` }),
      );
    }
    const destination = path.join(temp.dir, 'copy.db');
    const result = await store.backup(destination);
    expect(result.destination).toBe(destination);
    expect(result.pages).toBeGreaterThan(0);
    expect(result.bytes).toBe(fs.statSync(destination).size);
    expect(result.bytes).toBeGreaterThan(0);
    expect(modeOf(destination)).toBe(0o600);

    const copy = openStore({ path: destination });
    try {
      expect(copy.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(await copy.observations.list('did:web:example.com', 100)).toEqual(await store.observations.list('did:web:example.com', 100));
      expect(await copy.observations.count('did:web:example.com')).toBe(20);
    } finally {
      copy.close();
    }
  });

  it('refuses an existing destination and leaves it untouched', async () => {
    const store = freshStore();
    const destination = path.join(temp.dir, 'precious.db');
    fs.writeFileSync(destination, 'do not overwrite');
    const past = new Date('2020-01-01T00:00:00Z');
    fs.utimesSync(destination, past, past);
    const before = fs.statSync(destination);
    await expect(store.backup(destination)).rejects.toMatchObject({ name: 'StoreError', code: 'BACKUP_DESTINATION_EXISTS' });
    expect(fs.readFileSync(destination, 'utf8')).toBe('do not overwrite');
    expect(fs.statSync(destination).mtimeMs).toBe(before.mtimeMs);
    expect(fs.statSync(destination).mode).toBe(before.mode);
  });

  it('refuses a destination in a missing directory and creates nothing', async () => {
    const store = freshStore();
    const missing = path.join(temp.dir, 'missing');
    await expect(store.backup(path.join(missing, 'copy.db'))).rejects.toMatchObject({
      code: 'BACKUP_DESTINATION_UNUSABLE',
      message: expect.stringMatching(/directory .*missing does not exist/),
    });
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('removes the file it reserved when the copy fails', async () => {
    const store = freshStore();
    store.close();
    const destination = path.join(temp.dir, 'copy.db');
    await expect(store.backup(destination)).rejects.toMatchObject({ code: 'BACKUP_FAILED' });
    expect(fs.existsSync(destination)).toBe(false);
  });
});

describe('readiness', () => {
  it('is ready with storage and current schema', () => {
    expect(freshStore().readiness()).toEqual({ ready: true, storage: 'file', schema: 'current' });
    const memory = openStore({ path: ':memory:' });
    try {
      expect(memory.readiness()).toEqual({ ready: true, storage: 'memory', schema: 'current' });
    } finally {
      memory.close();
    }
  });

  it('is not ready once closed, or when the schema version no longer matches', () => {
    const store = freshStore();
    store.db.pragma('user_version = 8');
    expect(store.readiness()).toEqual({ ready: false, reason: expect.stringMatching(/version 8, expected 17/) });
    store.db.pragma('user_version = 17');
    expect(store.readiness().ready).toBe(true);
    store.close();
    expect(store.readiness()).toEqual({ ready: false, reason: 'the database is closed' });
  });
});

describe('crash safety', () => {
  const WRITER = path.join(repoRoot, 'test', 'support', 'store-writer.ts');
  let child: ChildProcess | undefined;

  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  /** Starts the writer and resolves once it has made its first 100 writes. */
  function startWriter(file: string): Promise<ChildProcess> {
    const proc = spawn(process.execPath, ['--import', 'tsx', WRITER, file], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    return new Promise((resolvePromise, reject) => {
      let stdout = '';
      let stderr = '';
      proc.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('ready\n')) resolvePromise(proc);
      });
      proc.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      proc.on('error', reject);
      proc.on('exit', (code, signal) => reject(new Error(`writer exited (${code ?? signal}) before it was ready: ${stderr}`)));
    });
  }

  function kill(proc: ChildProcess): Promise<NodeJS.Signals | null> {
    return new Promise((resolvePromise) => {
      proc.once('exit', (_code, signal) => resolvePromise(signal));
      proc.kill('SIGKILL');
    });
  }

  it('SIGKILL during a burst of writes leaves a database that opens and passes integrity_check; restart works', async () => {
    const file = path.join(temp.dir, 'svc.db');
    for (let round = 1; round <= 2; round++) {
      const writer = await startWriter(file);
      await new Promise((r) => setTimeout(r, 200));
      // Still writing when killed: it never exits on its own.
      expect(await kill(writer)).toBe('SIGKILL');

      const store = openStore({ path: file, production: true });
      try {
        expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(store.db.pragma('foreign_key_check')).toEqual([]);
        const { n } = store.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM observations').get()!;
        expect(n).toBeGreaterThan(0);
        const did = 'did:web:after-crash.example';
        const recorded = await store.observations.record(sampleObservation({ did, observedAt: `2030-01-0${round}T00:00:00Z` }));
        expect(recorded.row?.seenCount).toBe(round);
        expect(await store.observations.count(did)).toBe(1);
        expect(store.readiness()).toEqual({ ready: true, storage: 'file', schema: 'current' });
      } finally {
        store.close();
      }
    }
  });
});
