/**
 * The key a credential or presentation is signed with, and the DID it is signed as.
 *
 * The key is a private JWK read by the one reader svc has (signing/key.ts `createSigner`: the
 * curve, "d" of the right length, "alg"/"use"/"key_ops" that allow signing, public members that
 * match "d"), here with secp256k1 allowed. Its did:key and did:jwk are derived by the encoders
 * `svc keygen` uses (delegation/mint.ts `didKeyOf`, keys/generate.ts `didJwkOf`), so a key signs as
 * the DIDs keygen printed for it.
 *
 * Whom it signs as (`signingAs`): by default its did:key. A did:key or did:jwk given as the issuer
 * or holder carries its key, so it must be this one, and its verification method is derived; any
 * other DID (did:web, did:webvh …) publishes its keys elsewhere, so the verification method must
 * be named (`kid`) and only the verifier, resolving the DID, can check that it holds this key — a
 * note says so. Nothing here fetches.
 *
 * Every refusal is a ProblemError INVALID_OPTIONS (the key and the DID are what the caller chose,
 * not the document signed) in one line, naming members and key types, never key material.
 */
import { didKeyOf } from '../delegation/mint.js';
import { parseDid, parseDidUrl } from '../did/syntax.js';
import { base64urlDecode } from '../encoding/base64url.js';
import { isJsonObject, parseJsonStrict } from '../encoding/json.js';
import { checkPublicJwk } from '../keys/jwk.js';
import { didJwkOf } from '../keys/generate.js';
import { ProblemError } from '../problems.js';
import { createSigner, SigningKeyError, type Signer, type SigningAlgorithm, type SigningPublicJwk } from '../signing/key.js';

/** The curves a credential is signed on: those `svc keygen` makes. */
export type IssuingCurve = SigningPublicJwk['crv'];

/** A private key ready to sign credentials and presentations, with the DIDs that carry its public key. */
export interface IssuingKey {
  readonly signer: Signer;
  readonly alg: SigningAlgorithm;
  readonly curve: IssuingCurve;
  readonly publicJwk: SigningPublicJwk;
  readonly didKey: string;
  readonly didJwk: string;
}

function refuse(detail: string): never {
  throw new ProblemError('INVALID_OPTIONS', detail);
}

/** Reads a private JWK (Ed25519, P-256 or secp256k1, as svc keygen writes) into an IssuingKey. */
export function readIssuingKey(privateJwk: unknown): IssuingKey {
  let signer: Signer;
  try {
    signer = createSigner(privateJwk, { secp256k1: true });
  } catch (err) {
    if (err instanceof SigningKeyError) refuse(err.message);
    throw err;
  }
  const { publicJwk, alg } = signer.identity;
  return Object.freeze({ signer, alg, curve: publicJwk.crv, publicJwk, didKey: didKeyOf(publicJwk), didJwk: didJwkOf(publicJwk) });
}

/** What `svc key show` prints of a key file: its curve and DIDs, whether it holds the private key; never "d". */
export interface KeyDescription {
  curve: IssuingCurve;
  didKey: string;
  didJwk: string;
  /** True for a private JWK (checked to match its public members), false for a public one. */
  private: boolean;
}

const KEY_CURVES: ReadonlySet<string> = new Set(['Ed25519', 'P-256', 'secp256k1']);

/**
 * The DIDs of a key file's key: a private JWK (read as readIssuingKey reads it), or a public one
 * (validated: a point on its curve). Curves other than keygen's are refused: svc derives no
 * did:key for them.
 */
export async function describeKey(jwk: unknown): Promise<KeyDescription> {
  if (isJsonObject(jwk) && jwk['d'] !== undefined) {
    const key = readIssuingKey(jwk);
    return { curve: key.curve, didKey: key.didKey, didJwk: key.didJwk, private: true };
  }
  const check = await checkPublicJwk(jwk);
  if (check.status !== 'VALID_KEY' || check.publicJwk === null) {
    refuse(`The key file holds no usable key: ${check.detail ?? 'it is not a JWK'}.`);
  }
  const { kty, crv, x, y } = check.publicJwk;
  if (crv === undefined || !KEY_CURVES.has(crv) || x === undefined) {
    refuse(`The key file holds ${crv ?? kty} key; svc shows the DIDs of Ed25519, P-256 and secp256k1 keys (those svc keygen makes).`);
  }
  const publicJwk = { kty: kty as 'OKP' | 'EC', crv: crv as IssuingCurve, x, ...(y === undefined ? {} : { y }) };
  return { curve: publicJwk.crv, didKey: didKeyOf(publicJwk), didJwk: didJwkOf(publicJwk), private: false };
}

/** Who signs (the issuer of a credential, the holder of a presentation) and for what. */
export interface SignerRole {
  /** "issuer" or "holder", in messages. */
  name: 'issuer' | 'holder';
  /** The relationship the verifier looks the key up under. */
  relationship: 'assertionMethod' | 'authentication';
}

export interface SigningAs {
  /** The DID signing: the issuer or holder. */
  did: string;
  /** Its verification method: the JOSE `kid`, the Data Integrity `verificationMethod`. */
  kid: string;
  /** What the signer could not check and the verifier will, one sentence each. */
  notes: string[];
}

function shown(text: string): string {
  return text.length > 90 ? `${text.slice(0, 90)}…` : text;
}

/** The public key a did:jwk carries, or null when its identifier holds none. */
function didJwkKey(id: string): Record<string, unknown> | null {
  const bytes = base64urlDecode(id);
  if (bytes === null) return null;
  try {
    const value = parseJsonStrict(new TextDecoder('utf-8', { fatal: true }).decode(bytes), { maxDepth: 8 });
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

function sameKey(jwk: Record<string, unknown> | null, key: SigningPublicJwk): boolean {
  return jwk !== null && jwk['kty'] === key.kty && jwk['crv'] === key.crv && jwk['x'] === key.x && (key.y === undefined || jwk['y'] === key.y);
}

/**
 * The DID and verification method `key` signs as: `did` (the issuer or holder the document or
 * the caller names) or, absent, the key's did:key; `kid`, the verification method the caller
 * named, required for DIDs that do not carry their key. Refuses (INVALID_OPTIONS) a DID that is
 * no DID, a did:key or did:jwk of another key, and a kid of another DID or key.
 */
export function signingAs(key: IssuingKey, did: string | undefined, kid: string | undefined, role: SignerRole): SigningAs {
  const subject = did ?? key.didKey;
  let method: string;
  let id: string;
  try {
    ({ method, id } = parseDid(subject));
  } catch (err) {
    refuse(`The ${role.name} must be a DID: ${shown(subject)} is not (${err instanceof ProblemError ? err.detail.replace(/\.$/, '') : 'invalid'}).`);
  }
  let own: string | null = null;
  if (method === 'key') {
    if (subject !== key.didKey) refuse(`The key is not the key of the ${role.name} ${shown(subject)}: its did:key is ${key.didKey}.`);
    own = `${subject}#${id}`;
  } else if (method === 'jwk') {
    const carried = didJwkKey(id);
    if (!sameKey(carried, key.publicJwk)) refuse(`The key is not the key that the ${role.name} ${shown(subject)} carries.`);
    if (carried!['use'] === 'enc') refuse(`The ${role.name} ${shown(subject)} carries its key for encryption ("use": "enc"), not for signing.`);
    own = `${subject}#0`;
  }
  if (kid === undefined) {
    if (own !== null) return { did: subject, kid: own, notes: [] };
    refuse(
      `The ${role.name} ${shown(subject)} is a did:${method}, whose keys are published in its DID document: name the verification method that holds this key with --kid (e.g. ${shown(subject)}#key-1).`,
    );
  }
  let parsed;
  try {
    parsed = parseDidUrl(kid);
  } catch (err) {
    refuse(`The kid ${shown(kid)} is not a DID URL (${err instanceof ProblemError ? err.detail.replace(/\.$/, '') : 'invalid'}).`);
  }
  if (parsed.fragment === null || parsed.fragment === '' || parsed.path !== '' || parsed.query !== null) {
    refuse(`The kid must read <${role.name} DID>#<key>, a fragment naming the key, without path or query: ${shown(kid)} does not.`);
  }
  if (parsed.did !== subject) refuse(`The kid names a key of ${shown(parsed.did)}, not of the ${role.name} ${shown(subject)}.`);
  if (own !== null) {
    if (kid !== own) refuse(`A did:${method} has one key, ${shown(own)}; the kid names another.`);
    return { did: subject, kid, notes: [] };
  }
  return {
    did: subject,
    kid,
    notes: [
      `The verifier resolves ${shown(subject)} and checks that ${shown(kid)} holds this key under ${role.relationship}; signing fetches nothing, so svc did not check it.`,
    ],
  };
}
