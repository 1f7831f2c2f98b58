/**
 * `inspectMcp` (SPEC §2.11, §4.10): one conversation with an MCP endpoint (client.ts), each tool
 * fingerprinted (fingerprint.ts), classed twice — from its annotations and by svc's heuristics
 * (classes.ts, signals.ts), never merged — and compared with the previous stored snapshot of
 * the endpoint (drift.ts). The result carries the six checks of §2.11 in order.
 *
 * Storage: a complete inventory is recorded after the drift was computed against the snapshot
 * before it. A partial one (a limit stopped the listing) or an AUTH_REQUIRED answer is not
 * stored, so it can never make the next comparison report removed tools.
 */
import { HASH_PROFILE } from '../canonical.js';
import type { JsonObject } from '../encoding/json.js';
import { isJsonObject } from '../encoding/json.js';
import { asProblemError, ProblemError } from '../problems.js';
import type { StageHooks } from '../resolve/trace.js';
import { rfc3339, type Runtime } from '../runtime.js';
import type { McpSnapshot } from '../store.js';
import { capitalise, plural } from '../text.js';
import { declaredClassOf, heuristicClassOf, parametersOf } from './classes.js';
import { converse, McpClient, type McpConversation } from './client.js';
import { compareInventory, type DriftResult, type FingerprintedTool } from './drift.js';
import { definitionSha256, inventoryHash, schemaSha256, toolDefinition } from './fingerprint.js';
import { instructionSignals, toolSignals } from './signals.js';
import {
  DECLARED_CLASSES,
  HEURISTIC_CLASSES,
  type DeclaredClass,
  type HeuristicClass,
  type McpAuth,
  type McpCheck,
  type McpInspection,
  type McpMode,
  type McpTool,
} from './types.js';

export interface McpInspectOptions {
  runtime: Runtime;
  signal?: AbortSignal;
  /**
   * Why the Runtime has no store although one was wanted (the database could not be opened):
   * historyPersistence is then a WARN. Without a store and without a reason, storage is off by
   * choice (`--no-store`) and the check is SKIP.
   */
  storageUnavailable?: string;
  /** Watch each request to the server as a stage (the CLI's progress line). */
  hooks?: StageHooks;
}

const LIMITATIONS = {
  identity: 'serverInfo is self-reported; svc attests no server identity.',
  classes:
    "annotations and declaredClass are the server's own claims; heuristicClass and riskSignals are svc's estimate from names, descriptions and schemas. The two are never merged, and neither shows what a tool actually does.",
  scope: 'Only tools are inspected: resources, prompts, tool results and what a call does are not.',
  auth: 'svc never authenticates; a server may list other tools to authenticated clients.',
  drift: 'Drift is compared with the last stored inventory of this exact endpoint URL.',
  versions: 'supportedVersions is as advertised in server/discover; a server may still answer older handshakes.',
} as const;

/** The endpoint as typed, parsed; a fragment is dropped (it never reaches the server). */
export function parseEndpoint(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ProblemError('INVALID_REQUEST', 'The MCP endpoint must be an absolute URL, e.g. https://tools.example/mcp.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ProblemError('INVALID_REQUEST', `The MCP endpoint must be an https URL, not ${url.protocol}.`);
  }
  url.hash = '';
  return url;
}

function emptyCounts<C extends string>(classes: readonly C[]): Record<C, number> {
  return Object.fromEntries(classes.map((c) => [c, 0])) as Record<C, number>;
}

/**
 * Fingerprints and classes of each listed tool. Every definition has an RFC 8785 form: replies
 * are parsed strictly, so no number outside binary64 (read as Infinity) reaches this point.
 */
function fingerprintTools(raw: readonly JsonObject[]): { tools: Omit<McpTool, 'drift' | 'riskSignals'>[]; fingerprinted: FingerprintedTool[] } {
  const tools: Omit<McpTool, 'drift' | 'riskSignals'>[] = [];
  const fingerprinted: FingerprintedTool[] = [];
  for (const tool of raw) {
    const name = tool['name'] as string;
    const definition = toolDefinition(tool);
    const definitionHash = definitionSha256(definition);
    const annotations = isJsonObject(tool['annotations']) ? tool['annotations'] : null;
    const inputSchema = tool['inputSchema'] ?? null;
    const text = {
      name,
      title: typeof tool['title'] === 'string' ? tool['title'] : annotations && typeof annotations['title'] === 'string' ? annotations['title'] : null,
      description: typeof tool['description'] === 'string' ? tool['description'] : null,
      inputSchema,
    };
    const { declaredClass, declaredHints } = declaredClassOf(annotations);
    tools.push({
      ...text,
      definitionSha256: definitionHash,
      schemaSha256: schemaSha256(definition),
      parameters: parametersOf(inputSchema),
      annotations,
      declaredClass,
      declaredHints,
      heuristicClass: heuristicClassOf(text),
    });
    fingerprinted.push({ name, definitionSha256: definitionHash, definition });
  }
  return { tools, fingerprinted };
}

function check(id: McpCheck['id'], label: string, status: McpCheck['status'], detail: string): McpCheck {
  return { id, label, status, detail };
}

function listNames(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).map((n) => JSON.stringify(n.length > 64 ? `${n.slice(0, 61)}...` : n));
  return names.length > max ? `${shown.join(', ')} and ${names.length - max} more` : shown.join(', ');
}

function transportCheck(client: McpClient): McpCheck {
  const tls = client.tls;
  if (!tls) {
    return check(
      'transport',
      'Transport',
      'WARN',
      `No TLS: ${client.endpoint.host} was reached over plain http (allowed only because the operator admits its address); anyone on the path can read and change what it says.`,
    );
  }
  return check(
    'transport',
    'Transport',
    'PASS',
    `TLS validated: ${tls.protocol} with ${tls.host}, certificate valid until ${tls.certificate.validTo} (${plural(tls.daysUntilExpiry, 'day')} left).`,
  );
}

function protocolCheck(era: 'modern' | 'legacy' | null, version: string | null): McpCheck {
  if (era === 'modern') return check('protocol', 'Protocol', 'PASS', `The server answered stateless discovery (server/discover, ${version}).`);
  if (era === 'legacy') return check('protocol', 'Protocol', 'WARN', `Only the older session handshake is supported (initialize, ${version ?? 'unknown version'}).`);
  return check('protocol', 'Protocol', 'SKIP', 'The server required authentication before showing which protocol it speaks.');
}

function identityCheck(serverInfo: JsonObject | null): McpCheck {
  const name = serverInfo && typeof serverInfo['name'] === 'string' ? serverInfo['name'].slice(0, 80) : null;
  const version = serverInfo && typeof serverInfo['version'] === 'string' ? serverInfo['version'].slice(0, 40) : null;
  const said = name ? `The server calls itself ${JSON.stringify(name)}${version ? ` ${JSON.stringify(version)}` : ''}` : 'The server gave no serverInfo';
  return check('identity', 'Identity', 'PASS', `${said}; serverInfo is self-reported and unauthenticated, so no identity is attested.`);
}

/** WARN when any tool or the instructions carry risk signals, or a limit cut the listing short. */
function inventoryCheck(tools: readonly McpTool[], instructionsFlagged: boolean, limit: string | null): McpCheck {
  const flagged = tools.filter((t) => t.riskSignals.length > 0).map((t) => t.name);
  const parts: string[] = [];
  if (flagged.length) parts.push(`${plural(flagged.length, 'tool')} of ${tools.length} ${flagged.length === 1 ? 'has' : 'have'} risk signals: ${listNames(flagged)}`);
  if (instructionsFlagged) parts.push('the server instructions have risk signals');
  if (limit) parts.push(`the listing is incomplete: ${limit}`);
  if (parts.length) return check('inventory', 'Inventory', 'WARN', `${capitalise(parts.join('; '))}.`);
  return check('inventory', 'Inventory', 'PASS', tools.length === 0 ? 'The server lists no tools.' : `No tool has risk signals (${plural(tools.length, 'tool')}).`);
}

function driftCheck(drift: DriftResult, complete: boolean, stored: boolean): McpCheck {
  const { inventory } = drift;
  if (inventory.status === 'FIRST_OBSERVATION') {
    if (!stored) return check('drift', 'Drift', 'SKIP', 'No stored inventory to compare with: storage is off or unavailable.');
    const partial = complete ? '' : ' The listing is incomplete, so it was not stored either.';
    return check('drift', 'Drift', 'SKIP', `First observation of this endpoint: nothing to compare with.${partial}`);
  }
  if (inventory.status === 'PROFILE_CHANGED') {
    return check('drift', 'Drift', 'SKIP', `The previous inventory (${inventory.previousObservedAt}) was fingerprinted with another or no hash profile; definitions are not comparable.`);
  }
  if (inventory.status === 'CHANGED') {
    const parts: string[] = [];
    if (inventory.added.length) parts.push(`added ${listNames(inventory.added)}`);
    if (inventory.removed.length) parts.push(`removed ${listNames(inventory.removed)}`);
    if (inventory.changed.length) parts.push(`changed ${listNames(inventory.changed)}`);
    return check('drift', 'Drift', 'WARN', `Since ${inventory.previousObservedAt}: ${parts.join('; ')}.`);
  }
  if (!complete) return check('drift', 'Drift', 'SKIP', 'The listing is incomplete: the tools seen are unchanged, but removed tools cannot be known.');
  return check('drift', 'Drift', 'PASS', `Definitions identical to the previous observation (${inventory.previousObservedAt}).`);
}

function headlineOf(result: Omit<McpInspection, 'headline'>): string {
  if (result.status === 'AUTH_REQUIRED') return 'The MCP server requires authentication (HTTP 401); svc does not authenticate, so no tools were listed.';
  const name = result.serverInfo && typeof result.serverInfo['name'] === 'string' ? `${result.serverInfo['name'].slice(0, 60)}: ` : '';
  const flagged = result.tools.filter((t) => t.riskSignals.length > 0).length;
  const parts = [`${plural(result.tools.length, 'tool')}${result.complete ? '' : ' (incomplete)'}`, `MCP ${result.negotiatedVersion}, ${result.mode.toLowerCase()}`];
  if (flagged) parts.push(`${flagged} with risk signals`);
  if (result.drift.status === 'CHANGED') {
    const d = result.drift;
    parts.push(`drift: ${[d.added.length && `${d.added.length} added`, d.removed.length && `${d.removed.length} removed`, d.changed.length && `${d.changed.length} changed`].filter(Boolean).join(', ')}`);
  } else if (result.drift.status === 'UNCHANGED') parts.push('unchanged since the last inspection');
  return `${name}${parts.join('; ')}.`;
}

async function persistenceCheck(
  runtime: Runtime,
  options: McpInspectOptions,
  endpoint: string,
  conversation: McpConversation,
  fingerprinted: FingerprintedTool[],
  hash: string,
  complete: boolean,
): Promise<McpCheck> {
  const store = runtime.store;
  if (!store && options.storageUnavailable !== undefined) {
    return check('historyPersistence', 'History', 'WARN', `Not stored: the database is unavailable (${options.storageUnavailable}); the next comparison may use an older snapshot.`);
  }
  if (!store) return check('historyPersistence', 'History', 'SKIP', 'Not stored: storage is off, so no drift is recorded or compared.');
  if (!complete) return check('historyPersistence', 'History', 'WARN', 'Not stored: a partial inventory is never stored; the next comparison uses the last complete one.');
  try {
    // Awaited inside the try: a rejected write is a WARN check, not a failed inspection.
    const { row } = await store.mcpObservations.record({
      endpoint,
      inventoryHash: hash,
      profile: HASH_PROFILE,
      negotiatedVersion: conversation.negotiatedVersion,
      observedAt: rfc3339(runtime.clock.now()),
      tools: fingerprinted,
    });
    if (row === null) {
      return check('historyPersistence', 'History', 'WARN', "Not stored: the inventory history is at this service's ceiling; the next comparison may use an older snapshot.");
    }
    return check('historyPersistence', 'History', 'PASS', row.seenCount > 1 ? `Inventory stored (seen ${row.seenCount} times unchanged).` : 'Inventory stored for later drift comparison.');
  } catch (err) {
    runtime.log.warn('mcp inventory not stored', { endpoint, reason: asProblemError(err).message });
    return check('historyPersistence', 'History', 'WARN', 'Not stored: the inventory could not be written; the next comparison may use an older snapshot.');
  }
}

async function latestSnapshot(runtime: Runtime, endpoint: string): Promise<McpSnapshot | undefined> {
  try {
    // Awaited inside the try: a rejected read means no previous snapshot, not a failed inspection.
    return await runtime.store?.mcpObservations.latest(endpoint);
  } catch (err) {
    runtime.log.warn('mcp history not readable', { endpoint, reason: asProblemError(err).message });
    return undefined;
  }
}

/**
 * Inspects one MCP endpoint. Throws ProblemError when no inspection could be produced (bad URL,
 * egress policy, unreachable, not an MCP endpoint); AUTH_REQUIRED and risk signals are results.
 */
export async function inspectMcp(input: string, options: McpInspectOptions): Promise<McpInspection> {
  const { runtime } = options;
  const url = parseEndpoint(input);
  const endpoint = url.href;
  const client = new McpClient(url, runtime, options.signal, options.hooks);
  const outcome = await converse(client);
  const observedAt = rfc3339(runtime.clock.now());
  const limitations: string[] = [LIMITATIONS.identity, LIMITATIONS.classes, LIMITATIONS.scope, LIMITATIONS.auth];

  if (outcome.status === 'AUTH_REQUIRED') {
    const base = authResult(endpoint, outcome.auth, outcome.mode, client, observedAt, limitations);
    base.checks = [
      runtime.store === undefined && options.storageUnavailable === undefined
        ? check('historyPersistence', 'History', 'SKIP', 'Not stored: storage is off, and the server required authentication.')
        : check('historyPersistence', 'History', 'WARN', 'Not stored: the server required authentication, so there is no inventory; the next comparison uses the last stored one.'),
      transportCheck(client),
      protocolCheck(outcome.era, null),
      identityCheck(null),
      check('inventory', 'Inventory', 'SKIP', 'No tools were listed: the server required authentication.'),
      check('drift', 'Drift', 'SKIP', 'No tools were listed: the server required authentication.'),
    ];
    return { ...base, headline: headlineOf(base) };
  }

  const { conversation } = outcome;
  const { listing } = conversation;
  const { tools: partial, fingerprinted } = fingerprintTools(listing.tools);
  const complete = listing.limit === null;
  const names = partial.map((t) => t.name);
  const previous = await latestSnapshot(runtime, endpoint);
  const drift = compareInventory(fingerprinted, previous, complete);
  const tools: McpTool[] = partial.map((tool) => {
    const toolDrift = drift.tools.get(tool.name)!;
    return {
      ...tool,
      // One array for every tool: the signals index it once (a tool's own name is ignored).
      riskSignals: toolSignals(tool, names),
      drift: toolDrift.drift,
      ...(toolDrift.changedFields ? { changedFields: toolDrift.changedFields } : {}),
    };
  });
  const instructionsFound = conversation.instructions ? instructionSignals(conversation.instructions, names) : [];
  const hash = inventoryHash(fingerprinted.map((t) => t.definitionSha256));
  // A partial listing has no inventory fingerprint: a hash over some tools would read as one.
  const classCounts = { declared: emptyCounts<DeclaredClass>(DECLARED_CLASSES), heuristic: emptyCounts<HeuristicClass>(HEURISTIC_CLASSES) };
  for (const tool of tools) {
    classCounts.declared[tool.declaredClass] += 1;
    classCounts.heuristic[tool.heuristicClass] += 1;
  }
  if (conversation.era === 'modern') limitations.push(LIMITATIONS.versions);
  limitations.push(LIMITATIONS.drift);
  for (const skipped of listing.skipped) limitations.push(`${capitalise(skipped)}.`);
  const limit = listing.limit;
  if (limit) limitations.push(`The inventory is incomplete: ${limit}.`);

  const historyCheck = await persistenceCheck(runtime, options, endpoint, conversation, fingerprinted, hash, complete);
  const base: Omit<McpInspection, 'headline'> = {
    endpoint,
    status: 'INSPECTED',
    mode: conversation.mode,
    negotiatedVersion: conversation.negotiatedVersion,
    supportedVersions: conversation.supportedVersions,
    serverInfo: conversation.serverInfo,
    capabilities: conversation.capabilities,
    instructions: conversation.instructions,
    instructionSignals: instructionsFound,
    tools,
    complete,
    inventoryLimit: limit,
    inventoryHash: complete ? hash : null,
    hashProfile: HASH_PROFILE,
    classCounts,
    drift: drift.inventory,
    auth: null,
    transcript: client.transcript,
    checks: [
      historyCheck,
      transportCheck(client),
      protocolCheck(conversation.era, conversation.negotiatedVersion),
      identityCheck(conversation.serverInfo),
      inventoryCheck(tools, instructionsFound.length > 0, limit),
      driftCheck(drift, complete, runtime.store !== undefined),
    ],
    tls: client.tls,
    observedAt,
    limitations,
  };
  return { ...base, headline: headlineOf(base) };
}

function authResult(endpoint: string, auth: McpAuth, mode: McpMode, client: McpClient, observedAt: string, limitations: string[]): Omit<McpInspection, 'headline'> {
  return {
    endpoint,
    status: 'AUTH_REQUIRED',
    mode,
    negotiatedVersion: null,
    supportedVersions: [],
    serverInfo: null,
    capabilities: null,
    instructions: null,
    instructionSignals: [],
    tools: [],
    complete: false,
    inventoryLimit: 'the server required authentication',
    inventoryHash: null,
    hashProfile: HASH_PROFILE,
    classCounts: { declared: emptyCounts<DeclaredClass>(DECLARED_CLASSES), heuristic: emptyCounts<HeuristicClass>(HEURISTIC_CLASSES) },
    drift: { status: 'FIRST_OBSERVATION', previousObservedAt: null, previousInventoryHash: null, added: [], removed: [], changed: [] },
    auth,
    transcript: client.transcript,
    checks: [],
    tls: client.tls,
    observedAt,
    limitations,
  };
}
