/**
 * The seam between the core and JSON-LD processing: what an RDF canonicaliser answers (RDFC-1.0
 * N-Quads, or a precise failure) and the bounds it works within. The core imports no JSON-LD
 * package; src/jsonld/ implements this over a pinned context set, and the Runtime carries it
 * (`runtime.jsonld`) only when the operator opted in. No imports: the Runtime's type names it.
 */

/** The bounds of one canonicalisation; beyond any of them the answer is BOUND_EXCEEDED naming it. */
export interface RdfcBounds {
  /** Bytes of the document's JSON text. */
  maxInputBytes: number;
  /** Nesting of objects and arrays in the document (inline contexts included). */
  maxDepth: number;
  /** RDF quads the document expands to. */
  maxQuads: number;
  /** Wall time of one canonicalisation, milliseconds. */
  maxMilliseconds: number;
}

export const DEFAULT_RDFC_BOUNDS: Readonly<RdfcBounds> = { maxInputBytes: 256 * 1024, maxDepth: 32, maxQuads: 10_000, maxMilliseconds: 5_000 };

/** The bounds by their names in results. */
export const RDFC_BOUND_NAMES = {
  maxInputBytes: 'input size',
  maxDepth: 'expansion depth',
  maxQuads: 'number of quads',
  maxMilliseconds: 'time',
  work: 'canonicalisation work',
} as const;
export type RdfcBoundName = (typeof RDFC_BOUND_NAMES)[keyof typeof RDFC_BOUND_NAMES];

/** Why a document has no canonical form here. */
export type RdfcFailure =
  /** A context URL that is not in the pinned set: it is never fetched. */
  | { kind: 'UNPINNED_CONTEXT'; url: string }
  | { kind: 'BOUND_EXCEEDED'; bound: RdfcBoundName; limit: number | null }
  /** A term (property or type) no context defines: expansion would drop it (JSON-LD safe mode). */
  | { kind: 'UNDEFINED_TERM'; term: string }
  /** Anything else that is not valid JSON-LD. */
  | { kind: 'INVALID'; reason: string };

export type RdfcResult = { ok: true; nquads: string } | { ok: false; failure: RdfcFailure };

/**
 * RDF Dataset Canonicalization (RDFC-1.0) of a JSON-LD document, over a pinned context set: no
 * context is ever fetched. Absent from the Runtime unless the operator opted in.
 */
export interface RdfCanonicaliser {
  /** What results name, e.g. "RDFC-1.0 with svc's pinned context set (20 contexts)". */
  readonly description: string;
  /** The context URLs it interprets terms by. */
  readonly contexts: readonly string[];
  canonicalise(document: Record<string, unknown>, bounds?: Partial<RdfcBounds>): Promise<RdfcResult>;
}
