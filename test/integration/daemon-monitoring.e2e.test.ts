/**
 * The operator monitoring routes, on a SQLite file and on PostgreSQL: 501 MONITORING_DISABLED
 * unless SVC_ADMIN_TOKEN (24+ characters) is set on the direct profile (`svc serve` as real
 * processes: the start says why), 401 without the bearer token (before any body is read),
 * watches registered with a secret shown once, listed redacted, removed; the egress policy on
 * webhook URLs; the 500-watch limit; events and gauges; webhook deliveries and their backoff.
 *
 * The routes and deliveries run on the daemon in process (test/support/live-daemon.ts: the real
 * app, store and Runtime over loopback HTTP), its poller run a pass at a time by the test rather
 * than waited for; the backoff is moved by SQL on the database. The poller's own schedule
 * (SVC_MONITOR_PERIOD) is tested on a real process at the end.
 */
import { MONITOR_EVENT_TYPES } from '../../src/core/monitoring/store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Daemon } from '../support/daemon.js';
import { call, expectJson, expectProblem, startDaemonFor, until } from '../support/daemon-client.js';
import { postgresSql, sqliteDatabase, type Sql, type TestDatabase } from '../support/databases.js';
import { documentPath, startDidWebHost, type DidWebHost, FAR_FROM_EXPIRY_DAYS } from '../support/did-web-host.js';
import { afterPasses, schemaUrl, startLiveDaemon, type LiveDaemon } from '../support/live-daemon.js';
import { schemaPool } from '../support/pg-schemas.js';
import { describePostgres, postgresUrl } from '../support/postgres.js';
import { didDocument, generateTestKey } from '../support/signing.js';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../src/client/webhooks.js';

const TOKEN = 'op-token-0123456789abcdefghij'; // 29 characters
const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const HOOK = 'https://127.0.0.1:9/hooks/svc';

type Send = (method: string, path: string, options?: { body?: unknown; token?: string | null }) => ReturnType<typeof call>;

function sender(daemon: () => { url: string }): Send {
  return (method, path, options = {}) => {
    const token = options.token === undefined ? TOKEN : options.token;
    const headers: Record<string, string> = {};
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return call(`${daemon().url}${path}`, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
  };
}

const ROUTES: Array<[string, string, unknown?]> = [
  ['POST', '/v1/monitoring/watches', { did: DID, webhookUrl: HOOK }],
  ['GET', '/v1/monitoring/watches'],
  ['DELETE', '/v1/monitoring/watches/1'],
  ['GET', '/v1/monitoring/events'],
  ['GET', '/v1/monitoring/status'],
  ['GET', '/v1/monitoring/retention-preview?before=2030-01-01T00:00:00Z'],
];

async function start(env: Record<string, string>, args: string[] = [], db?: string, host: DidWebHost | null = null): Promise<Daemon> {
  return startDaemonFor(host, { env: { SVC_EGRESS_ALLOW: '127.0.0.0/8', ...env }, args: db ? ['--db', db, ...args] : args, ...(db ? { noDb: true } : {}) });
}

describe('monitoring routes when monitoring is off', () => {
  const daemons: Daemon[] = [];
  afterAll(async () => {
    await Promise.all(daemons.map((d) => d.stop()));
  });

  it('501 MONITORING_DISABLED on every route without SVC_ADMIN_TOKEN, with a 23-character one, and on the public profile; the start says why, never the token', async () => {
    const short = 'x'.repeat(23);
    const cases: Array<{ env: Record<string, string>; args?: string[]; why: RegExp }> = [
      { env: {}, why: /SVC_ADMIN_TOKEN is not set/ },
      { env: { SVC_ADMIN_TOKEN: short }, why: /holds 23 characters; at least 24/ },
      { env: { SVC_ADMIN_TOKEN: TOKEN }, args: ['--public'], why: /only on the direct profile/ },
    ];
    // Three starts at once (each its own process): the cases do not share anything.
    const started = await Promise.all(cases.map((c) => start(c.env, c.args)));
    daemons.push(...started);
    for (const [i, c] of cases.entries()) {
      const daemon = started[i]!;
      // Said right after the listening line.
      await until('the daemon says why monitoring is off', () => c.why.test(daemon.stderr()));
      const send = sender(() => daemon);
      for (const [method, path, body] of ROUTES) {
        for (const token of [null, TOKEN, short]) {
          const problem = expectProblem(await send(method, path, { body, token }), 501, 'MONITORING_DISABLED');
          expect(problem.detail).toMatch(c.why);
        }
      }
      expect(daemon.stderr()).not.toContain(short);
      expect(daemon.stderr()).not.toContain(TOKEN);
    }
  }, 60_000);
});

/**
 * A daemon in process with monitoring on (the operator token) over the engine's database and a
 * did:web host, for the suite that calls it: started before its tests, stopped after. Getters,
 * since the pieces exist only once beforeAll has run. Its poller runs when the test runs a pass.
 */
function operatedDaemon(database: () => Promise<TestDatabase>) {
  let daemon: LiveDaemon;
  let host: DidWebHost;
  let opened: TestDatabase;
  beforeAll(async () => {
    opened = await database();
    host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
    daemon = await startLiveDaemon({ target: opened.target, host, env: { SVC_ADMIN_TOKEN: TOKEN } });
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
    await host?.close();
    await opened?.done();
  });
  return { send: sender(() => daemon), sql: (statement: string) => opened.sql(statement), daemon: () => daemon, host: () => host };
}

function monitoringSuite(engine: string, describeEngine: (name: string, fn: () => void) => void, database: () => Promise<TestDatabase>) {
  describeEngine(`monitoring routes on ${engine}`, () => {
    // No poller pass is run: these tests check watches through the check route.
    const { send, sql: runSql, daemon: current, host: currentHost } = operatedDaemon(database);
    let daemon: LiveDaemon;
    let host: DidWebHost;
    const sql: Sql = (statement) => runSql(statement);
    beforeAll(() => {
      daemon = current();
      host = currentHost();
    });

    /** A did:web on the loopback host whose document can be changed or taken down. */
    function watchedDid(name: string) {
      const did = host.did('monitored', name);
      let serve: 'up' | 'down' = 'up';
      let document = didDocument(did, generateTestKey('EdDSA'));
      host.server.route(documentPath(did), (_req, res) => {
        if (serve === 'down') {
          res.writeHead(503, { 'content-type': 'text/plain' });
          res.end('down');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/did+json' });
        res.end(JSON.stringify(document));
      });
      return {
        did,
        rotate: () => {
          document = didDocument(did, generateTestKey('EdDSA'));
        },
        down: () => {
          serve = 'down';
        },
        up: () => {
          serve = 'up';
        },
      };
    }

    const check = (id: string) => send('POST', `/v1/monitoring/watches/${id}/check`);

    it('checks: the first sets the baseline; a rotated key is one identity.document.changed; the host down is resolution.failed once, back is recovered', async () => {
      const target = watchedDid('rotating');
      const { watch } = expectJson(await send('POST', '/v1/monitoring/watches', { body: { did: target.did, webhookUrl: HOOK } }), 201);
      expect(expectJson(await check(watch.id), 200)).toEqual({ eventId: null, changed: false, delivery: 'none' });
      const baseline = expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches.find((w: { id: string }) => w.id === watch.id);
      expect(baseline).toMatchObject({ lastStatus: 'RESOLVED', lastHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(baseline.lastCheckedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(expectJson(await check(watch.id), 200).changed).toBe(false);

      target.rotate();
      const changed = expectJson(await check(watch.id), 200);
      expect(changed).toMatchObject({ changed: true, delivery: 'queued', eventId: expect.stringMatching(/^evt_[0-9]+$/) });
      expect(expectJson(await check(watch.id), 200).changed).toBe(false);
      const events = expectJson(await send('GET', `/v1/monitoring/events?watchId=${watch.id}`), 200).events;
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        id: changed.eventId,
        watchId: watch.id,
        did: target.did,
        eventType: 'identity.document.changed',
        deliveryStatus: 'PENDING',
        attempts: 0,
      });
      expect(events[0].data).toMatchObject({
        fromHash: baseline.lastHash,
        toHash: expect.not.stringMatching(baseline.lastHash),
        domainBinding: null,
        problem: null,
      });
      expect(events[0].data.diff.summary).toMatch(/key/);

      target.down();
      expect(expectJson(await check(watch.id), 200)).toMatchObject({ changed: true });
      expect(expectJson(await check(watch.id), 200).changed).toBe(false);
      target.up();
      expect(expectJson(await check(watch.id), 200)).toMatchObject({ changed: true });
      const all = expectJson(await send('GET', `/v1/monitoring/events?watchId=${watch.id}`), 200).events;
      expect(all.map((e: { eventType: string }) => e.eventType)).toEqual([
        'identity.resolution.recovered',
        'identity.resolution.failed',
        'identity.document.changed',
      ]);
      expect(all[1].data.problem).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      expect(all[1].data.headline).toBeNull();

      expectProblem(await check('999999'), 404, 'NOT_FOUND');
      expectProblem(await send('POST', `/v1/monitoring/watches/${watch.id}/check`, { token: null }), 401, 'UNAUTHORIZED');
      expect((await send('DELETE', `/v1/monitoring/watches/${watch.id}`)).status).toBe(204);
      expectProblem(await check(watch.id), 404, 'NOT_FOUND');
    });

    it('at 10,000 stored events a change is a 500 that keeps the baseline; once there is room it is reported', async () => {
      const target = watchedDid('capped');
      const { watch } = expectJson(await send('POST', '/v1/monitoring/watches', { body: { did: target.did, webhookUrl: HOOK } }), 201);
      expectJson(await check(watch.id), 200);
      const [before] = await sql(`SELECT revision FROM watches WHERE id = ${watch.id}`);
      const n = Number((await sql('SELECT count(*) AS n FROM monitor_events'))[0]!['n']);
      await sql(
        `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status)
         SELECT ${watch.id}, 'did:example:filler', 'identity.resolution.failed', '{}', '2026-01-01T00:00:00Z', 'DELIVERED'
         FROM (${engine === 'SQLite' ? `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${10_000 - n}) SELECT i FROM n` : `SELECT generate_series(1, ${10_000 - n}) AS i`}) AS filler`,
      );
      target.rotate();
      expectProblem(await check(watch.id), 500, 'INTERNAL_ERROR');
      expect(await sql(`SELECT revision FROM watches WHERE id = ${watch.id}`)).toEqual([before]);
      await sql(`DELETE FROM monitor_events WHERE did = 'did:example:filler'`);
      const reported = expectJson(await check(watch.id), 200);
      expect(reported.changed).toBe(true);
      const events = expectJson(await send('GET', `/v1/monitoring/events?watchId=${watch.id}`), 200).events;
      expect(events.map((e: { eventType: string }) => e.eventType)).toEqual(['identity.document.changed']);
      expect((await send('DELETE', `/v1/monitoring/watches/${watch.id}`)).status).toBe(204);
    }, 60_000);

    it('401 UNAUTHORIZED without the bearer token, with another one or another scheme — before the body is read', async () => {
      for (const [method, path, body] of ROUTES) {
        for (const token of [null, `${TOKEN}x`, TOKEN.slice(0, -1), '']) expectProblem(await send(method, path, { body, token }), 401, 'UNAUTHORIZED');
      }
      const basic = await call(`${daemon.url}/v1/monitoring/watches`, { headers: { authorization: `Basic ${Buffer.from(`op:${TOKEN}`).toString('base64')}` } });
      expectProblem(basic, 401, 'UNAUTHORIZED');
      // A body that would be a 400: the caller without the token learns nothing of it.
      expectProblem(await send('POST', '/v1/monitoring/watches', { body: { nonsense: true }, token: null }), 401, 'UNAUTHORIZED');
      expect(daemon.stderr()).not.toContain(TOKEN);
    });

    it('registers a watch: 201 with the secret once; listed with the URL redacted and no secret; removed: 204, then 404', async () => {
      const created = expectJson(await send('POST', '/v1/monitoring/watches', { body: { did: DID, webhookUrl: `${HOOK}?token=hook-secret#frag` } }), 201);
      expect(Object.keys(created).sort()).toEqual(['note', 'secret', 'watch']);
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created.watch).toMatchObject({
        did: DID,
        webhook: HOOK,
        intervalSeconds: 3600,
        lastHash: null,
        lastStatus: null,
        lastCheckedAt: null,
        active: true,
      });
      expect(created.watch.id).toMatch(/^[0-9]+$/);
      const other = expectJson(await send('POST', '/v1/monitoring/watches', { body: { did: DID, webhookUrl: HOOK, intervalSeconds: 60 } }), 201);
      expect(other.secret).not.toBe(created.secret);
      expect(other.watch.intervalSeconds).toBe(60);

      const listed = await send('GET', '/v1/monitoring/watches');
      const watches = expectJson(listed, 200).watches;
      expect(watches.map((w: { id: string }) => w.id)).toEqual([created.watch.id, other.watch.id]);
      expect(watches[0]).toEqual(created.watch);
      expect(listed.text).not.toContain(created.secret);
      expect(listed.text).not.toContain('hook-secret');

      const status = await send('DELETE', `/v1/monitoring/watches/${created.watch.id}`);
      expect(status.status).toBe(204);
      expect(status.text).toBe('');
      expectProblem(await send('DELETE', `/v1/monitoring/watches/${created.watch.id}`), 404, 'NOT_FOUND');
      for (const id of ['abc', '0', '-1', '1e3', '99999999999999999999']) expectProblem(await send('DELETE', `/v1/monitoring/watches/${id}`), 404, 'NOT_FOUND');
      expect(expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches.map((w: { id: string }) => w.id)).toEqual([other.watch.id]);
      expect((await send('DELETE', `/v1/monitoring/watches/${other.watch.id}`)).status).toBe(204);
    });

    it('refuses what it cannot watch or post to: a bad body, a DID URL, an unsupported method, a webhook outside the egress policy', async () => {
      const post = (body: unknown) => send('POST', '/v1/monitoring/watches', { body });
      expectProblem(await post({ did: DID }), 400, 'INVALID_REQUEST');
      expectProblem(await post({ did: DID, webhookUrl: HOOK, intervalSeconds: 59 }), 400, 'INVALID_REQUEST');
      expectProblem(await post({ did: DID, webhookUrl: HOOK, intervalSeconds: 86_401 }), 400, 'INVALID_REQUEST');
      expectProblem(await post({ did: DID, webhookUrl: HOOK, extra: 1 }), 400, 'INVALID_REQUEST');
      expectProblem(await post({ did: 'not a did', webhookUrl: HOOK }), 400, 'INVALID_DID');
      expectProblem(await post({ did: `${DID}#key-1`, webhookUrl: HOOK }), 400, 'INVALID_DID');
      expectProblem(await post({ did: 'did:example:123', webhookUrl: HOOK }), 501, 'METHOD_NOT_SUPPORTED');
      for (const url of ['http://127.0.0.1:9/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest', 'https://user:pw@127.0.0.1/hook', 'not a url']) {
        expectProblem(await post({ did: DID, webhookUrl: url }), 403, 'EGRESS_BLOCKED');
      }
      expect(expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches).toEqual([]);
    });

    it('events: none for a new watch, a watchId that is not a number is 400; status: the gauges agree with the lists, and the limits', async () => {
      const created = expectJson(await send('POST', '/v1/monitoring/watches', { body: { did: DID, webhookUrl: HOOK } }), 201);
      expect(expectJson(await send('GET', `/v1/monitoring/events?watchId=${created.watch.id}`), 200)).toEqual({ events: [] });
      expectProblem(await send('GET', '/v1/monitoring/events?watchId=abc'), 400, 'INVALID_OPTIONS');
      expectProblem(await send('GET', '/v1/monitoring/events?other=1'), 400, 'INVALID_OPTIONS');
      expectProblem(await send('GET', '/v1/monitoring/status?x=1'), 400, 'INVALID_OPTIONS');
      const watches = expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches;
      const events = expectJson(await send('GET', '/v1/monitoring/events'), 200).events as Array<{ deliveryStatus: string; eventType: string; data: unknown }>;
      const status = expectJson(await send('GET', '/v1/monitoring/status'), 200);
      const byStatus = { PENDING: 0, DELIVERING: 0, RETRY: 0, DELIVERED: 0, DEAD_LETTER: 0, CANCELLED: 0 } as Record<string, number>;
      for (const event of events) byStatus[event.deliveryStatus]! += 1;
      expect(status).toEqual({
        watches: watches.length,
        events: events.length,
        eventsByStatus: byStatus,
        dueDeliveries: byStatus['PENDING']! + byStatus['RETRY']!,
        expiredLeases: 0,
        eventPayloadBytes: events.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e.data)), 0),
        watchLimit: 500,
        eventLimit: 10_000,
        eventPayloadLimitBytes: 262_144,
        disabledWebhooks: 0,
        replays: 0,
        eventsByType: Object.fromEntries(MONITOR_EVENT_TYPES.map((type) => [type, events.filter((e) => e.eventType === type).length])),
      });
      expect((await send('DELETE', `/v1/monitoring/watches/${created.watch.id}`)).status).toBe(204);
    });

    it('retention preview: counts at a normalised cutoff, read only; a missing or malformed before is 400; no token is 401', async () => {
      const preview = (query: string, token?: string | null) => send('GET', `/v1/monitoring/retention-preview${query}`, { token });
      const eventsBefore = expectJson(await send('GET', '/v1/monitoring/events'), 200);
      const old = await sql('SELECT count(*) AS n FROM observations');
      const answer = expectJson(await preview(`?before=${encodeURIComponent('2030-01-01T02:00:00.5+02:00')}`), 200);
      expect(Object.keys(answer).sort()).toEqual(['candidateCounts', 'cutoff', 'dryRun', 'limitations', 'preservationRules']);
      expect(answer.dryRun).toBe(true);
      expect(answer.cutoff).toBe('2030-01-01T00:00:01Z');
      expect(Object.keys(answer.candidateCounts).sort()).toEqual(['mcpObservations', 'observations', 'terminalMonitorEvents']);
      for (const n of Object.values(answer.candidateCounts)) {
        expect(Number.isSafeInteger(n)).toBe(true);
        expect(n as number).toBeGreaterThanOrEqual(0);
      }
      expect(answer.preservationRules.length).toBeGreaterThan(0);
      for (const rule of answer.preservationRules) expect(typeof rule).toBe('string');
      expect(answer.limitations).toMatch(/nothing is deleted/i);
      expect(JSON.stringify(answer)).not.toMatch(/SPEC|§|did:/);
      expect(expectJson(await preview('?before=2030-01-01T00:00:00Z'), 200).cutoff).toBe('2030-01-01T00:00:00Z');
      expect(expectJson(await preview(`?before=${encodeURIComponent('2029-12-31T19:30:00-05:00')}`), 200).cutoff).toBe('2030-01-01T00:30:00Z');
      // Nothing deleted.
      expect(expectJson(await send('GET', '/v1/monitoring/events'), 200)).toEqual(eventsBefore);
      expect(await sql('SELECT count(*) AS n FROM observations')).toEqual(old);

      for (const query of [
        '',
        '?before=',
        '?before=2030-01-01',
        '?before=2030-01-01T00:00Z',
        '?before=2030-01-01%2000:00:00Z',
        '?before=2030-01-01t00:00:00z',
        '?before=2030-01-01T00:00:00',
        '?before=2030-02-30T00:00:00Z',
        '?before=2030-01-01T24:00:00Z',
        '?before=2030-01-01T00:00:00%2B0200',
        '?before=yesterday',
        '?before=2030-01-01T00:00:00Z&before=2030-01-02T00:00:00Z',
        '?before=2030-01-01T00:00:00Z&other=1',
      ]) {
        const problem = expectProblem(await preview(query), 400, 'INVALID_OPTIONS');
        if (!query.includes('other')) expect(problem.detail).toContain('before');
      }
      expectProblem(await preview('?before=2030-01-01T00:00:00Z', null), 401, 'UNAUTHORIZED');
      expectProblem(await preview('?before=2030-01-01T00:00:00Z', `${TOKEN}x`), 401, 'UNAUTHORIZED');

      // A table that cannot be read: a 500, never zeros.
      await sql('ALTER TABLE mcp_observations RENAME TO mcp_observations_away');
      try {
        expectProblem(await preview('?before=2030-01-01T00:00:00Z'), 500, 'INTERNAL_ERROR');
      } finally {
        await sql('ALTER TABLE mcp_observations_away RENAME TO mcp_observations');
      }
      expectJson(await preview('?before=2030-01-01T00:00:00Z'), 200);
    });

    it('the 501st watch is refused: 429 WATCH_CAPACITY_EXHAUSTED; removing one makes room', async () => {
      const ids: string[] = [];
      // 500 registrations, ten in flight at a time (the limit holds under concurrent adds: store-conformance).
      for (let i = 0; i < 500; i += 10) {
        const batch = Array.from({ length: 10 }, (_, j) => send('POST', '/v1/monitoring/watches', { body: { did: DID, webhookUrl: `${HOOK}/${i + j}` } }));
        for (const answer of await Promise.all(batch)) ids.push(expectJson(answer, 201).watch.id);
      }
      const refused = await send('POST', '/v1/monitoring/watches', { body: { did: DID, webhookUrl: HOOK } });
      expect(expectProblem(refused, 429, 'WATCH_CAPACITY_EXHAUSTED').detail).toMatch(/500 watches/);
      expect(refused.header('retry-after')).toBe('60');
      expect(expectJson(await send('GET', '/v1/monitoring/status'), 200).watches).toBe(500);
      expect((await send('DELETE', `/v1/monitoring/watches/${ids[0]}`)).status).toBe(204);
      expectJson(await send('POST', '/v1/monitoring/watches', { body: { did: DID, webhookUrl: HOOK } }), 201);
    }, 60_000);
  });
}

/** Migrated PostgreSQL schemas, emptied and reused by the suites of this file. */
const schemas = schemaPool();
afterAll(() => schemas.dispose());

const onSqlite = (): Promise<TestDatabase> => sqliteDatabase('svc-monitoring');

const onPostgres = async (): Promise<TestDatabase> => {
  const { schema, drop } = await schemas.take();
  const target = schemaUrl(postgresUrl, schema);
  return { target, sql: postgresSql(target), done: drop };
};

monitoringSuite('SQLite', describe, onSqlite);
monitoringSuite('PostgreSQL', describePostgres, onPostgres);

/** Webhook deliveries to a real HTTPS receiver on loopback (the test CA, an egress allowance), the poller a pass at a time. */
function deliverySuite(engine: string, describeEngine: (name: string, fn: () => void) => void, database: () => Promise<TestDatabase>) {
  describeEngine(`webhook deliveries on ${engine}`, () => {
    const { send, sql: runSql, daemon: current, host: currentHost } = operatedDaemon(database);
    let host: DidWebHost;
    const sql: Sql = (statement) => runSql(statement);
    /** Runs poller passes until `check` holds. */
    const passesUntil = (what: string, check: () => boolean | Promise<boolean>) => afterPasses(what, current().jobs.monitor, check);
    /** Passes go on: `n` more of them. */
    const passes = async (n: number) => {
      for (let i = 0; i < n; i++) await current().jobs.monitor.pass();
    };
    beforeAll(() => {
      host = currentHost();
    });

    interface Delivery {
      headers: Record<string, string>;
      body: string;
    }

    /** A receiver at /hooks/<name> answering each delivery with the next status of `statuses` (the last one repeats). */
    function receiver(name: string, statuses: number[]) {
      const deliveries: Delivery[] = [];
      host.server.route(`/hooks/${name}`, (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          deliveries.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(statuses[Math.min(deliveries.length, statuses.length) - 1]!);
          res.end();
        });
      });
      return { url: `https://127.0.0.1:${host.server.port}/hooks/${name}`, deliveries };
    }

    /** A watched did:web whose key rotates on demand; the watch registered, its baseline checked by the poller. */
    async function watched(name: string, webhookUrl: string) {
      const did = host.did('delivered', name);
      let document = didDocument(did, generateTestKey('EdDSA'));
      host.server.route(documentPath(did), (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/did+json' });
        res.end(JSON.stringify(document));
      });
      const created = expectJson(await send('POST', '/v1/monitoring/watches', { body: { did, webhookUrl } }), 201);
      const id: string = created.watch.id;
      await passesUntil('the poller set the baseline', async () => {
        const watch = expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches.find((w: { id: string }) => w.id === id);
        return watch?.lastStatus === 'RESOLVED';
      });
      /** Rotates the key and checks now: one identity.document.changed; its id. */
      const change = async (): Promise<string> => {
        document = didDocument(did, generateTestKey('EdDSA'));
        const checked = expectJson(await send('POST', `/v1/monitoring/watches/${id}/check`), 200);
        expect(checked).toMatchObject({ changed: true, delivery: 'queued' });
        return checked.eventId;
      };
      return { id, secret: created.secret as string, change };
    }

    const eventOf = async (eventId: string) =>
      (expectJson(await send('GET', '/v1/monitoring/events'), 200).events as Array<{ id: string; deliveryStatus: string; attempts: number }>).find(
        (e) => e.id === eventId,
      )!;
    const numeric = (eventId: string) => Number(eventId.slice('evt_'.length));
    /** Makes the event's next attempt due now (the clock of the backoff, moved by SQL rather than waited for). */
    const dueNow = (eventId: string) => sql(`UPDATE monitor_events SET next_attempt_at = '2000-01-01T00:00:00Z' WHERE id = ${numeric(eventId)}`);
    /**
     * The backoff, in whole seconds: the next attempt is due that long after the failed attempt
     * ended, while last_attempt_at is when it started, so a second boundary crossed during the
     * attempt (a loopback POST: well under a second) adds at most 1.
     */
    const backoffOf = async (eventId: string) => {
      const [row] = await sql(`SELECT next_attempt_at AS next, last_attempt_at AS last FROM monitor_events WHERE id = ${numeric(eventId)}`);
      const seconds = (Date.parse(String(row!['next'])) - Date.parse(String(row!['last']))) / 1000;
      const delay = [60, 120, 240, 480].find((d) => seconds === d || seconds === d + 1);
      return delay ?? seconds;
    };

    it('a rotated key: exactly one identity.document.changed delivered, verified by verifyWebhook and by a Standard Webhooks verifier', async () => {
      const hook = receiver('ok', [204]);
      const watch = await watched('rotating', hook.url);
      const eventId = await watch.change();
      await passesUntil('the event was delivered', () => hook.deliveries.length === 1);
      await until('it is DELIVERED', async () => (await eventOf(eventId)).deliveryStatus === 'DELIVERED', 10_000);
      expect(await eventOf(eventId)).toMatchObject({ deliveryStatus: 'DELIVERED', attempts: 1 });
      const [delivery] = hook.deliveries;
      expect(delivery!.headers).toMatchObject({
        'content-type': 'application/json',
        'x-svc-event': 'identity.document.changed',
        'x-svc-event-id': eventId,
        'webhook-id': eventId,
      });
      const envelope = JSON.parse(delivery!.body);
      expect(envelope).toMatchObject({ id: eventId, type: 'identity.document.changed', watchId: watch.id });
      expect(Object.keys(envelope)).toEqual(['id', 'type', 'did', 'watchId', 'createdAt', 'data']);
      expect(await verifyWebhook(watch.secret, delivery!.headers, delivery!.body)).toBe(true);
      expect(new Webhook(watch.secret).verify(delivery!.body, delivery!.headers)).toEqual(envelope);
      expect(await verifyWebhook(`${watch.secret}x`, delivery!.headers, delivery!.body)).toBe(false);
      // Nothing more: passes go on, nothing is due.
      await passes(2);
      expect(hook.deliveries).toHaveLength(1);
    }, 40_000);

    it('a receiver answering 2xx on the third attempt: RETRY after 60 then 120 s, then DELIVERED with the same envelope bytes and id', async () => {
      const hook = receiver('third', [500, 503, 200]);
      const watch = await watched('flaky', hook.url);
      const eventId = await watch.change();
      await passesUntil('the first attempt', () => hook.deliveries.length === 1);
      await until('RETRY after the first', async () => (await eventOf(eventId)).deliveryStatus === 'RETRY', 10_000);
      expect(await backoffOf(eventId)).toBe(60);
      await dueNow(eventId);
      await passesUntil('the second attempt', () => hook.deliveries.length === 2);
      await until('RETRY after the second', async () => (await eventOf(eventId)).attempts === 2 && (await eventOf(eventId)).deliveryStatus === 'RETRY', 10_000);
      expect(await backoffOf(eventId)).toBe(120);
      await dueNow(eventId);
      await passesUntil('the third attempt', () => hook.deliveries.length === 3);
      await until('DELIVERED', async () => (await eventOf(eventId)).deliveryStatus === 'DELIVERED', 10_000);
      expect(await eventOf(eventId)).toMatchObject({ attempts: 3 });
      expect(new Set(hook.deliveries.map((d) => d.body)).size).toBe(1);
      expect(new Set(hook.deliveries.map((d) => d.headers['x-svc-event-id']))).toEqual(new Set([eventId]));
      for (const d of hook.deliveries) expect(await verifyWebhook(watch.secret, d.headers, d.body)).toBe(true);
    }, 60_000);

    it('a receiver failing five times: attempts 1..5 at 60/120/240/480 s, then DEAD_LETTER and no more attempts', async () => {
      const hook = receiver('down', [500]);
      const watch = await watched('unheard', hook.url);
      const eventId = await watch.change();
      const backoffs: number[] = [];
      for (let attempt = 1; attempt <= 5; attempt++) {
        await passesUntil(`attempt ${attempt}`, () => hook.deliveries.length === attempt);
        await until(
          `attempt ${attempt} settled`,
          async () => {
            const event = await eventOf(eventId);
            return event.attempts === attempt && event.deliveryStatus !== 'DELIVERING';
          },
          10_000,
        );
        if (attempt < 5) {
          expect((await eventOf(eventId)).deliveryStatus).toBe('RETRY');
          backoffs.push(await backoffOf(eventId));
          await dueNow(eventId);
        }
      }
      expect(backoffs).toEqual([60, 120, 240, 480]);
      expect(await eventOf(eventId)).toMatchObject({ deliveryStatus: 'DEAD_LETTER', attempts: 5 });
      await dueNow(eventId);
      await passes(2);
      expect(hook.deliveries).toHaveLength(5);
    }, 90_000);
  });
}

deliverySuite('SQLite', describe, onSqlite);
deliverySuite('PostgreSQL', describePostgres, onPostgres);

describe('the poller', () => {
  let daemon: Daemon;
  let host: DidWebHost;
  beforeAll(async () => {
    host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
    daemon = await start({ SVC_ADMIN_TOKEN: TOKEN, SVC_MONITOR_PERIOD: '1' }, [], undefined, host);
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
    await host?.close();
  });

  it('checks a new watch by itself within a pass (SVC_MONITOR_PERIOD=1), and not again within its interval', async () => {
    const send = sender(() => daemon);
    const did = host.did('polled');
    host.publish(did);
    const { watch } = expectJson(await send('POST', '/v1/monitoring/watches', { body: { did, webhookUrl: HOOK, intervalSeconds: 60 } }), 201);
    let seen: { lastCheckedAt: string | null; lastStatus: string | null } = { lastCheckedAt: null, lastStatus: null };
    await until(
      'the poller checked the watch',
      async () => {
        seen = expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches.find((w: { id: string }) => w.id === watch.id);
        return seen.lastStatus === 'RESOLVED';
      },
      15_000,
    );
    // Two more passes: the watch is not due again for 60 s, so it is not checked again.
    await new Promise((r) => setTimeout(r, 2_500));
    const later = expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches.find((w: { id: string }) => w.id === watch.id);
    expect(later.lastCheckedAt).toBe(seen.lastCheckedAt);
    expect(expectJson(await send('GET', '/v1/monitoring/events'), 200).events).toEqual([]);
  }, 30_000);
});
