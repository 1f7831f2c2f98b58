/**
 * Verifying svc's signed results (docs/daemon.md#signed-results) in the client: the
 * `svc-signature` header, a compact detached JWS (RFC 7515 Appendix F) over the RFC 8785 form of
 * the body, and an evidence bundle's embedded signature (the same JWS, flattened, typ
 * svc-bundle+jws, over the bundle without it), checked with WebCrypto (Ed25519, ECDSA P-256): no
 * node: import, so it runs in browsers too. The signer's key is found without asking the daemon: a did:key is decoded here (Ed25519
 * 0xed, P-256 0x1200 with its compressed point decompressed), a did:web's did.json is fetched from
 * its host (assertionMethod, publicKeyJwk or Multikey). `resolveKey` replaces that — in Node,
 * `signingKeyResolver(createRuntime())` of the svc-evidence library resolves through svc's own
 * resolver (egress policy, TLS evidence, cache).
 *
 * The reasons and their order are the core's (src/core/signing/jws.ts): MALFORMED,
 * UNSUPPORTED_ALG, OTHER_CANONICAL_FORM, EDITED, WRONG_KEY, UNKNOWN_KEY, then VALID. A failed check
 * is a result, never a throw.
 */
import { base58Decode } from '../core/encoding/base58.js';

export type SignatureReason = 'VALID' | 'EDITED' | 'WRONG_KEY' | 'UNKNOWN_KEY' | 'OTHER_CANONICAL_FORM' | 'UNSUPPORTED_ALG' | 'MALFORMED';

/** What a signature check found: only `verified: true` (reason VALID) means the result is the signer's. */
export interface ResultSignature {
  verified: boolean;
  reason: SignatureReason;
  /** One line, for a person. */
  detail: string;
  /** Who the signature names (established only when verified); null when it could not be read. */
  signer: { did: string; kid: string } | null;
  /** When it was signed (RFC 3339); null when it could not be read. */
  signedAt: string | null;
}

/** A public JWK as a DID document publishes it. */
export interface SignatureJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
}

/** The public JWK of a kid, or null when the kid names no key; may throw an Error saying why it cannot be found. */
export type SignatureKeyResolver = (kid: string) => Promise<SignatureJwk | null>;

/** The fetch the did:web lookup calls. */
export type SignatureFetch = (input: string, init: RequestInit) => Promise<Response>;

export interface VerifyResultOptions {
  /** A DID or kid the signature must name — the svc instance you trust; another signer is WRONG_KEY. */
  expectedSigner?: string;
  /** Finds the key of a kid; default: did:key decoded here, did:web fetched from its host. */
  resolveKey?: SignatureKeyResolver;
  /** The fetch of the default did:web lookup (default globalThis.fetch; never the client's, which carries its tokens). */
  fetch?: SignatureFetch;
}

/** The response header of a signed result. */
export const SIGNATURE_HEADER = 'svc-signature';

/** What a valid signature proves, and what it does not. */
export const SIGNATURE_PROVES =
  'A valid signature proves that the svc instance holding this key reported exactly these observations at the signing time; it does not prove that the observed host, document or agent is honest, nor that the observations are still current.';

const RESULT_TYP = 'svc-result+jws';

/** The `typ` of an evidence bundle's signature. */
export const BUNDLE_SIGNATURE_TYP = 'svc-bundle+jws';

// ---------------------------------------------------------------- encodings

const B64URL = /^[A-Za-z0-9_-]*$/;

function base64urlDecode(text: string): Uint8Array | null {
  if (!B64URL.test(text) || text.length % 4 === 1) return null;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // One value, one text: trailing bits must be zero (re-encoding gives the same text).
  return base64urlEncode(bytes) === text ? bytes : null;
}

function base64urlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** RFC 8785: members sorted by UTF-16 code units, ECMAScript's string and number forms; throws for what has none. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > 128) throw new TypeError('nested too deeply');
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) throw new TypeError('a string holds a lone surrogate');
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('a number is not finite');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const name of Object.keys(record).sort()) {
      if (record[name] === undefined) continue;
      parts.push(`${canonicalJson(name, depth + 1)}:${canonicalJson(record[name], depth + 1)}`);
    }
    return `{${parts.join(',')}}`;
  }
  throw new TypeError(`a ${typeof value} has no JSON form`);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

// ---------------------------------------------------------------- keys of DIDs

const P256_P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const P256_B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

function bytesToBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

function bigintToBytes(n: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let v = n;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** The uncompressed coordinates of a compressed P-256 point (SEC 1, section 2.3.4), or null when it is not on the curve. */
function decompressP256(point: Uint8Array): SignatureJwk | null {
  if (point.length !== 33 || (point[0] !== 2 && point[0] !== 3)) return null;
  const x = bytesToBigint(point.subarray(1));
  if (x >= P256_P) return null;
  const y2 = (((x * x) % P256_P) * x - 3n * x + P256_B + 3n * P256_P) % P256_P;
  let y = modPow(y2, (P256_P + 1n) / 4n, P256_P);
  if ((y * y) % P256_P !== y2) return null;
  if (Number(y & 1n) !== (point[0] & 1)) y = P256_P - y;
  return { kty: 'EC', crv: 'P-256', x: base64urlEncode(point.subarray(1)), y: base64urlEncode(bigintToBytes(y, 32)) };
}

/** The JWK of a Multikey (`z` + base58btc of multicodec ed25519-pub or p256-pub), or null. */
function multikeyJwk(multibase: string): SignatureJwk | null {
  if (!multibase.startsWith('z')) return null;
  const bytes = base58Decode(multibase.slice(1));
  if (bytes === null) return null;
  if (bytes[0] === 0xed && bytes[1] === 0x01 && bytes.length === 34) return { kty: 'OKP', crv: 'Ed25519', x: base64urlEncode(bytes.subarray(2)) };
  if (bytes[0] === 0x80 && bytes[1] === 0x24) return decompressP256(bytes.subarray(2));
  return null;
}

/** The one key of a did:key (Ed25519 or P-256) as a JWK; null for any other key type or a malformed one. */
export function didKeyJwk(did: string): SignatureJwk | null {
  const m = /^did:key:(z[1-9A-HJ-NP-Za-km-z]+)$/.exec(did);
  return m ? multikeyJwk(m[1]!) : null;
}

/** The https URL of a did:web's document (did:web:host[:path…], a port written %3A). */
function didWebUrl(did: string): string | null {
  const m = /^did:web:([^:#?/]+)((?::[^:#?/]+)*)$/.exec(did);
  if (!m) return null;
  let host: string;
  try {
    host = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  if (!/^[A-Za-z0-9.-]+(?::[0-9]{1,5})?$/.test(host)) return null;
  const path = m[2]
    ? m[2]
        .slice(1)
        .split(':')
        .map((segment) => encodeURIComponent(decodeURIComponent(segment)))
    : [];
  return `https://${host}/${path.length > 0 ? `${path.join('/')}/did.json` : '.well-known/did.json'}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A method's id, absolute (a relative `#frag` is the DID's). */
const absolute = (did: string, id: unknown): string | null => (typeof id === 'string' ? (id.startsWith('#') ? `${did}${id}` : id) : null);

/** The JWK of the kid in a DID document, which must list it under assertionMethod; throws saying why not. */
function keyInDocument(did: string, kid: string, document: unknown): SignatureJwk | null {
  if (!isObject(document) || document['id'] !== did) throw new Error(`the document of ${did} is not its DID document`);
  const asserted = Array.isArray(document['assertionMethod']) ? document['assertionMethod'] : [];
  const methods = [...(Array.isArray(document['verificationMethod']) ? document['verificationMethod'] : []), ...asserted.filter(isObject)];
  const method = methods.find((m): m is Record<string, unknown> => isObject(m) && absolute(did, m['id']) === kid);
  if (method === undefined) return null;
  if (!asserted.some((a) => absolute(did, isObject(a) ? a['id'] : a) === kid)) throw new Error(`${did} lists ${kid}, but not under assertionMethod`);
  const jwk = method['publicKeyJwk'];
  if (isObject(jwk) && typeof jwk['kty'] === 'string') return { kty: jwk['kty'], crv: jwk['crv'] as string, x: jwk['x'] as string, y: jwk['y'] as string };
  if (typeof method['publicKeyMultibase'] === 'string') {
    const key = multikeyJwk(method['publicKeyMultibase']);
    if (key !== null) return key;
  }
  throw new Error(`${kid} holds no Ed25519 or P-256 key`);
}

/** The default key lookup: a did:key decoded here, a did:web's did.json fetched from its host. */
export function defaultKeyResolver(fetchImpl?: SignatureFetch): SignatureKeyResolver {
  return async (kid) => {
    const hash = kid.indexOf('#');
    const did = kid.slice(0, hash);
    if (did.startsWith('did:key:')) return kid.slice(hash + 1) === did.slice('did:key:'.length) ? didKeyJwk(did) : null;
    if (did.startsWith('did:web:')) {
      const url = didWebUrl(did);
      if (url === null) throw new Error(`${did} is not a did:web this client can fetch`);
      const doFetch = fetchImpl ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
      let res: Response;
      try {
        res = await doFetch(url, { headers: { accept: 'application/did+json, application/json' } });
      } catch (err) {
        throw new Error(`${url} could not be fetched (${err instanceof Error ? err.message : String(err)})`);
      }
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      let document: unknown;
      try {
        document = JSON.parse(await res.text());
      } catch {
        throw new Error(`${url} is not JSON`);
      }
      return keyInDocument(did, kid, document);
    }
    throw new Error(`${did.split(':').slice(0, 2).join(':')} signers are not resolved by this client; pass resolveKey`);
  };
}

// ---------------------------------------------------------------- verification

function isoOf(iat: number): string {
  return new Date(iat * 1000).toISOString().replace('.000Z', 'Z');
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

interface ReadJws {
  alg: string;
  kid: string;
  did: string;
  typ: unknown;
  iat: number;
  canon: unknown;
  digest: unknown;
  protected: string;
  signature: Uint8Array;
}

const KID = /^(did:[a-z0-9]+:[A-Za-z0-9._:%-]*[A-Za-z0-9._%-])#([A-Za-z0-9._~!$&'()*+,;=:@/?%-]+)$/;

function readHeader(header: string | null | undefined): ReadJws | string {
  if (header === null || header === undefined || header.trim() === '') return 'the answer carries no svc-signature header: the daemon did not sign it';
  const parts = header.trim().split('.');
  if (parts.length !== 3) return 'the signature is not a JWS: it must read header..signature';
  if (parts[1] !== '') return 'the signature carries a payload; svc signatures are detached (header..signature), the value is the payload';
  const bytes = base64urlDecode(parts[0]!);
  if (bytes === null || bytes.length === 0) return 'the protected header is not unpadded base64url';
  let head: unknown;
  try {
    head = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return 'the protected header is not a JSON object';
  }
  if (!isObject(head)) return 'the protected header is not a JSON object';
  const { alg, kid, iat } = head;
  if (typeof alg !== 'string' || alg === '') return 'the protected header has no "alg"';
  if (typeof kid !== 'string') return 'the protected header has no "kid"';
  const m = KID.exec(kid);
  if (!m) return 'the "kid" is not a DID URL <did>#<key>';
  // Up to 9999-12-31T23:59:59Z: a later iat has no RFC 3339 form.
  if (typeof iat !== 'number' || !Number.isSafeInteger(iat) || iat < 0 || iat > 253_402_300_799) return 'the protected header has no "iat" in whole seconds';
  const signature = base64urlDecode(parts[2]!);
  if (signature === null || signature.length === 0) return 'the signature is not unpadded base64url';
  return { alg, kid, did: m[1]!, typ: head['typ'], iat, canon: head['svc-canon'], digest: head['svc-sha256'], protected: parts[0]!, signature };
}

function failure(reason: SignatureReason, detail: string, read: ReadJws | null): ResultSignature {
  return { verified: false, reason, detail, signer: read ? { did: read.did, kid: read.kid } : null, signedAt: read ? isoOf(read.iat) : null };
}

/**
 * Checks a signed result: `body` as parsed from the answer, `header` its svc-signature value.
 * Resolves the signer's key itself (options.resolveKey, else did:key decoded here and did:web
 * fetched from its host), never by asking the daemon. Never throws for a bad signature.
 */
export function verifyResultSignature(body: unknown, header: string | null | undefined, options: VerifyResultOptions = {}): Promise<ResultSignature> {
  return verifyDetached(body, header, RESULT_TYP, 'result', options);
}

/**
 * Checks an evidence bundle's signature (docs/evidence.md#evidence-bundles): its `signature`
 * member `{protected, signature}`, a detached JWS of typ `svc-bundle+jws` over the RFC 8785 form
 * of the bundle without that member — the same check and reasons as verifyResultSignature. null
 * when the bundle carries no signature (a daemon without a signing key). Never throws for a bad
 * signature.
 */
export async function verifyBundleSignature(bundle: unknown, options: VerifyResultOptions = {}): Promise<ResultSignature | null> {
  if (!isObject(bundle)) return failure('MALFORMED', 'The bundle is not a JSON object.', null);
  const { signature, ...unsigned } = bundle;
  if (signature === undefined || signature === null) return null;
  if (!isObject(signature) || typeof signature['protected'] !== 'string' || typeof signature['signature'] !== 'string')
    return failure('MALFORMED', 'The bundle\'s signature needs string members "protected" and "signature".', null);
  if (signature['protected'].includes('.') || signature['signature'].includes('.'))
    return failure('MALFORMED', "The bundle's signature members are not unpadded base64url.", null);
  return verifyDetached(unsigned, `${signature['protected']}..${signature['signature']}`, BUNDLE_SIGNATURE_TYP, 'bundle', options);
}

/** The check of a compact detached JWS of `typ` over `value`'s RFC 8785 form; `what` names the value in the EDITED detail. */
async function verifyDetached(
  body: unknown,
  header: string | null | undefined,
  typ: string,
  what: 'result' | 'bundle',
  options: VerifyResultOptions,
): Promise<ResultSignature> {
  const read = readHeader(header);
  if (typeof read === 'string') return failure('MALFORMED', `${capital(read)}.`, null);
  const { alg, kid } = read;
  if (alg !== 'EdDSA' && alg !== 'ES256')
    return failure('UNSUPPORTED_ALG', `The signature uses alg ${JSON.stringify(alg.slice(0, 20))}; svc signs with EdDSA or ES256.`, read);
  if (read.typ !== typ) return failure('MALFORMED', `The signature is of typ ${JSON.stringify(String(read.typ).slice(0, 40))}, not ${typ}.`, read);
  if (read.canon !== 'RFC8785') {
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
    payload = canonicalJson(body);
  } catch (err) {
    return failure(
      'MALFORMED',
      `The value has no RFC 8785 form (${err instanceof Error ? err.message : 'no JSON form'}), so it cannot be what was signed.`,
      read,
    );
  }
  if ((await sha256Hex(payload)) !== read.digest) {
    let plain: string | undefined;
    try {
      plain = JSON.stringify(body);
    } catch {
      plain = undefined;
    }
    if (plain !== undefined && (await sha256Hex(plain)) === read.digest) {
      return failure(
        'OTHER_CANONICAL_FORM',
        'The signature was made over the value as JSON.stringify writes it, not its RFC 8785 form: the signer did not canonicalise.',
        read,
      );
    }
    return failure('EDITED', `The ${what} was changed after it was signed: its RFC 8785 digest is not the one signed.`, read);
  }
  const expected = options.expectedSigner;
  if (expected !== undefined && expected !== read.did && expected !== kid) return failure('WRONG_KEY', `Signed by ${kid}, not by ${expected}.`, read);
  let jwk: SignatureJwk | null;
  try {
    jwk = await (options.resolveKey ?? defaultKeyResolver(options.fetch))(kid);
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/\.$/, '');
    return failure('UNKNOWN_KEY', `The signing key ${kid} cannot be found: ${why}.`, read);
  }
  if (jwk === null) return failure('UNKNOWN_KEY', `The signing key ${kid} is not a key its DID publishes.`, read);
  const wanted = alg === 'EdDSA' ? { kty: 'OKP', crv: 'Ed25519' } : { kty: 'EC', crv: 'P-256' };
  if (jwk.kty !== wanted.kty || jwk.crv !== wanted.crv) {
    return failure(
      'WRONG_KEY',
      `${`The key ${kid} is ${String(jwk.kty)} ${String(jwk.crv ?? '')}`.trimEnd()}, which cannot verify ${alg}: signed by another key than ${kid}.`,
      read,
    );
  }
  let ok: boolean;
  try {
    const members: SignatureJwk = alg === 'ES256' ? { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } : { kty: 'OKP', crv: 'Ed25519', x: jwk.x };
    const algorithm = alg === 'EdDSA' ? { name: 'Ed25519' } : { name: 'ECDSA', namedCurve: 'P-256' };
    const key = await crypto.subtle.importKey('jwk', members, algorithm, false, ['verify']);
    const input = new TextEncoder().encode(`${read.protected}.${base64urlEncode(new TextEncoder().encode(payload))}`);
    ok =
      (alg === 'EdDSA' || read.signature.length === 64) &&
      (await crypto.subtle.verify(alg === 'EdDSA' ? { name: 'Ed25519' } : { name: 'ECDSA', hash: 'SHA-256' }, key, read.signature, input));
  } catch {
    return failure('UNKNOWN_KEY', `The key published as ${kid} is not a valid ${wanted.crv} public key.`, read);
  }
  if (!ok) return failure('WRONG_KEY', `The signature does not verify with the key of ${kid}: signed by another key than ${kid}.`, read);
  return { verified: true, reason: 'VALID', detail: `Signed by ${kid} at ${isoOf(read.iat)}.`, signer: { did: read.did, kid }, signedAt: isoOf(read.iat) };
}
