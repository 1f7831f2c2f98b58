/**
 * The monitoring crash suites (test/integration/monitoring-resilience-*.e2e.test.ts), one file per
 * engine so that neither is the suite's longest pole: `svc serve` as real processes, killed with
 * SIGKILL at random points of its polling and delivering, again and again, loses no event and
 * creates none twice (every event reaches the receiver at least once, the receiver's distinct
 * ids equal the events stored); two daemons on one PostgreSQL share 200 watches and deliver
 * every event exactly once (no failures, so no lease ever expires). Lease expiry and backoff are
 * moved by SQL on the database, not waited for.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Daemon } from './daemon.js';
import { call, expectJson, startDaemonFor, until } from './daemon-client.js';
import { documentPath, startDidWebHost, type DidWebHost, FAR_FROM_EXPIRY_DAYS } from './did-web-host.js';
import { postgresSql, type Sql } from './databases.js';
import { describePostgres, freshDatabase } from './postgres.js';
import { didDocument, generateTestKey } from './signing.js';

const TOKEN = 'resilience-token-0123456789abcdef';

interface Receiver {
  url: string;
  /** Every delivery's event id, in arrival order (duplicates included). */
  ids: string[];
  /** When each delivery of an id arrived (ms). */
  arrivals: Map<string, number[]>;
}

function receiver(host: DidWebHost, name: string): Receiver {
  const r: Receiver = { url: `https://127.0.0.1:${host.server.port}/hooks/${name}`, ids: [], arrivals: new Map() };
  host.server.route(`/hooks/${name}`, (req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-svc-event-id']);
      r.ids.push(id);
      r.arrivals.set(id, [...(r.arrivals.get(id) ?? []), Date.now()]);
      res.writeHead(204);
      res.end();
    });
  });
  return r;
}

/** `count` did:web identifiers on the host whose documents (and keys) rotate together; the customer crash suite uses them too. */
export function identifiers(host: DidWebHost, prefix: string, count: number) {
  const documents = new Map<string, Record<string, unknown>>();
  const dids = Array.from({ length: count }, (_, i) => host.did(prefix, String(i)));
  for (const did of dids) {
    documents.set(did, didDocument(did, generateTestKey('EdDSA')));
    host.server.route(documentPath(did), (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/did+json' });
      res.end(JSON.stringify(documents.get(did)));
    });
  }
  return {
    dids,
    rotate: () => {
      for (const did of dids) documents.set(did, didDocument(did, generateTestKey('EdDSA')));
    },
  };
}

async function operator(daemon: Daemon, method: string, path: string, body?: unknown) {
  return call(`${daemon.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

export const AGE_WATCHES = "UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z' WHERE last_checked_at IS NOT NULL";
/** Watches not checked since they were aged (or never): a check is still to come. */
const UNCHECKED = "SELECT count(*) AS n FROM watches WHERE active = 1 AND (last_checked_at IS NULL OR last_checked_at < '2001-01-01T00:00:00Z')";
export const AGE_DELIVERIES =
  "UPDATE monitor_events SET lease_expires_at = CASE WHEN delivery_status = 'DELIVERING' THEN '2000-01-01T00:00:00Z' ELSE lease_expires_at END, next_attempt_at = CASE WHEN delivery_status = 'RETRY' THEN '2000-01-01T00:00:00Z' ELSE next_attempt_at END";

/**
 * Waits for a daemon to finish after the last kill: every watch checked since it was aged, leases
 * recovered, everything delivered, and no check still adding events (the event count unchanged
 * over three looks a second apart).
 */
export async function untilSettled(sql: Sql): Promise<void> {
  let last = -1;
  let steady = 0;
  await until(
    'every event is delivered and no more are being made',
    async () => {
      await sql(AGE_DELIVERIES);
      const [row] = await sql("SELECT count(*) AS n, sum(CASE WHEN delivery_status <> 'DELIVERED' THEN 1 ELSE 0 END) AS remaining FROM monitor_events");
      const [aged] = await sql(UNCHECKED);
      const n = Number(row!['n']);
      steady = n === last && Number(row!['remaining'] ?? 0) === 0 && Number(aged!['n']) === 0 ? steady + 1 : 0;
      last = n;
      if (steady < 3) await new Promise((r) => setTimeout(r, 1_000));
      return steady >= 3;
    },
    90_000,
  );
}

/** 20 kills of `svc serve` at random points of polling and delivery, on the database `open` gives. */
export function monitoringCrashSuite(
  engine: string,
  describeEngine: (name: string, fn: () => void) => void,
  open: () => Promise<{ target: string; sql: Sql; done: () => Promise<void> }>,
) {
  describeEngine(`monitoring survives kill -9 (${engine})`, () => {
    let host: DidWebHost;
    let opened: Awaited<ReturnType<typeof open>>;
    beforeAll(async () => {
      host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
      opened = await open();
    }, 60_000);
    afterAll(async () => {
      await host?.close();
      await opened?.done();
    });

    it('20 kills at random points of polling and delivery: every event delivered at least once, none created twice', async () => {
      const hook = receiver(host, 'crash');
      const watched = identifiers(host, 'crash', 8);
      const startOne = () =>
        startDaemonFor(host, {
          noDb: true,
          args: ['--db', opened.target],
          env: { SVC_ADMIN_TOKEN: TOKEN, SVC_MONITOR_PERIOD: '1', SVC_EGRESS_ALLOW: '127.0.0.0/8' },
        });
      const { sql } = opened;
      let daemon = await startOne();
      for (const did of watched.dids)
        expectJson(await operator(daemon, 'POST', '/v1/monitoring/watches', { did, webhookUrl: hook.url, intervalSeconds: 60 }), 201);
      for (let round = 0; round < 20; round++) {
        watched.rotate();
        await sql(AGE_WATCHES);
        await sql(AGE_DELIVERIES);
        // A random moment of the passes that follow: claiming, resolving, recording, posting.
        await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 1_400)));
        daemon.child.kill('SIGKILL');
        await daemon.exited;
        daemon = await startOne();
      }
      // Let the last daemon finish: every watch checked since the last rotation, leases recovered,
      // everything delivered, and no check still adding events (the event count unchanged over
      // three looks a second apart).
      await untilSettled(sql);
      // On a machine loaded enough that no daemon finished a check before its kill, the checks
      // just made are the watches' first (baselines, no event): one more rotation, checked by this
      // daemon, makes the changes every run is to deliver.
      watched.rotate();
      await sql(AGE_WATCHES);
      await untilSettled(sql);
      await daemon.stop('SIGTERM');
      const events = (await sql('SELECT id, watch_id, watch_revision, event_type FROM monitor_events ORDER BY id')) as Array<{
        id: number;
        watch_id: number;
        watch_revision: number;
        event_type: string;
      }>;
      expect(events.length).toBeGreaterThan(0);
      // Every event reached the receiver at least once, and the receiver saw no id that is not an event.
      const delivered = new Set(hook.ids);
      expect([...delivered].sort()).toEqual(events.map((e) => `evt_${e.id}`).sort());
      // No event created twice: one per watch revision and type, and distinct ids equal the events stored.
      expect(new Set(events.map((e) => `${e.watch_id}/${e.watch_revision}/${e.event_type}`)).size).toBe(events.length);
      expect(delivered.size).toBe(events.length);
      // At most one document change per rotation of each watch.
      const perWatch = new Map<number, number>();
      for (const e of events) if (e.event_type === 'identity.document.changed') perWatch.set(e.watch_id, (perWatch.get(e.watch_id) ?? 0) + 1);
      for (const n of perWatch.values()) expect(n).toBeLessThanOrEqual(21);
    }, 240_000);
  });
}

/** Two daemons on one PostgreSQL share 200 watches and deliver every event exactly once. */
export function sharedWatchesSuite(): void {
  describePostgres('two daemons on one PostgreSQL share 200 watches', () => {
    let host: DidWebHost;
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let daemons: Daemon[] = [];
    beforeAll(async () => {
      host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
      database = await freshDatabase();
    }, 60_000);
    afterAll(async () => {
      await Promise.all(daemons.map((d) => d.stop()));
      await host?.close();
      await database?.drop();
    });

    it('every event delivered exactly once, the checks and deliveries shared by both', async () => {
      const hook = receiver(host, 'shared');
      const watched = identifiers(host, 'shared', 200);
      const env = { SVC_ADMIN_TOKEN: TOKEN, SVC_MONITOR_PERIOD: '1', SVC_EGRESS_ALLOW: '127.0.0.0/8' };
      daemons = await Promise.all([0, 1].map(() => startDaemonFor(host, { noDb: true, args: ['--db', database.url], env })));
      // Registered through both daemons, ten at a time.
      for (let i = 0; i < watched.dids.length; i += 10) {
        const batch = watched.dids
          .slice(i, i + 10)
          .map((did, j) => operator(daemons[(i + j) % 2]!, 'POST', '/v1/monitoring/watches', { did, webhookUrl: hook.url, intervalSeconds: 60 }));
        for (const answer of await Promise.all(batch)) expectJson(answer, 201);
      }
      const sql = postgresSql(database.url);
      await until(
        'every watch has its baseline',
        async () => Number((await sql("SELECT count(*) AS n FROM watches WHERE last_status = 'RESOLVED'"))[0]!['n']) === 200,
        60_000,
      );
      watched.rotate();
      await sql(AGE_WATCHES);
      await until(
        '200 changes recorded and delivered',
        async () => {
          const [row] = await sql("SELECT count(*) FILTER (WHERE delivery_status = 'DELIVERED') AS delivered, count(*) AS n FROM monitor_events");
          return Number(row!['n']) === 200 && Number(row!['delivered']) === 200;
        },
        90_000,
      );
      expect(hook.ids).toHaveLength(200);
      expect(new Set(hook.ids).size).toBe(200);
      const attempts = await sql('SELECT max(attempts) AS most, min(attempts) AS least FROM monitor_events');
      expect(attempts).toEqual([{ most: 1, least: 1 }]);
      for (const d of daemons) expect(expectJson(await call(`${d.url}/health`), 200).monitoring).toBe(true);
    }, 180_000);
  });
}
