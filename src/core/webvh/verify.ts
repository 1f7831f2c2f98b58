/**
 * did:webvh log verification (spec §"Read (Resolve)"), v1.0 and v0.5, without I/O:
 *
 *   verifyLogEntries   every entry in order, none skipped: JSON, versionId numbering, entry
 *                      hash chain, SCID, versionTime, parameters, state.id and moves,
 *                      pre-rotation, eddsa-jcs-2022 proof by an active update key
 *   applyWitnesses     then, for entries that need witnessing, the did-witness.json proofs:
 *                      did:key body = fragment, one approval per witness, the governing list
 *                      (the previous one when a list changes), threshold
 *
 * Verification stops at the first failing entry: every later entry is UNVERIFIED (the chain
 * is broken there), but the versions before it stay valid and can still be selected.
 * Nothing here throws for a bad log; failures are data.
 *
 * One verifier serves both versions: each entry follows the rules of its `method`
 * (parameters.ts lists where v0.5 differs); an entry naming a version svc does not implement
 * stops verification there as `unsupported` (check "method"), not as a failure.
 *
 * A verified prefix can be resumed: when a log only grew, the new entries are verified from
 * the state after the last cached one (the spec allows this for state that was itself fully
 * verified).
 */
import { verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { CanonicalizationError, canonicalize, sha256, sha256Hex } from '../canonical.js';
import { base64urlEncode } from '../encoding/base64url.js';
import { isJsonObject, parseJsonText, type JsonObject, type JsonParse } from '../encoding/json.js';
import { ProblemError } from '../problems.js';
import { eddsaJcs2022SigningInput, PROOF_CLOCK_SKEW_SECONDS, readEddsaJcs2022Proof } from '../proofs/data-integrity.js';
import { parseDateTime } from '../proofs/datetime.js';
import { importPublicJwk } from '../proofs/signature.js';
import { computeEntryHash, computeScid, preRotationHash, webvhHashOfJcs } from './hash.js';
import { didWebvhLocation } from './location.js';
import { applyParameters, didKeyEd25519, unsupportedMethod, WEBVH_METHOD_V05, type WebvhParameters, type WitnessRule } from './parameters.js';
import type { WebvhCheck, WebvhEntryEvidence, WebvhWitnessFileEvidence } from './types.js';

/** How far ahead of the resolver's clock a versionTime may be (spec: SHOULD be ≤ 5 minutes). */
export const VERSION_TIME_TOLERANCE_MS = 5 * 60 * 1000;

/** Most proofs one entry, or one witness-file item, may carry. */
const MAX_PROOFS = 16;

const ENTRY_MEMBERS: ReadonlySet<string> = new Set(['versionId', 'versionTime', 'parameters', 'state', 'proof']);
const VERSION_ID = /^([1-9][0-9]{0,8})-([1-9A-HJ-NP-Za-km-z]+)$/;
/** UTC only: `Z` or `+00:00` (spec §"Read", step 4). */
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00)$/;

export interface VerifiedVersion {
  versionNumber: number;
  versionId: string;
  versionTime: string;
  timeMs: number;
  document: Record<string, unknown> & { id: string };
  /** Parameters active after this entry. */
  parameters: WebvhParameters;
  /** The earliest `expires` of the entry's proofs (ms), when one has it: a resumed prefix is re-verified past it. */
  proofsExpireMs?: number;
  /** The witness rule this entry must satisfy; null when unwitnessed. */
  witnessRule: WitnessRule | null;
}

/** Verified state after some leading entries: enough to resume on a log that grew. */
export interface VerifiedPrefix {
  did: string;
  /** UTF-8 length and SHA-256 of the text of the verified lines (newlines included). */
  textLength: number;
  textSha256: string;
  versions: VerifiedVersion[];
  entries: WebvhEntryEvidence[];
}

export interface EntryFailure {
  versionNumber: number;
  check: WebvhCheck;
  reason: string;
  /** Check "method": the version of the specification the entry names, which svc does not implement. */
  unsupportedMethod?: string;
}

export interface EntryVerification {
  did: string;
  scid: string;
  /** Entries that passed every non-witness check, in order. */
  versions: VerifiedVersion[];
  entries: WebvhEntryEvidence[];
  failure: EntryFailure | null;
  /** versionId as written of every line (null where unreadable), for selecting broken versions. */
  writtenVersionIds: Array<string | null>;
  /** Leading entries taken from `resume`. */
  reusedEntries: number;
  /** State to resume from on the next verification (the non-witness verified prefix). */
  prefix: VerifiedPrefix;
}

export interface LogVerification extends EntryVerification {
  /** Entries that also met their witness threshold: the valid versions. */
  valid: VerifiedVersion[];
  witness: WebvhWitnessFileEvidence;
}

/* ------------------------------------------------------------------ keys */

const keyObjects = new Map<string, KeyObject | null>();

/** node:crypto key of an Ed25519 multikey (memoised; null when it is not one). */
function ed25519Key(multikey: string): KeyObject | null {
  let key = keyObjects.get(multikey);
  if (key !== undefined) return key;
  const decoded = didKeyEd25519(`did:key:${multikey}`);
  const imported = typeof decoded === 'string' ? null : importPublicJwk({ kty: 'OKP', crv: 'Ed25519', x: base64urlEncode(decoded.publicKey) });
  key = imported !== null && typeof imported !== 'string' ? imported : null;
  if (keyObjects.size >= 4096) keyObjects.clear();
  keyObjects.set(multikey, key);
  return key;
}

/** Ed25519 verification on libuv's thread pool, so signatures are checked while the next entries are parsed and hashed. */
function verifyOnPool(data: Uint8Array, key: KeyObject, signature: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      cryptoVerify(null, data, key, signature, (err, ok) => resolve(!err && ok));
    } catch {
      resolve(false);
    }
  });
}

/** A proof whose own checks passed, its signature check under way. */
interface PendingProof {
  multikey: string;
  /** Resolves to the reason the signature fails, or null when it verifies. */
  verdict: Promise<string | null>;
}

/**
 * Checks one eddsa-jcs-2022 proof (vc-di-eddsa §3.3.2) by an Ed25519 multikey: the proof's own
 * checks (suite, purpose, did:key body = fragment, key in `allowed`) at once, and the signature
 * over SHA-256(JCS(proof config)) ‖ SHA-256(JCS(document without proof)) started on the thread
 * pool. `documentHash` is the latter, computed once per document by the caller.
 */
function checkProof(proof: unknown, documentHash: Uint8Array, allowed: (multikey: string) => string | null, nowMs: number): PendingProof | { reason: string } {
  const read = readEddsaJcs2022Proof(proof, nowMs, 'did:webvh (v0.5 and v1.0) allows only eddsa-jcs-2022', VERSION_TIME_TOLERANCE_MS);
  if ('status' in read) return { reason: read.reason };
  const { config } = read;
  if (config['proofPurpose'] !== 'assertionMethod') return { reason: `the proof's purpose is ${JSON.stringify(config['proofPurpose'])}, not assertionMethod` };
  const vm = config['verificationMethod'];
  if (typeof vm !== 'string') return { reason: 'the proof has no string "verificationMethod"' };
  const match = /^did:key:([^#]+)#(.+)$/.exec(vm);
  if (!match) return { reason: `the verification method ${vm} is not of the form did:key:<key>#<key>` };
  const [, body, fragment] = match as unknown as [string, string, string];
  if (body !== fragment) return { reason: `the verification method ${vm} names one key in its body and another in its fragment` };
  const refused = allowed(body);
  if (refused) return { reason: refused };
  const key = ed25519Key(body);
  if (!key) return { reason: `${body} is not an Ed25519 multikey` };
  const data = eddsaJcs2022SigningInput(config, documentHash);
  if (data === null) return { reason: 'the proof has no JSON (RFC 8785) serialisation' };
  const verdict = verifyOnPool(data, key, read.signature).then((ok) => (ok ? null : `the Ed25519 signature by ${body} does not verify`));
  return { multikey: body, verdict };
}

function proofList(value: unknown): unknown[] | string {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  if (list.length === 0) return 'the entry has no proof';
  if (list.length > MAX_PROOFS) return `the entry carries ${list.length} proofs; at most ${MAX_PROOFS} are verified`;
  return list;
}

/* --------------------------------------------------------------- entries */

interface Cursor {
  previous: VerifiedVersion | null;
}

/** Evidence of an entry that did not verify: only its number, versionId and time are named. */
function unverifiedEvidence(versionNumber: number, versionId: string | null, versionTime: string | null): WebvhEntryEvidence {
  return {
    versionId,
    versionNumber,
    versionTime,
    status: 'UNVERIFIED',
    check: null,
    reason: null,
    documentId: null,
    method: null,
    signedBy: null,
    changes: [],
    updateKeys: [],
    preRotation: false,
    witness: null,
    deactivated: false,
  };
}

function failEntry(
  versionNumber: number,
  versionId: string | null,
  versionTime: string | null,
  check: WebvhCheck,
  reason: string,
): { failure: EntryFailure; evidence: WebvhEntryEvidence } {
  return {
    failure: { versionNumber, check, reason },
    evidence: { ...unverifiedEvidence(versionNumber, versionId, versionTime), status: 'FAILED', check, reason },
  };
}

type EntryOutcome =
  | {
      version: VerifiedVersion;
      /** The first failing signature's reason, or null: settles after the entry's other checks. */
      signatures: Promise<string | null>;
      evidence: WebvhEntryEvidence;
    }
  | { failure: EntryFailure; evidence: WebvhEntryEvidence };

/**
 * An entry of a version svc does not implement: verification stops before it, and it is
 * UNVERIFIED (nothing says it is wrong), with the version named.
 */
function unsupportedEntry(
  n: number,
  versionId: string | null,
  versionTime: string | null,
  method: string,
  reason: string,
): { failure: EntryFailure; evidence: WebvhEntryEvidence } {
  return {
    failure: { versionNumber: n, check: 'method', reason, unsupportedMethod: method },
    evidence: { ...unverifiedEvidence(n, versionId, versionTime), check: 'method', reason },
  };
}

/** The RFC 8785 text of a parsed entry, or why it has none (never for the strict parser's output). */
function jcsOf(value: JsonObject): string | CanonicalizationError {
  try {
    return canonicalize(value);
  } catch (err) {
    if (err instanceof CanonicalizationError) return err;
    throw err;
  }
}

function verifyEntry(line: string, n: number, cursor: Cursor, scid: string, nowMs: number): EntryOutcome {
  const previous = cursor.previous;
  const parsed = parseJsonText(line, `entry ${n}`);
  if ('error' in parsed) return failEntry(n, null, null, 'json', line.trim() === '' ? `entry ${n} is an empty line` : parsed.error);
  const entry = parsed.value;
  if (Array.isArray(entry) && entry.some((item) => isJsonObject(item) && typeof item['method'] === 'string')) {
    // did:tdw before v0.4 wrote each entry as a JSON array [versionId, time, parameters, state, proof].
    const method = String((entry.find((item) => isJsonObject(item) && typeof item['method'] === 'string') as JsonObject)['method']);
    return unsupportedEntry(
      n,
      null,
      null,
      method,
      `entry ${n} is a JSON array, the log format of did:tdw before v0.4 (method ${JSON.stringify(method)}), which svc does not implement`,
    );
  }
  if (!isJsonObject(entry)) return failEntry(n, null, null, 'json', `entry ${n} is not a JSON object`);
  const versionId = typeof entry['versionId'] === 'string' ? entry['versionId'] : null;
  const versionTime = typeof entry['versionTime'] === 'string' ? entry['versionTime'] : null;
  const fail = (check: WebvhCheck, reason: string) => failEntry(n, versionId, versionTime, check, reason);

  const extra = Object.keys(entry).find((k) => !ENTRY_MEMBERS.has(k));
  if (extra) return fail('structure', `entry ${n} has the member "${extra}", which a log entry does not define`);
  if (versionId === null) return fail('structure', `entry ${n} has no string "versionId"`);
  if (versionTime === null) return fail('structure', `entry ${n} has no string "versionTime"`);
  if (!isJsonObject(entry['state'])) return fail('structure', `entry ${n} has no "state" object`);
  if (!isJsonObject(entry['parameters'])) return fail('structure', `entry ${n} has no "parameters" object`);
  // A DID deactivated under a version svc knows takes no entry, whatever version it names.
  if (previous?.parameters.deactivated) {
    return fail('deactivated', `entry ${n} follows the deactivation in version ${previous.versionNumber}; a deactivated DID takes no further entries`);
  }
  // A version svc does not implement may hash, sign or name things differently: it is recognised
  // before anything is checked by the rules svc knows.
  const named = unsupportedMethod((entry['parameters'] as Record<string, unknown>)['method']);
  if (named !== null) {
    return unsupportedEntry(n, versionId, versionTime, named, `entry ${n} follows ${named}, a version of the did:webvh specification svc does not implement`);
  }

  // A log for another DID (SCID) is named as such before anything is hashed.
  if (previous === null && (entry['parameters'] as Record<string, unknown>)['scid'] !== scid) {
    return fail('scid', `the log is for the SCID ${String((entry['parameters'] as Record<string, unknown>)['scid'])}, not ${scid}`);
  }

  // versionId: "<n>-<entryHash>", numbered without gaps, hash chained to the previous entry.
  const id = VERSION_ID.exec(versionId);
  if (!id) return fail('versionId', `the versionId "${versionId}" is not "<number>-<entry hash>"`);
  if (Number(id[1]) !== n) return fail('versionId', `entry ${n} is numbered ${id[1]}; version numbers start at 1 and go up by one`);
  // One JCS serialisation serves both the entry hash and the proof: the entry's members are
  // exactly parameters, state, versionId, versionTime (+ proof, removed), so in JCS order the
  // text ends with versionId and versionTime, and the entry-hash input differs from the signed
  // document only in that versionId.
  const { proof: _proof, ...unsecured } = entry;
  const unsecuredJcs = jcsOf(unsecured);
  if (unsecuredJcs instanceof CanonicalizationError) return fail('json', `entry ${n} has no RFC 8785 form: ${unsecuredJcs.reason}`);
  const tail = `,"versionTime":${JSON.stringify(versionTime)}}`;
  const written = `,"versionId":${JSON.stringify(versionId)}${tail}`;
  const chainedFrom = previous?.versionId ?? scid;
  const entryHash = unsecuredJcs.endsWith(written)
    ? webvhHashOfJcs(`${unsecuredJcs.slice(0, -written.length)},"versionId":${JSON.stringify(chainedFrom)}${tail}`)
    : computeEntryHash(entry, chainedFrom);
  if (entryHash !== id[2])
    return fail('entryHash', `the entry hash of ${versionId} does not match its content and the previous versionId (expected ${entryHash})`);

  // Parameters (and, in the first entry, the SCID they commit to).
  const params = applyParameters(entry['parameters'], previous?.parameters ?? null);
  if (!params.ok) return fail('parameters', params.reason);
  const active = params.active;
  const v05 = active.method === WEBVH_METHOD_V05;
  if (previous === null) {
    const computed = computeScid(entry, scid);
    if (computed !== scid) return fail('scid', `the first entry does not hash to its SCID ${scid} (it hashes to ${computed})`);
  }

  // versionTime: UTC, strictly after the previous entry, not in the future beyond tolerance.
  const time = UTC_TIME.test(versionTime) ? parseDateTime(versionTime) : null;
  if (time === null) return fail('versionTime', `the versionTime "${versionTime}" is not a UTC date-time (Z or +00:00)`);
  const timeMs = time.getTime();
  if (previous && timeMs <= previous.timeMs) {
    return fail('versionTime', `the versionTime ${versionTime} is not after that of version ${previous.versionNumber} (${previous.versionTime})`);
  }
  if (timeMs > nowMs + VERSION_TIME_TOLERANCE_MS) return fail('versionTime', `the versionTime ${versionTime} is in the future`);

  // state.id: a did:webvh with this SCID; a change of location only for a portable DID.
  const state = entry['state'] as Record<string, unknown>;
  const docId = state['id'];
  if (typeof docId !== 'string') return fail('stateId', `the state of entry ${n} has no string "id"`);
  if (docId !== previous?.document.id) {
    if (!docId.startsWith('did:webvh:')) return fail('stateId', `the state id ${docId} is not a did:webvh`);
    try {
      const location = didWebvhLocation(docId.slice('did:webvh:'.length));
      if (location.scid !== scid) return fail('stateId', `the state id ${docId} carries the SCID ${location.scid}, not ${scid}`);
    } catch (err) {
      return fail('stateId', `the state id ${docId} is not a valid did:webvh (${err instanceof ProblemError ? err.detail : 'unparseable'})`);
    }
    if (previous) {
      if (!active.portable) return fail('stateId', `the DID moves from ${previous.document.id} to ${docId}, but it is not portable`);
      const aka = state['alsoKnownAs'];
      if (!Array.isArray(aka) || !aka.includes(previous.document.id)) {
        return fail('stateId', `the DID moves to ${docId} without listing ${previous.document.id} in alsoKnownAs`);
      }
    }
  }

  // Pre-rotation: active when the previous entry committed to next keys.
  const preRotation = previous !== null && previous.parameters.nextKeyHashes.length > 0;
  if (preRotation) {
    const raw = entry['parameters'] as Record<string, unknown>;
    if (!Array.isArray(raw['updateKeys'])) return fail('preRotation', `pre-rotation is active, so entry ${n} must state its updateKeys`);
    const committed = new Set(previous.parameters.nextKeyHashes);
    const uncommitted = active.updateKeys.find((k) => !committed.has(preRotationHash(k)));
    if (uncommitted) return fail('preRotation', `the update key ${uncommitted} is not among the nextKeyHashes of version ${previous.versionNumber}`);
    // v0.5 (pre-rotation, step 4): the entry must carry its own nextKeyHashes (null ends pre-rotation).
    if (v05 && !('nextKeyHashes' in raw)) return fail('preRotation', `pre-rotation is active, so entry ${n} must state its nextKeyHashes (v0.5)`);
  }

  // Proof: eddsa-jcs-2022 by a key of the active updateKeys.
  const authorised = previous === null || preRotation ? active.updateKeys : previous.parameters.updateKeys;
  const proofs = proofList(entry['proof']);
  if (typeof proofs === 'string') return fail('proof', proofs);
  const documentHash = sha256(unsecuredJcs);
  const allowed = (multikey: string) => (authorised.includes(multikey) ? null : `${multikey} is not an active update key of entry ${n}`);
  let signedBy: string | null = null;
  const signatures: Array<Promise<string | null>> = [];
  const label = (i: number, reason: string) => (proofs.length > 1 ? `proof ${i + 1}: ${reason}` : reason);
  let proofsExpireMs: number | undefined;
  for (let i = 0; i < proofs.length; i++) {
    const checked = checkProof(proofs[i], documentHash, allowed, nowMs);
    if ('reason' in checked) return fail('proof', label(i, checked.reason));
    // checkProof read `expires` as a dateTimeStamp already: this parse succeeds when it is there.
    const expires = (proofs[i] as Record<string, unknown>)['expires'];
    const expiresMs = typeof expires === 'string' ? parseDateTime(expires)?.getTime() : undefined;
    if (expiresMs !== undefined && (proofsExpireMs === undefined || expiresMs < proofsExpireMs)) proofsExpireMs = expiresMs;
    signedBy ??= checked.multikey;
    signatures.push(checked.verdict.then((reason) => (reason === null ? null : label(i, reason))));
  }

  const previousRule = previous?.parameters.witness ?? null;
  const version: VerifiedVersion = {
    versionNumber: n,
    versionId,
    versionTime,
    timeMs,
    document: state as VerifiedVersion['document'],
    parameters: active,
    ...(proofsExpireMs !== undefined ? { proofsExpireMs } : {}),
    // A list takes effect after its entry, except in the first entry and (v1.0) when witnessing
    // starts: the new list then governs its own entry. A change (or removal) is governed by the
    // previous list. v0.5: every later list takes effect after its entry, a first one too.
    witnessRule: previous === null ? active.witness : v05 ? previousRule : (previousRule ?? active.witness),
  };
  return {
    version,
    signatures: Promise.all(signatures).then((reasons) => reasons.find((r) => r !== null) ?? null),
    evidence: {
      versionId,
      versionNumber: n,
      versionTime,
      status: 'VERIFIED',
      check: null,
      reason: null,
      documentId: docId,
      method: active.method,
      signedBy,
      changes: n === 1 ? ['created'] : params.changes,
      updateKeys: active.updateKeys,
      preRotation: active.nextKeyHashes.length > 0,
      witness: version.witnessRule ? { threshold: version.witnessRule.threshold, approvals: 0 } : null,
      deactivated: active.deactivated,
    },
  };
}

function unverified(n: number, line: string): WebvhEntryEvidence {
  // Best effort to name the entry; nothing in it is trusted.
  const parsed = parseJsonText(line, 'entry');
  const entry = 'value' in parsed && isJsonObject(parsed.value) ? parsed.value : {};
  const text = (name: string) => (typeof entry[name] === 'string' ? (entry[name] as string) : null);
  return unverifiedEvidence(n, text('versionId'), text('versionTime'));
}

/** Splits JSON Lines text; a final newline ends the last line rather than starting an empty one. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Verifies every entry of a did:webvh log for `did` (whose SCID is `scid`) as of `nowMs`,
 * resuming after `resume` when the log starts with exactly the text it verified.
 *
 * Entries are checked in order; each entry's signatures are verified on the thread pool while
 * the following entries are read, so the first failure is settled once all are in: the earliest
 * of the first entry that failed a check and the first entry whose signature does not verify.
 */
export async function verifyLogEntries(did: string, scid: string, text: string, nowMs: number, resume?: VerifiedPrefix): Promise<EntryVerification> {
  const lines = splitLines(text);
  const ends: number[] = [];
  let end = 0;
  for (const line of lines) ends.push((end += line.length + 1));

  let versions: VerifiedVersion[] = [];
  let entries: WebvhEntryEvidence[] = [];
  let start = 0;
  // A prefix is resumed only while every proof in it is still within its window: past an
  // `expires`, the log is verified from the start again (and fails where the proof expired).
  const skewMs = PROOF_CLOCK_SKEW_SECONDS * 1000;
  const stillValid = (v: VerifiedVersion) => v.proofsExpireMs === undefined || v.proofsExpireMs + skewMs > nowMs;
  if (
    resume &&
    resume.did === did &&
    resume.textLength <= text.length &&
    resume.versions.every(stillValid) &&
    sha256Hex(text.slice(0, resume.textLength)) === resume.textSha256
  ) {
    versions = resume.versions.slice();
    entries = resume.entries.slice();
    start = versions.length;
  }
  const reusedEntries = start;
  const cursor: Cursor = { previous: versions[versions.length - 1] ?? null };
  let failure: EntryFailure | null = null;
  const signatures: Array<Promise<string | null>> = [];
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    if (failure) {
      entries.push(unverified(i + 1, line));
      continue;
    }
    const outcome = verifyEntry(line, i + 1, cursor, scid, nowMs);
    entries.push(outcome.evidence);
    if ('failure' in outcome) {
      failure = outcome.failure;
      continue;
    }
    versions.push(outcome.version);
    signatures.push(outcome.signatures);
    cursor.previous = outcome.version;
  }

  // The first entry whose signature does not verify ends the log there, before any later failure.
  const verdicts = await Promise.all(signatures);
  const bad = verdicts.findIndex((reason) => reason !== null);
  if (bad >= 0) {
    const index = start + bad;
    const broken = entries[index]!;
    const reason = verdicts[bad]!;
    failure = { versionNumber: index + 1, check: 'proof', reason };
    entries[index] = failEntry(index + 1, broken.versionId, broken.versionTime, 'proof', reason).evidence;
    for (let j = index + 1; j < entries.length; j++) entries[j] = unverified(j + 1, lines[j]!);
    versions = versions.slice(0, index);
  }

  // The prefix to resume from ends at the line boundary after the last verified entry.
  const prefixLength = versions.length === 0 ? 0 : Math.min(ends[versions.length - 1]!, text.length);
  return {
    did,
    scid,
    versions,
    entries,
    failure,
    writtenVersionIds: entries.map((e) => e.versionId),
    reusedEntries,
    prefix: {
      did,
      textLength: prefixLength,
      textSha256: sha256Hex(text.slice(0, prefixLength)),
      versions,
      entries: entries.slice(0, versions.length),
    },
  };
}

/** True when some verified entry must be witnessed (the witness file is then needed). */
export function needsWitnesses(verification: EntryVerification): boolean {
  return verification.versions.some((v) => v.witnessRule !== null);
}

/* ------------------------------------------------------------- witnesses */

/** The witness file as fetched (null: not published, e.g. HTTP 404). */
export interface WitnessFileInput {
  /** The file read as strict JSON, or why it could not be. */
  parsed: JsonParse;
  evidence: Omit<WebvhWitnessFileEvidence, 'status' | 'acceptedProofs' | 'discarded' | 'reason'>;
}

const MAX_DISCARDED_REPORTED = 32;

/**
 * Checks the witness approvals of every verified entry that needs them. A proof for version k
 * approves k and every earlier entry; each witness counts once per entry; only proofs for
 * versionIds of verified entries count. The first entry short of its threshold fails, and it
 * and everything after it are no longer valid.
 */
export async function applyWitnesses(
  verification: EntryVerification,
  file: WitnessFileInput | null,
  witnessUrl: string,
  nowMs: number,
): Promise<LogVerification> {
  const required = needsWitnesses(verification);
  const discarded: WebvhWitnessFileEvidence['discarded'] = [];
  let acceptedProofs = 0;
  const base = file?.evidence ?? { url: witnessUrl, httpStatus: null, contentType: null, bytes: null, sha256: null };
  let status: WebvhWitnessFileEvidence['status'] = !required ? 'NOT_REQUIRED' : file === null ? 'NOT_PUBLISHED' : 'FOUND';
  let reason: string | null = null;

  /** Highest verified version each witness approved. */
  const approvedThrough = new Map<string, number>();
  if (required && file !== null) {
    const items = 'value' in file.parsed && Array.isArray(file.parsed.value) ? file.parsed.value : null;
    if (items === null) {
      status = 'INVALID';
      reason = 'error' in file.parsed ? file.parsed.error : 'the witness file is not a JSON array';
    } else {
      const byVersionId = new Map(verification.versions.map((v) => [v.versionId, v]));
      const listed = new Set(verification.versions.flatMap((v) => v.witnessRule?.witnesses ?? []));
      // Every proof in file order: refused at once, or a signature check under way. Verdicts are
      // read in the same order, so a witness counts once per versionId, with its first good proof.
      const records: Array<{ versionId: string | null; vm: string | null; reason?: string; pending?: PendingProof; version?: VerifiedVersion }> = [];
      for (const item of items) {
        if (!isJsonObject(item) || typeof item['versionId'] !== 'string' || !Array.isArray(item['proof'])) {
          records.push({ versionId: null, vm: null, reason: 'an item is not {versionId, proof: [...]}' });
          continue;
        }
        const versionId = item['versionId'];
        const version = byVersionId.get(versionId);
        if (!version) {
          const written = verification.writtenVersionIds.includes(versionId);
          records.push({ versionId, vm: null, reason: written ? 'the versionId is of an entry that did not verify' : 'the versionId is not in the log' });
          continue;
        }
        const proofs = item['proof'].slice(0, MAX_PROOFS);
        if (item['proof'].length > MAX_PROOFS) records.push({ versionId, vm: null, reason: `only the first ${MAX_PROOFS} proofs of an item are read` });
        const documentHash = sha256(canonicalize({ versionId }));
        for (const proof of proofs) {
          const vm = isJsonObject(proof) && typeof proof['verificationMethod'] === 'string' ? proof['verificationMethod'] : null;
          const checked = checkProof(
            proof,
            documentHash,
            (multikey) => (listed.has(`did:key:${multikey}`) ? null : `did:key:${multikey} is not a listed witness`),
            nowMs,
          );
          records.push('reason' in checked ? { versionId, vm, reason: checked.reason } : { versionId, vm, pending: checked, version });
        }
      }
      const verdicts = await Promise.all(records.map((r) => r.pending?.verdict ?? null));
      const seen = new Set<string>();
      records.forEach((record, i) => {
        const discard = (why: string) => {
          if (discarded.length < MAX_DISCARDED_REPORTED) discarded.push({ versionId: record.versionId, verificationMethod: record.vm, reason: why });
        };
        if (record.reason !== undefined) return discard(record.reason);
        const witness = `did:key:${record.pending!.multikey}`;
        if (verdicts[i]) return discard(verdicts[i]!);
        if (seen.has(`${witness} ${record.versionId}`)) return discard(`${witness} already approved ${record.versionId}`);
        seen.add(`${witness} ${record.versionId}`);
        acceptedProofs++;
        approvedThrough.set(witness, Math.max(approvedThrough.get(witness) ?? 0, record.version!.versionNumber));
      });
    }
  }

  const entries = verification.entries.slice();
  let valid = verification.versions;
  let failure = verification.failure;
  for (const version of verification.versions) {
    const rule = version.witnessRule;
    if (!rule) continue;
    const n = version.versionNumber;
    // v0.5 weighs each witness; v1.0 counts each once.
    const approvals = rule.witnesses.reduce((sum, w, i) => sum + ((approvedThrough.get(w) ?? 0) >= n ? (rule.weights?.[i] ?? 1) : 0), 0);
    const index = n - 1;
    entries[index] = { ...entries[index]!, witness: { threshold: rule.threshold, approvals } };
    if (approvals < rule.threshold) {
      const why =
        status === 'NOT_PUBLISHED'
          ? `version ${n} needs ${rule.threshold} witness approval${rule.threshold === 1 ? '' : 's'}, and no witness file is published`
          : status === 'INVALID'
            ? `version ${n} needs ${rule.threshold} witness approval${rule.threshold === 1 ? '' : 's'}, and the witness file is unreadable (${reason})`
            : `version ${n} has ${approvals} of the ${rule.threshold} witness approval${rule.threshold === 1 ? '' : 's'} it needs`;
      failure = { versionNumber: n, check: 'witness', reason: why };
      entries[index] = { ...entries[index]!, status: 'FAILED', check: 'witness', reason: why };
      for (let j = index + 1; j < entries.length; j++) {
        const e = entries[j]!;
        entries[j] = { ...e, status: 'UNVERIFIED', check: null, reason: null, witness: null };
      }
      valid = verification.versions.slice(0, index);
      break;
    }
  }

  return {
    ...verification,
    entries,
    failure,
    valid,
    witness: { ...base, status, acceptedProofs, discarded, reason },
  };
}

/* ----------------------------------------------------------- convenience */

export interface VerifyWebvhLogOptions {
  /** did-witness.json text; absent means not published. */
  witnessText?: string;
  now: Date;
  resume?: VerifiedPrefix;
}

/**
 * Verifies a did:webvh log given as text (no I/O): the entries, then the witness proofs.
 * Throws INVALID_DID when `did` is not a did:webvh.
 */
export async function verifyWebvhLog(did: string, logText: string, options: VerifyWebvhLogOptions): Promise<LogVerification> {
  if (!did.startsWith('did:webvh:')) throw new ProblemError('INVALID_DID', `${did} is not a did:webvh.`);
  const location = didWebvhLocation(did.slice('did:webvh:'.length));
  const entries = await verifyLogEntries(did, location.scid, logText, options.now.getTime(), options.resume);
  let file: WitnessFileInput | null = null;
  if (options.witnessText !== undefined) {
    file = {
      parsed: parseJsonText(options.witnessText, 'the witness file'),
      evidence: { url: location.witnessUrl, httpStatus: null, contentType: null, bytes: options.witnessText.length, sha256: sha256Hex(options.witnessText) },
    };
  }
  return applyWitnesses(entries, file, location.witnessUrl, options.now.getTime());
}
