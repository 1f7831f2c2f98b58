/**
 * Replay end to end against a real HTTPS receiver on loopback, on both engines, through the
 * daemon's own delivery code (poller.ts deliverDue over its storage slot): an event the receiver
 * refused five times is dead-lettered; a week of injected clock, delivery passes running all along,
 * never sends it again; once the receiver is fixed, a replay delivers it exactly once, with the same
 * id and the same body bytes as the five failed attempts, its signatures verified by the TypeScript
 * client, the `standardwebhooks` package and the Python client. Attempts are driven by moving
 * next_attempt_at into the past (SQL), never by sleeping.
 */
import { spawnSync } from 'node:child_process';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../src/client/webhooks.js';
import { Capacity } from '../../src/server/capacity.js';
import type { ServerContext } from '../../src/server/context.js';
import { deliverDue } from '../../src/server/jobs/poller.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { StorageSlot } from '../../src/server/storage.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { repoRoot } from '../support/fixtures.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createTestCa } from '../support/pki.js';
import { describePostgres } from '../support/postgres.js';
import { fixedClock, testRuntime, type TestClock } from '../support/runtime.js';

const HOST = 'hooks.replay.test';
const SECRET = `whsec_${Buffer.from('replay-test-secret-of-32-bytes!!').toString('base64')}`;

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const python = spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 3)']);
const pythonMissing = python.error !== undefined || python.status !== 0;
if (pythonMissing) console.warn('[svc] monitor-replay: python3 ≥ 3.9 not found, the Python verifier is not run');

/** What the Python client's verify_webhook says of each delivery (at `now`, unix seconds). */
function pythonVerdicts(deliveries: Delivery[], now: number): boolean[] {
  const input = JSON.stringify(
    deliveries.map((d) => ({ headers: Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k, String(v)])), body: d.body.toString('base64') })),
  );
  const script = `
import base64, json, sys
from svc_client import verify_webhook
items = json.load(sys.stdin)
print(json.dumps([verify_webhook(sys.argv[1], i["headers"], base64.b64decode(i["body"]), now=float(sys.argv[2])) for i in items]))
`;
  const run = spawnSync('python3', ['-c', script, SECRET, String(now)], {
    input,
    cwd: `${repoRoot}/clients/python`,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as boolean[];
}

function engineSuite(engine: string, describeEngine: (name: string, fn: () => void) => void, open: () => Promise<TestDatabase>): void {
  describeEngine(`replay of a dead letter to a real receiver (${engine})`, () => {
    const ca = createTestCa();
    let receiver: TestHttpsServer;
    let database: TestDatabase;
    let storage: StorageSlot;
    let clock: TestClock;
    let ctx: ServerContext;
    let broken = true;
    const deliveries: Delivery[] = [];

    beforeAll(async () => {
      receiver = await startHttpsServer({ cert: ca.issue({ dnsNames: [HOST], ipAddresses: ['127.0.0.1'] }), ca });
      receiver.route('/hook', (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
          res.writeHead(broken ? 500 : 204);
          res.end();
        });
      });
      database = await open();
      storage = new StorageSlot(database.target, false);
      await storage.open();
      // The wall clock starts now: receivers check each attempt's signature timestamp against theirs.
      clock = fixedClock(new Date().toISOString());
      const runtime = testRuntime(clock, {
        allow: ['127.0.0.0/8'],
        trustAnchors: [ca.certPem],
        lookup: async () => [{ address: '127.0.0.1', family: 4 as const }],
        connectTo: () => receiver.port,
      });
      Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
      ctx = { runtime, storage, profile: 'direct', limits: DEFAULT_LIMITS, capacity: new Capacity(8, 8), startedAt: new Date(), draining: false, active: 0 };
    });
    afterAll(async () => {
      await storage?.close();
      await database?.done();
      await receiver?.close();
    });

    it('dead-lettered after five refusals, never sent again by itself, delivered once by a replay with the same id and bytes', async () => {
      const store = storage.store!;
      const watch = await store.watches.add(
        { did: 'did:web:watched.example', webhookUrl: `https://${HOST}/hook`, secret: SECRET, intervalSeconds: 60, createdAt: '2026-11-27T00:00:00Z' },
        10,
      );
      if (watch === 'full') throw new Error('no room');
      const input = (await store.watches.forCheck(watch.id))!;
      const recorded = await store.watches.recordCheck({
        watchId: watch.id,
        revision: input.watch.revision,
        outcome: {
          status: 'RESOLVED',
          documentHash: 'h1',
          fingerprintProfile: null,
          domainBindingStatus: null,
          document: { id: 'did:web:watched.example' },
          problem: null,
          checkedAt: '2026-11-27T00:00:00Z',
          tls: null,
        },
        events: [
          { type: 'identity.document.changed', data: { fromHash: 'h0', toHash: 'h1', domainBinding: null, diff: null, headline: 'changed', problem: null } },
        ],
        maxEvents: 10_000,
        maxPayloadBytes: 256 * 1024,
      });
      if (recorded.outcome !== 'recorded') throw new Error(recorded.outcome);
      const eventId = recorded.eventIds[0]!;
      const status = async () => (await store.monitorEvents.list({ watchId: watch.id, limit: 10 })).find((e) => e.id === eventId)!;

      // Five attempts, each made due by moving its next attempt into the past.
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect(await deliverDue(ctx)).toBe(1);
        await database.sql(`UPDATE monitor_events SET next_attempt_at = '2000-01-01T00:00:00Z' WHERE id = ${eventId} AND delivery_status = 'RETRY'`);
        clock.advance(60_000);
      }
      expect(deliveries).toHaveLength(5);
      expect(await status()).toMatchObject({ deliveryStatus: 'DEAD_LETTER', attempts: 5, replays: 0, lastError: 'the receiver answered 500' });

      // The receiver is fixed, but nothing replays by itself: a week of passes, an hour apart.
      broken = false;
      for (let hour = 0; hour < 7 * 24; hour++) {
        clock.advance(3_600_000);
        expect(await deliverDue(ctx)).toBe(0);
      }
      expect(deliveries).toHaveLength(5);
      expect((await status()).deliveryStatus).toBe('DEAD_LETTER');

      // The operator replays it: one delivery, the same id and bytes.
      clock = fixedClock(new Date().toISOString());
      Object.defineProperty(ctx.runtime, 'clock', { value: clock });
      const replayed = await store.monitorEvents.replay(eventId);
      expect(replayed).toMatchObject({ outcome: 'replayed', event: { deliveryStatus: 'PENDING', attempts: 0, replays: 1 } });
      expect(await deliverDue(ctx)).toBe(1);
      expect(deliveries).toHaveLength(6);
      expect(await status()).toMatchObject({ deliveryStatus: 'DELIVERED', attempts: 1, replays: 1 });
      for (let hour = 0; hour < 7 * 24; hour++) {
        clock.advance(3_600_000);
        expect(await deliverDue(ctx)).toBe(0);
      }
      expect(deliveries).toHaveLength(6);

      const last = deliveries[5]!;
      for (const failed of deliveries.slice(0, 5)) expect(last.body.equals(failed.body)).toBe(true);
      expect(new Set(deliveries.map((d) => d.headers['x-svc-event-id']))).toEqual(new Set([`evt_${eventId}`]));
      expect(new Set(deliveries.map((d) => d.headers['webhook-id']))).toEqual(new Set([`evt_${eventId}`]));
      expect(JSON.parse(last.body.toString('utf8'))).toMatchObject({ id: `evt_${eventId}`, type: 'identity.document.changed', watchId: String(watch.id) });

      // Signed afresh at the replay's attempt: every verifier accepts it now.
      const now = Math.floor(Date.now() / 1000);
      expect(await verifyWebhook(SECRET, last.headers, last.body, { now })).toBe(true);
      expect(await verifyWebhook('whsec_another', last.headers, last.body, { now })).toBe(false);
      const standard = new Webhook(SECRET);
      expect(() =>
        standard.verify(last.body.toString('utf8'), {
          'webhook-id': String(last.headers['webhook-id']),
          'webhook-timestamp': String(last.headers['webhook-timestamp']),
          'webhook-signature': String(last.headers['webhook-signature']),
        }),
      ).not.toThrow();
      if (!pythonMissing) expect(pythonVerdicts([last], now)).toEqual([true]);
    });

    it('a week of injected clock after a receiver disabled the webhook: the cancelled event waits, the replay is refused until re-enabled', async () => {
      const store = storage.store!;
      const watch = await store.watches.add(
        { did: 'did:web:gone.example', webhookUrl: `https://${HOST}/hook`, secret: SECRET, intervalSeconds: 60, createdAt: '2026-11-27T00:00:00Z' },
        10,
      );
      if (watch === 'full') throw new Error('no room');
      // As the delivery of a 410 leaves them: the webhook disabled, the event cancelled.
      await database.sql(
        `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, attempts)
         VALUES (${watch.id}, 'did:web:gone.example', 'identity.deactivated', '{"fromHash":null,"toHash":null,"domainBinding":null,"diff":null,"headline":"h","problem":null}', '2026-11-27T00:00:00Z', 'CANCELLED', 1)`,
      );
      await database.sql(
        `UPDATE watches SET webhook_disabled_at = '2026-11-27T00:01:00Z', webhook_disabled_reason = 'the receiver answered 410 Gone' WHERE id = ${watch.id}`,
      );
      const [event] = await store.monitorEvents.list({ watchId: watch.id, limit: 1 });
      const before = deliveries.length;
      for (let hour = 0; hour < 7 * 24; hour++) {
        clock.advance(3_600_000);
        expect(await deliverDue(ctx)).toBe(0);
      }
      expect(deliveries).toHaveLength(before);
      expect(await store.monitorEvents.replay(event!.id)).toEqual({
        outcome: 'webhook-disabled',
        watchId: watch.id,
        since: '2026-11-27T00:01:00Z',
        reason: 'the receiver answered 410 Gone',
      });
      await database.sql(`UPDATE watches SET webhook_disabled_at = NULL, webhook_disabled_reason = NULL WHERE id = ${watch.id}`);
      expect((await store.monitorEvents.replay(event!.id)).outcome).toBe('replayed');
      expect(await deliverDue(ctx)).toBe(1);
      expect(deliveries).toHaveLength(before + 1);
      expect((await store.monitorEvents.list({ watchId: watch.id, limit: 1 }))[0]).toMatchObject({ deliveryStatus: 'DELIVERED', replays: 1 });
    });
  });
}

engineSuite('SQLite', describe, () => sqliteDatabase('svc-replay'));
engineSuite('PostgreSQL', describePostgres, postgresDatabase);
