/**
 * `svc inspect-mcp --from-file` (docs/agents.md#saved-inventories): a saved listing inspected
 * without a server. Three real servers (server-everything, fastmcp, mcp-framework;
 * test/support/mcp-peers.ts) are started once each; the official SDK client saves their listings as
 * they came off the wire (test/support/mcp-reference.ts) — the results, the whole JSON-RPC
 * responses — and svc's own --json output is saved too. Each file, inspected by the CLI (in the
 * test process, svcIn), gives the fingerprints, classes and signals of the live inspection of the
 * same server, says no server was contacted, and stores nothing. Bad files are one-line errors,
 * exit 2 (the file is an option's value).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, onlyJson, parseCliError, svcIn, svcBin, type Run } from '../support/cli.js';
import { PEERS, startPeer, type PeerProcess } from '../support/mcp-peers.js';
import { INVENTORY_KINDS, referenceInventory } from '../support/mcp-reference.js';

const IDS = ['server-everything', 'fastmcp', 'mcp-framework'] as const;
const dir = mkdtempSync(path.join(tmpdir(), 'svc-from-file-'));
const file = (name: string) => path.join(dir, name);
const save = (name: string, value: unknown) => writeFileSync(file(name), JSON.stringify(value, null, 2));

interface Saved {
  peer: PeerProcess;
  /** `svc inspect-mcp <url> --json --no-store`, parsed. */
  live: any;
}
const saved = new Map<string, Saved>();

beforeAll(async () => {
  assertBuilt();
  const peers = await Promise.all(IDS.map((id) => startPeer(PEERS.find((p) => p.id === id)!)));
  for (const peer of peers) saved.set(peer.spec.id, { peer, live: null });
  await Promise.all(
    peers.map(async (peer) => {
      const id = peer.spec.id;
      const reference = await referenceInventory(peer.url);
      const responses = INVENTORY_KINDS.flatMap(({ kind }) => reference.lists[kind].responses);
      save(`${id}-responses.json`, responses);
      save(
        `${id}-results.json`,
        responses.map((r) => r['result']),
      );
      save(`${id}-tools.json`, reference.lists.tools.responses[0]!['result']);
      const live = await svcIn(['inspect-mcp', peer.url, '--egress-allow', '127.0.0.1/32', '--json', '--no-store'], cleanEnv());
      writeFileSync(file(`${id}-svc.json`), live.stdout);
      saved.get(id)!.live = onlyJson(live);
    }),
  );
}, 90_000);

afterAll(async () => {
  await Promise.all([...saved.values()].map((s) => s.peer.close()));
  rmSync(dir, { recursive: true, force: true });
});

const fromFile = (name: string, ...extra: string[]) => svcIn(['inspect-mcp', '--from-file', name === '-' ? '-' : file(name), ...extra], cleanEnv());

/** What a saved listing must reproduce: per item its key, fingerprints, classes and signals; the inventory hash. */
function judgement(result: any) {
  const items = (kind: string, key: string) =>
    result[kind].map((item: any) => ({
      key: item[key],
      definitionSha256: item.definitionSha256,
      ...(kind === 'tools' ? { schemaSha256: item.schemaSha256, declaredClass: item.declaredClass, heuristicClass: item.heuristicClass } : {}),
      riskSignals: item.riskSignals,
    }));
  return {
    tools: items('tools', 'name'),
    prompts: items('prompts', 'name'),
    resources: items('resources', 'uri'),
    resourceTemplates: items('resourceTemplates', 'uriTemplate'),
    complete: result.complete,
    inventoryLimit: result.inventoryLimit,
    inventoryHash: result.inventoryHash,
    classCounts: result.classCounts,
    inventoryCheck: result.checks.find((c: any) => c.id === 'inventory'),
  };
}

/** The checks a file cannot run say so, and nothing is stored. */
function expectNoContact(result: any) {
  const status = Object.fromEntries(result.checks.map((c: any) => [c.id, [c.status, c.detail]]));
  expect(status.transport).toEqual(['SKIP', 'Supplied from a file; no server was contacted.']);
  expect(status.protocol[0]).toBe('SKIP');
  expect(status.protocol[1]).toMatch(/^Supplied from a file; no server was contacted/);
  expect(status.historyPersistence[0]).toBe('SKIP');
  expect(result.headline).toMatch(/\(no server was contacted\)/);
  expect(result.transcript).toEqual([]);
  expect(result.tls).toBeNull();
}

describe.each(IDS)('%s: a saved listing gives the live judgement', (id) => {
  it('the raw JSON-RPC responses (every page of every kind, one array)', async () => {
    const { live } = saved.get(id)!;
    expect(live.tools.length).toBeGreaterThan(0);
    // Every kind is covered: each of these servers lists prompts, resources and templates too.
    expect([live.complete, live.prompts.length > 0, live.resources.length > 0, live.resourceTemplates.length > 0]).toEqual([true, true, true, true]);
    const r = await fromFile(`${id}-responses.json`, '--json');
    const result = onlyJson(r);
    expect(judgement(result)).toEqual(judgement(live));
    expectNoContact(result);
    expect(result.drift.status).toBe('FIRST_OBSERVATION');
    expect(result.checks.find((c: any) => c.id === 'drift')).toMatchObject({
      status: 'SKIP',
      detail: 'The file names no endpoint, so there is no stored inventory to compare with.',
    });
    expect(result.endpoint).toBe(`file://${file(`${id}-responses.json`)}`);
    // The exit code is the checks': a warning (risk signals) is 3, as live.
    expect(r.exitCode).toBe(result.checks.some((c: any) => c.status === 'WARN') ? 3 : 0);
  });

  it('the results alone, and svc’s own --json output', async () => {
    const { live } = saved.get(id)!;
    const results = onlyJson(await fromFile(`${id}-results.json`, '--json'));
    expect(judgement(results)).toEqual(judgement(live));
    const own = onlyJson(await fromFile(`${id}-svc.json`, '--json', '--no-store'));
    expect(judgement(own)).toEqual(judgement(live));
    expectNoContact(own);
    // svc's JSON names the server: its identity, instructions and endpoint come back.
    expect([own.serverInfo, own.instructionSignals, own.endpoint, own.negotiatedVersion]).toEqual([
      live.serverInfo,
      live.instructionSignals,
      live.endpoint,
      live.negotiatedVersion,
    ]);
    expect(own.checks.find((c: any) => c.id === 'identity')).toEqual(live.checks.find((c: any) => c.id === 'identity'));
    expect(own.limitations.join(' ')).toContain('changedFields is not reported');
  });
});

describe('drift of svc’s own JSON, keyed by the endpoint it names', () => {
  it('compares with the stored inventory of that endpoint and stores nothing', async () => {
    const { peer } = saved.get('fastmcp')!;
    const env = cleanEnv();
    const db = ['--db', file('drift.db')];
    const stored = await svcIn(['inspect-mcp', peer.url, '--egress-allow', '127.0.0.1/32', '--json', ...db], env);
    writeFileSync(file('fastmcp-stored.json'), stored.stdout);
    expect(onlyJson(stored).checks[0]).toMatchObject({ id: 'historyPersistence', status: 'PASS' });
    const twice = async () => onlyJson(await svcIn(['inspect-mcp', '--from-file', file('fastmcp-stored.json'), '--json', ...db], env));
    for (const result of [await twice(), await twice()]) {
      expect(result.drift.status).toBe('UNCHANGED');
      expect(result.checks.find((c: any) => c.id === 'drift')).toMatchObject({ status: 'PASS' });
      expect(result.checks[0]).toMatchObject({ id: 'historyPersistence', status: 'SKIP' });
    }
    // Nothing was recorded by the two file inspections: the next live one has seen it twice, not four times.
    const again = onlyJson(await svcIn(['inspect-mcp', peer.url, '--egress-allow', '127.0.0.1/32', '--json', ...db], env));
    expect(again.checks[0].detail).toBe('Inventory stored (seen 2 times unchanged).');
  });
});

describe('saved listings svc cannot use: one line, exit 2', () => {
  const bad = async (name: string, content: string | Buffer): Promise<{ r: Run; detail: string }> => {
    writeFileSync(file(name), content);
    const r = await fromFile(name);
    expect({ exitCode: r.exitCode, stdout: r.stdout }, r.stderr).toEqual({ exitCode: 2, stdout: '' });
    return { r, detail: parseCliError(r.stderr).detail };
  };

  it('not JSON, a duplicate member, two tools of one name, a JSON-RPC error, an unknown shape', async () => {
    const p = (name: string) => file(name);
    expect((await bad('not-json.json', 'tools: []')).detail).toBe(
      `The saved inventory ${p('not-json.json')} is not valid JSON (unexpected character at offset 0).`,
    );
    expect((await bad('dup-member.json', '{"tools":[{"name":"a","name":"b"}]}')).detail).toBe(
      `The saved inventory ${p('dup-member.json')} has a duplicate member "name" (at /tools/0/name), which parsers resolve differently.`,
    );
    expect((await bad('dup-tool.json', JSON.stringify([{ tools: [{ name: 'a' }], nextCursor: '2' }, { tools: [{ name: 'a' }] }]))).detail).toBe(
      `The saved inventory ${p('dup-tool.json')} lists two tools with the name "a".`,
    );
    expect((await bad('error.json', '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}')).detail).toBe(
      `The saved inventory ${p('error.json')} is a JSON-RPC error, not a listing.`,
    );
    expect((await bad('shape.json', '[{"tools":[]},{"content":[]}]')).detail).toMatch(
      /^Answer 1 of the saved inventory .* is not a tools\/list, prompts\/list, resources\/list or resources\/templates\/list result/,
    );
    const { r } = await bad('big.json', Buffer.alloc(2 * 1024 * 1024 + 1, 0x20));
    expect(parseCliError(r.stderr)).toMatchObject({ code: 'USAGE_ERROR', detail: `the saved inventory ${p('big.json')} is larger than 2097152 bytes` });
  });

  it('an endpoint and --from-file together, or neither', async () => {
    const both = await svcIn(['inspect-mcp', 'https://tools.example/mcp', '--from-file', file('x.json')], cleanEnv());
    expect([both.exitCode, parseCliError(both.stderr).detail]).toEqual([
      2,
      'give an endpoint, --stdio, --config or --from-file, not two of them (a saved listing is inspected without contacting any server)',
    ]);
    const neither = await svcIn(['inspect-mcp'], cleanEnv());
    expect(neither.exitCode).toBe(2);
  });

  it('svc’s JSON edited after the fact: its inventory hash no longer matches', async () => {
    const own = JSON.parse(JSON.stringify(saved.get('fastmcp')!.live));
    own.tools[0].definitionSha256 = '0'.repeat(64);
    const { detail } = await bad('edited.json', JSON.stringify(own));
    expect(detail).toMatch(/has an inventoryHash that does not match its items' definitionSha256 values/);
  });
});

describe('standard input and the bounds of a live listing', () => {
  it('- reads standard input; a nextCursor without its next page is an incomplete listing', async () => {
    const page = { tools: [{ name: 'get_weather', description: 'Weather for a city.', inputSchema: { type: 'object' } }], nextCursor: 'p2' };
    const r = await execa(process.execPath, [svcBin, 'inspect-mcp', '--from-file', '-', '--json'], {
      input: JSON.stringify(page),
      reject: false,
      env: cleanEnv(),
      extendEnv: true,
    });
    const result = JSON.parse(r.stdout);
    expect(result.endpoint).toBe('-');
    expect(result.tools.map((t: any) => t.name)).toEqual(['get_weather']);
    expect([result.complete, result.inventoryHash, result.inventoryLimit]).toEqual([
      false,
      null,
      'the file ends before the tools/list page after page 1 (its nextCursor)',
    ]);
    expect(result.headline).toMatch(/^From standard input \(no server was contacted\): /);
    expect(r.exitCode).toBe(3);
  });

  it('more than 500 tools: the first 500 are inspected, as live', async () => {
    const tools = Array.from({ length: 501 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    writeFileSync(file('many.json'), JSON.stringify({ tools }));
    const result = onlyJson(await fromFile('many.json', '--json'));
    expect([result.tools.length, result.complete, result.inventoryLimit]).toEqual([
      500,
      false,
      'the server lists more than 500 tools; svc inspects the first 500',
    ]);
  });

  it('an initialize result gives the identity', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'weather', version: '1.2.0' } },
    };
    writeFileSync(file('init.json'), JSON.stringify([init, { tools: [] }]));
    const result = onlyJson(await fromFile('init.json', '--json'));
    expect(result.checks.find((c: any) => c.id === 'identity').detail).toBe(
      'The server calls itself "weather" "1.2.0"; serverInfo is self-reported and unauthenticated, so no identity is attested.',
    );
    expect(result.negotiatedVersion).toBe('2025-11-25');
    expect(result.limitations[0]).toBe(
      `The inventory was read from ${file('init.json')} (1 tools/list result, an initialize result); no server was contacted, so nothing shows that a server lists it now.`,
    );
  });
});
