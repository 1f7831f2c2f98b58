/**
 * MCP inventories by endpoint (for drift) on both engines: the stored body
 * `{tools, prompts, resources, resourceTemplates}` and the row it is read back from. The
 * repositories: sqlite/mcp-observations.ts, postgres/mcp-observations.ts.
 */
import type { JsonObject } from '../../core/encoding/json.js';
import type { McpSnapshot, McpSnapshotItem, McpSnapshotTool, NewMcpSnapshot } from '../../core/mcp/store.js';

export type SnapshotRow = Omit<McpSnapshot, 'tools' | 'prompts' | 'resources' | 'resourceTemplates'> & { body: string };

const ITEM_MEMBERS = ['prompts', 'resources', 'resourceTemplates'] as const;

/** Entries of a stored array that have a string `keyMember` and definitionSha256; a missing definition reads as `{}`. */
function entries<T extends { definitionSha256: string; definition: JsonObject }>(value: unknown, keyMember: 'name' | 'key'): T[] {
  if (!Array.isArray(value)) return [];
  const kept = value.filter(
    (e): e is T =>
      typeof e === 'object' && e !== null && typeof (e as Record<string, unknown>)[keyMember] === 'string' && typeof (e as T).definitionSha256 === 'string',
  );
  for (const entry of kept) if (typeof entry.definition !== 'object' || entry.definition === null) entry.definition = {} as JsonObject;
  return kept;
}

/**
 * The stored body back as a snapshot: tools always (a body of another shape reads as no tools,
 * all ADDED), prompts, resources and templates only when the body has the member (a body
 * without them is tools-only coverage).
 */
export function toSnapshot(row: SnapshotRow): McpSnapshot {
  const { body, ...rest } = row;
  let parsed: Record<string, unknown> = {};
  try {
    const value = JSON.parse(body) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    // json_valid() in the table's CHECK makes this unreachable.
  }
  const snapshot: McpSnapshot = { ...rest, tools: entries<McpSnapshotTool>(parsed['tools'], 'name') };
  for (const member of ITEM_MEMBERS) {
    if (Array.isArray(parsed[member])) snapshot[member] = entries<McpSnapshotItem>(parsed[member], 'key');
  }
  return snapshot;
}

/** The body stored for a snapshot: its tools, and the other kinds it covers. */
export function snapshotBody(snapshot: NewMcpSnapshot): string {
  const body: Record<string, unknown> = { tools: snapshot.tools };
  for (const member of ITEM_MEMBERS) if (snapshot[member] !== undefined) body[member] = snapshot[member];
  return JSON.stringify(body);
}
