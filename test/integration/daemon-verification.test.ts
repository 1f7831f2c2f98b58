/**
 * `svc serve` over real HTTP: the verification routes (docs/credentials.md). POST
 * /v1/credentials/verify, POST /v1/fast-verify/jws and POST /v1/policies/evaluate against
 * credentials and JWS made here with test/support/signing.ts (node:crypto, not svc's code), issued
 * by did:key and by did:web issuers on a real loopback HTTPS host — or on a port where nothing
 * listens. A failed check is a 200 result; only a request that cannot be answered is a problem.
 */
import { createHash } from 'node:crypto';
import canonicalizeJson from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/https-server.js';
import type { DaemonHandle } from '../support/daemon.js';
import { call, callOversized, expectJson, expectProblem, startInProcessDaemonFor, type Answer } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { b64url } from '../support/codec.js';
import { json } from '../support/https-server.js';
import { issueDi, peerEd25519Issuer, statusEntry, statusListCredential, unsignedCredential } from '../support/peer-issuers.js';
import { generateTestKey, signEddsaJcs2022, signJws, type TestKey } from '../support/signing.js';

/* ------------------------------------------------------------------ credentials made here */

const VC2 = 'https://www.w3.org/ns/credentials/v2';
const SUBJECT = 'did:example:alice';
const AUDIENCE = 'did:web:verifier.example';

const issuerKey = generateTestKey('EdDSA');
const issuerDid = `did:key:${issuerKey.multikey}`;
const issuerVm = `${issuerDid}#${issuerKey.multikey}`;

function unsigned(issuer = issuerDid, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    '@context': [VC2],
    type: ['VerifiableCredential', 'ExampleCredential'],
    issuer,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { id: SUBJECT, name: 'Alice' },
    ...extra,
  };
}

/** An eddsa-jcs-2022 credential of the did:key issuer. */
const diCredential = signEddsaJcs2022(unsigned(), issuerKey, issuerVm);

/** A vc+jwt credential of the did:key issuer (the payload is the credential itself). */
function vcJwt(extra: Record<string, unknown> = {}, key: TestKey = issuerKey, kid = issuerVm): string {
  return signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid }, { ...unsigned(), ...extra }, key);
}

const sha256Hex = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** hashData of vc-di-eddsa §3.3 and its SHA-256: what `proof.signedDigest` must be (computed here with the npm canonicalize). */
function expectedDiDigest(credential: Record<string, unknown>): string {
  const { proof, ...document } = credential as { proof: Record<string, unknown> };
  const { proofValue: _ignored, ...config } = proof;
  const hashData = Buffer.concat([
    createHash('sha256').update(canonicalizeJson(config)!).digest(),
    createHash('sha256').update(canonicalizeJson(document)!).digest(),
  ]);
  return sha256Hex(hashData);
}

/** The signing input `header.payload` of a compact JWS. */
const signingInputOf = (jws: string) => jws.split('.').slice(0, 2).join('.');

/* ------------------------------------------------------------------ the daemon */

let host: DidWebHost;
let daemon: DaemonHandle;
/** A did:web whose host port is closed: every fetch of its document fails. */
let unreachableDid: string;

beforeAll(async () => {
  host = await startDidWebHost();
  daemon = await startInProcessDaemonFor(host);
  unreachableDid = `did:web:localhost%3A${await closedPort()}`;
});
afterAll(async () => {
  await daemon?.stop();
  await host?.close();
});

function post(path: string, body: unknown, contentType = 'application/json'): Promise<Answer> {
  return call(`${daemon.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
const verify = (body: unknown) => post('/v1/credentials/verify', body);
const fastJws = (body: unknown) => post('/v1/fast-verify/jws', body);
const evaluate = (body: unknown) => post('/v1/policies/evaluate', body);

const VERIFICATION_MEMBERS = [
  'checks',
  'claims',
  'dataModel',
  'errors',
  'format',
  'headline',
  'issuer',
  'issuerResolution',
  'limitations',
  'proof',
  'status',
  'statusList',
  'subject',
  'types',
  'valid',
  'validFrom',
  'validUntil',
];
const CHECK_ORDER = ['structure', 'issuer', 'proof', 'validity', 'status', 'jwt.aud', 'kb.nonce'];
const AUDIENCE_LIMITATION = 'The audience was not verified: no expected audience was given.';

/** {id: status} of the checks, after checking their order. */
function checkStatuses(result: { checks: Array<{ id: string; status: string }> }): Record<string, string> {
  expect(result.checks.map((c) => c.id)).toEqual(CHECK_ORDER);
  return Object.fromEntries(result.checks.map((c) => [c.id, c.status]));
}
const checkOf = (result: { checks: Array<{ id: string }> }, id: string): any => result.checks.find((c) => c.id === id);

/** A 200 CredentialVerification with the documented members, no more, no fewer. */
async function verified(body: unknown): Promise<any> {
  const result = expectJson(await verify(body), 200);
  expect(Object.keys(result).sort()).toEqual(VERIFICATION_MEMBERS);
  expect(result.valid).toBe(result.status === 'VALID');
  return result;
}

/* ------------------------------------------------------------------ POST /v1/credentials/verify */

describe('POST /v1/credentials/verify', () => {
  it('{credential: <Data Integrity object>} → 200 VALID with exactly the documented members and checks', async () => {
    const result = await verified({ credential: diCredential });
    expect(result).toMatchObject({
      status: 'VALID',
      format: 'DATA_INTEGRITY',
      dataModel: '2.0',
      issuer: issuerDid,
      subject: SUBJECT,
      types: ['VerifiableCredential', 'ExampleCredential'],
      validFrom: '2026-01-01T00:00:00Z',
      validUntil: null,
      claims: { id: SUBJECT, name: 'Alice' },
      statusList: [],
      valid: true,
      errors: [],
    });
    expect(result.headline).toMatch(/^The credential is valid/);
    for (const check of result.checks) {
      expect(Object.keys(check).sort()).toEqual(['detail', 'id', 'label', 'status']);
      expect(typeof check.label).toBe('string');
      expect(check.detail.length).toBeGreaterThan(0);
    }
    // No status list and no expected audience: those two checks are SKIP, not PASS.
    expect(checkStatuses(result)).toEqual({
      structure: 'PASS',
      issuer: 'PASS',
      proof: 'PASS',
      validity: 'PASS',
      status: 'SKIP',
      'jwt.aud': 'SKIP',
      'kb.nonce': 'SKIP',
    });
    expect(Object.keys(result.proof).sort()).toEqual([
      'created',
      'detail',
      'format',
      'keyCurve',
      'proofPurpose',
      'signedDigest',
      'suite',
      'verificationMethod',
    ]);
    expect(result.proof).toMatchObject({
      format: 'DATA_INTEGRITY',
      verificationMethod: issuerVm,
      proofPurpose: 'assertionMethod',
      created: '2026-01-01T00:00:00Z',
      keyCurve: 'Ed25519',
      signedDigest: expectedDiDigest(diCredential),
    });
    expect(result.proof.suite).toContain('eddsa-jcs-2022');
    expect(result.issuerResolution).toMatchObject({ did: issuerDid, outcome: 'RESOLVED', problem: null });
    expect(result.limitations).toContain(AUDIENCE_LIMITATION);
  });

  it('the bare credential object as the whole body → the same answer', async () => {
    const wrapped = await verified({ credential: diCredential });
    const bare = await verified(diCredential);
    expect(bare.status).toBe('VALID');
    const { issuerResolution: _a, checks: checksA, ...restBare } = bare;
    const { issuerResolution: _b, checks: checksB, ...restWrapped } = wrapped;
    expect(restBare).toEqual(restWrapped);
    expect(checksA.map((c: any) => [c.id, c.status])).toEqual(checksB.map((c: any) => [c.id, c.status]));
  });

  it('{credential: "<raw JSON text>"} → VALID; the same text with a nested duplicate member → 200 MALFORMED', async () => {
    const text = JSON.stringify(diCredential);
    expect((await verified({ credential: text })).status).toBe('VALID');

    // A second "name" inside credentialSubject: the raw text keeps both, an object would not.
    const duplicated = text.replace('"name":"Alice"', '"name":"Alice","name":"Mallory"');
    expect(duplicated).not.toBe(text);
    const result = await verified({ credential: duplicated });
    expect(result.status).toBe('MALFORMED');
    expect(result.valid).toBe(false);
    expect(checkOf(result, 'structure')).toMatchObject({ status: 'FAIL' });
    expect(checkOf(result, 'structure').detail).toMatch(/"name"/);
    expect(result.errors.length).toBeGreaterThan(0);
    // Nothing after a fatal structure failure runs.
    expect(checkStatuses(result)).toEqual({
      structure: 'FAIL',
      issuer: 'SKIP',
      proof: 'SKIP',
      validity: 'SKIP',
      status: 'SKIP',
      'jwt.aud': 'SKIP',
      'kb.nonce': 'SKIP',
    });
  });

  it('a vc+jwt string → VALID, format VC_JOSE_COSE, the signed digest of the JWS signing input', async () => {
    const jwt = vcJwt();
    const result = await verified({ credential: jwt });
    expect(result).toMatchObject({ status: 'VALID', format: 'VC_JOSE_COSE', dataModel: '2.0', issuer: issuerDid, subject: SUBJECT });
    expect(result.proof).toMatchObject({
      format: 'VC_JOSE_COSE',
      suite: 'EdDSA',
      verificationMethod: issuerVm,
      keyCurve: 'Ed25519',
      signedDigest: sha256Hex(signingInputOf(jwt)),
    });
    expect(checkStatuses(result)).toEqual({
      structure: 'PASS',
      issuer: 'PASS',
      proof: 'PASS',
      validity: 'PASS',
      status: 'SKIP',
      'jwt.aud': 'SKIP',
      'kb.nonce': 'SKIP',
    });
  });

  it('expectedAudience: matching aud → VALID (jwt.aud PASS); mismatching → INVALID (jwt.aud FAIL); absent aud → INVALID', async () => {
    const jwt = vcJwt({ aud: AUDIENCE });
    const matching = await verified({ credential: jwt, expectedAudience: AUDIENCE });
    expect(matching.status).toBe('VALID');
    expect(checkOf(matching, 'jwt.aud').status).toBe('PASS');
    expect(matching.limitations).not.toContain(AUDIENCE_LIMITATION);

    const inArray = await verified({ credential: vcJwt({ aud: ['did:web:other.example', AUDIENCE] }), expectedAudience: AUDIENCE });
    expect(inArray.status).toBe('VALID');
    expect(checkOf(inArray, 'jwt.aud').status).toBe('PASS');

    const mismatching = await verified({ credential: jwt, expectedAudience: 'did:web:someone-else.example' });
    expect(mismatching.status).toBe('INVALID');
    expect(checkOf(mismatching, 'jwt.aud').status).toBe('FAIL');
    expect(mismatching.errors).toHaveLength(1);

    const noAud = await verified({ credential: vcJwt(), expectedAudience: AUDIENCE });
    expect(noAud.status).toBe('INVALID');
    expect(checkOf(noAud, 'jwt.aud').status).toBe('FAIL');
  });

  it('no expectedAudience: jwt.aud is SKIP and the limitations say the audience was not verified', async () => {
    const result = await verified({ credential: vcJwt({ aud: AUDIENCE }) });
    expect(result.status).toBe('VALID');
    expect(checkOf(result, 'jwt.aud').status).toBe('SKIP');
    expect(result.limitations).toContain(AUDIENCE_LIMITATION);
  });

  it('expectedAudience with a Data Integrity credential → INDETERMINATE (no audience to establish)', async () => {
    const result = await verified({ credential: diCredential, expectedAudience: AUDIENCE });
    expect(result.status).toBe('INDETERMINATE');
    expect(checkOf(result, 'jwt.aud').status).toBe('INDETERMINATE');
  });

  it('expectedNonce with a Data Integrity or vc+jwt credential → INDETERMINATE (only an SD-JWT VC carries a nonce)', async () => {
    for (const credential of [diCredential, vcJwt()]) {
      const result = await verified({ credential, expectedNonce: 'n-0S6_WzA2Mj' });
      expect(result.status).toBe('INDETERMINATE');
      expect(checkOf(result, 'kb.nonce')).toMatchObject({ status: 'INDETERMINATE', detail: expect.stringContaining('carries no nonce') });
    }
  });

  it('a tampered credential → 200 INVALID with the proof check failing', async () => {
    const tampered = { ...diCredential, credentialSubject: { id: SUBJECT, name: 'Mallory' } };
    const result = await verified({ credential: tampered });
    expect(result.status).toBe('INVALID');
    expect(checkOf(result, 'proof').status).toBe('FAIL');
    expect(result.errors.length).toBeGreaterThan(0);
    expect(checkOf(result, 'validity').status).toBe('SKIP');
  });

  it('a credential without a proof → MALFORMED with a failing structure check (rule 10)', async () => {
    const result = await verified({ credential: unsigned() });
    expect(result.status).toBe('MALFORMED');
    expect(checkOf(result, 'structure').status).toBe('FAIL');
  });

  it('a did:web issuer on the loopback host → VALID; the issuer DID resolved', async () => {
    const did = host.did('issuers', 'web-ok');
    host.publish(did);
    const credential = signEddsaJcs2022(unsigned(did), host.key, `${did}#key-1`);
    const result = await verified({ credential });
    expect(result.status).toBe('VALID');
    expect(result.issuerResolution).toMatchObject({ did, outcome: 'RESOLVED', problem: null });
  });

  it('a did:web issuer whose host is unreachable (closed port) → 200 INDETERMINATE, no error', async () => {
    const key = generateTestKey('EdDSA');
    const credential = signEddsaJcs2022(unsigned(unreachableDid), key, `${unreachableDid}#key-1`);
    const result = await verified({ credential });
    expect(result.status).toBe('INDETERMINATE');
    expect(result.valid).toBe(false);
    expect(checkStatuses(result)).toMatchObject({ structure: 'PASS', proof: 'INDETERMINATE', issuer: 'INDETERMINATE' });
    expect(result.issuerResolution).toMatchObject({ did: unreachableDid, outcome: null, problem: 'UPSTREAM_UNAVAILABLE' });
  });

  it('a duplicate member inside the JWT payload → 200 MALFORMED naming it', async () => {
    const header = b64url(JSON.stringify({ alg: 'EdDSA', typ: 'vc+jwt', kid: issuerVm }));
    const payload = b64url(JSON.stringify(unsigned()).replace('"name":"Alice"', '"name":"Alice","name":"Mallory"'));
    const result = await verified({ credential: `${header}.${payload}.${b64url(new Uint8Array(64))}` });
    expect(result.status).toBe('MALFORMED');
    expect(checkOf(result, 'structure')).toMatchObject({ status: 'FAIL' });
    expect(checkOf(result, 'structure').detail).toContain('"name"');
  });

  it('validity: validUntil or JWT exp in the past → EXPIRED; validFrom or JWT nbf in the future → NOT_YET_VALID', async () => {
    const cases: Array<[unknown, string]> = [
      [signEddsaJcs2022(unsigned(issuerDid, { validUntil: '2026-02-01T00:00:00Z' }), issuerKey, issuerVm), 'EXPIRED'],
      [vcJwt({ exp: Date.UTC(2026, 1, 1) / 1000 }), 'EXPIRED'],
      [signEddsaJcs2022(unsigned(issuerDid, { validFrom: '2099-01-01T00:00:00Z' }), issuerKey, issuerVm), 'NOT_YET_VALID'],
      [vcJwt({ nbf: Date.UTC(2099, 0, 1) / 1000 }), 'NOT_YET_VALID'],
    ];
    for (const [credential, status] of cases) {
      const result = await verified({ credential });
      expect(result.status).toBe(status);
      expect(checkStatuses(result)).toMatchObject({ proof: 'PASS', issuer: 'PASS', validity: 'FAIL' });
    }
  });

  it('precedence: an expired JWT with a mismatching audience is INVALID, not EXPIRED (rule 9)', async () => {
    const result = await verified({ credential: vcJwt({ exp: Date.UTC(2026, 1, 1) / 1000, aud: 'did:web:other.example' }), expectedAudience: AUDIENCE });
    expect(result.status).toBe('INVALID');
    expect(checkStatuses(result)).toMatchObject({ validity: 'FAIL', 'jwt.aud': 'FAIL' });
    expect(result.errors).toHaveLength(2);
  });

  it('VC-JWT 1.1 (vc claim, typ JWT, no kid) → VALID, format VC_JWT_1_1, data model 1.1, registered claims mapped', async () => {
    const vc = { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential'], credentialSubject: { name: 'Alice' } };
    const jwt = signJws({ alg: 'EdDSA', typ: 'JWT' }, { iss: issuerDid, sub: SUBJECT, nbf: Date.UTC(2026, 0, 1) / 1000, vc }, issuerKey);
    const result = await verified({ credential: jwt });
    expect(result).toMatchObject({
      status: 'VALID',
      format: 'VC_JWT_1_1',
      dataModel: '1.1',
      issuer: issuerDid,
      subject: SUBJECT,
      validFrom: '2026-01-01T00:00:00Z',
    });
    expect(result.proof.verificationMethod).toBe(issuerVm);
    // A conflicting iss is rejected, not chosen between.
    const conflicting = signJws(
      { alg: 'EdDSA', typ: 'JWT', kid: issuerVm },
      { iss: 'did:example:other', nbf: Date.UTC(2026, 0, 1) / 1000, vc: { ...vc, issuer: issuerDid, issuanceDate: '2026-01-01T00:00:00Z' } },
      issuerKey,
    );
    expect((await verified({ credential: conflicting })).status).toBe('INVALID');
  });

  it('a vc+jwt carrying a "vc" claim → INVALID (rule 4)', async () => {
    const result = await verified({ credential: vcJwt({ vc: {} }) });
    expect(result.status).toBe('INVALID');
    expect(checkOf(result, 'structure').status).toBe('FAIL');
  });

  it('unsupported: an eddsa-rdfc-2022 proof, a presentation → UNSUPPORTED; a vc+jwt with disclosures is an SD-JWT of the wrong typ → MALFORMED', async () => {
    const rdfc = {
      ...unsigned(),
      proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', verificationMethod: issuerVm, proofPurpose: 'assertionMethod', proofValue: 'z3' },
    };
    expect(await verified({ credential: rdfc })).toMatchObject({ status: 'UNSUPPORTED', valid: false });
    const presentation = { ...unsigned(), type: ['VerifiablePresentation'], proof: diCredential['proof'] };
    expect((await verified({ credential: presentation })).status).toBe('UNSUPPORTED');
    const sdJwt = `${vcJwt()}~WyJzYWx0IiwibmFtZSIsIkFsaWNlIl0~`;
    // SD-JWT VC results carry svc's "disclosures" member beside the documented ones (SD_JWT_VC only).
    const sd = expectJson(await verify({ credential: sdJwt }), 200);
    expect(Object.keys(sd).sort()).toEqual([...VERIFICATION_MEMBERS, 'disclosures'].sort());
    expect([sd.status, sd.format, sd.disclosures]).toEqual(['MALFORMED', 'SD_JWT_VC', null]);
    expect(sd.headline).toMatch(/^The credential is malformed: the SD-JWT is malformed: the issuer-signed JWT has "typ" "vc\+jwt"/);
    expect(checkOf(sd, 'proof')).toMatchObject({ status: 'SKIP', detail: 'Not run: the structure check failed.' });
  });

  it('a key of another DID than the issuer → INVALID (issuer FAIL); a key only under authentication → INVALID', async () => {
    const other = await verified({ credential: signEddsaJcs2022(unsigned('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'), issuerKey, issuerVm) });
    expect(other.status).toBe('INVALID');
    expect(checkStatuses(other)).toMatchObject({ proof: 'PASS', issuer: 'FAIL' });

    const did = host.did('issuers', 'auth-only');
    host.publish(did, {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: did,
      verificationMethod: [{ id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase: host.key.multikey }],
      authentication: [`${did}#key-1`],
    });
    const authOnly = await verified({ credential: signEddsaJcs2022(unsigned(did), host.key, `${did}#key-1`) });
    expect(authOnly.status).toBe('INVALID');
    expect(checkOf(authOnly, 'issuer')).toMatchObject({ status: 'FAIL' });
    expect(checkOf(authOnly, 'issuer').detail).toContain('assertionMethod');
  });

  it('more than 8 status entries → INDETERMINATE, none fetched (rule 7)', async () => {
    const entries = Array.from({ length: 9 }, (_, i) => ({
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(i),
      statusListCredential: `https://localhost:${host.server.port}/status/list`,
    }));
    let fetched = 0;
    host.server.route('/status/list', (_req, res) => {
      fetched += 1;
      res.statusCode = 404;
      res.end();
    });
    const result = await verified({ credential: signEddsaJcs2022(unsigned(issuerDid, { credentialStatus: entries }), issuerKey, issuerVm) });
    expect(result.status).toBe('INDETERMINATE');
    expect(checkOf(result, 'status').status).toBe('INDETERMINATE');
    expect(fetched).toBe(0);
  });

  it('a status list on the loopback host: index 7 set → REVOKED, index 8 clear → VALID with the documented statusList members', async () => {
    const issuer = await peerEd25519Issuer(41);
    const listUrl = `https://localhost:${host.server.port}/status/revocation-1`;
    host.server.route('/status/revocation-1', json(await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', set: [7] })));

    const revoked = await verified({ credential: await issueDi(unsignedCredential(issuer.did, { credentialStatus: statusEntry(listUrl, 7) }), issuer) });
    expect(revoked.status).toBe('REVOKED');
    expect(checkStatuses(revoked)).toMatchObject({ proof: 'PASS', issuer: 'PASS', validity: 'PASS', status: 'FAIL' });
    expect(revoked.statusList).toHaveLength(1);
    expect(Object.keys(revoked.statusList[0]).sort()).toEqual([
      'detail',
      'index',
      'listCredentialVerified',
      'listLengthBits',
      'listUrl',
      'purpose',
      'result',
      'statusSize',
      'statusType',
      'value',
      'window',
      'windowOffset',
    ]);
    expect(revoked.statusList[0]).toMatchObject({
      statusType: 'BitstringStatusListEntry',
      purpose: 'revocation',
      index: 7,
      listUrl,
      listCredentialVerified: true,
      listLengthBits: 131072,
      value: 1,
      result: 'REVOKED',
      window: '00000001',
      windowOffset: 7,
    });

    const active = await verified({ credential: await issueDi(unsignedCredential(issuer.did, { credentialStatus: statusEntry(listUrl, 8) }), issuer) });
    expect(active.status).toBe('VALID');
    expect(checkOf(active, 'status').status).toBe('PASS');
    expect(active.statusList[0]).toMatchObject({ index: 8, value: 0, result: 'ACTIVE', window: '00000000', windowOffset: 0 });
  });

  it('a status list that cannot be fetched → INDETERMINATE (fail-closed), never VALID', async () => {
    const issuer = await peerEd25519Issuer(42);
    const listUrl = `https://localhost:${await closedPort()}/status/gone`;
    const result = await verified({ credential: await issueDi(unsignedCredential(issuer.did, { credentialStatus: statusEntry(listUrl, 3) }), issuer) });
    expect(result.status).toBe('INDETERMINATE');
    expect(checkOf(result, 'status').status).toBe('INDETERMINATE');
    expect(result.statusList[0]).toMatchObject({ listUrl, result: 'INDETERMINATE', listCredentialVerified: false, value: null });
  });

  describe('requests that cannot be answered: 400, 413', () => {
    it('expectedAudience or expectedNonce of the wrong shape (a number, "") → 400 INVALID_REQUEST', async () => {
      for (const name of ['expectedAudience', 'expectedNonce']) {
        for (const value of [42, '', null, ['a']]) {
          const problem = expectProblem(await verify({ credential: diCredential, [name]: value }), 400, 'INVALID_REQUEST');
          expect(problem.detail).toBe(`"${name}" must be a non-empty string.`);
        }
      }
    });

    it('expectedAudience or expectedNonce without a credential beside it → 400, never silently ignored', async () => {
      for (const name of ['expectedAudience', 'expectedNonce']) {
        const problem = expectProblem(await verify({ [name]: 'did:example:verifier' }), 400, 'INVALID_REQUEST');
        expect(problem.detail).toContain(`"${name}" needs "credential"`);
      }
    });

    it('credential of the wrong type (a number, null, an array) → 400', async () => {
      for (const credential of [42, null, [diCredential], true]) {
        const problem = expectProblem(await verify({ credential }), 400, 'INVALID_REQUEST');
        expect(problem.detail).toContain('"credential"');
      }
    });

    it('an unknown member next to credential → 400 naming it', async () => {
      const problem = expectProblem(await verify({ credential: diCredential, audience: AUDIENCE }), 400, 'INVALID_REQUEST');
      expect(problem.detail).toContain('"audience"');
    });

    it('a duplicate member in the HTTP body → 400 INVALID_REQUEST (not MALFORMED)', async () => {
      const one = JSON.stringify(diCredential);
      const problem = expectProblem(await verify(`{"credential":${one},"credential":${one}}`), 400, 'INVALID_REQUEST');
      expect(problem.detail).toMatch(/"credential"/);
      // Nested inside the credential object, too.
      const nested = `{"credential":${one.replace('"name":"Alice"', '"name":"Alice","name":"Mallory"')}}`;
      expectProblem(await verify(nested), 400, 'INVALID_REQUEST');
    });

    it('a body over 512 KiB → 413 PAYLOAD_TOO_LARGE', async () => {
      const body = JSON.stringify({ credential: { ...diCredential, padding: 'x'.repeat(600 * 1024) } });
      const problem = expectProblem(await callOversized(`${daemon.url}/v1/credentials/verify`, body), 413, 'PAYLOAD_TOO_LARGE');
      expect(problem.detail).toContain('512 KiB');
    });

    it('malformed JSON → 400', async () => {
      expectProblem(await verify('{"credential": {'), 400, 'INVALID_REQUEST');
    });

    it('an empty body → 400 (with and without a JSON content type)', async () => {
      const typed = await call(`${daemon.url}/v1/credentials/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
      expect(expectProblem(typed, 400, 'INVALID_REQUEST').detail).toContain('JSON object body');
      const untyped = await call(`${daemon.url}/v1/credentials/verify`, { method: 'POST' });
      expect(expectProblem(untyped, 400, 'INVALID_REQUEST').detail).toContain('JSON object body');
    });

    it('a JSON body that is not an object (an array, a string) → 400', async () => {
      expectProblem(await verify([diCredential]), 400, 'INVALID_REQUEST');
      expectProblem(await verify(JSON.stringify(vcJwt())), 400, 'INVALID_REQUEST');
    });
  });
});

/* ------------------------------------------------------------------ POST /v1/fast-verify/jws */

describe('POST /v1/fast-verify/jws', () => {
  const JWS_MEMBERS = ['alg', 'headline', 'kid', 'payload', 'signingInputSha256', 'status', 'typ', 'valid'];

  async function jwsResult(body: unknown): Promise<any> {
    const result = expectJson(await fastJws(body), 200);
    expect(result.valid).toBe(result.status === 'VALID');
    return result;
  }

  it('a JWS signed by a did:key (kid = DID URL) → VALID with signer and relationship', async () => {
    const jws = signJws({ alg: 'EdDSA', kid: issuerVm, typ: 'example+jwt' }, { hello: 'world' }, issuerKey);
    const result = await jwsResult({ jws });
    expect(Object.keys(result).sort()).toEqual([...JWS_MEMBERS, 'relationship', 'signer'].sort());
    expect(result).toEqual({
      status: 'VALID',
      valid: true,
      headline: expect.stringMatching(/^The JWS is valid/),
      alg: 'EdDSA',
      kid: issuerVm,
      typ: 'example+jwt',
      payload: { hello: 'world' },
      signingInputSha256: sha256Hex(signingInputOf(jws)),
      signer: issuerDid,
      relationship: 'assertionMethod',
    });
  });

  it('relationship authentication → VALID under it; keyAgreement → INVALID without signer', async () => {
    const jws = signJws({ alg: 'EdDSA', kid: issuerVm }, { n: 1 }, issuerKey);
    expect(await jwsResult({ jws, relationship: 'authentication' })).toMatchObject({ status: 'VALID', signer: issuerDid, relationship: 'authentication' });
    const refused = await jwsResult({ jws, relationship: 'keyAgreement' });
    expect(refused.status).toBe('INVALID');
    expect(Object.keys(refused).sort()).toEqual(JWS_MEMBERS);
    expect(refused.headline).toContain('keyAgreement');
  });

  it('a bad signature → INVALID without signer', async () => {
    const jws = signJws({ alg: 'EdDSA', kid: issuerVm }, { n: 1 }, generateTestKey('EdDSA'));
    const result = await jwsResult({ jws });
    expect(result.status).toBe('INVALID');
    expect(Object.keys(result).sort()).toEqual(JWS_MEMBERS);
  });

  it('a bad relationship string → 400; a missing or non-string jws → 400; an unknown member → 400', async () => {
    const jws = signJws({ alg: 'EdDSA', kid: issuerVm }, { n: 1 }, issuerKey);
    expect(expectProblem(await fastJws({ jws, relationship: 'owner' }), 400, 'INVALID_REQUEST').detail).toContain('relationship');
    expectProblem(await fastJws({ jws, relationship: 7 }), 400, 'INVALID_REQUEST');
    expect(expectProblem(await fastJws({}), 400, 'INVALID_REQUEST').detail).toContain('"jws"');
    expectProblem(await fastJws({ jws: '' }), 400, 'INVALID_REQUEST');
    expectProblem(await fastJws({ jws: 42 }), 400, 'INVALID_REQUEST');
    expect(expectProblem(await fastJws({ jws, kid: issuerVm }), 400, 'INVALID_REQUEST').detail).toContain('"kid"');
  });

  it('a kid that is not a DID URL (or a bare DID) → INDETERMINATE, no signer or relationship', async () => {
    for (const kid of ['key-1', issuerDid]) {
      const jws = signJws({ alg: 'EdDSA', kid }, { n: 1 }, issuerKey);
      const result = await jwsResult({ jws });
      expect(result.status).toBe('INDETERMINATE');
      expect(result.kid).toBe(kid);
      expect(Object.keys(result).sort()).toEqual(JWS_MEMBERS);
    }
  });

  it('a kid whose DID host is unreachable → INDETERMINATE (200)', async () => {
    const jws = signJws({ alg: 'EdDSA', kid: `${unreachableDid}#key-1` }, { n: 1 }, issuerKey);
    const result = await jwsResult({ jws });
    expect(result.status).toBe('INDETERMINATE');
    expect(Object.keys(result).sort()).toEqual(JWS_MEMBERS);
  });

  it('alg none → UNSUPPORTED; a crit extension → UNSUPPORTED; b64:false → UNSUPPORTED', async () => {
    const none = `${b64url(JSON.stringify({ alg: 'none', kid: issuerVm }))}.${b64url(JSON.stringify({ n: 1 }))}.`;
    expect(await jwsResult({ jws: none })).toMatchObject({ status: 'UNSUPPORTED', alg: 'none' });
    const crit = signJws({ alg: 'EdDSA', kid: issuerVm, crit: ['exp'], exp: 1 }, { n: 1 }, issuerKey);
    const critResult = await jwsResult({ jws: crit });
    expect(critResult.status).toBe('UNSUPPORTED');
    expect(Object.keys(critResult).sort()).toEqual(JWS_MEMBERS);
    const b64 = signJws({ alg: 'EdDSA', kid: issuerVm, b64: false, crit: ['b64'] }, { n: 1 }, issuerKey);
    expect((await jwsResult({ jws: b64 })).status).toBe('UNSUPPORTED');
  });

  it('a duplicate member in the decoded header → 200 MALFORMED', async () => {
    const header = `{"alg":"EdDSA","kid":${JSON.stringify(issuerVm)},"alg":"EdDSA"}`;
    const jws = `${b64url(header)}.${b64url(JSON.stringify({ n: 1 }))}.${b64url(new Uint8Array(64))}`;
    const result = await jwsResult({ jws });
    expect(result.status).toBe('MALFORMED');
    expect(result.headline).toContain('"alg"');
    expect(Object.keys(result).sort()).toEqual(JWS_MEMBERS);
  });

  it('a key listed only under authentication: VALID by default (assertionMethod, then authentication); refused for assertionMethod', async () => {
    const did = host.did('jws', 'auth-only');
    host.publish(did, {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: did,
      verificationMethod: [{ id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase: host.key.multikey }],
      authentication: [`${did}#key-1`],
    });
    const jws = signJws({ alg: 'EdDSA', kid: `${did}#key-1` }, { n: 1 }, host.key);
    expect(await jwsResult({ jws })).toMatchObject({ status: 'VALID', signer: did, relationship: 'authentication' });
    const refused = await jwsResult({ jws, relationship: 'assertionMethod' });
    expect(refused.status).toBe('INVALID');
    expect(refused.signer).toBeUndefined();
  });

  it('a kid naming a method the DID document does not have → INVALID', async () => {
    const jws = signJws({ alg: 'EdDSA', kid: `${issuerDid}#no-such-key` }, { n: 1 }, issuerKey);
    const result = await jwsResult({ jws });
    expect(result.status).toBe('INVALID');
    expect(Object.keys(result).sort()).toEqual(JWS_MEMBERS);
  });

  it('a body over 512 KiB → 413 PAYLOAD_TOO_LARGE', async () => {
    expectProblem(await callOversized(`${daemon.url}/v1/fast-verify/jws`, JSON.stringify({ jws: 'a'.repeat(600 * 1024) })), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a string that is no JWS → 200 MALFORMED', async () => {
    expect((await jwsResult({ jws: 'not-a-jws' })).status).toBe('MALFORMED');
  });
});

/* ------------------------------------------------------------------ POST /v1/policies/evaluate */

describe('POST /v1/policies/evaluate', () => {
  const RULES = { didResolution: 'required', allowedMethods: ['key'], allowedCurves: ['Ed25519'] };

  async function decided(body: unknown): Promise<any> {
    const answer = expectJson(await evaluate(body), 200);
    expect(Object.keys(answer).sort()).toEqual(['credential', 'evaluation', 'resolution']);
    expect(Object.keys(answer.evaluation).sort()).toEqual(
      ['did', 'evaluatedAt', 'evaluations', 'headline', 'policyName', 'rulesEvaluated', 'rulesPassed', 'status'].sort(),
    );
    for (const evaluation of answer.evaluation.evaluations) {
      expect(Object.keys(evaluation).sort()).toEqual(['expected', 'message', 'observedValue', 'rule', 'status']);
    }
    expect(answer.evaluation.evaluatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    return answer;
  }

  it('a did:key with didResolution, allowedMethods and allowedCurves → PASS; resolution {verdict, dimensions}; credential null', async () => {
    const answer = await decided({ did: issuerDid, policy: { name: 'keys', rules: RULES } });
    expect(answer.evaluation).toMatchObject({ did: issuerDid, policyName: 'keys', status: 'PASS', rulesEvaluated: 3, rulesPassed: 3 });
    expect(answer.evaluation.evaluations.map((e: any) => [e.rule, e.status])).toEqual([
      ['didResolution', 'PASS'],
      ['allowedMethods', 'PASS'],
      ['allowedCurves', 'PASS'],
    ]);
    expect(answer.evaluation.evaluations.map((e: any) => e.expected)).toEqual(['required', ['key'], ['Ed25519']]);
    expect(answer.credential).toBeNull();
    expect(Object.keys(answer.resolution).sort()).toEqual(['dimensions', 'verdict']);
    expect(answer.resolution.verdict.outcome).toBe('RESOLVED');
    expect(Array.isArray(answer.resolution.dimensions)).toBe(true);
    expect(answer.resolution.dimensions.length).toBeGreaterThan(0);
  });

  it('allowedMethods ["web"] for a did:key → FAIL', async () => {
    const answer = await decided({ did: issuerDid, policy: { rules: { allowedMethods: ['web'] } } });
    expect(answer.evaluation).toMatchObject({ status: 'FAIL', policyName: null, rulesEvaluated: 1, rulesPassed: 0 });
    expect(answer.evaluation.evaluations[0]).toMatchObject({ rule: 'allowedMethods', status: 'FAIL', observedValue: 'key' });
  });

  it('with a credential → its verification is present; credentialStatus active and issuer-is-subject pass', async () => {
    const answer = await decided({
      did: issuerDid,
      policy: { name: 'issuer', rules: { credentialStatus: 'active', credentialIssuerMustBeSubject: true } },
      credential: diCredential,
    });
    expect(answer.evaluation.status).toBe('PASS');
    expect(answer.credential).toMatchObject({ status: 'VALID', issuer: issuerDid, valid: true });
    expect(Object.keys(answer.credential).sort()).toEqual(VERIFICATION_MEMBERS);
    expect(answer.evaluation.evaluations.map((e: any) => [e.rule, e.status, e.observedValue])).toEqual([
      ['credentialStatus', 'PASS', 'VALID'],
      ['credentialIssuerMustBeSubject', 'PASS', issuerDid],
    ]);
  });

  it('a tampered credential → credentialStatus FAIL, the policy FAILs (still 200)', async () => {
    const tampered = { ...diCredential, credentialSubject: { id: SUBJECT, name: 'Mallory' } };
    const answer = await decided({ did: issuerDid, policy: { rules: { credentialStatus: 'active' } }, credential: tampered });
    expect(answer.credential.status).toBe('INVALID');
    expect(answer.evaluation.status).toBe('FAIL');
  });

  it('an unknown rule → 400 naming it', async () => {
    const problem = expectProblem(await evaluate({ did: issuerDid, policy: { rules: { didResolutoin: 'required' } } }), 400, 'INVALID_REQUEST');
    expect(problem.detail).toContain('"didResolutoin"');
  });

  it('a rule value of the wrong type → 400', async () => {
    expectProblem(await evaluate({ did: issuerDid, policy: { rules: { allowedMethods: 'key' } } }), 400, 'INVALID_REQUEST');
    expectProblem(await evaluate({ did: issuerDid, policy: { rules: { minKeyBits: -1 } } }), 400, 'INVALID_REQUEST');
  });

  it('missing did, missing policy, policy without rules member, unknown member → 400', async () => {
    expect(expectProblem(await evaluate({ policy: { rules: RULES } }), 400, 'INVALID_REQUEST').detail).toContain('"did"');
    expect(expectProblem(await evaluate({ did: issuerDid }), 400, 'INVALID_REQUEST').detail).toContain('"policy"');
    expectProblem(await evaluate({ did: issuerDid, policy: {} }), 400, 'INVALID_REQUEST');
    expect(expectProblem(await evaluate({ did: issuerDid, policy: { rules: RULES }, extra: 1 }), 400, 'INVALID_REQUEST').detail).toContain('"extra"');
    expectProblem(await evaluate({ did: issuerDid, policy: { rules: RULES }, credential: 5 }), 400, 'INVALID_REQUEST');
  });

  it('an invalid DID → 400 INVALID_DID', async () => {
    expectProblem(await evaluate({ did: 'not-a-did', policy: { rules: RULES } }), 400, 'INVALID_DID');
  });

  it('an unresolvable did:web (closed port) → 200, didResolution INDETERMINATE, resolution null', async () => {
    const answer = await decided({ did: unreachableDid, policy: { rules: { didResolution: 'required', allowedMethods: ['web'] } } });
    expect(answer.resolution).toBeNull();
    expect(answer.credential).toBeNull();
    expect(answer.evaluation.status).toBe('INDETERMINATE');
    expect(answer.evaluation.evaluations.map((e: any) => [e.rule, e.status])).toEqual([
      ['didResolution', 'INDETERMINATE'],
      ['allowedMethods', 'PASS'],
    ]);
    expect(answer.evaluation.evaluations[0].observedValue).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('a policy without rules → INDETERMINATE, nothing evaluated', async () => {
    const answer = await decided({ did: issuerDid, policy: { rules: {} } });
    expect(answer.evaluation).toMatchObject({ status: 'INDETERMINATE', rulesEvaluated: 0, rulesPassed: 0, evaluations: [] });
  });

  it('the credential as raw JSON text or as a vc+jwt string is verified too', async () => {
    for (const credential of [JSON.stringify(diCredential), vcJwt()]) {
      const answer = await decided({ did: issuerDid, policy: { rules: { credentialStatus: 'active' } }, credential });
      expect(answer.evaluation.status).toBe('PASS');
      expect(answer.credential.status).toBe('VALID');
    }
  });

  it('a did:web on the loopback host: the evidence rules decide (domainBinding optional, TLS days, key relationship, bits, suites)', async () => {
    const did = host.did('policy', 'web');
    host.publish(did);
    const answer = await decided({
      did,
      policy: {
        rules: {
          didResolution: 'required',
          allowedMethods: ['did:web'],
          domainBinding: 'optional',
          tlsMinDaysRemaining: 1,
          requireKeyRelationship: 'assertionMethod',
          minKeyBits: 128,
          allowedKeySuites: ['Multikey'],
        },
      },
    });
    expect(answer.evaluation.evaluations.map((e: any) => [e.rule, e.status])).toEqual([
      ['didResolution', 'PASS'],
      ['allowedMethods', 'PASS'],
      ['domainBinding', 'PASS'],
      ['tlsMinDaysRemaining', 'PASS'],
      ['requireKeyRelationship', 'PASS'],
      ['minKeyBits', 'PASS'],
      ['allowedKeySuites', 'PASS'],
    ]);
    expect(answer.evaluation.status).toBe('PASS');
    // domainBinding required: no DID configuration is published, so it fails.
    const required = await decided({ did, policy: { rules: { domainBinding: 'required' } } });
    expect(required.evaluation.status).toBe('FAIL');
  });

  it('an unsupported method → 200, didResolution FAIL with METHOD_NOT_SUPPORTED (a verdict, not an error)', async () => {
    const answer = await decided({ did: 'did:foo:bar', policy: { rules: { didResolution: 'required' } } });
    expect(answer.resolution).toBeNull();
    expect(answer.evaluation.evaluations[0]).toMatchObject({ rule: 'didResolution', status: 'FAIL', observedValue: 'METHOD_NOT_SUPPORTED' });
  });

  it('a DID URL instead of a DID → 400 INVALID_DID; an empty did → 400 INVALID_REQUEST; a policy that is not an object → 400', async () => {
    expectProblem(await evaluate({ did: `${issuerDid}#frag`, policy: { rules: RULES } }), 400, 'INVALID_DID');
    expectProblem(await evaluate({ did: '', policy: { rules: RULES } }), 400, 'INVALID_REQUEST');
    for (const policy of [null, [], 'rules', { name: 5, rules: {} }, { rules: RULES, version: 1 }]) {
      expectProblem(await evaluate({ did: issuerDid, policy }), 400, 'INVALID_REQUEST');
    }
  });

  it('a duplicate member in the body → 400 INVALID_REQUEST', async () => {
    const body = `{"did":${JSON.stringify(issuerDid)},"policy":{"rules":{"allowedMethods":["web"],"allowedMethods":["key"]}}}`;
    expectProblem(await evaluate(body), 400, 'INVALID_REQUEST');
  });
});

/* ------------------------------------------------------------------ methods, rate limit */

describe('methods and rate limit', () => {
  const RULES_PASS = { didResolution: 'required', allowedMethods: ['key'] };

  it('GET on each POST route → 405 METHOD_NOT_ALLOWED with Allow naming POST', async () => {
    for (const path of ['/v1/credentials/verify', '/v1/fast-verify/jws', '/v1/policies/evaluate']) {
      const answer = await call(`${daemon.url}${path}`);
      expectProblem(answer, 405, 'METHOD_NOT_ALLOWED');
      expect(answer.header('allow').split(', ').sort()).toEqual(['OPTIONS', 'POST']);
    }
  });

  it('public profile: the verify and policy routes share the intensive budget (10/min), fast-verify/jws is standard (20/min)', async () => {
    const pub = await startInProcessDaemonFor(null, { args: ['--public'] });
    try {
      const send = (path: string, body: unknown) =>
        call(`${pub.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const verifyBody = { credential: diCredential };
      const policyBody = { did: issuerDid, policy: { rules: RULES_PASS } };
      for (let i = 0; i < 10; i++) {
        const answer = i % 2 === 0 ? await send('/v1/credentials/verify', verifyBody) : await send('/v1/policies/evaluate', policyBody);
        expectJson(answer, 200);
      }
      for (const [path, body] of [
        ['/v1/credentials/verify', verifyBody],
        ['/v1/policies/evaluate', policyBody],
      ] as const) {
        const answer = await send(path, body);
        const problem = expectProblem(answer, 429, 'RATE_LIMITED');
        expect(problem.detail).toContain('intensive budget of 10 requests per minute');
        expect(Number(answer.header('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      const jws = signJws({ alg: 'EdDSA', kid: issuerVm }, { n: 1 }, issuerKey);
      for (let i = 0; i < 20; i++) expect(expectJson(await send('/v1/fast-verify/jws', { jws }), 200).status).toBe('VALID');
      const problem = expectProblem(await send('/v1/fast-verify/jws', { jws }), 429, 'RATE_LIMITED');
      expect(problem.detail).toContain('standard budget of 20 requests per minute');
    } finally {
      await pub.stop('SIGKILL');
    }
  });

  it('SVC_RATE_LIMIT_PER_MIN=3: three verifications pass, the fourth is 429 RATE_LIMITED with Retry-After: 1', async () => {
    const limited = await startInProcessDaemonFor(null, { env: { SVC_RATE_LIMIT_PER_MIN: '3' } });
    try {
      const send = (path: string, body: unknown) =>
        call(`${limited.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(expectJson(await send('/v1/credentials/verify', { credential: diCredential }), 200).status).toBe('VALID');
      expect(expectJson(await send('/v1/fast-verify/jws', { jws: vcJwt() }), 200).status).toBe('VALID');
      expect(expectJson(await send('/v1/policies/evaluate', { did: issuerDid, policy: { rules: RULES_PASS } }), 200).evaluation.status).toBe('PASS');
      const answer = await send('/v1/credentials/verify', { credential: diCredential });
      const problem = expectProblem(answer, 429, 'RATE_LIMITED');
      expect(answer.header('retry-after')).toBe('1');
      expect(problem.detail).toContain('3 requests per minute');
    } finally {
      await limited.stop('SIGKILL');
    }
  });
});
