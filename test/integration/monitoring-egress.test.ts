/**
 * The egress policy at every delivery, not only at registration: a webhook host whose DNS
 * changes to a blocked address after the watch was registered is not contacted — the attempt
 * fails with EGRESS_BLOCKED and the event goes to RETRY. The daemon's own delivery code
 * (poller.ts deliverDue) over its own storage slot, on both engines, with the Runtime's DNS
 * injected (a table the test changes) and a real HTTPS receiver on loopback.
 */
import { watchWithChanges } from '../support/watch-records.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_POOL } from '../../src/net/fetch.js';
import { systemClock } from '../../src/runtime/node.js';
import { Capacity } from '../../src/server/capacity.js';
import type { ServerContext } from '../../src/server/context.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { deliverDue } from '../../src/server/jobs/poller.js';
import { StorageSlot } from '../../src/server/storage.js';
import { countingReceiver, startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createTestCa } from '../support/pki.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';
import { shiftedClock, testRuntime } from '../support/runtime.js';

const HOST = 'hooks.receiver.test';

function egressSuite(
  engine: string,
  describeEngine: (name: string, fn: () => void) => void,
  open: () => Promise<{ target: string; done: () => Promise<void> }>,
) {
  describeEngine(`deliveries pass the egress policy again (${engine})`, () => {
    const ca = createTestCa();
    let receiver: TestHttpsServer;
    let received: () => number;
    let opened: { target: string; done: () => Promise<void> };
    beforeAll(async () => {
      receiver = await startHttpsServer({ cert: ca.issue({ dnsNames: [HOST], ipAddresses: ['127.0.0.1'] }), ca });
      received = countingReceiver(receiver, '/hook');
      opened = await open();
    });
    afterAll(async () => {
      await receiver?.close();
      await opened?.done();
    });

    it('a host that now resolves to a blocked address is not contacted: EGRESS_BLOCKED, RETRY', async () => {
      // The test's DNS: the receiver's name points at loopback (allowed here), then at 10.0.0.7.
      const dns: Record<string, string> = { [HOST]: '127.0.0.1' };
      const lookup = async (host: string) => {
        const address = dns[host];
        if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        return [{ address, family: 4 as const }];
      };
      const clock = shiftedClock(systemClock);
      const runtime = testRuntime(clock, { allow: ['127.0.0.0/8'], trustAnchors: [ca.certPem], lookup, connectTo: () => receiver.port });
      const storage = new StorageSlot(opened.target, false);
      await storage.open();
      Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
      const ctx: ServerContext = {
        runtime,
        storage,
        profile: 'direct',
        limits: DEFAULT_LIMITS,
        capacity: new Capacity(8, 8),
        startedAt: new Date(),
        draining: false,
        active: 0,
      };
      try {
        const store = storage.store!;
        await runtime.net.checkDestination(`https://${HOST}/hook`, 'webhook');
        const { watch, record } = await watchWithChanges(store, HOST, 'whsec_ZWdyZXNz');
        expect((await record(0)).outcome).toBe('recorded');
        expect(await deliverDue(ctx)).toBe(1);
        expect(received()).toBe(1);

        dns[HOST] = '10.0.0.7';
        // The fetcher keeps a name's addresses a short while; past that, the new answer is checked.
        clock.advance(CONNECTION_POOL.dnsTtlMs);
        const second = await record(1);
        expect(second.outcome).toBe('recorded');
        expect(await deliverDue(ctx)).toBe(1);
        expect(received()).toBe(1);
        const events = await store.monitorEvents.list({ watchId: watch.id, limit: 10 });
        expect(events[0]).toMatchObject({ deliveryStatus: 'RETRY', attempts: 1, lastError: expect.stringMatching(/^EGRESS_BLOCKED: /) });
        expect(events[1]).toMatchObject({ deliveryStatus: 'DELIVERED' });
        await expect(runtime.net.checkDestination(`https://${HOST}/hook`, 'webhook')).rejects.toMatchObject({ code: 'EGRESS_BLOCKED' });
      } finally {
        await storage.close();
      }
    });
  });
}

egressSuite('SQLite', describe, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-egress-'));
  return { target: path.join(dir, 'svc.db'), done: async () => rmSync(dir, { recursive: true, force: true }) };
});
egressSuite('PostgreSQL', describePostgres, async () => {
  const database = await freshDatabase();
  return { target: database.url, done: database.drop };
});
