/**
 * Canonical fingerprints (SPEC §9.5): RFC 8785 (JCS) serialisation, SHA-256, and the profile
 * label every stored or reported fingerprint carries.
 */
import { createHash } from 'node:crypto';
import canonicalizeImpl from 'canonicalize';

/** Profile label of fingerprints computed over RFC 8785 with IEEE 754 binary64 numbers. */
export const HASH_PROFILE = 'rfc8785-binary64-v1';

const canonicalizeFn = canonicalizeImpl as unknown as (value: unknown) => string | undefined;

/** RFC 8785 canonical JSON text of a JSON value. Throws TypeError for non-JSON input. */
export function canonicalize(value: unknown): string {
  const text = canonicalizeFn(value);
  if (typeof text !== 'string') throw new TypeError('value has no JSON representation');
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
