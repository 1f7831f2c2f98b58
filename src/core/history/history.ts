/**
 * Observation history (docs/history.md): each retrieval of a DID document is recorded in the
 * Runtime's store, unchanged snapshots coalesced; history lists them and diff compares two.
 * The only I/O is through `runtime.store`.
 */
import { parseDid } from '../did/syntax.js';
import { ProblemError } from '../problems.js';
import type { EnrichedResolution } from '../resolve/types.js';
import type { Runtime } from '../runtime.js';
import type { NewObservation, Observation, Recorded, StoredObservation } from './store.js';
import type { RuntimeStore } from '../runtime-store.js';
import { plural } from '../text.js';
import { semanticDiff } from './diff.js';
import { checkHashPrefix, expandHashPrefix } from './prefix.js';
import { DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT, type ObservationHistory, type SemanticDiff } from './types.js';

export { DEFAULT_HISTORY_LIMIT, MAX_HISTORY_LIMIT };

export const HISTORY_NOTE =
  'Observations are records of what this service retrieved and when, not proofs of history. ' +
  'Unchanged snapshots are coalesced: seenCount counts the retrievals that found the same document and domain binding status, lastSeenAt is the latest of them.';

export interface RecordOptions {
  /** The caller asked for a version of a did:webvh log: that is not a retrieval of the current document. */
  versioned?: boolean;
}

export interface DiffSelection {
  /** Document hash of the older observation, or a unique prefix of it (at least 8 hex characters). */
  from?: string;
  /** Document hash of the newer observation, or a unique prefix of it. */
  to?: string;
}

/** What one resolution contributes to its DID's history. */
export function observationOf(result: EnrichedResolution): NewObservation {
  return {
    did: result.did,
    documentHash: result.evidence.document.jcsSha256,
    document: result.didDocument,
    observedAt: result.observedAt,
    // A derived document (did:key) has no fetch latency; the resolution's duration stands in.
    latencyMs: result.evidence.source.latencyMs ?? result.didResolutionMetadata.durationMs,
    resolverVersion: result.resolver.version,
    domainBindingStatus: result.evidence.domainBinding?.status ?? null,
    summary: result.verdict.headline,
  };
}

/**
 * Records a resolution in the store and says what the store did (stored, coalesced, or — in a
 * store with a ceiling — stored in place of one-off rows, or refused). Returns null when nothing
 * is recorded: no store, a cache hit (observations record retrievals, and a hit retrieved
 * nothing), or a versioned request (an old version of a did:webvh log says nothing about what
 * the DID resolves to now).
 */
export async function recordObservation(runtime: Runtime, result: EnrichedResolution, options: RecordOptions = {}): Promise<Recorded<Observation> | null> {
  if (!runtime.store || result.cached || options.versioned === true) return null;
  return await runtime.store.observations.record(observationOf(result));
}

function requireStore(runtime: Runtime): RuntimeStore {
  if (!runtime.store) throw new ProblemError('FEATURE_NOT_SUPPORTED', 'No observation store is configured; history needs one.');
  return runtime.store;
}

/** Exactly the documented members of a history row, whatever else a store row carries (a document must not leak into the list). */
function publicRow(row: Observation): Observation {
  return {
    id: row.id,
    did: row.did,
    documentHash: row.documentHash,
    observedAt: row.observedAt,
    lastSeenAt: row.lastSeenAt,
    seenCount: row.seenCount,
    latencyMs: row.latencyMs,
    resolverVersion: row.resolverVersion,
    domainBindingStatus: row.domainBindingStatus,
    summary: row.summary,
  };
}

/**
 * The DID's observations, newest first, at most `limit`. A DID never observed has an empty
 * history (count 0): absence of records is an answer, not a missing resource. Invalid input
 * rejects, as a store failure does.
 */
export async function historyOf(input: string, runtime: Runtime, limit: number = DEFAULT_HISTORY_LIMIT): Promise<ObservationHistory> {
  const { did } = parseDid(input);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_HISTORY_LIMIT) {
    throw new ProblemError('INVALID_OPTIONS', `The history limit must be an integer from 1 to ${MAX_HISTORY_LIMIT}.`);
  }
  const { observations } = requireStore(runtime);
  const count = await observations.count(did);
  const rows = await observations.list(did, limit);
  return { did, count, history: rows.map(publicRow), note: HISTORY_NOTE };
}

async function observed(store: RuntimeStore, did: string, name: 'from' | 'to', hash: string): Promise<StoredObservation> {
  const row = await store.observations.findByHash(did, hash);
  if (!row) throw new ProblemError('NOT_FOUND', `The "${name}" document hash ${hash} was never observed for ${did}.`);
  return row;
}

function tooFew(did: string, n: number): ProblemError {
  return new ProblemError('NOT_FOUND', `${did} has ${plural(n, 'observation')}; a diff needs two.`);
}

/**
 * Diffs two observations of the DID:
 * - neither `from` nor `to`: the latest two observations (older → newer);
 * - both: the latest observation of each hash, in the order given;
 * - only `from`: that observation → the latest one;
 * - only `to`: the observation listed just before `to`'s row (the next older row) → `to`.
 * A hash is the latest row with that document hash (findByHash); a prefix of at least 8 hex
 * characters stands for the one distinct hash of the DID it starts (prefix.ts: none is NOT_FOUND,
 * several INVALID_OPTIONS). Unknown hashes, and a missing partner, are NOT_FOUND (every problem
 * is a rejection).
 */
export async function diffOf(input: string, runtime: Runtime, selection: DiffSelection = {}): Promise<SemanticDiff> {
  const { did } = parseDid(input);
  if (selection.from !== undefined) checkHashPrefix('from', selection.from);
  if (selection.to !== undefined) checkHashPrefix('to', selection.to);
  const store = requireStore(runtime);
  const { observations } = store;
  const from = selection.from === undefined ? undefined : await expandHashPrefix(store, did, 'from', selection.from);
  const to = selection.to === undefined ? undefined : await expandHashPrefix(store, did, 'to', selection.to);

  if (from === undefined && to === undefined) {
    const [newest, older] = await observations.latest(did, 2);
    if (!newest || !older) throw tooFew(did, await observations.count(did));
    return semanticDiff(older, newest);
  }
  if (from !== undefined && to !== undefined) {
    // One after the other, as before: `from` is looked up (and reported missing) first.
    const older = await observed(store, did, 'from', from);
    return semanticDiff(older, await observed(store, did, 'to', to));
  }
  if (from !== undefined) {
    const older = await observed(store, did, 'from', from);
    const [newest] = await observations.latest(did, 1);
    // findByHash found a row, so the DID has at least one; the guard keeps the types honest.
    if (!newest) throw tooFew(did, 0);
    return semanticDiff(older, newest);
  }
  const newer = await observed(store, did, 'to', to!);
  // The row listed just after `to`'s (newest first): one indexed step, whatever the history's length.
  const older = await observations.olderThan(did, newer);
  if (!older) throw new ProblemError('NOT_FOUND', `No observation of ${did} is older than the one with document hash ${to!}; a diff needs two.`);
  return semanticDiff(older, newer);
}

/** A DID's observations with one diff of them, as the dossier's time machine shows them. */
export interface ObservedChanges {
  history: ObservationHistory;
  /** The pair selected, else the latest two; null with fewer than two and nothing selected, or when it cannot be made. */
  diff: SemanticDiff | null;
  /** Why the diff asked for cannot be made (an unknown or ambiguous hash), or null. */
  diffProblem: string | null;
}

/**
 * The DID's observations and the diff of `selection` (else of the latest two, when there are
 * two). A diff that cannot be made is said, not thrown: the observations are the answer.
 */
export async function observedChanges(input: string, runtime: Runtime, selection: DiffSelection = {}): Promise<ObservedChanges> {
  const history = await historyOf(input, runtime);
  if (history.count < 2 && selection.from === undefined && selection.to === undefined) return { history, diff: null, diffProblem: null };
  try {
    // Awaited inside the try: a ProblemError rejection becomes the reason.
    return { history, diff: await diffOf(input, runtime, selection), diffProblem: null };
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    return { history, diff: null, diffProblem: err.detail };
  }
}
