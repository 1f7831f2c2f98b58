/**
 * Certificate events end to end, on both engines: a did:web host on loopback HTTPS, its leaf from
 * a throw-away CA expiring 15½ days from now; an operator watch checked by the daemon's own check
 * code (poller.ts checkWatch over its storage slot) with the runtime's clock moved forward — the
 * first check sends one `tls.certificate.expiring` at 30 days, checks before the 14-day mark none,
 * the check 13 days before notAfter one at 14, and the host's certificate replaced one
 * `tls.certificate.changed`. The certificate state round-trips through recordCheck / forCheck on
 * each engine; a project watch (checkProjectWatch, the same observation) and a did:webvh watch get
 * the event too, and both event lists (operator, owner) serialise it.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../src/core/store.js';
import { Capacity } from '../../src/server/capacity.js';
import type { ServerContext } from '../../src/server/context.js';
import { checkProjectWatch, checkWatch } from '../../src/server/jobs/poller.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { StorageSlot } from '../../src/server/storage.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { tableLookup } from '../support/did-web-host.js';
import { json, raw, startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createTestCa, type CertifiedKey, type TestCa } from '../support/pki.js';
import { describePostgres } from '../support/postgres.js';
import { injectedApp } from '../support/injected.js';
import { fixedClock, testRuntime, type TestClock } from '../support/runtime.js';
import { didDocument, generateTestKey } from '../support/signing.js';
import { createWebvhLog } from '../support/webvh-log.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const HOST = 'tls.example';
const DID = `did:web:${HOST}`;
const SECRET = `whsec_${Buffer.from('tls-event-secret-32-bytes-long!!').toString('base64')}`;

/** Whole seconds (certificates carry no fractions). */
const seconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);
const rfc3339 = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;
const fingerprint = (leaf: CertifiedKey) => new X509Certificate(leaf.certPem).fingerprint256;

let ca: TestCa;
const document = didDocument(DID, generateTestKey('EdDSA'));

/** A host serving the DID document with `leaf`. */
async function serve(leaf: CertifiedKey): Promise<TestHttpsServer> {
  const server = await startHttpsServer({ cert: leaf, ca });
  server.route('/.well-known/did.json', json(document, { contentType: 'application/did+json' }));
  return server;
}

beforeAll(() => {
  ca = createTestCa('svc tls events CA', { notAfter: new Date(Date.now() + 400 * DAY) });
});

function engineSuite(open: () => Promise<TestDatabase>): void {
  let database: TestDatabase;
  let storage: StorageSlot;
  let clock: TestClock;
  let ctx: ServerContext;
  /** The server port 443 of tls.example reaches (the host's certificate is replaced by moving it). */
  let host: TestHttpsServer;
  let notAfter: Date;
  let first: CertifiedKey;

  beforeAll(async () => {
    database = await open();
    storage = new StorageSlot(database.target, false);
    await storage.open();
    // The runtime's clock starts at the real time (the TLS handshake checks validity on it) and
    // is then moved forward; the handshake never sees the certificate expired.
    const start = seconds(Date.now());
    clock = fixedClock(start.toISOString());
    notAfter = new Date(start.getTime() + 15 * DAY + 12 * HOUR);
    first = ca.issue({ dnsNames: [HOST], notAfter });
    host = await serve(first);
    const runtime = testRuntime(clock, {
      allow: ['127.0.0.0/8'],
      trustAnchors: [ca.certPem],
      lookup: tableLookup({ [HOST]: ['127.0.0.1'] }),
      connectTo: (_h, port) => (port === 443 ? host.port : undefined),
    });
    Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
    ctx = { runtime, storage, profile: 'direct', limits: DEFAULT_LIMITS, capacity: new Capacity(8, 8), startedAt: new Date(), draining: false, active: 0 };
  });
  afterAll(async () => {
    await host?.close();
    await storage?.close();
    await database?.done();
  });

  let watchId: number;
  let seen = 0;

  /** One check of the operator watch at the clock's time; returns the events it wrote, oldest first. */
  async function check(): Promise<MonitorEvent[]> {
    const report = await checkWatch(ctx, (await storage.store!.watches.forCheck(watchId))!);
    expect(report.outcome).toBe('recorded');
    const events = (await storage.store!.monitorEvents.list({ watchId, limit: 100 })).reverse();
    const fresh = events.slice(seen);
    seen = events.length;
    return fresh;
  }
  const types = (events: MonitorEvent[]) => events.map((e) => e.eventType);

  it('15½ days from expiry: one expiring event at 30 days on the first check, none again until the 14-day one', async () => {
    const added = await storage.store!.watches.add(
      { did: DID, webhookUrl: `https://hooks.${HOST}/hook`, secret: SECRET, intervalSeconds: 60, createdAt: rfc3339(clock.now()) },
      10,
    );
    if (added === 'full') throw new Error('no room');
    watchId = added.id;

    const [expiring, ...others] = await check();
    expect(others).toEqual([]);
    expect(expiring).toMatchObject({ eventType: 'tls.certificate.expiring', did: DID, deliveryStatus: 'PENDING' });
    expect(expiring!.data).toEqual({
      host: HOST,
      certificate: {
        sha256Fingerprint: fingerprint(first),
        subject: 'CN=tls.example, O=svc tests',
        issuer: 'CN=svc tls events CA, O=svc tests',
        notAfter: rfc3339(notAfter),
      },
      daysLeft: 15,
      thresholdDays: 30,
      expired: false,
    });
    // The state round-trips through the store: the leaf, its notAfter, the threshold announced.
    expect((await storage.store!.watches.forCheck(watchId))!.previous!.tls).toEqual({
      leafSha256: fingerprint(first),
      notAfter: rfc3339(notAfter),
      announcedDays: 30,
    });

    // Later checks before the 14-day mark: nothing (15 whole days left, 12 h later).
    clock.advance(6 * HOUR);
    expect(await check()).toEqual([]);
    clock.advance(6 * HOUR);
    expect(await check()).toEqual([]);

    // 13 days before notAfter: the 14-day threshold, once.
    clock.advance(notAfter.getTime() - 13 * DAY - clock.now().getTime());
    const crossed = await check();
    expect(types(crossed)).toEqual(['tls.certificate.expiring']);
    expect(crossed[0]!.data).toMatchObject({ daysLeft: 13, thresholdDays: 14 });
    clock.advance(HOUR);
    expect(await check()).toEqual([]);
    expect((await storage.store!.watches.forCheck(watchId))!.previous!.tls).toMatchObject({ announcedDays: 14 });
  });

  it("the host's certificate replaced: one tls.certificate.changed, the new leaf's cycle starting afresh", async () => {
    const renewedAfter = seconds(Date.now() + 90 * DAY);
    const renewed = ca.issue({ dnsNames: [HOST], notAfter: renewedAfter });
    const old = host;
    host = await serve(renewed);
    await old.close();

    const got = await check();
    expect(types(got)).toEqual(['tls.certificate.changed']);
    expect(got[0]!.data).toEqual({
      host: HOST,
      from: { sha256Fingerprint: fingerprint(first), notAfter: rfc3339(notAfter) },
      to: {
        sha256Fingerprint: fingerprint(renewed),
        subject: 'CN=tls.example, O=svc tests',
        issuer: 'CN=svc tls events CA, O=svc tests',
        notAfter: rfc3339(renewedAfter),
      },
    });
    expect((await storage.store!.watches.forCheck(watchId))!.previous!.tls).toEqual({
      leafSha256: fingerprint(renewed),
      notAfter: rfc3339(renewedAfter),
      announcedDays: null,
    });
    clock.advance(HOUR);
    expect(await check()).toEqual([]);
  });

  it('a check that fails carries the certificate state over, and the recovery with the same leaf sends no certificate event', async () => {
    const before = (await storage.store!.watches.forCheck(watchId))!.previous!.tls;
    host.route('/.well-known/did.json', json({ error: 'gone' }, { status: 500 }));
    clock.advance(HOUR);
    expect(types(await check())).toEqual(['identity.resolution.failed']);
    expect((await storage.store!.watches.forCheck(watchId))!.previous!.tls).toEqual(before);
    host.route('/.well-known/did.json', json(document, { contentType: 'application/did+json' }));
    clock.advance(HOUR);
    expect(types(await check())).toEqual(['identity.resolution.recovered']);
  });

  it('a project watch is observed the same way: its first check records the expiring event and the certificate state', async () => {
    const short = ca.issue({ dnsNames: [HOST], notAfter: seconds(clock.now().getTime() + 2 * DAY + HOUR) });
    const old = host;
    host = await serve(short);
    await old.close();
    const store = storage.store!;
    const owner = 'did:web:owner.example';
    const tenant = await store.accounts.createTenant({ name: 'tls tenant', owner });
    const project = (await store.accounts.createProject(tenant.id, { name: 'tls' })).id;
    const added = await store.customerMonitor.addWatch(owner, project, DID, 10);
    if (added === 'full') throw new Error('no room');
    const { claims } = await store.customerMonitor.claimDue(10, 100);
    expect(claims).toHaveLength(1);
    expect(await checkProjectWatch(ctx, claims[0]!)).toMatchObject({ outcome: 'recorded' });
    const events = await store.customerMonitor.listEvents(owner, project, Number(added.watch.id.replace('wch_', '')), 100);
    if (events === 'too-many') throw new Error('too many');
    expect(events.map((e) => [e.type, e.data['thresholdDays'], e.data['daysLeft']])).toEqual([['tls.certificate.expiring', 3, 2]]);
    const rows = await database.sql(
      `SELECT tls_leaf_sha256, tls_not_after, tls_announced_days FROM monitor_baselines WHERE watch_id = ${Number(added.watch.id.replace('wch_', ''))}`,
    );
    expect(rows.map((r) => [r['tls_leaf_sha256'], r['tls_not_after'], Number(r['tls_announced_days'])])).toEqual([[fingerprint(short), expect.any(String), 3]]);

    // Both views list the certificate events with their data as recorded (the response schemas carry them).
    const api = await injectedApp(database.target);
    try {
      const operator = await api.operator('GET', `/v1/monitoring/events?watchId=${watchId}`);
      expect(operator.statusCode).toBe(200);
      const listed = (operator.json() as { events: Array<{ eventType: string; data: Record<string, unknown> }> }).events;
      const stored = await storage.store!.monitorEvents.list({ watchId, limit: 100 });
      expect(listed.map((e) => [e.eventType, e.data])).toEqual(stored.map((e) => [e.eventType, e.data]));
      expect(listed.map((e) => e.eventType)).toContain('tls.certificate.changed');
      const owned = await api.session(owner, 'GET', `/v1/session/projects/${project}/watches/${added.watch.id}/events`);
      expect(owned.statusCode).toBe(200);
      expect(JSON.stringify(owned.json())).toContain('"thresholdDays":3');
    } finally {
      await api.close();
    }
  });

  it('a did:webvh watch: the certificate of the host serving the log counts the same way', async () => {
    const log = createWebvhLog({ domain: HOST });
    host.route('/.well-known/did.jsonl', raw(log.text(), { contentType: 'text/jsonl' }));
    host.route('/.well-known/did-witness.json', raw('not found', { status: 404 }));
    const added = await storage.store!.watches.add(
      { did: log.did, webhookUrl: `https://hooks.${HOST}/hook`, secret: SECRET, intervalSeconds: 60, createdAt: rfc3339(clock.now()) },
      10,
    );
    if (added === 'full') throw new Error('no room');
    expect(await checkWatch(ctx, (await storage.store!.watches.forCheck(added.id))!)).toMatchObject({ outcome: 'recorded' });
    const events = await storage.store!.monitorEvents.list({ watchId: added.id, limit: 10 });
    expect(events.map((e) => [e.eventType, e.did, e.data['thresholdDays']])).toEqual([['tls.certificate.expiring', log.did, 3]]);
    expect((await storage.store!.watches.forCheck(added.id))!.previous!.tls).toMatchObject({ announcedDays: 3 });
  });
}

describe('certificate events on SQLite', () => {
  engineSuite(() => sqliteDatabase('svc-tls-events'));
});

describePostgres('certificate events on PostgreSQL', () => {
  engineSuite(() => postgresDatabase());
});
