/**
 * Schema versions 15 (monitor events may be identity.history.rewritten) and 16 (the event types of
 * MCP, A2A and TLS watches; a replay count) on a database that already holds events, on both
 * engines: every event keeps its id and columns, a customer delivery still
 * names its event, the id counter carries over (a deleted event's id is never handed out again),
 * the indexes are the same, foreign keys still hold and are still enforced, the new type is
 * accepted and an unknown one still refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { postgresSql } from '../../src/store/postgres/dialect.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema/migrations.js';
import { migrate } from '../../src/store/sqlite/migrate.js';
import { describePostgres, freshSchema, postgresUrl } from '../support/postgres.js';

/** Rows of a version 14 database: an operator watch with three events, the third deleted; a project watch's event delivered to its webhook. */
const FILL = [
  `INSERT INTO tenants (id, name, owner_subject, created_at) VALUES ('t1', 'T', 'did:web:owner.example', '2026-11-01T00:00:00Z')`,
  `INSERT INTO projects (id, tenant_id, name, created_at) VALUES ('p1', 't1', 'P', '2026-11-01T00:00:00Z')`,
  `INSERT INTO watches (did, webhook_url, secret, interval_seconds, created_at) VALUES ('did:web:a.example', 'https://hooks.example/a', 's', 60, '2026-11-01T00:00:00Z')`,
  `INSERT INTO watches (did, webhook_url, secret, interval_seconds, created_at, project_id) VALUES ('did:web:b.example', '', 's', 3600, '2026-11-01T00:00:00Z', 'p1')`,
  `INSERT INTO monitor_baselines (watch_id, revision, status, document_hash, checked_at) VALUES (1, 1, 'RESOLVED', 'h1', '2026-11-01T00:01:00Z')`,
  `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, attempts, watch_revision, baseline_id)
     VALUES (1, 'did:web:a.example', 'identity.document.changed', '{"fromHash":"h0","toHash":"h1"}', '2026-11-01T00:01:00Z', 'DELIVERED', 1, 1, 1)`,
  `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, watch_revision)
     VALUES (2, 'did:web:b.example', 'identity.resolution.failed', '{"problem":null}', '2026-11-01T00:02:00Z', 1)`,
  `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at) VALUES (1, 'did:web:a.example', 'identity.deactivated', '{}', '2026-11-01T00:03:00Z')`,
  `DELETE FROM monitor_events WHERE id = 3`,
  `INSERT INTO customer_webhooks (project_id, url, secret, created_at) VALUES ('p1', 'https://hooks.example/p', 'whsec_x', '2026-11-01T00:00:00Z')`,
  `INSERT INTO customer_webhook_deliveries (id, webhook_id, project_id, monitor_event_id, event_type, body, signature, created_at)
     VALUES ('d1', 1, 'p1', 2, 'identity.resolution.failed', '{}', 't=1,v1=00', '2026-11-01T00:02:00Z')`,
];

const EVENTS = 'SELECT * FROM monitor_events ORDER BY id';
const insertEvent = (type: string) =>
  `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at) VALUES (1, 'did:web:a.example', '${type}', '{}', '2026-11-02T00:00:00Z') RETURNING id`;

describe('schema version 15 on SQLite: monitor_events rebuilt with its rows', () => {
  it('keeps ids, columns, the counter, the indexes and the deliveries; allows identity.history.rewritten', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-v15-'));
    const file = path.join(dir, 'svc.db');
    try {
      const raw = new Database(file);
      raw.pragma('foreign_keys = ON');
      expect(migrate(raw, 14)).toBe(14);
      for (const statement of FILL) raw.prepare(statement).run();
      const events = raw.prepare(EVENTS).all();
      const indexes = raw.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'monitor_events' ORDER BY name").all();
      const columns = raw.pragma('table_info(monitor_events)');
      expect(() => raw.prepare(insertEvent('identity.history.rewritten')).get()).toThrow(/CHECK/);
      raw.close();

      const db = new Database(file);
      db.pragma('foreign_keys = ON');
      try {
        expect(migrate(db, 15)).toBe(15);
        expect(db.prepare(EVENTS).all()).toEqual(events);
        expect(db.pragma('table_info(monitor_events)')).toEqual(columns);
        expect(db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'monitor_events' ORDER BY name").all()).toEqual(indexes);
        expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name LIKE 'monitor_events_v15%'").get()).toEqual({ n: 0 });
        expect(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'monitor_events'").get()).toEqual({ seq: 3 });
        expect(db.pragma('foreign_key_check')).toEqual([]);
        expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
        expect(db.prepare('SELECT d.id, e.event_type FROM customer_webhook_deliveries d JOIN monitor_events e ON e.id = d.monitor_event_id').all()).toEqual([
          { id: 'd1', event_type: 'identity.resolution.failed' },
        ]);
        // The deleted id 3 is not handed out again; the new type is accepted, an unknown one is not.
        expect(db.prepare(insertEvent('identity.history.rewritten')).get()).toEqual({ id: 4 });
        expect(() => db.prepare(insertEvent('identity.unknown')).get()).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_CHECK' }));
        // The deliveries' reference is enforced against the rebuilt table.
        expect(() => db.prepare('DELETE FROM monitor_events WHERE id = 2').run()).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }));
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describePostgres('schema version 15 on PostgreSQL: the event type CHECK replaced in place', () => {
  it('keeps ids, the identity sequence and the deliveries; allows identity.history.rewritten', async () => {
    const { schema, drop } = freshSchema();
    const client = new pg.Client({ connectionString: postgresUrl });
    try {
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
      await client.query('CREATE TABLE svc_schema_version (id SMALLINT PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)');
      for (const migration of MIGRATIONS.filter((m) => m.version <= 14)) await client.query(postgresSql(migration.up));
      await client.query('INSERT INTO svc_schema_version (id, version) VALUES (1, 14)');
      for (const statement of FILL) await client.query(statement);
      const events = (await client.query(EVENTS)).rows;
      await expect(client.query(insertEvent('identity.history.rewritten'))).rejects.toThrow(/check constraint/);

      await client.query(MIGRATIONS.find((m) => m.version === 15)!.postgres!);
      {
        expect((await client.query(EVENTS)).rows).toEqual(events);
        const checks = await client.query<{ name: string }>(
          `SELECT conname AS name FROM pg_constraint WHERE conrelid = to_regclass('monitor_events') AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%event_type%'`,
        );
        expect(checks.rows).toEqual([{ name: 'monitor_events_event_type_check' }]);
        expect(
          (await client.query('SELECT d.id, e.event_type FROM customer_webhook_deliveries d JOIN monitor_events e ON e.id = d.monitor_event_id')).rows,
        ).toEqual([{ id: 'd1', event_type: 'identity.resolution.failed' }]);
        // The identity sequence is untouched: 3 was deleted, and the insert refused before the
        // migration took 4 (a sequence never goes back), so the next id is 5.
        expect((await client.query(insertEvent('identity.history.rewritten'))).rows).toEqual([{ id: 5 }]);
        await expect(client.query(insertEvent('identity.unknown'))).rejects.toThrow(/check constraint/);
        await expect(client.query('DELETE FROM monitor_events WHERE id = 2')).rejects.toThrow(/foreign key/);
      }
    } finally {
      await client.end().catch(() => undefined);
      await drop();
    }
  });
});

const NEW_TYPES = [
  'mcp.inventory.changed',
  'mcp.inspection.failed',
  'mcp.inspection.recovered',
  'a2a.card.changed',
  'a2a.inspection.failed',
  'a2a.inspection.recovered',
  'tls.certificate.expiring',
  'tls.certificate.changed',
];

describe('schema version 16 on SQLite: monitor_events rebuilt again, with a replay count', () => {
  it('keeps ids, columns (and adds replays = 0), the counter, the indexes and the deliveries; allows the new types', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-v16-'));
    const file = path.join(dir, 'svc.db');
    try {
      const raw = new Database(file);
      raw.pragma('foreign_keys = ON');
      expect(migrate(raw, 15)).toBe(15);
      for (const statement of FILL) raw.prepare(statement).run();
      const events = raw.prepare(EVENTS).all() as Array<Record<string, unknown>>;
      const indexes = raw.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'monitor_events' ORDER BY name").all();
      expect(() => raw.prepare(insertEvent('mcp.inventory.changed')).get()).toThrow(/CHECK/);
      raw.close();

      const store = openStore({ path: file });
      try {
        const db = store.db;
        expect(store.schemaVersion).toBe(SCHEMA_VERSION);
        expect(db.prepare(EVENTS).all()).toEqual(events.map((e) => ({ ...e, replays: 0 })));
        expect(db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'monitor_events' ORDER BY name").all()).toEqual(indexes);
        expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name LIKE 'monitor_events_v16%'").get()).toEqual({ n: 0 });
        expect(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'monitor_events'").get()).toEqual({ seq: 3 });
        expect(db.pragma('foreign_key_check')).toEqual([]);
        expect(db.prepare('SELECT kind FROM watches ORDER BY id').all()).toEqual([{ kind: 'did' }, { kind: 'did' }]);
        expect(db.prepare('SELECT replays FROM customer_webhook_deliveries').all()).toEqual([{ replays: 0 }]);
        expect(db.prepare(insertEvent(NEW_TYPES[0]!)).get()).toEqual({ id: 4 });
        for (const type of NEW_TYPES.slice(1)) db.prepare(insertEvent(type)).get();
        expect(() => db.prepare(insertEvent('mcp.unknown')).get()).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_CHECK' }));
        expect(() => db.prepare('DELETE FROM monitor_events WHERE id = 2').run()).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }));
        expect(() =>
          db.prepare("INSERT INTO watches (did, webhook_url, secret, interval_seconds, created_at, kind) VALUES ('x', 'u', 's', 60, 'now', 'ftp')").run(),
        ).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_CHECK' }));
        // An attempt names an event or a delivery, never both or neither.
        const attempt = (event: string, delivery: string) =>
          `INSERT INTO delivery_attempts (event_id, delivery_id, attempt, attempted_at, decision, detail) VALUES (${event}, ${delivery}, 1, 'now', 'DELIVERED', 'ok')`;
        db.prepare(attempt('1', 'NULL')).run();
        db.prepare(attempt('NULL', "'d1'")).run();
        expect(() => db.prepare(attempt('1', "'d1'")).run()).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_CHECK' }));
        expect(() => db.prepare(attempt('NULL', 'NULL')).run()).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_CHECK' }));
      } finally {
        store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describePostgres('schema version 16 on PostgreSQL: columns added, the event type CHECK replaced in place', () => {
  it('keeps ids and the deliveries, adds replays = 0; allows the new types', async () => {
    const { schema, drop } = freshSchema();
    const client = new pg.Client({ connectionString: postgresUrl });
    try {
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
      await client.query('CREATE TABLE svc_schema_version (id SMALLINT PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)');
      for (const migration of MIGRATIONS.filter((m) => m.version <= 15)) await client.query(migration.postgres ?? postgresSql(migration.up));
      await client.query('INSERT INTO svc_schema_version (id, version) VALUES (1, 15)');
      for (const statement of FILL) await client.query(statement);
      const events = (await client.query(EVENTS)).rows as Array<Record<string, unknown>>;
      await expect(client.query(insertEvent('mcp.inventory.changed'))).rejects.toThrow(/check constraint/);

      const store = await openPostgresStore({ url: postgresUrl, schema });
      try {
        expect(store.schemaVersion).toBe(SCHEMA_VERSION);
        expect((await client.query(EVENTS)).rows).toEqual(events.map((e) => ({ ...e, replays: 0 })));
        for (const type of NEW_TYPES) await client.query(insertEvent(type));
        await expect(client.query(insertEvent('mcp.unknown'))).rejects.toThrow(/check constraint/);
        expect((await client.query('SELECT kind FROM watches ORDER BY id')).rows).toEqual([{ kind: 'did' }, { kind: 'did' }]);
        await expect(
          client.query(
            `INSERT INTO delivery_attempts (event_id, delivery_id, attempt, attempted_at, decision, detail) VALUES (1, 'd1', 1, 'now', 'DELIVERED', 'ok')`,
          ),
        ).rejects.toThrow(/check constraint/);
      } finally {
        await store.close();
      }
    } finally {
      await client.end().catch(() => undefined);
      await drop();
    }
  });
});
