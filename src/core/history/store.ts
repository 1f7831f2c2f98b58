/**
 * The storage contract of DID histories: what resolution records and what history,
 * diff and the monitor read back. Implemented on both engines in src/store (sqlite/observations.ts,
 * postgres/observations.ts); the rules every store method keeps are core/runtime-store.ts's.
 */
import type { DomainBindingStatus } from '../linkage/types.js';
import type { DidDocument } from '../resolve/types.js';

/** What one resolution contributes to the history of its DID. */
export interface NewObservation {
  did: string;
  /** RFC 8785 SHA-256 of the document (evidence.document.jcsSha256). */
  documentHash: string;
  /** The document as retrieved, kept so that two observations can be diffed. */
  document: DidDocument;
  /** RFC 3339 UTC, second precision. */
  observedAt: string;
  latencyMs: number | null;
  resolverVersion: string;
  domainBindingStatus: DomainBindingStatus | null;
  /** One line: the verdict headline. */
  summary: string;
}

/** One row of the history (`history[]` of the answer). */
export interface Observation {
  id: number;
  did: string;
  documentHash: string;
  /** When this snapshot was first observed. */
  observedAt: string;
  /** When it was last observed unchanged. */
  lastSeenAt: string;
  /** How many resolutions observed it unchanged (1 for a new snapshot). */
  seenCount: number;
  latencyMs: number | null;
  resolverVersion: string;
  domainBindingStatus: DomainBindingStatus | null;
  summary: string;
}

export interface StoredObservation extends Observation {
  document: DidDocument;
}

/**
 * What one record() resolves to. A store may be given a ceiling on its rows (the daemon's:
 * docs/operations.md#bounded-history); a store without one only ever stores or coalesces.
 * - `stored`: a new row; `coalesced`: the latest row of the same key was unchanged and counted
 *   again (no row added, allowed at the ceiling);
 * - `evicted`: at the ceiling, a new row stored in place of `evicted` one-off rows (a key seen
 *   exactly once, never again, oldest first);
 * - `refused`: at the ceiling with no one-off row to evict: nothing was written.
 */
export type Recorded<T> =
  | { outcome: 'stored' | 'coalesced'; row: T; evicted: 0 }
  | { outcome: 'evicted'; row: T; evicted: number }
  | { outcome: 'refused'; row: null; evicted: 0 };

export interface ObservationStore {
  /**
   * Records an observation. When the DID's latest observation has the same document hash and
   * domain binding status, that row is coalesced instead (seenCount + 1, lastSeenAt, latencyMs,
   * resolverVersion and summary refreshed) and returned; otherwise a new row is inserted — or,
   * in a store with a ceiling, inserted in place of one-off rows, or refused (see Recorded).
   */
  record(observation: NewObservation): Promise<Recorded<Observation>>;
  /** Observations of the DID, newest first (by observedAt, then id), at most `limit`. */
  list(did: string, limit: number): Promise<Observation[]>;
  /** How many observations (rows, after coalescing) the DID has. */
  count(did: string): Promise<number>;
  /** The latest `limit` observations of the DID with their documents, newest first. */
  latest(did: string, limit: number): Promise<StoredObservation[]>;
  /** The latest observation of the DID whose document hash is `documentHash`, or undefined. */
  findByHash(did: string, documentHash: string): Promise<StoredObservation | undefined>;
  /**
   * The DID's distinct document hashes that start with `prefix`, newest first (each where its
   * latest row stands in `list`): an index range over the hashes, no document read. A prefix
   * that is not lower-case hex matches nothing (every stored hash is).
   */
  hashesWithPrefix(did: string, prefix: string): Promise<string[]>;
  /**
   * The first `length` characters of each of the DID's distinct document hashes, in hash order
   * (a walk of the (did, document_hash) index: no document read). Two equal neighbours are two
   * hashes that share those characters (what `svc history` looks for to choose its prefix length).
   */
  hashPrefixes(did: string, length: number): Promise<string[]>;
  /**
   * The observation listed just after `row` (newest first, by observedAt then id): the next
   * older one of the DID, with its document, or undefined when `row` is the oldest.
   */
  olderThan(did: string, row: Pick<Observation, 'observedAt' | 'id'>): Promise<StoredObservation | undefined>;
}
