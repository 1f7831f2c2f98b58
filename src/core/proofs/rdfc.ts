/**
 * RDF-canonicalised Data Integrity proofs, verified only when the operator opts in (`--jsonld`,
 * SVC_JSONLD=on): `eddsa-rdfc-2022` (W3C vc-di-eddsa §3.2), `ecdsa-rdfc-2019` on P-256 and P-384
 * (W3C vc-di-ecdsa §3.2) and the legacy `Ed25519Signature2020` suite. The core does no JSON-LD
 * processing itself: it asks an RdfCanonicaliser carried on the Runtime (`runtime.jsonld`,
 * implemented in src/jsonld/ over a pinned context set) for the RDFC-1.0 N-Quads of a document,
 * and does the rest — the proof configuration, the hashes and the signature — with its own keys.
 *
 * Verify Proof, the three suites alike:
 *   unsecuredDocument = the document without `proof`;
 *   proofConfig       = the proof without `proofValue`, whose `@context` is the proof's own (the
 *                       document's must then start with it, and the unsecured document takes it)
 *                       or else the document's;
 *   hashData = H(RDFC-1.0(proofConfig)) ‖ H(RDFC-1.0(unsecuredDocument)), H = SHA-256 (SHA-384
 *   for ecdsa-rdfc-2019 with a P-384 key); proofValue is base58btc multibase (`z`) of the
 *   signature: Ed25519 over hashData, or ECDSA (raw r‖s) over hashData with the curve's hash.
 */
import { hash } from 'node:crypto';
import { canonicalize, sha256Hex } from '../canonical.js';
import { multibaseDecode } from '../encoding/multibase.js';
import { withArticle } from '../text.js';
import { checkProofWindow, type DataIntegrityResult, type JcsProofCheck } from './data-integrity.js';
import type { RdfCanonicaliser, RdfcBounds, RdfcFailure } from './canonicaliser.js';
import { importPublicJwk, verifyWithKey, type PublicKeyJwk, type SignatureScheme } from './signature.js';

export { DEFAULT_RDFC_BOUNDS, RDFC_BOUND_NAMES } from './canonicaliser.js';
export type { RdfCanonicaliser, RdfcBoundName, RdfcBounds, RdfcFailure, RdfcResult } from './canonicaliser.js';

export const EDDSA_RDFC_2022 = 'eddsa-rdfc-2022';
export const ECDSA_RDFC_2019 = 'ecdsa-rdfc-2019';
export const ED25519_SIGNATURE_2020 = 'Ed25519Signature2020';
/** The DataIntegrityProof cryptosuites verified through an RdfCanonicaliser. */
export const RDFC_CRYPTOSUITES: readonly string[] = [EDDSA_RDFC_2022, ECDSA_RDFC_2019];

/** The limitation every result verified through JSON-LD states. */
export const RDFC_LIMITATION =
  "The proof was verified over the credential's RDF canonical form (RDFC-1.0): its terms were interpreted by svc's pinned JSON-LD contexts only, never by contexts fetched from the network.";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The suite of a proof svc verifies through RDFC (its cryptosuite, or Ed25519Signature2020), or null. */
export function rdfcSuiteOf(proof: unknown): string | null {
  if (!isObject(proof)) return null;
  if (proof['type'] === ED25519_SIGNATURE_2020) return ED25519_SIGNATURE_2020;
  const suite = proof['cryptosuite'];
  if (proof['type'] === 'DataIntegrityProof' && typeof suite === 'string' && RDFC_CRYPTOSUITES.includes(suite)) return suite;
  return null;
}

/** The status and reason of a canonicalisation failure, for the check it stops. */
export function rdfcFailureResult(
  failure: RdfcFailure,
  what: string,
): Exclude<DataIntegrityResult, { status: 'VALID' }> | { status: 'INDETERMINATE'; reason: string } {
  switch (failure.kind) {
    case 'UNPINNED_CONTEXT':
      return {
        status: 'UNSUPPORTED',
        reason: `the ${what} uses the JSON-LD context ${failure.url}, which is not in svc's pinned context set; contexts are never fetched`,
      };
    case 'BOUND_EXCEEDED':
      return {
        status: 'INDETERMINATE',
        reason: `the ${what} could not be canonicalised within the bound on ${failure.bound}${failure.limit === null ? '' : ` (${failure.limit})`}`,
      };
    case 'UNDEFINED_TERM':
      return { status: 'MALFORMED', reason: `the ${what} uses the term ${JSON.stringify(failure.term)}, which no context of it defines` };
    default:
      return { status: 'MALFORMED', reason: `the ${what} is not valid JSON-LD: ${failure.reason}` };
  }
}

function contextList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function sameContext(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  try {
    return canonicalize(a) === canonicalize(b);
  } catch {
    return false;
  }
}

/** What the suite signs with: the key curve it wants, the scheme, the hash of hashData's halves, the signature length. */
interface SuiteShape {
  scheme: SignatureScheme;
  digest: 'sha256' | 'sha384';
  signatureBytes: number;
  name: string;
}

function suiteShape(suite: string, jwk: PublicKeyJwk): SuiteShape | { status: 'INVALID'; reason: string } {
  const curve = jwk.crv ?? jwk.kty ?? 'unknown';
  if (suite === ECDSA_RDFC_2019) {
    if (jwk.crv === 'P-256')
      return { scheme: { kind: 'ecdsa', curve: 'P-256', hash: 'sha256', signatureBytes: 64 }, digest: 'sha256', signatureBytes: 64, name: 'ECDSA P-256' };
    if (jwk.crv === 'P-384')
      return { scheme: { kind: 'ecdsa', curve: 'P-384', hash: 'sha384', signatureBytes: 96 }, digest: 'sha384', signatureBytes: 96, name: 'ECDSA P-384' };
    return { status: 'INVALID', reason: `${suite} signs with a P-256 or P-384 key, but the verification method holds ${withArticle(curve)} key` };
  }
  if (jwk.crv !== 'Ed25519')
    return { status: 'INVALID', reason: `${suite} signs with an Ed25519 key, but the verification method holds ${withArticle(curve)} key` };
  return { scheme: { kind: 'eddsa', curve: 'Ed25519' }, digest: 'sha256', signatureBytes: 64, name: 'Ed25519' };
}

function done(result: DataIntegrityResult | { status: 'INDETERMINATE'; reason: string }, signedDigest: string | null = null): RdfcProofCheck {
  return { result, signedDigest };
}

/** An RDFC proof check: as JcsProofCheck, and INDETERMINATE when a bound stopped canonicalisation. */
export interface RdfcProofCheck {
  result: JcsProofCheck['result'] | { status: 'INDETERMINATE'; reason: string };
  signedDigest: string | null;
}

/**
 * Verifies one eddsa-rdfc-2022, ecdsa-rdfc-2019 or Ed25519Signature2020 proof of `document` with
 * the public JWK of its verification method, canonicalising through `canonicaliser`. Suite
 * support, purpose and the key's binding to an issuer are the caller's.
 */
export async function verifyRdfcProof(
  document: Record<string, unknown>,
  proof: Record<string, unknown>,
  publicJwk: PublicKeyJwk,
  nowMs: number,
  canonicaliser: RdfCanonicaliser,
  bounds?: Partial<RdfcBounds>,
): Promise<RdfcProofCheck> {
  const suite = rdfcSuiteOf(proof);
  if (suite === null) return done({ status: 'UNSUPPORTED', reason: 'the proof is not of a suite verified through RDF canonicalisation' });
  const shape = suiteShape(suite, publicJwk);
  if ('status' in shape) return done(shape);
  const proofValue = proof['proofValue'];
  if (typeof proofValue !== 'string') return done({ status: 'MALFORMED', reason: 'the proof has no string "proofValue"' });
  if (!proofValue.startsWith('z')) return done({ status: 'MALFORMED', reason: 'the proofValue is not base58btc multibase (prefix "z")' });
  const decoded = multibaseDecode(proofValue);
  if (!decoded) return done({ status: 'MALFORMED', reason: 'the proofValue is not valid base58btc' });
  if (decoded.bytes.length !== shape.signatureBytes)
    return done({
      status: 'INVALID',
      reason: `${withArticle(shape.name)} signature of ${suite} is ${shape.signatureBytes} bytes, not ${decoded.bytes.length}`,
    });
  const window = checkProofWindow(proof, nowMs);
  if (window) return done(window);
  if (proof['previousProof'] !== undefined) return done({ status: 'UNSUPPORTED', reason: 'proof chains ("previousProof") are not supported' });

  const unsecured: Record<string, unknown> = {};
  for (const name of Object.keys(document)) if (name !== 'proof') unsecured[name] = document[name];
  const config: Record<string, unknown> = {};
  for (const name of Object.keys(proof)) if (name !== 'proofValue') config[name] = proof[name];
  if (proof['@context'] !== undefined) {
    const proofContext = contextList(proof['@context']);
    const docContext = document['@context'] === undefined ? [] : contextList(document['@context']);
    const prefix = proofContext.length <= docContext.length && proofContext.every((c, i) => sameContext(c, docContext[i]));
    if (!prefix) return done({ status: 'INVALID', reason: "the document's @context does not start with the proof's @context" });
    unsecured['@context'] = proof['@context'];
  } else {
    config['@context'] = document['@context'];
  }
  const [configForm, documentForm] = await Promise.all([canonicaliser.canonicalise(config, bounds), canonicaliser.canonicalise(unsecured, bounds)]);
  if (!documentForm.ok) return done(rdfcFailureResult(documentForm.failure, 'credential'));
  if (!configForm.ok) return done(rdfcFailureResult(configForm.failure, 'proof configuration'));
  const half = shape.digest === 'sha256' ? 32 : 48;
  const data = new Uint8Array(half * 2);
  data.set(hash(shape.digest, configForm.nquads, 'buffer'), 0);
  data.set(hash(shape.digest, documentForm.nquads, 'buffer'), half);
  const digest = sha256Hex(data);
  const key = importPublicJwk(publicJwk);
  if (typeof key === 'string') return done({ status: 'INVALID', reason: key }, digest);
  if (verifyWithKey(shape.scheme, key, data, decoded.bytes)) return done({ status: 'VALID', proofConfiguration: 'as-written' }, digest);
  return done({ status: 'INVALID', reason: `the ${shape.name} signature does not verify` }, digest);
}
