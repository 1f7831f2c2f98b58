/**
 * `svc claim`, `svc claims` and `svc directory` against a real daemon (a process of the built
 * binary; the CLI runs in the test process, svcIn), as a controller runs them: keys from
 * `svc keygen`, a did:web on a loopback HTTPS host with the test CA, DNS records in a real DNS
 * server on loopback, and a pseudo-terminal for the wait-for-Enter path. Nothing is mocked; the
 * terminal runs and one `claim --token` run exactly as printed are processes of the built binary.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, expectUsageError, onlyJson, parseCliError, repoRoot, svc, svcIn, svcBin, type Run } from '../support/cli.js';
import { didJwkOf } from '../support/codec.js';
import type { Daemon } from '../support/daemon.js';
import { startDaemonFor, until } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { raw } from '../support/https-server.js';
import { generateTestKey, type TestKey } from '../support/signing.js';

/** Nothing listens on port 1: a command that calls the daemon there fails with exit 4. */
const CLOSED = 'http://127.0.0.1:1';
const WELL_KNOWN = '/.well-known/svc-claim.txt';
const RECORD = '_svc-claim.localhost';

let daemon: Daemon;
let host: DidWebHost;
let dns: TestDnsServer;
let work: string;
/** The lines of the test host's svc-claim.txt. */
const lines: string[] = ['# svc claims'];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'svc-cli-claims-'));
  host = await startDidWebHost();
  dns = await startDnsServer();
  host.server.route(WELL_KNOWN, (req, res) => raw(`${lines.join('\n')}\n`, { contentType: 'text/plain' })(req, res));
  // Re-checks every 2 s, a pass every second: a removed DNS record lapses its claim quickly.
  daemon = await startDaemonFor(host, { env: { SVC_DNS_SERVERS: dns.address, SVC_CLAIM_PERIOD: '1', SVC_CLAIM_RECHECK_INTERVAL: '2' } });
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await host?.close();
  await dns?.close();
  rmSync(work, { recursive: true, force: true });
});

/** `svc <args> --daemon <url>` (this suite's daemon unless told). */
function cli(args: string[], url = daemon.url, env: Record<string, string> = {}): Promise<Run> {
  return svcIn([...args, '--daemon', url], cleanEnv(env));
}

interface Key {
  file: string;
  didKey: string;
  didJwk: string;
  /** The private JWK as written (to check it is never printed). */
  d: string;
  publicJwk: { kty: string; crv: string; x: string; y?: string };
}

/** A key made by `svc keygen`, as a user makes one. */
async function keygen(name: string, curve = 'Ed25519'): Promise<Key> {
  const file = path.join(work, `${name}.jwk`);
  const r = await svcIn(['keygen', '--out', file, '--curve', curve, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout) as { didKey: string; didJwk: string };
  const jwk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const publicJwk =
    jwk['y'] === undefined ? { kty: jwk['kty']!, crv: jwk['crv']!, x: jwk['x']! } : { kty: jwk['kty']!, crv: jwk['crv']!, x: jwk['x']!, y: jwk['y'] };
  return { file, didKey: report.didKey, didJwk: report.didJwk, d: jwk['d']!, publicJwk };
}

/** A key made here with node:crypto (independent of svc's own did:key encoding), written as a private JWK file. */
function writeKey(name: string, key: TestKey): string {
  const file = path.join(work, `${name}.jwk`);
  writeFileSync(file, JSON.stringify(key.privateKey.export({ format: 'jwk' })));
  return file;
}

/** A did:web on the test host whose document lists `auth` under authentication and `assertOnly` only under assertionMethod. */
function publishWeb(name: string, auth: Key, assertOnly?: Key): string {
  const did = host.did('user', name);
  const methods = [
    { id: `${did}#key-1`, type: 'JsonWebKey', controller: did, publicKeyJwk: auth.publicJwk },
    ...(assertOnly ? [{ id: `${did}#assert`, type: 'JsonWebKey', controller: did, publicKeyJwk: assertOnly.publicJwk }] : []),
  ];
  host.publish(did, {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/jwk/v1'],
    id: did,
    verificationMethod: methods,
    authentication: [`${did}#key-1`],
    assertionMethod: methods.map((m) => m.id),
  });
  return did;
}

/** Exit 4 and the one error block with `code`; nothing else on stderr. */
function expectNoAnswer(r: Run, code: string): void {
  expect(r.exitCode, r.stderr).toBe(4);
  expect(parseCliError(r.stderr).code).toBe(code);
}

/** A refused proof: exit 1 and exactly one line `refused: CODE: reason`, nothing on stderr. */
function expectRefused(r: Run, code: string): string {
  expect({ exitCode: r.exitCode, stderr: r.stderr }).toEqual({ exitCode: 1, stderr: '' });
  expect(r.stdout.split('\n')).toHaveLength(1);
  const m = new RegExp(`^refused: ${code}: (\\S.*)$`).exec(r.stdout);
  expect(m, r.stdout).not.toBeNull();
  return m![1]!;
}

/** The command printed after "verify with:" on stderr, as the arguments of svc. */
function followUp(r: Run): string[] {
  const m = /^svc: once it is published, verify with: svc (claim \S.*)$/.exec(r.stderr);
  expect(m, r.stderr).not.toBeNull();
  // Every word here is shell-safe, so none is quoted and splitting on spaces is what a shell does.
  expect(m![1]).not.toMatch(/['"\\]/);
  return m![1]!.split(' ');
}

describe('svc claim --key (signature)', () => {
  let me: Key;
  /** Everything the signature commands printed, to show the private key never is. */
  const printed: string[] = [];
  const run = async (args: string[], url?: string): Promise<Run> => {
    const r = await cli(args, url);
    printed.push(r.stdout, r.stderr);
    return r;
  };

  beforeAll(async () => {
    me = await keygen('me');
  }, 30_000);

  it('a did:key from svc keygen: verified, with what it proves and what not; svc claims shows it; --list lists it', async () => {
    const kid = `${me.didKey}#${me.didKey.slice('did:key:'.length)}`;
    // Before: no claim (exit 1), and not in the directory.
    const before = await run(['claims', me.didKey]);
    expect(before).toMatchObject({ exitCode: 1, stdout: `${me.didKey}: no current claim`, stderr: '' });

    const r = await run(['claim', me.didKey, '--key', me.file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const out = r.stdout.split('\n');
    expect(out[0]).toBe(`verified: ${me.didKey}`);
    expect(out[1]).toBe(`  signature: ${kid}`);
    expect(r.stdout).toMatch(
      new RegExp(`^ {4}proves {10}Someone able to sign with ${kid} \\(a key under authentication\\) acted on \\d{4}-\\d\\d-\\d\\d\\.$`, 'm'),
    );
    expect(r.stdout).toMatch(/^ {4}does not prove {2}the legal or real-world identity of whoever acted$/m);
    expect(r.stdout).toMatch(/^ {4}verified \S+Z, last checked \S+Z, expires \S+Z$/m);
    expect(out.at(-1)).toBe('  listed in the directory: no');

    const claims = await run(['claims', me.didKey]);
    expect(claims.exitCode, claims.stderr).toBe(0);
    expect(claims.stdout.split('\n')[0]).toMatch(new RegExp(`^${me.didKey}: \\d+ current claims?$`));
    expect(claims.stdout).toContain(`  signature: ${kid}`);
    expect(claims.stdout).not.toContain('(listed in the directory)');
    // Not listed: a claim alone never puts a DID in the directory.
    expect((await run(['directory', me.didKey])).stdout).toBe('no listed identifiers');

    const listed = await run(['claim', me.didKey, '--key', me.file, '--list']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout.split('\n').at(-1)).toBe('  listed in the directory: yes');
    expect((await run(['claims', me.didKey])).stdout.split('\n')[0]).toMatch(/ \(listed in the directory\)$/);
    const directory = await run(['directory', me.didKey]);
    expect(directory.exitCode, directory.stderr).toBe(0);
    expect(directory.stdout.split('\n')[1]).toMatch(new RegExp(`^${me.didKey} +key +\\S+Z +signature$`));

    const unlisted = await run(['claim', me.didKey, '--key', me.file, '--unlist']);
    expect(unlisted.exitCode, unlisted.stderr).toBe(0);
    expect(unlisted.stdout.split('\n').at(-1)).toBe('  listed in the directory: no');
    expect((await run(['directory', me.didKey])).stdout).toBe('no listed identifiers');
  }, 60_000);

  it('--json prints one object {challenge, verification}; -q prints nothing', async () => {
    const json = onlyJson(await run(['claim', me.didKey, '--key', me.file, '--json', '--expires-in', '60']));
    expect(Object.keys(json).sort()).toEqual(['challenge', 'verification']);
    expect(json.challenge).toMatchObject({ did: me.didKey, method: 'signature', purpose: 'claim', wellKnown: null, dns: null });
    // --expires-in reached the daemon: the challenge holds 60 s.
    expect(Date.parse(json.challenge.expiresAt) - Date.parse(json.challenge.createdAt)).toBe(60_000);
    expect(json.verification).toMatchObject({ did: me.didKey, token: json.challenge.token, status: 'VERIFIED', verified: true, refusal: null, listed: false });
    expect(json.verification.claim.subject).toBe(`${me.didKey}#${me.didKey.slice('did:key:'.length)}`);

    const claims = onlyJson(await run(['claims', me.didKey, '--json']));
    expect(claims).toMatchObject({ did: me.didKey, listed: false });
    expect(claims.claims.length).toBeGreaterThan(0);

    expect(await run(['claim', me.didKey, '--key', me.file, '-q'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await run(['claims', me.didKey, '-q'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  }, 30_000);

  it('the did:jwk of the same key: the kid is derived as #0; another fragment is refused before the daemon', async () => {
    const r = await run(['claim', me.didJwk, '--key', me.file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([`verified: ${me.didJwk}`, `  signature: ${me.didJwk}#0`]);
    const explicit = await run(['claim', me.didJwk, '--key', me.file, '--kid', `${me.didJwk}#0`, '--json']);
    expect(onlyJson(explicit).verification.claim.subject).toBe(`${me.didJwk}#0`);
    expectUsageError(await run(['claim', me.didJwk, '--key', me.file, '--kid', `${me.didJwk}#1`], CLOSED), /has one key, .*#0; the kid names another/, 'claim');
  }, 30_000);

  it('P-256 (ES256) and secp256k1 (ES256K) keys: their did:key (a compressed point) and did:jwk prove control', async () => {
    for (const [curve, prefix] of [
      ['P-256', 'did:key:zDn'],
      ['secp256k1', 'did:key:zQ3s'],
    ] as const) {
      const key = await keygen(curve, curve);
      expect(key.didKey.startsWith(prefix), key.didKey).toBe(true);
      for (const did of [key.didKey, key.didJwk]) {
        const r = await cli(['claim', did, '--key', key.file]);
        expect(r.exitCode, `${curve} ${r.stdout}${r.stderr}`).toBe(0);
        expect(r.stdout.split('\n')[0]).toBe(`verified: ${did}`);
      }
    }
  }, 30_000);

  it('a did:web key under authentication, named with --kid; without --kid a one-line usage error naming it', async () => {
    const did = publishWeb('signer', me);
    const missing = await run(['claim', did, '--key', me.file], CLOSED);
    const error = expectUsageError(missing, /^--kid is required for did:web DIDs: name the authentication key \(e\.g\. .*#key-1\)\.$/, 'claim');
    expect(error.failedAt).toEqual([]);

    const r = await run(['claim', did, '--key', me.file, '--kid', `${did}#key-1`, '--list']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([`verified: ${did}`, `  signature: ${did}#key-1`]);
    expect(r.stdout.split('\n').at(-1)).toBe('  listed in the directory: yes');
    const claims = await run(['claims', did]);
    expect(claims.exitCode, claims.stderr).toBe(0);
    expect(claims.stdout.split('\n')[0]).toBe(`${did}: 1 current claim (listed in the directory)`);

    // A kid of another DID is refused before the daemon is asked.
    expectUsageError(
      await run(['claim', did, '--key', me.file, '--kid', `${me.didKey}#x`], CLOSED),
      /^The kid names a key of did:key:.*, not of the DID did:web:/,
      'claim',
    );
  }, 30_000);

  it("a key that is not the DID's: exit 2 before any daemon call", async () => {
    const other = generateTestKey('EdDSA');
    const otherDid = `did:key:${other.multikey}`;
    // The daemon at CLOSED would be exit 4: exit 2 shows the key was refused before any call.
    expectUsageError(
      await run(['claim', otherDid, '--key', me.file], CLOSED),
      new RegExp(`^The private key is not the key of ${otherDid}: its did:key is ${me.didKey}\\.$`),
      'claim',
    );
    expectUsageError(
      await run(['claim', didJwkOf(other.publicJwk), '--key', me.file], CLOSED),
      /^The private key is not the key that did:jwk:\S+ carries\.$/,
      'claim',
    );
    // And against the real daemon: refused the same, and the DID has no claim.
    expectUsageError(await run(['claim', otherDid, '--key', me.file]), /^The private key is not the key of /);
    expect((await run(['claims', otherDid])).exitCode).toBe(1);
  }, 30_000);

  it('a refused proof: exit 1 and one line "refused: CODE: reason" (a key only under assertionMethod)', async () => {
    const assertOnly = await keygen('assert-only');
    const did = publishWeb('asserter', me, assertOnly);
    const r = await cli(['claim', did, '--key', assertOnly.file, '--kid', `${did}#assert`]);
    const reason = expectRefused(r, 'KEY_NOT_AUTHENTICATION');
    expect(reason).toBe(`the key ${did}#assert is not listed under authentication (listed only under assertionMethod)`);
    expect(r.stdout).not.toContain(assertOnly.d);

    const json = await cli(['claim', did, '--key', assertOnly.file, '--kid', `${did}#assert`, '--json']);
    expect(json.exitCode).toBe(1);
    expect(onlyJson(json).verification).toMatchObject({
      status: 'REFUSED',
      verified: false,
      claim: null,
      listed: null,
      refusal: { code: 'KEY_NOT_AUTHENTICATION' },
    });
    expect(await cli(['claim', did, '--key', assertOnly.file, '--kid', `${did}#assert`, '-q'])).toEqual({ exitCode: 1, stdout: '', stderr: '' });

    // A kid the document does not have: refused by the daemon too (the CLI cannot know a did:web's keys).
    expectRefused(await cli(['claim', did, '--key', assertOnly.file, '--kid', `${did}#nope`]), 'KEY_NOT_FOUND');
    // Nothing was claimed by the refused key.
    expect((await cli(['claims', did])).exitCode).toBe(1);
  }, 30_000);

  it('never printed the private key, in any answer or error above', () => {
    expect(printed.length).toBeGreaterThan(20);
    for (const text of printed) expect(text).not.toContain(me.d);
  });
});

describe('svc claim --method dns | well-known, then --token', () => {
  let me: Key;

  beforeAll(async () => {
    me = await keygen('publisher');
  }, 30_000);

  it('dns: prints the record, exit 0, the --token follow-up on stderr; absent → RECORD_ABSENT, wrong → TOKEN_MISMATCH, published → verified and listed', async () => {
    const did = publishWeb('zone', me);
    const r = await cli(['claim', did, '--method', 'dns', '--list']);
    expect(r.exitCode, r.stderr).toBe(0);
    const token = /^token {6}(\S+)$/m.exec(r.stdout)?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.stdout.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^challenge for ${did} \\(dns, purpose list\\), expires \\S+Z$`)),
      'Publish this DNS record:',
      `  name     ${RECORD}`,
      '  type     TXT',
      `  value    ${token}`,
      `token      ${token}`,
    ]);
    // Run exactly as printed: it names this daemon, which the default URL would not.
    const follow = followUp(r);
    expect(follow).toEqual(['claim', did, '--token', token!, '--daemon', daemon.url]);
    const again = (env: Record<string, string> = {}) => svcIn(follow, cleanEnv(env));

    dns.remove(RECORD);
    expect(expectRefused(await again(), 'RECORD_ABSENT')).toContain(RECORD);
    dns.set(RECORD, ['v=spf1 -all', 'not-the-token']);
    expectRefused(await again(), 'TOKEN_MISMATCH');
    dns.set(RECORD, ['v=spf1 -all', token!]);
    const verified = await again();
    expect(verified.exitCode, verified.stderr).toBe(0);
    expect(verified.stdout.split('\n').slice(0, 2)).toEqual([`verified: ${did}`, `  dns: ${RECORD}`]);
    expect(verified.stdout).toMatch(/, next re-check \S+Z$/m);
    expect(verified.stdout.split('\n').at(-1)).toBe('  listed in the directory: yes');
    // A challenge proves once.
    expectRefused(await again(), 'CHALLENGE_USED');
    expect((await cli(['claims', did])).stdout.split('\n')[0]).toBe(`${did}: 1 current claim (listed in the directory)`);

    // The record removed, the daemon's re-check lapses the claim: svc claims says so, and why (exit 1).
    dns.remove(RECORD);
    let claims: Run | undefined;
    await until('the DNS claim lapses', async () => (claims = await cli(['claims', did])).exitCode === 1, 15_000);
    expect(claims!.stdout.split('\n')).toEqual([
      `${did}: no current claim`,
      'lapsed:',
      expect.stringMatching(new RegExp(`^ {2}dns: ${RECORD} lapsed \\S+Z: \\S.*(RECORD_ABSENT|no TXT record)`)),
    ]);
  }, 40_000);

  it('dns --json: {challenge, verification: null}; -q: only the follow-up; --token --json: {challenge: null, verification}', async () => {
    const did = publishWeb('zone-json', me);
    const r = await cli(['claim', did, '--method', 'dns', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const json = onlyJson(r);
    expect(json.verification).toBeNull();
    expect(json.challenge).toMatchObject({
      did,
      method: 'dns',
      purpose: 'claim',
      dns: { name: RECORD, type: 'TXT', value: json.challenge.token },
      signature: null,
    });
    expect(followUp(r)).toContain(json.challenge.token);

    // -q hides the challenge, not the one line without which its token would be lost.
    const quiet = await cli(['claim', did, '--method', 'dns', '-q']);
    expect(quiet).toMatchObject({ exitCode: 0, stdout: '' });
    const quietToken = followUp(quiet)[3]!;

    dns.set(RECORD, [quietToken]);
    const submitted = onlyJson(await cli(['claim', did, '--token', quietToken, '--json']));
    expect(submitted).toMatchObject({ challenge: null, verification: { did, token: quietToken, method: 'dns', status: 'VERIFIED', verified: true } });
    dns.remove(RECORD);
  }, 30_000);

  it('well-known: prints the URL and line to host; once hosted, --token verifies', async () => {
    const did = publishWeb('site', me);
    const r = await cli(['claim', did, '--method', 'well-known', '--expires-in', '86400']);
    expect(r.exitCode, r.stderr).toBe(0);
    const token = /^token {6}(\S+)$/m.exec(r.stdout)![1]!;
    expect(r.stdout).toContain(`Host this line in the file:\n  url      https://localhost:${host.server.port}${WELL_KNOWN}\n  line     ${token}\n`);
    expect(r.stdout.split('\n')[0]).toMatch(/\(well-known, purpose claim\)/);
    lines.push(token);
    const verified = await svc(followUp(r), cleanEnv());
    expect(verified.exitCode, verified.stderr).toBe(0);
    expect(verified.stdout.split('\n')[1]).toBe(`  well-known: https://localhost:${host.server.port}${WELL_KNOWN}`);
  }, 30_000);

  it('the daemon from SVC_DAEMON_URL: the follow-up names no --daemon (the environment still has it)', async () => {
    const did = publishWeb('zone-env', me);
    const r = await svcIn(['claim', did, '--method', 'dns'], cleanEnv({ SVC_DAEMON_URL: daemon.url }));
    expect(r.exitCode, r.stderr).toBe(0);
    const follow = followUp(r);
    expect(follow).not.toContain('--daemon');
    dns.set(RECORD, [follow[3]!]);
    const verified = await svcIn(follow, cleanEnv({ SVC_DAEMON_URL: daemon.url }));
    expect(verified.exitCode, verified.stderr).toBe(0);
    dns.remove(RECORD);
  }, 30_000);

  /**
   * `svc claim … --method dns` under a pseudo-terminal (util-linux script): it prints the record,
   * asks for Enter on stderr and then submits; `input` is typed once the challenge is on screen.
   */
  async function onTerminal(did: string, input: ((token: string) => string) | null, extra: string[] = []): Promise<{ code: number | string; output: string }> {
    const quoted = [process.execPath, svcBin, 'claim', did, '--method', 'dns', '--daemon', daemon.url, ...extra].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', `stty rows 40 cols 200; ${quoted}`, '/dev/null'], {
      cwd: repoRoot,
      env: { ...process.env, ...cleanEnv(), NO_COLOR: '1' } as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (output += c));
    const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
    try {
      if (input !== null) {
        for (let i = 0; i < 300 && !/Press Enter/.test(output); i++) await new Promise((r) => setTimeout(r, 50));
        const token = /^token {6}(\S+)\r?$/m.exec(output)?.[1];
        expect(token, output).toBeDefined();
        child.stdin!.write(input(token!));
      }
      const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 15_000))]);
      return { code, output: output.replace(/\r/g, '') };
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }

  it('on a terminal: waits for Enter, then verifies', async () => {
    const did = publishWeb('zone-tty', me);
    const { code, output } = await onTerminal(did, (token) => {
      dns.set(RECORD, [token]);
      return '\n';
    });
    expect(code, output).toBe(0);
    expect(output).toContain('Press Enter once it is published (Ctrl-C to stop): ');
    expect(output).toMatch(new RegExp(`^verified: ${did}$`, 'm'));
    expect(output).not.toMatch(/once it is published, verify with/);
    dns.remove(RECORD);
  }, 30_000);

  it('on a terminal, the end of input (Ctrl-D) prints the follow-up and exits 0, as without a terminal', async () => {
    const did = publishWeb('zone-eof', me);
    // ^D at the start of a line is the end of input on a terminal.
    const { code, output } = await onTerminal(did, () => '\u0004');
    expect(code, output).toBe(0);
    expect(output).toMatch(new RegExp(`^svc: once it is published, verify with: svc claim ${did} --token \\S+ --daemon ${daemon.url}$`, 'm'));
    expect(output).not.toMatch(/^verified:/m);
  }, 30_000);

  it('on a terminal with --json or -q: no wait (the record is not on screen), the follow-up at once', async () => {
    const did = publishWeb('zone-tty-json', me);
    const json = await onTerminal(did, null, ['--json']);
    expect(json.code, json.output).toBe(0);
    expect(json.output).not.toContain('Press Enter');
    const token = /"token": "([A-Za-z0-9_-]{43})"/.exec(json.output)?.[1];
    expect(json.output).toContain(`"value": "${token}"`);
    expect(json.output).toMatch(new RegExp(`^svc: once it is published, verify with: svc claim ${did} --token ${token} --daemon `, 'm'));
    const quiet = await onTerminal(did, null, ['-q']);
    expect(quiet.code, quiet.output).toBe(0);
    expect(quiet.output).not.toContain('Press Enter');
    expect(quiet.output.trim()).toMatch(/^svc: once it is published, verify with: svc claim \S+ --token \S+ --daemon \S+$/);
  }, 30_000);
});

describe('usage errors: exit 2, one line, nothing asked of the daemon', () => {
  let me: Key;
  let notJson: string;
  let publicOnly: string;

  beforeAll(async () => {
    me = await keygen('usage');
    notJson = path.join(work, 'not-json.jwk');
    writeFileSync(notJson, '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIP1kbq9Xn3i0bQ3s\n-----END PRIVATE KEY-----\n');
    publicOnly = path.join(work, 'public.jwk');
    writeFileSync(publicOnly, JSON.stringify(me.publicJwk));
  }, 30_000);

  // Every case points --daemon at a closed port: a call would be exit 4, so exit 2 shows none was made.
  const cases: Array<[string, () => string[], RegExp]> = [
    ['--list with --unlist', () => ['claim', me.didKey, '--key', me.file, '--list', '--unlist'], /^--list and --unlist exclude each other$/],
    ['--key with --method dns', () => ['claim', me.didKey, '--key', me.file, '--method', 'dns'], /^--key signs a challenge: it does not go with --method dns$/],
    ['the signature method without --key', () => ['claim', me.didKey], /^the signature method needs --key <file>/],
    ['--method signature without --key', () => ['claim', me.didKey, '--method', 'signature'], /^the signature method needs --key <file>/],
    ['--token with --key', () => ['claim', me.didKey, '--token', 'abc', '--key', me.file], /^--token submits a published \(well-known or dns\) challenge/],
    ['--token with --list', () => ['claim', me.didKey, '--token', 'abc', '--list'], /^--token submits an earlier challenge/],
    ['--token with --method', () => ['claim', me.didKey, '--token', 'abc', '--method', 'dns'], /^--token submits an earlier challenge/],
    ['--token with --expires-in', () => ['claim', me.didKey, '--token', 'abc', '--expires-in', '60'], /^--token submits an earlier challenge/],
    ['--kid without --key', () => ['claim', me.didKey, '--method', 'dns', '--kid', `${me.didKey}#x`], /^--kid names the key that signs: it goes with --key$/],
    ['a bad --method', () => ['claim', me.didKey, '--method', 'email'], /^--method must be one of signature, well-known, dns, not email$/],
    [
      '--expires-in 0',
      () => ['claim', me.didKey, '--key', me.file, '--expires-in', '0'],
      /^--expires-in must be a whole number of seconds from 1 to 900 for the signature method, not 0$/,
    ],
    ['--expires-in soon', () => ['claim', me.didKey, '--key', me.file, '--expires-in', 'soon'], /^--expires-in must be .* not soon$/],
    ['--expires-in 1.5', () => ['claim', me.didKey, '--key', me.file, '--expires-in', '1.5'], /^--expires-in must be .* not 1\.5$/],
    // The daemon's maxima, said before it is asked.
    [
      '--expires-in 901 for a signature',
      () => ['claim', me.didKey, '--key', me.file, '--expires-in', '901'],
      /from 1 to 900 for the signature method, not 901$/,
    ],
    [
      '--expires-in 86401 for dns',
      () => ['claim', 'did:web:example.com', '--method', 'dns', '--expires-in', '86401'],
      /from 1 to 86400 for the dns method, not 86401$/,
    ],
    [
      'a private key file that is not JSON',
      () => ['claim', me.didKey, '--key', notJson],
      /^the private key file is not valid JSON: it must hold one private JWK$/,
    ],
    [
      'a public-only JWK',
      () => ['claim', me.didKey, '--key', publicOnly],
      /^The JWK has no private member "d": it is a public key, and proofs of control are signed with the DID's private key\.$/,
    ],
    [
      'a key file that does not exist',
      () => ['claim', me.didKey, '--key', path.join(work, 'missing.jwk')],
      /^cannot read the private key file .*missing\.jwk: no such file$/,
    ],
    ['an unknown option', () => ['claim', me.didKey, '--key', me.file, '--bogus'], /^unknown option '--bogus'$/],
    ['directory --limit 0', () => ['directory', '--limit', '0'], /^--limit must be a whole number from 1 to 50, not 0$/],
    ['directory --limit 51', () => ['directory', '--limit', '51'], /^--limit must be a whole number from 1 to 50, not 51$/],
    ['directory --limit x', () => ['directory', '--limit', 'x'], /^--limit must be a whole number from 1 to 50, not x$/],
    ['directory --method ethr', () => ['directory', '--method', 'ethr'], /^--method must be one of web, key, jwk, webvh, not ethr$/],
    ['directory --all --cursor', () => ['directory', '--all', '--cursor', 'x'], /^--all starts at the first page: it does not go with --cursor$/],
  ];

  for (const [name, args, detail] of cases) {
    it(name, async () => {
      const command = args()[0]!;
      const r = await cli(args(), CLOSED);
      // The missing --key names the other methods instead (tested below); every other error, the command's help.
      expectUsageError(r, detail, /^the signature method/.test(r.stderr.slice('svc: USAGE_ERROR: '.length)) ? undefined : command);
      // The private key is never quoted, even when the file is wrong.
      expect(r.stderr).not.toContain(me.d);
      expect(r.stderr).not.toContain('MC4CAQAwBQYDK2VwBCIEIP1kbq9Xn3i0bQ3s');
    });
  }

  it('the signature method without --key: the hint names the other methods', async () => {
    expect(expectUsageError(await cli(['claim', me.didKey], CLOSED), /--key/).hint).toBe('or choose --method well-known or --method dns');
  });

  it('a --daemon that is not an http URL', async () => {
    expectUsageError(await svcIn(['claims', me.didKey, '--daemon', 'ftp://x'], cleanEnv()), /^--daemon must be an http\(s\) URL/, 'claims');
  });

  it('a bad SVC_DAEMON_URL is a usage error pointing at the environment help', async () => {
    const r = await svcIn(['directory'], cleanEnv({ SVC_DAEMON_URL: 'nope' }));
    expect(expectUsageError(r, /^SVC_DAEMON_URL must be/).hint).toBe("see 'svc help environment'");
  });
});

describe('svc claims of a DID without claims', () => {
  it('exit 1 "no current claim"; --json the answer with no claims; -q nothing', async () => {
    const did = `did:key:${generateTestKey('EdDSA').multikey}`;
    expect(await cli(['claims', did])).toEqual({ exitCode: 1, stdout: `${did}: no current claim`, stderr: '' });
    const json = await cli(['claims', did, '--json']);
    expect(json.exitCode).toBe(1);
    expect(onlyJson(json)).toMatchObject({ did, claims: [], lapsed: [], listed: false });
    expect(await cli(['claims', did, '-q'])).toEqual({ exitCode: 1, stdout: '', stderr: '' });
  }, 30_000);
});

describe('the daemon unreachable, or answering a problem', () => {
  let me: Key;

  beforeAll(async () => {
    me = await keygen('daemon');
  }, 30_000);

  it('a daemon that cannot be reached: exit 4 DAEMON_UNREACHABLE, for every command', async () => {
    for (const args of [
      ['claim', me.didKey, '--key', me.file],
      ['claim', 'did:web:example.com', '--method', 'dns'],
      ['claim', me.didKey, '--token', 'abc'],
      ['claims', me.didKey],
      ['directory'],
    ]) {
      const r = await cli(args, CLOSED);
      expectNoAnswer(r, 'DAEMON_UNREACHABLE');
      expect(r.stdout).toBe('');
      expect(parseCliError(r.stderr).detail).toMatch(/^cannot reach the daemon at http:\/\/127\.0\.0\.1:1: /);
    }
  }, 30_000);

  it('a DID that is not one: the daemon answers INVALID_DID (exit 4, one line), with --key or without; --json prints the problem', async () => {
    // With --key the key is not checked against a DID that is not one: the daemon's answer is the same for every form.
    for (const args of [
      ['claim', 'not-a-did', '--key', me.file],
      ['claim', 'not-a-did', '--method', 'dns'],
      ['claim', 'not-a-did', '--token', 'abc'],
      ['claims', 'not-a-did'],
    ]) {
      const r = await cli(args);
      expectNoAnswer(r, 'INVALID_DID');
      expect(r.stdout).toBe('');
      const error = parseCliError(r.stderr);
      expect(error.detail).toMatch(/^Not a valid DID: /);
      expect(error.hint).toBe(`see 'svc ${args[0]} --help'`);
    }
    const json = await cli(['claim', 'not-a-did', '--key', me.file, '--json']);
    expectNoAnswer(json, 'INVALID_DID');
    expect(onlyJson(json)).toMatchObject({ status: 400, code: 'INVALID_DID' });
    // The CLI does not judge the DID itself: with the daemon unreachable, that is what it reports.
    expectNoAnswer(await cli(['claim', 'not-a-did', '--key', me.file], CLOSED), 'DAEMON_UNREACHABLE');
  }, 30_000);

  it('other problems: a method that does not apply (exit 2, said before the daemon is asked), a DID method svc does not resolve, a cursor the directory did not give (exit 2)', async () => {
    // The daemon's own rule (methodUnavailable), applied by the CLI: an option that does not apply is a usage error.
    expectUsageError(
      await cli(['claim', me.didKey, '--method', 'dns'], CLOSED),
      /^--method dns: did:key has no host to publish on; prove control with the signature method$/,
      'claim',
    );
    expectUsageError(await cli(['claim', me.didKey, '--method', 'well-known'], CLOSED), /^--method well-known: did:key has no host/, 'claim');
    expectNoAnswer(await cli(['claim', 'did:ethr:0x1234', '--method', 'dns']), 'METHOD_NOT_SUPPORTED');
    // The daemon's INVALID_OPTIONS: an option value it cannot use, exit 2 as any other (the problem on stdout with --json).
    const cursor = await cli(['directory', '--cursor', 'bogus']);
    expect(cursor.exitCode, cursor.stderr).toBe(2);
    expect(parseCliError(cursor.stderr).code).toBe('INVALID_OPTIONS');
  }, 30_000);
});

describe('svc directory', () => {
  /** A daemon of its own: the directory holds exactly what this block lists. */
  let dir: Daemon;
  /** The listed DIDs, in listing order. */
  const listed: string[] = [];
  let jwkDid: string;
  const directory = (args: string[]) => cli(['directory', ...args], dir.url);

  beforeAll(async () => {
    dir = await startDaemonFor(null);
  }, 30_000);

  afterAll(async () => {
    await dir?.stop();
  });

  it('empty: "no listed identifiers", exit 0; --json {entries: [], nextCursor: null}', async () => {
    expect(await directory([])).toEqual({ exitCode: 0, stdout: 'no listed identifiers', stderr: '' });
    expect(onlyJson(await directory(['--json']))).toEqual({ entries: [], nextCursor: null });
    expect(await directory(['-q'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('lists the DIDs that opted in, oldest first, in a table; a claim without --list is not listed', async () => {
    for (let i = 0; i < 4; i++) {
      const key = generateTestKey('EdDSA');
      const did = `did:key:${key.multikey}`;
      const r = await cli(['claim', did, '--key', writeKey(`dir-${i}`, key), '--list', '-q'], dir.url);
      expect(r.exitCode, r.stderr).toBe(0);
      listed.push(did);
    }
    const es256 = generateTestKey('ES256');
    jwkDid = didJwkOf(es256.publicJwk);
    expect((await cli(['claim', jwkDid, '--key', writeKey('dir-jwk', es256), '--list', '-q'], dir.url)).exitCode).toBe(0);
    listed.push(jwkDid);
    const unlisted = generateTestKey('EdDSA');
    expect((await cli(['claim', `did:key:${unlisted.multikey}`, '--key', writeKey('dir-unlisted', unlisted), '-q'], dir.url)).exitCode).toBe(0);

    const r = await directory([]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const rows = r.stdout.split('\n');
    expect(rows[0]).toMatch(/^DID +METHOD +LISTED +CLAIMS$/);
    expect(rows.slice(1).map((row) => row.split(/ +/))).toEqual(
      listed.map((did) => [did, did.startsWith('did:jwk:') ? 'jwk' : 'key', expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+Z$/), 'signature']),
    );
    // The columns line up: every row's METHOD starts where the header's does.
    const column = rows[0]!.indexOf('METHOD');
    for (const row of rows.slice(1)) expect(row.slice(column)).toMatch(/^(key|jwk) /);
  }, 60_000);

  it('--limit 2: a page, and on stderr the command for the next one; following it pages to the end', async () => {
    const seen: string[] = [];
    let args = ['directory', '--limit', '2', '--daemon', dir.url];
    for (let page = 0; page < 5; page++) {
      const r = await svcIn(args, cleanEnv());
      expect(r.exitCode, r.stderr).toBe(0);
      seen.push(
        ...r.stdout
          .split('\n')
          .slice(1)
          .map((row) => row.split(' ')[0]!),
      );
      if (r.stderr === '') break;
      const hint = /^svc: more entries: svc (directory .* --cursor \S+)$/.exec(r.stderr);
      expect(hint, r.stderr).not.toBeNull();
      // Run as printed: it repeats --limit and --daemon.
      args = hint![1]!.split(' ');
      expect(args.slice(0, 5)).toEqual(['directory', '--limit', '2', '--daemon', dir.url]);
    }
    expect(seen).toEqual(listed);
  }, 30_000);

  it('the next-page command keeps --method and q, whose cursor the daemon refuses in any other query', async () => {
    const first = await directory(['--method', 'key', '--limit', '3']);
    expect(
      first.stdout
        .split('\n')
        .slice(1)
        .map((row) => row.split(' ')[0]),
    ).toEqual(listed.slice(0, 3));
    const hint = /^svc: more entries: svc (directory .*)$/.exec(first.stderr)![1]!.split(' ');
    expect(hint).toEqual(['directory', '--method', 'key', '--limit', '3', '--daemon', dir.url, '--cursor', expect.any(String)]);
    const next = await svcIn(hint, cleanEnv());
    expect(next.exitCode, next.stderr).toBe(0);
    // did:keys only: the did:jwk is not on the method's last page.
    expect(
      next.stdout
        .split('\n')
        .slice(1)
        .map((row) => row.split(' ')[0]),
    ).toEqual([listed[3]]);
    expect(next.stderr).toBe('');
    // The same cursor without --method: another query, refused by the daemon (INVALID_OPTIONS, exit 2).
    const cursor = hint.at(-1)!;
    const refused = await directory(['--limit', '3', '--cursor', cursor]);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(parseCliError(refused.stderr).code).toBe('INVALID_OPTIONS');

    const withQ = await directory(['did:key:', '--limit', '1']);
    const qHint = /^svc: more entries: svc (directory .*)$/.exec(withQ.stderr)![1]!.split(' ');
    expect(qHint).toEqual(['directory', '--limit', '1', '--daemon', dir.url, '--cursor', expect.any(String), 'did:key:']);
    const qNext = await svcIn(qHint, cleanEnv());
    expect(qNext.exitCode, qNext.stderr).toBe(0);
    expect(
      qNext.stdout
        .split('\n')
        .slice(1)
        .map((row) => row.split(' ')[0]),
    ).toEqual([listed[1]]);
  }, 30_000);

  it('--all --json: every entry, following the cursors, and nextCursor null', async () => {
    for (const args of [
      ['--all', '--json'],
      ['--all', '--json', '--limit', '2'],
    ]) {
      const r = await directory(args);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const json = onlyJson(r);
      expect(json.nextCursor).toBeNull();
      expect(json.entries.map((e: { did: string }) => e.did)).toEqual(listed);
      expect(json.entries[0]).toMatchObject({
        did: listed[0],
        method: 'key',
        listedAt: expect.any(String),
        claims: [expect.objectContaining({ method: 'signature' })],
      });
    }
    // Without --json, --all prints one table and no next-page line.
    const text = await directory(['--all', '--limit', '2']);
    expect(text.stdout.split('\n')).toHaveLength(listed.length + 1);
    expect(text.stderr).toBe('');
  }, 30_000);

  it('q and --method filter; a filter matching nothing is "no listed identifiers", exit 0', async () => {
    const part = listed[2]!.slice(-12);
    const one = await directory([part]);
    expect(one.exitCode).toBe(0);
    expect(
      one.stdout
        .split('\n')
        .slice(1)
        .map((row) => row.split(' ')[0]),
    ).toEqual([listed[2]]);
    expect(onlyJson(await directory(['--method', 'key', '--all', '--json'])).entries.map((e: { did: string }) => e.did)).toEqual(listed.slice(0, 4));
    expect(onlyJson(await directory(['--method', 'jwk', '--json'])).entries.map((e: { did: string }) => e.did)).toEqual([jwkDid]);
    expect(await directory(['--method', 'web'])).toEqual({ exitCode: 0, stdout: 'no listed identifiers', stderr: '' });
    expect(await directory(['no-such-identifier'])).toEqual({ exitCode: 0, stdout: 'no listed identifiers', stderr: '' });
  }, 30_000);
});

describe('help', () => {
  it('svc claim, claims and directory --help: exit status and examples, no specification citations', async () => {
    for (const command of ['claim', 'claims', 'directory']) {
      const r = await svcIn([command, '--help']);
      expect(r.exitCode, command).toBe(0);
      expect(r.stdout, command).toMatch(/^Exit status: 0 .*; 2 a usage error\b.*; 4 the daemon/ms);
      expect(r.stdout, command).toMatch(new RegExp(`^Examples:\\n {2}\\$ svc ${command}\\b`, 'm'));
      expect(r.stdout, command).toMatch(/--daemon <url>/);
      expect(r.stdout, command).not.toMatch(/SPEC|§/);
    }
    const claim = (await svcIn(['claim', '--help'])).stdout;
    // The exit codes a script relies on, and the follow-up of a published challenge.
    expect(claim).toMatch(/1 the proof was refused/);
    expect(claim.replace(/\s+/g, ' ')).toMatch(/it prints the svc claim … --token command to run once it is published/);
    expect((await svcIn(['claims', '--help'])).stdout).toMatch(/Exit status: 0 the DID has a current claim; 1 it has none/);
  }, 30_000);
});
