/** The contract between the resolution pipeline and one DID method. */
import type { ParsedDid } from '../did/syntax.js';
import type { KeyCheckMemo } from '../keys/inspect.js';
import type { Runtime } from '../runtime.js';
import type { Trace } from '../resolve/trace.js';
import type { DidDocument, Evidence, SourceEvidence } from '../resolve/types.js';
import type { SuppliedNote } from '../supplied/resources.js';

export interface ResolveOptions {
  /** Bypass and refresh the cache. */
  noCache?: boolean;
  versionId?: string;
  versionTime?: string;
  versionNumber?: number;
  /**
   * Aborted when nobody waits for the answer any more (the HTTP client left, the request ran
   * past its time limit): the next stage does not start and outbound fetches are cut off.
   */
  signal?: AbortSignal;
}

export interface MethodContext {
  runtime: Runtime;
  trace: Trace;
  options: ResolveOptions;
}

export interface MethodResolution {
  document: DidDocument;
  /** Media type of the representation (application/did for derived documents). */
  contentType: string;
  source: SourceEvidence;
  didDocumentMetadata: Record<string, unknown>;
  /** Method-specific evidence (TLS, domain binding, history); null where not applicable. */
  tls?: Evidence['tls'];
  domainBinding?: Evidence['domainBinding'];
  history?: Evidence['history'];
  /** Key checks the driver already made (by publicKeyMultibase), reused by crypto.validate_keys. */
  keyChecks?: KeyCheckMemo;
  /**
   * Operator allowance ranges (SVC_EGRESS_ALLOW) that admitted a non-public address for any
   * fetch of this resolution; reported in `limitations`.
   */
  allowances?: string[];
  /**
   * Verifying from files: the resources of this resolution that were supplied (and from which
   * file) or neither supplied nor fetched; reported in dimensions, graph and `limitations`.
   */
  supplied?: SuppliedNote[];
  /** Seconds the result may be cached; undefined means the runtime default. */
  ttlSeconds?: number;
}

export interface MethodDriver {
  readonly method: string;
  /** True when the document is expanded from the identifier itself (no I/O, no update). */
  readonly selfCertifying: boolean;
  /** Options this method accepts besides noCache; others give INVALID_OPTIONS. */
  readonly acceptsVersionOptions: boolean;
  /**
   * Method-specific syntax beyond the DID ABNF, checked without I/O inside `syntax.parse`
   * (did:web / did:webvh: host, port and path rules); throws INVALID_DID.
   */
  checkIdentifier?(did: ParsedDid): void;
  resolve(did: ParsedDid, context: MethodContext): Promise<MethodResolution>;
}

export function derivedSource(): SourceEvidence {
  return {
    kind: 'DERIVED',
    url: null,
    httpStatus: null,
    contentType: null,
    bytes: null,
    sha256: null,
    peerAddress: null,
    redirects: [],
    latencyMs: null,
  };
}
