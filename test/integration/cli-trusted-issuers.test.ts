/**
 * `svc verify-credential --trusted-issuer` and the policy rule `trustedIssuers` on the command
 * line, in the test process (svcIn): the trust line beside the verification, `issuerTrust` in
 * --json, the exit code the worse of the two (an unlisted issuer of a VALID credential exits 1),
 * bad entries as usage errors, and a bundle that re-runs with its trusted issuers. Credentials
 * by @digitalbazaar/vc (did:key) and jose (a did:web issuer verified from its document file, no
 * host).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitForCredential } from '../../src/cli/cmd/verify/action.js';
import type { CredentialStatus, CredentialVerification } from '../../src/core/credentials/types.js';
import type { IssuerTrust } from '../../src/core/policy/trusted-issuers.js';
import { cleanEnv, expectUsageError, onlyJson, parseCliError, svcIn } from '../support/cli.js';
import { issueDi, issueVcJwt, jwtIssuer, peerEd25519Issuer, unsignedCredential, type Json, type PeerIssuer } from '../support/peer-issuers.js';

const WEB_ISSUER = 'did:web:ci.issuer.example.com';

let dir: string;
let stateHome: string;
let issuer: PeerIssuer;
let stranger: PeerIssuer;
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-trusted-'));
  stateHome = mkdtempSync(path.join(tmpdir(), 'svc-trusted-state-'));
  issuer = await peerEd25519Issuer(81);
  stranger = await peerEd25519Issuer(82);
  const credential = await issueDi(unsignedCredential(issuer.did), issuer);
  writeFileSync(file('valid.json'), JSON.stringify(credential));
  const tampered = structuredClone(credential);
  (tampered['credentialSubject'] as Json)['name'] = 'Mallory';
  writeFileSync(file('tampered.json'), JSON.stringify(tampered));
  const jose = jwtIssuer('EdDSA', new Uint8Array(32).fill(83));
  writeFileSync(
    file('web-issuer.json'),
    JSON.stringify({
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: WEB_ISSUER,
      verificationMethod: [{ id: `${WEB_ISSUER}#key-1`, type: 'Multikey', controller: WEB_ISSUER, publicKeyMultibase: jose.publicKeyMultibase }],
      assertionMethod: [`${WEB_ISSUER}#key-1`],
    }),
  );
  writeFileSync(file('web.jwt'), `${await issueVcJwt(unsignedCredential(WEB_ISSUER), jose, { kid: `${WEB_ISSUER}#key-1` })}\n`);
  writeFileSync(file('policy-listed.json'), JSON.stringify({ rules: { credentialStatus: 'active', trustedIssuers: [issuer.did] } }));
  writeFileSync(file('policy-unlisted.json'), JSON.stringify({ rules: { credentialStatus: 'active', trustedIssuers: [stranger.did] } }));
  writeFileSync(file('policy-bad.json'), JSON.stringify({ rules: { trustedIssuers: ['did:web:*.com'] } }));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(stateHome, { recursive: true, force: true });
});

const run = (args: string[]) => svcIn(args, cleanEnv({ XDG_STATE_HOME: stateHome }));

describe('svc verify-credential --trusted-issuer', () => {
  it('a listed issuer → exit 0; the trust line is printed beside the checks, issuerTrust is in --json', async () => {
    const r = await run(['verify-credential', file('valid.json'), '--trusted-issuer', stranger.did, '--trusted-issuer', issuer.did, '--no-color']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^VALID {2}/);
    expect(r.stdout).toContain('\nIssuer trust\n');
    expect(r.stdout).toMatch(/\nIssuer trust\n {2}✓ PASS +trust\s+The issuer did:key:\S+ is\s+trusted: it is listed\.\n/);
    const json = onlyJson(await run(['verify-credential', file('valid.json'), '--trusted-issuer', issuer.did, '--json']));
    expect(json.issuerTrust).toEqual({
      status: 'PASS',
      issuer: issuer.did,
      matched: issuer.did,
      trustedIssuers: [issuer.did],
      detail: `The issuer ${issuer.did} is trusted: it is listed.`,
    });
  });

  it('an unlisted issuer of a VALID credential → exit 1: status VALID and issuerTrust FAIL naming the issuer, and a note on stderr', async () => {
    const r = await run(['verify-credential', file('valid.json'), '--trusted-issuer', stranger.did, '--json']);
    expect(r.exitCode).toBe(1);
    const json = onlyJson(r);
    expect(json).toMatchObject({ status: 'VALID', valid: true, issuerTrust: { status: 'FAIL', issuer: issuer.did, matched: null } });
    expect(r.stderr).toBe('svc: the credential is VALID, but its issuer is not among the trusted issuers (--trusted-issuer, SVC_TRUSTED_ISSUERS)');
    const text = await run(['verify-credential', file('valid.json'), '--trusted-issuer', stranger.did, '--no-color']);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(/^VALID {2}/);
    expect(text.stdout).toMatch(/\nIssuer trust\n {2}✗ FAIL +trust\s+The issuer did:key:\S+ is\s+not\s+among the\s+trusted issuers/);
  });

  it("a team's list from svc.config.json (SVC_TRUSTED_ISSUERS) decides as --trusted-issuer does; the flag replaces it", async () => {
    const config = file('svc.config.json');
    writeFileSync(config, JSON.stringify({ credentials: { trustedIssuers: [stranger.did] } }));
    const listed = await run(['verify-credential', file('valid.json'), '--json', '--config', config]);
    expect(listed.exitCode).toBe(1);
    expect(onlyJson(listed)).toMatchObject({ status: 'VALID', issuerTrust: { status: 'FAIL', trustedIssuers: [stranger.did] } });
    const flag = await run(['verify-credential', file('valid.json'), '--json', '--config', config, '--trusted-issuer', issuer.did]);
    expect(flag.exitCode, flag.stderr).toBe(0);
    const bad = await svcIn(['verify-credential', file('valid.json')], cleanEnv({ XDG_STATE_HOME: stateHome, SVC_TRUSTED_ISSUERS: 'did:web:*.com' }));
    expectUsageError(bad, /^SVC_TRUSTED_ISSUERS: /);
  });

  it('without --trusted-issuer nothing changes: exit 0 and no issuerTrust member', async () => {
    const r = await run(['verify-credential', file('valid.json'), '--json']);
    expect(r.exitCode).toBe(0);
    expect(Object.hasOwn(onlyJson(r), 'issuerTrust')).toBe(false);
  });

  it('a tampered credential of a listed issuer exits 1 on the verification, with no trust note', async () => {
    const r = await run(['verify-credential', file('tampered.json'), '--trusted-issuer', issuer.did, '--json']);
    expect(r.exitCode).toBe(1);
    expect(onlyJson(r)).toMatchObject({ status: 'INVALID', issuerTrust: { status: 'PASS' } });
    expect(r.stderr).toBe('');
  });

  it('a did:web issuer (its document from a file) under did:web:*.example.com → exit 0; the apex form does not cover a subdomain → exit 1', async () => {
    const args = ['verify-credential', file('web.jwt'), '--issuer-document', WEB_ISSUER, file('web-issuer.json'), '--json'];
    const sub = await run([...args, '--trusted-issuer', 'did:web:*.example.com']);
    expect(sub.exitCode, sub.stderr).toBe(0);
    expect(onlyJson(sub)).toMatchObject({ status: 'VALID', issuerTrust: { status: 'PASS', matched: 'did:web:*.example.com' } });
    const apex = await run([...args, '--trusted-issuer', 'did:web:example.com:*', '--trusted-issuer', 'did:web:*.issuer.example.com.evil.com']);
    expect(apex.exitCode).toBe(1);
    expect(onlyJson(apex).issuerTrust).toMatchObject({ status: 'FAIL', issuer: WEB_ISSUER });
  });

  it('a bad entry is a usage error naming it (exit 2)', async () => {
    expectUsageError(
      await run(['verify-credential', file('valid.json'), '--trusted-issuer', issuer.did, '--trusted-issuer', 'did:web:a.*.example.com']),
      /^--trusted-issuer: trusted issuer 2 \("did:web:a\.\*\.example\.com"\) is refused: a wildcard is allowed only as "\*\." before the host/,
    );
    expectUsageError(await run(['verify-credential', file('valid.json'), '--trusted-issuer', 'issuer.example']), /is refused: it is not a DID/);
  });

  it('--bundle keeps the trusted issuers; svc verify-bundle re-runs to the same issuerTrust', async () => {
    const out = file('trusted.bundle.json');
    const r = await run(['verify-credential', file('valid.json'), '--trusted-issuer', stranger.did, '--bundle', out, '--json']);
    expect(r.exitCode).toBe(1);
    const bundle = JSON.parse(readFileSync(out, 'utf8'));
    expect(bundle.command.options).toEqual({ trustedIssuers: [stranger.did] });
    expect(bundle.result.issuerTrust).toMatchObject({ status: 'FAIL' });
    const checked = await run(['verify-bundle', out, '--quiet']);
    expect(checked.exitCode, checked.stderr).toBe(0);
  });
});

describe('the exit code: the worse of the verification and the trust decision', () => {
  const result = (status: CredentialStatus, trust?: IssuerTrust['status']): CredentialVerification =>
    ({
      status,
      valid: status === 'VALID',
      ...(trust ? { issuerTrust: { status: trust, issuer: 'did:example:a', matched: null, trustedIssuers: [], detail: '' } } : {}),
    }) as CredentialVerification;

  it('FAIL → 1, INDETERMINATE → 3, and a failed check stays 1', () => {
    expect(exitForCredential(result('VALID'))).toBe(0);
    expect(exitForCredential(result('VALID', 'PASS'))).toBe(0);
    expect(exitForCredential(result('VALID', 'FAIL'))).toBe(1);
    expect(exitForCredential(result('VALID', 'INDETERMINATE'))).toBe(3);
    expect(exitForCredential(result('INDETERMINATE', 'PASS'))).toBe(3);
    expect(exitForCredential(result('INDETERMINATE', 'FAIL'))).toBe(1);
    expect(exitForCredential(result('REVOKED', 'INDETERMINATE'))).toBe(1);
    expect(exitForCredential(result('MALFORMED', 'PASS'))).toBe(1);
  });
});

describe('svc evaluate-policy with the rule trustedIssuers', () => {
  it('PASS exit 0, FAIL exit 1, a bad entry exit 2 (INVALID_OPTIONS)', async () => {
    const listed = await run(['evaluate-policy', issuer.did, '--policy', file('policy-listed.json'), '--credential', file('valid.json'), '--json']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(onlyJson(listed).evaluation.evaluations[1]).toMatchObject({ rule: 'trustedIssuers', status: 'PASS' });
    const unlisted = await run(['evaluate-policy', issuer.did, '--policy', file('policy-unlisted.json'), '--credential', file('valid.json'), '--json']);
    expect(unlisted.exitCode).toBe(1);
    expect(onlyJson(unlisted).evaluation.evaluations.map((e: { status: string }) => e.status)).toEqual(['PASS', 'FAIL']);
    const bad = await run(['evaluate-policy', issuer.did, '--policy', file('policy-bad.json')]);
    expect(bad.exitCode).toBe(2);
    const error = parseCliError(bad.stderr);
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.detail).toContain('The rule "trustedIssuers" cannot be used: trusted issuer 1 ("did:web:*.com") is refused:');
  });

  it('the help lists the rule', async () => {
    const r = await run(['evaluate-policy', '--help']);
    expect(r.stdout).toContain('credentialIssuerMustBeSubject, trustedIssuers.');
  });
});
