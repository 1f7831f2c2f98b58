/**
 * Kept did:webvh logs (docs/history.md#kept-didwebvh-logs): what the did:webvh specification's
 * watchers do, for every log svc verifies with a store. The verified entries are kept as the
 * host published them; each later log is compared with them before it is served. A did:webvh
 * log may only grow: a log that does not extend the kept one — an entry changed, removed or
 * reordered — was rewritten, and that is evidence in its own right (the history dimension
 * FAILS, naming the first diverging versionId and both entry hashes). The kept log is never
 * replaced by a rewritten one, so every later resolution of the rewritten log fails again.
 *
 * Bound: a kept log holds at most KEPT_LOG_MAX_ENTRIES entries and KEPT_LOG_MAX_BYTES bytes
 * of lines (the default bounds of a log svc reads at all: core/webvh/limits.ts), plus its
 * witness file (at most 1 MiB, as read). Entries past the bound are neither kept nor compared:
 * a rewrite there goes unseen (evidence says `atBound`). A comparison reads the kept entries'
 * hashes, never their text, and hashes at most as many served lines as are kept.
 *
 * Entry identity: the line's SHA-256 first (cheap), then the SHA-256 of the entry's RFC 8785
 * form, proof included — a reformatted line is the same entry, a re-signed one is not.
 */
import { canonicalize, sha256Hex } from '../canonical.js';
import { parseDid } from '../did/syntax.js';
import { ProblemError } from '../problems.js';
import type { Runtime } from '../runtime.js';
import { rfc3339 } from '../runtime.js';
import { DEFAULT_WEBVH_MAX_BYTES, DEFAULT_WEBVH_MAX_ENTRIES } from './limits.js';
import type { KeptLog, KeptLogStore, NewKeptLogEntry } from './store.js';
import type { KeptLogEvidence, LogRewrite, RewriteSide, WebvhEntryEvidence } from './types.js';

/** Most entries a kept log holds. */
export const KEPT_LOG_MAX_ENTRIES = DEFAULT_WEBVH_MAX_ENTRIES;
/** Most bytes (UTF-8, lines without newlines) a kept log holds: 4 MiB. */
export const KEPT_LOG_MAX_BYTES = DEFAULT_WEBVH_MAX_BYTES;
/**
 * Most DIDs a store keeps a log of: anyone may ask a public daemon to resolve a did:webvh, so the
 * logs are bounded in number too (worst case 10,000 × 4 MiB; real logs are a few KiB). A DID past
 * it is neither kept nor compared (NOT_COMPARED, saying why).
 */
export const KEPT_LOG_MAX_DIDS = 10_000;

/** The limitations a resolution states about the kept log (resolve/verdict.ts). */
export const KEPT_LOG_LIMITATIONS = {
  noStore:
    'No store: the log was not compared with one svc kept from earlier verifications, so a rewritten history (an entry changed, removed or reordered) cannot be seen.',
  atBound: `The kept log is at its bound (${KEPT_LOG_MAX_ENTRIES.toLocaleString('en-US')} entries or 4 MiB): later entries are neither kept nor compared.`,
} as const;

/**
 * Whether a limitation is about the kept log: what a store kept is not in an evidence bundle, so
 * a bundle's re-run (core/bundle/verify.ts) leaves these sentences out of its comparison.
 */
export function isKeptLogLimitation(text: unknown): boolean {
  return text === KEPT_LOG_LIMITATIONS.noStore || text === KEPT_LOG_LIMITATIONS.atBound;
}

/** The lines of a log as verifyLogEntries reads them: a final newline ends the last line. */
export function logLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** SHA-256 of the entry's RFC 8785 form, proof included; of its text when it is not JSON. */
export function entryHashOf(line: string): string {
  try {
    return sha256Hex(canonicalize(JSON.parse(line)));
  } catch {
    return sha256Hex(line);
  }
}

function side(entry: WebvhEntryEvidence | undefined, entryHash: string): RewriteSide {
  return { versionId: entry?.versionId ?? null, versionTime: entry?.versionTime ?? null, entryHash };
}

/**
 * Where `lines` stop extending `kept`, or null when they extend it (or are it). Hashes at most
 * `kept.entries.length` served lines.
 */
export function findRewrite(kept: KeptLog, lines: readonly string[], entries: readonly WebvhEntryEvidence[], at: string): LogRewrite | null {
  const n = Math.min(kept.entries.length, lines.length);
  for (let i = 0; i < n; i++) {
    const k = kept.entries[i]!;
    const line = lines[i]!;
    if (sha256Hex(line) === k.lineSha256) continue;
    const served = entryHashOf(line);
    if (served === k.entryHash) continue;
    return {
      versionNumber: i + 1,
      kind: 'CHANGED',
      kept: { versionId: k.versionId, versionTime: k.versionTime, entryHash: k.entryHash },
      served: side(entries[i], served),
      detectedAt: at,
    };
  }
  if (lines.length < kept.entries.length) {
    const k = kept.entries[lines.length]!;
    return {
      versionNumber: lines.length + 1,
      kind: 'REMOVED',
      kept: { versionId: k.versionId, versionTime: k.versionTime, entryHash: k.entryHash },
      served: null,
      detectedAt: at,
    };
  }
  return null;
}

/** The verified entries after the kept ones, within the bound. */
function newEntries(keptCount: number, keptBytes: number, lines: readonly string[], entries: readonly WebvhEntryEvidence[], verified: number) {
  const out: NewKeptLogEntry[] = [];
  let bytes = keptBytes;
  let atBound = false;
  for (let i = keptCount; i < verified; i++) {
    const line = lines[i]!;
    const size = Buffer.byteLength(line, 'utf8');
    if (i >= KEPT_LOG_MAX_ENTRIES || bytes + size > KEPT_LOG_MAX_BYTES) {
      atBound = true;
      break;
    }
    const e = entries[i]!;
    out.push({ versionNumber: i + 1, versionId: e.versionId!, versionTime: e.versionTime!, entryHash: entryHashOf(line), lineSha256: sha256Hex(line), line });
    bytes += size;
  }
  return { out, atBound: atBound || keptCount >= KEPT_LOG_MAX_ENTRIES };
}

export interface KeepInput {
  did: string;
  scid: string;
  /** The log's text as served. */
  text: string;
  /** Evidence of every line (versionId and versionTime as written). */
  entries: readonly WebvhEntryEvidence[];
  /** Leading entries that verified fully (witnesses included): only these are kept. */
  verified: number;
  /** did-witness.json as verified with the log, or null. */
  witness: string | null;
}

/** The evidence of a log that was neither kept nor compared, and why. */
function notCompared(reason: string): KeptLogEvidence {
  return { status: 'NOT_COMPARED', keptEntries: 0, appendedEntries: 0, keptSince: null, atBound: false, rewrite: null, reason };
}

/**
 * Compares the served log with the kept one and keeps its new verified entries. Never throws:
 * a store that fails is NOT_COMPARED, with why.
 */
export async function compareAndKeep(store: KeptLogStore, runtime: Pick<Runtime, 'clock'>, input: KeepInput): Promise<KeptLogEvidence> {
  const at = rfc3339(runtime.clock.now());
  try {
    const kept = await store.get(input.did);
    const lines = logLines(input.text);
    if (kept) {
      const rewrite = findRewrite(kept, lines, input.entries, at);
      if (rewrite) {
        await store.markRewritten(input.did, rewrite);
        // The first rewrite recorded stays: report when it was first seen when it is the same one.
        const first = kept.rewrite;
        const detectedAt =
          first && first.versionNumber === rewrite.versionNumber && first.served?.entryHash === rewrite.served?.entryHash ? first.detectedAt : at;
        return {
          status: 'REWRITTEN',
          keptEntries: kept.entries.length,
          appendedEntries: 0,
          keptSince: kept.firstKeptAt,
          atBound: kept.entries.length >= KEPT_LOG_MAX_ENTRIES,
          rewrite: { ...rewrite, detectedAt },
          reason: null,
        };
      }
    }
    const keptCount = kept?.entries.length ?? 0;
    const { out, atBound } = newEntries(keptCount, kept?.bytes ?? 0, lines, input.entries, input.verified);
    const appended =
      out.length > 0
        ? await store.append({ did: input.did, scid: input.scid, after: keptCount, entries: out, witness: input.witness, at, maxLogs: KEPT_LOG_MAX_DIDS })
        : 0;
    if (appended === null) {
      return notCompared(`not kept: the store already keeps the logs of ${KEPT_LOG_MAX_DIDS.toLocaleString('en-US')} DIDs, its bound`);
    }
    return {
      status: !kept ? 'FIRST_KEPT' : appended > 0 ? 'EXTENDED' : 'UNCHANGED',
      keptEntries: keptCount,
      appendedEntries: appended,
      keptSince: kept?.firstKeptAt ?? (appended > 0 ? at : null),
      atBound,
      rewrite: null,
      reason: null,
    };
  } catch (err) {
    return notCompared(`the kept log could not be read or written (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** "3-QmAbc… (entry sha256 0a1b2c3d4e5f…)" */
function describeSide(s: RewriteSide): string {
  return `${s.versionId ?? 'an unreadable entry'} (entry hash ${s.entryHash.slice(0, 16)}…)`;
}

/** One sentence naming the first diverging versionId and both entry hashes. */
export function rewriteStatement(evidence: KeptLogEvidence): string {
  const r = evidence.rewrite!;
  const since = evidence.keptSince ? ` since ${evidence.keptSince}` : '';
  const served =
    r.served === null
      ? `the host now serves a log of ${r.versionNumber - 1} entries, without it`
      : `the host now serves ${describeSide(r.served)} in its place`;
  return `The log was rewritten at version ${r.versionNumber}: svc has kept ${describeSide(r.kept)}${since}, and ${served}; a did:webvh log may only grow`;
}

/** Media type of a kept log as served (`GET /v1/kept-log/{did}`): JSON Lines, as the host published it. */
export const KEPT_LOG_MEDIA_TYPE = 'application/jsonl';

/**
 * The kept log of a did:webvh DID as JSON Lines (each line as the host published it, a newline
 * after each), so that it can be verified again after the host has deleted or rewritten it:
 * `svc resolve <did> --log kept.jsonl`. INVALID_DID for another method; FEATURE_NOT_SUPPORTED
 * without a store; NOT_FOUND when none is kept.
 */
export async function keptLogText(input: string, runtime: Pick<Runtime, 'store'>): Promise<string> {
  const { did, method } = parseDid(input);
  if (method !== 'webvh') throw new ProblemError('INVALID_DID', `Only a did:webvh has a log to keep; ${did} is a did:${method}.`);
  if (!runtime.store) throw new ProblemError('FEATURE_NOT_SUPPORTED', 'No store is configured; kept logs need one.');
  const kept = await runtime.store.keptLogs.text(did);
  if (!kept || kept.lines.length === 0)
    throw new ProblemError('NOT_FOUND', `No log of ${did} is kept: svc keeps a did:webvh log when it verifies it with a store.`);
  return `${kept.lines.join('\n')}\n`;
}
