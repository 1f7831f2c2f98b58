/**
 * Resources of the resolution routes (docs/evidence.md#the-resolution-result-field-by-field): the
 * enriched resolution and its parts, the fast DID verdict, the graph response, observation history,
 * semantic diff, the dereferencing result and the W3C resolution result. Closed where svc's result
 * type is closed (`additionalProperties: false`), so the contract test catches drift; the DID
 * document, its metadata and service endpoints are open (they carry what the controller published).
 *
 * Each resource has an `$id` and is referred to with `Type.Ref(id)`. `RESOLUTION_REFS` maps the
 * ids to the schemas, so `Static<typeof X, typeof RESOLUTION_REFS>` follows the references
 * (test/unit/schemas-resolution-types.test.ts holds the core types to these schemas).
 */
import Type, { type TSchema } from 'typebox';
import { DidParamSchema, EmptyQuerySchema, json, Nullable, problem, SignedOptionSchema, signedJson, TraceStageSchema, type RouteSchema } from './common.js';

// ---------------------------------------------------------------- enumerations (exact)

export const DimensionIdSchema = Type.Union(
  [
    Type.Literal('integrity'),
    Type.Literal('keys'),
    Type.Literal('control'),
    Type.Literal('origin'),
    Type.Literal('transport'),
    Type.Literal('history'),
    Type.Literal('organization'),
  ],
  { $id: 'DimensionId' },
);

export const DimensionStateSchema = Type.Union(
  [
    Type.Literal('ESTABLISHED'),
    Type.Literal('SELF_CERTIFYING'),
    Type.Literal('NOT_ESTABLISHED'),
    Type.Literal('FAILED'),
    Type.Literal('INDETERMINATE'),
    Type.Literal('NOT_APPLICABLE'),
  ],
  { $id: 'DimensionState' },
);

export const OutcomeSchema = Type.Union([Type.Literal('RESOLVED'), Type.Literal('RESOLVED_WITH_WARNINGS'), Type.Literal('DEACTIVATED')], {
  $id: 'Outcome',
});

export const RelationshipSchema = Type.Union(
  [
    Type.Literal('authentication'),
    Type.Literal('assertionMethod'),
    Type.Literal('keyAgreement'),
    Type.Literal('capabilityInvocation'),
    Type.Literal('capabilityDelegation'),
  ],
  { $id: 'Relationship' },
);

export const KeyStatusSchema = Type.Union([Type.Literal('VALID_KEY'), Type.Literal('INVALID_KEY'), Type.Literal('UNSUPPORTED_KEY')], { $id: 'KeyStatus' });

export const DomainBindingStatusSchema = Type.Union(
  [
    Type.Literal('VERIFIED'),
    Type.Literal('NOT_CONFIGURED'),
    Type.Literal('NOT_LINKED'),
    Type.Literal('INVALID_PROOF'),
    Type.Literal('UNSUPPORTED_PROOF'),
    Type.Literal('UNREACHABLE'),
    Type.Literal('MALFORMED'),
  ],
  { $id: 'DomainBindingStatus' },
);

export const EdgeStateSchema = Type.Union([Type.Literal('VERIFIED'), Type.Literal('OBSERVED'), Type.Literal('DECLARED'), Type.Literal('FAILED')], {
  $id: 'EdgeState',
});

export const WebvhCheckSchema = Type.Union(
  [
    Type.Literal('method'),
    Type.Literal('json'),
    Type.Literal('structure'),
    Type.Literal('parameters'),
    Type.Literal('scid'),
    Type.Literal('versionId'),
    Type.Literal('entryHash'),
    Type.Literal('versionTime'),
    Type.Literal('stateId'),
    Type.Literal('proof'),
    Type.Literal('preRotation'),
    Type.Literal('deactivated'),
    Type.Literal('witness'),
  ],
  { $id: 'WebvhCheck' },
);

// ---------------------------------------------------------------- the DID document and metadata

/** A DID document: whatever the controller published, with its `id`. */
export const DidDocumentSchema = Type.Object({ id: Type.String() }, { $id: 'DidDocument', additionalProperties: true });

/**
 * The DID document metadata: `{}` for did:key, did:jwk and did:web; did:webvh adds its version
 * members. Open: the members are the method's.
 */
export const DidDocumentMetadataSchema = Type.Object(
  {
    versionId: Type.Optional(Type.String()),
    versionNumber: Type.Optional(Type.Integer({ minimum: 1 })),
    versionTime: Type.Optional(Type.String()),
    created: Type.Optional(Type.String()),
    updated: Type.Optional(Type.String()),
    nextVersionId: Type.Optional(Type.String()),
    scid: Type.Optional(Type.String()),
    portable: Type.Optional(Type.Boolean()),
    deactivated: Type.Optional(Type.Boolean()),
    /** Seconds, as a string (did:webvh). */
    ttl: Type.Optional(Type.String()),
    /** `{}` or `{threshold: "<n>", witnesses: [{id}]}`. */
    witness: Type.Optional(Type.Object({}, { additionalProperties: true })),
    watchers: Type.Optional(Type.Array(Type.String())),
    /** did:webvh: the specification version the served version was verified under (its `method` parameter, e.g. did:webvh:1.0). svc's addition. */
    webvhMethod: Type.Optional(Type.String()),
  },
  { $id: 'DidDocumentMetadata', additionalProperties: true },
);

export const DidResolutionMetadataSchema = Type.Object(
  {
    contentType: Type.String(),
    retrieved: Type.String(),
    durationMs: Type.Number({ minimum: 0 }),
  },
  { $id: 'DidResolutionMetadata', additionalProperties: false },
);

// ---------------------------------------------------------------- verdict and dimensions

export const VerdictSchema = Type.Object(
  {
    outcome: Type.Ref('Outcome'),
    headline: Type.String(),
    statements: Type.Array(Type.String()),
  },
  { $id: 'Verdict', additionalProperties: false },
);

export const DimensionSchema = Type.Object(
  {
    id: Type.Ref('DimensionId'),
    label: Type.String(),
    state: Type.Ref('DimensionState'),
    statement: Type.String(),
    proves: Type.String(),
    doesNotProve: Type.String(),
  },
  { $id: 'Dimension', additionalProperties: false },
);

// ---------------------------------------------------------------- evidence

export const SourceEvidenceSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('DERIVED'), Type.Literal('HTTPS')]),
    url: Nullable(Type.String()),
    httpStatus: Nullable(Type.Integer()),
    contentType: Nullable(Type.String()),
    bytes: Nullable(Type.Integer({ minimum: 0 })),
    sha256: Nullable(Type.String()),
    peerAddress: Nullable(Type.String()),
    redirects: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), status: Type.Integer() }, { additionalProperties: false })),
    latencyMs: Nullable(Type.Number({ minimum: 0 })),
  },
  { $id: 'SourceEvidence', additionalProperties: false },
);

const IdListSchema = Type.Array(Type.String());

export const DocumentEvidenceSchema = Type.Object(
  {
    idMatches: Type.Boolean(),
    contexts: Type.Array(Type.Object({ uri: Type.String(), known: Type.Boolean() }, { additionalProperties: false })),
    /** For each verification relationship, the absolute ids of the methods it authorises. */
    relationships: Type.Object(
      {
        authentication: IdListSchema,
        assertionMethod: IdListSchema,
        keyAgreement: IdListSchema,
        capabilityInvocation: IdListSchema,
        capabilityDelegation: IdListSchema,
      },
      { additionalProperties: false },
    ),
    jcsSha256: Type.String(),
    hashProfile: Type.String(),
    warnings: Type.Array(Type.String()),
  },
  { $id: 'DocumentEvidence', additionalProperties: false },
);

export const MulticodecSchema = Type.Object(
  {
    /** Multicodec table name, e.g. `ed25519-pub`; null for a code svc does not know. */
    name: Nullable(Type.String()),
    /** The code in hex, e.g. `0xed`. */
    code: Type.String(),
  },
  { $id: 'Multicodec', additionalProperties: false },
);

export const KeyEvidenceSchema = Type.Object(
  {
    id: Type.String(),
    type: Nullable(Type.String()),
    relationships: Type.Array(Type.Ref('Relationship')),
    status: Type.Ref('KeyStatus'),
    curve: Nullable(Type.String()),
    jwkThumbprint: Nullable(Type.String()),
    multicodec: Nullable(Type.Ref('Multicodec')),
    detail: Nullable(Type.String()),
  },
  { $id: 'KeyEvidence', additionalProperties: false },
);

export const ServiceEvidenceSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Union([Type.String(), Type.Array(Type.String()), Type.Null()]),
    /** As the document states it: a URI, a map or a list of them. */
    serviceEndpoint: Type.Unknown(),
  },
  { $id: 'ServiceEvidence', additionalProperties: false },
);

export const LinkageCredentialEvidenceSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    format: Type.Union([Type.Literal('JWT'), Type.Literal('DATA_INTEGRITY'), Type.Literal('UNKNOWN')]),
    status: Type.Union([
      Type.Literal('VERIFIED'),
      Type.Literal('NOT_LINKED'),
      Type.Literal('INVALID_PROOF'),
      Type.Literal('UNSUPPORTED_PROOF'),
      Type.Literal('MALFORMED'),
    ]),
    reason: Type.String(),
    issuer: Nullable(Type.String()),
    subject: Nullable(Type.String()),
    origin: Nullable(Type.String()),
    proof: Nullable(Type.String()),
    verificationMethod: Nullable(Type.String()),
    validFrom: Nullable(Type.String()),
    validUntil: Nullable(Type.String()),
  },
  { $id: 'LinkageCredentialEvidence', additionalProperties: false },
);

export const DomainBindingEvidenceSchema = Type.Object(
  {
    status: Type.Ref('DomainBindingStatus'),
    origin: Type.String(),
    configurationUrl: Type.String(),
    reason: Type.String(),
    credentials: Type.Array(Type.Ref('LinkageCredentialEvidence')),
  },
  { $id: 'DomainBindingEvidence', additionalProperties: false },
);

export const CertificateEvidenceSchema = Type.Object(
  {
    subject: Type.String(),
    issuer: Type.String(),
    validFrom: Type.String(),
    validTo: Type.String(),
    serialNumber: Type.String(),
    sha256Fingerprint: Type.String(),
    subjectAltNames: Type.Array(Type.String()),
  },
  { $id: 'CertificateEvidence', additionalProperties: false },
);

export const TlsEvidenceSchema = Type.Object(
  {
    host: Type.String(),
    validatedBy: Type.String(),
    protocol: Type.String(),
    cipher: Type.String(),
    certificate: Type.Ref('CertificateEvidence'),
    daysUntilExpiry: Type.Integer(),
    hostnameInSan: Type.Boolean(),
  },
  { $id: 'TlsEvidence', additionalProperties: false },
);

export const WebvhEntryEvidenceSchema = Type.Object(
  {
    versionId: Nullable(Type.String()),
    versionNumber: Type.Integer(),
    versionTime: Nullable(Type.String()),
    status: Type.Union([Type.Literal('VERIFIED'), Type.Literal('FAILED'), Type.Literal('UNVERIFIED')]),
    check: Nullable(Type.Ref('WebvhCheck')),
    reason: Nullable(Type.String()),
    documentId: Nullable(Type.String()),
    /** The specification version (`method` parameter) the entry was verified under. */
    method: Nullable(Type.String()),
    signedBy: Nullable(Type.String()),
    changes: Type.Array(Type.String()),
    updateKeys: Type.Array(Type.String()),
    preRotation: Type.Boolean(),
    witness: Nullable(Type.Object({ threshold: Type.Integer({ minimum: 0 }), approvals: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })),
    deactivated: Type.Boolean(),
  },
  { $id: 'WebvhEntryEvidence', additionalProperties: false },
);

export const WebvhWitnessFileEvidenceSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('NOT_REQUIRED'), Type.Literal('FOUND'), Type.Literal('NOT_PUBLISHED'), Type.Literal('INVALID')]),
    url: Type.String(),
    httpStatus: Nullable(Type.Integer()),
    contentType: Nullable(Type.String()),
    bytes: Nullable(Type.Integer({ minimum: 0 })),
    sha256: Nullable(Type.String()),
    acceptedProofs: Type.Integer({ minimum: 0 }),
    discarded: Type.Array(
      Type.Object({ versionId: Nullable(Type.String()), verificationMethod: Nullable(Type.String()), reason: Type.String() }, { additionalProperties: false }),
    ),
    reason: Nullable(Type.String()),
  },
  { $id: 'WebvhWitnessFileEvidence', additionalProperties: false },
);

const RewriteSideSchema = Type.Object(
  { versionId: Nullable(Type.String()), versionTime: Nullable(Type.String()), entryHash: Type.String({ pattern: '^[0-9a-f]{64}$' }) },
  { additionalProperties: false },
);

export const LogRewriteSchema = Type.Object(
  {
    versionNumber: Type.Integer({ minimum: 1 }),
    kind: Type.Union([Type.Literal('CHANGED'), Type.Literal('REMOVED')]),
    kept: RewriteSideSchema,
    served: Nullable(RewriteSideSchema),
    detectedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'LogRewrite', additionalProperties: false, description: 'The first entry where a served did:webvh log stopped extending the kept one.' },
);

export const KeptLogEvidenceSchema = Type.Object(
  {
    status: Type.Union([
      Type.Literal('FIRST_KEPT'),
      Type.Literal('UNCHANGED'),
      Type.Literal('EXTENDED'),
      Type.Literal('REWRITTEN'),
      Type.Literal('NOT_COMPARED'),
    ]),
    keptEntries: Type.Integer({ minimum: 0 }),
    appendedEntries: Type.Integer({ minimum: 0 }),
    keptSince: Nullable(Type.String({ format: 'date-time' })),
    atBound: Type.Boolean(),
    rewrite: Nullable(Type.Ref('LogRewrite')),
    reason: Nullable(Type.String()),
  },
  {
    $id: 'KeptLogEvidence',
    additionalProperties: false,
    description: 'The log compared with the one svc kept from earlier verifications (docs/history.md#kept-didwebvh-logs).',
  },
);

export const HistoryEvidenceSchema = Type.Object(
  {
    scid: Type.String(),
    entries: Type.Array(Type.Ref('WebvhEntryEvidence')),
    witness: Type.Ref('WebvhWitnessFileEvidence'),
    verifiedEntries: Type.Integer({ minimum: 0 }),
    selectedVersion: Type.Integer(),
    failure: Nullable(Type.Object({ versionNumber: Type.Integer(), check: Type.Ref('WebvhCheck'), reason: Type.String() }, { additionalProperties: false })),
    reusedEntries: Type.Integer({ minimum: 0 }),
    keptLog: Type.Optional(Type.Ref('KeptLogEvidence')),
  },
  { $id: 'HistoryEvidence', additionalProperties: false },
);

export const WhoisStatusSchema = Type.Union([Type.Literal('VERIFIED'), Type.Literal('FAILED'), Type.Literal('INDETERMINATE')], { $id: 'WhoisStatus' });

/** One credential of a whois presentation: its claims as stated (claims, not verified identity). */
export const WhoisCredentialEvidenceSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    issuer: Nullable(Type.String()),
    types: Type.Array(Type.String()),
    /** The credential's status (a CredentialStatus: VALID, INVALID …). */
    status: Type.String(),
    verified: Type.Boolean(),
    /** The credential subject's claims as the credential states them. */
    claims: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Array(Type.Record(Type.String(), Type.Unknown())), Type.Null()]),
    detail: Type.String(),
  },
  { $id: 'WhoisCredentialEvidence', additionalProperties: false },
);

/** svc's addition: the DID's `#whois` Linked Verifiable Presentation, fetched and verified. */
export const WhoisEvidenceSchema = Type.Object(
  {
    url: Type.String(),
    service: Type.Union([Type.Literal('IMPLICIT'), Type.Literal('DECLARED')]),
    status: Type.Ref('WhoisStatus'),
    reason: Type.String(),
    httpStatus: Nullable(Type.Integer()),
    bytes: Nullable(Type.Integer({ minimum: 0 })),
    sha256: Nullable(Type.String()),
    /** The presentation's own status (a CredentialStatus); null when it was not verified. */
    presentationStatus: Nullable(Type.String()),
    holder: Nullable(Type.String()),
    signedBy: Nullable(Type.String()),
    credentials: Type.Array(Type.Ref('WhoisCredentialEvidence')),
  },
  { $id: 'WhoisEvidence', additionalProperties: false },
);

export const EvidenceSchema = Type.Object(
  {
    source: Type.Ref('SourceEvidence'),
    document: Type.Ref('DocumentEvidence'),
    keys: Type.Array(Type.Ref('KeyEvidence')),
    services: Type.Array(Type.Ref('ServiceEvidence')),
    domainBinding: Nullable(Type.Ref('DomainBindingEvidence')),
    tls: Nullable(Type.Ref('TlsEvidence')),
    /** did:webvh only: the verified log. */
    history: Nullable(Type.Ref('HistoryEvidence')),
    /** svc's addition: present when the document has a `#whois` LinkedVerifiablePresentation service. */
    whois: Type.Optional(Type.Ref('WhoisEvidence')),
  },
  { $id: 'Evidence', additionalProperties: false },
);

// ---------------------------------------------------------------- graph

export const GraphNodeSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.Union([
      Type.Literal('subject'),
      Type.Literal('document'),
      Type.Literal('origin'),
      Type.Literal('tls'),
      Type.Literal('key'),
      Type.Literal('service'),
      Type.Literal('linkage'),
    ]),
    label: Type.String(),
  },
  { $id: 'GraphNode', additionalProperties: false },
);

export const GraphEdgeSchema = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    relation: Type.String(),
    state: Type.Ref('EdgeState'),
  },
  { $id: 'GraphEdge', additionalProperties: false },
);

// ---------------------------------------------------------------- the evidence bundle

const Base64 = Type.String({ description: 'Standard base64 (RFC 4648 §4, padded).' });
const Sha256Hex = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Lower-case hex SHA-256.' });

/** An evidence bundle, version 1 (docs/evidence.md#evidence-bundles): served by ?bundle=true. */
export const EvidenceBundleSchema = Type.Object(
  {
    format: Type.Literal('svc-evidence-bundle'),
    version: Type.Literal(1),
    hashProfile: Type.String(),
    svc: Type.Object({ version: Type.String() }, { additionalProperties: false }),
    observedAt: Type.String({ description: 'When the work started (RFC 3339).' }),
    command: Type.Object(
      {
        kind: Type.Enum(['resolve', 'verify-credential', 'inspect-mcp', 'inspect-a2a']),
        subject: Type.String(),
        options: Type.Record(Type.String(), Type.Unknown(), { description: 'What the work needs to run again.' }),
      },
      { additionalProperties: false },
    ),
    inputs: Type.Array(
      Type.Object({ name: Type.String(), mediaType: Nullable(Type.String()), sha256: Sha256Hex, body: Base64 }, { additionalProperties: false }),
    ),
    resources: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          purpose: Type.String(),
          fetchedAt: Type.String(),
          request: Type.Object(
            { method: Type.Enum(['GET', 'POST', 'DELETE']), url: Type.String(), sha256: Type.Optional(Sha256Hex), body: Type.Optional(Base64) },
            { additionalProperties: false },
          ),
          response: Type.Object(
            {
              url: Type.String(),
              status: Type.Integer(),
              headers: Type.Record(Type.String(), Type.String()),
              bytes: Type.Integer(),
              sha256: Sha256Hex,
              body: Base64,
            },
            { additionalProperties: false },
          ),
          redirects: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), status: Type.Integer() }, { additionalProperties: false })),
          peerAddress: Type.String(),
          allowances: Type.Array(Type.String()),
          tls: Nullable(
            Type.Object(
              {
                host: Type.String(),
                protocol: Type.String(),
                cipher: Type.String(),
                validatedBy: Type.String(),
                chain: Type.Array(Base64, { description: 'DER certificates as the handshake validated them, leaf first, the anchor last.' }),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    failures: Type.Optional(
      Type.Array(Type.Record(Type.String(), Type.Unknown(), { description: 'A request that got no response: id, purpose, fetchedAt, request, problem.' })),
    ),
    txt: Type.Array(Type.Object({ name: Type.String(), records: Type.Array(Type.String()) }, { additionalProperties: false })),
    result: Type.Record(Type.String(), Type.Unknown(), { description: 'The result svc computed, as it reported it.' }),
    signature: Type.Optional(
      Type.Object(
        { protected: Type.String(), signature: Type.String() },
        {
          additionalProperties: false,
          description: 'From a daemon with a signing key: a detached JWS over the canonical form of the bundle without signature.',
        },
      ),
    ),
  },
  { $id: 'EvidenceBundle', additionalProperties: false },
);

// ---------------------------------------------------------------- the enriched resolution

export const EnrichedResolutionSchema = Type.Object(
  {
    did: Type.String(),
    /** e.g. web, key, jwk, webvh. */
    method: Type.String(),
    didDocument: Type.Ref('DidDocument'),
    didResolutionMetadata: Type.Ref('DidResolutionMetadata'),
    didDocumentMetadata: Type.Ref('DidDocumentMetadata'),
    verdict: Type.Ref('Verdict'),
    /** The seven dimensions, each evaluated on its own. */
    dimensions: Type.Array(Type.Ref('Dimension'), { minItems: 7, maxItems: 7 }),
    evidence: Type.Ref('Evidence'),
    graph: Type.Object({ nodes: Type.Array(Type.Ref('GraphNode')), edges: Type.Array(Type.Ref('GraphEdge')) }, { additionalProperties: false }),
    trace: Type.Array(Type.Ref('TraceStage')),
    limitations: Type.Array(Type.String()),
    resolver: Type.Object({ name: Type.String(), version: Type.String() }, { additionalProperties: false }),
    observedAt: Type.String(),
    cached: Type.Boolean(),
  },
  { $id: 'EnrichedResolution', additionalProperties: false },
);

// ---------------------------------------------------------------- projections (fast verdict, graph)

export const FastDidVerdictSchema = Type.Object(
  {
    did: Type.String(),
    /** Always true: a DID that cannot be resolved is a problem, not a verdict. */
    resolved: Type.Literal(true),
    outcome: Type.Ref('Outcome'),
    headline: Type.String(),
    statements: Type.Array(Type.String()),
    dimensions: Type.Array(Type.Object({ id: Type.Ref('DimensionId'), state: Type.Ref('DimensionState') }, { additionalProperties: false })),
    keys: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          curve: Nullable(Type.String()),
          status: Type.Ref('KeyStatus'),
          relationships: Type.Array(Type.Ref('Relationship')),
          jwkThumbprint: Nullable(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    domainBinding: Nullable(Type.Ref('DomainBindingStatus')),
    documentSha256: Type.String(),
    observedAt: Type.String(),
    cached: Type.Boolean(),
  },
  { $id: 'FastDidVerdict', additionalProperties: false },
);

export const GraphResponseSchema = Type.Object(
  {
    did: Type.String(),
    observedAt: Type.String(),
    verdict: Type.Ref('Verdict'),
    nodes: Type.Array(Type.Ref('GraphNode')),
    edges: Type.Array(Type.Ref('GraphEdge')),
  },
  { $id: 'GraphResponse', additionalProperties: false },
);

// ---------------------------------------------------------------- history and diff

export const ObservationSchema = Type.Object(
  {
    id: Type.Integer(),
    did: Type.String(),
    documentHash: Type.String(),
    observedAt: Type.String(),
    lastSeenAt: Type.String(),
    seenCount: Type.Integer({ minimum: 1 }),
    latencyMs: Nullable(Type.Number({ minimum: 0 })),
    resolverVersion: Type.String(),
    domainBindingStatus: Nullable(Type.Ref('DomainBindingStatus')),
    summary: Type.String(),
  },
  { $id: 'Observation', additionalProperties: false },
);

export const ObservationHistorySchema = Type.Object(
  {
    did: Type.String(),
    count: Type.Integer({ minimum: 0 }),
    /** Newest first, at most the limit. */
    history: Type.Array(Type.Ref('Observation')),
    note: Type.String(),
  },
  { $id: 'ObservationHistory', additionalProperties: false },
);

export const SemanticDiffSchema = Type.Object(
  {
    did: Type.String(),
    fromHash: Type.String(),
    toHash: Type.String(),
    fromObservedAt: Type.String(),
    toObservedAt: Type.String(),
    identical: Type.Boolean(),
    keysAdded: Type.Array(Type.String()),
    keysRemoved: Type.Array(Type.String()),
    keysRotated: Type.Array(Type.String()),
    relationshipsChanged: Type.Array(
      Type.Object(
        { relationship: Type.Ref('Relationship'), added: Type.Array(Type.String()), removed: Type.Array(Type.String()) },
        { additionalProperties: false },
      ),
    ),
    servicesAdded: Type.Array(Type.String()),
    servicesRemoved: Type.Array(Type.String()),
    servicesChanged: Type.Array(Type.String()),
    controllerChanged: Type.Boolean(),
    alsoKnownAsChanged: Type.Boolean(),
    contextsChanged: Type.Boolean(),
    domainBindingFrom: Nullable(Type.Ref('DomainBindingStatus')),
    domainBindingTo: Nullable(Type.Ref('DomainBindingStatus')),
    domainBindingChanged: Type.Boolean(),
    changedMembers: Type.Array(Type.String()),
    summary: Type.String(),
    fromDocument: Type.Ref('DidDocument'),
    toDocument: Type.Ref('DidDocument'),
  },
  { $id: 'SemanticDiff', additionalProperties: false },
);

// ---------------------------------------------------------------- dereferencing and the W3C binding

const DidResolutionContextSchema = Type.Literal('https://w3id.org/did-resolution/v1');

/** The result of dereferencing a DID URL (also on /1.0 for an identifier with `/`, `?` or `#`). */
export const DereferencingResultSchema = Type.Object(
  {
    '@context': DidResolutionContextSchema,
    dereferencingMetadata: Type.Object(
      {
        contentType: Type.Union([Type.Literal('application/did'), Type.Literal('application/json'), Type.Literal('text/uri-list')]),
        retrieved: Type.String(),
      },
      { additionalProperties: false },
    ),
    /** The DID document (application/did), a verification method or service (application/json), or the endpoint URL(s) (text/uri-list). */
    contentStream: Type.Unknown(),
    /** The resolution's didDocumentMetadata. */
    contentMetadata: Type.Ref('DidDocumentMetadata'),
  },
  { $id: 'DereferencingResult', additionalProperties: false },
);

/** The resolution result of the W3C binding (application/did-resolution). */
export const W3cResolutionResultSchema = Type.Object(
  {
    '@context': DidResolutionContextSchema,
    didDocument: Type.Ref('DidDocument'),
    didResolutionMetadata: Type.Object(
      { contentType: Type.Literal('application/did'), retrieved: Type.String(), durationMs: Type.Number({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    didDocumentMetadata: Type.Ref('DidDocumentMetadata'),
  },
  { $id: 'W3cResolutionResult', additionalProperties: false },
);

/**
 * A failed resolution on /1.0 (application/did-resolution): `didDocument: null`, the
 * problem (its /1.0 status, no trace) in `didResolutionMetadata.error`.
 */
export const W3cErrorResolutionResultSchema = Type.Object(
  {
    '@context': DidResolutionContextSchema,
    didDocument: Type.Null(),
    didResolutionMetadata: Type.Object({ error: Type.Ref('Problem') }, { additionalProperties: false }),
    didDocumentMetadata: Type.Object({}, { additionalProperties: false }),
  },
  { $id: 'W3cErrorResolutionResult', additionalProperties: false },
);

// ---------------------------------------------------------------- the SSE frames

/** The data of each event of /v1/stream, by event name (the `x-svc-sse-frames` extension). */
export const SSE_FRAMES = {
  stage: Type.Ref('TraceStage'),
  result: Type.Ref('EnrichedResolution'),
  error: Type.Ref('Problem'),
  done: Type.Object({}, { additionalProperties: false }),
} as const;

// ---------------------------------------------------------------- query options

export const NoCacheQuerySchema = Type.Object(
  {
    noCache: Type.Optional(
      Type.Enum(['true', '1', '', 'false', '0'], {
        description: 'Bypass and refresh the resolution cache: true (also 1 or empty) or false (also 0).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Version options of did:webvh (docs/evidence.md#versions); the handler's parser says which combinations are allowed. */
const VersionOptions = {
  versionId: Type.Optional(Type.String({ description: 'did:webvh: the version with this versionId.' })),
  versionTime: Type.Optional(Type.String({ description: 'did:webvh: the version in force at this RFC 3339 time.' })),
  versionNumber: Type.Optional(Type.String({ description: 'did:webvh: the version with this number (a positive integer).', pattern: '^[0-9]+$' })),
};

export const ResolveQuerySchema = Type.Object({ noCache: NoCacheQuerySchema.properties.noCache, ...VersionOptions }, { additionalProperties: false });

/** GET /v1/resolve's query: the resolution options and `signed` (docs/daemon.md#signed-results). */
export const SignedResolveQuerySchema = Type.Object(
  {
    ...ResolveQuerySchema.properties,
    signed: SignedOptionSchema,
    bundle: Type.Optional(
      Type.Enum(['true', '1', '', 'false', '0'], {
        description:
          'true: answer the evidence bundle of a fresh resolution (never from the cache) instead of the result: the bytes fetched, their TLS chains and the result, ' +
          'application/vnd.svc.evidence-bundle+json, to re-check offline with svc verify-bundle; signed (its signature member) when the daemon has a signing key.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DiffQuerySchema = Type.Object(
  {
    from: Type.Optional(Type.String({ description: 'The older document hash (or a unique prefix of 8+ hex digits).' })),
    to: Type.Optional(Type.String({ description: 'The newer document hash (or a unique prefix of 8+ hex digits).' })),
  },
  { additionalProperties: false },
);

/** The `$id` of each resource of this file, for `Static<typeof X, typeof RESOLUTION_REFS>`. */
export const RESOLUTION_REFS = {
  TraceStage: TraceStageSchema,
  DimensionId: DimensionIdSchema,
  DimensionState: DimensionStateSchema,
  Outcome: OutcomeSchema,
  Relationship: RelationshipSchema,
  KeyStatus: KeyStatusSchema,
  DomainBindingStatus: DomainBindingStatusSchema,
  EdgeState: EdgeStateSchema,
  WebvhCheck: WebvhCheckSchema,
  DidDocument: DidDocumentSchema,
  DidDocumentMetadata: DidDocumentMetadataSchema,
  DidResolutionMetadata: DidResolutionMetadataSchema,
  Verdict: VerdictSchema,
  Dimension: DimensionSchema,
  SourceEvidence: SourceEvidenceSchema,
  DocumentEvidence: DocumentEvidenceSchema,
  Multicodec: MulticodecSchema,
  KeyEvidence: KeyEvidenceSchema,
  ServiceEvidence: ServiceEvidenceSchema,
  LinkageCredentialEvidence: LinkageCredentialEvidenceSchema,
  DomainBindingEvidence: DomainBindingEvidenceSchema,
  CertificateEvidence: CertificateEvidenceSchema,
  TlsEvidence: TlsEvidenceSchema,
  WebvhEntryEvidence: WebvhEntryEvidenceSchema,
  WebvhWitnessFileEvidence: WebvhWitnessFileEvidenceSchema,
  LogRewrite: LogRewriteSchema,
  KeptLogEvidence: KeptLogEvidenceSchema,
  HistoryEvidence: HistoryEvidenceSchema,
  WhoisStatus: WhoisStatusSchema,
  WhoisCredentialEvidence: WhoisCredentialEvidenceSchema,
  WhoisEvidence: WhoisEvidenceSchema,
  Evidence: EvidenceSchema,
  GraphNode: GraphNodeSchema,
  GraphEdge: GraphEdgeSchema,
  EnrichedResolution: EnrichedResolutionSchema,
  EvidenceBundle: EvidenceBundleSchema,
  FastDidVerdict: FastDidVerdictSchema,
  GraphResponse: GraphResponseSchema,
  Observation: ObservationSchema,
  ObservationHistory: ObservationHistorySchema,
  SemanticDiff: SemanticDiffSchema,
  DereferencingResult: DereferencingResultSchema,
  W3cResolutionResult: W3cResolutionResultSchema,
  W3cErrorResolutionResult: W3cErrorResolutionResultSchema,
};

/** The $id'd resources of the resolution routes (TraceStage and Problem are in COMMON_SCHEMAS). */
export const RESOLUTION_SCHEMAS: TSchema[] = Object.entries(RESOLUTION_REFS)
  .filter(([id]) => id !== 'TraceStage')
  .map(([, schema]) => schema);

// ---------------------------------------------------------------- route schemas

const DidUrlParamSchema = Type.Object(
  {
    didUrl: Type.String({
      description: 'The DID URL, raw or fully percent-encoded; a fragment delimiter is written %23. The request query is the DID URL query.',
    }),
  },
  { additionalProperties: false },
);

/** What a resolution can answer with besides its result (the /v1 statuses of docs/reference/problems.md). */
const RESOLUTION_PROBLEMS = {
  400: problem('INVALID_DID, INVALID_OPTIONS (unknown or repeated query option, bad value); INVALID_REQUEST (no Host header, malformed percent-encoding)'),
  403: problem("EGRESS_BLOCKED: the DID's host resolves to an address that is not public"),
  404: problem('NOT_FOUND: the document (or the version asked for) does not exist'),
  408: problem('REQUEST_TIMEOUT: the request ran past its time limit'),
  413: problem('PAYLOAD_TOO_LARGE: a fetched resource is over its size limit'),
  422: problem('INVALID_DID_DOCUMENT: the fetched document or log is invalid (id mismatch, not JSON, a did:webvh log that does not verify)'),
  429: problem("RATE_LIMITED: the client's budget is used up (Retry-After)"),
  500: problem('INTERNAL_ERROR'),
  501: problem('METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED'),
  502: problem("UPSTREAM_UNAVAILABLE: the DID's host failed or timed out (DNS, TLS, HTTP)"),
  503: problem('CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down)'),
} as const;

const TAGS = ['resolution'];

/** The content of /v1/stream's 200: the frames, with the data of each in `x-svc-sse-frames`. */
const sseMedia = {
  schema: Type.String({ description: 'text/event-stream frames: "event: <name>" and one "data: <JSON>" line each.' }),
  'x-svc-sse-frames': {
    stage: { $ref: '#/components/schemas/TraceStage' },
    result: { $ref: '#/components/schemas/EnrichedResolution' },
    error: { $ref: '#/components/schemas/Problem' },
    done: { type: 'object', additionalProperties: false },
  },
};

/** A resolution's answer, or with bundle=true its evidence bundle as its own media type. */
function bundleOr<T extends { content: Record<string, unknown> }>(response: T): T {
  return { ...response, content: { ...response.content, 'application/vnd.svc.evidence-bundle+json': { schema: Type.Ref('EvidenceBundle') } } };
}

export const RESOLUTION_ROUTE_SCHEMAS = {
  resolve: {
    summary: 'Resolve a DID and report its evidence',
    operationId: 'resolve',
    description:
      'The enriched resolution: the document, the seven dimensions, the evidence, the graph and the trace. ' +
      'did:webvh takes the version options and draws on the intensive budget.',
    tags: TAGS,
    params: DidParamSchema,
    querystring: SignedResolveQuerySchema,
    response: {
      200: bundleOr(signedJson(Type.Ref('EnrichedResolution'), 'The enriched resolution (with bundle=true: its evidence bundle)')),
      410: bundleOr(signedJson(Type.Ref('EnrichedResolution'), 'The DID is deactivated: the full result, verdict.outcome DEACTIVATED')),
      ...RESOLUTION_PROBLEMS,
      400: problem(
        'INVALID_DID, INVALID_OPTIONS (unknown or repeated query option, bad value, signed=true on a daemon without a signing key); INVALID_REQUEST (no Host header, malformed percent-encoding)',
      ),
    },
  },
  stream: {
    summary: 'Resolve a DID, streaming each stage as it completes (SSE)',
    operationId: 'stream',
    description:
      'text/event-stream. Frames in order: `stage` (zero or more, data: a TraceStage, as each stage completes), ' +
      'then `result` (data: the EnrichedResolution) or `error` (data: the problem, with its trace; a resolution past the time ' +
      'limit ends with the 408 problem), then `done` (data: {}). Problems of the resolution itself arrive as an `error` frame ' +
      "in a 200 stream; only the request's own problems (query, budget, capacity) are statuses. x-svc-sse-frames gives the data schema of each event.",
    tags: TAGS,
    params: DidParamSchema,
    querystring: NoCacheQuerySchema,
    response: {
      200: { description: 'The stream of frames', content: { 'text/event-stream': sseMedia } },
      400: problem(
        'INVALID_OPTIONS (unknown or repeated query option, bad noCache), INVALID_DID (no identifier); INVALID_REQUEST (no Host header, malformed percent-encoding)',
      ),
      429: RESOLUTION_PROBLEMS[429],
      500: RESOLUTION_PROBLEMS[500],
      503: RESOLUTION_PROBLEMS[503],
    },
  },
  dereference: {
    summary: 'Dereference a DID URL',
    operationId: 'dereference',
    description:
      'a fragment gives the verification method or service (application/json), `service` (+ `relativeRef`) the ' +
      'endpoint URL (text/uri-list), a version parameter the did:webvh version (application/did). The request query is the ' +
      'DID URL query (service, relativeRef, versionId, versionTime, versionNumber); a path is 501 FEATURE_NOT_SUPPORTED.',
    tags: TAGS,
    params: DidUrlParamSchema,
    response: {
      200: json(Type.Ref('DereferencingResult'), 'The dereferencing result'),
      ...RESOLUTION_PROBLEMS,
      400: problem('INVALID_DID_URL, INVALID_DID, INVALID_OPTIONS; INVALID_REQUEST (no Host header, malformed percent-encoding)'),
      404: problem('NOT_FOUND: the document, the fragment, the service or the version does not exist'),
      501: problem('METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED (a DID URL path, an unknown DID parameter)'),
    },
  },
  fastVerify: {
    summary: 'The short verdict of a DID',
    operationId: 'fastVerifyDid',
    description:
      'the few fields a caller needs to decide, projected from the resolution; served from the cache when fresh. A deactivated DID is a 200 with outcome DEACTIVATED.',
    tags: TAGS,
    params: DidParamSchema,
    querystring: NoCacheQuerySchema,
    response: { 200: json(Type.Ref('FastDidVerdict'), 'The fast DID verdict'), ...RESOLUTION_PROBLEMS },
  },
  graph: {
    summary: 'The evidence graph of a DID',
    operationId: 'graph',
    description: 'the verdict and the graph of the resolution.',
    tags: TAGS,
    params: DidParamSchema,
    querystring: NoCacheQuerySchema,
    response: { 200: json(Type.Ref('GraphResponse'), 'The graph response'), ...RESOLUTION_PROBLEMS },
  },
  keptLog: {
    summary: 'The kept did:webvh log of a DID',
    operationId: 'keptLog',
    description:
      'the verified entries of the did:webvh log as svc kept them (JSON Lines, each line as the host published it), ' +
      'so that the log stays checkable after its host deletes or rewrites it: `svc resolve <did> --log kept.jsonl` verifies it again. ' +
      'Kept only by resolutions with a store, at most 1,000 entries and 4 MiB per DID.',
    tags: ['history'],
    params: DidParamSchema,
    querystring: EmptyQuerySchema,
    response: {
      200: { description: 'The kept log (application/jsonl)', content: { 'application/jsonl': { schema: Type.String() } } },
      400: problem(
        'INVALID_DID (not a did:webvh), INVALID_OPTIONS (this route takes no query option); INVALID_REQUEST (no Host header, malformed percent-encoding)',
      ),
      404: problem('NOT_FOUND: no log of this DID is kept'),
      408: RESOLUTION_PROBLEMS[408],
      429: RESOLUTION_PROBLEMS[429],
      500: RESOLUTION_PROBLEMS[500],
      503: problem('SERVICE_UNAVAILABLE: the store is unavailable (see /ready; Retry-After), or the daemon is shutting down'),
    },
  },
  history: {
    summary: 'The observation history of a DID',
    operationId: 'history',
    description: 'what was retrieved and when, newest first (records, not proofs of history).',
    tags: ['history'],
    params: DidParamSchema,
    querystring: EmptyQuerySchema,
    response: {
      200: json(Type.Ref('ObservationHistory'), 'The observation history'),
      400: problem('INVALID_DID, INVALID_OPTIONS (this route takes no query option); INVALID_REQUEST (no Host header, malformed percent-encoding)'),
      408: RESOLUTION_PROBLEMS[408],
      429: RESOLUTION_PROBLEMS[429],
      500: RESOLUTION_PROBLEMS[500],
      503: problem('SERVICE_UNAVAILABLE: the observation store is unavailable (see /ready; Retry-After), or the daemon is shutting down'),
    },
  },
  diff: {
    summary: 'The semantic diff of two observed documents of a DID',
    operationId: 'diff',
    description: 'without from/to, the latest two distinct observations.',
    tags: ['history'],
    params: DidParamSchema,
    querystring: DiffQuerySchema,
    response: {
      200: json(Type.Ref('SemanticDiff'), 'The semantic diff'),
      400: problem(
        'INVALID_DID, INVALID_OPTIONS (unknown option, a hash prefix that is not 8+ hex digits or not unique); INVALID_REQUEST (no Host header, malformed percent-encoding)',
      ),
      404: problem('NOT_FOUND: fewer than two observations, or no observed document with that hash'),
      408: RESOLUTION_PROBLEMS[408],
      429: RESOLUTION_PROBLEMS[429],
      500: RESOLUTION_PROBLEMS[500],
      503: problem('SERVICE_UNAVAILABLE: the observation store is unavailable (see /ready; Retry-After), or the daemon is shutting down'),
    },
  },
} satisfies Record<string, RouteSchema>;
