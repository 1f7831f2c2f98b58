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

// The parser's state lives at module level and its steps are plain functions: no closures are
// built per call, and member pointers are spelt out only for the error that needs one. It never
// calls out while parsing, so one parse cannot interleave with another.
let src = '';
let pos = 0;
let depthLimit = 64;
/** Member names and array indices from the root to the value being parsed (for pointers). */
const path: Array<string | number> = [];

function fail(kind: StrictJsonErrorKind, message: string, pointer?: string): never {
  throw new StrictJsonError(kind, message, pos, pointer);
}

/** JSON Pointer of the value being parsed (`path`), plus `key` when given. */
function pointerOf(key?: string): string {
  let out = '';
  for (const token of path) out += `/${typeof token === 'number' ? token : pointerToken(token)}`;
  return key === undefined ? out : `${out}/${pointerToken(key)}`;
}

function skipWs(): void {
  for (;;) {
    const c = src.charCodeAt(pos);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
    else return;
  }
}

/** The code unit of the `\uXXXX` escape at `at`, or null when there is none. */
function unicodeEscape(at: number): number | null {
  if (src.charCodeAt(at) !== 0x5c || src[at + 1] !== 'u') return null;
  const hex = src.slice(at + 2, at + 6);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : null;
}

// A surrogate must be the high half of a pair whose low half follows in the same form (two
// escapes, or two raw code units of a JS string): anything else is not I-JSON.
function loneSurrogate(c: number, where: string): never {
  return fail('lone-surrogate', `lone surrogate ${surrogateText(c)} in ${where}`);
}

/** A run of string characters that need no attention: no quote, backslash, control or surrogate. */
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

function parseString(where: string): string {
  // Caller has checked src[pos] === '"'.
  pos++;
  // Most strings are one plain run and a closing quote: matched natively, sliced once.
  PLAIN_RUN.lastIndex = pos;
  PLAIN_RUN.test(src);
  if (src.charCodeAt(PLAIN_RUN.lastIndex) === 0x22) {
    const out = src.slice(pos, PLAIN_RUN.lastIndex);
    pos = PLAIN_RUN.lastIndex + 1;
    return out;
  }
  let out = '';
  let start = pos;
  pos = PLAIN_RUN.lastIndex; // the plain run needs no second look
  for (;;) {
    if (pos >= src.length) fail('syntax', 'unterminated string');
    const c = src.charCodeAt(pos);
    if (c === 0x22) {
      out += src.slice(start, pos);
      pos++;
      return out;
    }
    if (c < 0x20) fail('syntax', 'control character in string');
    if (c === 0x5c) {
      out += src.slice(start, pos);
      const e = src[pos + 1];
      if (e === 'u') {
        const unit = unicodeEscape(pos);
        if (unit === null) return fail('syntax', 'invalid \\u escape');
        if (isHighSurrogate(unit)) {
          const low = unicodeEscape(pos + 6);
          if (low === null || !isLowSurrogate(low)) return loneSurrogate(unit, where);
          out += String.fromCharCode(unit, low);
          pos += 12;
        } else if (isLowSurrogate(unit)) {
          return loneSurrogate(unit, where);
        } else {
          out += String.fromCharCode(unit);
          pos += 6;
        }
      } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        pos += 2;
      } else {
        fail('syntax', 'invalid escape');
      }
      start = pos;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (!isHighSurrogate(c) || !isLowSurrogate(src.charCodeAt(pos + 1))) return loneSurrogate(c, where);
      pos += 2;
    } else {
      pos++;
    }
  }
}

function parseObject(depth: number): JsonObject {
  if (depth >= depthLimit) fail('too-deep', `nesting deeper than ${depthLimit}`);
  pos++;
  const obj: JsonObject = {};
  skipWs();
  if (src.charCodeAt(pos) === 0x7d) {
    pos++;
    return obj;
  }
  for (;;) {
    skipWs();
    if (src.charCodeAt(pos) !== 0x22) fail('syntax', 'expected a member name');
    const key = parseString('a member name');
    // Every member is an own property of obj (see below), so this is exactly "seen before".
    if (Object.hasOwn(obj, key)) fail('duplicate-member', `duplicate member name "${key}"`, pointerOf(key));
    skipWs();
    if (src.charCodeAt(pos) !== 0x3a) fail('syntax', 'expected ":"');
    pos++;
    path.push(key);
    const value = parseValue(depth + 1);
    path.pop();
    // CreateDataProperty semantics, as JSON.parse: "__proto__" is an ordinary own member. Any
    // other name on a fresh object literal is created as an own data property by assignment.
    if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
    else obj[key] = value;
    skipWs();
    const c = src.charCodeAt(pos);
    if (c === 0x2c) {
      pos++;
      continue;
    }
    if (c === 0x7d) {
      pos++;
      return obj;
    }
    fail('syntax', 'expected "," or "}"');
  }
}

function parseArray(depth: number): JsonValue[] {
  if (depth >= depthLimit) fail('too-deep', `nesting deeper than ${depthLimit}`);
  pos++;
  const arr: JsonValue[] = [];
  skipWs();
  if (src.charCodeAt(pos) === 0x5d) {
    pos++;
    return arr;
  }
  for (;;) {
    path.push(arr.length);
    const value = parseValue(depth + 1);
    path.pop();
    arr.push(value);
    skipWs();
    const c = src.charCodeAt(pos);
    if (c === 0x2c) {
      pos++;
      continue;
    }
    if (c === 0x5d) {
      pos++;
      return arr;
    }
    fail('syntax', 'expected "," or "]"');
  }
}

function parseValue(depth: number): JsonValue {
  skipWs();
  const c = src.charCodeAt(pos);
  if (c === 0x7b) return parseObject(depth);
  if (c === 0x5b) return parseArray(depth);
  if (c === 0x22) return parseString('a string');
  if (src.startsWith('true', pos)) {
    pos += 4;
    return true;
  }
  if (src.startsWith('false', pos)) {
    pos += 5;
    return false;
  }
  if (src.startsWith('null', pos)) {
    pos += 4;
    return null;
  }
  NUMBER.lastIndex = pos;
  const m = NUMBER.exec(src);
  if (m) {
    pos += m[0].length;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) fail('syntax', 'number out of range');
    return n;
  }
  return fail('syntax', pos >= src.length ? 'unexpected end of input' : 'unexpected character');
}

export function parseJsonStrict(text: string, options: StrictJsonOptions = {}): JsonValue {
  src = text;
  pos = 0;
  depthLimit = options.maxDepth ?? 64;
  path.length = 0;
  try {
    const value = parseValue(0);
    skipWs();
    if (pos !== src.length) fail('syntax', 'unexpected data after the JSON value');
    return value;
  } finally {
    // Do not keep the caller's text alive.
    src = '';
    path.length = 0;
  }
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
  return valueProblem(value, 0, maxDepth);
}

function valueProblem(v: unknown, depth: number, maxDepth: number): string | null {
  if (v === null || typeof v === 'boolean') return null;
  if (typeof v === 'string') return LONE_SURROGATE.test(v) ? loneSurrogateIn(v, 'a string') : null;
  if (typeof v === 'number') return Number.isFinite(v) ? null : `the number ${String(v)} is not finite`;
  if (typeof v !== 'object') return `it holds ${v === undefined ? 'undefined' : `a ${typeof v}`}, which JSON cannot represent`;
  if (depth >= maxDepth) return `it is nested deeper than ${maxDepth}`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const problem = valueProblem(v[i], depth + 1, maxDepth);
      if (problem !== null) return problem;
    }
    return null;
  }
  // Own enumerable string-keyed members, in order, as Object.entries gives them.
  const obj = v as Record<string, unknown>;
  const names = Object.keys(obj);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (LONE_SURROGATE.test(name)) return loneSurrogateIn(name, 'a member name');
    const member = obj[name];
    if (member === undefined) continue;
    const problem = valueProblem(member, depth + 1, maxDepth);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * A deep copy of a JSON value (what structuredClone gives for one, several times faster): arrays
 * and plain objects copied member by member in order, "__proto__" kept an own member.
 */
export function cloneJson<T extends JsonValue>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: JsonValue[] = new Array<JsonValue>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]!);
    return out as T;
  }
  const out: JsonObject = {};
  for (const name of Object.keys(value)) {
    const member = cloneJson((value as JsonObject)[name]!);
    if (name === '__proto__') Object.defineProperty(out, name, { value: member, enumerable: true, writable: true, configurable: true });
    else out[name] = member;
  }
  return out as T;
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
