/**
 * Transport and honest errors, through the CLI (in the test process, svcIn) and a spawned daemon:
 *
 *   - the official SDK 1.x server WITH an event store (resumability: every SSE reply opens with a
 *     priming event — an id and empty data), stateful and stateless, is INSPECTED with the tools
 *     the SDK's own client lists; so are a stateless JSON-response server and the 2.x server;
 *   - endpoints that are not MCP (an HTML page, a JSON API, a TCP reset, a 500) are a service
 *     problem naming what was found — UPSTREAM_UNAVAILABLE, exit 4, HTTP 502 — never a DID code.
 *
 * Servers run on a plain-http loopback host (operator-allowed), so the SDK client reaches them
 * with Node's own fetch, as a user's would.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, parseCliError, svcIn } from '../support/cli.js';
import type { Daemon } from '../support/daemon.js';
import { call, expectJson, expectProblem, startDaemonFor } from '../support/daemon-client.js';
import type { DidWebHost } from '../support/did-web-host.js';
import { json, raw } from '../support/https-server.js';
import { PLAIN_TOOLS, startPlainHost, startSdk1Server, startSdk2Server, type McpTestServer } from '../support/mcp-servers.js';

let host: DidWebHost;
let daemon: Daemon;
const servers: Record<string, McpTestServer> = {};

beforeAll(async () => {
  assertBuilt();
  host = await startPlainHost();
  servers['eventStoreStateful'] = await startSdk1Server({ host, path: '/es-stateful', tools: PLAIN_TOOLS, stateful: true, json: false, eventStore: true });
  servers['eventStoreStateless'] = await startSdk1Server({ host, path: '/es-stateless', tools: PLAIN_TOOLS, stateful: false, json: false, eventStore: true });
  servers['statelessJson'] = await startSdk1Server({ host, path: '/json', tools: PLAIN_TOOLS, stateful: false, json: true });
  servers['sdk2'] = await startSdk2Server({ host, path: '/v2', tools: PLAIN_TOOLS });
  host.server.route('/html', raw('<!doctype html><title>Welcome</title><p>Hello</p>', { status: 200, contentType: 'text/html; charset=utf-8' }));
  host.server.route('/api', json({ status: 'ok', version: 3 }));
  host.server.route('/reset', (req: IncomingMessage, _res: ServerResponse) => req.socket.destroy());
  host.server.route('/five', raw('upstream exploded', { status: 500, contentType: 'text/plain' }));
  daemon = await startDaemonFor(null, { env: { SVC_EGRESS_ALLOW: '127.0.0.0/8' } });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await Promise.all(Object.values(servers).map((s) => s.close()));
  await host?.close();
});

const cli = (endpoint: string) => svcIn(['inspect-mcp', endpoint, '--egress-allow', '127.0.0.0/8', '--no-store', '--json'], cleanEnv());
const viaDaemon = (endpoint: string) => call(`${daemon.url}/v1/mcp/inspect?${new URLSearchParams({ endpoint }).toString()}`);

/** What the official SDK client lists (name, description, inputSchema), over its own transport. */
async function sdkListing(url: string): Promise<unknown[]> {
  const client = new Client({ name: 'sdk-reference', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const { tools } = await client.listTools();
    return tools.map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema }));
  } finally {
    await client.close();
  }
}

const svcListing = (result: { tools: Array<{ name: string; description: string | null; inputSchema: unknown }> }) =>
  result.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));

describe('real SDK servers, priming events included: INSPECTED through the CLI and the daemon', () => {
  it.each(['eventStoreStateful', 'eventStoreStateless', 'statelessJson'])('SDK 1.x %s: the tools the SDK client lists', async (name) => {
    const server = servers[name]!;
    const reference = await sdkListing(server.url);
    expect(reference.length).toBe(PLAIN_TOOLS.length);

    const run = await cli(server.url);
    expect([0, 3], run.stderr).toContain(run.exitCode);
    const fromCli = JSON.parse(run.stdout);
    expect(fromCli.status).toBe('INSPECTED');
    expect(svcListing(fromCli)).toEqual(reference);

    const fromDaemon = expectJson(await viaDaemon(server.url), 200);
    expect(fromDaemon.status).toBe('INSPECTED');
    expect(svcListing(fromDaemon)).toEqual(reference);
    expect(fromDaemon.inventoryHash).toBe(fromCli.inventoryHash);
  });

  it('the event-store server really sends priming events (so the case above is the one from the field)', async () => {
    const server = servers['eventStoreStateless']!;
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
      }),
    });
    const text = await res.text();
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(text).toMatch(/^id: [^\n]+\ndata: \n\n/);
  });

  it('SDK 2.x (2026-07-28) is inspected alike', async () => {
    const run = await cli(servers['sdk2']!.url);
    // 3: plain http is a transport WARN.
    expect(run.exitCode, run.stderr).toBe(3);
    expect(JSON.parse(run.stdout).tools.map((t: { name: string }) => t.name)).toEqual(PLAIN_TOOLS.map((t) => t.name));
    expect(expectJson(await viaDaemon(servers['sdk2']!.url), 200).status).toBe('INSPECTED');
  });
});

describe('endpoints that are not MCP: a service problem naming what was found, never a DID code', () => {
  const cases: Array<[string, RegExp]> = [
    ['/html', /did not answer initialize as an MCP server: a text\/html reply that is not JSON-RPC \(HTTP 200\)/],
    ['/api', /did not answer initialize as an MCP server: a JSON reply that is not JSON-RPC \(HTTP 200, no "jsonrpc" member\)/],
    ['/reset', /Fetching the MCP server\/discover reply from localhost:\d+ failed/],
    ['/five', /The MCP server at localhost:\d+ failed: server\/discover was answered 500/],
  ];

  it.each(cases)('%s → CLI exit 4 and daemon 502, UPSTREAM_UNAVAILABLE', async (path, detail) => {
    const url = `${host.server.origin}${path}`;
    // The text form: one error block on stderr; --json: the problem document on stdout.
    const text = await svcIn(['inspect-mcp', url, '--egress-allow', '127.0.0.0/8', '--no-store'], cleanEnv());
    expect({ exitCode: text.exitCode, stdout: text.stdout }).toEqual({ exitCode: 4, stdout: '' });
    const error = parseCliError(text.stderr);
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.detail).toMatch(detail);
    // A page or another API at the URL: the hint says to check it; a reset or a 500 is the server's.
    const wrongUrl = path === '/html' || path === '/api';
    expect(text.stderr.includes('hint: check the endpoint URL: something answered there, but not an MCP server'), text.stderr).toBe(wrongUrl);
    const run = await cli(url);
    expect(run.exitCode).toBe(4);
    expect(JSON.parse(run.stdout)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', status: 502, detail: expect.stringMatching(detail) });

    const problem = expectProblem(await viaDaemon(url), 502, 'UPSTREAM_UNAVAILABLE');
    expect(problem.detail).toMatch(detail);
  });
});
