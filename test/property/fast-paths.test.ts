/**
 * Hand-written fast paths against the plain definitions they replace: they must give
 * the same answer on every input, valid or not.
 * - didOf: a one-pass read of plain DIDs and DID URLs against the DID URL grammar (parseDidUrl);
 * - base64urlDecode: the canonical-form test on the last character against "encoding the bytes
 *   again gives the same text";
 * - rfc3339: the hand-formatted stamp against Date#toISOString.
 * - nameWords: the one-pass split of ASCII names against the two replacements and the split;
 * - excerptAt: printable ASCII taken by the run and the character table against rendering every
 *   code point on its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didOf, parseDidUrl } from '../../src/core/did/syntax.js';
import { base64urlDecode } from '../../src/core/encoding/base64url.js';
import { nameWords } from '../../src/core/mcp/classes.js';
import { excerptAt, isInvisible } from '../../src/core/mcp/signals.js';
import { rfc3339 } from '../../src/core/runtime.js';

/** nameWords as first written: camelCase humps and acronyms spaced, lower-cased, split. */
function definedNameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])(?=[A-Z])/g, '$1 ')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** One code point as an excerpt shows it, by definition: whitespace a space, unsafe as U+XXXX. */
function definedRendering(cp: number): string {
  const char = String.fromCodePoint(cp);
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) return ' ';
  if (isInvisible(cp) || (cp >= 0xd800 && cp <= 0xdfff) || /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u.test(char)) {
    return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return /\s/u.test(char) ? ' ' : char;
}

/** excerptAt by definition: every code point rendered on its own (24 characters of lead, 80 at most). */
function definedExcerpt(text: string, index: number): string {
  let start = index;
  let lead = 0;
  while (start > 0) {
    let previous = start - 1;
    const low = text.charCodeAt(previous);
    if (low >= 0xdc00 && low <= 0xdfff && previous > 0) {
      const high = text.charCodeAt(previous - 1);
      if (high >= 0xd800 && high <= 0xdbff) previous--;
    }
    const width = definedRendering(text.codePointAt(previous)!).length;
    if (lead + width > 24) break;
    lead += width;
    start = previous;
  }
  const budget = 80 - (start > 0 ? 1 : 0) - 1;
  let body = '';
  let i = start;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    const piece = definedRendering(cp);
    if (!(piece === ' ' && body.endsWith(' '))) {
      if (body.length + piece.length > budget) break;
      body += piece;
    }
    i += cp > 0xffff ? 2 : 1;
  }
  const cut = i < text.length;
  return `${start > 0 ? '…' : ''}${body}${cut ? '…' : ''}`.replace(/^(…?) +/, '$1').replace(/ +(…?)$/, '$1');
}

function grammarDidOf(text: string): string | null {
  try {
    return parseDidUrl(text).did;
  } catch {
    return null;
  }
}

/** Strings built from the pieces DIDs and near-DIDs are made of. */
const didLike = fc
  .array(
    fc.constantFrom(
      'did',
      ':',
      'key',
      'web',
      'z6Mk',
      'a',
      'Z',
      '0',
      '.',
      '_',
      '-',
      '%3A',
      '%',
      '%zz',
      '#',
      '#key-1',
      '/',
      '?',
      '~',
      '!',
      '@',
      '[',
      ' ',
      'é',
      'Ä',
    ),
    { maxLength: 10 },
  )
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
      fc.property(
        fc.oneof(
          didLike,
          didLike.map((s) => `did:${s}`),
          didLike.map((s) => `did:key:${s}`),
          nearlyValid,
        ),
        (text) => {
          const expected = grammarDidOf(text);
          if (expected !== null) dids++;
          expect(didOf(text)).toBe(expected);
        },
      ),
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

  it('nameWords splits as its two replacements and the split do, on 50,000 names', () => {
    const unit = fc.constantFrom(...'aZbY09_-. /AbCdEHTTPqx'.split(''), 'İ', 'é', 'ÿ', 'ǅ', '\u{1F600}');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit }), fc.string({ unit: 'binary-ascii' })), (name) => {
        expect(nameWords(name)).toEqual(definedNameWords(name));
      }),
      { numRuns: 50_000 },
    );
    expect(nameWords('getHTTPStatus')).toEqual(['get', 'http', 'status']);
  });

  it('excerptAt renders as every code point rendered on its own does, on 20,000 texts', () => {
    const unit = fc.constantFrom(
      'a',
      'Z',
      '0',
      ' ',
      '  ',
      '\t',
      '\n',
      '.',
      '~',
      '\u200b',
      '\u00a0',
      '\u2028',
      '\u{E0041}',
      '\ud800',
      '\udc00',
      'é',
      '\u{1F600}',
      '\u0085',
      '\u007f',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 200 }), fc.nat(), (text, at) => {
        const index = text.length === 0 ? 0 : at % text.length;
        expect(excerptAt(text, index)).toBe(definedExcerpt(text, index));
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
