/** The multicodec codes of public keys svc knows, and Multikey (multibase + multicodec) decoding. */
import { base58Decode } from '../encoding/base58.js';
import { readVarint, writeVarint } from '../encoding/varint.js';
import type { PointCheck } from './curves.js';
import type { Curve, KeyCheck, MulticodecInfo } from './types.js';

/** What a key type is good for, which decides the relationships a did:key gets. */
export type KeyUse = 'sign' | 'agree' | 'sign-and-agree';

interface CodecSpec {
  name: string;
  code: number;
  /** The curve svc validates, or null when svc does not support the key type. */
  curve: Curve | null;
  /** Byte length of the public key as did:key carries it; null when variable. */
  length: number | null;
  use: KeyUse;
  /** Human name of an unsupported key type. */
  label: string;
}

export const CODECS: readonly CodecSpec[] = [
  { name: 'ed25519-pub', code: 0xed, curve: 'Ed25519', length: 32, use: 'sign', label: 'Ed25519' },
  { name: 'x25519-pub', code: 0xec, curve: 'X25519', length: 32, use: 'agree', label: 'X25519' },
  { name: 'secp256k1-pub', code: 0xe7, curve: 'secp256k1', length: 33, use: 'sign-and-agree', label: 'secp256k1' },
  { name: 'p256-pub', code: 0x1200, curve: 'P-256', length: 33, use: 'sign-and-agree', label: 'P-256' },
  { name: 'p384-pub', code: 0x1201, curve: 'P-384', length: 49, use: 'sign-and-agree', label: 'P-384' },
  { name: 'p521-pub', code: 0x1202, curve: 'P-521', length: 67, use: 'sign-and-agree', label: 'P-521' },
  { name: 'rsa-pub', code: 0x1205, curve: null, length: null, use: 'sign-and-agree', label: 'RSA' },
  { name: 'bls12_381-g1-pub', code: 0xea, curve: null, length: 48, use: 'sign', label: 'BLS12-381 G1' },
  { name: 'bls12_381-g2-pub', code: 0xeb, curve: null, length: 96, use: 'sign', label: 'BLS12-381 G2' },
  { name: 'bls12_381-g1g2-pub', code: 0xee, curve: null, length: 144, use: 'sign', label: 'BLS12-381 G1+G2' },
  { name: 'ed448-pub', code: 0x1203, curve: null, length: 57, use: 'sign', label: 'Ed448' },
  { name: 'x448-pub', code: 0x1204, curve: null, length: 56, use: 'agree', label: 'X448' },
  { name: 'sm2-pub', code: 0x1206, curve: null, length: 33, use: 'sign-and-agree', label: 'SM2' },
  { name: 'sr25519-pub', code: 0xef, curve: null, length: 32, use: 'sign', label: 'sr25519' },
];

const BY_CODE = new Map(CODECS.map((c) => [c.code, c]));
const BY_CURVE = new Map(CODECS.filter((c) => c.curve).map((c) => [c.curve!, c]));

export function codecByCode(code: number): CodecSpec | undefined {
  return BY_CODE.get(code);
}

export function codecForCurve(curve: Curve): CodecSpec {
  return BY_CURVE.get(curve)!;
}

export function multicodecInfo(code: number): MulticodecInfo {
  return { name: BY_CODE.get(code)?.name ?? null, code: `0x${code.toString(16)}` };
}

export interface DecodedMultikey {
  code: number;
  codec: CodecSpec | undefined;
  bytes: Uint8Array;
}

/**
 * Decodes a base58btc multibase Multikey value (`z…`) into its multicodec code and key bytes.
 * Returns a reason string when the value is not decodable at all.
 */
export function decodeMultikey(value: string): DecodedMultikey | string {
  if (!value.startsWith('z')) return 'the multibase value must use base58btc (prefix "z")';
  const decoded = base58Decode(value.slice(1));
  if (!decoded || decoded.length === 0) return 'the multibase value is not valid base58btc';
  const varint = readVarint(decoded);
  if (!varint) return 'the multicodec prefix is not a valid varint';
  return { code: varint.value, codec: BY_CODE.get(varint.value), bytes: decoded.subarray(varint.length) };
}

export function encodeMulticodec(code: number, bytes: Uint8Array): Uint8Array {
  const prefix = writeVarint(code);
  const out = new Uint8Array(prefix.length + bytes.length);
  out.set(prefix, 0);
  out.set(bytes, prefix.length);
  return out;
}

/** The KeyCheck of a point check on a key of a supported curve with multicodec `code`. */
export function keyCheckFromPoint(curve: Curve, code: number, check: PointCheck): KeyCheck {
  const multicodec = multicodecInfo(code);
  if (!check.ok) return { status: 'INVALID_KEY', curve, multicodec, publicJwk: null, detail: check.reason };
  return { status: 'VALID_KEY', curve, multicodec, publicJwk: check.jwk, detail: null };
}
