/**
 * Curve-point validation (decoding and validation only; signatures are verified with
 * node:crypto elsewhere). Each curve takes the fastest path that rejects exactly what
 * @noble/curves rejects (test/unit/curve-fast-paths.test.ts keeps noble as the oracle):
 *
 *  - P-256, P-384, P-521, secp256k1: OpenSSL through `ECDH.convertKey`, which decodes the SEC1
 *    point (compressed or not), rejects coordinates ≥ p and points off the curve, and returns
 *    the uncompressed form. All four curves have cofactor 1, so on the curve means in the group.
 *  - Ed25519, X25519: OpenSSL does not validate these public keys (it accepts small-order,
 *    non-canonical and off-curve encodings), so they are checked here with BigInt arithmetic:
 *    canonical encoding, curve membership by a Jacobi symbol (no square root is taken), and
 *    small order by the y (or u) of the eight torsion points.
 *
 * Nothing here imports @noble/curves; key generation (generate.ts) still does, lazily.
 */
import { ECDH } from 'node:crypto';
import { base64urlEncode } from '../encoding/base64url.js';
import { withArticle } from '../text.js';
import type { Curve, PublicJwk } from './types.js';

export type PointCheck = { ok: true; jwk: PublicJwk } | { ok: false; reason: string };

/** Coordinate size in bytes of the short-Weierstrass curves. */
export const EC_COORDINATE_BYTES: Readonly<Record<'P-256' | 'P-384' | 'P-521' | 'secp256k1', number>> = {
  'P-256': 32,
  'P-384': 48,
  'P-521': 66,
  secp256k1: 32,
};

type EcCurve = keyof typeof EC_COORDINATE_BYTES;

/** OpenSSL's names of the curves. */
const OPENSSL_CURVE: Readonly<Record<EcCurve, string>> = {
  'P-256': 'prime256v1',
  'P-384': 'secp384r1',
  'P-521': 'secp521r1',
  secp256k1: 'secp256k1',
};

export function isEcCurve(curve: string): curve is EcCurve {
  return Object.hasOwn(EC_COORDINATE_BYTES, curve);
}

// ── Curve25519 / edwards25519 field arithmetic (p = 2^255 − 19) ──────────────────────────────

/** The field prime 2^255 − 19. */
export const P25519 = 2n ** 255n - 19n;
/** edwards25519's d = −121665/121666 mod p. */
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n;
/** Curve25519's A (v² = u³ + A·u² + u). */
const A = 486662n;
/** y of the edwards25519 points of order 8 (two of them share each y, by the sign of x). */
const Y_ORDER_8 = 0x7a03ac9277fdc74ec6cc392cfa53202a0f67100d760b3cba4fd84d3d706a17c7n;
/**
 * y of every point of small order (the eight-point torsion subgroup): 1 (identity), p − 1
 * (order 2), 0 (order 4) and the two y of the order-8 points.
 */
export const ED25519_SMALL_ORDER_Y: ReadonlySet<bigint> = new Set([1n, P25519 - 1n, 0n, Y_ORDER_8, P25519 - Y_ORDER_8]);
/**
 * u of every Curve25519 point of small order: 0 (order 2), 1 (order 4) and the two u of the
 * order-8 points; the images of the y above under u = (1 + y)/(1 − y) (the identity has none).
 */
export const X25519_SMALL_ORDER_U: ReadonlySet<bigint> = new Set([
  0n,
  1n,
  0x57119fd0dd4e22d8868e1c58c45c44045bef839c55b1d0b1248c50a3bc959c5fn,
  0x00b8495f16056286fdb1329ceb8d09da6ac49ff1fae35616aeb8413b7c7aebe0n,
]);

const mod = (a: bigint): bigint => {
  const r = a % P25519;
  return r < 0n ? r + P25519 : r;
};

/** Little-endian unsigned integer of the bytes. */
function leToBigint(bytes: Uint8Array): bigint {
  let hex = '';
  for (let i = bytes.length - 1; i >= 0; i--) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  return hex === '' ? 0n : BigInt(`0x${hex}`);
}

/** The 32 little-endian bytes of a field element (through hex: no BigInt step per byte). */
function fieldToLe(value: bigint): Uint8Array {
  const out = new Uint8Array(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'));
  return out.reverse();
}

/**
 * Jacobi symbol (a/n) for odd n > 0, by the binary algorithm (quadratic reciprocity, no
 * exponentiation): for the prime p it is the Legendre symbol, 1 for a non-zero square, −1 for
 * a non-square, 0 for a ≡ 0. The reference for jacobi() below (tests, bench baseline).
 */
export function jacobiBinary(value: bigint, modulus: bigint): -1 | 0 | 1 {
  let a = value % modulus;
  if (a < 0n) a += modulus;
  let n = modulus;
  let t: -1 | 1 = 1;
  while (a !== 0n) {
    // Strip the factors of two: (2/n) = −1 iff n ≡ 3, 5 (mod 8).
    let low = Number(a & 0xffffffffn);
    while (low === 0) {
      a >>= 32n; // an even number of twos leaves the symbol unchanged
      low = Number(a & 0xffffffffn);
    }
    const zeros = 31 - Math.clz32(low & -low);
    if (zeros !== 0) {
      a >>= BigInt(zeros);
      const r = Number(n & 7n);
      if (zeros & 1 && (r === 3 || r === 5)) t = t === 1 ? -1 : 1;
    }
    // Reciprocity: swap, with a sign change iff both are ≡ 3 (mod 4).
    if (Number(a & 3n) === 3 && Number(n & 3n) === 3) t = t === 1 ? -1 : 1;
    const swap = a;
    a = n % swap;
    n = swap;
  }
  return n === 1n ? t : 0;
}

const TWO_52 = 2 ** 52;
/** Moduli above this take the binary algorithm: a double holds the leading bits of a remainder only below 2^1024. */
const LEHMER_LIMIT = 2n ** 1000n;

/** (2/x) = −1 iff x ≡ 3, 5 (mod 8), for odd x given mod 8. */
const twoIsNonResidue = (x8: number): boolean => x8 === 3 || x8 === 5;

/**
 * Jacobi symbol (a/n) for odd n > 0, along the plain Euclidean remainder sequence, its
 * quotients found by Lehmer's method as invert() finds them. The remainders are not kept odd,
 * so the symbol is carried as s·(N/D) with D the odd one of the pair, the "denominator", and N
 * the other. A Euclid step L' = L − q·S (L > S > 0, 0 ≤ L' < S, the pair becomes (S, L')) changes
 * it by rules that need only L, S and q mod 8 (m odd throughout; ε(x, y) = −1 iff x ≡ y ≡ 3 mod 4):
 *
 *  1. D = S: (L/S) = (L'/S), since L' ≡ L (mod S). Same sign; D stays S.
 *  2. D = L, S odd: (S/L) = ε(S, L)·(L/S) by reciprocity = ε(S, L)·(L'/S). D becomes S.
 *  3. D = L, S = 2^k·m even (L' = L − q·S is then odd): (S/L) = (2/L)^k·(m/L) and
 *     (m/L) = ε(m, L)·(L/m) = ε(m, L)·(L'/m) (L' ≡ L mod m) = ε(m, L)·ε(m, L')·(m/L'), so
 *     (S/L) = σ·(S/L') with σ = (2/L)^k·(2/L')^k·ε(m, L)·ε(m, L'). For k ≥ 2, L' ≡ L (mod 4) and
 *     for k ≥ 3 (mod 8) as well, so σ = 1; for k = 1, σ comes from L, L' mod 8 and m ≡ S/2 (mod 4).
 *     D becomes L'.
 *
 * The sequence ends at (gcd, 0): 0 is even, so D = gcd, and (0/1) = 1 gives s when the gcd is 1
 * (0 otherwise). Lehmer's quotients are exact (Knuth, TAOCP vol. 2, 4.5.2, Algorithm L: a
 * quotient is taken only when both bounds of the truncated remainders agree, and the double
 * divisions of integers below 2^52 floor exactly), and the residues mod 8 are carried exactly in
 * small integers. About 2.4 times the binary algorithm's speed and ten times that of Euler's
 * criterion a^((p−1)/2) in BigInt (noble's FpLegendre; bench/curve25519.bench.ts); test/property/
 * curve25519.test.ts checks it against Euler's criterion and the binary algorithm.
 */
export function jacobi(value: bigint, modulus: bigint): -1 | 0 | 1 {
  if (modulus > LEHMER_LIMIT) return jacobiBinary(value, modulus); // Number(u) would overflow
  let v = value % modulus;
  if (v < 0n) v += modulus;
  let u = modulus;
  let state = DENOMINATOR_IS_U;
  while (v !== 0n) {
    const approx = Number(u);
    if (approx < TWO_52) return jacobiSmall(approx, Number(v), state); // both exact as doubles now
    // The leading bits of u and v under one shift: x below 2^51, every sum below 2^52.
    const shift = BigInt(Math.floor(Math.log2(approx)) - 49);
    let x = Number(u >> shift);
    let y = Number(v >> shift);
    let u8 = Number(BigInt.asUintN(3, u));
    let v8 = Number(BigInt.asUintN(3, v));
    let A = 1;
    let B = 0;
    let C = 0;
    let D = 1;
    for (;;) {
      if (y + C === 0 || y + D === 0) break;
      const q = Math.floor((x + A) / (y + C));
      if (q !== Math.floor((x + B) / (y + D))) break;
      // One exact Euclid step of the true remainders: (u, v) → (v, u − q·v), mod 8 here.
      const r8 = (u8 - (q % 8) * v8) & 7;
      state = jacobiStep(state, u8, v8, r8);
      u8 = v8;
      v8 = r8;
      let t = A - q * C;
      A = C;
      C = t;
      t = B - q * D;
      B = D;
      D = t;
      t = x - q * y;
      x = y;
      y = t;
    }
    if (B === 0) {
      // Not one quotient certain from the leading bits: one full-precision step.
      const q = u / v;
      const r = u - q * v;
      state = jacobiStep(state, u8, v8, (u8 - Number(BigInt.asUintN(3, q)) * v8) & 7);
      u = v;
      v = r;
    } else {
      const nu = BigInt(A) * u + BigInt(B) * v;
      v = BigInt(C) * u + BigInt(D) * v;
      u = nu;
    }
  }
  return u === 1n ? (state & NEGATIVE ? -1 : 1) : 0;
}

/** jacobi() once both remainders are below 2^52: plain Euclid in doubles, exact there. */
function jacobiSmall(u0: number, v0: number, state0: number): -1 | 0 | 1 {
  let u = u0;
  let v = v0;
  let state = state0;
  while (v !== 0) {
    const r = u % v;
    state = jacobiStep(state, u % 8, v % 8, r % 8);
    u = v;
    v = r;
  }
  return u === 1 ? (state & NEGATIVE ? -1 : 1) : 0;
}

/** Bits of jacobi()'s state: the sign s, and whether the denominator D is the larger remainder u. */
const NEGATIVE = 2;
const DENOMINATOR_IS_U = 1;

/** The state after the Euclid step (u, v) → (v, r), r = u − q·v, from u, v, r mod 8 (the rules of jacobi()). */
function jacobiStep(state: number, u8: number, v8: number, r8: number): number {
  if ((state & DENOMINATOR_IS_U) === 0) return state | DENOMINATOR_IS_U; // rule 1: D = S, the new u
  if (v8 & 1) return (v8 & 3) === 3 && (u8 & 3) === 3 ? state ^ NEGATIVE : state; // rule 2: D = S, the new u
  // rule 3: D = L', the new v; σ = −1 only for k = 1
  const flip = (v8 & 3) === 2 && (twoIsNonResidue(u8) !== twoIsNonResidue(r8)) !== (((v8 >> 1) & 3) === 3 && (u8 & 3) !== (r8 & 3));
  return (flip ? state ^ NEGATIVE : state) & ~DENOMINATOR_IS_U;
}

/** Multiplicative inverse mod p by the plain extended Euclid (the fallback of invert(), and its bench baseline). */
export function invertEuclid(value: bigint): bigint {
  let r0 = P25519;
  let r1 = mod(value);
  let x0 = 0n;
  let x1 = 1n;
  while (r1 !== 0n) {
    // Plain temporaries, no destructuring: an array per step costs a third of the time.
    const q = r0 / r1;
    const r2 = r0 - q * r1;
    r0 = r1;
    r1 = r2;
    const x2 = x0 - q * x1;
    x0 = x1;
    x1 = x2;
  }
  return mod(x0);
}

/**
 * Multiplicative inverse mod p (a must not be ≡ 0) by Lehmer's extended Euclid (Knuth, TAOCP
 * vol. 2, 4.5.2, Algorithm L): the quotients are found from the leading ~50 bits of the two
 * remainders in double-precision Numbers, exact below 2^53, for as long as both bounds give
 * the same quotient, and applied to the BigInts as one 2×2 matrix. A plain Euclid step costs
 * a BigInt division and four multiplications or subtractions; Lehmer replaces about 25 of them
 * with a dozen BigInt operations, 2.5–3.5 times faster here. The answer is checked (a·a⁻¹ ≡ 1)
 * and the plain Euclid answers instead should that ever fail (test/property/curve25519.test.ts
 * agrees with @noble/curves on every input it tries, the fallback never taken).
 */
export function invert(value: bigint): bigint {
  const a = mod(value);
  let u = P25519;
  let v = a;
  let su = 0n;
  let sv = 1n;
  while (v !== 0n) {
    // The leading bits of u and v under one shift: x below 2^51, every sum below 2^52.
    const approx = Number(u);
    let x: number;
    let y: number;
    if (approx < TWO_52) {
      x = approx;
      y = Number(v);
    } else {
      const shift = BigInt(Math.floor(Math.log2(approx)) - 49);
      x = Number(u >> shift);
      y = Number(v >> shift);
    }
    let A = 1;
    let B = 0;
    let C = 0;
    let D = 1;
    for (;;) {
      if (y + C === 0 || y + D === 0) break;
      const q = Math.floor((x + A) / (y + C));
      if (q !== Math.floor((x + B) / (y + D))) break;
      let t = A - q * C;
      A = C;
      C = t;
      t = B - q * D;
      B = D;
      D = t;
      t = x - q * y;
      x = y;
      y = t;
    }
    if (B === 0) {
      // Not one quotient certain from the leading bits: one full-precision step.
      const q = u / v;
      const r = u - q * v;
      u = v;
      v = r;
      const s = su - q * sv;
      su = sv;
      sv = s;
    } else {
      const a0 = BigInt(A);
      const b0 = BigInt(B);
      const c0 = BigInt(C);
      const d0 = BigInt(D);
      const nu = a0 * u + b0 * v;
      v = c0 * u + d0 * v;
      u = nu;
      const ns = a0 * su + b0 * sv;
      sv = c0 * su + d0 * sv;
      su = ns;
    }
  }
  const inverse = mod(su);
  return u === 1n && (inverse * a) % P25519 === 1n ? inverse : invertEuclid(a);
}

/**
 * The checks are pure functions of the bytes, and the same keys come back (a did:web document
 * re-resolved, a monitored DID, an issuer's key in every credential): the last KEY_CHECK_MEMO
 * results are kept, frozen, keyed by curve, required form and bytes. A key is never checked
 * less — an identical input gets the identical answer.
 */
export const KEY_CHECK_MEMO = 1024;
const checks = new Map<string, PointCheck | Ed25519Check>();

function remembered<T extends PointCheck | Ed25519Check>(key: string, check: () => T): T {
  const kept = checks.get(key);
  if (kept !== undefined) return kept as T;
  const result = check();
  if (result.ok) Object.freeze(result.jwk);
  checks.set(key, Object.freeze(result) as T);
  if (checks.size > KEY_CHECK_MEMO) checks.delete(checks.keys().next().value as string);
  return result;
}

/** How many key checks are kept (tests). */
export function keyChecksKept(): number {
  return checks.size;
}

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export type Ed25519Check = { ok: true; jwk: PublicJwk /** affine y of the point */; y: bigint } | { ok: false; reason: string };

/**
 * Ed25519 public key (RFC 8032 §5.1.3 decoding): canonical (y < p; x = 0 only with sign bit 0),
 * on the curve, not the identity nor of small order. x² = (y² − 1)/(d·y² + 1) has a solution iff
 * the numerator is 0 or (y² − 1)(d·y² + 1) is a square (the denominator is never 0); x itself is
 * never needed, so no square root is taken.
 */
export async function checkEd25519(bytes: Uint8Array): Promise<Ed25519Check> {
  return remembered(`Ed25519|${hexOf(bytes)}`, () => ed25519Check(bytes));
}

function ed25519Check(bytes: Uint8Array): Ed25519Check {
  if (bytes.length !== 32) return { ok: false, reason: `an Ed25519 public key is 32 bytes, not ${bytes.length}` };
  const sign = (bytes[31]! & 0x80) !== 0;
  const top = bytes[31]! & 0x7f;
  let hex = top < 16 ? `0${top.toString(16)}` : top.toString(16);
  for (let i = 30; i >= 0; i--) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  const y = BigInt(`0x${hex}`);
  const notOnCurve = { ok: false, reason: 'the Ed25519 key is not a canonical encoding of a point on the curve' } as const;
  if (y >= P25519) return notOnCurve;
  const y2 = (y * y) % P25519;
  const u = mod(y2 - 1n);
  if (u === 0n) {
    if (sign) return notOnCurve; // x = 0 with the sign bit set
  } else if (jacobi(u * ((D * y2 + 1n) % P25519), P25519) !== 1) {
    return notOnCurve;
  }
  if (y === 1n) return { ok: false, reason: 'the Ed25519 key is the identity point' };
  if (ED25519_SMALL_ORDER_Y.has(y)) return { ok: false, reason: 'the Ed25519 key is a point of small order' };
  return { ok: true, jwk: { kty: 'OKP', crv: 'Ed25519', x: base64urlEncode(bytes) }, y };
}

/**
 * X25519 public key (RFC 7748 u-coordinate): canonical (< p, top bit clear), on the curve
 * rather than its twist, and not of small order. On the curve iff u³ + A·u² + u is a square or
 * 0 (same answer as mapping to edwards25519 by y = (u − 1)/(u + 1) and decoding, which is how
 * u = p − 1, the one u without an image, gets its own reason).
 */
export async function checkX25519(bytes: Uint8Array): Promise<PointCheck> {
  return remembered(`X25519|${hexOf(bytes)}`, () => x25519Check(bytes));
}

function x25519Check(bytes: Uint8Array): PointCheck {
  if (bytes.length !== 32) return { ok: false, reason: `an X25519 public key is 32 bytes, not ${bytes.length}` };
  const u = leToBigint(bytes);
  if (u >= P25519) return { ok: false, reason: 'the X25519 key is not a canonical u-coordinate (u ≥ 2^255 − 19)' };
  if (u === P25519 - 1n) return { ok: false, reason: 'the X25519 key is not a point on Curve25519' };
  if (u !== 0n && jacobi(u * ((u * (u + A) + 1n) % P25519), P25519) !== 1) {
    return { ok: false, reason: 'the X25519 key is not a point on Curve25519 (it lies on the twist)' };
  }
  if (X25519_SMALL_ORDER_U.has(u)) return { ok: false, reason: 'the X25519 key is a point of small order' };
  return { ok: true, jwk: { kty: 'OKP', crv: 'X25519', x: base64urlEncode(bytes) } };
}

/**
 * The X25519 key an Ed25519 key converts to (RFC 7748 §4.1 map, u = (1 + y)/(1 − y)), from the
 * y of an already validated point: one field inversion, no second decoding. The map preserves
 * being on the curve and the order of the point, so the result of a valid, not-small-order
 * Ed25519 key is a valid X25519 key by construction.
 */
export async function x25519FromEd25519Y(y: bigint): Promise<Uint8Array> {
  return fieldToLe(((1n + y) * invert(1n - y)) % P25519);
}

export interface EcPointCheckOptions {
  /** Encoding the caller requires; a valid point in the other form is reported as invalid. */
  require?: 'compressed' | 'uncompressed';
}

/**
 * A SEC1-encoded point (compressed 02/03 ‖ x, or uncompressed 04 ‖ x ‖ y) on a short
 * Weierstrass curve. All four curves have cofactor 1, so on the curve means in the group.
 */
export async function checkEcPoint(curve: EcCurve, bytes: Uint8Array, options: EcPointCheckOptions = {}): Promise<PointCheck> {
  return remembered(`${curve}|${options.require ?? ''}|${hexOf(bytes)}`, () => ecPointCheck(curve, bytes, options));
}

function ecPointCheck(curve: EcCurve, bytes: Uint8Array, options: EcPointCheckOptions): PointCheck {
  const size = EC_COORDINATE_BYTES[curve];
  const prefix = bytes[0];
  const compressed = bytes.length === size + 1 && (prefix === 0x02 || prefix === 0x03);
  const uncompressed = bytes.length === 2 * size + 1 && prefix === 0x04;
  if (!compressed && !uncompressed) {
    return {
      ok: false,
      reason: `${withArticle(curve)} point is ${size + 1} bytes compressed (02/03 prefix) or ${2 * size + 1} bytes uncompressed (04 prefix); got ${bytes.length} bytes`,
    };
  }
  let encoded: Buffer;
  try {
    // OpenSSL's EC_POINT_oct2point: coordinates < p, point on the curve (x solvable when compressed).
    encoded = ECDH.convertKey(bytes, OPENSSL_CURVE[curve], undefined, undefined, 'uncompressed') as Buffer;
  } catch {
    encoded = Buffer.alloc(0);
  }
  if (encoded.length !== 2 * size + 1) {
    return {
      ok: false,
      reason: compressed ? `the x-coordinate is not that of a point on ${curve}` : `the point is not on the ${curve} curve`,
    };
  }
  if (options.require === 'compressed' && !compressed) {
    return { ok: false, reason: `the ${curve} point is uncompressed (${bytes.length} bytes); the compressed ${size + 1}-byte form is required` };
  }
  if (options.require === 'uncompressed' && !uncompressed) {
    return { ok: false, reason: `the ${curve} point is compressed; the uncompressed form is required` };
  }
  return {
    ok: true,
    jwk: {
      kty: 'EC',
      crv: curve,
      x: base64urlEncode(encoded.subarray(1, 1 + size)),
      y: base64urlEncode(encoded.subarray(1 + size)),
    },
  };
}

/** Validates raw key bytes of a supported curve, in the encoding multicodec uses. */
export async function checkCurveKey(curve: Curve, bytes: Uint8Array, options: EcPointCheckOptions = {}): Promise<PointCheck | Ed25519Check> {
  switch (curve) {
    case 'Ed25519':
      return checkEd25519(bytes);
    case 'X25519':
      return checkX25519(bytes);
    default:
      return checkEcPoint(curve, bytes, options);
  }
}
