/**
 * IETF Token Status List (draft-ietf-oauth-status-list) for SD-JWT VC
 * (docs/credentials.md#sd-jwt-vc, "Status"):
 * the `status.status_list` claim `{ idx, uri }` is checked against the Status List Token at `uri`,
 * failing closed.
 *
 * - `idx` must be a non-negative integer and `uri` an absolute https URL: otherwise MALFORMED;
 * - the token is fetched through the Runtime (egress policy, 1 MiB) and parsed strictly as a
 *   compact JWS: header `typ` `statuslist+jwt`; payload `sub` equal to `uri`, `iat` a NumericDate,
 *   optional `exp` (expired: INDETERMINATE) and `ttl`, `status_list: { bits: 1|2|4|8, lst }`;
 * - its signature is checked with a key of the credential's own issuer, found through the same
 *   KeySource as the credential (service policy: a list signed by anyone else is not evidence);
 * - `lst` is base64url of ZLIB (DEFLATE with the zlib header) data, inflated under the 16 MiB
 *   bound; entry i takes `bits` bits of byte floor(i*bits/8), counted from the least significant
 *   bit (draft-ietf-oauth-status-list §4.1);
 * - 0 VALID → ACTIVE, 1 INVALID → REVOKED, 2 SUSPENDED → SUSPENDED; any other value, an index
 *   beyond the list, and every failure to fetch, parse, verify or inflate: INDETERMINATE.
 *
 * Nothing here throws for bad data; only cancellation and the service's own limits propagate.
 */
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { base64urlDecode } from '../encoding/base64url.js';
import { decodeUtf8, isJsonObject, type JsonObject, type JsonValue } from '../encoding/json.js';
import type { FetchResponse } from '../net.js';
import { checkJwsSignature, curveOfAlgorithm, isJwsParseError, parseCompactJws, type ParsedJws } from '../proofs/jws.js';
import { numericDate } from '../proofs/datetime.js';
import { asProblemError, cancelledProblem, ProblemError } from '../problems.js';
import { StageReporter, type StageHooks } from '../resolve/trace.js';
import type { Runtime } from '../runtime.js';
import { describeResponse } from '../supplied/resources.js';
import { rfc3339 } from '../runtime.js';
import { clause } from '../text.js';
import { findSigningKey, unusableKey } from './binding.js';
import { isServiceProblem, type KeySource } from './keys.js';
import { SD_JWT_ALGORITHMS } from './sd-jwt.js';
import { blankEntry, MAX_STATUS_LIST_BYTES, MAX_STATUS_LIST_DECOMPRESSED, type StatusCheckResult } from './status.js';
import type { StatusEntryResult, StatusListEntry } from './types.js';

export interface TokenStatusContext {
  runtime: Runtime;
  /** Where the issuer's keys are found: the credential's own KeySource. */
  keySource: KeySource;
  /** The credential's `iss`. */
  issuer: string | null;
  now: Date;
  signal?: AbortSignal;
  hooks?: StageHooks;
}

export const TOKEN_STATUS_LIST_TYPE = 'TokenStatusList';
const ACCEPT = 'application/statuslist+jwt';
const SKEW_SECONDS = 60;
const BITS: ReadonlySet<number> = new Set([1, 2, 4, 8]);
const inflateAsync = promisify(inflate);

/** Thrown inside the check: the entry is INDETERMINATE for `message` (a full sentence). */
class TokenProblem extends Error {}

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
}

/** What is wrong with the `status_list` claim, or null. */
function claimProblem(claim: JsonValue | undefined): string | null {
  if (!isJsonObject(claim)) return 'the "status_list" status claim is not a JSON object';
  const { idx, uri } = claim;
  if (typeof idx !== 'number' || !Number.isSafeInteger(idx) || idx < 0) return 'the "status_list" claim has no "idx" that is a non-negative integer';
  if (typeof uri !== 'string' || !isHttpsUrl(uri)) return 'the "status_list" claim has no "uri" that is an absolute https URL';
  return null;
}

function rethrowIfOurs(err: unknown, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw err instanceof ProblemError ? err : cancelledProblem();
  if (err instanceof ProblemError && isServiceProblem(err)) throw err;
}

/** Checks `status.status_list` of an SD-JWT VC. */
export async function checkTokenStatusList(claim: JsonValue | undefined, ctx: TokenStatusContext): Promise<StatusCheckResult> {
  const entry = blankEntry(TOKEN_STATUS_LIST_TYPE);
  const malformed = claimProblem(claim);
  if (malformed) {
    entry.detail = `The credential's ${malformed}.`;
    if (isJsonObject(claim) && typeof claim['uri'] === 'string') entry.listUrl = claim['uri'];
    return { status: 'FAIL', implies: 'MALFORMED', detail: `A status entry is malformed. ${entry.detail}`, entries: [entry] };
  }
  const { idx, uri } = claim as { idx: number; uri: string };
  entry.index = idx;
  entry.listUrl = uri;
  let outcome: StatusEntryResult;
  try {
    outcome = await readStatus(idx, uri, entry, ctx);
  } catch (err) {
    if (!(err instanceof TokenProblem)) throw err;
    entry.result = 'INDETERMINATE';
    entry.detail = err.message;
    return { status: 'INDETERMINATE', implies: 'INDETERMINATE', detail: `The status could not be determined. ${err.message}`, entries: [entry] };
  }
  entry.result = outcome;
  if (outcome === 'ACTIVE') return { status: 'PASS', implies: null, detail: `The status entry is active. ${entry.detail}`, entries: [entry] };
  if (outcome === 'REVOKED') return { status: 'FAIL', implies: 'REVOKED', detail: `The credential is revoked. ${entry.detail}`, entries: [entry] };
  if (outcome === 'SUSPENDED') return { status: 'FAIL', implies: 'SUSPENDED', detail: `The credential is suspended. ${entry.detail}`, entries: [entry] };
  return { status: 'INDETERMINATE', implies: 'INDETERMINATE', detail: `The status could not be determined. ${entry.detail}`, entries: [entry] };
}

async function readStatus(idx: number, uri: string, entry: StatusListEntry, ctx: TokenStatusContext): Promise<StatusEntryResult> {
  const token = await fetchToken(uri, ctx);
  const { parsed, bits, compressed } = readToken(token, uri, ctx.now);
  entry.statusSize = bits;
  await verifyToken(parsed, uri, ctx);
  entry.listCredentialVerified = true;
  const list = await inflateList(compressed, uri);
  const size = Math.floor((list.length * 8) / bits);
  entry.listLengthBits = list.length * 8;
  if (idx >= size) throw new TokenProblem(`Index ${idx} is outside the ${size}-entry Token Status List ${uri}.`);
  const byte = list[Math.floor((idx * bits) / 8)] ?? 0;
  const shift = (idx * bits) % 8;
  const value = (byte >> shift) & ((1 << bits) - 1);
  entry.value = value;
  entry.window = byte.toString(2).padStart(8, '0');
  entry.windowOffset = 8 - shift - bits; // position of the entry's left-most bit in `window`
  const hex = `0x${value.toString(16).padStart(2, '0')}`;
  if (value === 0) return settle(entry, 'ACTIVE', `Index ${idx} of the Token Status List ${uri} is ${hex} (VALID).`);
  if (value === 1) return settle(entry, 'REVOKED', `Index ${idx} of the Token Status List ${uri} is ${hex} (INVALID): revoked.`);
  if (value === 2) return settle(entry, 'SUSPENDED', `Index ${idx} of the Token Status List ${uri} is ${hex} (SUSPENDED).`);
  return settle(entry, 'INDETERMINATE', `Index ${idx} of the Token Status List ${uri} is ${hex}, a status svc does not interpret.`);
}

function settle(entry: StatusListEntry, result: StatusEntryResult, detail: string): StatusEntryResult {
  entry.detail = detail;
  return result;
}

async function fetchToken(uri: string, ctx: TokenStatusContext): Promise<string> {
  let response: FetchResponse;
  try {
    response = await new StageReporter(ctx.runtime.clock, ctx.hooks, ctx.runtime.telemetry).run(
      'status.fetch',
      `Fetch the Token Status List ${uri}`,
      async (stage) => {
        const fetched = await ctx.runtime.net.fetch({
          url: uri,
          purpose: 'status list token',
          maxBytes: MAX_STATUS_LIST_BYTES,
          accept: ACCEPT,
          signal: ctx.signal,
        });
        stage.status = fetched.status === 200 ? 'PASS' : 'FAIL';
        stage.detail = describeResponse(fetched);
        return fetched;
      },
    );
  } catch (err) {
    rethrowIfOurs(err, ctx.signal);
    throw new TokenProblem(`The Token Status List ${uri} could not be retrieved: ${clause(asProblemError(err).detail)}.`);
  }
  if (ctx.signal?.aborted) throw cancelledProblem();
  if (response.status !== 200) throw new TokenProblem(`The Token Status List ${uri} answered HTTP ${response.status}.`);
  const text = decodeUtf8(response.body);
  if (text === null) throw new TokenProblem(`The Token Status List ${uri} is not UTF-8 text.`);
  return text.trim();
}

function readToken(token: string, uri: string, now: Date): { parsed: ParsedJws; bits: number; compressed: Uint8Array } {
  const bad = (why: string): never => {
    throw new TokenProblem(`The Token Status List ${uri} is malformed: ${why}.`);
  };
  const parsed = parseCompactJws(token, { accepted: [...SD_JWT_ALGORITHMS] });
  if (isJwsParseError(parsed)) return bad(parsed.error);
  if (parsed.header['typ'] !== 'statuslist+jwt') bad(`its header "typ" is ${JSON.stringify(parsed.header['typ'] ?? null)}, not "statuslist+jwt"`);
  const payload = parsed.payload;
  if (!isJsonObject(payload)) return bad('its payload is not a JSON object');
  if (payload['sub'] !== uri) bad(`its "sub" is ${JSON.stringify(payload['sub'] ?? null)}, not the status list URI`);
  const iat = payload['iat'] === undefined ? null : numericDate(payload['iat']);
  if (iat === null) bad('its "iat" is not a NumericDate');
  if (payload['exp'] !== undefined) {
    const exp = numericDate(payload['exp']);
    if (exp === null) bad('its "exp" is not a NumericDate');
    if (exp!.getTime() + SKEW_SECONDS * 1000 <= now.getTime()) {
      throw new TokenProblem(`The Token Status List ${uri} expired at ${rfc3339(exp!)}, before ${rfc3339(now)}.`);
    }
  }
  const ttl = payload['ttl'];
  if (ttl !== undefined && !(typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl > 0)) bad('its "ttl" is not a positive integer');
  const list = payload['status_list'];
  if (!isJsonObject(list)) return bad('it has no "status_list" object');
  const bits = list['bits'];
  if (typeof bits !== 'number' || !BITS.has(bits)) return bad('its "status_list.bits" is not 1, 2, 4 or 8');
  const lst = list['lst'];
  const compressed = typeof lst === 'string' && lst.length > 0 ? base64urlDecode(lst) : null;
  if (!compressed) return bad('its "status_list.lst" is not base64url');
  return { parsed, bits, compressed };
}

/** The token's signature, by a key of the credential's own issuer (through the credential's KeySource). */
async function verifyToken(parsed: ParsedJws, uri: string, ctx: TokenStatusContext): Promise<void> {
  const iss = ctx.issuer;
  if (iss === null) throw new TokenProblem(`The Token Status List ${uri} cannot be used: the credential names no issuer to match its signer against.`);
  const payload = parsed.payload as JsonObject;
  if (payload['iss'] !== undefined && payload['iss'] !== iss) {
    throw new TokenProblem(
      `The Token Status List ${uri} cannot be used: it is issued by ${JSON.stringify(payload['iss'])}, not by the credential's issuer ${iss}.`,
    );
  }
  // The algorithms a credential may be signed with sign its status too.
  if (!SD_JWT_ALGORITHMS.has(parsed.alg)) {
    throw new TokenProblem(`The Token Status List ${uri} is signed with ${parsed.alg}; svc checks EdDSA, ES256 or ES256K signatures.`);
  }
  const kid = parsed.header['kid'];
  if (kid !== undefined && typeof kid !== 'string') throw new TokenProblem(`The Token Status List ${uri} is malformed: its header "kid" is not a string.`);
  let search;
  try {
    search = await findSigningKey(typeof kid === 'string' ? kid : null, iss, curveOfAlgorithm(parsed.alg), ctx.keySource, ctx.signal);
  } catch (err) {
    rethrowIfOurs(err, ctx.signal);
    throw new TokenProblem(`The signing key of the Token Status List ${uri} could not be looked up: ${clause(asProblemError(err).detail)}.`);
  }
  if (!search.ok) throw new TokenProblem(`The Token Status List ${uri} could not be verified: ${clause(search.finding.detail)}.`);
  if (search.controller !== iss) {
    throw new TokenProblem(
      `The Token Status List ${uri} cannot be used: it is signed by a key of ${search.controller}, not of the credential's issuer ${iss}.`,
    );
  }
  let last = 'no key was tried';
  for (const key of search.keys) {
    const unusable = unusableKey(key);
    if (unusable) {
      last = clause(unusable.detail);
      continue;
    }
    const check = checkJwsSignature(parsed, key.publicJwk!);
    if (check.valid) return;
    last = check.reason;
  }
  throw new TokenProblem(`The signature of the Token Status List ${uri} does not verify with a key of ${iss}: ${last}.`);
}

async function inflateList(compressed: Uint8Array, uri: string): Promise<Uint8Array> {
  try {
    const bytes = await inflateAsync(compressed, { maxOutputLength: MAX_STATUS_LIST_DECOMPRESSED });
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (err) {
    const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new TokenProblem(`The Token Status List ${uri} decompresses to more than 16 MiB.`);
    throw new TokenProblem(`The "lst" of the Token Status List ${uri} is not valid ZLIB data.`);
  }
}
