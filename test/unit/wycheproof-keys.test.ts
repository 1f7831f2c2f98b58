/**
 * Invalid public keys must be reported, never accepted and never thrown: Wycheproof's
 * invalid-curve points (C2SP/wycheproof, ../shared/fixtures/wycheproof) as did:jwk and
 * did:key, plus hand-built Ed25519/X25519 small-order and malformed keys.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { b64url, didJwkOf, fromHex, multikey, rfc7638Thumbprint } from '../support/codec.js';
import { describeWithFixtures } from '../support/fixtures.js';
import { testRuntime } from '../support/runtime.js';

interface WycheproofTest<P> {
  tcId: number;
  comment: string;
  flags: string[];
  public: P;
  result: 'valid' | 'invalid' | 'acceptable';
}
interface WycheproofFile<P> {
  testGroups: Array<{ curve: string; tests: Array<WycheproofTest<P>> }>;
}
type WebcryptoJwk = { kty: string; crv: string; x: string; y: string; kid?: string };

const P256_PUB = 0x1200;

function load<P>(dir: string, file: string): Array<WycheproofTest<P>> {
  const json = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as WycheproofFile<P>;
  return json.testGroups.flatMap((g) => g.tests);
}

/** The public JWK of a webcrypto test as a did:jwk, with JOSE's curve name and no "kid". */
function webcryptoDidJwk(pub: WebcryptoJwk): string {
  const { kid: _kid, ...jwk } = pub;
  if (jwk.crv === 'P-256K') jwk.crv = 'secp256k1';
  return didJwkOf(jwk);
}

function p256DidKey(sec1: Uint8Array): string {
  return `did:key:${multikey(P256_PUB, sec1)}`;
}

/** SEC1 compressed form of an uncompressed point, by hand: 02|03 by the parity of y, then x. */
function compress(uncompressed: Uint8Array): Uint8Array {
  expect(uncompressed[0]).toBe(0x04);
  const size = (uncompressed.length - 1) / 2;
  const out = new Uint8Array(1 + size);
  out[0] = 0x02 | (uncompressed[uncompressed.length - 1]! & 1);
  out.set(uncompressed.subarray(1, 1 + size), 1);
  return out;
}

function stage(result: EnrichedResolution, name: string) {
  const found = result.trace.find((s) => s.stage === name);
  expect(found, `trace has ${name}`).toBeDefined();
  return found!;
}

/** Everything an invalid key must produce, whichever method carried it. */
function expectRejectedKey(result: EnrichedResolution, curveInDetail: RegExp | null): void {
  expect(result.evidence.keys).toHaveLength(1);
  const key = result.evidence.keys[0]!;
  expect(key.status).toBe('INVALID_KEY');
  expect(key.jwkThumbprint).toBeNull();
  expect(key.detail).toEqual(expect.any(String));
  if (curveInDetail) expect(key.detail).toMatch(curveInDetail);
  expect(result.dimensions.find((d) => d.id === 'keys')?.state).toBe('FAILED');
  expect(result.verdict.outcome).toBe('RESOLVED_WITH_WARNINGS');
  expect(stage(result, 'crypto.validate_keys').status).toBe('FAIL');
}

describeWithFixtures('Wycheproof invalid-curve public keys', 'wycheproof', (dir) => {
  const runtime = testRuntime();

  const webcrypto = [
    { file: 'ecdh_secp256r1_webcrypto_test.json', curve: 'P-256', detail: /P-256/ },
    { file: 'ecdh_secp256k1_webcrypto_test.json', curve: 'secp256k1', detail: /secp256k1/ },
  ] as const;

  for (const { file, curve, detail } of webcrypto) {
    const attacks = load<WebcryptoJwk>(dir, file).filter((t) => t.flags.includes('InvalidCurveAttack'));

    it(`${file} has InvalidCurveAttack tests`, () => {
      expect(attacks.length).toBeGreaterThanOrEqual(10);
      expect(attacks.every((t) => t.result === 'invalid')).toBe(true);
    });

    it.each(attacks.map((t) => [t.tcId, t.comment, t] as const))(`${file} tcId %i (%s) as did:jwk`, async (_id, _c, t) => {
      const did = webcryptoDidJwk(t.public);
      // Resolution answers (a rejected key is a finding, not an error): it must not throw.
      const result = await resolve(did, runtime, { noCache: true });
      expect(result.didDocument['id']).toBe(did);
      expectRejectedKey(result, detail);
      expect(result.evidence.keys[0]!.curve).toBe(curve);
    });
  }

  const ecpoint = load<string>(dir, 'ecdh_secp256r1_ecpoint_test.json');
  const ecpointAttacks = ecpoint.filter((t) => t.flags.includes('InvalidCurveAttack'));
  const validUncompressed = ecpoint.filter((t) => t.result === 'valid' && t.public.startsWith('04'));

  it('ecdh_secp256r1_ecpoint_test.json has the expected kinds of test', () => {
    expect(ecpointAttacks.length).toBeGreaterThanOrEqual(10);
    expect(validUncompressed.length).toBeGreaterThanOrEqual(100);
  });

  it.each(ecpointAttacks.map((t) => [t.tcId, t] as const))('ecpoint tcId %i (off-curve point) as did:key', async (_id, t) => {
    const sec1 = fromHex(t.public);
    expect(sec1).toHaveLength(65);
    const result = await resolve(p256DidKey(sec1), runtime, { noCache: true });
    expectRejectedKey(result, /P-256/);
    expect(result.evidence.keys[0]!.detail).not.toMatch(/compressed/);
  });

  it(`every valid uncompressed ecpoint key (${validUncompressed.length}) is INVALID_KEY as did:key: the compressed form is required`, async () => {
    for (const t of validUncompressed) {
      const result = await resolve(p256DidKey(fromHex(t.public)), runtime, { noCache: true });
      const key = result.evidence.keys[0]!;
      expect(key.status, `tcId ${t.tcId}`).toBe('INVALID_KEY');
      expect(key.detail, `tcId ${t.tcId}`).toMatch(/compressed.*required/i);
      expect(result.dimensions.find((d) => d.id === 'keys')?.state).toBe('FAILED');
    }
  });

  it(`every valid ecpoint key, compressed (${validUncompressed.length}), is VALID_KEY as did:key with the same coordinates`, async () => {
    for (const t of validUncompressed) {
      const full = fromHex(t.public);
      const result = await resolve(p256DidKey(compress(full)), runtime, { noCache: true });
      const key = result.evidence.keys[0]!;
      expect(key.status, `tcId ${t.tcId}: ${key.detail}`).toBe('VALID_KEY');
      expect(key.curve).toBe('P-256');
      const jwk = { kty: 'EC', crv: 'P-256', x: b64url(full.subarray(1, 33)), y: b64url(full.subarray(33)) };
      expect(key.jwkThumbprint).toBe(rfc7638Thumbprint(jwk));
      expect(result.verdict.outcome).toBe('RESOLVED');
    }
  });

  it('the compressed test of ecpoint (acceptable) is VALID_KEY; invalid compressed points are INVALID_KEY', async () => {
    const compressed = ecpoint.filter((t) => /^0[23]/.test(t.public));
    expect(compressed.length).toBeGreaterThan(0);
    for (const t of compressed) {
      const result = await resolve(p256DidKey(fromHex(t.public)), runtime, { noCache: true });
      const expected = t.result === 'invalid' ? 'INVALID_KEY' : 'VALID_KEY';
      expect(result.evidence.keys[0]!.status, `tcId ${t.tcId} (${t.comment})`).toBe(expected);
    }
  });
});

describe('Ed25519 and X25519 keys that must be rejected', () => {
  const runtime = testRuntime();
  const P = 2n ** 255n - 19n;
  const le32 = (value: bigint): Uint8Array => {
    const out = new Uint8Array(32);
    let v = value;
    for (let i = 0; i < 32; i++) {
      out[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    return out;
  };
  const ED = 0xed;
  const X = 0xec;

  const cases: Array<[string, number, Uint8Array, RegExp]> = [
    ['Ed25519 identity point (0, 1)', ED, le32(1n), /identity|small order/],
    ['Ed25519 point of order 2 (0, −1): y = p − 1', ED, le32(P - 1n), /small order/],
    ['Ed25519 point of order 4 (√−1, 0): y = 0', ED, le32(0n), /small order/],
    ['Ed25519 non-canonical y = p (encodes 0 non-canonically)', ED, le32(P), /canonical|curve/],
    ['X25519 u = 0', X, le32(0n), /small order/],
    ['X25519 u = 1', X, le32(1n), /small order/],
    ['X25519 u = p (non-canonical)', X, le32(P), /canonical/],
    ['X25519 u = p − 1 (on the twist)', X, le32(P - 1n), /not a point on Curve25519/],
    // Points of order 8 (libsodium's blocklist of Curve25519 / edwards25519 encodings).
    ['X25519 point of order 8 (e0eb7a7c…)', X, fromHex('e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800'), /small order/],
    ['X25519 point of order 8 (5f9c95bc…)', X, fromHex('5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157'), /small order/],
    ['Ed25519 point of order 8 (c7176a70…)', ED, fromHex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'), /small order/],
    ['Ed25519 point of order 8 (26e8958f…)', ED, fromHex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'), /small order/],
  ];

  it.each(cases)('%s → INVALID_KEY with a reason', async (_name, code, bytes, reason) => {
    const did = `did:key:${multikey(code, bytes)}`;
    const result = await resolve(did, runtime);
    expect(result.evidence.keys.length).toBeGreaterThanOrEqual(1);
    const key = result.evidence.keys[0]!;
    expect(key.id).toBe(`${did}#${did.slice(8)}`);
    expectRejectedKey(result, reason);
    // No X25519 key is derived from an invalid Ed25519 key.
    expect(result.evidence.document.relationships.keyAgreement.length).toBe(code === X ? 1 : 0);
  });

  it.each([
    ['Ed25519', ED, 31],
    ['Ed25519', ED, 33],
    ['X25519', X, 31],
  ] as const)('%s key of %i bytes → INVALID_KEY naming the length', async (_name, code, length) => {
    const bytes = new Uint8Array(length).fill(9);
    const result = await resolve(`did:key:${multikey(code, bytes)}`, runtime);
    expectRejectedKey(result, new RegExp(`32 bytes.*${length}|${length}.*32 bytes`));
  });

  it('a valid Ed25519 key next to these is accepted (the checks are not blanket rejections)', async () => {
    const result = await resolve('did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp', runtime);
    expect(result.evidence.keys.map((k) => k.status)).toEqual(['VALID_KEY', 'VALID_KEY']);
  });
});
