/**
 * Verify from files on the command line: the CLI in the test process (svcIn), no
 * host at all — `svc resolve --document/--log/--witness/--did-configuration`,
 * `svc verify-credential --issuer-document/--status-list`, `svc inspect-a2a --from-file`, their
 * exit codes, their one-line errors naming the file, and nothing recorded in the history. (That a
 * file verifies as the served resource does is verify-from-files.test.ts.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, expectUsageError, onlyJson, parseCliError, svcIn } from '../support/cli.js';
import { fixtureSubdir } from '../support/fixtures.js';
import { statusEntry, statusListCredential, unsignedCredential } from '../support/peer-issuers.js';
import { didDocument, generateTestKey, signEddsaJcs2022 } from '../support/signing.js';

const SAMPLE = fixtureSubdir('didwebvh-py-sample/sample-diddoc');
const WITNESSED = fixtureSubdir('didwebvh-test-suite/vectors/witness-threshold/ts');
const A2A = fixtureSubdir('real-world/a2a/110kc3__110kc3.github.io/.well-known');

let dir: string;
let stateHome: string;
const file = (name: string) => path.join(dir, name);

/** The DID a log is for, from its first entry. */
function didOfLog(log: string): string {
  const first = JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!);
  return `did:webvh:${first.parameters.scid}:${String(first.state.id).split(':').slice(3).join(':')}`;
}

const ISSUER = 'did:web:issuer.example';
const LIST = 'https://issuer.example/status/1';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-from-files-'));
  stateHome = mkdtempSync(path.join(tmpdir(), 'svc-from-files-state-'));
  const key = generateTestKey('EdDSA');
  const vm = `${ISSUER}#key-1`;
  writeFileSync(file('issuer.json'), JSON.stringify(didDocument(ISSUER, key)));
  const list = await statusListCredential({ issuer: { did: ISSUER } as never, id: LIST, purpose: 'revocation', set: [3], sign: false });
  writeFileSync(file('status-1.json'), JSON.stringify(signEddsaJcs2022(list, key, vm)));
  writeFileSync(file('credential.json'), JSON.stringify(signEddsaJcs2022(unsignedCredential(ISSUER, { credentialStatus: statusEntry(LIST, 3) }), key, vm)));
  writeFileSync(file('not-json.json'), '<html>not json</html>');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(stateHome, { recursive: true, force: true });
});

const env = () => cleanEnv({ XDG_STATE_HOME: stateHome });

describe.skipIf(SAMPLE === null)('svc resolve from files', () => {
  it('a did:webvh from its log, witness file and DID configuration: exit 0, fetch-bound dimensions say why, nothing recorded', async () => {
    const log = path.join(SAMPLE!, 'did.jsonl');
    const did = didOfLog(log);
    const r = await svcIn(
      [
        'resolve',
        did,
        '--log',
        log,
        '--witness',
        path.join(SAMPLE!, 'did-witness.json'),
        '--did-configuration',
        path.join(SAMPLE!, 'did-configuration.json'),
        '--json',
      ],
      env(),
    );
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const result = onlyJson(r);
    const states = Object.fromEntries(result.dimensions.map((d: { id: string; state: string }) => [d.id, d.state]));
    expect(states).toMatchObject({
      integrity: 'SELF_CERTIFYING',
      control: 'ESTABLISHED',
      history: 'ESTABLISHED',
      origin: 'ESTABLISHED',
      transport: 'NOT_ESTABLISHED',
    });
    expect(result.dimensions.find((d: { id: string }) => d.id === 'transport').statement).toBe(
      `Not established: the DID log was supplied from the file ${log}, not fetched from domain.example; svc saw no TLS connection.`,
    );
    expect(result.evidence.source).toMatchObject({ kind: 'HTTPS', url: 'https://domain.example/.well-known/did.jsonl', httpStatus: null, peerAddress: null });
    expect(result.trace.map((s: { stage: string }) => s.stage)).toContain('supplied.read');
    expect(result.limitations.filter((l: string) => l.startsWith('The file ') && l.includes(' stood in for the '))).toHaveLength(3);
    // A resolution from files is never recorded: not even the database is created.
    expect(existsSync(path.join(stateHome, 'svc'))).toBe(false);
  });

  it('the text dossier says the source was not fetched', async () => {
    const log = path.join(SAMPLE!, 'did.jsonl');
    const r = await svcIn(['resolve', didOfLog(log), '--log', log, '--witness', path.join(SAMPLE!, 'did-witness.json'), '--no-color'], env());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Transport security  NOT_ESTABLISHED');
    expect(r.stdout).toMatch(/response +none: supplied from a file, not fetched; 2798 bytes, text\/jsonl/);
    expect(r.stdout).not.toContain('pinned address');
  });

  it('bad input: one line naming the file — exit 2 for the command line, 4 for content a fetched file would fail on too', async () => {
    expectUsageError(
      await svcIn(['resolve', 'did:web:issuer.example', '--document', file('missing.json')], env()),
      /^--document .*missing\.json: no such file$/,
      'resolve',
    );
    expectUsageError(
      await svcIn(['resolve', `did:webvh:Qm${'a'.repeat(44)}:example.com`, '--document', file('issuer.json')], env()),
      /^--document is the did\.json of a did:web; a did:webvh is verified from its log \(--log\)$/,
    );
    expectUsageError(
      await svcIn(['resolve', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', '--document', file('issuer.json')], env()),
      /apply to did:web and did:webvh/,
    );
    expectUsageError(
      await svcIn(['resolve', 'did:web:issuer.example', '--did-configuration', file('issuer.json')], env()),
      /the DID document must be supplied too \(--document\), or allow the network \(--allow-network\)$/,
    );
    expectUsageError(await svcIn(['resolve', 'did:web:issuer.example', '--allow-network'], env()), /^--allow-network applies only with a file option/);

    const notJson = await svcIn(['resolve', 'did:web:issuer.example', '--document', file('not-json.json')], env());
    expect(notJson.exitCode).toBe(4);
    expect(parseCliError(notJson.stderr)).toMatchObject({
      code: 'INVALID_DID_DOCUMENT',
      detail: `The document at ${file('not-json.json')} is not valid JSON (unexpected character at offset 0).`,
    });
    const other = await svcIn(['resolve', 'did:web:other.example', '--document', file('issuer.json')], env());
    expect(other.exitCode).toBe(4);
    expect(parseCliError(other.stderr)).toMatchObject({
      code: 'INVALID_DID_DOCUMENT',
      detail: `${file('issuer.json')} is the document of did:web:issuer.example, not of did:web:other.example.`,
    });
  });

  it.skipIf(WITNESSED === null)('a witnessed log without its witness file: EGRESS_BLOCKED naming it, exit 4 (never fetched)', async () => {
    const log = path.join(WITNESSED!, 'did.jsonl');
    const r = await svcIn(['resolve', didOfLog(log), '--log', log], env());
    expect(r.exitCode).toBe(4);
    const error = parseCliError(r.stderr);
    expect(error.code).toBe('EGRESS_BLOCKED');
    expect(error.detail).toMatch(
      /^Nothing was supplied for the witness proofs at https:\/\/\S+\/did-witness\.json, and svc fetches nothing when it verifies from files unless the network is allowed \(--allow-network\)\.$/,
    );
  });
});

describe('svc verify-credential from files', () => {
  it('--issuer-document and --status-list: REVOKED (exit 1) without any fetch; the limitations name the files', async () => {
    const r = await svcIn(
      ['verify-credential', file('credential.json'), '--issuer-document', ISSUER, file('issuer.json'), '--status-list', LIST, file('status-1.json'), '--json'],
      env(),
    );
    expect(r.exitCode).toBe(1);
    const result = onlyJson(r);
    expect(result.status).toBe('REVOKED');
    expect(result.checks.find((c: { id: string }) => c.id === 'proof').status).toBe('PASS');
    expect(result.limitations).toContain(
      `The file ${file('status-1.json')} stood in for the status list credential at ${LIST}: it was not fetched, so svc did not see that the host serves it, nor over which connection.`,
    );
  });

  it('without the status list: INDETERMINATE (exit 3); a pair missing its file: usage error', async () => {
    const r = await svcIn(['verify-credential', file('credential.json'), '--issuer-document', ISSUER, file('issuer.json'), '--json'], env());
    expect(r.exitCode).toBe(3);
    expect(onlyJson(r).status).toBe('INDETERMINATE');
    expectUsageError(
      await svcIn(['verify-credential', file('credential.json'), '--issuer-document', ISSUER], env()),
      /^--issuer-document takes two values, <did> and <file>, each time/,
    );
    expectUsageError(
      await svcIn(['verify-credential', file('credential.json'), '--issuer-document', 'issuer.json', ISSUER], env()),
      /^--issuer-document takes a DID, then a file/,
    );
  });
});

describe.skipIf(A2A === null)('svc inspect-a2a from a file', () => {
  it('--from-file without a URL: the card taken for its first interface origin, the fetch check SKIP', async () => {
    const r = await svcIn(['inspect-a2a', '--from-file', path.join(A2A!, 'agent-card.json'), '--json'], env());
    expect(r.stderr).not.toContain(' at ');
    const result = onlyJson(r);
    expect(result.httpStatus).toBe(0);
    expect(result.tls).toBeNull();
    expect(result.checks.find((c: { id: string }) => c.id === 'fetch')).toMatchObject({ status: 'SKIP' });
    expect(result.limitations.some((l: string) => l.startsWith('No agent URL was given: the card was taken for the card of https://'))).toBe(true);
    expect([0, 1, 3]).toContain(r.exitCode);
  });

  it('no URL and no file: usage error', async () => {
    expectUsageError(await svcIn(['inspect-a2a'], env()), /^missing required argument 'url' \(or --from-file <card>\)$/, 'inspect-a2a');
  });
});
