/**
 * The customer monitoring crash suite (test/integration/customer-monitor-resilience-*.e2e.test.ts,
 * one file per engine so that neither is the suite's longest pole), as real processes: `svc serve`
 * with the commercial mode and its gateway, killed with SIGKILL at random moments of its customer
 * passes (claiming due project watches, resolving, recording events and their sealed deliveries,
 * posting them), again and again, and restarted on the same database. In the end every customer
 * event reached the receiver at least once, the receiver's distinct ids are exactly the events
 * stored, no event was created twice (one per watch, revision and type), no delivery row was made
 * twice, and every copy of an event the receiver got is the same bytes with the same id and
 * signature. (A delivery whose five attempts were all cut short by kills ends DEAD_LETTER, as the
 * operator's do; the receiver got it all the same.) Lease expiry, backoff and the hourly interval
 * are moved by SQL on the database, not waited for.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyCustomerWebhook } from '../../src/client/webhooks.js';
import type { Daemon } from './daemon.js';
import { until } from './daemon-client.js';
import { startDidWebHost, type DidWebHost, FAR_FROM_EXPIRY_DAYS } from './did-web-host.js';
import { identifiers } from './monitoring-crash.js';
import { didKeyPrincipal, gatewayUrl, ownerSession, seedOwner, signIn, startGatewayDaemon } from './gateway.js';
import type { TestDatabase } from './databases.js';

type Engine = 'SQLite' | 'PostgreSQL';

const ROUNDS = 15;
const WATCHES = 6;

interface Received {
  id: string;
  signature: string;
  body: string;
  headers: Record<string, string>;
}

/** A receiver that answers 204 to everything, after 100–500 ms, and keeps every delivery (duplicates included). */
function receiver(host: DidWebHost, name: string) {
  const received: Received[] = [];
  host.server.route(`/hooks/${name}`, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = req.headers as Record<string, string>;
      received.push({
        id: String(headers['x-svc-event-id']),
        signature: String(headers['x-svc-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
        headers,
      });
      // A slow answer: a kill often lands while a delivery is in flight (received here, never settled there).
      setTimeout(
        () => {
          res.writeHead(204);
          res.end();
        },
        100 + Math.floor(Math.random() * 400),
      );
    });
  });
  return { url: `https://127.0.0.1:${host.server.port}/hooks/${name}`, received };
}

const AGE_WATCHES = "UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z' WHERE project_id IS NOT NULL AND last_checked_at IS NOT NULL";
/** Only between a kill and the restart: a live sender's lease is never taken from it. */
const AGE_LEASES = "UPDATE customer_webhook_deliveries SET lease_expires_at = '2000-01-01T00:00:00Z' WHERE status = 'DELIVERING'";
const AGE_RETRIES = "UPDATE customer_webhook_deliveries SET next_attempt_at = '2000-01-01T00:00:00Z' WHERE status = 'RETRY'";

/** ROUNDS kills of `svc serve` (commercial mode, gateway) at random moments of its customer passes, on the database `open` gives. */
export function customerCrashSuite(engine: Engine, describeEngine: (name: string, fn: () => void) => void, open: () => Promise<TestDatabase>) {
  describeEngine(`customer monitoring survives kill -9 (${engine})`, () => {
    let host: DidWebHost;
    let opened: Awaited<ReturnType<typeof open>>;
    let caDir: string;
    let daemon: Daemon | undefined;
    beforeAll(async () => {
      host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
      opened = await open();
      caDir = mkdtempSync(path.join(tmpdir(), 'svc-customer-crash-ca-'));
      writeFileSync(path.join(caDir, 'ca.pem'), host.ca.certPem);
    }, 60_000);
    afterAll(async () => {
      await daemon?.stop();
      await host?.close();
      await opened?.done();
      if (caDir) rmSync(caDir, { recursive: true, force: true });
    });

    it(`${ROUNDS} kills at random moments of customer checks and deliveries: every event delivered at least once, none created twice, no delivery duplicated`, async () => {
      const owner = didKeyPrincipal();
      const [project] = await seedOwner(opened.target, owner.did, ['crash']);
      const hook = receiver(host, 'customer-crash');
      const watched = identifiers(host, 'customer-crash', WATCHES);
      const env = {
        NODE_EXTRA_CA_CERTS: path.join(caDir, 'ca.pem'),
        SVC_EGRESS_ALLOW: '127.0.0.0/8',
        SVC_MONITOR_PERIOD: '1',
        SVC_RATE_LIMIT_PER_MIN: '100000',
      };
      const startOne = async () => {
        const started = await startGatewayDaemon(engine === 'SQLite' ? { dbPath: opened.target, env } : { noDb: true, args: ['--db', opened.target], env });
        return started;
      };
      const { sql } = opened;

      // Once, through the gateway: the project's webhook and its watches.
      const first = await startOne();
      daemon = first.daemon;
      const gw = gatewayUrl(daemon);
      const signed = await signIn(gw, first.origin, owner);
      expect(signed.status).toBe(200);
      const session = ownerSession(gw, first.origin, signed.cookie);
      const set = await session.post(`/v1/session/projects/${project}/webhook`, { url: hook.url });
      expect(set.status, set.text).toBe(201);
      const secret: string = set.body.secret;
      for (const did of watched.dids) {
        const added = await session.post(`/v1/session/projects/${project}/watches`, { did });
        expect(added.status, added.text).toBe(201);
      }
      const resolved = async () =>
        Number((await sql(`SELECT count(*) AS n FROM watches WHERE project_id = '${project}' AND last_status = 'RESOLVED'`))[0]!['n']);
      await until('every watch has its baseline', async () => (await resolved()) === WATCHES, 30_000);

      for (let round = 0; round < ROUNDS; round++) {
        watched.rotate();
        await sql(AGE_WATCHES);
        await sql(AGE_RETRIES);
        // A random moment of the passes that follow: claiming, resolving, recording, posting.
        await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 1_400)));
        daemon.child.kill('SIGKILL');
        await daemon.exited;
        await daemon.stop(); // already dead: only its directory is removed
        // No daemon runs: the dead one's leases are expired (not a live sender's), its retries made due.
        await sql(AGE_LEASES);
        await sql(AGE_RETRIES);
        daemon = (await startOne()).daemon;
      }

      // The last daemon finishes: every watch checked since the last rotation, leases recovered,
      // everything delivered, no check still adding events (the counts unchanged over three looks
      // a second apart).
      let last = '';
      let steady = 0;
      const settled = until(
        'every customer event is delivered and no more are being made',
        async () => {
          await sql(AGE_RETRIES);
          const [row] = await sql(
            `SELECT (SELECT count(*) FROM monitor_events e JOIN watches w ON w.id = e.watch_id WHERE w.project_id = '${project}') AS events,
               (SELECT count(*) FROM customer_webhook_deliveries WHERE project_id = '${project}') AS deliveries,
               (SELECT count(*) FROM customer_webhook_deliveries WHERE project_id = '${project}' AND status IN ('PENDING', 'RETRY', 'DELIVERING')) AS remaining,
               (SELECT count(*) FROM watches WHERE project_id = '${project}' AND active = 1 AND (last_checked_at IS NULL OR last_checked_at < '2001-01-01T00:00:00Z')) AS unchecked`,
          );
          const now = `${row!['events']}/${row!['deliveries']}`;
          steady = now === last && Number(row!['remaining']) === 0 && Number(row!['unchecked']) === 0 ? steady + 1 : 0;
          last = now;
          if (steady < 3) await new Promise((r) => setTimeout(r, 1_000));
          return steady >= 3;
        },
        120_000,
      );
      await settled.catch(async (err: Error) => {
        // What was left, for the failure's message.
        const left = await sql(
          `SELECT id, status, attempts, next_attempt_at, lease_expires_at, last_attempt_at, last_response_status FROM customer_webhook_deliveries WHERE project_id = '${project}' AND status IN ('PENDING', 'RETRY', 'DELIVERING')`,
        );
        throw new Error(`${err.message}\nundelivered: ${JSON.stringify(left)}\nreceived: ${hook.received.length}\ndaemon: ${daemon!.stderr().slice(-3_000)}`);
      });
      await daemon.stop('SIGTERM');
      daemon = undefined;

      const events = (await sql(
        `SELECT e.id, e.watch_id, e.watch_revision, e.event_type FROM monitor_events e JOIN watches w ON w.id = e.watch_id WHERE w.project_id = '${project}' ORDER BY e.id`,
      )) as Array<{ id: number; watch_id: number; watch_revision: number; event_type: string }>;
      const deliveries = (await sql(
        `SELECT id, monitor_event_id, status, attempts, body, signature FROM customer_webhook_deliveries WHERE project_id = '${project}' ORDER BY monitor_event_id`,
      )) as Array<{ id: string; monitor_event_id: number; status: string; attempts: number; body: string; signature: string }>;
      expect(events.length).toBeGreaterThan(0);
      // Every event reached the receiver at least once, and the receiver saw no id that is not an event.
      const ids = new Set(hook.received.map((r) => r.id));
      const stored = events.map((e) => `evt_${e.id}`);
      expect([...ids].sort()).toEqual([...stored].sort());
      // No event created twice: one per watch revision and type.
      expect(new Set(events.map((e) => `${e.watch_id}/${e.watch_revision}/${e.event_type}`)).size).toBe(events.length);
      expect(events.every((e) => e.watch_revision !== null)).toBe(true);
      // One delivery per event, no row duplicated, all delivered.
      expect(deliveries.map((d) => Number(d.monitor_event_id))).toEqual(events.map((e) => Number(e.id)));
      expect(new Set(deliveries.map((d) => d.id)).size).toBe(deliveries.length);
      // Each ended DELIVERED — or, when kills cut all five of its attempts short (each one counted, as the
      // operator's), DEAD_LETTER after five; the receiver got those too (the ids above).
      const exhausted = deliveries.filter((d) => d.status === 'DEAD_LETTER');
      expect(deliveries.filter((d) => d.status !== 'DELIVERED' && !(d.status === 'DEAD_LETTER' && Number(d.attempts) === 5))).toEqual([]);
      for (const d of exhausted) expect(hook.received.filter((r) => r.id === `evt_${d.monitor_event_id}`).length).toBeGreaterThanOrEqual(1);
      // Every copy the receiver got of an event is its stored bytes, id and signature, and verifies.
      const byEvent = new Map(deliveries.map((d) => [`evt_${d.monitor_event_id}`, d]));
      for (const r of hook.received) {
        const d = byEvent.get(r.id)!;
        expect({ id: r.id, body: r.body, signature: r.signature }).toEqual({ id: r.id, body: d.body, signature: d.signature });
      }
      for (const id of ids) {
        const copy = hook.received.find((r) => r.id === id)!;
        expect(await verifyCustomerWebhook(secret, copy.headers, copy.body)).toBe(true);
        expect(JSON.parse(copy.body)).toMatchObject({ id, projectId: project });
      }
      // At most one document change per rotation of each watch.
      const perWatch = new Map<number, number>();
      for (const e of events) if (e.event_type === 'identity.document.changed') perWatch.set(e.watch_id, (perWatch.get(e.watch_id) ?? 0) + 1);
      for (const n of perWatch.values()) expect(n).toBeLessThanOrEqual(ROUNDS);
      console.info(
        `[svc] ${engine}: ${events.length} customer events, ${hook.received.length} deliveries received (${hook.received.length - ids.size} repeats after kills), ${exhausted.length} dead-lettered by kills`,
      );
    }, 240_000);
  });
}
