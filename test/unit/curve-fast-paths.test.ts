/**
 * The curve-point fast paths of src/core/keys/curves.ts (node:crypto's ECDH.convertKey for the
 * Weierstrass curves, BigInt Jacobi-symbol checks for Ed25519 and X25519) against @noble/curves
 * as the oracle: the oracle below is the noble-based implementation svc used before, with the
 * same statuses and reasons, so "agree" means the same result object, reason string included.
 *
 * Inputs: every did:key vector (../shared/fixtures/did-key), every Wycheproof point the repo's
 * tests use (../shared/fixtures/wycheproof), crafted small-order and non-canonical 25519
 * encodings, and, per curve, ≥ 20,000 random encodings and random valid keys from a seeded
 * PRNG (SEED below; a failure names the input, so it reproduces).
 */
import { createECDH, createPrivateKey, createPublicKey, ECDH } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import {
  checkEcPoint,
  checkEd25519,
  checkX25519,
  ED25519_SMALL_ORDER_Y,
  jacobi,
  P25519,
  x25519FromEd25519Y,
  X25519_SMALL_ORDER_U,
  type Ed25519Check,
  type EcPointCheckOptions,
  type PointCheck,
} from '../../src/core/keys/curves.js';
import { withArticle } from '../../src/core/text.js';
import { b64url, fromB64url, fromHex, splitMultikey } from '../support/codec.js';
import { describeWithFixtures } from '../support/fixtures.js';

const SEED = 0x5eed_2311;
const RANDOM_INPUTS = 20_000;

type EcCurve = 'P-256' | 'P-384' | 'P-521' | 'secp256k1';
const EC: Record<EcCurve, { impl: typeof p256; size: number; openssl: string; p: bigint }> = {
  'P-256': { impl: p256, size: 32, openssl: 'prime256v1', p: p256.Point.Fp.ORDER },
  'P-384': { impl: p384, size: 48, openssl: 'secp384r1', p: p384.Point.Fp.ORDER },
  'P-521': { impl: p521, size: 66, openssl: 'secp521r1', p: p521.Point.Fp.ORDER },
  secp256k1: { impl: secp256k1 as unknown as typeof p256, size: 32, openssl: 'secp256k1', p: secp256k1.Point.Fp.ORDER },
};
const EC_CURVES = Object.keys(EC) as EcCurve[];

// ── The oracle: svc's previous, noble-based checks, verbatim in behaviour ────────────────────

const Fp = ed25519.Point.Fp;

function leToBigint(bytes: Uint8Array): bigint {
  let r = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) r = (r << 8n) | BigInt(bytes[i]!);
  return r;
}

function le(value: bigint, length = 32): Uint8Array {
  const out = new Uint8Array(length);
  let v = value;
  for (let i = 0; i < length; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

function be(value: bigint, length: number): Uint8Array {
  return le(value, length).reverse();
}

function nobleEd25519(bytes: Uint8Array): Ed25519Check {
  if (bytes.length !== 32) return { ok: false, reason: `an Ed25519 public key is 32 bytes, not ${bytes.length}` };
  let point;
  try {
    point = ed25519.Point.fromBytes(bytes);
  } catch {
    return { ok: false, reason: 'the Ed25519 key is not a canonical encoding of a point on the curve' };
  }
  if (point.is0()) return { ok: false, reason: 'the Ed25519 key is the identity point' };
  if (point.isSmallOrder()) return { ok: false, reason: 'the Ed25519 key is a point of small order' };
  return { ok: true, jwk: { kty: 'OKP', crv: 'Ed25519', x: b64url(bytes) }, y: point.y };
}

function nobleX25519(bytes: Uint8Array): PointCheck {
  if (bytes.length !== 32) return { ok: false, reason: `an X25519 public key is 32 bytes, not ${bytes.length}` };
  const u = leToBigint(bytes);
  if (u >= Fp.ORDER) return { ok: false, reason: 'the X25519 key is not a canonical u-coordinate (u ≥ 2^255 − 19)' };
  if (u === Fp.ORDER - 1n) return { ok: false, reason: 'the X25519 key is not a point on Curve25519' };
  const y = Fp.mul(Fp.sub(u, 1n), Fp.inv(Fp.add(u, 1n)));
  let point;
  try {
    point = ed25519.Point.fromBytes(le(y));
  } catch {
    return { ok: false, reason: 'the X25519 key is not a point on Curve25519 (it lies on the twist)' };
  }
  if (point.isSmallOrder()) return { ok: false, reason: 'the X25519 key is a point of small order' };
  return { ok: true, jwk: { kty: 'OKP', crv: 'X25519', x: b64url(bytes) } };
}

function nobleX25519FromY(y: bigint): Uint8Array {
  return le(Fp.mul(Fp.add(1n, y), Fp.inv(Fp.sub(1n, y))));
}

function nobleEcPoint(curve: EcCurve, bytes: Uint8Array, options: EcPointCheckOptions = {}): PointCheck {
  const { impl, size } = EC[curve];
  const prefix = bytes[0];
  const compressed = bytes.length === size + 1 && (prefix === 0x02 || prefix === 0x03);
  const uncompressed = bytes.length === 2 * size + 1 && prefix === 0x04;
  if (!compressed && !uncompressed) {
    return {
      ok: false,
      reason: `${withArticle(curve)} point is ${size + 1} bytes compressed (02/03 prefix) or ${2 * size + 1} bytes uncompressed (04 prefix); got ${bytes.length} bytes`,
    };
  }
  let encoded: Uint8Array;
  try {
    const point = impl.Point.fromBytes(bytes);
    point.assertValidity();
    encoded = point.toBytes(false);
  } catch {
    return { ok: false, reason: compressed ? `the x-coordinate is not that of a point on ${curve}` : `the point is not on the ${curve} curve` };
  }
  if (options.require === 'compressed' && !compressed) {
    return { ok: false, reason: `the ${curve} point is uncompressed (${bytes.length} bytes); the compressed ${size + 1}-byte form is required` };
  }
  if (options.require === 'uncompressed' && !uncompressed) {
    return { ok: false, reason: `the ${curve} point is compressed; the uncompressed form is required` };
  }
  return { ok: true, jwk: { kty: 'EC', crv: curve, x: b64url(encoded.subarray(1, 1 + size)), y: b64url(encoded.subarray(1 + size)) } };
}

// ── Agreement helpers: collect every disagreement, report the first few with their input ─────

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

async function disagreementsEd(inputs: Iterable<Uint8Array>, withDerivation = true, checkDerivedUpTo = Infinity): Promise<string[]> {
  const out: string[] = [];
  let derivedChecks = 0;
  for (const bytes of inputs) {
    const fast = await checkEd25519(bytes);
    const oracle = nobleEd25519(bytes);
    if (JSON.stringify(fast, bigintJson) !== JSON.stringify(oracle, bigintJson)) {
      out.push(`${hex(bytes)}: ${JSON.stringify(fast, bigintJson)} vs noble ${JSON.stringify(oracle, bigintJson)}`);
    } else if (withDerivation && fast.ok && oracle.ok) {
      const u = await x25519FromEd25519Y(fast.y);
      if (hex(u) !== hex(nobleX25519FromY(oracle.y))) out.push(`${hex(bytes)}: X25519 ${hex(u)} vs noble ${hex(nobleX25519FromY(oracle.y))}`);
      // The derived key is a valid X25519 key by both checks.
      if (derivedChecks++ < checkDerivedUpTo) {
        const derived = [await checkX25519(u), nobleX25519(u)];
        if (!derived[0]!.ok || !derived[1]!.ok) out.push(`${hex(bytes)}: derived X25519 ${hex(u)} is not valid`);
      }
    }
    if (out.length >= 5) break;
  }
  return out;
}

async function disagreementsX(inputs: Iterable<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for (const bytes of inputs) {
    const fast = await checkX25519(bytes);
    const oracle = nobleX25519(bytes);
    if (JSON.stringify(fast) !== JSON.stringify(oracle)) out.push(`${hex(bytes)}: ${JSON.stringify(fast)} vs noble ${JSON.stringify(oracle)}`);
    if (out.length >= 5) break;
  }
  return out;
}

async function disagreementsEc(curve: EcCurve, inputs: Iterable<Uint8Array>, options: EcPointCheckOptions[] = [{}]): Promise<string[]> {
  const out: string[] = [];
  for (const bytes of inputs) {
    for (const opts of options) {
      const fast = await checkEcPoint(curve, bytes, opts);
      const oracle = nobleEcPoint(curve, bytes, opts);
      if (JSON.stringify(fast) !== JSON.stringify(oracle)) {
        out.push(`${curve} ${hex(bytes)} ${JSON.stringify(opts)}: ${JSON.stringify(fast)} vs noble ${JSON.stringify(oracle)}`);
      }
    }
    if (out.length >= 5) break;
  }
  return out;
}

function bigintJson(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}

/** Counts of accepted inputs, so a test can show it exercised both outcomes. */
async function accepted(inputs: Uint8Array[], check: (b: Uint8Array) => Promise<{ ok: boolean }>): Promise<number> {
  let n = 0;
  for (const b of inputs) if ((await check(b)).ok) n++;
  return n;
}

// ── Seeded PRNG (xoshiro128**), so every random input is reproducible from SEED ───────────────

function prng(seed: number): (length: number) => Uint8Array {
  let a = seed >>> 0;
  // splitmix32 to spread the seed over the four words
  const mix = (): number => {
    a = (a + 0x9e3779b9) >>> 0;
    let z = a;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const s = [mix(), mix(), mix(), mix()];
  const next = (): number => {
    const result = Math.imul(((Math.imul(s[1]!, 5) << 7) | (Math.imul(s[1]!, 5) >>> 25)) >>> 0, 9) >>> 0;
    const t = (s[1]! << 9) >>> 0;
    s[2]! ^= s[0]!;
    s[3]! ^= s[1]!;
    s[1]! ^= s[2]!;
    s[0]! ^= s[3]!;
    s[2]! ^= t;
    s[3] = ((s[3]! << 11) | (s[3]! >>> 21)) >>> 0;
    return result;
  };
  return (length: number) => {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i += 4) {
      const w = next();
      for (let j = 0; j < 4 && i + j < length; j++) out[i + j] = (w >>> (8 * j)) & 0xff;
    }
    return out;
  };
}

/** A valid Ed25519 public key from a 32-byte seed, through node:crypto (RFC 8032 keygen). */
function ed25519PublicFromSeed(seed: Uint8Array): Uint8Array {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const jwk = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ format: 'jwk' });
  return fromB64url(jwk.x!);
}

/** A valid EC public key (compressed SEC1) from random bytes as the secret, through node:crypto. */
function ecPublicFromSecret(curve: EcCurve, random: (n: number) => Uint8Array): Uint8Array {
  const { openssl, size, impl } = EC[curve];
  for (;;) {
    const secret = random(size);
    if (curve === 'P-521') secret[0]! &= 0x01;
    const k = leToBigint(Uint8Array.from(secret).reverse());
    if (k === 0n || k >= impl.Point.CURVE().n) continue;
    const ecdh = createECDH(openssl);
    ecdh.setPrivateKey(secret);
    return new Uint8Array(ecdh.getPublicKey(null, 'compressed'));
  }
}

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
    const keys = Array.from({ length: RANDOM_INPUTS / 2 }, () => ed25519PublicFromSeed(random(32)));
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
    const keys = Array.from({ length: RANDOM_INPUTS / 4 }, () => {
      const jwk = createPublicKey(
        createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), random(32)]), format: 'der', type: 'pkcs8' }),
      ).export({ format: 'jwk' });
      return fromB64url(jwk.x!);
    });
    expect(await disagreementsX(keys)).toEqual([]);
    expect(await accepted(keys, checkX25519)).toBe(keys.length);
  }, 60_000);

  for (const curve of EC_CURVES) {
    it(`${curve}: ${RANDOM_INPUTS} random encodings and random valid keys (both forms, tampered, x + p)`, async () => {
      const { size, p } = EC[curve];
      const random = prng(SEED ^ (size * 131 + curve.length));
      const inputs: Uint8Array[] = [];
      // Random compressed encodings (about half are points; each costs noble a square root, so
      // fewer on the larger curves) and random uncompressed ones.
      const big = size > 32;
      const compressedCount = big ? RANDOM_INPUTS * 0.3 : RANDOM_INPUTS / 2;
      const validCount = big ? RANDOM_INPUTS / 20 : RANDOM_INPUTS / 16;
      for (let i = 0; i < compressedCount; i++) {
        const x = random(size);
        if (curve === 'P-521') x[0]! &= i % 4 === 0 ? 0xff : 0x01;
        inputs.push(Uint8Array.of(i % 2 === 0 ? 0x02 : 0x03, ...x));
      }
      const uncompressedCount = RANDOM_INPUTS - compressedCount - 5 * validCount;
      for (let i = 0; i < uncompressedCount; i++) inputs.push(Uint8Array.of(0x04, ...random(2 * size)));
      // Random valid keys: compressed, uncompressed, uncompressed with y → p − y (valid),
      // y + 1 (off the curve), the other compressed prefix, and x + p or y + p (non-canonical)
      // where it fits in the coordinate (P-521 only, for random x: see the crafted test).
      for (let i = 0; i < validCount; i++) {
        const c = ecPublicFromSecret(curve, random);
        const full = ECDH.convertKey(c, EC[curve].openssl, undefined, undefined, 'uncompressed') as Buffer;
        const x = leToBigint(Uint8Array.from(full.subarray(1, 1 + size)).reverse());
        const y = leToBigint(Uint8Array.from(full.subarray(1 + size)).reverse());
        const flipped = Uint8Array.of(c[0]! ^ 1, ...c.subarray(1));
        inputs.push(c, full, Uint8Array.of(0x04, ...be(x, size), ...be(p - y, size)), Uint8Array.of(0x04, ...be(x, size), ...be((y + 1n) % p, size)), flipped);
        if (x + p < 2n ** BigInt(8 * size)) inputs.push(Uint8Array.of(c[0]!, ...be(x + p, size)), Uint8Array.of(0x04, ...be(x + p, size), ...be(y, size)));
        if (y + p < 2n ** BigInt(8 * size)) inputs.push(Uint8Array.of(0x04, ...be(x, size), ...be(y + p, size)));
      }
      expect(inputs.length).toBeGreaterThanOrEqual(RANDOM_INPUTS);
      expect(await disagreementsEc(curve, inputs)).toEqual([]);
      const n = await accepted(inputs, (b) => checkEcPoint(curve, b));
      expect(n).toBeGreaterThan(validCount * 3);
    }, 60_000);
  }

  it('crafted Weierstrass encodings: zero coordinates, x = p, all-ones, the point at infinity, hybrid prefixes', async () => {
    for (const curve of EC_CURVES) {
      const { size, p } = EC[curve];
      const inputs: Uint8Array[] = [];
      for (const x of [0n, 1n, 2n, 3n, 4n, p - 1n, p, p + 1n, 2n ** BigInt(8 * size) - 1n].filter((v) => v < 2n ** BigInt(8 * size))) {
        inputs.push(Uint8Array.of(0x02, ...be(x, size)), Uint8Array.of(0x03, ...be(x, size)));
        for (const y of [0n, 1n, p - 1n, p].filter((v) => v < 2n ** BigInt(8 * size))) inputs.push(Uint8Array.of(0x04, ...be(x, size), ...be(y, size)));
      }
      // Points with small x, and their non-canonical x + p (and y + p) encodings, which fit in
      // the coordinate on every curve here (2^(8·size) − p > 2^32).
      let smallX = 0;
      for (let x = 1n; x < 200n && smallX < 8; x++) {
        let point;
        try {
          point = EC[curve].impl.Point.fromBytes(Uint8Array.of(0x02, ...be(x, size)));
        } catch {
          continue;
        }
        smallX++;
        const y = point.toAffine().y;
        inputs.push(Uint8Array.of(0x02, ...be(x, size)), Uint8Array.of(0x03, ...be(x + p, size)), Uint8Array.of(0x02, ...be(x + p, size)));
        inputs.push(Uint8Array.of(0x04, ...be(x, size), ...be(y, size)), Uint8Array.of(0x04, ...be(x + p, size), ...be(y, size)));
        if (y + p < 2n ** BigInt(8 * size)) inputs.push(Uint8Array.of(0x04, ...be(x, size), ...be(y + p, size)));
      }
      expect(smallX, curve).toBeGreaterThan(0);
      inputs.push(Uint8Array.of(0x00), new Uint8Array(0), Uint8Array.of(0x06, ...new Uint8Array(2 * size)), Uint8Array.of(0x07, ...new Uint8Array(2 * size)));
      expect(await disagreementsEc(curve, inputs, [{}, { require: 'compressed' }, { require: 'uncompressed' }])).toEqual([]);
    }
  });
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
