/**
 * Credentials made during the run by independent libraries verify with svc:
 * @digitalbazaar eddsa-jcs-2022 and ecdsa-jcs-2019 cryptosuites, `jose` vc+jwt (EdDSA, ES256,
 * did-jwt for ES256K), `did-jwt-vc` VC-JWT 1.1 — all with did:key issuers, resolved by svc's
 * core. One byte changed in what was signed makes each INVALID; the peers agree on both.
 */
import { describe, expect, it } from 'vitest';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import {
  issueDi,
  issueVcJwt,
  issueVcJwt11,
  jwtIssuer,
  peerEd25519Issuer,
  peerP256Issuer,
  peerVerifyDi,
  peerVerifyVcJwt,
  peerVerifyVcJwt11,
  unsignedCredential,
  unsignedCredential11,
  type Json,
} from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const runtime = () => testRuntime(fixedClock('2025-06-01T00:00:00Z'));

function statuses(result: CredentialVerification): Record<string, string> {
  return Object.fromEntries(result.checks.map((c) => [c.id, c.status]));
}

/** The token with its payload's first "Alice" changed by one byte, the signature kept. */
function tamperPayload(token: string): string {
  const [h, p, s] = token.split('.') as [string, string, string];
  const text = Buffer.from(p, 'base64url').toString('utf8');
  if (!text.includes('Alice')) throw new Error('nothing to tamper with');
  return `${h}.${Buffer.from(text.replace('Alice', 'Alicf')).toString('base64url')}.${s}`;
}

function tamperClaim(credential: Json): Json {
  const copy = structuredClone(credential);
  (copy['credentialSubject'] as Json)['name'] = 'Alicf';
  return copy;
}

describe('Data Integrity credentials issued by @digitalbazaar/vc', () => {
  for (const [label, make] of [
    ['eddsa-jcs-2022 (Ed25519)', () => peerEd25519Issuer(7)],
    ['ecdsa-jcs-2019 (P-256)', () => peerP256Issuer()],
  ] as const) {
    it(`${label} with a did:key issuer is VALID; one changed byte is INVALID`, async () => {
      const issuer = await make();
      const credential = await issueDi(unsignedCredential(issuer.did), issuer);
      expect(await peerVerifyDi(credential)).toBe(true);
      const result = await verifyCredential(credential, { runtime: runtime() });
      expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
      expect(result.valid).toBe(true);
      expect(statuses(result)).toEqual({
        structure: 'PASS',
        issuer: 'PASS',
        proof: 'PASS',
        validity: 'PASS',
        status: 'SKIP',
        'jwt.aud': 'SKIP',
        'kb.nonce': 'SKIP',
      });
      expect(result.proof).toMatchObject({
        format: 'DATA_INTEGRITY',
        suite: issuer.cryptosuite,
        verificationMethod: issuer.verificationMethod,
        keyCurve: issuer.curve,
      });
      expect(result.issuerResolution).toMatchObject({ did: issuer.did, outcome: 'RESOLVED', problem: null });
      expect(result.errors).toEqual([]);

      const tampered = tamperClaim(credential);
      expect(await peerVerifyDi(tampered)).toBe(false);
      const bad = await verifyCredential(tampered, { runtime: runtime() });
      expect(bad.status).toBe('INVALID');
      expect(bad.errors).toHaveLength(1);
    });
  }

  it('the same credential as raw JSON text verifies alike', async () => {
    const issuer = await peerEd25519Issuer(8);
    const credential = await issueDi(unsignedCredential(issuer.did), issuer);
    expect((await verifyCredential(JSON.stringify(credential, null, 2), { runtime: runtime() })).status).toBe('VALID');
  });

  it('a key of another DID than the issuer is INVALID (issuer FAIL), and so is a proof for authentication', async () => {
    const signer = await peerEd25519Issuer(9);
    const other = await peerEd25519Issuer(10);
    const credential = await issueDi(unsignedCredential(other.did), signer, { bare: true });
    const result = await verifyCredential(credential, { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ proof: 'PASS', issuer: 'FAIL' });

    const issuer = await peerEd25519Issuer(11);
    const signed = await issueDi(unsignedCredential(issuer.did), issuer);
    (signed['proof'] as Json)['proofPurpose'] = 'authentication';
    const purpose = await verifyCredential(signed, { runtime: runtime() });
    expect(purpose.status).toBe('INVALID');
    expect(purpose.checks.find((c) => c.id === 'proof')!.detail).toContain('assertionMethod');
  });

  it('validity dates: expired and not yet valid', async () => {
    const issuer = await peerEd25519Issuer(12);
    const expired = await issueDi(unsignedCredential(issuer.did, { validUntil: '2025-02-01T00:00:00Z' }), issuer);
    expect((await verifyCredential(expired, { runtime: runtime() })).status).toBe('EXPIRED');
    const future = await issueDi(unsignedCredential(issuer.did, { validFrom: '2030-01-01T00:00:00Z' }), issuer);
    expect((await verifyCredential(future, { runtime: runtime() })).status).toBe('NOT_YET_VALID');
  });

  it('with an expected audience a Data Integrity credential is INDETERMINATE (no audience to establish)', async () => {
    const issuer = await peerEd25519Issuer(13);
    const credential = await issueDi(unsignedCredential(issuer.did), issuer);
    const result = await verifyCredential(credential, { runtime: runtime(), expectedAudience: 'did:example:verifier' });
    expect(result.status).toBe('INDETERMINATE');
    expect(statuses(result)['jwt.aud']).toBe('INDETERMINATE');
  });
});

describe('vc+jwt credentials issued with jose (EdDSA, ES256) and did-jwt (ES256K)', () => {
  for (const alg of ['EdDSA', 'ES256', 'ES256K'] as const) {
    it(`${alg}: VALID; one changed byte is INVALID`, async () => {
      const issuer = jwtIssuer(alg);
      const token = await issueVcJwt(unsignedCredential(issuer.did), issuer);
      expect(await peerVerifyVcJwt(token)).toBe(true);
      const result = await verifyCredential(token, { runtime: runtime() });
      expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
      expect(result.format).toBe('VC_JOSE_COSE');
      expect(result.proof).toMatchObject({ format: 'VC_JOSE_COSE', suite: alg, verificationMethod: issuer.kid });

      const tampered = tamperPayload(token);
      expect(await peerVerifyVcJwt(tampered)).toBe(false);
      expect((await verifyCredential(tampered, { runtime: runtime() })).status).toBe('INVALID');
    });
  }

  it('audience: matching → jwt.aud PASS, mismatching or missing → INVALID, unchecked → SKIP with a limitation', async () => {
    const issuer = jwtIssuer('EdDSA');
    const withAud = await issueVcJwt({ ...unsignedCredential(issuer.did), aud: ['did:example:verifier', 'did:example:other'] }, issuer);
    const match = await verifyCredential(withAud, { runtime: runtime(), expectedAudience: 'did:example:verifier' });
    expect(match.status).toBe('VALID');
    expect(statuses(match)['jwt.aud']).toBe('PASS');
    expect((await verifyCredential(withAud, { runtime: runtime(), expectedAudience: 'did:example:nobody' })).status).toBe('INVALID');
    const noAud = await issueVcJwt(unsignedCredential(issuer.did), issuer);
    expect((await verifyCredential(noAud, { runtime: runtime(), expectedAudience: 'did:example:verifier' })).status).toBe('INVALID');
    const unchecked = await verifyCredential(withAud, { runtime: runtime() });
    expect(statuses(unchecked)['jwt.aud']).toBe('SKIP');
    expect(unchecked.limitations).toContain('The audience was not verified: no expected audience was given.');
  });

  it('exp and nbf are constraints of their own, whatever the credential dates say', async () => {
    const issuer = jwtIssuer('EdDSA');
    const now = Date.parse('2025-06-01T00:00:00Z') / 1000;
    const expired = await issueVcJwt({ ...unsignedCredential(issuer.did, { validUntil: '2030-01-01T00:00:00Z' }), exp: now - 3600 }, issuer);
    const result = await verifyCredential(expired, { runtime: runtime() });
    expect(result.status).toBe('EXPIRED');
    expect(result.checks.find((c) => c.id === 'validity')!.detail).toContain('JWT exp');
    const early = await issueVcJwt({ ...unsignedCredential(issuer.did), nbf: now + 3600 }, issuer);
    expect((await verifyCredential(early, { runtime: runtime() })).status).toBe('NOT_YET_VALID');
  });

  it('an iss that conflicts with the issuer, a vc claim, or a typ other than vc+jwt is INVALID', async () => {
    const issuer = jwtIssuer('EdDSA');
    const conflict = await issueVcJwt({ ...unsignedCredential(issuer.did), iss: 'did:example:someone-else' }, issuer);
    expect((await verifyCredential(conflict, { runtime: runtime() })).status).toBe('INVALID');
    const vcClaim = await issueVcJwt({ ...unsignedCredential(issuer.did), vc: { a: 1 } }, issuer);
    expect((await verifyCredential(vcClaim, { runtime: runtime() })).status).toBe('INVALID');
    const typed = await issueVcJwt(unsignedCredential(issuer.did), issuer, { typ: 'JWT' });
    expect((await verifyCredential(typed, { runtime: runtime() })).status).toBe('INVALID');
  });
});

describe('VC-JWT 1.1 credentials issued with did-jwt-vc', () => {
  it('VALID (no kid: the issuer key is found under assertionMethod); one changed byte is INVALID', async () => {
    const issuer = jwtIssuer('EdDSA');
    const token = await issueVcJwt11(unsignedCredential11(), issuer, { sub: 'did:example:subject' });
    expect(await peerVerifyVcJwt11(token)).toBe(true);
    const result = await verifyCredential(token, { runtime: runtime() });
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(result).toMatchObject({
      format: 'VC_JWT_1_1',
      dataModel: '1.1',
      issuer: issuer.did,
      subject: 'did:example:subject',
      validFrom: '2025-01-01T00:00:00Z',
    });
    expect(result.proof).toMatchObject({ format: 'VC_JWT_1_1', suite: 'EdDSA', verificationMethod: issuer.kid, keyCurve: 'Ed25519' });

    const tampered = tamperPayload(token);
    expect(await peerVerifyVcJwt11(tampered)).toBe(false);
    expect((await verifyCredential(tampered, { runtime: runtime() })).status).toBe('INVALID');
  });

  it('registered claims that conflict with the vc claim are INVALID', async () => {
    const issuer = jwtIssuer('EdDSA');
    const token = await issueVcJwt11(unsignedCredential11({ issuanceDate: '2024-01-01T00:00:00Z' }), issuer);
    const result = await verifyCredential(token, { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(result.checks.find((c) => c.id === 'structure')!.detail).toContain('"nbf"');
    const sub = await issueVcJwt11(unsignedCredential11({ credentialSubject: { id: 'did:example:a', name: 'Alice' } }), issuer, { sub: 'did:example:b' });
    expect((await verifyCredential(sub, { runtime: runtime() })).status).toBe('INVALID');
  });

  it('an expired exp is EXPIRED', async () => {
    const issuer = jwtIssuer('EdDSA');
    const token = await issueVcJwt11(unsignedCredential11(), issuer, { exp: Math.floor(Date.parse('2025-02-01T00:00:00Z') / 1000) });
    expect((await verifyCredential(token, { runtime: runtime() })).status).toBe('EXPIRED');
  });
});
