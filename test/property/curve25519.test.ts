/**
 * The Curve25519 fast paths of src/core/keys/curves.ts against @noble/curves (the oracle of
 * test/support/curve-oracle.ts), on seeded random inputs:
 * - invert (Lehmer's extended Euclid) against noble's field inversion, on 20,000 random field
 *   elements and the edges (1, 2, p − 1, p − 2, powers of two, values above p);
 * - the Ed25519 public-key check with the X25519 derivation, on 20,000 random 32-byte strings
 *   and 20,000 valid keys (same status, reason and y; the same X25519 key as noble's map);
 * - the X25519 public-key check, on 20,000 random 32-byte strings and 20,000 valid keys.
 */
import { describe, expect, it } from 'vitest';
import { checkEd25519, checkX25519, invert, P25519 } from '../../src/core/keys/curves.js';
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
