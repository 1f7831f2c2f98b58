/**
 * `svc verify-credential`, `svc verify-jws` and `svc evaluate-policy` as CI gates run them: the CLI
 * in the test process (svcIn; the standard-input runs through the built binary), credentials and
 * JWS made here with test/support/signing.ts (node:crypto), did:key issuers (resolved offline) and
 * did:web issuers on a real loopback HTTPS host (the test CA via NODE_EXTRA_CA_CERTS, loopback via
 * --egress-allow) or on a port where nothing listens. Exit codes are the contract: 0 VALID/PASS; 1
 * a check failed; 3 INDETERMINATE; 4 no answer (a problem); 2 usage or an unreadable file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/https-server.js';
import { ANSI_COLOR, assertBuilt, cleanEnv, parseCliError, repoRoot, svcIn, svcBin, type Run, expectUsageError, onlyJson } from '../support/cli.js';
import { b64url } from '../support/codec.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import { issueDi, peerEd25519Issuer, statusEntry, statusListCredential, unsignedCredential } from '../support/peer-issuers.js';
import { generateTestKey, signEddsaJcs2022, signJws } from '../support/signing.js';

const VC2 = 'https://www.w3.org/ns/credentials/v2';
const SUBJECT = 'did:example:alice';

const issuerKey = generateTestKey('EdDSA');
const issuerDid = `did:key:${issuerKey.multikey}`;
const issuerVm = `${issuerDid}#${issuerKey.multikey}`;

function unsigned(issuer: string = issuerDid): Record<string, unknown> {
  return {
    '@context': [VC2],
    type: ['VerifiableCredential', 'ExampleCredential'],
    issuer,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { id: SUBJECT, name: 'Alice' },
  };
}

const diCredential = signEddsaJcs2022(unsigned(), issuerKey, issuerVm);
const jwsOk = signJws({ alg: 'EdDSA', kid: issuerVm }, { hello: 'world' }, issuerKey);

let dir: string;
let host: DidWebHost;
let caFile: string;
/** Files written once for all tests. */
const files: Record<string, string> = {};

function write(name: string, content: string | Record<string, unknown>): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  files[name] = file;
  return file;
}

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-verify-'));
  host = await startDidWebHost();
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, host.ca.certPem);

  write('valid.json', diCredential);
  write('tampered.json', { ...diCredential, credentialSubject: { id: SUBJECT, name: 'Mallory' } });
  // A W3C-style issuer that is not a DID, signed by a did:key: who signed cannot be bound to it.
  write('non-did-issuer.json', signEddsaJcs2022(unsigned('https://issuer.example'), issuerKey, issuerVm));
  write('valid.jwt', `${signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid: issuerVm }, { ...unsigned(), aud: 'did:web:verifier.example' }, issuerKey)}\n`);
  const unreachable = `did:web:localhost%3A${await closedPort()}`;
  write('unreachable.json', signEddsaJcs2022(unsigned(unreachable), generateTestKey('EdDSA'), `${unreachable}#key-1`));
  const webDid = host.did('issuers', 'cli');
  host.publish(webDid);
  write('web-issuer.json', signEddsaJcs2022(unsigned(webDid), host.key, `${webDid}#key-1`));
  write('big.json', `{"padding": "${'x'.repeat(1024 * 1024 + 16)}"}`);
  mkdirSync(path.join(dir, 'a-directory'));
  write('expired.json', signEddsaJcs2022({ ...unsigned(), validUntil: '2026-02-01T00:00:00Z' }, issuerKey, issuerVm));
  write('no-proof.json', unsigned());
  write('rdfc.json', {
    ...unsigned(),
    proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', verificationMethod: issuerVm, proofPurpose: 'assertionMethod', proofValue: 'z3' },
  });
  write('not-json.txt', 'hello, not a credential\n');

  const statusIssuer = await peerEd25519Issuer(51);
  const listUrl = `https://localhost:${host.server.port}/status/cli`;
  host.server.route('/status/cli', json(await statusListCredential({ issuer: statusIssuer, id: listUrl, purpose: 'revocation', set: [5] })));
  write('revoked.json', await issueDi(unsignedCredential(statusIssuer.did, { credentialStatus: statusEntry(listUrl, 5) }), statusIssuer));
  write('active.json', await issueDi(unsignedCredential(statusIssuer.did, { credentialStatus: statusEntry(listUrl, 6) }), statusIssuer));

  write('policy-pass.json', { name: 'keys', rules: { didResolution: 'required', allowedMethods: ['key'], allowedCurves: ['Ed25519'] } });
  write('policy-fail.json', { rules: { allowedMethods: ['web'] } });
  write('policy-empty.json', { rules: {} });
  write('policy-unknown.json', { rules: { didResolutoin: 'required' } });
  write('policy-credential.json', { rules: { credentialStatus: 'active', credentialIssuerMustBeSubject: true } });
  write('policy-duplicate.json', '{"rules": {"allowedMethods": ["web"], "allowedMethods": ["key"]}}');
});

afterAll(async () => {
  await host?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => cleanEnv({ NODE_EXTRA_CA_CERTS: caFile, ...extra });
const run = (args: string[], extra: Record<string, string> = {}) => svcIn(args, env(extra));

/** The CLI with `input` on standard input. */
async function runWithStdin(args: string[], input: string): Promise<Run> {
  const r = await execa(process.execPath, [svcBin, ...args], { reject: false, env: env(), extendEnv: true, cwd: repoRoot, timeout: 20_000, input });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/**
 * A usage error: exit 2, nothing on stdout, one error block on stderr (USAGE_ERROR, the reason
 * matching `detail`, no failing stage, the command's --help as the hint), no stack trace.
 */

describe('svc verify-credential', () => {
  it('a valid credential file → exit 0, a text report naming VALID and the checks', async () => {
    const r = await run(['verify-credential', files['valid.json']!]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^VALID {2}The credential is valid/);
    expect(r.stdout).toContain(issuerDid);
    expect(r.stdout).toMatch(/✓ PASS +proof/);
    expect(r.stdout).not.toMatch(ANSI_COLOR);
  });

  it('--json prints exactly one JSON document, the documented result, status VALID', async () => {
    const r = await run(['verify-credential', files['valid.json']!, '--json']);
    expect(r.exitCode).toBe(0);
    const result = onlyJson(r);
    expect(result).toMatchObject({ status: 'VALID', valid: true, format: 'DATA_INTEGRITY', issuer: issuerDid, subject: SUBJECT });
    expect(Object.keys(result)).toHaveLength(17);
  });

  it('--quiet prints nothing and relies on the exit code; --json --quiet still prints the JSON', async () => {
    const quiet = await run(['verify-credential', files['tampered.json']!, '--quiet']);
    expect(quiet).toEqual({ exitCode: 1, stdout: '', stderr: '' });
    const both = await run(['verify-credential', files['valid.json']!, '--json', '--quiet']);
    expect(both.exitCode).toBe(0);
    expect(onlyJson(both).status).toBe('VALID');
  });

  it('FORCE_COLOR colours the report; --no-color does not', async () => {
    const coloured = await run(['verify-credential', files['valid.json']!], { FORCE_COLOR: '1' });
    expect(coloured.stdout).toMatch(ANSI_COLOR);
    const plain = await run(['verify-credential', files['valid.json']!, '--no-color'], { FORCE_COLOR: '1' });
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).not.toMatch(ANSI_COLOR);
  });

  it('- reads the credential from standard input (JSON and a compact JWT)', async () => {
    const json = await runWithStdin(['verify-credential', '-', '--json'], JSON.stringify(diCredential));
    expect(json.exitCode).toBe(0);
    expect(onlyJson(json).status).toBe('VALID');
    const jwt = await runWithStdin(['verify-credential', '-', '--json'], `${signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid: issuerVm }, unsigned(), issuerKey)}\n`);
    expect(jwt.exitCode).toBe(0);
    expect(onlyJson(jwt)).toMatchObject({ status: 'VALID', format: 'VC_JOSE_COSE' });
  });

  it('a vc+jwt file with --audience: matching → 0; another audience → 1 (jwt.aud FAIL)', async () => {
    const ok = await run(['verify-credential', files['valid.jwt']!, '--audience', 'did:web:verifier.example', '--json']);
    expect(ok.exitCode).toBe(0);
    expect(onlyJson(ok).checks.find((c: any) => c.id === 'jwt.aud').status).toBe('PASS');
    const other = await run(['verify-credential', files['valid.jwt']!, '--audience', 'did:web:other.example', '--json']);
    expect(other.exitCode).toBe(1);
    const result = onlyJson(other);
    expect(result.status).toBe('INVALID');
    expect(result.checks.find((c: any) => c.id === 'jwt.aud').status).toBe('FAIL');
  });

  it('a tampered credential → exit 1 INVALID', async () => {
    const r = await run(['verify-credential', files['tampered.json']!]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^INVALID {2}/);
  });

  it('a non-DID issuer signed by a did:key → exit 3 INDETERMINATE', async () => {
    const r = await run(['verify-credential', files['non-did-issuer.json']!, '--json']);
    expect(r.exitCode).toBe(3);
    const result = onlyJson(r);
    expect(result.status).toBe('INDETERMINATE');
    expect(result.checks.find((c: any) => c.id === 'issuer').status).toBe('INDETERMINATE');
    expect(result.checks.find((c: any) => c.id === 'proof').status).toBe('PASS');
  });

  it('a did:web issuer on the loopback host with --egress-allow → exit 0', async () => {
    const r = await run(['verify-credential', files['web-issuer.json']!, '--egress-allow', '127.0.0.0/8', '--json']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(onlyJson(r).issuerResolution).toMatchObject({ outcome: 'RESOLVED', problem: null });
  });

  it('a did:web issuer on loopback without an egress allowance → exit 3, the issuer resolution EGRESS_BLOCKED', async () => {
    const r = await run(['verify-credential', files['web-issuer.json']!, '--json']);
    expect(r.exitCode).toBe(3);
    const result = onlyJson(r);
    expect(result.status).toBe('INDETERMINATE');
    expect(result.issuerResolution).toMatchObject({ outcome: null, problem: 'EGRESS_BLOCKED' });
  });

  it('an unreachable did:web issuer (closed port) → exit 3, a result and not a problem', async () => {
    const r = await run(['verify-credential', files['unreachable.json']!, '--egress-allow', '127.0.0.0/8', '--json']);
    expect(r.exitCode).toBe(3);
    const result = onlyJson(r);
    expect(result.status).toBe('INDETERMINATE');
    expect(result.issuerResolution).toMatchObject({ outcome: null, problem: 'UPSTREAM_UNAVAILABLE' });
  });

  it('expired → exit 1 EXPIRED; no proof → exit 1 MALFORMED; eddsa-rdfc-2022 → exit 1 UNSUPPORTED; not JSON → exit 1 MALFORMED', async () => {
    for (const [file, status] of [
      ['expired.json', 'EXPIRED'],
      ['no-proof.json', 'MALFORMED'],
      ['rdfc.json', 'UNSUPPORTED'],
      ['not-json.txt', 'MALFORMED'],
    ] as const) {
      const r = await run(['verify-credential', files[file]!, '--json']);
      expect({ file, exitCode: r.exitCode, status: onlyJson(r).status }).toEqual({ file, exitCode: 1, status });
    }
  });

  it('a status list on the loopback host: a revoked credential → exit 1 REVOKED; an active one → exit 0', async () => {
    const revoked = await run(['verify-credential', files['revoked.json']!, '--egress-allow', '127.0.0.0/8']);
    expect(revoked.exitCode).toBe(1);
    expect(revoked.stdout).toMatch(/^REVOKED {2}The credential is revoked/);
    expect(revoked.stdout).toContain('Status entries');
    const active = await run(['verify-credential', files['active.json']!, '--egress-allow', '127.0.0.0/8', '--json']);
    expect(active.exitCode).toBe(0);
    expect(onlyJson(active).statusList[0]).toMatchObject({ result: 'ACTIVE', index: 6 });
  });

  it('a status list the CLI may not fetch (no egress allowance) → exit 3 INDETERMINATE, fail-closed', async () => {
    const r = await run(['verify-credential', files['active.json']!, '--json']);
    expect(r.exitCode).toBe(3);
    const result = onlyJson(r);
    expect(result.status).toBe('INDETERMINATE');
    expect(result.statusList[0].result).toBe('INDETERMINATE');
  });

  it('standard input over 1 MiB → exit 2', async () => {
    const r = await runWithStdin(['verify-credential', '-'], `{"padding": "${'x'.repeat(1024 * 1024 + 16)}"}`);
    expectUsageError(r, /larger than 1048576 bytes/, 'verify-credential');
  });

  it('a missing file → exit 2, one line on stderr, no stack trace', async () => {
    expectUsageError(
      await run(['verify-credential', path.join(dir, 'nope.json')]),
      /^cannot read the credential .*nope\.json: no such file$/,
      'verify-credential',
    );
  });

  it('a directory → exit 2', async () => {
    expectUsageError(await run(['verify-credential', path.join(dir, 'a-directory')]), /is not a file/, 'verify-credential');
  });

  it('a file over 1 MiB → exit 2', async () => {
    expectUsageError(await run(['verify-credential', files['big.json']!]), /larger than 1048576 bytes/, 'verify-credential');
  });

  it('--audience "" → exit 2', async () => {
    expectUsageError(await run(['verify-credential', files['valid.json']!, '--audience', '']), /--audience must not be empty/, 'verify-credential');
  });

  it('no file argument → exit 2', async () => {
    const r = await run(['verify-credential']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('svc verify-jws', () => {
  it('a valid JWS → exit 0, the signer and relationship in the report', async () => {
    const r = await run(['verify-jws', jwsOk]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^VALID {2}The JWS is valid/);
    expect(r.stdout).toMatch(new RegExp(`signer +${issuerDid}`));
    expect(r.stdout).toMatch(/relationship +assertionMethod/);
  });

  it('--json: exactly the documented JwsVerification', async () => {
    const r = await run(['verify-jws', jwsOk, '--json', '--relationship', 'authentication']);
    expect(r.exitCode).toBe(0);
    expect(onlyJson(r)).toMatchObject({
      status: 'VALID',
      valid: true,
      alg: 'EdDSA',
      kid: issuerVm,
      payload: { hello: 'world' },
      signer: issuerDid,
      relationship: 'authentication',
    });
  });

  it('a bad signature → exit 1', async () => {
    const forged = signJws({ alg: 'EdDSA', kid: issuerVm }, { hello: 'world' }, generateTestKey('EdDSA'));
    const r = await run(['verify-jws', forged, '--json']);
    expect(r.exitCode).toBe(1);
    const result = onlyJson(r);
    expect(result.status).toBe('INVALID');
    expect(result.signer).toBeUndefined();
  });

  it('--relationship keyAgreement → exit 1 (the key is not authorised for it)', async () => {
    const r = await run(['verify-jws', jwsOk, '--relationship', 'keyAgreement', '--json']);
    expect(r.exitCode).toBe(1);
    expect(onlyJson(r).status).toBe('INVALID');
  });

  it('a kid that is not a DID URL → exit 3', async () => {
    const r = await run(['verify-jws', signJws({ alg: 'EdDSA', kid: 'key-1' }, { n: 1 }, issuerKey), '--json']);
    expect(r.exitCode).toBe(3);
    expect(onlyJson(r).status).toBe('INDETERMINATE');
  });

  it('alg none → exit 1 UNSUPPORTED; a duplicate header member → exit 1 MALFORMED', async () => {
    const none = await run(['verify-jws', `${b64url(JSON.stringify({ alg: 'none', kid: issuerVm }))}.${b64url('{}')}.`, '--json']);
    expect(none.exitCode).toBe(1);
    expect(onlyJson(none).status).toBe('UNSUPPORTED');
    const header = `{"alg":"EdDSA","alg":"EdDSA","kid":${JSON.stringify(issuerVm)}}`;
    const dup = await run(['verify-jws', `${b64url(header)}.${b64url('{}')}.${b64url(new Uint8Array(64))}`, '--json']);
    expect(dup.exitCode).toBe(1);
    expect(onlyJson(dup).status).toBe('MALFORMED');
  });

  it('--relationship bogus → exit 2', async () => {
    expectUsageError(await run(['verify-jws', jwsOk, '--relationship', 'bogus']), /--relationship must be one of/, 'verify-jws');
  });

  it('- reads the JWS from standard input (trailing newline trimmed)', async () => {
    const r = await runWithStdin(['verify-jws', '-', '--json'], `${jwsOk}\n`);
    expect(r.exitCode).toBe(0);
    expect(onlyJson(r)).toMatchObject({ status: 'VALID', signer: issuerDid });
  });
});

describe('svc evaluate-policy', () => {
  it('PASS → exit 0 with the rules in the report', async () => {
    const r = await run(['evaluate-policy', issuerDid, '--policy', files['policy-pass.json']!]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^PASS {2}The policy passes: 3 of 3 rules pass\./);
    expect(r.stdout).toContain('(keys)');
    expect(r.stdout).toMatch(/✓ PASS +allowedCurves/);
  });

  it('--json prints the answer of POST /v1/policies/evaluate: {evaluation, credential, resolution}', async () => {
    const r = await run(['evaluate-policy', issuerDid, '--policy', files['policy-pass.json']!, '--json']);
    expect(r.exitCode).toBe(0);
    const answer = onlyJson(r);
    expect(Object.keys(answer).sort()).toEqual(['credential', 'evaluation', 'resolution']);
    expect(answer.evaluation).toMatchObject({ did: issuerDid, policyName: 'keys', status: 'PASS', rulesEvaluated: 3, rulesPassed: 3 });
    expect(answer.credential).toBeNull();
    expect(Object.keys(answer.resolution).sort()).toEqual(['dimensions', 'verdict']);
  });

  it('a percent-encoded DID is decoded once', async () => {
    const r = await run(['evaluate-policy', encodeURIComponent(issuerDid), '--policy', files['policy-pass.json']!, '--json']);
    expect(r.exitCode).toBe(0);
    expect(onlyJson(r).evaluation.did).toBe(issuerDid);
  });

  it('FAIL (allowedMethods ["web"] for a did:key) → exit 1', async () => {
    const r = await run(['evaluate-policy', issuerDid, '--policy', files['policy-fail.json']!, '--json']);
    expect(r.exitCode).toBe(1);
    expect(onlyJson(r).evaluation.status).toBe('FAIL');
  });

  it('INDETERMINATE (empty rules) → exit 3', async () => {
    const r = await run(['evaluate-policy', issuerDid, '--policy', files['policy-empty.json']!, '--json']);
    expect(r.exitCode).toBe(3);
    expect(onlyJson(r).evaluation).toMatchObject({ status: 'INDETERMINATE', rulesEvaluated: 0 });
  });

  it('an invalid policy file (unknown rule) → exit 2 (an option value) with the INVALID_OPTIONS problem on --json', async () => {
    const r = await run(['evaluate-policy', issuerDid, '--policy', files['policy-unknown.json']!, '--json']);
    expect(r.exitCode).toBe(2);
    const problem = onlyJson(r);
    expect(problem).toMatchObject({ code: 'INVALID_OPTIONS', status: 400 });
    expect(problem.detail).toContain('"didResolutoin"');
    // Without --json: one problem block on stderr, nothing on stdout.
    const text = await run(['evaluate-policy', issuerDid, '--policy', files['policy-unknown.json']!]);
    expect(text.exitCode).toBe(2);
    expect(text.stdout).toBe('');
    const error = parseCliError(text.stderr);
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS', detail: problem.detail, hint: "see 'svc evaluate-policy --help'" });
  });

  it('a policy file with a duplicate member → exit 2 INVALID_OPTIONS', async () => {
    const r = await run(['evaluate-policy', issuerDid, '--policy', files['policy-duplicate.json']!, '--json']);
    expect(r.exitCode).toBe(2);
    expect(onlyJson(r).code).toBe('INVALID_OPTIONS');
  });

  it('an invalid DID → exit 4 INVALID_DID', async () => {
    const r = await run(['evaluate-policy', 'not-a-did', '--policy', files['policy-pass.json']!, '--json']);
    expect(r.exitCode).toBe(4);
    expect(onlyJson(r).code).toBe('INVALID_DID');
  });

  it('missing --policy → exit 2', async () => {
    const r = await run(['evaluate-policy', issuerDid]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--policy');
  });

  it('a missing policy file → exit 2', async () => {
    expectUsageError(
      await run(['evaluate-policy', issuerDid, '--policy', path.join(dir, 'nope.json')]),
      /cannot read the policy .*no such file/,
      'evaluate-policy',
    );
  });

  it('--policy - and --credential - together → exit 2', async () => {
    expectUsageError(await run(['evaluate-policy', issuerDid, '--policy', '-', '--credential', '-']), /cannot both read standard input/, 'evaluate-policy');
  });

  it('--policy - reads the policy from standard input', async () => {
    const r = await runWithStdin(['evaluate-policy', issuerDid, '--policy', '-', '--json'], JSON.stringify({ rules: { allowedMethods: ['key'] } }));
    expect(r.exitCode).toBe(0);
    expect(onlyJson(r).evaluation.status).toBe('PASS');
  });

  it('--credential with a valid credential and credentialStatus active → exit 0, the credential in the answer', async () => {
    const r = await run(['evaluate-policy', issuerDid, '--policy', files['policy-credential.json']!, '--credential', files['valid.json']!, '--json']);
    expect(r.exitCode).toBe(0);
    const answer = onlyJson(r);
    expect(answer.evaluation.status).toBe('PASS');
    expect(answer.credential).toMatchObject({ status: 'VALID', issuer: issuerDid });
  });

  it('--credential in the text report: the credential line with its status', async () => {
    const r = await run(['evaluate-policy', issuerDid, '--policy', files['policy-credential.json']!, '--credential', files['valid.json']!]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/credential +VALID {2}The credential is valid/);
    expect(r.stdout).toMatch(/✓ PASS +credentialStatus/);
  });

  it('--credential naming a missing file → exit 2', async () => {
    expectUsageError(
      await run(['evaluate-policy', issuerDid, '--policy', files['policy-credential.json']!, '--credential', path.join(dir, 'nope.json')]),
      /cannot read the credential .*no such file/,
      'evaluate-policy',
    );
  });

  it('--credential with a tampered credential → exit 1', async () => {
    const r = await run(['evaluate-policy', issuerDid, '--policy', files['policy-credential.json']!, '--credential', files['tampered.json']!, '--json']);
    expect(r.exitCode).toBe(1);
    const answer = onlyJson(r);
    expect(answer.credential.status).toBe('INVALID');
    expect(answer.evaluation.evaluations.find((e: any) => e.rule === 'credentialStatus').status).toBe('FAIL');
  });

  it('an unreachable did:web → didResolution INDETERMINATE, exit 3', async () => {
    const did = `did:web:localhost%3A${await closedPort()}`;
    const policy = write('policy-resolution.json', { rules: { didResolution: 'required' } });
    const r = await run(['evaluate-policy', did, '--policy', policy, '--egress-allow', '127.0.0.0/8', '--json']);
    expect(r.exitCode).toBe(3);
    const answer = onlyJson(r);
    expect(answer.resolution).toBeNull();
    expect(answer.evaluation.evaluations[0]).toMatchObject({ rule: 'didResolution', status: 'INDETERMINATE', observedValue: 'UPSTREAM_UNAVAILABLE' });
  });
});

describe('help', () => {
  it('svc --help lists the three commands', async () => {
    const r = await svcIn(['--help']);
    expect(r.exitCode).toBe(0);
    for (const command of ['verify-credential', 'verify-jws', 'evaluate-policy']) expect(r.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('each command has --help and exits 0, naming its exit statuses', async () => {
    for (const command of ['verify-credential', 'verify-jws', 'evaluate-policy']) {
      const r = await svcIn([command, '--help']);
      expect(r.exitCode, command).toBe(0);
      expect(r.stdout).toContain(`Usage: svc ${command}`);
      expect(r.stdout).toContain('Exit status: 0');
      expect(r.stdout).toContain('--json');
    }
  });
});
