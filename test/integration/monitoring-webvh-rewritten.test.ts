/**
 * identity.history.rewritten end to end, on both engines: a loopback HTTPS host serves a 5-entry
 * did:webvh log; an operator watch on it, with its webhook on a real receiver, keeps the log at its
 * first check; the host replaces entry 3 (re-signed, valid on its own) and the next check's event
 * reaches the receiver, signed in both schemes, naming versionId 3 and both entry hashes; a further
 * check does not send it again; a log that merely grows (entry 6) sends no rewrite. The daemon's
 * own check and delivery code (poller.ts checkWatch, deliverDue) over its storage slot.
 */
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../src/client/webhooks.js';
import { Capacity } from '../../src/server/capacity.js';
import type { ServerContext } from '../../src/server/context.js';
import { checkWatch, deliverDue } from '../../src/server/jobs/poller.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { StorageSlot } from '../../src/server/storage.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { startDidWebHost, tableLookup, type DidWebHost, FAR_FROM_EXPIRY_DAYS } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { describePostgres } from '../support/postgres.js';
import { fixedClock, testRuntime, type TestClock } from '../support/runtime.js';
import { generateTestKey, type TestKey } from '../support/signing.js';
import { createWebvhLog, type WebvhTestLog } from '../support/webvh-log.js';

const SECRET = `whsec_${Buffer.from('rewritten-event-secret-32-bytes!').toString('base64')}`;

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: string;
}

let host: DidWebHost;
const deliveries: Delivery[] = [];

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: ['example.com', 'hooks.example.com'], leafDays: FAR_FROM_EXPIRY_DAYS });
  host.server.route('/hook', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204);
      res.end();
    });
  });
});
afterAll(async () => {
  await host.close();
});

function publish(text: string): void {
  host.server.route('/.well-known/did.jsonl', raw(text, { contentType: 'text/jsonl' }));
  host.server.route('/.well-known/did-witness.json', raw('not found', { status: 404 }));
}

/** A log of `n` entries by `key`; entry `variant` (when given) carries another document. */
function logOf(key: TestKey, n: number, variant?: number): WebvhTestLog {
  const log = createWebvhLog({ key });
  for (let i = 2; i <= n; i++) {
    const aka = i === variant ? `https://example.com/rewritten-${i}` : `https://example.com/v${i}`;
    log.append({ state: (d) => ({ ...d, alsoKnownAs: [aka] }) });
  }
  return log;
}

function engineSuite(open: () => Promise<TestDatabase>): void {
  let database: TestDatabase;
  let storage: StorageSlot;
  let clock: TestClock;
  let ctx: ServerContext;

  beforeAll(async () => {
    database = await open();
    storage = new StorageSlot(database.target, false);
    await storage.open();
    // The wall clock starts now (receivers check the signature's timestamp against theirs) and is
    // moved past each watch's interval between checks.
    clock = fixedClock(new Date().toISOString());
    const runtime = testRuntime(clock, {
      allow: ['127.0.0.0/8'],
      trustAnchors: [host.ca.certPem],
      lookup: tableLookup({ 'example.com': ['127.0.0.1'], 'hooks.example.com': ['127.0.0.1'] }),
      connectTo: (_h, port) => (port === 443 ? host.server.port : undefined),
    });
    Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
    ctx = { runtime, storage, profile: 'direct', limits: DEFAULT_LIMITS, capacity: new Capacity(8, 8), startedAt: new Date(), draining: false, active: 0 };
  });
  afterAll(async () => {
    await storage?.close();
    await database?.done();
  });

  async function watch(did: string): Promise<number> {
    const added = await storage.store!.watches.add(
      { did, webhookUrl: 'https://hooks.example.com/hook', secret: SECRET, intervalSeconds: 60, createdAt: new Date().toISOString().slice(0, 19) + 'Z' },
      10,
    );
    if (added === 'full') throw new Error('no room');
    return added.id;
  }

  /** One check of the watch, then the due deliveries; returns what the receiver got for this DID meanwhile. */
  async function checkAndDeliver(watchId: number, did: string) {
    clock.advance(61_000);
    const before = deliveries.length;
    const report = await checkWatch(ctx, (await storage.store!.watches.forCheck(watchId))!);
    expect(report.outcome).toBe('recorded');
    await deliverDue(ctx);
    return deliveries.slice(before).filter((d) => JSON.parse(d.body).did === did);
  }

  const types = (got: Delivery[]) => got.map((d) => JSON.parse(d.body).type as string);

  it('a rewritten entry 3 is delivered once as identity.history.rewritten, signed, naming versionId 3 and both entry hashes', async () => {
    const key = generateTestKey('EdDSA');
    const original = logOf(key, 5);
    publish(original.text());
    const watchId = await watch(original.did);

    // The first check keeps the log and only establishes the baseline.
    expect(await checkAndDeliver(watchId, original.did)).toEqual([]);
    const kept = (await storage.store!.keptLogs.get(original.did))!;
    expect(kept.entries).toHaveLength(5);
    const keptHash = kept.entries[2]!.entryHash;

    const rewritten = logOf(key, 5, 3);
    expect(rewritten.did).toBe(original.did);
    publish(rewritten.text());
    const got = await checkAndDeliver(watchId, original.did);
    expect(types(got)[0]).toBe('identity.history.rewritten');
    expect(types(got).filter((t) => t === 'identity.history.rewritten')).toHaveLength(1);
    const delivery = got[0]!;
    const envelope = JSON.parse(delivery.body);
    const detectedAt = (await storage.store!.keptLogs.get(original.did))!.rewrite!.detectedAt;
    expect(envelope).toMatchObject({ id: expect.stringMatching(/^evt_\d+$/), type: 'identity.history.rewritten', did: original.did, watchId: String(watchId) });
    expect(envelope.data.rewrite).toEqual({
      versionNumber: 3,
      kind: 'CHANGED',
      kept: { versionId: original.entries[2]!['versionId'], versionTime: original.entries[2]!['versionTime'], entryHash: keptHash },
      served: {
        versionId: rewritten.entries[2]!['versionId'],
        versionTime: rewritten.entries[2]!['versionTime'],
        entryHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      detectedAt,
    });
    expect(envelope.data.rewrite.served.entryHash).not.toBe(keptHash);
    expect(envelope.data.headline).toContain('the log was rewritten at version 3');
    // Signed as every monitor event: svc's own scheme and Standard Webhooks'.
    expect(delivery.headers['x-svc-event']).toBe('identity.history.rewritten');
    expect(await verifyWebhook(SECRET, delivery.headers as Record<string, string>, delivery.body, { now: clock.now().getTime() / 1000 })).toBe(true);
    expect(await verifyWebhook(SECRET, delivery.headers as Record<string, string>, `${delivery.body} `, { now: clock.now().getTime() / 1000 })).toBe(false);
    expect(new Webhook(SECRET).verify(delivery.body, delivery.headers as Record<string, string>)).toEqual(envelope);
    const events = await storage.store!.monitorEvents.list({ watchId, limit: 10 });
    expect(events.find((e) => e.eventType === 'identity.history.rewritten')).toMatchObject({ deliveryStatus: 'DELIVERED', attempts: 1 });

    // Later checks see the same recorded rewrite: nothing is sent again.
    expect(types(await checkAndDeliver(watchId, original.did))).not.toContain('identity.history.rewritten');
    expect(types(await checkAndDeliver(watchId, original.did))).not.toContain('identity.history.rewritten');
    expect((await storage.store!.monitorEvents.list({ watchId, limit: 50 })).filter((e) => e.eventType === 'identity.history.rewritten')).toHaveLength(1);
  });

  it('a log that grows by entry 6 sends no rewrite event', async () => {
    const log = logOf(generateTestKey('EdDSA'), 5);
    publish(log.text());
    const watchId = await watch(log.did);
    expect(await checkAndDeliver(watchId, log.did)).toEqual([]);
    log.append({ state: (d) => ({ ...d, alsoKnownAs: ['https://example.com/v6'] }) });
    publish(log.text());
    const got = await checkAndDeliver(watchId, log.did);
    // The document changed (entry 6 says so), the history did not.
    expect(types(got)).toEqual(['identity.document.changed']);
    expect(JSON.parse(got[0]!.body).data).not.toHaveProperty('rewrite');
    expect((await storage.store!.keptLogs.get(log.did))!.entries).toHaveLength(6);
  });
}

describe('identity.history.rewritten (SQLite)', () => {
  engineSuite(() => sqliteDatabase('svc-rewritten'));
});
describePostgres('identity.history.rewritten (PostgreSQL)', () => {
  engineSuite(postgresDatabase);
});
