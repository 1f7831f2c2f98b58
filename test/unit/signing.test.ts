/**
 * Signed results (src/core/signing): a detached JWS over the RFC 8785 form of a value, made with
 * an Ed25519 or P-256 private JWK, verifies with independent code (jose, over the npm
 * `canonicalize`), and svc's own verifier names each failure: another key, an edited value, a
 * signature over the JSON.stringify form, an unknown kid, a malformed or unsupported JWS. Keys it
 * cannot sign with are refused in one line naming what was given and what is accepted.
 */
import { createHash, sign as nodeSign, type JsonWebKey } from 'node:crypto';
import { inspect } from 'node:util';
import canonicalizeJson from 'canonicalize';
import { flattenedVerify, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  canonicalPayload,
  compactDetached,
  createSigner,
  RESULT_SIGNATURE_TYP,
  SigningKeyError,
  signCanonical,
  signCanonicalPayload,
  signingKeyResolver,
  verifyCanonicalSignature,
  type DetachedJws,
  type Signer,
  type SignatureKeyResolver,
} from '../../src/core/signing/index.js';
import { b64url } from '../support/codec.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { generateTestKey, type TestKey } from '../support/signing.js';

const AT = new Date('2025-03-04T05:06:07.890Z');
const AT_S = Math.floor(AT.getTime() / 1000);
const AT_ISO = '2025-03-04T05:06:07Z';

/** A result-like value whose member order is not the RFC 8785 order (so JSON.stringify differs). */
const VALUE = { z: 1, did: 'did:example:ü', a: [true, null, 1.5, 'é\u2028'], nested: { b: 2, a: '' } };

function privateJwk(key: TestKey): JsonWebKey {
  return key.privateKey.export({ format: 'jwk' });
}

/** A resolver that knows the keys of these signers by kid. */
function keysOf(...signers: Signer[]): SignatureKeyResolver {
  const table = new Map(signers.map((s) => [s.identity.kid, s.identity.publicJwk]));
  return async (kid) => table.get(kid) ?? null;
}

function header(jws: DetachedJws): Record<string, unknown> {
  return JSON.parse(Buffer.from(jws.protected, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A detached JWS made by hand (node:crypto), for the failures svc's signer never makes. */
function handMade(key: TestKey, head: Record<string, unknown>, payload: string): DetachedJws {
  const protectedHeader = b64url(JSON.stringify(head));
  const input = Buffer.from(`${protectedHeader}.${b64url(payload)}`);
  const signature = key.alg === 'EdDSA' ? nodeSign(null, input, key.privateKey) : nodeSign('sha256', input, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return { protected: protectedHeader, signature: b64url(signature) };
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each([
  ['Ed25519', 'EdDSA', /^did:key:z6Mk/],
  ['P-256', 'ES256', /^did:key:zDn/],
] as const)('a %s signer', (_curve, alg, didKeyPrefix) => {
  const key = generateTestKey(alg);
  const signer = createSigner(privateJwk(key));

  it('signs as the did:key of its public key, kid <did>#<multibase>', () => {
    const { did, kid, alg: signedWith, publicJwk } = signer.identity;
    expect(did).toMatch(didKeyPrefix);
    expect(kid).toBe(`${did}#${did.slice('did:key:'.length)}`);
    expect(signedWith).toBe(alg);
    expect(publicJwk).toEqual(key.publicJwk);
  });

  it('makes a detached JWS over the RFC 8785 form that jose verifies; its header names alg, kid, typ, iat, svc-canon and svc-sha256', async () => {
    const jws = signCanonical(VALUE, signer, { typ: RESULT_SIGNATURE_TYP, iat: AT });
    expect(Object.keys(jws).sort()).toEqual(['protected', 'signature']);
    const jcs = canonicalizeJson(VALUE)!;
    expect(header(jws)).toEqual({
      alg,
      kid: signer.identity.kid,
      typ: 'svc-result+jws',
      iat: AT_S,
      'svc-canon': 'RFC8785',
      'svc-sha256': sha256Hex(jcs),
    });
    const verified = await flattenedVerify({ ...jws, payload: b64url(jcs) }, await importJWK(key.publicJwk, alg));
    expect(new TextDecoder().decode(verified.payload)).toBe(jcs);
    expect(compactDetached(jws)).toBe(`${jws.protected}..${jws.signature}`);
    // Prepared once, signed later: the same JWS (Ed25519 is deterministic; ECDSA is not, but verifies).
    const prepared = canonicalPayload(VALUE);
    expect(prepared).toEqual({ digest: sha256Hex(jcs), encoded: b64url(jcs) });
    const again = signCanonicalPayload(prepared, signer, { typ: RESULT_SIGNATURE_TYP, iat: AT });
    if (alg === 'EdDSA') expect(again).toEqual(jws);
    expect((await verifyCanonicalSignature(VALUE, again, { resolveKey: keysOf(signer) })).reason).toBe('VALID');
  });

  it('verifies (flattened and compact), through svc’s own resolver of the did:key', async () => {
    const jws = signCanonical(VALUE, signer, { typ: RESULT_SIGNATURE_TYP, iat: AT_S });
    const resolveKey = signingKeyResolver(testRuntime(fixedClock()));
    const expected = {
      verified: true,
      reason: 'VALID',
      detail: `Signed by ${signer.identity.kid} at ${AT_ISO}.`,
      signer: { did: signer.identity.did, kid: signer.identity.kid },
      signedAt: AT_ISO,
    };
    expect(await verifyCanonicalSignature(VALUE, jws, { resolveKey })).toEqual(expected);
    expect(await verifyCanonicalSignature(VALUE, compactDetached(jws), { resolveKey, typ: RESULT_SIGNATURE_TYP, expectedSigner: signer.identity.did })).toEqual(
      expected,
    );
    // The same value re-serialised (other member order, indentation) is the same signed value.
    const reordered = JSON.parse(JSON.stringify({ nested: VALUE.nested, a: VALUE.a, did: VALUE.did, z: VALUE.z }, null, 2)) as unknown;
    expect((await verifyCanonicalSignature(reordered, jws, { resolveKey })).reason).toBe('VALID');
  });

  it('EDITED: a value changed after signing', async () => {
    const jws = signCanonical(VALUE, signer, { typ: RESULT_SIGNATURE_TYP, iat: AT });
    const edited = { ...VALUE, nested: { b: 3, a: '' } };
    const result = await verifyCanonicalSignature(edited, jws, { resolveKey: keysOf(signer) });
    expect(result).toEqual({
      verified: false,
      reason: 'EDITED',
      detail: 'The result was changed after it was signed: its RFC 8785 digest is not the one signed.',
      signer: { did: signer.identity.did, kid: signer.identity.kid },
      signedAt: AT_ISO,
    });
  });

  it('WRONG_KEY: signed by another key than the kid’s, or not by the expected signer', async () => {
    const other = createSigner(privateJwk(generateTestKey(alg)));
    const jws = signCanonical(VALUE, signer, { typ: RESULT_SIGNATURE_TYP, iat: AT });
    // The kid's DID publishes another key than the one that signed.
    const swapped: SignatureKeyResolver = async () => other.identity.publicJwk;
    const wrong = await verifyCanonicalSignature(VALUE, jws, { resolveKey: swapped });
    expect(wrong.reason).toBe('WRONG_KEY');
    expect(wrong.verified).toBe(false);
    expect(wrong.detail).toBe(`The signature does not verify with the key of ${signer.identity.kid}: signed by another key than ${signer.identity.kid}.`);
    // A valid signature, but by another svc instance than the one trusted.
    const notTrusted = await verifyCanonicalSignature(VALUE, jws, { resolveKey: keysOf(signer), expectedSigner: other.identity.did });
    expect(notTrusted).toMatchObject({ verified: false, reason: 'WRONG_KEY', detail: `Signed by ${signer.identity.kid}, not by ${other.identity.did}.` });
    // A key of the other curve cannot verify this alg.
    const otherCurve = createSigner(privateJwk(generateTestKey(alg === 'EdDSA' ? 'ES256' : 'EdDSA')));
    const mismatch = await verifyCanonicalSignature(VALUE, jws, { resolveKey: async () => otherCurve.identity.publicJwk });
    expect(mismatch.reason).toBe('WRONG_KEY');
    expect(mismatch.detail).toContain(`cannot verify ${alg}`);
  });

  it('OTHER_CANONICAL_FORM: a signature over the JSON.stringify form, or naming another serialisation', async () => {
    const plain = JSON.stringify(VALUE);
    expect(plain).not.toBe(canonicalizeJson(VALUE));
    const head = { alg, kid: signer.identity.kid, typ: RESULT_SIGNATURE_TYP, iat: AT_S, 'svc-canon': 'RFC8785', 'svc-sha256': sha256Hex(plain) };
    const overStringify = handMade(key, head, plain);
    const result = await verifyCanonicalSignature(VALUE, overStringify, { resolveKey: keysOf(signer) });
    expect(result).toMatchObject({ verified: false, reason: 'OTHER_CANONICAL_FORM' });
    expect(result.detail).toBe('The signature was made over the value as JSON.stringify writes it, not its RFC 8785 form: the signer did not canonicalise.');
    const named = handMade(key, { ...head, 'svc-canon': 'JSON.stringify' }, plain);
    const other = await verifyCanonicalSignature(VALUE, named, { resolveKey: keysOf(signer) });
    expect(other).toMatchObject({ verified: false, reason: 'OTHER_CANONICAL_FORM' });
    expect(other.detail).toContain('"JSON.stringify", not RFC8785');
  });

  it('UNKNOWN_KEY: the kid names no key its DID publishes', async () => {
    const jws = signCanonical(VALUE, signer, { typ: RESULT_SIGNATURE_TYP, iat: AT });
    const none = await verifyCanonicalSignature(VALUE, jws, { resolveKey: async () => null });
    expect(none).toMatchObject({ verified: false, reason: 'UNKNOWN_KEY', detail: `The signing key ${signer.identity.kid} is not a key its DID publishes.` });
    // Through svc's resolver: a kid whose fragment is not the did:key's one key.
    const did = signer.identity.did;
    const head = { ...header(jws), kid: `${did}#key-2` };
    const renamed = handMade(key, head, canonicalizeJson(VALUE)!);
    const unresolved = await verifyCanonicalSignature(VALUE, renamed, { resolveKey: signingKeyResolver(testRuntime(fixedClock())) });
    expect(unresolved).toMatchObject({ verified: false, reason: 'UNKNOWN_KEY', signer: { did, kid: `${did}#key-2` } });
    // A resolver that cannot resolve says why.
    const failing = await verifyCanonicalSignature(VALUE, jws, {
      resolveKey: async () => {
        throw new Error('did:web:example.com does not resolve (UPSTREAM_UNAVAILABLE: timeout)');
      },
    });
    expect(failing).toMatchObject({ reason: 'UNKNOWN_KEY' });
    expect(failing.detail).toBe(
      `The signing key ${signer.identity.kid} cannot be found: did:web:example.com does not resolve (UPSTREAM_UNAVAILABLE: timeout).`,
    );
  });
});

describe('malformed and unsupported signatures', () => {
  const key = generateTestKey('EdDSA');
  const signer = createSigner(privateJwk(key));
  const jws = signCanonical(VALUE, signer, { typ: RESULT_SIGNATURE_TYP, iat: AT });
  const resolveKey = keysOf(signer);

  it.each([
    ['a compact JWS with its payload', `${jws.protected}.${b64url('{}')}.${jws.signature}`, /carries a payload/],
    ['two parts', `${jws.protected}.${jws.signature}`, /header\.\.signature/],
    ['a header that is not base64url', `%%..${jws.signature}`, /not unpadded base64url/],
    ['a header that is not JSON', `${b64url('not json')}..${jws.signature}`, /not a JSON object/],
    ['a flattened JWS with a payload', { ...jws, payload: b64url('{}') }, /carries a payload/],
    ['a flattened JWS without a signature', { protected: jws.protected }, /"protected" and "signature"/],
    ['nothing', null, /^No signature was given/],
  ])('MALFORMED: %s', async (_what, given, detail) => {
    const result = await verifyCanonicalSignature(VALUE, given as never, { resolveKey });
    expect(result).toMatchObject({ verified: false, reason: 'MALFORMED', signer: null, signedAt: null });
    expect(result.detail).toMatch(detail);
    expect(result.detail).not.toContain('\n');
  });

  it('MALFORMED: a header without kid, iat or digest; a kid that is no DID URL; another typ than asked', async () => {
    const base = header(jws);
    const payload = canonicalizeJson(VALUE)!;
    for (const [change, detail] of [
      [{ kid: undefined }, /no "kid"/],
      [{ kid: 'key-1' }, /not a DID URL/],
      [{ iat: 1.5 }, /no "iat"/],
      [{ 'svc-sha256': 'abc' }, /no "svc-sha256"/],
    ] as const) {
      const result = await verifyCanonicalSignature(VALUE, handMade(key, { ...base, ...change }, payload), { resolveKey });
      expect(result.reason, JSON.stringify(change)).toBe('MALFORMED');
      expect(result.detail).toMatch(detail);
    }
    const typed = await verifyCanonicalSignature(VALUE, jws, { resolveKey, typ: 'svc-bundle+jws' });
    expect(typed).toMatchObject({ reason: 'MALFORMED', detail: 'The signature is of typ "svc-result+jws", not svc-bundle+jws.' });
  });

  it('UNSUPPORTED_ALG: another algorithm than EdDSA or ES256', async () => {
    const rs = handMade(key, { ...header(jws), alg: 'RS256' }, canonicalizeJson(VALUE)!);
    const result = await verifyCanonicalSignature(VALUE, rs, { resolveKey });
    expect(result).toMatchObject({ verified: false, reason: 'UNSUPPORTED_ALG', detail: 'The signature uses alg "RS256"; svc signs with EdDSA or ES256.' });
  });
});

describe('createSigner', () => {
  const ed = privateJwk(generateTestKey('EdDSA'));
  const p256 = privateJwk(generateTestKey('ES256'));

  function refusal(jwk: unknown, options = {}): string {
    try {
      createSigner(jwk, options);
    } catch (err) {
      expect(err).toBeInstanceOf(SigningKeyError);
      const message = (err as Error).message;
      expect(message).not.toContain('\n');
      for (const secret of [ed.d, p256.d]) expect(message).not.toContain(secret);
      return message;
    }
    throw new Error('createSigner accepted the key');
  }

  it('refuses other key types, naming what was given and what is accepted', () => {
    const accepted = 'a private JWK of kty OKP, crv Ed25519 (EdDSA) or kty EC, crv P-256 (ES256), with its private member "d"';
    expect(refusal(privateJwk(generateTestKey('ES256K')))).toBe(`The signing key is a kty "EC", crv "secp256k1" key: svc signs results only with ${accepted}.`);
    expect(refusal({ kty: 'RSA', n: 'AQAB', e: 'AQAB', d: 'AQAB' })).toBe(`The signing key is an RSA key: svc signs results only with ${accepted}.`);
    expect(refusal({ kty: 'OKP', crv: 'X25519', x: 'AA', d: 'AA' })).toMatch(/^The signing key is an OKP X25519 key \(key agreement, not signing\)/);
    expect(refusal({ ...ed, d: undefined })).toBe(`The signing key is a public OKP Ed25519 JWK (it has no "d"): svc signs with ${accepted}.`);
    expect(refusal([ed])).toBe(`The signing key is a JSON array, not a JWK: svc signs with ${accepted}.`);
    expect(refusal({ crv: 'Ed25519' })).toMatch(/without a string "kty"/);
  });

  it('refuses a malformed private JWK', () => {
    const other = privateJwk(generateTestKey('EdDSA'));
    expect(refusal({ ...ed, x: other.x })).toBe('The signing key\'s public member "x" does not match its private key "d".');
    const otherP256 = privateJwk(generateTestKey('ES256'));
    expect(refusal({ ...p256, x: otherP256.x, y: otherP256.y })).toBe('The signing key\'s public members "x"/"y" do not match its private key "d".');
    expect(refusal({ ...ed, d: 'not base64url!' })).toMatch(/"d" is not unpadded base64url/);
    expect(refusal({ ...p256, d: 'AAAA' })).toBe('The signing key\'s "d" is 3 bytes; an EC P-256 private key has 32.');
    expect(refusal({ ...ed, alg: 'ES256' })).toBe('The signing key is restricted to "alg" "ES256", but OKP Ed25519 keys sign with EdDSA.');
    expect(refusal({ ...ed, use: 'enc' })).toMatch(/"use" is "enc", not "sig"/);
  });

  it('accepts the file svc keygen writes (use, alg and kid members)', () => {
    const signer = createSigner({ ...ed, use: 'sig', alg: 'EdDSA', kid: 'thumbprint' });
    expect(signer.identity.alg).toBe('EdDSA');
  });

  it('signs as an operator’s did:web: kid <did>#<RFC 7638 thumbprint>, or the DID URL given', () => {
    const signer = createSigner(p256, { did: 'did:web:example.com' });
    const thumbprint = createHash('sha256')
      .update(JSON.stringify({ crv: 'P-256', kty: 'EC', x: p256.x, y: p256.y }))
      .digest('base64url');
    expect(signer.identity).toMatchObject({ did: 'did:web:example.com', kid: `did:web:example.com#${thumbprint}`, alg: 'ES256' });
    expect(createSigner(p256, { did: 'did:web:example.com%3A8443#results' }).identity).toMatchObject({
      did: 'did:web:example.com%3A8443',
      kid: 'did:web:example.com%3A8443#results',
    });
    expect(refusal(ed, { did: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' })).toMatch(/^The signing DID is a did:key: give a did:web/);
    expect(refusal(ed, { did: 'example.com' })).toMatch(/^The signing DID "example\.com" is not a DID/);
    expect(refusal(ed, { did: 'did:web:example.com/path' })).toMatch(/has a path or query/);
  });

  it('shows only its public identity: no "d" when serialised or inspected', () => {
    const signer = createSigner(ed);
    expect(JSON.stringify(signer)).not.toContain(ed.d);
    expect(inspect(signer, { depth: 10, showHidden: true })).not.toContain(ed.d!);
    expect(Object.keys(signer)).toEqual(['identity']);
  });
});
