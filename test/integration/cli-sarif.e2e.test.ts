/**
 * `--format sarif` of `svc inspect-mcp` and `svc inspect-a2a`: the CLI in the
 * test process (svcIn) against a poisoned SDK 2.x server and a signed A2A card on loopback HTTPS
 * hosts of one test CA, and the reference server @modelcontextprotocol/server-everything as a real
 * process. Each log validates with ajv (test/support/sarif.ts: the subset of SARIF 2.1.0 svc
 * writes, and the official OASIS schema when SVC_SARIF_SCHEMA names it); exit codes are those of
 * the report.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aKey, agentCard, serveCard, signCard } from '../support/a2a-agent.js';
import { assertBuilt, cleanEnv, expectUsageError, parseCliError, svcIn } from '../support/cli.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { closedPort } from '../support/https-server.js';
import { PEERS, startPeer, type PeerProcess } from '../support/mcp-peers.js';
import { POISONED_TOOLS, startSdk2Server, type McpTestServer } from '../support/mcp-servers.js';
import { createTestCa, type TestCa } from '../support/pki.js';
import { expectValidSarif, multitoolFindings } from '../support/sarif.js';

const LOOPBACK = ['--egress-allow', '127.0.0.0/8'];
const FINGERPRINT = 'svcFinding/v1';

let ca: TestCa;
let dir: string;
let caFile: string;
const hosts: DidWebHost[] = [];
let poisoned: McpTestServer;
let peer: PeerProcess;

beforeAll(async () => {
  assertBuilt();
  ca = createTestCa();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-sarif-'));
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, ca.certPem);
  const host = await startDidWebHost({ ca });
  hosts.push(host);
  poisoned = await startSdk2Server({ host, path: '/poisoned', tools: POISONED_TOOLS });
  peer = await startPeer(PEERS.find((p) => p.id === 'server-everything')!);
}, 60_000);

afterAll(async () => {
  await poisoned?.close();
  await peer?.close();
  await Promise.all(hosts.map((h) => h.close()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ NODE_EXTRA_CA_CERTS: caFile });
const mcp = (endpoint: string, ...args: string[]) => svcIn(['inspect-mcp', endpoint, ...LOOPBACK, '--no-store', ...args], env());

/** Every log the tests read, for Microsoft's SARIF Multitool at the end of the file. */
const seen: unknown[] = [];

/** One SARIF log on stdout, valid; nothing on stderr. */
function sarifOf(r: { stdout: string; stderr: string }): any {
  expect(r.stderr, r.stderr).toBe('');
  const log = expectValidSarif(JSON.parse(r.stdout));
  seen.push(log);
  return log;
}

/** `ruleId location-name` → fingerprint, for every result. */
function fingerprints(log: any): Map<string, string> {
  return new Map(
    log.runs[0].results.map((r: any) => [
      `${r.ruleId} ${r.locations[0].logicalLocations[0].fullyQualifiedName} ${r.properties?.signalLocation ?? ''} ${r.properties?.parameter ?? ''}`,
      r.partialFingerprints[FINGERPRINT],
    ]),
  );
}

describe('svc inspect-mcp --format sarif', () => {
  it('a poisoned SDK server: a valid SARIF 2.1.0 log, a warning per risk signal and WARN check, exit 3 as the report', async () => {
    const r = await mcp(poisoned.url, '--format', 'sarif');
    expect(r.exitCode).toBe(3);
    const log = sarifOf(r);
    const json = JSON.parse((await mcp(poisoned.url, '--json')).stdout);
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0];
    expect(run.tool.driver).toMatchObject({ name: 'svc', informationUri: 'man:svc(1)' });
    expect(run.tool.driver.version).toMatch(/^\d+\.\d+\.\d+/);
    const ruleIds = run.tool.driver.rules.map((rule: any) => rule.id);
    expect(ruleIds).toContain('hidden_instruction_tag');
    expect(ruleIds).toContain('check.inventory');
    for (const rule of run.tool.driver.rules) {
      expect(rule.shortDescription.text && rule.fullDescription.text && rule.help.text && rule.name, rule.id).toBeTruthy();
      expect(rule.defaultConfiguration.level).toBe('warning');
    }
    expect(run.invocations).toEqual([{ executionSuccessful: true, exitCode: 3 }]);
    expect(run.properties).toMatchObject({ endpoint: poisoned.url, inventoryHash: json.inventoryHash, hashProfile: json.hashProfile });

    // One result per risk signal of every tool (in order), then one per WARN check.
    const signals = json.tools.flatMap((t: any) => t.riskSignals.map((s: any) => [s.id, `tools/${t.name}`]));
    const warns = json.checks.filter((c: any) => c.status === 'WARN').map((c: any) => [`check.${c.id}`, poisoned.url]);
    expect(signals.length).toBeGreaterThan(3);
    expect(run.results.map((x: any) => [x.ruleId, x.locations[0].logicalLocations[0].fullyQualifiedName])).toEqual([...signals, ...warns]);
    for (const result of run.results) {
      expect(result.level).toBe('warning');
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
      expect(result.locations[0]).not.toHaveProperty('physicalLocation');
      expect(result.partialFingerprints[FINGERPRINT]).toMatch(/^[0-9a-f]{64}$/);
    }
    const add = run.results.find((x: any) => x.ruleId === 'hidden_instruction_tag' && x.locations[0].logicalLocations[0].name === 'add');
    expect(add.locations[0].logicalLocations[0]).toEqual({ name: 'add', fullyQualifiedName: 'tools/add', kind: 'function' });
    expect(add.message.text).toMatch(/^Tool "add", description: an <IMPORTANT> tag/);
    const tool = json.tools.find((t: any) => t.name === 'add');
    expect(add.properties).toMatchObject({ declaredClass: tool.declaredClass, heuristicClass: tool.heuristicClass, definitionSha256: tool.definitionSha256 });

    // The invisible characters of lookup_word never reach the log raw: shown as U+XXXX.
    expect(r.stdout).not.toMatch(/[\u200b-\u200f\u{e0000}-\u{e007f}]/u);
    const invisible = run.results.find((x: any) => x.ruleId === 'invisible_unicode');
    expect(invisible.properties.excerpt).toMatch(/U\+200B/);
  });

  it('partialFingerprints: the same across two runs, new for a tool whose description changed, the others kept', async () => {
    const first = fingerprints(sarifOf(await mcp(poisoned.url, '--format', 'sarif')));
    const second = fingerprints(sarifOf(await mcp(poisoned.url, '--format', 'sarif')));
    expect(second).toEqual(first);
    const changed = POISONED_TOOLS.map((t) => (t.name === 'add' ? { ...t, description: `${t.description} Returns the sum.` } : t));
    poisoned.setTools(changed);
    try {
      const third = fingerprints(sarifOf(await mcp(poisoned.url, '--format', 'sarif')));
      const addKeys = [...first.keys()].filter((k) => k.includes(' tools/add '));
      expect(addKeys.length).toBeGreaterThan(0);
      for (const key of addKeys) {
        expect(third.get(key), key).toBeDefined();
        expect(third.get(key), key).not.toBe(first.get(key));
      }
      for (const key of [...first.keys()].filter((k) => k.startsWith('hidden_instruction_tag tools/format_text')))
        expect(third.get(key), key).toBe(first.get(key));
    } finally {
      poisoned.setTools(POISONED_TOOLS);
    }
  });

  it('--allow-warn: the accepted WARN check is a suppressed result; the exit code is the report’s', async () => {
    const r = await mcp(poisoned.url, '--format', 'sarif', '--allow-warn', 'inventory');
    expect(r.exitCode).toBe(0);
    const inventory = sarifOf(r).runs[0].results.find((x: any) => x.ruleId === 'check.inventory');
    expect(inventory.suppressions).toEqual([{ kind: 'external', status: 'accepted', justification: 'accepted with --allow-warn' }]);
  });

  it('the reference server (server-everything): a valid log naming get-env with its classes', async () => {
    const r = await svcIn(['inspect-mcp', peer.url, '--egress-allow', '127.0.0.1/32', '--no-store', '--format', 'sarif'], cleanEnv());
    expect(r.exitCode).toBe(3);
    const run = sarifOf(r).runs[0];
    const getEnv = run.results.find((x: any) => x.ruleId === 'reads_environment');
    expect(getEnv.locations[0].logicalLocations[0]).toEqual({ name: 'get-env', fullyQualifiedName: 'tools/get-env', kind: 'function' });
    expect(getEnv.properties).toMatchObject({ declaredClass: 'read_only', heuristicClass: 'sensitive_read' });
    expect(run.results.map((x: any) => x.ruleId)).toContain('check.transport');
  });

  it('--format json is --json; --format sarif with --json is a usage error (exit 2); an unknown format too', async () => {
    const json = await mcp(poisoned.url, '--format', 'json');
    expect(json.exitCode).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ endpoint: poisoned.url, status: 'INSPECTED' });
    expectUsageError(await mcp(poisoned.url, '--format', 'sarif', '--json'), /^--format sarif and --json each print a document of their own/, 'inspect-mcp');
    const unknown = await mcp(poisoned.url, '--format', 'xml');
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stdout).toBe('');
  });

  it('no answer (exit 4): a log whose invocation failed with an error notification, and the one error on stderr', async () => {
    const endpoint = `https://localhost:${await closedPort()}/mcp`;
    const r = await mcp(endpoint, '--format', 'sarif');
    expect(r.exitCode).toBe(4);
    const log = expectValidSarif(JSON.parse(r.stdout));
    seen.push(log);
    const run = log.runs[0];
    expect(run.results).toEqual([]);
    expect(run.invocations).toHaveLength(1);
    expect(run.invocations[0]).toMatchObject({ executionSuccessful: false, exitCode: 4 });
    expect(run.invocations[0].toolExecutionNotifications).toEqual([
      { level: 'error', message: { text: expect.stringMatching(/^UPSTREAM_UNAVAILABLE: /) }, descriptor: { id: 'UPSTREAM_UNAVAILABLE' } },
    ]);
    expect(run.properties).toMatchObject({ command: 'inspect-mcp', endpoint, problem: { code: 'UPSTREAM_UNAVAILABLE' } });
    expect(parseCliError(r.stderr).code).toBe('UPSTREAM_UNAVAILABLE');
  });
});

describe('svc inspect-a2a --format sarif', () => {
  it('a signed card: a valid log without results (exit 0); an unsigned card naming no provider: a warning for the provider WARN, exit 3', async () => {
    const key = await a2aKey('ES256');
    const signedHost = await startDidWebHost({ ca });
    hosts.push(signedHost);
    const { publishJwks } = await import('../support/a2a-agent.js');
    const jku = publishJwks(signedHost.server, [{ key, kid: 'card-key-1' }]);
    serveCard(signedHost.server, await signCard(agentCard(signedHost.server.origin), key, { kid: 'card-key-1', jku }));
    const signed = await svcIn(['inspect-a2a', signedHost.server.origin, ...LOOPBACK, '--format', 'sarif'], env());
    expect(signed.exitCode).toBe(0);
    const run = sarifOf(signed).runs[0];
    expect(run.results).toEqual([]);
    expect(run.tool.driver.rules.map((r: any) => r.id)).toEqual(
      ['fetch', 'schema', 'version', 'interfaces', 'origin', 'provider', 'security', 'signature', 'drift'].map((id) => `check.${id}`),
    );
    expect(run.properties).toMatchObject({ command: 'inspect-a2a', endpoint: expect.stringContaining(signedHost.server.origin), signatures: ['VALID'] });
    expect(run.invocations).toEqual([{ executionSuccessful: true, exitCode: 0 }]);

    const unsignedHost = await startDidWebHost({ ca });
    hosts.push(unsignedHost);
    const { provider: _provider, ...noProvider } = agentCard(unsignedHost.server.origin) as any;
    serveCard(unsignedHost.server, noProvider);
    const unsigned = await svcIn(['inspect-a2a', unsignedHost.server.origin, ...LOOPBACK, '--format', 'sarif'], env());
    expect(unsigned.exitCode).toBe(3);
    const results = sarifOf(unsigned).runs[0].results;
    expect(results.map((x: any) => [x.ruleId, x.level])).toContainEqual(['check.provider', 'warning']);
    expect(results[0].locations[0].logicalLocations[0]).toMatchObject({ kind: 'resource' });
  });

  it('a card whose interface is not https: the FAIL check is an error, exit 1', async () => {
    const host = await startDidWebHost({ ca });
    hosts.push(host);
    const card = agentCard(host.server.origin) as any;
    card.supportedInterfaces = [{ ...card.supportedInterfaces[0], url: 'http://agent.example/a2a' }];
    serveCard(host.server, card);
    const r = await svcIn(['inspect-a2a', host.server.origin, ...LOOPBACK, '--format', 'sarif'], env());
    expect(r.exitCode).toBe(1);
    const results = sarifOf(r).runs[0].results;
    expect(results.map((x: any) => [x.ruleId, x.level])).toContainEqual(['check.interfaces', 'error']);
  });
});

describe("Microsoft's SARIF Multitool (the SARIF SDK's validator, run as a process)", () => {
  it('finds nothing to report in any log above: the schema holds and no SARIF rule fires', async () => {
    expect(seen.length).toBeGreaterThanOrEqual(8);
    expect(await multitoolFindings(seen)).toEqual([]);
  }, 150_000);

  it('does report a log that breaks the schema (the check can fail)', async () => {
    const broken = structuredClone(seen[0]) as any;
    delete broken.runs[0].tool.driver.name;
    expect((await multitoolFindings([broken])).join('\n')).toMatch(/JSON1002 error: .*runs\[0\]\.tool\.driver/);
  }, 150_000);
});
