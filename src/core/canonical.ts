/**
 * Canonical fingerprints: RFC 8785 (JCS) serialisation, SHA-256, and the profile
 * label every stored or reported fingerprint carries.
 */
import { createHash, hash } from 'node:crypto';
import { jsonValueProblem } from './encoding/json.js';

/** Profile label of fingerprints computed over RFC 8785 with IEEE 754 binary64 numbers. */
export const HASH_PROFILE = 'rfc8785-binary64-v1';

/**
 * Deepest nesting canonicalised: the strict parser stops at 64, and svc wraps what it parsed
 * (a JWK in a document) only a few levels deeper. Also bounds the serialiser's recursion.
 */
export const CANONICAL_MAX_DEPTH = 128;

/**
 * A value with no RFC 8785 form: not I-JSON (a lone surrogate, a number that is not finite,
 * something JSON cannot hold) or nested too deeply. Typed, so that a caller holding outside
 * content can turn it into its own result (MALFORMED, INVALID_DID_DOCUMENT…) instead of the
 * INTERNAL_ERROR an unknown exception becomes. `reason` names no content.
 */
export class CanonicalizationError extends Error {
  constructor(readonly reason: string) {
    super(`The value has no RFC 8785 form: ${reason}.`);
    this.name = 'CanonicalizationError';
  }
}

/** Thrown inside `write` when the value has no form; `canonicalize` then asks for the reason. */
const NO_FORM = Symbol('no RFC 8785 form');

/** A string with nothing to escape and no surrogate at all (most of them) is written as it is. */
const NEEDS_CARE = /[\u0000-\u001f"\\\ud800-\udfff]/;

function writeString(text: string): string {
  if (!NEEDS_CARE.test(text)) return `"${text}"`;
  if (!text.isWellFormed()) throw NO_FORM;
  return JSON.stringify(text);
}

/**
 * One pass that checks and writes (no separate validation walk, no intermediate arrays of parts):
 * - strings: well-formed UTF-16 only (a lone surrogate has no UTF-8 form, RFC 8785 §3.2.2.2),
 *   escaped as ECMAScript's JSON.stringify escapes them, which is what RFC 8785 §3.2.2.2 defines;
 * - numbers: finite only, in ECMAScript's Number-to-String form (RFC 8785 §3.2.2.3), which is
 *   what JSON.stringify writes (-0 as 0);
 * - object members sorted by their names' UTF-16 code units (RFC 8785 §3.2.3), the order of
 *   Array.prototype.sort's default comparison; members whose value is undefined are left out,
 *   as JSON.stringify leaves them out; a toJSON method is honoured, as JSON.stringify does.
 * Anything else (undefined in an array, a function, a symbol, a BigInt, nesting at
 * CANONICAL_MAX_DEPTH, which also stops a cycle) throws NO_FORM.
 */
function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return writeString(value);
    case 'number':
      if (!Number.isFinite(value)) throw NO_FORM;
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= CANONICAL_MAX_DEPTH) throw NO_FORM;
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          out += write(value[i], depth + 1);
        }
        return out + ']';
      }
      const obj = value as Record<string, unknown>;
      if (typeof obj['toJSON'] === 'function') return write((obj['toJSON'] as () => unknown)(), depth);
      const names = Object.keys(obj).sort();
      let out = '{';
      let first = true;
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        const member = obj[name];
        if (member === undefined) continue;
        out += first ? writeString(name) : `,${writeString(name)}`;
        out += `:${write(member, depth + 1)}`;
        first = false;
      }
      return out + '}';
    }
    default:
      throw NO_FORM;
  }
}

/**
 * RFC 8785 canonical JSON text of a JSON value. Throws CanonicalizationError for a value that is
 * not I-JSON. Values from parseJsonStrict always have a form (the parser accepts I-JSON only);
 * the check here is for everything else a caller may hand over. The reason of a failure comes
 * from jsonValueProblem, walked only then.
 */
export function canonicalize(value: unknown): string {
  try {
    return write(value, 0);
  } catch (err) {
    if (err !== NO_FORM) throw err;
    throw new CanonicalizationError(jsonValueProblem(value, CANONICAL_MAX_DEPTH) ?? 'it has no JSON representation');
  }
}

export function sha256Hex(data: string | Uint8Array): string {
  // One call, no Hash object (node:crypto's one-shot hash, Node ≥ 20.12).
  return hash('sha256', data, 'hex');
}

export function sha256(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

/** Hex SHA-256 of the RFC 8785 form: the `jcsSha256` of documents, cards and tools. */
export function jcsSha256(value: unknown): string {
  return sha256Hex(canonicalize(value));
}
