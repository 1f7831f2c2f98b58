/**
 * Compact JWS (RFC 7515 §7.1), and so JWTs, parsed strictly and verified with node:crypto.
 *
 * - Every part must be canonical unpadded base64url; the header, and a payload that is JSON,
 *   are parsed with the strict parser, so a duplicate member (which jose and most JWT
 *   libraries resolve silently to the last one) makes the token malformed.
 * - Supported algorithms: EdDSA and Ed25519 (RFC 8037 / RFC 9864, Ed25519 only), ES256
 *   (P-256), ES256K (secp256k1, RFC 8812) and ES384 (P-384); RS256 and PS256 (RSA of 2048
 *   bits or more) only when the caller asks (`rsa`). `none`, HMAC and otherwise RSA are refused
 *   as unsupported, never as malformed.
 * - `crit` is checked as RFC 7515 §4.1.11 requires (a malformed list makes the token
 *   malformed), and then refused: svc processes no critical extension, so any
 *   `crit`, even one naming `b64` with its default value, makes the token unsupported.
 *   `b64: false` (RFC 7797 unencoded payloads) is unsupported too.
 * - Keys embedded in the header (`jwk`, `jku`, `x5c`, `x5u`) are never used: the verification
 *   key always comes from the caller.
 */
import { base64urlDecode, base64urlDecodeAlphabetChecked } from '../encoding/base64url.js';
import { decodeUtf8, isJsonObject, parseJsonBytes, parseJsonText, type JsonObject } from '../encoding/json.js';
import { withArticle } from '../text.js';
import { checkRsaSignature, importPublicJwk, verifyWithKey, type PublicKeyJwk, type SignatureScheme } from './signature.js';

export const JWS_ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256', 'ES256K', 'ES384'] as const;
export type JwsAlgorithm = (typeof JWS_ALGORITHMS)[number];
/** RSA algorithms, parsed only when a caller asks (`rsa: true`: credentials with JSON-LD processing on). */
export const RSA_JWS_ALGORITHMS = ['RS256', 'PS256'] as const;
export type RsaJwsAlgorithm = (typeof RSA_JWS_ALGORITHMS)[number];

export function isRsaJwsAlgorithm(value: unknown): value is RsaJwsAlgorithm {
  return value === 'RS256' || value === 'PS256';
}

const SCHEMES: Readonly<Record<JwsAlgorithm, SignatureScheme>> = {
  EdDSA: { kind: 'eddsa', curve: 'Ed25519' },
  Ed25519: { kind: 'eddsa', curve: 'Ed25519' },
  ES256: { kind: 'ecdsa', curve: 'P-256', hash: 'sha256', signatureBytes: 64 },
  ES256K: { kind: 'ecdsa', curve: 'secp256k1', hash: 'sha256', signatureBytes: 64 },
  ES384: { kind: 'ecdsa', curve: 'P-384', hash: 'sha384', signatureBytes: 96 },
};

/** The curve a supported algorithm signs with ('RSA' for the RSA algorithms). */
export function curveOfAlgorithm(alg: JwsAlgorithm | RsaJwsAlgorithm): string {
  return isRsaJwsAlgorithm(alg) ? 'RSA' : SCHEMES[alg].curve;
}

export function isJwsAlgorithm(value: unknown): value is JwsAlgorithm {
  return typeof value === 'string' && Object.hasOwn(SCHEMES, value);
}

/** Header parameters registered by RFC 7515/7516/7518, which `crit` must not list. */
const REGISTERED_HEADER_PARAMETERS: ReadonlySet<string> = new Set([
  'alg',
  'jku',
  'jwk',
  'kid',
  'x5u',
  'x5c',
  'x5t',
  'x5t#S256',
  'typ',
  'cty',
  'crit',
  'enc',
  'zip',
  'epk',
  'apu',
  'apv',
  'iv',
  'tag',
  'p2s',
  'p2c',
]);

/** Upper bound on a compact JWS svc parses (1 MiB of text). */
export const MAX_JWS_LENGTH = 1024 * 1024;

export interface ParsedJws<A extends string = JwsAlgorithm> {
  alg: A;
  header: JsonObject;
  /** The payload as a JSON object when it is one, otherwise its raw bytes. */
  payload: JsonObject | Uint8Array;
  /** ASCII of `BASE64URL(header) '.' BASE64URL(payload)`: what was signed. */
  signingInput: Uint8Array;
  signature: Uint8Array;
}

export interface JwsParseError {
  /** One line saying what is wrong, e.g. `the protected header has a duplicate member "alg"`. */
  error: string;
  /** MALFORMED: not a valid JWS. UNSUPPORTED: a valid JWS svc cannot verify (algorithm, extension). */
  kind: 'MALFORMED' | 'UNSUPPORTED';
  /** The header and JSON payload when they could be read, so a caller can still say whose token it is. */
  header: JsonObject | null;
  payload: JsonObject | null;
}

export type JwsParseResult<A extends string = JwsAlgorithm> = ParsedJws<A> | JwsParseError;

export function isJwsParseError<A extends string>(result: JwsParseResult<A>): result is JwsParseError {
  return 'error' in result;
}

function parseJsonPart(bytes: Uint8Array, where: string): { value: JsonObject } | { error: string } {
  const parsed = parseJsonBytes(bytes, where);
  if ('error' in parsed) return parsed;
  if (!isJsonObject(parsed.value)) return { error: `${where} is not a JSON object` };
  return { value: parsed.value };
}

function parseJsonTextPart(text: string, where: string): { value: JsonObject } | { error: string } {
  const parsed = parseJsonText(text, where);
  if ('error' in parsed) return parsed;
  if (!isJsonObject(parsed.value)) return { error: `${where} is not a JSON object` };
  return { value: parsed.value };
}

/** The algorithms named in messages when the caller says nothing narrower. */
const ALL_ALGORITHMS: readonly string[] = ['EdDSA', 'ES256', 'ES256K', 'ES384'];

/** "A, B and C" (or "A or B" with `or`). */
function listAlgorithms(algs: readonly string[]): string {
  // Ed25519 is an alias of EdDSA (RFC 9864): named once.
  const names = algs.filter((a) => a !== 'Ed25519' || !algs.includes('EdDSA'));
  return names.length <= 1 ? (names[0] ?? 'none') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Why `alg` is not supported, in one line, naming only the algorithms the caller accepts. */
function unsupportedAlgorithm(alg: string, accepted: readonly string[]): string {
  if (alg === 'none') return 'the algorithm "none" (an unsecured JWS) is not accepted';
  if (/^HS\d+$/.test(alg)) return `the algorithm ${alg} (HMAC with a shared secret) is not supported; a DID key cannot verify it`;
  if (/^(RS|PS)\d+$/.test(alg)) return `the algorithm ${alg} (RSA) is not supported; svc verifies ${listAlgorithms(accepted)}`;
  return `the algorithm ${JSON.stringify(alg)} is not supported; svc verifies ${listAlgorithms(accepted)}`;
}

/** Checks `crit` and `b64`; null when the header is acceptable. */
function checkExtensions(header: JsonObject): { error: string; kind: 'MALFORMED' | 'UNSUPPORTED' } | null {
  const b64 = header['b64'];
  if (b64 !== undefined && typeof b64 !== 'boolean') return { kind: 'MALFORMED', error: 'the header parameter "b64" is not a boolean' };
  const crit = header['crit'];
  let critical: string | undefined;
  if (crit !== undefined) {
    if (!Array.isArray(crit) || crit.length === 0 || !crit.every((c) => typeof c === 'string')) {
      return { kind: 'MALFORMED', error: '"crit" must be a non-empty array of header parameter names' };
    }
    const names = crit as string[];
    if (new Set(names).size !== names.length) return { kind: 'MALFORMED', error: '"crit" lists a header parameter more than once' };
    for (const name of names) {
      if (REGISTERED_HEADER_PARAMETERS.has(name)) {
        return { kind: 'MALFORMED', error: `"crit" lists "${name}", a parameter the JWS specifications define, which it must not` };
      }
      if (!Object.hasOwn(header, name)) return { kind: 'MALFORMED', error: `"crit" lists "${name}", which the header does not contain` };
    }
    critical = names[0];
  }
  if (b64 === false) {
    if (!Array.isArray(crit) || !crit.includes('b64')) {
      return { kind: 'MALFORMED', error: '"b64": false must be listed in "crit" (RFC 7797 §6)' };
    }
    return { kind: 'UNSUPPORTED', error: 'unencoded payloads ("b64": false, RFC 7797) are not supported' };
  }
  if (critical !== undefined) {
    return { kind: 'UNSUPPORTED', error: `the header marks "${critical}" critical; svc processes no critical header extension` };
  }
  return null;
}

/**
 * Protected headers read before, by their base64url text, when every member is a string, number,
 * boolean or null: the tokens of one signer share one header, which is then decoded and parsed
 * once. Each reading hands out its own copy. Bounded: emptied when full.
 */
const HEADERS = new Map<string, { text: string; header: JsonObject }>();
const HEADERS_KEPT = 256;
const BASE64URL_TEXT = /^[A-Za-z0-9_-]+$/;

/** The header kept or read last, by its text: a signer's tokens often come one after another. */
let lastHeaderText = '';
let lastHeader: JsonObject | null = null;

/**
 * The length of `token`'s protected header when it is the header read last and kept (text of
 * the base64url alphabet, see readHeader) followed by ".", else 0: a caller matching the token
 * against the compact shape need not test those characters again.
 */
export function keptHeaderLength(token: string): number {
  const h = lastHeaderText;
  // (A slice compared with === is a flat comparison; startsWith, measured, was up to 20 times slower.)
  return lastHeader !== null && token.charCodeAt(h.length) === 0x2e && token.slice(0, h.length) === h ? h.length : 0;
}

function readHeader(h: string, decode: (text: string) => Uint8Array | null): { value: JsonObject } | { error: string } {
  if (lastHeader !== null && h === lastHeaderText) return { value: { ...lastHeader } };
  const known = HEADERS.get(h);
  if (known !== undefined) {
    lastHeaderText = known.text;
    lastHeader = known.header;
    return { value: { ...known.header } };
  }
  const bytes = decode(h);
  if (!bytes || bytes.length === 0) return { error: 'the protected header is not canonical unpadded base64url' };
  const read = parseJsonPart(bytes, 'the protected header');
  if ('error' in read) return read;
  const header = read.value;
  // Only a text of the alphabet is kept (a caller's compactShape is taken on trust), and only
  // flat members, so that a copy shares nothing with the kept header.
  if (BASE64URL_TEXT.test(h) && Object.values(header).every((v) => typeof v !== 'object' || v === null)) {
    if (HEADERS.size >= HEADERS_KEPT) HEADERS.clear();
    // The text copied out of the token: a slice would keep the whole token (up to 1 MiB) alive.
    const text = Buffer.from(h, 'latin1').toString('latin1');
    const kept = { ...header };
    HEADERS.set(text, { text, header: kept });
    lastHeaderText = text;
    lastHeader = kept;
  }
  return read;
}

/**
 * Parses a compact JWS. Never throws: anything wrong with the token is an error result whose
 * `kind` tells a malformed token from one that uses what svc does not support.
 */
function fail(
  error: string,
  kind: 'MALFORMED' | 'UNSUPPORTED' = 'MALFORMED',
  header: JsonObject | null = null,
  payload: JsonObject | null = null,
): JwsParseError {
  return { error, kind, header, payload };
}

/**
 * `accepted`: the algorithms the caller verifies for this purpose (e.g. credentials: EdDSA,
 * ES256, ES256K); only they are named when an algorithm is refused. All of JWS_ALGORITHMS by default.
 * `rsa`: RS256 and PS256 are parsed too (refused as unsupported otherwise).
 */
export function parseCompactJws(token: string, options: { compactShape?: boolean; accepted?: readonly string[]; rsa?: false }): JwsParseResult;
export function parseCompactJws(
  token: string,
  options: { compactShape?: boolean; accepted?: readonly string[]; rsa: boolean },
): JwsParseResult<JwsAlgorithm | RsaJwsAlgorithm>;
export function parseCompactJws(token: string): JwsParseResult;
export function parseCompactJws(
  token: string,
  options: { compactShape?: boolean; accepted?: readonly string[]; rsa?: boolean } = {},
): JwsParseResult<JwsAlgorithm | RsaJwsAlgorithm> {
  // A caller that matched the token against `A+.A*.A*` (A the base64url alphabet) spares each
  // part the same alphabet test; the canonical-form check still runs.
  const decode = options.compactShape === true ? base64urlDecodeAlphabetChecked : base64urlDecode;
  if (typeof token !== 'string') return fail('a compact JWS is a string');
  if (token.length > MAX_JWS_LENGTH) return fail(`the JWS is longer than ${MAX_JWS_LENGTH} characters`);
  // Three parts: two dots, found without splitting (the count is taken only to say what is wrong).
  const firstDot = token.indexOf('.');
  const secondDot = firstDot === -1 ? -1 : token.indexOf('.', firstDot + 1);
  if (secondDot === -1 || token.indexOf('.', secondDot + 1) !== -1) {
    const parts = token.split('.').length;
    if (parts === 5) return fail('the token has five parts: it is a JWE (encrypted), not a JWS');
    return fail(`a compact JWS has three base64url parts separated by "."; this one has ${parts}`);
  }
  const h = token.slice(0, firstDot);
  const p = token.slice(firstDot + 1, secondDot);
  const s = token.slice(secondDot + 1);

  const headerRead = readHeader(h, decode);
  if ('error' in headerRead) return fail(headerRead.error);
  const header = headerRead.value;

  const payloadBytes = decode(p);
  if (!payloadBytes) return fail('the payload is not canonical unpadded base64url');
  let payload: JsonObject | Uint8Array = payloadBytes;
  const payloadText = decodeUtf8(payloadBytes);
  // A payload that opens like a JSON object is parsed as one, strictly: its claims are read.
  // (Text that opens so has no byte order mark: parsing the decoded text is parseJsonBytes.)
  if (payloadText !== null && /^[\t\n\r ]*\{/.test(payloadText)) {
    const payloadJson = parseJsonTextPart(payloadText, 'the payload');
    if ('error' in payloadJson) return fail(payloadJson.error, 'MALFORMED', header);
    payload = payloadJson.value;
  }
  const jsonPayload = payload instanceof Uint8Array ? null : payload;

  const signature = decode(s);
  if (!signature) return fail('the signature is not canonical unpadded base64url', 'MALFORMED', header, jsonPayload);

  const alg = header['alg'];
  if (alg === undefined) return fail('the protected header has no "alg"', 'MALFORMED', header, jsonPayload);
  if (typeof alg !== 'string') return fail('the header parameter "alg" is not a string', 'MALFORMED', header, jsonPayload);
  const extensions = checkExtensions(header);
  if (extensions?.kind === 'MALFORMED') return fail(extensions.error, 'MALFORMED', header, jsonPayload);
  if (!isJwsAlgorithm(alg) && !(options.rsa === true && isRsaJwsAlgorithm(alg)))
    return fail(unsupportedAlgorithm(alg, options.accepted ?? ALL_ALGORITHMS), 'UNSUPPORTED', header, jsonPayload);
  if (extensions) return fail(extensions.error, extensions.kind, header, jsonPayload);
  if (signature.length === 0) return fail('the signature is empty', 'MALFORMED', header, jsonPayload);

  return {
    alg,
    header,
    payload,
    // The token up to its second dot: `h '.' p`, base64url and so ASCII, one copy.
    signingInput: asciiBytes(token.slice(0, h.length + 1 + p.length)),
    signature,
  };
}

function asciiBytes(text: string): Uint8Array {
  const bytes = Buffer.from(text, 'latin1');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export type JwsSignatureCheck = { valid: true } | { valid: false; reason: string };

/** The curve a public JWK holds, with its article, for messages ("an Ed25519", "a P-256"). */
function jwkCurve(jwk: PublicKeyJwk): string {
  return withArticle(jwk.crv ?? jwk.kty ?? 'unknown');
}

/**
 * Verifies the signature of a parsed JWS with a public JWK. The key's curve must be the one
 * the algorithm signs with (an EdDSA token is not checked with a P-256 key), and an ECDSA
 * signature must be the raw r‖s of the curve's size (a DER signature is refused).
 */
export function checkJwsSignature(parsed: ParsedJws<JwsAlgorithm | RsaJwsAlgorithm>, publicJwk: PublicKeyJwk): JwsSignatureCheck {
  if (isRsaJwsAlgorithm(parsed.alg)) return checkRsaSignature(parsed.alg, publicJwk, parsed.signingInput, parsed.signature);
  const scheme = SCHEMES[parsed.alg];
  const expectedKty = scheme.kind === 'eddsa' ? 'OKP' : 'EC';
  if (publicJwk.kty !== expectedKty || publicJwk.crv !== scheme.curve) {
    return { valid: false, reason: `the key is ${jwkCurve(publicJwk)} key, but ${parsed.alg} signs with ${scheme.curve}` };
  }
  const expectedLength = scheme.kind === 'eddsa' ? 64 : scheme.signatureBytes;
  if (parsed.signature.length !== expectedLength) {
    const form = scheme.kind === 'ecdsa' ? ' (raw r‖s)' : '';
    return { valid: false, reason: `${withArticle(parsed.alg)} signature is ${expectedLength} bytes${form}, not ${parsed.signature.length}` };
  }
  const key = importPublicJwk(publicJwk);
  if (typeof key === 'string') return { valid: false, reason: key };
  if (!verifyWithKey(scheme, key, parsed.signingInput, parsed.signature)) {
    return { valid: false, reason: `the ${parsed.alg} signature does not verify` };
  }
  return { valid: true };
}

/** True when the JWS signature verifies with the key (see checkJwsSignature for the reason when not). */
export function verifyJwsSignature(parsed: ParsedJws, publicJwk: PublicKeyJwk): boolean {
  return checkJwsSignature(parsed, publicJwk).valid;
}
