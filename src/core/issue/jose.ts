/**
 * Compact JWS (RFC 7515 §7.1) made by core/issue: a protected header and a JSON payload, each the
 * UTF-8 of its JSON text in base64url, signed by signing/key.ts `signWith` (Ed25519; ECDSA r‖s
 * with SHA-256 on P-256, and on secp256k1 in low-S form). Nothing is unprotected, `b64` and `crit`
 * are never written: every JOSE library reads the result.
 */
import { base64urlEncode } from '../encoding/base64url.js';
import type { JsonObject } from '../encoding/json.js';
import { ProblemError } from '../problems.js';
import { MAX_JWS_LENGTH } from '../proofs/jws.js';
import { signWith, type Signer } from '../signing/key.js';

function encoded(value: unknown): string {
  return base64urlEncode(Buffer.from(JSON.stringify(value), 'utf8'));
}

/** `header.payload.signature`; the header's `alg` is the signer's (set here, first). */
export function signCompact(header: Record<string, string>, payload: JsonObject, signer: Signer): string {
  const input = `${encoded({ alg: signer.identity.alg, ...header })}.${encoded(payload)}`;
  const token = `${input}.${base64urlEncode(signWith(signer, Buffer.from(input, 'ascii')))}`;
  if (token.length > MAX_JWS_LENGTH) {
    throw new ProblemError(
      'INVALID_REQUEST',
      `The signed token would be ${token.length} characters; verifiers, svc among them, refuse more than ${MAX_JWS_LENGTH}.`,
    );
  }
  return token;
}
