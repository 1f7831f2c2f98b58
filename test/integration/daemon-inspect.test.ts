/**
 * `svc serve` over real HTTP: GET /v1/mcp/inspect and GET /v1/a2a/inspect.
 * MCP servers from the official SDKs and A2A cards signed and served by @a2a-js/sdk run on
 * loopback HTTPS hosts of one test CA, which the daemon trusts as an operator would configure it
 * (NODE_EXTRA_CA_CERTS, SVC_EGRESS_ALLOW=127.0.0.0/8). Drift is kept in the daemon's own store.
 * AUTH_REQUIRED, risk signals and a failed signature are 200 results; a problem means
 * no inspection could be produced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aKey, agentCard, agentDidDocument, CARD_PATH, publishJwks, serveCard, signCard, type A2aKey } from '../support/a2a-agent.js';
import type { DaemonHandle } from '../support/daemon.js';
import { call, expectJson, expectProblem, startInProcessDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { closedPort, raw } from '../support/https-server.js';
import { sqliteDatabase } from '../support/databases.js';
import { injectedApp } from '../support/injected.js';
import {
  PLAIN_ITEMS,
  PLAIN_TOOLS,
  POISONED_ITEMS,
  POISONED_TOOLS,
  startAuthServer,
  startPlainHost,
  startSdk2Server,
  type McpAuthTestServer,
  type McpTestServer,
  MCP_INSPECTION_MEMBERS,
} from '../support/mcp-servers.js';

let host: DidWebHost;
let daemon: DaemonHandle;
let modern: McpTestServer;
let poisoned: McpTestServer;
let auth: McpAuthTestServer;
let key: A2aKey;
/** Other origins on the same CA (each A2A scenario needs its own well-known path). */
const others: DidWebHost[] = [];

async function otherHost(): Promise<DidWebHost> {
  const other = await startDidWebHost({ ca: host.ca });
  others.push(other);
  return other;
}

beforeAll(async () => {
  host = await startDidWebHost();
  modern = await startSdk2Server({ host, path: '/mcp', tools: PLAIN_TOOLS });
  poisoned = await startSdk2Server({ host, path: '/poisoned', tools: POISONED_TOOLS });
  auth = await startAuthServer({ host, path: '/auth' });
  key = await a2aKey('ES256');
  const jku = publishJwks(host.server, [{ key, kid: 'card-key-1' }]);
  serveCard(host.server, await signCard(agentCard(host.server.origin), key, { kid: 'card-key-1', jku }));
  daemon = await startInProcessDaemonFor(host);
});

afterAll(async () => {
  await daemon?.stop();
  await Promise.all([modern, poisoned, auth].filter(Boolean).map((s) => s.close()));
  await Promise.all(others.map((h) => h.close()));
  await host?.close();
});

const mcpInspect = (query: Record<string, string> | string, base = daemon.url) =>
  call(`${base}/v1/mcp/inspect?${typeof query === 'string' ? query : new URLSearchParams(query).toString()}`);
const a2aInspect = (query: Record<string, string> | string, base = daemon.url) =>
  call(`${base}/v1/a2a/inspect?${typeof query === 'string' ? query : new URLSearchParams(query).toString()}`);

const checkStatuses = (result: { checks: Array<{ id: string; status: string }> }) => result.checks.map((c) => [c.id, c.status]);

describe('GET /v1/mcp/inspect', () => {
  it('inspects a 2026-07-28 server: 200 INSPECTED, stored; a second call shows drift UNCHANGED from the daemon store', async () => {
    const first = expectJson(await mcpInspect({ endpoint: modern.url }), 200);
    for (const member of MCP_INSPECTION_MEMBERS) {
      expect(first, member).toHaveProperty(member);
    }
    expect(first).toMatchObject({
      endpoint: modern.url,
      status: 'INSPECTED',
      mode: 'STATELESS',
      negotiatedVersion: '2026-07-28',
      serverInfo: { name: 'svc-test-sdk2', version: '2.4.0' },
      auth: null,
      drift: { status: 'FIRST_OBSERVATION', previousInventoryHash: null, added: [], removed: [], changed: [] },
      headline: 'svc-test-sdk2: 3 tools; MCP 2026-07-28, stateless.',
    });
    expect(first.inventoryHash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.tools.map((t: any) => [t.name, t.declaredClass, t.heuristicClass, t.drift])).toEqual([
      ['get_weather', 'read_only', 'read_only', 'FIRST_OBSERVATION'],
      ['add', 'destructive', 'additive', 'FIRST_OBSERVATION'],
      ['create_note', 'additive', 'additive', 'FIRST_OBSERVATION'],
    ]);
    expect(checkStatuses(first)).toEqual([
      ['historyPersistence', 'PASS'],
      ['transport', 'PASS'],
      ['protocol', 'PASS'],
      ['identity', 'PASS'],
      ['inventory', 'PASS'],
      ['drift', 'SKIP'],
    ]);
    // The request carried the 2026-07-28 headers.
    expect(modern.records.map((r) => [r.rpcMethod, r.protocolVersionHeader, r.mcpMethodHeader, r.status])).toEqual([
      ['server/discover', '2026-07-28', 'server/discover', 200],
      ['tools/list', '2026-07-28', 'tools/list', 200],
    ]);

    const second = expectJson(await mcpInspect({ endpoint: modern.url }), 200);
    expect(second.inventoryHash).toBe(first.inventoryHash);
    expect(second.drift).toMatchObject({ status: 'UNCHANGED', previousInventoryHash: first.inventoryHash, added: [], removed: [], changed: [] });
    expect(second.drift.previousObservedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(second.tools.map((t: any) => t.drift)).toEqual(['UNCHANGED', 'UNCHANGED', 'UNCHANGED']);
    expect(second.checks.find((c: any) => c.id === 'drift')).toMatchObject({ status: 'PASS' });
    expect(second.checks[0]).toMatchObject({ id: 'historyPersistence', status: 'PASS', detail: 'Inventory stored (seen 2 times unchanged).' });
    expect(second.headline).toBe('svc-test-sdk2: 3 tools; MCP 2026-07-28, stateless; unchanged since the last inspection.');
  });

  it('a changed tool is CHANGED on the next call (still 200: drift is a result, not an error)', async () => {
    const server = await startSdk2Server({ host, path: '/drifting', tools: PLAIN_TOOLS });
    try {
      expectJson(await mcpInspect({ endpoint: server.url }), 200);
      server.setTools([{ ...PLAIN_TOOLS[0]!, description: 'Get the weather. Also forward it.' }, ...PLAIN_TOOLS.slice(1)]);
      const changed = expectJson(await mcpInspect({ endpoint: server.url }), 200);
      expect(changed.drift).toMatchObject({ status: 'CHANGED', added: [], removed: [], changed: ['get_weather'] });
      expect(changed.tools[0]).toMatchObject({ name: 'get_weather', drift: 'CHANGED', changedFields: ['description'] });
      expect(changed.checks.find((c: any) => c.id === 'drift').status).toBe('WARN');
    } finally {
      await server.close();
    }
  });

  it('risk signals are a 200 result with the inventory check WARN', async () => {
    const result = expectJson(await mcpInspect({ endpoint: poisoned.url }), 200);
    expect(result.status).toBe('INSPECTED');
    expect(result.tools.every((t: any) => t.riskSignals.length > 0)).toBe(true);
    expect(result.checks.find((c: any) => c.id === 'inventory')).toMatchObject({ status: 'WARN' });
    expect(result.tools.find((t: any) => t.name === 'add').riskSignals.map((s: any) => s.id)).toEqual([
      'hidden_instruction_tag',
      'model_directive',
      'sensitive_path',
      'exfiltration_parameter',
    ]);
  });

  it('AUTH_REQUIRED is a 200 result with the challenge and the protected-resource metadata, no tools', async () => {
    const result = expectJson(await mcpInspect({ endpoint: auth.url }), 200);
    expect(result).toMatchObject({
      endpoint: auth.url,
      status: 'AUTH_REQUIRED',
      tools: [],
      inventoryHash: null,
      auth: { status: 401, wwwAuthenticate: auth.challenge, resourceMetadataUrl: auth.metadataUrl, resourceMetadata: auth.metadata, scope: 'tools:read' },
      headline: 'The MCP server requires authentication (HTTP 401); svc does not authenticate, so no tools were listed.',
    });
    // The 401 ended the conversation: one server/discover, no retry, no legacy handshake.
    expect(auth.records.map((r) => [r.httpMethod, r.rpcMethod, r.status])).toEqual([['POST', 'server/discover', 401]]);
  });

  it('refuses missing, empty, unknown, repeated and over-long options with 400 INVALID_OPTIONS', async () => {
    const cases: Array<[string, RegExp]> = [
      ['', /^The query option "endpoint" \(required\) is missing; give the URL of the MCP endpoint, e\.g\. https:\/\/tools\.example\/mcp\.$/],
      ['endpoint=', /^The query option "endpoint" must not be empty \(the URL of the MCP endpoint/],
      [`endpoint=${encodeURIComponent(modern.url)}&url=x`, /^Unknown query option "url"; this route takes endpoint, signed\.$/],
      [`endpont=${encodeURIComponent(modern.url)}`, /^Unknown query option "endpont"/],
      [
        `endpoint=${encodeURIComponent(modern.url)}&endpoint=${encodeURIComponent(modern.url)}`,
        /^The query option "endpoint" is given 2 times; give it once\.$/,
      ],
      [`endpoint=https://tools.example/${'a'.repeat(2100)}`, /^The query option "endpoint" is longer than 2048 characters\.$/],
    ];
    const before = modern.records.length;
    for (const [query, detail] of cases) {
      const problem = expectProblem(await mcpInspect(query), 400, 'INVALID_OPTIONS');
      expect(problem.type).toBe('https://www.w3.org/ns/did#INVALID_OPTIONS');
      expect(problem.detail, query.slice(0, 80)).toMatch(detail);
    }
    expect(modern.records.length).toBe(before);
  });

  it('an endpoint that is not a URL: 400 INVALID_REQUEST', async () => {
    const problem = expectProblem(await mcpInspect({ endpoint: 'tools.example/mcp' }), 400, 'INVALID_REQUEST');
    expect(problem.detail).toBe('The MCP endpoint must be an absolute URL, e.g. https://tools.example/mcp.');
  });

  it('an http:// endpoint at an allowed address: 200, inspected over plain http, transport WARN', async () => {
    const plainHost = await startPlainHost();
    const server = await startSdk2Server({ host: plainHost, tools: PLAIN_TOOLS });
    try {
      const result = expectJson(await mcpInspect({ endpoint: server.url }), 200);
      expect(result).toMatchObject({ status: 'INSPECTED', tls: null });
      expect(result.checks.find((c: { id: string }) => c.id === 'transport')).toMatchObject({ status: 'WARN' });
    } finally {
      await server.close();
      await plainHost.close();
    }
  });

  it('an unreachable endpoint: 502 UPSTREAM_UNAVAILABLE', async () => {
    const problem = expectProblem(await mcpInspect({ endpoint: `https://localhost:${await closedPort()}/mcp` }), 502, 'UPSTREAM_UNAVAILABLE');
    expect(problem.detail).toMatch(/ECONNREFUSED/);
  });

  it('a path that is no MCP endpoint: 404 NOT_FOUND', async () => {
    const problem = expectProblem(await mcpInspect({ endpoint: `${host.server.origin}/nothing-here` }), 404, 'NOT_FOUND');
    expect(problem.detail).toMatch(/^No MCP endpoint at /);
  });
});

describe('GET /v1/mcp/inspect in process (inject): prompts, resources and resource templates', () => {
  it('the route answers the three lists through its schema, with signals and drift; a changed prompt and a removed resource are CHANGED', async () => {
    const prompts = [...PLAIN_ITEMS.prompts, POISONED_ITEMS.prompts[0]!];
    const server = await startSdk2Server({
      host,
      path: '/items',
      tools: PLAIN_TOOLS,
      prompts,
      resources: PLAIN_ITEMS.resources,
      resourceTemplates: PLAIN_ITEMS.resourceTemplates,
    });
    const database = await sqliteDatabase('svc-inspect-items');
    const injected = await injectedApp(database.target, { net: host.runtime().net });
    try {
      const inspect = async () => {
        const response = await injected.anonymous('GET', `/v1/mcp/inspect?${new URLSearchParams({ endpoint: server.url }).toString()}`);
        expect(response.statusCode, response.body).toBe(200);
        return JSON.parse(response.body);
      };
      const first = await inspect();
      expect(first.headline).toBe('svc-test-sdk2: 3 tools, 3 prompts, 2 resources, 1 resource template; MCP 2026-07-28, stateless; 1 with risk signals.');
      expect(first.prompts[0]).toEqual({
        name: 'summarise_note',
        title: 'Summarise a note',
        description: 'Summarise the given note in three sentences.',
        arguments: [
          { name: 'note_id', description: 'The note to summarise', required: true },
          { name: 'tone', description: 'formal or casual', required: false },
        ],
        definitionSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        riskSignals: [],
        drift: 'FIRST_OBSERVATION',
      });
      expect(first.prompts[2].riskSignals.map((s: any) => [s.id, s.location, s.parameter ?? null])).toEqual([
        ['hidden_instruction_tag', 'description', null],
        ['model_directive', 'description', null],
        ['sensitive_path', 'description', null],
        ['sensitive_path', 'parameter', 'context'],
        ['exfiltration_parameter', 'parameter', 'context'],
      ]);
      expect(first.resources.map((r: any) => [r.uri, r.name, r.title, r.mimeType, r.drift])).toEqual([
        ['file:///notes/readme.md', 'readme', 'Read me', 'text/markdown', 'FIRST_OBSERVATION'],
        ['notes://index', 'index', null, 'application/json', 'FIRST_OBSERVATION'],
      ]);
      expect(first.resourceTemplates).toEqual([
        {
          uriTemplate: 'notes://note/{id}',
          name: 'note',
          title: null,
          description: 'One note by id.',
          mimeType: 'text/markdown',
          definitionSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          riskSignals: [],
          drift: 'FIRST_OBSERVATION',
        },
      ]);
      expect(first.drift).toEqual({
        status: 'FIRST_OBSERVATION',
        previousObservedAt: null,
        previousInventoryHash: null,
        added: [],
        removed: [],
        changed: [],
        prompts: { added: [], removed: [], changed: [] },
        resources: { added: [], removed: [], changed: [] },
        resourceTemplates: { added: [], removed: [], changed: [] },
        reason: null,
      });
      expect(first.checks.find((c: any) => c.id === 'inventory')).toMatchObject({ status: 'WARN', detail: '1 prompt of 3 has risk signals: "code_review".' });

      server.setItems('prompts', [{ ...prompts[0]!, title: 'Summarise and forward' }, ...prompts.slice(1)]);
      server.setItems('resources', PLAIN_ITEMS.resources.slice(0, 1));
      const second = await inspect();
      expect(second.drift).toMatchObject({
        status: 'CHANGED',
        previousInventoryHash: first.inventoryHash,
        prompts: { added: [], removed: [], changed: ['summarise_note'] },
        resources: { added: [], removed: ['notes://index'], changed: [] },
        reason: null,
      });
      expect(second.prompts[0]).toMatchObject({ drift: 'CHANGED', changedFields: ['title'] });
      expect(second.checks.find((c: any) => c.id === 'drift')).toMatchObject({ status: 'WARN' });
    } finally {
      await injected.close();
      await database.done();
      await server.close();
    }
  });
});

describe('GET /v1/a2a/inspect', () => {
  it('an SDK-signed card at the agent origin: 200, signature VALID, every check PASS', async () => {
    const result = expectJson(await a2aInspect({ url: host.server.origin }), 200);
    expect(result).toMatchObject({
      cardUrl: `${host.server.origin}${CARD_PATH}`,
      httpStatus: 200,
      specVersion: '1.0',
      name: 'Recipe Agent',
      signatures: [{ alg: 'ES256', kid: 'card-key-1', jku: `${host.server.origin}/jwks.json`, status: 'VALID', canonicalization: 'a2a-1.0' }],
      headline: 'Agent card of "Recipe Agent" (A2A 1.0), signature VALID.',
    });
    expect(checkStatuses(result)).toEqual(
      ['fetch', 'schema', 'version', 'interfaces', 'origin', 'provider', 'security', 'signature'].map((id) => [id, 'PASS']),
    );
    // The card URL itself works as well.
    const direct = expectJson(await a2aInspect({ url: `${host.server.origin}${CARD_PATH}` }), 200);
    expect(direct.canonicalSha256).toBe(result.canonicalSha256);
  });

  it('a DID kid is resolved through the daemon: VALID with the did:web key under assertionMethod', async () => {
    const agent = await otherHost();
    const did = agent.did('agents', 'recipe');
    agent.publish(did, agentDidDocument(did, [{ fragment: 'card', key, relationships: ['assertionMethod'] }]));
    serveCard(agent.server, await signCard(agentCard(agent.server.origin), key, { kid: `${did}#card` }));
    const result = expectJson(await a2aInspect({ url: agent.server.origin }), 200);
    expect(result.signatures).toEqual([expect.objectContaining({ kid: `${did}#card`, status: 'VALID', canonicalization: 'a2a-1.0' })]);
    expect(result.checks.find((c: any) => c.id === 'signature').status).toBe('PASS');
  });

  it('a tampered card is a 200 result: signature INVALID, the signature check FAILs', async () => {
    const agent = await otherHost();
    const jku = publishJwks(agent.server, [{ key, kid: 'card-key-1' }]);
    const card = await signCard(agentCard(agent.server.origin), key, { kid: 'card-key-1', jku });
    serveCard(agent.server, { ...card, description: 'Now also moves money.' });
    const result = expectJson(await a2aInspect({ url: agent.server.origin }), 200);
    expect(result.signatures[0]).toMatchObject({ status: 'INVALID', canonicalization: null });
    expect(result.checks.find((c: any) => c.id === 'signature').status).toBe('FAIL');
    expect(result.headline).toBe('Agent card of "Recipe Agent" (A2A 1.0), signature INVALID.');
  });

  it('a card that is not JSON: 422 INVALID_DID_DOCUMENT', async () => {
    const agent = await otherHost();
    agent.server.route(CARD_PATH, raw('<!doctype html><title>Agent</title>', { contentType: 'text/html' }));
    const problem = expectProblem(await a2aInspect({ url: agent.server.origin }), 422, 'INVALID_DID_DOCUMENT');
    expect(problem.type).toBe('https://www.w3.org/ns/did#INVALID_DID_DOCUMENT');
    expect(problem.detail).toBe(
      `The resource at ${agent.server.origin}${CARD_PATH} is no agent card: the agent card is not valid JSON (unexpected character at offset 0).`,
    );
  });

  it('no card: 404 NOT_FOUND after trying the legacy path', async () => {
    const agent = await otherHost();
    const problem = expectProblem(await a2aInspect({ url: agent.server.origin }), 404, 'NOT_FOUND');
    expect(problem.detail).toBe(
      `No agent card at ${agent.server.origin}/.well-known/agent-card.json or at the legacy ${agent.server.origin}/.well-known/agent.json (HTTP 404).`,
    );
    expect(agent.server.requests).toEqual(['GET /.well-known/agent-card.json', 'GET /.well-known/agent.json']);
  });

  it('options: missing or unknown → 400 INVALID_OPTIONS; not a URL → 400 INVALID_REQUEST; http:// → 403 EGRESS_BLOCKED', async () => {
    expect(expectProblem(await a2aInspect(''), 400, 'INVALID_OPTIONS').detail).toMatch(
      /^The query option "url" \(required\) is missing; give the agent origin or the URL of its agent card/,
    );
    expect(expectProblem(await a2aInspect(`url=${encodeURIComponent(host.server.origin)}&strict=1`), 400, 'INVALID_OPTIONS').detail).toBe(
      'Unknown query option "strict"; this route takes url, signed.',
    );
    expect(expectProblem(await a2aInspect('url=a&url=b'), 400, 'INVALID_OPTIONS').detail).toBe('The query option "url" is given 2 times; give it once.');
    expectProblem(await a2aInspect({ url: 'agent.example' }), 400, 'INVALID_REQUEST');
    expectProblem(await a2aInspect({ url: `http://localhost:${host.server.port}` }), 403, 'EGRESS_BLOCKED');
  });
});

describe('both routes', () => {
  it('DELETE is 405 METHOD_NOT_ALLOWED with Allow naming GET and POST; a POST without its baseline is 400', async () => {
    for (const route of [`/v1/mcp/inspect?endpoint=${encodeURIComponent(modern.url)}`, `/v1/a2a/inspect?url=${encodeURIComponent(host.server.origin)}`]) {
      const answer = await call(`${daemon.url}${route}`, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: '{}' });
      expectProblem(answer, 405, 'METHOD_NOT_ALLOWED');
      expect(answer.header('allow')).toContain('GET');
      expect(answer.header('allow')).toContain('POST');
      const post = await call(`${daemon.url}${route.split('?')[0]}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expectProblem(post, 400, 'INVALID_REQUEST');
    }
  });

  it('public profile: both draw on one intensive budget (10/min); the 11th is 429 before any work; standard routes are untouched', async () => {
    const pub = await startInProcessDaemonFor(host, { args: ['--public'] });
    try {
      // Cheap requests still draw on the budget: the charge comes before the options are read.
      for (let i = 0; i < 10; i++) {
        const answer = i % 2 === 0 ? await mcpInspect('', pub.url) : await a2aInspect('', pub.url);
        expectProblem(answer, 400, 'INVALID_OPTIONS');
      }
      const before = modern.records.length;
      for (const answer of [await mcpInspect({ endpoint: modern.url }, pub.url), await a2aInspect({ url: host.server.origin }, pub.url)]) {
        const problem = expectProblem(answer, 429, 'RATE_LIMITED');
        expect(problem.detail).toContain('intensive budget of 10 requests per minute');
        expect(Number(answer.header('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      expect(modern.records.length).toBe(before);
      expectJson(await call(`${pub.url}/v1/status`), 200);
    } finally {
      await pub.stop('SIGKILL');
    }
  });
});
