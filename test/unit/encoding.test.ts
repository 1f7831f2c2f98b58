/** Strict codecs: base58btc, base64url, multicodec varints and duplicate-rejecting JSON. */
import { describe, expect, it } from 'vitest';
import { base58Decode, base58Encode } from '../../src/core/encoding/base58.js';
import { base64urlDecode, base64urlEncode } from '../../src/core/encoding/base64url.js';
import { parseJsonStrict, StrictJsonError } from '../../src/core/encoding/json.js';
import { readVarint, writeVarint } from '../../src/core/encoding/varint.js';
import { refBase58Decode, refBase58Encode, refVarint } from '../support/codec.js';

/** Deterministic byte strings (xorshift32), so failures reproduce. */
function* randomBytes(count: number, maxLength: number, seed = 0x9e3779b9): Generator<Uint8Array> {
  let s = seed >>> 0;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  for (let n = 0; n < count; n++) {
    const length = next() % (maxLength + 1);
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) bytes[i] = next() & 0xff;
    // Every fourth value starts with zero bytes, which base58 encodes as leading '1's.
    if (n % 4 === 0) bytes.fill(0, 0, Math.min(length, next() % 4));
    yield bytes;
  }
}

function strictError(text: string, options?: { maxDepth?: number }): StrictJsonError {
  try {
    parseJsonStrict(text, options);
  } catch (err) {
    expect(err).toBeInstanceOf(StrictJsonError);
    return err as StrictJsonError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('base58btc', () => {
  it.each([
    ['', ''],
    ['61', '2g'],
    ['626262', 'a3gV'],
    ['636363', 'aPEr'],
    ['73696d706c792061206c6f6e6720737472696e67', '2cFupjhnEsSn59qHXstmK2ffpLv2'],
    ['00eb15231dfceb60925886b67d065299925915aeb172c06647', '1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L'],
    ['516b6fcd0f', 'ABnLTmg'],
    ['bf4f89001e670274dd', '3SEo3LWLoPntC'],
    ['572e4794', '3EFU7m'],
    ['ecac89cad93923c02321', 'EJDM8drfXA6uyA'],
    ['10c8511e', 'Rt5zm'],
    ['00000000000000000000', '1111111111'],
  ])('Bitcoin test vector %s ↔ %s', (hex, text) => {
    const bytes = new Uint8Array(Buffer.from(hex, 'hex'));
    expect(base58Encode(bytes)).toBe(text);
    expect(base58Decode(text)).toEqual(bytes);
  });

  it('round-trips random data, leading zero bytes included, and agrees with a BigInt reference', () => {
    let withZeros = 0;
    for (const bytes of randomBytes(500, 80)) {
      const text = base58Encode(bytes);
      expect(text).toBe(refBase58Encode(bytes));
      expect(base58Decode(text)).toEqual(bytes);
      if (bytes[0] === 0) {
        withZeros++;
        expect(text.startsWith('1')).toBe(true);
      }
    }
    expect(withZeros).toBeGreaterThan(20);
  });

  it('keeps every leading zero byte', () => {
    for (let zeros = 0; zeros <= 5; zeros++) {
      const bytes = Uint8Array.from([...new Array<number>(zeros).fill(0), 0x01, 0xff]);
      const text = base58Encode(bytes);
      expect(text.startsWith('1'.repeat(zeros))).toBe(true);
      expect(text[zeros]).not.toBe('1');
      expect(base58Decode(text)).toEqual(bytes);
      expect(refBase58Decode(text)).toEqual(bytes);
    }
  });

  it.each(['0', 'O', 'I', 'l', '+', '/', '=', ' ', 'é', '\u0000'])('rejects %j (not in the alphabet) → null', (ch) => {
    expect(base58Decode(ch)).toBeNull();
    expect(base58Decode(`z6Mk${ch}abc`)).toBeNull();
    expect(base58Decode(`abc${ch}`)).toBeNull();
  });
});

describe('base64url (strict, unpadded)', () => {
  it('round-trips every length and agrees with RFC 4648 §5', () => {
    for (const bytes of randomBytes(300, 40, 12345)) {
      const text = base64urlEncode(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
      expect(base64urlDecode(text)).toEqual(bytes);
    }
  });

  it.each([
    ['', []],
    ['Zg', [0x66]],
    ['Zm8', [0x66, 0x6f]],
    ['Zm9v', [0x66, 0x6f, 0x6f]],
    ['-_8', [0xfb, 0xff]],
  ])('decodes %j', (text, bytes) => {
    expect(base64urlDecode(text)).toEqual(Uint8Array.from(bytes));
  });

  it.each([
    ['padding', 'Zg=='],
    ['single padding', 'Zm8='],
    ['"+" (base64, not base64url)', '-+8'],
    ['"/" (base64, not base64url)', '_/8'],
    ['whitespace', 'Zm 9v'],
    ['newline', 'Zm9v\n'],
    ['impossible length (4n+1)', 'Zm9vY'],
    ['non-canonical trailing bits (1 byte)', 'Zh'],
    ['non-canonical trailing bits (2 bytes)', 'Zm9'],
    ['non-canonical trailing bits (2 bytes, low bit)', 'Zm-'],
    ['non-ASCII', 'Zm9vé'],
    ['"." ', 'Zm9v.Zm9v'],
  ])('rejects %s → null', (_name, text) => {
    expect(base64urlDecode(text)).toBeNull();
  });
});

describe('multicodec varint', () => {
  it.each([
    [0, [0x00]],
    [1, [0x01]],
    [0x7f, [0x7f]],
    [0x80, [0x80, 0x01]],
    [0xed, [0xed, 0x01]],
    [0xec, [0xec, 0x01]],
    [0xe7, [0xe7, 0x01]],
    [0x1200, [0x80, 0x24]],
    [0x1205, [0x85, 0x24]],
    [16384, [0x80, 0x80, 0x01]],
  ])('%i ↔ %j', (value, bytes) => {
    expect(Array.from(writeVarint(value))).toEqual(bytes);
    expect(readVarint(Uint8Array.from(bytes))).toEqual({ value, length: bytes.length });
  });

  it('round-trips, and reads the prefix of a longer buffer at an offset', () => {
    for (const value of [0, 1, 127, 128, 255, 300, 0x3fff, 0x4000, 2 ** 31, 2 ** 35 + 17, Number.MAX_SAFE_INTEGER]) {
      const encoded = writeVarint(value);
      expect(encoded).toEqual(refVarint(value));
      const buffer = Uint8Array.from([0xaa, ...encoded, 0x01, 0x02]);
      expect(readVarint(buffer, 1)).toEqual({ value, length: encoded.length });
    }
  });

  it.each([
    ['non-minimal 0 (80 00)', [0x80, 0x00]],
    ['non-minimal 1 (81 00)', [0x81, 0x00]],
    ['non-minimal 0xed (ed 81 00)', [0xed, 0x81, 0x00]],
    ['non-minimal 0x1200 (80 a4 00)', [0x80, 0xa4, 0x00]],
  ])('rejects %s', (_name, bytes) => {
    expect(readVarint(Uint8Array.from(bytes))).toBeNull();
  });

  it.each([
    ['empty', []],
    ['one continuation byte', [0x80]],
    ['truncated ed25519-pub prefix', [0xed]],
    ['truncated p256-pub prefix', [0x80]],
    ['three continuation bytes', [0xff, 0xff, 0xff]],
  ])('rejects a truncated varint (%s)', (_name, bytes) => {
    expect(readVarint(Uint8Array.from(bytes))).toBeNull();
  });

  it('rejects varints over 9 bytes and values beyond 2^53', () => {
    expect(readVarint(Uint8Array.from([...new Array<number>(9).fill(0xff), 0x01]))).toBeNull();
    expect(readVarint(Uint8Array.from([...new Array<number>(8).fill(0xff), 0x7f]))).toBeNull();
  });
});

describe('parseJsonStrict', () => {
  describe('duplicate member names', () => {
    it.each([
      ['top level', '{"a":1,"a":2}', '/a'],
      ['after unescaping (\\u0061 is "a")', '{"a":1,"\\u0061":2}', '/a'],
      ['after unescaping (\\/ is "/")', '{"a/b":1,"a\\/b":2}', '/a~1b'],
      ['after unescaping, both escaped', '{"\\u006b\\u0074\\u0079":"EC","k\\u0074y":"OKP"}', '/kty'],
      ['nested object', '{"x":{"y":1,"y":2}}', '/x/y'],
      ['inside an array', '{"x":{"y":[{"z":1},{"z":1,"z":2}]}}', '/x/y/1/z'],
      ['deep', '[[[[{"a":{"b":{"c":0,"c":0}}}]]]]', '/0/0/0/0/a/b/c'],
      ['pointer escaping of ~ and /', '{"a/b~c":1,"a/b~c":2}', '/a~1b~0c'],
      ['empty name', '{"":1,"":2}', '/'],
      ['__proto__', '{"__proto__":{},"__proto__":{}}', '/__proto__'],
      ['not adjacent', '{"a":1,"b":2,"c":3,"a":4}', '/a'],
    ])('%s → duplicate-member at %s', (_name, text, pointer) => {
      const err = strictError(text);
      expect(err.kind).toBe('duplicate-member');
      expect(err.pointer).toBe(pointer);
      expect(err.name).toBe('StrictJsonError');
    });

    it('allows the same name in different objects', () => {
      expect(parseJsonStrict('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toEqual({ a: { a: 1 }, b: [{ a: 1 }, { a: 2 }] });
    });

    it('case differs → not duplicates', () => {
      expect(parseJsonStrict('{"a":1,"A":2}')).toEqual({ a: 1, A: 2 });
    });
  });

  it('keeps "__proto__" as an own property and leaves the prototype alone', () => {
    const value = parseJsonStrict('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    // Same shape as JSON.parse gives.
    const native = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')).toEqual(Object.getOwnPropertyDescriptor(native, '__proto__'));
  });

  it('other Object.prototype names are plain members', () => {
    const value = parseJsonStrict('{"constructor":1,"toString":"x","hasOwnProperty":null}') as Record<string, unknown>;
    expect(value['constructor']).toBe(1);
    expect(value['toString']).toBe('x');
    expect(Object.keys(value)).toEqual(['constructor', 'toString', 'hasOwnProperty']);
  });

  describe('depth limit', () => {
    const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const objects = (n: number) => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);

    it('accepts 64 levels by default and rejects 65 with kind too-deep', () => {
      expect(() => parseJsonStrict(arrays(64))).not.toThrow();
      expect(() => parseJsonStrict(objects(64))).not.toThrow();
      expect(strictError(arrays(65)).kind).toBe('too-deep');
      expect(strictError(objects(65)).kind).toBe('too-deep');
      expect(strictError(`{"a":[{"b":${arrays(63)}}]}`).kind).toBe('too-deep');
    });

    it('honours maxDepth', () => {
      expect(parseJsonStrict(arrays(3), { maxDepth: 3 })).toEqual([[[]]]);
      expect(strictError(arrays(4), { maxDepth: 3 }).kind).toBe('too-deep');
      expect(strictError('{"a":{}}', { maxDepth: 1 }).kind).toBe('too-deep');
      expect(parseJsonStrict('"scalars have no depth"', { maxDepth: 0 })).toBe('scalars have no depth');
    });

    it('does not overflow the stack on absurd nesting', () => {
      expect(strictError(arrays(100_000)).kind).toBe('too-deep');
    });
  });

  it.each([
    'null',
    'true',
    'false',
    '0',
    '-0',
    '1',
    '-1',
    '3.14159',
    '1e3',
    '1E+2',
    '-2.5e-3',
    '1.7976931348623157e308',
    '5e-324',
    '123456789012345678901234567890',
    '""',
    '"plain"',
    '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    '"\\u00e9\\u20AC\\ud83d\\ude00"',
    // '"\\ud800"' is JSON that JSON.parse reads, but not I-JSON: the strict parser refuses it
    // (a lone surrogate has no RFC 8785 form; test/unit/i-json.test.ts).
    '"é€😀"',
    '[]',
    '{}',
    ' \t\r\n[ 1 , 2 ,\n 3 ] \n',
    '{"a":[1,{"b":null}],"c":"d","e":{"f":[true,false]}}',
    '[[[[[]]]],{},[{}]]',
    '{"kty":"EC","crv":"P-256","x":"abc","y":"def"}',
    '{"":""}',
  ])('agrees with JSON.parse on %s', (text) => {
    expect(parseJsonStrict(text)).toStrictEqual(JSON.parse(text));
  });

  it('keeps member order as JSON.parse does', () => {
    const text = '{"z":1,"a":2,"m":{"y":1,"b":2}}';
    expect(JSON.stringify(parseJsonStrict(text))).toBe(JSON.stringify(JSON.parse(text)));
  });

  it.each([
    ['trailing data', '{} x'],
    ['two values', '1 2'],
    ['trailing comma in an array', '[1,]'],
    ['trailing comma in an object', '{"a":1,}'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['-Infinity', '-Infinity'],
    ['single-quoted string', "'a'"],
    ['single-quoted member name', "{'a':1}"],
    ['unquoted member name', '{a:1}'],
    ['leading zero', '01'],
    ['negative leading zero', '-01'],
    ['leading plus', '+1'],
    ['bare fraction', '.5'],
    ['trailing point', '1.'],
    ['hex number', '0x10'],
    ['number out of binary64 range', '1e400'],
    ['empty input', ''],
    ['whitespace only', '  '],
    ['unterminated string', '"abc'],
    ['unterminated array', '[1,2'],
    ['raw control character in a string', '"a\u0001b"'],
    ['raw newline in a string', '"a\nb"'],
    ['bad escape', '"\\x"'],
    ['short \\u escape', '"\\u12"'],
    ['comment', '{"a":1 /* c */}'],
    ['missing colon', '{"a" 1}'],
    ['capitalised literal', 'True'],
    ['truncated literal', 'nul'],
  ])('rejects %s', (_name, text) => {
    // Sanity check of the case itself: JSON.parse rejects it too (1e400 it reads as Infinity).
    const nativeRejects = (() => {
      try {
        return JSON.parse(text) === Infinity;
      } catch {
        return true;
      }
    })();
    expect(nativeRejects).toBe(true);
    const err = strictError(text);
    expect(err.kind).toBe('syntax');
    expect(err.position).toBeGreaterThanOrEqual(0);
  });
});
