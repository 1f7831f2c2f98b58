/**
 * Result types of observation history and semantic diff, named as in openapi.json. Where the
 * documented shape leaves an element type open, the choice is fixed here, once.
 */
import type { DomainBindingStatus } from '../linkage/types.js';
import type { DidDocument, Relationship } from '../resolve/types.js';
import type { Observation } from './store.js';

/** How many observations a history lists unless told (core/history/history.ts). */
export const DEFAULT_HISTORY_LIMIT = 100;
/** Most rows one history response lists; `count` still reports them all. */
export const MAX_HISTORY_LIMIT = 1000;

/** Fewest hex characters a document hash prefix may have (core/history/prefix.ts). */
export const MIN_HASH_PREFIX = 8;
/** How many hex characters `svc history` shows when they suffice to be unique. */
export const SHOWN_HASH_PREFIX = 12;

/** The history of a DID. `history` is newest first; `count` is every row the DID has, `history` at most the limit. */
export interface ObservationHistory {
  did: string;
  /** How many observations (rows, after coalescing) the DID has in total. */
  count: number;
  history: Observation[];
  /** Says what an observation is and is not; the same sentence for every DID. */
  note: string;
}

/** One verification relationship whose authorised methods differ between the two documents. */
export interface RelationshipChange {
  relationship: Relationship;
  /** Absolute method ids authorised in `to` but not in `from`, sorted. */
  added: string[];
  /** Absolute method ids authorised in `from` but not in `to`, sorted. */
  removed: string[];
}

/**
 * The semantic diff of two observations. Every id is absolute (a relative `#key-1` is resolved
 * against the document's id), every id list sorted, so two diffs of the same pair compare equal.
 */
export interface SemanticDiff {
  did: string;
  fromHash: string;
  toHash: string;
  fromObservedAt: string;
  toObservedAt: string;
  /** The two documents are equal in their RFC 8785 form (no member changed). */
  identical: boolean;
  /** Verification method ids present only in `to`. */
  keysAdded: string[];
  /** Verification method ids present only in `from`. */
  keysRemoved: string[];
  /** Ids present in both whose key material (type, publicKey* members) differs. */
  keysRotated: string[];
  /** Only relationships that changed, in the order of RELATIONSHIPS. */
  relationshipsChanged: RelationshipChange[];
  /** Service ids present only in `to`. */
  servicesAdded: string[];
  /** Service ids present only in `from`. */
  servicesRemoved: string[];
  /** Ids present in both whose type or serviceEndpoint differs. */
  servicesChanged: string[];
  /** The controller set differs (a single string equals a one-element array; order ignored). */
  controllerChanged: boolean;
  /** The alsoKnownAs set differs (order ignored). */
  alsoKnownAsChanged: boolean;
  /** The @context list differs (order matters in JSON-LD; a single string equals a one-element array). */
  contextsChanged: boolean;
  /** Domain binding status observed with each document; null where none was checked (did:key …). */
  domainBindingFrom: DomainBindingStatus | null;
  domainBindingTo: DomainBindingStatus | null;
  domainBindingChanged: boolean;
  /** Top-level member names whose RFC 8785 values differ (absent ≠ present), sorted. */
  changedMembers: string[];
  /** One human line, e.g. "1 key rotated, 1 service added; domain binding VERIFIED → NOT_LINKED". */
  summary: string;
  fromDocument: DidDocument;
  toDocument: DidDocument;
}
