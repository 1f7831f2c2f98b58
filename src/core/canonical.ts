/**
 * Canonical fingerprints (SPEC §9.5): RFC 8785 (JCS) serialisation, SHA-256, and the profile
 * label every stored or reported fingerprint carries.
 */
import { createHash } from 'node:crypto';
import canonicalizeImpl from 'canonicalize';
import { jsonValueProblem } from './encoding/json.js';

/** Profile label of fingerprints computed over RFC 8785 with IEEE 754 binary64 numbers. */
export const HASH_PROFILE = 'rfc8785-binary64-v1';

const canonicalizeFn = canonicalizeImpl as unknown as (value: unknown) => string | undefined;

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

/**
 * RFC 8785 canonical JSON text of a JSON value. Throws CanonicalizationError for a value that is
 * not I-JSON. Values from parseJsonStrict always have a form (the parser accepts I-JSON only);
 * the check here is for everything else a caller may hand over.
 */
export function canonicalize(value: unknown): string {
  const problem = jsonValueProblem(value, CANONICAL_MAX_DEPTH);
  if (problem !== null) throw new CanonicalizationError(problem);
  const text = canonicalizeFn(value);
  if (typeof text !== 'string') throw new CanonicalizationError('it has no JSON representation');
  return text;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function sha256(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

/** Hex SHA-256 of the RFC 8785 form: the `jcsSha256` of documents, cards and tools. */
export function jcsSha256(value: unknown): string {
  return sha256Hex(canonicalize(value));
}
