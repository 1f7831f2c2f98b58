/**
 * Evidence bundles end to end (docs/evidence.md#evidence-bundles), the CLI in the test process
 * (svcIn) against real loopback HTTPS hosts under the test CA: `--bundle` on `svc resolve` (a
 * did:web whose DID configuration verifies; a did:webvh with witnesses), `svc verify-credential`
 * (a vc+jwt by a did:web issuer, with a status list) and `svc inspect-mcp` (the official SDK
 * servers: 1.x with sessions and SSE replies, 2.x on the modern protocol). The hosts are then
 * stopped, and each bundle is checked offline by `verifyBundle`:
 *
 *   - as written: VERIFIED;
 *   - one byte of any recorded resource flipped: FAILED naming the resource; flipped with its
 *     SHA-256 updated too (an attacker who rewrites the digest): FAILED naming where the re-run
 *     differs from the recorded result;
 *   - a year later: the certificates "valid at observation, expired now", CHANGED_SINCE.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBundle, digest, encodeBundle, fromBase64, toBase64, type EvidenceBundle } from '../../src/core/bundle/format.js';
import { parseAnchors } from '../../src/core/bundle/tls.js';
import { verifyBundle, type BundleVerification } from '../../src/core/bundle/verify.js';
import { systemClock } from '../../src/runtime/node.js';
import { cleanEnv, expectUsageError, onlyJson, svcIn } from '../support/cli.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { a2aKey, agentCard, agentDidDocument, publishJwks, serveCard, signCard } from '../support/a2a-agent.js';
import { closedPort, json, raw } from '../support/https-server.js';
import { PLAIN_ITEMS, PLAIN_TOOLS, startSdk1Server, startSdk2Server } from '../support/mcp-servers.js';
import { issueVcJwt, jwtIssuer, statusEntry, statusListCredential, unsignedCredential } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { didConfiguration, didDocument, generateTestKey, linkageCredentialDi } from '../support/signing.js';
import { createWebvhLog, witnessFileText } from '../support/webvh-log.js';

let dir: string;
let host: DidWebHost;
const bundles: Record<string, EvidenceBundle> = {};
const results: Record<string, unknown> = {};

const file = (name: string) => path.join(dir, name);

/** Runs the CLI in process trusting the test CA, loopback allowed, its state in the test folder. */
async function run(args: string[]) {
  return svcIn(args, cleanEnv({ NODE_EXTRA_CA_CERTS: file('ca.pem'), SVC_EGRESS_ALLOW: '127.0.0.0/8', XDG_STATE_HOME: file('state') }));
}

/** Runs a command with --bundle and --json; keeps its result and its bundle. */
async function bundled(name: string, args: string[], exitCode = 0): Promise<void> {
  const r = await run([...args, '--bundle', file(`${name}.bundle.json`), '--json']);
  expect(r.exitCode, r.stderr).toBe(exitCode);
  expect(r.stderr.split('\n')[0]).toBe(`svc: the evidence bundle is in ${file(`${name}.bundle.json`)}`);
  results[name] = exitCode === 4 ? null : onlyJson(r);
  bundles[name] = decodeBundle(readFileSync(file(`${name}.bundle.json`)));
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-bundles-'));
  host = await startDidWebHost();
  writeFileSync(file('ca.pem'), host.ca.certPem);
  const origin = `https://localhost:${host.server.port}`;

  // (a) a did:web whose DID configuration verifies (domain linkage).
  const web = host.did('web');
  host.publish(web);
  host.server.route('/.well-known/did-configuration.json', json(didConfiguration(linkageCredentialDi(web, origin, host.key, `${web}#key-1`))));

  // (b) a did:webvh whose entries need one witness approval each, with its witness file.
  const witness = generateTestKey('EdDSA');
  const log = createWebvhLog({
    domain: `localhost%3A${host.server.port}:vh`,
    params: { witness: { threshold: 1, witnesses: [{ id: `did:key:${witness.multikey}` }] } },
  });
  log.append();
  host.server.route('/vh/did.jsonl', raw(log.text(), { contentType: 'text/jsonl' }));
  host.server.route(
    '/vh/did-witness.json',
    raw(witnessFileText(log.entries.map((e) => ({ versionId: e['versionId'] as string, by: [witness] }))), { contentType: 'application/json' }),
  );

  // (c) a vc+jwt by a did:web issuer, with a BitstringStatusList (itself a vc+jwt by the issuer).
  const issuerDid = host.did('issuer');
  const signer = { ...jwtIssuer('EdDSA'), did: issuerDid, kid: `${issuerDid}#key-1` };
  const issuerDocument = didDocument(issuerDid, generateTestKey('EdDSA')) as { verificationMethod: Array<Record<string, unknown>> };
  issuerDocument.verificationMethod[0]!['publicKeyMultibase'] = signer.publicKeyMultibase;
  host.publish(issuerDid, issuerDocument);
  const listUrl = `${origin}/status/1`;
  const list = await statusListCredential({ issuer: { did: issuerDid } as never, id: listUrl, purpose: 'revocation', set: [7], sign: false });
  host.server.route('/status/1', raw(await issueVcJwt(list, signer), { contentType: 'application/vc+jwt' }));
  writeFileSync(file('credential.jwt'), `${await issueVcJwt(unsignedCredential(issuerDid, { credentialStatus: statusEntry(listUrl, 3) }), signer)}\n`);

  // (d) MCP: the SDK 1.x server with sessions and SSE replies (resumable: priming events), and the 2.x one.
  const sdk1 = await startSdk1Server({ host, path: '/mcp1', tools: PLAIN_TOOLS, ...PLAIN_ITEMS, stateful: true, json: false, eventStore: true });
  const sdk2 = await startSdk2Server({ host, path: '/mcp2', tools: PLAIN_TOOLS, ...PLAIN_ITEMS });

  await bundled('did-web', ['resolve', web]);
  await bundled('did-webvh', ['resolve', log.did]);
  await bundled('credential', ['verify-credential', file('credential.jwt')]);
  // The second inspection compares with the first (stored in the test's state folder): drift UNCHANGED.
  // (The legacy handshake alone is a protocol warning: exit 3.)
  expect((await run(['inspect-mcp', sdk1.url])).exitCode).toBe(3);
  await bundled('mcp-sdk1', ['inspect-mcp', sdk1.url], 3);
  await bundled('mcp-sdk2', ['inspect-mcp', sdk2.url, '--no-store']);

  // (e) an A2A card signed twice: a did:web kid (the DID document fetched) and a jku (the JWK set fetched).
  const agentDid = host.did('agent');
  const [didKey, jkuKey] = [await a2aKey('EdDSA'), await a2aKey('ES256')];
  host.publish(agentDid, agentDidDocument(agentDid, [{ fragment: 'card', key: didKey, relationships: ['assertionMethod'] }]));
  const jku = publishJwks(host.server, [{ key: jkuKey, kid: 'card-key' }]);
  serveCard(host.server, await signCard(await signCard(agentCard(origin), didKey, { kid: `${agentDid}#card` }), jkuKey, { kid: 'card-key', jku }));
  await bundled('a2a', ['inspect-a2a', origin]);

  // Requests that got no response are part of the record: a status list on a closed port (INDETERMINATE) …
  const closed = await closedPort();
  writeFileSync(
    file('unreachable-list.jwt'),
    await issueVcJwt(unsignedCredential(issuerDid, { credentialStatus: statusEntry(`https://localhost:${closed}/status/9`, 3) }), signer),
  );
  await bundled('unreachable-list', ['verify-credential', file('unreachable-list.jwt')], 3);
  // … and runs that end in a problem: a DID host that is not there, a DID document that is not found.
  await bundled('unreachable-did', ['resolve', `did:web:localhost%3A${closed}`], 4);
  await bundled('not-found', ['resolve', host.did('nobody')], 4);

  await sdk1.close();
  await sdk2.close();
  await host.close();
}, 60_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Verified offline: a Runtime that could fetch nothing (no allowance), trusting the test CA. */
function verify(bundle: EvidenceBundle, now?: Date): Promise<BundleVerification> {
  const runtime = testRuntime(now ? fixedClock(now.toISOString()) : systemClock);
  return verifyBundle(bundle, { runtime, trustAnchors: parseAnchors([host.ca.certPem]) });
}

const NAMES = ['did-web', 'did-webvh', 'credential', 'mcp-sdk1', 'mcp-sdk2', 'a2a'];

describe('bundles made over loopback HTTPS, verified with the hosts stopped', () => {
  it('recorded what each run fetched, and what it was given', () => {
    // A DID's document (or log) and its DID configuration are fetched together: in either order.
    const purposes = (name: string) => bundles[name]!.resources.map((r) => r.purpose).sort();
    expect(purposes('did-web')).toEqual(['DID configuration', 'DID document']);
    expect(purposes('did-webvh')).toEqual(['DID configuration', 'DID log', 'whois presentation', 'witness proofs']);
    expect(purposes('credential')).toEqual(['DID configuration', 'DID document', 'status list credential']);
    expect(bundles['credential']!.inputs.map((i) => i.name)).toEqual(['credential']);
    expect(bundles['credential']!.command).toEqual({ kind: 'verify-credential', subject: file('credential.jwt'), options: {} });
    // The 2025-11-25 conversation: the modern probe refused, initialize (the session issued), the listings, DELETE.
    expect(bundles['mcp-sdk1']!.resources.map((r) => `${r.request.method} ${r.response.status} ${r.response.headers['content-type'] ?? ''}`)).toEqual([
      'POST 400 application/json',
      'POST 200 text/event-stream',
      'POST 202 ',
      'POST 200 text/event-stream',
      'POST 200 text/event-stream',
      'POST 200 text/event-stream',
      'POST 200 text/event-stream',
      'DELETE 200 ',
    ]);
    expect(bundles['mcp-sdk1']!.resources[1]!.response.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    // The second inspection's drift rests on the first one's stored inventory: it is in the bundle.
    expect(bundles['mcp-sdk1']!.command.options).toEqual({ storage: 'on' });
    expect(bundles['mcp-sdk1']!.inputs.map((i) => i.name)).toEqual(['mcp-history']);
    expect(results['mcp-sdk1']).toMatchObject({ drift: { status: 'UNCHANGED' } });
    expect(bundles['mcp-sdk2']!.command.options).toEqual({ storage: 'off' });
    expect(purposes('a2a')).toEqual(['DID configuration', 'DID document', 'JWK set', 'agent card']);
    for (const name of NAMES) {
      const { acceptedWarnings: _accepted, ...result } = results[name] as Record<string, unknown>;
      expect(bundles[name]!.result, name).toEqual(result);
      expect(bundles[name]!.failures, name).toBeUndefined();
    }
  });

  it.each(NAMES)('%s: VERIFIED, then and now', async (name) => {
    const verified = await verify(bundles[name]!);
    expect(verified.summary).toMatch(/^every recorded resource is intact and every check gives the recorded result/);
    expect(verified.outcome).toBe('VERIFIED');
    expect(verified.atObservation).toMatchObject({ matches: true, unrecorded: [] });
    expect(verified.now).toMatchObject({ matches: true, unrecorded: [] });
    expect(verified.tls.map((t) => t.summary)).toEqual(bundles[name]!.resources.map(() => 'valid at observation, valid now'));
    expect(verified.tls.every((t) => t.anchorTrusted === true && t.anchor === 'CN=svc test CA, O=svc tests')).toBe(true);
  });

  it('the same check without the test CA among the anchors: INDETERMINATE, naming the anchor', async () => {
    const verified = await verifyBundle(bundles['did-web']!, { runtime: testRuntime(systemClock), trustAnchors: [] });
    expect(verified.outcome).toBe('INDETERMINATE');
    expect(verified.summary).toBe('r1: this machine does not trust the anchor CN=svc test CA, O=svc tests');
  });
});

/** Every string the recorded result holds, longest first. */
function reported(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) reported(v, out);
  return [...new Set(out)].sort((a, b) => b.length - a.length);
}

/**
 * Where to flip: the middle byte of the longest string the result reports that the body holds as
 * a JSON string ("…"), else a number it quotes, else that string anywhere — a byte some check
 * reads; else the middle of the body (a JWT: every byte is signed).
 */
function flipPosition(bundle: EvidenceBundle, body: Uint8Array): number {
  const bytes = Buffer.from(body);
  const strings = reported(bundle.result).filter((text) => text.length >= 4);
  for (const text of strings) {
    const at = bytes.indexOf(Buffer.from(JSON.stringify(text), 'utf8'));
    if (at !== -1) return at + 1 + Math.floor(text.length / 2);
  }
  // A number the result quotes (a JSON-RPC error code in "JSON-RPC error -32000").
  for (const number of strings.flatMap((text) => text.match(/\d{3,}/g) ?? [])) {
    const at = bytes.indexOf(Buffer.from(number, 'utf8'));
    if (at !== -1) return at + Math.floor(number.length / 2);
  }
  for (const text of strings) {
    const at = bytes.indexOf(Buffer.from(text, 'utf8'));
    if (at !== -1) return at + Math.floor(text.length / 2);
  }
  return Math.floor(body.length / 2);
}

/** The bundle with one byte of resource `id`'s body flipped; `sha`: the recorded SHA-256 updated to match. */
function flipped(bundle: EvidenceBundle, id: string, sha: boolean): EvidenceBundle {
  const copy = structuredClone(bundle);
  const resource = copy.resources.find((r) => r.id === id)!;
  const body = fromBase64(resource.response.body)!;
  body[flipPosition(bundle, body)]! ^= 0x01;
  resource.response.body = toBase64(body);
  if (sha) resource.response.sha256 = digest(body);
  return decodeBundle(encodeBundle(copy));
}

/**
 * Resources no reported conclusion rests on: resolving a DID fetches its DID configuration too,
 * but a credential's result (the issuer's resolution outcome) and an agent card's (the key a DID
 * kid names) do not change with its origin binding — so rewriting those bytes and their digest
 * together leaves nothing to find. A bundle proves that the recorded bytes give the recorded
 * result, not that bytes no check reads are the host's.
 */
const UNREAD: Readonly<Record<string, readonly string[]>> = { credential: ['DID configuration'], a2a: ['DID configuration'] };

describe('one flipped byte in any recorded resource', () => {
  for (const name of NAMES) {
    it(`${name}: FAILED naming the resource; with its SHA-256 rewritten, naming where the re-run differs`, async () => {
      const bundle = bundles[name]!;
      let flips = 0;
      for (const resource of bundle.resources) {
        // Nothing to flip in an empty body (an MCP notification's 202, the session's DELETE).
        if (resource.response.bytes === 0) {
          expect(resource.purpose).toMatch(/^MCP (notifications\/initialized reply|session end)$/);
          continue;
        }
        flips++;
        const kept = await verify(flipped(bundle, resource.id, false));
        expect(kept.outcome, resource.id).toBe('FAILED');
        expect(kept.summary).toBe(`${resource.id} (${resource.purpose}, ${resource.request.url}): its bytes do not match the SHA-256 recorded with them`);
        expect(kept.resources.filter((r) => !r.intact).map((r) => r.id)).toEqual([resource.id]);
        expect(kept.atObservation!.matches, `${resource.id} ${resource.purpose}`).toBe(UNREAD[name]?.includes(resource.purpose) === true);

        const rewritten = await verify(flipped(bundle, resource.id, true));
        if (UNREAD[name]?.includes(resource.purpose)) {
          expect(rewritten.outcome, resource.id).toBe('VERIFIED');
          continue;
        }
        expect(rewritten.outcome, resource.id).toBe('FAILED');
        expect(rewritten.resources.every((r) => r.intact)).toBe(true);
        const first = rewritten.atObservation!.differences[0]!;
        expect(rewritten.summary).toMatch(new RegExp(`^re-run at the bundle's time: ${first.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} gives `));
      }
      expect(flips).toBeGreaterThanOrEqual(bundle.resources.length - 2);
    });
  }

  it('names the failing check: the origin binding for a DID configuration, the status check for a status list', async () => {
    const idOf = (name: string, purpose: string) => bundles[name]!.resources.find((r) => r.purpose === purpose)!.id;
    const origin = await verify(flipped(bundles['did-web']!, idOf('did-web', 'DID configuration'), true));
    expect(origin.atObservation!.differences.map((d) => d.path)).toContain('dimensions[origin].state');
    const status = await verify(flipped(bundles['credential']!, idOf('credential', 'status list credential'), true));
    expect(status.atObservation!.differences.map((d) => d.path)).toContain('checks[status].status');
  });
});

describe('requests that got no response, runs that ended in a problem', () => {
  it('an unreachable status list: the failure is recorded, and the re-run meets it again (INDETERMINATE both times)', async () => {
    const bundle = bundles['unreachable-list']!;
    expect(bundle.failures).toEqual([
      {
        id: expect.stringMatching(/^r\d$/),
        purpose: 'status list credential',
        fetchedAt: expect.any(String),
        request: { method: 'GET', url: expect.stringMatching(/^https:\/\/localhost:\d+\/status\/9$/) },
        problem: { code: 'UPSTREAM_UNAVAILABLE', detail: expect.stringContaining('refused') },
      },
    ]);
    expect(bundle.result).toMatchObject({ status: 'INDETERMINATE' });
    const verified = await verify(bundle);
    expect(verified.outcome).toBe('VERIFIED');
    expect(verified.failures).toEqual([
      { id: bundle.failures![0]!.id, purpose: 'status list credential', url: bundle.failures![0]!.request.url, code: 'UPSTREAM_UNAVAILABLE' },
    ]);
  });

  it('svc verify-bundle lists the request that got no response', async () => {
    const r = await run(['verify-bundle', file('unreachable-list.bundle.json'), '--no-color']);
    expect(r.exitCode, r.stdout).toBe(0);
    const failure = bundles['unreachable-list']!.failures![0]!;
    expect(r.stdout).toContain(
      `\n  – ${failure.id.padEnd(4)} status list credential, ${failure.request.url}: no response\n         (UPSTREAM_UNAVAILABLE), as recorded\n`,
    );
    // And an MCP bundle, through the command too.
    expect((await run(['verify-bundle', file('mcp-sdk1.bundle.json'), '--quiet'])).exitCode).toBe(0);
  });

  it('a run that ended in a problem: the problem is the recorded result, and the re-run gives it again', async () => {
    const unreachable = bundles['unreachable-did']!;
    expect(unreachable.result).toMatchObject({ problem: { code: 'UPSTREAM_UNAVAILABLE' } });
    expect(unreachable.resources).toEqual([]);
    expect(unreachable.failures!.map((f) => f.purpose)).toEqual(expect.arrayContaining(['DID document']));
    expect((await verify(unreachable)).outcome).toBe('VERIFIED');
    const notFound = bundles['not-found']!;
    expect(notFound.result).toEqual({ problem: { code: 'NOT_FOUND', detail: expect.any(String) } });
    expect((await verify(notFound)).outcome).toBe('VERIFIED');
    // A tampered problem is a difference like any other.
    const edited = decodeBundle(encodeBundle({ ...notFound, result: { problem: { code: 'NOT_FOUND', detail: 'something else' } } }));
    expect((await verify(edited)).summary).toMatch(/^re-run at the bundle's time: problem\.detail gives .*, recorded something else/);
  });
});

describe('a year later', () => {
  it.each(NAMES)('%s: every certificate "valid at observation, expired now", CHANGED_SINCE', async (name) => {
    const bundle = bundles[name]!;
    const later = new Date(Date.parse(bundle.observedAt) + 366 * 86_400_000);
    const verified = await verify(bundle, later);
    expect(verified.outcome).toBe('CHANGED_SINCE');
    expect(verified.tls.map((t) => t.summary)).toEqual(bundle.resources.map(() => 'valid at observation, expired now'));
    expect(verified.summary).toMatch(/^r1: valid at observation, expired now \(the leaf certificate expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)$/);
    // At the bundle's own time nothing differs: the bytes still give the recorded result.
    expect(verified.atObservation!.matches).toBe(true);
  });
});

describe('--bundle where there is nothing to record: a usage error (exit 2) naming why, before anything runs', () => {
  it('a stdio MCP server, a config file, a saved listing, files standing in for fetches', async () => {
    const out = file('refused.bundle.json');
    writeFileSync(file('mcp.json'), JSON.stringify({ mcpServers: { local: { command: 'node', args: ['server.js'] } } }));
    writeFileSync(file('saved.json'), JSON.stringify({ tools: [] }));
    writeFileSync(file('card.json'), JSON.stringify({ name: 'card' }));
    const stdio = expectUsageError(
      await run(['inspect-mcp', '--stdio', '--bundle', out, '--', 'node', 'server.js']),
      /^--bundle records what svc fetches over the network, and a stdio server is spoken to through a local process, not fetched: there is nothing to record$/,
    );
    expect(stdio.hint).toBe('inspect the server at its HTTP endpoint to bundle the inspection');
    expectUsageError(
      await run(['inspect-mcp', '--config', file('mcp.json'), '--bundle', out]),
      /^--bundle records the inspection of one server; with --config/,
    );
    const fromFiles = /^--bundle records what svc fetches, and verifying from files fetches nothing: the files are already the record$/;
    expectUsageError(await run(['inspect-mcp', '--from-file', file('saved.json'), '--bundle', out]), fromFiles);
    expectUsageError(await run(['inspect-a2a', 'https://agent.example', '--from-file', file('card.json'), '--bundle', out]), fromFiles);
    expectUsageError(
      await run(['verify-credential', file('credential.jwt'), '--status-list', 'https://issuer.example/status/1', file('saved.json'), '--bundle', out]),
      fromFiles,
    );
    // A file to write: its folder must exist, and it must not be a folder.
    expectUsageError(await run(['verify-credential', file('credential.jwt'), '--bundle', dir]), /^--bundle must name a file to write, not the directory /);
    expectUsageError(
      await run(['inspect-a2a', 'https://agent.example', '--bundle', file('no/such/folder.json')]),
      /^--bundle: cannot write .*: its directory does not exist$/,
    );
  });
});
