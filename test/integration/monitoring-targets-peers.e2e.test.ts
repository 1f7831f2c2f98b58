/**
 * MCP watches on the MCP servers of other implementations, each a real child process on
 * 127.0.0.1 (test/support/mcp-peers.ts: the reference server-everything, fastmcp, mcp-framework,
 * tmcp, mcp-lite; plain HTTP, which the operator's egress allowance admits): the daemon's own check
 * route inspects each twice. The first check is the watch's baseline; the second, a new session
 * with the same server, emits nothing — no implementation's session ids, ordering or paging make a
 * change out of nothing — and the watch records the inventory it saw (RESOLVED).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerCaller, expectJson, expectProblem } from '../support/daemon-client.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { FAR_FROM_EXPIRY_DAYS, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { startLiveDaemon, type LiveDaemon } from '../support/live-daemon.js';
import { PEERS, startPeer, type PeerProcess } from '../support/mcp-peers.js';

const TOKEN = 'mcp-peer-watches-token-0123456789';

describe('MCP watches on other implementations run as processes', () => {
  let opened: TestDatabase;
  let host: DidWebHost;
  let daemon: LiveDaemon;
  const peers: PeerProcess[] = [];
  beforeAll(async () => {
    opened = await sqliteDatabase('svc-mcp-peer-watches-');
    host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
    daemon = await startLiveDaemon({ target: opened.target, host, env: { SVC_ADMIN_TOKEN: TOKEN } });
    const started = await Promise.allSettled(PEERS.map((spec) => startPeer(spec)));
    for (const s of started) if (s.status === 'fulfilled') peers.push(s.value);
    const failed = started.filter((s) => s.status === 'rejected');
    if (failed.length > 0) throw (failed[0] as PromiseRejectedResult).reason;
  }, 90_000);
  afterAll(async () => {
    await Promise.all(peers.map((p) => p.close()));
    await daemon?.stop();
    await host?.close();
    await opened?.done();
  });

  const send = bearerCaller(() => daemon.url, TOKEN);

  it('plain http is taken only from an address the operator allowed: a public one is EGRESS_BLOCKED, an https-only purpose stays so', async () => {
    const publicHttp = expectProblem(
      await send('POST', '/v1/monitoring/watches', { mcpEndpoint: 'http://93.184.216.34/mcp', webhookUrl: `${host.server.origin}/hooks/x` }),
      403,
      'EGRESS_BLOCKED',
    );
    expect(publicHttp.detail).toMatch(/public address; svc fetches plain http only from addresses the operator allowed/);
    // A webhook is https only, whatever its address.
    const plainHook = expectProblem(
      await send('POST', '/v1/monitoring/watches', { mcpEndpoint: peers[0]!.url, webhookUrl: 'http://127.0.0.1:9/hook' }),
      403,
      'EGRESS_BLOCKED',
    );
    expect(plainHook.detail).toMatch(/not https/);
  });

  for (const spec of PEERS) {
    it(`${spec.id}: the first check is the baseline, the second (a new session) emits nothing`, async () => {
      const peer = peers.find((p) => p.spec.id === spec.id)!;
      const created = expectJson(
        await send('POST', '/v1/monitoring/watches', { mcpEndpoint: peer.url, webhookUrl: `${host.server.origin}/hooks/${spec.id}` }),
        201,
      );
      const id = created.watch.id as string;
      expect(created.watch).toMatchObject({ kind: 'mcp', mcpEndpoint: peer.url });
      for (let n = 0; n < 2; n++) expect(expectJson(await send('POST', `/v1/monitoring/watches/${id}/check`), 200).changed).toBe(false);
      expect(expectJson(await send('GET', `/v1/monitoring/events?watchId=${id}`), 200).events).toEqual([]);
      const watch = (expectJson(await send('GET', '/v1/monitoring/watches'), 200).watches as Array<Record<string, unknown>>).find((w) => w['id'] === id);
      expect(watch?.['lastStatus'], `${spec.id} at ${peer.url}`).toBe('RESOLVED');
      const [baseline] = await opened.sql(
        `SELECT document FROM monitor_baselines WHERE watch_id = ${Number(id)} AND status = 'RESOLVED' ORDER BY revision DESC LIMIT 1`,
      );
      const entry = JSON.parse(String(baseline!['document'])) as { tools: Record<string, unknown> };
      expect(Object.keys(entry.tools).length, `${spec.id} lists tools`).toBeGreaterThan(0);
    }, 60_000);
  }
});
