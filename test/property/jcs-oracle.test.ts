/**
 * svc's one-pass RFC 8785 writer (src/core/canonical.ts) against an independent implementation,
 * the `canonicalize` package (a development dependency kept as the oracle): equal text for
 * every I-JSON value, and a CanonicalizationError exactly where the value has no form (a lone
 * surrogate in a string or member name, a number that is not finite), where the oracle throws.
 */
import fc from 'fast-check';
import oracleImpl from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { CanonicalizationError, canonicalize } from '../../src/core/canonical.js';

const oracle = oracleImpl as unknown as (value: unknown) => string;

/** Strings mixing ASCII, controls, escapes, astral pairs and (sometimes) lone surrogates. */
function text(withLone: boolean): fc.Arbitrary<string> {
  const units = ['a', 'Z', '0', ' ', '"', '\\', '/', '\u0000', '\u0008', '\u001f', '\u007f', '\u00e9', '\u2028', '\u20ac', '\ud83d\ude00', '\ufeff', '\uffff'];
  if (withLone) units.push('\ud800', '\udfff');
  return fc.array(fc.constantFrom(...units), { maxLength: 8 }).map((parts) => parts.join(''));
}

const numbers = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, Number.MIN_SAFE_INTEGER, 0.1, 333333333.3333333),
);

function json(withLone: boolean): fc.Arbitrary<unknown> {
  const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      numbers,
      text(withLone),
      fc.array(tie('tree'), { maxLength: 5 }),
      fc.dictionary(text(withLone), tie('tree'), { maxKeys: 6 }),
    ),
  }));
  return tree;
}

describe('RFC 8785: svc agrees with an independent implementation', () => {
  it('writes the same text for 20,000 I-JSON values', () => {
    fc.assert(
      fc.property(json(false), (value) => {
        expect(canonicalize(value)).toBe(oracle(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('refuses exactly the values the oracle refuses (lone surrogates), with a typed error', () => {
    let refused = 0;
    fc.assert(
      fc.property(json(true), (value) => {
        let expected: string | null;
        try {
          expected = oracle(value);
        } catch {
          expected = null;
        }
        if (expected === null) {
          refused++;
          expect(() => canonicalize(value)).toThrow(CanonicalizationError);
        } else {
          expect(canonicalize(value)).toBe(expected);
        }
      }),
      { numRuns: 5_000 },
    );
    expect(refused).toBeGreaterThan(100);
  });

  it('sorts member names by UTF-16 code units, not code points or locale', () => {
    const value = { '\ud83d\ude00': 1, '\ufb33': 2, b: 3, B: 4, '1': 5, '10': 6, '2': 7 };
    expect(canonicalize(value)).toBe(oracle(value));
    expect(canonicalize(value)).toBe('{"1":5,"10":6,"2":7,"B":4,"b":3,"\ud83d\ude00":1,"\ufb33":2}');
  });

  it('leaves out members whose value is undefined and honours toJSON, as JSON.stringify does', () => {
    expect(canonicalize({ b: undefined, a: new Date(0) })).toBe('{"a":"1970-01-01T00:00:00.000Z"}');
    expect(() => canonicalize([undefined])).toThrow(/undefined/);
    expect(() => canonicalize({ a: 10n })).toThrow(CanonicalizationError);
    expect(() => canonicalize({ a: Number.NaN })).toThrow(/not finite/);
  });
});
