/**
 * MCP watches under crashes, on a SQLite file and on PostgreSQL: `svc serve` as a real process
 * polls an SDK MCP server every second and posts to a slow HTTPS receiver; it is killed with
 * SIGKILL at random points of its checking and delivering (a delivery in flight among them) while
 * a tool's description keeps changing. Every mcp.inventory.changed stored reaches the receiver
 * at least once, and none is created twice (one per watch revision and type; the receiver's
 * distinct ids are exactly the events stored). Lease expiry and backoff are moved by SQL, not
 * waited for (as test/support/monitoring-crash.ts does for DID watches).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Daemon } from '../support/daemon.js';
import { call, expectJson, startDaemonFor, until } from '../support/daemon-client.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { FAR_FROM_EXPIRY_DAYS, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { PLAIN_TOOLS, startSdk1Server, type McpTestServer } from '../support/mcp-servers.js';
import { AGE_DELIVERIES, AGE_WATCHES, untilSettled } from '../support/monitoring-crash.js';
import { describePostgres } from '../support/postgres.js';

const TOKEN = 'targets-crash-token-0123456789';
const ROUNDS = 10;

function crashSuite(engine: string, describeEngine: (name: string, fn: () => void) => void, open: () => Promise<TestDatabase>) {
  describeEngine(`MCP watches survive kill -9 (${engine})`, () => {
    let host: DidWebHost;
    let opened: TestDatabase;
    let mcp: McpTestServer;
    beforeAll(async () => {
      host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
      opened = await open();
    }, 60_000);
    afterAll(async () => {
      await mcp?.close();
      await host?.close();
      await opened?.done();
    });

    it(`${ROUNDS} kills at random points of checking and delivering: every event delivered at least once, none created twice`, async () => {
      const ids: string[] = [];
      const bodies = new Map<string, string>();
      // A slow receiver: a kill often lands while a delivery is in flight.
      host.server.route('/hooks/mcp-crash', (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          setTimeout(() => {
            const id = String(req.headers['x-svc-event-id']);
            ids.push(id);
            bodies.set(id, Buffer.concat(chunks).toString('utf8'));
            res.writeHead(204);
            res.end();
          }, 250);
        });
      });
      mcp = await startSdk1Server({ host, path: '/mcp', tools: PLAIN_TOOLS, stateful: false, json: true });
      const startOne = () => startDaemonFor(host, { noDb: true, args: ['--db', opened.target], env: { SVC_ADMIN_TOKEN: TOKEN, SVC_MONITOR_PERIOD: '1' } });
      let daemon: Daemon = await startOne();
      const created = await call(`${daemon.url}/v1/monitoring/watches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mcpEndpoint: mcp.url, webhookUrl: `${host.server.origin}/hooks/mcp-crash`, intervalSeconds: 60 }),
      });
      expectJson(created, 201);
      await until('the first check is recorded', async () => Number((await opened.sql('SELECT count(*) AS n FROM monitor_baselines'))[0]!['n']) >= 1, 30_000);
      for (let round = 0; round < ROUNDS; round++) {
        mcp.setTools(PLAIN_TOOLS.map((t) => (t.name === 'add' ? { ...t, description: `Add two numbers (revision ${round}).` } : t)));
        await opened.sql(AGE_WATCHES);
        await opened.sql(AGE_DELIVERIES);
        await new Promise((r) => setTimeout(r, 200 + Math.floor(Math.random() * 1_500)));
        daemon.child.kill('SIGKILL');
        await daemon.exited;
        daemon = await startOne();
      }
      await untilSettled(opened.sql);
      await daemon.stop('SIGTERM');
      const events = (await opened.sql('SELECT id, watch_id, watch_revision, event_type FROM monitor_events ORDER BY id')) as Array<{
        id: number;
        watch_id: number;
        watch_revision: number;
        event_type: string;
      }>;
      expect(events.length).toBeGreaterThan(0);
      expect(new Set(events.map((e) => e.event_type))).toEqual(new Set(['mcp.inventory.changed']));
      const delivered = new Set(ids);
      expect([...delivered].sort()).toEqual(events.map((e) => `evt_${e.id}`).sort());
      expect(new Set(events.map((e) => `${e.watch_id}/${e.watch_revision}/${e.event_type}`)).size).toBe(events.length);
      // At most one change per round (a round's change may be seen with the next one's).
      expect(events.length).toBeLessThanOrEqual(ROUNDS);
      for (const body of bodies.values()) {
        const envelope = JSON.parse(body) as { mcpEndpoint: string; data: { changed: unknown[] } };
        expect(envelope.mcpEndpoint).toBe(mcp.url);
        expect(envelope.data.changed).toEqual([{ kind: 'tool', name: 'add', fields: ['description'] }]);
      }
    }, 240_000);
  });
}

crashSuite('SQLite', describe, () => sqliteDatabase('svc-mcp-crash'));
crashSuite('PostgreSQL', describePostgres, postgresDatabase);
