/** Public JWK validation (RFC 7517/7518/8037, RFC 8812 for secp256k1) and RFC 7638 thumbprints. */
import { createHash } from 'node:crypto';
import { base64urlDecode } from '../encoding/base64url.js';
import { withArticle } from '../text.js';
import { checkEcPoint, checkEd25519, checkX25519, EC_COORDINATE_BYTES, isEcCurve } from './curves.js';
import { codecForCurve, keyCheckFromPoint, multicodecInfo } from './multicodec.js';
import type { Curve, KeyCheck, PublicJwk } from './types.js';

/** Members that carry private key material in any key type (RFC 7518 §6). */
export const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

export function privateJwkMembers(jwk: Record<string, unknown>): string[] {
  return PRIVATE_JWK_MEMBERS.filter((m) => Object.hasOwn(jwk, m));
}

/** RFC 7638 thumbprint (SHA-256, base64url) of a public JWK; null when members are missing. */
export function jwkThumbprint(jwk: PublicJwk): string | null {
  let members: Record<string, string | undefined>;
  switch (jwk.kty) {
    case 'EC':
      members = { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y };
      break;
    case 'OKP':
      members = { crv: jwk.crv, kty: jwk.kty, x: jwk.x };
      break;
    case 'RSA':
      members = { e: jwk.e, kty: jwk.kty, n: jwk.n };
      break;
    default:
      return null;
  }
  if (Object.values(members).some((v) => typeof v !== 'string')) return null;
  // Members are already in lexicographic order; JSON.stringify adds no whitespace.
  return createHash('sha256').update(JSON.stringify(members)).digest('base64url');
}

function invalid(detail: string, curve: string | null = null): KeyCheck {
  return {
    status: 'INVALID_KEY',
    curve,
    multicodec: curve && isKnownCurve(curve) ? multicodecInfo(codecForCurve(curve).code) : null,
    publicJwk: null,
    detail,
  };
}

function unsupported(detail: string, curve: string | null, publicJwk: PublicJwk | null = null, codec: number | null = null): KeyCheck {
  return { status: 'UNSUPPORTED_KEY', curve, multicodec: codec === null ? null : multicodecInfo(codec), publicJwk, detail };
}

function isKnownCurve(crv: string): crv is Curve {
  return crv === 'Ed25519' || crv === 'X25519' || isEcCurve(crv);
}

function coordinate(jwk: Record<string, unknown>, member: string, size: number, crv: string): Uint8Array | string {
  const value = jwk[member];
  if (typeof value !== 'string') return `the ${crv} JWK has no "${member}" coordinate`;
  const bytes = base64urlDecode(value);
  if (!bytes) return `the "${member}" coordinate is not canonical unpadded base64url`;
  if (bytes.length !== size) return `the "${member}" coordinate of ${withArticle(crv)} key is ${size} bytes, not ${bytes.length}`;
  return bytes;
}

/**
 * Validates a public JWK. Private members make the key INVALID_KEY (published private key
 * material means the key is compromised); key types svc cannot validate are UNSUPPORTED_KEY.
 */
export async function checkPublicJwk(jwk: unknown): Promise<KeyCheck> {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return invalid('the JWK is not a JSON object');
  const obj = jwk as Record<string, unknown>;
  const secret = privateJwkMembers(obj);
  if (secret.length > 0) return invalid(`the JWK publishes private key material (${secret.map((m) => `"${m}"`).join(', ')})`);
  const kty = obj['kty'];
  if (typeof kty !== 'string') return invalid('the JWK has no "kty" member');
  const crv = obj['crv'];
  if (kty === 'OKP') {
    if (typeof crv !== 'string') return invalid('the OKP JWK has no "crv" member');
    if (crv !== 'Ed25519' && crv !== 'X25519') return unsupported(`OKP curve "${crv}" is not supported`, crv);
    const x = coordinate(obj, 'x', 32, crv);
    if (typeof x === 'string') return invalid(x, crv);
    const check = crv === 'Ed25519' ? await checkEd25519(x) : await checkX25519(x);
    return keyCheckFromPoint(crv, codecForCurve(crv).code, check);
  }
  if (kty === 'EC') {
    if (typeof crv !== 'string') return invalid('the EC JWK has no "crv" member');
    if (!isEcCurve(crv)) return unsupported(`EC curve "${crv}" is not supported`, crv);
    const size = EC_COORDINATE_BYTES[crv];
    const x = coordinate(obj, 'x', size, crv);
    if (typeof x === 'string') return invalid(x, crv);
    const y = coordinate(obj, 'y', size, crv);
    if (typeof y === 'string') return invalid(y, crv);
    const sec1 = new Uint8Array(1 + 2 * size);
    sec1[0] = 0x04;
    sec1.set(x, 1);
    sec1.set(y, 1 + size);
    return keyCheckFromPoint(crv, codecForCurve(crv).code, await checkEcPoint(crv, sec1));
  }
  if (kty === 'RSA') {
    const n = obj['n'];
    const e = obj['e'];
    const publicJwk = typeof n === 'string' && typeof e === 'string' ? { kty, n, e } : null;
    return unsupported('RSA keys are not supported', 'RSA', publicJwk, 0x1205);
  }
  if (kty === 'oct') return invalid('a symmetric ("oct") JWK is secret material, not a public key');
  return unsupported(`key type "${kty}" is not supported`, null);
}
