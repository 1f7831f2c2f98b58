/**
 * POST /v1/presentations/verify (docs/credentials.md#presentations), the surface: the daemon in
 * this process over loopback HTTP (every answer held to openapi.json by call()), and through
 * inject() for the budget and the signature. Presentations and credentials are made here with
 * test/support/signing.ts (node:crypto, not svc's code), held by and issued by did:keys, so
 * nothing is fetched. What is asserted is the route: the result's shape, the verifier's options
 * reaching the core, a failed check as a 200, and every request svc cannot read as one 400. The
 * verifier's rules peer by peer are in the presentation field tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSigner, signingKeyResolver, verifyCanonicalSignature } from '../../src/core/signing/index.js';
import { PRESENTATION_CHECK_IDS } from '../../src/core/presentations/types.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import type { DaemonHandle } from '../support/daemon.js';
import { call, callOversized, checkContract, expectJson, expectProblem, startInProcessDaemonFor, type Answer } from '../support/daemon-client.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { issueDi, jwtIssuer, peerEd25519Issuer, unsignedCredential as peerCredential } from '../support/peer-issuers.js';
import {
  CHALLENGE as PEER_CHALLENGE,
  DOMAIN as PEER_DOMAIN,
  envelopedCredential,
  issueSdJwtVc,
  peerHolder,
  PRESENTED_AT,
  signDiPresentation,
  unsignedPresentation,
} from '../support/peer-presentations.js';
import { generateTestKey, signEddsaJcs2022 } from '../support/signing.js';

const VC2 = 'https://www.w3.org/ns/credentials/v2';
const CHALLENGE = 'c0ffee-4b1d';
const DOMAIN = 'verifier.example';

const issuerKey = generateTestKey('EdDSA');
const issuerDid = `did:key:${issuerKey.multikey}`;
const issuerVm = `${issuerDid}#${issuerKey.multikey}`;
const holderKey = generateTestKey('EdDSA');
const holderDid = `did:key:${holderKey.multikey}`;
const holderVm = `${holderDid}#${holderKey.multikey}`;

function unsignedCredential(subject = holderDid, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    '@context': [VC2],
    type: ['VerifiableCredential', 'ExampleCredential'],
    issuer: issuerDid,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: { id: subject, name: 'Alice' },
    ...extra,
  };
}

/** An eddsa-jcs-2022 credential of the issuer, about the holder. */
const credential = signEddsaJcs2022(unsignedCredential(), issuerKey, issuerVm);

/** A Data Integrity presentation by the holder (proofPurpose authentication), bound to `binding` (challenge, domain). */
function presentation(credentials: unknown[], binding: Record<string, unknown> = { challenge: CHALLENGE, domain: DOMAIN }): Record<string, unknown> {
  return signEddsaJcs2022(
    { '@context': [VC2], type: ['VerifiablePresentation'], holder: holderDid, verifiableCredential: credentials },
    holderKey,
    holderVm,
    '2026-01-02T00:00:00Z',
    { proofPurpose: 'authentication', ...binding },
  );
}

const vp = presentation([credential]);

const PRESENTATION_MEMBERS = [
  'challenge',
  'checks',
  'credentials',
  'dataModel',
  'domain',
  'errors',
  'format',
  'headline',
  'holder',
  'holderResolution',
  'id',
  'limitations',
  'proof',
  'status',
  'types',
  'valid',
];

let daemon: DaemonHandle;
beforeAll(async () => {
  daemon = await startInProcessDaemonFor(null);
});
afterAll(async () => {
  await daemon?.stop();
});

function post(body: unknown, query = ''): Promise<Answer> {
  return call(`${daemon.url}/v1/presentations/verify${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A 200 PresentationVerification with exactly the documented members, its checks in order. */
async function verified(body: unknown): Promise<any> {
  const result = expectJson(await post(body), 200);
  expect(Object.keys(result).sort()).toEqual(PRESENTATION_MEMBERS);
  expect(result.valid).toBe(result.status === 'VALID');
  expect(result.checks.map((c: { id: string }) => c.id)).toEqual([...PRESENTATION_CHECK_IDS]);
  return result;
}

const statusOf = (result: { checks: Array<{ id: string; status: string }> }, id: string) => result.checks.find((c) => c.id === id)?.status;

describe('POST /v1/presentations/verify', () => {
  it('a Data Integrity presentation, its challenge and domain given → 200 VALID, each credential verified in it', async () => {
    const result = await verified({ presentation: vp, challenge: CHALLENGE, domain: DOMAIN });
    expect(result).toMatchObject({
      status: 'VALID',
      format: 'DATA_INTEGRITY',
      dataModel: '2.0',
      holder: holderDid,
      types: ['VerifiablePresentation'],
      challenge: CHALLENGE,
      domain: [DOMAIN],
      errors: [],
    });
    expect(statusOf(result, 'proof')).toBe('PASS');
    expect(statusOf(result, 'challenge')).toBe('PASS');
    expect(statusOf(result, 'domain')).toBe('PASS');
    expect(result.proof).toMatchObject({ format: 'DATA_INTEGRITY', verificationMethod: holderVm, proofPurpose: 'authentication' });
    expect(result.credentials).toHaveLength(1);
    const [embedded] = result.credentials;
    expect(Object.keys(embedded).sort()).toEqual(['form', 'holderBinding', 'holderBindingDetail', 'index', 'verification']);
    expect(embedded).toMatchObject({ index: 0, form: 'OBJECT', holderBinding: 'BOUND' });
    expect(embedded.verification).toMatchObject({ status: 'VALID', format: 'DATA_INTEGRITY', issuer: issuerDid, subject: holderDid });
  });

  it('the JSON text of the presentation → the same answer; the text with a duplicate member → 200 MALFORMED', async () => {
    const text = JSON.stringify(vp);
    const fromText = await verified({ presentation: text, challenge: CHALLENGE, domain: DOMAIN });
    expect(fromText.status).toBe('VALID');
    const duplicated = text.replace('"type":["VerifiablePresentation"]', '"type":["VerifiablePresentation"],"type":["VerifiablePresentation"]');
    expect(duplicated).not.toBe(text);
    const result = await verified({ presentation: duplicated });
    expect(result.status).toBe('MALFORMED');
    expect(statusOf(result, 'structure')).toBe('FAIL');
  });

  it('challenge and domain not given → their checks SKIP, and the limitations say replay and misdirection were not excluded', async () => {
    const result = await verified({ presentation: vp });
    expect(statusOf(result, 'challenge')).toBe('SKIP');
    expect(statusOf(result, 'domain')).toBe('SKIP');
    expect(result.limitations.join(' ')).toMatch(/challenge/i);
    expect(result.limitations.join(' ')).toMatch(/domain/i);
  });

  it('a challenge given that the proof does not carry, or carries otherwise → 200 INVALID (a result, not a 400)', async () => {
    const unbound = presentation([credential], {});
    const missing = await verified({ presentation: unbound, challenge: CHALLENGE });
    expect(missing.status).toBe('INVALID');
    expect(statusOf(missing, 'challenge')).toBe('FAIL');
    const wrong = await verified({ presentation: vp, challenge: 'another-challenge', domain: DOMAIN });
    expect(wrong.status).toBe('INVALID');
    expect(statusOf(wrong, 'challenge')).toBe('FAIL');
    const elsewhere = await verified({ presentation: vp, challenge: CHALLENGE, domain: 'other.example' });
    expect(elsewhere.status).toBe('INVALID');
    expect(statusOf(elsewhere, 'domain')).toBe('FAIL');
  });

  it('a tampered presentation → 200 INVALID, its proof FAIL', async () => {
    const result = await verified({
      presentation: { ...vp, holder: holderDid, type: ['VerifiablePresentation', 'Other'] },
      challenge: CHALLENGE,
      domain: DOMAIN,
    });
    expect(result.status).toBe('INVALID');
    expect(statusOf(result, 'proof')).toBe('FAIL');
  });

  it('a presentation signed over a credential that does not verify → 200 INVALID, the credential INVALID in it', async () => {
    const tampered = { ...credential, credentialSubject: { id: holderDid, name: 'Mallory' } };
    const result = await verified({ presentation: presentation([credential, tampered]), challenge: CHALLENGE, domain: DOMAIN });
    expect(result.status).toBe('INVALID');
    expect(statusOf(result, 'proof')).toBe('PASS');
    expect(result.credentials.map((c: any) => [c.index, c.verification.status])).toEqual([
      [0, 'VALID'],
      [1, 'INVALID'],
    ]);
  });

  it('requireHolderBinding: a credential about someone else is reported (not bound), and INVALID only when asked', async () => {
    const aboutBob = signEddsaJcs2022(unsignedCredential('did:example:bob'), issuerKey, issuerVm);
    const body = { presentation: presentation([aboutBob]), challenge: CHALLENGE, domain: DOMAIN };
    const reported = await verified(body);
    expect(reported.credentials[0].holderBinding).toBe('NOT_BOUND');
    expect(statusOf(reported, 'holderBinding')).toBe('WARN');
    const required = await verified({ ...body, requireHolderBinding: true });
    expect(required.status).toBe('INVALID');
    expect(statusOf(required, 'holderBinding')).toBe('FAIL');
  });

  describe('requests svc cannot read: one 400 naming the member, 413', () => {
    it('no "presentation", or one that is neither an object nor a string → 400 INVALID_REQUEST naming it', async () => {
      expect(expectProblem(await post({}), 400, 'INVALID_REQUEST').detail).toContain('"presentation"');
      expect(expectProblem(await post({ challenge: CHALLENGE }), 400, 'INVALID_REQUEST').detail).toContain('"presentation"');
      for (const value of [42, null, true, [vp]]) {
        expect(expectProblem(await post({ presentation: value }), 400, 'INVALID_REQUEST').detail).toContain('"presentation"');
      }
    });

    it('an option of the wrong shape → 400 naming it', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ challenge: '' }, '"challenge"'],
        [{ challenge: 42 }, '"challenge"'],
        [{ domain: ['a.example'] }, '"domain"'],
        [{ expectedAudience: '' }, '"expectedAudience"'],
        [{ expectedNonce: 7 }, '"expectedNonce"'],
        [{ trustedIssuers: issuerDid }, '"trustedIssuers"'],
        [{ trustedIssuers: Array.from({ length: 101 }, (_, i) => `did:example:${i}`) }, '"trustedIssuers"'],
        [{ trustedIssuers: [''] }, '"trustedIssuers'],
        [{ requireHolderBinding: 'yes' }, '"requireHolderBinding"'],
      ];
      for (const [options, member] of cases) {
        const problem = expectProblem(await post({ presentation: vp, ...options }), 400, 'INVALID_REQUEST');
        expect(problem.detail, JSON.stringify(options)).toContain(member);
      }
    });

    it('an unknown member (a /v1/credentials/verify body included) → 400 naming it', async () => {
      expect(expectProblem(await post({ presentation: vp, nonce: CHALLENGE }), 400, 'INVALID_REQUEST').detail).toContain('"nonce"');
      expect(expectProblem(await post({ credential: credential }), 400, 'INVALID_REQUEST').detail).toMatch(/"credential"|"presentation"/);
    });

    it('a duplicate member in the HTTP body → 400 INVALID_REQUEST; a body that is not a JSON object → 400', async () => {
      const one = JSON.stringify(vp);
      expectProblem(await post(`{"presentation":${one},"presentation":${one}}`), 400, 'INVALID_REQUEST');
      expectProblem(await post(`{"presentation":${one},"challenge":"a","challenge":"b"}`), 400, 'INVALID_REQUEST');
      // Inside the presentation object too: the body parser refuses it before anything reads it.
      expectProblem(await post(`{"presentation":${one.replace('"holder":', '"holder":"did:example:x","holder":')}}`), 400, 'INVALID_REQUEST');
      expectProblem(await post('[1]'), 400, 'INVALID_REQUEST');
      expectProblem(await post('{"presentation": {'), 400, 'INVALID_REQUEST');
    });

    it('an unknown query option → 400 INVALID_OPTIONS; signed=true on a daemon without a key → 400 INVALID_OPTIONS', async () => {
      expectProblem(await post({ presentation: vp }, '?verbose=true'), 400, 'INVALID_OPTIONS');
      expect(expectProblem(await post({ presentation: vp }, '?signed=true'), 400, 'INVALID_OPTIONS').detail).toContain('SVC_SIGNING_KEY');
    });

    it('a body over 512 KiB → 413 PAYLOAD_TOO_LARGE', async () => {
      const body = JSON.stringify({ presentation: { ...vp, padding: 'x'.repeat(600 * 1024) } });
      expect(expectProblem(await callOversized(`${daemon.url}/v1/presentations/verify`, body), 413, 'PAYLOAD_TOO_LARGE').detail).toContain('512 KiB');
    });
  });

  it('is in openapi.json: operationId verifyPresentation, the intensive budget, PresentationVerification', async () => {
    const doc = expectJson(await call(`${daemon.url}/openapi.json`), 200) as {
      paths: Record<string, Record<string, any>>;
      components: { schemas: Record<string, unknown> };
    };
    const operation = doc.paths['/v1/presentations/verify']?.['post'];
    expect(operation).toMatchObject({ operationId: 'verifyPresentation', 'x-svc-budget': 'intensive' });
    expect(operation.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PresentationVerification' });
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['PresentationVerification', 'EmbeddedCredential', 'PresentationCheck']));
  });
});

describe('POST /v1/presentations/verify in process: the budget, the signature, the options that reach the credentials', () => {
  let db: TestDatabase;
  let limited: InjectedApp;
  let signing: InjectedApp;
  /** At the peer presentations' time (test/support/peer-presentations.ts): their KB-JWTs are fresh. */
  let presented: InjectedApp;
  const clock = fixedClock('2026-03-01T00:00:00.000Z');
  const signer = createSigner(generateTestKey('EdDSA').privateKey.export({ format: 'jwk' }));

  beforeAll(async () => {
    db = await sqliteDatabase('svc-presentations');
    limited = await injectedApp(db.target, { profile: 'public', limits: { intensivePerMinute: 1 }, clock });
    signing = await injectedApp(db.target, { signer, clock });
    presented = await injectedApp(db.target, { clock: fixedClock(PRESENTED_AT) });
  });
  afterAll(async () => {
    await limited?.close();
    await signing?.close();
    await presented?.close();
    await db?.done();
  });

  const injected = async (app: InjectedApp, url: string, body: unknown) => {
    const res = await app.anonymous('POST', url, body);
    checkContract('POST', `http://127.0.0.1${url}`, { status: res.statusCode, header: (name) => String(res.headers[name] ?? ''), text: res.body });
    return res;
  };

  it('takes the intensive budget, charged before the body is read: past it, 429 RATE_LIMITED even for a body svc cannot read', async () => {
    expect((await injected(limited, '/v1/presentations/verify', { presentation: vp })).statusCode).toBe(200);
    const refused = await injected(limited, '/v1/presentations/verify', '{"presentation": {');
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body).code).toBe('RATE_LIMITED');
  });

  describe('expectedAudience and expectedNonce reach each SD-JWT VC (its KB-JWT) and no other credential; trustedIssuers each issuer', () => {
    const sdIssuer = jwtIssuer('EdDSA', new Uint8Array(32).fill(41));
    let body: Record<string, unknown>;
    let diIssuerDid: string;

    beforeAll(async () => {
      const holder = await peerHolder(42);
      const diIssuer = await peerEd25519Issuer(43);
      diIssuerDid = diIssuer.did;
      // Peer-made: an SD-JWT VC bound to the holder's key (KB-JWT nonce PEER_CHALLENGE, aud PEER_DOMAIN), a Data Integrity credential about the holder.
      const sdJwt = await issueSdJwtVc(sdIssuer, holder);
      const di = await issueDi(peerCredential(diIssuer.did, { credentialSubject: { id: holder.did, name: 'Erika' } }), diIssuer);
      const vp = await signDiPresentation(unsignedPresentation(holder.did, [di, envelopedCredential('application/dc+sd-jwt', sdJwt)]), holder);
      body = { presentation: vp, challenge: PEER_CHALLENGE, domain: PEER_DOMAIN };
    });

    const verified = async (extra: Record<string, unknown>) => {
      const res = await injected(presented, '/v1/presentations/verify', { ...body, ...extra });
      expect(res.statusCode, res.body).toBe(200);
      return JSON.parse(res.body) as {
        status: string;
        credentials: Array<{ form: string; verification: { status: string; checks: Array<{ id: string; status: string }>; issuerTrust?: { status: string } } }>;
      };
    };
    const credentialCheck = (result: Awaited<ReturnType<typeof verified>>, index: number, id: string) =>
      result.credentials[index]!.verification.checks.find((c) => c.id === id)?.status;

    it('the KB-JWT nonce and audience given → VALID: checked on the SD-JWT VC, not asked of the Data Integrity credential', async () => {
      const result = await verified({ expectedAudience: PEER_DOMAIN, expectedNonce: PEER_CHALLENGE });
      expect(result.credentials.map((c) => [c.form, c.verification.status])).toEqual([
        ['OBJECT', 'VALID'],
        ['ENVELOPED', 'VALID'],
      ]);
      expect(credentialCheck(result, 1, 'kb.nonce')).toBe('PASS');
      expect(credentialCheck(result, 0, 'kb.nonce')).toBe('SKIP');
      expect(credentialCheck(result, 0, 'jwt.aud')).toBe('SKIP');
      expect(result.status).toBe('VALID');
    });

    it('another nonce → the SD-JWT VC INVALID (kb.nonce FAIL), and the presentation with it', async () => {
      const result = await verified({ expectedAudience: PEER_DOMAIN, expectedNonce: 'another-exchange' });
      expect(credentialCheck(result, 1, 'kb.nonce')).toBe('FAIL');
      expect(result.credentials.map((c) => c.verification.status)).toEqual(['VALID', 'INVALID']);
      expect(result.status).toBe('INVALID');
    });

    it('trustedIssuers → each credential its issuerTrust (PASS for the listed issuer, FAIL for the other), statuses unchanged', async () => {
      const result = await verified({ trustedIssuers: [sdIssuer.did] });
      expect(result.credentials.map((c) => c.verification.issuerTrust?.status)).toEqual(['FAIL', 'PASS']);
      expect(result.status).toBe('VALID');
      const both = await verified({ trustedIssuers: [diIssuerDid, sdIssuer.did] });
      expect(both.credentials.map((c) => c.verification.issuerTrust?.status)).toEqual(['PASS', 'PASS']);
      // Without the member, no credential carries issuerTrust.
      expect((await verified({})).credentials.map((c) => 'issuerTrust' in c.verification)).toEqual([false, false]);
    });

    it('a trustedIssuers entry that is not one → 400 INVALID_REQUEST naming it, before anything is verified', async () => {
      const res = await injected(presented, '/v1/presentations/verify', { ...body, trustedIssuers: [sdIssuer.did, 'did:web:*example.com'] });
      expect(res.statusCode).toBe(400);
      const problem = JSON.parse(res.body) as { code: string; detail: string };
      expect(problem.code).toBe('INVALID_REQUEST');
      expect(problem.detail).toMatch(/^"trustedIssuers": trusted issuer 2 \("did:web:\*example\.com"\) is refused/);
    });
  });

  it('signed=true → the same result, signed over its RFC 8785 form by the daemon key', async () => {
    const res = await injected(signing, '/v1/presentations/verify?signed=true', { presentation: vp, challenge: CHALLENGE, domain: DOMAIN });
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body);
    expect(body.status).toBe('VALID');
    const header = String(res.headers['svc-signature'] ?? '');
    expect(header).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
    const check = await verifyCanonicalSignature(body, header, {
      resolveKey: signingKeyResolver(testRuntime(clock)),
      typ: 'svc-result+jws',
      expectedSigner: signer.identity.did,
    });
    expect(check).toMatchObject({ verified: true, reason: 'VALID' });
  });
});
