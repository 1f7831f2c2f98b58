/**
 * Schemas of the inspection routes (docs/agents.md): the MCP inspection and the
 * A2A card inspection. svc's own members are closed; what a server or an agent says about itself
 * (serverInfo, capabilities, annotations, schemas, the card) is open JSON, reported as received.
 * test/unit/schemas-agents-types.test.ts holds these schemas and the core types together.
 */
import Type, { type TSchema } from 'typebox';
import type { JsonObject, JsonValue } from '../../core/encoding/json.js';
import { SignedOptionSchema } from './common.js';

const NullableString = () => Type.Union([Type.String(), Type.Null()]);
const JsonObjectSchema = () => Type.Unsafe<JsonObject>(Type.Record(Type.String(), Type.Unknown()));
const NullableJsonObject = () => Type.Union([JsonObjectSchema(), Type.Null()]);

// ---- MCP ----

const DeclaredClass = () => Type.Union([Type.Literal('read_only'), Type.Literal('additive'), Type.Literal('destructive')]);
const HeuristicClass = () =>
  Type.Union([
    Type.Literal('read_only'),
    Type.Literal('sensitive_read'),
    Type.Literal('additive'),
    Type.Literal('destructive'),
    Type.Literal('execute'),
    Type.Literal('unknown'),
  ]);

/** The drift of one tool, prompt, resource or resource template. */
const ItemDrift = () =>
  Type.Union([Type.Literal('FIRST_OBSERVATION'), Type.Literal('UNCHANGED'), Type.Literal('CHANGED'), Type.Literal('ADDED'), Type.Literal('PROFILE_CHANGED')]);

export const McpCheckSchema = Type.Object(
  {
    id: Type.Union([
      Type.Literal('historyPersistence'),
      Type.Literal('transport'),
      Type.Literal('protocol'),
      Type.Literal('identity'),
      Type.Literal('inventory'),
      Type.Literal('drift'),
    ]),
    label: Type.String(),
    /** FAIL only with an approved baseline: the inventory differs from it (drift). */
    status: Type.Union([Type.Literal('PASS'), Type.Literal('WARN'), Type.Literal('FAIL'), Type.Literal('SKIP')]),
    detail: Type.String(),
  },
  { $id: 'McpCheck', additionalProperties: false },
);

export const RiskSignalSchema = Type.Object(
  {
    id: Type.Union([
      Type.Literal('hidden_instruction_tag'),
      Type.Literal('model_directive'),
      Type.Literal('cross_tool_shadowing'),
      Type.Literal('sensitive_path'),
      Type.Literal('exfiltration_parameter'),
      Type.Literal('shell_exec_name'),
      Type.Literal('executes_code'),
      Type.Literal('destructive_verb'),
      Type.Literal('writes_files'),
      Type.Literal('reads_environment'),
      Type.Literal('fetches_urls'),
      Type.Literal('invisible_unicode'),
      Type.Literal('encoded_payload'),
      Type.Literal('overlong_description'),
      Type.Literal('url_in_description'),
      Type.Literal('nonstandard_name'),
    ]),
    /** `parameter`: a tool's parameter or a prompt's argument; `uri`: a resource's URI or a template's URI template. */
    location: Type.Union([
      Type.Literal('name'),
      Type.Literal('uri'),
      Type.Literal('title'),
      Type.Literal('description'),
      Type.Literal('parameter'),
      Type.Literal('instructions'),
    ]),
    /** The parameter's (argument's) name when location is `parameter`. */
    parameter: Type.Optional(Type.String()),
    detail: Type.String(),
    /** At most 80 characters around the match; invisible and control characters shown as U+XXXX. */
    excerpt: Type.String(),
  },
  { $id: 'RiskSignal', additionalProperties: false },
);

export const ToolParameterSchema = Type.Object(
  {
    name: Type.String(),
    /** JSON Schema `type` as written (types joined with `|`), or null. */
    type: NullableString(),
    required: Type.Boolean(),
    description: NullableString(),
  },
  { $id: 'ToolParameter', additionalProperties: false },
);

const DeclaredHint = () =>
  Type.Object(
    {
      value: Type.Boolean(),
      /** explicit: the server sent a boolean; default: the MCP default applies. */
      source: Type.Union([Type.Literal('explicit'), Type.Literal('default')]),
    },
    { additionalProperties: false },
  );

export const McpToolSchema = Type.Object(
  {
    name: Type.String(),
    title: NullableString(),
    description: NullableString(),
    /** SHA-256 of the RFC 8785 form of the definition (`_meta` excluded). */
    definitionSha256: Type.String(),
    /** SHA-256 of the RFC 8785 form of `{inputSchema, outputSchema}`. */
    schemaSha256: Type.String(),
    parameters: Type.Array(Type.Ref('ToolParameter')),
    /** The server's annotations as received (its own claims), or null. */
    annotations: NullableJsonObject(),
    /** From the server's annotations only. */
    declaredClass: DeclaredClass(),
    declaredHints: Type.Object(
      { readOnlyHint: DeclaredHint(), destructiveHint: DeclaredHint(), idempotentHint: DeclaredHint(), openWorldHint: DeclaredHint() },
      { additionalProperties: false },
    ),
    /** svc's estimate from names, descriptions and schemas; never merged with declaredClass. */
    heuristicClass: HeuristicClass(),
    riskSignals: Type.Array(Type.Ref('RiskSignal')),
    drift: ItemDrift(),
    /** Top-level members that differ from the previous snapshot (CHANGED only). */
    changedFields: Type.Optional(Type.Array(Type.String())),
    inputSchema: Type.Unsafe<JsonValue | null>(Type.Unknown()),
  },
  { $id: 'McpTool', additionalProperties: false },
);

/** The members every prompt, resource and resource template carries beside its own. */
const listedItemMembers = () => ({
  title: NullableString(),
  description: NullableString(),
  /** SHA-256 of the RFC 8785 form of the item as received (envelope members such as `_meta` excluded). */
  definitionSha256: Type.String(),
  /** svc's estimate, as for tools. */
  riskSignals: Type.Array(Type.Ref('RiskSignal')),
  drift: ItemDrift(),
  /** Top-level members that differ from the previous snapshot (CHANGED only). */
  changedFields: Type.Optional(Type.Array(Type.String())),
});

/** A prompt of prompts/list, keyed by name; its messages are not fetched. */
export const McpPromptSchema = Type.Object(
  {
    name: Type.String(),
    ...listedItemMembers(),
    arguments: Type.Array(Type.Object({ name: Type.String(), description: NullableString(), required: Type.Boolean() }, { additionalProperties: false })),
  },
  { $id: 'McpPrompt', additionalProperties: false },
);

/** A resource of resources/list, keyed by uri; its contents are not fetched. */
export const McpResourceSchema = Type.Object(
  { uri: Type.String(), name: NullableString(), ...listedItemMembers(), mimeType: NullableString() },
  { $id: 'McpResource', additionalProperties: false },
);

/** A template of resources/templates/list, keyed by uriTemplate (RFC 6570). */
export const McpResourceTemplateSchema = Type.Object(
  { uriTemplate: Type.String(), name: NullableString(), ...listedItemMembers(), mimeType: NullableString() },
  { $id: 'McpResourceTemplate', additionalProperties: false },
);

/** Keys added, removed and changed in one kind. */
const KindDrift = () =>
  Type.Object({ added: Type.Array(Type.String()), removed: Type.Array(Type.String()), changed: Type.Array(Type.String()) }, { additionalProperties: false });

export const InventoryDriftSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('FIRST_OBSERVATION'), Type.Literal('UNCHANGED'), Type.Literal('CHANGED'), Type.Literal('PROFILE_CHANGED')]),
    previousObservedAt: NullableString(),
    previousInventoryHash: NullableString(),
    /** Tool names. */
    added: Type.Array(Type.String()),
    removed: Type.Array(Type.String()),
    changed: Type.Array(Type.String()),
    /** Prompt names. */
    prompts: KindDrift(),
    /** Resource URIs. */
    resources: KindDrift(),
    /** URI templates. */
    resourceTemplates: KindDrift(),
    /** Why the comparison was limited (another hash profile, or a tools-only previous snapshot); null otherwise. */
    reason: NullableString(),
    /** Only when compared with an approved baseline instead of the last stored observation. */
    baseline: Type.Optional(Type.Ref('BaselineDrift')),
  },
  { $id: 'InventoryDrift', additionalProperties: false },
);

/** What an MCP inventory was compared with when a baseline was given (status is then UNCHANGED or CHANGED). */
export const BaselineDriftSchema = Type.Object(
  {
    /** The baseline as named: the file given to --baseline, or `the request body`. */
    file: Type.String(),
    /** The server's entry in it (a config file's server name, else the target as approved). */
    name: Type.String(),
    /** SHA-256 of the RFC 8785 form of the entry; null when the baseline has none for this server (every item ADDED). */
    entrySha256: NullableString(),
    /** The server's own words that differ: serverInfo.<member> (or serverInfo), instructions, target. */
    server: Type.Array(Type.String()),
  },
  { $id: 'BaselineDrift', additionalProperties: false },
);

export const McpAuthSchema = Type.Object(
  {
    /** The HTTP status that asked for credentials (401). */
    status: Type.Integer(),
    wwwAuthenticate: NullableString(),
    resourceMetadataUrl: NullableString(),
    /** The RFC 9728 protected-resource metadata, when it could be fetched. */
    resourceMetadata: NullableJsonObject(),
    resourceMetadataError: NullableString(),
    scope: NullableString(),
  },
  { $id: 'McpAuth', additionalProperties: false },
);

export const McpTranscriptEntrySchema = Type.Object(
  {
    method: Type.String(),
    httpMethod: Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('DELETE'), Type.Literal('STDIO')]),
    protocolVersion: NullableString(),
    status: Type.Union([Type.Integer(), Type.Null()]),
    contentType: NullableString(),
    bytes: Type.Integer({ minimum: 0 }),
    durationMs: Type.Number({ minimum: 0 }),
    outcome: Type.String(),
  },
  { $id: 'McpTranscriptEntry', additionalProperties: false },
);

/** The inspection of an MCP server. */
export const McpInspectionSchema = Type.Object(
  {
    endpoint: Type.String(),
    status: Type.Union([Type.Literal('INSPECTED'), Type.Literal('AUTH_REQUIRED')]),
    mode: Type.Union([Type.Literal('STATELESS'), Type.Literal('SESSION'), Type.Literal('UNKNOWN')]),
    negotiatedVersion: NullableString(),
    supportedVersions: Type.Array(Type.String()),
    /** Self-reported; no identity is attested. */
    serverInfo: NullableJsonObject(),
    capabilities: NullableJsonObject(),
    instructions: NullableString(),
    instructionSignals: Type.Array(Type.Ref('RiskSignal')),
    /** Empty when AUTH_REQUIRED. */
    tools: Type.Array(Type.Ref('McpTool')),
    /** Listed when the server declares capabilities.prompts; empty otherwise and when AUTH_REQUIRED. */
    prompts: Type.Array(Type.Ref('McpPrompt')),
    /** Listed when the server declares capabilities.resources; empty otherwise and when AUTH_REQUIRED. */
    resources: Type.Array(Type.Ref('McpResource')),
    /** As resources; empty too when the server lacks resources/templates/list. */
    resourceTemplates: Type.Array(Type.Ref('McpResourceTemplate')),
    /** False when a limit (pages, items, reply size) or a failed prompts/resources listing stopped a listing. */
    complete: Type.Boolean(),
    /** Why, naming the list; several reasons are joined by `; `. */
    inventoryLimit: NullableString(),
    /**
     * Null when incomplete or AUTH_REQUIRED. Without prompts, resources or templates: over the
     * sorted tool definitionSha256 values; otherwise over {prompts, resourceTemplates, resources, tools}, each sorted.
     */
    inventoryHash: NullableString(),
    hashProfile: Type.String(),
    classCounts: Type.Object(
      {
        declared: Type.Object({ read_only: Type.Integer(), additive: Type.Integer(), destructive: Type.Integer() }, { additionalProperties: false }),
        heuristic: Type.Object(
          {
            read_only: Type.Integer(),
            sensitive_read: Type.Integer(),
            additive: Type.Integer(),
            destructive: Type.Integer(),
            execute: Type.Integer(),
            unknown: Type.Integer(),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    drift: Type.Ref('InventoryDrift'),
    auth: Type.Union([Type.Ref('McpAuth'), Type.Null()]),
    transcript: Type.Array(Type.Ref('McpTranscriptEntry')),
    checks: Type.Array(Type.Ref('McpCheck')),
    headline: Type.String(),
    tls: Type.Union([Type.Ref('TlsEvidence'), Type.Null()]),
    observedAt: Type.String(),
    limitations: Type.Array(Type.String()),
  },
  { $id: 'McpInspection', additionalProperties: false },
);

// ---- A2A ----

export const A2aCheckSchema = Type.Object(
  {
    id: Type.Union([
      Type.Literal('fetch'),
      Type.Literal('schema'),
      Type.Literal('version'),
      Type.Literal('interfaces'),
      Type.Literal('origin'),
      Type.Literal('provider'),
      Type.Literal('security'),
      Type.Literal('signature'),
      Type.Literal('drift'),
    ]),
    label: Type.String(),
    status: Type.Union([Type.Literal('PASS'), Type.Literal('WARN'), Type.Literal('FAIL'), Type.Literal('SKIP')]),
    detail: Type.String(),
  },
  { $id: 'A2aCheck', additionalProperties: false },
);

export const A2aInterfaceSchema = Type.Object(
  {
    url: NullableString(),
    /** JSONRPC, GRPC, HTTP+JSON or another open string. */
    protocolBinding: NullableString(),
    protocolVersion: NullableString(),
    https: Type.Boolean(),
    sameOrigin: Type.Boolean(),
  },
  { $id: 'A2aInterface', additionalProperties: false },
);

export const A2aSkillSchema = Type.Object(
  {
    id: NullableString(),
    name: NullableString(),
    description: NullableString(),
    tags: Type.Array(Type.String()),
  },
  { $id: 'A2aSkill', additionalProperties: false },
);

export const A2aSignatureSchema = Type.Object(
  {
    alg: NullableString(),
    kid: NullableString(),
    jku: NullableString(),
    status: Type.Union([Type.Literal('VALID'), Type.Literal('INVALID'), Type.Literal('UNSUPPORTED'), Type.Literal('INDETERMINATE')]),
    detail: Type.String(),
    /** The payload form that verified; null unless VALID. */
    canonicalization: Type.Union([Type.Literal('a2a-1.0'), Type.Literal('rfc8785'), Type.Null()]),
    /** RFC 7638 thumbprint of the key svc found for this signature (verified or not); null when none was found. */
    keyThumbprint: NullableString(),
  },
  { $id: 'A2aSignature', additionalProperties: false },
);

/** The inspection of an A2A agent card. */
export const A2aInspectionSchema = Type.Object(
  {
    /** The URL the card was served from (after redirects). */
    cardUrl: Type.String(),
    httpStatus: Type.Integer(),
    cardSha256: Type.String(),
    canonicalSha256: Type.String(),
    hashProfile: Type.String(),
    specVersion: Type.Union([Type.Literal('1.0'), Type.Literal('0.3'), Type.Literal('unknown')]),
    name: NullableString(),
    description: NullableString(),
    version: NullableString(),
    provider: Type.Union([Type.Object({ organization: NullableString(), url: NullableString() }, { additionalProperties: false }), Type.Null()]),
    documentationUrl: NullableString(),
    interfaces: Type.Array(Type.Ref('A2aInterface')),
    capabilities: NullableJsonObject(),
    securitySchemes: NullableJsonObject(),
    skills: Type.Array(Type.Ref('A2aSkill')),
    signatures: Type.Array(Type.Ref('A2aSignature')),
    checks: Type.Array(Type.Ref('A2aCheck')),
    headline: Type.String(),
    /** The parsed card exactly as received. */
    card: JsonObjectSchema(),
    tls: Type.Union([Type.Ref('TlsEvidence'), Type.Null()]),
    /** RFC 3339 UTC: when the card was fetched. */
    observedAt: Type.String(),
    limitations: Type.Array(Type.String()),
    /** Only when the card was compared with an approved baseline. */
    baseline: Type.Optional(Type.Ref('A2aBaselineComparison')),
  },
  { $id: 'A2aInspection', additionalProperties: false },
);

/** Skills, interfaces or signing keys added, removed and changed against an approved baseline. */
const A2aItemChanges = () =>
  Type.Object(
    {
      added: Type.Array(Type.String()),
      removed: Type.Array(Type.String()),
      changed: Type.Array(Type.Object({ key: Type.String(), changedFields: Type.Array(Type.String()) }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  );

/** An agent card compared with its approved baseline entry. */
export const A2aBaselineComparisonSchema = Type.Object(
  {
    /** The baseline as named: the file given to --baseline, or `the request body`. */
    file: Type.String(),
    /** The card's entry in it (the card URL as approved). */
    name: Type.String(),
    /** SHA-256 of the RFC 8785 form of that entry. */
    entrySha256: Type.String(),
    status: Type.Union([Type.Literal('UNCHANGED'), Type.Literal('CHANGED')]),
    /** Top-level card members (without signatures; skills apart) that differ. */
    card: Type.Array(Type.String()),
    /** By skill id (#<index> without one). */
    skills: A2aItemChanges(),
    /** By interface URL (#<index> without one). */
    interfaces: A2aItemChanges(),
    /** By the signature's kid (#<index> without one): alg, jku, keyThumbprint. */
    signingKeys: A2aItemChanges(),
  },
  { $id: 'A2aBaselineComparison', additionalProperties: false },
);

/** GET /v1/mcp/inspect. */
export const McpInspectQuerySchema = Type.Object(
  {
    endpoint: Type.String({ minLength: 1, maxLength: 2048, description: 'The URL of the MCP endpoint, e.g. https://tools.example/mcp.' }),
    signed: SignedOptionSchema,
  },
  { additionalProperties: false },
);

/** GET /v1/a2a/inspect. */
export const A2aInspectQuerySchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'The agent origin or the URL of its agent card, e.g. https://agent.example.' }),
    signed: SignedOptionSchema,
  },
  { additionalProperties: false },
);

/** POST /v1/mcp/inspect: the endpoint and the approved baseline to compare with. */
export const McpInspectBaselineRequestSchema = Type.Object(
  {
    endpoint: Type.String({ minLength: 1, maxLength: 2048, description: 'The URL of the MCP endpoint, e.g. https://tools.example/mcp.' }),
    baseline: Type.Unsafe<JsonObject>(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'An svc-mcp-baseline document (svc mcp approve writes it; docs/agents.md#approved-baselines), as JSON: compared with its entry approved from this endpoint instead of the last stored inventory.',
      }),
    ),
  },
  { $id: 'McpInspectBaselineRequest', additionalProperties: false },
);

/** POST /v1/a2a/inspect: the agent and the approved baseline to compare its card with. */
export const A2aInspectBaselineRequestSchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'The agent origin or the URL of its agent card, e.g. https://agent.example.' }),
    baseline: Type.Unsafe<JsonObject>(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'An svc-a2a-baseline document (svc a2a approve writes it), as JSON: the card is compared with its entry approved from the card URL.',
      }),
    ),
  },
  { $id: 'A2aInspectBaselineRequest', additionalProperties: false },
);

/** The `$id` of each resource of this file, for `Static<typeof X, typeof REFS>` (with the ids it refers to elsewhere). */
export const INSPECTION_REFS = {
  McpCheck: McpCheckSchema,
  RiskSignal: RiskSignalSchema,
  ToolParameter: ToolParameterSchema,
  McpTool: McpToolSchema,
  McpPrompt: McpPromptSchema,
  McpResource: McpResourceSchema,
  McpResourceTemplate: McpResourceTemplateSchema,
  InventoryDrift: InventoryDriftSchema,
  BaselineDrift: BaselineDriftSchema,
  McpAuth: McpAuthSchema,
  McpTranscriptEntry: McpTranscriptEntrySchema,
  McpInspection: McpInspectionSchema,
  A2aCheck: A2aCheckSchema,
  A2aInterface: A2aInterfaceSchema,
  A2aSkill: A2aSkillSchema,
  A2aSignature: A2aSignatureSchema,
  A2aInspection: A2aInspectionSchema,
  A2aBaselineComparison: A2aBaselineComparisonSchema,
  McpInspectBaselineRequest: McpInspectBaselineRequestSchema,
  A2aInspectBaselineRequest: A2aInspectBaselineRequestSchema,
};

/** The $id'd resources of these routes. */
export const INSPECTION_SCHEMAS: TSchema[] = Object.values(INSPECTION_REFS);
