/**
 * @noble/curves as the oracle of src/core/keys/curves.ts: svc's previous, noble-based point
 * checks (same statuses and reasons), agreement helpers, a seeded PRNG and key generators.
 * Used by test/unit/curve-fast-paths*.test.ts.
 */
import { createECDH } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  checkEcPoint,
  checkEd25519,
  checkX25519,
  x25519FromEd25519Y,
  type Ed25519Check,
  type EcPointCheckOptions,
  type PointCheck,
} from '../../src/core/keys/curves.js';
import { withArticle } from '../../src/core/text.js';
import { b64url } from './codec.js';

export const SEED = 0x5eed_2311;
export const RANDOM_INPUTS = 20_000;

export type EcCurve = 'P-256' | 'P-384' | 'P-521' | 'secp256k1';
export const EC: Record<EcCurve, { impl: typeof p256; size: number; openssl: string; p: bigint }> = {
  'P-256': { impl: p256, size: 32, openssl: 'prime256v1', p: p256.Point.Fp.ORDER },
  'P-384': { impl: p384, size: 48, openssl: 'secp384r1', p: p384.Point.Fp.ORDER },
  'P-521': { impl: p521, size: 66, openssl: 'secp521r1', p: p521.Point.Fp.ORDER },
  secp256k1: { impl: secp256k1 as unknown as typeof p256, size: 32, openssl: 'secp256k1', p: secp256k1.Point.Fp.ORDER },
};
export const EC_CURVES = Object.keys(EC) as EcCurve[];

// ── The oracle: svc's previous, noble-based checks, verbatim in behaviour ────────────────────

export const Fp = ed25519.Point.Fp;

export function leToBigint(bytes: Uint8Array): bigint {
  let r = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) r = (r << 8n) | BigInt(bytes[i]!);
  return r;
}

export function le(value: bigint, length = 32): Uint8Array {
  const out = new Uint8Array(length);
  let v = value;
  for (let i = 0; i < length; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export function be(value: bigint, length: number): Uint8Array {
  return le(value, length).reverse();
}

export function nobleEd25519(bytes: Uint8Array): Ed25519Check {
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

export function nobleX25519(bytes: Uint8Array): PointCheck {
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

export function nobleX25519FromY(y: bigint): Uint8Array {
  return le(Fp.mul(Fp.add(1n, y), Fp.inv(Fp.sub(1n, y))));
}

export function nobleEcPoint(curve: EcCurve, bytes: Uint8Array, options: EcPointCheckOptions = {}): PointCheck {
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

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

export async function disagreementsEd(inputs: Iterable<Uint8Array>, withDerivation = true, checkDerivedUpTo = Infinity): Promise<string[]> {
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

export async function disagreementsX(inputs: Iterable<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for (const bytes of inputs) {
    const fast = await checkX25519(bytes);
    const oracle = nobleX25519(bytes);
    if (JSON.stringify(fast) !== JSON.stringify(oracle)) out.push(`${hex(bytes)}: ${JSON.stringify(fast)} vs noble ${JSON.stringify(oracle)}`);
    if (out.length >= 5) break;
  }
  return out;
}

export async function disagreementsEc(curve: EcCurve, inputs: Iterable<Uint8Array>, options: EcPointCheckOptions[] = [{}]): Promise<string[]> {
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

export function bigintJson(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}

/** Counts of accepted inputs, so a test can show it exercised both outcomes. */
export async function accepted(inputs: Uint8Array[], check: (b: Uint8Array) => Promise<{ ok: boolean }>): Promise<number> {
  let n = 0;
  for (const b of inputs) if ((await check(b)).ok) n++;
  return n;
}

// ── Seeded PRNG (xoshiro128**), so every random input is reproducible from SEED ───────────────

export function prng(seed: number): (length: number) => Uint8Array {
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

/**
 * Valid edwards25519 points (prime-order subgroup) from the PRNG: walks of Q ← Q + R from a
 * random multiple of the base point by a random step R, restarted every 64 points. About 30 µs
 * a point, against 250–330 µs for a full keygen each (noble or node:crypto).
 */
export function ed25519ValidPoints(count: number, random: (n: number) => Uint8Array): Array<InstanceType<typeof ed25519.Point>> {
  const n = ed25519.Point.CURVE().n;
  const scalar = (): bigint => (leToBigint(random(32)) % (n - 1n)) + 1n;
  const out: Array<InstanceType<typeof ed25519.Point>> = [];
  let q = ed25519.Point.BASE;
  let step = ed25519.Point.BASE;
  for (let i = 0; i < count; i++) {
    if (i % 64 === 0) {
      q = ed25519.Point.BASE.multiply(scalar());
      step = ed25519.Point.BASE.multiply(scalar());
    } else {
      q = q.add(step);
    }
    out.push(q);
  }
  return out;
}

/** A valid EC public key (compressed SEC1) from random bytes as the secret, through node:crypto. */
export function ecPublicFromSecret(curve: EcCurve, random: (n: number) => Uint8Array): Uint8Array {
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
