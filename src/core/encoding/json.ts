/**
 * Strict JSON (RFC 8259) parsing that keeps what JSON.parse throws away: member identity.
 *
 * JSON.parse silently keeps the last of duplicate member names; so do jose and most JWT
 * libraries. An attacker who can make two parsers disagree about `iss` or `kty` wins, so svc
 * parses untrusted JSON with this parser, which rejects duplicates (after unescaping) at any
 * depth, and bounds nesting depth.
 *
 * It also accepts only I-JSON (RFC 7493 §2.1): a lone surrogate — escaped (`"\ud800"`) or a raw
 * code unit in a JS string — is refused, as are numbers beyond binary64. RFC 8785 is defined
 * over I-JSON, so every value this parser returns has a canonical form and fingerprints of
 * outside content (documents, cards, tools, log entries) never fail after the fact.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type StrictJsonErrorKind = 'syntax' | 'duplicate-member' | 'too-deep' | 'lone-surrogate';

export class StrictJsonError extends Error {
  constructor(
    readonly kind: StrictJsonErrorKind,
    message: string,
    readonly position: number,
    /** JSON Pointer (RFC 6901) of the offending member, for duplicates. */
    readonly pointer?: string,
  ) {
    super(message);
    this.name = 'StrictJsonError';
  }
}

export interface StrictJsonOptions {
  /** Maximum nesting of arrays and objects (default 64). */
  maxDepth?: number;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** `\ud800`: how a reason names a surrogate code unit (its value, never the attacker's text). */
function surrogateText(c: number): string {
  return `\\u${c.toString(16).padStart(4, '0')}`;
}

export function parseJsonStrict(text: string, options: StrictJsonOptions = {}): JsonValue {
  const maxDepth = options.maxDepth ?? 64;
  let i = 0;

  const fail = (kind: StrictJsonErrorKind, message: string, pointer?: string): never => {
    throw new StrictJsonError(kind, message, i, pointer);
  };

  const skipWs = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };

  /** The code unit of the `\uXXXX` escape at `at`, or null when there is none. */
  const unicodeEscape = (at: number): number | null => {
    if (text.charCodeAt(at) !== 0x5c || text[at + 1] !== 'u') return null;
    const hex = text.slice(at + 2, at + 6);
    return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : null;
  };

  // A surrogate must be the high half of a pair whose low half follows in the same form (two
  // escapes, or two raw code units of a JS string): anything else is not I-JSON.
  const loneSurrogate = (c: number, where: string): never => fail('lone-surrogate', `lone surrogate ${surrogateText(c)} in ${where}`);

  const parseString = (where: string): string => {
    // Caller has checked text[i] === '"'.
    i++;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= text.length) fail('syntax', 'unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) fail('syntax', 'control character in string');
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        if (e === 'u') {
          const unit = unicodeEscape(i);
          if (unit === null) return fail('syntax', 'invalid \\u escape');
          if (isHighSurrogate(unit)) {
            const low = unicodeEscape(i + 6);
            if (low === null || !isLowSurrogate(low)) return loneSurrogate(unit, where);
            out += String.fromCharCode(unit, low);
            i += 12;
          } else if (isLowSurrogate(unit)) {
            return loneSurrogate(unit, where);
          } else {
            out += String.fromCharCode(unit);
            i += 6;
          }
        } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
          out += ESCAPES[e];
          i += 2;
        } else {
          fail('syntax', 'invalid escape');
        }
        start = i;
      } else if (c >= 0xd800 && c <= 0xdfff) {
        if (!isHighSurrogate(c) || !isLowSurrogate(text.charCodeAt(i + 1))) return loneSurrogate(c, where);
        i += 2;
      } else {
        i++;
      }
    }
  };

  const parseValue = (depth: number, pointer: string): JsonValue => {
    skipWs();
    const c = text[i];
    if (c === '{') {
      if (depth >= maxDepth) fail('too-deep', `nesting deeper than ${maxDepth}`);
      i++;
      const obj: JsonObject = {};
      const seen = new Set<string>();
      skipWs();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        skipWs();
        if (text[i] !== '"') fail('syntax', 'expected a member name');
        const key = parseString('a member name');
        const memberPointer = `${pointer}/${pointerToken(key)}`;
        if (seen.has(key)) fail('duplicate-member', `duplicate member name "${key}"`, memberPointer);
        seen.add(key);
        skipWs();
        if (text[i] !== ':') fail('syntax', 'expected ":"');
        i++;
        const value = parseValue(depth + 1, memberPointer);
        // CreateDataProperty semantics, as JSON.parse: "__proto__" is an ordinary own member.
        Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
        skipWs();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail('syntax', 'expected "," or "}"');
      }
    }
    if (c === '[') {
      if (depth >= maxDepth) fail('too-deep', `nesting deeper than ${maxDepth}`);
      i++;
      const arr: JsonValue[] = [];
      skipWs();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(depth + 1, `${pointer}/${arr.length}`));
        skipWs();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail('syntax', 'expected "," or "]"');
      }
    }
    if (c === '"') return parseString('a string');
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      i += m[0].length;
      const n = Number(m[0]);
      if (!Number.isFinite(n)) fail('syntax', 'number out of range');
      return n;
    }
    return fail('syntax', i >= text.length ? 'unexpected end of input' : 'unexpected character');
  };

  const value = parseValue(0, '');
  skipWs();
  if (i !== text.length) fail('syntax', 'unexpected data after the JSON value');
  return value;
}

/** A surrogate code unit that is not half of a pair (the `u` flag reads a pair as one code point). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function loneSurrogateIn(text: string, where: string): string | null {
  const m = LONE_SURROGATE.exec(text);
  return m ? `${where} holds a lone surrogate ${surrogateText(m[0].charCodeAt(0))}` : null;
}

/**
 * Why a JS value that was NOT read by parseJsonStrict (an object a caller built, or got from
 * JSON.parse) is not I-JSON, or null when it is: a lone surrogate in a string or member name, a
 * number that is not finite, a value JSON has no form for (undefined in an array, a function,
 * a BigInt), or nesting deeper than `maxDepth` (which also stops a cycle). RFC 8785 has no form
 * for such a value; the reason names no content. Members whose value is undefined are left
 * out, as JSON.stringify leaves them out.
 */
export function jsonValueProblem(value: unknown, maxDepth = 64): string | null {
  const walk = (v: unknown, depth: number): string | null => {
    if (v === null || typeof v === 'boolean') return null;
    if (typeof v === 'string') return loneSurrogateIn(v, 'a string');
    if (typeof v === 'number') return Number.isFinite(v) ? null : `the number ${String(v)} is not finite`;
    if (typeof v !== 'object') return `it holds ${v === undefined ? 'undefined' : `a ${typeof v}`}, which JSON cannot represent`;
    if (depth >= maxDepth) return `it is nested deeper than ${maxDepth}`;
    if (Array.isArray(v)) {
      for (const item of v as unknown[]) {
        const problem = walk(item, depth + 1);
        if (problem !== null) return problem;
      }
      return null;
    }
    for (const [name, member] of Object.entries(v)) {
      const problem = loneSurrogateIn(name, 'a member name') ?? (member === undefined ? null : walk(member, depth + 1));
      if (problem !== null) return problem;
    }
    return null;
  };
  return walk(value, 0);
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A one-line description of a strict-JSON failure in `where` (e.g. "the JWT payload"). */
export function describeJsonError(err: unknown, where: string): string {
  if (err instanceof StrictJsonError) {
    if (err.kind === 'duplicate-member') {
      const name = err.pointer?.split('/').pop()?.replace(/~1/g, '/').replace(/~0/g, '~') ?? '';
      return `${where} has a duplicate member "${name}" (at ${err.pointer ?? '/'}), which parsers resolve differently`;
    }
    if (err.kind === 'too-deep') return `${where} is nested too deeply (${err.message})`;
    if (err.kind === 'lone-surrogate') return `${where} is not I-JSON: it has a ${err.message} (at offset ${err.position}), which RFC 7493 forbids`;
    return `${where} is not valid JSON (${err.message} at offset ${err.position})`;
  }
  return `${where} is not valid JSON`;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strict UTF-8 (a BOM is kept as U+FEFF); null for invalid byte sequences. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

export type JsonParse = { value: JsonValue } | { error: string };

/** `parseJsonStrict` with the failure as a one-line reason about `where` instead of a throw. */
export function parseJsonText(text: string, where: string): JsonParse {
  try {
    return { value: parseJsonStrict(text) };
  } catch (err) {
    return { error: describeJsonError(err, where) };
  }
}

/**
 * Untrusted bytes (a fetched document, a token part) as strict JSON: UTF-8 without a byte
 * order mark (RFC 8259 §8.1), no duplicate members; every failure a one-line reason.
 */
export function parseJsonBytes(bytes: Uint8Array, where: string): JsonParse {
  const text = decodeJsonText(bytes, where);
  return typeof text === 'string' ? parseJsonText(text, where) : text;
}

/** Untrusted bytes as the text of JSON (or JSON Lines): strict UTF-8, no byte order mark. */
export function decodeJsonText(bytes: Uint8Array, where: string): string | { error: string } {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { error: `${where} starts with a UTF-8 byte order mark, which JSON (RFC 8259 §8.1) forbids` };
  }
  const text = decodeUtf8(bytes);
  return text === null ? { error: `${where} is not valid UTF-8` } : text;
}
