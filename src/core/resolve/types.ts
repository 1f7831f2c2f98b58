/**
 * Result types of resolution, named as in openapi.json. Enumerations are `as const`
 * tables so the CLI, the daemon and the dossier cannot drift apart.
 */
import type { KeyStatus, MulticodecInfo } from '../keys/types.js';
import type { DomainBindingEvidence } from '../linkage/types.js';
import type { TlsEvidence } from '../net.js';
import type { HistoryEvidence } from '../webvh/types.js';
import type { TraceStage } from './stages.js';

// The trace's stages are a leaf of their own (problems and the Trace read them without the rest).
export { STAGE_STATUSES, type StageStatus, type TraceStage } from './stages.js';

export const DIMENSION_IDS = ['integrity', 'keys', 'control', 'origin', 'transport', 'history', 'organization'] as const;
export type DimensionId = (typeof DIMENSION_IDS)[number];

export const DIMENSION_STATES = ['ESTABLISHED', 'SELF_CERTIFYING', 'NOT_ESTABLISHED', 'FAILED', 'INDETERMINATE', 'NOT_APPLICABLE'] as const;
export type DimensionState = (typeof DIMENSION_STATES)[number];

/** The three plain-language classes of the dossier (docs/evidence.md#dimensions-and-states). */
export const STATE_CLASSES = {
  confirmed: ['ESTABLISHED', 'SELF_CERTIFYING'],
  attention: ['FAILED', 'INDETERMINATE'],
  notConfirmed: ['NOT_ESTABLISHED', 'NOT_APPLICABLE'],
} as const satisfies Record<string, readonly DimensionState[]>;
export type StateClass = keyof typeof STATE_CLASSES;

export const CLASS_LABELS: Readonly<Record<StateClass, string>> = {
  confirmed: 'Confirmed',
  attention: 'Needs attention',
  notConfirmed: 'Not confirmed',
};

export function stateClass(state: DimensionState): StateClass {
  if (state === 'ESTABLISHED' || state === 'SELF_CERTIFYING') return 'confirmed';
  if (state === 'FAILED' || state === 'INDETERMINATE') return 'attention';
  return 'notConfirmed';
}

export const OUTCOMES = ['RESOLVED', 'RESOLVED_WITH_WARNINGS', 'DEACTIVATED'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const EDGE_STATES = ['VERIFIED', 'OBSERVED', 'DECLARED', 'FAILED'] as const;
export type EdgeState = (typeof EDGE_STATES)[number];

/** Verification relationships of DID Core §5.3. */
export const RELATIONSHIPS = ['authentication', 'assertionMethod', 'keyAgreement', 'capabilityInvocation', 'capabilityDelegation'] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];

export interface Dimension {
  id: DimensionId;
  label: string;
  state: DimensionState;
  statement: string;
  proves: string;
  doesNotProve: string;
}

export interface Verdict {
  outcome: Outcome;
  headline: string;
  statements: string[];
}

/** Where the document came from. `DERIVED`: expanded from the identifier itself (did:key, did:jwk). */
export interface SourceEvidence {
  kind: 'DERIVED' | 'HTTPS';
  url: string | null;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number | null;
  sha256: string | null;
  peerAddress: string | null;
  redirects: Array<{ from: string; to: string; status: number }>;
  latencyMs: number | null;
}

export interface ContextEvidence {
  uri: string;
  known: boolean;
}

export interface DocumentEvidence {
  idMatches: boolean;
  contexts: ContextEvidence[];
  /** For each verification relationship, the absolute ids of the methods it authorises. */
  relationships: Record<Relationship, string[]>;
  jcsSha256: string;
  /** Profile of `jcsSha256` (`rfc8785-binary64-v1`, canonical.ts). */
  hashProfile: string;
  warnings: string[];
}

export interface KeyEvidence {
  id: string;
  type: string | null;
  relationships: Relationship[];
  status: KeyStatus;
  curve: string | null;
  jwkThumbprint: string | null;
  multicodec: MulticodecInfo | null;
  /** Why the key is invalid or unsupported; null for a valid key. */
  detail: string | null;
}

export interface ServiceEvidence {
  id: string;
  type: string | string[] | null;
  serviceEndpoint: unknown;
}

export interface Evidence {
  source: SourceEvidence;
  document: DocumentEvidence;
  keys: KeyEvidence[];
  services: ServiceEvidence[];
  domainBinding: DomainBindingEvidence | null;
  tls: TlsEvidence | null;
  /** did:webvh only: the verified log. */
  history: HistoryEvidence | null;
  /**
   * svc's addition: the DID's `#whois` presentation (a Linked Verifiable Presentation), fetched and
   * verified. Present only when the document has a `#whois` LinkedVerifiablePresentation service
   * (did:webvh's implicit one, or one a document declares) and the current document was resolved.
   */
  whois?: WhoisEvidence;
}

/**
 * What became of the `#whois` presentation: VERIFIED (a valid presentation signed by the DID
 * itself), FAILED (fetched and read, but it does not verify, or someone else signed it),
 * INDETERMINATE (it could not be fetched or read: 404, time limit, egress policy, too large, not JSON).
 */
export const WHOIS_STATUSES = ['VERIFIED', 'FAILED', 'INDETERMINATE'] as const;
export type WhoisStatus = (typeof WHOIS_STATUSES)[number];

/** One credential of the whois presentation: what it claims and whether it verified. Claims are claims. */
export interface WhoisCredentialEvidence {
  index: number;
  issuer: string | null;
  types: string[];
  /** The credential's own status (credential verification's statuses). */
  status: string;
  verified: boolean;
  /** The credential subject's claims as stated; svc verifies signatures, never that a claim is true. */
  claims: Record<string, unknown> | Array<Record<string, unknown>> | null;
  detail: string;
}

export interface WhoisEvidence {
  /** The service endpoint fetched (`<location>/whois.vp` for did:webvh). */
  url: string;
  /** IMPLICIT: did:webvh's implicit service; DECLARED: a service the document states. */
  service: 'IMPLICIT' | 'DECLARED';
  status: WhoisStatus;
  /** One sentence: why this status. */
  reason: string;
  httpStatus: number | null;
  bytes: number | null;
  sha256: string | null;
  /** The presentation's own verification status (VALID, INVALID …); null when it was not verified. */
  presentationStatus: string | null;
  holder: string | null;
  /** The verification method whose proof secures the presentation, as the proof names it. */
  signedBy: string | null;
  credentials: WhoisCredentialEvidence[];
}

export interface GraphNode {
  id: string;
  kind: 'subject' | 'document' | 'origin' | 'tls' | 'key' | 'service' | 'linkage';
  label: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  relation: string;
  state: EdgeState;
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export type DidDocument = Record<string, unknown> & { id: string };

export interface DidResolutionMetadata {
  contentType: string;
  retrieved: string;
  durationMs: number;
}

export interface EnrichedResolution {
  did: string;
  method: string;
  didDocument: DidDocument;
  didResolutionMetadata: DidResolutionMetadata;
  didDocumentMetadata: Record<string, unknown>;
  verdict: Verdict;
  dimensions: Dimension[];
  evidence: Evidence;
  graph: Graph;
  trace: TraceStage[];
  limitations: string[];
  resolver: { name: string; version: string };
  observedAt: string;
  cached: boolean;
}
