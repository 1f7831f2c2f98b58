/**
 * Signature verification with node:crypto: Ed25519, ECDSA on P-256, P-384 and
 * secp256k1 with raw r‖s signatures (`dsaEncoding: 'ieee-p1363'`), and RS256/PS256 for the
 * credentials verified with JSON-LD processing on. Keys are imported from
 * public JWKs; only the members that define the public key are passed on, so a stray private
 * member can never turn a verification into something else.
 */
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { base64urlEncode } from '../encoding/base64url.js';
import { withArticle } from '../text.js';

/** Signature schemes svc verifies, named by the curve and hash they use. */
export type SignatureScheme =
  | { kind: 'eddsa'; curve: 'Ed25519' }
  | { kind: 'ecdsa'; curve: 'P-256' | 'P-384' | 'secp256k1'; hash: 'sha256' | 'sha384'; signatureBytes: number };

/** Public members of a JWK, as svc's key checks produce them. */
export interface PublicKeyJwk {
  kty?: string;
  crv?: string;
  x?: string;
  y?: string;
  /** RSA modulus and exponent (RS256 and PS256 JWTs, only with JSON-LD processing on). */
  n?: string;
  e?: string;
}

/**
 * Imported keys by the JWK object they came from. Keys read from a cached resolution are the
 * same objects call after call, so verifying many signatures by one key imports it once.
 * Callers must not mutate a JWK after importing it (svc's key objects are never mutated).
 */
const IMPORTED = new WeakMap<PublicKeyJwk, KeyObject | string>();

/** Imports the public part of a JWK; a reason string when node:crypto refuses it. */
export function importPublicJwk(jwk: PublicKeyJwk): KeyObject | string {
  let key = IMPORTED.get(jwk);
  if (key === undefined) {
    key = importJwkMembers(jwk);
    IMPORTED.set(jwk, key);
  }
  return key;
}

function importJwkMembers(jwk: PublicKeyJwk): KeyObject | string {
  const members: Record<string, string> = {};
  for (const m of ['kty', 'crv', 'x', 'y', 'n', 'e'] as const) {
    const v = jwk[m];
    if (typeof v === 'string') members[m] = v;
  }
  try {
    return createPublicKey({ key: members, format: 'jwk' });
  } catch {
    return `the ${members['crv'] ?? members['kty'] ?? 'public'} key could not be imported`;
  }
}

/** The smallest RSA modulus svc verifies with, bits. */
export const MIN_RSA_BITS = 2048;

/**
 * Checks an RS256 (RSASSA-PKCS1-v1_5) or PS256 (RSASSA-PSS, MGF1 with SHA-256, salt as long as
 * the hash) signature with a public RSA JWK of at least MIN_RSA_BITS; a reason when it fails.
 */
export function checkRsaSignature(
  alg: 'RS256' | 'PS256',
  jwk: PublicKeyJwk,
  data: Uint8Array,
  signature: Uint8Array,
): { valid: true } | { valid: false; reason: string } {
  if (jwk.kty !== 'RSA') return { valid: false, reason: `the key is ${withArticle(jwk.crv ?? jwk.kty ?? 'unknown')} key, but ${alg} signs with RSA` };
  const key = importPublicJwk(jwk);
  if (typeof key === 'string') return { valid: false, reason: key };
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS)
    return { valid: false, reason: `the RSA key is ${bits} bits; svc verifies RSA signatures with keys of ${MIN_RSA_BITS} bits or more` };
  const bytes = Math.ceil(bits / 8);
  if (signature.length !== bytes)
    return { valid: false, reason: `${withArticle(alg)} signature by a ${bits}-bit key is ${bytes} bytes, not ${signature.length}` };
  let ok = false;
  try {
    ok =
      alg === 'RS256'
        ? verify('sha256', data, { key, padding: constants.RSA_PKCS1_PADDING }, signature)
        : verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature);
  } catch {
    ok = false;
  }
  return ok ? { valid: true } : { valid: false, reason: `the ${alg} signature does not verify` };
}

/** Verifies a signature with an imported key; false (never a throw) for any failure. */
export function verifyWithKey(scheme: SignatureScheme, key: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  try {
    if (scheme.kind === 'eddsa') return verify(null, data, key, signature);
    return verify(scheme.hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

/**
 * verifyWithKey on libuv's thread pool: the signature is checked off the main thread, so a
 * caller with many signatures to check (a presentation's credentials) checks them on every core
 * while it reads and hashes the next. False (never a rejection) for any failure.
 */
export function verifyWithKeyOnPool(scheme: SignatureScheme, key: KeyObject, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (err: Error | null, ok: boolean) => resolve(err === null && ok);
    try {
      if (scheme.kind === 'eddsa') verify(null, data, key, signature, done);
      else verify(scheme.hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature, done);
    } catch {
      resolve(false);
    }
  });
}

/** Verifies an Ed25519 signature (RFC 8032) with a raw 32-byte public key. */
export function verifyEd25519(publicKey: Uint8Array, data: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const key = importPublicJwk({ kty: 'OKP', crv: 'Ed25519', x: base64urlEncode(publicKey) });
  if (typeof key === 'string') return false;
  return verifyWithKey({ kind: 'eddsa', curve: 'Ed25519' }, key, data, signature);
}
