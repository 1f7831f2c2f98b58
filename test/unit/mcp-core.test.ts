/**
 * The pure parts of MCP inspection: JSON-RPC replies in JSON and SSE, WWW-Authenticate
 * parameters, fingerprints (RFC 8785, envelope excluded), drift against a snapshot, and the
 * snapshot repository on a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalize, HASH_PROFILE, sha256Hex } from '../../src/core/canonical.js';
import type { JsonObject } from '../../src/core/encoding/json.js';
import { challengeParameter, readRpcReply, sseMessages } from '../../src/core/mcp/client.js';
import { compareInventory, type FingerprintedTool } from '../../src/core/mcp/drift.js';
import { changedMembers, definitionSha256, inventoryHash, schemaSha256, toolDefinition } from '../../src/core/mcp/fingerprint.js';
import { parseEndpoint } from '../../src/core/mcp/inspect.js';
import type { FetchResponse } from '../../src/core/net.js';
import { ProblemError } from '../../src/core/problems.js';
import type { McpSnapshot } from '../../src/core/store.js';
import { openStore } from '../../src/store/index.js';
import { tempStore, type TempStore } from '../support/store.js';

function response(body: string, contentType: string | null = 'application/json', status = 200): FetchResponse {
  const bytes = new TextEncoder().encode(body);
  return {
    url: 'https://tools.example/mcp',
    status,
    contentType,
    headers: contentType ? { 'content-type': contentType } : {},
    body: bytes,
    bytes: bytes.length,
    sha256: sha256Hex(bytes),
    peerAddress: '192.0.2.1',
    redirects: [],
    latencyMs: 1,
    tls: null as never,
    allowances: [],
  };
}

describe('sseMessages', () => {
  it('joins multi-line data, skips comments and other fields, splits on blank lines', () => {
    const text = ': keep-alive\nevent: message\nid: 7\ndata: {"a":\ndata: 1}\n\nretry: 10\ndata: second\r\n\r\ndata:third';
    expect(sseMessages(text)).toEqual(['{"a":\n1}', 'second', 'third']);
  });

  it('yields nothing for a stream of comments', () => {
    expect(sseMessages(': ping\n\n: ping\n\n')).toEqual([]);
  });
});

describe('readRpcReply', () => {
  it('reads a JSON result', () => {
    const reply = readRpcReply(response('{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}'), 3);
    expect(reply.kind).toBe('result');
    expect(reply.kind === 'result' && reply.result).toEqual({ tools: [] });
  });

  it('picks the answer with our id out of an SSE stream that carries notifications first', () => {
    const body = [
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}',
      'event: message\ndata: {"jsonrpc":"2.0","id":9,"result":{"other":true}}',
      'event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25"}}',
      '',
    ].join('\n\n');
    const reply = readRpcReply(response(body, 'text/event-stream; charset=utf-8'), 2);
    expect(reply.kind === 'result' && reply.result).toEqual({ protocolVersion: '2025-11-25' });
  });

  it('reads an error with its code and data, and an id-null error about an unreadable request', () => {
    const modern = readRpcReply(response('{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"x","data":{"supported":["2026-07-28"]}}}', 'application/json', 400), 1);
    expect(modern).toMatchObject({ kind: 'error', code: -32022, data: { supported: ['2026-07-28'] } });
    const legacy = readRpcReply(response('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request"},"id":null}', 'application/json', 400), 1);
    expect(legacy).toMatchObject({ kind: 'error', code: -32000 });
  });

  it('reports a body that is not JSON-RPC, an empty body and duplicate members as no answer', () => {
    expect(readRpcReply(response('<html>nope</html>', 'text/html', 404), 1)).toMatchObject({ kind: 'http', reason: 'a text/html reply that is not JSON-RPC (HTTP 404)' });
    expect(readRpcReply(response('', 'application/json', 400), 1)).toMatchObject({ kind: 'http', reason: 'an empty HTTP 400 reply' });
    const duplicate = readRpcReply(response('{"jsonrpc":"2.0","id":1,"result":{"tools":[],"tools":[{"name":"x"}]}}'), 1);
    expect(duplicate.kind).toBe('http');
    expect(duplicate.kind === 'http' && duplicate.reason).toMatch(/duplicate member "tools"/);
    expect(readRpcReply(response('{"jsonrpc":"2.0","id":5,"result":{}}'), 1)).toMatchObject({ kind: 'http', reason: 'HTTP 200 without a JSON-RPC answer to request 1' });
    expect(readRpcReply(response('{"jsonrpc":"2.0","id":1,"result":[1]}'), 1)).toMatchObject({ kind: 'http', reason: 'a JSON-RPC result that is not an object' });
  });
});

describe('challengeParameter', () => {
  const header = 'Bearer realm="mcp", resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", scope="tools:read tools:write", error=invalid_token';
  it('reads quoted and token parameters, case-insensitively', () => {
    expect(challengeParameter(header, 'resource_metadata')).toBe('https://a.example/.well-known/oauth-protected-resource/mcp');
    expect(challengeParameter(header, 'SCOPE')).toBe('tools:read tools:write');
    expect(challengeParameter(header, 'error')).toBe('invalid_token');
    expect(challengeParameter(header, 'missing')).toBeNull();
  });
  it('does not match a parameter name inside another one, and unescapes quoted pairs', () => {
    expect(challengeParameter('Bearer xscope="a"', 'scope')).toBeNull();
    expect(challengeParameter('Bearer realm="a \\"b\\""', 'realm')).toBe('a "b"');
  });
});

describe('fingerprints', () => {
  const tool: JsonObject = {
    name: 'get_weather',
    description: 'Get weather',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    annotations: { readOnlyHint: true },
    _meta: { 'io.example/requestId': 'r-1' },
    ttlMs: 5,
  };

  it('hashes the RFC 8785 form of the definition without envelope members', () => {
    const definition = toolDefinition(tool);
    expect(Object.keys(definition).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name']);
    expect(definitionSha256(definition)).toBe(sha256Hex(canonicalize(definition)));
    // Member order and _meta do not change the fingerprint; an annotation flip does.
    const reordered = toolDefinition({ annotations: { readOnlyHint: true }, _meta: { other: 1 }, inputSchema: tool['inputSchema']!, description: 'Get weather', name: 'get_weather' });
    expect(definitionSha256(reordered)).toBe(definitionSha256(definition));
    const flipped = toolDefinition({ ...tool, annotations: { readOnlyHint: false } });
    expect(definitionSha256(flipped)).not.toBe(definitionSha256(definition));
  });

  it('hashes the schemas apart from descriptions', () => {
    const definition = toolDefinition(tool);
    expect(schemaSha256(definition)).toBe(sha256Hex(canonicalize({ inputSchema: tool['inputSchema'] })));
    expect(schemaSha256({ ...definition, description: 'changed' })).toBe(schemaSha256(definition));
    expect(schemaSha256({ ...definition, outputSchema: { type: 'object' } })).not.toBe(schemaSha256(definition));
  });

  it('hashes the inventory over the sorted fingerprints', () => {
    expect(inventoryHash(['b', 'a'])).toBe(inventoryHash(['a', 'b']));
    expect(inventoryHash(['a', 'b'])).toBe(sha256Hex('["a","b"]'));
    expect(inventoryHash([])).toBe(sha256Hex('[]'));
  });

  it('names the members that changed', () => {
    expect(changedMembers({ a: 1, b: { x: 1, y: 2 }, c: 3 }, { a: 1, b: { y: 2, x: 1 }, d: 4 })).toEqual(['c', 'd']);
    expect(changedMembers({ description: 'x' }, { description: 'y' })).toEqual(['description']);
  });
});

function fingerprinted(name: string, description = `the ${name} tool`): FingerprintedTool {
  const definition = { name, description };
  return { name, definitionSha256: definitionSha256(definition), definition };
}

function snapshot(tools: FingerprintedTool[], profile: string | null = HASH_PROFILE): McpSnapshot {
  return {
    id: 1,
    endpoint: 'https://tools.example/mcp',
    inventoryHash: inventoryHash(tools.map((t) => t.definitionSha256)),
    profile,
    negotiatedVersion: '2025-11-25',
    observedAt: '2026-01-01T00:00:00Z',
    lastSeenAt: '2026-01-02T00:00:00Z',
    seenCount: 2,
    tools,
  };
}

describe('compareInventory', () => {
  const a = fingerprinted('a');
  const b = fingerprinted('b');
  const c = fingerprinted('c');

  it('without a snapshot: every tool FIRST_OBSERVATION', () => {
    const drift = compareInventory([a, b], undefined, true);
    expect(drift.inventory).toEqual({ status: 'FIRST_OBSERVATION', previousObservedAt: null, previousInventoryHash: null, added: [], removed: [], changed: [] });
    expect([...drift.tools.values()].map((t) => t.drift)).toEqual(['FIRST_OBSERVATION', 'FIRST_OBSERVATION']);
  });

  it('the same inventory: UNCHANGED, with the time it was last seen', () => {
    const previous = snapshot([a, b]);
    const drift = compareInventory([b, a], previous, true);
    expect(drift.inventory).toMatchObject({ status: 'UNCHANGED', previousObservedAt: '2026-01-02T00:00:00Z', previousInventoryHash: previous.inventoryHash });
    expect(drift.tools.get('a')).toEqual({ drift: 'UNCHANGED' });
  });

  it('added, removed and changed tools, with the members that changed', () => {
    const changedA = fingerprinted('a', 'now reads ~/.ssh');
    const drift = compareInventory([changedA, c], snapshot([a, b]), true);
    expect(drift.inventory).toMatchObject({ status: 'CHANGED', added: ['c'], removed: ['b'], changed: ['a'] });
    expect(drift.tools.get('a')).toEqual({ drift: 'CHANGED', changedFields: ['description'] });
    expect(drift.tools.get('c')).toEqual({ drift: 'ADDED' });
  });

  it('a partial listing never reports removed tools', () => {
    const drift = compareInventory([a], snapshot([a, b]), false);
    expect(drift.inventory).toMatchObject({ status: 'UNCHANGED', removed: [] });
  });

  it('a snapshot of another or no profile: PROFILE_CHANGED, names still compared', () => {
    for (const profile of [null, 'rfc8785-other']) {
      const drift = compareInventory([a, c], snapshot([a, b], profile), true);
      expect(drift.inventory).toMatchObject({ status: 'PROFILE_CHANGED', added: ['c'], removed: ['b'], changed: [] });
      expect(drift.tools.get('a')).toEqual({ drift: 'PROFILE_CHANGED' });
      expect(drift.tools.get('c')).toEqual({ drift: 'ADDED' });
    }
  });
});

describe('parseEndpoint', () => {
  it('drops the fragment and refuses what is not an http(s) URL', () => {
    expect(parseEndpoint('https://tools.example/mcp#x').href).toBe('https://tools.example/mcp');
    expect(() => parseEndpoint('tools.example/mcp')).toThrow(ProblemError);
    expect(() => parseEndpoint('ftp://tools.example/mcp')).toThrow(/must be an https URL/);
  });
});

describe('SqliteMcpObservationStore', () => {
  let temp: TempStore | undefined;
  afterEach(() => {
    temp?.cleanup();
    temp = undefined;
  });

  const endpoint = 'https://tools.example/mcp';
  const tools = [fingerprinted('a'), fingerprinted('b')];
  const hash = inventoryHash(tools.map((t) => t.definitionSha256));

  it('stores an inventory, coalesces an unchanged one and starts a new row when it changes', async () => {
    temp = tempStore();
    const store = temp.store.mcpObservations;
    expect(await store.latest(endpoint)).toBeUndefined();
    const first = (await store.record({ endpoint, inventoryHash: hash, profile: HASH_PROFILE, negotiatedVersion: '2025-11-25', observedAt: '2026-01-01T00:00:00Z', tools })).row!;
    expect(first).toMatchObject({ seenCount: 1, observedAt: '2026-01-01T00:00:00Z', lastSeenAt: '2026-01-01T00:00:00Z' });
    const again = (await store.record({ endpoint, inventoryHash: hash, profile: HASH_PROFILE, negotiatedVersion: '2026-07-28', observedAt: '2026-01-03T00:00:00Z', tools })).row;
    expect(again).toMatchObject({ id: first.id, seenCount: 2, lastSeenAt: '2026-01-03T00:00:00Z', negotiatedVersion: '2026-07-28' });
    expect((await store.latest(endpoint))?.tools).toEqual(tools);
    const changed = [fingerprinted('a', 'other')];
    const third = (await store.record({ endpoint, inventoryHash: inventoryHash([changed[0]!.definitionSha256]), profile: HASH_PROFILE, negotiatedVersion: null, observedAt: '2026-01-04T00:00:00Z', tools: changed })).row!;
    expect(third.id).not.toBe(first.id);
    expect(await store.latest(endpoint)).toMatchObject({ id: third.id, tools: changed });
    expect(await store.latest('https://other.example/mcp')).toBeUndefined();
  });

  it('survives a reopen of the file', async () => {
    temp = tempStore();
    await temp.store.mcpObservations.record({ endpoint, inventoryHash: hash, profile: HASH_PROFILE, negotiatedVersion: null, observedAt: '2026-01-01T00:00:00Z', tools });
    temp.store.close();
    const reopened = openStore({ path: temp.path });
    try {
      expect((await reopened.mcpObservations.latest(endpoint))?.inventoryHash).toBe(hash);
    } finally {
      reopened.close();
    }
  });

  it('never coalesces into a row without a profile (written before profiles existed)', async () => {
    temp = tempStore();
    temp.store.db
      .prepare(`INSERT INTO mcp_observations (endpoint, fingerprint, body, observed_at, last_seen_at) VALUES (?, ?, ?, ?, ?)`)
      .run(endpoint, hash, JSON.stringify({ tools }), '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
    expect(await temp.store.mcpObservations.latest(endpoint)).toMatchObject({ profile: null, seenCount: 1 });
    const row = (await temp.store.mcpObservations.record({ endpoint, inventoryHash: hash, profile: HASH_PROFILE, negotiatedVersion: null, observedAt: '2026-01-01T00:00:00Z', tools })).row;
    expect(row).toMatchObject({ profile: HASH_PROFILE, seenCount: 1 });
  });
});
