/**
 * Data Integrity proofs made by svc: `eddsa-jcs-2022` (Ed25519, vc-di-eddsa §3.3.1) and
 * `ecdsa-jcs-2019` (P-256, vc-di-ecdsa §3.3), the two JCS cryptosuites svc verifies.
 *
 * Create Proof: the proof configuration is the proof without `proofValue`, with the document's
 * `@context` copied into it (and kept in the proof, as the suites' Create Proof step writes it, so
 * a verifier reading the proof as written hashes the same bytes); hashData is
 * SHA-256(JCS(proof configuration)) ‖ SHA-256(JCS(document)), computed by the verifier's own
 * function (proofs/data-integrity.ts `eddsaJcs2022SigningInput`, over canonical.ts); Ed25519 signs
 * those 64 bytes, ECDSA P-256 signs them with SHA-256 (raw r‖s); `proofValue` is base58btc
 * multibase. One implementation of each step serves both the signer and the verifier.
 */
import { canonicalize, sha256 } from '../canonical.js';
import { multibaseEncode } from '../encoding/multibase.js';
import type { JsonObject } from '../encoding/json.js';
import { ProblemError } from '../problems.js';
import { ECDSA_JCS_2019, EDDSA_JCS_2022, eddsaJcs2022SigningInput } from '../proofs/data-integrity.js';
import { rfc3339 } from '../runtime.js';
import { signWith } from '../signing/key.js';
import type { IssuingKey } from './key.js';

/** The cryptosuite of each algorithm; secp256k1 has no JCS cryptosuite svc verifies. */
export function jcsCryptosuite(key: IssuingKey): typeof EDDSA_JCS_2022 | typeof ECDSA_JCS_2019 | null {
  if (key.alg === 'EdDSA') return EDDSA_JCS_2022;
  if (key.alg === 'ES256') return ECDSA_JCS_2019;
  return null;
}

export interface JcsProofOptions {
  cryptosuite: typeof EDDSA_JCS_2022 | typeof ECDSA_JCS_2019;
  verificationMethod: string;
  proofPurpose: 'assertionMethod' | 'authentication';
  created: Date;
  /** A presentation's: the verifier's challenge and domain, bound into the proof. */
  challenge?: string;
  domain?: string;
}

/**
 * `document` (no `proof` of its own) with a JCS Data Integrity proof by `key`, which must be on the
 * suite's curve (the caller chose the suite for it).
 */
export function addJcsProof(document: JsonObject, key: IssuingKey, options: JcsProofOptions): JsonObject {
  const expected = options.cryptosuite === EDDSA_JCS_2022 ? 'EdDSA' : 'ES256';
  if (key.alg !== expected)
    throw new ProblemError('INVALID_OPTIONS', `${options.cryptosuite} signs with ${expected === 'EdDSA' ? 'an Ed25519' : 'a P-256'} key, not ${key.curve}.`);
  const proof: JsonObject = {
    ...(document['@context'] === undefined ? {} : { '@context': document['@context'] }),
    type: 'DataIntegrityProof',
    cryptosuite: options.cryptosuite,
    created: rfc3339(options.created),
    verificationMethod: options.verificationMethod,
    proofPurpose: options.proofPurpose,
    ...(options.challenge === undefined ? {} : { challenge: options.challenge }),
    ...(options.domain === undefined ? {} : { domain: options.domain }),
  };
  // The document was read by the strict parser (or checked to be I-JSON): it has an RFC 8785 form.
  const input = eddsaJcs2022SigningInput(proof, sha256(canonicalize(document)));
  if (input === null) throw new ProblemError('INVALID_REQUEST', 'The proof options have no RFC 8785 form.');
  return { ...document, proof: { ...proof, proofValue: multibaseEncode(signWith(key.signer, input)) } };
}
