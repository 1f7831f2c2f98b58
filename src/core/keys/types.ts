/** Key enumerations and shapes (`evidence.keys[]` of the resolution result). */
export const KEY_STATUSES = ['VALID_KEY', 'INVALID_KEY', 'UNSUPPORTED_KEY'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** Curves svc validates. Names follow the JOSE registry (`crv`). */
export const CURVES = ['Ed25519', 'X25519', 'P-256', 'P-384', 'P-521', 'secp256k1'] as const;
export type Curve = (typeof CURVES)[number];

/** The curves `svc keygen` generates (core/keys/generate.ts). */
export const KEYGEN_CURVES = ['Ed25519', 'P-256', 'secp256k1'] as const;
export type KeygenCurve = (typeof KEYGEN_CURVES)[number];

export const SIGNING_CURVES: ReadonlySet<string> = new Set(['Ed25519', 'P-256', 'P-384', 'P-521', 'secp256k1']);

/** Key size in bits of each curve (its field size, as JOSE and key-size policies count it; not the security strength), for `minKeyBits`. */
export const CURVE_BITS: Readonly<Record<Curve, number>> = {
  Ed25519: 256,
  X25519: 256,
  'P-256': 256,
  'P-384': 384,
  'P-521': 521,
  secp256k1: 256,
};

/** A public JWK reduced to the members that define the key. */
export interface PublicJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

export interface MulticodecInfo {
  /** Multicodec table name, e.g. `ed25519-pub`; null for a code svc does not know. */
  name: string | null;
  /** The code in hex, e.g. `0xed`. */
  code: string;
}

/** The outcome of validating one public key. */
export interface KeyCheck {
  status: KeyStatus;
  curve: string | null;
  multicodec: MulticodecInfo | null;
  /** Canonical public JWK when the key could be decoded. */
  publicJwk: PublicJwk | null;
  /** Why the key is invalid or unsupported; null for a valid key. */
  detail: string | null;
}
