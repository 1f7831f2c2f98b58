/**
 * Trusted issuers over HTTP, in process (Fastify inject, each answer held to openapi.json):
 * `trustedIssuers` on POST /v1/credentials/verify adds `issuerTrust` beside an unchanged
 * verification; a bad entry, too many entries, a wrong shape or the member without a credential
 * is 400 INVALID_REQUEST naming it; the policy rule `trustedIssuers` on POST
 * /v1/policies/evaluate. Credentials by @digitalbazaar/vc (did:key) and jose (a did:web issuer
 * on a loopback HTTPS host).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { checkContract } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { issueDi, issueVcJwt, jwtIssuer, peerEd25519Issuer, unsignedCredential, type Json, type PeerIssuer } from '../support/peer-issuers.js';

let db: TestDatabase;
let host: DidWebHost;
let daemon: InjectedApp;
let issuer: PeerIssuer;
let credential: Json;
let webDid: string;
let webCredential: string;

beforeAll(async () => {
  db = await sqliteDatabase('svc-trusted-issuers');
  host = await startDidWebHost();
  daemon = await injectedApp(db.target, { net: host.runtime().net });
  issuer = await peerEd25519Issuer(71);
  credential = await issueDi(unsignedCredential(issuer.did), issuer);
  const jose = jwtIssuer('EdDSA', new Uint8Array(32).fill(72));
  webDid = host.did('issuers', 'daemon');
  host.publish(webDid, {
    '@context': ['https://www.w3.org/ns/did/v1'],
    id: webDid,
    verificationMethod: [{ id: `${webDid}#key-1`, type: 'Multikey', controller: webDid, publicKeyMultibase: jose.publicKeyMultibase }],
    assertionMethod: [`${webDid}#key-1`],
  });
  webCredential = await issueVcJwt(unsignedCredential(webDid), jose, { kid: `${webDid}#key-1` });
}, 60_000);
afterAll(async () => {
  await daemon?.close();
  await host?.close();
  await db?.done();
});

/** POSTs `body`, holds the answer to openapi.json, returns status and JSON. */
async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const res: LightMyRequestResponse = await daemon.anonymous('POST', url, body);
  checkContract('POST', `http://127.0.0.1${url}`, { status: res.statusCode, header: (name) => String(res.headers[name] ?? ''), text: res.payload });
  return { status: res.statusCode, body: JSON.parse(res.payload) };
}
const verify = (body: unknown) => post('/v1/credentials/verify', body);

describe('POST /v1/credentials/verify with trustedIssuers', () => {
  it('listed → 200 VALID with issuerTrust PASS; without the member the answer has no issuerTrust', async () => {
    const listed = await verify({ credential, trustedIssuers: [issuer.did] });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ status: 'VALID', valid: true, issuerTrust: { status: 'PASS', matched: issuer.did, issuer: issuer.did } });
    const plain = await verify({ credential });
    expect(plain.body.status).toBe('VALID');
    expect(Object.hasOwn(plain.body, 'issuerTrust')).toBe(false);
  });

  it('not listed → 200 VALID (valid true) with issuerTrust FAIL naming the issuer; an empty list → INDETERMINATE', async () => {
    const other = (await peerEd25519Issuer(73)).did;
    const unlisted = await verify({ credential, trustedIssuers: [other] });
    expect(unlisted.status).toBe(200);
    expect(unlisted.body).toMatchObject({ status: 'VALID', valid: true });
    expect(unlisted.body.issuerTrust).toEqual({
      status: 'FAIL',
      issuer: issuer.did,
      matched: null,
      trustedIssuers: [other],
      detail: `The issuer ${issuer.did} is not among the trusted issuers (1 entry: ${other}).`,
    });
    const empty = await verify({ credential, trustedIssuers: [] });
    expect(empty.body).toMatchObject({ status: 'VALID', issuerTrust: { status: 'INDETERMINATE', trustedIssuers: [] } });
  });

  it('a did:web issuer on the host: the domain form with its port passes, the same path on another port fails', async () => {
    const port = host.server.port;
    const pass = await verify({ credential: webCredential, trustedIssuers: [`did:web:localhost%3A${port}:issuers:*`], expectedAudience: 'did:web:me.example' });
    // The audience is its own check: the credential names none, so it is INVALID whatever the trust.
    expect(pass.body).toMatchObject({ status: 'INVALID', issuerTrust: { status: 'PASS', matched: `did:web:localhost%3A${port}:issuers:*` } });
    const fail = await verify({ credential: webCredential, trustedIssuers: [`did:web:localhost%3A${port + 1}:issuers:*`] });
    expect(fail.body).toMatchObject({ status: 'VALID', issuerTrust: { status: 'FAIL', issuer: webDid } });
  });

  it('a bad entry, too many entries, a wrong shape or the member without a credential → 400 INVALID_REQUEST naming it', async () => {
    const cases: Array<[unknown, string]> = [
      [
        { credential, trustedIssuers: [issuer.did, 'did:web:*example.com'] },
        '"trustedIssuers": trusted issuer 2 ("did:web:*example.com") is refused: a wildcard is allowed only as "*." before the host (did:web:*.example.com) or as a last ":*" segment (did:web:example.com:*).',
      ],
      [
        { credential, trustedIssuers: ['https://issuer.example'] },
        '"trustedIssuers": trusted issuer 1 ("https://issuer.example") is refused: it is not a DID;',
      ],
      [{ credential, trustedIssuers: [issuer.did, 5] }, '"trustedIssuers": trusted issuer 2 is refused: it is not a string.'],
      [{ credential, trustedIssuers: issuer.did }, '"trustedIssuers": trusted issuers must be an array of strings.'],
      [{ credential, trustedIssuers: Array(101).fill(issuer.did) }, '"trustedIssuers": at most 100 trusted issuers may be given, not 101.'],
      [{ ...credential, trustedIssuers: [issuer.did] }, '"trustedIssuers" needs "credential" beside it: {credential, trustedIssuers}.'],
    ];
    for (const [body, detail] of cases) {
      const answer = await verify(body);
      expect(answer.status, detail).toBe(400);
      expect(answer.body.code).toBe('INVALID_REQUEST');
      expect(answer.body.detail).toContain(detail);
      expect(answer.body.detail).not.toContain('\n');
    }
  });
});

describe('POST /v1/policies/evaluate with the rule trustedIssuers', () => {
  it('PASS for the listed issuer, FAIL for another; a bad entry refuses the policy (400)', async () => {
    const evaluate = (trustedIssuers: unknown) => post('/v1/policies/evaluate', { did: issuer.did, policy: { rules: { trustedIssuers } }, credential });
    const pass = await evaluate(['did:web:*.example.com', issuer.did]);
    expect(pass.status).toBe(200);
    expect(pass.body.evaluation).toMatchObject({ status: 'PASS', evaluations: [{ rule: 'trustedIssuers', status: 'PASS', observedValue: issuer.did }] });
    const fail = await evaluate(['did:web:*.example.com']);
    expect(fail.body.evaluation.evaluations[0]).toMatchObject({ status: 'FAIL', observedValue: issuer.did });
    expect(fail.body.credential.status).toBe('VALID');
    const bad = await evaluate(['did:key:*']);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(bad.body.detail).toContain('The rule "trustedIssuers" cannot be used: trusted issuer 1 ("did:key:*") is refused:');
    const none = await post('/v1/policies/evaluate', { did: issuer.did, policy: { rules: { trustedIssuers: [issuer.did] } } });
    expect(none.body.evaluation.evaluations[0]).toMatchObject({ status: 'INDETERMINATE', observedValue: null });
  });
});
