/**
 * Behaviour signals on the official MCP reference server (@modelcontextprotocol/server-everything,
 * run as a real process as its README runs it: `PORT=<p> node dist/index.js streamableHttp`),
 * inspected by the CLI (in the test process, svcIn). Of its 13 tools exactly two say what they do
 * in a way a reader must see: `get-env` reads the environment (declared read_only, estimated
 * sensitive_read), and `gzip-file-as-resource` fetches the URL it is given in `data`. The other
 * eleven raise nothing. (The interoperability matrix covers the rest of this server; this file only
 * its signals.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, onlyJson, svcIn } from '../support/cli.js';
import { PEERS, startPeer, type PeerProcess } from '../support/mcp-peers.js';

let peer: PeerProcess;
let url: string;

beforeAll(async () => {
  assertBuilt();
  peer = await startPeer(PEERS.find((p) => p.id === 'server-everything')!);
  url = peer.url;
}, 60_000);

afterAll(async () => {
  await peer?.close();
});

const inspect = (...extra: string[]) => svcIn(['inspect-mcp', url, '--egress-allow', '127.0.0.1/32', '--no-store', ...extra], cleanEnv());

describe('server-everything: behaviour signals of the reference tools', () => {
  it('get-env reads the environment, gzip-file-as-resource fetches URLs; the other eleven tools raise nothing', async () => {
    const r = await inspect('--json');
    expect(r.exitCode).toBe(3);
    const result = onlyJson(r);
    const byName = Object.fromEntries(
      result.tools.map((t: any) => [
        t.name,
        [t.heuristicClass, t.riskSignals.map((s: any) => [s.id, s.location, ...(s.parameter ? [s.parameter] : []), s.detail])],
      ]),
    );
    expect(Object.keys(byName)).toHaveLength(13);
    expect(byName['get-env']).toEqual([
      'sensitive_read',
      [
        ['reads_environment', 'name', 'the words "get env" in the name'],
        ['reads_environment', 'description', 'the words "returns all environment variables"'],
      ],
    ]);
    expect(byName['gzip-file-as-resource']).toEqual([
      'unknown',
      [['fetches_urls', 'parameter', 'data', 'a URL parameter and the words "url … of the file content"']],
    ]);
    for (const [name, [, signals]] of Object.entries(byName) as [string, [string, unknown[]]][]) {
      if (name !== 'get-env' && name !== 'gzip-file-as-resource') expect(signals, name).toEqual([]);
    }

    // The server's claim stays as it sent it, beside svc's estimate.
    const getEnv = result.tools.find((t: any) => t.name === 'get-env');
    expect([getEnv.annotations.readOnlyHint, getEnv.declaredClass, getEnv.heuristicClass]).toEqual([true, 'read_only', 'sensitive_read']);
    expect(result.classCounts.heuristic.sensitive_read).toBe(1);
    expect(result.checks.find((c: any) => c.id === 'inventory').detail).toBe('2 tools of 13 have risk signals: "get-env", "gzip-file-as-resource".');
  });

  it('the text report names the words and shows the excerpt', async () => {
    const r = await inspect();
    expect(r.exitCode).toBe(3);
    const text = r.stdout.replace(/\n {4,}/g, ' ');
    expect(text).toContain('! get-env · reads_environment in the description: the words "returns all environment variables"');
    expect(text).toContain('“Returns all environment variables, helpful for debugging MCP server configurati…”');
    expect(text).toContain('! gzip-file-as-resource · fetches_urls in the parameter data: a URL parameter and the words "url … of the file content"');
  });
});
