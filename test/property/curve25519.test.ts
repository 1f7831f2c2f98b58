/**
 * The Curve25519 fast paths of src/core/keys/curves.ts against @noble/curves (the oracle of
 * test/support/curve-oracle.ts), on seeded random inputs:
 * - invert (Lehmer's extended Euclid) against noble's field inversion, on 20,000 random field
 *   elements and the edges (1, 2, p − 1, p − 2, powers of two, values above p);
 * - the Ed25519 public-key check with the X25519 derivation, on 20,000 random 32-byte strings
 *   and 20,000 valid keys (same status, reason and y; the same X25519 key as noble's map);
 * - the X25519 public-key check, on 20,000 random 32-byte strings and 20,000 valid keys;
 * - the Jacobi symbol (Lehmer's Euclid) against Euler's criterion a^((p−1)/2) and the binary
 *   algorithm, on 20,000 random field elements, the (y² − 1)(d·y² + 1) of 20,000 random y, and
 *   the edges (0, 1, p − 1, squares, non-squares, values above p, negatives, powers of two); and
 *   against the binary algorithm on every small odd modulus and random moduli of many sizes.
 */
import { describe, expect, it } from 'vitest';
import { checkEd25519, checkX25519, invert, jacobi, jacobiBinary, P25519 } from '../../src/core/keys/curves.js';
import {
  accepted,
  disagreementsEd,
  disagreementsX,
  ed25519ValidPoints,
  Fp,
  leToBigint,
  nobleX25519FromY,
  prng,
  RANDOM_INPUTS,
  SEED,
} from '../support/curve-oracle.js';

/** Euler's criterion: a^((p−1)/2) mod p is 1, p − 1 or 0; as a symbol. */
function euler(value: bigint): -1 | 0 | 1 {
  let r = 1n;
  let x = ((value % P25519) + P25519) % P25519;
  for (let k = (P25519 - 1n) / 2n; k > 0n; k >>= 1n) {
    if (k & 1n) r = (r * x) % P25519;
    x = (x * x) % P25519;
  }
  if (r !== 0n && r !== 1n && r !== P25519 - 1n) throw new Error(`Euler's criterion gave ${r}`);
  return r === 0n ? 0 : r === 1n ? 1 : -1;
}

/** edwards25519's d, as noble has it. */
const D = Fp.div(Fp.neg(121665n), 121666n);

describe(`Jacobi symbol mod 2^255 − 19 agrees with Euler's criterion (seed ${SEED.toString(16)})`, () => {
  it(`${RANDOM_INPUTS} random field elements and ${RANDOM_INPUTS} curve-equation values (y² − 1)(d·y² + 1)`, () => {
    const random = prng(SEED ^ 0x1ac0b1);
    const wrong: string[] = [];
    const counts = { [-1]: 0, 0: 0, 1: 0 } as Record<-1 | 0 | 1, number>;
    for (let i = 0; i < RANDOM_INPUTS; i++) {
      // mostly full-size elements, some short ones (the double-precision tail from the start)
      const a = leToBigint(random(i % 7 === 0 ? 1 + (i % 32) : 32)) % P25519;
      const expected = euler(a);
      counts[expected]++;
      if (jacobi(a, P25519) !== expected || jacobiBinary(a, P25519) !== expected) wrong.push(`${a}`);
      const y = leToBigint(random(32)) % P25519;
      const y2 = Fp.sqr(y);
      const w = Fp.mul(Fp.sub(y2, 1n), Fp.add(Fp.mul(D, y2), 1n));
      if (jacobi(w, P25519) !== euler(w)) wrong.push(`w of y = ${y}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // about half squares, half non-squares
    expect(counts[1]).toBeGreaterThan(RANDOM_INPUTS * 0.45);
    expect(counts[-1]).toBeGreaterThan(RANDOM_INPUTS * 0.45);
  }, 120_000);

  it('the edges: 0, 1, p − 1, multiples of p, negatives, powers of two, squares and non-squares', () => {
    const random = prng(SEED ^ 0xed9e);
    const cases: bigint[] = [
      0n,
      1n,
      2n,
      3n,
      4n,
      P25519 - 1n,
      P25519 - 2n,
      P25519,
      2n * P25519,
      P25519 + 1n,
      3n * P25519 - 1n,
      -1n,
      -2n,
      -P25519,
      2n ** 255n - 20n,
    ];
    for (let k = 0n; k < 300n; k++) cases.push(2n ** k, 2n ** k - 1n, 2n ** k + 1n, k, P25519 - k);
    for (let i = 0; i < 500; i++) {
      const x = leToBigint(random(32)) % P25519;
      cases.push(Fp.sqr(x), -Fp.sqr(x));
    }
    for (const value of cases) expect(jacobi(value, P25519), `a = ${value}`).toBe(euler(value));
    expect(jacobi(0n, P25519)).toBe(0);
    expect(jacobi(1n, P25519)).toBe(1);
    expect(jacobi(P25519 - 1n, P25519)).toBe(1); // p ≡ 1 (mod 4): −1 is a square
    expect(jacobi(2n, P25519)).toBe(-1); // p ≡ 5 (mod 8): 2 is not
    // every non-zero square is a square, and a square times a non-square is not
    const nonSquare = 2n;
    for (let i = 0; i < 2_000; i++) {
      const x = (leToBigint(random(32)) % (P25519 - 1n)) + 1n;
      const square = Fp.sqr(x);
      expect(jacobi(square, P25519)).toBe(1);
      expect(jacobi(Fp.mul(square, nonSquare), P25519)).toBe(-1);
    }
  });

  it('against the binary algorithm on every odd modulus below 600 and random odd moduli up to 2^1100', () => {
    const random = prng(SEED ^ 0x0dd);
    const wrong: string[] = [];
    for (let n = 1n; n < 600n; n += 2n) {
      for (let a = -40n; a < 700n; a++) if (jacobi(a, n) !== jacobiBinary(a, n)) wrong.push(`(${a}/${n})`);
    }
    for (let i = 0; i < 4_000; i++) {
      const n = leToBigint(random(1 + (i % 138))) | 1n;
      const a = leToBigint(random(1 + ((i * 7) % 140)));
      if (jacobi(a, n) !== jacobiBinary(a, n)) wrong.push(`(${a}/${n})`);
      const m = n * (n + 2n); // composite: the Jacobi symbol, not a Legendre symbol
      if (jacobi(a, m) !== jacobiBinary(a, m)) wrong.push(`(${a}/${m})`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  }, 60_000);
});

describe(`Curve25519 fast paths agree with @noble/curves (seed ${SEED.toString(16)})`, () => {
  it(`invert: ${RANDOM_INPUTS} random field elements and the edges`, () => {
    const random = prng(SEED ^ 0x1a);
    const edges = [
      1n,
      2n,
      3n,
      19n,
      P25519 - 1n,
      P25519 - 2n,
      P25519 + 1n,
      2n * P25519 - 1n,
      -1n,
      2n ** 52n,
      2n ** 53n + 1n,
      2n ** 128n,
      2n ** 254n,
      2n ** 255n - 20n,
    ];
    const values = [...edges, ...Array.from({ length: RANDOM_INPUTS }, (_, i) => leToBigint(random(i % 3 === 0 ? 8 + (i % 25) : 32)))];
    const wrong: string[] = [];
    for (const value of values) {
      const element = ((value % P25519) + P25519) % P25519;
      if (element === 0n) continue;
      const expected = Fp.inv(element);
      if (invert(value) !== expected) wrong.push(`${value}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it(`Ed25519: ${RANDOM_INPUTS} random 32-byte strings and ${RANDOM_INPUTS} valid keys, with the X25519 derivation`, async () => {
    const random = prng(SEED ^ 0xed25519);
    const strings = Array.from({ length: RANDOM_INPUTS }, () => random(32));
    expect(await disagreementsEd(strings, true, 500)).toEqual([]);
    const n = await accepted(strings, checkEd25519);
    expect(n).toBeGreaterThan(RANDOM_INPUTS * 0.4); // about half of all y are on the curve
    expect(n).toBeLessThan(RANDOM_INPUTS * 0.6);
    const keys = ed25519ValidPoints(RANDOM_INPUTS, random).map((q) => q.toBytes());
    expect(await disagreementsEd(keys, true, 500)).toEqual([]);
    expect(await accepted(keys, checkEd25519)).toBe(keys.length);
  }, 120_000);

  it(`X25519: ${RANDOM_INPUTS} random 32-byte strings (top bit cleared for half) and ${RANDOM_INPUTS} valid keys`, async () => {
    const random = prng(SEED ^ 0x25519);
    const strings = Array.from({ length: RANDOM_INPUTS }, (_, i) => {
      const b = random(32);
      if (i % 2 === 0) b[31]! &= 0x7f;
      return b;
    });
    expect(await disagreementsX(strings)).toEqual([]);
    expect(await accepted(strings, checkX25519)).toBeGreaterThan(RANDOM_INPUTS * 0.15);
    const keys = ed25519ValidPoints(RANDOM_INPUTS, random).map((q) => nobleX25519FromY(q.toAffine().y));
    expect(await disagreementsX(keys)).toEqual([]);
    expect(await accepted(keys, checkX25519)).toBe(keys.length);
  }, 120_000);
});
