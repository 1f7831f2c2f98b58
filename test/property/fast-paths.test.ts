/**
 * Hand-written fast paths against the plain definitions they replace (issue 23): they must give
 * the same answer on every input, valid or not.
 * - didOf: a one-pass read of plain DIDs and DID URLs against the DID URL grammar (parseDidUrl);
 * - base64urlDecode: the canonical-form test on the last character against "encoding the bytes
 *   again gives the same text";
 * - rfc3339: the hand-formatted stamp against Date#toISOString.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didOf, parseDidUrl } from '../../src/core/did/syntax.js';
import { base64urlDecode } from '../../src/core/encoding/base64url.js';
import { rfc3339 } from '../../src/core/runtime.js';

function grammarDidOf(text: string): string | null {
  try {
    return parseDidUrl(text).did;
  } catch {
    return null;
  }
}

/** Strings built from the pieces DIDs and near-DIDs are made of. */
const didLike = fc
  .array(fc.constantFrom('did', ':', 'key', 'web', 'z6Mk', 'a', 'Z', '0', '.', '_', '-', '%3A', '%', '%zz', '#', '#key-1', '/', '?', '~', '!', '@', '[', ' ', 'é', 'Ä'), { maxLength: 10 })
  .map((parts) => parts.join(''));

/** Mostly DIDs and DID URLs: a method, idchars, and sometimes a fragment. */
const nearlyValid = fc
  .tuple(
    fc.constantFrom('key', 'web', 'x1'),
    fc.array(fc.constantFrom('z6Mk', 'a', 'Z', '0', '.', '_', '-', '%3A', ':', '%4'), { minLength: 1, maxLength: 6 }),
    fc.constantFrom('', '#', '#key-1', '#a/b?c', '#%20', '#é', '/path', '?q=1'),
  )
  .map(([method, id, tail]) => `did:${method}:${id.join('')}${tail}`);

describe('fast paths agree with their definitions', () => {
  it('didOf agrees with the DID URL grammar on 20,000 DID-like strings', () => {
    let dids = 0;
    fc.assert(
      fc.property(fc.oneof(didLike, didLike.map((s) => `did:${s}`), didLike.map((s) => `did:key:${s}`), nearlyValid), (text) => {
        const expected = grammarDidOf(text);
        if (expected !== null) dids++;
        expect(didOf(text)).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
    // Both answers are exercised: thousands of inputs are DIDs or DID URLs, the rest are not.
    expect(dids).toBeGreaterThan(1_000);
    expect(dids).toBeLessThan(19_000);
  });

  it('base64urlDecode accepts exactly the canonical unpadded texts', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 14 }), (chars) => {
        const text = chars.join('');
        const bytes = Buffer.from(text, 'base64url');
        const canonical = text.length % 4 !== 1 && bytes.toString('base64url') === text;
        const decoded = base64urlDecode(text);
        expect(decoded !== null).toBe(canonical);
        if (decoded !== null) expect(Buffer.from(decoded).equals(bytes)).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('rfc3339 writes what toISOString does, to the second, for every year', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        const date = new Date(ms);
        expect(rfc3339(date)).toBe(`${date.toISOString().slice(0, 19)}Z`);
      }),
      { numRuns: 20_000 },
    );
    for (const ms of [0, -62167219200000, -62167219200001, 253402300799999, 253402300800000]) {
      const date = new Date(ms);
      expect(rfc3339(date)).toBe(`${date.toISOString().slice(0, 19)}Z`);
    }
  });
});
