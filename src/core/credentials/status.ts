/**
 * Credential status (docs/credentials.md#status-lists): reads `credentialStatus` and checks each
 * entry against its status list, failing closed.
 *
 * Supported entries are `BitstringStatusListEntry` (W3C Bitstring Status List, VC 2.0) and the
 * legacy `StatusList2021Entry`, for single-bit `revocation` and `suspension` only:
 *
 * - more than 8 entries: INDETERMINATE, nothing fetched (never truncated to the first 8);
 * - an entry without `statusPurpose` (string), `statusListIndex` (a base-10 string) or
 *   `statusListCredential` (an absolute URL), or with a `statusSize` that is not an integer ≥ 1:
 *   MALFORMED; another entry type, another purpose or a `statusSize` other than 1: UNSUPPORTED;
 * - each distinct list URL is fetched once through the Runtime (egress policy, 1 MiB), parsed
 *   strictly (a JSON object, or a compact JWT) and verified with the caller's verifier; any
 *   failure to fetch, parse or verify is INDETERMINATE, never "active";
 * - the list must have the right types and @context, name the entry's purpose, and come from the
 *   credential's own issuer (service policy);
 * - `encodedList` is GZIP + base64url with a `u` multibase prefix (Bitstring) or GZIP + base64 of
 *   either alphabet (StatusList2021); it is decompressed with a hard 16 MiB output bound, and
 *   must hold at least 131072 entries, with the index inside the list;
 * - bit 0 is the left-most (most significant) bit of byte 0; a set bit means REVOKED or
 *   SUSPENDED by purpose.
 *
 * The result's `implies` is the most severe entry outcome: MALFORMED > UNSUPPORTED > REVOKED >
 * SUSPENDED > INDETERMINATE (> ACTIVE). Lists are fetched and verified concurrently but
 * decompressed one at a time, so at most one expanded list is held in memory. Nothing here
 * throws for bad data; only cancellation and the service's own limits propagate.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { base64urlDecode } from '../encoding/base64url.js';
import { decodeUtf8, isJsonObject, parseJsonBytes, type JsonObject, type JsonValue } from '../encoding/json.js';
import type { FetchResponse } from '../net.js';
import { asProblemError, cancelledProblem, ProblemError } from '../problems.js';
import { StageReporter, type StageHooks } from '../resolve/trace.js';
import type { Runtime } from '../runtime.js';
import { describeResponse } from '../supplied/resources.js';
import { capitalise, clause } from '../text.js';
import { COMPACT_JWS } from './input.js';
import { isServiceProblem } from './keys.js';
import { VC_V2_CONTEXT as VC2_CONTEXT } from './model.js';
import type { CheckStatus, CredentialStatus, CredentialVerification, StatusEntryResult, StatusListEntry } from './types.js';

export interface StatusCheckContext {
  runtime: Runtime;
  signal?: AbortSignal;
  /** Watch each list fetch as a `status.fetch` stage (the CLI's progress). */
  hooks?: StageHooks;
  /** Verifies a fetched list credential (a JSON object, or a compact JWT string) with svc's credential verifier, without checking the list's own status. Provided by the caller (verify.ts). */
  verifyList: (list: JsonObject | string, signal?: AbortSignal) => Promise<CredentialVerification>;
}

export interface StatusCheckResult {
  /** PASS: every entry ACTIVE. FAIL: revoked or suspended. SKIP: no credentialStatus. UNSUPPORTED / INDETERMINATE as below. */
  status: CheckStatus;
  /** One or two sentences for the `status` check detail. */
  detail: string;
  /** The overall credential status this implies (REVOKED, SUSPENDED, UNSUPPORTED, INDETERMINATE, MALFORMED); null for PASS/SKIP. */
  implies: CredentialStatus | null;
  entries: StatusListEntry[];
}

export const MAX_STATUS_ENTRIES = 8;
export const MIN_STATUS_LIST_ENTRIES = 131072;
export const MAX_STATUS_LIST_BYTES = 1024 * 1024; // download
export const MAX_STATUS_LIST_DECOMPRESSED = 16 * 1024 * 1024;

const STATUS_LIST_2021_CONTEXT = 'https://w3id.org/vc/status-list/2021/v1';
const ACCEPT = 'application/vc+ld+json, application/vc+jwt, application/vc, application/json';
const INDEX = /^(0|[1-9][0-9]*)$/;

const gunzipAsync = promisify(gunzip);

// ---------------------------------------------------------------------------------------------
// Status list kinds
// ---------------------------------------------------------------------------------------------

interface ListKind {
  entryType: string;
  credentialType: string;
  subjectType: string;
  /** Why the list's @context does not fit, or null when it does. */
  contextProblem(context: JsonValue | undefined): string | null;
  /** The compressed bytes of `encodedList`, or null when it is not in this kind's encoding. */
  decodeText(encoded: string): Uint8Array | null;
}

const BITSTRING: ListKind = {
  entryType: 'BitstringStatusListEntry',
  credentialType: 'BitstringStatusListCredential',
  subjectType: 'BitstringStatusList',
  contextProblem: (context) => (firstString(context) === VC2_CONTEXT ? null : `its @context does not start with the VC 2.0 context ${VC2_CONTEXT}`),
  decodeText: (encoded) => (encoded.startsWith('u') ? base64urlDecode(encoded.slice(1)) : null),
};

const STATUS_LIST_2021: ListKind = {
  entryType: 'StatusList2021Entry',
  credentialType: 'StatusList2021Credential',
  subjectType: 'StatusList2021',
  contextProblem: (context) => (strings(context).includes(STATUS_LIST_2021_CONTEXT) ? null : `its @context does not include ${STATUS_LIST_2021_CONTEXT}`),
  // GZIP data always starts 0x1f 0x8b ("H4s…" in base64), so a leading `u` can only be a prefix.
  decodeText: (encoded) => decodeAnyBase64(encoded.startsWith('u') ? encoded.slice(1) : encoded),
};

const KINDS: readonly ListKind[] = [BITSTRING, STATUS_LIST_2021];

/** Base64 in the standard or the URL-safe alphabet (not mixed), padding optional. */
function decodeAnyBase64(text: string): Uint8Array | null {
  if (text.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  if (/[+/]/.test(text) && /[-_]/.test(text)) return null;
  const body = text.replace(/=+$/, '');
  if (body.length % 4 === 1 || (text.length !== body.length && text.length % 4 !== 0)) return null;
  const bytes = Buffer.from(body.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

// ---------------------------------------------------------------------------------------------
// Entries
// ---------------------------------------------------------------------------------------------

type Outcome = StatusEntryResult | 'MALFORMED';

interface Checked {
  entry: StatusListEntry;
  outcome: Outcome;
}

/** A well-formed, supported entry, ready to be checked against its list. */
interface Candidate {
  kind: ListKind;
  purpose: 'revocation' | 'suspension';
  /** The index as written (a base-10 string), and as a number when it is a safe integer. */
  indexText: string;
  index: number | null;
  listUrl: string;
  /** Entry as reported; `result` and `detail` are settled by the list check. */
  entry: StatusListEntry;
}

export function blankEntry(statusType: string | null): StatusListEntry {
  return {
    statusType,
    purpose: null,
    index: null,
    listUrl: null,
    statusSize: null,
    listCredentialVerified: false,
    listLengthBits: null,
    value: null,
    result: 'INDETERMINATE',
    window: null,
    windowOffset: null,
    detail: '',
  };
}

function settled(entry: StatusListEntry, outcome: Outcome, detail: string): Checked {
  entry.result = outcome === 'MALFORMED' ? 'INDETERMINATE' : outcome;
  entry.detail = detail;
  return { entry, outcome };
}

/** The supported kind named by an entry's `type` (a string or an array of strings). */
function entryKind(type: JsonValue | undefined): ListKind | null {
  const names = strings(type);
  return KINDS.find((kind) => names.includes(kind.entryType)) ?? null;
}

/** Reads one `credentialStatus` entry: a Candidate to check, or its final MALFORMED/UNSUPPORTED outcome. */
function readEntry(raw: JsonValue | undefined): Candidate | Checked {
  if (!isJsonObject(raw)) return settled(blankEntry(null), 'MALFORMED', 'The status entry is not a JSON object.');
  const typeName = strings(raw['type'])[0] ?? null;
  const entry = blankEntry(typeName);
  if (typeName === null) return settled(entry, 'MALFORMED', 'The status entry has no type.');
  const kind = entryKind(raw['type']);
  if (!kind)
    return settled(entry, 'UNSUPPORTED', `Status entries of type ${typeName} are not supported (only BitstringStatusListEntry and StatusList2021Entry).`);
  entry.statusType = kind.entryType;

  const { statusPurpose, statusListIndex, statusListCredential, statusSize } = raw;
  if (typeof statusPurpose === 'string') entry.purpose = statusPurpose;
  if (typeof statusListCredential === 'string') entry.listUrl = statusListCredential;
  const malformed = memberProblem(statusPurpose, statusListIndex, statusListCredential, statusSize);
  if (malformed) return settled(entry, 'MALFORMED', `The ${kind.entryType} ${malformed}.`);
  const indexText = statusListIndex as string;
  const index = Number(indexText);
  entry.index = Number.isSafeInteger(index) ? index : null;
  entry.statusSize = typeof statusSize === 'number' ? statusSize : 1;

  if (entry.statusSize !== 1) {
    return settled(
      entry,
      'UNSUPPORTED',
      `A statusSize of ${entry.statusSize} (multi-bit status messages) is not supported; only single-bit revocation and suspension are.`,
    );
  }
  if (statusPurpose !== 'revocation' && statusPurpose !== 'suspension') {
    return settled(entry, 'UNSUPPORTED', `The status purpose "${String(statusPurpose)}" is not supported; only revocation and suspension are.`);
  }
  return { kind, purpose: statusPurpose, indexText, index: entry.index, listUrl: statusListCredential as string, entry };
}

/** What is wrong with the entry's members, as the end of a sentence, or null. */
function memberProblem(purpose: JsonValue | undefined, index: JsonValue | undefined, url: JsonValue | undefined, size: JsonValue | undefined): string | null {
  if (typeof purpose !== 'string' || purpose.length === 0) return 'has no statusPurpose string';
  if (typeof index !== 'string') return 'has a statusListIndex that is not a string (it must be a base-10 integer written as a string)';
  if (!INDEX.test(index)) return `has a statusListIndex "${index}" that is not a base-10 integer`;
  if (typeof url !== 'string' || !isAbsoluteUrl(url)) return 'has no statusListCredential URL';
  if (size !== undefined && !(typeof size === 'number' && Number.isInteger(size) && size >= 1)) return 'has a statusSize that is not an integer of at least 1';
  return null;
}

function isAbsoluteUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Lists: fetch, parse, verify
// ---------------------------------------------------------------------------------------------

/** Thrown inside the list check of one entry: the entry is INDETERMINATE for `message`. */
class ListProblem extends Error {}

type LoadedList = { ok: true; credential: JsonObject; issuer: string | null } | { ok: false; reason: string };

/** Cancellation and the service's own limits (time, capacity) are no evidence about a list: they propagate. */
function rethrowIfOurs(err: unknown, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw err instanceof ProblemError ? err : cancelledProblem();
  if (err instanceof ProblemError && isServiceProblem(err)) throw err;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledProblem();
}

/** Fetches, parses and verifies the list at `url`; every failure becomes a reason. */
async function loadList(url: string, ctx: StatusCheckContext): Promise<LoadedList> {
  let response: FetchResponse;
  try {
    response = await new StageReporter(ctx.runtime.clock, ctx.hooks, ctx.runtime.telemetry).run(
      'status.fetch',
      `Fetch the status list ${url}`,
      async (stage) => {
        const fetched = await ctx.runtime.net.fetch({
          url,
          purpose: 'status list credential',
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
    return { ok: false, reason: `the status list ${url} could not be retrieved: ${clause(asProblemError(err).detail)}` };
  }
  throwIfAborted(ctx.signal);
  if (response.status !== 200) return { ok: false, reason: `the status list ${url} answered HTTP ${response.status}` };

  const parsed = parseListBody(response.body);
  if ('error' in parsed) return { ok: false, reason: `the status list ${url} is malformed: ${parsed.error}` };

  let verification: CredentialVerification;
  try {
    verification = await ctx.verifyList(parsed.input, ctx.signal);
  } catch (err) {
    rethrowIfOurs(err, ctx.signal);
    return { ok: false, reason: `the status list ${url} could not be verified: ${clause(asProblemError(err).detail)}` };
  }
  throwIfAborted(ctx.signal);
  if (verification.status !== 'VALID') {
    const why = clause(verification.errors[0] ?? verification.headline);
    return { ok: false, reason: `the status list credential ${url} did not verify (${verification.status}): ${why}` };
  }
  return { ok: true, credential: parsed.credential, issuer: parsed.issuer };
}

type ParsedBody = { input: JsonObject | string; credential: JsonObject; issuer: string | null } | { error: string };

/** A list body: a strict JSON object, or (not starting with `{`) a compact JWT. */
function parseListBody(body: Uint8Array): ParsedBody {
  const text = decodeUtf8(body);
  if (text?.trimStart().startsWith('{')) {
    const parsed = parseJsonBytes(body, 'the list credential');
    if ('error' in parsed) return parsed;
    if (!isJsonObject(parsed.value)) return { error: 'the list credential is not a JSON object' };
    return { input: parsed.value, credential: parsed.value, issuer: issuerId(parsed.value['issuer']) };
  }
  const jwt = text?.trim() ?? '';
  if (!COMPACT_JWS.test(jwt)) return { error: 'the body is neither a JSON object nor a compact JWT' };
  return parseJwtList(jwt);
}

/** The credential inside a list JWT: the `vc` claim (VC-JWT 1.1, issuer from `iss`) or the payload (vc+jwt). */
function parseJwtList(jwt: string): ParsedBody {
  const bytes = base64urlDecode(jwt.split('.')[1] ?? '');
  if (!bytes) return { error: 'the JWT payload is not base64url' };
  const parsed = parseJsonBytes(bytes, 'the JWT payload');
  if ('error' in parsed) return parsed;
  const payload = parsed.value;
  if (!isJsonObject(payload)) return { error: 'the JWT payload is not a JSON object' };
  const vc = payload['vc'];
  if (vc === undefined) return { input: jwt, credential: payload, issuer: issuerId(payload['issuer']) };
  if (!isJsonObject(vc)) return { error: 'the JWT vc claim is not a JSON object' };
  const iss = typeof payload['iss'] === 'string' ? payload['iss'] : null;
  return { input: jwt, credential: vc, issuer: issuerId(vc['issuer']) ?? iss };
}

// ---------------------------------------------------------------------------------------------
// Checking an entry against its list
// ---------------------------------------------------------------------------------------------

/** Types, context, purpose and issuer of the list for this entry; throws ListProblem. */
function checkListCredential(list: LoadedList & { ok: true }, candidate: Candidate, issuer: string | null): string {
  const { kind, purpose, listUrl } = candidate;
  const credential = list.credential;
  const fail = (why: string): never => {
    throw new ListProblem(`The status list ${listUrl} cannot be used: ${why}.`);
  };
  if (!strings(credential['type']).includes(kind.credentialType)) fail(`it is not a ${kind.credentialType}`);
  const contextProblem = kind.contextProblem(credential['@context']);
  if (contextProblem) fail(contextProblem);
  const subject = singleSubject(credential['credentialSubject']);
  if (!subject) return fail('it does not have exactly one credentialSubject object');
  if (!strings(subject['type']).includes(kind.subjectType)) fail(`its credentialSubject is not a ${kind.subjectType}`);
  const purposes = strings(subject['statusPurpose']);
  if (!purposes.includes(purpose)) {
    fail(
      `it is for ${purposes.length ? purposes.map((p) => `"${p}"`).join(', ') : 'no stated purpose'}, not "${purpose}" (purposes match exactly, case-sensitively)`,
    );
  }
  if (issuer === null) fail('the credential has no issuer to match the list issuer against');
  if (list.issuer !== issuer) fail(`it is issued by ${list.issuer ?? 'an unknown issuer'}, not by the credential's issuer ${issuer}`);
  const encoded = subject['encodedList'];
  return typeof encoded === 'string' ? encoded : fail('it has no encodedList string');
}

/** GZIP-compressed bytes of `encodedList` expanded under the 16 MiB bound; throws ListProblem. */
async function expandList(encoded: string, kind: ListKind, listUrl: string): Promise<Uint8Array> {
  const compressed = kind.decodeText(encoded);
  if (!compressed) {
    const form = kind === BITSTRING ? 'multibase base64url (prefix u, no padding)' : 'base64';
    throw new ListProblem(`The encodedList of ${listUrl} is not ${form}.`);
  }
  try {
    const bytes = await gunzipAsync(compressed, { maxOutputLength: MAX_STATUS_LIST_DECOMPRESSED });
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (err) {
    const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new ListProblem(`The encodedList of ${listUrl} decompresses to more than 16 MiB.`);
    throw new ListProblem(`The encodedList of ${listUrl} is not valid GZIP data.`);
  }
}

/** Reads the entry's bit from the expanded list. */
function readBit(candidate: Candidate, bits: Uint8Array): Checked {
  const { entry, purpose, listUrl } = candidate;
  const entries = bits.length * 8; // statusSize is 1
  entry.listLengthBits = entries;
  if (entries < MIN_STATUS_LIST_ENTRIES) {
    return settled(
      entry,
      'INDETERMINATE',
      `The status list ${listUrl} has ${entries} entries, fewer than the minimum of ${MIN_STATUS_LIST_ENTRIES} (STATUS_LIST_LENGTH_ERROR).`,
    );
  }
  const index = candidate.index;
  if (index === null || index >= entries) {
    return settled(entry, 'INDETERMINATE', `Index ${candidate.indexText} is outside the ${entries}-entry status list ${listUrl} (RANGE_ERROR).`);
  }
  const byte = bits[Math.floor(index / 8)] ?? 0;
  const offset = index % 8;
  entry.value = (byte >> (7 - offset)) & 1;
  entry.window = byte.toString(2).padStart(8, '0');
  entry.windowOffset = offset;
  const flagged = purpose === 'revocation' ? 'REVOKED' : 'SUSPENDED';
  const word = purpose === 'revocation' ? 'revoked' : 'suspended';
  return entry.value === 1
    ? settled(entry, flagged, `Index ${index} of the ${purpose} list ${listUrl} is 1: ${word}.`)
    : settled(entry, 'ACTIVE', `Index ${index} of the ${purpose} list ${listUrl} is 0: not ${word}.`);
}

/** Checks every candidate of one list URL; the list is expanded at most once per kind. */
async function checkAgainstList(candidates: Candidate[], list: LoadedList, issuer: string | null): Promise<Checked[]> {
  if (!list.ok) return candidates.map((c) => settled(c.entry, 'INDETERMINATE', `${capitalise(list.reason)}.`));
  const expanded = new Map<ListKind, Promise<Uint8Array>>();
  const results: Checked[] = [];
  for (const candidate of candidates) {
    candidate.entry.listCredentialVerified = true;
    try {
      const encoded = checkListCredential(list, candidate, issuer);
      let bits = expanded.get(candidate.kind);
      if (!bits) expanded.set(candidate.kind, (bits = expandList(encoded, candidate.kind, candidate.listUrl)));
      results.push(readBit(candidate, await bits));
    } catch (err) {
      if (!(err instanceof ListProblem)) throw err;
      results.push(settled(candidate.entry, 'INDETERMINATE', err.message));
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// The check
// ---------------------------------------------------------------------------------------------

/** The result for a credential without `credentialStatus` (nothing to fetch); null when it has one. */
export function withoutCredentialStatus(credential: JsonObject): StatusCheckResult | null {
  if (credential['credentialStatus'] !== undefined) return null;
  return { status: 'SKIP', detail: 'The credential has no credentialStatus.', implies: null, entries: [] };
}

export async function checkCredentialStatus(credential: JsonObject, issuer: string | null, ctx: StatusCheckContext): Promise<StatusCheckResult> {
  const none = withoutCredentialStatus(credential);
  if (none) return none;
  const raw = credential['credentialStatus'];
  const rawEntries = Array.isArray(raw) ? raw : [raw];
  if (rawEntries.length === 0) return { status: 'SKIP', detail: 'The credential has an empty credentialStatus list.', implies: null, entries: [] };
  if (rawEntries.length > MAX_STATUS_ENTRIES) {
    return {
      status: 'INDETERMINATE',
      detail: `The credential has ${rawEntries.length} status entries, more than the ${MAX_STATUS_ENTRIES} svc checks; none was checked, so its status is unknown.`,
      implies: 'INDETERMINATE',
      entries: [],
    };
  }

  const read = rawEntries.map(readEntry);
  const checked = new Map<StatusListEntry, Checked>();
  for (const r of read) if (!('kind' in r)) checked.set(r.entry, r);

  // Group candidates by list URL; fetch and verify every list at once, expand them one by one.
  const groups = new Map<string, Candidate[]>();
  for (const r of read) if ('kind' in r) groups.set(r.listUrl, [...(groups.get(r.listUrl) ?? []), r]);
  const loads = new Map([...groups.keys()].map((url) => [url, loadList(url, ctx)] as const));
  for (const pending of loads.values()) pending.catch(() => {}); // awaited below; no unhandled rejection if one fails first
  for (const [url, candidates] of groups) {
    const list = await loads.get(url)!;
    for (const c of await checkAgainstList(candidates, list, issuer)) checked.set(c.entry, c);
    throwIfAborted(ctx.signal);
  }

  const ordered = read.map((r) => checked.get(r.entry)!);
  return summarise(ordered);
}

const SEVERITY: readonly Outcome[] = ['MALFORMED', 'UNSUPPORTED', 'REVOKED', 'SUSPENDED', 'INDETERMINATE', 'ACTIVE'];

const CHECK_OF: Record<Outcome, CheckStatus> = {
  MALFORMED: 'FAIL',
  UNSUPPORTED: 'UNSUPPORTED',
  REVOKED: 'FAIL',
  SUSPENDED: 'FAIL',
  INDETERMINATE: 'INDETERMINATE',
  ACTIVE: 'PASS',
};

const LEADS: Record<Exclude<Outcome, 'ACTIVE'>, string> = {
  MALFORMED: 'A status entry is malformed',
  UNSUPPORTED: 'A status entry is not supported',
  REVOKED: 'The credential is revoked',
  SUSPENDED: 'The credential is suspended',
  INDETERMINATE: 'The status could not be determined',
};

/** The check result: the most severe entry decides; the detail names it and how many were checked. */
function summarise(checked: Checked[]): StatusCheckResult {
  const entries = checked.map((c) => c.entry);
  const rank = (c: Checked) => SEVERITY.indexOf(c.outcome);
  const deciding = checked.reduce((worst, c) => (rank(c) < rank(worst) ? c : worst));
  const position = checked.indexOf(deciding) + 1;
  const total = checked.length;
  const status = CHECK_OF[deciding.outcome];
  if (deciding.outcome === 'ACTIVE') {
    const detail = total === 1 ? `The status entry is active. ${deciding.entry.detail}` : `All ${total} status entries are active.`;
    return { status, detail, implies: null, entries };
  }
  const lead = LEADS[deciding.outcome];
  const which = total === 1 ? '' : ` (entry ${position} of ${total} decides)`;
  return { status, detail: `${lead}${which}. ${deciding.entry.detail}`, implies: deciding.outcome, entries };
}

// ---------------------------------------------------------------------------------------------
// Small readers
// ---------------------------------------------------------------------------------------------

/** A string, or the strings of an array; anything else gives []. */
function strings(value: JsonValue | undefined): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

function firstString(value: JsonValue | undefined): string | null {
  if (typeof value === 'string') return value;
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;
}

/** `issuer` as a string or `{id}`. */
function issuerId(value: JsonValue | undefined): string | null {
  if (typeof value === 'string') return value;
  return isJsonObject(value) && typeof value['id'] === 'string' ? value['id'] : null;
}

/** The credentialSubject when it is one object (or an array of exactly one). */
function singleSubject(value: JsonValue | undefined): JsonObject | null {
  const one = Array.isArray(value) && value.length === 1 ? value[0] : value;
  return isJsonObject(one) ? one : null;
}
