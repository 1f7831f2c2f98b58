/**
 * Trusted issuers beside a real verification (docs/credentials.md#trusted-issuers): credentials
 * made by peer libraries — @digitalbazaar/vc (eddsa-jcs-2022) and jose (vc+jwt) — with did:key
 * issuers, and a jose credential whose did:web issuer is published on a loopback HTTPS host. The
 * verification is the same with or without trusted issuers; `issuerTrust` is reported beside it.
 * Then the policy rule `trustedIssuers` end to end (decidePolicy: resolution, verification,
 * evaluation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { parsePolicy } from '../../src/core/policy/index.js';
import { decidePolicy } from '../../src/core/policy/run.js';
import type { Runtime } from '../../src/core/runtime.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import {
  issueDi,
  issueVcJwt,
  jwtIssuer,
  peerEd25519Issuer,
  peerVerifyDi,
  statusEntry,
  statusListCredential,
  unsignedCredential,
  type Json,
  type PeerIssuer,
} from '../support/peer-issuers.js';
import { problemOf } from '../support/problems.js';

let host: DidWebHost;
let runtime: Runtime;
let issuer: PeerIssuer;
let stranger: PeerIssuer;
let credential: Json;
/** A vc+jwt signed by jose for a did:web issuer on the host. */
let webIssuerDid: string;
let webCredential: string;

/** A did:web document on the host for a jose issuer's Ed25519 key, `#key-1` under assertionMethod. */
function publishJwtIssuer(did: string, publicKeyMultibase: string): void {
  host.publish(did, {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [{ id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase }],
    assertionMethod: [`${did}#key-1`],
  });
}

beforeAll(async () => {
  host = await startDidWebHost();
  runtime = host.runtime();
  issuer = await peerEd25519Issuer(61);
  stranger = await peerEd25519Issuer(62);
  credential = await issueDi(unsignedCredential(issuer.did), issuer);
  expect(await peerVerifyDi(credential)).toBe(true);
  const jose = jwtIssuer('EdDSA', new Uint8Array(32).fill(63));
  webIssuerDid = host.did('issuers', 'acme');
  publishJwtIssuer(webIssuerDid, jose.publicKeyMultibase);
  webCredential = await issueVcJwt(unsignedCredential(webIssuerDid), jose, { kid: `${webIssuerDid}#key-1` });
});
afterAll(async () => {
  await host?.close();
});

/** The verification without its trust decision, to compare with a verification without trusted issuers. */
function withoutTrust(result: CredentialVerification): CredentialVerification {
  const { issuerTrust: _trust, ...rest } = result;
  return rest;
}

describe('verifyCredential with trustedIssuers', () => {
  it('a listed did:key issuer → VALID and issuerTrust PASS naming the entry', async () => {
    const result = await verifyCredential(credential, { runtime, trustedIssuers: [stranger.did, issuer.did] });
    expect(result).toMatchObject({ status: 'VALID', valid: true, issuer: issuer.did });
    expect(result.issuerTrust).toEqual({
      status: 'PASS',
      issuer: issuer.did,
      matched: issuer.did,
      trustedIssuers: [stranger.did, issuer.did],
      detail: `The issuer ${issuer.did} is trusted: it is listed.`,
    });
  });

  it('an unlisted issuer: the verification is exactly what it is without trusted issuers (VALID), and issuerTrust FAILs naming the issuer', async () => {
    const plain = await verifyCredential(credential, { runtime });
    expect(Object.hasOwn(plain, 'issuerTrust')).toBe(false);
    const result = await verifyCredential(credential, { runtime, trustedIssuers: [stranger.did] });
    expect(withoutTrust(result)).toEqual(plain);
    expect(result).toMatchObject({ status: 'VALID', valid: true });
    expect(result.issuerTrust).toMatchObject({ status: 'FAIL', issuer: issuer.did, matched: null, trustedIssuers: [stranger.did] });
    expect(result.issuerTrust!.detail).toBe(`The issuer ${issuer.did} is not among the trusted issuers (1 entry: ${stranger.did}).`);
  });

  it('an empty list → issuerTrust INDETERMINATE, never a silent PASS', async () => {
    const result = await verifyCredential(credential, { runtime, trustedIssuers: [] });
    expect(result.status).toBe('VALID');
    expect(result.issuerTrust).toMatchObject({ status: 'INDETERMINATE', matched: null, trustedIssuers: [] });
  });

  it('a tampered credential of a listed issuer stays INVALID; its trust PASS says who issued it is not established', async () => {
    const tampered = structuredClone(credential);
    (tampered['credentialSubject'] as Json)['name'] = 'Mallory';
    const result = await verifyCredential(tampered, { runtime, trustedIssuers: [issuer.did] });
    expect(result.status).toBe('INVALID');
    expect(result.issuerTrust!.status).toBe('PASS');
    expect(result.issuerTrust!.detail).toContain('That is the issuer the credential states: it is INVALID, so who issued it is not established.');
  });

  it('a jose vc+jwt of a did:web issuer on the loopback host: domain forms with the port match, look-alikes do not', async () => {
    const port = `localhost%3A${host.server.port}`;
    const trusted = async (entries: string[]) => {
      const result = await verifyCredential(webCredential, { runtime, trustedIssuers: entries });
      expect(result.status, result.headline).toBe('VALID');
      expect(result.issuerResolution).toMatchObject({ did: webIssuerDid, outcome: 'RESOLVED' });
      return result.issuerTrust!;
    };
    expect(await trusted([`did:web:${port}:*`])).toMatchObject({ status: 'PASS', matched: `did:web:${port}:*` });
    expect(await trusted([`did:web:${port}:issuers:*`])).toMatchObject({ status: 'PASS' });
    expect(await trusted([webIssuerDid.replace('localhost', 'LOCALHOST')])).toMatchObject({ status: 'PASS' });
    expect(await trusted([`did:web:${port}:issuers:acme:*`])).toMatchObject({ status: 'PASS' });
    expect(await trusted([`did:web:${port}:issuers:acmecorp:*`])).toMatchObject({ status: 'FAIL', issuer: webIssuerDid });
    expect(await trusted([`did:web:${port}`])).toMatchObject({ status: 'FAIL' });
    expect(await trusted([`did:web:localhost%3A${host.server.port + 1}:*`])).toMatchObject({ status: 'FAIL' });
    expect(await trusted(['did:web:localhost:*'])).toMatchObject({ status: 'FAIL' });
  });

  it('a bad entry is refused (INVALID_OPTIONS) before anything is verified', async () => {
    const problem = await problemOf(verifyCredential(webCredential, { runtime, trustedIssuers: [issuer.did, 'did:web:*.com'] }));
    expect(problem.code).toBe('INVALID_OPTIONS');
    expect(problem.detail).toBe(
      'Trusted issuer 2 ("did:web:*.com") is refused: "*.com" would trust every domain under a top-level name; name a registered domain (did:web:*.example.com).',
    );
  });

  it("a status list credential's own verification carries no trust decision; the credential's does", async () => {
    const listUrl = `https://localhost:${host.server.port}/status/trusted-1`;
    const list = await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', set: [3] });
    host.server.route('/status/trusted-1', json(list));
    const revoked = await issueDi(unsignedCredential(issuer.did, { credentialStatus: statusEntry(listUrl, 3) }), issuer);
    const result = await verifyCredential(revoked, { runtime, trustedIssuers: [issuer.did] });
    expect(result.status).toBe('REVOKED');
    expect(result.statusList[0]).toMatchObject({ listCredentialVerified: true, result: 'REVOKED' });
    expect(result.issuerTrust!.status).toBe('PASS');
    const own = await verifyCredential(list, { runtime, checkStatus: false, trustedIssuers: [stranger.did] });
    expect(own.status).toBe('VALID');
    expect(Object.hasOwn(own, 'issuerTrust')).toBe(false);
  });
});

describe('the policy rule trustedIssuers, end to end', () => {
  const decide = (rules: Record<string, unknown>, supplied?: unknown) =>
    decidePolicy(issuer.did, parsePolicy({ name: 'issuers', rules }), supplied, { runtime });

  it('PASS for a listed issuer, FAIL naming an unlisted one; the verification beside it is left as it is', async () => {
    const pass = await decide({ credentialStatus: 'active', trustedIssuers: [issuer.did] }, credential);
    expect(pass.evaluation.evaluations.map((e) => [e.rule, e.status, e.observedValue])).toEqual([
      ['credentialStatus', 'PASS', 'VALID'],
      ['trustedIssuers', 'PASS', issuer.did],
    ]);
    expect(pass.evaluation.status).toBe('PASS');
    expect(Object.hasOwn(pass.credential!, 'issuerTrust')).toBe(false);

    const fail = await decide({ credentialStatus: 'active', trustedIssuers: [stranger.did, 'did:web:*.example.com'] }, credential);
    expect(fail.credential!.status).toBe('VALID');
    expect(fail.evaluation.status).toBe('FAIL');
    expect(fail.evaluation.evaluations[1]).toMatchObject({
      rule: 'trustedIssuers',
      status: 'FAIL',
      expected: [stranger.did, 'did:web:*.example.com'],
      message: `The issuer ${issuer.did} is not among the trusted issuers (2 entries: ${stranger.did}, did:web:*.example.com).`,
    });
    expect(fail.evaluation.headline).toBe('The policy fails: 1 of 2 rules fails (trustedIssuers).');
  });

  it('a did:web issuer on the host under a domain form', async () => {
    const decision = await decidePolicy(
      webIssuerDid,
      parsePolicy({ rules: { didResolution: 'required', trustedIssuers: [`did:web:localhost%3A${host.server.port}:issuers:*`] } }),
      webCredential,
      { runtime },
    );
    expect(decision.evaluation.evaluations.map((e) => [e.rule, e.status])).toEqual([
      ['didResolution', 'PASS'],
      ['trustedIssuers', 'PASS'],
    ]);
  });

  it('INDETERMINATE without a credential (missing evidence) and for an empty list', async () => {
    const none = await decide({ trustedIssuers: [issuer.did] });
    expect(none.evaluation.evaluations[0]).toMatchObject({ status: 'INDETERMINATE', observedValue: null });
    expect(none.evaluation.status).toBe('INDETERMINATE');
    const empty = await decide({ trustedIssuers: [] }, credential);
    expect(empty.evaluation.evaluations[0]).toMatchObject({ status: 'INDETERMINATE', observedValue: issuer.did });
  });
});
