/**
 * The storage contract of MCP inventories by endpoint, for drift, implemented on
 * both engines in src/store (sqlite/mcp-observations.ts, postgres/mcp-observations.ts); the
 * rules every store method keeps are core/runtime-store.ts's.
 */
import type { JsonObject } from '../encoding/json.js';
import type { Recorded } from '../history/store.js';

/** One tool of a stored MCP inventory: enough to match it by name and say what changed. */
export interface McpSnapshotTool {
  name: string;
  definitionSha256: string;
  /** The fingerprinted definition (envelope members removed). */
  definition: JsonObject;
}

/**
 * One prompt, resource or resource template of a stored MCP inventory, by its key: the prompt's
 * `name`, the resource's `uri`, the template's `uriTemplate`.
 */
export interface McpSnapshotItem {
  key: string;
  definitionSha256: string;
  /** The fingerprinted definition (envelope members removed). */
  definition: JsonObject;
}

/**
 * What one MCP inspection contributes to the history of its endpoint (its drift). The
 * stored body is `{tools, prompts, resources, resourceTemplates}`; a body without the last three
 * is a snapshot taken before svc inventoried them ("tools-only coverage"), read back with them
 * undefined — not empty: nothing is known of that server's prompts then.
 */
export interface NewMcpSnapshot {
  /** The endpoint URL without fragment: the key of the history. */
  endpoint: string;
  inventoryHash: string;
  /** Fingerprint profile; rows written before profiles existed have none. */
  profile: string | null;
  negotiatedVersion: string | null;
  /** RFC 3339 UTC, second precision. */
  observedAt: string;
  tools: McpSnapshotTool[];
  /** Undefined: not covered (a tools-only snapshot); svc always records all three. */
  prompts?: McpSnapshotItem[];
  resources?: McpSnapshotItem[];
  resourceTemplates?: McpSnapshotItem[];
}

export interface McpSnapshot extends NewMcpSnapshot {
  id: number;
  /** When this inventory was last observed unchanged. */
  lastSeenAt: string;
  seenCount: number;
}

export interface McpObservationStore {
  /** The newest snapshot of the endpoint, or undefined. */
  latest(endpoint: string): Promise<McpSnapshot | undefined>;
  /**
   * Records a snapshot. When the endpoint's latest snapshot has the same inventory hash and
   * profile it is coalesced (seenCount + 1, lastSeenAt, negotiatedVersion and the body
   * refreshed — so a tools-only row of a server without prompts or resources gains the coverage
   * of the snapshot recorded) and returned; otherwise a new row is inserted — or, in a store with a ceiling, inserted in place
   * of one-off rows, or refused (see Recorded).
   */
  record(snapshot: NewMcpSnapshot): Promise<Recorded<McpSnapshot>>;
}
