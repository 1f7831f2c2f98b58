/**
 * How long one webhook delivery attempt may take: WEBHOOK_ATTEMPT_TIMEOUT_MS (45 s), not the 15 s
 * (10 s to the headers) of a resolution's fetch. The daemon's own delivery code (poller.ts
 * deliverDue over its storage slot, on both engines, and deliverCustomer) against a real HTTPS
 * receiver on loopback: one that answers after 20 s is delivered at the first attempt; one that
 * never answers is cut at the bound (injected small here) and retried.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerDeliveryClaim } from '../../src/core/monitoring/customer-store.js';
import type { Runtime } from '../../src/core/runtime.js';
import { systemClock } from '../../src/runtime/node.js';
import { Capacity } from '../../src/server/capacity.js';
import type { ServerContext } from '../../src/server/context.js';
import { deliverCustomer, deliverDue } from '../../src/server/jobs/poller.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { StorageSlot } from '../../src/server/storage.js';
import { startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createTestCa, type TestCa } from '../support/pki.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';
import { testRuntime } from '../support/runtime.js';

const HOST = 'hooks.receiver.test';
const URL_OF = (p: string) => `https://${HOST}${p}`;

/** A receiver on `path` that answers 204 after `delayMs` (never, when null); counts the requests it got. */
function slowReceiver(server: TestHttpsServer, path: string, delayMs: number | null): () => number {
  let received = 0;
  server.route(path, (req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      if (delayMs === null) return;
      setTimeout(() => {
        res.writeHead(204);
        res.end();
      }, delayMs);
    });
  });
  return () => received;
}

function runtimeFor(ca: TestCa, receiver: TestHttpsServer): Runtime {
  const lookup = async () => [{ address: '127.0.0.1', family: 4 as const }];
  return testRuntime(systemClock, { allow: ['127.0.0.0/8'], trustAnchors: [ca.certPem], lookup, connectTo: () => receiver.port });
}

function contextOf(runtime: Runtime, storage: StorageSlot | undefined, webhookAttemptMs?: number): ServerContext {
  if (storage) Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
  return {
    runtime,
    storage: storage ?? new StorageSlot(':memory:', false),
    profile: 'direct',
    limits: DEFAULT_LIMITS,
    capacity: new Capacity(8, 8),
    startedAt: new Date(),
    draining: false,
    active: 0,
    ...(webhookAttemptMs !== undefined ? { webhookAttemptMs } : {}),
  };
}

/** One operator watch with one undelivered event for `webhookPath`. */
async function watchWithEvent(storage: StorageSlot, webhookPath: string): Promise<number> {
  const store = storage.store!;
  const watch = await store.watches.add(
    { did: 'did:web:watched.example', webhookUrl: URL_OF(webhookPath), secret: 'whsec_YXR0ZW1wdA==', intervalSeconds: 60, createdAt: '2026-11-27T00:00:00Z' },
    10,
  );
  if (watch === 'full') throw new Error('no room');
  const input = (await store.watches.forCheck(watch.id))!;
  const recorded = await store.watches.recordCheck({
    watchId: watch.id,
    revision: input.watch.revision,
    outcome: {
      status: 'RESOLVED',
      documentHash: 'h0',
      fingerprintProfile: null,
      domainBindingStatus: null,
      document: { id: 'did:web:watched.example' },
      problem: null,
      checkedAt: '2026-11-27T00:00:00Z',
      tls: null,
    },
    events: [{ type: 'identity.document.changed', data: { fromHash: null, toHash: 'h0', domainBinding: null, diff: null, headline: 'h', problem: null } }],
    maxEvents: 10_000,
    maxPayloadBytes: 256 * 1024,
  });
  expect(recorded.outcome).toBe('recorded');
  return watch.id;
}

function customerClaim(webhookPath: string): CustomerDeliveryClaim {
  return {
    id: 'dlv_1',
    eventId: 'evt_1',
    url: URL_OF(webhookPath),
    body: '{"id":"evt_1"}',
    signature: 't=1,v1=00',
    active: true,
    attempt: 1,
    leaseExpiresAt: '2026-11-27T00:02:00Z',
  };
}

const sqliteTarget = async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-attempt-'));
  return { target: path.join(dir, 'svc.db'), done: async () => rmSync(dir, { recursive: true, force: true }) };
};

function hangingSuite(
  engine: string,
  describeEngine: (name: string, fn: () => void) => void,
  open: () => Promise<{ target: string; done: () => Promise<void> }>,
) {
  describeEngine(`a webhook attempt is cut at its own bound (${engine})`, () => {
    const ca = createTestCa();
    let receiver: TestHttpsServer;
    let opened: { target: string; done: () => Promise<void> };
    beforeAll(async () => {
      receiver = await startHttpsServer({ cert: ca.issue({ dnsNames: [HOST], ipAddresses: ['127.0.0.1'] }), ca });
      opened = await open();
    });
    afterAll(async () => {
      await receiver?.close();
      await opened?.done();
    });

    it('a receiver that never answers: the attempt ends at the bound with UPSTREAM_UNAVAILABLE, RETRY', async () => {
      const received = slowReceiver(receiver, '/hang', null);
      const storage = new StorageSlot(opened.target, false);
      await storage.open();
      try {
        const ctx = contextOf(runtimeFor(ca, receiver), storage, 1_500);
        const watchId = await watchWithEvent(storage, '/hang');
        expect(await deliverDue(ctx)).toBe(1);
        expect(received()).toBe(1);
        const [event] = await storage.store!.monitorEvents.list({ watchId, limit: 10 });
        expect(event).toMatchObject({
          deliveryStatus: 'RETRY',
          attempts: 1,
          lastError: expect.stringMatching(/^UPSTREAM_UNAVAILABLE: .* within the 1500 ms limit of a webhook attempt\.$/),
        });
      } finally {
        await storage.close();
      }
    });
  });
}

hangingSuite('SQLite', describe, sqliteTarget);
hangingSuite('PostgreSQL', describePostgres, async () => {
  const database = await freshDatabase();
  return { target: database.url, done: database.drop };
});

describe('webhook attempts: 45 s each, separately from the fetch limits of resolution', () => {
  const ca = createTestCa();
  let receiver: TestHttpsServer;
  beforeAll(async () => {
    receiver = await startHttpsServer({ cert: ca.issue({ dnsNames: [HOST], ipAddresses: ['127.0.0.1'] }), ca });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('a customer webhook that never answers: cut at the bound, retried', async () => {
    const received = slowReceiver(receiver, '/customer-hang', null);
    const result = await deliverCustomer(contextOf(runtimeFor(ca, receiver), undefined, 1_500), customerClaim('/customer-hang'));
    expect(received()).toBe(1);
    expect(result).toMatchObject({
      delivered: false,
      retryAfterSeconds: 60,
      error: expect.stringMatching(/^UPSTREAM_UNAVAILABLE: .* within the 1500 ms limit of a webhook attempt\.$/),
    });
  });

  it('a receiver that answers after 20 s gets one successful attempt (operator watch and customer webhook alike)', async () => {
    const operator = slowReceiver(receiver, '/slow', 20_000);
    const customer = slowReceiver(receiver, '/customer-slow', 20_000);
    const { target, done } = await sqliteTarget();
    const storage = new StorageSlot(target, false);
    await storage.open();
    try {
      const watchId = await watchWithEvent(storage, '/slow');
      const [count, customerResult] = await Promise.all([
        deliverDue(contextOf(runtimeFor(ca, receiver), storage)),
        deliverCustomer(contextOf(runtimeFor(ca, receiver), undefined), customerClaim('/customer-slow')),
      ]);
      expect(count).toBe(1);
      expect(customerResult).toMatchObject({ delivered: true, status: 204 });
      expect([operator(), customer()]).toEqual([1, 1]);
      const [event] = await storage.store!.monitorEvents.list({ watchId, limit: 10 });
      expect(event).toMatchObject({ deliveryStatus: 'DELIVERED', attempts: 1 });
    } finally {
      await storage.close();
      await done();
    }
  }, 60_000);
});
