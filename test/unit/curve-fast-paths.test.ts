/**
 * The curve-point fast paths of src/core/keys/curves.ts (node:crypto's ECDH.convertKey for the
 * Weierstrass curves, BigInt Jacobi-symbol checks for Ed25519 and X25519) against @noble/curves
 * as the oracle. The oracle (test/support/curve-oracle.ts) is the noble-based implementation
 * svc used before, with the same statuses and reasons, so "agree" means the same result object,
 * reason string included.
 *
 * Inputs: every did:key vector (../shared/fixtures/did-key), every Wycheproof point the repo's
 * tests use (../shared/fixtures/wycheproof), crafted small-order and non-canonical 25519
 * encodings, and, per curve, ≥ 20,000 random encodings and random valid keys from a seeded
 * PRNG (SEED in test/support/curve-oracle.ts; a failure names the input, so it reproduces). The
 * Weierstrass random and crafted inputs are in curve-fast-paths-weierstrass.test.ts (a file of
 * its own); the oracle and helpers in test/support/curve-oracle.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { checkEcPoint, checkEd25519, checkX25519, ED25519_SMALL_ORDER_Y, jacobi, P25519, X25519_SMALL_ORDER_U } from '../../src/core/keys/curves.js';
import { fromB64url, fromHex, splitMultikey } from '../support/codec.js';
import {
  accepted,
  disagreementsEc,
  disagreementsEd,
  disagreementsX,
  EC,
  type EcCurve,
  ed25519ValidPoints,
  le,
  leToBigint,
  nobleX25519FromY,
  prng,
  RANDOM_INPUTS,
  SEED,
} from '../support/curve-oracle.js';
import { describeWithFixtures } from '../support/fixtures.js';

// ── Tests ────────────────────────────────────────────────────────────────────────────────────

describe('field helpers', () => {
  it('jacobi agrees with Euler’s criterion on the 25519 field', () => {
    const random = prng(SEED ^ 1);
    const modPow = (b: bigint, e: bigint): bigint => {
      let r = 1n;
      let x = b % P25519;
      for (let k = e; k > 0n; k >>= 1n) {
        if (k & 1n) r = (r * x) % P25519;
        x = (x * x) % P25519;
      }
      return r;
    };
    for (let i = 0; i < 300; i++) {
      const a = leToBigint(random(32)) % P25519;
      const euler = modPow(a, (P25519 - 1n) / 2n);
      expect(jacobi(a, P25519), `a = ${a}`).toBe(euler === 1n ? 1 : euler === 0n ? 0 : -1);
    }
    expect(jacobi(0n, P25519)).toBe(0);
    expect(jacobi(2n ** 64n, P25519)).toBe(1);
    expect(jacobi(-1n, P25519)).toBe(1); // p ≡ 1 (mod 4)
  });

  it('the small-order tables are exactly the y and u of the eight torsion points (computed with noble)', () => {
    const order8 = ed25519.Point.fromBytes(fromHex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'));
    const torsion = Array.from({ length: 8 }, (_, k) => (k === 0 ? ed25519.Point.ZERO : order8.multiplyUnsafe(BigInt(k))));
    expect(torsion.every((p) => p.isSmallOrder())).toBe(true);
    expect(new Set(torsion.map((p) => p.toHex())).size).toBe(8);
    const ys = new Set(torsion.map((p) => p.toAffine().y));
    expect([...ys].sort()).toEqual([...ED25519_SMALL_ORDER_Y].sort());
    const us = new Set(torsion.filter((p) => !p.is0()).map((p) => leToBigint(nobleX25519FromY(p.toAffine().y))));
    expect([...us].sort()).toEqual([...X25519_SMALL_ORDER_U].sort());
  });
});

describe('crafted Ed25519 and X25519 encodings agree with noble', () => {
  const order8 = ed25519.Point.fromBytes(fromHex('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'));
  const torsion = Array.from({ length: 8 }, (_, k) => (k === 0 ? ed25519.Point.ZERO : order8.multiplyUnsafe(BigInt(k))));

  /** Every y with both sign bits, as 32 bytes (y < 2^255). */
  const withSigns = (y: bigint): Uint8Array[] => {
    const plain = le(y);
    const signed = le(y);
    signed[31]! |= 0x80;
    return [plain, signed];
  };

  const crafted: Uint8Array[] = [
    // the eight small-order points, both sign bits of each y
    ...[...ED25519_SMALL_ORDER_Y].flatMap(withSigns),
    ...torsion.map((p) => p.toBytes()),
    // non-canonical: y + p for every y that fits (y ≤ 18), both sign bits; y = 2^255 − 1
    ...Array.from({ length: 19 }, (_, k) => BigInt(k) + P25519).flatMap(withSigns),
    ...withSigns(2n ** 255n - 1n),
    // y = p − 1 and y = 1, x = 0, with the sign bit set (rejected by RFC 8032)
    ...withSigns(P25519 - 1n),
    ...withSigns(1n),
    // small y and y near p, both signs (some on the curve, some not)
    ...Array.from({ length: 64 }, (_, k) => BigInt(k)).flatMap(withSigns),
    ...Array.from({ length: 64 }, (_, k) => P25519 - 1n - BigInt(k)).flatMap(withSigns),
    // the base point and a few multiples, and each of them plus every torsion point (mixed order)
    ...[1n, 2n, 3n, 7n, 8n, 2n ** 200n].flatMap((k) => {
      const p = ed25519.Point.BASE.multiply(k);
      return [p.toBytes(), ...torsion.map((t) => p.add(t).toBytes())];
    }),
  ];

  it(`${crafted.length} crafted Ed25519 encodings`, async () => {
    expect(await disagreementsEd(crafted)).toEqual([]);
    // Both outcomes are exercised, and every small-order point is rejected as such.
    expect(await accepted(crafted, checkEd25519)).toBeGreaterThan(10);
    for (const p of torsion) expect((await checkEd25519(p.toBytes())).ok).toBe(false);
  });

  it('crafted X25519 u-coordinates', async () => {
    const us: bigint[] = [
      ...X25519_SMALL_ORDER_U,
      ...[...X25519_SMALL_ORDER_U].map((u) => u + P25519).filter((u) => u < 2n ** 256n),
      ...[...X25519_SMALL_ORDER_U].map((u) => u + 2n ** 255n),
      P25519 - 1n,
      P25519,
      P25519 + 1n,
      2n ** 255n - 1n,
      2n ** 256n - 1n,
      9n, // the base point
      ...Array.from({ length: 64 }, (_, k) => BigInt(k)),
      ...Array.from({ length: 64 }, (_, k) => P25519 - 2n - BigInt(k)),
    ];
    const inputs = us.map((u) => le(u));
    expect(await disagreementsX(inputs)).toEqual([]);
    expect(await accepted(inputs, checkX25519)).toBeGreaterThan(10);
  });

  it('wrong lengths', async () => {
    for (const n of [0, 1, 31, 33, 64]) {
      expect(await disagreementsEd([new Uint8Array(n).fill(9)])).toEqual([]);
      expect(await disagreementsX([new Uint8Array(n).fill(9)])).toEqual([]);
    }
  });
});

describe(`random inputs (seed ${SEED.toString(16)})`, () => {
  it(`Ed25519: ${RANDOM_INPUTS / 2} random 32-byte strings and ${RANDOM_INPUTS / 2} random valid keys (with the X25519 derivation)`, async () => {
    const random = prng(SEED ^ 0xed);
    const strings = Array.from({ length: RANDOM_INPUTS / 2 }, () => random(32));
    expect(await disagreementsEd(strings, true, 500)).toEqual([]);
    const n = await accepted(strings, checkEd25519);
    expect(n).toBeGreaterThan(RANDOM_INPUTS * 0.2); // about half of all y are on the curve
    expect(n).toBeLessThan(RANDOM_INPUTS * 0.3);
    const keys = ed25519ValidPoints(RANDOM_INPUTS / 2, random).map((q) => q.toBytes());
    expect(await disagreementsEd(keys, true, 500)).toEqual([]);
    expect(await accepted(keys, checkEd25519)).toBe(keys.length);
  }, 60_000);

  it(`X25519: ${(RANDOM_INPUTS * 3) / 4} random 32-byte strings (top bit cleared for half) and ${RANDOM_INPUTS / 4} random valid keys`, async () => {
    const random = prng(SEED ^ 0xec);
    const strings = Array.from({ length: (RANDOM_INPUTS * 3) / 4 }, (_, i) => {
      const b = random(32);
      if (i % 2 === 0) b[31]! &= 0x7f;
      return b;
    });
    expect(await disagreementsX(strings)).toEqual([]);
    expect(await accepted(strings, checkX25519)).toBeGreaterThan(RANDOM_INPUTS * 0.15);
    // Valid X25519 keys: the images of valid edwards25519 points, mapped with noble's field.
    const keys = ed25519ValidPoints(RANDOM_INPUTS / 4, random).map((q) => nobleX25519FromY(q.toAffine().y));
    expect(await disagreementsX(keys)).toEqual([]);
    expect(await accepted(keys, checkX25519)).toBe(keys.length);
  }, 60_000);
});

describeWithFixtures('did:key vectors agree with noble', 'did-key/test-vectors', (dir) => {
  const CURVE_OF: Record<number, string> = { 0xed: 'Ed25519', 0xec: 'X25519', 0xe7: 'secp256k1', 0x1200: 'P-256', 0x1201: 'P-384', 0x1202: 'P-521' };

  it('every key of every supported vector', async () => {
    const seen: Record<string, number> = {};
    const problems: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      // Every multibase key anywhere in the file: the DIDs and every publicKeyMultibase.
      const values = new Set([...text.matchAll(/did:key:(z[1-9A-HJ-NP-Za-km-z]+)/g)].map((m) => m[1]!));
      for (const m of text.matchAll(/"publicKeyMultibase"\s*:\s*"(z[1-9A-HJ-NP-Za-km-z]+)"/g)) values.add(m[1]!);
      for (const value of values) {
        const { code, key } = splitMultikey(value);
        const curve = CURVE_OF[code];
        if (!curve) continue;
        seen[curve] = (seen[curve] ?? 0) + 1;
        if (curve === 'Ed25519') {
          problems.push(...(await disagreementsEd([key])));
          expect((await checkEd25519(key)).ok, value).toBe(true);
        } else if (curve === 'X25519') {
          problems.push(...(await disagreementsX([key])));
          expect((await checkX25519(key)).ok, value).toBe(true);
        } else {
          problems.push(...(await disagreementsEc(curve as EcCurve, [key], [{}, { require: 'compressed' }, { require: 'uncompressed' }])));
          expect((await checkEcPoint(curve as EcCurve, key)).ok, value).toBe(true);
        }
      }
      // The JWKs of the vectors, as uncompressed points.
      for (const m of text.matchAll(/"publicKeyJwk"\s*:\s*(\{[^}]*\})/g)) {
        const jwk = JSON.parse(m[1]!) as { kty: string; crv: string; x: string; y?: string };
        if (jwk.kty !== 'EC' || !(jwk.crv in EC)) continue;
        const sec1 = Uint8Array.of(0x04, ...fromB64url(jwk.x), ...fromB64url(jwk.y!));
        problems.push(...(await disagreementsEc(jwk.crv as EcCurve, [sec1])));
      }
    }
    expect(problems).toEqual([]);
    for (const curve of ['Ed25519', 'X25519', 'secp256k1', 'P-256', 'P-384', 'P-521']) expect(seen[curve], curve).toBeGreaterThan(0);
  });
});

describeWithFixtures('Wycheproof points agree with noble', 'wycheproof', (dir) => {
  type Test<P> = { tcId: number; flags: string[]; public: P; result: string };
  const load = <P>(file: string): Array<Test<P>> =>
    (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { testGroups: Array<{ tests: Array<Test<P>> }> }).testGroups.flatMap((g) => g.tests);

  it.each([
    ['ecdh_secp256r1_webcrypto_test.json', 'P-256'],
    ['ecdh_secp256k1_webcrypto_test.json', 'secp256k1'],
  ] as const)('%s: every public JWK, uncompressed and compressed', async (file, curve) => {
    const tests = load<{ x: string; y: string }>(file);
    const inputs: Uint8Array[] = [];
    for (const t of tests) {
      const x = fromB64url(t.public.x);
      const y = fromB64url(t.public.y);
      if (x.length !== 32 || y.length !== 32) continue;
      inputs.push(Uint8Array.of(0x04, ...x, ...y), Uint8Array.of(0x02 | (y[31]! & 1), ...x));
    }
    expect(inputs.length).toBeGreaterThan(20);
    expect(tests.some((t) => t.flags.includes('InvalidCurveAttack'))).toBe(true);
    expect(await disagreementsEc(curve, inputs, [{}, { require: 'compressed' }])).toEqual([]);
  });

  it('ecdh_secp256r1_ecpoint_test.json: every public point, whatever its length', async () => {
    const tests = load<string>('ecdh_secp256r1_ecpoint_test.json');
    const inputs = tests.map((t) => fromHex(t.public));
    expect(inputs.length).toBeGreaterThan(100);
    expect(await disagreementsEc('P-256', inputs, [{}, { require: 'compressed' }, { require: 'uncompressed' }])).toEqual([]);
  });

  it('ecdsa_*_p1363_test.json and ed25519_test.json: every public key', async () => {
    for (const [file, curve] of [
      ['ecdsa_secp256r1_sha256_p1363_test.json', 'P-256'],
      ['ecdsa_secp256k1_sha256_p1363_test.json', 'secp256k1'],
    ] as const) {
      const groups = (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { testGroups: Array<{ publicKey: { uncompressed: string } }> }).testGroups;
      const inputs = groups.flatMap((g) => {
        const full = fromHex(g.publicKey.uncompressed);
        return [full, Uint8Array.of(0x02 | (full[64]! & 1), ...full.subarray(1, 33))];
      });
      expect(await disagreementsEc(curve, inputs)).toEqual([]);
    }
    const ed = (JSON.parse(readFileSync(path.join(dir, 'ed25519_test.json'), 'utf8')) as { testGroups: Array<{ publicKey: { pk: string } }> }).testGroups;
    expect(await disagreementsEd(ed.map((g) => fromHex(g.publicKey.pk)))).toEqual([]);
  });
});
