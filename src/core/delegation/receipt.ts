/**
 * One delegation receipt read (docs/delegation.md#receipts): a compact JWS, parsed strictly
 * (duplicate members in header or payload refused, `alg: none`, `b64: false` and any `crit`
 * refused), with
 *
 *   header  alg EdDSA | ES256 | ES256K, typ `svc-delegation+jwt`, kid `<iss>#<key>`
 *   payload iss, aud (DIDs, compared without fragment), cap (1..64 capability strings),
 *           nbf or iat, exp (integer NumericDates, exp > nbf), jti?, prf? (lowercase hex SHA-256)
 *
 * Anything else makes the receipt unusable: the `receipt` check fails and the chain is
 * MALFORMED. The signature is checked by the chain, with the issuer's capabilityDelegation key.
 */
import { sha256Hex } from '../canonical.js';
import { didOf } from '../did/syntax.js';
import type { JsonObject } from '../encoding/json.js';
import { isJwsParseError, parseCompactJws, type ParsedJws } from '../proofs/jws.js';
import { validateCapability } from './capability.js';
import { MAX_CAPABILITIES, RECEIPT_ALGORITHMS, RECEIPT_TYP, type ReceiptAlgorithm } from './types.js';

export interface Receipt {
  compact: string;
  parsed: ParsedJws;
  alg: ReceiptAlgorithm;
  kid: string;
  /** The issuer and audience as written, and as bare DIDs (no fragment) for comparison. */
  iss: string;
  aud: string;
  issDid: string;
  audDid: string;
  cap: string[];
  /** Seconds since 1970: nbf, or iat when there is no nbf. */
  nbf: number;
  exp: number;
  jti: string | null;
  prf: string | null;
  digest: string;
}

/** What could be read of a receipt that is not usable, for the link report. */
export interface ReceiptFailure {
  reason: string;
  digest: string;
  header: JsonObject | null;
  payload: JsonObject | null;
}

/** Hex SHA-256 of the ASCII compact serialisation: what a child's `prf` names. */
export function receiptDigest(compact: string): string {
  return sha256Hex(Buffer.from(compact, 'utf8'));
}

const MAX_NUMERIC_DATE = 253402300799; // 9999-12-31T23:59:59Z

function numericDate(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_NUMERIC_DATE ? value : null;
}

export function readReceipt(compact: unknown): Receipt | ReceiptFailure {
  const text = typeof compact === 'string' ? compact : '';
  const digest = receiptDigest(text);
  const fail = (reason: string, header: JsonObject | null = null, payload: JsonObject | null = null): ReceiptFailure => ({ reason, digest, header, payload });
  if (typeof compact !== 'string') return fail('a receipt is a compact JWS string');
  const parsed = parseCompactJws(compact, { accepted: RECEIPT_ALGORITHMS });
  if (isJwsParseError(parsed)) return fail(parsed.error, parsed.header, parsed.payload);
  const { header } = parsed;
  const payload = parsed.payload instanceof Uint8Array ? null : parsed.payload;
  if (payload === null) return fail('the payload is not a JSON object', header);
  const failWith = (reason: string) => fail(reason, header, payload);

  if (!(RECEIPT_ALGORITHMS as readonly string[]).includes(parsed.alg))
    return failWith(`the algorithm ${parsed.alg} is not one of ${RECEIPT_ALGORITHMS.join(', ')}`);
  if (header['typ'] !== RECEIPT_TYP) return failWith(`the header "typ" is ${JSON.stringify(header['typ'] ?? null)}, not ${RECEIPT_TYP}`);
  const iss = payload['iss'];
  const aud = payload['aud'];
  const issDid = didOf(iss);
  const audDid = didOf(aud);
  if (issDid === null) return failWith('"iss" is not a DID');
  if (audDid === null) return failWith('"aud" is not a DID (a receipt delegates to one DID)');
  const kid = header['kid'];
  if (typeof kid !== 'string') return failWith('the header has no string "kid"');
  const kidDid = didOf(kid);
  if (kidDid === null || kidDid === kid || !kid.includes('#')) return failWith(`the kid ${JSON.stringify(kid.slice(0, 120))} is not a DID URL <iss>#<key>`);
  if (kidDid !== issDid) return failWith(`the kid names a key of ${kidDid}, not of the issuer ${issDid}`);

  const cap = payload['cap'];
  if (!Array.isArray(cap) || cap.length === 0 || cap.length > MAX_CAPABILITIES)
    return failWith(`"cap" must be an array of 1 to ${MAX_CAPABILITIES} capability strings`);
  for (const c of cap) {
    const problem = validateCapability(c);
    if (problem) return failWith(problem);
  }
  const exp = numericDate(payload['exp']);
  if (exp === null) return failWith('"exp" is not an integer NumericDate');
  const nbfValue = payload['nbf'] !== undefined ? payload['nbf'] : payload['iat'];
  const nbfName = payload['nbf'] !== undefined ? 'nbf' : 'iat';
  if (nbfValue === undefined) return failWith('the receipt has neither "nbf" nor "iat"');
  const nbf = numericDate(nbfValue);
  if (nbf === null) return failWith(`"${nbfName}" is not an integer NumericDate`);
  if (exp <= nbf) return failWith(`"exp" is not later than "${nbfName}"`);
  const jti = payload['jti'];
  if (jti !== undefined && typeof jti !== 'string') return failWith('"jti" is not a string');
  const prf = payload['prf'];
  if (prf !== undefined && (typeof prf !== 'string' || !/^[0-9a-f]{64}$/.test(prf))) return failWith('"prf" is not a lowercase hex SHA-256 digest');

  return {
    compact,
    parsed,
    alg: parsed.alg as ReceiptAlgorithm,
    kid,
    iss: iss as string,
    aud: aud as string,
    issDid,
    audDid,
    cap: cap as string[],
    nbf,
    exp,
    jti: typeof jti === 'string' ? jti : null,
    prf: typeof prf === 'string' ? prf : null,
    digest,
  };
}

export function isReceipt(value: Receipt | ReceiptFailure): value is Receipt {
  return 'parsed' in value;
}

/** The claims of a receipt without checking its signature (the registry's stored chains); null when unreadable. */
export function readReceiptClaims(compact: string): { iss: string; aud: string; cap: string[]; nbf: number; exp: number; digest: string } | null {
  const receipt = readReceipt(compact);
  if (!isReceipt(receipt)) return null;
  return { iss: receipt.issDid, aud: receipt.audDid, cap: receipt.cap, nbf: receipt.nbf, exp: receipt.exp, digest: receipt.digest };
}

/** A stable id of a chain: hex SHA-256 of its receipts joined by newlines. */
export function chainId(chain: readonly string[]): string {
  return sha256Hex(chain.join('\n'));
}

/** The payload claims to report for an unusable receipt. */
export function claimsOf(failure: ReceiptFailure): {
  iss: string | null;
  aud: string | null;
  cap: string[];
  kid: string | null;
  alg: string | null;
  jti: string | null;
} {
  const p = failure.payload;
  const h = failure.header;
  return {
    iss: typeof p?.['iss'] === 'string' ? p['iss'] : null,
    aud: typeof p?.['aud'] === 'string' ? p['aud'] : null,
    cap: Array.isArray(p?.['cap']) ? (p['cap'] as unknown[]).filter((c): c is string => typeof c === 'string') : [],
    kid: typeof h?.['kid'] === 'string' ? h['kid'] : null,
    alg: typeof h?.['alg'] === 'string' ? h['alg'] : null,
    jti: typeof p?.['jti'] === 'string' ? p['jti'] : null,
  };
}
