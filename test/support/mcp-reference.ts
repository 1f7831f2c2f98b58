/**
 * The reference view of an MCP server's inventory, independent of svc's code: the official SDK
 * client (`@modelcontextprotocol/sdk` Client + StreamableHTTPClientTransport, or
 * StdioClientTransport for a local server) lists tools,
 * prompts, resources and resource templates, every page, and the fingerprints svc reports
 * are recomputed here with the `canonicalize` package (RFC 8785) and node:crypto.
 *
 * What is hashed is the JSON-RPC result as it came off the wire (`wire`), taken from the
 * transport before the Client's result schemas parse it: those schemas rebuild every object
 * (member order changes, and a schema may strip or default members), so the Client's view
 * (`sdk`) is kept beside it for the tests to compare, never hashed.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The four listings, with the member naming each entry and the capability that announces it. */
export const INVENTORY_KINDS = [
  { kind: 'tools', method: 'tools/list', id: 'name', capability: 'tools' },
  { kind: 'prompts', method: 'prompts/list', id: 'name', capability: 'prompts' },
  { kind: 'resources', method: 'resources/list', id: 'uri', capability: 'resources' },
  { kind: 'resourceTemplates', method: 'resources/templates/list', id: 'uriTemplate', capability: 'resources' },
] as const;
export type InventoryKind = (typeof INVENTORY_KINDS)[number]['kind'];

type Entry = Record<string, unknown>;

export interface ReferenceInventory {
  serverInfo: { name: string; version: string } | undefined;
  protocolVersion: string | undefined;
  capabilities: Record<string, unknown>;
  /**
   * Per kind: the entries as the SDK Client returned them, and as they were on the wire; and each
   * page's whole JSON-RPC response as it came off the wire (what a saved listing holds).
   */
  lists: Record<InventoryKind, { sdk: Entry[]; wire: Entry[]; pages: number; responses: Entry[] }>;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
export const jcs = (value: unknown): string => {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('canonicalize returned undefined');
  return text;
};

/** SHA-256 of the RFC 8785 form of an entry without `_meta` (the definition svc hashes). */
export function referenceDefinitionSha256(entry: Entry): string {
  return sha256Hex(jcs(Object.fromEntries(Object.entries(entry).filter(([name]) => name !== '_meta'))));
}

/**
 * The inventory hash: over the sorted tool fingerprints alone when the server lists no prompts,
 * resources or templates; otherwise over `{prompts, resourceTemplates, resources, tools}`, each
 * the sorted fingerprints of its kind.
 */
export function referenceInventoryHash(fingerprints: Record<InventoryKind, string[]>): string {
  const sorted = (kind: InventoryKind) => [...fingerprints[kind]].sort();
  if (fingerprints.prompts.length + fingerprints.resources.length + fingerprints.resourceTemplates.length === 0) {
    return sha256Hex(jcs(sorted('tools')));
  }
  return sha256Hex(jcs({ prompts: sorted('prompts'), resourceTemplates: sorted('resourceTemplates'), resources: sorted('resources'), tools: sorted('tools') }));
}

/** The fingerprints of every wire entry, per kind. */
export function referenceFingerprints(inventory: ReferenceInventory): Record<InventoryKind, string[]> {
  return Object.fromEntries(INVENTORY_KINDS.map(({ kind }) => [kind, inventory.lists[kind].wire.map(referenceDefinitionSha256)])) as Record<
    InventoryKind,
    string[]
  >;
}

/**
 * Lists everything through the SDK Client, every page of every kind the server announces (a
 * list method answered −32601 on its first page lists nothing).
 */
export async function referenceInventory(url: string): Promise<ReferenceInventory> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  return referenceOver(transport, () => transport.protocolVersion);
}

/**
 * The same listing of a local server through the SDK's StdioClientTransport (it starts the
 * process with the SDK's default environment and ends it on close).
 */
export async function referenceStdioInventory(command: string, args: string[]): Promise<ReferenceInventory> {
  return referenceOver(new StdioClientTransport({ command, args, stderr: 'pipe' }), () => undefined);
}

async function referenceOver(transport: Transport, protocolVersion: () => string | undefined): Promise<ReferenceInventory> {
  const client = new Client({ name: 'svc-matrix-reference', version: '1.0.0' });
  await client.connect(transport);
  // Every JSON-RPC result as the transport parsed it off the wire (JSON or SSE), by request id.
  const wire = new Map<string | number, Entry>();
  const responses = new Map<string | number, Entry>();
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, ...rest: unknown[]) => {
    if ('result' in message && 'id' in message) {
      wire.set(message.id, message.result as Entry);
      responses.set(message.id, message as unknown as Entry);
    }
    (deliver as ((m: JSONRPCMessage, ...r: unknown[]) => void) | undefined)?.(message, ...rest);
  };
  try {
    const capabilities = (client.getServerCapabilities() ?? {}) as Record<string, unknown>;
    const lists = {} as ReferenceInventory['lists'];
    for (const { kind, method, capability } of INVENTORY_KINDS) {
      const list = { sdk: [] as Entry[], wire: [] as Entry[], pages: 0, responses: [] as Entry[] };
      lists[kind] = list;
      if (capabilities[capability] === undefined) continue;
      let cursor: string | undefined;
      do {
        const before = new Set(wire.keys());
        const params = cursor === undefined ? undefined : { cursor };
        let page: Entry & { nextCursor?: string };
        try {
          page = (await listPage(client, method, params)) as Entry & { nextCursor?: string };
        } catch (err) {
          // A server announcing `resources` need not serve resources/templates/list: none listed.
          if (err instanceof McpError && err.code === ErrorCode.MethodNotFound && list.pages === 0) break;
          throw err;
        }
        const fresh = [...wire.keys()].filter((id) => !before.has(id));
        if (fresh.length !== 1) throw new Error(`${method}: expected one new JSON-RPC result on the wire, saw ${fresh.length}`);
        const raw = wire.get(fresh[0]!)!;
        list.sdk.push(...(page[kind] as Entry[]));
        list.wire.push(...(raw[kind] as Entry[]));
        list.responses.push(responses.get(fresh[0]!)!);
        list.pages += 1;
        cursor = page.nextCursor;
      } while (cursor);
    }
    return { serverInfo: client.getServerVersion(), protocolVersion: protocolVersion(), capabilities, lists };
  } finally {
    await client.close();
  }
}

function listPage(client: Client, method: (typeof INVENTORY_KINDS)[number]['method'], params: { cursor: string } | undefined): Promise<unknown> {
  switch (method) {
    case 'tools/list':
      return client.listTools(params);
    case 'prompts/list':
      return client.listPrompts(params);
    case 'resources/list':
      return client.listResources(params);
    case 'resources/templates/list':
      return client.listResourceTemplates(params);
  }
}
