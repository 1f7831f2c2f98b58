/**
 * The fast DID verdict (GET /v1/fast-verify/did/{did}): the few fields a caller
 * needs to decide, projected from a full resolution — never computed a second time.
 */
import type { KeyStatus } from '../keys/types.js';
import type { DomainBindingStatus } from '../linkage/types.js';
import type { DimensionId, DimensionState, EnrichedResolution, Outcome, Relationship } from './types.js';

export interface FastDidVerdict {
  did: string;
  /** Always true: a DID that cannot be resolved is a problem, not a verdict. */
  resolved: true;
  outcome: Outcome;
  headline: string;
  statements: string[];
  dimensions: Array<{ id: DimensionId; state: DimensionState }>;
  keys: Array<{ id: string; curve: string | null; status: KeyStatus; relationships: Relationship[]; jwkThumbprint: string | null }>;
  /**
   * Status of the DIF domain binding (`evidence.domainBinding.status`, e.g. VERIFIED,
   * NOT_CONFIGURED); null where the method has no domain to bind (did:key, did:jwk).
   */
  domainBinding: DomainBindingStatus | null;
  /** RFC 8785 canonical SHA-256 of the document (`evidence.document.jcsSha256`), hex. */
  documentSha256: string;
  observedAt: string;
  cached: boolean;
}

/** Projects a resolution onto the fast verdict. Copies every array: results may be frozen cache hits. */
export function fastVerdict(result: EnrichedResolution): FastDidVerdict {
  const { verdict, evidence } = result;
  return {
    did: result.did,
    resolved: true,
    outcome: verdict.outcome,
    headline: verdict.headline,
    statements: [...verdict.statements],
    dimensions: result.dimensions.map((d) => ({ id: d.id, state: d.state })),
    keys: evidence.keys.map((k) => ({
      id: k.id,
      curve: k.curve,
      status: k.status,
      relationships: [...k.relationships],
      jwkThumbprint: k.jwkThumbprint,
    })),
    domainBinding: evidence.domainBinding?.status ?? null,
    documentSha256: evidence.document.jcsSha256,
    observedAt: result.observedAt,
    cached: result.cached,
  };
}
