/**
 * Curve-point validation with @noble/curves (decoding and validation only; signatures are
 * verified with node:crypto elsewhere). Curve modules are imported lazily, on first use, so
 * a resolution that meets only Ed25519 keys never loads the Weierstrass code.
 */
import { base64urlEncode } from '../encoding/base64url.js';
import { withArticle } from '../text.js';
import type { Curve, PublicJwk } from './types.js';

type EdModule = typeof import('@noble/curves/ed25519.js');
type NistModule = typeof import('@noble/curves/nist.js');
type K1Module = typeof import('@noble/curves/secp256k1.js');

let ed: Promise<EdModule> | undefined;
let nist: Promise<NistModule> | undefined;
let k1: Promise<K1Module> | undefined;
const loadEd = () => (ed ??= import('@noble/curves/ed25519.js'));
const loadNist = () => (nist ??= import('@noble/curves/nist.js'));
const loadK1 = () => (k1 ??= import('@noble/curves/secp256k1.js'));

export type PointCheck = { ok: true; jwk: PublicJwk } | { ok: false; reason: string };

/** Coordinate size in bytes of the short-Weierstrass curves. */
export const EC_COORDINATE_BYTES: Readonly<Record<'P-256' | 'P-384' | 'P-521' | 'secp256k1', number>> = {
  'P-256': 32,
  'P-384': 48,
  'P-521': 66,
  secp256k1: 32,
};

type EcCurve = keyof typeof EC_COORDINATE_BYTES;

export function isEcCurve(curve: string): curve is EcCurve {
  return Object.hasOwn(EC_COORDINATE_BYTES, curve);
}

async function weierstrass(curve: EcCurve) {
  switch (curve) {
    case 'P-256':
      return (await loadNist()).p256;
    case 'P-384':
      return (await loadNist()).p384;
    case 'P-521':
      return (await loadNist()).p521;
    case 'secp256k1':
      return (await loadK1()).secp256k1;
  }
}

function leToBigint(bytes: Uint8Array): bigint {
  let r = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) r = (r << 8n) | BigInt(bytes[i]!);
  return r;
}

function bigintToLe(value: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let v = value;
  for (let i = 0; i < length; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export type Ed25519Check = { ok: true; jwk: PublicJwk; /** affine y of the point */ y: bigint } | { ok: false; reason: string };

/** Ed25519 public key (RFC 8032 encoding): canonical, on the curve, not of small order. */
export async function checkEd25519(bytes: Uint8Array): Promise<Ed25519Check> {
  if (bytes.length !== 32) return { ok: false, reason: `an Ed25519 public key is 32 bytes, not ${bytes.length}` };
  const { ed25519 } = await loadEd();
  let point;
  try {
    point = ed25519.Point.fromBytes(bytes);
  } catch {
    return { ok: false, reason: 'the Ed25519 key is not a canonical encoding of a point on the curve' };
  }
  if (point.is0()) return { ok: false, reason: 'the Ed25519 key is the identity point' };
  if (point.isSmallOrder()) return { ok: false, reason: 'the Ed25519 key is a point of small order' };
  return { ok: true, jwk: { kty: 'OKP', crv: 'Ed25519', x: base64urlEncode(bytes) }, y: point.y };
}

/**
 * X25519 public key (RFC 7748 u-coordinate): canonical (< p, top bit clear), on the curve
 * rather than its twist, and not of small order. Checked through the birational map to
 * edwards25519, y = (u − 1)/(u + 1).
 */
export async function checkX25519(bytes: Uint8Array): Promise<PointCheck> {
  if (bytes.length !== 32) return { ok: false, reason: `an X25519 public key is 32 bytes, not ${bytes.length}` };
  const { ed25519 } = await loadEd();
  const Fp = ed25519.Point.Fp;
  const u = leToBigint(bytes);
  if (u >= Fp.ORDER) return { ok: false, reason: 'the X25519 key is not a canonical u-coordinate (u ≥ 2^255 − 19)' };
  if (u === Fp.ORDER - 1n) return { ok: false, reason: 'the X25519 key is not a point on Curve25519' };
  const y = Fp.mul(Fp.sub(u, 1n), Fp.inv(Fp.add(u, 1n)));
  let point;
  try {
    point = ed25519.Point.fromBytes(bigintToLe(y, 32));
  } catch {
    return { ok: false, reason: 'the X25519 key is not a point on Curve25519 (it lies on the twist)' };
  }
  if (point.isSmallOrder()) return { ok: false, reason: 'the X25519 key is a point of small order' };
  return { ok: true, jwk: { kty: 'OKP', crv: 'X25519', x: base64urlEncode(bytes) } };
}

/**
 * The X25519 key an Ed25519 key converts to (RFC 7748 §4.1 map, u = (1 + y)/(1 − y)), from the
 * y of an already validated point: one field inversion, no second decoding. The map preserves
 * being on the curve and the order of the point, so the result of a valid, not-small-order
 * Ed25519 key is a valid X25519 key by construction.
 */
export async function x25519FromEd25519Y(y: bigint): Promise<Uint8Array> {
  const { ed25519 } = await loadEd();
  const Fp = ed25519.Point.Fp;
  return bigintToLe(Fp.mul(Fp.add(1n, y), Fp.inv(Fp.sub(1n, y))), 32);
}

export interface EcPointCheckOptions {
  /** Encoding the caller requires; a valid point in the other form is reported as invalid. */
  require?: 'compressed' | 'uncompressed';
}

/**
 * A SEC1-encoded point (compressed 02/03 ‖ x, or uncompressed 04 ‖ x ‖ y) on a short
 * Weierstrass curve. All four curves have cofactor 1, so on the curve means in the group.
 */
export async function checkEcPoint(curve: EcCurve, bytes: Uint8Array, options: EcPointCheckOptions = {}): Promise<PointCheck> {
  const size = EC_COORDINATE_BYTES[curve];
  const prefix = bytes[0];
  const compressed = bytes.length === size + 1 && (prefix === 0x02 || prefix === 0x03);
  const uncompressed = bytes.length === 2 * size + 1 && prefix === 0x04;
  if (!compressed && !uncompressed) {
    return {
      ok: false,
      reason: `${withArticle(curve)} point is ${size + 1} bytes compressed (02/03 prefix) or ${2 * size + 1} bytes uncompressed (04 prefix); got ${bytes.length} bytes`,
    };
  }
  const impl = await weierstrass(curve);
  let encoded: Uint8Array;
  try {
    const point = impl.Point.fromBytes(bytes);
    point.assertValidity();
    encoded = point.toBytes(false);
  } catch {
    return {
      ok: false,
      reason: compressed
        ? `the x-coordinate is not that of a point on ${curve}`
        : `the point is not on the ${curve} curve`,
    };
  }
  if (options.require === 'compressed' && !compressed) {
    return { ok: false, reason: `the ${curve} point is uncompressed (${bytes.length} bytes); the compressed ${size + 1}-byte form is required` };
  }
  if (options.require === 'uncompressed' && !uncompressed) {
    return { ok: false, reason: `the ${curve} point is compressed; the uncompressed form is required` };
  }
  return {
    ok: true,
    jwk: {
      kty: 'EC',
      crv: curve,
      x: base64urlEncode(encoded.subarray(1, 1 + size)),
      y: base64urlEncode(encoded.subarray(1 + size)),
    },
  };
}

/** Validates raw key bytes of a supported curve, in the encoding multicodec uses. */
export async function checkCurveKey(curve: Curve, bytes: Uint8Array, options: EcPointCheckOptions = {}): Promise<PointCheck | Ed25519Check> {
  switch (curve) {
    case 'Ed25519':
      return checkEd25519(bytes);
    case 'X25519':
      return checkX25519(bytes);
    default:
      return checkEcPoint(curve, bytes, options);
  }
}
