/**
 * The CLI run in the test process (svcIn: main() of the sources) prints exactly what the built
 * binary prints as a process (svc: bin/svc.js → dist/): one command line of each command family,
 * and a did:web resolved over HTTPS with the test CA (NODE_EXTRA_CA_CERTS, which node reads only
 * when a process starts and svcIn stands in for), run both ways — the same exit code, stdout and
 * stderr, times and durations aside.
 *
 * Most CLI tests run in process; these rows are also the process-level runs that keep dist/ under
 * test for every family (besides the terminal, pipe, stdin, signal and daemon tests, which are
 * processes by nature). And svcIn refuses what it cannot be: a daemon, a setting node reads at
 * start, a log level.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, svc, svcIn, type Run } from '../support/cli.js';
import { ED25519_DID } from '../support/dids.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { didKeyPrincipal, mintReceipt } from '../support/receipts.js';
import { generateTestKey, signJws } from '../support/signing.js';

const VM = `${ED25519_DID}#${ED25519_DID.slice('did:key:'.length)}`;

let dir: string;
let host: DidWebHost;
const file = (name: string, content: string): string => {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
};

/** Each family's command line, its exit code and environment, made once the files and the host exist. */
const rows: Array<{ family: string; exit: number; args: string[]; env?: Record<string, string | undefined> }> = [];

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-in-process-'));
  host = await startDidWebHost();
  const did = host.did('both-ways');
  host.publish(did);
  const ca = file('ca.pem', host.ca.certPem);
  const signer = generateTestKey('EdDSA');
  const signerDid = `did:key:${signer.multikey!}`;
  const jws = signJws({ alg: 'EdDSA', kid: `${signerDid}#${signer.multikey!}` }, { hello: 'world' }, signer);
  const [root, agent] = [didKeyPrincipal(), didKeyPrincipal()];
  const chain = file('chain.txt', `${await mintReceipt(root, agent, { cap: ['read'] })}\n`);
  const listing = file(
    'listing.json',
    JSON.stringify({ tools: [{ name: 'get_weather', description: 'Weather for a city.', inputSchema: { type: 'object' } }] }),
  );
  const state = cleanEnv({ XDG_STATE_HOME: path.join(dir, 'state') });
  const publicKey = file('public.jwk', JSON.stringify(signer.publicJwk));
  rows.push(
    { family: 'resolve', exit: 0, args: ['resolve', ED25519_DID, '--no-store'] },
    { family: 'resolve (a problem)', exit: 4, args: ['resolve', 'did:example:123', '--no-store', '--json'] },
    {
      family: 'resolve did:web (NODE_EXTRA_CA_CERTS)',
      exit: 0,
      args: ['resolve', did, '--no-store', '--json', '--egress-allow', '127.0.0.0/8'],
      env: cleanEnv({ NODE_EXTRA_CA_CERTS: ca }),
    },
    { family: 'resolve did:web (without the CA)', exit: 4, args: ['resolve', did, '--no-store', '--egress-allow', '127.0.0.0/8'] },
    { family: 'dereference', exit: 0, args: ['dereference', VM] },
    { family: 'graph', exit: 0, args: ['graph', ED25519_DID, '--json'] },
    { family: 'verify', exit: 0, args: ['verify-jws', jws] },
    { family: 'delegation', exit: 0, args: ['verify-delegation', chain, '--trusted-root', root.did] },
    { family: 'keygen', exit: 2, args: ['keygen', '--out', chain] },
    { family: 'key show', exit: 0, args: ['key', 'show', publicKey, '--json'] },
    // A public key cannot sign: refused before anything is read or written.
    { family: 'sign', exit: 2, args: ['sign-credential', chain, '--key', publicKey] },
    { family: 'inspect', exit: 0, args: ['inspect-mcp', '--from-file', listing, '--json'] },
    // No terminal to ask on and no --yes: refused before anything runs.
    { family: 'approve', exit: 2, args: ['mcp', 'approve', '--from-file', listing, '--baseline', path.join(dir, 'baseline.json')] },
    { family: 'history', exit: 0, args: ['history', ED25519_DID, '--json'], env: state },
    { family: 'serve', exit: 0, args: ['serve', '--help'] },
    {
      family: 'monitor',
      exit: 4,
      args: ['monitor', 'status', '--daemon', 'http://127.0.0.1:1'],
      env: cleanEnv({ SVC_ADMIN_TOKEN: 'in-process-test-token-0123456789' }),
    },
    { family: 'owner', exit: 2, args: ['owner', 'usage'] },
    { family: 'claims', exit: 4, args: ['claims', ED25519_DID, '--daemon', 'http://127.0.0.1:1'] },
    { family: 'webhook', exit: 0, args: ['webhook', 'listen', '--help'] },
    { family: 'completion', exit: 0, args: ['completion', 'zsh'] },
    { family: 'version', exit: 0, args: ['version', '--json'] },
    { family: 'help', exit: 0, args: ['help', 'environment'] },
    { family: 'config', exit: 0, args: ['--config', file('svc.config.json', '{"cache": {"ttl": 60}}'), 'config', 'show', '--json'] },
    { family: 'config refused', exit: 2, args: ['resolve', ED25519_DID, '--config', file('broken.json', '{"cache": {"ttl": 60,}}')] },
    { family: 'svc alone', exit: 2, args: [] },
  );
});

afterAll(async () => {
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A run without what differs from one run to the next: instants and durations. */
function steady(r: Run): Run {
  const text = (s: string) =>
    s
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, 'TIME')
      .replace(/"(\w+(?:Us|Ms))": [\d.]+/g, '"$1": N')
      .replace(/\d+(?:\.\d+)? ms\b/g, 'N ms');
  return { exitCode: r.exitCode, stdout: text(r.stdout), stderr: text(r.stderr) };
}

describe('in process as in the built binary', () => {
  it('has a row for every command family', () => {
    expect(rows.map((r) => r.family.split(' ')[0])).toEqual(
      expect.arrayContaining([
        'resolve',
        'dereference',
        'graph',
        'verify',
        'delegation',
        'keygen',
        'key',
        'sign',
        'inspect',
        'approve',
        'history',
        'serve',
        'monitor',
        'owner',
        'claims',
        'webhook',
        'completion',
        'version',
        'help',
        'config',
      ]),
    );
  });

  it('prints the same for each row', async () => {
    // A few rows at a time: each is a process and a run in this one.
    for (let i = 0; i < rows.length; i += 4) {
      await Promise.all(
        rows.slice(i, i + 4).map(async (row) => {
          const env = row.env ?? cleanEnv();
          const [built, inProcess] = await Promise.all([svc(row.args, env), svcIn(row.args, env)]);
          expect.soft(built.exitCode, `${row.family}: ${built.stderr}`).toBe(row.exit);
          expect.soft(steady(inProcess), `${row.family}: svc ${row.args.join(' ')}`).toEqual(steady(built));
        }),
      );
    }
  }, 120_000);
});

describe('what svcIn refuses', () => {
  it('a daemon (it owns the process and its signals)', async () => {
    await expect(svcIn(['serve', '--memory', '--port', '0'])).rejects.toThrow(/is a daemon/);
    await expect(svcIn(['webhook', 'listen', '--port', '0'])).rejects.toThrow(/is a daemon/);
  });

  it('a setting node reads when a process starts, and a log level (its lines go to process.stderr)', async () => {
    await expect(svcIn(['version'], cleanEnv({ NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --no-deprecation` }))).rejects.toThrow(
      /NODE_OPTIONS is read by node/,
    );
    await expect(svcIn(['version'], cleanEnv({ SVC_LOG_LEVEL: 'info' }))).rejects.toThrow(/SVC_LOG_LEVEL/);
  });
});
