/**
 * Drift of an MCP inventory against the previous stored snapshot of the same endpoint URL
 * (docs/agents.md#drift). Each kind is matched by its key — tools and prompts by `name`, resources
 * by `uri`, resource templates by `uriTemplate` — and never across kinds:
 *
 *   no snapshot                   every item FIRST_OBSERVATION, inventory FIRST_OBSERVATION
 *   snapshot of another profile   every item PROFILE_CHANGED (the hashes are not comparable;
 *                                 no behaviour change is implied), inventory PROFILE_CHANGED
 *                                 with its `reason`; added and removed are still known by key
 *   otherwise                     ADDED (key not in the snapshot), UNCHANGED (same
 *                                 definitionSha256) or CHANGED (with the members that differ);
 *                                 the inventory is CHANGED when anything of any kind was added,
 *                                 removed or changed, else UNCHANGED
 *
 * A snapshot taken before svc inventoried prompts and resources ("tools-only coverage": its
 * prompts, resources and templates are undefined) knows nothing of them. When the current
 * inventory has any, they are FIRST_OBSERVATION (not PROFILE_CHANGED: they were never
 * fingerprinted), tools are compared as usual, and the inventory is PROFILE_CHANGED with the
 * reason — unless a tool was added, removed or changed: then CHANGED, since a behaviour change
 * is never hidden behind a coverage change (the reason is still given). That inventory is
 * stored with full coverage, so the next inspection compares everything: PROFILE_CHANGED for
 * coverage happens once. A server without prompts or resources keeps its old inventory hash and
 * is compared as before (UNCHANGED), its row coalesced and given the coverage marker.
 *
 * A partial listing of a kind (a limit or a failed list stopped it) cannot show that an item of
 * that kind was removed: its `removed` stays empty then.
 */
import { HASH_PROFILE } from '../canonical.js';
import type { JsonObject } from '../encoding/json.js';
import type { McpSnapshot } from './store.js';
import { changedMembers } from './fingerprint.js';
import { ITEM_KINDS, type InventoryDrift, type ItemKind, type KindDrift, type ToolDrift } from './types.js';

/** One fingerprinted item of any kind, by its key (a tool's or prompt's name, a URI, a URI template). */
export interface FingerprintedItem {
  key: string;
  definitionSha256: string;
  definition: JsonObject;
}

/** The fingerprinted inventory, by kind. */
export interface FingerprintedInventory {
  tools: readonly FingerprintedItem[];
  prompts: readonly FingerprintedItem[];
  resources: readonly FingerprintedItem[];
  resourceTemplates: readonly FingerprintedItem[];
}

export type Kind = 'tools' | ItemKind;
export const KINDS: readonly Kind[] = ['tools', ...ITEM_KINDS];

/** Whether each kind was listed whole. */
export type Completeness = Record<Kind, boolean>;

export interface ItemDriftResult {
  drift: ToolDrift;
  changedFields?: string[];
}

export interface DriftResult {
  inventory: InventoryDrift;
  /** Per kind, per key. */
  items: Record<Kind, Map<string, ItemDriftResult>>;
}

const NOTHING: KindDrift = { added: [], removed: [], changed: [] };

function emptyKinds(): Pick<InventoryDrift, ItemKind> {
  return { prompts: { ...NOTHING }, resources: { ...NOTHING }, resourceTemplates: { ...NOTHING } };
}

/** The reason of a PROFILE_CHANGED over the hash profile. */
export function profileReason(previousObservedAt: string): string {
  return `the previous inventory (${previousObservedAt}) was fingerprinted with another or no hash profile; definitions are not comparable`;
}

/** The reason when the previous snapshot covered tools only. */
export function coverageReason(previousObservedAt: string): string {
  return `the previous inventory (${previousObservedAt}) covered tools only; prompts and resources are inventoried since this version, so only tools were compared`;
}

/** One kind against its snapshot (or baseline) entries: per-item drift and the added/removed/changed keys. */
export function compareKind(
  current: readonly FingerprintedItem[],
  before: ReadonlyArray<{ key: string; definitionSha256: string; definition: JsonObject }>,
  complete: boolean,
  comparable: boolean,
): { kind: KindDrift; items: Map<string, ItemDriftResult> } {
  const items = new Map<string, ItemDriftResult>();
  const previous = new Map(before.map((item) => [item.key, item]));
  const present = new Set(current.map((item) => item.key));
  const added = current.filter((item) => !previous.has(item.key)).map((item) => item.key);
  const removed = complete ? before.filter((item) => !present.has(item.key)).map((item) => item.key) : [];
  const changed: string[] = [];
  for (const item of current) {
    const old = previous.get(item.key);
    if (!old) items.set(item.key, { drift: 'ADDED' });
    else if (!comparable) items.set(item.key, { drift: 'PROFILE_CHANGED' });
    else if (old.definitionSha256 === item.definitionSha256) items.set(item.key, { drift: 'UNCHANGED' });
    else {
      changed.push(item.key);
      items.set(item.key, { drift: 'CHANGED', changedFields: changedMembers(old.definition, item.definition) });
    }
  }
  return { kind: { added, removed, changed }, items };
}

function firstObservations(items: readonly FingerprintedItem[]): Map<string, ItemDriftResult> {
  return new Map(items.map((item) => [item.key, { drift: 'FIRST_OBSERVATION' as const }]));
}

/** The inventory drift when there is nothing to compare with (no snapshot, or no inventory). */
export function firstObservation(): InventoryDrift {
  return {
    status: 'FIRST_OBSERVATION',
    previousObservedAt: null,
    previousInventoryHash: null,
    added: [],
    removed: [],
    changed: [],
    ...emptyKinds(),
    reason: null,
  };
}

export function compareInventory(current: FingerprintedInventory, previous: McpSnapshot | undefined, complete: Completeness): DriftResult {
  const items = {} as Record<Kind, Map<string, ItemDriftResult>>;
  if (!previous) {
    for (const kind of KINDS) items[kind] = firstObservations(current[kind]);
    return { inventory: firstObservation(), items };
  }
  const comparable = previous.profile === HASH_PROFILE;
  const tools = compareKind(
    current.tools,
    previous.tools.map((t) => ({ ...t, key: t.name })),
    complete.tools,
    comparable,
  );
  items.tools = tools.items;
  const kinds = emptyKinds();
  // A tools-only snapshot: what it never covered is seen for the first time.
  const covered = ITEM_KINDS.every((kind) => previous[kind] !== undefined);
  let uncovered = false;
  for (const kind of ITEM_KINDS) {
    const before = previous[kind];
    if (before === undefined || !covered) {
      items[kind] = firstObservations(current[kind]);
      if (current[kind].length > 0) uncovered = true;
      continue;
    }
    const compared = compareKind(current[kind], before, complete[kind], comparable);
    items[kind] = compared.items;
    // With another profile nothing is "changed": the hashes cannot be compared.
    kinds[kind] = comparable ? compared.kind : { ...compared.kind, changed: [] };
  }
  const base = {
    previousObservedAt: previous.lastSeenAt,
    previousInventoryHash: previous.inventoryHash,
    added: tools.kind.added,
    removed: tools.kind.removed,
    ...kinds,
  };
  if (!comparable) return { inventory: { status: 'PROFILE_CHANGED', ...base, changed: [], reason: profileReason(previous.lastSeenAt) }, items };
  const drifted = [tools.kind, ...ITEM_KINDS.map((kind) => kinds[kind])].some((k) => k.added.length || k.removed.length || k.changed.length);
  const reason = uncovered ? coverageReason(previous.lastSeenAt) : null;
  const status = drifted ? 'CHANGED' : uncovered ? 'PROFILE_CHANGED' : 'UNCHANGED';
  return { inventory: { status, ...base, changed: tools.kind.changed, reason }, items };
}
