/**
 * Signing key generation for `svc keygen`: a fresh private JWK on one of the curves delegation
 * receipts are signed with (Ed25519 → EdDSA, P-256 → ES256, secp256k1 → ES256K), and the two
 * DIDs that carry its public key (did:key, did:jwk), so the key can issue receipts at once.
 *
 * The secret comes from @noble/curves' `randomSecretKey` (the platform CSPRNG, rejection-sampled
 * into the curve order); the curve modules load on first use, as for validation (curves.ts). The
 * did:key is derived by the one encoder the minter uses (delegation/mint.ts `didKeyOf`); the
 * did:jwk carries the public JWK with "use": "sig" (a did:jwk without "use" also lists its key
 * under keyAgreement, which an Ed25519 key cannot serve), in RFC 8785 form, i.e. members in
 * lexicographic order, as the did:jwk specification's examples are written.
 */
import { canonicalize } from '../canonical.js';
import { didKeyOf } from '../delegation/mint.js';
import { base64urlEncode } from '../encoding/base64url.js';
import { jwkThumbprint } from './jwk.js';
import { KEYGEN_CURVES, type KeygenCurve } from './types.js';

export { KEYGEN_CURVES, type KeygenCurve };

/** The JWS algorithm each curve signs receipts with. */
export const KEYGEN_ALGORITHMS: Readonly<Record<KeygenCurve, 'EdDSA' | 'ES256' | 'ES256K'>> = {
  Ed25519: 'EdDSA',
  'P-256': 'ES256',
  secp256k1: 'ES256K',
};

export interface GeneratedPublicJwk {
  kty: 'OKP' | 'EC';
  crv: KeygenCurve;
  x: string;
  y?: string;
}

export interface GeneratedPrivateJwk extends GeneratedPublicJwk {
  d: string;
  /** A signing key: `svc delegate` accepts it, and its did:jwk lists it for signing only. */
  use: 'sig';
  /** The algorithm the key is for: `svc delegate` refuses to sign with another. */
  alg: 'EdDSA' | 'ES256' | 'ES256K';
  /** RFC 7638 thumbprint of the public key: names it without saying which DID carries it. */
  kid: string;
}

export interface GeneratedKey {
  curve: KeygenCurve;
  privateJwk: GeneratedPrivateJwk;
  publicJwk: GeneratedPublicJwk;
  didKey: string;
  didJwk: string;
}

export function isKeygenCurve(value: string): value is KeygenCurve {
  return (KEYGEN_CURVES as readonly string[]).includes(value);
}

/** `did:jwk:` + base64url of the RFC 8785 JSON of the public JWK, marked as a signing key. */
export function didJwkOf(publicJwk: GeneratedPublicJwk): string {
  return `did:jwk:${base64urlEncode(new TextEncoder().encode(canonicalize({ ...publicJwk, use: 'sig' })))}`;
}

/** A new private key on `curve`; the secret exists only in the returned JWK's `d`. */
export async function generateSigningKey(curve: KeygenCurve): Promise<GeneratedKey> {
  let publicJwk: GeneratedPublicJwk;
  let secret: Uint8Array;
  if (curve === 'Ed25519') {
    const { ed25519 } = await import('@noble/curves/ed25519.js');
    secret = ed25519.utils.randomSecretKey();
    publicJwk = { kty: 'OKP', crv: curve, x: base64urlEncode(ed25519.getPublicKey(secret)) };
  } else {
    const weierstrass = curve === 'P-256' ? (await import('@noble/curves/nist.js')).p256 : (await import('@noble/curves/secp256k1.js')).secp256k1;
    secret = weierstrass.utils.randomSecretKey();
    // Uncompressed SEC 1 point: 0x04 || x || y, 32 bytes each.
    const point = weierstrass.getPublicKey(secret, false);
    publicJwk = { kty: 'EC', crv: curve, x: base64urlEncode(point.subarray(1, 33)), y: base64urlEncode(point.subarray(33, 65)) };
  }
  const d = base64urlEncode(secret);
  secret.fill(0);
  const kid = jwkThumbprint(publicJwk)!;
  return {
    curve,
    privateJwk: { ...publicJwk, d, use: 'sig', alg: KEYGEN_ALGORITHMS[curve], kid },
    publicJwk,
    didKey: didKeyOf(publicJwk),
    didJwk: didJwkOf(publicJwk),
  };
}
