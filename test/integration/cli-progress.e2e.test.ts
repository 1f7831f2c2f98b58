/**
 * Live progress on stderr and the --verbose trace, as users see them: the built binary under a real
 * pseudo-terminal (util-linux `script`; piped runs in the test process, svcIn), a real HTTPS
 * did:web host on loopback whose documents answer late, and a status list served late for
 * `svc verify-credential`.
 *
 * `script` gives the command one terminal for stdout and stderr. To tell them apart, some runs send
 * stdout to a file inside the command line: what is left on the terminal is stderr alone.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, repoRoot, svcIn, svcBin, svcInTty, type Run } from '../support/cli.js';
import { documentPath, startDidWebHost, type DidWebHost, type Handler } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import { didConfiguration, didDocument, linkageCredentialDi } from '../support/signing.js';
import { PLAIN_TOOLS, startSdk1Server } from '../support/mcp-servers.js';
import { issueEddsaJcs, peerEd25519Issuer, statusEntry, statusListCredential, unsignedCredential } from '../support/peer-issuers.js';

const LOOPBACK = ['--egress-allow', '127.0.0.0/8'];
/** How late the slow did.json answers: far past the ~180 ms before progress shows. */
const SLOW_MS = 2000;
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const CLEAR_LINE = '\u001b[2K';

/** Without colour codes (SGR), keeping the line erasures the assertions look at. */
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

let host: DidWebHost;
let dir: string;
let caFile: string;
let slowDid: string;
let missingDid: string;
let credentialFile: string;

/** Answers with `handler` after `ms`. */
function late(ms: number, handler: Handler): Handler {
  return (req, res) => {
    setTimeout(() => handler(req, res), ms);
  };
}

beforeAll(async () => {
  assertBuilt();
  host = await startDidWebHost();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-progress-'));
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, host.ca.certPem);

  // A did:web whose document comes 2 s late, with a verified DID configuration (exit 0).
  slowDid = host.did('slow');
  host.server.route(documentPath(slowDid), late(SLOW_MS, json(didDocument(slowDid, host.key), { contentType: 'application/did+json' })));
  host.server.route(
    '/.well-known/did-configuration.json',
    json(didConfiguration(linkageCredentialDi(slowDid, host.server.origin, host.key, `${slowDid}#key-1`))),
  );
  // A did:web whose document is missing, said late: a problem after progress was shown.
  missingDid = host.did('missing');
  host.server.route(documentPath(missingDid), late(600, json({ error: 'not here' }, { status: 404 })));

  // A credential of a did:key issuer whose status list answers 1 s late.
  const issuer = await peerEd25519Issuer(7);
  const listUrl = `${host.server.origin}/lists/slow`;
  host.server.route('/lists/slow', late(1000, json(await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', set: [3] }))));
  const credential = await issueEddsaJcs(unsignedCredential(issuer.did, { credentialStatus: statusEntry(listUrl, 41) }), issuer);
  credentialFile = path.join(dir, 'credential.json');
  writeFileSync(credentialFile, JSON.stringify(credential));
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => cleanEnv({ NODE_EXTRA_CA_CERTS: caFile, ...extra });

/**
 * Runs svc under a pseudo-terminal with stdout sent to a file: the terminal output is then
 * stderr alone, and `stdout` is what the report wrote.
 */
async function stderrInTty(args: string[], extra: Record<string, string> = {}): Promise<{ raw: string; terminal: string; stdout: string; exitCode: number }> {
  const out = path.join(dir, `stdout-${Math.random().toString(36).slice(2)}.txt`);
  const quoted = [process.execPath, svcBin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = await execa('script', ['-qec', `stty rows 40 cols 120; ${quoted} > '${out}'`, '/dev/null'], {
    reject: false,
    env: env(extra),
    extendEnv: true,
    cwd: repoRoot,
    timeout: 20_000,
  });
  const raw = String(r.stdout);
  return { raw, terminal: plain(raw), stdout: readFileSync(out, 'utf8'), exitCode: r.exitCode ?? -1 };
}

/** The permanent line of a finished stage: `✓ web.fetch   2004 ms  GET https://…`; its time in ms. */
function finishedMs(output: string, stage: string, mark = '✓'): number {
  const match = new RegExp(`${mark} ${stage.replace('.', '\\.')} +(\\d+(?:\\.\\d)?) ms`).exec(output);
  expect(match, `no finished line for ${stage} in:\n${output}`).not.toBeNull();
  return Number(match![1]);
}

describe('live progress on a terminal', () => {
  it('shows the running stage, then each finished stage with its time, before the dossier', async () => {
    const r: Run = await svcInTty(['resolve', slowDid, '--no-store', ...LOOPBACK], env(), { rows: 40, cols: 120 });
    expect(r.exitCode).toBe(0);
    const output = plain(r.stdout);
    // The stage in progress, on the live line, with its human label.
    expect(output).toMatch(new RegExp(`${SPINNER.source} web\\.fetch +\\d+\\.\\d s +GET https://localhost:${host.server.port}/slow/did\\.json`));
    // Finished stages with their times: the ones before the display began are listed too.
    expect(finishedMs(output, 'dns.resolve')).toBeLessThan(SLOW_MS);
    expect(finishedMs(output, 'tls.handshake')).toBeLessThan(SLOW_MS);
    expect(finishedMs(output, 'web.fetch')).toBeGreaterThanOrEqual(SLOW_MS - 100);
    finishedMs(output, 'document.parse');
    finishedMs(output, 'linkage.verify_proof');
    // All progress comes before the dossier, and its live line was cleared first.
    const dossierAt = output.indexOf('Transport security');
    expect(dossierAt).toBeGreaterThan(0);
    expect(output.lastIndexOf('✓ ')).toBeLessThan(dossierAt);
    expect(output.lastIndexOf(CLEAR_LINE)).toBeLessThan(dossierAt);
    expect(output.slice(dossierAt)).not.toMatch(SPINNER);
  });

  it('writes progress to stderr only: stdout holds the same report as when piped', async () => {
    const r = await stderrInTty(['resolve', slowDid, '--no-store', ...LOOPBACK]);
    expect(r.exitCode).toBe(0);
    expect(finishedMs(r.terminal, 'web.fetch')).toBeGreaterThanOrEqual(SLOW_MS - 100);
    expect(r.terminal).not.toContain('Transport security');
    expect(r.stdout).toContain('Transport security  ESTABLISHED');
    expect(r.stdout).not.toMatch(SPINNER);
    expect(r.stdout).not.toContain('✓ web.fetch');
    expect(r.stdout).not.toContain('\u001b[');
    // The terminal ends with the live line erased: nothing is left behind the cursor.
    expect(r.terminal.endsWith(CLEAR_LINE)).toBe(true);
  });

  it('colours the marks on a colour terminal, and not with --no-color', async () => {
    const coloured = await stderrInTty(['resolve', slowDid, '--no-store', ...LOOPBACK], { FORCE_COLOR: '1' });
    expect(coloured.raw).toMatch(/\u001b\[32m✓\u001b\[39m web\.fetch/);
    const uncoloured = await stderrInTty(['resolve', slowDid, '--no-store', '--no-color', ...LOOPBACK], { FORCE_COLOR: '1' });
    expect(uncoloured.raw).toMatch(/(^|\n|\r|\u001b\[2K)✓ web\.fetch/);
    expect(uncoloured.raw).not.toMatch(/\u001b\[[0-9;]*m/);
  });

  it('marks a failed stage and clears the progress before the problem', async () => {
    const r = await svcInTty(['resolve', missingDid, '--no-store', ...LOOPBACK], env(), { rows: 40, cols: 120 });
    expect(r.exitCode).toBe(4);
    const output = plain(r.stdout);
    // The failed stage is marked ✗.
    expect(finishedMs(output, 'web.fetch', '✗')).toBeGreaterThanOrEqual(500);
    const problemAt = output.indexOf('NOT_FOUND');
    expect(problemAt).toBeGreaterThan(output.lastIndexOf(CLEAR_LINE));
    expect(output.slice(problemAt)).not.toMatch(SPINNER);
  });

  // That nothing shows for work ending within the delay is held in process, the delay injected
  // (test/unit/cli-progress.test.ts): through a real process it would be a race with the machine.
  it('instant work (did:key): the report on stdout, at most progress lines on the terminal, their live line cleared', async () => {
    const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const r = await stderrInTty(['resolve', did, '--no-store']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(did);
    if (r.terminal !== '') expect(r.terminal.endsWith(CLEAR_LINE)).toBe(true);
    for (const line of r.terminal
      .split(/\r|\n/)
      .map((l) => l.replaceAll(CLEAR_LINE, ''))
      .filter((l) => l !== '')) {
      expect(line).toMatch(new RegExp(`^(${SPINNER.source}|✓|!|-) `));
    }
  });

  it('shows the status list fetch of svc verify-credential', async () => {
    const r = await stderrInTty(['verify-credential', credentialFile, ...LOOPBACK]);
    expect(r.exitCode).toBe(0);
    expect(r.terminal).toMatch(
      new RegExp(`${SPINNER.source} status\\.fetch +\\d+\\.\\d s +Fetch the status list https://localhost:${host.server.port}/lists/slow`),
    );
    expect(finishedMs(r.terminal, 'status.fetch')).toBeGreaterThanOrEqual(900);
    expect(r.stdout).toMatch(/VALID/);
    expect(r.stdout).not.toMatch(SPINNER);
  });
});

describe('no progress where output is for programs', () => {
  it('piped: stderr stays empty', async () => {
    const r = await svcIn(['resolve', slowDid, '--no-store', ...LOOPBACK], env());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Transport security  ESTABLISHED');
  });

  it('--json on a terminal: the only output is the JSON result', async () => {
    const r = await svcInTty(['resolve', slowDid, '--no-store', '--json', ...LOOPBACK], env());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(SPINNER);
    expect(r.stdout).not.toContain(CLEAR_LINE);
    const result = JSON.parse(r.stdout);
    expect(result.did).toBe(slowDid);
    expect(result.trace.map((s: { stage: string }) => s.stage)).toContain('web.fetch');
  });

  it('--quiet on a terminal: nothing at all', async () => {
    const r = await svcInTty(['resolve', slowDid, '--no-store', '--quiet', ...LOOPBACK], env());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('TERM=dumb: no live line', async () => {
    const r = await stderrInTty(['resolve', slowDid, '--no-store', ...LOOPBACK], { TERM: 'dumb' });
    expect(r.exitCode).toBe(0);
    expect(r.terminal).toBe('');
  });
});

describe('--verbose', () => {
  /** The trace rows: `+12 ms  PASS  web.fetch   2004 ms  GET … — detail`. */
  const row = (stage: string) => new RegExp(`\\+\\d+(?:\\.\\d)? ms +(PASS|WARN|FAIL|SKIP) +${stage.replace('.', '\\.')} +(\\d+(?:\\.\\d)?) ms +(.*)`);

  it('piped: the dossier carries the timed trace (once: stderr does not repeat it)', async () => {
    const r = await svcIn(['resolve', slowDid, '--no-store', '--verbose', ...LOOPBACK], env());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Transport security  ESTABLISHED');
    const trace = r.stdout.slice(r.stdout.indexOf('\nTrace\n'));
    expect(trace.startsWith('\nTrace\n')).toBe(true);
    const fetch = /^ {2}✓ web\.fetch +(\d+(?:\.\d+)?) (ms|s) /m.exec(trace);
    expect(fetch).not.toBeNull();
    expect(Number(fetch![1]) * (fetch![2] === 's' ? 1000 : 1)).toBeGreaterThanOrEqual(SLOW_MS - 100);
    for (const stage of [
      'syntax.parse',
      'dns.resolve',
      'tls.handshake',
      'document.parse',
      'linkage.fetch',
      'document.inspect',
      'crypto.validate_keys',
      'evidence.evaluate',
    ]) {
      expect(trace).toContain(` ${stage} `);
    }
    expect(r.stderr).not.toMatch(/Trace|web\.fetch/);
    expect(r.stderr).not.toMatch(SPINNER);
  });

  it('without --verbose the dossier has no trace', async () => {
    const r = await svcIn(['resolve', slowDid, '--no-store', ...LOOPBACK], env());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toContain('\nTrace\n');
  });

  it('with --json: the trace on stderr, stdout is the JSON result alone', async () => {
    const r = await svcIn(['resolve', slowDid, '--no-store', '--json', '-v', ...LOOPBACK], env());
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).did).toBe(slowDid);
    expect(r.stderr).toMatch(row('web.fetch'));
  });

  it('for a verification: the stages seen (the status list fetch among them)', async () => {
    const r = await svcIn(['verify-credential', credentialFile, '--verbose', ...LOOPBACK], env());
    expect(r.exitCode).toBe(0);
    const fetch = row('status.fetch').exec(r.stderr);
    expect(fetch).not.toBeNull();
    expect(Number(fetch![2])).toBeGreaterThanOrEqual(900);
    expect(fetch![3]).toMatch(/HTTP 200, \d+ bytes$/);
    // The issuer's resolution reports its stages too.
    expect(r.stderr).toMatch(row('document.derive'));
  });

  it('for an MCP inspection: one stage per request to the server', async () => {
    const server = await startSdk1Server({ tools: PLAIN_TOOLS, stateful: true, json: true, host, path: '/mcp-progress' });
    try {
      const r = await svcIn(['inspect-mcp', server.url, '--no-store', '--verbose', ...LOOPBACK], env());
      expect(r.exitCode).not.toBe(4);
      const stages = [...r.stderr.matchAll(/ (PASS|WARN|FAIL|SKIP) +(mcp\.[a-z_]+) /g)].map((m) => m[2]);
      // The 2025-11-25 handshake after the 2026-07-28 probe, then the listing and the DELETE.
      expect(stages).toEqual(['mcp.discover', 'mcp.initialize', 'mcp.initialized', 'mcp.tools_list', 'mcp.session_end']);
      const url = server.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      expect(row('mcp.tools_list').exec(r.stderr)![3]).toMatch(new RegExp(`^POST tools/list to ${url} — HTTP 200, \\d+ bytes$`));
    } finally {
      await server.close();
    }
  });

  it('on a problem: the trace up to the failing stage, then the problem', async () => {
    const r = await svcIn(['resolve', missingDid, '--no-store', '--verbose', ...LOOPBACK], env());
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(row('web.fetch'));
    expect(r.stderr.indexOf('Trace  ')).toBeLessThan(r.stderr.indexOf('NOT_FOUND'));
  });

  it('with --quiet: nothing', async () => {
    const r = await svcIn(['resolve', slowDid, '--no-store', '--verbose', '--quiet', ...LOOPBACK], env());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
  });
});
