/**
 * Signed results: a detached JWS (RFC 7515 Appendix F) whose payload is the RFC 8785 (JCS) form of
 * a JSON value. The payload is not carried: whoever holds the value computes its JCS form again,
 * so the signature travels beside the value (an HTTP header, a member of a bundle) and survives
 * any re-serialisation of the value (indentation, member order).
 *
 * Protected header: alg (EdDSA | ES256), kid (a DID URL), typ, iat (seconds), `svc-canon`
 * ("RFC8785", the serialisation signed) and `svc-sha256` (hex SHA-256 of the signed payload). The
 * last two are not needed to verify; they let a verifier name why a check failed: the value was
 * edited, or the signer serialised it another way. Neither is critical (no `crit`): any JOSE
 * library verifies the signature given the payload.
 *
 * verifyCanonicalSignature names one reason, checked in this order (the clients follow it too):
 * MALFORMED (not a detached JWS of this shape), UNSUPPORTED_ALG, OTHER_CANONICAL_FORM (`svc-canon`
 * is not RFC8785, or `svc-sha256` is the digest of the value's JSON.stringify form, not of its
 * JCS form), EDITED (the digest is of something else), WRONG_KEY (not the expected signer; the key
 * resolved cannot verify this alg; or the signature does not verify with it), UNKNOWN_KEY (the
 * kid resolves to no key), then VALID.
 */
import { createPublicKey, verify } from 'node:crypto';
import { CanonicalizationError, canonicalize, sha256Hex } from '../canonical.js';
import { parseDidUrl } from '../did/syntax.js';
import { base64urlDecode, base64urlEncode } from '../encoding/base64url.js';
import { isJsonObject, parseJsonStrict } from '../encoding/json.js';
import { signWith, type Signer, type SigningAlgorithm } from './key.js';

/** The serialisation svc signs, as `svc-canon` names it. */
export const SIGNATURE_CANON = 'RFC8785';

/** The `typ` of a signed daemon result (the `svc-signature` header). */
export const RESULT_SIGNATURE_TYP = 'svc-result+jws';

/** The response header that carries a signed result's compact detached JWS. */
export const SIGNATURE_HEADER = 'svc-signature';

/** What a valid signature proves, and what it does not. */
export const SIGNATURE_PROVES =
  'A valid signature proves that the svc instance holding this key reported exactly these observations at the signing time; it does not prove that the observed host, document or agent is honest, nor that the observations are still current.';

/** A flattened JWS without its payload (RFC 7515 §7.2.2, Appendix F). */
export interface DetachedJws {
  protected: string;
  signature: string;
}

export interface SignOptions {
  /** The `typ` header: what is signed (e.g. `svc-result+jws`). */
  typ: string;
  /** The signing time: a Date, or seconds since the epoch. */
  iat: Date | number;
}

export type SignatureReason = 'VALID' | 'EDITED' | 'WRONG_KEY' | 'UNKNOWN_KEY' | 'OTHER_CANONICAL_FORM' | 'UNSUPPORTED_ALG' | 'MALFORMED';

export interface SignatureVerification {
  verified: boolean;
  reason: SignatureReason;
  /** One line, for a person. */
  detail: string;
  /** Who the signature names (established only when verified); null when it could not be read. */
  signer: { did: string; kid: string } | null;
  /** `iat` as RFC 3339; null when it could not be read. */
  signedAt: string | null;
}

/** The public JWK of a kid, or null when the kid names no key; may throw an Error whose message says why it cannot be found. */
export type SignatureKeyResolver = (kid: string) => Promise<{ kty: string; crv?: string; x?: string; y?: string } | null>;

export interface VerifySignatureOptions {
  resolveKey: SignatureKeyResolver;
  /** A DID or kid the signature must name (the svc instance you trust); another one is WRONG_KEY. */
  expectedSigner?: string;
  /** The `typ` the signature must have (e.g. RESULT_SIGNATURE_TYP); another one is MALFORMED. */
  typ?: string;
}

const TYP = /^[\x21-\x7e]{1,100}$/;

/** 9999-12-31T23:59:59Z: a later iat has no RFC 3339 form. */
const LAST_SECOND = 253_402_300_799;

function seconds(iat: Date | number): number {
  const value = typeof iat === 'number' ? iat : Math.floor(iat.getTime() / 1000);
  if (!Number.isSafeInteger(value) || value < 0 || value > LAST_SECOND)
    throw new RangeError('iat must be a whole number of seconds from 0 to 9999-12-31 (or a valid Date)');
  return value;
}

/**
 * A value's RFC 8785 form, ready to sign: its SHA-256 and its base64url. Signing one value many
 * times (a cached result, signed at each answer) prepares it once.
 */
export interface CanonicalPayload {
  /** Hex SHA-256 of the RFC 8785 text (the `svc-sha256` header). */
  readonly digest: string;
  /** BASE64URL of the RFC 8785 text: the JWS payload. */
  readonly encoded: string;
}

/** The RFC 8785 form of `value`, prepared for signCanonicalPayload; throws CanonicalizationError for a value that has none. */
export function canonicalPayload(value: unknown): CanonicalPayload {
  const text = canonicalize(value);
  return Object.freeze({ digest: sha256Hex(text), encoded: base64urlEncode(Buffer.from(text, 'utf8')) });
}

/**
 * Signs the RFC 8785 form of `value` (throws CanonicalizationError for a value that has none, and
 * RangeError for a bad typ or iat): a detached flattened JWS.
 */
export function signCanonical(value: unknown, signer: Signer, options: SignOptions): DetachedJws {
  return signCanonicalPayload(canonicalPayload(value), signer, options);
}

/** signCanonical of a payload canonicalPayload prepared. */
export function signCanonicalPayload(payload: CanonicalPayload, signer: Signer, options: SignOptions): DetachedJws {
  if (!TYP.test(options.typ)) throw new RangeError('typ must be 1 to 100 visible ASCII characters');
  const { alg, kid } = signer.identity;
  // verifyCanonicalSignature (and both clients) verify EdDSA and ES256 only.
  if (alg === 'ES256K') throw new RangeError('signed results are signed with EdDSA or ES256, not ES256K');
  const header = { alg, kid, typ: options.typ, iat: seconds(options.iat), 'svc-canon': SIGNATURE_CANON, 'svc-sha256': payload.digest };
  const protectedHeader = base64urlEncode(Buffer.from(canonicalize(header), 'utf8'));
  const input = Buffer.from(`${protectedHeader}.${payload.encoded}`, 'ascii');
  return { protected: protectedHeader, signature: base64urlEncode(signWith(signer, input)) };
}

/** The compact detached serialisation `header..signature` (an HTTP header value). */
export function compactDetached(jws: DetachedJws): string {
  return `${jws.protected}..${jws.signature}`;
}

function isoOf(iat: number): string {
  return new Date(iat * 1000).toISOString().replace('.000Z', 'Z');
}

interface ReadHeader {
  alg: string;
  kid: string;
  did: string;
  typ: unknown;
  iat: number;
  canon: unknown;
  digest: unknown;
  signature: Uint8Array;
  protected: string;
}

function failure(reason: SignatureReason, detail: string, header: ReadHeader | null): SignatureVerification {
  return {
    verified: false,
    reason,
    detail,
    signer: header ? { did: header.did, kid: header.kid } : null,
    signedAt: header ? isoOf(header.iat) : null,
  };
}

/** The detached JWS, read: its header members, or why it is MALFORMED. */
function readJws(jws: unknown): ReadHeader | string {
  let protectedHeader: string;
  let signature: string;
  if (typeof jws === 'string') {
    const parts = jws.trim().split('.');
    if (parts.length !== 3) return 'the signature is not a JWS: it must read header..signature';
    if (parts[1] !== '') return 'the signature carries a payload; svc signatures are detached (header..signature), the value is the payload';
    protectedHeader = parts[0]!;
    signature = parts[2]!;
  } else if (isJsonObject(jws)) {
    const extra = Object.keys(jws).filter((k) => k !== 'protected' && k !== 'signature');
    if (extra.includes('payload')) return 'the signature carries a payload; svc signatures are detached, the value is the payload';
    if (extra.length > 0) return `the signature has members other than "protected" and "signature": ${extra.slice(0, 3).join(', ')}`;
    if (typeof jws['protected'] !== 'string' || typeof jws['signature'] !== 'string') return 'the signature needs string members "protected" and "signature"';
    protectedHeader = jws['protected'];
    signature = jws['signature'];
  } else {
    return 'no signature was given';
  }
  const headerBytes = base64urlDecode(protectedHeader);
  if (headerBytes === null || headerBytes.length === 0) return 'the protected header is not unpadded base64url';
  let header: unknown;
  try {
    header = parseJsonStrict(new TextDecoder('utf-8', { fatal: true }).decode(headerBytes), { maxDepth: 4 });
  } catch {
    return 'the protected header is not a JSON object';
  }
  if (!isJsonObject(header)) return 'the protected header is not a JSON object';
  const { alg, kid, iat } = header;
  if (typeof alg !== 'string' || alg === '') return 'the protected header has no "alg"';
  if (typeof kid !== 'string') return 'the protected header has no "kid"';
  let did: string;
  try {
    const url = parseDidUrl(kid);
    if (url.fragment === null || url.fragment === '' || url.path !== '' || url.query !== null) return 'the "kid" is not a DID URL <did>#<key>';
    did = url.did;
  } catch {
    return 'the "kid" is not a DID URL <did>#<key>';
  }
  if (typeof iat !== 'number' || !Number.isSafeInteger(iat) || iat < 0 || iat > LAST_SECOND) return 'the protected header has no "iat" in whole seconds';
  const bytes = base64urlDecode(signature);
  if (bytes === null || bytes.length === 0) return 'the signature is not unpadded base64url';
  return { alg, kid, did, typ: header['typ'], iat, canon: header['svc-canon'], digest: header['svc-sha256'], signature: bytes, protected: protectedHeader };
}

const CURVE_OF: Readonly<Record<Exclude<SigningAlgorithm, 'ES256K'>, { kty: string; crv: string }>> = {
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  ES256: { kty: 'EC', crv: 'P-256' },
};

/**
 * Verifies a detached JWS (flattened `{protected, signature}` or compact `header..signature`) over
 * the RFC 8785 form of `value`, the key found by `resolveKey`. A failed check is a result with its
 * reason (see the module comment), never a throw.
 */
export async function verifyCanonicalSignature(value: unknown, jws: DetachedJws | string, options: VerifySignatureOptions): Promise<SignatureVerification> {
  const read = readJws(jws);
  if (typeof read === 'string') return failure('MALFORMED', `${capital(read)}.`, null);
  const { alg, kid } = read;
  if (alg !== 'EdDSA' && alg !== 'ES256') {
    return failure('UNSUPPORTED_ALG', `The signature uses alg ${JSON.stringify(alg.slice(0, 20))}; svc signs with EdDSA or ES256.`, read);
  }
  if (options.typ !== undefined && read.typ !== options.typ) {
    return failure('MALFORMED', `The signature is of typ ${JSON.stringify(String(read.typ).slice(0, 40))}, not ${options.typ}.`, read);
  }
  if (read.canon !== SIGNATURE_CANON) {
    return failure(
      'OTHER_CANONICAL_FORM',
      `The signature names the serialisation ${JSON.stringify(String(read.canon ?? 'none').slice(0, 20))}, not RFC8785: it was made over another form of the value.`,
      read,
    );
  }
  if (typeof read.digest !== 'string' || !/^[0-9a-f]{64}$/.test(read.digest))
    return failure('MALFORMED', 'The protected header has no "svc-sha256" digest.', read);
  let payload: string;
  try {
    payload = canonicalize(value);
  } catch (err) {
    if (err instanceof CanonicalizationError)
      return failure('MALFORMED', `The value has no RFC 8785 form (${err.reason}), so it cannot be what was signed.`, read);
    throw err;
  }
  if (sha256Hex(payload) !== read.digest) {
    let plain: string | undefined;
    try {
      plain = JSON.stringify(value);
    } catch {
      plain = undefined;
    }
    if (plain !== undefined && sha256Hex(plain) === read.digest) {
      return failure(
        'OTHER_CANONICAL_FORM',
        'The signature was made over the value as JSON.stringify writes it, not its RFC 8785 form: the signer did not canonicalise.',
        read,
      );
    }
    return failure('EDITED', 'The result was changed after it was signed: its RFC 8785 digest is not the one signed.', read);
  }
  const expected = options.expectedSigner;
  if (expected !== undefined && expected !== read.did && expected !== kid) {
    return failure('WRONG_KEY', `Signed by ${kid}, not by ${expected}.`, read);
  }
  let jwk: Awaited<ReturnType<SignatureKeyResolver>>;
  try {
    jwk = await options.resolveKey(kid);
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0]!.replace(/\.$/, '') : String(err);
    return failure('UNKNOWN_KEY', `The signing key ${kid} cannot be found: ${why}.`, read);
  }
  if (jwk === null) return failure('UNKNOWN_KEY', `The signing key ${kid} is not a key its DID publishes.`, read);
  const wanted = CURVE_OF[alg];
  if (jwk.kty !== wanted.kty || jwk.crv !== wanted.crv) {
    return failure(
      'WRONG_KEY',
      `The key ${kid} is ${jwk.kty} ${jwk.crv ?? ''}`.trimEnd() + `, which cannot verify ${alg}: signed by another key than ${kid}.`,
      read,
    );
  }
  let ok: boolean;
  try {
    const members = alg === 'ES256' ? { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } : { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
    const key = createPublicKey({ key: members as never, format: 'jwk' });
    const input = Buffer.concat([Buffer.from(`${read.protected}.`, 'ascii'), Buffer.from(base64urlEncode(Buffer.from(payload, 'utf8')), 'ascii')]);
    ok =
      alg === 'EdDSA'
        ? verify(null, input, key, read.signature)
        : read.signature.length === 64 && verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, read.signature);
  } catch {
    return failure('UNKNOWN_KEY', `The key published as ${kid} is not a valid ${wanted.crv} public key.`, read);
  }
  if (!ok) return failure('WRONG_KEY', `The signature does not verify with the key of ${kid}: signed by another key than ${kid}.`, read);
  return { verified: true, reason: 'VALID', detail: `Signed by ${kid} at ${isoOf(read.iat)}.`, signer: { did: read.did, kid }, signedAt: isoOf(read.iat) };
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
