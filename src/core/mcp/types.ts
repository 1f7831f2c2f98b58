/**
 * MCP inspection: enumerations and the result shape, shared by the
 * core, the daemon route and the CLI. Everything a server says about itself (serverInfo,
 * annotations, instructions) is reported as its own claim; svc's estimates (heuristicClass,
 * riskSignals) sit beside them and are never merged with them.
 *
 * Four listings make the inventory: `tools/list` always, and — when the server declares the
 * capability — `prompts/list` (capabilities.prompts), `resources/list` and
 * `resources/templates/list` (capabilities.resources). Prompts, resources and templates are
 * fingerprinted and compared like tools, keyed by `name`, `uri` and `uriTemplate`; what they
 * return when used (prompt messages, resource contents) is never fetched.
 */
import type { TlsEvidence } from '../net.js';
import type { JsonObject, JsonValue } from '../encoding/json.js';

/** The current protocol version, tried first (`server/discover`). */
export const MCP_MODERN_VERSION = '2026-07-28';
/** The fallback (`initialize` handshake). */
export const MCP_LEGACY_VERSION = '2025-11-25';

/** The bounds of an inspection: pages, items and bytes per reply. */
export const MCP_LIMITS = {
  /** Pages read of each listing (tools, prompts, resources, resource templates: 10 each). */
  maxPages: 10,
  maxTools: 500,
  /**
   * Prompts, resources and resource templates counted together: a server of many resources
   * (a file tree) is bounded once, however it spreads them over the three lists. The listing
   * past this many is partial, as for tools.
   */
  maxPromptsAndResources: 500,
  /** Each reply of any listing. */
  maxResponseBytes: 2 * 1024 * 1024,
  /**
   * SSE events read for one request before its answer (priming events, notifications, server
   * requests, answers to other ids), counted over the reply and its resumptions.
   */
  maxEvents: 1000,
  /** GETs with Last-Event-ID after an SSE reply closed before the answer. */
  maxResumptions: 2,
  /** Server-to-client requests answered per request of svc; later ones are ignored. */
  maxServerRequests: 16,
  /**
   * stdio (`svc inspect-mcp --stdio`): the wait for one answer, the bound of one HTTP exchange
   * (DEFAULT_NET_LIMITS.totalMs); the whole conversation, start-up to the last listing; all the
   * bytes the server may write on stdout (a flood past it is cut); the tail of stderr kept.
   */
  stdioReplyMs: 15_000,
  stdioTotalMs: 60_000,
  stdioMaxBytes: 32 * 1024 * 1024,
  stdioStderrTail: 2048,
  /** After stdin closes, then after SIGTERM: the wait before the next step of ending a server. */
  stdioGraceMs: 2_000,
} as const;

export const MCP_STATUSES = ['INSPECTED', 'AUTH_REQUIRED'] as const;
export type McpStatus = (typeof MCP_STATUSES)[number];

export const MCP_MODES = ['STATELESS', 'SESSION', 'UNKNOWN'] as const;
export type McpMode = (typeof MCP_MODES)[number];

export const TOOL_DRIFT = ['FIRST_OBSERVATION', 'UNCHANGED', 'CHANGED', 'ADDED', 'PROFILE_CHANGED'] as const;
export type ToolDrift = (typeof TOOL_DRIFT)[number];

/** Per-item drift of a prompt, resource or resource template: the same values as a tool's. */
export type ItemDrift = ToolDrift;

/** Inventory drift: per-tool values except ADDED (an added tool makes the inventory CHANGED). */
export const INVENTORY_DRIFT = ['FIRST_OBSERVATION', 'UNCHANGED', 'CHANGED', 'PROFILE_CHANGED'] as const;
export type InventoryDriftStatus = (typeof INVENTORY_DRIFT)[number];

/** The six checks, in the order reported. */
export const MCP_CHECK_IDS = ['historyPersistence', 'transport', 'protocol', 'identity', 'inventory', 'drift'] as const;
export type McpCheckId = (typeof MCP_CHECK_IDS)[number];
/** FAIL only with an approved baseline: the inventory differs from it (`drift`). */
export type McpCheckStatus = 'PASS' | 'WARN' | 'FAIL' | 'SKIP';

export interface McpCheck {
  id: McpCheckId;
  label: string;
  status: McpCheckStatus;
  detail: string;
}

/**
 * Tool classes. `declaredClass` is read from annotations only: read_only, additive (destructiveHint
 * false) or destructive (the MCP default). `heuristicClass` is svc's estimate from names,
 * descriptions and schemas and may also be `sensitive_read` (changes nothing but reads the
 * process environment, where secrets live), `execute` (runs commands or code) or `unknown`.
 */
export const DECLARED_CLASSES = ['read_only', 'additive', 'destructive'] as const;
export type DeclaredClass = (typeof DECLARED_CLASSES)[number];
export const HEURISTIC_CLASSES = ['read_only', 'sensitive_read', 'additive', 'destructive', 'execute', 'unknown'] as const;
export type HeuristicClass = (typeof HEURISTIC_CLASSES)[number];

/** The four behaviour hints of ToolAnnotations with their MCP defaults. */
export const ANNOTATION_HINTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;
export type AnnotationHint = keyof typeof ANNOTATION_HINTS;

export interface DeclaredHint {
  value: boolean;
  /** `explicit`: the server sent a boolean; `default`: absent (or not a boolean), the MCP default applies. */
  source: 'explicit' | 'default';
}

export type DeclaredHints = Record<AnnotationHint, DeclaredHint>;

/**
 * Where a signal was found. `parameter` is a tool's parameter or a prompt's argument (named in
 * `parameter`); `uri` is a resource's `uri` or a template's `uriTemplate`.
 */
export type SignalLocation = 'name' | 'uri' | 'title' | 'description' | 'parameter' | 'instructions';

export const RISK_SIGNAL_IDS = [
  'hidden_instruction_tag',
  'model_directive',
  'cross_tool_shadowing',
  'sensitive_path',
  'exfiltration_parameter',
  'shell_exec_name',
  'executes_code',
  'destructive_verb',
  'writes_files',
  'reads_environment',
  'fetches_urls',
  'invisible_unicode',
  'encoded_payload',
  'overlong_description',
  'url_in_description',
  'nonstandard_name',
] as const;
export type RiskSignalId = (typeof RISK_SIGNAL_IDS)[number];

export interface RiskSignal {
  id: RiskSignalId;
  location: SignalLocation;
  /** The parameter's name when location is `parameter`. */
  parameter?: string;
  /** One line saying what was found, e.g. `an <IMPORTANT> block`. */
  detail: string;
  /**
   * A short excerpt around the match (at most 80 characters), with invisible and control
   * characters shown as `U+XXXX`, so that a report never carries them on.
   */
  excerpt: string;
}

export interface ToolParameter {
  name: string;
  /** JSON Schema `type` as written (a string, or types joined with `|`), or null. */
  type: string | null;
  required: boolean;
  description: string | null;
}

export interface McpTool {
  name: string;
  title: string | null;
  description: string | null;
  /** SHA-256 of the RFC 8785 form of the definition, envelope (`_meta`) excluded. */
  definitionSha256: string;
  /** SHA-256 of the RFC 8785 form of `{inputSchema, outputSchema}` as received. */
  schemaSha256: string;
  parameters: ToolParameter[];
  /** The server's annotations as received, or null. */
  annotations: JsonObject | null;
  declaredClass: DeclaredClass;
  /** Each behaviour hint with whether it was explicit or the MCP default. */
  declaredHints: DeclaredHints;
  heuristicClass: HeuristicClass;
  riskSignals: RiskSignal[];
  drift: ToolDrift;
  /** Top-level members of the definition that differ from the previous snapshot (CHANGED only). */
  changedFields?: string[];
  inputSchema: JsonValue | null;
}

/** One argument of a prompt, as the prompt lists it. */
export interface McpPromptArgument {
  name: string;
  description: string | null;
  /** True only when the server sent `required: true`. */
  required: boolean;
}

/**
 * The members every listed prompt, resource and template carries: the fingerprint (SHA-256 of
 * the RFC 8785 form of the item as received, envelope members excluded — as for tools), svc's
 * risk signals, and drift against the previous snapshot by the item's key.
 */
export interface ListedItem {
  title: string | null;
  description: string | null;
  definitionSha256: string;
  riskSignals: RiskSignal[];
  drift: ItemDrift;
  /** Top-level members of the definition that differ from the previous snapshot (CHANGED only). */
  changedFields?: string[];
}

/** A prompt of `prompts/list`, keyed by `name`. Its messages (`prompts/get`) are not fetched. */
export interface McpPrompt extends ListedItem {
  name: string;
  arguments: McpPromptArgument[];
}

/** A resource of `resources/list`, keyed by `uri`. Its contents (`resources/read`) are not fetched. */
export interface McpResource extends ListedItem {
  uri: string;
  /** MCP requires it; null when a server left it out. */
  name: string | null;
  mimeType: string | null;
}

/** A template of `resources/templates/list`, keyed by `uriTemplate` (RFC 6570). */
export interface McpResourceTemplate extends ListedItem {
  uriTemplate: string;
  name: string | null;
  mimeType: string | null;
}

/** The inventoried kinds other than tools, as the members of McpInspection name them. */
export const ITEM_KINDS = ['prompts', 'resources', 'resourceTemplates'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** Keys (prompt names, resource URIs, URI templates) added, removed and changed in one kind. */
export interface KindDrift {
  added: string[];
  removed: string[];
  changed: string[];
}

export interface InventoryDrift {
  status: InventoryDriftStatus;
  previousObservedAt: string | null;
  previousInventoryHash: string | null;
  /** Tool names. */
  added: string[];
  removed: string[];
  changed: string[];
  prompts: KindDrift;
  resources: KindDrift;
  resourceTemplates: KindDrift;
  /**
   * Why the comparison was limited, in one sentence: the previous snapshot had another hash
   * profile, or covered tools only (taken before prompts and resources were inventoried).
   * Null when everything was compared (or there was nothing to compare with).
   */
  reason: string | null;
  /**
   * Present only when the inventory was compared with an approved baseline (`--baseline`, or a
   * baseline in the request body) instead of the last stored observation: then `status` is
   * UNCHANGED or CHANGED, `previousObservedAt` null, `previousInventoryHash` the entry's.
   */
  baseline?: BaselineDrift;
}

/** What an inventory was compared with when it was compared with an approved baseline (baseline.ts). */
export interface BaselineDrift {
  /** The baseline as named: the file given to --baseline, or `the request body` on the daemon. */
  file: string;
  /** The server's entry in it: a config file's server name, else the target as approved. */
  name: string;
  /** SHA-256 of the RFC 8785 form of that entry; null when the baseline has none for this server (every item is ADDED). */
  entrySha256: string | null;
  /**
   * The server's own words that differ from the entry: `serverInfo.<member>` (or `serverInfo`
   * when one side has none), `instructions`, and `target` when a config file's server now runs
   * another command or URL. Sorted.
   */
  server: string[];
}

export interface McpAuth {
  /** HTTP status that asked for credentials (401). */
  status: number;
  wwwAuthenticate: string | null;
  /** `resource_metadata` from WWW-Authenticate, else the well-known URL tried. */
  resourceMetadataUrl: string | null;
  /** The RFC 9728 protected-resource metadata document, when it could be fetched. */
  resourceMetadata: JsonObject | null;
  /** Why the metadata is missing, when it is. */
  resourceMetadataError: string | null;
  /** `scope` from WWW-Authenticate. */
  scope: string | null;
}

export interface TranscriptEntry {
  /** The JSON-RPC method (`server/discover`, `tools/list` …), `DELETE` for ending a session, or the metadata GET. */
  method: string;
  /** `STDIO`: a message written on a local server's stdin (and the end of that process). */
  httpMethod: 'GET' | 'POST' | 'DELETE' | 'STDIO';
  /** The protocol version header sent, if any. */
  protocolVersion: string | null;
  /** HTTP status, or null when the exchange failed before one arrived. */
  status: number | null;
  contentType: string | null;
  bytes: number;
  durationMs: number;
  /** One line: the outcome (`result`, `JSON-RPC error -32601`, `page 2, 10 tools` …). Never a secret. */
  outcome: string;
}

export interface McpInspection {
  endpoint: string;
  status: McpStatus;
  mode: McpMode;
  negotiatedVersion: string | null;
  /** As the server advertised them (server/discover), or the one version a legacy handshake agreed. */
  supportedVersions: string[];
  /** Self-reported; no identity is attested. */
  serverInfo: JsonObject | null;
  capabilities: JsonObject | null;
  instructions: string | null;
  /** Signals found in `instructions` (svc's estimate, like the tools' riskSignals). */
  instructionSignals: RiskSignal[];
  tools: McpTool[];
  /** Empty when the server declares no `prompts` capability, and when AUTH_REQUIRED. */
  prompts: McpPrompt[];
  /** Empty when the server declares no `resources` capability, and when AUTH_REQUIRED. */
  resources: McpResource[];
  /** As resources (the same capability); empty too when the server lacks the method. */
  resourceTemplates: McpResourceTemplate[];
  /**
   * False when a limit (pages, items, reply size) or a failed prompts/resources listing stopped
   * a listing; the reasons, naming the list, are in `inventoryLimit` (joined by `; `).
   */
  complete: boolean;
  inventoryLimit: string | null;
  /**
   * Null when the listing is incomplete or AUTH_REQUIRED. Without prompts, resources and
   * templates: over the sorted tool definitionSha256 values (as before they were inventoried);
   * otherwise over the four sorted lists by kind (fingerprint.ts).
   */
  inventoryHash: string | null;
  /** The fingerprint profile (`rfc8785-binary64-v1`). */
  hashProfile: string;
  classCounts: {
    declared: Record<DeclaredClass, number>;
    heuristic: Record<HeuristicClass, number>;
  };
  drift: InventoryDrift;
  auth: McpAuth | null;
  transcript: TranscriptEntry[];
  checks: McpCheck[];
  headline: string;
  tls: TlsEvidence | null;
  observedAt: string;
  limitations: string[];
}
