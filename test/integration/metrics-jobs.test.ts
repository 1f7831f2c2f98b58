/**
 * The outcomes counted away from a request's own route (src/server/metrics.ts): webhook attempts
 * by decision with their time, and the events they settle (poller.ts deliverDue, a real HTTPS
 * receiver on loopback, then its host moved to a blocked address: EGRESS_BLOCKED, RETRY); a
 * capacity refusal (serverContext's Capacity); MCP and A2A inspections that could not be made,
 * by problem code. SQLite: the engine does not change what is counted (metrics.test.ts covers both).
 */
import { watchWithChanges } from '../support/watch-records.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectA2a } from '../../src/core/a2a/inspect.js';
import { inspectMcp } from '../../src/core/mcp/inspect.js';
import { CONNECTION_POOL } from '../../src/net/fetch.js';
import { systemClock } from '../../src/runtime/node.js';
import { serverContext } from '../../src/server/context.js';
import { deliverDue } from '../../src/server/jobs/poller.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { PrometheusTelemetry } from '../../src/server/metrics.js';
import { StorageSlot } from '../../src/server/storage.js';
import { countingReceiver, startHttpsServer, type TestHttpsServer } from '../support/https-server.js';
import { createTestCa } from '../support/pki.js';
import { shiftedClock, testRuntime } from '../support/runtime.js';

const HOST = 'hooks.receiver.test';

/** The value of one series of the exposition, or undefined. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics of background work and refusals', () => {
  const ca = createTestCa();
  let receiver: TestHttpsServer;
  let received: () => number;
  let dir: string;

  beforeAll(async () => {
    receiver = await startHttpsServer({ cert: ca.issue({ dnsNames: [HOST], ipAddresses: ['127.0.0.1'] }), ca });
    received = countingReceiver(receiver, '/hook');
    dir = mkdtempSync(path.join(tmpdir(), 'svc-metrics-jobs-'));
  });
  afterAll(async () => {
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts webhook attempts by decision and the events they settle; a capacity refusal; failed inspections', async () => {
    const metrics = new PrometheusTelemetry();
    const dns: Record<string, string> = { [HOST]: '127.0.0.1' };
    const lookup = async (host: string) => {
      const address = dns[host];
      if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return [{ address, family: 4 as const }];
    };
    const clock = shiftedClock(systemClock);
    const base = testRuntime(clock, { allow: ['127.0.0.0/8'], trustAnchors: [ca.certPem], lookup, connectTo: () => receiver.port });
    const runtime = { ...base, telemetry: metrics };
    const storage = new StorageSlot(path.join(dir, 'svc.db'), false, undefined, metrics);
    await storage.open();
    Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
    const ctx = serverContext({
      runtime,
      storage,
      profile: 'direct',
      limits: { ...DEFAULT_LIMITS, maxConcurrency: 1, maxConcurrencyPerClient: 1 },
      telemetry: metrics,
    });
    try {
      const store = storage.store!;
      const { record } = await watchWithChanges(store, HOST, 'whsec_bWV0cmljcw');
      expect((await record(0)).outcome).toBe('recorded');
      expect(await deliverDue(ctx)).toBe(1);
      expect(received()).toBe(1);
      dns[HOST] = '10.0.0.7';
      // The fetcher keeps a name's addresses a short while; past that, the new answer is checked.
      clock.advance(CONNECTION_POOL.dnsTtlMs);
      expect((await record(1)).outcome).toBe('recorded');
      expect(await deliverDue(ctx)).toBe(1);
      expect(received()).toBe(1);

      // Outbound capacity of one slot: a second holder is refused (503 CAPACITY_EXHAUSTED).
      const release = ctx.capacity.acquire('client-a');
      expect(() => ctx.capacity.acquire('client-b')).toThrow(expect.objectContaining({ code: 'CAPACITY_EXHAUSTED' }));
      release();

      await expect(inspectMcp('https://10.0.0.8/mcp', { runtime })).rejects.toMatchObject({ code: 'EGRESS_BLOCKED' });
      await expect(inspectA2a('https://10.0.0.9', { runtime })).rejects.toMatchObject({ code: 'EGRESS_BLOCKED' });

      const text = await metrics.exposition();
      expect(value(text, 'svc_webhook_attempt_duration_seconds_count{decision="DELIVERED",owner="operator"}')).toBe(1);
      expect(value(text, 'svc_webhook_attempt_duration_seconds_count{decision="RETRY",owner="operator"}')).toBe(1);
      expect(value(text, 'svc_monitor_events_total{type="identity.document.changed",state="DELIVERED"}')).toBe(1);
      expect(value(text, 'svc_refusals_total{reason="capacity"}')).toBe(1);
      expect(value(text, 'svc_inspections_total{kind="mcp",status="EGRESS_BLOCKED"}')).toBe(1);
      expect(value(text, 'svc_inspections_total{kind="a2a",status="EGRESS_BLOCKED"}')).toBe(1);
      expect(value(text, 'svc_db_call_duration_seconds_count{operation="monitorEvents.settle",outcome="ok"}')).toBe(2);
      expect(text).not.toContain(HOST);
      expect(text).not.toContain('10.0.0.');
    } finally {
      await storage.close();
    }
  });
});
