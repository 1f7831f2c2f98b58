/**
 * Credentials signed by svc (core/issue, what `svc sign-credential` runs) verify with independent
 * peers, not only with svc: @digitalbazaar/vc with the eddsa-jcs-2022 and ecdsa-jcs-2019
 * cryptosuites (Data Integrity), jose and did-jwt (vc+jwt, ES256K by did-jwt), did-jwt-vc
 * (VC-JWT 1.1) and @sd-jwt/sd-jwt-vc (SD-JWT VC, its disclosures and a KB-JWT) — and with svc's
 * own verifyCredential. Keys are made as `svc keygen` makes them. One changed byte makes each
 * fail with the peer too, so the peers are not accepting anything. What svc refuses to sign is
 * refused with a one-line reason.
 */
import { createHash, createPublicKey, verify as cryptoVerify } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import * as jose from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { signCredential, type SignCredentialOptions, type SignedCredentialFormat } from '../../src/core/issue/credential.js';
import { readIssuingKey, type IssuingKey } from '../../src/core/issue/key.js';
import { keyBindingJwt } from '../../src/core/issue/sd-jwt.js';
import { generateSigningKey, type GeneratedKey, type KeygenCurve } from '../../src/core/keys/generate.js';
import { ProblemError } from '../../src/core/problems.js';
import { didKeyJwk, peerVerifyDi, peerVerifyVcJwt, peerVerifyVcJwt11, VC1_CONTEXT, VC2_CONTEXT, type Json } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const SIGNED_AT = new Date('2025-06-01T12:00:00Z');
const NOW_S = Math.floor(SIGNED_AT.getTime() / 1000);
/** svc verifies a minute after signing. */
const runtime = () => testRuntime(fixedClock('2025-06-01T12:01:00Z'));

const generated = new Map<KeygenCurve, GeneratedKey>();
const keys = new Map<KeygenCurve, IssuingKey>();
beforeAll(async () => {
  for (const curve of ['Ed25519', 'P-256', 'secp256k1'] as const) {
    const key = await generateSigningKey(curve);
    generated.set(curve, key);
    keys.set(curve, readIssuingKey(key.privateJwk));
  }
});
const keyOf = (curve: KeygenCurve): IssuingKey => keys.get(curve)!;

function credential2(extra: Json = {}): Json {
  return {
    '@context': [VC2_CONTEXT],
    id: 'urn:uuid:6a1e5d2c-0000-4000-8000-000000000001',
    type: ['VerifiableCredential'],
    validFrom: '2025-01-01T00:00:00Z',
    credentialSubject: { id: 'did:example:alice', name: 'Alice' },
    ...extra,
  };
}

function credential11(extra: Json = {}): Json {
  return { '@context': [VC1_CONTEXT], type: ['VerifiableCredential'], credentialSubject: { id: 'did:example:alice', name: 'Alice' }, ...extra };
}

function sign(input: unknown, curve: KeygenCurve, format: SignedCredentialFormat, extra: Partial<SignCredentialOptions> = {}) {
  return signCredential(input, { key: keyOf(curve), format, now: SIGNED_AT, ...extra });
}

async function svcVerify(text: string): Promise<CredentialVerification> {
  return verifyCredential(text.trim(), { runtime: runtime() });
}

function expectValid(result: CredentialVerification): void {
  expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
}

/** The JWT with its payload's `from` (default "Alice") changed by one byte, the signature kept. */
function tampered(token: string, from = 'Alice'): string {
  const [h, p, s] = token.trim().split('.') as [string, string, string];
  const text = Buffer.from(p, 'base64url').toString('utf8');
  expect(text).toContain(from);
  return `${h}.${Buffer.from(text.replace(from, `${from.slice(0, -1)}_`)).toString('base64url')}.${s}`;
}

function refusal(run: () => unknown): Promise<ProblemError> {
  return Promise.resolve()
    .then(run)
    .then(
      () => {
        throw new Error('signed what it should refuse');
      },
      (err: unknown) => {
        expect(err).toBeInstanceOf(ProblemError);
        return err as ProblemError;
      },
    );
}

describe('vc+jwt: jose (EdDSA, ES256) and did-jwt (ES256K) verify it, and svc does', () => {
  for (const curve of ['Ed25519', 'P-256', 'secp256k1'] as const) {
    it(`${curve}: the payload is the credential, the header {alg, typ: vc+jwt, kid}; issuer filled with the key's did:key`, async () => {
      const signed = await sign(credential2(), curve, 'vc+jwt');
      const key = keyOf(curve);
      expect(signed.issuer).toBe(key.didKey);
      expect(signed.notes[0]).toMatch(/names no issuer: it is issued by did:key:.* \(the key's did:key\)/);
      const token = signed.text.trim();
      expect(jose.decodeProtectedHeader(token)).toEqual({ alg: key.alg, typ: 'vc+jwt', kid: `${key.didKey}#${key.didKey.slice(8)}` });
      expect(jose.decodeJwt(token)).toEqual({ ...credential2(), issuer: key.didKey, iat: NOW_S });
      expect(await peerVerifyVcJwt(token)).toBe(true);
      expectValid(await svcVerify(token));
      expect(await peerVerifyVcJwt(tampered(token))).toBe(false);
      expect((await svcVerify(tampered(token))).status).toBe('INVALID');
    });
  }

  it('ES256K signatures are low-S (did-jwt, through @noble/curves, accepts no other), every time', async () => {
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    for (let i = 0; i < 24; i++) {
      const token = (await sign(credential2({ id: `urn:uuid:6a1e5d2c-0000-4000-8000-${String(i).padStart(12, '0')}` }), 'secp256k1', 'vc+jwt')).text.trim();
      const s = BigInt(`0x${Buffer.from(token.split('.')[2]!, 'base64url').subarray(32).toString('hex')}`);
      expect(s <= n / 2n).toBe(true);
      expect(await peerVerifyVcJwt(token)).toBe(true);
    }
  });

  it("an issuer object keeps its members; an issuer that is the key's did:key is used as given", async () => {
    const key = keyOf('Ed25519');
    const signed = await sign(credential2({ issuer: { id: key.didKey, name: 'Example' } }), 'Ed25519', 'vc+jwt');
    expect(signed.notes).toEqual([]);
    expect(jose.decodeJwt(signed.text.trim())['issuer']).toEqual({ id: key.didKey, name: 'Example' });
    expectValid(await svcVerify(signed.text));
  });

  it('a did:jwk issuer: kid <did>#0; svc resolves the did:jwk and the key in it', async () => {
    const key = keyOf('P-256');
    const signed = await sign(credential2({ issuer: key.didJwk }), 'P-256', 'vc+jwt');
    expect(signed.kid).toBe(`${key.didJwk}#0`);
    const token = signed.text.trim();
    const jwk = JSON.parse(Buffer.from(key.didJwk.slice('did:jwk:'.length), 'base64url').toString('utf8')) as jose.JWK;
    await expect(jose.compactVerify(token, await jose.importJWK(jwk, 'ES256'))).resolves.toBeDefined();
    expectValid(await svcVerify(token));
  });
});

describe('vc-jwt-1.1: did-jwt-vc verifies it (it reads VC-JWT 1.1 only), and svc does', () => {
  for (const curve of ['Ed25519', 'P-256'] as const) {
    it(`${curve}: iss, sub, jti, nbf, exp restate the credential, which the vc claim keeps whole`, async () => {
      const input = credential11({ id: 'urn:uuid:6a1e5d2c-0000-4000-8000-000000000011', expirationDate: '2030-01-01T00:00:00Z' });
      const signed = await sign(input, curve, 'vc-jwt-1.1');
      const token = signed.text.trim();
      const key = keyOf(curve);
      expect(jose.decodeProtectedHeader(token)).toEqual({ alg: key.alg, typ: 'JWT', kid: signed.kid });
      const payload = jose.decodeJwt(token);
      expect(payload).toMatchObject({
        iss: key.didKey,
        sub: 'did:example:alice',
        jti: 'urn:uuid:6a1e5d2c-0000-4000-8000-000000000011',
        nbf: NOW_S,
        exp: Date.parse('2030-01-01T00:00:00Z') / 1000,
        iat: NOW_S,
      });
      // The 1.1 data model requires an issuanceDate: the signing time fills a missing one.
      expect(payload['vc']).toEqual({ ...input, issuer: key.didKey, issuanceDate: '2025-06-01T12:00:00Z' });
      expect(await peerVerifyVcJwt11(token)).toBe(true);
      const result = await svcVerify(token);
      expectValid(result);
      expect(result.format).toBe('VC_JWT_1_1');
      expect(await peerVerifyVcJwt11(tampered(token))).toBe(false);
      expect((await svcVerify(tampered(token))).status).toBe('INVALID');
    });
  }
});

describe('di-eddsa-jcs and di-ecdsa-jcs: @digitalbazaar/vc verifies the proof, and svc does', () => {
  for (const [curve, format, suite] of [
    ['Ed25519', 'di-eddsa-jcs', 'eddsa-jcs-2022'],
    ['P-256', 'di-ecdsa-jcs', 'ecdsa-jcs-2019'],
  ] as const) {
    it(`${format} (${suite}): assertionMethod, created from the clock, the document's @context in the proof`, async () => {
      const signed = await sign(credential2(), curve, format);
      const secured = JSON.parse(signed.text) as Json;
      const key = keyOf(curve);
      expect(secured['proof']).toMatchObject({
        '@context': [VC2_CONTEXT],
        type: 'DataIntegrityProof',
        cryptosuite: suite,
        created: '2025-06-01T12:00:00Z',
        verificationMethod: `${key.didKey}#${key.didKey.slice(8)}`,
        proofPurpose: 'assertionMethod',
      });
      expect(await peerVerifyDi(secured)).toBe(true);
      const result = await svcVerify(signed.text);
      expectValid(result);
      expect(result.proof?.suite).toBe(suite);
      const changed = { ...secured, credentialSubject: { id: 'did:example:alice', name: 'Alicf' } };
      expect(await peerVerifyDi(changed)).toBe(false);
      expect((await svcVerify(JSON.stringify(changed))).status).toBe('INVALID');
    });
  }

  it('a key on the other curve is refused, naming the format that fits it; secp256k1 has none', async () => {
    expect((await refusal(() => sign(credential2(), 'P-256', 'di-eddsa-jcs'))).detail).toMatch(/this is a P-256 key: give --format di-ecdsa-jcs/);
    expect((await refusal(() => sign(credential2(), 'Ed25519', 'di-ecdsa-jcs'))).detail).toMatch(/give --format di-eddsa-jcs/);
    const k1 = await refusal(() => sign(credential2(), 'secp256k1', 'di-eddsa-jcs'));
    expect(k1).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(k1.detail).toMatch(/no Data Integrity suite on secp256k1: sign this key's credentials as vc\+jwt/);
  });
});

/* ------------------------------------------------------------------ SD-JWT VC */

const VCT = 'https://credentials.example/identity';
const hasher = (data: string | ArrayBuffer, alg: string): Uint8Array => {
  expect(alg).toBe('sha-256');
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
};

/** The peer, verifying with the key named by the issuer JWT's kid (a did:key), and a KB-JWT with the key in cnf. */
function peerSdJwt(): SDJwtVcInstance {
  const verifyWith = (jwk: jose.JWK, data: string, sig: string): boolean => {
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    const signature = Buffer.from(sig, 'base64url');
    return jwk.kty === 'OKP'
      ? cryptoVerify(null, Buffer.from(data), key, signature)
      : cryptoVerify('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }, signature);
  };
  return new SDJwtVcInstance({
    hasher,
    hashAlg: 'sha-256',
    verifier: (data, sig) => {
      const header = JSON.parse(Buffer.from(data.split('.')[0]!, 'base64url').toString('utf8')) as { kid: string };
      return verifyWith(didKeyJwk(header.kid.split('#')[0]!), data, sig);
    },
    kbVerifier: (data, sig, payload) => verifyWith((payload['cnf'] as { jwk: jose.JWK }).jwk, data, sig),
  });
}

const claims = (): Json => ({
  vct: VCT,
  sub: 'did:example:alice',
  given_name: 'Erika',
  family_name: 'Mustermann',
  address: { street: 'Heidestraße 17', locality: 'Köln' },
  nationalities: ['DE', 'FR'],
});

describe('sd-jwt: @sd-jwt/sd-jwt-vc verifies it, disclosures and KB-JWT, and svc does', () => {
  for (const curve of ['Ed25519', 'P-256', 'secp256k1'] as const) {
    it(`${curve}: the disclosed claims, nested and array elements, come back; a KB-JWT binds it to the holder`, async () => {
      const holder = generated.get('Ed25519')!;
      const signed = await sign(claims(), curve, 'sd-jwt', {
        disclose: ['/given_name', '/address', '/address/street', '/nationalities/1'],
        holderKey: holder.privateJwk,
      });
      const text = signed.text.trim();
      expect(text.endsWith('~')).toBe(true);
      const [jwt, ...rest] = text.split('~');
      expect(rest.filter((d) => d !== '')).toHaveLength(4);
      expect(jose.decodeProtectedHeader(jwt!)).toEqual({ alg: keyOf(curve).alg, typ: 'dc+sd-jwt', kid: signed.kid });
      const payload = jose.decodeJwt(jwt!);
      // Plain: what was not named; the holder key (public members only) as cnf.jwk.
      expect(payload).toMatchObject({ iss: keyOf(curve).didKey, iat: NOW_S, vct: VCT, family_name: 'Mustermann', _sd_alg: 'sha-256' });
      expect(payload['given_name']).toBeUndefined();
      expect(payload['cnf']).toEqual({ jwk: holder.publicJwk });
      expect(JSON.stringify(payload)).not.toContain(holder.privateJwk.d);

      const peer = peerSdJwt();
      const issued = await peer.verify(text, { currentDate: NOW_S + 60 });
      expect(issued.payload).toMatchObject({ ...claims(), iss: keyOf(curve).didKey });
      const holderKey = readIssuingKey(holder.privateJwk);
      const presented = `${text}${keyBindingJwt(text, holderKey, { nonce: 'n-0S6', aud: 'https://verifier.example', iat: SIGNED_AT })}`;
      const bound = await peer.verify(presented, { currentDate: NOW_S + 60, keyBindingNonce: 'n-0S6' });
      expect(bound.kb?.payload).toMatchObject({ nonce: 'n-0S6', aud: 'https://verifier.example' });

      const result = await verifyCredential(presented, { runtime: runtime(), expectedAudience: 'https://verifier.example' });
      expectValid(result);
      expect([...result.disclosures!.disclosed].sort()).toEqual(['/address', '/address/street', '/given_name', '/nationalities/1']);
      expect(result.disclosures?.keyBinding).toMatchObject({ status: 'PASS', nonce: 'n-0S6' });
      // The issuer signature covers the digests: another byte in the JWT payload fails both.
      const bad = `${tampered(jwt!, 'Mustermann')}~${rest.join('~')}`;
      await expect(peer.verify(bad, { currentDate: NOW_S + 60 })).rejects.toThrow();
    });
  }

  it('without --disclose every claim is plain; without a holder key there is no cnf, and a note says so', async () => {
    const signed = await sign(claims(), 'Ed25519', 'sd-jwt');
    const [jwt, ...rest] = signed.text.trim().split('~');
    expect(rest).toEqual(['']);
    expect(jose.decodeJwt(jwt!)['cnf']).toBeUndefined();
    expect(signed.notes.join(' ')).toMatch(/binds no holder key/);
    expectValid(await svcVerify(signed.text));
    await expect(peerSdJwt().verify(signed.text.trim(), { currentDate: NOW_S + 60 })).resolves.toBeDefined();
  });

  it('refuses what SD-JWT VC keeps plain, pointers that name nothing, reserved names, a VC Data Model credential', async () => {
    const disclose = (pointer: string) => refusal(() => sign(claims(), 'Ed25519', 'sd-jwt', { disclose: [pointer] }));
    expect((await disclose('/vct')).detail).toMatch(/keeps "vct" plain/);
    expect((await disclose('/iss')).detail).toMatch(/keeps "iss" plain/);
    expect((await disclose('/address/zip')).detail).toMatch(/--disclose \/address\/zip names no claim/);
    expect((await disclose('/nationalities/2')).detail).toMatch(/names no claim/);
    expect((await disclose('given_name')).detail).toMatch(/not a JSON Pointer/);
    expect((await disclose('')).detail).toMatch(/whole claim set/);
    expect((await refusal(() => sign(claims(), 'Ed25519', 'sd-jwt', { disclose: ['/sub', '/sub'] }))).detail).toMatch(/given twice/);
    expect(await refusal(() => sign({ ...claims(), _sd: [] }, 'Ed25519', 'sd-jwt'))).toMatchObject({ code: 'INVALID_REQUEST' });
    expect((await refusal(() => sign({ ...claims(), vct: undefined }, 'Ed25519', 'sd-jwt'))).detail).toMatch(/needs "vct"/);
    expect((await refusal(() => sign(credential2(), 'Ed25519', 'sd-jwt'))).detail).toMatch(/it is a VC Data Model credential/);
    expect((await refusal(() => sign(claims(), 'Ed25519', 'vc+jwt'))).detail).toMatch(/SD-JWT VC claim set, signed with --format sd-jwt/);
  });
});

describe("who signs: the issuer the credential names must be the key's", () => {
  it('a did:key of another key, a did:jwk of another key, an issuer that is no DID, --issuer that disagrees: refused', async () => {
    const other = keyOf('P-256');
    const wrongKey = await refusal(() => sign(credential2({ issuer: other.didKey }), 'Ed25519', 'vc+jwt'));
    expect(wrongKey).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(wrongKey.detail).toMatch(/The key is not the key of the issuer did:key:zDn.*: its did:key is did:key:z6Mk/);
    expect((await refusal(() => sign(credential2({ issuer: other.didJwk }), 'Ed25519', 'vc+jwt'))).detail).toMatch(/is not the key that the issuer did:jwk/);
    const notDid = await refusal(() => sign(credential2({ issuer: 'https://issuer.example' }), 'Ed25519', 'vc+jwt'));
    expect(notDid).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(notDid.detail).toMatch(/must be a DID/);
    const disagree = await refusal(() => sign(credential2({ issuer: keyOf('Ed25519').didKey }), 'Ed25519', 'vc+jwt', { issuer: 'did:web:example.com' }));
    expect(disagree.detail).toMatch(/--issuer is did:web:example.com, but the input names the issuer did:key/);
  });

  it('a did:web issuer needs --kid; with it, the token names it and a note says the verifier checks the key', async () => {
    const missing = await refusal(() => sign(credential2({ issuer: 'did:web:issuer.example' }), 'Ed25519', 'vc+jwt'));
    expect(missing.detail).toMatch(/is a did:web, whose keys are published in its DID document: name the verification method .* with --kid/);
    const elsewhere = await refusal(() => sign(credential2(), 'Ed25519', 'vc+jwt', { issuer: 'did:web:issuer.example', kid: 'did:web:other.example#k' }));
    expect(elsewhere.detail).toMatch(/names a key of did:web:other.example, not of the issuer did:web:issuer.example/);
    const signed = await sign(credential2(), 'Ed25519', 'vc+jwt', { issuer: 'did:web:issuer.example', kid: 'did:web:issuer.example#key-1' });
    expect(jose.decodeProtectedHeader(signed.text.trim()).kid).toBe('did:web:issuer.example#key-1');
    expect(jose.decodeJwt(signed.text.trim())['issuer']).toBe('did:web:issuer.example');
    expect(signed.notes[0]).toBe('The input names no issuer: it is issued by did:web:issuer.example (--issuer).');
    expect(signed.notes.join(' ')).toMatch(
      /The verifier resolves did:web:issuer.example and checks that did:web:issuer.example#key-1 holds this key under assertionMethod/,
    );
  });

  it('refuses a credential that already has a proof, the wrong data model for the format, and one svc would call MALFORMED', async () => {
    expect((await refusal(() => sign(credential2({ proof: { type: 'DataIntegrityProof' } }), 'Ed25519', 'di-eddsa-jcs'))).detail).toMatch(
      /already has a proof/,
    );
    expect((await refusal(() => sign(credential11(), 'Ed25519', 'vc+jwt'))).detail).toMatch(/a 1.1 credential is signed as vc-jwt-1.1/);
    expect((await refusal(() => sign(credential2(), 'Ed25519', 'vc-jwt-1.1'))).detail).toMatch(/a 2.0 credential is signed as vc\+jwt/);
    const malformed = await refusal(() => sign(credential2({ credentialSubject: 'Alice' }), 'Ed25519', 'vc+jwt'));
    expect(malformed).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(malformed.detail).toMatch(/^svc would not verify this credential: .*credentialSubject/);
    expect((await refusal(() => sign({ ...credential2(), type: ['VerifiablePresentation'] }, 'Ed25519', 'vc+jwt'))).detail).toMatch(/svc sign-presentation/);
    expect((await refusal(() => sign(credential2(), 'Ed25519', 'vc+jwt', { disclose: ['/x'] }))).detail).toMatch(/--disclose applies to --format sd-jwt only/);
  });
});
