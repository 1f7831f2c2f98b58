/**
 * Approved MCP baselines (docs/agents.md#approved-baselines): the inventories a reviewer approved,
 * in a file meant to be committed (`svc mcp approve` writes it, `--baseline` reads it), laid out
 * as core/baseline.ts says. One file holds one or more servers by name:
 *
 *   {
 *     "format": "svc-mcp-baseline",
 *     "hashProfile": "rfc8785-binary64-v1",
 *     "servers": {
 *       "<name>": {                         a config file's server name, else the target itself
 *         "instructions": "…" | null,
 *         "prompts": { "<name>": item },
 *         "resourceTemplates": { "<uriTemplate>": item },
 *         "resources": { "<uri>": item },
 *         "serverInfo": { … } | null,
 *         "target": "https://tools.example/mcp" | "stdio:<command line>",
 *         "tools": { "<name>": item }
 *       }
 *     },
 *     "version": 1
 *   }
 *
 * and each item is `{"definition": {…}, "definitionSha256": "…"}`: one entry per fingerprint, the
 * definition as received (envelope members removed, fingerprint.ts) so that a difference names the
 * members that changed. Items are keyed as drift keys them (tools and prompts by name, resources
 * by uri, templates by uriTemplate), so a key cannot repeat: a duplicate member is refused by the
 * strict parser, as is an item whose definitionSha256 is not its definition's or whose key is not
 * its definition's own.
 *
 * Comparison (compareWithBaseline) is drift.ts's per kind, against the entry instead of a stored
 * snapshot: ADDED, UNCHANGED, CHANGED with changedFields, and the keys removed; plus the server's
 * own words (serverInfo members, instructions). The baseline never moves: only an approval
 * rewrites it.
 */
import { HASH_PROFILE, jcsSha256 } from '../canonical.js';
import { baselineLayout, baselineProblem, checkEnvelope, BASELINE_VERSION, onlyKnownMembers, pointerToken, quoted, readBaselineBytes } from '../baseline.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../encoding/json.js';
import { compareKind, KINDS, type Completeness, type DriftResult, type FingerprintedInventory, type ItemDriftResult, type Kind } from './drift.js';
import { changedMembers, inventoryHash } from './fingerprint.js';
import type { InventoryDrift, KindDrift } from './types.js';

export const MCP_BASELINE_FORMAT = 'svc-mcp-baseline';

/** One approved item: its definition as received and that definition's fingerprint. */
export interface McpBaselineItem {
  definition: JsonObject;
  definitionSha256: string;
}

/** One approved server. */
export interface McpBaselineServer {
  /** The endpoint URL or `stdio:<command line>` the inventory was read from (the drift key). */
  target: string;
  serverInfo: JsonObject | null;
  instructions: string | null;
  tools: Record<string, McpBaselineItem>;
  prompts: Record<string, McpBaselineItem>;
  resources: Record<string, McpBaselineItem>;
  resourceTemplates: Record<string, McpBaselineItem>;
}

export interface McpBaseline {
  format: typeof MCP_BASELINE_FORMAT;
  version: typeof BASELINE_VERSION;
  hashProfile: string;
  servers: Record<string, McpBaselineServer>;
}

/** The member of a definition that is its key, by kind. */
const KEY_MEMBER: Readonly<Record<Kind, string>> = { tools: 'name', prompts: 'name', resources: 'uri', resourceTemplates: 'uriTemplate' };
const SERVER_MEMBERS = ['instructions', 'prompts', 'resourceTemplates', 'resources', 'serverInfo', 'target', 'tools'] as const;
const HEX64 = /^[0-9a-f]{64}$/;

/** A baseline with no server yet (what approve starts from when the file does not exist). */
export function emptyMcpBaseline(): McpBaseline {
  return { format: MCP_BASELINE_FORMAT, version: BASELINE_VERSION, hashProfile: HASH_PROFILE, servers: {} };
}

function checkItems(value: JsonValue | undefined, kind: Kind, where: string): Record<string, McpBaselineItem> {
  if (!isJsonObject(value)) throw baselineProblem(where, `has no "${kind}" object`);
  const items: Record<string, McpBaselineItem> = {};
  for (const [key, item] of Object.entries(value)) {
    const at = `${where} (${kind} ${quoted(key)})`;
    if (!isJsonObject(item)) throw baselineProblem(at, 'is not an object');
    onlyKnownMembers(item, ['definition', 'definitionSha256'], at);
    const definition = item['definition'];
    const hash = item['definitionSha256'];
    if (!isJsonObject(definition)) throw baselineProblem(at, 'has no "definition" object');
    if (typeof hash !== 'string' || !HEX64.test(hash)) throw baselineProblem(at, 'has no hex "definitionSha256"');
    if (definition[KEY_MEMBER[kind]] !== key) throw baselineProblem(at, `has a definition whose ${KEY_MEMBER[kind]} is not ${quoted(key)}`);
    if (jcsSha256(definition) !== hash) throw baselineProblem(at, "has a definitionSha256 that is not its definition's (edited by hand?)");
    // Own data members only (a "__proto__" key stays a key).
    Object.defineProperty(items, key, { value: { definition, definitionSha256: hash }, enumerable: true, writable: true, configurable: true });
  }
  return items;
}

function checkServer(value: JsonValue, where: string): McpBaselineServer {
  if (!isJsonObject(value)) throw baselineProblem(where, 'is not an object');
  onlyKnownMembers(value, SERVER_MEMBERS, where);
  const { target, serverInfo, instructions } = value;
  if (typeof target !== 'string' || target === '') throw baselineProblem(where, 'has no "target" string (the endpoint or stdio command it was approved from)');
  if (serverInfo !== null && !isJsonObject(serverInfo)) throw baselineProblem(where, '"serverInfo" is neither an object nor null');
  if (instructions !== null && typeof instructions !== 'string') throw baselineProblem(where, '"instructions" is neither a string nor null');
  return {
    target,
    serverInfo,
    instructions,
    tools: checkItems(value['tools'], 'tools', where),
    prompts: checkItems(value['prompts'], 'prompts', where),
    resources: checkItems(value['resources'], 'resources', where),
    resourceTemplates: checkItems(value['resourceTemplates'], 'resourceTemplates', where),
  };
}

/**
 * An MCP baseline from a parsed value (a request body's member): the envelope, then every server
 * and item. `where` names it in refusals.
 */
export function mcpBaselineOf(value: JsonValue, where: string): McpBaseline {
  const envelope = checkEnvelope(value, where, MCP_BASELINE_FORMAT);
  onlyKnownMembers(envelope, ['format', 'hashProfile', 'servers', 'version'], where);
  const servers = envelope['servers'];
  if (!isJsonObject(servers)) throw baselineProblem(where, 'has no "servers" object');
  const checked: Record<string, McpBaselineServer> = {};
  for (const [name, server] of Object.entries(servers)) {
    Object.defineProperty(checked, name, {
      value: checkServer(server, `${where} (server ${quoted(name)})`),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { format: MCP_BASELINE_FORMAT, version: BASELINE_VERSION, hashProfile: HASH_PROFILE, servers: checked };
}

/** A baseline file's bytes (core/baseline.ts's rules, then mcpBaselineOf's). */
export function readMcpBaseline(bytes: Uint8Array, where: string): { baseline: McpBaseline; lines: BaselineLines } {
  // The file is the layout of its value, so its lines are the value's (the entry's items: depth 4).
  const document = readBaselineBytes(bytes, where, MCP_BASELINE_FORMAT, 4);
  return { baseline: mcpBaselineOf(document.value, where), lines: document.lines };
}

/** The line on which each server, kind and item of a baseline starts, by JSON pointer (`/servers/x/tools/echo`). */
export type BaselineLines = ReadonlyMap<string, number>;

/** The text svc writes for a baseline, and the line of each member (for SARIF locations). */
export function mcpBaselineText(baseline: McpBaseline): string {
  return baselineLayout(baseline as unknown as JsonValue, 0).text;
}

/** The JSON pointer of a server's item, kind or entry in a baseline (what BaselineLines is keyed by). */
export function baselinePointer(name: string, kind?: Kind, key?: string): string {
  return `/servers/${pointerToken(name)}${kind ? `/${kind}${key !== undefined ? `/${pointerToken(key)}` : ''}` : ''}`;
}

/** SHA-256 of the RFC 8785 form of an entry (BaselineDrift.entrySha256). */
export function entrySha256(entry: McpBaselineServer): string {
  return jcsSha256(entry);
}

/** The inventory hash of an entry, as an inspection of the same items would report it. */
export function entryInventoryHash(entry: McpBaselineServer): string {
  const hashes = (kind: Kind) => Object.values(entry[kind]).map((item) => item.definitionSha256);
  return inventoryHash({ tools: hashes('tools'), prompts: hashes('prompts'), resources: hashes('resources'), resourceTemplates: hashes('resourceTemplates') });
}

/**
 * The entry a single target is compared with: the one approved from that target. A baseline of
 * another server (its only entry has another target), or of several servers none of which is this
 * one, is refused: comparing with it would report every item changed. `target` null (a saved
 * listing that names no server): the baseline's only entry, else refused.
 */
export function entryForTarget(baseline: McpBaseline, target: string | null, where: string): { name: string; entry: McpBaselineServer } {
  const names = Object.keys(baseline.servers);
  if (names.length === 0) throw baselineProblem(where, 'approves no server yet (approve one with svc mcp approve)');
  if (target === null) {
    if (names.length === 1) return { name: names[0]!, entry: baseline.servers[names[0]!]! };
    throw baselineProblem(where, `holds ${names.length} servers and the file inspected names none: keep one server per baseline for saved listings`);
  }
  const matching = names.filter((name) => baseline.servers[name]!.target === target);
  if (matching.length === 1) return { name: matching[0]!, entry: baseline.servers[matching[0]!]! };
  if (matching.length > 1)
    throw baselineProblem(where, `holds ${matching.length} servers approved from ${quoted(target)} (${matching.map(quoted).join(', ')})`);
  if (names.length === 1)
    throw baselineProblem(where, `is the baseline of another server: ${quoted(baseline.servers[names[0]!]!.target)}, not ${quoted(target)}`);
  const shown = names.slice(0, 3).map(quoted).join(', ');
  throw baselineProblem(where, `holds no server approved from ${quoted(target)} (it holds ${shown}${names.length > 3 ? ` and ${names.length - 3} more` : ''})`);
}

/** What an inspection compares with when given a baseline (McpInspectOptions.baseline). */
export interface BaselineComparison {
  /** The baseline as reports name it: the file as given, or `the request body`. */
  file: string;
  /** The entry's name in the baseline (or the name it gets when approved). */
  name: string;
  /** The entry; null when the baseline has none for this server (a config's new server, a first approval). */
  entry: McpBaselineServer | null;
  /**
   * The server's own words (serverInfo, instructions) are compared only when the inventory has
   * them: false for a saved listing without an initialize result.
   */
  serverWords?: boolean;
  /** Compare the target too (a config file's server by name); single targets were matched by it. */
  compareTarget?: boolean;
  /**
   * Receives the inventory as an entry, for `approve`: only a complete inventory whose definitions
   * were received (not svc's own JSON read back, which carries fingerprints but no definitions).
   */
  capture?: (entry: McpBaselineServer) => void;
}

/** The server as an inspection saw it, beside its items. */
export interface ObservedServer {
  target: string;
  serverInfo: JsonObject | null;
  instructions: string | null;
}

/** An inventory as an entry of a baseline. */
export function entryOf(current: FingerprintedInventory, server: ObservedServer): McpBaselineServer {
  const items = (kind: Kind): Record<string, McpBaselineItem> => {
    const out: Record<string, McpBaselineItem> = {};
    for (const item of current[kind]) {
      Object.defineProperty(out, item.key, {
        value: { definition: item.definition, definitionSha256: item.definitionSha256 },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return {
    target: server.target,
    serverInfo: server.serverInfo,
    instructions: server.instructions,
    tools: items('tools'),
    prompts: items('prompts'),
    resources: items('resources'),
    resourceTemplates: items('resourceTemplates'),
  };
}

/** The server's own words that differ from the entry (BaselineDrift.server). */
export function serverDifferences(
  entry: McpBaselineServer | null,
  server: ObservedServer,
  use: Pick<BaselineComparison, 'serverWords' | 'compareTarget'>,
): string[] {
  // A server never approved: everything is new, its words too (its items say so).
  if (entry === null) return [];
  const before = entry;
  const out: string[] = [];
  if (use.compareTarget && before.target !== server.target) out.push('target');
  if (use.serverWords !== false) {
    if (before.serverInfo === null || server.serverInfo === null) {
      if (before.serverInfo !== server.serverInfo) out.push('serverInfo');
    } else {
      out.push(...changedMembers(before.serverInfo, server.serverInfo).map((member) => `serverInfo.${member}`));
    }
    if (before.instructions !== server.instructions) out.push('instructions');
  }
  return out.sort();
}

/**
 * An inventory compared with an approved entry (module comment): per kind as drift.ts compares
 * with a snapshot, and the server's own words. CHANGED when anything was added, removed or
 * changed; UNCHANGED otherwise (an incomplete listing then cannot show removals: the check says so).
 */
export function compareWithBaseline(current: FingerprintedInventory, server: ObservedServer, use: BaselineComparison, complete: Completeness): DriftResult {
  const entry = use.entry;
  const items = {} as Record<Kind, Map<string, ItemDriftResult>>;
  const kinds = {} as Record<Kind, KindDrift>;
  for (const kind of KINDS) {
    const before = entry === null ? [] : Object.entries(entry[kind]).map(([key, item]) => ({ key, ...item }));
    const compared = compareKind(current[kind], before, complete[kind], true);
    items[kind] = compared.items;
    kinds[kind] = compared.kind;
  }
  const differences = serverDifferences(entry, server, use);
  const drifted = differences.length > 0 || KINDS.some((kind) => kinds[kind].added.length || kinds[kind].removed.length || kinds[kind].changed.length);
  const inventory: InventoryDrift = {
    status: drifted ? 'CHANGED' : 'UNCHANGED',
    previousObservedAt: null,
    previousInventoryHash: entry === null ? null : entryInventoryHash(entry),
    added: kinds.tools.added,
    removed: kinds.tools.removed,
    changed: kinds.tools.changed,
    prompts: kinds.prompts,
    resources: kinds.resources,
    resourceTemplates: kinds.resourceTemplates,
    reason: null,
    baseline: { file: use.file, name: use.name, entrySha256: entry === null ? null : entrySha256(entry), server: differences },
  };
  return { inventory, items };
}

/** The number of items of an entry, by kind (what a new approval reports). */
export function entryCounts(entry: McpBaselineServer): Record<Kind, number> {
  return Object.fromEntries(KINDS.map((kind) => [kind, Object.keys(entry[kind]).length])) as Record<Kind, number>;
}

/** A baseline with one entry set (added or replaced); the others as they were. */
export function withEntry(baseline: McpBaseline, name: string, entry: McpBaselineServer): McpBaseline {
  const servers: Record<string, McpBaselineServer> = {};
  for (const [key, value] of Object.entries(baseline.servers))
    Object.defineProperty(servers, key, { value, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(servers, name, { value: entry, enumerable: true, writable: true, configurable: true });
  return { ...baseline, servers };
}

/** A baseline without the named entries. */
export function withoutEntries(baseline: McpBaseline, names: readonly string[]): McpBaseline {
  const servers: Record<string, McpBaselineServer> = {};
  for (const [key, value] of Object.entries(baseline.servers)) {
    if (!names.includes(key)) Object.defineProperty(servers, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return { ...baseline, servers };
}
