/**
 * Customer monitoring: the CustomerMonitorStore on the embedded SQLite file and on a
 * real PostgreSQL server (a database of its own per test: one migrated schema, its two stores kept open and every table emptied between tests), one suite held to the same behaviour —
 * ownership refusals; watches added, listed, removed, deduplicated and capped; checks recorded
 * with their events and sealed deliveries; the 30-day windows of events, pages and reports;
 * webhooks replaced and disabled; delivery claims, leases, recovery and settlement; the scheduled
 * attempt allowance; concurrent claimers; and the isolation of the operator monitor from customer
 * events. Times are moved by rewriting rows relative to now: no sleeping.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealCustomerDelivery } from '../../src/core/monitoring/customer.js';
import type { AccountStore, CheckOutcome, CustomerMonitorStore, MonitorEventStore, PlannedEvent, WatchStore } from '../../src/core/store.js';
import { openStore, StoreError, type StoreErrorCode } from '../../src/store/index.js';
import type { PostgresStore } from '../../src/store/postgres/index.js';
import { systemClock } from '../../src/runtime/node.js';
import { Capacity } from '../../src/server/capacity.js';
import type { ServerContext } from '../../src/server/context.js';
import { deliverCustomer, deliverCustomerDue } from '../../src/server/jobs/poller.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { StorageSlot } from '../../src/server/storage.js';
import { startHttpsServer } from '../support/https-server.js';
import { keptStores, schemaPool } from '../support/pg-schemas.js';
import { createTestCa } from '../support/pki.js';
import { testRuntime } from '../support/runtime.js';
import { describePostgres, postgresUrl } from '../support/postgres.js';

/**
 * A migrated schema and two stores on it (two daemons' pools), kept from test to test: each test
 * still starts on an empty database (every table emptied, every sequence restarted).
 */
const RECEIVER_HOST = 'hooks.receiver.test';
const schemas = schemaPool();
const kept = keptStores(schemas, 2);
afterAll(async () => {
  await kept.close();
  await schemas.dispose();
});

interface Opened {
  monitor: CustomerMonitorStore;
  /** The same database through a second store (its own connection or pool). */
  second: CustomerMonitorStore;
  accounts: AccountStore;
  watches: WatchStore;
  monitorEvents: MonitorEventStore;
  sql(statement: string): Promise<void>;
  rows<T>(statement: string): Promise<T[]>;
  /** PostgreSQL: holds the watch's row (FOR NO KEY UPDATE, as any update of the watch does) from a connection of its own until the returned release. */
  lockWatch?(watchId: number): Promise<() => Promise<void>>;
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
      const dir = mkdtempSync(path.join(tmpdir(), 'svc-customer-'));
      const file = path.join(dir, 'svc.db');
      const store = openStore({ path: file });
      const other = openStore({ path: file });
      return {
        monitor: store.customerMonitor,
        second: other.customerMonitor,
        accounts: store.accounts,
        watches: store.watches,
        monitorEvents: store.monitorEvents,
        sql: async (statement) => {
          store.db.exec(statement);
        },
        rows: async <T>(statement: string) => store.db.prepare(statement).all() as T[],
        close: async () => {
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
      // The two stores stay open from test to test; between tests their schema is emptied.
      const { schema, stores, done } = await kept.open();
      const [store, other] = stores as [PostgresStore, PostgresStore];
      return {
        monitor: store.customerMonitor,
        second: other.customerMonitor,
        accounts: store.accounts,
        watches: store.watches,
        monitorEvents: store.monitorEvents,
        sql: async (statement) => {
          await store.pool.query(statement);
        },
        rows: async <T>(statement: string) => (await store.pool.query(statement)).rows as T[],
        lockWatch: async (watchId) => {
          const client = new pg.Client({ connectionString: postgresUrl, options: `-c search_path=${schema}` });
          await client.connect();
          await client.query('BEGIN');
          await client.query('SELECT id FROM watches WHERE id = $1 FOR NO KEY UPDATE', [watchId]);
          return async () => {
            await client.query('COMMIT');
            await client.end();
          };
        },
        close: done,
      };
    },
  },
];

async function storeError(promise: Promise<unknown>, code: StoreErrorCode): Promise<void> {
  let error: unknown;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).code).toBe(code);
}

/** RFC 3339 UTC at second precision, `ms` from now. */
function at(ms = 0): string {
  return new Date(Date.now() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
const DAY = 86_400_000;

const ALICE = 'did:web:alice.example';
const MALLORY = 'did:web:mallory.example';
const SECRET = 'whsec_test-secret';

function resolved(hash = 'h1'): CheckOutcome {
  return {
    status: 'RESOLVED',
    documentHash: hash,
    fingerprintProfile: null,
    domainBindingStatus: null,
    document: { id: 'did:web:a.example' },
    problem: null,
    checkedAt: at(),
    tls: null,
  };
}
const CHANGED: PlannedEvent = { type: 'identity.document.changed', data: { fromHash: 'h0', toHash: 'h1', headline: 'changed' } };
const BINDING: PlannedEvent = { type: 'identity.domain_binding.changed', data: { domainBinding: 'VERIFIED', headline: 'binding' } };
const row = (id: string): number => Number(id.replace(/^[a-z]+_/, ''));

for (const backend of BACKENDS) {
  backend.describe(`CustomerMonitorStore on ${backend.name}`, () => {
    let db: Opened;
    let monitor: CustomerMonitorStore;

    beforeEach(async () => {
      db = await backend.open();
      monitor = db.monitor;
    });
    afterEach(async () => {
      await db?.close();
    });

    async function project(owner = ALICE, name = 'main'): Promise<string> {
      const tenant = await db.accounts.createTenant({ name: `tenant ${name}`, owner });
      return (await db.accounts.createProject(tenant.id, { name })).id;
    }

    async function watch(projectId: string, did = 'did:web:a.example'): Promise<number> {
      const added = await monitor.addWatch(ALICE, projectId, did, 100);
      if (added === 'full') throw new Error('full');
      return row(added.watch.id);
    }

    /** Records one check of the watch (at its current revision) with `events`. */
    async function record(watchId: number, events: PlannedEvent[], on: CustomerMonitorStore = monitor, attemptId = 0) {
      const revision = (await db.rows<{ revision: number }>(`SELECT revision FROM watches WHERE id = ${watchId}`))[0]!.revision;
      const result = await on.recordCheck(
        { watchId, revision: Number(revision), outcome: resolved(`h${revision}`), events, maxPayloadBytes: 262_144, attemptId },
        sealCustomerDelivery,
      );
      expect(result.outcome).toBe('recorded');
      return result as { outcome: 'recorded'; eventIds: number[]; revision: number };
    }

    /** Inserts `n` events of the watch directly (cheaper than n checks), created `ageMs` ago. */
    async function seedEvents(watchId: number, n: number, ageMs = 0): Promise<void> {
      await db.sql(`WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ${n})
        INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status)
        SELECT ${watchId}, 'did:web:a.example', 'identity.document.changed', '{"n":1}', '${at(-ageMs)}', 'PENDING' FROM k`);
    }

    describe('ownership', () => {
      it("refuses another owner's project (NOT_OWNER), a watch of another project and events of another watch (NOT_FOUND)", async () => {
        const mine = await project();
        const theirs = await project(MALLORY, 'theirs');
        const other = await project(ALICE, 'other');
        await storeError(monitor.addWatch(ALICE, theirs, 'did:web:a.example', 10), 'NOT_OWNER');
        await storeError(monitor.listWatches(ALICE, theirs), 'NOT_OWNER');
        await storeError(monitor.setWebhook(ALICE, theirs, 'https://hooks.example/x', SECRET), 'NOT_OWNER');
        await storeError(monitor.listDeliveries(ALICE, theirs, 10), 'NOT_OWNER');
        await storeError(monitor.listWatches(ALICE, 'prj_missing'), 'NOT_OWNER');
        expect(await monitor.scheduledUsage(MALLORY, 10)).toEqual([expect.objectContaining({ projectId: theirs })]);

        const a = await watch(mine);
        const b = await watch(other, 'did:web:b.example');
        await storeError(monitor.removeWatch(ALICE, other, a), 'NOT_FOUND');
        await storeError(monitor.listEvents(ALICE, other, a, 10), 'NOT_FOUND');
        await storeError(monitor.report(ALICE, other, a, 10), 'NOT_FOUND');
        await storeError(monitor.eventPage(ALICE, other, a, { limit: 10 }), 'NOT_FOUND');
        for (const refused of [
          () => monitor.listEvents(MALLORY, mine, a, 10),
          () => monitor.eventPage(MALLORY, mine, a, { limit: 10 }),
          () => monitor.report(MALLORY, mine, a, 10),
          () => monitor.removeWatch(MALLORY, mine, a),
          () => monitor.getWebhook(MALLORY, mine),
          () => monitor.disableWebhook(MALLORY, mine),
        ]) {
          await storeError(refused(), 'NOT_OWNER');
        }
        expect(await monitor.listWatches(ALICE, mine)).toHaveLength(1);

        const {
          eventIds: [ofB],
        } = await record(b, [CHANGED]);
        const {
          eventIds: [ofA],
        } = await record(a, [CHANGED]);
        await storeError(monitor.eventPage(ALICE, mine, a, { limit: 10, snapshotEventId: ofB! }), 'NOT_FOUND');
        await storeError(monitor.eventPage(ALICE, mine, a, { limit: 10, snapshotEventId: ofA!, beforeEventId: ofB! }), 'NOT_FOUND');
        expect((await monitor.eventPage(ALICE, mine, a, { limit: 10, snapshotEventId: ofA! })).events.map((e) => e.id)).toEqual([`evt_${ofA}`]);
        await expect(monitor.eventPage(ALICE, mine, a, { limit: 10, beforeEventId: ofA! })).rejects.toBeInstanceOf(RangeError);
      });
    });

    describe('watches', () => {
      it('adds, lists oldest first, returns the existing active watch of a DID, refuses past the limit, removes', async () => {
        const p = await project();
        const first = await monitor.addWatch(ALICE, p, 'did:web:a.example', 2);
        expect(first).toEqual({
          created: true,
          watch: {
            id: expect.stringMatching(/^wch_\d+$/),
            projectId: p,
            did: 'did:web:a.example',
            createdAt: expect.any(String),
            lastStatus: null,
            lastHash: null,
            lastCheckedAt: null,
            nextDueAt: expect.any(String),
          },
        });
        if (first === 'full') throw new Error('full');
        expect(first.watch.nextDueAt).toBe(first.watch.createdAt);
        expect(await monitor.addWatch(ALICE, p, 'did:web:a.example', 2)).toEqual({ created: false, watch: first.watch });
        const second = await monitor.addWatch(ALICE, p, 'did:key:z6Mk', 2);
        expect(second).toMatchObject({ created: true });
        expect(await monitor.addWatch(ALICE, p, 'did:jwk:x', 2)).toBe('full');
        expect((await monitor.listWatches(ALICE, p)).map((w) => w.did)).toEqual(['did:web:a.example', 'did:key:z6Mk']);

        await monitor.removeWatch(ALICE, p, row(first.watch.id));
        await storeError(monitor.removeWatch(ALICE, p, row(first.watch.id)), 'NOT_FOUND');
        expect((await monitor.listWatches(ALICE, p)).map((w) => w.did)).toEqual(['did:key:z6Mk']);
        const again = await monitor.addWatch(ALICE, p, 'did:web:a.example', 2);
        expect(again).toMatchObject({ created: true });
        expect(again !== 'full' && again.watch.id).not.toBe(first.watch.id);
        // The removed watch's events are still readable (active or not).
        expect(await monitor.listEvents(ALICE, p, row(first.watch.id), 10)).toEqual([]);
      });

      it('concurrent adds from two stores never pass the limit', async () => {
        const p = await project();
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? db.second : monitor).addWatch(ALICE, p, `did:web:${i}.example`, 5)));
        expect(results.filter((r) => r !== 'full')).toHaveLength(5);
        expect(await monitor.listWatches(ALICE, p)).toHaveLength(5);
      });
    });

    describe('MCP and A2A watches', () => {
      it('an MCP endpoint watch: its own kind beside a DID watch, an uploaded baseline as revision 0 (the first check compares with it), events and bodies naming mcpEndpoint', async () => {
        const p = await project();
        const endpoint = 'https://tools.example/mcp';
        const approved: CheckOutcome = { ...resolved('approved'), document: { target: endpoint } as never };
        const added = await monitor.addWatch(ALICE, p, endpoint, 100, { kind: 'mcp', baseline: approved });
        if (added === 'full') throw new Error('full');
        expect(added.created).toBe(true);
        expect(added.watch).toMatchObject({ mcpEndpoint: endpoint, lastStatus: null });
        expect(added.watch.did).toBeUndefined();
        // The same URL again is the same watch; as an A2A card it is another.
        const again = await monitor.addWatch(ALICE, p, endpoint, 100, { kind: 'mcp' });
        expect(again !== 'full' && again.created).toBe(false);
        const card = await monitor.addWatch(ALICE, p, endpoint, 100, { kind: 'a2a' });
        expect(card !== 'full' && card.created && card.watch.a2aCard).toBe(endpoint);
        const w = row(added.watch.id);
        const { claims } = await monitor.claimDue(10, 100);
        const claim = claims.find((c) => c.watch.id === w)!;
        expect(claim.watch).toMatchObject({ kind: 'mcp', did: endpoint, revision: 0 });
        expect(claim.previous).toMatchObject({ status: 'RESOLVED', documentHash: 'approved', document: { target: endpoint } });
        expect(claim.lastResolved).toMatchObject({ documentHash: 'approved' });

        await monitor.setWebhook(ALICE, p, 'https://hooks.example/in', SECRET);
        const changed: PlannedEvent = { type: 'mcp.inventory.changed', data: { endpoint, fromHash: 'approved', toHash: 'h0', headline: 'changed' } };
        const { eventIds } = await record(w, [changed]);
        const listed = await monitor.listEvents(ALICE, p, w, 10);
        if (listed === 'too-many') throw new Error('too many');
        expect(listed).toEqual([
          {
            id: `evt_${eventIds[0]}`,
            type: 'mcp.inventory.changed',
            projectId: p,
            watchId: `wch_${w}`,
            mcpEndpoint: endpoint,
            createdAt: expect.any(String),
            data: changed.data,
          },
        ]);
        const [delivery] = await db.rows<{ body: string }>(`SELECT body FROM customer_webhook_deliveries WHERE monitor_event_id = ${eventIds[0]}`);
        expect(Object.keys(JSON.parse(delivery!.body))).toEqual(['id', 'type', 'projectId', 'watchId', 'mcpEndpoint', 'createdAt', 'data']);
        expect(delivery!.body).toBe(sealCustomerDelivery(listed[0]!, SECRET).body);
        const report = await monitor.report(ALICE, p, w, 10);
        expect(report !== 'too-many' && report.watch.mcpEndpoint).toBe(endpoint);
      });
    });

    describe('checks, events and deliveries', () => {
      it('records events with deliveries sealed for the active webhook; none without one; stale after removal', async () => {
        const p = await project();
        const w = await watch(p);
        const none = await record(w, [CHANGED]);
        expect(await db.rows(`SELECT id FROM customer_webhook_deliveries`)).toEqual([]);

        const hook = await monitor.setWebhook(ALICE, p, 'https://hooks.example/in', SECRET);
        expect(hook).toEqual({
          id: expect.stringMatching(/^whk_\d+$/),
          url: 'https://hooks.example/in',
          createdAt: expect.any(String),
          active: true,
          disabledAt: null,
          disabledReason: null,
        });
        const { eventIds } = await record(w, [CHANGED, BINDING]);
        expect(eventIds).toHaveLength(2);
        const listed = await monitor.listEvents(ALICE, p, w, 10);
        if (listed === 'too-many') throw new Error('too many');
        const events = listed;
        expect(events.map((e) => e.id)).toEqual([eventIds[1], eventIds[0], none.eventIds[0]].map((n) => `evt_${n}`));
        const deliveries = await db.rows<{ id: string; body: string; signature: string; status: string; created_at: string }>(
          `SELECT id, body, signature, status, created_at FROM customer_webhook_deliveries ORDER BY monitor_event_id`,
        );
        expect(deliveries).toHaveLength(2);
        for (const [i, delivery] of deliveries.entries()) {
          const event = events.find((e) => e.id === `evt_${eventIds[i]}`)!;
          const sealed = sealCustomerDelivery(event, SECRET);
          expect(delivery).toEqual({
            id: `dlv_${row(hook.id)}_${eventIds[i]}`,
            body: sealed.body,
            signature: sealed.signature,
            status: 'PENDING',
            created_at: event.createdAt,
          });
          expect(JSON.parse(delivery.body)).toEqual({
            id: event.id,
            type: event.type,
            projectId: p,
            watchId: `wch_${w}`,
            did: 'did:web:a.example',
            createdAt: event.createdAt,
            data: event.data,
          });
        }
        // The operator's event rows of customer watches: PENDING, never the operator's to deliver.
        expect(await db.monitorEvents.claimDeliveries(10, 60, 5)).toEqual([]);

        const revision = (await db.rows<{ revision: number }>(`SELECT revision FROM watches WHERE id = ${w}`))[0]!.revision;
        await monitor.removeWatch(ALICE, p, w);
        const late = await monitor.recordCheck(
          { watchId: w, revision: Number(revision), outcome: resolved(), events: [CHANGED], maxPayloadBytes: 1000, attemptId: 0 },
          sealCustomerDelivery,
        );
        expect(late).toEqual({ outcome: 'stale' });
        expect(await db.rows(`SELECT status FROM customer_webhook_deliveries WHERE status <> 'CANCELLED'`)).toEqual([]);
        const big = await monitor.recordCheck(
          {
            watchId: w,
            revision: 0,
            outcome: resolved(),
            events: [{ type: 'identity.document.changed', data: { x: 'y'.repeat(100) } }],
            maxPayloadBytes: 50,
            attemptId: 0,
          },
          sealCustomerDelivery,
        );
        expect(big).toEqual({ outcome: 'payload-too-large' });
      });

      it('lists the 30-day window newest first, and refuses more than max', async () => {
        const p = await project();
        const w = await watch(p);
        const { eventIds } = await record(w, [CHANGED, BINDING]);
        expect(await monitor.listEvents(ALICE, p, w, 10)).toHaveLength(2);
        await db.sql(`UPDATE monitor_events SET created_at = '${at(-31 * DAY)}' WHERE id = ${eventIds[0]}`);
        expect(((await monitor.listEvents(ALICE, p, w, 10)) as Array<{ id: string }>).map((e) => e.id)).toEqual([`evt_${eventIds[1]}`]);
        await seedEvents(w, 200);
        expect(await monitor.listEvents(ALICE, p, w, 200)).toBe('too-many');
        expect(await monitor.listEvents(ALICE, p, w, 201)).toHaveLength(201);
      });

      it('reports 1,000 events whole and refuses 1,001', async () => {
        const p = await project();
        const w = await watch(p);
        await seedEvents(w, 1000);
        await seedEvents(w, 5, 40 * DAY);
        const report = await monitor.report(ALICE, p, w, 1000);
        if (report === 'too-many') throw new Error('too many');
        expect(report.events).toHaveLength(1000);
        expect(report.watch.id).toBe(`wch_${w}`);
        expect(report.windowStart < report.windowEnd).toBe(true);
        expect(report.events.every((e) => e.createdAt >= report.windowStart)).toBe(true);
        await seedEvents(w, 1);
        expect(await monitor.report(ALICE, p, w, 1000)).toBe('too-many');
      });

      it('pages every event up to the watermark exactly once, newest first, while checks are recorded between pages', async () => {
        const p = await project();
        const w = await watch(p);
        const before: number[] = [];
        for (let i = 0; i < 8; i++) before.push(...(await record(w, [CHANGED, BINDING])).eventIds);
        const seen: number[] = [];
        let page = await monitor.eventPage(ALICE, p, w, { limit: 3 });
        const watermark = page.snapshotEventId!;
        expect(watermark).toBe(Math.max(...before));
        const later: number[] = [];
        for (;;) {
          seen.push(...page.events.map((e) => row(e.id)));
          expect(page.snapshotEventId).toBe(watermark);
          expect(page.next === null).toBe(!page.hasMore);
          if (page.next === null) break;
          // A check from the second store between pages, and one racing the next page.
          later.push(...(await record(w, [CHANGED], db.second)).eventIds);
          const [next, raced] = await Promise.all([monitor.eventPage(ALICE, p, w, { limit: 3, ...page.next }), record(w, [BINDING], db.second)]);
          later.push(...raced.eventIds);
          page = next;
        }
        expect(seen).toEqual([...before].sort((a, b) => b - a));
        expect(later.every((id) => id > watermark)).toBe(true);
        const fresh = await monitor.eventPage(ALICE, p, w, { limit: 100 });
        expect(fresh.snapshotEventId).toBe(Math.max(...later));
        expect(fresh.events.map((e) => row(e.id))).toEqual([...before, ...later].sort((a, b) => b - a));
        expect(fresh).toMatchObject({ hasMore: false, next: null, asOf: null });
        const dayAgo = at(-DAY);
        expect(await monitor.eventPage(ALICE, p, w, { limit: 100, asOf: dayAgo })).toEqual({
          events: [],
          snapshotEventId: null,
          asOf: dayAgo,
          hasMore: false,
          next: null,
        });
      });
    });

    // PostgreSQL only: on SQLite the write lock orders whole checks.
    if (backend.name === 'PostgreSQL')
      it('a check takes its watch row lock before its events get ids (ids commit in order per watch)', async () => {
        const p = await project();
        const w = await watch(p);
        const other = await watch(p, 'did:web:other.example');
        const release = await db.lockWatch!(w);
        const pending = record(w, [CHANGED]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Another watch's event, committed while the check waits for the row.
        const {
          eventIds: [meanwhile],
        } = await record(other, [CHANGED]);
        await release();
        const {
          eventIds: [late],
        } = await pending;
        expect(late!).toBeGreaterThan(meanwhile!);
      });

    describe('webhooks and deliveries', () => {
      it('replacing or disabling the webhook cancels its queued deliveries', async () => {
        const p = await project();
        const w = await watch(p);
        expect(await monitor.getWebhook(ALICE, p)).toBeNull();
        expect(await monitor.disableWebhook(ALICE, p)).toBe(false);
        const first = await monitor.setWebhook(ALICE, p, 'https://hooks.example/1', SECRET);
        await record(w, [CHANGED]);
        const second = await monitor.setWebhook(ALICE, p, 'https://hooks.example/2', 'whsec_two');
        expect(await monitor.getWebhook(ALICE, p)).toEqual(second);
        const [old] = await db.rows<{ active: number; disabled_at: string | null }>(
          `SELECT active, disabled_at FROM customer_webhooks WHERE id = ${row(first.id)}`,
        );
        expect(Number(old!.active)).toBe(0);
        expect(old!.disabled_at).toMatch(/Z$/);
        await record(w, [BINDING]);
        const statuses = await db.rows<{ webhook_id: number; status: string }>(
          `SELECT webhook_id, status FROM customer_webhook_deliveries ORDER BY webhook_id`,
        );
        expect(statuses).toEqual([
          { webhook_id: row(first.id), status: 'CANCELLED' },
          { webhook_id: row(second.id), status: 'PENDING' },
        ]);
        expect(await monitor.disableWebhook(ALICE, p)).toBe(true);
        expect(await monitor.getWebhook(ALICE, p)).toBeNull();
        expect((await db.rows<{ status: string }>(`SELECT status FROM customer_webhook_deliveries`)).map((r) => r.status)).toEqual(['CANCELLED', 'CANCELLED']);
        await record(w, [CHANGED]);
        expect(await db.rows(`SELECT id FROM customer_webhook_deliveries`)).toHaveLength(2);
      });

      it('claims with a lease, recovers expired leases, dead-letters after 5 attempts, settles only the holder', async () => {
        const p = await project();
        const w = await watch(p);
        const hook = await monitor.setWebhook(ALICE, p, 'https://hooks.example/in', SECRET);
        const {
          eventIds: [eventRow],
        } = await record(w, [CHANGED]);
        const [claim] = await monitor.claimDeliveries(10, 120, 5);
        const [stored] = await db.rows<{ body: string; signature: string }>(`SELECT body, signature FROM customer_webhook_deliveries`);
        expect(claim).toEqual({
          id: `dlv_${row(hook.id)}_${eventRow}`,
          eventId: `evt_${eventRow}`,
          url: 'https://hooks.example/in',
          body: stored!.body,
          signature: stored!.signature,
          active: true,
          attempt: 1,
          leaseExpiresAt: expect.any(String),
        });
        expect(Date.parse(claim!.leaseExpiresAt) - Date.now()).toBeGreaterThan(100_000);
        expect(await db.second.claimDeliveries(10, 120, 5)).toEqual([]);

        // The lease lapses: recovered as RETRY, claimed again (attempt 2); the first sender settles nothing.
        await db.sql(`UPDATE customer_webhook_deliveries SET lease_expires_at = '${at(-1000)}'`);
        const [again] = await db.second.claimDeliveries(10, 120, 5);
        expect(again).toMatchObject({ id: claim!.id, attempt: 2 });
        expect(await monitor.settleDelivery(claim!.id, 1, { delivered: true }, 200)).toBe(false);
        expect(await monitor.settleDelivery(claim!.id, 2, { delivered: false, error: 'HTTP 500', retryAfterSeconds: 30 }, 500)).toBe(true);
        const [retry] = await db.rows<{ status: string; next_attempt_at: string; last_response_status: number; lease_expires_at: string | null }>(
          `SELECT status, next_attempt_at, last_response_status, lease_expires_at FROM customer_webhook_deliveries`,
        );
        expect(retry).toMatchObject({ status: 'RETRY', last_response_status: 500, lease_expires_at: null });
        expect(await monitor.claimDeliveries(10, 120, 5)).toEqual([]);
        for (let attempt = 3; attempt <= 4; attempt++) {
          await db.sql(`UPDATE customer_webhook_deliveries SET next_attempt_at = '${at(-1000)}'`);
          const [c] = await monitor.claimDeliveries(10, 120, 5);
          expect(c!.attempt).toBe(attempt);
          expect(await monitor.settleDelivery(c!.id, attempt, { delivered: false, error: 'timeout', retryAfterSeconds: 1 })).toBe(true);
        }
        await db.sql(`UPDATE customer_webhook_deliveries SET next_attempt_at = '${at(-1000)}'`);
        const [last] = await monitor.claimDeliveries(10, 120, 5);
        expect(last!.attempt).toBe(5);
        // The last attempt's lease lapses: no attempt is left, so recovery dead-letters it.
        await db.sql(`UPDATE customer_webhook_deliveries SET lease_expires_at = '${at(-1000)}'`);
        expect(await monitor.claimDeliveries(10, 120, 5)).toEqual([]);
        expect(await db.rows(`SELECT status, attempts FROM customer_webhook_deliveries`)).toEqual([{ status: 'DEAD_LETTER', attempts: 5 }]);
        expect(await monitor.settleDelivery(last!.id, 5, { delivered: true }, 200)).toBe(false);

        // A queued delivery with no attempt left under a lower maxAttempts is dead-lettered, not claimed.
        const {
          eventIds: [second],
        } = await record(w, [BINDING]);
        const [once] = await monitor.claimDeliveries(10, 120, 1);
        expect(once!.eventId).toBe(`evt_${second}`);
        expect(await monitor.settleDelivery(once!.id, 1, { delivered: false, error: 'HTTP 500', retryAfterSeconds: 0 }, 500)).toBe(true);
        expect(await monitor.claimDeliveries(10, 120, 1)).toEqual([]);
        expect(await db.rows(`SELECT status FROM customer_webhook_deliveries WHERE id = '${once!.id}'`)).toEqual([{ status: 'DEAD_LETTER' }]);
        await expect(monitor.claimDeliveries(10, 120, 6)).rejects.toBeInstanceOf(RangeError);
      });

      it('a delivered attempt is DELIVERED with delivered_at; a failed one of a disabled webhook is CANCELLED', async () => {
        const p = await project();
        const w = await watch(p);
        await monitor.setWebhook(ALICE, p, 'https://hooks.example/in', SECRET);
        await record(w, [CHANGED, BINDING]);
        const [a, b] = await monitor.claimDeliveries(10, 120, 5);
        expect(await monitor.settleDelivery(a!.id, 1, { delivered: true }, 204)).toBe(true);
        await monitor.disableWebhook(ALICE, p);
        expect(await monitor.settleDelivery(b!.id, 1, { delivered: false, error: 'HTTP 503', retryAfterSeconds: 10 }, 503)).toBe(true);
        const rows = await db.rows<{ id: string; status: string; delivered_at: string | null }>(
          `SELECT id, status, delivered_at FROM customer_webhook_deliveries`,
        );
        expect(rows.find((r) => r.id === a!.id)).toMatchObject({ status: 'DELIVERED', delivered_at: expect.stringMatching(/Z$/) });
        expect(rows.find((r) => r.id === b!.id)).toMatchObject({ status: 'CANCELLED', delivered_at: null });

        const listed = await monitor.listDeliveries(ALICE, p, 100);
        expect(listed).toHaveLength(2);
        for (const d of listed) {
          expect(Object.keys(d).sort()).toEqual(
            [
              'attempts',
              'createdAt',
              'decisions',
              'deliveredAt',
              'eventId',
              'eventType',
              'id',
              'lastAttemptAt',
              'nextAttemptAt',
              'status',
              'watchId',
              'webhookId',
            ].sort(),
          );
          expect(d.watchId).toBe(`wch_${w}`);
        }
        // Each attempt's decision, as its record says (no receiver status of its own).
        expect(listed.find((d) => d.id === a!.id)!.decisions).toEqual([
          { replay: 0, attempt: 1, attemptedAt: expect.stringMatching(/Z$/), decision: 'DELIVERED', detail: 'the receiver answered 204', nextAttemptAt: null },
        ]);
        expect(listed.find((d) => d.id === b!.id)!.decisions).toEqual([
          expect.objectContaining({
            attempt: 1,
            decision: 'CANCELLED',
            detail: 'HTTP 503; not retried: the webhook was disabled meanwhile',
            nextAttemptAt: null,
          }),
        ]);
        expect(JSON.stringify(listed)).not.toContain(SECRET);
        expect(JSON.stringify(listed)).not.toContain('v1=');
        await db.sql(`UPDATE customer_webhook_deliveries SET created_at = '${at(-31 * DAY)}' WHERE id = '${a!.id}'`);
        expect((await monitor.listDeliveries(ALICE, p, 100)).map((d) => d.id)).toEqual([b!.id]);
        expect(await monitor.listDeliveries(ALICE, p, 0)).toEqual([]);
      });
    });

    describe('receiver answers', () => {
      it('a 410 Gone (a real HTTPS receiver) disables the webhook with its reason and cancels its queued deliveries; the owner sees why', async () => {
        const ca = createTestCa();
        const receiver = await startHttpsServer({ cert: ca.issue({ dnsNames: [RECEIVER_HOST], ipAddresses: ['127.0.0.1'] }), ca });
        try {
          const received: string[] = [];
          receiver.route('/gone', (req, res) => {
            req.resume();
            req.on('end', () => {
              received.push(String(req.headers['x-svc-event-id']));
              res.writeHead(410);
              res.end();
            });
          });
          const runtime = testRuntime(systemClock, {
            allow: ['127.0.0.0/8'],
            trustAnchors: [ca.certPem],
            lookup: async () => [{ address: '127.0.0.1', family: 4 as const }],
            connectTo: () => receiver.port,
          });
          Object.defineProperty(runtime, 'store', { get: () => ({ customerMonitor: monitor }), enumerable: true });
          const ctx = {
            runtime,
            storage: new StorageSlot(':memory:', false),
            profile: 'direct',
            limits: DEFAULT_LIMITS,
            capacity: new Capacity(8, 8),
            startedAt: new Date(),
            draining: false,
            active: 0,
          } as ServerContext;
          const p = await project();
          const w = await watch(p);
          await monitor.setWebhook(ALICE, p, `https://${RECEIVER_HOST}/gone`, SECRET);
          await record(w, [CHANGED, BINDING]);
          // One delivery claimed and sent; the other waits, queued.
          const [a] = await monitor.claimDeliveries(1, 120, 5);
          expect(await deliverCustomer(ctx, a!)).toMatchObject({ delivered: false, gone: true, status: 410 });
          expect(received).toEqual([a!.eventId]);
          expect(await deliverCustomerDue(ctx)).toBe(0);
          expect(received).toHaveLength(1);
          await checkGone(p, a!.id);
        } finally {
          await receiver.close();
        }
      });

      /** After the 410 of delivery `a`: every delivery CANCELLED, nothing due, the reason shown to the owner. */
      async function checkGone(p: string, a: string): Promise<void> {
        const rows = await db.rows<{ status: string }>(`SELECT status FROM customer_webhook_deliveries ORDER BY id`);
        expect(rows.map((r) => r.status)).toEqual(['CANCELLED', 'CANCELLED']);
        expect(await monitor.claimDeliveries(10, 120, 5)).toEqual([]);
        const config = await monitor.getWebhook(ALICE, p);
        expect(config).toMatchObject({
          active: false,
          disabledAt: expect.stringMatching(/Z$/),
          disabledReason: expect.stringMatching(
            /^the receiver answered 410 Gone at \S+Z to the delivery of evt_\d+; set a webhook again to resume deliveries$/,
          ),
        });
        const listed = await monitor.listDeliveries(ALICE, p, 100);
        expect(listed.find((d) => d.id === a)!.decisions).toEqual([
          expect.objectContaining({ decision: 'WEBHOOK_DISABLED', attempt: 1, detail: expect.stringMatching(/^the receiver answered 410 Gone/) }),
        ]);
        // An owner's own DELETE keeps no reason: nothing to show.
        await monitor.setWebhook(ALICE, p, 'https://hooks.example/again', SECRET);
        expect(await monitor.getWebhook(ALICE, p)).toMatchObject({ active: true, disabledReason: null, url: 'https://hooks.example/again' });
        await monitor.disableWebhook(ALICE, p);
        expect(await monitor.getWebhook(ALICE, p)).toBeNull();
      }
    });

    describe('scheduled checks', () => {
      it('skips the due watch of a project that used its allowance, records the skip, and shows it in the usage', async () => {
        const spent = await project(ALICE, 'spent');
        const fresh = await project(ALICE, 'fresh');
        const s = await watch(spent);
        const f = await watch(fresh, 'did:web:f.example');
        await db.sql(`WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 3)
          INSERT INTO scheduled_attempts (project_id, job, attempted_at, outcome) SELECT '${spent}', 'wch_${s}', '${at(-DAY)}', 'OK' FROM k`);
        // An attempt out of the window does not count.
        await db.sql(`INSERT INTO scheduled_attempts (project_id, job, attempted_at, outcome) VALUES ('${fresh}', 'wch_${f}', '${at(-31 * DAY)}', 'OK')`);
        const { claims, skipped } = await monitor.claimDue(10, 3);
        expect(skipped).toBe(1);
        expect(claims.map((c) => [c.watch.id, c.projectId])).toEqual([[f, fresh]]);
        expect(claims[0]!.previous).toBeNull();
        const skips = await db.rows<{ project_id: string; job: string; reason: string }>(`SELECT project_id, job, reason FROM scheduled_skips`);
        expect(skips).toEqual([{ project_id: spent, job: `wch_${s}`, reason: expect.stringContaining('3') }]);
        expect(skips[0]!.reason).not.toMatch(/\n/);
        expect(await monitor.claimDue(10, 3)).toEqual({ claims: [], skipped: 0 });

        await record(f, [CHANGED], monitor, claims[0]!.attemptId);
        const usage = await monitor.scheduledUsage(ALICE, 3);
        const bySpent = usage.find((u) => u.projectId === spent)!;
        const byFresh = usage.find((u) => u.projectId === fresh)!;
        expect(bySpent).toMatchObject({
          allowance: 3,
          used: 3,
          failed: 0,
          remaining: 0,
          skipped: 1,
          lastSkippedAt: expect.stringMatching(/Z$/),
          activeWatches: 1,
        });
        expect(byFresh).toMatchObject({ used: 1, failed: 0, remaining: 2, skipped: 0, lastSkippedAt: null, activeWatches: 1 });
        const checked = (await db.rows<{ last_checked_at: string }>(`SELECT last_checked_at FROM watches WHERE id = ${s}`))[0]!.last_checked_at;
        expect(bySpent.nextDueAt).toBe(new Date(Date.parse(checked) + 3_600_000).toISOString().replace('.000Z', 'Z'));
        expect(usage.map((u) => u.projectId).sort()).toEqual([spent, fresh].sort());

        // An hour on, the skipped watch is due again (and skipped again); the attempt of a failed check stays FAILED.
        await db.sql(`UPDATE watches SET last_checked_at = '${at(-3_601_000)}'`);
        const next = await monitor.claimDue(10, 3);
        expect(next.skipped).toBe(1);
        const failed = await monitor.recordCheck(
          {
            watchId: f,
            revision: next.claims[0]!.watch.revision,
            outcome: { ...resolved(), status: 'FAILED', documentHash: null, document: null, problem: { title: 'x' } },
            events: [],
            maxPayloadBytes: 1000,
            attemptId: next.claims[0]!.attemptId,
          },
          sealCustomerDelivery,
        );
        expect(failed.outcome).toBe('recorded');
        expect((await monitor.scheduledUsage(ALICE, 3)).find((u) => u.projectId === fresh)).toMatchObject({ used: 2, failed: 1, remaining: 1 });
      });

      it('two stores claiming at once never claim a watch twice', async () => {
        const p = await project();
        for (let i = 0; i < 20; i++) await watch(p, `did:web:${i}.example`);
        const [a, b] = await Promise.all([monitor.claimDue(15, 1000), db.second.claimDue(15, 1000)]);
        const ids = [...a.claims, ...b.claims].map((c) => c.watch.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(20);
        expect(await db.rows(`SELECT id FROM scheduled_attempts`)).toHaveLength(20);
      });
    });

    describe('operator isolation', () => {
      it("customer events count in neither the operator's gauges, capacity, retention nor listing, and are never its to deliver", async () => {
        const p = await project();
        const w = await watch(p);
        await monitor.setWebhook(ALICE, p, 'https://hooks.example/in', SECRET);
        await record(w, [CHANGED, BINDING]);
        await seedEvents(w, 3, 40 * DAY);
        await db.sql(`UPDATE monitor_events SET delivery_status = 'CANCELLED' WHERE created_at < '${at(-DAY)}'`);

        const gauges = await db.monitorEvents.gauges(at());
        expect(gauges).toMatchObject({ watches: 0, events: 0, dueDeliveries: 0, eventPayloadBytes: 0 });
        expect((await db.monitorEvents.retentionCandidates(at())).terminalMonitorEvents).toBe(0);

        const operator = await db.watches.add(
          { did: 'did:web:op.example', webhookUrl: 'https://hooks.example/op', secret: 's', intervalSeconds: 60, createdAt: at() },
          10,
        );
        if (operator === 'full') throw new Error('full');
        const recorded = await db.watches.recordCheck({
          watchId: operator.id,
          revision: 0,
          outcome: resolved(),
          events: [CHANGED],
          maxEvents: 1,
          maxPayloadBytes: 1000,
        });
        expect(recorded.outcome).toBe('recorded');
        expect((await db.monitorEvents.gauges(at())).events).toBe(1);
        const claims = await db.monitorEvents.claimDeliveries(10, 60, 5);
        expect(claims.map((c) => c.watch.id)).toEqual([operator.id]);
        // The operator's event listing shows its own events only (the owner reads theirs through the session routes).
        expect((await db.monitorEvents.list({ limit: 100 })).map((e) => e.watchId)).toEqual([operator.id]);
        expect(await db.monitorEvents.list({ watchId: w, limit: 100 })).toEqual([]);
        // The operator's claims never see customer watches' due checks either.
        await db.sql(`UPDATE watches SET last_checked_at = '${at(-2 * 3_600_000)}' WHERE id = ${w}`);
        expect((await db.watches.claimDue(10)).map((c) => c.watch.id)).toEqual([]);
        expect((await monitor.claimDue(10, 100)).claims.map((c) => c.watch.id)).toEqual([w]);
      });
    });
  });
}
