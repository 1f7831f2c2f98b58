/**
 * Owner accounts: the AccountStore on the embedded SQLite file and on a real PostgreSQL
 * server (a schema of its own per suite), one suite held to the same behaviour — tenants,
 * projects and owners; the ownership check of every owner action, also against a concurrent
 * removal of the owner; the key caps; atomic rotation; keyed authentication; usage counters
 * under concurrent increments from two connections; sessions on the database clock; single-use
 * sign-in challenges. Times are moved by rewriting rows relative to themselves: no sleeping.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_KEY_LIMITS, type AccountStore, type ApiKeyMetadata, type NewApiKey } from '../../src/core/store.js';
import { ChallengeCapacityError } from '../../src/store/schema/errors.js';
import { KeyCapacityError, openStore, StoreError, type StoreErrorCode } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { describePostgres, freshSchema, postgresUrl } from '../support/postgres.js';

/** A transaction held open on a connection of its own (another process, as far as the store can tell). */
interface Held {
  commit(): Promise<void>;
}

interface Opened {
  accounts: AccountStore;
  /** The same database through a second store (its own connection or pool). */
  second: AccountStore;
  sql(statement: string): Promise<void>;
  rows<T>(statement: string): Promise<T[]>;
  /** Runs `statements` in a transaction left open until commit(). */
  hold(statements: string[]): Promise<Held>;
  /** Makes the first store give up at once on a lock another connection holds (SQLite: busy_timeout). */
  impatient(on: boolean): void;
  close(): Promise<void>;
}

interface Backend {
  name: string;
  describe: (name: string, fn: () => void) => void;
  open(): Promise<Opened>;
}

const BACKENDS: Backend[] = [
  {
    name: 'SQLite',
    describe,
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'svc-accounts-'));
      const file = path.join(dir, 'svc.db');
      const store = openStore({ path: file });
      const other = openStore({ path: file });
      const raws: Database.Database[] = [];
      return {
        accounts: store.accounts,
        second: other.accounts,
        sql: async (statement) => {
          store.db.exec(statement);
        },
        rows: async <T>(statement: string) => store.db.prepare(statement).all() as T[],
        hold: async (statements) => {
          const raw = new Database(file);
          raws.push(raw);
          raw.exec('BEGIN IMMEDIATE');
          for (const s of statements) {
            const statement = raw.prepare(s);
            if (statement.reader) statement.all();
            else statement.run();
          }
          return {
            commit: async () => {
              raw.exec('COMMIT');
              raw.close();
            },
          };
        },
        impatient: (on) => {
          store.db.pragma(`busy_timeout = ${on ? 50 : 5000}`);
        },
        close: async () => {
          for (const raw of raws) if (raw.open) raw.close();
          store.close();
          other.close();
          rmSync(dir, { recursive: true, force: true });
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
      const other = await openPostgresStore({ url: postgresUrl, schema });
      const clients: pg.Client[] = [];
      return {
        accounts: store.accounts,
        second: other.accounts,
        sql: async (statement) => {
          await store.pool.query(statement);
        },
        rows: async <T>(statement: string) => (await store.pool.query(statement)).rows as T[],
        hold: async (statements) => {
          const client = new pg.Client({ connectionString: postgresUrl, options: `-c search_path=${schema}` });
          clients.push(client);
          await client.connect();
          await client.query('BEGIN');
          for (const s of statements) await client.query(s);
          return {
            commit: async () => {
              await client.query('COMMIT');
              await client.end();
            },
          };
        },
        impatient: () => undefined,
        close: async () => {
          for (const client of clients) await client.end().catch(() => undefined);
          await store.close();
          await other.close();
          await drop();
        },
      };
    },
  },
];

const hex = (): string => randomBytes(32).toString('hex');
let keys = 0;
function newKey(extra: Partial<NewApiKey> = {}): NewApiKey {
  keys += 1;
  return { id: `key_${keys}_${randomBytes(4).toString('hex')}`, keyHash: hex(), prefix: `sk_${String(keys).padStart(5, '0')}`, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function storeError(promise: Promise<unknown>, code: StoreErrorCode): Promise<StoreError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).code).toBe(code);
  expect((error as StoreError).message).not.toMatch(/\n/);
  return error as StoreError;
}

/** Whether a promise is still pending after `ms` milliseconds. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const marker = Symbol('pending');
  const outcome = await Promise.race([
    promise.then(
      () => 'settled',
      () => 'settled',
    ),
    new Promise((r) => setTimeout(() => r(marker), ms)),
  ]);
  return outcome === marker;
}

/** Every string anywhere in a value. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...stringsOf(v)]);
  return [];
}

const ALICE = 'did:web:alice.example';
const BOB = 'did:web:bob.example';
const MALLORY = 'did:web:mallory.example';
/** The client a sign-in challenge is made for (the gateway's clientKey). */
const CLIENT = '127.0.0.1';
/** A pool of `n` pending challenges whose client and DID shares are as large as it. */
const pool = (n: number) => ({ total: n, perClient: 10_000, perDid: 10_000 });
const METADATA = ['createdAt', 'id', 'label', 'lastUsedAt', 'prefix', 'projectId', 'replacesKeyId', 'revokedAt', 'status'];

for (const backend of BACKENDS) {
  backend.describe(`AccountStore on ${backend.name}`, () => {
    let db: Opened;
    let accounts: AccountStore;

    beforeAll(async () => {
      db = await backend.open();
      accounts = db.accounts;
    });
    afterAll(async () => {
      await db?.close();
    });

    /** A tenant founded by `owner`, with one project. */
    async function project(owner = ALICE, name = 'main') {
      const tenant = await accounts.createTenant({ name: `tenant of ${owner}`, owner });
      const created = await accounts.createProject(tenant.id, { name });
      return { tenant, project: created };
    }

    describe('tenants, projects, owners', () => {
      it('creates a tenant with its founding owner attached, and projects named once per tenant', async () => {
        const tenant = await accounts.createTenant({ name: 'Acme', owner: ALICE });
        expect(tenant).toEqual({
          id: expect.stringMatching(/^ten_[A-Za-z0-9_-]{22}$/),
          name: 'Acme',
          ownerSubject: ALICE,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        });
        expect(await accounts.ownersOf(tenant.id)).toEqual([ALICE]);
        expect((await accounts.listTenants()).map((t) => t.id)).toContain(tenant.id);

        const web = await accounts.createProject(tenant.id, { name: 'web' });
        expect(web).toEqual({ id: expect.stringMatching(/^prj_[A-Za-z0-9_-]{22}$/), tenantId: tenant.id, name: 'web', createdAt: expect.any(String) });
        expect(await accounts.getProject(web.id)).toEqual(web);
        expect(await accounts.getProject('prj_none')).toBeUndefined();
        await storeError(accounts.createProject(tenant.id, { name: 'web' }), 'CONFLICT');
        await storeError(accounts.createProject('ten_none', { name: 'web' }), 'NOT_FOUND');
        // Another tenant may use the name.
        const other = await accounts.createTenant({ name: 'Other', owner: BOB });
        await accounts.createProject(other.id, { name: 'web' });
        await expect(accounts.createProject(tenant.id, { name: '' })).rejects.toBeInstanceOf(RangeError);

        const api = await accounts.createProject(tenant.id, { name: 'api' });
        expect((await accounts.listProjectsOwnedBy(ALICE)).map((p) => p.id)).toEqual(expect.arrayContaining([web.id, api.id]));
        expect((await accounts.listProjectsOwnedBy(BOB)).map((p) => p.id)).not.toContain(web.id);
      });

      it('attaches owners idempotently and removes them; an owner owns every project of the tenant', async () => {
        const { tenant, project: p } = await project(ALICE);
        expect(await accounts.attachOwner(tenant.id, BOB)).toBe(true);
        expect(await accounts.attachOwner(tenant.id, BOB)).toBe(false);
        expect((await accounts.ownersOf(tenant.id)).sort()).toEqual([ALICE, BOB].sort());
        expect((await accounts.listProjectsOwnedBy(BOB)).map((x) => x.id)).toContain(p.id);
        await accounts.issueKey(BOB, p.id, newKey());
        expect(await accounts.removeOwner(tenant.id, BOB)).toBe(true);
        expect(await accounts.removeOwner(tenant.id, BOB)).toBe(false);
        expect((await accounts.listProjectsOwnedBy(BOB)).map((x) => x.id)).not.toContain(p.id);
        await storeError(accounts.listKeys(BOB, p.id), 'NOT_OWNER');
        await storeError(accounts.attachOwner('ten_none', BOB), 'NOT_FOUND');
      });

      it('ownsProject: true for an owner, false for another subject, an unknown project, and ids PostgreSQL cannot hold', async () => {
        const { tenant, project: p } = await project(ALICE);
        expect(await accounts.ownsProject(ALICE, p.id)).toBe(true);
        expect(await accounts.ownsProject(BOB, p.id)).toBe(false);
        expect(await accounts.ownsProject(ALICE, 'prj_none')).toBe(false);
        expect(await accounts.ownsProject(ALICE, `${p.id}\u0000`)).toBe(false);
        expect(await accounts.ownsProject(`${ALICE}\u0000`, p.id)).toBe(false);
        await accounts.attachOwner(tenant.id, BOB);
        expect(await accounts.ownsProject(BOB, p.id)).toBe(true);
      });
    });

    describe('ownership checks', () => {
      it('refuses every owner action of a subject that does not own the project (or of a project that does not exist)', async () => {
        const { project: p } = await project(ALICE);
        const { project: bobs } = await project(BOB);
        const key = await accounts.issueKey(ALICE, p.id, newKey());
        for (const [subject, projectId] of [
          [MALLORY, p.id],
          [BOB, p.id],
          [ALICE, bobs.id],
          [ALICE, 'prj_none'],
        ] as const) {
          await storeError(accounts.listKeys(subject, projectId), 'NOT_OWNER');
          await storeError(accounts.issueKey(subject, projectId, newKey()), 'NOT_OWNER');
          await storeError(accounts.revokeKey(subject, projectId, key.id), 'NOT_OWNER');
          await storeError(accounts.rotateKey(subject, projectId, key.id, newKey()), 'NOT_OWNER');
        }
        // Nothing changed: the one key is still active, alone.
        expect((await accounts.listKeys(ALICE, p.id)).map((k) => [k.id, k.status])).toEqual([[key.id, 'ACTIVE']]);
        // A key of another project is not found through this one.
        const bobsKey = await accounts.issueKey(BOB, bobs.id, newKey());
        await storeError(accounts.revokeKey(ALICE, p.id, bobsKey.id), 'NOT_FOUND');
        expect((await accounts.listKeys(BOB, bobs.id))[0]!.status).toBe('ACTIVE');
      });

      it('races removeOwner against issueKey: every action started after the removal settled fails, and what succeeded is all there', async () => {
        for (let round = 0; round < 3; round++) {
          const { tenant, project: p } = await project(ALICE, `race ${round}`);
          await accounts.attachOwner(tenant.id, BOB);
          const outcomes: Array<{ afterRemoval: boolean; result: Promise<ApiKeyMetadata> }> = [];
          let removed = false;
          const issue = (store: AccountStore) => {
            const result = store.issueKey(BOB, p.id, newKey());
            result.catch(() => undefined);
            outcomes.push({ afterRemoval: removed, result });
          };
          issue(accounts);
          issue(db.second);
          const removal = db.second.removeOwner(tenant.id, BOB).then((r) => {
            removed = true;
            return r;
          });
          // Issuers on both connections while the removal is under way (at most 10 in all before
          // it settles: the active cap is not what this test is about), then after it settled.
          issue(accounts);
          issue(db.second);
          for (let i = 0; i < 6 && !removed; i++) {
            await new Promise((r) => setTimeout(r, 1));
            issue(i % 2 === 0 ? accounts : db.second);
          }
          await removal;
          issue(accounts);
          issue(db.second);
          expect(await removal).toBe(true);
          const settled = await Promise.allSettled(outcomes.map((o) => o.result));
          let succeeded = 0;
          settled.forEach((s, i) => {
            if (s.status === 'fulfilled') {
              succeeded += 1;
              expect(outcomes[i]!.afterRemoval, `issue ${i} started after the removal settled`).toBe(false);
            } else {
              expect(s.reason).toBeInstanceOf(StoreError);
              expect((s.reason as StoreError).code).toBe('NOT_OWNER');
            }
          });
          expect(outcomes.filter((o) => o.afterRemoval).length).toBeGreaterThan(0);
          // Every key that was issued is stored, and nothing else.
          const stored = await accounts.listKeys(ALICE, p.id);
          expect(stored.length).toBe(succeeded);
          await storeError(accounts.issueKey(BOB, p.id, newKey()), 'NOT_OWNER');
        }
      });

      it('an action waits for an uncommitted removal of its owner and then fails; a removal waits for an action in flight', async () => {
        const { tenant, project: p } = await project(ALICE, 'locks');
        await accounts.attachOwner(tenant.id, BOB);
        const owner = `tenant_id = '${tenant.id}' AND subject = '${BOB}'`;

        // A removal holds its transaction open.
        const removal = await db.hold([`DELETE FROM tenant_owners WHERE ${owner}`]);
        if (backend.name === 'SQLite') {
          // The write lock: the action cannot start (busy) while the removal is open — never a success.
          db.impatient(true);
          const error = await rejection(accounts.issueKey(BOB, p.id, newKey()));
          expect((error as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
          db.impatient(false);
          await removal.commit();
        } else {
          const issued = accounts.issueKey(BOB, p.id, newKey());
          issued.catch(() => undefined);
          expect(await pendingAfter(issued, 300)).toBe(true);
          await removal.commit();
          await storeError(issued, 'NOT_OWNER');
        }
        await storeError(accounts.issueKey(BOB, p.id, newKey()), 'NOT_OWNER');
        expect(await accounts.listKeys(ALICE, p.id)).toEqual([]);

        // An action in flight (holding what the ownership check takes) makes the removal wait; it commits first.
        await accounts.attachOwner(tenant.id, BOB);
        const inFlight = await db.hold(
          backend.name === 'SQLite'
            ? [`SELECT 1 FROM tenant_owners WHERE ${owner}`]
            : [
                `SELECT 1 FROM projects p JOIN tenant_owners o ON o.tenant_id = p.tenant_id WHERE p.id = '${p.id}' AND o.subject = '${BOB}' FOR NO KEY UPDATE OF p FOR SHARE OF o`,
              ],
        );
        if (backend.name === 'SQLite') {
          db.impatient(true);
          const error = await rejection(accounts.removeOwner(tenant.id, BOB));
          expect((error as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
          db.impatient(false);
          await inFlight.commit();
          expect(await accounts.removeOwner(tenant.id, BOB)).toBe(true);
        } else {
          const removing = accounts.removeOwner(tenant.id, BOB);
          expect(await pendingAfter(removing, 300)).toBe(true);
          await inFlight.commit();
          expect(await removing).toBe(true);
        }
        await storeError(accounts.listKeys(BOB, p.id), 'NOT_OWNER');
      });
    });

    describe('project keys', () => {
      it('issues keys up to 10 active; the 11th is KEY_CAPACITY naming the active cap', async () => {
        const { project: p } = await project(ALICE, 'caps');
        for (let i = 0; i < PROJECT_KEY_LIMITS.active; i++) await accounts.issueKey(ALICE, p.id, newKey());
        const error = await storeError(accounts.issueKey(ALICE, p.id, newKey()), 'KEY_CAPACITY');
        expect(error).toBeInstanceOf(KeyCapacityError);
        expect(error).toMatchObject({ cap: 'active', limit: 10 });
        expect((await accounts.listKeys(ALICE, p.id)).length).toBe(10);
        // A revocation frees an active place.
        const [first] = await accounts.listKeys(ALICE, p.id);
        await accounts.revokeKey(ALICE, p.id, first!.id);
        await accounts.issueKey(ALICE, p.id, newKey());
      });

      it('concurrent issuers on two connections never pass the active cap together', async () => {
        const { project: p } = await project(ALICE, 'concurrent caps');
        const results = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? accounts : db.second).issueKey(ALICE, p.id, newKey())));
        expect(results.filter((r) => r.status === 'fulfilled').length).toBe(10);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'KEY_CAPACITY', cap: 'active' });
        expect((await accounts.listKeys(ALICE, p.id)).length).toBe(10);
      });

      it('100 retained keys of any status: then KEY_CAPACITY naming the retained cap, for an issue and for a rotation', async () => {
        const { project: p } = await project(ALICE, 'retained');
        const active = await accounts.issueKey(ALICE, p.id, newKey());
        const values = Array.from(
          { length: 98 },
          (_, i) => `('old_${p.id}_${i}', '${p.id}', '${hex()}', 'sk_old', NULL, 'REVOKED', '2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z')`,
        );
        await db.sql(`INSERT INTO api_keys (id, project_id, key_hash, prefix, label, status, created_at, revoked_at) VALUES ${values.join(', ')}`);
        // 99 rows: one more fits.
        const hundredth = await accounts.issueKey(ALICE, p.id, newKey());
        const issue = await storeError(accounts.issueKey(ALICE, p.id, newKey()), 'KEY_CAPACITY');
        expect(issue).toMatchObject({ cap: 'retained', limit: 100 });
        // The rotation's new row would be the 101st: refused, and the old key stays ACTIVE.
        const rotation = await storeError(accounts.rotateKey(ALICE, p.id, active.id, newKey()), 'KEY_CAPACITY');
        expect(rotation).toMatchObject({ cap: 'retained' });
        const listed = await accounts.listKeys(ALICE, p.id);
        expect(listed.length).toBe(100);
        expect(listed.find((k) => k.id === active.id)!.status).toBe('ACTIVE');
        expect(listed.find((k) => k.id === hundredth.id)!.status).toBe('ACTIVE');
      });

      it('lists metadata only: no member holds or contains the digest', async () => {
        const { project: p } = await project(ALICE, 'metadata');
        const key = newKey({ label: 'ci' });
        const issued = await accounts.issueKey(ALICE, p.id, key);
        const rotated = await accounts.rotateKey(ALICE, p.id, issued.id, newKey());
        const listed = await accounts.listKeys(ALICE, p.id);
        const all = [issued, rotated.rotated, rotated.issued, ...listed];
        for (const metadata of all) {
          expect(Object.keys(metadata).sort()).toEqual(METADATA);
          for (const s of stringsOf(metadata)) {
            expect(s.includes(key.keyHash)).toBe(false);
            expect(key.keyHash.includes(s) && s.length >= 8).toBe(false);
          }
        }
        expect(issued).toEqual({
          id: key.id,
          projectId: p.id,
          prefix: key.prefix,
          label: 'ci',
          status: 'ACTIVE',
          createdAt: expect.any(String),
          lastUsedAt: null,
          revokedAt: null,
          replacesKeyId: null,
        });
        await storeError(accounts.issueKey(ALICE, p.id, newKey({ keyHash: key.keyHash })), 'CONFLICT');
        await expect(accounts.issueKey(ALICE, p.id, newKey({ keyHash: 'ABC' }))).rejects.toBeInstanceOf(RangeError);
      });

      it('revokes at once (idempotent for a key already revoked); a revoked key no longer authenticates', async () => {
        const { tenant, project: p } = await project(ALICE, 'revoke');
        const key = newKey();
        const issued = await accounts.issueKey(ALICE, p.id, key);
        expect(await accounts.authenticateKey(key.keyHash)).toEqual({ keyId: issued.id, projectId: p.id, tenantId: tenant.id });
        const revoked = await accounts.revokeKey(ALICE, p.id, issued.id);
        expect(revoked).toMatchObject({ id: issued.id, status: 'REVOKED', revokedAt: expect.any(String) });
        expect(await accounts.authenticateKey(key.keyHash)).toBeNull();
        expect(await db.second.authenticateKey(key.keyHash)).toBeNull();
        expect(await accounts.revokeKey(ALICE, p.id, issued.id)).toEqual(revoked);
        await storeError(accounts.revokeKey(ALICE, p.id, 'key_none'), 'NOT_FOUND');
        expect(await accounts.authenticateKey(hex())).toBeNull();
        expect(await accounts.authenticateKey('not a digest')).toBeNull();
      });

      it('a key revoked or rotated through another connection is refused at once: nothing read is kept across a commit', async () => {
        const { project: p } = await project(ALICE, 'elsewhere');
        const key = newKey();
        const issued = await accounts.issueKey(ALICE, p.id, key);
        for (let i = 0; i < 3; i++) expect(await accounts.authenticateKey(key.keyHash)).toMatchObject({ keyId: issued.id });
        await db.second.revokeKey(ALICE, p.id, issued.id);
        expect(await accounts.authenticateKey(key.keyHash)).toBeNull();
        const other = newKey();
        const second = await db.second.issueKey(ALICE, p.id, other);
        for (let i = 0; i < 3; i++) expect(await accounts.authenticateKey(other.keyHash)).toMatchObject({ keyId: second.id });
        await db.second.rotateKey(ALICE, p.id, second.id, newKey());
        expect(await accounts.authenticateKey(other.keyHash)).toBeNull();
      });

      it('stamps lastUsedAt on authentication, at most once a minute', async () => {
        const { project: p } = await project(ALICE, 'stamp');
        const key = newKey();
        const issued = await accounts.issueKey(ALICE, p.id, key);
        await accounts.authenticateKey(key.keyHash);
        const first = (await accounts.listKeys(ALICE, p.id))[0]!.lastUsedAt;
        expect(first).toMatch(/Z$/);
        await db.sql(`UPDATE api_keys SET last_used_at = '2000-01-01T00:00:00Z' WHERE id = '${issued.id}'`);
        await accounts.authenticateKey(key.keyHash);
        const second = (await accounts.listKeys(ALICE, p.id))[0]!.lastUsedAt;
        expect(second).not.toBe('2000-01-01T00:00:00Z');
        expect(second! >= first!).toBe(true);
        // Within the minute: not written again (a marker a few seconds old stays).
        const recent = (
          await db.rows<{ t: string }>(
            backend.name === 'SQLite'
              ? `SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-5 seconds') AS t`
              : `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC' - interval '5 seconds', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS t`,
          )
        )[0]!.t;
        await db.sql(`UPDATE api_keys SET last_used_at = '${recent}' WHERE id = '${issued.id}'`);
        await accounts.authenticateKey(key.keyHash);
        expect((await accounts.listKeys(ALICE, p.id))[0]!.lastUsedAt).toBe(recent);
      });

      it('rotates atomically: the old key ROTATED and the new one ACTIVE replacing it', async () => {
        const { project: p } = await project(ALICE, 'rotate');
        const oldKey = newKey();
        const old = await accounts.issueKey(ALICE, p.id, oldKey);
        const nextKey = newKey();
        const { rotated, issued } = await accounts.rotateKey(ALICE, p.id, old.id, nextKey);
        expect(rotated).toMatchObject({ id: old.id, status: 'ROTATED', revokedAt: expect.any(String) });
        expect(issued).toMatchObject({ id: nextKey.id, status: 'ACTIVE', replacesKeyId: old.id });
        expect(await accounts.authenticateKey(oldKey.keyHash)).toBeNull();
        expect(await accounts.authenticateKey(nextKey.keyHash)).toMatchObject({ keyId: nextKey.id });
        // Only an ACTIVE key rotates.
        await storeError(accounts.rotateKey(ALICE, p.id, old.id, newKey()), 'NOT_FOUND');
        await storeError(accounts.rotateKey(ALICE, p.id, 'key_none', newKey()), 'NOT_FOUND');
      });

      it('a rotation that fails (a colliding digest) leaves the old key ACTIVE and adds nothing', async () => {
        const { project: p } = await project(ALICE, 'rotate failure');
        const oldKey = newKey();
        const old = await accounts.issueKey(ALICE, p.id, oldKey);
        const other = newKey();
        await accounts.issueKey(ALICE, p.id, other);
        await storeError(accounts.rotateKey(ALICE, p.id, old.id, newKey({ keyHash: other.keyHash })), 'CONFLICT');
        await storeError(accounts.rotateKey(ALICE, p.id, old.id, newKey({ id: other.id })), 'CONFLICT');
        const listed = await accounts.listKeys(ALICE, p.id);
        expect(listed.length).toBe(2);
        expect(listed.find((k) => k.id === old.id)).toMatchObject({ status: 'ACTIVE', revokedAt: null });
        expect(await accounts.authenticateKey(oldKey.keyHash)).toMatchObject({ keyId: old.id });
      });
    });

    describe('usage', () => {
      it('counts by upsert; concurrent increments from two connections sum exactly', async () => {
        const { project: p } = await project(ALICE, 'usage');
        expect(await accounts.countUsage(p.id, 'requests', '2026-11')).toBe(1);
        expect(await accounts.countUsage(p.id, 'requests', '2026-11', 4)).toBe(5);
        await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? accounts : db.second).countUsage(p.id, 'requests', '2026-12')));
        await accounts.countUsage(p.id, 'watches', '2026-12', 2);
        expect(await accounts.usageOf(p.id, '2026-12')).toEqual([
          { projectId: p.id, metric: 'requests', period: '2026-12', count: 60 },
          { projectId: p.id, metric: 'watches', period: '2026-12', count: 2 },
        ]);
        expect((await accounts.usageOf(p.id)).map((r) => [r.period, r.metric, r.count])).toEqual([
          ['2026-11', 'requests', 5],
          ['2026-12', 'requests', 60],
          ['2026-12', 'watches', 2],
        ]);
        await expect(accounts.countUsage(p.id, 'requests', '2026-12', 0)).rejects.toBeInstanceOf(RangeError);
      });
    });

    describe('owner sessions', () => {
      /** Moves a session's times `seconds` into the past (all of them: the database clock moved on). */
      const age = (idDigest: string, seconds: number) =>
        db.sql(`UPDATE owner_sessions SET created_at_ms = created_at_ms - ${seconds * 1000}, last_seen_at_ms = last_seen_at_ms - ${seconds * 1000},
          expires_at_ms = expires_at_ms - ${seconds * 1000}, absolute_expires_at_ms = absolute_expires_at_ms - ${seconds * 1000} WHERE id_digest = '${idDigest}'`);

      it('a touch extends the idle expiry, never past the absolute one', async () => {
        const id = hex();
        const created = await accounts.createSession({ idDigest: id, subject: ALICE, idleSeconds: 60, absoluteSeconds: 3600 });
        expect(created.subject).toBe(ALICE);
        expect(created.expiresAt < created.absoluteExpiresAt).toBe(true);
        await age(id, 30);
        const touched = (await accounts.touchSession(id))!;
        expect(touched.expiresAt >= created.expiresAt).toBe(true);

        const short = hex();
        const capped = await accounts.createSession({ idDigest: short, subject: ALICE, idleSeconds: 3600, absoluteSeconds: 60 });
        expect(capped.expiresAt).toBe(capped.absoluteExpiresAt);
        expect((await accounts.touchSession(short))!.expiresAt).toBe(capped.absoluteExpiresAt);
        await storeError(accounts.createSession({ idDigest: short, subject: BOB, idleSeconds: 60, absoluteSeconds: 60 }), 'CONFLICT');
      });

      it('idle expiry: untouched past its idle time, the session is gone', async () => {
        const id = hex();
        await accounts.createSession({ idDigest: id, subject: ALICE, idleSeconds: 60, absoluteSeconds: 3600 });
        await age(id, 30);
        expect(await accounts.touchSession(id)).not.toBeNull();
        // Idle for 61 s since that touch (the absolute expiry is still an hour off).
        await db.sql(`UPDATE owner_sessions SET last_seen_at_ms = last_seen_at_ms - 61000, expires_at_ms = expires_at_ms - 61000 WHERE id_digest = '${id}'`);
        expect(await accounts.touchSession(id)).toBeNull();
        expect(await db.second.touchSession(id)).toBeNull();
      });

      it('absolute expiry: touched all along, the session still ends', async () => {
        const id = hex();
        await accounts.createSession({ idDigest: id, subject: ALICE, idleSeconds: 50, absoluteSeconds: 120 });
        await age(id, 40);
        expect(await accounts.touchSession(id)).not.toBeNull();
        await age(id, 40);
        expect(await accounts.touchSession(id)).not.toBeNull();
        await age(id, 41);
        expect(await accounts.touchSession(id)).toBeNull();
      });

      it('revocation ends a session at once; revokeSessionsOf ends all of a subject; the sweep deletes long-expired ones', async () => {
        const [a, b, c] = [hex(), hex(), hex()];
        for (const id of [a, b]) await accounts.createSession({ idDigest: id, subject: BOB, idleSeconds: 600, absoluteSeconds: 3600 });
        await accounts.createSession({ idDigest: c, subject: MALLORY, idleSeconds: 600, absoluteSeconds: 3600 });
        expect(await accounts.revokeSession(a)).toBe(true);
        expect(await accounts.revokeSession(a)).toBe(false);
        expect(await accounts.touchSession(a)).toBeNull();
        expect(await accounts.touchSession(b)).not.toBeNull();
        expect(await accounts.revokeSessionsOf(BOB)).toBe(1);
        expect(await db.second.touchSession(b)).toBeNull();
        expect(await accounts.touchSession(c)).not.toBeNull();

        const before = await accounts.sweep();
        await age(c, 2 * 86400);
        const swept = await accounts.sweep();
        expect(swept.sessionsRemoved).toBeGreaterThanOrEqual(before.sessionsRemoved + 1);
        expect(await db.rows(`SELECT subject FROM owner_sessions WHERE id_digest = '${c}'`)).toEqual([]);
      });
    });

    describe('sign-in challenges', () => {
      it('consumes a challenge exactly once, for its DID, while unexpired', async () => {
        const token = hex();
        const { expiresAt } = await accounts.createSignInChallenge({ tokenDigest: token, did: ALICE, ttlSeconds: 300, client: CLIENT });
        expect(expiresAt).toMatch(/Z$/);
        expect(await accounts.consumeSignInChallenge(token, BOB)).toBe(false);
        expect(await accounts.consumeSignInChallenge(token, ALICE)).toBe(true);
        expect(await accounts.consumeSignInChallenge(token, ALICE)).toBe(false);
        expect(await accounts.consumeSignInChallenge(hex(), ALICE)).toBe(false);
        await storeError(accounts.createSignInChallenge({ tokenDigest: token, did: ALICE, ttlSeconds: 300, client: CLIENT }), 'CONFLICT');

        const expired = hex();
        await accounts.createSignInChallenge({ tokenDigest: expired, did: ALICE, ttlSeconds: 1, client: CLIENT });
        await db.sql(
          `UPDATE sign_in_challenges SET created_at_ms = created_at_ms - 5000, expires_at_ms = expires_at_ms - 5000 WHERE token_digest = '${expired}'`,
        );
        expect(await accounts.consumeSignInChallenge(expired, ALICE)).toBe(false);
      });

      it('of concurrent consumers on two connections, one wins', async () => {
        for (let round = 0; round < 3; round++) {
          const token = hex();
          await accounts.createSignInChallenge({ tokenDigest: token, did: ALICE, ttlSeconds: 300, client: CLIENT });
          const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? accounts : db.second).consumeSignInChallenge(token, ALICE)));
          expect(results.filter(Boolean).length).toBe(1);
        }
      });

      it('bounds the outstanding challenges: used and expired ones do not count', async () => {
        await db.sql('DELETE FROM sign_in_challenges');
        const tokens = [hex(), hex(), hex()];
        for (const t of tokens) await accounts.createSignInChallenge({ tokenDigest: t, did: ALICE, ttlSeconds: 300, client: CLIENT }, pool(3));
        await storeError(accounts.createSignInChallenge({ tokenDigest: hex(), did: ALICE, ttlSeconds: 300, client: CLIENT }, pool(3)), 'CHALLENGE_CAPACITY');
        await storeError(db.second.createSignInChallenge({ tokenDigest: hex(), did: ALICE, ttlSeconds: 300, client: CLIENT }, pool(3)), 'CHALLENGE_CAPACITY');
        expect(await accounts.consumeSignInChallenge(tokens[0]!, ALICE)).toBe(true);
        await accounts.createSignInChallenge({ tokenDigest: hex(), did: ALICE, ttlSeconds: 300, client: CLIENT }, pool(3));
        // Concurrent creators never pass the bound together.
        await db.sql('DELETE FROM sign_in_challenges');
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? accounts : db.second).createSignInChallenge({ tokenDigest: hex(), did: ALICE, ttlSeconds: 300, client: CLIENT }, pool(4)),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled').length).toBe(4);
        // The sweep deletes challenges expired over a day ago.
        await db.sql(`UPDATE sign_in_challenges SET created_at_ms = created_at_ms - 172800000, expires_at_ms = expires_at_ms - 172800000`);
        expect((await accounts.sweep()).challengesRemoved).toBe(4);
      });

      it("fair shares: a client's and a DID's pending challenges are bounded, named by the error; a client holding none of a DID's is admitted", async () => {
        await db.sql('DELETE FROM sign_in_challenges');
        const limits = { total: 100, perClient: 3, perDid: 2 };
        const create = (did: string, client: string, store: AccountStore = accounts) =>
          store.createSignInChallenge({ tokenDigest: hex(), did, ttlSeconds: 300, client }, limits);
        const refusal = async (run: Promise<unknown>) => {
          const error = await run.then(
            () => null,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(ChallengeCapacityError);
          expect((error as ChallengeCapacityError).code).toBe('CHALLENGE_CAPACITY');
          return (error as ChallengeCapacityError).refusal;
        };
        await create(ALICE, 'a');
        await create(ALICE, 'a');
        const did = await refusal(create(ALICE, 'a'));
        expect(did).toMatchObject({ refused: 'did', limit: 2 });
        expect(did.retryAfterSeconds).toBeGreaterThan(290);
        expect(did.retryAfterSeconds).toBeLessThanOrEqual(300);
        // Alice's controller elsewhere holds none of her challenges: admitted, past the DID's share.
        await create(ALICE, 'b', db.second);
        await create(BOB, 'a');
        expect(await refusal(create(MALLORY, 'a', db.second))).toMatchObject({ refused: 'client', limit: 3 });
        // Used ones no longer count.
        const token = hex();
        await accounts.createSignInChallenge({ tokenDigest: token, did: MALLORY, ttlSeconds: 300, client: 'c' }, limits);
        expect(await accounts.consumeSignInChallenge(token, MALLORY)).toBe(true);
        await create(MALLORY, 'c');
        await create(MALLORY, 'c');
        expect(await refusal(create(MALLORY, 'c'))).toMatchObject({ refused: 'did' });
        // The pool (6 pending now): the service's capacity, a minute at most.
        expect(
          await refusal(accounts.createSignInChallenge({ tokenDigest: hex(), did: BOB, ttlSeconds: 300, client: 'd' }, { ...limits, total: 6 })),
        ).toMatchObject({
          refused: 'total',
          limit: 6,
          retryAfterSeconds: 60,
        });
      });
    });

    describe('mock billing: plans, subscriptions, a closed month (no payment provider)', () => {
      it('plans are created and replaced by id; checked', async () => {
        const plan = await accounts.setPlan({ id: 'starter', name: 'Starter', currency: 'EUR', monthlyPriceMinor: 1900, includedRequests: 3 });
        expect(plan).toEqual({
          id: 'starter',
          name: 'Starter',
          currency: 'EUR',
          monthlyPriceMinor: 1900,
          includedRequests: 3,
          active: true,
          createdAt: expect.stringMatching(/Z$/),
        });
        const replaced = await accounts.setPlan({ id: 'starter', name: 'Starter 2', currency: 'EUR', monthlyPriceMinor: 2900, includedRequests: 3 });
        expect(replaced).toMatchObject({ name: 'Starter 2', monthlyPriceMinor: 2900 });
        await accounts.setPlan({ id: 'retired', name: 'Retired', currency: 'USD', monthlyPriceMinor: 0, includedRequests: 0, active: false });
        expect((await accounts.listPlans()).filter((p) => ['retired', 'starter'].includes(p.id)).map((p) => [p.id, p.active])).toEqual([
          ['retired', false],
          ['starter', true],
        ]);
        await expect(accounts.setPlan({ id: 'x', name: 'X', currency: 'euro', monthlyPriceMinor: 1, includedRequests: 1 })).rejects.toBeInstanceOf(RangeError);
        await expect(accounts.setPlan({ id: 'x', name: 'X', currency: 'EUR', monthlyPriceMinor: -1, includedRequests: 1 })).rejects.toBeInstanceOf(RangeError);
      });

      it('a month is closed once: an OPEN invoice of the plan price and one CHARGE stating the usage against what is included', async () => {
        await accounts.setPlan({ id: 'starter', name: 'Starter', currency: 'EUR', monthlyPriceMinor: 1900, includedRequests: 3 });
        const { tenant, project: first } = await project(ALICE, 'billed-a');
        const second = await accounts.createProject(tenant.id, { name: 'billed-b' });
        await storeError(accounts.closePeriod(tenant.id, '2026-10'), 'NOT_FOUND');
        await storeError(accounts.subscribe(tenant.id, 'retired'), 'NOT_FOUND');
        await storeError(accounts.subscribe('ten_nope', 'starter'), 'NOT_FOUND');
        expect(await accounts.subscribe(tenant.id, 'starter')).toMatchObject({ tenantId: tenant.id, planId: 'starter' });
        await accounts.countUsage(first.id, 'requests', '2026-10', 4);
        await accounts.countUsage(second.id, 'requests', '2026-10', 1);
        await accounts.countUsage(first.id, 'requests', '2026-11', 7);
        await accounts.countUsage(first.id, 'other', '2026-10', 100);
        const closed = await accounts.closePeriod(tenant.id, '2026-10');
        expect(closed.invoice).toMatchObject({
          tenantId: tenant.id,
          periodStart: '2026-10-01T00:00:00Z',
          periodEnd: '2026-11-01T00:00:00Z',
          currency: 'EUR',
          totalMinor: 1900,
          status: 'OPEN',
        });
        expect(closed.entries).toHaveLength(1);
        expect(closed.entries[0]).toMatchObject({ kind: 'CHARGE', amountMinor: 1900, invoiceId: closed.invoice.id });
        expect(closed.entries[0]!.description).toBe(
          'Plan Starter (starter) for 2026-10: 5 keyed requests of 3 included; 2 over, not charged (the plan sets no overage price)',
        );
        await storeError(db.second.closePeriod(tenant.id, '2026-10'), 'CONFLICT');
        const december = await accounts.closePeriod(tenant.id, '2026-12');
        expect(december.invoice).toMatchObject({ periodStart: '2026-12-01T00:00:00Z', periodEnd: '2027-01-01T00:00:00Z' });
        expect(december.entries[0]!.description).toContain('0 keyed requests of 3 included');
        const billing = await accounts.billingOf(tenant.id);
        expect(billing.plan).toMatchObject({ id: 'starter' });
        expect(billing.invoices.map((i) => i.periodStart)).toEqual(['2026-10-01T00:00:00Z', '2026-12-01T00:00:00Z']);
        expect(billing.ledger.map((e) => e.amountMinor)).toEqual([1900, 1900]);
        await expect(accounts.closePeriod(tenant.id, '2026-13')).rejects.toBeInstanceOf(RangeError);
        await storeError(accounts.billingOf('ten_nope'), 'NOT_FOUND');
      });

      it('two connections closing the same month at once: one invoice, one charge', async () => {
        await accounts.setPlan({ id: 'starter', name: 'Starter', currency: 'EUR', monthlyPriceMinor: 1900, includedRequests: 3 });
        const { tenant } = await project(BOB, 'raced');
        await accounts.subscribe(tenant.id, 'starter');
        const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? accounts : db.second).closePeriod(tenant.id, '2026-09')));
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect((r.reason as StoreError).code).toBe('CONFLICT');
        expect((await accounts.billingOf(tenant.id)).ledger).toHaveLength(1);
      });
    });
  });
}
