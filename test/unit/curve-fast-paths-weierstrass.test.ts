/**
 * The Weierstrass half of the curve fast-path oracle test (see curve-fast-paths.test.ts): the
 * node:crypto ECDH.convertKey path of P-256, P-384, P-521 and secp256k1 against
 * @noble/curves on ≥ 20,000 seeded random encodings and random valid keys per curve, and
 * crafted encodings. A file of its own, so that each half stays well under 20 s.
 */
import { ECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkEcPoint } from '../../src/core/keys/curves.js';
import { accepted, be, disagreementsEc, EC, EC_CURVES, ecPublicFromSecret, leToBigint, prng, RANDOM_INPUTS, SEED } from '../support/curve-oracle.js';

describe(`Weierstrass curves: random inputs (seed ${SEED.toString(16)}) and crafted encodings agree with noble`, () => {
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
