/**
 * Checks one proof of control against its challenge, through the Runtime only:
 *
 *   signature   a compact JWS of the challenge's exact payload, by a key of the DID listed under
 *               `authentication`, the DID resolved afresh (never from the cache: a key removed a
 *               minute ago must not still count)
 *   well-known  the token on a line of https://<host>/.well-known/svc-claim.txt, fetched under
 *               the egress policy (HTTPS, public or allowed addresses, at most 2 audited redirects)
 *   dns         the token as one of the TXT records at _svc-claim.<host>
 *
 * A refusal is a result (ProofCheck), with `definitive` telling a proof found absent or wrong
 * from one that could not be reached. Problems of the service itself — cancellation, capacity,
 * time limits — are no evidence about the proof: they are thrown, as everywhere in the core.
 */
import { didKeySource, didOf, type KeySource } from '../credentials/keys.js';
import { decodeUtf8, isJsonObject } from '../encoding/json.js';
import { ProblemError } from '../problems.js';
import { checkJwsSignature, isJwsParseError, parseCompactJws } from '../proofs/jws.js';
import { resolve } from '../resolve/resolve.js';
import type { Runtime } from '../runtime.js';
import type { ClaimChallenge, StoredClaim } from './store.js';
import { clause, plural, truncate } from '../text.js';
import { claimFileUrl, claimHostOf, claimPayload, claimRecordName, claimStatement, methodUnavailable } from './challenge.js';
import { CLAIM_FILE_MAX_BYTES, type ClaimRefusalCode, type ProofCheck } from './types.js';

export interface ProofOptions {
  runtime: Runtime;
  /** Cuts lookups and fetches off; a cancelled check throws cancelledProblem(). */
  signal?: AbortSignal;
  /**
   * Where the signer's keys come from. Default: the DID resolved through the core with the cache
   * bypassed. A caller that routes resolutions elsewhere (the daemon's capacity) must resolve
   * afresh too.
   */
  keySource?: KeySource;
}

export interface ProofSubmission {
  /** The compact JWS of a signature proof; ignored by the other methods. */
  jws?: string | null;
}

/** How much of a file a refusal quotes. */
const QUOTE_CHARS = 60;

function refuse(code: ClaimRefusalCode, reason: string, definitive: boolean): ProofCheck {
  return { ok: false, code, reason, definitive };
}

/**
 * Outside text quoted in a reason: at most QUOTE_CHARS characters, in JSON quotes, with control,
 * line-separator and bidirectional characters escaped — a reason stays one line and reads as it is.
 */
function quote(text: string): string {
  return JSON.stringify(truncate(text, QUOTE_CHARS)).replace(
    /[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The first sentence of a problem's detail, as a clause ("DNS lookup of x failed: …"). */
function firstClause(detail: string): string {
  const cut = /\.\s+(?=[A-Z])/.exec(detail);
  return clause(cut ? detail.slice(0, cut.index) : detail);
}

/** Problems a check turns into a refusal; anything else (cancellation, capacity, internal) propagates. */
function problemOf(err: unknown, signal: AbortSignal | undefined, codes: readonly string[]): ProblemError {
  if (err instanceof ProblemError && !signal?.aborted && codes.includes(err.code)) return err;
  throw err;
}

/**
 * Checks a proof for `challenge` (its DID, method, token and purpose; whether the challenge is
 * still usable is the store's business). For well-known and dns the DID must have a host
 * (methodUnavailable null), else RangeError: such a challenge is never created.
 */
export async function checkProof(challenge: ClaimChallenge, submission: ProofSubmission, options: ProofOptions): Promise<ProofCheck> {
  switch (challenge.method) {
    case 'signature':
      return checkSignature(challenge, submission.jws, options);
    case 'well-known':
      return checkWellKnown(challenge.did, challenge.token, options);
    case 'dns':
      return checkDns(challenge.did, challenge.token, options);
  }
}

/**
 * Looks again for the token a well-known or dns claim was proved with. A signature claim cannot
 * be re-checked — a signature is an act at one moment, not something still published — so it is
 * a RangeError (the store never hands one out as due).
 */
export async function recheckClaim(claim: StoredClaim, options: ProofOptions): Promise<ProofCheck> {
  switch (claim.method) {
    case 'signature':
      throw new RangeError('a signature claim cannot be re-checked');
    case 'well-known':
      return checkWellKnown(claim.did, claim.token, options);
    case 'dns':
      return checkDns(claim.did, claim.token, options);
  }
}

function hostFor(did: string, method: 'well-known' | 'dns') {
  const unavailable = methodUnavailable(did, method);
  const host = claimHostOf(did);
  if (unavailable !== null || host === null) throw new RangeError(`no ${method} proof for ${did}: ${unavailable ?? 'no host'}`);
  return host;
}

/** What a payload that is not the challenge's holds instead, for the refusal. */
function payloadMismatch(challenge: ClaimChallenge, payload: unknown): string {
  const lead = "the JWS payload is not the challenge's payload";
  if (payload instanceof Uint8Array || !isJsonObject(payload)) return `${lead} (it is not a JSON statement)`;
  const expected = claimStatement(challenge);
  if (payload['token'] !== expected.token) return `${lead}: it is for another challenge (its token differs)`;
  if (payload['did'] !== expected.did) return `${lead}: it names another DID`;
  for (const member of ['aud', 'purpose', 'iat', 'exp'] as const) {
    if (payload[member] !== expected[member]) return `${lead}: its "${member}" differs`;
  }
  return `${lead}: the statement is right but not in the exact form given; sign the payload characters as they are`;
}

async function checkSignature(challenge: ClaimChallenge, jws: string | null | undefined, options: ProofOptions): Promise<ProofCheck> {
  const { did } = challenge;
  if (typeof jws !== 'string' || jws.trim() === '') {
    return refuse('JWS_MISSING', 'no JWS was submitted; the signature method needs a compact JWS of the challenge payload', true);
  }
  const parsed = parseCompactJws(jws.trim());
  if (isJwsParseError(parsed)) return refuse(parsed.kind === 'UNSUPPORTED' ? 'JWS_UNSUPPORTED' : 'JWS_MALFORMED', parsed.error, true);

  // Both sides are canonical unpadded base64url (the parser refuses any other form), so equal
  // text is equal bytes.
  const payloadPart = jws.trim().split('.')[1];
  if (payloadPart !== claimPayload(challenge)) return refuse('PAYLOAD_MISMATCH', payloadMismatch(challenge, parsed.payload), true);

  // A kid is required: the challenge asks for one, and without it there is no key to look up
  // (guessing among the DID's keys would let a signature by any of them pass unnamed).
  const kid = parsed.header['kid'];
  if (kid === undefined) return refuse('JWS_MALFORMED', `the JWS header names no key ("kid"); it must name a key of ${did} listed under authentication`, true);
  if (typeof kid !== 'string') return refuse('JWS_MALFORMED', 'the JWS header parameter "kid" is not a string', true);
  const signer = didOf(kid);
  if (signer !== did) {
    const named = signer === null ? `the kid ${quote(kid)} is not a DID URL` : `the kid names a key of ${truncate(signer, 200)}`;
    return refuse('SIGNER_MISMATCH', `${named}, not a key of ${did}`, true);
  }
  if (kid === did) return refuse('KEY_NOT_FOUND', `the kid is the DID itself, not one of its keys; name the verification method (${did}#…)`, true);

  const source =
    options.keySource ??
    didKeySource(options.runtime, (target, signal) => resolve(target, options.runtime, signal ? { noCache: true, signal } : { noCache: true }));
  const found = await source.keysOf(did, options.signal);
  if (!found.ok) return refuse('DID_UNRESOLVED', found.reason, true);
  if (found.deactivated) return refuse('DID_DEACTIVATED', `${did} is deactivated; its keys prove nothing`, true);
  const key = found.keys.find((k) => k.id === kid);
  if (!key) return refuse('KEY_NOT_FOUND', `${truncate(kid, 300)} is not a verification method in the DID document of ${did}`, true);
  if (!key.relationships.includes('authentication')) {
    const listed = key.relationships.length > 0 ? `listed only under ${key.relationships.join(', ')}` : 'listed under no relationship';
    return refuse('KEY_NOT_AUTHENTICATION', `the key ${kid} is not listed under authentication (${listed})`, true);
  }
  if (key.status === 'INVALID_KEY') return refuse('SIGNATURE_INVALID', `the key ${kid} is invalid: ${clause(key.detail ?? 'no detail')}`, true);
  if (key.status === 'UNSUPPORTED_KEY' || !key.publicJwk) {
    return refuse('JWS_UNSUPPORTED', `the key ${kid} is not one svc can verify with: ${clause(key.detail ?? 'no public key svc can read')}`, true);
  }
  const check = checkJwsSignature(parsed, key.publicJwk);
  if (!check.valid) return refuse('SIGNATURE_INVALID', `${clause(check.reason)} (key ${kid})`, true);
  return { ok: true, subject: kid };
}

async function checkWellKnown(did: string, token: string, options: ProofOptions): Promise<ProofCheck> {
  const url = claimFileUrl(hostFor(did, 'well-known'));
  const { signal } = options;
  let response;
  try {
    response = await options.runtime.net.fetch({
      url,
      purpose: 'claim file',
      maxBytes: CLAIM_FILE_MAX_BYTES,
      accept: 'text/plain',
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    const problem = problemOf(err, signal, ['EGRESS_BLOCKED', 'UPSTREAM_UNAVAILABLE', 'PAYLOAD_TOO_LARGE']);
    const why = firstClause(problem.detail);
    if (problem.code === 'EGRESS_BLOCKED') return refuse('EGRESS_BLOCKED', `svc may not fetch ${url}: ${why}`, false);
    if (problem.code === 'PAYLOAD_TOO_LARGE') return refuse('FILE_TOO_LARGE', why, true);
    return refuse('HOST_UNREACHABLE', `${url} could not be fetched: ${why}`, false);
  }
  if (response.status === 404 || response.status === 410) {
    return refuse('FILE_NOT_FOUND', `${url} answered ${response.status} (${response.status === 404 ? 'not found' : 'gone'})`, true);
  }
  if (response.status !== 200) return refuse('FILE_UNAVAILABLE', `${url} answered ${response.status}, not 200`, false);
  const text = decodeUtf8(response.body);
  if (text === null) return refuse('TOKEN_MISMATCH', `${url} is not UTF-8 text`, true);
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.trim());
  if (lines.includes(token)) return { ok: true, subject: url };
  const content = lines.filter((line) => line !== '');
  if (content.length === 0) return refuse('TOKEN_MISMATCH', `${url} is empty`, true);
  const first = content.length === 1 ? `its one line is ${quote(content[0]!)}` : `its first of ${content.length} lines is ${quote(content[0]!)}`;
  return refuse('TOKEN_MISMATCH', `${url} has no line equal to the token (${first})`, true);
}

async function checkDns(did: string, token: string, options: ProofOptions): Promise<ProofCheck> {
  const name = claimRecordName(hostFor(did, 'dns'));
  let records: string[];
  try {
    records = await options.runtime.net.resolveTxt(name, options.signal);
  } catch (err) {
    const problem = problemOf(err, options.signal, ['UPSTREAM_UNAVAILABLE']);
    return refuse('DNS_UNAVAILABLE', firstClause(problem.detail), false);
  }
  if (records.length === 0) return refuse('RECORD_ABSENT', `${name} has no TXT record`, true);
  if (records.some((record) => record.trim() === token)) return { ok: true, subject: name };
  const some = records.length === 1 ? `its one TXT record is ${quote(records[0]!)}` : `none of its ${plural(records.length, 'TXT record')} is the token`;
  return refuse('TOKEN_MISMATCH', `${name} does not hold the token (${some})`, true);
}
