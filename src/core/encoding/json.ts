/**
 * Strict JSON (RFC 8259) parsing that keeps what JSON.parse throws away: member identity.
 *
 * JSON.parse silently keeps the last of duplicate member names; so do jose and most JWT
 * libraries. An attacker who can make two parsers disagree about `iss` or `kty` wins, so svc
 * parses untrusted JSON with this parser, which rejects duplicates (after unescaping) at any
 * depth, and bounds nesting depth.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type StrictJsonErrorKind = 'syntax' | 'duplicate-member' | 'too-deep';

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

  const parseString = (): string => {
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
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('syntax', 'invalid \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
          out += ESCAPES[e];
          i += 2;
        } else {
          fail('syntax', 'invalid escape');
        }
        start = i;
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
        const key = parseString();
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
    if (c === '"') return parseString();
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
