/**
 * The commands that bring every daemon capability to the command line, as users run them (in the test
 * process, svcIn; keygen in a working directory and verify-jws on standard input as processes of
 * the built binary): `svc dereference`, `svc graph`, `svc keygen`, `svc verify-tool` with
 * `svc verify-delegation --register`, hash prefixes in `svc history` / `svc diff` (and the
 * daemon's /v1/diff), and `svc verify-jws` reading a file. did:web DIDs live on a real loopback
 * HTTPS host (its CA through NODE_EXTRA_CA_CERTS, loopback through SVC_EGRESS_ALLOW); a real
 * daemon (`svc serve`) answers the same questions, and the CLI's --json must equal its bodies.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dereference } from '../../src/core/dereference/dereference.js';
import { openStore } from '../../src/store/index.js';
import { assertBuilt, cleanEnv, repoRoot, svcIn, svcBin, type Run, expectUsageError, onlyJson } from '../support/cli.js';
import { concatBytes, didJwkOf, multikey } from '../support/codec.js';
import type { Daemon } from '../support/daemon.js';
import { call, expectJson, startDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { testRuntime } from '../support/runtime.js';
import { didDocument, generateTestKey, signJws } from '../support/signing.js';
import { sampleObservation } from '../support/store.js';

const ED25519 = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ED25519_VM = `${ED25519}#z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK`;

let dir: string;
let host: DidWebHost;
let daemon: Daemon;
let caFile: string;
/** Every run of this file, checked at the end for private keys. */
const runs: Run[] = [];
/** The `d` of every key svc keygen wrote: never in any output. */
const secrets: string[] = [];

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-commands-'));
  host = await startDidWebHost();
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, host.ca.certPem);
  daemon = await startDaemonFor(host);
});

afterAll(async () => {
  await daemon?.stop();
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A state directory (history, registry) of the test's own; the host reachable as an operator would allow it. */
function envFor(name: string, extra: Record<string, string> = {}): { env: Record<string, string | undefined>; db: string } {
  const home = path.join(dir, 'state', name);
  return {
    env: cleanEnv({ XDG_STATE_HOME: home, NODE_EXTRA_CA_CERTS: caFile, SVC_EGRESS_ALLOW: '127.0.0.0/8', ...extra }),
    db: path.join(home, 'svc', 'svc.db'),
  };
}

async function run(args: string[], env = envFor('default').env, options: { cwd?: string; input?: string } = {}): Promise<Run> {
  const r =
    options.cwd === undefined && options.input === undefined
      ? await svcIn(args, env)
      : await execa(process.execPath, [svcBin, ...args], {
          reject: false,
          env,
          extendEnv: true,
          cwd: options.cwd ?? repoRoot,
          timeout: 20_000,
          input: options.input ?? '',
        }).then((x) => ({ exitCode: x.exitCode ?? -1, stdout: String(x.stdout ?? ''), stderr: String(x.stderr ?? '') }));
  runs.push(r);
  return r;
}

/** The parts of a result that differ between two runs a moment apart. */
function withoutTime<T extends Record<string, any>>(value: T, ...paths: string[][]): T {
  const copy = structuredClone(value);
  for (const p of paths) {
    let target: any = copy;
    for (const key of p.slice(0, -1)) target = target?.[key];
    if (target) delete target[p[p.length - 1]!];
  }
  return copy;
}

describe('svc dereference', () => {
  it('a did:key fragment: the verification method, as the core and the daemon dereference it; exit 0', async () => {
    const r = await run(['dereference', ED25519_VM, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const cli = onlyJson(r);
    const core = await dereference(ED25519_VM, testRuntime());
    const served = expectJson(await call(`${daemon.url}/v1/dereference/${encodeURIComponent(ED25519_VM)}`), 200);
    const retrieved = [['dereferencingMetadata', 'retrieved']];
    expect(withoutTime(cli, ...retrieved)).toEqual(withoutTime(core as any, ...retrieved));
    expect(withoutTime(cli, ...retrieved)).toEqual(withoutTime(served, ...retrieved));
    expect(cli.dereferencingMetadata).toEqual({ contentType: 'application/json', retrieved: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect(cli.contentStream).toMatchObject({ id: ED25519_VM, type: 'Multikey', controller: ED25519 });

    const text = await run(['dereference', ED25519_VM, '--no-color']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.split('\n').slice(0, 2)).toEqual([ED25519_VM, expect.stringMatching(/^verification method \(application\/json\) {2}retrieved /)]);
    expect(text.stdout.replace(/\s+/g, ' ')).toContain(` Verification method ${ED25519_VM} type Multikey `);
    expect(text.stdout).toMatch(/^ {2}publicKeyMultibase {2}z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK$/m);
    expect(text.stdout).toMatch(/^Document metadata$/m);
  });

  it('a did:web service with a relative reference, and a document fragment, equal to the daemon', async () => {
    const did = host.did('deref');
    const document: Record<string, unknown> = {
      ...didDocument(did, generateTestKey()),
      service: [{ id: `${did}#files`, type: 'LinkedDomains', serviceEndpoint: 'https://files.example/base/' }],
    };
    host.publish(did, document);
    const url = `${did}?service=files&relativeRef=${encodeURIComponent('/reports/2025.pdf')}`;
    const r = await run(['dereference', url, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const cli = onlyJson(r);
    expect(cli.contentStream).toBe('https://files.example/reports/2025.pdf');
    const text = await run(['dereference', url]);
    expect(text.stdout).toMatch(/^service endpoint \(text\/uri-list\)/m);
    expect(text.stdout).toMatch(/^ {2}https:\/\/files\.example\/reports\/2025\.pdf$/m);

    const key = `${did}#key-1`;
    const fragment = onlyJson(await run(['dereference', key, '--json']));
    const served = expectJson(await call(`${daemon.url}/v1/dereference/${encodeURIComponent(key)}`), 200);
    expect(withoutTime(fragment, ['dereferencingMetadata', 'retrieved'])).toEqual(withoutTime(served, ['dereferencingMetadata', 'retrieved']));
    expect(fragment.contentStream).toEqual((document['verificationMethod'] as unknown[])[0]);
  });

  it('nothing with that id, or not a DID URL: no answer, exit 4, the problem as JSON', async () => {
    const missing = await run(['dereference', `${ED25519}#nope`, '--json']);
    expect(missing.exitCode).toBe(4);
    expect(onlyJson(missing)).toMatchObject({ code: 'NOT_FOUND', detail: expect.stringContaining(`${ED25519}#nope`) });
    const invalid = await run(['dereference', 'did:key:z6Mk#a#b', '--json']);
    expect(invalid.exitCode).toBe(4);
    expect(onlyJson(invalid).code).toBe('INVALID_DID_URL');
  });
});

describe('svc graph', () => {
  it('did:key --json: exactly the daemon body of GET /v1/graph, exit as resolve', async () => {
    const r = await run(['graph', ED25519, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const cli = onlyJson(r);
    expect(Object.keys(cli)).toEqual(['did', 'observedAt', 'verdict', 'nodes', 'edges']);
    const served = expectJson(await call(`${daemon.url}/v1/graph/${ED25519}`), 200);
    expect(withoutTime(cli, ['observedAt'])).toEqual(withoutTime(served, ['observedAt']));
  });

  it('did:web: nodes and edges of origin and TLS equal the daemon, and the text shows each with its state', async () => {
    const did = host.did('graph');
    host.publish(did, didDocument(did, generateTestKey()));
    const r = await run(['graph', did, '--json']);
    const resolveExit = (await run(['resolve', did, '--no-store', '--quiet'])).exitCode;
    expect(r.exitCode, r.stderr).toBe(resolveExit);
    const cli = onlyJson(r);
    const served = expectJson(await call(`${daemon.url}/v1/graph/${did}`), 200);
    expect(withoutTime(cli, ['observedAt'])).toEqual(withoutTime(served, ['observedAt']));
    const kinds = cli.nodes.map((n: { kind: string }) => n.kind);
    expect(kinds).toEqual(expect.arrayContaining(['subject', 'document', 'key', 'origin', 'tls']));

    const text = await run(['graph', did, '--no-color']);
    expect(text.exitCode).toBe(resolveExit);
    expect(text.stdout).toContain(`Nodes (${cli.nodes.length})`);
    expect(text.stdout).toContain(`Edges (${cli.edges.length})`);
    const origin = cli.nodes.find((n: { kind: string }) => n.kind === 'origin').id;
    expect(text.stdout).toMatch(new RegExp(`^ {2}origin +${origin.replace(/[.]/g, '\\.')}$`, 'm'));
    expect(text.stdout).toMatch(/^ {4}securedBy +→ tls:localhost {2}VERIFIED$/m);
    expect(text.stdout).toMatch(/^ {4}resolvesTo +→ document {2}OBSERVED$/m);
    for (const line of text.stdout.split('\n')) {
      // Only an unbreakable id may run past 80 columns.
      if (line.length > 80)
        expect(
          line
            .trim()
            .split(/\s+/)
            .some((w) => w.length > 40),
        ).toBe(true);
    }
  });

  it('an unsupported method: exit 4 with the problem', async () => {
    const r = await run(['graph', 'did:example:123', '--json']);
    expect(r.exitCode).toBe(4);
    expect(onlyJson(r).code).toBe('METHOD_NOT_SUPPORTED');
  });
});

interface Keygen {
  didKey: string;
  didJwk: string;
  curve: string;
  out: string;
}

async function keygen(name: string, curve: string, env = envFor('keys').env): Promise<Keygen> {
  const out = path.join(dir, 'keys', name);
  mkdirSync(path.dirname(out), { recursive: true });
  const r = await run(['keygen', '--curve', curve, '--out', out, '--json'], env);
  expect(r.exitCode, r.stderr).toBe(0);
  const report = onlyJson(r) as Keygen;
  secrets.push(JSON.parse(readFileSync(out, 'utf8')).d);
  return report;
}

describe('svc keygen', () => {
  const CODECS: Record<string, number> = { Ed25519: 0xed, 'P-256': 0x1200, secp256k1: 0xe7 };

  for (const curve of ['Ed25519', 'P-256', 'secp256k1']) {
    it(`${curve}: a private JWK of mode 0600, and a did:key and did:jwk that svc resolve resolves`, async () => {
      const report = await keygen(`resolvable-${curve}.jwk`, curve);
      expect(report).toEqual({
        didKey: expect.stringMatching(/^did:key:z/),
        didJwk: expect.stringMatching(/^did:jwk:ey/),
        curve,
        out: path.join(dir, 'keys', `resolvable-${curve}.jwk`),
      });
      expect(statSync(report.out).mode & 0o777).toBe(0o600);
      const jwk = JSON.parse(readFileSync(report.out, 'utf8'));
      expect(Object.keys(jwk).sort()).toEqual(
        curve === 'Ed25519' ? ['alg', 'crv', 'd', 'kid', 'kty', 'use', 'x'] : ['alg', 'crv', 'd', 'kid', 'kty', 'use', 'x', 'y'],
      );
      expect(jwk).toMatchObject({ crv: curve, use: 'sig', alg: { Ed25519: 'EdDSA', 'P-256': 'ES256', secp256k1: 'ES256K' }[curve] });

      // The DIDs, derived independently from the file's public members.
      const x = Buffer.from(jwk.x, 'base64url');
      const keyBytes = curve === 'Ed25519' ? x : concatBytes(new Uint8Array([(Buffer.from(jwk.y, 'base64url').at(-1)! & 1) === 1 ? 3 : 2]), x);
      expect(report.didKey).toBe(`did:key:${multikey(CODECS[curve]!, keyBytes)}`);
      // A signing key: the did:jwk lists it for signing only (members in lexicographic order).
      const publicJwk =
        curve === 'Ed25519' ? { crv: jwk.crv, kty: jwk.kty, use: 'sig', x: jwk.x } : { crv: jwk.crv, kty: jwk.kty, use: 'sig', x: jwk.x, y: jwk.y };
      expect(report.didJwk).toBe(didJwkOf(publicJwk));

      for (const did of [report.didKey, report.didJwk]) {
        const resolved = await run(['resolve', did, '--json', '--no-store']);
        expect(resolved.exitCode, resolved.stderr).toBe(0);
        const result = onlyJson(resolved);
        expect(result.evidence.keys[0]).toMatchObject({ curve, status: 'VALID_KEY' });
        expect(result.evidence.keys[0].relationships).toContain('capabilityDelegation');
      }
    });
  }

  it('text: where the key went and both DIDs; never the key', async () => {
    const out = path.join(dir, 'keys', 'text.jwk');
    mkdirSync(path.dirname(out), { recursive: true });
    const r = await run(['keygen', '--out', out, '--no-color'], envFor('keys').env);
    expect(r.exitCode, r.stderr).toBe(0);
    secrets.push(JSON.parse(readFileSync(out, 'utf8')).d);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`Wrote a new Ed25519 private key to ${out} (mode 0600).`);
    // A DID too long for the line goes under its label, whole.
    expect(r.stdout).toMatch(/^ {2}did:key\s+did:key:z6Mk\S+$/m);
    expect(r.stdout).toMatch(/^ {2}did:jwk\s+did:jwk:ey\S+$/m);
    expect(r.stdout).toMatch(/^ {2}\$ svc delegate --key \S+text\.jwk --iss did:key:z6Mk\S+ --aud <did> --cap <capability>$/m);
  });

  it('never overwrites: an existing file or a dangling symbolic link is refused (exit 2) and left as it was', async () => {
    const existing = path.join(dir, 'keys', 'precious.jwk');
    mkdirSync(path.dirname(existing), { recursive: true });
    writeFileSync(existing, 'precious', { mode: 0o644 });
    expectUsageError(await run(['keygen', '--out', existing]), /precious\.jwk: it already exists; svc keygen never overwrites a file/);
    expect(readFileSync(existing, 'utf8')).toBe('precious');
    expect(statSync(existing).mode & 0o777).toBe(0o644);

    const target = path.join(dir, 'keys', 'link-target.jwk');
    const link = path.join(dir, 'keys', 'link.jwk');
    symlinkSync(target, link);
    expectUsageError(await run(['keygen', '--out', link]), /link\.jwk: it already exists/);
    expect(existsSync(target)).toBe(false);

    expectUsageError(await run(['keygen', '--out', path.join(dir, 'no-such-dir', 'k.jwk')]), /its directory does not exist/);
    expectUsageError(await run(['keygen', '--out', '-']), /never to standard output/);
    expectUsageError(await run(['keygen', '--curve', 'X25519']), /Allowed choices are Ed25519, P-256, secp256k1/);
  });

  it('without --out: ./svc-key.jwk in the current directory, once', async () => {
    const cwd = path.join(dir, 'cwd');
    mkdirSync(cwd);
    const first = await run(['keygen', '--json'], envFor('keys').env, { cwd });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(onlyJson(first).out).toBe(path.join(cwd, 'svc-key.jwk'));
    secrets.push(JSON.parse(readFileSync(path.join(cwd, 'svc-key.jwk'), 'utf8')).d);
    expect(statSync(path.join(cwd, 'svc-key.jwk')).mode & 0o777).toBe(0o600);
    expectUsageError(await run(['keygen'], envFor('keys').env, { cwd }), /svc-key\.jwk: it already exists/);
  });
});

describe('keygen → delegate → verify-delegation --register → verify-tool', () => {
  it('keys made by svc keygen sign a VALID chain; registered, verify-tool ALLOWs the granted tool and DENYs others, as the daemon does', async () => {
    const { env, db } = envFor('registry');
    const alice = await keygen('alice.jwk', 'Ed25519');
    const bob = await keygen('bob.jwk', 'secp256k1');
    const agent = await keygen('agent.jwk', 'P-256');

    const root = await run(['delegate', '--key', alice.out, '--iss', alice.didKey, '--aud', bob.didKey, '--cap', 'payments:*', '--ttl', '1h'], env);
    expect(root.exitCode, root.stderr).toBe(0);
    const rootFile = path.join(dir, 'root.jwt');
    writeFileSync(rootFile, root.stdout);
    const leaf = await run(
      ['delegate', '--key', bob.out, '--iss', bob.didKey, '--aud', agent.didKey, '--cap', 'payments:charge', '--ttl', '30m', '--parent', rootFile],
      env,
    );
    expect(leaf.exitCode, leaf.stderr).toBe(0);
    const chain = [root.stdout.trim(), leaf.stdout.trim()];
    const chainFile = path.join(dir, 'chain.txt');
    writeFileSync(chainFile, `${chain.join('\n')}\n`);

    const verified = await run(['verify-delegation', chainFile, '--trusted-root', alice.didKey, '--json'], env);
    expect(verified.exitCode, verified.stderr).toBe(0);
    expect(onlyJson(verified)).toMatchObject({ status: 'VALID', root: alice.didKey, leaf: agent.didKey, effectiveCapabilities: ['payments:charge'] });
    expect(existsSync(db)).toBe(false);

    const before = await run(['verify-tool', '--agent', agent.didKey, '--tool', 'payments:charge', '--json'], env);
    expect(before.exitCode).toBe(1);
    expect(onlyJson(before)).toMatchObject({
      decision: 'DENY',
      authorized: false,
      reason: expect.stringMatching(/^No verified delegation is registered for the agent/),
    });
    expect(existsSync(db)).toBe(false);

    const registered = await run(['verify-delegation', chainFile, '--trusted-root', alice.didKey, '--register', '--json'], env);
    expect(registered.exitCode, registered.stderr).toBe(0);
    expect(onlyJson(registered)).toEqual({ result: expect.objectContaining({ status: 'VALID' }), registered: true });
    expect(statSync(db).mode & 0o777).toBe(0o600);
    const again = await run(['verify-delegation', chainFile, '--trusted-root', alice.didKey, '--register', '--no-color'], env);
    expect(again.exitCode).toBe(0);
    expect(again.stdout.replace(/\s+/g, ' ')).toMatch(/ Registered in \S+svc\.db: svc verify-tool answers from this chain until it expires\.$/);

    // Without --root, SVC_DELEGATION_ROOTS or --any-root an ALLOW needs attention: the registry
    // may hold chains registered with --any-root, so no root vouches for the answer.
    const unrooted = await run(['verify-tool', '--agent', agent.didKey, '--tool', 'payments:charge', '--json'], env);
    expect(unrooted.exitCode, unrooted.stderr).toBe(3);
    expect(unrooted.stderr).toContain('svc: needs attention: no trusted root was given; pass --root <did> (or set SVC_DELEGATION_ROOTS) or --any-root');
    const allow = await run(['verify-tool', '--agent', agent.didKey, '--tool', 'payments:charge', '--any-root', '--json'], env);
    expect(allow.exitCode, allow.stderr).toBe(0);
    expect(allow.stderr).toBe('');
    const allowed = onlyJson(allow);
    expect(onlyJson(unrooted)).toEqual(allowed);
    expect(allowed).toMatchObject({
      agent: agent.didKey,
      tool: 'payments:charge',
      decision: 'ALLOW',
      authorized: true,
      matchedCapability: 'payments:charge',
      root: alice.didKey,
    });
    const deny = await run(['verify-tool', '--agent', agent.didKey, '--tool', 'refund', '--json'], env);
    expect(deny.exitCode).toBe(1);
    const denied = onlyJson(deny);
    expect(denied).toMatchObject({ decision: 'DENY', authorized: false, reason: expect.stringContaining('"refund"') });

    // The daemon's registry, given the same chain, answers the same.
    const post = await call(`${daemon.url}/v1/agents/verify-delegation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain, register: true }),
    });
    expect(expectJson(post, 200).registered).toBe(true);
    const query = (tool: string) => `${daemon.url}/v1/agents/verify-tool?agent=${encodeURIComponent(agent.didKey)}&tool=${encodeURIComponent(tool)}`;
    expect(expectJson(await call(query('payments:charge')), 200)).toEqual(allowed);
    expect(expectJson(await call(query('refund')), 200)).toEqual(denied);

    const text = await run(['verify-tool', '--agent', agent.didKey, '--tool', 'payments:charge', '--any-root', '--no-color'], env);
    expect(text.stdout).toMatch(/^ALLOW {2}\S/);
    expect(text.stdout).toMatch(/^ {2}matched +payments:charge$/m);
    expect(text.stdout.replace(/\s+/g, ' ')).toContain('1 registered chain of the agent verified again');

    const otherRoot = await run(['verify-tool', '--agent', agent.didKey, '--tool', 'payments:charge', '--root', ED25519, '--json'], env);
    expect(otherRoot.exitCode).toBe(1);
    expect(onlyJson(otherRoot).reason).toMatch(new RegExp(`^No verified delegation rooted in ${ED25519} is registered`));
    const withRoot = await run(['verify-tool', '--agent', agent.didKey, '--tool', 'payments:charge', '--root', alice.didKey, '--json'], env);
    expect(withRoot.exitCode).toBe(0);

    // SVC_DELEGATION_ROOTS, as the daemon reads it: the chain's root is not listed, so it is not
    // registered, and the chain already registered is verified again against the list and not used.
    const restricted = envFor('registry', { SVC_DELEGATION_ROOTS: ED25519 }).env;
    const refused = await run(['verify-delegation', chainFile, '--trusted-root', alice.didKey, '--register', '--json'], restricted);
    expect(refused.exitCode).toBe(1);
    expect(onlyJson(refused)).toMatchObject({
      registered: false,
      registrationReason: `The root ${alice.didKey} is not among the roots this service allows to register delegations.`,
    });
    // Without --trusted-root those roots are also the trusted roots: the chain is INVALID.
    const untrusted = await run(['verify-delegation', chainFile, '--register', '--json'], restricted);
    expect(untrusted.exitCode).toBe(1);
    expect(onlyJson(untrusted)).toMatchObject({
      result: { status: 'INVALID' },
      registered: false,
      registrationReason: 'Only a VALID chain is registered; this chain is INVALID.',
    });
    const unused = await run(['verify-tool', '--agent', agent.didKey, '--tool', 'payments:charge', '--no-color'], restricted);
    expect(unused.exitCode).toBe(1);
    expect(unused.stdout).toMatch(/^DENY {2}No verified delegation is registered/);
    expect(unused.stdout).toMatch(/^ {2}INVALID chain [0-9a-f]{16}… not used: /m);
  });

  it('a registered chain that has expired is not used', async () => {
    const { env } = envFor('expiry');
    const alice = await keygen('short-alice.jwk', 'Ed25519');
    const agent = await keygen('short-agent.jwk', 'Ed25519');
    const receipt = await run(['delegate', '--key', alice.out, '--iss', alice.didKey, '--aud', agent.didKey, '--cap', '*', '--ttl', '6s'], env);
    const chainFile = path.join(dir, 'short.txt');
    writeFileSync(chainFile, receipt.stdout);
    const registered = await run(['verify-delegation', chainFile, '--any-root', '--register', '--json'], env);
    expect(registered.exitCode, registered.stderr).toBe(0);
    const notAfter = Date.parse(onlyJson(registered).result.notAfter);
    expect((await run(['verify-tool', '--agent', agent.didKey, '--tool', 'anything', '--any-root', '--quiet'], env)).exitCode).toBe(0);
    await new Promise((r) => setTimeout(r, Math.max(0, notAfter - Date.now()) + 1_100));
    const late = await run(['verify-tool', '--agent', agent.didKey, '--tool', 'anything', '--json'], env);
    expect(late.exitCode).toBe(1);
    expect(onlyJson(late)).toMatchObject({ decision: 'DENY', reason: expect.stringMatching(/^No verified delegation is registered/) });
  });

  it('usage: an agent that is not a DID, an empty tool', async () => {
    expectUsageError(await run(['verify-tool', '--agent', 'alice', '--tool', 'x']), /--agent must be a DID/);
    expectUsageError(await run(['verify-tool', '--agent', ED25519, '--tool', '']), /--tool must not be empty/);
    expectUsageError(await run(['verify-tool', '--agent', `${ED25519}?x=1`, '--tool', 'x']), /not a DID URL with a path or query/);
    expectUsageError(
      await run(['verify-tool', '--agent', ED25519, '--tool', 'x', '--root', ED25519, '--any-root']),
      /--any-root and --root exclude each other/,
    );
  });
});

/** A did:web on the test host whose document changes between two `svc resolve` runs. */
async function twoObservations(name: string, env: Record<string, string | undefined>): Promise<{ did: string; older: string; newer: string }> {
  const did = host.did('prefix', name);
  host.publish(did, didDocument(did, generateTestKey()));
  expect((await run(['resolve', did, '--quiet'], env)).exitCode).toBe(0);
  host.publish(did, didDocument(did, generateTestKey()));
  expect((await run(['resolve', did, '--quiet'], env)).exitCode).toBe(0);
  const history = onlyJson(await run(['history', did, '--json'], env));
  expect(history.count).toBe(2);
  return { did, newer: history.history[0].documentHash, older: history.history[1].documentHash };
}

describe('document hash prefixes: svc history prints them, svc diff and /v1/diff accept them', () => {
  it('an 8-character prefix gives the same diff as the whole hashes; history prints 12 that diff accepts', async () => {
    const { env } = envFor('prefix');
    const { did, older, newer } = await twoObservations('plain', env);
    const whole = await run(['diff', did, '--from', older, '--to', newer, '--json'], env);
    expect(whole.exitCode).toBe(1);
    const short = await run(['diff', did, '--from', older.slice(0, 8), '--to', newer.slice(0, 8), '--json'], env);
    expect(short.exitCode).toBe(1);
    expect(onlyJson(short)).toEqual(onlyJson(whole));

    const text = await run(['history', did, '--no-color'], env);
    const shown = [...text.stdout.matchAll(/^ {4}document ([0-9a-f]+) /gm)].map((m) => m[1]!);
    expect(shown).toEqual([newer.slice(0, 12), older.slice(0, 12)]);
    const fromHistory = await run(['diff', did, '--from', shown[1]!, '--to', shown[0]!, '--json'], env);
    expect(onlyJson(fromHistory)).toEqual(onlyJson(whole));
  });

  it('the daemon accepts the same prefixes', async () => {
    const did = host.did('prefix', 'daemon');
    host.publish(did, didDocument(did, generateTestKey()));
    const first = expectJson(await call(`${daemon.url}/v1/resolve/${did}?noCache=true`), 200);
    host.publish(did, didDocument(did, generateTestKey()));
    const second = expectJson(await call(`${daemon.url}/v1/resolve/${did}?noCache=true`), 200);
    const [older, newer] = [first.evidence.document.jcsSha256, second.evidence.document.jcsSha256];
    const whole = expectJson(await call(`${daemon.url}/v1/diff/${did}?from=${older}&to=${newer}`), 200);
    expect(expectJson(await call(`${daemon.url}/v1/diff/${did}?from=${older.slice(0, 8)}&to=${newer.slice(0, 10)}`), 200)).toEqual(whole);
    const short = expectJson(await call(`${daemon.url}/v1/diff/${did}?from=${older.slice(0, 7)}`), 400, 'application/problem+json; charset=utf-8');
    expect(short).toMatchObject({ code: 'INVALID_OPTIONS', detail: expect.stringContaining('at least 8') });
  });

  it('an ambiguous prefix names how many hashes share it; a short one says at least 8; history prints more when 12 are not unique', async () => {
    const db = path.join(dir, 'ambiguous.db');
    const did = 'did:web:ambiguous.example';
    const store = openStore({ path: db });
    // The first 14 characters shared: history must print 15 to tell them apart.
    const hashes = [`0123456789abcde${'0'.repeat(49)}`, `0123456789abcdf${'1'.repeat(49)}`];
    for (const [i, documentHash] of hashes.entries()) {
      await store.observations.record(
        sampleObservation({ did, documentHash, observedAt: `2025-01-0${i + 1}T00:00:00Z`, document: { id: did, alsoKnownAs: [`https://a${i}.example`] } }),
      );
    }
    store.close();
    const env = envFor('ambiguous').env;

    // A prefix that is too short or shared is an option value that cannot be used: exit 2, the problem still printed.
    const ambiguous = await run(['diff', did, '--db', db, '--from', '01234567', '--json'], env);
    expect(ambiguous.exitCode).toBe(2);
    expect(onlyJson(ambiguous)).toMatchObject({
      code: 'INVALID_OPTIONS',
      detail: expect.stringMatching(/^The "from" prefix 01234567 is ambiguous: 2 document hashes observed for did:web:ambiguous\.example start with it/),
    });
    const plain = await run(['diff', did, '--db', db, '--from', '01234567'], env);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toMatch(/ambiguous: 2 document hashes/);

    const short = await run(['diff', did, '--db', db, '--to', '0123', '--json'], env);
    expect(short.exitCode).toBe(2);
    expect(onlyJson(short).detail).toBe('"to" is too short: a document hash prefix needs at least 8 hexadecimal characters (4 given).');

    const text = await run(['history', did, '--db', db, '--no-color'], env);
    const shown = [...text.stdout.matchAll(/^ {4}document ([0-9a-f]+) /gm)].map((m) => m[1]!);
    expect(shown).toEqual(['0123456789abcdf', '0123456789abcde']);
    const diff = await run(['diff', did, '--db', db, '--from', shown[1]!, '--to', shown[0]!, '--json'], env);
    expect(diff.exitCode).toBe(1);
    expect(onlyJson(diff)).toMatchObject({ fromHash: hashes[0], toHash: hashes[1], changedMembers: ['alsoKnownAs'] });
  });
});

describe('svc verify-jws input', () => {
  const key = generateTestKey('EdDSA');
  const did = `did:key:${key.multikey}`;
  const jws = signJws({ alg: 'EdDSA', kid: `${did}#${key.multikey}` }, { hello: 'world' }, key);

  it('a file path is read (trailing newline dropped); - reads standard input; the token itself still works', async () => {
    const file = path.join(dir, 'token.jws');
    writeFileSync(file, `${jws}\n`);
    for (const args of [[file], [jws]]) {
      const r = await run(['verify-jws', ...args, '--json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(onlyJson(r)).toMatchObject({ status: 'VALID', signer: did });
    }
    const piped = await run(['verify-jws', '-', '--json'], envFor('default').env, { input: `${jws}\n` });
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(onlyJson(piped)).toMatchObject({ status: 'VALID', signer: did });
  });

  it('neither a file nor a compact JWS: a usage error, never verified as a broken token', async () => {
    expectUsageError(await run(['verify-jws', path.join(dir, 'missing.jws')]), /no such file and not a compact JWS: \S*missing\.jws/);
    expectUsageError(await run(['verify-jws', 'definitely not a token']), /no such file and not a compact JWS: definitely not a token/);
    expectUsageError(await run(['verify-jws', dir]), /is not a file/);
  });

  it('a file larger than the input bound is refused before reading', async () => {
    const big = path.join(dir, 'big.jws');
    writeFileSync(big, 'a'.repeat(1024 * 1024 + 1));
    expectUsageError(await run(['verify-jws', big]), /is larger than 1048576 bytes/);
  });
});

describe('help', () => {
  for (const command of ['dereference', 'graph', 'keygen', 'verify-tool']) {
    it(`svc ${command} --help shows examples and the exit status`, async () => {
      const r = await run([command, '--help']);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^Examples:$/m);
      expect(r.stdout).toMatch(/^Exit status: /m);
      for (const option of ['--json', '--no-color', '--quiet']) expect(r.stdout).toContain(option);
    });
  }

  it('svc diff --help explains prefixes', async () => {
    const r = await run(['diff', '--help']);
    expect(r.stdout).toMatch(/prefix of at least 8/);
  });
});

describe('no private key in any output', () => {
  it('no run printed the d of a key svc keygen wrote', () => {
    expect(secrets.length).toBeGreaterThan(5);
    for (const r of runs) for (const d of secrets) expect(`${r.stdout}\n${r.stderr}`).not.toContain(d);
  });
});
