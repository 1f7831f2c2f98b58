/**
 * A saved MCP listing read back (`svc inspect-mcp --from-file`): the listings come from a file
 * instead of a conversation, through the same ListingBuilder and bounds (client.ts), and are then
 * judged by the one path of inspect.ts. Accepted, detected by shape:
 *
 *   - a listing result: `{"tools": […], "nextCursor"?}` (tools/list), `{"prompts": […]}`,
 *     `{"resources": […]}`, `{"resourceTemplates": […]}` (resources/templates/list);
 *   - the JSON-RPC response carrying one: `{"jsonrpc": "2.0", "id": …, "result": {…}}`;
 *   - an `initialize` result (or response): serverInfo, capabilities, instructions, protocolVersion;
 *   - a JSON array of those (pages and kinds combined; pages of a kind in the order given);
 *   - svc's own `inspect-mcp --json` output (an McpInspection), alone: its items are rebuilt from
 *     the members it reports and their fingerprints taken as recorded (it does not carry the
 *     definitions as received, so they cannot be recomputed); the inventory hash is checked
 *     against them. It names its endpoint, which keys drift.
 *
 * Refused (a ProblemError INVALID_REQUEST naming the file; the CLI reports it as an option's
 * value): more than 2 MiB (one reply's bound), not strict JSON (a duplicate member included), a
 * shape not recognised, a JSON-RPC error, a key repeated within a kind (two tools of one name).
 */
import { HASH_PROFILE } from '../canonical.js';
import { isJsonObject, parseJsonBytes, type JsonObject, type JsonValue } from '../encoding/json.js';
import { ProblemError } from '../problems.js';
import { plural } from '../text.js';
import { assembleListings, LIST_SPECS, ListingBuilder, type Listed, type ListingKind, type Listings, type ListSpec } from './client.js';
import type { Kind } from './drift.js';
import { inventoryHash } from './fingerprint.js';
import type { RecordedPrints, SavedInventory } from './inspect.js';
import { ITEM_KINDS, MCP_LIMITS } from './types.js';

const KIND_LIST: readonly ListingKind[] = ['tools', ...ITEM_KINDS];
const HEX64 = /^[0-9a-f]{64}$/;

/** A refusal about the file, as one sentence naming it. */
function refuse(where: string, problem: string): ProblemError {
  return new ProblemError('INVALID_REQUEST', `${where} ${problem}.`);
}

/** The pages of each kind, and the server's own words when an initialize result was given. */
interface Answers {
  pages: Record<ListingKind, JsonObject[]>;
  server: JsonObject | null;
}

/** Which listing a result is: the one listing member that is an array, else null. */
function listingKindOf(result: JsonObject): ListingKind | null {
  const kinds = KIND_LIST.filter((kind) => Array.isArray(result[LIST_SPECS[kind].member]));
  return kinds.length === 1 ? kinds[0]! : null;
}

function isInitializeResult(result: JsonObject): boolean {
  return typeof result['protocolVersion'] === 'string' && isJsonObject(result['capabilities']);
}

function isInspection(value: JsonObject): boolean {
  return typeof value['endpoint'] === 'string' && typeof value['hashProfile'] === 'string' && Array.isArray(value['checks']) && Array.isArray(value['tools']);
}

/** Sorts the answers of a file into pages by kind (and the initialize result). */
function sortAnswers(where: string, answers: readonly JsonValue[]): Answers {
  const pages: Record<ListingKind, JsonObject[]> = { tools: [], prompts: [], resources: [], resourceTemplates: [] };
  let server: JsonObject | null = null;
  for (const [index, answer] of answers.entries()) {
    const which = answers.length > 1 ? `Answer ${index} of ${where.charAt(0).toLowerCase()}${where.slice(1)}` : where;
    if (!isJsonObject(answer))
      throw refuse(where, answers.length > 1 ? `has an answer ${index} that is not a JSON object` : 'is neither a JSON object nor an array of answers');
    let result = answer;
    if (answer['jsonrpc'] !== undefined) {
      if (answer['error'] !== undefined) throw refuse(which, 'is a JSON-RPC error, not a listing');
      if (!isJsonObject(answer['result'])) throw refuse(which, 'is a JSON-RPC message without a result');
      result = answer['result'];
    }
    if (isInspection(result)) throw refuse(where, "holds svc's own JSON output inside an array; give it alone");
    const kind = listingKindOf(result);
    if (kind !== null) pages[kind].push(result);
    else if (isInitializeResult(result)) {
      if (server !== null) throw refuse(where, 'holds two initialize results');
      server = result;
    } else {
      throw refuse(
        which,
        'is not a tools/list, prompts/list, resources/list or resources/templates/list result (nor an initialize result, nor svc inspect-mcp --json output)',
      );
    }
  }
  return { pages, server };
}

/** One listing from its saved pages, through the bounds of a live one; a repeated key is refused. */
function fromPages(where: string, spec: ListSpec, pages: readonly JsonObject[]): Listed {
  const list = new ListingBuilder(spec);
  let limit: string | null = null;
  for (const page of pages) {
    limit = list.pageBound();
    if (limit) break;
    list.pages += 1;
    limit = list.take(page);
    if (limit) break;
  }
  const repeated = list.duplicates[0];
  if (repeated !== undefined) throw refuse(where, `lists two ${spec.noun[1]} with the ${spec.key} ${JSON.stringify(repeated.slice(0, 64))}`);
  if (limit === null && pages.length === 0) limit = `the file holds no ${spec.method} result`;
  const next = pages.at(-1)?.['nextCursor'];
  if (limit === null && typeof next === 'string' && next !== '')
    limit = `the file ends before the ${spec.method} page after page ${list.pages} (its nextCursor)`;
  return list.listed(limit);
}

function stringOr(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function objectOr(value: JsonValue | undefined): JsonObject | null {
  return isJsonObject(value) ? value : null;
}

/** `2 tools/list results, 1 initialize result`. */
function shapeOf(answers: Answers): string {
  const parts = KIND_LIST.filter((kind) => answers.pages[kind].length > 0).map(
    (kind) => `${plural(answers.pages[kind].length, `${LIST_SPECS[kind].method} result`)}`,
  );
  if (answers.server) parts.push('an initialize result');
  return parts.join(', ');
}

/** Members of an item of svc's JSON kept when they are present (null means absent there). */
function present(item: JsonObject, members: readonly string[]): JsonObject {
  return Object.fromEntries(members.filter((m) => item[m] !== undefined && item[m] !== null).map((m) => [m, item[m]!]));
}

/** The definition-like entry each kind rebuilds from svc's JSON (what the signals and classes read). */
const REBUILD: Record<ListingKind, (item: JsonObject) => JsonObject> = {
  tools: (item) => present(item, ['name', 'title', 'description', 'inputSchema', 'annotations']),
  prompts: (item) => ({
    ...present(item, ['name', 'title', 'description']),
    arguments: (Array.isArray(item['arguments']) ? item['arguments'] : []).filter(isJsonObject).map((a) => present(a, ['name', 'description', 'required'])),
  }),
  resources: (item) => present(item, ['uri', 'name', 'title', 'description', 'mimeType']),
  resourceTemplates: (item) => present(item, ['uriTemplate', 'name', 'title', 'description', 'mimeType']),
};

/** svc's own JSON read back: items rebuilt, fingerprints as recorded and checked against its inventory hash. */
async function fromInspection(where: string, file: string, location: string, value: JsonObject): Promise<SavedInventory> {
  if (value['status'] !== 'INSPECTED') throw refuse(where, 'holds no inventory (an inspection that is not INSPECTED: the server required authentication)');
  if (value['hashProfile'] !== HASH_PROFILE)
    throw refuse(where, `was fingerprinted with the hash profile ${JSON.stringify(String(value['hashProfile']).slice(0, 40))}, not ${HASH_PROFILE}`);
  const complete = value['complete'] === true;
  const limit = complete ? null : `the saved inspection was incomplete: ${stringOr(value['inventoryLimit']) ?? 'no reason given'}`;
  const recorded = {} as Record<Kind, RecordedPrints>;
  const pages = {} as Record<ListingKind, JsonObject[]>;
  for (const kind of KIND_LIST) {
    const spec = LIST_SPECS[kind];
    const list = value[kind];
    if (!Array.isArray(list)) throw refuse(where, `has no ${kind} array`);
    const prints = new Map<string, { definitionSha256: string; schemaSha256?: string }>();
    const items: JsonObject[] = [];
    for (const [index, item] of list.entries()) {
      const key = isJsonObject(item) ? item[spec.key] : undefined;
      const hash = isJsonObject(item) ? item['definitionSha256'] : undefined;
      if (!isJsonObject(item) || typeof key !== 'string' || typeof hash !== 'string' || !HEX64.test(hash)) {
        throw refuse(where, `has ${kind}[${index}] without a string ${spec.key} and a definitionSha256`);
      }
      const schema = item['schemaSha256'];
      prints.set(key, { definitionSha256: hash, ...(typeof schema === 'string' ? { schemaSha256: schema } : {}) });
      items.push(REBUILD[kind](item));
    }
    recorded[kind] = prints;
    pages[kind] = [{ [spec.member]: items }];
  }
  const listings = await listingsOf(where, pages, limit);
  const saved = value['inventoryHash'];
  if (complete && typeof saved === 'string') {
    const fingerprints = (kind: ListingKind) => listings[kind].items.map((item) => recorded[kind].get(item[LIST_SPECS[kind].key] as string)!.definitionSha256);
    const hash = inventoryHash({
      tools: fingerprints('tools'),
      prompts: fingerprints('prompts'),
      resources: fingerprints('resources'),
      resourceTemplates: fingerprints('resourceTemplates'),
    });
    if (hash !== saved) throw refuse(where, "has an inventoryHash that does not match its items' definitionSha256 values (edited, or not svc's output)");
  }
  return {
    file,
    location,
    endpoint: stringOr(value['endpoint']),
    shape: 'svc inspect-mcp --json output',
    listings,
    serverInfo: objectOr(value['serverInfo']),
    capabilities: objectOr(value['capabilities']),
    instructions: stringOr(value['instructions']),
    negotiatedVersion: stringOr(value['negotiatedVersion']),
    supportedVersions: Array.isArray(value['supportedVersions']) ? value['supportedVersions'].filter((v): v is string => typeof v === 'string') : [],
    recorded,
  };
}

/** The four listings of a file's pages; `limit` (a saved inspection that was partial) marks each incomplete. */
function listingsOf(where: string, pages: Record<ListingKind, JsonObject[]>, limit: string | null = null): Promise<Listings> {
  return assembleListings({
    has: (kind) => pages[kind].length > 0,
    read: async (kind, spec) => {
      const listed = fromPages(where, spec, pages[kind]);
      return limit !== null && listed.limit === null ? { ...listed, limit } : listed;
    },
  });
}

/**
 * A saved listing from the bytes of a file. `file` names it in problems (`-`: standard input);
 * `location` is the result's endpoint when the file names none.
 */
export async function readSavedInventory(bytes: Uint8Array, file: string, location: string): Promise<SavedInventory> {
  const where = file === '-' ? 'The saved inventory on standard input' : `The saved inventory ${file}`;
  if (bytes.length > MCP_LIMITS.maxResponseBytes) throw refuse(where, `is larger than ${MCP_LIMITS.maxResponseBytes} bytes (2 MiB), the limit of one reply`);
  const parsed = parseJsonBytes(bytes, where);
  if ('error' in parsed) throw new ProblemError('INVALID_REQUEST', `${parsed.error}.`);
  const value = parsed.value;
  if (isJsonObject(value) && isInspection(value)) return fromInspection(where, file, location, value);
  const answers = sortAnswers(where, Array.isArray(value) ? value : [value]);
  if (KIND_LIST.every((kind) => answers.pages[kind].length === 0))
    throw refuse(where, 'holds no tools/list, prompts/list, resources/list or resources/templates/list result');
  const server = answers.server;
  return {
    file,
    location,
    endpoint: null,
    shape: shapeOf(answers),
    listings: await listingsOf(where, answers.pages),
    serverInfo: server ? objectOr(server['serverInfo']) : null,
    capabilities: server ? objectOr(server['capabilities']) : null,
    instructions: server ? stringOr(server['instructions']) : null,
    negotiatedVersion: server ? stringOr(server['protocolVersion']) : null,
    supportedVersions: server && typeof server['protocolVersion'] === 'string' ? [server['protocolVersion']] : [],
  };
}
