/**
 * The key svc signs with: a private JWK, Ed25519 (OKP) or P-256 (EC) — and, for credentials and
 * presentations (core/issue, `secp256k1: true`), EC secp256k1 too — and the identity it signs
 * results under: the did:key of its public key by default, or an operator's did:web (whose
 * document the operator hosts, listing the key under assertionMethod).
 *
 * The private key never leaves this module: a Signer carries only its public identity (printed,
 * logged or serialised, it shows nothing else); the key object lives in a WeakMap only signWith
 * reads, for signCanonical (jws.ts) and core/issue. Every refusal is one line naming what was
 * given and what is accepted, never a key value.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { parseDidUrl } from '../did/syntax.js';
import { didKeyOf } from '../delegation/mint.js';
import { base64urlDecode } from '../encoding/base64url.js';
import { jwkThumbprint } from '../keys/jwk.js';
import { ProblemError } from '../problems.js';
import { withArticle } from '../text.js';

/** What a Signer signs with; ES256K (secp256k1) only when created with `secp256k1: true`, never a signed result. */
export type SigningAlgorithm = 'EdDSA' | 'ES256' | 'ES256K';

/** The public half of a signing key, reduced to the members that define it. */
export interface SigningPublicJwk {
  kty: 'OKP' | 'EC';
  crv: 'Ed25519' | 'P-256' | 'secp256k1';
  x: string;
  y?: string;
}

/** Who signs: the DID, the verification method (kid) a verifier resolves, the algorithm and the public key. */
export interface SigningIdentity {
  did: string;
  kid: string;
  alg: SigningAlgorithm;
  publicJwk: SigningPublicJwk;
}

/** A key ready to sign (createSigner): only its identity is visible. */
export interface Signer {
  readonly identity: SigningIdentity;
}

export interface SignerOptions {
  /**
   * A did:web to sign as: the kid is `<did>#<RFC 7638 thumbprint of the public key>`; or a did:web
   * URL with a fragment (`did:web:example.com#key-1`), which is the kid itself. Default: the
   * did:key of the public key.
   */
  did?: string;
  /**
   * Accept an EC secp256k1 key too (ES256K): credentials and presentations may be signed with one
   * (core/issue); signed results may not (svc verifies those on Ed25519 and P-256 only).
   */
  secp256k1?: boolean;
}

/** A private key (or signing DID) svc cannot sign with; the message is one line, naming no key material. */
export class SigningKeyError extends Error {
  override readonly name = 'SigningKeyError';
}

/** What svc signs with, for messages. */
export const ACCEPTED_SIGNING_KEYS = 'a private JWK of kty OKP, crv Ed25519 (EdDSA) or kty EC, crv P-256 (ES256), with its private member "d"';

/** What svc signs credentials and presentations with (`secp256k1: true`), for messages. */
export const ACCEPTED_CREDENTIAL_KEYS =
  'a private JWK of kty OKP, crv Ed25519 (EdDSA) or kty EC, crv P-256 (ES256) or secp256k1 (ES256K), with its private member "d" (as svc keygen writes)';

interface KeyMaterial {
  key: KeyObject;
  alg: SigningAlgorithm;
}

/** Each Signer's private key object, reachable only from this module and jws.ts through signWith. */
const MATERIAL = new WeakMap<Signer, KeyMaterial>();

/** A short, printable rendering of a JWK member someone gave (never a key value: kty, crv, alg). */
function shown(value: unknown): string {
  return JSON.stringify(String(value).slice(0, 24));
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a JSON array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** How a key type someone gave is named in a refusal. */
function given(kty: unknown, crv: unknown): string {
  if (kty === 'RSA') return 'an RSA key';
  if (kty === 'oct') return 'a symmetric (oct) key';
  if (kty === 'OKP' && crv === 'X25519') return 'an OKP X25519 key (key agreement, not signing)';
  if (typeof crv === 'string') return `a kty ${shown(kty)}, crv ${shown(crv)} key`;
  return `a kty ${shown(kty)} key without a "crv"`;
}

function refuse(detail: string): never {
  throw new SigningKeyError(detail);
}

/**
 * Reads a private JWK: OKP Ed25519 or EC P-256 with "d" (the file `svc keygen --curve Ed25519` or
 * `--curve P-256` writes). Its "alg", "use" and "key_ops", when present, must allow signing with
 * the key's algorithm; its public members must match "d". Returns the key and its public JWK.
 */
function readPrivateJwk(jwk: unknown, secp256k1: boolean): { material: KeyMaterial; publicJwk: SigningPublicJwk } {
  const accepted = secp256k1 ? ACCEPTED_CREDENTIAL_KEYS : ACCEPTED_SIGNING_KEYS;
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk)) refuse(`The signing key is ${kindOf(jwk)}, not a JWK: svc signs with ${accepted}.`);
  const j = jwk as Record<string, unknown>;
  const kty = j['kty'];
  const crv = j['crv'];
  if (typeof kty !== 'string') refuse(`The signing key is a JSON object without a string "kty", not a JWK: svc signs with ${accepted}.`);
  let alg: SigningAlgorithm;
  if (kty === 'OKP' && crv === 'Ed25519') alg = 'EdDSA';
  else if (kty === 'EC' && crv === 'P-256') alg = 'ES256';
  else if (secp256k1 && kty === 'EC' && crv === 'secp256k1') alg = 'ES256K';
  else refuse(`The signing key is ${given(kty, crv)}: svc signs ${secp256k1 ? '' : 'results '}only with ${accepted}.`);
  const label = `${kty} ${crv}`;
  if (typeof j['d'] !== 'string' || j['d'] === '') {
    refuse(`The signing key is a public ${label} JWK (it has no "d"): svc signs with ${accepted}.`);
  }
  const secret = base64urlDecode(j['d']);
  if (secret === null) refuse(`The signing key's "d" is not unpadded base64url: it is not a valid ${label} private key.`);
  if (secret.length !== 32) refuse(`The signing key's "d" is ${secret.length} bytes; ${withArticle(label)} private key has 32.`);
  if (j['alg'] !== undefined && j['alg'] !== alg) refuse(`The signing key is restricted to "alg" ${shown(j['alg'])}, but ${label} keys sign with ${alg}.`);
  if (j['use'] !== undefined && j['use'] !== 'sig') refuse(`The signing key's "use" is ${shown(j['use'])}, not "sig": it is not meant for signing.`);
  if (j['key_ops'] !== undefined && !(Array.isArray(j['key_ops']) && j['key_ops'].includes('sign'))) {
    refuse('The signing key\'s "key_ops" do not include "sign": it is not meant for signing.');
  }
  const members: Record<string, unknown> = { kty, crv, d: j['d'], x: j['x'] };
  if (kty === 'EC') members['y'] = j['y'];
  if (typeof members['x'] !== 'string' || (kty === 'EC' && typeof members['y'] !== 'string')) {
    refuse(`The signing key lacks its public member${kty === 'EC' ? 's "x" and "y"' : ' "x"'}, which a private ${label} JWK carries too (RFC 7518, RFC 8037).`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: members as never, format: 'jwk' });
  } catch {
    // node's message could quote the input; it is not repeated.
    refuse(`The signing key is not a valid ${label} private key.`);
  }
  // node keeps an EC key's public point as given (it does not derive it from "d"): a probe signed
  // with the private key must verify with the public members, or the key would sign what its
  // published half cannot verify.
  const { d: _private, ...publicMembers } = members;
  let matches: boolean;
  try {
    const probe = Buffer.from('svc signing key probe', 'ascii');
    const publicKey = createPublicKey({ key: publicMembers as never, format: 'jwk' });
    matches = alg === 'EdDSA' ? verify(null, probe, publicKey, sign(null, probe, key)) : verify('sha256', probe, publicKey, sign('sha256', probe, key));
  } catch {
    matches = false;
  }
  if (!matches) refuse(`The signing key's public member${kty === 'EC' ? 's "x"/"y" do' : ' "x" does'} not match its private key "d".`);
  const publicJwk: SigningPublicJwk =
    kty === 'EC'
      ? { kty: 'EC', crv: crv as 'P-256' | 'secp256k1', x: members['x'] as string, y: members['y'] as string }
      : { kty: 'OKP', crv: 'Ed25519', x: members['x'] as string };
  return { material: { key, alg }, publicJwk };
}

/** The DID and kid of a signer: its did:key, or the operator's did:web (URL). */
function identityOf(publicJwk: SigningPublicJwk, did: string | undefined): { did: string; kid: string } {
  if (did === undefined) {
    const own = didKeyOf(publicJwk);
    return { did: own, kid: `${own}#${own.slice('did:key:'.length)}` };
  }
  const wanted = 'a did:web (did:web:example.com) or a did:web URL naming the key (did:web:example.com#key-1)';
  let parsed;
  try {
    parsed = parseDidUrl(did);
  } catch (err) {
    refuse(`The signing DID ${shown(did)} is not a DID (${err instanceof ProblemError ? err.detail.replace(/\.$/, '') : 'invalid'}): give ${wanted}.`);
  }
  if (parsed.method !== 'web')
    refuse(`The signing DID is a did:${parsed.method.slice(0, 16)}: give ${wanted}; without one, svc signs as the did:key of its key.`);
  if (parsed.path !== '' || parsed.query !== null) refuse(`The signing DID has a path or query: give ${wanted}.`);
  if (parsed.fragment === '') refuse(`The signing DID ends in an empty fragment: give ${wanted}.`);
  const kid = parsed.fragment === null ? `${parsed.did}#${jwkThumbprint(publicJwk)!}` : `${parsed.did}#${parsed.fragment}`;
  return { did: parsed.did, kid };
}

/**
 * A signer from a private JWK (see ACCEPTED_SIGNING_KEYS; with `secp256k1`, ACCEPTED_CREDENTIAL_KEYS),
 * signing as the did:key of its public key or as `options.did` (a did:web). Throws
 * SigningKeyError, one line, for anything else: another curve or key type (secp256k1 without the
 * option, RSA …), a public JWK, a malformed one, another DID method.
 */
export function createSigner(privateJwk: unknown, options: SignerOptions = {}): Signer {
  const { material, publicJwk } = readPrivateJwk(privateJwk, options.secp256k1 === true);
  const { did, kid } = identityOf(publicJwk, options.did);
  const identity: SigningIdentity = Object.freeze({ did, kid, alg: material.alg, publicJwk: Object.freeze(publicJwk) });
  const signer: Signer = Object.freeze({ identity });
  MATERIAL.set(signer, material);
  return signer;
}

/** The order of secp256k1's group, n: an ES256K signature's s is kept at most n/2. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * The low-S form of a raw secp256k1 r‖s signature: s and n − s both verify, and verifiers of
 * the Bitcoin lineage (did-jwt through @noble/curves among them) accept only s ≤ n/2.
 */
function lowS(signature: Uint8Array): Uint8Array {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).toString('hex')}`);
  if (s <= SECP256K1_N >> 1n) return signature;
  const out = new Uint8Array(signature);
  out.set(Buffer.from((SECP256K1_N - s).toString(16).padStart(64, '0'), 'hex'), 32);
  return out;
}

/**
 * The raw JOSE signature of `data` by the signer: Ed25519, or ECDSA r‖s with SHA-256 (P-256;
 * secp256k1 in low-S form). Throws for an object createSigner did not make.
 */
export function signWith(signer: Signer, data: Uint8Array): Uint8Array {
  const material = MATERIAL.get(signer);
  if (material === undefined) throw new SigningKeyError('The signer was not made by createSigner: it holds no key.');
  if (material.alg === 'EdDSA') return new Uint8Array(sign(null, data, material.key));
  const signature = new Uint8Array(sign('sha256', data, { key: material.key, dsaEncoding: 'ieee-p1363' }));
  return material.alg === 'ES256K' ? lowS(signature) : signature;
}
