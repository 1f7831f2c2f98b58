/**
 * The operator webhook (monitor events; docs/daemon.md#operator-monitoring), documented under
 * `webhooks` in openapi.json: the envelope (`{id, type, did | mcpEndpoint | a2aCard, watchId,
 * createdAt, data}`), its event types, `data` by type (identity.*: document hashes, the domain
 * binding before and after, a diff summary, the verdict headline; for a failure, the problem; for
 * a did:webvh log rewrite, the first diverging entry; mcp.* and a2a.*: the snapshot hashes and
 * what was added, removed or changed; tls.*: the leaf, its expiry and the threshold reached, or
 * the leaf before and after), and the four headers with
 * the signature receivers check (the clients' verifyWebhook).
 *
 * The sender is core/monitoring/webhook.ts. The customer webhook
 * (docs/daemon.md#customer-monitoring) is the second entry: svc's body (`CustomerEvent`,
 * schemas/session-monitor.ts) and its two headers.
 */
import Type, { type TSchema } from 'typebox';
import { MONITOR_EVENT_TYPES } from '../../core/monitoring/store.js';
import { Nullable } from './common.js';

export const MonitorEventTypeSchema = Type.Union(
  MONITOR_EVENT_TYPES.map((t) => Type.Literal(t)),
  {
    $id: 'MonitorEventType',
    description:
      "What changed. identity.*: DID watches (identity.history.rewritten is svc's addition: the watched did:webvh's log no longer extends the log svc kept of it); mcp.*: MCP endpoint watches; a2a.*: A2A card watches; tls.*: any watch whose evidence holds a certificate (tls.certificate.expiring once per threshold of SVC_TLS_EXPIRY_DAYS per certificate; tls.certificate.changed when the leaf changes).",
  },
);

export const IdentityEventDataSchema = Type.Object(
  {
    fromHash: Nullable(Type.String({ description: 'The document hash (JCS SHA-256, hex) before the event; null when none was known.' })),
    toHash: Nullable(Type.String({ description: 'The document hash after the event; null when the identifier did not resolve.' })),
    domainBinding: Nullable(
      Type.Object(
        { from: Nullable(Type.Ref('DomainBindingStatus')), to: Nullable(Type.Ref('DomainBindingStatus')) },
        { additionalProperties: false, description: 'The domain binding status before and after.' },
      ),
    ),
    diff: Nullable(
      Type.Object(
        {
          summary: Type.String({ description: 'One sentence, as the semantic diff (GET /v1/diff) writes it.' }),
          changedMembers: Type.Array(Type.String()),
        },
        { additionalProperties: false, description: 'A summary of the semantic diff between the two documents; null when no document changed.' },
      ),
    ),
    headline: Nullable(Type.String({ description: 'The verdict headline of the new resolution; null when it failed.' })),
    problem: Nullable(Type.Ref('Problem', { description: 'identity.resolution.failed: why the resolution failed; null otherwise.' })),
    rewrite: Type.Optional(
      Type.Object(
        {
          versionNumber: Type.Integer({ minimum: 1, description: 'The position of the first entry where the served log stops extending the kept one.' }),
          kind: Type.Union([Type.Literal('CHANGED'), Type.Literal('REMOVED')], {
            description: 'CHANGED: another entry at that position; REMOVED: the served log ends before it.',
          }),
          kept: Type.Ref('MonitorRewriteSide', { description: 'The entry svc kept.' }),
          served: Nullable(Type.Ref('MonitorRewriteSide', { description: 'The entry the host now serves; null when removed.' })),
          detectedAt: Type.String({ description: 'When svc first saw this rewrite (RFC 3339).' }),
        },
        {
          additionalProperties: false,
          description: 'identity.history.rewritten only (absent from the other types): the first diverging entry of the did:webvh log.',
        },
      ),
    ),
  },
  { $id: 'IdentityEventData', additionalProperties: false, description: 'identity.* events (DID watches).' },
);

const hash = (what: string) => Nullable(Type.String({ description: what }));
const fromHash = hash("The hash (RFC 8785 SHA-256, hex) of the last good snapshot before the event (the watch's baseline); null when none was known.");
const toHash = hash('The hash of the new snapshot; null when the inspection failed.');
const mcpItem = (extra: Record<string, TSchema> = {}) =>
  Type.Object(
    {
      kind: Type.Union([Type.Literal('tool'), Type.Literal('prompt'), Type.Literal('resource'), Type.Literal('resourceTemplate')]),
      name: Type.String({ description: "The item's key: a tool's or prompt's name, a resource's URI, a template's URI template." }),
      ...extra,
    },
    { additionalProperties: false },
  );

export const McpInventoryChangedDataSchema = Type.Object(
  {
    endpoint: Type.String({ description: 'The watched MCP endpoint.' }),
    fromHash,
    toHash,
    added: Type.Array(mcpItem(), { description: 'Items the server lists now and did not before.' }),
    removed: Type.Array(mcpItem(), { description: 'Items it no longer lists.' }),
    changed: Type.Array(
      mcpItem({ fields: Type.Array(Type.String(), { description: "The definition's members that differ (e.g. description, inputSchema)." }) }),
      {
        description: 'Items whose definition differs, with the members that differ.',
      },
    ),
    server: Type.Array(Type.String(), { description: "The server's own words that differ: serverInfo.<member>, instructions." }),
    headline: Type.String({ description: 'One sentence naming the changes.' }),
  },
  {
    $id: 'McpInventoryChangedData',
    additionalProperties: false,
    description: 'mcp.inventory.changed: against the last good inventory (or the uploaded baseline).',
  },
);

const itemChanges = (noun: string) =>
  Type.Object(
    {
      added: Type.Array(Type.String()),
      removed: Type.Array(Type.String()),
      changed: Type.Array(Type.Object({ key: Type.String(), changedFields: Type.Array(Type.String()) }, { additionalProperties: false })),
    },
    { additionalProperties: false, description: `The ${noun} added, removed and changed (with the members that differ).` },
  );

export const A2aCardChangedDataSchema = Type.Object(
  {
    card: Type.String({ description: 'The watched card URL (or origin), as registered.' }),
    fromHash,
    toHash,
    skills: itemChanges('skills, by id'),
    interfaces: itemChanges('interfaces, by URL'),
    signingKeys: itemChanges("signing keys, by kid (changed: its alg, jku or the key's RFC 7638 thumbprint)"),
    members: Type.Array(Type.String(), { description: "The card's other top-level members that differ (signatures never count)." }),
    signatureStatus: Type.Object(
      { from: Nullable(Type.String()), to: Nullable(Type.String()) },
      {
        additionalProperties: false,
        description: 'The signature check (PASS, WARN, FAIL, SKIP) before and after; from is null when the baseline did not say (an uploaded one).',
      },
    ),
    headline: Type.String({ description: 'One sentence naming the changes.' }),
  },
  { $id: 'A2aCardChangedData', additionalProperties: false, description: 'a2a.card.changed: against the last good card (or the uploaded baseline).' },
);

export const TargetInspectionDataSchema = Type.Object(
  {
    endpoint: Type.Optional(Type.String({ description: 'mcp.*: the watched MCP endpoint.' })),
    card: Type.Optional(Type.String({ description: 'a2a.*: the watched card URL.' })),
    fromHash,
    toHash,
    problem: Nullable(Type.Ref('Problem', { description: '…inspection.failed: why the inspection failed; null on recovery.' })),
    headline: Nullable(Type.String({ description: '…inspection.recovered: one sentence (the changes, when there are any); null on failure.' })),
  },
  {
    $id: 'TargetInspectionData',
    additionalProperties: false,
    description:
      'mcp.inspection.failed / recovered, a2a.inspection.failed / recovered: failed once (not again while failing), recovered on the first success after.',
  },
);

export const TlsCertificateSchema = Type.Object(
  {
    sha256Fingerprint: Type.String({ description: "SHA-256 of the leaf's DER, colon-separated upper-case hex as OpenSSL prints it." }),
    subject: Type.String({ description: 'The subject distinguished name, e.g. `CN=example.com, O=Example`.' }),
    issuer: Type.String({ description: 'The issuer distinguished name.' }),
    notAfter: Type.String({ description: 'When the certificate expires (RFC 3339 UTC).' }),
  },
  { $id: 'TlsCertificate', additionalProperties: false, description: "The leaf certificate of the connection that served the watch's check." },
);

export const TlsCertificateExpiringDataSchema = Type.Object(
  {
    host: Type.String({ description: 'The host name the certificate was presented for.' }),
    certificate: Type.Ref('TlsCertificate'),
    daysLeft: Type.Integer({ description: 'Whole days from the check to notAfter, rounded down; negative once expired.' }),
    thresholdDays: Type.Integer({ minimum: 1, maximum: 365, description: 'The threshold reached: the smallest of SVC_TLS_EXPIRY_DAYS at or above daysLeft.' }),
    expired: Type.Boolean({ description: 'The certificate had already expired at the check (daysLeft negative).' }),
  },
  { $id: 'TlsCertificateExpiringData', additionalProperties: false, description: 'The data of tls.certificate.expiring.' },
);

export const TlsCertificateChangedDataSchema = Type.Object(
  {
    host: Type.String({ description: 'The host name the certificate was presented for.' }),
    from: Type.Object(
      {
        sha256Fingerprint: Type.String({ description: 'The fingerprint of the leaf seen before.' }),
        notAfter: Type.String({ description: 'Its notAfter (RFC 3339 UTC).' }),
      },
      { additionalProperties: false, description: 'The leaf seen before, as svc kept it (its fingerprint and expiry, not its names).' },
    ),
    to: Type.Ref('TlsCertificate'),
  },
  { $id: 'TlsCertificateChangedData', additionalProperties: false, description: 'The data of tls.certificate.changed.' },
);

/** The data of every event type. */
export const MonitorEventDataSchema = Type.Union(
  [
    Type.Ref('IdentityEventData'),
    Type.Ref('McpInventoryChangedData'),
    Type.Ref('A2aCardChangedData'),
    Type.Ref('TargetInspectionData'),
    Type.Ref('TlsCertificateExpiringData'),
    Type.Ref('TlsCertificateChangedData'),
  ],
  { $id: 'MonitorEventData', description: "The event's data: its shape follows the event type." },
);

export const MonitorRewriteSideSchema = Type.Object(
  {
    versionId: Nullable(Type.String({ description: "The entry's versionId as written; null when unreadable." })),
    versionTime: Nullable(Type.String()),
    entryHash: Type.String({ description: "SHA-256 (hex) of the entry's RFC 8785 form, proof included." }),
  },
  { $id: 'MonitorRewriteSide', additionalProperties: false, description: 'One side of a did:webvh log rewrite.' },
);

export const WebhookEnvelopeSchema = Type.Object(
  {
    id: Type.String({ pattern: '^evt_[0-9]+$', description: 'The stable event id (evt_<n>): receivers deduplicate on it (delivery is at least once).' }),
    type: Type.Ref('MonitorEventType'),
    did: Type.Optional(Type.String({ description: 'DID watches: the watched identifier.' })),
    mcpEndpoint: Type.Optional(Type.String({ description: 'MCP watches: the watched endpoint.' })),
    a2aCard: Type.Optional(Type.String({ description: 'A2A watches: the watched card URL.' })),
    watchId: Type.String(),
    createdAt: Type.String({ description: 'When the event was recorded (RFC 3339); stable across attempts.' }),
    data: Type.Ref('MonitorEventData'),
  },
  { $id: 'WebhookEnvelope', additionalProperties: false },
);

export const WEBHOOK_SCHEMAS: TSchema[] = [
  MonitorEventTypeSchema,
  MonitorRewriteSideSchema,
  IdentityEventDataSchema,
  McpInventoryChangedDataSchema,
  A2aCardChangedDataSchema,
  TargetInspectionDataSchema,
  TlsCertificateSchema,
  TlsCertificateExpiringDataSchema,
  TlsCertificateChangedDataSchema,
  MonitorEventDataSchema,
  WebhookEnvelopeSchema,
];

const header = (name: string, description: string, schema: Record<string, unknown>) => ({ in: 'header', name, required: true, description, schema });

/** The `webhooks` member of the document (OpenAPI 3.1): the operator monitor event and the customer event. */
export const WEBHOOKS = {
  monitorEvent: {
    post: {
      summary: 'A monitor event, POSTed to the webhook URL of an operator watch',
      description:
        'Delivered at least once: up to 5 attempts (backoff 60, 120, 240, 480 s), each bounded to 45 s; any 2xx ends ' +
        'delivery. The body and createdAt are the same on every attempt; X-Svc-Timestamp and X-Svc-Signature-256 are ' +
        'renewed per attempt. Verify before trusting: recompute HMAC-SHA256 keyed with the watch secret over ' +
        '`<X-Svc-Timestamp>.<raw body>`, compare in constant time, refuse timestamps more than 300 s away from now ' +
        '(the clients: verifyWebhook / verify_webhook). A signature grants no API quota or billing authority.',
      tags: ['monitoring'],
      parameters: [
        header('X-Svc-Event', 'The event type (as `type` in the body).', { $ref: '#/components/schemas/MonitorEventType' }),
        header('X-Svc-Event-Id', 'The event id (as `id` in the body): deduplicate on it.', { type: 'string', pattern: '^evt_[0-9]+$' }),
        header('X-Svc-Timestamp', 'Unix seconds when this attempt was signed.', { type: 'string', pattern: '^[0-9]+$' }),
        header('X-Svc-Signature-256', '`sha256=<hex>`: HMAC-SHA256 keyed with the watch secret over `<timestamp>.<raw body>`.', {
          type: 'string',
          pattern: '^sha256=[0-9a-f]{64}$',
        }),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEnvelope' } } } },
      responses: {
        '2XX': { description: 'Received: delivery ends.' },
        default: { description: 'Not received (any other status, or no answer within 45 s): retried until the fifth attempt, then dead-lettered.' },
      },
    },
  },
  customerEvent: {
    post: {
      summary: "A customer monitor event, POSTed to the project's webhook (owner sessions)",
      description:
        'Delivered at least once: up to 5 attempts (backoff 60, 120, 240, 480 s), each bounded to 45 s; any 2xx ends ' +
        'delivery. Every attempt sends the same bytes, X-SVC-Event-ID and X-SVC-Signature (made when the event was ' +
        'recorded). Verify before trusting: recompute HMAC-SHA256 keyed with the webhook secret over `<t>.<exact body>`, ' +
        'compare in constant time, accept t within 1800 s of now (the retry schedule fits in it), check that projectId ' +
        'is yours, and deduplicate durably on the event id (the clients: verifyCustomerWebhook / verify_customer_webhook).',
      tags: ['session'],
      parameters: [
        header('X-SVC-Event-ID', 'The event id (as `id` in the body): deduplicate on it.', { type: 'string', pattern: '^evt_[0-9]+$' }),
        header(
          'X-SVC-Signature',
          "`t=<creationTime>,v1=<hex>`: t is the event's creation in unix seconds; the hex is HMAC-SHA256 keyed with the webhook secret over `<t>.<exact UTF-8 body>`.",
          {
            type: 'string',
            pattern: '^t=[0-9]+,v1=[0-9a-f]{64}$',
          },
        ),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/CustomerEvent' } } } },
      responses: {
        '2XX': { description: 'Received: delivery ends.' },
        default: { description: 'Not received: retried until the fifth attempt, then dead-lettered; disabling the webhook cancels what is queued.' },
      },
    },
  },
} as const;
