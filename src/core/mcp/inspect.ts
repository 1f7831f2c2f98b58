/**
 * `inspectMcp` (docs/agents.md): one conversation with an MCP endpoint (client.ts), each tool
 * fingerprinted (fingerprint.ts), classed twice — from its annotations and by svc's heuristics
 * (classes.ts, signals.ts), never merged — and compared with the previous stored snapshot of
 * the endpoint (drift.ts). Prompts, resources and resource templates, listed when the server
 * declares them, are fingerprinted, scanned for signals and compared the same way (they have no
 * classes). The result carries the six checks in order.
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
import type { McpSnapshot } from './store.js';
import { capitalise, plural } from '../text.js';
import { declaredClassOf, heuristicClassOf, parametersOf } from './classes.js';
import { converse, McpClient, type Listed, type Listings, type McpConversation } from './client.js';
import { converseStdio, StdioChannel, stdioEndpoint, type StdioCommand, type StdioLauncher, type StdioLimits } from './stdio.js';
import {
  compareInventory,
  firstObservation,
  KINDS,
  type Completeness,
  type Kind,
  type DriftResult,
  type FingerprintedItem,
  type FingerprintedInventory,
  type ItemDriftResult,
} from './drift.js';
import { definitionSha256, inventoryHash, itemDefinition, schemaSha256 } from './fingerprint.js';
import { countedInspection } from '../telemetry.js';
import { compareWithBaseline, entryOf, type BaselineComparison } from './baseline.js';
import { instructionSignals, promptSignals, resourceSignals, toolSignals } from './signals.js';
import {
  DECLARED_CLASSES,
  HEURISTIC_CLASSES,
  ITEM_KINDS,
  type DeclaredClass,
  type HeuristicClass,
  type ItemKind,
  type McpAuth,
  type McpCheck,
  type McpInspection,
  type McpMode,
  type McpPrompt,
  type McpPromptArgument,
  type McpResource,
  type McpResourceTemplate,
  type McpTool,
  type RiskSignal,
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
  /**
   * Compare with this approved baseline entry instead of the last stored observation
   * (baseline.ts): drift is then UNCHANGED or CHANGED against it, and the drift check FAILs on any
   * difference. Storage is unaffected.
   */
  baseline?: BaselineComparison;
}

const LIMITATIONS = {
  identity: 'serverInfo is self-reported; svc attests no server identity.',
  classes:
    "annotations and declaredClass are the server's own claims; heuristicClass and riskSignals are svc's estimate from names, descriptions and schemas. The two are never merged, and neither shows what a tool actually does.",
  scope:
    'Only the listings are inspected (tools, prompts, resources and resource templates): tool results, what a call does, resource contents and prompt messages are not.',
  auth: 'svc never authenticates; a server may list other tools to authenticated clients.',
  drift: 'Drift is compared with the last stored inventory of this exact endpoint URL.',
  stdioDrift: 'Drift is compared with the last stored inventory of this exact command line (stdio:…); the environment given to the server is not part of it.',
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
function fingerprintTools(
  raw: readonly JsonObject[],
  recorded?: RecordedPrints,
): { tools: Omit<McpTool, 'drift' | 'riskSignals'>[]; fingerprinted: FingerprintedItem[] } {
  const tools: Omit<McpTool, 'drift' | 'riskSignals'>[] = [];
  const fingerprinted: FingerprintedItem[] = [];
  for (const tool of raw) {
    const name = tool['name'] as string;
    const definition = itemDefinition(tool);
    const prints = recorded?.get(name);
    const definitionHash = prints?.definitionSha256 ?? definitionSha256(definition);
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
      schemaSha256: prints?.schemaSha256 ?? schemaSha256(definition),
      parameters: parametersOf(inputSchema),
      annotations,
      declaredClass,
      declaredHints,
      heuristicClass: heuristicClassOf(text),
    });
    fingerprinted.push({ key: name, definitionSha256: definitionHash, definition });
  }
  return { tools, fingerprinted };
}

function stringOf(item: JsonObject, member: string): string | null {
  const value = item[member];
  return typeof value === 'string' ? value : null;
}

/** A prompt's arguments: entries that are objects with a string name; `required` only when true. */
function promptArguments(value: JsonObject[string] | undefined): McpPromptArgument[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isJsonObject).flatMap((argument) => {
    const name = stringOf(argument, 'name');
    return name === null ? [] : [{ name, description: stringOf(argument, 'description'), required: argument['required'] === true }];
  });
}

/** What a resource and a resource template report beside their key. */
function resourceMembers(raw: JsonObject, definitionSha256: string): Omit<Unjudged<McpResource>, 'uri'> {
  return {
    name: stringOf(raw, 'name'),
    title: stringOf(raw, 'title'),
    description: stringOf(raw, 'description'),
    mimeType: stringOf(raw, 'mimeType'),
    definitionSha256,
  };
}

/** An item of a listing before svc's judgement (signals, drift). */
type Unjudged<T> = Omit<T, 'riskSignals' | 'drift' | 'changedFields'>;

/**
 * What each kind reports of a listed entry (its key member was checked by the listing), from
 * the entry as received: the same envelope rule and hash as tools.
 */
const DESCRIBE: {
  prompts: (raw: JsonObject, definitionSha256: string) => Unjudged<McpPrompt>;
  resources: (raw: JsonObject, definitionSha256: string) => Unjudged<McpResource>;
  resourceTemplates: (raw: JsonObject, definitionSha256: string) => Unjudged<McpResourceTemplate>;
} = {
  prompts: (raw, hash) => ({
    name: raw['name'] as string,
    title: stringOf(raw, 'title'),
    description: stringOf(raw, 'description'),
    arguments: promptArguments(raw['arguments']),
    definitionSha256: hash,
  }),
  resources: (raw, hash) => ({ uri: raw['uri'] as string, ...resourceMembers(raw, hash) }),
  resourceTemplates: (raw, hash) => ({ uriTemplate: raw['uriTemplate'] as string, ...resourceMembers(raw, hash) }),
};

/** The key member of each kind. */
const KEY_OF = { prompts: 'name', resources: 'uri', resourceTemplates: 'uriTemplate' } as const;

/** The entries of one listing fingerprinted and described. */
function fingerprintItems<K extends ItemKind>(
  kind: K,
  raw: readonly JsonObject[],
  recorded?: RecordedPrints,
): { items: Array<ReturnType<(typeof DESCRIBE)[K]>>; fingerprinted: FingerprintedItem[] } {
  const items: Array<ReturnType<(typeof DESCRIBE)[K]>> = [];
  const fingerprinted: FingerprintedItem[] = [];
  for (const entry of raw) {
    const definition = itemDefinition(entry);
    const hash = recorded?.get(entry[KEY_OF[kind]] as string)?.definitionSha256 ?? definitionSha256(definition);
    items.push(DESCRIBE[kind](entry, hash) as ReturnType<(typeof DESCRIBE)[K]>);
    fingerprinted.push({ key: entry[KEY_OF[kind]] as string, definitionSha256: hash, definition });
  }
  return { items, fingerprinted };
}

/**
 * An item with svc's judgement: its signals and its drift (changedFields only when CHANGED, and
 * only when the definition compared is the one received: `exact`).
 */
function judged<T>(
  item: T,
  riskSignals: RiskSignal[],
  drift: ItemDriftResult,
  exact: boolean,
): T & { riskSignals: RiskSignal[]; drift: ItemDriftResult['drift']; changedFields?: string[] } {
  return { ...item, riskSignals, drift: drift.drift, ...(drift.changedFields && exact ? { changedFields: drift.changedFields } : {}) };
}

/** Singular and plural of each kind, as reports name them. */
const NOUNS: Readonly<Record<ItemKind, readonly [string, string]>> = {
  prompts: ['prompt', 'prompts'],
  resources: ['resource', 'resources'],
  resourceTemplates: ['resource template', 'resource templates'],
};

/** The key of a listed item of a kind (what drift and the checks name). */
function keyOf(kind: ItemKind, item: McpPrompt | McpResource | McpResourceTemplate): string {
  return kind === 'prompts' ? (item as McpPrompt).name : kind === 'resources' ? (item as McpResource).uri : (item as McpResourceTemplate).uriTemplate;
}

/** The items of an inspection by kind. */
type Items = Pick<McpInspection, ItemKind>;

/** `13 tools, 4 prompts, 7 resources, 2 resource templates`: tools always, other kinds when listed. */
function countsOf(tools: number, items: Items): string {
  return [plural(tools, 'tool'), ...ITEM_KINDS.filter((kind) => items[kind].length > 0).map((kind) => plural(items[kind].length, ...NOUNS[kind]))].join(', ');
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
  if (era === 'legacy')
    return check('protocol', 'Protocol', 'WARN', `Only the older session handshake is supported (initialize, ${version ?? 'unknown version'}).`);
  return check('protocol', 'Protocol', 'SKIP', 'The server required authentication before showing which protocol it speaks.');
}

function identityCheck(serverInfo: JsonObject | null): McpCheck {
  const name = serverInfo && typeof serverInfo['name'] === 'string' ? serverInfo['name'].slice(0, 80) : null;
  const version = serverInfo && typeof serverInfo['version'] === 'string' ? serverInfo['version'].slice(0, 40) : null;
  const said = name ? `The server calls itself ${JSON.stringify(name)}${version ? ` ${JSON.stringify(version)}` : ''}` : 'The server gave no serverInfo';
  return check('identity', 'Identity', 'PASS', `${said}; serverInfo is self-reported and unauthenticated, so no identity is attested.`);
}

/** WARN when any tool, prompt, resource or template, or the instructions, carry risk signals, or a limit cut the listing short. */
function inventoryCheck(tools: readonly McpTool[], items: Items, instructionsFlagged: boolean, limit: string | null): McpCheck {
  const flagged = tools.filter((t) => t.riskSignals.length > 0).map((t) => t.name);
  const parts: string[] = [];
  if (flagged.length)
    parts.push(`${plural(flagged.length, 'tool')} of ${tools.length} ${flagged.length === 1 ? 'has' : 'have'} risk signals: ${listNames(flagged)}`);
  for (const kind of ITEM_KINDS) {
    const list: ReadonlyArray<McpPrompt | McpResource | McpResourceTemplate> = items[kind];
    const keys = list.filter((item) => item.riskSignals.length > 0).map((item) => keyOf(kind, item));
    if (keys.length)
      parts.push(`${plural(keys.length, ...NOUNS[kind])} of ${list.length} ${keys.length === 1 ? 'has' : 'have'} risk signals: ${listNames(keys)}`);
  }
  if (instructionsFlagged) parts.push('the server instructions have risk signals');
  if (limit) parts.push(`the listing is incomplete: ${limit}`);
  if (parts.length) return check('inventory', 'Inventory', 'WARN', `${capitalise(parts.join('; '))}.`);
  const others = ITEM_KINDS.some((kind) => items[kind].length > 0);
  if (!others)
    return check(
      'inventory',
      'Inventory',
      'PASS',
      tools.length === 0 ? 'The server lists no tools.' : `No tool has risk signals (${plural(tools.length, 'tool')}).`,
    );
  return check('inventory', 'Inventory', 'PASS', `No tool, prompt or resource has risk signals (${countsOf(tools.length, items)}).`);
}

/** `added "a"; removed prompts "p"; changed resource "file:///x"`: what drifted, tools first. */
function driftParts(inventory: DriftResult['inventory']): string[] {
  const parts: string[] = [];
  const lists: Array<[string, readonly string[]]> = [
    ['added', inventory.added],
    ['removed', inventory.removed],
    ['changed', inventory.changed],
  ];
  for (const [verb, names] of lists) if (names.length) parts.push(`${verb} ${listNames(names)}`);
  for (const kind of ITEM_KINDS) {
    for (const verb of ['added', 'removed', 'changed'] as const) {
      const keys = inventory[kind][verb];
      if (keys.length) parts.push(`${verb} ${keys.length === 1 ? NOUNS[kind][0] : NOUNS[kind][1]} ${listNames(keys)}`);
    }
  }
  return parts;
}

/**
 * The drift check against an approved baseline: PASS when identical, FAIL on any difference — and
 * FAIL when the listing is incomplete, since then it cannot be shown to match (a gate fails closed).
 */
function baselineCheck(drift: DriftResult, complete: boolean, limit: string | null): McpCheck {
  const { inventory } = drift;
  const baseline = inventory.baseline!;
  const of = `the approved baseline ${baseline.file}${baseline.name === baseline.file ? '' : ` (${JSON.stringify(baseline.name.slice(0, 80))})`}`;
  if (baseline.entrySha256 === null) {
    return check('drift', 'Drift', 'FAIL', `Not in ${of}: the server has never been approved (svc mcp approve writes it after review).`);
  }
  const parts = driftParts(inventory);
  if (baseline.server.length) parts.push(`the server's own words differ: ${baseline.server.join(', ')}`);
  if (parts.length) return check('drift', 'Drift', 'FAIL', `Differs from ${of}: ${parts.join('; ')}. Approve it with svc mcp approve after review.`);
  if (!complete) return check('drift', 'Drift', 'FAIL', `The listing is incomplete (${limit ?? 'a limit stopped it'}): it cannot be shown to match ${of}.`);
  return check('drift', 'Drift', 'PASS', `Identical to ${of}.`);
}

function driftCheck(drift: DriftResult, complete: boolean, stored: boolean, limit: string | null = null): McpCheck {
  const { inventory } = drift;
  if (inventory.baseline) return baselineCheck(drift, complete, limit);
  if (inventory.status === 'FIRST_OBSERVATION') {
    if (!stored) return check('drift', 'Drift', 'SKIP', 'No stored inventory to compare with: storage is off or unavailable.');
    const partial = complete ? '' : ' The listing is incomplete, so it was not stored either.';
    return check('drift', 'Drift', 'SKIP', `First observation of this endpoint: nothing to compare with.${partial}`);
  }
  if (inventory.status === 'PROFILE_CHANGED') {
    return check('drift', 'Drift', 'SKIP', `${capitalise(inventory.reason ?? `the previous inventory (${inventory.previousObservedAt}) is not comparable`)}.`);
  }
  if (inventory.status === 'CHANGED') {
    const why = inventory.reason ? ` (${inventory.reason})` : '';
    return check('drift', 'Drift', 'WARN', `Since ${inventory.previousObservedAt}: ${driftParts(inventory).join('; ')}${why}.`);
  }
  if (!complete) return check('drift', 'Drift', 'SKIP', 'The listing is incomplete: what was listed is unchanged, but removals cannot be known.');
  return check('drift', 'Drift', 'PASS', `Definitions identical to the previous observation (${inventory.previousObservedAt}).`);
}

function headlineOf(result: Omit<McpInspection, 'headline'>): string {
  if (result.status === 'AUTH_REQUIRED') return 'The MCP server requires authentication (HTTP 401); svc does not authenticate, so no tools were listed.';
  const name = result.serverInfo && typeof result.serverInfo['name'] === 'string' ? `${result.serverInfo['name'].slice(0, 60)}: ` : '';
  const flagged = [result.tools, ...ITEM_KINDS.map((kind) => result[kind])].reduce(
    (n, list: ReadonlyArray<{ riskSignals: RiskSignal[] }>) => n + list.filter((item) => item.riskSignals.length > 0).length,
    0,
  );
  const parts = [`${countsOf(result.tools.length, result)}${result.complete ? '' : ' (incomplete)'}`];
  if (result.transcript.length > 0) parts.push(`MCP ${result.negotiatedVersion}, ${result.mode.toLowerCase()}`);
  if (flagged) parts.push(`${flagged} with risk signals`);
  const d = result.drift;
  if (d.baseline?.entrySha256 === null) parts.push('not in the approved baseline');
  else if (d.status === 'CHANGED') {
    const count = (verb: 'added' | 'removed' | 'changed') => d[verb].length + ITEM_KINDS.reduce((n, kind) => n + d[kind][verb].length, 0);
    const counts = (['added', 'removed', 'changed'] as const).filter((verb) => count(verb) > 0).map((verb) => `${count(verb)} ${verb}`);
    if (d.baseline?.server.length) counts.push(`${d.baseline.server.join(', ')} changed`);
    parts.push(`drift: ${counts.join(', ')}${d.baseline ? ' against the approved baseline' : ''}`);
  } else if (d.baseline) parts.push(result.complete ? 'identical to the approved baseline' : 'what was listed matches the approved baseline');
  else if (d.status === 'UNCHANGED') parts.push('unchanged since the last inspection');
  return `${name}${parts.join('; ')}.`;
}

async function persistenceCheck(
  runtime: Runtime,
  options: McpInspectOptions,
  endpoint: string,
  conversation: McpConversation,
  fingerprinted: FingerprintedInventory,
  hash: string,
  complete: boolean,
): Promise<McpCheck> {
  const store = runtime.store;
  if (!store && options.storageUnavailable !== undefined) {
    return check(
      'historyPersistence',
      'History',
      'WARN',
      `Not stored: the database is unavailable (${options.storageUnavailable}); the next comparison may use an older snapshot.`,
    );
  }
  if (!store) return check('historyPersistence', 'History', 'SKIP', 'Not stored: storage is off, so no drift is recorded or compared.');
  if (!complete)
    return check('historyPersistence', 'History', 'WARN', 'Not stored: a partial inventory is never stored; the next comparison uses the last complete one.');
  try {
    // Awaited inside the try: a rejected write is a WARN check, not a failed inspection.
    const { row } = await store.mcpObservations.record({
      endpoint,
      inventoryHash: hash,
      profile: HASH_PROFILE,
      negotiatedVersion: conversation.negotiatedVersion,
      observedAt: rfc3339(runtime.clock.now()),
      tools: fingerprinted.tools.map(({ key, definitionSha256, definition }) => ({ name: key, definitionSha256, definition })),
      prompts: [...fingerprinted.prompts],
      resources: [...fingerprinted.resources],
      resourceTemplates: [...fingerprinted.resourceTemplates],
    });
    if (row === null) {
      return check(
        'historyPersistence',
        'History',
        'WARN',
        "Not stored: the inventory history is at this service's ceiling; the next comparison may use an older snapshot.",
      );
    }
    return check(
      'historyPersistence',
      'History',
      'PASS',
      row.seenCount > 1 ? `Inventory stored (seen ${row.seenCount} times unchanged).` : 'Inventory stored for later drift comparison.',
    );
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
export function inspectMcp(input: string, options: McpInspectOptions): Promise<McpInspection> {
  return countedInspection(
    options.runtime.telemetry,
    'mcp',
    (result) => result.status,
    () => inspectEndpoint(input, options),
  );
}

async function inspectEndpoint(input: string, options: McpInspectOptions): Promise<McpInspection> {
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
        : check(
            'historyPersistence',
            'History',
            'WARN',
            'Not stored: the server required authentication, so there is no inventory; the next comparison uses the last stored one.',
          ),
      transportCheck(client),
      protocolCheck(outcome.era, null),
      identityCheck(null),
      check('inventory', 'Inventory', 'SKIP', 'Nothing was listed: the server required authentication.'),
      check('drift', 'Drift', 'SKIP', 'Nothing was listed: the server required authentication.'),
    ];
    return { ...base, headline: headlineOf(base) };
  }

  return inventoryResult(options, endpoint, outcome.conversation, {
    transcript: client.transcript,
    tls: client.tls,
    transport: transportCheck(client),
    protocol: protocolCheck(outcome.conversation.era, outcome.conversation.negotiatedVersion),
    observedAt,
    limitations: [...limitations, ...(outcome.conversation.era === 'modern' ? [LIMITATIONS.versions] : []), LIMITATIONS.drift],
  });
}

/** What the transport contributes to an inventory's result. */
interface TransportEvidence {
  transcript: McpInspection['transcript'];
  tls: McpInspection['tls'];
  transport: McpCheck;
  protocol: McpCheck;
  observedAt: string;
  /** The transport's limitations, in order; the listings' own follow. */
  limitations: string[];
}

/**
 * The result of a conversation that listed (HTTP or stdio): fingerprints, classes, signals,
 * drift against the last snapshot of `endpoint`, storage and the six checks — one code for both
 * transports.
 */
async function inventoryResult(
  options: McpInspectOptions,
  endpoint: string,
  conversation: McpConversation,
  evidence: TransportEvidence,
): Promise<McpInspection> {
  const { runtime } = options;
  const { observedAt } = evidence;
  const judgement = await judgeInventory(
    runtime,
    { listings: conversation.listings, instructions: conversation.instructions, serverInfo: conversation.serverInfo, target: endpoint, driftKey: endpoint },
    options.baseline,
  );
  const limitations = [...baselineLimitations(evidence.limitations, options.baseline), ...judgement.notes];
  const historyCheck = await persistenceCheck(runtime, options, endpoint, conversation, judgement.fingerprinted, judgement.hash, judgement.complete);
  const base: Omit<McpInspection, 'headline'> = {
    endpoint,
    status: 'INSPECTED',
    mode: conversation.mode,
    negotiatedVersion: conversation.negotiatedVersion,
    supportedVersions: conversation.supportedVersions,
    serverInfo: conversation.serverInfo,
    capabilities: conversation.capabilities,
    instructions: conversation.instructions,
    ...judgement.result,
    auth: null,
    transcript: evidence.transcript,
    checks: [
      historyCheck,
      evidence.transport,
      evidence.protocol,
      identityCheck(conversation.serverInfo),
      judgement.inventoryCheck,
      driftCheck(judgement.drift, judgement.complete, runtime.store !== undefined, judgement.result.inventoryLimit),
    ],
    tls: evidence.tls,
    observedAt,
    limitations,
  };
  return { ...base, headline: headlineOf(base) };
}

export interface McpStdioInspectOptions extends McpInspectOptions {
  /** Starts the server (src/runtime/mcp-stdio.ts stdioLauncher). */
  launch: StdioLauncher;
  /** The bounds of the conversation; tests shorten the times. */
  limits?: StdioLimits;
}

/**
 * Inspects a local MCP server over stdio: started, spoken to (initialize, the listings), ended —
 * whatever happened, the process and its group are ended before this returns. The result's
 * `endpoint` is `stdio:<command line>` (the drift key); environment values never appear in it.
 * Throws ProblemError when the command cannot start or gives no inventory.
 */
export async function inspectMcpStdio(command: StdioCommand, options: McpStdioInspectOptions): Promise<McpInspection> {
  const { runtime } = options;
  const endpoint = stdioEndpoint(command.command, command.args);
  const child = await options.launch(command);
  const channel = new StdioChannel(endpoint, child, runtime, options.limits, options.hooks);
  let conversation: McpConversation;
  let stderr: string | null;
  try {
    conversation = await converseStdio(channel);
  } catch (err) {
    stderr = await channel.close();
    const problem = asProblemError(err);
    throw stderr ? new ProblemError(problem.code, `${problem.message} ${stderr}.`) : problem;
  }
  stderr = await channel.close();
  const names = Object.keys(command.env).sort();
  const transport = check(
    'transport',
    'Transport',
    'PASS',
    `A local process over stdio, no network (so no TLS): svc started ${JSON.stringify(command.command)} with only ${names.length ? names.join(', ') : 'no variables'} in its environment, and ended it (${channel.transcript.at(-1)?.outcome ?? 'ended'}).`,
  );
  const protocol = check(
    'protocol',
    'Protocol',
    'PASS',
    `The server completed the stdio handshake (initialize, ${conversation.negotiatedVersion}), the one svc speaks over stdio.`,
  );
  const limitations: string[] = [LIMITATIONS.identity, LIMITATIONS.classes, LIMITATIONS.scope, LIMITATIONS.stdioDrift];
  const skipped = channel.skippedSummary();
  if (skipped) limitations.push(skipped);
  if (stderr) limitations.push(`${stderr}.`);
  return inventoryResult(options, endpoint, conversation, {
    transcript: channel.transcript,
    tls: null,
    transport,
    protocol,
    observedAt: rfc3339(runtime.clock.now()),
    limitations,
  });
}

/** The limitations with the drift sentence replaced by the baseline's, when there is one. */
function baselineLimitations(limitations: readonly string[], baseline: BaselineComparison | undefined): string[] {
  if (!baseline) return [...limitations];
  const drift: string[] = [LIMITATIONS.drift, LIMITATIONS.stdioDrift];
  return [
    ...limitations.filter((line) => !drift.includes(line)),
    `Drift is compared with the approved baseline ${baseline.file}, not with stored observations: it changes only when svc mcp approve rewrites it.`,
  ];
}

/** An item's fingerprints as svc's own JSON recorded them, by the item's key. */
export type RecordedPrints = ReadonlyMap<string, { definitionSha256: string; schemaSha256?: string }>;

/** What the checks judge, however the listings were obtained: a conversation or a saved file. */
export interface ObservedInventory {
  listings: Listings;
  instructions: string | null;
  /** What the server calls itself (compared with an approved baseline). */
  serverInfo: JsonObject | null;
  /** The endpoint or stdio command (an approved entry's target). */
  target: string;
  /** The endpoint whose stored inventory the drift compares with; null: nothing to compare with. */
  driftKey: string | null;
  /**
   * svc's own --json read back: each item's fingerprints as recorded (that JSON does not carry
   * the definitions as received, so they cannot be recomputed), per kind.
   */
  recorded?: Readonly<Record<Kind, RecordedPrints>>;
}

/**
 * The one path from listings to judgement: fingerprints, classes, signals, the inventory hash
 * and drift against the stored snapshot of `driftKey` — or against an approved baseline, when one
 * is given (then the store is not read, and a complete inventory of received definitions is handed
 * to the baseline's `capture`). Nothing is stored here.
 */
async function judgeInventory(runtime: Runtime, observed: ObservedInventory, baseline?: BaselineComparison) {
  const { listings, recorded } = observed;
  const { tools: partial, fingerprinted: toolPrints } = fingerprintTools(listings.tools.items, recorded?.tools);
  const prompts = fingerprintItems('prompts', listings.prompts.items, recorded?.prompts);
  const resources = fingerprintItems('resources', listings.resources.items, recorded?.resources);
  const templates = fingerprintItems('resourceTemplates', listings.resourceTemplates.items, recorded?.resourceTemplates);
  const fingerprinted: FingerprintedInventory = {
    tools: toolPrints,
    prompts: prompts.fingerprinted,
    resources: resources.fingerprinted,
    resourceTemplates: templates.fingerprinted,
  };
  const listed: Record<(typeof KINDS)[number], Listed> = listings;
  const completeness = Object.fromEntries(KINDS.map((kind) => [kind, listed[kind].limit === null])) as Completeness;
  // One reason once, however many listings it stopped (a saved partial inspection stops all).
  const limits = [...new Set(KINDS.map((kind) => listed[kind].limit).filter((limit): limit is string => limit !== null))];
  const complete = limits.length === 0;
  const limit = complete ? null : limits.join('; ');
  // One array for every item: the signals index the tool names once (a tool's own name is ignored).
  const names = partial.map((t) => t.name);
  let drift: DriftResult;
  if (baseline) {
    const server = { target: observed.target, serverInfo: observed.serverInfo, instructions: observed.instructions };
    drift = compareWithBaseline(fingerprinted, server, baseline, completeness);
    if (baseline.capture && complete && recorded === undefined) baseline.capture(entryOf(fingerprinted, server));
  } else {
    const previous = observed.driftKey === null ? undefined : await latestSnapshot(runtime, observed.driftKey);
    drift = compareInventory(fingerprinted, previous, completeness);
  }
  const exact = recorded === undefined;
  const tools: McpTool[] = partial.map((tool) => judged(tool, toolSignals(tool, names), drift.items.tools.get(tool.name)!, exact));
  const items: Items = {
    prompts: prompts.items.map((prompt) => judged(prompt, promptSignals(prompt, names), drift.items.prompts.get(prompt.name)!, exact)),
    resources: resources.items.map((resource) =>
      judged(resource, resourceSignals({ ...resource, uri: resource.uri }, names), drift.items.resources.get(resource.uri)!, exact),
    ),
    resourceTemplates: templates.items.map((template) =>
      judged(template, resourceSignals({ ...template, uri: template.uriTemplate }, names), drift.items.resourceTemplates.get(template.uriTemplate)!, exact),
    ),
  };
  const instructionsFound = observed.instructions ? instructionSignals(observed.instructions, names) : [];
  const hash = inventoryHash({
    tools: toolPrints.map((t) => t.definitionSha256),
    prompts: prompts.fingerprinted.map((p) => p.definitionSha256),
    resources: resources.fingerprinted.map((r) => r.definitionSha256),
    resourceTemplates: templates.fingerprinted.map((t) => t.definitionSha256),
  });
  const classCounts = { declared: emptyCounts<DeclaredClass>(DECLARED_CLASSES), heuristic: emptyCounts<HeuristicClass>(HEURISTIC_CLASSES) };
  for (const tool of tools) {
    classCounts.declared[tool.declaredClass] += 1;
    classCounts.heuristic[tool.heuristicClass] += 1;
  }
  const notes: string[] = [];
  for (const kind of KINDS) for (const skipped of listed[kind].skipped) notes.push(`${capitalise(skipped)}.`);
  if (limit) notes.push(`The inventory is incomplete: ${limit}.`);
  return {
    fingerprinted,
    hash,
    complete,
    drift,
    notes,
    inventoryCheck: inventoryCheck(tools, items, instructionsFound.length > 0, limit),
    /** The members of McpInspection this judgement decides. */
    result: {
      instructionSignals: instructionsFound,
      tools,
      ...items,
      complete,
      inventoryLimit: limit,
      // A partial listing has no inventory fingerprint: a hash over some items would read as one.
      inventoryHash: complete ? hash : null,
      hashProfile: HASH_PROFILE,
      classCounts,
      drift: drift.inventory,
    },
  };
}

/** A saved listing (saved.ts) with what the file said about the server, and where it came from. */
export interface SavedInventory {
  /** The file as named (`-`: standard input). */
  file: string;
  /** The result's `endpoint` when the file names none: the file as a file: URL, `-` for standard input. */
  location: string;
  /** The endpoint the file names (only svc's own JSON names one), else null. */
  endpoint: string | null;
  /** What the file holds, in words (e.g. `2 tools/list results`), for the limitations. */
  shape: string;
  listings: Listings;
  serverInfo: JsonObject | null;
  capabilities: JsonObject | null;
  instructions: string | null;
  negotiatedVersion: string | null;
  supportedVersions: string[];
  recorded?: Readonly<Record<Kind, RecordedPrints>>;
}

const NOT_CONTACTED = 'supplied from a file; no server was contacted';

/**
 * A saved inventory judged as a live one is, by the same code, with the checks that need a
 * server skipped: transport and protocol SKIP, identity from the serverInfo the file holds,
 * drift against the stored inventory of the endpoint the file names (none: SKIP), and nothing
 * stored (an inventory read from a file is no observation of a server).
 */
export async function inspectSavedMcp(saved: SavedInventory, options: McpInspectOptions): Promise<McpInspection> {
  const { runtime } = options;
  const key = saved.endpoint !== null && runtime.store !== undefined && !options.baseline ? saved.endpoint : null;
  // A file without an initialize result (or svc's JSON) says nothing of serverInfo and instructions.
  const words = saved.serverInfo !== null || saved.capabilities !== null;
  const baseline = options.baseline ? { ...options.baseline, serverWords: options.baseline.serverWords !== false && words } : undefined;
  const judgement = await judgeInventory(
    runtime,
    {
      listings: saved.listings,
      instructions: saved.instructions,
      serverInfo: saved.serverInfo,
      target: saved.endpoint ?? saved.location,
      driftKey: key,
      ...(saved.recorded ? { recorded: saved.recorded } : {}),
    },
    baseline,
  );
  const from = saved.file === '-' ? 'standard input' : saved.file;
  const limitations = [
    `The inventory was read from ${from} (${saved.shape}); no server was contacted, so nothing shows that a server lists it now.`,
    LIMITATIONS.identity,
    LIMITATIONS.classes,
    LIMITATIONS.scope,
    ...(saved.recorded
      ? [
          "svc's JSON carries each item's fingerprints but not its definition as received: definitionSha256, schemaSha256 and the inventory hash are as recorded (the hash is checked against them), and changedFields is not reported.",
        ]
      : []),
    ...(key !== null ? [`Drift is compared with the last stored inventory of ${key}, the endpoint the file names.`] : []),
    ...baselineLimitations([], baseline),
    ...(baseline && !words ? ["The file holds no initialize result, so the server's serverInfo and instructions were not compared with the baseline."] : []),
    ...judgement.notes,
  ];
  let drift: McpCheck;
  if (baseline) drift = driftCheck(judgement.drift, judgement.complete, false, judgement.result.inventoryLimit);
  else if (saved.endpoint === null) drift = check('drift', 'Drift', 'SKIP', 'The file names no endpoint, so there is no stored inventory to compare with.');
  else if (key === null) drift = check('drift', 'Drift', 'SKIP', 'No stored inventory to compare with: storage is off or unavailable.');
  else if (judgement.drift.inventory.status === 'FIRST_OBSERVATION')
    drift = check('drift', 'Drift', 'SKIP', `No inventory of ${key} is stored: nothing to compare with.`);
  else drift = driftCheck(judgement.drift, judgement.complete, true);
  const base: Omit<McpInspection, 'headline'> = {
    endpoint: saved.endpoint ?? saved.location,
    status: 'INSPECTED',
    mode: 'UNKNOWN',
    negotiatedVersion: saved.negotiatedVersion,
    supportedVersions: saved.supportedVersions,
    serverInfo: saved.serverInfo,
    capabilities: saved.capabilities,
    instructions: saved.instructions,
    ...judgement.result,
    auth: null,
    transcript: [],
    checks: [
      check('historyPersistence', 'History', 'SKIP', `Not stored: ${NOT_CONTACTED}, so nothing is recorded as an observation of a server.`),
      check('transport', 'Transport', 'SKIP', `${capitalise(NOT_CONTACTED)}.`),
      check(
        'protocol',
        'Protocol',
        'SKIP',
        `${capitalise(NOT_CONTACTED)}${saved.negotiatedVersion ? ` (the file names MCP ${saved.negotiatedVersion})` : ''}.`,
      ),
      saved.serverInfo
        ? identityCheck(saved.serverInfo)
        : check('identity', 'Identity', 'SKIP', "The file holds no serverInfo (an initialize result or svc's own JSON carries it)."),
      judgement.inventoryCheck,
      drift,
    ],
    tls: null,
    observedAt: rfc3339(runtime.clock.now()),
    limitations,
  };
  return { ...base, headline: `From ${from} (no server was contacted): ${headlineOf(base)}` };
}

function authResult(
  endpoint: string,
  auth: McpAuth,
  mode: McpMode,
  client: McpClient,
  observedAt: string,
  limitations: string[],
): Omit<McpInspection, 'headline'> {
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
    prompts: [],
    resources: [],
    resourceTemplates: [],
    complete: false,
    inventoryLimit: 'the server required authentication',
    inventoryHash: null,
    hashProfile: HASH_PROFILE,
    classCounts: { declared: emptyCounts<DeclaredClass>(DECLARED_CLASSES), heuristic: emptyCounts<HeuristicClass>(HEURISTIC_CLASSES) },
    drift: firstObservation(),
    auth,
    transcript: client.transcript,
    checks: [],
    tls: client.tls,
    observedAt,
    limitations,
  };
}
