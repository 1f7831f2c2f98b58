/**
 * One conformance suite for every storage backend: the repositories of src/core/store.ts on the
 * embedded SQLite file and on a real PostgreSQL server (a schema of its own per suite), held to
 * the same behaviour — coalescing, ordering, limits, documents read back as written, upserts,
 * expiry, concurrent recorders, the watch limit under concurrent adds, delivery gauges, delivery
 * claims and settlements. The PostgreSQL half skips with a visible message where no
 * server answers, and fails under CI=true (CI here has one). PostgreSQL-only checks follow:
 * migrations, two daemons migrating at once, a future schema, an unreachable server.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DidDocument } from '../../src/core/resolve/types.js';
import type {
  CheckOutcome,
  ClaimChallenge,
  ClaimMethod,
  ClaimPurpose,
  DeliveryStatus,
  MonitorEventType,
  NewMcpSnapshot,
  NewObservation,
  NewProof,
  NewWatch,
  PendingRefusal,
  PlannedEvent,
  RecordCheck,
  RuntimeStore,
  StoredClaim,
  StoredDelegationChain,
  Watch,
} from '../../src/core/store.js';
import { MONITOR_EVENT_TYPES } from '../../src/core/monitoring/store.js';
import { openStore, SCHEMA_VERSION, StoreError } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/schema/migrations.js';
import { postgresSql } from '../../src/store/postgres/dialect.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { keptStores, schemaPool } from '../support/pg-schemas.js';
import { describePostgres, freshSchema, postgresUrl } from '../support/postgres.js';

/**
 * Migrated schemas, emptied and reused (the suite's, then the one the tests across daemons share
 * with their two stores kept open, emptied between tests); the migration tests take fresh ones.
 */
const schemas = schemaPool();
const twoDaemons = keptStores(schemas, 2);
afterAll(async () => {
  await twoDaemons.close();
  await schemas.dispose();
});

interface Backend {
  name: string;
  describe: (name: string, fn: () => void) => void;
  open(): Promise<{ store: RuntimeStore; close(): Promise<void>; sql(statement: string): Promise<void>; rows<T>(statement: string): Promise<T[]> }>;
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
        rows: async <T>(statement: string) => store.db.prepare(statement).all() as T[],
      };
    },
  },
  {
    name: 'PostgreSQL',
    describe: describePostgres,
    async open() {
      const { schema, drop } = await schemas.take();
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
        rows: async <T>(statement: string) => (await store.pool.query(statement)).rows as T[],
      };
    },
  },
];

const DID = 'did:web:conformance.example';

function documentOf(n: number): DidDocument {
  // Members in a deliberate, non-sorted order: a backend must give the text back as written.
  return {
    id: DID,
    '@context': ['https://www.w3.org/ns/did/v1'],
    verificationMethod: [{ id: `${DID}#k${n}`, type: 'Multikey', controller: DID, publicKeyMultibase: `z6Mk${n}` }],
  } as DidDocument;
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

/** The replay branch's gauges: no disabled webhook, no replay, `byType` events (every type a key, 0 elsewhere). */
function replayGauges(byType: Partial<Record<MonitorEventType, number>> = {}) {
  return {
    disabledWebhooks: 0,
    replays: 0,
    eventsByType: Object.fromEntries(MONITOR_EVENT_TYPES.map((type) => [type, byType[type] ?? 0])),
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

const hashOf = (n: number): string => `${String(n).padStart(2, '0')}`.repeat(32);

function resolved(n: number, checkedAt: string, extra: Partial<CheckOutcome> = {}): CheckOutcome {
  return {
    status: 'RESOLVED',
    documentHash: hashOf(n),
    fingerprintProfile: 'rfc8785-binary64-v1',
    domainBindingStatus: 'VERIFIED',
    document: documentOf(n),
    problem: null,
    checkedAt,
    tls: null,
    ...extra,
  };
}

function failed(checkedAt: string): CheckOutcome {
  return {
    status: 'FAILED',
    documentHash: null,
    fingerprintProfile: null,
    domainBindingStatus: null,
    document: null,
    problem: { type: 'https://svc.example/problems/resolution-failed', title: 'Resolution failed', status: 502, detail: 'HTTP 503 from the host' },
    checkedAt,
    tls: null,
  };
}

function changed(n: number): PlannedEvent {
  return { type: 'identity.document.changed', data: { before: { hash: hashOf(n - 1) }, after: { hash: hashOf(n) } } };
}

/** A check of `watchId` that read `revision`, under generous limits unless given. */
function check(watchId: number, revision: number, outcome: CheckOutcome, events: PlannedEvent[] = [], extra: Partial<RecordCheck> = {}): RecordCheck {
  return { watchId, revision, outcome, events, maxEvents: 10_000, maxPayloadBytes: 262_144, ...extra };
}

/** RFC 3339 UTC at second precision, `seconds` from now on this machine's clock (the database's, for the local servers the tests use). */
function secondsFromNow(seconds: number): string {
  return new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A fresh challenge token: 43 base64url characters, as the routes make them. */
const newToken = (): string => randomBytes(32).toString('base64url');
/** The client claim challenges are made for here (the daemon's clientKey). */
const CLIENT = '192.0.2.1';
/** A pool of `n` pending challenges whose client and DID shares are as large as it. */
const pool = (n: number) => ({ total: n, perClient: 10_000, perDid: 10_000 });
/** Whether createChallenge refused. */
const isRefusal = (value: ClaimChallenge | PendingRefusal): value is PendingRefusal => 'refused' in value;

/** What a proof of each method names as its subject. */
function subjectOf(method: ClaimMethod, did: string): string {
  if (method === 'signature') return `${did}#key-1`;
  const host = did.split(':')[2] ?? 'host.example';
  return method === 'well-known' ? `https://${host}/.well-known/svc-claim.txt` : `_svc-claim.${host}`;
}

/** The lifetimes the routes give: 30 days for a signature, 7 re-check intervals of a day otherwise. */
function proofOf(token: string, method: ClaimMethod, did: string): NewProof {
  return method === 'signature'
    ? { token, subject: subjectOf(method, did), lifetimeSeconds: 30 * 86_400, recheckSeconds: null }
    : { token, subject: subjectOf(method, did), lifetimeSeconds: 7 * 86_400, recheckSeconds: 86_400 };
}

for (const backend of BACKENDS) {
  backend.describe(`store conformance: ${backend.name}`, () => {
    let store: RuntimeStore;
    let close: () => Promise<void>;
    let sql: (statement: string) => Promise<void>;
    let rows: <T>(statement: string) => Promise<T[]>;
    beforeAll(async () => {
      ({ store, close, sql, rows } = await backend.open());
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
      expect(again).toMatchObject({
        outcome: 'coalesced',
        row: { id: first.row!.id, seenCount: 2, lastSeenAt: '2026-01-02T00:00:00Z', latencyMs: 7, summary: 'again', observedAt: '2026-01-01T00:00:00Z' },
      });
      // An observation stamped earlier never moves lastSeenAt back.
      const late = await observations.record(observation(1, '2025-12-31T00:00:00Z'));
      expect(late.row!.lastSeenAt).toBe('2026-01-02T00:00:00Z');
      // The binding status changing is a new row, as is a new document.
      expect((await observations.record(observation(1, '2026-01-03T00:00:00Z', { domainBindingStatus: 'NOT_LINKED' }))).outcome).toBe('stored');
      expect((await observations.record(observation(2, '2026-01-04T00:00:00Z'))).outcome).toBe('stored');
      expect(await observations.count(DID)).toBe(3);
      const list = await observations.list(DID, 10);
      expect(list.map((o) => o.observedAt)).toEqual(['2026-01-04T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-01T00:00:00Z']);
      expect(Object.keys(list[0]!).sort()).toEqual([
        'did',
        'documentHash',
        'domainBindingStatus',
        'id',
        'lastSeenAt',
        'latencyMs',
        'observedAt',
        'resolverVersion',
        'seenCount',
        'summary',
      ]);
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

    it('observations: hashesWithPrefix (distinct, newest first) and olderThan (one step back, ties by id)', async () => {
      const { observations } = store;
      const one = '01'.repeat(32);
      const two = '02'.repeat(32);
      // Rows: document 2, document 1 (NOT_LINKED), document 1: the hashes once each, newest first.
      expect(await observations.hashesWithPrefix(DID, '')).toEqual([two, one]);
      expect(await observations.hashesWithPrefix(DID, '0')).toEqual([two, one]);
      expect(await observations.hashesWithPrefix(DID, '01010101')).toEqual([one]);
      expect(await observations.hashesWithPrefix(DID, one)).toEqual([one]);
      expect(await observations.hashesWithPrefix(DID, '0103')).toEqual([]);
      expect(await observations.hashesWithPrefix(DID, 'ffffffff')).toEqual([]);
      // Not lower-case hex: nothing matches, and nothing is read that the range would not allow.
      expect(await observations.hashesWithPrefix(DID, '0A')).toEqual([]);
      expect(await observations.hashesWithPrefix(DID, "0' OR '1'='1")).toEqual([]);
      expect(await observations.hashesWithPrefix('did:web:other.example', '0')).toEqual([]);
      // hashPrefixes: each distinct hash once, cut to the length, in hash order (oldest hash first here).
      expect(await observations.hashPrefixes(DID, 12)).toEqual(['010101010101', '020202020202']);
      expect(await observations.hashPrefixes(DID, 1)).toEqual(['0', '0']);
      expect(await observations.hashPrefixes('did:web:other.example', 12)).toEqual([]);

      const rows = await observations.list(DID, 10);
      const older = await observations.olderThan(DID, rows[0]!);
      expect(older).toMatchObject({ id: rows[1]!.id, domainBindingStatus: 'NOT_LINKED', document: documentOf(1) });
      expect((await observations.olderThan(DID, rows[1]!))?.id).toBe(rows[2]!.id);
      expect(await observations.olderThan(DID, rows[2]!)).toBeUndefined();

      // Rows of one second are listed by id: olderThan follows the same order.
      const did = 'did:web:same-second.example';
      for (const n of [4, 5, 6]) await observations.record(observation(n, '2026-03-01T00:00:00Z', { did }));
      const same = await observations.list(did, 10);
      expect(same.map((row) => row.summary)).toEqual(['document 6', 'document 5', 'document 4']);
      expect((await observations.olderThan(did, same[0]!))?.id).toBe(same[1]!.id);
      expect((await observations.olderThan(did, same[1]!))?.id).toBe(same[2]!.id);
      expect(await observations.olderThan(did, same[2]!)).toBeUndefined();
      expect(await observations.hashesWithPrefix(did, '0')).toEqual(['06'.repeat(32), '05'.repeat(32), '04'.repeat(32)]);
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

    it('observations: one batch of awkward text (quotes, backslashes, dollar quotes, braces, commas, NULL words, unicode) reads back as written', async () => {
      const awkward = [
        `"quoted" and 'single' \\ back\\slash \\" both`,
        '$svc$ a dollar tag $svc$, $$ and $1',
        'a tag without its last dollar: $svc',
        '{braces}, {"a":1}, NULL, null, ""',
        'unicode: \u00e9\u4e2d\u{1F600} \u2028 and controls \u0001\t\n',
        '',
        ' leading and trailing spaces ',
      ];
      const recordOf = (batch: string, text: string, i: number): NewObservation => {
        const did = `did:web:awkward-${batch}-${i}.example`;
        const document = {
          id: did,
          '@context': ['https://www.w3.org/ns/did/v1'],
          service: [{ id: `${did}#s`, type: text, serviceEndpoint: { text, list: [text, i] } }],
        };
        return {
          ...observation(i, '2026-03-01T00:00:00Z', { did, summary: text, resolverVersion: text || '0' }),
          document: document as unknown as DidDocument,
        };
      };
      // Recorded at once: one batch on PostgreSQL, every record in one statement; a batch without the dollar tag, and one with it.
      for (const [batch, texts] of [
        ['plain', awkward.filter((t) => !t.includes('$svc'))],
        ['tagged', awkward],
      ] as const) {
        const records = texts.map((text, i) => recordOf(batch, text, i));
        const recorded = await Promise.all(records.map((r) => store.observations.record(r)));
        expect(recorded.map((r) => r.outcome)).toEqual(texts.map(() => 'stored'));
        for (const [i, r] of records.entries()) {
          const [row] = await store.observations.latest(r.did, 1);
          expect(JSON.stringify(row!.document)).toBe(JSON.stringify(r.document));
          expect(row).toMatchObject({ summary: texts[i], resolverVersion: r.resolverVersion, latencyMs: 12.5, domainBindingStatus: 'VERIFIED' });
          expect(recorded[i]!.row).toMatchObject({ summary: texts[i], resolverVersion: r.resolverVersion, documentHash: r.documentHash });
        }
        // And coalesced in one batch too.
        const again = await Promise.all(records.map((r) => store.observations.record({ ...r, observedAt: '2026-03-02T00:00:00Z' })));
        expect(again.map((r) => [r.outcome, r.row!.seenCount])).toEqual(texts.map(() => ['coalesced', 2]));
      }
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
      expect(all[0]).toEqual({ ...chain('c1', 'did:key:agent', '2030-01-01T00:00:00Z', '2026-01-05T00:00:00Z'), client: null });
      expect(await chains.removeExpired('2026-07-01T00:00:00Z')).toBe(1);
      await chains.remove('c3');
      await chains.remove('absent');
      expect((await chains.all()).map((c) => c.id)).toEqual(['c1']);
    });

    it('delegation chains: registerWithin purges expired chains, refreshes, bounds a client and a root, displaces the largest holder, and a dry run writes nothing', async () => {
      await sql('DELETE FROM delegation_chains');
      const chains = store.delegationChains;
      const shares = { total: 5, perClient: 3, perRoot: 2 };
      const now = '2026-01-10T00:00:00Z';
      const held = (id: string, client: string | null, rootDid: string, registeredAt: string, expiresAt = '2027-01-01T00:00:00Z') => ({
        ...chain(id, `did:key:${id}`, expiresAt, registeredAt),
        rootDid,
        client,
      });
      const ids = async () => (await chains.all()).map((c) => c.id).sort();
      // An expired chain never counts: it is gone at the next registration.
      await chains.register(held('old', 'a', 'did:key:r0', '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z'));
      expect(await chains.registerWithin(held('a1', 'a', 'did:key:r1', '2026-01-01T00:00:00Z'), shares, now)).toEqual({
        outcome: 'stored',
        refreshed: false,
        displaced: null,
      });
      expect(await ids()).toEqual(['a1']);
      expect((await chains.all())[0]!.client).toBe('a');
      expect(await chains.registerWithin(held('a2', 'a', 'did:key:r2', '2026-01-02T00:00:00Z'), shares, now)).toMatchObject({ outcome: 'stored' });
      expect(await chains.registerWithin(held('a3', 'a', 'did:key:r3', '2026-01-03T00:00:00Z'), shares, now)).toMatchObject({ outcome: 'stored' });
      // The client's share, then the root's share (another client, one root).
      expect(await chains.registerWithin(held('a4', 'a', 'did:key:r4', '2026-01-04T00:00:00Z'), shares, now)).toEqual({ outcome: 'client-share', held: 3 });
      expect(await chains.registerWithin(held('b1', 'b', 'did:key:r1', '2026-01-05T00:00:00Z'), shares, now)).toMatchObject({ outcome: 'stored' });
      expect(await chains.registerWithin(held('c1', 'c', 'did:key:r1', '2026-01-05T00:00:00Z'), shares, now)).toEqual({ outcome: 'root-share', held: 2 });
      // A refresh by anyone keeps the holder, and takes no share.
      expect(await chains.registerWithin(held('a1', 'c', 'did:key:r1', '2026-01-06T00:00:00Z'), shares, now)).toEqual({
        outcome: 'stored',
        refreshed: true,
        displaced: null,
      });
      expect((await chains.all()).find((c) => c.id === 'a1')).toMatchObject({ client: 'a', registeredAt: '2026-01-06T00:00:00Z' });
      // The operator's own chain (no client) takes the last place; it has no share to bound.
      expect(await chains.registerWithin(held('op', null, 'did:key:r1', '2026-01-07T00:00:00Z'), shares, now)).toMatchObject({ outcome: 'stored' });
      // Full: a dry run says what would happen and writes nothing; then c displaces a's oldest.
      const c2 = held('c2', 'c', 'did:key:r5', '2026-01-08T00:00:00Z');
      const displaced = { id: 'a2', rootDid: 'did:key:r2', leafDid: 'did:key:a2', client: 'a' };
      expect(await chains.registerWithin(c2, shares, now, { dryRun: true })).toEqual({ outcome: 'stored', refreshed: false, displaced });
      expect(await ids()).toEqual(['a1', 'a2', 'a3', 'b1', 'op']);
      expect(await chains.registerWithin(c2, shares, now)).toEqual({ outcome: 'stored', refreshed: false, displaced });
      expect(await ids()).toEqual(['a1', 'a3', 'b1', 'c2', 'op']);
      // Nobody holds two more than b (1) or c (1), a (2) holds one more: full, for them and the operator.
      expect(await chains.registerWithin(held('b2', 'b', 'did:key:r6', '2026-01-09T00:00:00Z'), shares, now)).toEqual({ outcome: 'full', held: 5 });
      expect(await chains.registerWithin(held('op2', null, 'did:key:r6', '2026-01-09T00:00:00Z'), shares, now)).toEqual({ outcome: 'full', held: 5 });
      // A newcomer (0) displaces from a (2): the oldest registration of the largest holder.
      expect(await chains.registerWithin(held('d1', 'd', 'did:key:r6', '2026-01-09T00:00:00Z'), shares, now)).toMatchObject({
        outcome: 'stored',
        displaced: { id: 'a3' },
      });
      expect(await ids()).toEqual(['a1', 'b1', 'c2', 'd1', 'op']);
      await expect(chains.registerWithin(held('x', 'x', 'did:key:x', now), { ...shares, perRoot: Number.NaN }, now)).rejects.toThrow(RangeError);
      await sql('DELETE FROM delegation_chains');
    });

    it('MCP inventories: latest, stored, coalesced while unchanged, a new row on change; no profile never coalesces', async () => {
      const mcp = store.mcpObservations;
      expect(await mcp.latest('https://mcp.example/mcp')).toBeUndefined();
      const first = await mcp.record(snapshot('aa'.repeat(32), '2026-01-01T00:00:00Z'));
      expect(first.outcome).toBe('stored');
      const again = await mcp.record(snapshot('aa'.repeat(32), '2026-01-02T00:00:00Z', { negotiatedVersion: '2026-07-28' }));
      expect(again).toMatchObject({
        outcome: 'coalesced',
        row: { id: first.row!.id, seenCount: 2, negotiatedVersion: '2026-07-28', lastSeenAt: '2026-01-02T00:00:00Z' },
      });
      expect((await mcp.record(snapshot('bb'.repeat(32), '2026-01-03T00:00:00Z'))).outcome).toBe('stored');
      expect((await mcp.record(snapshot('bb'.repeat(32), '2026-01-04T00:00:00Z', { profile: null }))).outcome).toBe('stored');
      const latest = await mcp.latest('https://mcp.example/mcp');
      expect(latest).toMatchObject({ inventoryHash: 'bb'.repeat(32), profile: null, tools: snapshot('', '').tools });
    });

    /** Monitoring tests start from empty tables (the store is shared by the whole suite). */
    const emptyMonitoring = () => sql('DELETE FROM delivery_attempts; DELETE FROM monitor_events; DELETE FROM monitor_baselines; DELETE FROM watches');

    it('watches: add, list oldest first, get, count; the secret is stored but never read back', async () => {
      await emptyMonitoring();
      const { watches } = store;
      expect(await watches.list()).toEqual([]);
      expect(await watches.count()).toBe(0);
      const a = await added(store, newWatch(1));
      expect(a).toEqual({
        id: expect.any(Number) as number,
        kind: 'did',
        did: 'did:web:watched-1.example',
        webhookUrl: 'https://hooks.example/svc/1?token=t1',
        intervalSeconds: 300,
        createdAt: '2026-03-01T00:00:01Z',
        lastHash: null,
        lastStatus: null,
        lastCheckedAt: null,
        active: true,
        revision: 0,
        webhookDisabledAt: null,
        webhookDisabledReason: null,
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
      expect(Object.keys(list[0]!).sort()).toEqual([
        'active',
        'createdAt',
        'did',
        'id',
        'intervalSeconds',
        'kind',
        'lastCheckedAt',
        'lastHash',
        'lastStatus',
        'revision',
        'webhookDisabledAt',
        'webhookDisabledReason',
        'webhookUrl',
      ]);
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
      expect((await watches.list()).map((w) => w.id).sort((x, y) => x - y)).toEqual(results.flatMap((r) => (r === 'full' ? [] : [r.id])).sort((x, y) => x - y));
    });

    it('watches: an MCP or A2A watch with an uploaded baseline gets it as revision 0 in the same transaction (none when full); its first check compares with it', async () => {
      await emptyMonitoring();
      const { watches } = store;
      const approved = {
        status: 'RESOLVED' as const,
        documentHash: 'a'.repeat(64),
        fingerprintProfile: 'rfc8785-binary64-v1',
        domainBindingStatus: null,
        document: { target: 'https://tools.example/mcp', tools: {} } as never,
        problem: null,
        checkedAt: '2026-03-01T00:00:00Z',
        tls: null,
      };
      const mcp = await added(store, newWatch(1, { kind: 'mcp', did: 'https://tools.example/mcp', baseline: approved }));
      expect(mcp).toMatchObject({ kind: 'mcp', did: 'https://tools.example/mcp', revision: 0, lastHash: null });
      const input = await watches.forCheck(mcp.id);
      expect(input!.previous).toEqual(approved);
      expect(input!.lastResolved).toEqual(approved);
      const plain = await added(store, newWatch(2, { kind: 'a2a', did: 'https://agent.example/' }));
      expect((await watches.forCheck(plain.id))!.previous).toBeNull();
      // Full: neither the watch nor its baseline is written.
      expect(await watches.add(newWatch(3, { kind: 'mcp', did: 'https://other.example/mcp', baseline: approved }), 2)).toBe('full');
      expect(await rows('SELECT watch_id, revision FROM monitor_baselines')).toEqual([{ watch_id: mcp.id, revision: 0 }]);
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
          {
            status: 'RETRY',
            type: 'identity.resolution.failed',
            attempts: 1,
            nextAttemptAt: '2026-03-02T00:03:00Z',
            lastError: 'timed out',
            createdAt: '2026-03-02T00:02:00Z',
          },
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
        replays: 0,
        kind: 'did',
      });
      expect(all[2]!.data).toEqual(data);
      expect(JSON.stringify(all[2]!.data)).toBe(JSON.stringify(data));

      expect((await monitorEvents.list({ watchId: w1.id, limit: 10 })).map((e) => e.eventType)).toEqual([
        'identity.resolution.failed',
        'identity.document.changed',
      ]);
      expect((await monitorEvents.list({ watchId: w2.id, limit: 10 })).map((e) => e.eventType)).toEqual(['identity.deactivated']);
      expect((await monitorEvents.list({ limit: 2 })).map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
      expect(await monitorEvents.list({ watchId: w1.id, limit: 1 })).toEqual([all[0]]);
      expect(await monitorEvents.list({ limit: 0 })).toEqual([]);
      expect(await monitorEvents.list({ limit: -1 })).toEqual([]);
      for (const absent of [w2.id + 1000, 0, 1.5, 2 ** 40]) expect(await monitorEvents.list({ watchId: absent, limit: 10 })).toEqual([]);
    });

    it('retention candidates: old rows only, never the latest per key, recent, malformed, unsettled or leased', async () => {
      await emptyMonitoring();
      await sql('DELETE FROM observations; DELETE FROM mcp_observations');
      const cutoff = '2026-03-01T00:00:00Z';
      const obs = (did: string, observedAt: string, lastSeenAt: string) =>
        `INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, resolver_version, summary)
         VALUES (${quote(did)}, 'h', '{}', ${quote(observedAt)}, ${quote(lastSeenAt)}, '1.0.0', 's')`;
      const mcpRow = (endpoint: string, observedAt: string, lastSeenAt: string) =>
        `INSERT INTO mcp_observations (endpoint, fingerprint, body, observed_at, last_seen_at)
         VALUES (${quote(endpoint)}, 'f', '{}', ${quote(observedAt)}, ${quote(lastSeenAt)})`;
      const mix = (row: (key: string, observedAt: string, lastSeenAt: string) => string, k: string) =>
        [
          row(`${k}:a`, '2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z'), // older row of a: candidate
          row(`${k}:a`, '2025-02-01T00:00:00Z', '2025-02-01T00:00:00Z'), // latest of a, although old: never
          row(`${k}:b`, '2025-01-01T00:00:00Z', '2026-04-01T00:00:00Z'), // old but seen after the cutoff
          row(`${k}:b`, '2025-06-01T00:00:00Z', '2025-06-01T00:00:00Z'), // latest of b
          row(`${k}:c`, '2025-01-01T00:00:00Z', cutoff), // seen exactly at the cutoff: not before it
          row(`${k}:c`, '2025-06-01T00:00:00Z', '2025-06-01T00:00:00Z'), // latest of c
          row(`${k}:d`, '2025-1-01T00:00:00Z', '2025-01-02T00:00:00Z'), // malformed observed_at
          row(`${k}:d`, '2025-01-03T00:00:00Z', '2025-01-03 00:00:00'), // malformed last_seen_at
          row(`${k}:d`, '2025-06-01T00:00:00Z', '2025-06-01T00:00:00Z'), // latest of d
          row(`${k}:e`, cutoff, cutoff), // observed exactly at the cutoff
          row(`${k}:e`, '2026-06-01T00:00:00Z', '2026-06-01T00:00:00Z'), // latest of e
          row(`${k}:f`, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'), // a lone row: the latest
          row(`${k}:g`, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'), // same instant, lower id: candidate
          row(`${k}:g`, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z'), // same instant, higher id: the latest
        ].join(';\n');
      await sql(mix(obs, 'did:web:retention'));
      await sql(mix(mcpRow, 'https://mcp.example/retention'));
      const w = await added(store, newWatch(1));
      await sql(
        eventsSql(w, [
          { status: 'DELIVERED', attempts: 1, createdAt: '2025-01-01T00:00:00Z' }, // candidate
          { status: 'CANCELLED', createdAt: '2025-01-01T00:00:00Z' }, // candidate
          { status: 'DELIVERED', attempts: 1, createdAt: '2026-02-28T23:59:59Z' }, // candidate: a second before
          { status: 'DELIVERED', attempts: 1, createdAt: '2025-01-01T00:00:00Z', leaseExpiresAt: '2025-01-01T00:02:00Z' }, // a claim
          { status: 'DEAD_LETTER', attempts: 5, createdAt: '2025-01-01T00:00:00Z' },
          { status: 'PENDING', createdAt: '2025-01-01T00:00:00Z' },
          { status: 'RETRY', attempts: 1, createdAt: '2025-01-01T00:00:00Z', nextAttemptAt: '2025-01-02T00:00:00Z' },
          { status: 'DELIVERING', attempts: 1, createdAt: '2025-01-01T00:00:00Z', leaseExpiresAt: '2025-01-01T00:02:00Z' },
          { status: 'DELIVERED', attempts: 1, createdAt: '2026-04-01T00:00:00Z' }, // newer than the cutoff
          { status: 'DELIVERED', attempts: 1, createdAt: cutoff }, // exactly at the cutoff
          { status: 'CANCELLED', createdAt: '2025-01-01' }, // malformed
          { status: 'CANCELLED', createdAt: '2025-01-01t00:00:00z' }, // malformed (lower case)
        ]),
      );
      const count = async (table: string) => (await rows<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`)).map((r) => Number(r.n))[0];
      const before = [await count('observations'), await count('mcp_observations'), await count('monitor_events')];
      const { monitorEvents } = store;
      expect(await monitorEvents.retentionCandidates(cutoff)).toEqual({ observations: 2, mcpObservations: 2, terminalMonitorEvents: 3 });
      // A second later the rows exactly at the cutoff are before it (e's first row and the event).
      expect(await monitorEvents.retentionCandidates('2026-03-01T00:00:01Z')).toEqual({ observations: 4, mcpObservations: 4, terminalMonitorEvents: 4 });
      // Long before: nothing; far later: every old, settled, well-formed non-latest row.
      expect(await monitorEvents.retentionCandidates('2000-01-01T00:00:00Z')).toEqual({ observations: 0, mcpObservations: 0, terminalMonitorEvents: 0 });
      expect(await monitorEvents.retentionCandidates('2100-01-01T00:00:00Z')).toEqual({ observations: 5, mcpObservations: 5, terminalMonitorEvents: 5 });
      // Read only.
      expect([await count('observations'), await count('mcp_observations'), await count('monitor_events')]).toEqual(before);
      await sql('DELETE FROM observations; DELETE FROM mcp_observations');
      await emptyMonitoring();
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
        ...replayGauges(),
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
        ...replayGauges({ 'identity.document.changed': 10 }),
      });
      // Later, the not-yet-due ones are due and the live lease has expired too.
      expect(await monitorEvents.gauges('2026-06-01T00:00:00Z')).toMatchObject({ dueDeliveries: 5, expiredLeases: 2 });
    });

    /** What the monitoring tables hold (CAST: a count is a BIGINT, read as a string, on PostgreSQL). */
    const tableCounts = async () =>
      (
        await rows<{ baselines: number; events: number }>(
          'SELECT CAST((SELECT count(*) FROM monitor_baselines) AS INTEGER) AS baselines, CAST((SELECT count(*) FROM monitor_events) AS INTEGER) AS events',
        )
      )[0]!;

    it('watches: claimDue claims never-checked then due watches, oldest first, at most limit, and marks them checked now', async () => {
      await emptyMonitoring();
      const { watches } = store;
      const never1 = await added(store, newWatch(1));
      const never2 = await added(store, newWatch(2));
      const old = await added(store, newWatch(3));
      const oldest = await added(store, newWatch(4));
      const justDue = await added(store, newWatch(5, { intervalSeconds: 60 }));
      const fresh = await added(store, newWatch(6));
      const daily = await added(store, newWatch(7, { intervalSeconds: 86400 }));
      const removed = await added(store, newWatch(8));
      const customer = await added(store, newWatch(9));
      await sql(`UPDATE watches SET last_checked_at = '2020-01-01T00:00:00Z' WHERE id = ${old.id}`);
      await sql(`UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z' WHERE id = ${oldest.id}`);
      await sql(`UPDATE watches SET last_checked_at = '${secondsFromNow(-70)}' WHERE id = ${justDue.id}`);
      await sql(`UPDATE watches SET last_checked_at = '${secondsFromNow(-240)}' WHERE id = ${fresh.id}`);
      await sql(`UPDATE watches SET last_checked_at = '${secondsFromNow(-7200)}' WHERE id = ${daily.id}`);
      expect(await watches.remove(removed.id)).toBe(true);
      await sql(`INSERT INTO tenants (id, name, owner_subject, created_at) VALUES ('t-conf', 'T', 'sub', '2026-01-01T00:00:00Z') ON CONFLICT DO NOTHING`);
      await sql(`INSERT INTO projects (id, tenant_id, name, created_at) VALUES ('p-conf', 't-conf', 'P', '2026-01-01T00:00:00Z') ON CONFLICT DO NOTHING`);
      await sql(`UPDATE watches SET project_id = 'p-conf' WHERE id = ${customer.id}`);

      for (const none of [0, -1, Number.NaN]) expect(await watches.claimDue(none)).toEqual([]);
      const before = Date.now() - 1000;
      const first = await watches.claimDue(3);
      expect(first.map((c) => c.watch.id)).toEqual([never1.id, never2.id, oldest.id]);
      const now = first[0]!.watch.lastCheckedAt!;
      expect(now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(Date.parse(now)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(now)).toBeLessThanOrEqual(Date.now() + 1000);
      expect(first[0]).toEqual({ watch: { ...never1, lastCheckedAt: now }, previous: null, lastResolved: null });
      // Marked: one instant for the whole claim, read back by get().
      expect(first.map((c) => c.watch.lastCheckedAt)).toEqual([now, now, now]);
      for (const c of first) expect(await watches.get(c.watch.id)).toEqual(c.watch);
      expect(JSON.stringify(first)).not.toContain(SECRET);

      const second = await watches.claimDue(10);
      expect(second.map((c) => c.watch.id)).toEqual([old.id, justDue.id]);
      // Claimed watches are not due again within their interval: nothing is left.
      expect(await watches.claimDue(10)).toEqual([]);
      expect((await watches.get(fresh.id))!.lastCheckedAt).not.toBe(now);

      // Once their interval has passed (aged here), they are due again.
      await sql(`UPDATE watches SET last_checked_at = '2001-01-01T00:00:00Z' WHERE id IN (${never2.id}, ${fresh.id})`);
      expect((await watches.claimDue(10)).map((c) => c.watch.id)).toEqual([never2.id, fresh.id]);
    });

    it('watches: recordCheck writes the baseline, the events and the watch at once; forCheck and claimDue give the baselines back', async () => {
      await emptyMonitoring();
      const { watches, monitorEvents } = store;
      const w = await added(store, newWatch(1));
      expect(await watches.forCheck(w.id)).toEqual({ watch: w, previous: null, lastResolved: null });
      for (const absent of [w.id + 1000, 0, -1, 1.5, Number.NaN, 2 ** 40]) expect(await watches.forCheck(absent)).toBeUndefined();

      const t1 = '2026-03-02T00:00:00Z';
      expect(await watches.recordCheck(check(w.id, 0, resolved(1, t1)))).toEqual({ outcome: 'recorded', revision: 1, eventIds: [] });
      expect(await watches.get(w.id)).toEqual({ ...w, revision: 1, lastHash: hashOf(1), lastStatus: 'RESOLVED', lastCheckedAt: t1 });
      const afterFirst = await watches.forCheck(w.id);
      expect(afterFirst).toEqual({ watch: await watches.get(w.id), previous: resolved(1, t1), lastResolved: resolved(1, t1) });
      expect(JSON.stringify(afterFirst!.previous!.document)).toBe(JSON.stringify(documentOf(1)));

      // A change: two events, in the order given.
      const t2 = '2026-03-02T00:05:00Z';
      const binding: PlannedEvent = { type: 'identity.domain_binding.changed', data: { before: 'VERIFIED', after: 'NOT_LINKED', note: 'Zürich – 東京 😀' } };
      const second = await watches.recordCheck(check(w.id, 1, resolved(2, t2, { domainBindingStatus: 'NOT_LINKED' }), [changed(2), binding]));
      expect(second).toMatchObject({ outcome: 'recorded', revision: 2 });
      const ids = second.outcome === 'recorded' ? second.eventIds : [];
      expect(ids).toHaveLength(2);
      expect(ids[1]).toBeGreaterThan(ids[0]!);
      const listed = await monitorEvents.list({ watchId: w.id, limit: 10 });
      expect(listed.map((e) => e.id)).toEqual([ids[1], ids[0]]);
      expect(listed[1]).toEqual({
        id: ids[0],
        watchId: w.id,
        did: w.did,
        eventType: 'identity.document.changed',
        data: changed(2).data,
        createdAt: t2,
        deliveryStatus: 'PENDING',
        attempts: 0,
        nextAttemptAt: null,
        lastAttemptAt: null,
        lastError: null,
        replays: 0,
        kind: 'did',
      });
      expect(JSON.stringify(listed[0]!.data)).toBe(JSON.stringify(binding.data));
      expect((await monitorEvents.list({ limit: 10 })).map((e) => e.id)).toEqual([ids[1], ids[0]]);

      // A failure: the last hash is kept, the failure is the previous baseline, the document the last resolved one.
      const t3 = '2026-03-02T00:10:00Z';
      const failure: PlannedEvent = { type: 'identity.resolution.failed', data: { problem: 'HTTP 503' } };
      const third = await watches.recordCheck(check(w.id, 2, failed(t3), [failure]));
      expect(third).toMatchObject({ outcome: 'recorded', revision: 3 });
      const watch = await watches.get(w.id);
      expect(watch).toEqual({ ...w, revision: 3, lastHash: hashOf(2), lastStatus: 'FAILED', lastCheckedAt: t3 });
      const input = { watch, previous: failed(t3), lastResolved: resolved(2, t2, { domainBindingStatus: 'NOT_LINKED' }) };
      expect(await watches.forCheck(w.id)).toEqual(input);
      // claimDue gives the same baselines (and marks the watch checked now).
      await sql(`UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z' WHERE id = ${w.id}`);
      const [claimed] = await watches.claimDue(5);
      expect(claimed).toEqual({ ...input, watch: { ...watch, lastCheckedAt: claimed!.watch.lastCheckedAt } });
      expect(claimed!.watch.lastCheckedAt).not.toBe('2000-01-01T00:00:00Z');

      // Each event names the revision and the baselines it was computed between.
      const baselines = await rows<{ id: number; revision: number; status: string }>(
        `SELECT id, revision, status FROM monitor_baselines WHERE watch_id = ${w.id} ORDER BY revision`,
      );
      expect(baselines.map((b) => [b.revision, b.status])).toEqual([
        [1, 'RESOLVED'],
        [2, 'RESOLVED'],
        [3, 'FAILED'],
      ]);
      const [b1, b2, b3] = baselines.map((b) => b.id);
      const events = await rows<{ type: string; revision: number; baseline: number; previous: number | null }>(
        `SELECT event_type AS type, watch_revision AS revision, baseline_id AS baseline, previous_baseline_id AS previous FROM monitor_events WHERE watch_id = ${w.id} ORDER BY id`,
      );
      expect(events).toEqual([
        { type: 'identity.document.changed', revision: 2, baseline: b2, previous: b1 },
        { type: 'identity.domain_binding.changed', revision: 2, baseline: b2, previous: b1 },
        { type: 'identity.resolution.failed', revision: 3, baseline: b3, previous: b2 },
      ]);
      expect(third.outcome === 'recorded' && third.eventIds).toEqual([(await monitorEvents.list({ watchId: w.id, limit: 1 }))[0]!.id]);
      // A first check has no previous baseline to name.
      const other = await added(store, newWatch(2));
      const firstOfOther = await watches.recordCheck(check(other.id, 0, resolved(1, t1), [changed(1)]));
      const [row] = await rows<{ previous: number | null }>(
        `SELECT previous_baseline_id AS previous FROM monitor_events WHERE id = ${firstOfOther.outcome === 'recorded' ? firstOfOther.eventIds[0] : 0}`,
      );
      expect(row).toEqual({ previous: null });
    });

    it('watches: recordCheck writes nothing when stale, at the event capacity, or over the payload size', async () => {
      await emptyMonitoring();
      const { watches } = store;
      const w = await added(store, newWatch(1));
      const t1 = '2026-03-02T00:00:00Z';
      const t2 = '2026-03-02T00:05:00Z';
      expect((await watches.recordCheck(check(w.id, 0, resolved(1, t1)))).outcome).toBe('recorded');
      const settled = await watches.get(w.id);
      const counts = await tableCounts();
      expect(counts).toEqual({ baselines: 1, events: 0 });
      const unchanged = async () => {
        expect(await tableCounts()).toEqual(counts);
        expect(await watches.get(w.id)).toEqual(settled);
        expect((await watches.forCheck(w.id))!.previous).toEqual(resolved(1, t1));
      };

      // Stale: a revision that is not the current one, or no such watch.
      for (const revision of [0, 2, 7, -1, 1.5, Number.NaN]) {
        expect(await watches.recordCheck(check(w.id, revision, resolved(2, t2), [changed(2)]))).toEqual({ outcome: 'stale' });
      }
      for (const absent of [w.id + 1000, 0, -1, 1.5, 2 ** 40]) {
        expect(await watches.recordCheck(check(absent, 1, resolved(2, t2), [changed(2)]))).toEqual({ outcome: 'stale' });
      }
      await unchanged();

      // Capacity: every stored event counts, terminal ones included.
      await sql(eventsSql(settled!, [{ status: 'DELIVERED' }, { status: 'DEAD_LETTER' }, { status: 'CANCELLED' }]));
      counts.events = 3;
      const two = [changed(2), { type: 'identity.domain_binding.changed', data: { after: 'NOT_LINKED' } } satisfies PlannedEvent];
      expect(await watches.recordCheck(check(w.id, 1, resolved(2, t2), two, { maxEvents: 4 }))).toEqual({ outcome: 'event-capacity' });
      expect(await watches.recordCheck(check(w.id, 1, resolved(2, t2), two, { maxEvents: Number.NaN }))).toEqual({ outcome: 'event-capacity' });
      await unchanged();

      // Payload: bytes of UTF-8, not characters ('é' is 2 bytes).
      const note: PlannedEvent = { type: 'identity.document.changed', data: { note: 'é'.repeat(600) } };
      const serialised = JSON.stringify(note.data);
      expect(serialised.length).toBeLessThan(1000);
      expect(Buffer.byteLength(serialised)).toBeGreaterThan(1000);
      expect(await watches.recordCheck(check(w.id, 1, resolved(2, t2), [note], { maxPayloadBytes: 1000 }))).toEqual({ outcome: 'payload-too-large' });
      expect(await watches.recordCheck(check(w.id, 1, resolved(2, t2), [changed(2), note], { maxPayloadBytes: 1000 }))).toEqual({
        outcome: 'payload-too-large',
      });
      await unchanged();

      // Exactly at both limits, it is recorded.
      const atLimits = await watches.recordCheck(
        check(w.id, 1, resolved(2, t2), [note, two[1]!], { maxEvents: 5, maxPayloadBytes: Buffer.byteLength(serialised) }),
      );
      expect(atLimits).toMatchObject({ outcome: 'recorded', revision: 2 });
      expect(await tableCounts()).toEqual({ baselines: 2, events: 5 });
      // A check that adds no event is recorded at the capacity (it cannot pass it).
      expect(await watches.recordCheck(check(w.id, 2, resolved(2, '2026-03-02T00:10:00Z'), [], { maxEvents: 5 }))).toMatchObject({
        outcome: 'recorded',
        revision: 3,
      });

      // A removed watch: stale at the revision the check read, and at the one the removal moved it to.
      expect(await watches.remove(w.id)).toBe(true);
      const before = await tableCounts();
      for (const revision of [3, 4]) {
        expect(await watches.recordCheck(check(w.id, revision, resolved(3, '2026-03-02T00:15:00Z'), [changed(3)]))).toEqual({ outcome: 'stale' });
      }
      expect(await tableCounts()).toEqual(before);
      expect(await watches.forCheck(w.id)).toBeUndefined();
    });

    it('watches: concurrent checks of one revision: exactly one is recorded, the others are stale and write nothing', async () => {
      await emptyMonitoring();
      const { watches } = store;
      const w = await added(store, newWatch(1));
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => watches.recordCheck(check(w.id, 0, resolved(i + 1, '2026-03-02T00:00:00Z'), [changed(i + 1)]))),
      );
      const winners = results.flatMap((r, i) => (r.outcome === 'recorded' ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => r.outcome === 'stale')).toHaveLength(7);
      expect(await tableCounts()).toEqual({ baselines: 1, events: 1 });
      const winner = winners[0]! + 1;
      expect(await watches.get(w.id)).toMatchObject({ revision: 1, lastHash: hashOf(winner) });
      expect((await store.monitorEvents.list({ limit: 5 })).map((e) => e.data)).toEqual([changed(winner).data]);
    });

    it('watches: checks without events submitted at once are each guarded as alone: a second of one revision, a removed watch or a revision not read is stale; a later revision is recorded', async () => {
      await emptyMonitoring();
      const { watches } = store;
      const [w1, w2, w3] = [await added(store, newWatch(1)), await added(store, newWatch(2)), await added(store, newWatch(3))];
      expect(await watches.remove(w3!.id)).toBe(true);
      const results = await Promise.all([
        watches.recordCheck(check(w2!.id, 0, resolved(20, '2026-03-02T00:00:00Z'))),
        watches.recordCheck(check(w1!.id, 0, resolved(10, '2026-03-02T00:00:00Z'))),
        watches.recordCheck(check(w1!.id, 0, resolved(11, '2026-03-02T00:00:00Z'))),
        watches.recordCheck(check(w3!.id, 0, resolved(30, '2026-03-02T00:00:00Z'))),
        watches.recordCheck(check(w1!.id, 5, resolved(12, '2026-03-02T00:00:00Z'))),
        watches.recordCheck(check(w2!.id, 1, failed('2026-03-02T00:05:00Z'))),
      ]);
      expect(results.map((r) => r.outcome)).toEqual(['recorded', 'recorded', 'stale', 'stale', 'stale', 'recorded']);
      expect(results[5]).toEqual({ outcome: 'recorded', revision: 2, eventIds: [] });
      expect(await tableCounts()).toEqual({ baselines: 3, events: 0 });
      expect(await watches.get(w1!.id)).toMatchObject({ revision: 1, lastHash: hashOf(10), lastStatus: 'RESOLVED', lastCheckedAt: '2026-03-02T00:00:00Z' });
      // A failed check keeps the last hash.
      expect(await watches.get(w2!.id)).toMatchObject({ revision: 2, lastHash: hashOf(20), lastStatus: 'FAILED', lastCheckedAt: '2026-03-02T00:05:00Z' });
      const input = await watches.forCheck(w2!.id);
      expect(input?.previous).toMatchObject({
        status: 'FAILED',
        document: null,
        problem: failed('2026-03-02T00:05:00Z').problem,
        checkedAt: '2026-03-02T00:05:00Z',
      });
      expect(input?.lastResolved).toMatchObject({ status: 'RESOLVED', documentHash: hashOf(20), document: documentOf(20) });
    });

    /** Delivery state of every event, oldest first, as stored. */
    interface DeliveryRow {
      id: number;
      status: DeliveryStatus;
      attempts: number;
      nextAttemptAt: string | null;
      lastAttemptAt: string | null;
      leaseExpiresAt: string | null;
      lastError: string | null;
    }
    const deliveryRows = () =>
      rows<DeliveryRow>(
        `SELECT id, delivery_status AS "status", attempts, next_attempt_at AS "nextAttemptAt", last_attempt_at AS "lastAttemptAt",
           lease_expires_at AS "leaseExpiresAt", last_error AS "lastError" FROM monitor_events ORDER BY id`,
      );
    const rowOf = async (id: number): Promise<DeliveryRow> => (await deliveryRows()).find((r) => r.id === id)!;
    /** The database's clock, as the stores read it. */
    const databaseNow = async (): Promise<string> =>
      (
        await rows<{ now: string }>(
          backend.name === 'SQLite'
            ? `SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now') AS now`
            : `SELECT to_char(date_trunc('second', clock_timestamp()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS now`,
        )
      )[0]!.now;
    const secondsBetween = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 1000;
    const ageNextAttempt = (id: number) => sql(`UPDATE monitor_events SET next_attempt_at = '2000-01-01T00:00:00Z' WHERE id = ${id}`);
    const ageLease = (id: number) => sql(`UPDATE monitor_events SET lease_expires_at = '2000-01-01T00:00:00Z' WHERE id = ${id}`);
    const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

    it('deliveries: claims PENDING and due RETRY, oldest first, at most limit; DELIVERING, attempts + 1, a lease on the database clock; the watch with its secret', async () => {
      await emptyMonitoring();
      const { monitorEvents } = store;
      const w = await added(store, newWatch(1));
      await sql(
        eventsSql(w, [
          { status: 'PENDING' }, // 0: claimed
          { status: 'RETRY', attempts: 1, nextAttemptAt: '2000-01-01T00:00:00Z', lastError: 'HTTP 503' }, // 1: due, claimed
          { status: 'RETRY', attempts: 2, nextAttemptAt: secondsFromNow(3600) }, // 2: not yet due
          { status: 'DELIVERED', attempts: 1 },
          { status: 'DEAD_LETTER', attempts: 5 },
          { status: 'CANCELLED', nextAttemptAt: '2000-01-01T00:00:00Z' },
          { status: 'DELIVERING', attempts: 1, leaseExpiresAt: secondsFromNow(600) }, // 6: leased by another sender
          { status: 'PENDING', type: 'identity.deactivated' }, // 7: claimed
        ]),
      );
      // A customer watch's event is not the operator deliverer's.
      const customer = await added(store, newWatch(2));
      await sql(`INSERT INTO tenants (id, name, owner_subject, created_at) VALUES ('t-conf', 'T', 'sub', '2026-01-01T00:00:00Z') ON CONFLICT DO NOTHING`);
      await sql(`INSERT INTO projects (id, tenant_id, name, created_at) VALUES ('p-conf', 't-conf', 'P', '2026-01-01T00:00:00Z') ON CONFLICT DO NOTHING`);
      await sql(`UPDATE watches SET project_id = 'p-conf' WHERE id = ${customer.id}`);
      await sql(eventsSql(customer, [{ status: 'PENDING' }]));
      const ids = (await deliveryRows()).map((r) => r.id);
      const before = await deliveryRows();

      for (const none of [0, -1, Number.NaN]) expect(await monitorEvents.claimDeliveries(none, 120, 5)).toEqual([]);
      for (const lease of [0, -5, 1.5, Number.NaN]) await expect(monitorEvents.claimDeliveries(10, lease, 5)).rejects.toThrow(RangeError);
      for (const max of [0, 2.5, Number.NaN]) await expect(monitorEvents.claimDeliveries(10, 120, max)).rejects.toThrow(RangeError);
      expect(await deliveryRows()).toEqual(before);

      const listedBefore = await monitorEvents.list({ limit: 20 });
      const first = await monitorEvents.claimDeliveries(2, 120, 5);
      const now = await databaseNow();
      expect(first.map((c) => c.event.id)).toEqual([ids[0], ids[1]]);
      expect(first.map((c) => [c.attempt, c.event.attempts, c.event.deliveryStatus])).toEqual([
        [1, 1, 'DELIVERING'],
        [2, 2, 'DELIVERING'],
      ]);
      for (const c of first) {
        expect(c.watch).toEqual({ id: w.id, kind: 'did', did: w.did, webhookUrl: w.webhookUrl, secret: SECRET, active: true, webhookDisabled: false });
        expect(c.leaseExpiresAt).toMatch(RFC3339);
        expect(c.event.lastAttemptAt).toMatch(RFC3339);
        // On the database's clock: now (give or take a slow machine), and the lease 120 s later.
        expect(Math.abs(secondsBetween(now, c.event.lastAttemptAt!))).toBeLessThanOrEqual(5);
        expect(Math.abs(secondsBetween(c.event.lastAttemptAt!, c.leaseExpiresAt) - 120)).toBeLessThanOrEqual(2);
        // The event as listed, but for what the claim changed.
        const listed = listedBefore.find((e) => e.id === c.event.id)!;
        expect(c.event).toEqual({ ...listed, deliveryStatus: 'DELIVERING', attempts: c.attempt, lastAttemptAt: c.event.lastAttemptAt });
        expect(await rowOf(c.event.id)).toMatchObject({
          status: 'DELIVERING',
          attempts: c.attempt,
          leaseExpiresAt: c.leaseExpiresAt,
          lastAttemptAt: c.event.lastAttemptAt,
        });
      }
      expect(first[1]!.event.lastError).toBe('HTTP 503');
      // The secret leaves the store through claims only.
      expect(JSON.stringify(await monitorEvents.list({ limit: 20 }))).not.toContain(SECRET);

      const second = await monitorEvents.claimDeliveries(10, 120, 5);
      expect(second.map((c) => [c.event.id, c.attempt, c.event.eventType])).toEqual([[ids[7], 1, 'identity.deactivated']]);
      // Everything due is leased now: a claim right after gets none of it.
      expect(await monitorEvents.claimDeliveries(10, 120, 5)).toEqual([]);
      const after = await deliveryRows();
      for (const i of [2, 3, 4, 5, 6, 8]) expect(after[i]).toEqual(before[i]);

      // The future RETRY once due.
      await ageNextAttempt(ids[2]!);
      expect((await monitorEvents.claimDeliveries(10, 120, 5)).map((c) => [c.event.id, c.attempt])).toEqual([[ids[2], 3]]);
    });

    it("deliveries: expired leases become RETRY due now (claimed again in the same call) or DEAD_LETTER at maxAttempts; a removed watch's event is claimed for cancelling", async () => {
      await emptyMonitoring();
      const { watches, monitorEvents } = store;
      const w = await added(store, newWatch(1));
      await sql(
        eventsSql(w, [
          { status: 'DELIVERING', attempts: 2, leaseExpiresAt: '2000-01-01T00:00:00Z' }, // 0: recovered and claimed again
          { status: 'DELIVERING', attempts: 5, leaseExpiresAt: '2000-01-01T00:00:00Z' }, // 1: no attempt left
          { status: 'DELIVERING', attempts: 1, leaseExpiresAt: secondsFromNow(600) }, // 2: live lease
          { status: 'RETRY', attempts: 5, nextAttemptAt: '2000-01-01T00:00:00Z' }, // 3: due, but no attempt left
        ]),
      );
      const ids = (await deliveryRows()).map((r) => r.id);
      const live = await rowOf(ids[2]!);

      const claims = await monitorEvents.claimDeliveries(10, 120, 5);
      expect(claims.map((c) => [c.event.id, c.attempt, c.event.deliveryStatus])).toEqual([[ids[0], 3, 'DELIVERING']]);
      expect(claims[0]!.event.lastError).toMatch(/lease expired/);
      expect(await rowOf(ids[0]!)).toMatchObject({ status: 'DELIVERING', attempts: 3, leaseExpiresAt: claims[0]!.leaseExpiresAt });
      expect(await rowOf(ids[1]!)).toMatchObject({
        status: 'DEAD_LETTER',
        attempts: 5,
        leaseExpiresAt: null,
        nextAttemptAt: null,
        lastError: expect.stringMatching(/lease expired/) as string,
      });
      expect(await rowOf(ids[2]!)).toEqual(live);
      expect(await rowOf(ids[3]!)).toMatchObject({ status: 'DEAD_LETTER', attempts: 5 });
      expect(await monitorEvents.claimDeliveries(10, 120, 5)).toEqual([]);
      // A recovered attempt counts, and leaves its record; an exhausted one made no attempt, and leaves none.
      expect(await monitorEvents.attempts(ids[0]!)).toEqual([
        expect.objectContaining({
          attempt: 2,
          responseStatus: null,
          decision: 'RETRY',
          detail: expect.stringMatching(/lease expired .*next attempt at once$/),
        }),
      ]);
      expect(await monitorEvents.attempts(ids[1]!)).toEqual([
        expect.objectContaining({ attempt: 5, decision: 'DEAD_LETTER', nextAttemptAt: null, detail: expect.stringMatching(/dead letter$/) }),
      ]);
      expect(await monitorEvents.attempts(ids[3]!)).toEqual([]);
      expect(await monitorEvents.attempts(999_999)).toBeUndefined();

      // Recovered even when the limit leaves it unclaimed: RETRY due now, claimed next time.
      await sql(eventsSql(w, [{ status: 'PENDING' }, { status: 'DELIVERING', attempts: 1, leaseExpiresAt: '2000-01-01T00:00:00Z' }]));
      const [pending, expired] = (await deliveryRows()).slice(-2).map((r) => r.id) as [number, number];
      expect((await monitorEvents.claimDeliveries(1, 120, 5)).map((c) => c.event.id)).toEqual([pending]);
      const recovered = await rowOf(expired);
      expect(recovered).toMatchObject({ status: 'RETRY', attempts: 1, leaseExpiresAt: null });
      expect(secondsBetween(recovered.nextAttemptAt!, await databaseNow())).toBeGreaterThanOrEqual(0);
      expect((await monitorEvents.claimDeliveries(1, 120, 5)).map((c) => [c.event.id, c.attempt])).toEqual([[expired, 2]]);

      // A watch removed while its event was being delivered: the event (recovered when the lease
      // lapses) is claimed with the watch inactive, and the sender cancels it.
      const removed = await added(store, newWatch(2));
      await sql(eventsSql(removed, [{ status: 'DELIVERING', attempts: 1, leaseExpiresAt: secondsFromNow(600) }, { status: 'PENDING' }]));
      const [held, queued] = (await deliveryRows()).slice(-2).map((r) => r.id) as [number, number];
      expect(await watches.remove(removed.id)).toBe(true);
      expect(await rowOf(queued)).toMatchObject({ status: 'CANCELLED' });
      expect(await monitorEvents.claimDeliveries(10, 120, 5)).toEqual([]);
      await ageLease(held);
      const [orphan, ...none] = await monitorEvents.claimDeliveries(10, 120, 5);
      expect(none).toEqual([]);
      expect(orphan).toMatchObject({
        event: { id: held },
        attempt: 2,
        watch: { id: removed.id, kind: 'did', did: removed.did, webhookUrl: removed.webhookUrl, secret: SECRET, active: false, webhookDisabled: false },
      });
      expect(await monitorEvents.settle(held, 2, { cancelled: true })).toBe(true);
      expect(await rowOf(held)).toMatchObject({ status: 'CANCELLED', attempts: 2, leaseExpiresAt: null });
    });

    it('deliveries: settle moves only the attempt that holds the event, on the database clock', async () => {
      await emptyMonitoring();
      const { monitorEvents } = store;
      const w = await added(store, newWatch(1));
      await sql(
        eventsSql(
          w,
          Array.from({ length: 6 }, (): RawEvent => ({ status: 'PENDING' })),
        ),
      );
      const c = (await monitorEvents.claimDeliveries(10, 120, 5)).map((x) => x.event.id) as [number, number, number, number, number, number];
      expect(c).toHaveLength(6);

      expect(await monitorEvents.settle(c[0], 1, { delivered: true })).toBe(true);
      expect(await rowOf(c[0])).toMatchObject({ status: 'DELIVERED', attempts: 1, leaseExpiresAt: null, nextAttemptAt: null, lastError: null });

      expect(await monitorEvents.settle(c[1], 1, { delivered: false, error: 'HTTP 503\r\n  Service Unavailable', retryAfterSeconds: 60 })).toBe(true);
      const retry = await rowOf(c[1]);
      expect(retry).toMatchObject({ status: 'RETRY', attempts: 1, leaseExpiresAt: null, lastError: 'HTTP 503 Service Unavailable' });
      expect(Math.abs(secondsBetween(await databaseNow(), retry.nextAttemptAt!) - 60)).toBeLessThanOrEqual(5);
      // Not claimable until due.
      expect(await monitorEvents.claimDeliveries(10, 120, 5)).toEqual([]);

      expect(await monitorEvents.settle(c[2], 1, { delivered: false, error: 'HTTP 410', retryAfterSeconds: null })).toBe(true);
      expect(await rowOf(c[2])).toMatchObject({ status: 'DEAD_LETTER', attempts: 1, leaseExpiresAt: null, nextAttemptAt: null, lastError: 'HTTP 410' });

      expect(await monitorEvents.settle(c[3], 1, { cancelled: true })).toBe(true);
      expect(await rowOf(c[3])).toMatchObject({ status: 'CANCELLED', attempts: 1, leaseExpiresAt: null });

      // Nothing else settles, and nothing changes: a wrong attempt, a settled event, no event, a bad delay.
      const snapshot = await deliveryRows();
      for (const attempt of [0, 2, -1, 1.5, Number.NaN]) expect(await monitorEvents.settle(c[4], attempt, { delivered: true })).toBe(false);
      for (const id of [c[0], c[1], c[2], c[3]]) {
        expect(await monitorEvents.settle(id, 1, { delivered: true })).toBe(false);
        expect(await monitorEvents.settle(id, 1, { delivered: false, error: 'late', retryAfterSeconds: 60 })).toBe(false);
        expect(await monitorEvents.settle(id, 1, { cancelled: true })).toBe(false);
      }
      for (const id of [c[5] + 1000, 0, -1, 1.5, 2 ** 40]) expect(await monitorEvents.settle(id, 1, { delivered: true })).toBe(false);
      for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(monitorEvents.settle(c[4], 1, { delivered: false, error: 'x', retryAfterSeconds: bad })).rejects.toThrow(RangeError);
      }
      expect(await deliveryRows()).toEqual(snapshot);

      // A sender whose lease lapsed settles nothing once the event was recovered and claimed again.
      await ageLease(c[5]);
      expect((await monitorEvents.claimDeliveries(10, 120, 5)).map((x) => [x.event.id, x.attempt])).toEqual([[c[5], 2]]);
      expect(await monitorEvents.settle(c[5], 1, { delivered: true })).toBe(false);
      expect(await rowOf(c[5])).toMatchObject({ status: 'DELIVERING', attempts: 2 });
      expect(await monitorEvents.settle(c[5], 2, { delivered: true })).toBe(true);
      expect(await rowOf(c[5])).toMatchObject({ status: 'DELIVERED', attempts: 2, leaseExpiresAt: null });

      // The RETRY, once due, is claimed as attempt 2; its last error is kept until another one.
      await ageNextAttempt(c[1]);
      const [again] = await monitorEvents.claimDeliveries(10, 120, 5);
      expect(again).toMatchObject({ event: { id: c[1], lastError: 'HTTP 503 Service Unavailable' }, attempt: 2 });
      expect(await monitorEvents.settle(c[1], 2, { delivered: true })).toBe(true);
      expect(await rowOf(c[1])).toMatchObject({ status: 'DELIVERED', attempts: 2, nextAttemptAt: null, leaseExpiresAt: null });
    });

    it('deliveries: five failed attempts with backoff end DEAD_LETTER at maxAttempts 5', async () => {
      await emptyMonitoring();
      const { monitorEvents } = store;
      const w = await added(store, newWatch(1));
      await sql(eventsSql(w, [{ status: 'PENDING' }]));
      const [id] = (await deliveryRows()).map((r) => r.id) as [number];
      for (let attempt = 1; attempt <= 5; attempt++) {
        const claims = await monitorEvents.claimDeliveries(10, 120, 5);
        expect(claims.map((c) => [c.event.id, c.attempt])).toEqual([[id, attempt]]);
        // The caller's backoff: 60, 120, 240, 480 s; none after the last attempt.
        const retryAfterSeconds = attempt < 5 ? 60 * 2 ** (attempt - 1) : null;
        expect(await monitorEvents.settle(id, attempt, { delivered: false, error: `HTTP 500 (attempt ${attempt})`, retryAfterSeconds })).toBe(true);
        const row = await rowOf(id);
        if (retryAfterSeconds === null) {
          expect(row).toMatchObject({ status: 'DEAD_LETTER', attempts: 5, nextAttemptAt: null, leaseExpiresAt: null, lastError: 'HTTP 500 (attempt 5)' });
        } else {
          expect(row).toMatchObject({ status: 'RETRY', attempts: attempt, leaseExpiresAt: null });
          expect(Math.abs(secondsBetween(await databaseNow(), row.nextAttemptAt!) - retryAfterSeconds)).toBeLessThanOrEqual(5);
          expect(await monitorEvents.claimDeliveries(10, 120, 5)).toEqual([]);
          await ageNextAttempt(id);
        }
      }
      expect(await monitorEvents.claimDeliveries(10, 120, 5)).toEqual([]);
      expect(await rowOf(id)).toMatchObject({ status: 'DEAD_LETTER', attempts: 5 });
      expect((await monitorEvents.gauges(await databaseNow())).eventsByStatus).toMatchObject({ DEAD_LETTER: 1, DELIVERING: 0, RETRY: 0 });
    });

    // Proofs of control and the directory.

    /** Claim tests start from empty tables. */
    const emptyClaims = () => sql('DELETE FROM directory_entries; DELETE FROM claims; DELETE FROM claim_challenges');
    /** The database's clock in epoch milliseconds, as the claim store reads it. */
    const nowMs = async (): Promise<number> =>
      Number(
        (
          await rows<{ now: number | string }>(
            backend.name === 'SQLite'
              ? `SELECT CAST(unixepoch('subsec') * 1000 AS INTEGER) AS now`
              : `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now`,
          )
        )[0]!.now,
      );
    /** Seconds from `from` to `to` (RFC 3339 or epoch milliseconds). */
    const between = (from: string | number, to: string | number): number =>
      ((typeof to === 'number' ? to : Date.parse(to)) - (typeof from === 'number' ? from : Date.parse(from))) / 1000;
    const count = async (table: string, where = 'TRUE'): Promise<number> =>
      Number((await rows<{ n: number | string }>(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table} WHERE ${where}`))[0]!.n);
    const listings = () => rows<{ seq: number; did: string; claimId: number }>('SELECT seq, did, claim_id AS "claimId" FROM directory_entries ORDER BY seq');

    async function challenge(did: string, method: ClaimMethod = 'signature', purpose: ClaimPurpose = 'claim', ttlSeconds = 600) {
      const created = await store.claims.createChallenge({ token: newToken(), did, method, purpose, ttlSeconds, client: CLIENT }, pool(10_000));
      if (isRefusal(created)) throw new Error('the challenge limit was unexpectedly reached');
      return created;
    }
    /** A challenge proved at once: the claim and whether the DID is listed after it. */
    async function prove(did: string, method: ClaimMethod = 'signature', purpose: ClaimPurpose = 'claim'): Promise<{ claim: StoredClaim; listed: boolean }> {
      const c = await challenge(did, method, purpose);
      const recorded = await store.claims.recordProof(proofOf(c.token, method, did));
      if (recorded.outcome !== 'recorded') throw new Error(`the proof was not recorded: ${recorded.outcome}`);
      return recorded;
    }
    /** Every page of the directory for `query`, `limit` at a time. */
    async function allPages(query: { q?: string | null; didMethod?: string | null }, limit: number) {
      const pages = [];
      let after: number | null = null;
      for (;;) {
        const page = await store.claims.directory({ q: query.q ?? null, didMethod: query.didMethod ?? null, limit, after });
        pages.push(page);
        if (!page.more) return pages;
        after = page.entries.at(-1)!.seq;
      }
    }

    it('claims: challenges are created on the database clock, full at the limit; used or expired ones do not count; concurrent creators never pass it', async () => {
      await emptyClaims();
      const { claims } = store;
      const before = await nowMs();
      const token = newToken();
      const created = await claims.createChallenge(
        { token, did: 'did:web:a.example', method: 'well-known', purpose: 'list', ttlSeconds: 3600, client: CLIENT },
        pool(3),
      );
      expect(created).toEqual({
        token,
        did: 'did:web:a.example',
        method: 'well-known',
        purpose: 'list',
        createdAt: expect.stringMatching(RFC3339) as string,
        expiresAt: expect.stringMatching(RFC3339) as string,
        attempts: 0,
        usedAt: null,
      });
      const c = created as ClaimChallenge;
      expect(Math.abs(between(before, c.createdAt))).toBeLessThanOrEqual(5);
      expect(between(c.createdAt, c.expiresAt)).toBe(3600);
      // The same token twice is refused by the schema.
      await expect(
        claims.createChallenge({ token, did: 'did:web:b.example', method: 'dns', purpose: 'claim', ttlSeconds: 60, client: CLIENT }, pool(3)),
      ).rejects.toThrow();
      for (const ttlSeconds of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(
          claims.createChallenge({ token: newToken(), did: 'did:web:a.example', method: 'dns', purpose: 'claim', ttlSeconds, client: CLIENT }, pool(3)),
        ).rejects.toThrow(RangeError);
      }
      expect(await count('claim_challenges')).toBe(1);

      await challenge('did:web:a.example');
      const third = await claims.createChallenge(
        { token: newToken(), did: 'did:web:a.example', method: 'signature', purpose: 'claim', ttlSeconds: 600, client: CLIENT },
        pool(3),
      );
      expect(third).not.toHaveProperty('refused');
      for (const limit of [3, 0, -1, Number.NaN]) {
        expect(
          await claims.createChallenge(
            { token: newToken(), did: 'did:web:a.example', method: 'signature', purpose: 'claim', ttlSeconds: 600, client: CLIENT },
            pool(limit),
          ),
        ).toMatchObject({ refused: 'total' });
      }
      expect(await count('claim_challenges')).toBe(3);
      // A used challenge no longer counts, nor does an expired one.
      expect((await claims.recordProof(proofOf((third as { token: string }).token, 'signature', 'did:web:a.example'))).outcome).toBe('recorded');
      const fourth = await claims.createChallenge(
        { token: newToken(), did: 'did:web:a.example', method: 'dns', purpose: 'claim', ttlSeconds: 600, client: CLIENT },
        pool(3),
      );
      expect(fourth).not.toHaveProperty('refused');
      expect(
        await claims.createChallenge(
          { token: newToken(), did: 'did:web:a.example', method: 'dns', purpose: 'claim', ttlSeconds: 600, client: CLIENT },
          pool(3),
        ),
      ).toMatchObject({ refused: 'total' });
      await sql(`UPDATE claim_challenges SET created_at_ms = 1000, expires_at_ms = 2000 WHERE token = '${(fourth as { token: string }).token}'`);
      expect(
        await claims.createChallenge(
          { token: newToken(), did: 'did:web:a.example', method: 'dns', purpose: 'claim', ttlSeconds: 600, client: CLIENT },
          pool(3),
        ),
      ).not.toHaveProperty('refused');

      await emptyClaims();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          claims.createChallenge(
            { token: newToken(), did: `did:web:c${i}.example`, method: 'signature', purpose: 'claim', ttlSeconds: 600, client: CLIENT },
            pool(5),
          ),
        ),
      );
      expect(results.filter((r) => !isRefusal(r))).toHaveLength(5);
      expect(await count('claim_challenges')).toBe(5);
    });

    it('claims: attempts are counted up to maxAttempts; refusals unknown, wrong DID, used, exhausted, expired (on the database clock)', async () => {
      await emptyClaims();
      const { claims } = store;
      const did = 'did:web:attempts.example';
      const c = await challenge(did, 'dns', 'list');
      for (let n = 1; n <= 3; n++) {
        expect(await claims.attemptChallenge(did, c.token, 3)).toEqual({ ok: true, challenge: { ...c, attempts: n } });
      }
      const exhausted = await claims.attemptChallenge(did, c.token, 3);
      expect(exhausted).toEqual({ ok: false, refusal: 'exhausted', challenge: { ...c, attempts: 3 } });
      // Not incremented further; a larger maxAttempts admits again.
      expect(await claims.attemptChallenge(did, c.token, 3)).toMatchObject({ ok: false, refusal: 'exhausted', challenge: { attempts: 3 } });
      expect(await claims.attemptChallenge(did, c.token, 4)).toMatchObject({ ok: true, challenge: { attempts: 4 } });

      // Unknown token; another DID's token (the challenge is not shown, nor counted).
      expect(await claims.attemptChallenge(did, newToken(), 5)).toEqual({ ok: false, refusal: 'unknown', challenge: null });
      expect(await claims.attemptChallenge('did:web:other.example', c.token, 5)).toEqual({ ok: false, refusal: 'unknown', challenge: null });
      for (const max of [0, -1, 2.5, Number.NaN]) await expect(claims.attemptChallenge(did, c.token, max)).rejects.toThrow(RangeError);
      expect(Number((await rows<{ a: number }>(`SELECT attempts AS a FROM claim_challenges WHERE token = '${c.token}'`))[0]!.a)).toBe(4);

      // Concurrent attempts never pass maxAttempts together.
      const racing = await challenge(did, 'dns', 'claim');
      const attempts = await Promise.all(Array.from({ length: 12 }, () => claims.attemptChallenge(did, racing.token, 5)));
      expect(attempts.filter((r) => r.ok)).toHaveLength(5);
      expect(attempts.filter((r) => !r.ok && r.refusal === 'exhausted')).toHaveLength(7);
      expect(await count('claim_challenges', `token = '${racing.token}' AND attempts = 5`)).toBe(1);

      // Used: said before exhausted.
      expect((await claims.recordProof(proofOf(c.token, 'dns', did))).outcome).toBe('recorded');
      const used = await claims.attemptChallenge(did, c.token, 4);
      expect(used).toMatchObject({ ok: false, refusal: 'used', challenge: { token: c.token, attempts: 4, usedAt: expect.stringMatching(RFC3339) as string } });

      // Expired on the database clock: a challenge of one second, once the database's clock is past it.
      const short = await challenge(did, 'signature', 'claim', 1);
      expect(between(short.createdAt, short.expiresAt)).toBe(1);
      const [{ expires }] = (await rows<{ expires: number | string }>(
        `SELECT expires_at_ms AS expires FROM claim_challenges WHERE token = '${short.token}'`,
      )) as [{ expires: number | string }];
      while ((await nowMs()) <= Number(expires)) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await claims.attemptChallenge(did, short.token, 5)).toEqual({ ok: false, refusal: 'expired', challenge: short });
      expect(await claims.recordProof(proofOf(short.token, 'signature', did))).toEqual({ outcome: 'expired' });
      expect(await count('claims', `token = '${short.token}'`)).toBe(0);
      expect(await count('claim_challenges', `token = '${short.token}' AND used_at_ms IS NULL AND attempts = 0`)).toBe(1);
    });

    it('claims: recordProof — a claim on the database clock; a newer proof supersedes and takes the listing along; list and unlist; used, expired, unknown write nothing', async () => {
      await emptyClaims();
      const { claims } = store;
      const did = 'did:web:Proofs.example';
      const before = await nowMs();

      const signature = await prove(did, 'signature', 'claim');
      expect(signature.listed).toBe(false);
      expect(signature.claim).toEqual({
        id: expect.any(Number) as number,
        did,
        method: 'signature',
        subject: `${did}#key-1`,
        token: expect.any(String) as string,
        verifiedAt: expect.stringMatching(RFC3339) as string,
        checkedAt: signature.claim.verifiedAt,
        expiresAt: expect.stringMatching(RFC3339) as string,
        nextCheckAt: null,
        checkFailures: 0,
        lastError: null,
        lapsedAt: null,
        lapseReason: null,
      });
      expect(Math.abs(between(before, signature.claim.verifiedAt))).toBeLessThanOrEqual(5);
      expect(between(signature.claim.verifiedAt, signature.claim.expiresAt)).toBe(30 * 86_400);
      expect(await claims.get(signature.claim.id)).toEqual(signature.claim);

      const dns = await prove(did, 'dns', 'list');
      expect(dns.listed).toBe(true);
      expect(dns.claim).toMatchObject({ method: 'dns', subject: '_svc-claim.Proofs.example', lapsedAt: null });
      expect(between(dns.claim.verifiedAt, dns.claim.nextCheckAt!)).toBe(86_400);
      expect(between(dns.claim.verifiedAt, dns.claim.expiresAt)).toBe(7 * 86_400);
      const [listing] = await listings();
      expect(listing).toEqual({ seq: expect.any(Number) as number, did, claimId: dns.claim.id });
      const [entry] = (await claims.directory({ q: null, didMethod: null, limit: 10, after: null })).entries;
      expect(entry).toEqual({
        seq: listing!.seq,
        did,
        didMethod: 'web',
        listedAt: dns.claim.verifiedAt,
        claims: [
          { method: 'dns', verifiedAt: dns.claim.verifiedAt, expiresAt: dns.claim.expiresAt },
          { method: 'signature', verifiedAt: signature.claim.verifiedAt, expiresAt: signature.claim.expiresAt },
        ],
      });

      // A newer DNS proof (purpose claim): the older lapses, superseded, and its listing moves to the new claim in place.
      const dns2 = await prove(did, 'dns', 'claim');
      expect(dns2.listed).toBe(true);
      expect(await claims.get(dns.claim.id)).toEqual({
        ...dns.claim,
        lapsedAt: expect.stringMatching(RFC3339) as string,
        lapseReason: 'superseded by a newer proof',
      });
      expect(await listings()).toEqual([{ seq: listing!.seq, did, claimId: dns2.claim.id }]);
      expect(await count('claims', `did = '${did}' AND lapsed_at_ms IS NULL`)).toBe(2);

      // A signature proof with purpose list: the listing is rebound to it, same seq, same listedAt.
      const signature2 = await prove(did, 'signature', 'list');
      expect(signature2.listed).toBe(true);
      expect(await listings()).toEqual([{ seq: listing!.seq, did, claimId: signature2.claim.id }]);
      expect((await claims.directory({ q: null, didMethod: null, limit: 10, after: null })).entries[0]).toMatchObject({
        seq: listing!.seq,
        listedAt: entry!.listedAt,
      });

      // Unlist: the listing goes, the claims stay current.
      const unlisted = await prove(did, 'well-known', 'unlist');
      expect(unlisted.listed).toBe(false);
      expect(await listings()).toEqual([]);
      expect((await claims.forDid(did, 0)).current.map((c) => c.method).sort()).toEqual(['dns', 'signature', 'well-known']);
      // Listed again: a new place, after the old one.
      const relisted = await prove(did, 'dns', 'list');
      expect(relisted.listed).toBe(true);
      const [again] = await listings();
      expect(again!.seq).toBeGreaterThan(listing!.seq);
      expect(again!.claimId).toBe(relisted.claim.id);

      // Nothing written for a used, an expired or an unknown challenge.
      const snapshot = async () => [await count('claims'), await count('directory_entries'), await count('claim_challenges', 'used_at_ms IS NOT NULL')];
      const written = await snapshot();
      expect(await claims.recordProof(proofOf(relisted.claim.token, 'dns', did))).toEqual({ outcome: 'used' });
      expect(await claims.recordProof(proofOf(newToken(), 'dns', did))).toEqual({ outcome: 'unknown' });
      const stale = await challenge(did, 'dns', 'unlist');
      await sql(`UPDATE claim_challenges SET created_at_ms = 1000, expires_at_ms = 2000 WHERE token = '${stale.token}'`);
      expect(await claims.recordProof(proofOf(stale.token, 'dns', did))).toEqual({ outcome: 'expired' });
      const fresh = await challenge(did, 'dns', 'unlist');
      for (const bad of [{ lifetimeSeconds: 0 }, { lifetimeSeconds: 1.5 }, { lifetimeSeconds: Number.NaN }, { recheckSeconds: 0 }, { recheckSeconds: 0.5 }]) {
        await expect(claims.recordProof({ ...proofOf(fresh.token, 'dns', did), ...bad })).rejects.toThrow(RangeError);
      }
      expect(await snapshot()).toEqual(written);
      expect(await listings()).toEqual([again]);
    });

    it('claims: a claim that expired unswept is not superseded but lapses as the sweep would, and its listing does not come back', async () => {
      await emptyClaims();
      const { claims } = store;
      const did = 'did:web:unswept.example';
      const old = await prove(did, 'dns', 'list');
      await sql(`UPDATE claims SET expires_at_ms = ${(await nowMs()) - 1000} WHERE id = ${old.claim.id}`);
      // Hidden at once, before any sweep.
      expect((await claims.directory({ q: null, didMethod: null, limit: 10, after: null })).entries).toEqual([]);
      expect((await claims.forDid(did, 5)).listed).toBe(false);

      const next = await prove(did, 'dns', 'claim');
      expect(next.listed).toBe(false);
      expect(await claims.get(old.claim.id)).toMatchObject({
        lapsedAt: expect.stringMatching(RFC3339) as string,
        lapseReason: `not re-checked successfully since ${old.claim.checkedAt}`,
      });
      expect(await listings()).toEqual([]);

      // A listing bound to an expired claim of another method is not revived by a list proof either: a new place.
      const signature = await prove(did, 'signature', 'list');
      const [first] = await listings();
      await sql(`UPDATE claims SET expires_at_ms = ${(await nowMs()) - 1000} WHERE id = ${signature.claim.id}`);
      const relisted = await prove(did, 'well-known', 'list');
      expect(relisted.listed).toBe(true);
      const [second] = await listings();
      expect(second!.seq).toBeGreaterThan(first!.seq);
      expect(second!.claimId).toBe(relisted.claim.id);
      // The expired signature claim is not this proof's to lapse (another method): the sweep does it.
      expect(await claims.get(signature.claim.id)).toMatchObject({ lapsedAt: null });
      expect(await claims.sweep()).toEqual({ lapsed: 1, challengesRemoved: 0 });
      expect(await claims.get(signature.claim.id)).toMatchObject({ lapseReason: 'expired' });
      expect(await listings()).toEqual([second]);
    });

    it('claims: concurrent proofs of one challenge record exactly one claim', async () => {
      await emptyClaims();
      const did = 'did:web:race.example';
      const c = await challenge(did, 'dns', 'list');
      const results = await Promise.all(Array.from({ length: 8 }, () => store.claims.recordProof(proofOf(c.token, 'dns', did))));
      expect(results.filter((r) => r.outcome === 'recorded')).toHaveLength(1);
      expect(results.filter((r) => r.outcome === 'used')).toHaveLength(7);
      expect(await count('claims')).toBe(1);
      expect(await count('directory_entries')).toBe(1);

      // Concurrent proofs of different challenges of one DID and method: each recorded in turn, one current claim at the end.
      const tokens = await Promise.all(Array.from({ length: 6 }, () => challenge(did, 'dns', 'list')));
      const recorded = await Promise.all(tokens.map((t) => store.claims.recordProof(proofOf(t.token, 'dns', did))));
      expect(recorded.every((r) => r.outcome === 'recorded' && r.listed)).toBe(true);
      expect(await count('claims', 'lapsed_at_ms IS NULL')).toBe(1);
      expect(await count('claims', `lapse_reason = 'superseded by a newer proof'`)).toBe(6);
      const [current] = (await store.claims.forDid(did, 0)).current;
      expect(await listings()).toEqual([{ seq: expect.any(Number) as number, did, claimId: current!.id }]);
    });

    it('claims: get and forDid — current newest first, the latest lapsed or expired ones at most pastLimit, listed', async () => {
      await emptyClaims();
      const { claims } = store;
      const did = 'did:web:history.example';
      const first = await prove(did, 'dns', 'claim');
      const second = await prove(did, 'dns', 'claim');
      const third = await prove(did, 'dns', 'list');
      const signature = await prove(did, 'signature', 'claim');
      const other = await prove('did:web:someone-else.example', 'signature', 'list');
      // Stamped apart, so that "newest first" is by verification time.
      for (const [c, s] of [
        [first, 400],
        [second, 300],
        [third, 200],
        [signature, 100],
      ] as const) {
        await sql(`UPDATE claims SET verified_at_ms = verified_at_ms - ${s * 1000} WHERE id = ${c.claim.id}`);
      }
      const found = await claims.forDid(did, 5);
      expect(found.current.map((c) => c.id)).toEqual([signature.claim.id, third.claim.id]);
      expect(found.past.map((c) => c.id)).toEqual([second.claim.id, first.claim.id]);
      expect(found.past.every((c) => c.lapseReason === 'superseded by a newer proof')).toBe(true);
      expect(found.listed).toBe(true);
      expect(found.current[1]).toEqual(await claims.get(third.claim.id));
      expect((await claims.forDid(did, 1)).past.map((c) => c.id)).toEqual([second.claim.id]);
      for (const none of [0, -1, Number.NaN]) expect((await claims.forDid(did, none)).past).toEqual([]);

      // An expired claim is past at once (not yet lapsed), and the listing bound to it is not counted.
      await sql(`UPDATE claims SET expires_at_ms = ${(await nowMs()) - 1} WHERE id = ${third.claim.id}`);
      const expired = await claims.forDid(did, 5);
      expect(expired.current.map((c) => c.id)).toEqual([signature.claim.id]);
      expect(expired.past.map((c) => c.id)).toEqual([third.claim.id, second.claim.id, first.claim.id]);
      expect(expired.past[0]).toMatchObject({ lapsedAt: null, lapseReason: null });
      expect(expired.listed).toBe(false);

      expect(await claims.forDid('did:web:nobody.example', 5)).toEqual({ current: [], past: [], listed: false });
      expect((await claims.forDid(other.claim.did, 5)).listed).toBe(true);
      for (const absent of [other.claim.id + 1000, 0, -1, 1.5, Number.NaN, 2 ** 40]) expect(await claims.get(absent)).toBeUndefined();
    });

    it('claims: claimDue leases current due re-checks, oldest due first, and moves their next check on the database clock; signature claims are never due', async () => {
      await emptyClaims();
      const { claims } = store;
      const now = await nowMs();
      const a = await prove('did:web:a.example', 'dns');
      const b = await prove('did:web:b.example', 'well-known');
      const later = await prove('did:web:c.example', 'dns');
      const expired = await prove('did:web:d.example', 'dns');
      const lapsed = await prove('did:web:e.example', 'well-known');
      const signature = await prove('did:web:f.example', 'signature');
      await sql(`UPDATE claims SET next_check_at_ms = ${now - 3000} WHERE id = ${a.claim.id}`);
      await sql(`UPDATE claims SET next_check_at_ms = ${now - 5000} WHERE id = ${b.claim.id}`);
      await sql(`UPDATE claims SET next_check_at_ms = ${now - 9000}, expires_at_ms = ${now - 1000} WHERE id = ${expired.claim.id}`);
      await sql(`UPDATE claims SET next_check_at_ms = ${now - 9000} WHERE id = ${lapsed.claim.id}`);
      expect(await claims.recordRecheck(lapsed.claim.id, { kind: 'lapsed', reason: 'gone' })).toBe(true);

      for (const none of [0, -1, Number.NaN]) expect(await claims.claimDue(none, 120)).toEqual([]);
      for (const lease of [0, -5, 1.5, Number.NaN]) await expect(claims.claimDue(10, lease)).rejects.toThrow(RangeError);

      const [first, ...none] = await claims.claimDue(1, 120);
      expect(none).toEqual([]);
      expect(first).toEqual({ ...b.claim, nextCheckAt: expect.stringMatching(RFC3339) as string });
      expect(Math.abs(between(now, first!.nextCheckAt!) - 120)).toBeLessThanOrEqual(5);
      expect(await claims.get(b.claim.id)).toEqual(first);
      expect((await claims.claimDue(10, 60)).map((c) => c.id)).toEqual([a.claim.id]);
      // Leased: nothing is due now.
      expect(await claims.claimDue(10, 60)).toEqual([]);
      // Once the lease has passed (aged here), due again.
      await sql(`UPDATE claims SET next_check_at_ms = ${now - 1} WHERE id IN (${a.claim.id}, ${later.claim.id})`);
      expect((await claims.claimDue(10, 60)).map((c) => c.id).sort((x, y) => x - y)).toEqual([a.claim.id, later.claim.id].sort((x, y) => x - y));
      expect((await claims.get(signature.claim.id))!.nextCheckAt).toBeNull();
    });

    it('claims: recordRecheck — held, unreachable, lapsed (its listing with it); only while the claim is not lapsed', async () => {
      await emptyClaims();
      const { claims } = store;
      const did = 'did:web:recheck.example';
      const { claim } = await prove(did, 'well-known', 'list');

      const error = `HOST_UNREACHABLE: connect ECONNREFUSED\n   at the host\t${'x'.repeat(400)}`;
      expect(await claims.recordRecheck(claim.id, { kind: 'unreachable', error, retrySeconds: 600 })).toBe(true);
      const afterFailure = (await claims.get(claim.id))!;
      const now = await nowMs();
      expect(afterFailure).toMatchObject({ checkFailures: 1, checkedAt: claim.checkedAt, expiresAt: claim.expiresAt, lapsedAt: null });
      expect(afterFailure.lastError).toMatch(/^HOST_UNREACHABLE: connect ECONNREFUSED at the host x+…$/);
      expect(afterFailure.lastError!.length).toBe(300);
      expect(Math.abs(between(now, afterFailure.nextCheckAt!) - 600)).toBeLessThanOrEqual(5);
      expect(await claims.recordRecheck(claim.id, { kind: 'unreachable', error: 'DNS_UNAVAILABLE', retrySeconds: 60 })).toBe(true);
      expect(await claims.get(claim.id)).toMatchObject({ checkFailures: 2, lastError: 'DNS_UNAVAILABLE' });

      await sql(`UPDATE claims SET checked_at_ms = checked_at_ms - 86400000 WHERE id = ${claim.id}`);
      expect(await claims.recordRecheck(claim.id, { kind: 'held', lifetimeSeconds: 7 * 3600, recheckSeconds: 3600 })).toBe(true);
      const held = (await claims.get(claim.id))!;
      const heldAt = await nowMs();
      expect(held).toMatchObject({ checkFailures: 0, lastError: null, verifiedAt: claim.verifiedAt, lapsedAt: null });
      expect(Math.abs(between(heldAt, held.checkedAt))).toBeLessThanOrEqual(5);
      expect(between(held.checkedAt, held.expiresAt)).toBe(7 * 3600);
      expect(between(held.checkedAt, held.nextCheckAt!)).toBe(3600);

      for (const bad of [
        { kind: 'held', lifetimeSeconds: 0, recheckSeconds: 60 },
        { kind: 'held', lifetimeSeconds: 60, recheckSeconds: 1.5 },
        { kind: 'unreachable', error: 'x', retrySeconds: 0 },
        { kind: 'unreachable', error: 'x', retrySeconds: Number.NaN },
      ] as const) {
        await expect(claims.recordRecheck(claim.id, bad)).rejects.toThrow(RangeError);
      }
      expect(await claims.get(claim.id)).toEqual(held);

      expect(await claims.recordRecheck(claim.id, { kind: 'lapsed', reason: 'TOKEN_MISMATCH: the file no longer holds the token' })).toBe(true);
      expect(await claims.get(claim.id)).toMatchObject({
        lapsedAt: expect.stringMatching(RFC3339) as string,
        lapseReason: 'TOKEN_MISMATCH: the file no longer holds the token',
      });
      expect(await listings()).toEqual([]);
      expect(await claims.forDid(did, 5)).toMatchObject({ current: [], listed: false });

      // Lapsed: every kind is refused and changes nothing; so is a superseded claim's re-check, and no claim.
      const lapsed = await claims.get(claim.id);
      expect(await claims.recordRecheck(claim.id, { kind: 'held', lifetimeSeconds: 60, recheckSeconds: 60 })).toBe(false);
      expect(await claims.recordRecheck(claim.id, { kind: 'unreachable', error: 'x', retrySeconds: 60 })).toBe(false);
      expect(await claims.recordRecheck(claim.id, { kind: 'lapsed', reason: 'again' })).toBe(false);
      expect(await claims.get(claim.id)).toEqual(lapsed);
      const older = await prove(did, 'dns', 'list');
      await prove(did, 'dns', 'claim');
      expect(await claims.recordRecheck(older.claim.id, { kind: 'lapsed', reason: 'late' })).toBe(false);
      expect(await claims.get(older.claim.id)).toMatchObject({ lapseReason: 'superseded by a newer proof' });
      expect(await listings()).toHaveLength(1);
      for (const absent of [older.claim.id + 1000, 0, -1, 1.5, 2 ** 40])
        expect(await claims.recordRecheck(absent, { kind: 'lapsed', reason: 'x' })).toBe(false);
    });

    it('claims: sweep lapses expired claims with the exact reasons and removes their listings; challenges go a day after expiry; a directory read hides an expired listing before any sweep', async () => {
      await emptyClaims();
      const { claims } = store;
      const signature = await prove('did:web:sig.example', 'signature', 'list');
      const wellKnown = await prove('did:web:wk.example', 'well-known', 'list');
      const kept = await prove('did:web:kept.example', 'dns', 'list');
      const now = await nowMs();
      await sql(`UPDATE claims SET expires_at_ms = ${now - 1} WHERE id IN (${signature.claim.id}, ${wellKnown.claim.id})`);
      // Before any sweep: not listed, not current.
      expect((await claims.directory({ q: null, didMethod: null, limit: 10, after: null })).entries.map((e) => e.did)).toEqual(['did:web:kept.example']);
      expect(await claims.forDid('did:web:sig.example', 5)).toMatchObject({ current: [], listed: false });
      expect(await count('directory_entries')).toBe(3);

      // Challenges: one expired over a day ago (removed), one an hour ago and one unexpired (kept).
      const [oldChallenge, recentChallenge] = [
        await challenge('did:web:sig.example'),
        await challenge('did:web:sig.example'),
        await challenge('did:web:sig.example'),
      ];
      await sql(
        `UPDATE claim_challenges SET created_at_ms = ${now - 90_000_000}, expires_at_ms = ${now - 86_400_000 - 5000} WHERE token = '${oldChallenge!.token}'`,
      );
      await sql(`UPDATE claim_challenges SET created_at_ms = ${now - 7_200_000}, expires_at_ms = ${now - 3_600_000} WHERE token = '${recentChallenge!.token}'`);
      const challengesBefore = await count('claim_challenges');

      expect(await claims.sweep()).toEqual({ lapsed: 2, challengesRemoved: 1 });
      expect(await claims.get(signature.claim.id)).toMatchObject({ lapsedAt: expect.stringMatching(RFC3339) as string, lapseReason: 'expired' });
      expect(await claims.get(wellKnown.claim.id)).toMatchObject({ lapseReason: `not re-checked successfully since ${wellKnown.claim.checkedAt}` });
      expect(await claims.get(kept.claim.id)).toMatchObject({ lapsedAt: null });
      expect((await listings()).map((l) => l.did)).toEqual(['did:web:kept.example']);
      expect(await count('claim_challenges')).toBe(challengesBefore - 1);
      expect(await count('claim_challenges', `token = '${oldChallenge!.token}'`)).toBe(0);
      expect(await claims.sweep()).toEqual({ lapsed: 0, challengesRemoved: 0 });
    });

    it('directory: 120 listings paged 50/50/20 in a stable order, without repeats or gaps while listings come and go between pages', async () => {
      await emptyClaims();
      const { claims } = store;
      const didOf = (i: number) => (i % 4 === 0 ? `did:key:z6MkConformance${i}` : `did:web:host-${i}.example`);
      for (let i = 1; i <= 120; i++) await prove(didOf(i), 'signature', 'list');
      const seqs = (await listings()).map((l) => l.seq);

      const page1 = await claims.directory({ q: null, didMethod: null, limit: 50, after: null });
      expect(page1.entries.map((e) => e.did)).toEqual(Array.from({ length: 50 }, (_, i) => didOf(i + 1)));
      expect(page1.more).toBe(true);
      expect(page1.entries[3]).toMatchObject({ did: 'did:key:z6MkConformance4', didMethod: 'key', claims: [{ method: 'signature' }] });
      // Between pages: a listing added (it comes last), one on the first page unlisted (nothing shifts).
      await prove('did:web:added-1.example', 'signature', 'list');
      await prove(didOf(10), 'signature', 'unlist');
      const page2 = await claims.directory({ q: null, didMethod: null, limit: 50, after: page1.entries.at(-1)!.seq });
      expect(page2.entries.map((e) => e.did)).toEqual(Array.from({ length: 50 }, (_, i) => didOf(i + 51)));
      expect(page2.more).toBe(true);
      await prove('did:web:added-2.example', 'signature', 'list');
      const page3 = await claims.directory({ q: null, didMethod: null, limit: 50, after: page2.entries.at(-1)!.seq });
      expect(page3.entries.map((e) => e.did)).toEqual([
        ...Array.from({ length: 20 }, (_, i) => didOf(i + 101)),
        'did:web:added-1.example',
        'did:web:added-2.example',
      ]);
      expect(page3.more).toBe(false);
      const seen = [...page1.entries, ...page2.entries, ...page3.entries].map((e) => e.seq);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.slice(0, 120)).toEqual(seqs);
      expect(seen).toEqual([...seen].sort((x, y) => x - y));

      // Exactly at the end: no more.
      const all = await allPages({}, 40);
      expect(all.map((p) => p.entries.length)).toEqual([40, 40, 40, 1]);
      const byFifty = await allPages({}, 50);
      expect(byFifty.map((p) => [p.entries.length, p.more])).toEqual([
        [50, true],
        [50, true],
        [21, false],
      ]);

      // By DID method, paged with its own cursor.
      const keys = (await allPages({ didMethod: 'key' }, 7)).flatMap((p) => p.entries.map((e) => e.did));
      expect(keys).toEqual(Array.from({ length: 30 }, (_, i) => didOf(4 * (i + 1))));
      expect((await claims.directory({ q: null, didMethod: 'webvh', limit: 10, after: null })).entries).toEqual([]);

      for (const limit of [0, 51, -1, 1.5, Number.NaN])
        await expect(claims.directory({ q: null, didMethod: null, limit, after: null })).rejects.toThrow(RangeError);
      for (const after of [-1, 1.5, Number.NaN]) await expect(claims.directory({ q: null, didMethod: null, limit: 10, after })).rejects.toThrow(RangeError);
    });

    it('directory: q is a case-insensitive substring of the DID, with no pattern characters; combined with the method and the cursor', async () => {
      await emptyClaims();
      const { claims } = store;
      for (const did of [
        'did:web:Alpha.example',
        'did:web:beta.example',
        'did:web:under_score.example',
        'did:key:z6MkALPHAkey',
        'did:web:gamma.example%2Fpath',
      ]) {
        await prove(did, 'signature', 'list');
      }
      const dids = async (q: string, didMethod: string | null = null) => (await allPages({ q, didMethod }, 50)).flatMap((p) => p.entries.map((e) => e.did));
      expect(await dids('alpha')).toEqual(['did:web:Alpha.example', 'did:key:z6MkALPHAkey']);
      expect(await dids('ALPHA.EX')).toEqual(['did:web:Alpha.example']);
      expect(await dids('alpha', 'key')).toEqual(['did:key:z6MkALPHAkey']);
      expect(await dids('_')).toEqual(['did:web:under_score.example']);
      expect(await dids('%')).toEqual(['did:web:gamma.example%2Fpath']);
      expect(await dids('%2f')).toEqual(['did:web:gamma.example%2Fpath']);
      expect(await dids('.example')).toHaveLength(4);
      expect(await dids('nothing-like-it')).toEqual([]);
      // A cursor within the matches.
      const first = await claims.directory({ q: 'example', didMethod: 'web', limit: 2, after: null });
      expect(first.entries.map((e) => e.did)).toEqual(['did:web:Alpha.example', 'did:web:beta.example']);
      expect(first.more).toBe(true);
      const rest = await claims.directory({ q: 'example', didMethod: 'web', limit: 2, after: first.entries[1]!.seq });
      expect(rest.entries.map((e) => e.did)).toEqual(['did:web:under_score.example', 'did:web:gamma.example%2Fpath']);
      expect(rest.more).toBe(false);
    });

    it('directory: the trigram index finds what a plain scan finds — unicode, short terms, pattern and quote characters, paging — and follows listings as they come and go', async () => {
      await emptyClaims();
      // A plain scan, as the directory searched before the index: the lower-cased term a
      // substring of the lower-cased DID, in listing order.
      const listed: string[] = [];
      const scan = (q: string, didMethod: string | null) =>
        listed.filter((did) => did.toLowerCase().includes(q.toLowerCase()) && (didMethod === null || did.split(':')[1] === didMethod));
      const search = async (q: string, didMethod: string | null, limit: number) =>
        (await allPages({ q, didMethod }, limit)).flatMap((p) => p.entries.map((e) => e.did));
      const fixed = [
        'did:web:bücher.example',
        'did:web:ÄÖÜ-straße.example',
        'did:web:😀smile.example',
        'did:web:under_score.example',
        'did:web:per%25cent.example',
        'did:web:back\\slash.example',
        'did:web:quo"te.example',
        "did:web:apo'strophe.example",
        'did:key:z6MkTrigramKey',
      ];
      // Random DIDs over a small alphabet, so that terms share trigrams with many of them.
      let seed = 49;
      const random = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed % n;
      };
      const alphabet = ['a', 'b', 'c', 'A', '-', '.', '_', '%', 'é', 'ß', '😀', '"', '\\'];
      const word = (n: number) => Array.from({ length: n }, () => alphabet[random(alphabet.length)]).join('');
      const randomDids = Array.from({ length: 40 }, (_, i) => `did:${i % 3 === 0 ? 'key' : 'web'}:${word(3 + random(8))}.x${i}`);
      for (const [i, did] of [...fixed, ...randomDids].entries()) {
        // Half the listings far along the order: SQLite scans the first stretch of listings
        // itself and asks the index for the rest of the page (SCANNED in sqlite/claims.ts).
        if (i === 25) {
          const next = 2_000 + Number((await rows<{ n: number | string }>('SELECT max(seq) AS n FROM directory_entries'))[0]!.n);
          await sql(
            backend.name === 'SQLite'
              ? `UPDATE sqlite_sequence SET seq = ${next} WHERE name = 'directory_entries'`
              : `ALTER TABLE directory_entries ALTER COLUMN seq RESTART WITH ${next}`,
          );
        }
        await prove(did, 'signature', 'list');
        listed.push(did);
      }
      const terms = [
        '',
        'a',
        'ü',
        'ex',
        '😀',
        '😀s',
        'büc',
        'BÜC',
        'äöü-',
        'STRASSE',
        'straße',
        '%',
        '%25',
        '_',
        '_s',
        'r_s',
        '\\',
        'k\\s',
        '"',
        'o"t',
        "o'st",
        'did:',
        'example',
        'z6mktrigram',
        '.example',
        'nothing-like-it',
        '%%%',
        '___',
        'a%b',
        'é_ß',
        'NULL',
        "' OR '1'='1",
      ];
      for (let i = 0; i < 40; i++) {
        const did = listed[random(listed.length)]!;
        const at = random(did.length);
        terms.push(did.slice(at, at + 1 + random(6)), word(1 + random(4)));
      }
      for (const [i, q] of terms.entries()) {
        const didMethod = i % 5 === 4 ? 'key' : null;
        expect(await search(q, didMethod, 1 + (i % 7)), `q ${JSON.stringify(q)}`).toEqual(scan(q, didMethod));
      }

      // Unlisted, listed again (the same listing rebound), swept: the index follows every write.
      await prove('did:web:bücher.example', 'signature', 'unlist');
      listed.splice(listed.indexOf('did:web:bücher.example'), 1);
      await prove('did:web:ÄÖÜ-straße.example', 'signature', 'list');
      await prove('did:web:late-bücher.example', 'signature', 'list');
      listed.push('did:web:late-bücher.example');
      for (const q of ['bücher', 'straße', 'late']) expect(await search(q, null, 2)).toEqual(scan(q, null));
      if (backend.name === 'SQLite') {
        // FTS5 compares the index with the listings themselves.
        await sql(`INSERT INTO directory_search (directory_search, rank) VALUES ('integrity-check', 1)`);
      } else {
        const indexes = await rows<{ indexdef: string }>(
          `SELECT indexdef FROM pg_indexes WHERE indexname = 'directory_entries_search_trgm' AND schemaname = current_schema()`,
        );
        expect(indexes.map((r) => r.indexdef)).toEqual([expect.stringMatching(/USING gin \(search \S*gin_trgm_ops\) WITH \(fastupdate='?off'?\)/)]);
      }
      await emptyClaims();
      expect(await search('example', null, 10)).toEqual([]);
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

  it('migrates a version 8 database (the unused claims tables of version 2) to the current version', async () => {
    const { schema, drop } = freshSchema();
    const client = new pg.Client({ connectionString: postgresUrl });
    try {
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
      await client.query('CREATE TABLE svc_schema_version (id SMALLINT PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)');
      for (const migration of MIGRATIONS.filter((m) => m.version <= 8)) await client.query(postgresSql(migration.up));
      await client.query('INSERT INTO svc_schema_version (id, version) VALUES (1, 8)');
      const columnsOf = async (table: string) =>
        (
          await client.query<{ c: string }>('SELECT column_name AS c FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY c', [
            schema,
            table,
          ])
        ).rows.map((r) => r.c);
      expect(await columnsOf('claims')).toContain('status');
      expect(await columnsOf('claim_challenges')).toEqual([]);

      const store = await openPostgresStore({ url: postgresUrl, schema });
      try {
        expect(store.schemaVersion).toBe(SCHEMA_VERSION);
        expect(await store.readiness()).toEqual({ ready: true, storage: 'postgres', schema: 'current' });
        expect(await columnsOf('claims')).not.toContain('status');
        expect(await columnsOf('claims')).toContain('lapsed_at_ms');
        expect(await columnsOf('directory_entries')).toEqual(['claim_id', 'did', 'did_method', 'listed_at_ms', 'search', 'seq']);
        const c = await store.claims.createChallenge(
          { token: newToken(), did: 'did:web:migrated.example', method: 'dns', purpose: 'list', ttlSeconds: 600, client: CLIENT },
          pool(10),
        );
        if (isRefusal(c)) throw new Error('full');
        expect(await store.claims.recordProof(proofOf(c.token, 'dns', c.did))).toMatchObject({ outcome: 'recorded', listed: true });
      } finally {
        await store.close();
      }
    } finally {
      await client.end().catch(() => undefined);
      await drop();
    }
  });

  it('migrates a version 16 database with listings to 17: a pg_trgm index over them, and search finds them', async () => {
    const { schema, drop } = freshSchema();
    const client = new pg.Client({ connectionString: postgresUrl });
    try {
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
      await client.query('CREATE TABLE svc_schema_version (id SMALLINT PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)');
      for (const migration of MIGRATIONS.filter((m) => m.version <= 16)) await client.query(postgresSql(migration.postgres ?? migration.up));
      await client.query('INSERT INTO svc_schema_version (id, version) VALUES (1, 16)');
      await client.query(`
        INSERT INTO claims (did, method, subject, token, verified_at_ms, checked_at_ms, expires_at_ms)
          SELECT 'did:web:Host-' || i || '.example', 'signature', 'did:web:Host-' || i || '.example#key-1', 'token-' || i, n, n, n + 86400000
          FROM generate_series(0, 299) AS i, (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS n) AS now;
        INSERT INTO directory_entries (did, did_method, search, claim_id, listed_at_ms)
          SELECT did, 'web', lower(did), id, verified_at_ms FROM claims ORDER BY id`);

      const store = await openPostgresStore({ url: postgresUrl, schema });
      try {
        expect(store.schemaVersion).toBe(SCHEMA_VERSION);
        const { rows } = await client.query<{ indexdef: string }>(
          `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'directory_entries_search_trgm'`,
          [schema],
        );
        expect(rows.map((r) => r.indexdef)).toEqual([expect.stringMatching(/USING gin \(search \S*gin_trgm_ops\) WITH \(fastupdate='?off'?\)/)]);
        // The index serves the search (sequential scans off: the table is small).
        await client.query('SET enable_seqscan = off');
        const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT seq FROM directory_entries WHERE search LIKE '%host-299.%'`)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(plan).toMatch(/directory_entries_search_trgm/);
        const page = await store.claims.directory({ q: 'HOST-299.', didMethod: null, limit: 10, after: null });
        expect(page.entries.map((e) => e.did)).toEqual(['did:web:Host-299.example']);
      } finally {
        await store.close();
      }
    } finally {
      await client.end().catch(() => undefined);
      await drop();
    }
  });

  it('has every table and column of the SQLite schema (one migration history for both)', async () => {
    const { schema, drop } = freshSchema();
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-schema-'));
    const sqlite = openStore({ path: path.join(dir, 'svc.db') });
    const postgres = await openPostgresStore({ url: postgresUrl, schema });
    try {
      const tables = sqlite.db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .pluck()
        .all() as string[];
      // The directory's FTS5 index is tables on SQLite (version 17), a GIN index on PostgreSQL.
      expect(tables.filter((t) => t.startsWith('directory_search'))).toHaveLength(5);
      tables.splice(0, tables.length, ...tables.filter((t) => !t.startsWith('directory_search')));
      const sqliteColumns = tables
        .flatMap((t) => (sqlite.db.prepare(`SELECT name FROM pragma_table_info('${t}')`).pluck().all() as string[]).map((c) => `${t}.${c}`))
        .sort();
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

  it('a nullable JSON column takes NULL, and a database translated before that is repaired on open', async () => {
    const { schema, drop } = freshSchema();
    try {
      const constraints = async (s: PostgresStore) =>
        (
          await s.pool.query<{ d: string }>(
            `SELECT pg_get_constraintdef(oid) AS d FROM pg_constraint WHERE conrelid = 'monitor_baselines'::regclass AND conname IN ('monitor_baselines_document_check', 'monitor_baselines_problem_check') ORDER BY conname`,
          )
        ).rows.map((r) => r.d);
      let store = await openPostgresStore({ url: postgresUrl, schema });
      const repaired = await constraints(store);
      expect(repaired).toEqual([
        'CHECK (((document IS NULL) OR ((document)::json IS NOT NULL)))',
        'CHECK (((problem IS NULL) OR ((problem)::json IS NOT NULL)))',
      ]);
      // As the earlier translation left them: NULL refused.
      await store.pool.query(`ALTER TABLE monitor_baselines DROP CONSTRAINT monitor_baselines_document_check, ADD CONSTRAINT monitor_baselines_document_check CHECK ((document::json IS NOT NULL));
        ALTER TABLE monitor_baselines DROP CONSTRAINT monitor_baselines_problem_check, ADD CONSTRAINT monitor_baselines_problem_check CHECK ((problem::json IS NOT NULL))`);
      const w = await added(store, newWatch(1));
      await expect(store.watches.recordCheck(check(w.id, 0, resolved(1, '2026-03-02T00:00:00Z')))).rejects.toThrow(/monitor_baselines_problem_check/);
      await store.close();
      store = await openPostgresStore({ url: postgresUrl, schema });
      try {
        expect(await constraints(store)).toEqual(repaired);
        expect(await store.watches.recordCheck(check(w.id, 0, resolved(1, '2026-03-02T00:00:00Z')))).toMatchObject({ outcome: 'recorded' });
        expect(await store.watches.recordCheck(check(w.id, 1, failed('2026-03-02T00:05:00Z')))).toMatchObject({ outcome: 'recorded' });
        // Not JSON is still refused.
        await expect(store.pool.query(`UPDATE monitor_baselines SET problem = '{not json' WHERE watch_id = ${w.id}`)).rejects.toThrow();
      } finally {
        await store.close();
      }
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
    const { stores, done } = await twoDaemons.open();
    try {
      const results = await Promise.all(Array.from({ length: 16 }, (_, i) => stores[i % 2]!.watches.add(newWatch(i), 7)));
      expect(results.filter((r) => r !== 'full')).toHaveLength(7);
      for (const s of stores) expect(await s.watches.count()).toBe(7);
    } finally {
      await done();
    }
  });

  it('two daemons claiming at once never claim the same watch, and together claim every due one', async () => {
    const { stores, done } = await twoDaemons.open();
    try {
      const [a, b] = stores as [PostgresStore, PostgresStore];
      for (let round = 0; round < 5; round++) {
        await a.pool.query('DELETE FROM delivery_attempts; DELETE FROM monitor_events; DELETE FROM monitor_baselines; DELETE FROM watches');
        const ids: number[] = [];
        for (let i = 0; i < 20; i++) ids.push((await added(a, newWatch(i))).id);
        // Half never checked, half long due.
        await a.pool.query(`UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z' WHERE id % 2 = 0`);
        const claims = await Promise.all([a.watches.claimDue(20), b.watches.claimDue(20)]);
        const claimed = claims.flatMap((c) => c.map((x) => x.watch.id));
        expect(new Set(claimed).size).toBe(claimed.length);
        expect(claimed.sort((x, y) => x - y)).toEqual(ids);
        expect(await a.watches.claimDue(20)).toEqual([]);
      }

      // Many claimers with small limits: still disjoint.
      await a.pool.query(`UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z'`);
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2]!.watches.claimDue(3)));
      const claimed = claims.flatMap((c) => c.map((x) => x.watch.id));
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.length).toBeLessThanOrEqual(20);
      expect(claimed.length + (await a.watches.claimDue(20)).length).toBe(20);
    } finally {
      await done();
    }
  });

  it('a removal waiting for a check being recorded cancels the events that check queued', async () => {
    const { schema, stores, done } = await twoDaemons.open();
    const store = stores[0]!;
    const checker = new pg.Client({ connectionString: postgresUrl, options: `-c search_path=${schema}` });
    try {
      await checker.connect();
      const w = await added(store, newWatch(1));
      // A check holding the watch's row (as recordCheck's guarded UPDATE does) while it inserts its events.
      const checkerPid = (await checker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await checker.query('BEGIN');
      await checker.query('UPDATE watches SET revision = revision + 1 WHERE id = $1', [w.id]);
      const removing = store.watches.remove(w.id);
      // Until the removal waits for the row (asked on another connection: the checker's
      // transaction would keep reading its first snapshot of pg_stat_activity).
      let waiting = false;
      for (let i = 0; i < 500 && !waiting; i++) {
        const { rows } = await store.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)) AND query LIKE '%UPDATE watches SET active = 0%'`,
          [checkerPid],
        );
        waiting = rows[0]!.n > 0;
        if (!waiting) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(waiting).toBe(true);
      await checker.query(eventsSql({ ...w, revision: 1 }, [{ status: 'PENDING' }]));
      await checker.query('COMMIT');
      expect(await removing).toBe(true);
      expect((await store.monitorEvents.list({ watchId: w.id, limit: 5 })).map((e) => e.deliveryStatus)).toEqual(['CANCELLED']);
    } finally {
      await checker.end().catch(() => undefined);
      await done();
    }
  });

  it('two daemons recording the same check at once: exactly one is recorded', async () => {
    const { stores, done } = await twoDaemons.open();
    try {
      const w = await added(stores[0]!, newWatch(1));
      for (let revision = 0; revision < 5; revision++) {
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            stores[i % 2]!.watches.recordCheck(check(w.id, revision, resolved(revision + 1, '2026-03-02T00:00:00Z'), [changed(revision + 1)])),
          ),
        );
        expect(results.filter((r) => r.outcome === 'recorded')).toHaveLength(1);
        expect(results.filter((r) => r.outcome === 'stale')).toHaveLength(5);
      }
      const { rows } = await stores[1]!.pool.query<{ b: number; e: number }>(
        'SELECT (SELECT count(*) FROM monitor_baselines)::int AS b, (SELECT count(*) FROM monitor_events)::int AS e',
      );
      expect(rows[0]).toEqual({ b: 5, e: 5 });
      expect(await stores[1]!.watches.get(w.id)).toMatchObject({ revision: 5 });
    } finally {
      await done();
    }
  });

  it('two daemons recording the same check without events at once: exactly one is recorded', async () => {
    const { stores, done } = await twoDaemons.open();
    try {
      const w = await added(stores[0]!, newWatch(1));
      const others = [await added(stores[0]!, newWatch(2)), await added(stores[0]!, newWatch(3))];
      for (let revision = 0; revision < 5; revision++) {
        // Each daemon's batch also holds checks of other watches, in both orders.
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, i) => [
            stores[i % 2]!.watches.recordCheck(check(others[i % 2]!.id, revision * 3 + Math.floor(i / 2), resolved(i, '2026-03-02T00:00:00Z'))),
            stores[i % 2]!.watches.recordCheck(check(w.id, revision, resolved(revision + 1, '2026-03-02T00:00:00Z'))),
          ]).flat(),
        );
        expect(results.filter((r, i) => i % 2 === 1 && r.outcome === 'recorded')).toHaveLength(1);
        expect(results.filter((r, i) => i % 2 === 1 && r.outcome === 'stale')).toHaveLength(5);
        expect(results.filter((r, i) => i % 2 === 0 && r.outcome === 'recorded')).toHaveLength(6);
      }
      const { rows } = await stores[1]!.pool.query<{ b: number; e: number }>(
        'SELECT (SELECT count(*) FROM monitor_baselines WHERE watch_id = $1)::int AS b, (SELECT count(*) FROM monitor_events)::int AS e',
        [w.id],
      );
      expect(rows[0]).toEqual({ b: 5, e: 0 });
      expect(await stores[1]!.watches.get(w.id)).toMatchObject({ revision: 5, lastHash: hashOf(5) });
      expect((await stores[1]!.watches.get(others[0]!.id))?.revision).toBe(15);
    } finally {
      await done();
    }
  });

  it('concurrent checks of different watches never pass the event capacity together', async () => {
    const { stores, done } = await twoDaemons.open();
    try {
      const watchesAdded: Watch[] = [];
      for (let i = 0; i < 10; i++) watchesAdded.push(await added(stores[0]!, newWatch(i)));
      const results = await Promise.all(
        watchesAdded.map((w, i) =>
          stores[i % 2]!.watches.recordCheck(
            check(w.id, 0, resolved(1, '2026-03-02T00:00:00Z'), [changed(1), { type: 'identity.domain_binding.changed', data: { after: 'NOT_LINKED' } }], {
              maxEvents: 7,
            }),
          ),
        ),
      );
      expect(results.filter((r) => r.outcome === 'recorded')).toHaveLength(3);
      expect(results.filter((r) => r.outcome === 'event-capacity')).toHaveLength(7);
      const { rows } = await stores[0]!.pool.query<{ b: number; e: number }>(
        'SELECT (SELECT count(*) FROM monitor_baselines)::int AS b, (SELECT count(*) FROM monitor_events)::int AS e',
      );
      expect(rows[0]).toEqual({ b: 3, e: 6 });
    } finally {
      await done();
    }
  });
});

describePostgres('PostgreSQL: deliveries across daemons', () => {
  it('two daemons claiming at once never claim the same event, and together claim every due one', async () => {
    const { stores, done } = await twoDaemons.open();
    try {
      const [a, b] = stores as [PostgresStore, PostgresStore];
      const w = await added(a, newWatch(1));
      const eventIds = async () => (await a.pool.query<{ id: number }>('SELECT id FROM monitor_events ORDER BY id')).rows.map((r) => r.id);
      for (let round = 0; round < 5; round++) {
        await a.pool.query('DELETE FROM delivery_attempts; DELETE FROM monitor_events');
        await a.pool.query(
          eventsSql(
            w,
            Array.from({ length: 20 }, (): RawEvent => ({ status: 'PENDING' })),
          ),
        );
        const ids = await eventIds();
        const claims = await Promise.all([a.monitorEvents.claimDeliveries(20, 120, 5), b.monitorEvents.claimDeliveries(20, 120, 5)]);
        const claimed = claims.flatMap((c) => c.map((x) => x.event.id));
        expect(new Set(claimed).size).toBe(claimed.length);
        expect(claimed.sort((x, y) => x - y)).toEqual(ids);
        for (const c of claims) expect(c.map((x) => x.event.id)).toEqual([...c.map((x) => x.event.id)].sort((x, y) => x - y));
        expect(await a.monitorEvents.claimDeliveries(20, 120, 5)).toEqual([]);
      }

      // Many claimers with small limits, after every lease lapsed: still disjoint, each attempt 2.
      await a.pool.query(`UPDATE monitor_events SET lease_expires_at = '2000-01-01T00:00:00Z'`);
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2]!.monitorEvents.claimDeliveries(3, 120, 5)));
      const claimed = claims.flat();
      expect(new Set(claimed.map((c) => c.event.id)).size).toBe(claimed.length);
      expect(claimed.every((c) => c.attempt === 2)).toBe(true);
      expect(claimed.length + (await a.monitorEvents.claimDeliveries(20, 120, 5)).length).toBe(20);
      // Settled by whichever daemon: once.
      const settled = await Promise.all(
        claimed.flatMap((c) => [a.monitorEvents.settle(c.event.id, 2, { delivered: true }), b.monitorEvents.settle(c.event.id, 2, { delivered: true })]),
      );
      expect(settled.filter(Boolean)).toHaveLength(claimed.length);
    } finally {
      await done();
    }
  });
});

describePostgres('PostgreSQL: claims across daemons', () => {
  /** Two daemons' stores on one empty schema. */
  async function twoDaemonStores(): Promise<{ a: PostgresStore; b: PostgresStore; done: () => Promise<void> }> {
    const { stores, done } = await twoDaemons.open();
    return { a: stores[0]!, b: stores[1]!, done };
  }
  const create = (store: PostgresStore, did: string, limit: number, purpose: ClaimPurpose = 'claim') =>
    store.claims.createChallenge({ token: newToken(), did, method: 'dns', purpose, ttlSeconds: 600, client: CLIENT }, pool(limit));

  it('two daemons creating challenges at once never pass the limit together', async () => {
    const { a, b, done } = await twoDaemonStores();
    try {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i % 2 === 0 ? a : b, `did:web:c${i}.example`, 5)));
      expect(results.filter((r) => !isRefusal(r))).toHaveLength(5);
      const { rows } = await a.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM claim_challenges');
      expect(rows[0]!.n).toBe(5);
    } finally {
      await done();
    }
  });

  it('two daemons proving one challenge at once record one claim; proofs of one DID and method from both take turns', async () => {
    const { a, b, done } = await twoDaemonStores();
    try {
      const did = 'did:web:race.example';
      for (let round = 0; round < 5; round++) {
        const c = await create(a, did, 100, 'list');
        if (isRefusal(c)) throw new Error('full');
        const results = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? a : b).claims.recordProof(proofOf(c.token, 'dns', did))));
        expect(results.filter((r) => r.outcome === 'recorded')).toHaveLength(1);
        expect(results.filter((r) => r.outcome === 'used')).toHaveLength(5);
      }
      const tokens = await Promise.all(Array.from({ length: 8 }, (_, i) => create(i % 2 === 0 ? a : b, did, 100, 'list')));
      const recorded = await Promise.all(tokens.map((t, i) => (i % 2 === 0 ? b : a).claims.recordProof(proofOf((t as { token: string }).token, 'dns', did))));
      expect(recorded.every((r) => r.outcome === 'recorded' && r.listed)).toBe(true);
      const { rows } = await a.pool.query<{ current: number; superseded: number; listings: number }>(
        `SELECT (SELECT count(*) FROM claims WHERE lapsed_at_ms IS NULL)::int AS current,
           (SELECT count(*) FROM claims WHERE lapse_reason = 'superseded by a newer proof')::int AS superseded,
           (SELECT count(*) FROM directory_entries)::int AS listings`,
      );
      expect(rows[0]).toEqual({ current: 1, superseded: 12, listings: 1 });
    } finally {
      await done();
    }
  });

  it('two daemons claiming due re-checks at once never lease the same claim, and together lease every due one', async () => {
    const { a, b, done } = await twoDaemonStores();
    try {
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) {
        const c = await create(a, `did:web:due-${i}.example`, 100);
        if (isRefusal(c)) throw new Error('full');
        const r = await a.claims.recordProof(proofOf(c.token, 'dns', c.did));
        if (r.outcome === 'recorded') ids.push(r.claim.id);
      }
      for (let round = 0; round < 5; round++) {
        await a.pool.query('UPDATE claims SET next_check_at_ms = 1000');
        const leased = await Promise.all([a.claims.claimDue(20, 120), b.claims.claimDue(20, 120)]);
        const claimed = leased.flatMap((l) => l.map((c) => c.id));
        expect(new Set(claimed).size).toBe(claimed.length);
        expect(claimed.sort((x, y) => x - y)).toEqual(ids);
        expect(await a.claims.claimDue(20, 120)).toEqual([]);
      }
      // Many claimers with small limits: still disjoint.
      await a.pool.query('UPDATE claims SET next_check_at_ms = 1000');
      const leased = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).claims.claimDue(3, 120)));
      const claimed = leased.flatMap((l) => l.map((c) => c.id));
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.length + (await a.claims.claimDue(20, 120)).length).toBe(20);
    } finally {
      await done();
    }
  });
});
