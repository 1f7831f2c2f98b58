/**
 * Drift of an MCP inventory against the previous stored snapshot of the same endpoint URL
 * (SPEC §2.11). Tools are matched by name:
 *
 *   no snapshot                   every tool FIRST_OBSERVATION, inventory FIRST_OBSERVATION
 *   snapshot of another profile   every tool PROFILE_CHANGED (the hashes are not comparable;
 *                                 no behaviour change is implied), inventory PROFILE_CHANGED;
 *                                 added and removed are still known by name
 *   otherwise                     ADDED (name not in the snapshot), UNCHANGED (same
 *                                 definitionSha256) or CHANGED (with the members that differ);
 *                                 the inventory is CHANGED when anything was added, removed or
 *                                 changed, else UNCHANGED
 *
 * A partial listing (a limit stopped it) cannot show that a tool was removed: `removed` stays
 * empty then.
 */
import { HASH_PROFILE } from '../canonical.js';
import type { JsonObject } from '../encoding/json.js';
import type { McpSnapshot } from '../store.js';
import { changedMembers } from './fingerprint.js';
import type { InventoryDrift, ToolDrift } from './types.js';

export interface FingerprintedTool {
  name: string;
  definitionSha256: string;
  definition: JsonObject;
}

export interface DriftResult {
  inventory: InventoryDrift;
  tools: Map<string, { drift: ToolDrift; changedFields?: string[] }>;
}

export function compareInventory(tools: readonly FingerprintedTool[], previous: McpSnapshot | undefined, complete: boolean): DriftResult {
  const perTool = new Map<string, { drift: ToolDrift; changedFields?: string[] }>();
  if (!previous) {
    for (const tool of tools) perTool.set(tool.name, { drift: 'FIRST_OBSERVATION' });
    return {
      inventory: { status: 'FIRST_OBSERVATION', previousObservedAt: null, previousInventoryHash: null, added: [], removed: [], changed: [] },
      tools: perTool,
    };
  }
  const before = new Map(previous.tools.map((t) => [t.name, t]));
  const current = new Set(tools.map((t) => t.name));
  const added = tools.filter((t) => !before.has(t.name)).map((t) => t.name);
  const removed = complete ? previous.tools.filter((t) => !current.has(t.name)).map((t) => t.name) : [];
  const base = { previousObservedAt: previous.lastSeenAt, previousInventoryHash: previous.inventoryHash, added, removed };
  if (previous.profile !== HASH_PROFILE) {
    for (const tool of tools) perTool.set(tool.name, { drift: before.has(tool.name) ? 'PROFILE_CHANGED' : 'ADDED' });
    return { inventory: { status: 'PROFILE_CHANGED', ...base, changed: [] }, tools: perTool };
  }
  const changed: string[] = [];
  for (const tool of tools) {
    const old = before.get(tool.name);
    if (!old) perTool.set(tool.name, { drift: 'ADDED' });
    else if (old.definitionSha256 === tool.definitionSha256) perTool.set(tool.name, { drift: 'UNCHANGED' });
    else {
      changed.push(tool.name);
      perTool.set(tool.name, { drift: 'CHANGED', changedFields: changedMembers(old.definition, tool.definition) });
    }
  }
  const status = added.length || removed.length || changed.length ? 'CHANGED' : 'UNCHANGED';
  return { inventory: { status, ...base, changed }, tools: perTool };
}
