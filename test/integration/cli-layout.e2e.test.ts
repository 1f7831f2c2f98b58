/**
 * One layout for every report: the built binary under a real pseudo-terminal (util-linux `script`;
 * the --json and piped runs in the test process, svcIn) 60 and 100 columns wide prints each report
 * — resolve (did:key, did:jwk, did:web; the ink dossier), verify-credential, verify-jws,
 * evaluate-policy, verify-delegation, authorize, inspect-mcp, inspect-a2a, history and diff — with
 * no line wider than the terminal unless that line is one unbroken token, and every DID of the
 * --json output whole in the text. Inputs are real: credentials and JWS signed with node:crypto,
 * receipts signed with jose, a did:web host, an MCP SDK server and a signed A2A card on loopback
 * HTTPS hosts of one test CA.
 *
 * The ink dossier and the text dossier draw the same lines at the same width (only the verdict is
 * boxed in ink): ink's own wrapping used to indent continuation lines one column too far.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aKey, agentCard, publishJwks, serveCard, signCard } from '../support/a2a-agent.js';
import { assertBuilt, cleanEnv, repoRoot, svcIn, svcBin } from '../support/cli.js';
import { ED25519_DID } from '../support/dids.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { POISONED_TOOLS, startSdk2Server, type McpTestServer } from '../support/mcp-servers.js';
import { createTestCa } from '../support/pki.js';
import { didKeyPrincipal, mintReceipt } from '../support/receipts.js';
import { didDocument, generateTestKey, signEddsaJcs2022, signJws } from '../support/signing.js';

const WIDTHS = [60, 100] as const;
const LOOPBACK = ['--egress-allow', '127.0.0.0/8'];

let dir: string;
let host: DidWebHost;
let mcp: McpTestServer;
let env: Record<string, string | undefined>;
let db: string;
/** Each report: its name and the arguments that print it (--json is added for the JSON). */
const reports: Array<{ name: string; args: string[] }> = [];

/** A did:jwk of a public JWK: long enough that it fits no line at 60 or 100 columns. */
const didJwk = (jwk: Record<string, unknown>): string => `did:jwk:${Buffer.from(JSON.stringify(jwk)).toString('base64url')}`;

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-layout-'));
  const ca = createTestCa();
  host = await startDidWebHost({ ca });
  env = cleanEnv({ NODE_EXTRA_CA_CERTS: write('ca.pem', ca.certPem), XDG_STATE_HOME: path.join(dir, 'state') });
  db = path.join(dir, 'svc.db');

  // Credentials and a JWS from a did:key issuer, and a credential from a did:jwk issuer.
  const issuer = generateTestKey('EdDSA');
  const issuerDid = `did:key:${issuer.multikey!}`;
  const jwkIssuer = generateTestKey('EdDSA');
  const jwkDid = didJwk(jwkIssuer.publicJwk);
  const credential = (iss: string) => ({
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    type: ['VerifiableCredential', 'ExampleCredential'],
    issuer: iss,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { id: ED25519_DID, name: 'Alice' },
  });
  const keyCredential = write('key.json', JSON.stringify(signEddsaJcs2022(credential(issuerDid), issuer, `${issuerDid}#${issuer.multikey!}`)));
  const jwkCredential = write('jwk.json', JSON.stringify(signEddsaJcs2022(credential(jwkDid), jwkIssuer, `${jwkDid}#0`)));
  const jws = signJws({ alg: 'EdDSA', kid: `${issuerDid}#${issuer.multikey!}` }, { hello: 'world' }, issuer);
  const policy = write(
    'policy.json',
    JSON.stringify({ name: 'keys', rules: { didResolution: 'required', allowedMethods: ['key'], allowedCurves: ['Ed25519'] } }),
  );

  // A delegation chain alice → bob → agent.
  const [alice, bob, agent] = [didKeyPrincipal(), didKeyPrincipal(), didKeyPrincipal()];
  const root = await mintReceipt(alice, bob, { cap: ['payments:*', 'read'] });
  const leaf = await mintReceipt(bob, agent, { cap: ['payments:charge'], parent: root });
  const chain = write('chain.txt', `${root}\n${leaf}\n`);

  // A did:web whose keys change between two resolutions: a history and a diff.
  const webDid = host.did('layout', 'people', 'alice');
  host.publish(webDid, didDocument(webDid, generateTestKey('EdDSA'), [{ fragment: 'key-3', key: generateTestKey('EdDSA') }]));
  expect((await svcIn(['resolve', webDid, '--db', db, '--quiet', ...LOOPBACK], env)).exitCode).toBe(0);
  host.publish(webDid, didDocument(webDid, generateTestKey('EdDSA'), [{ fragment: 'key-2', key: generateTestKey('EdDSA') }]));
  expect((await svcIn(['resolve', webDid, '--db', db, '--quiet', ...LOOPBACK], env)).exitCode).toBe(0);

  // An MCP server whose tools carry risk signals, and a signed A2A card.
  mcp = await startSdk2Server({ host, path: '/mcp', tools: POISONED_TOOLS });
  const cardKey = await a2aKey('ES256');
  const jku = publishJwks(host.server, [{ key: cardKey, kid: 'card-key-1' }]);
  serveCard(host.server, await signCard(agentCard(host.server.origin), cardKey, { kid: 'card-key-1', jku }));

  reports.push(
    { name: 'resolve did:key', args: ['resolve', ED25519_DID, '--no-store'] },
    { name: 'resolve did:jwk', args: ['resolve', didJwk(generateTestKey('ES256').publicJwk), '--no-store'] },
    { name: 'resolve did:web', args: ['resolve', webDid, '--no-store', ...LOOPBACK] },
    { name: 'verify-credential (did:key)', args: ['verify-credential', keyCredential] },
    { name: 'verify-credential (did:jwk)', args: ['verify-credential', jwkCredential] },
    { name: 'verify-jws', args: ['verify-jws', jws] },
    { name: 'evaluate-policy', args: ['evaluate-policy', issuerDid, '--policy', policy] },
    { name: 'verify-delegation', args: ['verify-delegation', chain] },
    { name: 'authorize', args: ['authorize', '--chain', chain, '--tool', 'payments:charge'] },
    { name: 'inspect-mcp', args: ['inspect-mcp', mcp.url, '--no-store', ...LOOPBACK] },
    { name: 'inspect-a2a', args: ['inspect-a2a', host.server.origin, ...LOOPBACK] },
    { name: 'history', args: ['history', webDid, '--db', db] },
    { name: 'diff', args: ['diff', webDid, '--db', db] },
  );
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What a terminal shows: no escape sequences (colours, ink's cursor and sync codes), no carriage returns. */
function shown(output: string): string {
  return output
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\u001b[()][0-9A-Za-z]|\u001b[=>78]/g, '')
    .replace(/\r/g, '');
}

/**
 * The report as a terminal `cols` wide shows it: stdout is the pseudo-terminal; stderr goes to
 * /dev/null, so only the report is measured (progress and diagnostics are not reports).
 */
async function inTerminal(args: string[], cols: number): Promise<{ exitCode: number; text: string }> {
  const quoted = [process.execPath, svcBin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = await execa('script', ['-qec', `stty rows 40 cols ${cols}; ${quoted} 2>/dev/null`, '/dev/null'], {
    reject: false,
    env,
    extendEnv: true,
    cwd: repoRoot,
    timeout: 20_000,
  });
  return { exitCode: r.exitCode ?? -1, text: shown(String(r.stdout)) };
}

/** Terminal columns of a line: one per code point (the marks used are one column wide). */
const columns = (line: string): number => [...line].length;

/**
 * DIDs named in a text: `did:method:` and an identifier (a fragment after it is not part of the
 * DID; nor is a full stop that ends the sentence quoting it).
 */
function didsIn(text: string): string[] {
  return [...new Set(text.match(/did:[a-z0-9]+(?::[A-Za-z0-9._%-]*[A-Za-z0-9_%-])+/g) ?? [])];
}

describe('every report fits the terminal and keeps DIDs whole', () => {
  for (const width of WIDTHS) {
    it(`at ${width} columns`, async () => {
      expect(reports.length).toBe(13);
      for (const report of reports) {
        const json = await svcIn([...report.args, '--json'], env);
        expect(json.stdout.startsWith('{'), `${report.name} --json: ${json.stderr}`).toBe(true);
        const dids = didsIn(json.stdout);
        const { text } = await inTerminal(report.args, width);
        const lines = text.split('\n');
        expect(lines.filter((l) => l.trim() !== '').length, `${report.name} printed nothing`).toBeGreaterThan(3);
        for (const line of lines) {
          if (columns(line) > width) expect(line.trim(), `${report.name}: a line over ${width} columns that is not one token:\n${line}`).not.toMatch(/\s/);
        }
        // Every DID of the result is in the report, whole: on one line, never cut with an ellipsis.
        for (const did of dids)
          expect(
            lines.some((l) => l.includes(did)),
            `${report.name}: ${did} is not whole in\n${text}`,
          ).toBe(true);
      }
    });
  }

  it('the reports wrap to the terminal: narrower terminals, more lines', async () => {
    const credential = reports.find((r) => r.name === 'verify-credential (did:key)')!;
    const [narrow, wide] = await Promise.all([inTerminal(credential.args, 60), inTerminal(credential.args, 100)]);
    expect(narrow.text.split('\n').length).toBeGreaterThan(wide.text.split('\n').length);
    expect(Math.max(...wide.text.split('\n').map(columns))).toBeGreaterThan(60);
  });
});

/** The dossier's blocks (separated by blank lines), each as its lines without trailing blanks. */
function blocks(text: string): string[][] {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trim()
    .split(/\n{2,}/)
    .map((b) => b.split('\n'));
}

describe('the ink dossier and the text dossier wrap alike', () => {
  for (const name of ['resolve did:key', 'resolve did:jwk', 'resolve did:web']) {
    it(`${name} at 60 columns: the same lines but for the boxed verdict, continuation lines at their indent`, async () => {
      const report = reports.find((r) => r.name === name)!;
      const ink = await inTerminal([...report.args, '--verbose'], 60);
      // The same resolution piped, laid out for 60 columns.
      const piped = await svcIn([...report.args, '--verbose'], { ...env, COLUMNS: '60' });
      // Times and durations differ from run to run.
      const steady = (text: string) => blocks(text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME').replace(/ *\d+(\.\d)? ms/g, ' N ms'));
      const [inkBlocks, textBlocks] = [steady(ink.text), steady(piped.stdout)];
      expect(inkBlocks[0]).toEqual(textBlocks[0]);
      // ink draws the verdict in a box: the outcome and the headline, in other lines.
      expect(inkBlocks[1]!.join('\n')).toMatch(/^╭─+╮\n│ RESOLVED/);
      expect(textBlocks[1]![0]).toMatch(/^Verdict {2}RESOLVED/);
      // The trace's hanging indent follows its widest duration, which differs between the two
      // runs (3 ms here, 12 ms there): its stages are compared unwrapped, and each rendering must
      // hang every continuation line at one column. Whether the in-process run finds an earlier
      // test's connection to the host still kept differs too (its idle time is wall-clock time).
      const isTrace = (b: string[]) => b[0] === 'Trace';
      const unwrapped = (b: string[]) =>
        b
          .join('\n')
          .replace(/\n {20,}/g, ' ')
          .replace(/reused the (TLSv[\d.]+) connection to/g, '$1 with')
          .split('\n');
      expect(inkBlocks.slice(2).map((b) => (isTrace(b) ? unwrapped(b) : b))).toEqual(textBlocks.slice(2).map((b) => (isTrace(b) ? unwrapped(b) : b)));
      for (const blocksOf of [inkBlocks, textBlocks]) {
        const trace = blocksOf.find(isTrace);
        const indents = new Set((trace ?? []).filter((l) => /^ {20,}\S/.test(l)).map((l) => /^ */.exec(l)![0].length));
        expect(indents.size, 'trace continuation lines at more than one column').toBeLessThanOrEqual(1);
      }
      // Under a dimension, a statement's wrapped lines start at the same column as its first.
      const confirmed = inkBlocks.find((b) => b[0] === 'Confirmed')!;
      for (const line of confirmed.slice(1)) expect(line, 'a misindented continuation line').toMatch(/^( {2}✔ | {6}\S)/);
    });
  }

  it('the ink dossier keeps a did:jwk whole on its own line, however narrow the terminal', async () => {
    const report = reports.find((r) => r.name === 'resolve did:jwk')!;
    const did = report.args[1]!;
    const { text } = await inTerminal(report.args, 60);
    expect(text.split('\n')[0]).toBe(did);
  });
});
