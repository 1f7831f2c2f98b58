/**
 * Approved baselines (docs/agents.md#approved-baselines) against real servers in this process: an
 * MCP server of the official SDK 1.x and A2A cards signed by @a2a-js/sdk, on loopback HTTPS hosts
 * of one test CA. The CLI runs in process (svcIn): `svc mcp approve --yes` writes the baseline,
 * `svc inspect-mcp --baseline` compares with it — a description changed, a prompt added and a
 * resource removed are each reported against the baseline (exit 1), again on the next run (the
 * baseline does not move), and no longer once approved (the file then round-trips byte for byte
 * through approve). The same for a card (a skill added, its signing key changed), the SARIF
 * locations in the baseline file, bad baselines, and the daemon's POST variants.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { a2aKey, agentCard, publishJwks, serveCard, signCard, type A2aKey, type CardJson } from '../support/a2a-agent.js';
import { cleanEnv, parseCliError, svcIn, type Run } from '../support/cli.js';
import type { DaemonHandle } from '../support/daemon.js';
import { call, expectJson, expectProblem, startInProcessDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { PLAIN_TOOLS, startSdk1Server, type McpTestServer, type ToolSpec } from '../support/mcp-servers.js';
import { createTestCa, type TestCa } from '../support/pki.js';
import { expectValidSarif } from '../support/sarif.js';

const LOOPBACK = ['--egress-allow', '127.0.0.0/8'];
/** The SDK 1.x server speaks the older handshake only: a warning accepted here, as a CI job would after review. */
const ACCEPTED = ['--allow-warn', 'protocol'];

const PROMPTS = [{ name: 'summarise', description: 'Summarise a document.', arguments: [{ name: 'text', required: true }] }];
const RESOURCES = [
  { uri: 'file:///docs/readme.md', name: 'readme', mimeType: 'text/markdown' },
  { uri: 'file:///docs/guide.md', name: 'guide', mimeType: 'text/markdown' },
];

let ca: TestCa;
let dir: string;
let caFile: string;
let host: DidWebHost;
let server: McpTestServer;
const others: DidWebHost[] = [];

beforeAll(async () => {
  ca = createTestCa();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-baseline-'));
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, ca.certPem);
  host = await startDidWebHost({ ca });
  server = await startSdk1Server({
    host,
    tools: PLAIN_TOOLS,
    prompts: PROMPTS,
    resources: RESOURCES,
    stateful: false,
    json: true,
    instructions: 'Use search before fetch.',
  });
});

afterAll(async () => {
  await server?.close();
  await Promise.all(others.map((h) => h.close()));
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ NODE_EXTRA_CA_CERTS: caFile });
const run = (...args: string[]) => svcIn(args, env());
const file = (name: string) => path.join(dir, name);

/** A one-line error naming the file and the problem, exit 2. */
function expectBaselineRefused(r: Run, code: string, detail: RegExp): void {
  expect(r.exitCode, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const error = parseCliError(r.stderr);
  expect(error.code).toBe(code);
  expect(error.detail).toMatch(detail);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('an MCP server against its approved baseline', () => {
  afterEach(() => {
    server.setTools(PLAIN_TOOLS);
    server.setItems('prompts', PROMPTS);
    server.setItems('resources', RESOURCES);
  });

  it('reports each change against the baseline until it is approved, and round-trips the file', async () => {
    const baseline = file('mcp-baseline.json');
    const inspect = () => run('inspect-mcp', server.url, ...LOOPBACK, '--no-store', '--baseline', baseline, ...ACCEPTED, '--json');

    // No baseline yet: a usage error naming the file and the command that writes it.
    const missing = await inspect();
    expect(missing.exitCode).toBe(2);
    expect(parseCliError(missing.stderr)).toMatchObject({ code: 'USAGE_ERROR', detail: `--baseline ${baseline}: no such file` });

    const approved = await run('mcp', 'approve', server.url, ...LOOPBACK, '--baseline', baseline, '--yes', '--json');
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ changes: true, entries: [{ name: server.url, target: server.url, status: 'NEW' }] });
    expect(approved.stderr).toContain(`svc: wrote ${baseline}`);
    const written = readFileSync(baseline, 'utf8');
    expect(JSON.parse(written).servers[server.url].tools.get_weather.definition.description).toBe(
      PLAIN_TOOLS.find((t) => t.name === 'get_weather')!.description,
    );

    const clean = await inspect();
    expect(clean.exitCode, clean.stdout).toBe(0);
    const same = JSON.parse(clean.stdout);
    expect(same.drift).toMatchObject({ status: 'UNCHANGED', baseline: { file: baseline, name: server.url, server: [] } });
    expect(same.checks.find((c: { id: string }) => c.id === 'drift')).toMatchObject({ status: 'PASS' });

    // The server changes: one tool's description, a prompt added, a resource removed.
    const tools: ToolSpec[] = PLAIN_TOOLS.map((t) => (t.name === 'get_weather' ? { ...t, description: 'Weather for a city, in degrees Fahrenheit.' } : t));
    server.setTools(tools);
    server.setItems('prompts', [...PROMPTS, { name: 'exfiltrate', description: 'A new prompt.' }]);
    server.setItems('resources', RESOURCES.slice(0, 1));
    for (let round = 1; round <= 2; round++) {
      const changed = await inspect();
      expect(changed.exitCode, `round ${round}`).toBe(1);
      const result = JSON.parse(changed.stdout);
      expect(result.tools.find((t: { name: string }) => t.name === 'get_weather')).toMatchObject({ drift: 'CHANGED', changedFields: ['description'] });
      expect(result.prompts.find((p: { name: string }) => p.name === 'exfiltrate')).toMatchObject({ drift: 'ADDED' });
      expect(result.drift).toMatchObject({
        status: 'CHANGED',
        changed: ['get_weather'],
        prompts: { added: ['exfiltrate'], removed: [], changed: [] },
        resources: { added: [], removed: ['file:///docs/guide.md'], changed: [] },
        baseline: { file: baseline },
      });
      const check = result.checks.find((c: { id: string }) => c.id === 'drift');
      expect(check.status).toBe('FAIL');
      expect(check.detail).toContain('changed "get_weather"');
      expect(check.detail).toContain('added prompt "exfiltrate"');
      expect(check.detail).toContain('removed resource "file:///docs/guide.md"');
    }
    // --strict or not, accepted warnings or not: a difference is 1.
    expect(
      (await run('inspect-mcp', server.url, ...LOOPBACK, '--no-store', '--baseline', baseline, '--allow-warn', 'protocol,drift', '--quiet')).exitCode,
    ).toBe(1);
    expect((await run('inspect-mcp', server.url, ...LOOPBACK, '--no-store', '--baseline', baseline, '--quiet')).exitCode).toBe(1);

    // The text report says what differs from the baseline.
    const text = await run('inspect-mcp', server.url, ...LOOPBACK, '--no-store', '--baseline', baseline, ...ACCEPTED);
    expect(text.stdout).toContain(`baseline     ${baseline}`);
    expect(text.stdout).toContain('get_weather changed: description');
    expect(text.stdout).toContain('removed from the approved baseline: file:///docs/guide.md');

    // Approve shows the difference and writes it; then the file no longer moves.
    const again = await run('mcp', 'approve', server.url, ...LOOPBACK, '--baseline', baseline, '--yes');
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('CHANGED');
    expect(again.stdout).toContain('~ tool "get_weather": description');
    expect(again.stdout).toContain('+ prompt "exfiltrate"');
    expect(again.stdout).toContain('- resource "file:///docs/guide.md"');
    expect((await inspect()).exitCode).toBe(0);
    const bytes = readFileSync(baseline);
    const unchanged = await run('mcp', 'approve', server.url, ...LOOPBACK, '--baseline', baseline, '--yes', '--json');
    expect(unchanged.exitCode).toBe(0);
    expect(JSON.parse(unchanged.stdout)).toMatchObject({ changes: false, entries: [{ status: 'UNCHANGED' }] });
    expect(unchanged.stderr).toContain('already approves this; nothing written');
    expect(readFileSync(baseline).equals(bytes)).toBe(true);
  });

  it('locates each difference in the baseline file, at the line of its item (SARIF)', async () => {
    const baseline = file('sarif-baseline.json');
    expect((await run('mcp', 'approve', server.url, ...LOOPBACK, '--baseline', baseline, '--yes')).exitCode).toBe(0);
    server.setTools(PLAIN_TOOLS.map((t) => (t.name === 'get_weather' ? { ...t, description: 'Changed.' } : t)));
    server.setItems('resources', RESOURCES.slice(0, 1));
    const r = await run('inspect-mcp', server.url, ...LOOPBACK, '--no-store', '--baseline', baseline, '--format', 'sarif');
    expect(r.exitCode).toBe(1);
    const log = expectValidSarif(JSON.parse(r.stdout)) as any;
    const lines = readFileSync(baseline, 'utf8').split('\n');
    const drift = log.runs[0].results.filter((x: { ruleId: string }) => x.ruleId === 'check.drift');
    expect(drift, JSON.stringify(log.runs[0].results.map((x: any) => [x.ruleId, x.message.text]))).toHaveLength(2);
    for (const [key, expected] of [
      ['tools/get_weather', '        "get_weather": {'],
      ['resources/file:///docs/guide.md', '        "file:///docs/guide.md": {'],
    ] as const) {
      const result = drift.find((x: any) => x.locations[0].logicalLocations[0].fullyQualifiedName === key);
      expect(result, key).toBeDefined();
      expect(result.level).toBe('error');
      const physical = result.locations[0].physicalLocation;
      expect(physical.artifactLocation.uri).toBe(new URL(`file://${baseline}`).href);
      expect(lines[physical.region.startLine - 1]).toBe(expected);
    }
  });

  it('refuses a baseline it cannot use: one line naming the file, exit 2', async () => {
    const good = file('good.json');
    expect((await run('mcp', 'approve', server.url, ...LOOPBACK, '--baseline', good, '--yes', '--quiet')).exitCode).toBe(0);
    const text = readFileSync(good, 'utf8');
    const value = JSON.parse(text);
    const inspectWith = (name: string, content: string) => {
      writeFileSync(file(name), content);
      return run('inspect-mcp', server.url, ...LOOPBACK, '--no-store', '--baseline', file(name));
    };
    expectBaselineRefused(await inspectWith('malformed.json', text.slice(0, 200)), 'INVALID_OPTIONS', /^The baseline .*malformed\.json is not valid JSON/);
    expectBaselineRefused(
      await inspectWith('future.json', text.replace('"version": 1', '"version": 7')),
      'INVALID_OPTIONS',
      /^The baseline .*future\.json is format version 7, from a newer svc; this svc reads version 1/,
    );
    const other = structuredClone(value);
    other.servers = { 'https://elsewhere.example/mcp': { ...value.servers[server.url], target: 'https://elsewhere.example/mcp' } };
    const { baselineText } = await import('../../src/core/baseline.js');
    expectBaselineRefused(
      await inspectWith('other.json', baselineText(other)),
      'INVALID_OPTIONS',
      /^The baseline .*other\.json is the baseline of another server: "https:\/\/elsewhere\.example\/mcp", not /,
    );
    // Two entries for one tool ("add" repeated just before "create_note", which follows it).
    const next = text.indexOf('        "create_note": {');
    const duplicate = `${text.slice(0, next)}${text.slice(text.indexOf('        "add": {'), next)}${text.slice(next)}`;
    expectBaselineRefused(await inspectWith('duplicate.json', duplicate), 'INVALID_OPTIONS', /^The baseline .*duplicate\.json has a duplicate member "add"/);
    expectBaselineRefused(await inspectWith('reformatted.json', JSON.stringify(value)), 'INVALID_OPTIONS', /is not laid out as svc writes a baseline/);
    // Approve refuses to overwrite what it cannot read, too.
    const refusedApproval = await run('mcp', 'approve', server.url, ...LOOPBACK, '--baseline', file('future.json'), '--yes');
    expectBaselineRefused(refusedApproval, 'INVALID_OPTIONS', /from a newer svc/);
    // No terminal and no --yes: refused before anything runs, naming --yes.
    const noTty = await run('mcp', 'approve', server.url, ...LOOPBACK, '--baseline', file('never.json'));
    expect(noTty.exitCode).toBe(2);
    expect(parseCliError(noTty.stderr)).toMatchObject({ code: 'USAGE_ERROR' });
    expect(noTty.stderr).toContain('--yes');
  });
});

describe('an A2A card against its approved baseline', () => {
  let agent: DidWebHost;
  let card: CardJson;
  let key: A2aKey;

  beforeAll(async () => {
    agent = await startDidWebHost({ ca });
    others.push(agent);
    key = await a2aKey('ES256');
    const jku = publishJwks(agent.server, [{ key, kid: 'card-key' }], '/jwks.json');
    card = await signCard(agentCard(agent.server.origin), key, { kid: 'card-key', jku });
    serveCard(agent.server, () => card);
  });

  it('pins the card, its skills and signing keys: a skill added and a new key are reported, until approved', async () => {
    const baseline = file('a2a-baseline.json');
    const inspect = () => run('inspect-a2a', agent.server.origin, ...LOOPBACK, '--baseline', baseline, '--json');
    expect((await run('a2a', 'approve', agent.server.origin, ...LOOPBACK, '--baseline', baseline, '--yes')).exitCode).toBe(0);
    const clean = await inspect();
    const result = JSON.parse(clean.stdout);
    expect(result.checks.at(-1)).toMatchObject({ id: 'drift', status: 'PASS' });
    expect(result.baseline).toMatchObject({ status: 'UNCHANGED', file: baseline });

    // Re-signed by the same key: no change (the baseline pins the card without its signatures).
    const jku = `${agent.server.origin}/jwks.json`;
    const original = structuredClone(card);
    delete original['signatures'];
    card = await signCard(original as CardJson, key, { kid: 'card-key', jku });
    expect((await inspect()).exitCode).toBe(clean.exitCode);

    // A skill added, and the card signed by another key published under a new kid.
    const other = await a2aKey('ES256');
    publishJwks(
      agent.server,
      [
        { key, kid: 'card-key' },
        { key: other, kid: 'card-key-2' },
      ],
      '/jwks.json',
    );
    const skills = [...((original['skills'] as unknown[]) ?? []), { id: 'wire-money', name: 'Wire money', description: 'Sends money.', tags: ['payments'] }];
    card = await signCard({ ...original, skills } as CardJson, other, { kid: 'card-key-2', jku });
    for (let round = 1; round <= 2; round++) {
      const changed = await inspect();
      expect(changed.exitCode, `round ${round}`).toBe(1);
      const value = JSON.parse(changed.stdout);
      expect(value.baseline).toMatchObject({
        status: 'CHANGED',
        skills: { added: ['wire-money'], removed: [], changed: [] },
        signingKeys: { added: ['card-key-2'], removed: ['card-key'] },
        card: [],
      });
      expect(value.checks.at(-1)).toMatchObject({ id: 'drift', status: 'FAIL' });
    }
    const sarif = await run('inspect-a2a', agent.server.origin, ...LOOPBACK, '--baseline', baseline, '--format', 'sarif');
    const log = expectValidSarif(JSON.parse(sarif.stdout)) as any;
    const removedKey = log.runs[0].results.find(
      (x: any) => x.ruleId === 'check.drift' && x.locations[0].logicalLocations[0].fullyQualifiedName === 'signingKeys/card-key',
    );
    const lines = readFileSync(baseline, 'utf8').split('\n');
    expect(lines[removedKey.locations[0].physicalLocation.region.startLine - 1]).toBe('        "card-key": {');

    const approved = await run('a2a', 'approve', agent.server.origin, ...LOOPBACK, '--baseline', baseline, '--yes');
    expect(approved.exitCode, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('+ skill "wire-money"');
    expect(approved.stdout).toContain('+ signing key "card-key-2"');
    expect((await inspect()).exitCode).toBe(clean.exitCode);
    const bytes = readFileSync(baseline);
    expect((await run('a2a', 'approve', agent.server.origin, ...LOOPBACK, '--baseline', baseline, '--yes')).exitCode).toBe(0);
    expect(readFileSync(baseline).equals(bytes)).toBe(true);

    // The same kid, another key behind it (the JWK set rotated): the key's thumbprint changed.
    const rotated = await a2aKey('ES256');
    publishJwks(agent.server, [{ key: rotated, kid: 'card-key-2' }], '/jwks.json');
    card = await signCard({ ...original, skills } as CardJson, rotated, { kid: 'card-key-2', jku });
    const swapped = await inspect();
    expect(swapped.exitCode).toBe(1);
    expect(JSON.parse(swapped.stdout).baseline.signingKeys).toEqual({
      added: [],
      removed: [],
      changed: [{ key: 'card-key-2', changedFields: ['keyThumbprint'] }],
    });
  });
});

describe('the daemon: POST /v1/mcp/inspect and /v1/a2a/inspect with a baseline', () => {
  let daemon: DaemonHandle;

  beforeAll(async () => {
    daemon = await startInProcessDaemonFor(host);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  const post = (route: string, body: unknown) =>
    call(`${daemon.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('compares with the entry approved from the endpoint; a baseline it cannot use is 400', async () => {
    const baselineFile = file('daemon-baseline.json');
    expect((await run('mcp', 'approve', server.url, ...LOOPBACK, '--baseline', baselineFile, '--yes', '--quiet')).exitCode).toBe(0);
    const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
    const same = expectJson(await post('/v1/mcp/inspect', { endpoint: server.url, baseline }), 200);
    expect(same.drift).toMatchObject({ status: 'UNCHANGED', baseline: { file: 'the request body', name: server.url } });
    server.setItems('resources', RESOURCES.slice(1));
    let changed: any;
    try {
      changed = expectJson(await post('/v1/mcp/inspect', { endpoint: server.url, baseline }), 200);
    } finally {
      server.setItems('resources', RESOURCES);
    }
    expect(changed.drift.resources.removed).toEqual(['file:///docs/readme.md']);
    expect(changed.checks.find((c: { id: string }) => c.id === 'drift').status).toBe('FAIL');

    const future = expectProblem(await post('/v1/mcp/inspect', { endpoint: server.url, baseline: { ...baseline, version: 2 } }), 400, 'INVALID_REQUEST');
    expect(future.detail).toBe('The baseline in the request body is format version 2, from a newer svc; this svc reads version 1 (upgrade svc to read it).');
    const elsewhere = expectProblem(await post('/v1/mcp/inspect', { endpoint: `${host.server.origin}/elsewhere`, baseline }), 400, 'INVALID_REQUEST');
    expect(elsewhere.detail).toMatch(/^The baseline in the request body is the baseline of another server/);
    expectProblem(await post('/v1/mcp/inspect', { endpoint: server.url }), 400, 'INVALID_REQUEST');
    const duplicate = await call(`${daemon.url}/v1/mcp/inspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"endpoint":${JSON.stringify(server.url)},"baseline":{"format":"svc-mcp-baseline","format":"svc-mcp-baseline"}}`,
    });
    expectProblem(duplicate, 400, 'INVALID_REQUEST');
  });
});
