/**
 * Minting delegation receipts with node:crypto: the `svc delegate` command, so the
 * verification rules can be tried end to end. A receipt is a compact JWS with the protected
 * header {alg, typ: svc-delegation+jwt, kid} and the payload {iss, aud, cap, nbf, exp, jti, prf?}.
 *
 * Minting refuses (INVALID_REQUEST) what the chain checks (chain.ts) would reject, so a receipt
 * that is minted verifies as far as the minter can tell: the key must be the issuer's (checked for
 * did:key and did:jwk issuers, which carry their key; a did:web key is only named), the child must
 * chain onto its parent (iss = parent aud), stay inside the parent's window and capabilities.
 *
 * The private key never appears in a message: errors name members and key types, never values.
 */
import { createPrivateKey, createPublicKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import { parseDid, parseDidUrl } from '../did/syntax.js';
import { base64urlDecode, base64urlEncode } from '../encoding/base64url.js';
import { multibaseEncode } from '../encoding/multibase.js';
import { isJsonObject, parseJsonStrict } from '../encoding/json.js';
import { encodeMulticodec } from '../keys/multicodec.js';
import { ProblemError } from '../problems.js';
import { withArticle } from '../text.js';
import { capabilityCovered, validateCapability } from './capability.js';
import { isReceipt, readReceipt, receiptDigest } from './receipt.js';
import { MAX_CAPABILITIES, RECEIPT_TYP, type ReceiptAlgorithm } from './types.js';

/** Longest lifetime `svc delegate` mints: 366 days. */
export const MAX_RECEIPT_TTL_SECONDS = 366 * 24 * 3600;

export interface MintOptions {
  /** The issuer's private JWK (OKP Ed25519, EC P-256 or EC secp256k1), with `d`. */
  privateJwk: unknown;
  iss: string;
  aud: string;
  cap: string[];
  /** `<iss>#<key>`; derived for did:key and did:jwk issuers, required for every other method. */
  kid?: string;
  ttlSeconds: number;
  /** The parent receipt (compact serialisation) when this one re-delegates. */
  parent?: string;
  now: Date;
  jti?: string;
}

export interface MintedReceipt {
  receipt: string;
  /** Hex SHA-256 of the compact serialisation: the `prf` a child of this receipt carries. */
  digest: string;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

interface SigningKey {
  alg: ReceiptAlgorithm;
  key: KeyObject;
  /** The public JWK derived from the private key (never from the file's own public members). */
  publicJwk: { kty: string; crv: string; x: string; y?: string };
}

function refuse(detail: string): never {
  throw new ProblemError('INVALID_REQUEST', detail);
}

function isoOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** What a key signs, for messages: receipts (svc delegate) or proofs of control (svc claim). */
interface SigningRole {
  signs: string;
  /** Whose key it must be ("the issuer", "the DID"). */
  owner: string;
  /** What such DIDs are called in a message ("issuers", "DIDs"). */
  subjects: string;
  /** The relationship the kid must name a key of. */
  relationship: string;
}

const RECEIPTS: SigningRole = { signs: 'receipts', owner: 'the issuer', subjects: 'issuers', relationship: 'capabilityDelegation' };
const PROOFS: SigningRole = { signs: 'proofs of control', owner: 'the DID', subjects: 'DIDs', relationship: 'authentication' };

/** Reads the private JWK; every message names members or key types, never key material. */
function signingKey(jwk: unknown, role: SigningRole = RECEIPTS): SigningKey {
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk)) {
    refuse('The key must be a private JWK: a JSON object with "kty", "crv", "x" and "d".');
  }
  const j = jwk as Record<string, unknown>;
  const kty = j['kty'];
  const crv = j['crv'];
  let alg: ReceiptAlgorithm;
  if (kty === 'OKP' && crv === 'Ed25519') alg = 'EdDSA';
  else if (kty === 'EC' && crv === 'P-256') alg = 'ES256';
  else if (kty === 'EC' && crv === 'secp256k1') alg = 'ES256K';
  else {
    const what = typeof kty === 'string' ? `${kty}${typeof crv === 'string' ? ` ${crv}` : ''}` : 'a JWK without a string "kty"';
    refuse(
      `The key type ${JSON.stringify(what.slice(0, 40))} cannot sign ${role.signs}: use an OKP Ed25519 (EdDSA), EC P-256 (ES256) or EC secp256k1 (ES256K) key.`,
    );
  }
  if (typeof j['d'] !== 'string' || j['d'] === '') {
    refuse(`The JWK has no private member "d": it is a public key, and ${role.signs} are signed with ${role.owner}'s private key.`);
  }
  if (j['alg'] !== undefined && j['alg'] !== alg) {
    refuse(
      `The JWK is restricted to "alg" ${JSON.stringify(String(j['alg']).slice(0, 20))}, but ${withArticle(String(crv))} key signs ${role.signs} with ${alg}.`,
    );
  }
  if (j['use'] !== undefined && j['use'] !== 'sig') refuse('The JWK "use" is not "sig": the key is not meant for signing.');
  if (Array.isArray(j['key_ops']) && !j['key_ops'].includes('sign')) refuse('The JWK "key_ops" do not include "sign".');
  if (typeof j['d'] === 'string' && base64urlDecode(j['d']) === null) refuse('The JWK member "d" is not unpadded base64url.');

  // Import only the members a private key of this type has: anything else (the file's "alg",
  // "kid", "use") is not key material, and node would refuse some of it.
  const members: Record<string, unknown> = { kty, crv, d: j['d'], x: j['x'] };
  if (kty === 'EC') members['y'] = j['y'];
  if (typeof members['x'] !== 'string' || (kty === 'EC' && typeof members['y'] !== 'string')) {
    refuse(`The JWK lacks its public member${kty === 'EC' ? 's "x" and "y"' : ' "x"'}, which a private JWK carries too (RFC 7518, RFC 8037).`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: members as never, format: 'jwk' });
  } catch {
    // node's message could quote the input; it is not repeated.
    refuse(`The JWK is not a valid ${String(crv)} private key.`);
  }
  const derived = createPublicKey(key).export({ format: 'jwk' }) as { kty: string; crv: string; x: string; y?: string };
  if (derived.x !== members['x'] || (kty === 'EC' && derived.y !== members['y'])) {
    refuse('The JWK\'s public members ("x"/"y") do not match its private key "d".');
  }
  const publicJwk =
    derived.y === undefined ? { kty: derived.kty, crv: String(crv), x: derived.x } : { kty: derived.kty, crv: String(crv), x: derived.x, y: derived.y };
  return { alg, key, publicJwk };
}

/** The did:key of a public key: Ed25519 0xed, P-256 0x1200, secp256k1 0xe7 (compressed point). */
export function didKeyOf(publicJwk: { kty: string; crv: string; x: string; y?: string }): string {
  const x = Buffer.from(publicJwk.x, 'base64url');
  if (publicJwk.kty === 'OKP') return `did:key:${multibaseEncode(encodeMulticodec(0xed, x))}`;
  const y = Buffer.from(publicJwk.y ?? '', 'base64url');
  const compressed = new Uint8Array(1 + x.length);
  compressed[0] = (y[y.length - 1]! & 1) === 1 ? 0x03 : 0x02;
  compressed.set(x, 1);
  return `did:key:${multibaseEncode(encodeMulticodec(publicJwk.crv === 'P-256' ? 0x1200 : 0xe7, compressed))}`;
}

/** The public JWK a did:jwk carries, or null when it does not decode. */
function didJwkKey(id: string): Record<string, unknown> | null {
  const bytes = base64urlDecode(id);
  if (!bytes) return null;
  try {
    const value = parseJsonStrict(new TextDecoder('utf-8', { fatal: true }).decode(bytes), { maxDepth: 8 });
    return isJsonObject(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function checkDid(value: string, name: 'iss' | 'aud'): string {
  try {
    return parseDid(value).did;
  } catch (err) {
    const reason = err instanceof ProblemError ? err.detail : 'not a DID';
    throw new ProblemError('INVALID_REQUEST', `The ${name === 'iss' ? 'issuer (iss)' : 'audience (aud)'} must be a bare DID. ${reason}`);
  }
}

/** The kid to sign with, checked to be a key of the issuer (and, for did:key/did:jwk, this key). */
function resolveKid(iss: string, kid: string | undefined, signing: SigningKey, role: SigningRole = RECEIPTS): string {
  const { method, id } = parseDid(iss);
  if (method === 'key') {
    const own = didKeyOf(signing.publicJwk);
    if (own !== iss) refuse(`The private key is not the key of ${iss}: its did:key is ${own}.`);
  } else if (method === 'jwk') {
    const embedded = didJwkKey(id);
    const same =
      embedded !== null &&
      embedded['kty'] === signing.publicJwk.kty &&
      embedded['crv'] === signing.publicJwk.crv &&
      embedded['x'] === signing.publicJwk.x &&
      (signing.publicJwk.y === undefined || embedded['y'] === signing.publicJwk.y);
    if (!same) refuse(`The private key is not the key that ${iss.length > 80 ? `${iss.slice(0, 80)}…` : iss} carries.`);
  }
  const ownFragment = method === 'key' ? id : method === 'jwk' ? '0' : null;
  if (kid === undefined) {
    if (ownFragment === null) refuse(`--kid is required for did:${method} ${role.subjects}: name the ${role.relationship} key (e.g. ${iss}#key-1).`);
    return `${iss}#${ownFragment}`;
  }
  let parsed;
  try {
    parsed = parseDidUrl(kid);
  } catch (err) {
    throw new ProblemError('INVALID_REQUEST', `The kid is not a DID URL <iss>#<key>. ${err instanceof ProblemError ? err.detail : ''}`.trim());
  }
  if (parsed.fragment === null || parsed.fragment === '' || parsed.path !== '' || parsed.query !== null) {
    refuse('The kid must have the form <iss>#<key>: the issuer DID and a fragment naming its key, without path or query.');
  }
  if (parsed.did !== iss) refuse(`The kid names a key of ${parsed.did}, not of ${role.owner} ${iss}.`);
  if (ownFragment !== null && parsed.fragment !== ownFragment) {
    refuse(`A did:${method} has one key, ${iss}#${ownFragment}; the kid names another.`);
  }
  return kid;
}

function checkCapabilities(cap: unknown): string[] {
  if (!Array.isArray(cap) || cap.length === 0 || cap.length > MAX_CAPABILITIES) {
    refuse(`A receipt grants 1 to ${MAX_CAPABILITIES} capabilities; ${Array.isArray(cap) ? cap.length : 'none'} given.`);
  }
  const seen = new Set<string>();
  for (const c of cap) {
    const problem = validateCapability(c);
    if (problem) refuse(`Invalid capability: ${problem}.`);
    const lower = (c as string).toLowerCase();
    if (seen.has(lower)) refuse(`The capability ${JSON.stringify(c)} is listed twice (capabilities compare case-insensitively).`);
    seen.add(lower);
  }
  return [...(cap as string[])];
}

/** The order of secp256k1 and its half: a signature with s above the half is malleable. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const SECP256K1_HALF_N = SECP256K1_N >> 1n;

/**
 * ES256K signatures in low-S form (s ≤ n/2), as Bitcoin, Ethereum and did-jwt's verifier
 * (noble-curves, `lowS` by default) require; node:crypto produces either form.
 */
function lowS(signature: Uint8Array): Uint8Array {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).toString('hex')}`);
  if (s <= SECP256K1_HALF_N) return signature;
  const out = new Uint8Array(signature);
  out.set(Buffer.from((SECP256K1_N - s).toString(16).padStart(64, '0'), 'hex'), 32);
  return out;
}

function signCompact(header: Record<string, unknown>, payload: Record<string, unknown>, signing: SigningKey): string {
  return signEncoded(header, base64urlEncode(Buffer.from(JSON.stringify(payload))), signing);
}

/** A compact JWS over a payload given as its base64url text (signed exactly as given). */
function signEncoded(header: Record<string, unknown>, payload: string, signing: SigningKey): string {
  const input = `${base64urlEncode(Buffer.from(JSON.stringify(header)))}.${payload}`;
  const data = Buffer.from(input, 'ascii');
  let signature: Uint8Array = signing.alg === 'EdDSA' ? sign(null, data, signing.key) : sign('sha256', data, { key: signing.key, dsaEncoding: 'ieee-p1363' });
  if (signing.alg === 'ES256K') signature = lowS(signature);
  return `${input}.${base64urlEncode(signature)}`;
}

/** Signs a delegation receipt; a ProblemError (INVALID_REQUEST) for anything it refuses. */
export function mintReceipt(options: MintOptions): MintedReceipt {
  const iss = checkDid(options.iss, 'iss');
  const aud = checkDid(options.aud, 'aud');
  if (iss === aud) refuse('The issuer and the audience are the same DID: a principal may appear only once in a chain.');
  const cap = checkCapabilities(options.cap);
  const ttl = options.ttlSeconds;
  if (!Number.isSafeInteger(ttl) || ttl <= 0 || ttl > MAX_RECEIPT_TTL_SECONDS) {
    refuse(`The lifetime must be a whole number of seconds from 1 to ${MAX_RECEIPT_TTL_SECONDS} (366 days).`);
  }
  if (options.jti !== undefined && (typeof options.jti !== 'string' || options.jti === '')) refuse('The jti must be a non-empty string.');
  const time = options.now.getTime();
  if (!Number.isFinite(time)) refuse('The signing time is not a valid date.');
  const nbf = Math.floor(time / 1000);
  const exp = nbf + ttl;
  const signing = signingKey(options.privateJwk);
  const kid = resolveKid(iss, options.kid, signing);

  let prf: string | undefined;
  if (options.parent !== undefined) {
    const compact = options.parent.trim();
    const parent = readReceipt(compact);
    if (!isReceipt(parent)) refuse(`The parent is not a usable delegation receipt: ${parent.reason}.`);
    if (parent.audDid !== iss) refuse(`The parent delegates to ${parent.audDid}, not to ${iss}: only its audience can re-delegate.`);
    if (aud === parent.issDid) refuse(`The audience ${aud} issued the parent: a principal may appear only once in a chain.`);
    if (nbf >= parent.exp) refuse(`The parent expired at ${isoOf(parent.exp)}: it can no longer be re-delegated.`);
    if (nbf < parent.nbf) refuse(`The parent is not valid before ${isoOf(parent.nbf)}; a child cannot start earlier.`);
    if (exp > parent.exp) {
      refuse(
        `The receipt would outlive its parent: it would expire at ${isoOf(exp)}, the parent at ${isoOf(parent.exp)}. ` +
          `Use a shorter --ttl (at most ${parent.exp - nbf}s).`,
      );
    }
    const uncovered = cap.filter((c) => !capabilityCovered(parent.cap, c));
    if (uncovered.length > 0) {
      refuse(
        `The parent does not grant ${uncovered.map((c) => JSON.stringify(c)).join(', ')}: it grants only ${parent.cap.map((c) => JSON.stringify(c)).join(', ')}.`,
      );
    }
    prf = receiptDigest(compact);
  }

  const header: Record<string, unknown> = { alg: signing.alg, typ: RECEIPT_TYP, kid };
  const payload: Record<string, unknown> = { iss, aud, cap, nbf, exp, jti: options.jti ?? randomUUID() };
  if (prf !== undefined) payload['prf'] = prf;
  const receipt = signCompact(header, payload, signing);
  return { receipt, digest: receiptDigest(receipt), header, payload };
}

/**
 * Signs a proof of control (`svc claim --key`): a compact JWS over the challenge's payload, given
 * as its exact base64url text, by a private JWK of `did`. The kid is derived for did:key and
 * did:jwk (and the key checked to be theirs), required for other methods. Refusals are
 * ProblemError INVALID_REQUEST, naming members and key types, never key material.
 */
export function signClaimPayload(options: { privateJwk: unknown; did: string; kid?: string; payload: string }): { jws: string; kid: string } {
  let did: string;
  try {
    did = parseDid(options.did).did;
  } catch (err) {
    throw new ProblemError('INVALID_REQUEST', `The DID is not valid. ${err instanceof ProblemError ? err.detail : ''}`.trim());
  }
  if (!/^[A-Za-z0-9_-]+$/.test(options.payload)) refuse('The payload to sign is not base64url text.');
  const signing = signingKey(options.privateJwk, PROOFS);
  const kid = resolveKid(did, options.kid, signing, PROOFS);
  return { jws: signEncoded({ alg: signing.alg, kid }, options.payload, signing), kid };
}
