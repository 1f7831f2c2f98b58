/**
 * `svc resolve did:web:…` as users run it: the CLI in the test process (svcIn; a run with the
 * test CA and one without it through the built binary), a real HTTPS host on loopback, the test
 * CA given the way Node takes extra anchors (NODE_EXTRA_CA_CERTS) and the egress allowance
 * through SVC_EGRESS_ALLOW or --egress-allow.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, parseCliError, svc, svcIn } from '../support/cli.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import { didConfiguration, linkageCredentialDi } from '../support/signing.js';

let host: DidWebHost;
let dir: string;
let caFile: string;

beforeAll(async () => {
  assertBuilt();
  host = await startDidWebHost();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-web-'));
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, host.ca.certPem);
  const did = host.did();
  host.publish(did);
  host.server.route(
    '/.well-known/did-configuration.json',
    json(didConfiguration(linkageCredentialDi(did, `https://localhost:${host.server.port}`, host.key, `${did}#key-1`))),
  );
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => cleanEnv({ NODE_EXTRA_CA_CERTS: caFile, ...extra });

describe('svc resolve did:web', () => {
  it('resolves with SVC_EGRESS_ALLOW and shows transport and origin evidence', async () => {
    const r = await svc(['resolve', host.did()], env({ SVC_EGRESS_ALLOW: '127.0.0.0/8' }));
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Transport security  ESTABLISHED');
    expect(r.stdout).toContain('Origin binding  ESTABLISHED');
    expect(r.stdout).toMatch(/\nTransport\n/);
    expect(r.stdout).toContain('TLSv1.3');
    expect(r.stdout).toContain('pinned address  127.0.0.1');
    expect(r.stdout).toMatch(/status +VERIFIED/);
    expect(r.stdout).toContain('127.0.0.0/8');
  });

  it('takes the allowance from --egress-allow and prints JSON', async () => {
    const r = await svcIn(['resolve', host.did(), '--egress-allow', '127.0.0.0/8', '--json'], env());
    expect(r.exitCode).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.evidence.source.peerAddress).toBe('127.0.0.1');
    expect(result.evidence.tls.protocol).toBe('TLSv1.3');
    expect(result.evidence.domainBinding.status).toBe('VERIFIED');
  });

  it('without an allowance: EGRESS_BLOCKED, exit 4, one error block failing at dns.resolve, no connection', async () => {
    const before = host.server.connections;
    const r = await svcIn(['resolve', host.did()], env());
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    const error = parseCliError(r.stderr);
    expect(error.code).toBe('EGRESS_BLOCKED');
    expect(error.detail).toMatch(/^localhost resolves only to non-public addresses: 127\.0\.0\.1/);
    expect(error.failedAt).toEqual([expect.stringMatching(/^dns\.resolve\b/)]);
    expect(error.hint).toBe(
      'to fetch from it, allow this one address with --egress-allow 127.0.0.1/32 (or SVC_EGRESS_ALLOW=127.0.0.1/32) — an operator relaxation of the egress policy, which blocks non-public addresses by default',
    );
    expect(host.server.connections).toBe(before);
  });

  it('without the CA: UPSTREAM_UNAVAILABLE at tls.handshake (no switch weakens TLS)', async () => {
    const r = await svcIn(['resolve', host.did(), '--json'], cleanEnv({ SVC_EGRESS_ALLOW: '127.0.0.0/8' }));
    expect(r.exitCode).toBe(4);
    const problem = JSON.parse(r.stdout);
    expect(problem.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(problem.trace.find((s: { status: string }) => s.status === 'FAIL').stage).toBe('tls.handshake');
  });

  it('a bad allowance is a usage error with a one-line reason', async () => {
    const r = await svcIn(['resolve', host.did()], env({ SVC_EGRESS_ALLOW: '127.0.0.0/33' }));
    expect(r.exitCode).toBe(2);
    expect(parseCliError(r.stderr)).toEqual({
      code: 'USAGE_ERROR',
      detail: 'SVC_EGRESS_ALLOW: bad allow-list entry "127.0.0.0/33": prefix must be 0..32',
      failedAt: [],
      stageDetails: [],
      hint: "see 'svc help environment'",
    });
    const flag = await svcIn(['resolve', host.did(), '--egress-allow', 'localhost'], env());
    expect(flag.exitCode).toBe(2);
    const error = parseCliError(flag.stderr);
    expect(error).toMatchObject({ code: 'USAGE_ERROR', failedAt: [], stageDetails: [], hint: "see 'svc resolve --help'" });
    expect(error.detail).toMatch(/^--egress-allow: bad allow-list entry "localhost"/);
  });
});

/**
 * Hints that name the fix: the `hint:` line says what to change, and the problem's
 * detail (--json) ends with the same words as a sentence; the web problem page says them too
 * (web-problem-hints.test.ts).
 */
describe('svc resolve: hints that name the fix', () => {
  /** The hint line of a text run, and the --json detail of the same run. */
  async function hinted(
    args: string[],
    environment: Record<string, string | undefined>,
  ): Promise<{ code: string; detail: string; hint: string; json: string }> {
    const [text, json] = await Promise.all([
      svcIn(['resolve', ...args, '--no-store'], environment),
      svcIn(['resolve', ...args, '--no-store', '--json'], environment),
    ]);
    expect(text.exitCode).toBe(4);
    expect(json.exitCode).toBe(4);
    const error = parseCliError(text.stderr);
    const problem = JSON.parse(json.stdout);
    expect(problem.code).toBe(error.code);
    // The detail line is the problem's own; the JSON detail is it, then the hint as a sentence.
    expect(problem.detail).toBe(`${error.detail} ${error.hint.charAt(0).toUpperCase()}${error.hint.slice(1)}.`);
    return { code: error.code, detail: error.detail, hint: error.hint, json: problem.detail };
  }

  it('EGRESS_BLOCKED on loopback → the exact --egress-allow <cidr>, an operator relaxation', async () => {
    const { code, hint } = await hinted([host.did()], env());
    expect(code).toBe('EGRESS_BLOCKED');
    expect(hint).toContain('--egress-allow 127.0.0.1/32');
    expect(hint).toContain('operator relaxation');
  });

  it('an authority Node does not trust → NODE_EXTRA_CA_CERTS=<file>', async () => {
    const { code, detail, hint } = await hinted([host.did()], cleanEnv({ SVC_EGRESS_ALLOW: '127.0.0.0/8' }));
    expect(code).toBe('UPSTREAM_UNAVAILABLE');
    expect(detail).toMatch(/\((?:UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)\)\.$/);
    expect(hint).toContain('NODE_EXTRA_CA_CERTS=<file>');
    // The hint's fix works: the same run with the CA file resolves.
    expect((await svc(['resolve', host.did(), '--no-store', '--quiet'], env({ SVC_EGRESS_ALLOW: '127.0.0.0/8' }))).exitCode).toBe(0);
  });

  it('did:web:localhost:<port> (a colon before the port) → the %3A form of the same DID', async () => {
    const port = String(host.server.port);
    // https://localhost/<port>/did.json: port 443, where nothing of this test listens.
    const { hint } = await hinted([`did:web:localhost:${port}`, '--egress-allow', '127.0.0.1/32'], env());
    expect(hint).toBe(`a port in a did:web is written %3A, not with a colon: if ${port} is a port, the DID is did:web:localhost%3A${port}`);
    // Without the allowance the identifier is still the first thing to fix.
    expect((await hinted([`did:web:localhost:${port}`], env())).hint).toContain(`did:web:localhost%3A${port}`);
  });

  it('a host that does not exist (ENOTFOUND) → check the host name, not retry later', async () => {
    const { code, detail, hint } = await hinted(['did:web:no-such-host.invalid'], env());
    expect(code).toBe('UPSTREAM_UNAVAILABLE');
    expect(detail).toBe('DNS lookup of no-such-host.invalid failed: no such host (ENOTFOUND).');
    expect(hint).toBe('check the host name no-such-host.invalid: DNS knows no such host, so retrying will not help until it exists');
  });

  it('a problem without a known fix keeps pointing at the command help', async () => {
    const r = await svcIn(['resolve', 'did:example:123', '--no-store'], env());
    expect(r.exitCode).toBe(4);
    expect(parseCliError(r.stderr).hint).toBe("see 'svc resolve --help'");
  });
});
