/**
 * Data Integrity proofs (W3C VC Data Integrity 1.0) with the `eddsa-jcs-2022` cryptosuite
 * (W3C vc-di-eddsa §3.3), the one suite svc verifies: it needs no JSON-LD processing.
 *
 * Verify Proof (eddsa-jcs-2022), vc-di-eddsa §3.3.2:
 *   unsecuredDocument = the document without `proof`;
 *   proofOptions      = the proof without `proofValue`;
 *   if proofOptions has an `@context`, the document's `@context` must start with it, and it
 *   becomes the unsecured document's `@context`;
 *   hashData = SHA-256(JCS(proofOptions)) ‖ SHA-256(JCS(unsecuredDocument));
 *   proofValue is base58btc multibase (`z`) of a 64-byte Ed25519 signature over hashData.
 *
 * Interoperability: the Create Proof algorithm copies the document's `@context` into the proof;
 * some signers skip that copy but did hash it (the proof configuration of earlier drafts), so a
 * proof without `@context` that fails as written is tried once more with the document's
 * `@context` in its configuration. Both forms sign the same document with the same key; the
 * result says which one verified.
 *
 * Everything here is general (credentials, did:webvh log entries, linkage): the caller resolves
 * `proof.verificationMethod` to a key and decides which proof purposes it accepts.
 */
import { hash } from 'node:crypto';
import { canonicalize, sha256Hex } from '../canonical.js';
import { multibaseDecode } from '../encoding/multibase.js';
import { rfc3339 } from '../runtime.js';
import { withArticle } from '../text.js';
import { parseDateTime } from './datetime.js';
import type { KeyObject } from 'node:crypto';
import { importPublicJwk, verifyEd25519, verifyWithKey, verifyWithKeyOnPool, type PublicKeyJwk, type SignatureScheme } from './signature.js';

export const DATA_INTEGRITY_STATUSES = ['VALID', 'INVALID', 'UNSUPPORTED', 'MALFORMED'] as const;
export type DataIntegrityStatus = (typeof DATA_INTEGRITY_STATUSES)[number];

export type DataIntegrityResult =
  | {
      status: 'VALID';
      /**
       * `as-written`: the proof configuration is the proof itself (vc-di-eddsa §3.3.2).
       * `document-context`: it verified only with the document's `@context` added to it.
       */
      proofConfiguration: 'as-written' | 'document-context';
    }
  | { status: 'INVALID'; reason: string }
  | { status: 'UNSUPPORTED'; reason: string }
  | { status: 'MALFORMED'; reason: string };

/** Proof types that are JSON-LD signature suites (they need RDF canonicalization). */
const JSON_LD_PROOF_TYPES: ReadonlySet<string> = new Set([
  'Ed25519Signature2018',
  'Ed25519Signature2020',
  'EcdsaSecp256k1Signature2019',
  'EcdsaSecp256r1Signature2019',
  'JsonWebSignature2020',
  'RsaSignature2018',
  'BbsBlsSignature2020',
]);

/** Data Integrity cryptosuites that need RDF canonicalization or selective disclosure. */
const OTHER_CRYPTOSUITES: Readonly<Record<string, string>> = {
  'eddsa-rdfc-2022': 'JSON-LD, RDF canonicalization',
  'ecdsa-rdfc-2019': 'JSON-LD, RDF canonicalization',
  'ecdsa-sd-2023': 'selective disclosure',
  'bbs-2023': 'selective disclosure',
  'ecdsa-jcs-2019': 'ECDSA with JCS',
};

export const EDDSA_JCS_2022 = 'eddsa-jcs-2022';
export const ECDSA_JCS_2019 = 'ecdsa-jcs-2019';
/** The JCS cryptosuites svc can verify; each caller says which of them it accepts. */
export const JCS_CRYPTOSUITES: readonly string[] = [EDDSA_JCS_2022, ECDSA_JCS_2019];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What a proof calls itself: the cryptosuite of a DataIntegrityProof, otherwise its type
 * (e.g. `eddsa-jcs-2022`, `Ed25519Signature2018`); null when it names neither.
 */
export function proofLabel(proof: unknown): string | null {
  if (!isObject(proof)) return null;
  const type = proof['type'];
  const suite = proof['cryptosuite'];
  if (type === 'DataIntegrityProof' && typeof suite === 'string') return suite;
  return typeof type === 'string' ? type : null;
}

/**
 * Null when svc can verify this kind of proof; otherwise why not (UNSUPPORTED or MALFORMED).
 * An UNSUPPORTED reason reads `proof type Ed25519Signature2018 (JSON-LD) is not supported`
 * followed by `; <supported>` (by default `only eddsa-jcs-2022 is verified`), so a caller
 * that verifies more (e.g. JWTs too) can say so.
 */
export function checkProofSupport(
  proof: unknown,
  supported = `only ${EDDSA_JCS_2022} is verified`,
  suites: readonly string[] = [EDDSA_JCS_2022],
): Exclude<DataIntegrityResult, { status: 'VALID' | 'INVALID' }> | null {
  if (!isObject(proof)) return { status: 'MALFORMED', reason: 'the proof is not a JSON object' };
  const type = proof['type'];
  if (typeof type !== 'string') return { status: 'MALFORMED', reason: 'the proof has no string "type"' };
  if (type !== 'DataIntegrityProof') {
    const kind = JSON_LD_PROOF_TYPES.has(type) ? ' (JSON-LD)' : '';
    return { status: 'UNSUPPORTED', reason: `proof type ${type}${kind} is not supported; ${supported}` };
  }
  const suite = proof['cryptosuite'];
  if (typeof suite !== 'string') return { status: 'MALFORMED', reason: 'the DataIntegrityProof has no string "cryptosuite"' };
  if (!suites.includes(suite)) {
    const kind = OTHER_CRYPTOSUITES[suite];
    return { status: 'UNSUPPORTED', reason: `cryptosuite ${suite}${kind ? ` (${kind})` : ''} is not supported; ${supported}` };
  }
  return null;
}

/** Clock skew allowed on a proof's `created` and `expires`: CLOCK_SKEW_SECONDS of credentials, the same 60 s. */
export const PROOF_CLOCK_SKEW_SECONDS = 60;

function readStampMember(proof: Record<string, unknown>, name: 'created' | 'expires'): Date | null | { reason: string } {
  const value = proof[name];
  if (value === undefined) return null;
  const date = typeof value === 'string' ? parseDateTime(value) : null;
  if (date === null) return { reason: `the proof's "${name}" is not a dateTimeStamp (a date-time with a time-zone offset or Z): ${JSON.stringify(value)}` };
  return date;
}

/**
 * The proof's validity window (VC Data Integrity 1.0 §2.1): `created` and `expires`, when
 * present, must be dateTimeStamps — a date-time with an offset or `Z` (else MALFORMED); a proof
 * whose `expires` is at or before `nowMs` less the skew, or whose `created` is more than the
 * skew after `nowMs` (or `createdToleranceMs`: did:webvh lets an entry's time run 5 minutes
 * ahead), does not verify (INVALID). Null when the window admits `nowMs`.
 */
export function checkProofWindow(
  proof: Record<string, unknown>,
  nowMs: number,
  createdToleranceMs = PROOF_CLOCK_SKEW_SECONDS * 1000,
): { status: 'MALFORMED' | 'INVALID'; reason: string } | null {
  const created = readStampMember(proof, 'created');
  if (created !== null && !(created instanceof Date)) return { status: 'MALFORMED', reason: created.reason };
  const expires = readStampMember(proof, 'expires');
  if (expires !== null && !(expires instanceof Date)) return { status: 'MALFORMED', reason: expires.reason };
  const skew = PROOF_CLOCK_SKEW_SECONDS * 1000;
  const at = rfc3339(new Date(nowMs));
  if (expires !== null && expires.getTime() + skew <= nowMs)
    return { status: 'INVALID', reason: `the proof expired: "expires" ${rfc3339(expires)} is before ${at}` };
  if (created !== null && created.getTime() - createdToleranceMs > nowMs)
    return { status: 'INVALID', reason: `the proof was created in the future: "created" ${rfc3339(created)} is after ${at}` };
  return null;
}

function contextList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** SHA-256 in one call (node:crypto `hash`: no Hash object, no copy). */
function sha256(data: string | Uint8Array): Uint8Array {
  return hash('sha256', data, 'buffer');
}

function jcsOrNull(value: unknown): string | null {
  try {
    return canonicalize(value);
  } catch {
    return null;
  }
}

/**
 * The eddsa-jcs-2022 signing input: SHA-256(JCS(proof configuration)) ‖ `documentHash`, where
 * `documentHash` is SHA-256(JCS(unsecured document)) — computed once by a caller that checks
 * several proofs of one document. Null when the configuration has no JCS form.
 */
export function eddsaJcs2022SigningInput(proofConfig: Record<string, unknown>, documentHash: Uint8Array): Uint8Array | null {
  const config = jcsOrNull(proofConfig);
  if (config === null) return null;
  const out = new Uint8Array(64);
  out.set(sha256(config), 0);
  out.set(documentHash, 32);
  return out;
}

function hashData(proofConfig: Record<string, unknown>, unsecured: Record<string, unknown>): Uint8Array | null {
  const doc = jcsOrNull(unsecured);
  return doc === null ? null : eddsaJcs2022SigningInput(proofConfig, sha256(doc));
}

/** An eddsa-jcs-2022 proof read, before any key: its 64-byte signature and its configuration (the proof without proofValue). */
export interface EddsaJcs2022Proof {
  signature: Uint8Array;
  config: Record<string, unknown>;
}

/**
 * Reads an eddsa-jcs-2022 proof: the suite (see checkProofSupport), a base58btc proofValue of
 * 64 bytes, `created` and `expires` as checkProofWindow wants them at `nowMs`, no proof chain. Proof purpose and verification method are the
 * caller's.
 */
export function readEddsaJcs2022Proof(
  proof: unknown,
  nowMs: number,
  supported?: string,
  createdToleranceMs?: number,
): EddsaJcs2022Proof | Exclude<DataIntegrityResult, { status: 'VALID' }> {
  const unsupported = checkProofSupport(proof, supported);
  if (unsupported) return unsupported;
  const p = proof as Record<string, unknown>;
  const proofValue = p['proofValue'];
  if (typeof proofValue !== 'string') return { status: 'MALFORMED', reason: 'the proof has no string "proofValue"' };
  if (!proofValue.startsWith('z')) return { status: 'MALFORMED', reason: 'the proofValue is not base58btc multibase (prefix "z")' };
  const decoded = multibaseDecode(proofValue);
  if (!decoded) return { status: 'MALFORMED', reason: 'the proofValue is not valid base58btc' };
  const window = checkProofWindow(p, nowMs, createdToleranceMs);
  if (window) return window;
  if (p['previousProof'] !== undefined) {
    return { status: 'UNSUPPORTED', reason: 'proof chains ("previousProof") are not supported' };
  }
  if (decoded.bytes.length !== 64) return { status: 'INVALID', reason: `an Ed25519 signature is 64 bytes, not ${decoded.bytes.length}` };
  const { proofValue: _value, ...config } = p;
  return { signature: decoded.bytes, config };
}

/** Two `@context` entries are the same: equal URIs, or equal by value (inline contexts). */
function sameContext(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  const text = jcsOrNull(a);
  return text !== null && text === jcsOrNull(b);
}

/**
 * The unsecured document a JCS proof signs: the document without `proof`, whose `@context` is
 * the proof's when the proof has one — after checking that the document's `@context` starts
 * with it (vc-di-eddsa §3.3.2 step 4, compared by value so inline contexts match too).
 */
function unsecuredDocument(
  document: Record<string, unknown>,
  proofOptions: Record<string, unknown>,
): { unsecured: Record<string, unknown> } | { reason: string } {
  // Copied member by member without `proof` (a spread and a delete would leave V8 a slow
  // dictionary-mode object for JCS to walk); "__proto__" stays an ordinary own member.
  const unsecured: Record<string, unknown> = {};
  for (const name of Object.keys(document)) {
    if (name === 'proof') continue;
    if (name === '__proto__') Object.defineProperty(unsecured, name, { value: document[name], enumerable: true, writable: true, configurable: true });
    else unsecured[name] = document[name];
  }
  if (proofOptions['@context'] !== undefined) {
    const proofContext = contextList(proofOptions['@context']);
    const docContext = document['@context'] === undefined ? [] : contextList(document['@context']);
    const prefix = proofContext.length <= docContext.length && proofContext.every((c, i) => sameContext(c, docContext[i]));
    if (!prefix) return { reason: "the document's @context does not start with the proof's @context" };
    unsecured['@context'] = proofOptions['@context'];
  }
  return { unsecured };
}

/**
 * Verifies one `eddsa-jcs-2022` proof of `document` with a raw 32-byte Ed25519 public key.
 * `document` may still carry its `proof` member (it is removed before hashing). Resolving
 * `proof.verificationMethod` to `publicKey`, and checking `proofPurpose`, are the caller's.
 * `nowMs` is the instant the proof window is checked at: the caller's Runtime clock.
 */
export function verifyEddsaJcs2022(
  document: Record<string, unknown>,
  proof: Record<string, unknown>,
  publicKey: Uint8Array,
  nowMs: number,
): DataIntegrityResult {
  const read = readEddsaJcs2022Proof(proof, nowMs);
  if ('status' in read) return read;
  if (!isObject(document)) return { status: 'MALFORMED', reason: 'the secured document is not a JSON object' };
  const { signature, config: proofOptions } = read;
  if (publicKey.length !== 32) return { status: 'INVALID', reason: `an Ed25519 public key is 32 bytes, not ${publicKey.length}` };

  const reading = unsecuredDocument(document, proofOptions);
  if ('reason' in reading) return { status: 'INVALID', reason: reading.reason };
  const { unsecured } = reading;

  const data = hashData(proofOptions, unsecured);
  if (data === null) return { status: 'MALFORMED', reason: 'the document or proof has no JSON (RFC 8785) serialisation' };
  if (verifyEd25519(publicKey, data, signature)) return { status: 'VALID', proofConfiguration: 'as-written' };

  if (proofOptions['@context'] === undefined && document['@context'] !== undefined) {
    const legacy = hashData({ ...proofOptions, '@context': document['@context'] }, unsecured);
    if (legacy !== null && verifyEd25519(publicKey, legacy, signature)) return { status: 'VALID', proofConfiguration: 'document-context' };
  }
  return { status: 'INVALID', reason: 'the Ed25519 signature does not verify' };
}

/** A JCS proof verified with a public JWK: the result and, once hashed, the digest of what was signed. */
export interface JcsProofCheck {
  result: DataIntegrityResult;
  /** Hex SHA-256 of hashData, the bytes the signature covers; null when it was never computed. */
  signedDigest: string | null;
}

/**
 * Verifies one `eddsa-jcs-2022` (Ed25519) or `ecdsa-jcs-2019` (P-256) proof of `document` with
 * the public JWK of its verification method. ecdsa-jcs-2019 (vc-di-ecdsa §3.3) hashes like
 * eddsa-jcs-2022 — SHA-256(JCS(proof config)) ‖ SHA-256(JCS(document)) — and signs those 64
 * bytes with ECDSA-SHA-256 (so they are hashed once more), the signature raw r‖s. Its P-384
 * variant (SHA-384) is reported UNSUPPORTED: svc verifies credentials on Ed25519 and P-256.
 * Suite support, purpose and the key's binding to an issuer are the caller's.
 */
function done(result: DataIntegrityResult, signedDigest: string | null = null): JcsProofCheck {
  return { result, signedDigest };
}

const ED25519_SCHEME: SignatureScheme = { kind: 'eddsa', curve: 'Ed25519' };
const P256_SHA256_SCHEME: SignatureScheme = { kind: 'ecdsa', curve: 'P-256', hash: 'sha256', signatureBytes: 64 };

/** A JCS proof read and hashed, its signature still to check (prepareJcsProof). */
interface PreparedJcsProof {
  scheme: SignatureScheme;
  key: KeyObject;
  data: Uint8Array;
  signature: Uint8Array;
  digest: string;
  ecdsa: boolean;
}

/** Everything of verifyJcsProof up to the signature: a finished check when it fails before, else what to verify. */
function prepareJcsProof(
  document: Record<string, unknown>,
  proof: Record<string, unknown>,
  publicJwk: PublicKeyJwk,
  nowMs: number,
): JcsProofCheck | PreparedJcsProof {
  const suite = proof['cryptosuite'];
  const ecdsa = suite === ECDSA_JCS_2019;
  const expected = ecdsa ? 'P-256' : 'Ed25519';
  if (ecdsa && publicJwk.crv === 'P-384')
    return done({ status: 'UNSUPPORTED', reason: 'ecdsa-jcs-2019 with a P-384 key is not supported; svc verifies it on P-256' });
  if (publicJwk.crv !== expected)
    return done({
      status: 'INVALID',
      reason: `${String(suite)} signs with ${withArticle(expected)} key, but the verification method holds ${withArticle(publicJwk.crv ?? publicJwk.kty ?? 'unknown')} key`,
    });
  const proofValue = proof['proofValue'];
  if (typeof proofValue !== 'string') return done({ status: 'MALFORMED', reason: 'the proof has no string "proofValue"' });
  if (!proofValue.startsWith('z')) return done({ status: 'MALFORMED', reason: 'the proofValue is not base58btc multibase (prefix "z")' });
  const decoded = multibaseDecode(proofValue);
  if (!decoded) return done({ status: 'MALFORMED', reason: 'the proofValue is not valid base58btc' });
  if (decoded.bytes.length !== 64)
    return done({ status: 'INVALID', reason: `${withArticle(expected)} signature of ${String(suite)} is 64 bytes, not ${decoded.bytes.length}` });
  const window = checkProofWindow(proof, nowMs);
  if (window) return done(window);
  if (proof['previousProof'] !== undefined) return done({ status: 'UNSUPPORTED', reason: 'proof chains ("previousProof") are not supported' });

  const { proofValue: _value, ...proofOptions } = proof;
  const reading = unsecuredDocument(document, proofOptions);
  if ('reason' in reading) return done({ status: 'INVALID', reason: reading.reason });
  const { unsecured } = reading;
  const data = hashData(proofOptions, unsecured);
  if (data === null) return done({ status: 'MALFORMED', reason: 'the document or proof has no JSON (RFC 8785) serialisation' });
  const digest = sha256Hex(data);
  const key = importPublicJwk(publicJwk);
  if (typeof key === 'string') return done({ status: 'INVALID', reason: key }, digest);
  return { scheme: ecdsa ? P256_SHA256_SCHEME : ED25519_SCHEME, key, data, signature: decoded.bytes, digest, ecdsa };
}

function judged(prepared: PreparedJcsProof, ok: boolean): JcsProofCheck {
  if (ok) return done({ status: 'VALID', proofConfiguration: 'as-written' }, prepared.digest);
  return done({ status: 'INVALID', reason: `the ${prepared.ecdsa ? 'ECDSA P-256' : 'Ed25519'} signature does not verify` }, prepared.digest);
}

export function verifyJcsProof(document: Record<string, unknown>, proof: Record<string, unknown>, publicJwk: PublicKeyJwk, nowMs: number): JcsProofCheck {
  const prepared = prepareJcsProof(document, proof, publicJwk, nowMs);
  if ('result' in prepared) return prepared;
  return judged(prepared, verifyWithKey(prepared.scheme, prepared.key, prepared.data, prepared.signature));
}

/** verifyJcsProof with the signature checked on libuv's thread pool (verifyWithKeyOnPool): the same answers. */
export async function verifyJcsProofOnPool(
  document: Record<string, unknown>,
  proof: Record<string, unknown>,
  publicJwk: PublicKeyJwk,
  nowMs: number,
): Promise<JcsProofCheck> {
  const prepared = prepareJcsProof(document, proof, publicJwk, nowMs);
  if ('result' in prepared) return prepared;
  return judged(prepared, await verifyWithKeyOnPool(prepared.scheme, prepared.key, prepared.data, prepared.signature));
}

/** A key found for a proof's verification method, or why there is none. */
export type ProofKeyLookup = { publicKey: Uint8Array } | { status: 'INVALID' | 'UNSUPPORTED' | 'MALFORMED'; reason: string };

export interface DataIntegrityOptions {
  /** Resolves `proof.verificationMethod` (as written) to a raw Ed25519 public key. */
  lookupKey: (verificationMethod: string, proof: Record<string, unknown>) => ProofKeyLookup | Promise<ProofKeyLookup>;
  /** The proof purpose the caller accepts, e.g. `assertionMethod`; unchecked when absent. */
  expectedProofPurpose?: string;
  /** Ends the reason of an unsupported proof (see checkProofSupport). */
  supportedDescription?: string;
  /** The caller's clock (ms since the epoch): the proof window (checkProofWindow) is checked at it. */
  nowMs: number;
}

export interface ProofVerification {
  /** Position in the proof set (0 for a single proof object). */
  index: number;
  /** Cryptosuite or proof type, e.g. `eddsa-jcs-2022`, `Ed25519Signature2018`. */
  label: string | null;
  verificationMethod: string | null;
  result: DataIntegrityResult;
}

export interface DataIntegrityVerification {
  /** VALID when every proof verified; otherwise the worst: MALFORMED, then INVALID, then UNSUPPORTED. */
  status: DataIntegrityStatus;
  /** Why it is not VALID (the deciding proof's reason); null when VALID. */
  reason: string | null;
  proofs: ProofVerification[];
}

/** Most proofs svc verifies in one proof set. */
export const MAX_PROOFS = 16;

async function verifyOne(document: Record<string, unknown>, proof: unknown, index: number, options: DataIntegrityOptions): Promise<ProofVerification> {
  const label = proofLabel(proof);
  const vm = isObject(proof) && typeof proof['verificationMethod'] === 'string' ? proof['verificationMethod'] : null;
  const done = (result: DataIntegrityResult): ProofVerification => ({ index, label, verificationMethod: vm, result });
  const unsupported = checkProofSupport(proof, options.supportedDescription);
  if (unsupported) return done(unsupported);
  const p = proof as Record<string, unknown>;
  if (vm === null) return done({ status: 'MALFORMED', reason: 'the proof has no string "verificationMethod"' });
  const purpose = p['proofPurpose'];
  if (typeof purpose !== 'string') return done({ status: 'MALFORMED', reason: 'the proof has no string "proofPurpose"' });
  if (options.expectedProofPurpose !== undefined && purpose !== options.expectedProofPurpose) {
    return done({ status: 'INVALID', reason: `the proof's purpose is ${purpose}, not ${options.expectedProofPurpose}` });
  }
  const key = await options.lookupKey(vm, p);
  if ('status' in key) return done({ status: key.status, reason: key.reason });
  return done(verifyEddsaJcs2022(document, p, key.publicKey, options.nowMs));
}

const SEVERITY: readonly DataIntegrityStatus[] = ['MALFORMED', 'INVALID', 'UNSUPPORTED'];

/**
 * Verifies the `proof` of a secured document: one proof object, or a proof set (array), whose
 * proofs are each verified over the document without `proof`. Never throws for bad input.
 */
export async function verifyDataIntegrity(document: Record<string, unknown>, options: DataIntegrityOptions): Promise<DataIntegrityVerification> {
  if (!isObject(document)) return { status: 'MALFORMED', reason: 'the secured document is not a JSON object', proofs: [] };
  const proof = document['proof'];
  if (proof === undefined) return { status: 'MALFORMED', reason: 'the document has no proof', proofs: [] };
  const list = Array.isArray(proof) ? proof : [proof];
  if (list.length === 0) return { status: 'MALFORMED', reason: 'the proof set is empty', proofs: [] };
  if (list.length > MAX_PROOFS)
    return { status: 'MALFORMED', reason: `the proof set holds ${list.length} proofs; at most ${MAX_PROOFS} are verified`, proofs: [] };
  const proofs: ProofVerification[] = [];
  for (let i = 0; i < list.length; i++) proofs.push(await verifyOne(document, list[i], i, options));
  for (const status of SEVERITY) {
    const worst = proofs.find((p) => p.result.status === status);
    if (worst && worst.result.status !== 'VALID') {
      const prefix = list.length > 1 ? `proof ${worst.index + 1} of ${list.length}: ` : '';
      return { status, reason: `${prefix}${worst.result.reason}`, proofs };
    }
  }
  return { status: 'VALID', reason: null, proofs };
}
