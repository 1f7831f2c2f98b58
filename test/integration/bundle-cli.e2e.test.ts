/**
 * `svc resolve --bundle` then `svc verify-bundle` as users run them: the built binary (bin/svc.js →
 * dist/), a did:web with a verified DID configuration on a loopback HTTPS host, the test CA given
 * as Node takes extra anchors (NODE_EXTRA_CA_CERTS) and loopback allowed by SVC_EGRESS_ALLOW. The
 * host is stopped before the bundle is checked: exit 0 and the JSON shape, --now a year later exit
 * 3 (--strict 1), a flipped byte exit 1, a file that is no bundle exit 4, and the text report.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, parseCliError, svc } from '../support/cli.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import { didConfiguration, linkageCredentialDi } from '../support/signing.js';

let host: DidWebHost;
let dir: string;
let did: string;
const file = (name: string) => path.join(dir, name);
const env = () => cleanEnv({ NODE_EXTRA_CA_CERTS: file('ca.pem'), SVC_EGRESS_ALLOW: '127.0.0.0/8', XDG_STATE_HOME: file('state') });

beforeAll(async () => {
  assertBuilt();
  host = await startDidWebHost();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-bundle-cli-'));
  writeFileSync(file('ca.pem'), host.ca.certPem);
  did = host.did();
  host.publish(did);
  host.server.route('/.well-known/did-configuration.json', json(didConfiguration(linkageCredentialDi(did, host.server.origin, host.key, `${did}#key-1`))));
  const made = await svc(['resolve', did, '--bundle', file('web.bundle.json'), '--no-store'], env());
  expect(made.exitCode, made.stderr).toBe(0);
  expect(made.stderr).toBe(`svc: the evidence bundle is in ${file('web.bundle.json')}`);
  expect(made.stdout).toContain('Origin binding  ESTABLISHED');
  await host.close();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('svc verify-bundle, the host stopped', () => {
  it('VERIFIED: exit 0, and --json the documented shape', async () => {
    const r = await svc(['verify-bundle', file('web.bundle.json'), '--json'], env());
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(Object.keys(result).sort()).toEqual(
      ['atObservation', 'bundle', 'cannotProve', 'failures', 'now', 'outcome', 'resources', 'shows', 'signature', 'summary', 'tls'].sort(),
    );
    expect(result.outcome).toBe('VERIFIED');
    expect(result.bundle).toEqual({
      version: 1,
      svcVersion: expect.any(String),
      kind: 'resolve',
      subject: did,
      observedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      resources: 2,
      signed: false,
    });
    expect(result.resources.map((r: { purpose: string; intact: boolean }) => [r.purpose, r.intact]).sort()).toEqual([
      ['DID configuration', true],
      ['DID document', true],
    ]);
    expect(result.tls).toHaveLength(2);
    expect(result.tls[0]).toMatchObject({
      host: 'localhost',
      anchor: 'CN=svc test CA, O=svc tests',
      anchorTrusted: true,
      summary: 'valid at observation, valid now',
    });
    expect(result.atObservation).toMatchObject({ matches: true, differences: [], unrecorded: [] });
    expect(result.now).toMatchObject({ matches: true, differences: [], unrecorded: [] });
    expect(result.signature).toBeNull();
    expect(result.failures).toEqual([]);
    expect(result.cannotProve.length).toBeGreaterThan(0);
  });

  it('the text report: the outcome, each resource and chain, both re-runs, what a bundle cannot prove', async () => {
    const r = await svc(['verify-bundle', file('web.bundle.json'), '--no-color'], env());
    expect(r.exitCode).toBe(0);
    const text = r.stdout;
    expect(text.split('\n')[0]).toMatch(/VERIFIED/);
    expect(text).toMatch(new RegExp(`\\n {2}bundle +resolve ${did}\\n`));
    expect(text).toMatch(/\n {2}signed +no: anyone could have written this file\n/);
    expect(text).toMatch(/\n {2}✓ r[12] {3}DID document, https:\/\/localhost:\d+\/\.well-known\/did\.json \(\d+ bytes\)\n/);
    expect(text).toMatch(/\n {2}✓ r[12] {3}localhost: valid at observation, valid now, anchor CN=svc test CA,\n {9}O=svc tests\n/);
    expect(text).toMatch(/\n {2}then +\S+: the recorded result\n {2}now +\S+: the recorded result\n/);
    expect(text).toContain('That the host really served these bytes');
    // Every line fits the 80 columns of a pipe.
    expect(text.split('\n').filter((line) => [...line].length > 80)).toEqual([]);
  });

  it('--now a year later: CHANGED_SINCE, exit 3 (--strict: 1), the certificates expired since', async () => {
    const bundle = JSON.parse(readFileSync(file('web.bundle.json'), 'utf8'));
    const later = new Date(Date.parse(bundle.observedAt) + 366 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const r = await svc(['verify-bundle', file('web.bundle.json'), '--now', later, '--json'], env());
    expect(r.exitCode).toBe(3);
    const result = JSON.parse(r.stdout);
    expect(result.outcome).toBe('CHANGED_SINCE');
    expect(result.tls.map((t: { summary: string }) => t.summary)).toEqual(['valid at observation, expired now', 'valid at observation, expired now']);
    expect(result.atObservation.matches).toBe(true);
    expect(result.now.at).toBe(later);
    const text = await svc(['verify-bundle', file('web.bundle.json'), '--now', later, '--no-color'], env());
    expect(text.stdout).toMatch(/\n {2}! r[12] {3}localhost: valid at observation, expired now \(the leaf certificate\n {9}expired at /);
    expect((await svc(['verify-bundle', file('web.bundle.json'), '--now', later, '--strict', '--quiet'], env())).exitCode).toBe(1);
  });

  it('a flipped byte: FAILED, exit 1, naming the resource', async () => {
    const bundle = JSON.parse(readFileSync(file('web.bundle.json'), 'utf8'));
    const resource = bundle.resources.find((r: { purpose: string }) => r.purpose === 'DID document');
    const body = Buffer.from(resource.response.body, 'base64');
    body[body.length >> 1]! ^= 0x01;
    resource.response.body = body.toString('base64');
    // Written back in the canonical form (the members' order is already canonical; a re-serialisation keeps it).
    writeFileSync(file('flipped.bundle.json'), `${JSON.stringify(bundle)}\n`);
    const r = await svc(['verify-bundle', file('flipped.bundle.json'), '--no-color'], env());
    expect(r.exitCode).toBe(1);
    expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`FAILED.*${resource.id} \\(DID document, `));
    expect(r.stdout).toMatch(
      new RegExp(`\\n {2}✗ ${resource.id} {3}DID document, https://localhost:\\d+/\\.well-known/did\\.json \\(\\d+ bytes\\):\\n {9}its bytes do not match`),
    );
    // … and where the re-run on the damaged bytes differs from the recorded result.
    expect(r.stdout).toMatch(/\n {2}then +\S+: \d+ differences\n {4}· /);
    expect(r.stdout).toContain('\n    · evidence.source.sha256:');
  });

  it('a file that is no bundle: INVALID_BUNDLE, exit 4; a missing file: exit 2', async () => {
    writeFileSync(file('not-a-bundle.json'), '{"format":"something-else"}\n');
    const r = await svc(['verify-bundle', file('not-a-bundle.json')], env());
    expect(r.exitCode).toBe(4);
    expect(parseCliError(r.stderr).code).toBe('INVALID_BUNDLE');
    expect((await svc(['verify-bundle', file('missing.json')], env())).exitCode).toBe(2);
  });
});
