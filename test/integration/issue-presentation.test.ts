/**
 * Presentations signed by svc (core/issue, what `svc sign-presentation` runs) verify with
 * independent peers: @digitalbazaar/vc verifyPresentation (Data Integrity, proofPurpose
 * authentication, the challenge and domain it is given), jose (vp+jwt: `nonce`, `aud`, `exp`) and
 * @sd-jwt/sd-jwt-vc (an SD-JWT VC with its KB-JWT); the credentials they carry verify with svc.
 * Another challenge or domain fails with the peer too. What svc refuses to present is refused in
 * one line.
 */
import { createHash, createPublicKey, verify as cryptoVerify } from 'node:crypto';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as ecdsaJcs from '@digitalbazaar/ecdsa-jcs-2019-cryptosuite';
import * as eddsaJcs from '@digitalbazaar/eddsa-jcs-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import * as jose from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { signCredential } from '../../src/core/issue/credential.js';
import { readIssuingKey, type IssuingKey } from '../../src/core/issue/key.js';
import { PRESENTATION_TTL_SECONDS, signPresentation, type SignPresentationOptions } from '../../src/core/issue/presentation.js';
import { generateSigningKey, type KeygenCurve } from '../../src/core/keys/generate.js';
import { ProblemError } from '../../src/core/problems.js';
import { didKeyJwk, issueVcJwt11, jwtIssuer, offlineDocumentLoader, VC2_CONTEXT, type Json } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const SIGNED_AT = new Date('2025-06-01T12:00:00Z');
const NOW_S = Math.floor(SIGNED_AT.getTime() / 1000);
const CHALLENGE = 'c-8Jt2mQ';
const DOMAIN = 'https://verifier.example';
const runtime = () => testRuntime(fixedClock('2025-06-01T12:01:00Z'));

const keys = new Map<string, IssuingKey>();
beforeAll(async () => {
  for (const [name, curve] of [
    ['issuer', 'Ed25519'],
    ['holder', 'Ed25519'],
    ['holder-p256', 'P-256'],
    ['holder-k1', 'secp256k1'],
  ] as const) {
    keys.set(name, readIssuingKey((await generateSigningKey(curve as KeygenCurve)).privateJwk));
  }
});
const key = (name: string): IssuingKey => keys.get(name)!;

function credential(subject: string): Json {
  return {
    '@context': [VC2_CONTEXT],
    type: ['VerifiableCredential'],
    validFrom: '2025-01-01T00:00:00Z',
    credentialSubject: { id: subject, name: 'Alice' },
  };
}

async function diCredential(holder: IssuingKey): Promise<Json> {
  return JSON.parse((await signCredential(credential(holder.didKey), { key: key('issuer'), format: 'di-eddsa-jcs', now: SIGNED_AT })).text) as Json;
}

async function jwtCredential(holder: IssuingKey): Promise<string> {
  return (await signCredential(credential(holder.didKey), { key: key('issuer'), format: 'vc+jwt', now: SIGNED_AT })).text.trim();
}

async function sdJwtCredential(holder: IssuingKey | null): Promise<string> {
  const claims = { vct: 'https://credentials.example/identity', given_name: 'Erika', family_name: 'Mustermann' };
  const options = { key: key('issuer'), format: 'sd-jwt' as const, now: SIGNED_AT, disclose: ['/given_name'] };
  return (await signCredential(claims, holder === null ? options : { ...options, holderKey: { ...holder.publicJwk } })).text.trim();
}

function present(credentials: unknown[], holder: IssuingKey, extra: Partial<SignPresentationOptions> = {}) {
  return signPresentation(credentials, { key: holder, challenge: CHALLENGE, domain: DOMAIN, now: SIGNED_AT, ...extra });
}

/** @digitalbazaar/vc's presentation verifier (its `verify`; peer-libs.d.ts declares the credential side only). */
type VerifyPresentation = (options: Record<string, unknown>) => Promise<{ verified: boolean; error?: unknown }>;
const verifyPresentation = (vc as unknown as { verify: VerifyPresentation }).verify;

async function peerVerifyDiPresentation(presentation: Json, challenge = CHALLENGE, domain = DOMAIN): Promise<boolean> {
  try {
    const result = await verifyPresentation({
      presentation: structuredClone(presentation),
      suite: [
        new DataIntegrityProof({ cryptosuite: eddsaJcs.createVerifyCryptosuite() }),
        new DataIntegrityProof({ cryptosuite: ecdsaJcs.createVerifyCryptosuite() }),
      ],
      documentLoader: offlineDocumentLoader,
      challenge,
      domain,
    });
    return result.verified;
  } catch {
    return false;
  }
}

function refusal(run: () => unknown): ProblemError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    return err as ProblemError;
  }
  throw new Error('signed what it should refuse');
}

describe('Data Integrity presentations: @digitalbazaar/vc verifyPresentation accepts them with their challenge and domain', () => {
  for (const [holderName, format, suite] of [
    ['holder', 'di-eddsa-jcs', 'eddsa-jcs-2022'],
    ['holder-p256', 'di-ecdsa-jcs', 'ecdsa-jcs-2019'],
  ] as const) {
    it(`${format}: proofPurpose authentication, challenge, domain; the credentials inside verify too`, async () => {
      const holder = key(holderName);
      const carried = [await diCredential(holder), await diCredential(holder)];
      const signed = present(carried, holder, { format });
      const vp = JSON.parse(signed.text) as Json;
      expect(vp).toMatchObject({ '@context': [VC2_CONTEXT], type: ['VerifiablePresentation'], holder: holder.didKey, verifiableCredential: carried });
      expect(vp['proof']).toMatchObject({
        cryptosuite: suite,
        proofPurpose: 'authentication',
        challenge: CHALLENGE,
        domain: DOMAIN,
        created: '2025-06-01T12:00:00Z',
        verificationMethod: `${holder.didKey}#${holder.didKey.slice(8)}`,
      });
      expect(await peerVerifyDiPresentation(vp)).toBe(true);
      expect(await peerVerifyDiPresentation(vp, 'another-challenge')).toBe(false);
      expect(await peerVerifyDiPresentation(vp, CHALLENGE, 'https://other.example')).toBe(false);
      const changed = { ...vp, holder: key('holder-k1').didKey };
      expect(await peerVerifyDiPresentation(changed)).toBe(false);
      for (const c of carried) expect((await verifyCredential(c, { runtime: runtime() })).status).toBe('VALID');
    });
  }
});

describe('vp+jwt: jose verifies it, with nonce (the challenge), aud (the domain) and a short exp', () => {
  for (const holderName of ['holder', 'holder-p256'] as const) {
    it(`${holderName}: credentials enveloped as data: URLs; a DI credential carried as it is`, async () => {
      const holder = key(holderName);
      const token = await jwtCredential(holder);
      const di = await diCredential(holder);
      const signed = present([token, JSON.stringify(di)], holder);
      expect(signed.format).toBe('vp+jwt');
      const vp = signed.text.trim();
      const publicKey = await jose.importJWK(didKeyJwk(holder.didKey), holder.alg);
      const { payload, protectedHeader } = await jose.jwtVerify(vp, publicKey, {
        audience: DOMAIN,
        typ: 'vp+jwt',
        currentDate: new Date(SIGNED_AT.getTime() + 60_000),
      });
      expect(protectedHeader).toEqual({ alg: holder.alg, typ: 'vp+jwt', kid: signed.kid });
      expect(payload).toMatchObject({
        '@context': [VC2_CONTEXT],
        type: ['VerifiablePresentation'],
        holder: holder.didKey,
        nonce: CHALLENGE,
        aud: DOMAIN,
        iat: NOW_S,
        exp: NOW_S + PRESENTATION_TTL_SECONDS,
      });
      const [enveloped, object] = payload['verifiableCredential'] as Json[];
      expect(enveloped).toEqual({ '@context': VC2_CONTEXT, id: `data:application/vc+jwt,${token}`, type: 'EnvelopedVerifiableCredential' });
      expect(object).toEqual(di);
      expect((await verifyCredential(String(enveloped!['id']).slice('data:application/vc+jwt,'.length), { runtime: runtime() })).status).toBe('VALID');
      // Another audience, or past its exp: jose refuses.
      await expect(jose.jwtVerify(vp, publicKey, { audience: 'https://other.example', currentDate: SIGNED_AT })).rejects.toThrow(/aud/);
      await expect(jose.jwtVerify(vp, publicKey, { currentDate: new Date(SIGNED_AT.getTime() + 3600_000) })).rejects.toThrow(/exp/);
    });
  }

  it('secp256k1 holders sign ES256K (did-jwt verifies it with the key of the kid)', async () => {
    const holder = key('holder-k1');
    const signed = present([await jwtCredential(holder)], holder);
    const { verifyJWS } = await import('did-jwt');
    const jwk = didKeyJwk(holder.didKey);
    expect(() =>
      verifyJWS(signed.text.trim(), { id: signed.kid!, type: 'JsonWebKey2020', controller: holder.didKey, publicKeyJwk: jwk } as Parameters<
        typeof verifyJWS
      >[1]),
    ).not.toThrow();
  });
});

const hasher = (data: string | ArrayBuffer): Uint8Array =>
  new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );

function peerSdJwt(): SDJwtVcInstance {
  const verifyWith = (jwk: jose.JWK, data: string, sig: string): boolean =>
    jwk.kty === 'OKP'
      ? cryptoVerify(null, Buffer.from(data), createPublicKey({ key: jwk as never, format: 'jwk' }), Buffer.from(sig, 'base64url'))
      : cryptoVerify(
          'sha256',
          Buffer.from(data),
          { key: createPublicKey({ key: jwk as never, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
          Buffer.from(sig, 'base64url'),
        );
  return new SDJwtVcInstance({
    hasher,
    hashAlg: 'sha-256',
    verifier: (data, sig) => {
      const { kid } = JSON.parse(Buffer.from(data.split('.')[0]!, 'base64url').toString('utf8')) as { kid: string };
      return verifyWith(didKeyJwk(kid.split('#')[0]!), data, sig);
    },
    kbVerifier: (data, sig, payload) => verifyWith((payload['cnf'] as { jwk: jose.JWK }).jwk, data, sig),
  });
}

describe('an SD-JWT VC presented the SD-JWT way: a KB-JWT by the key its cnf binds', () => {
  for (const holderName of ['holder', 'holder-p256', 'holder-k1'] as const) {
    it(`${holderName}: the default for a lone SD-JWT VC; @sd-jwt/sd-jwt-vc and svc accept it`, async () => {
      const holder = key(holderName);
      const issued = await sdJwtCredential(holder);
      const signed = present([issued], holder);
      expect(signed).toMatchObject({ format: 'sd-jwt', holder: null, kid: null });
      const presented = signed.text.trim();
      expect(presented.startsWith(issued)).toBe(true);
      const kb = presented.slice(issued.length);
      expect(jose.decodeProtectedHeader(kb)).toEqual({ alg: holder.alg, typ: 'kb+jwt' });
      expect(jose.decodeJwt(kb)).toMatchObject({ nonce: CHALLENGE, aud: DOMAIN, iat: NOW_S });
      const peer = await peerSdJwt().verify(presented, { currentDate: NOW_S + 60, keyBindingNonce: CHALLENGE });
      expect(peer.payload).toMatchObject({ given_name: 'Erika' });
      await expect(peerSdJwt().verify(presented, { currentDate: NOW_S + 60, keyBindingNonce: 'another' })).rejects.toThrow();
      const result = await verifyCredential(presented, { runtime: runtime(), expectedAudience: DOMAIN });
      expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
      expect(result.disclosures?.keyBinding).toMatchObject({ status: 'PASS', nonce: CHALLENGE, audience: DOMAIN });
    });
  }

  it('inside a vp+jwt: enveloped as data:application/dc+sd-jwt, with its KB-JWT (bound) or without (no cnf)', async () => {
    const holder = key('holder');
    const bound = await sdJwtCredential(holder);
    const bearer = await sdJwtCredential(null);
    const signed = present([bound, bearer], holder);
    expect(signed.format).toBe('vp+jwt');
    expect(signed.notes).toEqual(['Credential 2 (an SD-JWT VC) binds no holder key: it is carried without a KB-JWT.']);
    const [first, second] = jose.decodeJwt(signed.text.trim())['verifiableCredential'] as Json[];
    const firstText = String(first!['id']).slice('data:application/dc+sd-jwt,'.length);
    expect(firstText.startsWith(`${bound}`)).toBe(true);
    expect(firstText.length).toBeGreaterThan(bound.length);
    expect(second!['id']).toBe(`data:application/dc+sd-jwt,${bearer}`);
    expect((await verifyCredential(firstText, { runtime: runtime(), expectedAudience: DOMAIN })).status).toBe('VALID');
  });
});

describe('refused, in one line', () => {
  it('no challenge; an SD-JWT VC without a domain, bound to another key, or already presented', async () => {
    const holder = key('holder');
    const di = await diCredential(holder);
    expect(refusal(() => signPresentation([di], { key: holder, now: SIGNED_AT })).detail).toMatch(/--challenge is required/);
    const issued = await sdJwtCredential(holder);
    const bearerSdJwt = await sdJwtCredential(null);
    expect(refusal(() => present([issued], holder, { domain: undefined })).detail).toMatch(/--domain is required/);
    const other = refusal(() => present([issued], key('holder-p256')));
    expect(other).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(other.detail).toMatch(/binds another key in "cnf.jwk"/);
    const presented = present([issued], holder).text.trim();
    expect(refusal(() => present([presented], holder)).detail).toMatch(/already ends in a KB-JWT/);
    expect(refusal(() => present([issued], holder, { holder: holder.didKey })).detail).toMatch(/--holder and --kid have no place/);
    const bearer = refusal(() => present([bearerSdJwt], holder));
    expect(bearer).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(bearer.detail).toMatch(/^Credential 1 \(an SD-JWT VC\) binds no holder key \("cnf"\)/);
  });

  it('a credential without proof, a VC-JWT 1.1, a presentation, a did:web holder without --kid, a secp256k1 Data Integrity proof', async () => {
    const holder = key('holder');
    const unsigned = refusal(() => present([JSON.stringify(credential(holder.didKey))], holder));
    expect(unsigned).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(unsigned.detail).toBe('Credential 1 has no proof: sign it first (svc sign-credential).');
    const legacy = await issueVcJwt11(
      { '@context': ['https://www.w3.org/2018/credentials/v1'], type: ['VerifiableCredential'], credentialSubject: { name: 'A' } },
      jwtIssuer('EdDSA'),
    );
    expect(refusal(() => present([legacy], holder)).detail).toMatch(/Credential 1 is a VC-JWT 1.1 credential/);
    const vp = present([await jwtCredential(holder)], holder).text.trim();
    expect(refusal(() => present([vp], holder)).detail).toMatch(/is a presentation/);
    expect(refusal(() => present([vp.replace(/\./g, '')], holder)).detail).toMatch(/^Credential 1: /);
    const token = await jwtCredential(holder);
    expect(refusal(() => present([token], holder, { holder: 'did:web:holder.example' })).detail).toMatch(/--kid/);
    expect(refusal(() => present([token], key('holder-k1'), { format: 'di-eddsa-jcs' })).detail).toMatch(/secp256k1/);
  });
});
