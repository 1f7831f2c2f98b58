/**
 * The pure parts of MCP inspection: JSON-RPC replies in JSON and SSE, WWW-Authenticate
 * parameters, fingerprints (RFC 8785, envelope excluded), drift against a snapshot, and the
 * snapshot repository on a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalize, HASH_PROFILE, sha256Hex } from '../../src/core/canonical.js';
import type { JsonObject } from '../../src/core/encoding/json.js';
import { challengeParameter, readRpcReply, sseMessages } from '../../src/core/mcp/client.js';
import { compareInventory, type Completeness, type FingerprintedInventory, type FingerprintedItem } from '../../src/core/mcp/drift.js';
import { changedMembers, definitionSha256, inventoryHash, itemDefinition, schemaSha256 } from '../../src/core/mcp/fingerprint.js';
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
    const modern = readRpcReply(
      response('{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"x","data":{"supported":["2026-07-28"]}}}', 'application/json', 400),
      1,
    );
    expect(modern).toMatchObject({ kind: 'error', code: -32022, data: { supported: ['2026-07-28'] } });
    const legacy = readRpcReply(response('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request"},"id":null}', 'application/json', 400), 1);
    expect(legacy).toMatchObject({ kind: 'error', code: -32000 });
  });

  it('reports a body that is not JSON-RPC, an empty body and duplicate members as no answer', () => {
    expect(readRpcReply(response('<html>nope</html>', 'text/html', 404), 1)).toMatchObject({
      kind: 'http',
      reason: 'a text/html reply that is not JSON-RPC (HTTP 404)',
    });
    expect(readRpcReply(response('', 'application/json', 400), 1)).toMatchObject({ kind: 'http', reason: 'an empty HTTP 400 reply' });
    const duplicate = readRpcReply(response('{"jsonrpc":"2.0","id":1,"result":{"tools":[],"tools":[{"name":"x"}]}}'), 1);
    expect(duplicate.kind).toBe('http');
    expect(duplicate.kind === 'http' && duplicate.reason).toMatch(/duplicate member "tools"/);
    expect(readRpcReply(response('{"jsonrpc":"2.0","id":5,"result":{}}'), 1)).toMatchObject({
      kind: 'http',
      reason: 'HTTP 200 without a JSON-RPC answer to request 1',
    });
    expect(readRpcReply(response('{"jsonrpc":"2.0","id":1,"result":[1]}'), 1)).toMatchObject({
      kind: 'http',
      reason: 'a JSON-RPC result that is not an object',
    });
  });
});

describe('challengeParameter', () => {
  const header =
    'Bearer realm="mcp", resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", scope="tools:read tools:write", error=invalid_token';
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

/**
 * inventoryHash of the tools [sha256('tool b'), sha256('tool a')] by the formula of svc before
 * prompts and resources were inventoried (computed with that version, commit 3df0511).
 */
const OLD_TOOLS_ONLY_HASH = 'e398e4e0f1642832ea988eaaec90032d13ff4f770eef664050239ad96c827d75';

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
    const definition = itemDefinition(tool);
    expect(Object.keys(definition).sort()).toEqual(['annotations', 'description', 'inputSchema', 'name']);
    expect(definitionSha256(definition)).toBe(sha256Hex(canonicalize(definition)));
    // Member order and _meta do not change the fingerprint; an annotation flip does.
    const reordered = itemDefinition({
      annotations: { readOnlyHint: true },
      _meta: { other: 1 },
      inputSchema: tool['inputSchema']!,
      description: 'Get weather',
      name: 'get_weather',
    });
    expect(definitionSha256(reordered)).toBe(definitionSha256(definition));
    const flipped = itemDefinition({ ...tool, annotations: { readOnlyHint: false } });
    expect(definitionSha256(flipped)).not.toBe(definitionSha256(definition));
  });

  it('hashes the schemas apart from descriptions', () => {
    const definition = itemDefinition(tool);
    expect(schemaSha256(definition)).toBe(sha256Hex(canonicalize({ inputSchema: tool['inputSchema'] })));
    expect(schemaSha256({ ...definition, description: 'changed' })).toBe(schemaSha256(definition));
    expect(schemaSha256({ ...definition, outputSchema: { type: 'object' } })).not.toBe(schemaSha256(definition));
  });

  const none = { prompts: [], resources: [], resourceTemplates: [] };

  it('hashes a tools-only inventory over the sorted tool fingerprints, exactly as before prompts and resources were inventoried', () => {
    expect(inventoryHash({ tools: ['b', 'a'], ...none })).toBe(inventoryHash({ tools: ['a', 'b'], ...none }));
    expect(inventoryHash({ tools: ['a', 'b'], ...none })).toBe(sha256Hex('["a","b"]'));
    expect(inventoryHash({ tools: [], ...none })).toBe(sha256Hex('[]'));
    // The value of the old formula (SHA-256 of the RFC 8785 sorted array), pinned: stored
    // tools-only histories must keep reading UNCHANGED.
    const fingerprints = [sha256Hex('tool b'), sha256Hex('tool a')];
    expect(inventoryHash({ tools: fingerprints, ...none })).toBe(sha256Hex(canonicalize([...fingerprints].sort())));
    expect(inventoryHash({ tools: fingerprints, ...none })).toBe(OLD_TOOLS_ONLY_HASH);
  });

  it('hashes the kinds apart once there is a prompt, resource or template', () => {
    const tools = ['t2', 't1'];
    const withPrompt = inventoryHash({ tools, prompts: ['p'], resources: [], resourceTemplates: [] });
    expect(withPrompt).toBe(sha256Hex('{"prompts":["p"],"resourceTemplates":[],"resources":[],"tools":["t1","t2"]}'));
    expect(withPrompt).not.toBe(inventoryHash({ tools, ...none }));
    // The same fingerprint listed as another kind is another inventory.
    expect(inventoryHash({ tools, prompts: [], resources: ['p'], resourceTemplates: [] })).not.toBe(withPrompt);
    expect(inventoryHash({ tools, prompts: [], resources: [], resourceTemplates: ['p'] })).not.toBe(withPrompt);
    expect(inventoryHash({ tools: ['t1', 't2'], prompts: ['q', 'p'], resources: [], resourceTemplates: [] })).toBe(
      inventoryHash({ tools: ['t2', 't1'], prompts: ['p', 'q'], resources: [], resourceTemplates: [] }),
    );
  });

  it('names the members that changed', () => {
    expect(changedMembers({ a: 1, b: { x: 1, y: 2 }, c: 3 }, { a: 1, b: { y: 2, x: 1 }, d: 4 })).toEqual(['c', 'd']);
    expect(changedMembers({ description: 'x' }, { description: 'y' })).toEqual(['description']);
  });
});

function fingerprinted(name: string, description = `the ${name} tool`): FingerprintedItem {
  const definition = { name, description };
  return { key: name, definitionSha256: definitionSha256(definition), definition };
}

/** A resource (or template) keyed by its URI. */
function resource(uri: string, description = `the ${uri} resource`): FingerprintedItem {
  const definition = { uri, name: uri, description };
  return { key: uri, definitionSha256: definitionSha256(definition), definition };
}

type Others = Partial<Omit<FingerprintedInventory, 'tools'>>;

function inventory(tools: FingerprintedItem[], others: Others = {}): FingerprintedInventory {
  return { tools, prompts: [], resources: [], resourceTemplates: [], ...others };
}

const ALL: Completeness = { tools: true, prompts: true, resources: true, resourceTemplates: true };
const NO_DRIFT = { added: [], removed: [], changed: [] };

function hashOf(inv: FingerprintedInventory): string {
  const prints = (items: readonly FingerprintedItem[]) => items.map((i) => i.definitionSha256);
  return inventoryHash({
    tools: prints(inv.tools),
    prompts: prints(inv.prompts),
    resources: prints(inv.resources),
    resourceTemplates: prints(inv.resourceTemplates),
  });
}

/**
 * A stored snapshot. `others` undefined: a tools-only snapshot (taken before prompts and
 * resources were inventoried); otherwise the snapshot covers every kind.
 */
function snapshot(tools: FingerprintedItem[], profile: string | null = HASH_PROFILE, others?: Others): McpSnapshot {
  const stored: McpSnapshot = {
    id: 1,
    endpoint: 'https://tools.example/mcp',
    inventoryHash: hashOf(inventory(tools, others)),
    profile,
    negotiatedVersion: '2025-11-25',
    observedAt: '2026-01-01T00:00:00Z',
    lastSeenAt: '2026-01-02T00:00:00Z',
    seenCount: 2,
    tools: tools.map(({ key, definitionSha256, definition }) => ({ name: key, definitionSha256, definition })),
  };
  if (others !== undefined)
    Object.assign(stored, { prompts: others.prompts ?? [], resources: others.resources ?? [], resourceTemplates: others.resourceTemplates ?? [] });
  return stored;
}

describe('compareInventory', () => {
  const a = fingerprinted('a');
  const b = fingerprinted('b');
  const c = fingerprinted('c');

  it('without a snapshot: every tool FIRST_OBSERVATION', () => {
    const drift = compareInventory(inventory([a, b]), undefined, ALL);
    expect(drift.inventory).toEqual({
      status: 'FIRST_OBSERVATION',
      previousObservedAt: null,
      previousInventoryHash: null,
      added: [],
      removed: [],
      changed: [],
      prompts: NO_DRIFT,
      resources: NO_DRIFT,
      resourceTemplates: NO_DRIFT,
      reason: null,
    });
    expect([...drift.items.tools.values()].map((t) => t.drift)).toEqual(['FIRST_OBSERVATION', 'FIRST_OBSERVATION']);
  });

  it('the same inventory: UNCHANGED, with the time it was last seen', () => {
    const previous = snapshot([a, b], HASH_PROFILE, {});
    const drift = compareInventory(inventory([b, a]), previous, ALL);
    expect(drift.inventory).toMatchObject({
      status: 'UNCHANGED',
      previousObservedAt: '2026-01-02T00:00:00Z',
      previousInventoryHash: previous.inventoryHash,
      reason: null,
    });
    expect(drift.items.tools.get('a')).toEqual({ drift: 'UNCHANGED' });
  });

  it('added, removed and changed tools, with the members that changed', () => {
    const changedA = fingerprinted('a', 'now reads ~/.ssh');
    const drift = compareInventory(inventory([changedA, c]), snapshot([a, b], HASH_PROFILE, {}), ALL);
    expect(drift.inventory).toMatchObject({ status: 'CHANGED', added: ['c'], removed: ['b'], changed: ['a'], prompts: NO_DRIFT, reason: null });
    expect(drift.items.tools.get('a')).toEqual({ drift: 'CHANGED', changedFields: ['description'] });
    expect(drift.items.tools.get('c')).toEqual({ drift: 'ADDED' });
  });

  it('a partial listing never reports removed tools', () => {
    const drift = compareInventory(inventory([a]), snapshot([a, b], HASH_PROFILE, {}), { ...ALL, tools: false });
    expect(drift.inventory).toMatchObject({ status: 'UNCHANGED', removed: [] });
  });

  it('a snapshot of another or no profile: PROFILE_CHANGED with its reason, names still compared', () => {
    for (const profile of [null, 'rfc8785-other']) {
      const drift = compareInventory(inventory([a, c]), snapshot([a, b], profile), ALL);
      expect(drift.inventory).toMatchObject({
        status: 'PROFILE_CHANGED',
        added: ['c'],
        removed: ['b'],
        changed: [],
        reason: 'the previous inventory (2026-01-02T00:00:00Z) was fingerprinted with another or no hash profile; definitions are not comparable',
      });
      expect(drift.items.tools.get('a')).toEqual({ drift: 'PROFILE_CHANGED' });
      expect(drift.items.tools.get('c')).toEqual({ drift: 'ADDED' });
    }
  });

  it('each kind by its key: prompts by name, resources by uri, templates by uriTemplate; the inventory CHANGED by any', () => {
    const p = fingerprinted('summarise');
    const q = fingerprinted('translate');
    const r = resource('file:///notes/a.md');
    const s = resource('file:///notes/b.md');
    const t = resource('notes://{id}');
    const previous = snapshot([a], HASH_PROFILE, { prompts: [p, q], resources: [r, s], resourceTemplates: [t] });
    const r2 = resource('file:///notes/a.md', 'now also the calendar');
    const u = resource('file:///notes/c.md');
    const drift = compareInventory(inventory([a], { prompts: [p], resources: [r2, u], resourceTemplates: [t] }), previous, ALL);
    expect(drift.inventory).toEqual({
      status: 'CHANGED',
      previousObservedAt: '2026-01-02T00:00:00Z',
      previousInventoryHash: previous.inventoryHash,
      added: [],
      removed: [],
      changed: [],
      prompts: { added: [], removed: ['translate'], changed: [] },
      resources: { added: ['file:///notes/c.md'], removed: ['file:///notes/b.md'], changed: ['file:///notes/a.md'] },
      resourceTemplates: NO_DRIFT,
      reason: null,
    });
    expect(drift.items.tools.get('a')).toEqual({ drift: 'UNCHANGED' });
    expect(drift.items.prompts.get('summarise')).toEqual({ drift: 'UNCHANGED' });
    expect(drift.items.resources.get('file:///notes/a.md')).toEqual({ drift: 'CHANGED', changedFields: ['description'] });
    expect(drift.items.resources.get('file:///notes/c.md')).toEqual({ drift: 'ADDED' });
    expect(drift.items.resourceTemplates.get('notes://{id}')).toEqual({ drift: 'UNCHANGED' });
    // A prompt that became a resource of the same name is removed from one kind and added to the other.
    const moved = compareInventory(inventory([a], { resources: [resource('summarise')] }), snapshot([a], HASH_PROFILE, { prompts: [p] }), ALL);
    expect(moved.inventory).toMatchObject({ status: 'CHANGED', prompts: { removed: ['summarise'] }, resources: { added: ['summarise'] } });
    // A partial prompts listing reports no removed prompt; the other kinds still do.
    const partial = compareInventory(inventory([a], { prompts: [], resources: [r] }), previous, { ...ALL, prompts: false });
    expect(partial.inventory).toMatchObject({
      prompts: NO_DRIFT,
      resources: { removed: ['file:///notes/b.md'] },
      resourceTemplates: { removed: ['notes://{id}'] },
    });
  });

  it('a tools-only snapshot: prompts and resources FIRST_OBSERVATION, tools compared, PROFILE_CHANGED with the reason', () => {
    const p = fingerprinted('summarise');
    const r = resource('file:///notes/a.md');
    const reason =
      'the previous inventory (2026-01-02T00:00:00Z) covered tools only; prompts and resources are inventoried since this version, so only tools were compared';
    const drift = compareInventory(inventory([a, b], { prompts: [p], resources: [r] }), snapshot([a, b]), ALL);
    expect(drift.inventory).toEqual({
      status: 'PROFILE_CHANGED',
      previousObservedAt: '2026-01-02T00:00:00Z',
      previousInventoryHash: snapshot([a, b]).inventoryHash,
      added: [],
      removed: [],
      changed: [],
      prompts: NO_DRIFT,
      resources: NO_DRIFT,
      resourceTemplates: NO_DRIFT,
      reason,
    });
    expect(drift.items.tools.get('a')).toEqual({ drift: 'UNCHANGED' });
    expect(drift.items.prompts.get('summarise')).toEqual({ drift: 'FIRST_OBSERVATION' });
    expect(drift.items.resources.get('file:///notes/a.md')).toEqual({ drift: 'FIRST_OBSERVATION' });

    // A tool changed as well: CHANGED (never hidden behind the coverage), the reason still given.
    const changed = compareInventory(inventory([fingerprinted('a', 'other'), b], { prompts: [p] }), snapshot([a, b]), ALL);
    expect(changed.inventory).toMatchObject({ status: 'CHANGED', changed: ['a'], prompts: NO_DRIFT, reason });

    // Nothing but tools now either: compared as before, UNCHANGED.
    const toolsOnly = compareInventory(inventory([a, b]), snapshot([a, b]), ALL);
    expect(toolsOnly.inventory).toMatchObject({ status: 'UNCHANGED', reason: null });
    expect(hashOf(inventory([a, b]))).toBe(snapshot([a, b]).inventoryHash);
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
  const tools = [fingerprinted('a'), fingerprinted('b')].map(({ key, definitionSha256, definition }) => ({ name: key, definitionSha256, definition }));
  const hash = inventoryHash({ tools: tools.map((t) => t.definitionSha256), prompts: [], resources: [], resourceTemplates: [] });

  it('stores an inventory, coalesces an unchanged one and starts a new row when it changes', async () => {
    temp = tempStore();
    const store = temp.store.mcpObservations;
    expect(await store.latest(endpoint)).toBeUndefined();
    const first = (
      await store.record({ endpoint, inventoryHash: hash, profile: HASH_PROFILE, negotiatedVersion: '2025-11-25', observedAt: '2026-01-01T00:00:00Z', tools })
    ).row!;
    expect(first).toMatchObject({ seenCount: 1, observedAt: '2026-01-01T00:00:00Z', lastSeenAt: '2026-01-01T00:00:00Z' });
    const again = (
      await store.record({ endpoint, inventoryHash: hash, profile: HASH_PROFILE, negotiatedVersion: '2026-07-28', observedAt: '2026-01-03T00:00:00Z', tools })
    ).row;
    expect(again).toMatchObject({ id: first.id, seenCount: 2, lastSeenAt: '2026-01-03T00:00:00Z', negotiatedVersion: '2026-07-28' });
    expect((await store.latest(endpoint))?.tools).toEqual(tools);
    const changed = [fingerprinted('a', 'other')].map(({ key, definitionSha256, definition }) => ({ name: key, definitionSha256, definition }));
    const third = (
      await store.record({
        endpoint,
        inventoryHash: sha256Hex(canonicalize([changed[0]!.definitionSha256])),
        profile: HASH_PROFILE,
        negotiatedVersion: null,
        observedAt: '2026-01-04T00:00:00Z',
        tools: changed,
      })
    ).row!;
    expect(third.id).not.toBe(first.id);
    expect(await store.latest(endpoint)).toMatchObject({ id: third.id, tools: changed });
    expect(await store.latest('https://other.example/mcp')).toBeUndefined();
  });

  it('survives a reopen of the file', async () => {
    temp = tempStore();
    await temp.store.mcpObservations.record({
      endpoint,
      inventoryHash: hash,
      profile: HASH_PROFILE,
      negotiatedVersion: null,
      observedAt: '2026-01-01T00:00:00Z',
      tools,
    });
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
    const row = (
      await temp.store.mcpObservations.record({
        endpoint,
        inventoryHash: hash,
        profile: HASH_PROFILE,
        negotiatedVersion: null,
        observedAt: '2026-01-01T00:00:00Z',
        tools,
      })
    ).row;
    expect(row).toMatchObject({ profile: HASH_PROFILE, seenCount: 1 });
  });

  it('reads a body without prompts and resources as tools-only coverage; a coalesced record refreshes the body', async () => {
    temp = tempStore();
    const store = temp.store.mcpObservations;
    const first = (
      await store.record({ endpoint, inventoryHash: hash, profile: HASH_PROFILE, negotiatedVersion: null, observedAt: '2026-01-01T00:00:00Z', tools })
    ).row!;
    expect(first.prompts).toBeUndefined();
    expect(JSON.parse((temp.store.db.prepare('SELECT body FROM mcp_observations').get() as { body: string }).body)).toEqual({ tools });
    const latest = (await store.latest(endpoint))!;
    expect([latest.prompts, latest.resources, latest.resourceTemplates]).toEqual([undefined, undefined, undefined]);

    // The same tools, no prompts or resources: the same hash, coalesced, the coverage marker added.
    const covered = { prompts: [], resources: [], resourceTemplates: [] };
    const again = await store.record({
      endpoint,
      inventoryHash: hash,
      profile: HASH_PROFILE,
      negotiatedVersion: null,
      observedAt: '2026-01-02T00:00:00Z',
      tools,
      ...covered,
    });
    expect(again).toMatchObject({ outcome: 'coalesced', row: { id: first.id, seenCount: 2, ...covered } });
    expect(await store.latest(endpoint)).toMatchObject({ id: first.id, ...covered });

    // A snapshot with a prompt and a resource reads back as written.
    const prompt = fingerprinted('summarise');
    const doc = resource('file:///notes/a.md');
    await store.record({
      endpoint,
      inventoryHash: 'c'.repeat(64),
      profile: HASH_PROFILE,
      negotiatedVersion: null,
      observedAt: '2026-01-03T00:00:00Z',
      tools,
      prompts: [prompt],
      resources: [doc],
      resourceTemplates: [],
    });
    expect(await store.latest(endpoint)).toMatchObject({ inventoryHash: 'c'.repeat(64), tools, prompts: [prompt], resources: [doc], resourceTemplates: [] });
  });
});
