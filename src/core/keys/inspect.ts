/**
 * Validation of the key material a verification method publishes, whatever its encoding:
 * `publicKeyMultibase` (Multikey and the 2020 suites), `publicKeyJwk`, or the legacy
 * `publicKeyBase58`. One function, used for every DID method, so that the evidence about keys
 * is computed from the document alone.
 */
import { createPublicKey } from 'node:crypto';
import { base58Decode } from '../encoding/base58.js';
import { withArticle } from '../text.js';
import { checkCurveKey, checkEcPoint, EC_COORDINATE_BYTES, isEcCurve } from './curves.js';
import { checkPublicJwk } from './jwk.js';
import { codecForCurve, decodeMultikey, keyCheckFromPoint, multicodecInfo } from './multicodec.js';
import type { Curve, KeyCheck, PublicJwk } from './types.js';

function invalid(detail: string, curve: string | null = null, code: number | null = null): KeyCheck {
  return { status: 'INVALID_KEY', curve, multicodec: code === null ? null : multicodecInfo(code), publicJwk: null, detail };
}

function rsaJwkFromPkcs1(bytes: Uint8Array): PublicJwk | null {
  try {
    const jwk = createPublicKey({ key: Buffer.from(bytes), format: 'der', type: 'pkcs1' }).export({ format: 'jwk' });
    return typeof jwk.n === 'string' && typeof jwk.e === 'string' ? { kty: 'RSA', n: jwk.n, e: jwk.e } : null;
  } catch {
    return null;
  }
}

/**
 * Key checks already made during one resolution, by publicKeyMultibase value, so that a key
 * the method driver had to validate anyway (did:key derives X25519 from Ed25519) is not
 * decoded again by crypto.validate_keys.
 */
export type KeyCheckMemo = Map<string, KeyCheck>;

/** Validates raw key bytes for a curve, in the exact form multicodec prescribes. */
async function checkCodecKey(curve: Curve, code: number, bytes: Uint8Array): Promise<KeyCheck> {
  const multicodec = multicodecInfo(code);
  const expected = codecForCurve(curve).length!;
  let check;
  if (bytes.length === expected) {
    check = await checkCurveKey(curve, bytes);
  } else if (isEcCurve(curve) && bytes.length === 2 * EC_COORDINATE_BYTES[curve] + 1) {
    // Check the point before the encoding, so an off-curve point is reported as such.
    check = await checkEcPoint(curve, bytes, { require: 'compressed' });
  } else {
    const form = isEcCurve(curve) ? ' (compressed)' : '';
    check = { ok: false as const, reason: `${withArticle(multicodec.name ?? curve)} key is ${expected} bytes${form}, not ${bytes.length}` };
  }
  return keyCheckFromPoint(curve, code, check);
}

/** Validates a Multikey value: multibase base58btc of multicodec code ‖ key bytes. */
export async function checkMultikey(value: string): Promise<KeyCheck> {
  const decoded = decodeMultikey(value);
  if (typeof decoded === 'string') return invalid(decoded);
  const { code, codec, bytes } = decoded;
  if (!codec) {
    return {
      status: 'UNSUPPORTED_KEY',
      curve: null,
      multicodec: multicodecInfo(code),
      publicJwk: null,
      detail: `multicodec 0x${code.toString(16)} is not a public key type svc supports`,
    };
  }
  if (!codec.curve) {
    return {
      status: 'UNSUPPORTED_KEY',
      curve: codec.label,
      multicodec: multicodecInfo(code),
      publicJwk: code === 0x1205 ? rsaJwkFromPkcs1(bytes) : null,
      detail: `${codec.label} keys are not supported`,
    };
  }
  return checkCodecKey(codec.curve, code, bytes);
}

/** Key curves implied by legacy verification method types that carry `publicKeyBase58`. */
const BASE58_TYPES: Readonly<Record<string, Curve>> = {
  Ed25519VerificationKey2018: 'Ed25519',
  Ed25519VerificationKey2020: 'Ed25519',
  X25519KeyAgreementKey2019: 'X25519',
  X25519KeyAgreementKey2020: 'X25519',
  EcdsaSecp256k1VerificationKey2019: 'secp256k1',
  P256Key2021: 'P-256',
};

/** Members through which a verification method may (wrongly) publish a private key. */
const PRIVATE_VM_MEMBERS = ['privateKeyJwk', 'privateKeyMultibase', 'privateKeyBase58', 'privateKeyHex', 'privateKeyPem'];

/**
 * Validates the key material of one verification method. Never throws: whatever the method
 * publishes yields a status and, unless valid, the reason.
 */
export async function checkVerificationMethod(vm: unknown, memo?: KeyCheckMemo): Promise<KeyCheck> {
  if (typeof vm !== 'object' || vm === null || Array.isArray(vm)) return invalid('the verification method is not a JSON object');
  const method = vm as Record<string, unknown>;
  const published = PRIVATE_VM_MEMBERS.filter((m) => Object.hasOwn(method, m));
  if (published.length > 0) return invalid(`the verification method publishes private key material (${published.join(', ')})`);
  const type = typeof method['type'] === 'string' ? (method['type'] as string) : null;
  const material = ['publicKeyMultibase', 'publicKeyJwk', 'publicKeyBase58'].filter((m) => method[m] !== undefined);
  if (material.length > 1) return invalid(`the verification method carries more than one key (${material.join(', ')})`);

  const multibase = method['publicKeyMultibase'];
  if (multibase !== undefined) {
    if (typeof multibase !== 'string') return invalid('publicKeyMultibase is not a string');
    let check = memo?.get(multibase);
    if (!check) {
      check = await checkMultikey(multibase);
      memo?.set(multibase, check);
    }
    const implied = type ? BASE58_TYPES[type] : undefined;
    if (type && implied && check.curve && check.curve !== implied && check.status !== 'INVALID_KEY') {
      return invalid(`${withArticle(type)} must hold ${withArticle(implied)} key, not ${check.curve}`, check.curve);
    }
    return check;
  }
  const jwk = method['publicKeyJwk'];
  if (jwk !== undefined) {
    return checkPublicJwk(jwk);
  }
  const base58 = method['publicKeyBase58'];
  if (base58 !== undefined) {
    if (typeof base58 !== 'string') return invalid('publicKeyBase58 is not a string');
    const curve = type ? BASE58_TYPES[type] : undefined;
    if (!curve) {
      return {
        status: 'UNSUPPORTED_KEY',
        curve: null,
        multicodec: null,
        publicJwk: null,
        detail: `verification method type "${type ?? '(none)'}" is not supported`,
      };
    }
    const bytes = base58Decode(base58);
    if (!bytes) return invalid('publicKeyBase58 is not valid base58btc', curve);
    return checkCodecKey(curve, codecForCurve(curve).code, bytes);
  }
  return {
    status: 'UNSUPPORTED_KEY',
    curve: null,
    multicodec: null,
    publicJwk: null,
    detail: `verification method type "${type ?? '(none)'}" carries no key material svc can read`,
  };
}
