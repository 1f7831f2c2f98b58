/**
 * Proves the MCP test servers (test/support/mcp-servers.ts) with plain undici `fetch` over the
 * hosts' test CAs — no svc code involved. These are the wire facts the MCP inspector's tests
 * build on.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, fetch } from 'undici';
import { startDidWebHost } from '../support/did-web-host.js';
import {
  manyTools,
  PLAIN_TOOLS,
  POISONED_TOOLS,
  startAuthServer,
  startOversizedServer,
  startPagedServer,
  startSdk1Server,
  startSdk2Server,
  wireTool,
  type McpTestServer,
} from '../support/mcp-servers.js';

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'support-test', version: '0.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modernHeaders = (method: string) => ({ 'mcp-protocol-version': MODERN, 'mcp-method': method });

// One undici Agent per test CA.
const agents = new Map<string, Agent>();
afterAll(async () => {
  await Promise.all([...agents.values()].map((agent) => agent.close()));
});
function agentFor(server: McpTestServer): Agent {
  const ca = server.host.ca.certPem;
  let agent = agents.get(ca);
  if (!agent) agents.set(ca, (agent = new Agent({ connect: { ca } })));
  return agent;
}

interface RpcMessage {
  result?: any;
  error?: { code: number; message: string; data?: unknown };
  id?: unknown;
}

interface Reply {
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
  /** The JSON body, or the first SSE `data:` message with a result or error. */
  message: RpcMessage | null;
}

function parseMessage(contentType: string, text: string): RpcMessage | null {
  if (text === '') return null;
  if (contentType.startsWith('text/event-stream')) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const message = JSON.parse(line.slice(5)) as RpcMessage;
      if ('result' in message || 'error' in message) return message;
    }
    return null;
  }
  return JSON.parse(text) as RpcMessage;
}

async function send(server: McpTestServer, method: string, body?: unknown, headers: Record<string, string> = {}, url = server.url): Promise<Reply> {
  const response = await fetch(url, {
    method,
    dispatcher: agentFor(server),
    headers: {
      accept: 'application/json, text/event-stream',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  return { status: response.status, contentType, headers: response.headers as unknown as Headers, text, message: parseMessage(contentType, text) };
}

const post = (server: McpTestServer, body: unknown, headers: Record<string, string> = {}) => send(server, 'POST', body, headers);
const rpc = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params });
const initialize = (id = 1) => rpc(id, 'initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'support-test', version: '0.0.0' } });
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const isModernCode = (code: number | undefined) => code !== undefined && code <= -32020 && code >= -32022;

describe('SDK 1.x legacy servers', () => {
  it('stateless + JSON: initialize and tools/list answer application/json; tools are the specs byte for byte', async () => {
    const tools = [...PLAIN_TOOLS, { name: 'bare' }];
    const server = await startSdk1Server({ tools, stateful: false, json: true, instructions: 'Plain tools.', serverInfo: { name: 'demo', version: '1.0.0' } });
    try {
      expect(server.url).toBe(`${server.host.server.origin}/mcp`);
      const init = await post(server, initialize());
      expect(init.status).toBe(200);
      expect(init.contentType).toMatch(/^application\/json/);
      expect(init.headers.get('mcp-session-id')).toBeNull();
      expect(init.message?.result).toEqual({
        protocolVersion: LEGACY,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'demo', version: '1.0.0' },
        instructions: 'Plain tools.',
      });
      expect((await post(server, initialized, { 'mcp-protocol-version': LEGACY })).status).toBe(202);
      const list = await post(server, rpc(2, 'tools/list'), { 'mcp-protocol-version': LEGACY });
      expect(list.message?.result).toEqual({ tools: tools.map(wireTool) });
      expect(list.text).toContain(JSON.stringify(tools.map(wireTool))); // key order too
      expect(list.message?.result.tools[3]).toEqual({ name: 'bare', inputSchema: { type: 'object', properties: {} } });
      expect(server.records).toEqual([
        { httpMethod: 'POST', path: '/mcp', rpcMethod: 'initialize', protocolVersionHeader: null, mcpMethodHeader: null, sessionIdHeader: null, status: 200 },
        {
          httpMethod: 'POST',
          path: '/mcp',
          rpcMethod: 'notifications/initialized',
          protocolVersionHeader: LEGACY,
          mcpMethodHeader: null,
          sessionIdHeader: null,
          status: 202,
        },
        { httpMethod: 'POST', path: '/mcp', rpcMethod: 'tools/list', protocolVersionHeader: LEGACY, mcpMethodHeader: null, sessionIdHeader: null, status: 200 },
      ]);
    } finally {
      await server.close();
    }
  });

  it('stateless + SSE: replies are text/event-stream and carry the poisoned tools unchanged', async () => {
    const server = await startSdk1Server({ tools: POISONED_TOOLS, stateful: false, json: false });
    try {
      const init = await post(server, initialize());
      expect(init.status).toBe(200);
      expect(init.contentType).toMatch(/^text\/event-stream/);
      expect(init.text).toMatch(/^event: message\ndata: /);
      expect(init.message?.result.protocolVersion).toBe(LEGACY);
      const list = await post(server, rpc(2, 'tools/list'), { 'mcp-protocol-version': LEGACY });
      expect(list.contentType).toMatch(/^text\/event-stream/);
      expect(list.message?.result.tools).toEqual(POISONED_TOOLS.map(wireTool));
      const lookup = (list.message!.result.tools as Array<{ name: string; description: string }>).find((t) => t.name === 'lookup_word');
      expect(lookup?.description).toContain('\u200B');
    } finally {
      await server.close();
    }
  });

  it('stateful: initialize issues mcp-session-id, requests need it, DELETE 200 is recorded, then 404', async () => {
    const server = await startSdk1Server({ tools: PLAIN_TOOLS, stateful: true, json: true });
    try {
      const init = await post(server, initialize());
      const session = init.headers.get('mcp-session-id');
      expect(init.status).toBe(200);
      expect(session).toMatch(/^[0-9a-f-]{36}$/);
      const headers = { 'mcp-protocol-version': LEGACY, 'mcp-session-id': session! };
      expect((await post(server, initialized, headers)).status).toBe(202);
      const list = await post(server, rpc(2, 'tools/list'), headers);
      expect(list.message?.result.tools).toEqual(PLAIN_TOOLS.map(wireTool));
      const sessionless = await post(server, rpc(3, 'tools/list'), { 'mcp-protocol-version': LEGACY });
      expect(sessionless.status).toBe(400);
      expect((await send(server, 'DELETE', undefined, headers)).status).toBe(200);
      const after = await post(server, rpc(4, 'tools/list'), headers);
      expect(after.status).toBe(404);
      expect(server.records.map((r) => [r.httpMethod, r.rpcMethod, r.sessionIdHeader, r.status])).toEqual([
        ['POST', 'initialize', null, 200],
        ['POST', 'notifications/initialized', session, 202],
        ['POST', 'tools/list', session, 200],
        ['POST', 'tools/list', null, 400],
        ['DELETE', null, session, 200],
        ['POST', 'tools/list', session, 404],
      ]);
    } finally {
      await server.close();
    }
  });

  it('answers a 2026-07-28 server/discover probe with 400 and a non-modern error (stateless and stateful)', async () => {
    for (const stateful of [false, true]) {
      const server = await startSdk1Server({ tools: PLAIN_TOOLS, stateful, json: true });
      try {
        const probe = await post(server, rpc(1, 'server/discover', { _meta: MODERN_META }), modernHeaders('server/discover'));
        expect(probe.status).toBe(400);
        expect(probe.message?.error?.code).toBe(-32000);
        expect(isModernCode(probe.message?.error?.code)).toBe(false);
        expect(probe.message?.error?.message).toMatch(stateful ? /Server not initialized/ : /Unsupported protocol version: 2026-07-28/);
        expect(server.records[0]).toMatchObject({
          rpcMethod: 'server/discover',
          protocolVersionHeader: MODERN,
          mcpMethodHeader: 'server/discover',
          status: 400,
        });
      } finally {
        await server.close();
      }
    }
  });

  it('paged server: nextCursor twice, then none; an invalid cursor is −32602', async () => {
    const tools = manyTools(7);
    const server = await startPagedServer({ tools, pageSize: 3 });
    try {
      const pages: Array<{ tools: Array<{ name: string }>; nextCursor?: string }> = [];
      let cursor: string | undefined;
      do {
        const reply = await post(server, rpc(pages.length + 1, 'tools/list', cursor === undefined ? {} : { cursor }), { 'mcp-protocol-version': LEGACY });
        expect(reply.contentType).toMatch(/^application\/json/);
        pages.push(reply.message?.result);
        cursor = reply.message?.result.nextCursor;
      } while (cursor !== undefined && pages.length < 10);
      expect(pages.map((p) => p.tools.length)).toEqual([3, 3, 1]);
      expect(pages.map((p) => typeof p.nextCursor)).toEqual(['string', 'string', 'undefined']);
      expect(pages.flatMap((p) => p.tools)).toEqual(tools.map(wireTool));
      expect(tools[0]?.name).toBe('get_item_0001');
      const bad = await post(server, rpc(9, 'tools/list', { cursor: 'not-a-cursor' }), { 'mcp-protocol-version': LEGACY });
      expect(bad.message?.error?.code).toBe(-32602);
    } finally {
      await server.close();
    }
  });

  it('oversized server: the tools/list reply is at least the requested size', async () => {
    const replyBytes = 3 * 1024 * 1024;
    const server = await startOversizedServer({ replyBytes });
    try {
      expect((await post(server, initialize())).status).toBe(200);
      const list = await post(server, rpc(2, 'tools/list'), { 'mcp-protocol-version': LEGACY });
      const bytes = Buffer.byteLength(list.text);
      expect(bytes).toBeGreaterThanOrEqual(replyBytes);
      expect(bytes).toBeLessThan(replyBytes + 64);
      expect(list.message?.result.tools.map((t: { name: string }) => t.name)).toEqual(['huge_inventory']);
    } finally {
      await server.close();
    }
  });
});

describe('SDK 2.x servers', () => {
  it('server/discover with the modern headers and _meta → 200, supportedVersions, serverInfo in _meta', async () => {
    const server = await startSdk2Server({ tools: PLAIN_TOOLS, instructions: 'Modern tools.', serverInfo: { name: 'demo2', version: '2.0.0' } });
    try {
      const discover = await post(server, rpc(1, 'server/discover', { _meta: MODERN_META }), modernHeaders('server/discover'));
      expect(discover.status).toBe(200);
      expect(discover.contentType).toMatch(/^application\/json/);
      expect(discover.message?.result).toEqual({
        supportedVersions: [MODERN],
        capabilities: { tools: { listChanged: true } },
        instructions: 'Modern tools.',
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'demo2', version: '2.0.0' } },
      });
      expect(server.records).toEqual([
        {
          httpMethod: 'POST',
          path: '/mcp',
          rpcMethod: 'server/discover',
          protocolVersionHeader: MODERN,
          mcpMethodHeader: 'server/discover',
          sessionIdHeader: null,
          status: 200,
        },
      ]);
    } finally {
      await server.close();
    }
  });

  it('tools/list returns the specs inside the modern envelope; what the SDK demands of a request', async () => {
    const tools = [...POISONED_TOOLS, ...PLAIN_TOOLS.slice(0, 1)];
    const server = await startSdk2Server({ tools });
    try {
      const list = await post(server, rpc(1, 'tools/list', { _meta: MODERN_META }), modernHeaders('tools/list'));
      expect(list.status).toBe(200);
      const { tools: listed, ...envelope } = list.message!.result;
      expect(listed).toEqual(tools.map(wireTool));
      expect(list.text).toContain(JSON.stringify(tools.map(wireTool)));
      expect(envelope).toEqual({
        resultType: 'complete',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'svc-test-sdk2', version: '2.4.0' } },
      });
      // clientInfo is optional; clientCapabilities and the version key are required; headers must match.
      const { 'io.modelcontextprotocol/clientInfo': _info, ...withoutInfo } = MODERN_META;
      expect((await post(server, rpc(2, 'tools/list', { _meta: withoutInfo }), modernHeaders('tools/list'))).status).toBe(200);
      const { 'io.modelcontextprotocol/clientCapabilities': _caps, ...withoutCaps } = MODERN_META;
      const noCaps = await post(server, rpc(3, 'tools/list', { _meta: withoutCaps }), modernHeaders('tools/list'));
      expect([noCaps.status, noCaps.message?.error?.code]).toEqual([400, -32602]);
      const noMethod = await post(server, rpc(4, 'tools/list', { _meta: MODERN_META }), { 'mcp-protocol-version': MODERN });
      expect([noMethod.status, noMethod.message?.error?.code]).toEqual([400, -32020]);
      const call = await post(server, rpc(5, 'tools/call', { name: 'add', arguments: { a: 1 }, _meta: MODERN_META }), {
        ...modernHeaders('tools/call'),
        'mcp-name': 'add',
      });
      expect(call.message?.result.content[0].text).toBe(JSON.stringify({ tool: 'add', arguments: { a: 1 } }));
      // The legacy leg (legacy: 'stateless') serves 2025-11-25 without a session, over SSE.
      const init = await post(server, initialize(6));
      expect([init.status, init.contentType.split(';')[0], init.headers.get('mcp-session-id')]).toEqual([200, 'text/event-stream', null]);
      expect(init.message?.result.protocolVersion).toBe(LEGACY);
      const legacyList = await post(server, rpc(7, 'tools/list'), { 'mcp-protocol-version': LEGACY });
      expect(legacyList.message?.result).toEqual({ tools: tools.map(wireTool) });
      expect((await send(server, 'DELETE')).status).toBe(405);
    } finally {
      await server.close();
    }
  });

  it("responseMode 'sse' streams modern replies; legacy 'reject' refuses initialize with −32022", async () => {
    const sse = await startSdk2Server({ tools: PLAIN_TOOLS, responseMode: 'sse' });
    const strict = await startSdk2Server({ tools: PLAIN_TOOLS, legacy: 'reject', responseMode: 'json' });
    try {
      const streamed = await post(sse, rpc(1, 'tools/list', { _meta: MODERN_META }), modernHeaders('tools/list'));
      expect([streamed.status, streamed.contentType.split(';')[0]]).toEqual([200, 'text/event-stream']);
      expect(streamed.message?.result.tools).toEqual(PLAIN_TOOLS.map(wireTool));
      const refused = await post(strict, initialize());
      expect(refused.status).toBe(400);
      expect(refused.message?.error?.code).toBe(-32022);
      expect(refused.message?.error?.data).toMatchObject({ supported: [MODERN] });
      expect(strict.records[0]).toMatchObject({ rpcMethod: 'initialize', status: 400 });
    } finally {
      await Promise.all([sse.close(), strict.close()]);
    }
  });
});

describe('inventory changes, restarts and teardown', () => {
  it('setTools changes what the next tools/list returns (sdk1 session and sdk2)', async () => {
    const v1 = await startSdk1Server({ tools: PLAIN_TOOLS, stateful: true, json: false });
    const v2 = await startSdk2Server({ tools: PLAIN_TOOLS });
    try {
      const session = (await post(v1, initialize())).headers.get('mcp-session-id')!;
      const headers = { 'mcp-protocol-version': LEGACY, 'mcp-session-id': session };
      const listV1 = async () => (await post(v1, rpc(2, 'tools/list'), headers)).message?.result.tools;
      const listV2 = async () => (await post(v2, rpc(2, 'tools/list', { _meta: MODERN_META }), modernHeaders('tools/list'))).message?.result.tools;
      expect(await listV1()).toEqual(PLAIN_TOOLS.map(wireTool));
      expect(await listV2()).toEqual(PLAIN_TOOLS.map(wireTool));
      const changed = [{ ...PLAIN_TOOLS[0]!, annotations: { readOnlyHint: false, destructiveHint: true } }, ...manyTools(2, 'extra')];
      v1.setTools(changed);
      v2.setTools(changed);
      expect(await listV1()).toEqual(changed.map(wireTool));
      expect(await listV2()).toEqual(changed.map(wireTool));
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  });

  it('restarts keep the URL: hand-over on a helper host, down-then-up on a test-owned host', async () => {
    const first = await startSdk2Server({ tools: PLAIN_TOOLS });
    const second = await startSdk1Server({ tools: PLAIN_TOOLS, stateful: false, json: true, host: first.host });
    expect(second.url).toBe(first.url);
    await first.close(); // the path belongs to `second` now, and the host stays up for it
    expect((await post(second, initialize())).status).toBe(200);
    expect(second.records.map((r) => r.rpcMethod)).toEqual(['initialize']);
    expect(first.records).toEqual([]);
    await second.close(); // last server on the helper-started host: the host closes too
    await expect(post(second, initialize())).rejects.toThrow();

    const host = await startDidWebHost();
    try {
      const before = await startSdk1Server({ tools: PLAIN_TOOLS, stateful: true, json: true, host });
      expect((await post(before, initialize())).status).toBe(200);
      await before.close(); // down: the path answers 404, the host keeps listening
      expect((await post(before, initialize())).status).toBe(404);
      const after = await startSdk1Server({ tools: PLAIN_TOOLS, stateful: true, json: true, host });
      expect(after.url).toBe(before.url);
      expect((await post(after, initialize())).headers.get('mcp-session-id')).not.toBeNull();
      await after.close();
    } finally {
      await host.close();
    }
  });

  it('close() ends open SSE streams and the owned host', async () => {
    const server = await startSdk1Server({ tools: PLAIN_TOOLS, stateful: true, json: true });
    const session = (await post(server, initialize())).headers.get('mcp-session-id')!;
    const stream = await fetch(server.url, {
      dispatcher: agentFor(server),
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': LEGACY, 'mcp-session-id': session },
    });
    expect([stream.status, stream.headers.get('content-type')?.split(';')[0]]).toEqual([200, 'text/event-stream']);
    const drained = stream.text().then(
      () => 'ended',
      () => 'aborted',
    );
    await server.close();
    expect(['ended', 'aborted']).toContain(await drained);
    expect(server.records.map((r) => [r.httpMethod, r.status])).toEqual([
      ['POST', 200],
      ['GET', 200],
    ]);
    await expect(post(server, initialize())).rejects.toThrow();
  });
});

describe('authorization required', () => {
  it('401 with the SDK Bearer challenge; the resource metadata URL serves RFC 9728 JSON', async () => {
    const server = await startAuthServer();
    try {
      const origin = server.host.server.origin;
      expect(server.metadataUrl).toBe(`${origin}/.well-known/oauth-protected-resource/mcp`);
      const refused = await post(server, rpc(1, 'server/discover', { _meta: MODERN_META }), modernHeaders('server/discover'));
      expect(refused.status).toBe(401);
      const challenge = refused.headers.get('www-authenticate');
      expect(challenge).toBe(server.challenge);
      expect(challenge).toMatch(/^Bearer /);
      expect(challenge).toContain(`resource_metadata="${server.metadataUrl}"`);
      expect(challenge).toContain('scope="tools:read"');
      expect((await post(server, initialize(), { authorization: 'Bearer anything' })).status).toBe(401);
      const metadata = await send(server, 'GET', undefined, { accept: 'application/json' }, server.metadataUrl);
      expect([metadata.status, metadata.contentType.split(';')[0]]).toEqual([200, 'application/json']);
      expect(JSON.parse(metadata.text)).toEqual({
        resource: server.url,
        authorization_servers: [origin],
        scopes_supported: ['tools:read'],
        bearer_methods_supported: ['header'],
      });
      expect(server.records.map((r) => [r.rpcMethod, r.status])).toEqual([
        ['server/discover', 401],
        ['initialize', 401],
      ]);
    } finally {
      await server.close();
    }
  });

  it("challenge 'minimal' is the spec example's header; withMetadata false serves no document", async () => {
    const minimal = await startAuthServer({ challenge: 'minimal' });
    const bare = await startAuthServer({ withMetadata: false, path: '/private/mcp' });
    try {
      const a = await post(minimal, initialize());
      expect(a.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${minimal.metadataUrl}", scope="tools:read"`);
      const b = await post(bare, initialize());
      expect(b.status).toBe(401);
      expect(b.headers.get('www-authenticate')).not.toContain('resource_metadata');
      expect(bare.metadata).toBeNull();
      expect(bare.metadataUrl).toBe(`${bare.host.server.origin}/.well-known/oauth-protected-resource/private/mcp`);
      expect((await send(bare, 'GET', undefined, {}, bare.metadataUrl)).status).toBe(404);
    } finally {
      await Promise.all([minimal.close(), bare.close()]);
    }
  });
});
