/**
 * The interoperability matrix (docs/agents.md#interoperability). Real MCP servers of every
 * implementation we can run here, each inspected by svc through the CLI
 * (`svc inspect-mcp … --json --no-store`, main() in the test process, svcIn) and through the daemon
 * (the real app in process, answered by inject(), its outbound Net allowing 127.0.0.1/32), next to
 * what the official SDK client lists:
 *
 *   child processes   @modelcontextprotocol/server-everything, fastmcp (stateful SSE; stateless
 *                     JSON), mcp-framework, tmcp, mcp-lite (test/support/mcp-peers.ts)
 *   in process        @modelcontextprotocol/sdk 1.x with and without an event store, stateless
 *                     and stateful, SSE and JSON replies; @modelcontextprotocol/server 2.x
 *                     (2026-07-28 and its legacy leg; auto and SSE replies)
 *
 * For every server: status INSPECTED; per kind (tools, prompts, resources, resource templates)
 * the entries the SDK client lists, in its order, each `definitionSha256` equal to SHA-256 over
 * the RFC 8785 form — computed by the `canonicalize` package, not svc's code — of the entry as
 * it was on the wire, `_meta` left out; and the `inventoryHash` recomputed the same way
 * (test/support/mcp-reference.ts). The SDK client's parsed view is compared with the wire too:
 * its schemas rebuild each object (member order), and would show here if they dropped or added
 * a member.
 *
 * The prompts, resources and resourceTemplates rows of the kind table, and the inventoryHash of
 * servers that list any of them, follow the inventory contract
 * (docs/agents.md#prompts-resources-and-resource-templates).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Net } from '../../src/core/net.js';
import { systemClock } from '../../src/runtime/node.js';
import { assertBuilt, cleanEnv, svcIn } from '../support/cli.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import type { DidWebHost } from '../support/did-web-host.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { PEERS, startPeer, type PeerProcess } from '../support/mcp-peers.js';
import {
  INVENTORY_KINDS,
  jcs,
  referenceDefinitionSha256,
  referenceFingerprints,
  referenceInventory,
  referenceInventoryHash,
  type InventoryKind,
  type ReferenceInventory,
} from '../support/mcp-reference.js';
import { PLAIN_ITEMS, PLAIN_TOOLS, startPlainHost, startSdk1Server, startSdk2Server, type McpTestServer } from '../support/mcp-servers.js';
import { testRuntime } from '../support/runtime.js';

interface MatrixEntry {
  id: string;
  package: string;
  /** What svc should negotiate: the protocol version and the mode. */
  negotiated: [version: string, mode: 'STATELESS' | 'SESSION'];
}

type InProcess = MatrixEntry & { start: (host: DidWebHost) => Promise<McpTestServer> };

/** An SDK 1.x server; the JSON-reply ones also list prompts, resources and a template (PLAIN_ITEMS). */
const sdk1 = (id: string, path: string, stateful: boolean, json: boolean, eventStore: boolean): InProcess => ({
  id,
  package: '@modelcontextprotocol/sdk',
  negotiated: ['2025-11-25', stateful ? 'SESSION' : 'STATELESS'],
  start: (host) => startSdk1Server({ host, path, tools: PLAIN_TOOLS, stateful, json, eventStore, ...(json ? PLAIN_ITEMS : {}) }),
});

const IN_PROCESS: InProcess[] = [
  sdk1('sdk1-stateful-event-store', '/sdk1-stateful-es', true, false, true),
  sdk1('sdk1-stateless-event-store', '/sdk1-stateless-es', false, false, true),
  sdk1('sdk1-stateful', '/sdk1-stateful', true, false, false),
  sdk1('sdk1-stateless', '/sdk1-stateless', false, false, false),
  sdk1('sdk1-stateful-json', '/sdk1-stateful-json', true, true, false),
  sdk1('sdk1-stateless-json', '/sdk1-stateless-json', false, true, false),
  {
    id: 'sdk2',
    package: '@modelcontextprotocol/server',
    negotiated: ['2026-07-28', 'STATELESS'],
    start: (host) => startSdk2Server({ host, path: '/sdk2', tools: PLAIN_TOOLS }),
  },
  {
    id: 'sdk2-sse',
    package: '@modelcontextprotocol/server',
    negotiated: ['2026-07-28', 'STATELESS'],
    // With prompts, resources and a template: their lists on the 2026-07-28 path too.
    start: (host) => startSdk2Server({ host, path: '/sdk2-sse', tools: PLAIN_TOOLS, responseMode: 'sse', ...PLAIN_ITEMS }),
  },
];

const NEGOTIATED: Record<string, MatrixEntry['negotiated']> = {
  'server-everything': ['2025-11-25', 'SESSION'],
  fastmcp: ['2025-11-25', 'SESSION'],
  'fastmcp-stateless-json': ['2025-11-25', 'STATELESS'],
  'mcp-framework': ['2025-11-25', 'SESSION'],
  tmcp: ['2026-07-28', 'STATELESS'],
  // mcp-lite knows 2025-06-18 and 2025-03-26; asked for 2025-11-25 it answers 2025-03-26.
  'mcp-lite': ['2025-03-26', 'SESSION'],
};

const MATRIX: MatrixEntry[] = [...PEERS.map((p) => ({ id: p.id, package: p.package, negotiated: NEGOTIATED[p.id]! })), ...IN_PROCESS];

/** The reference server's inventory, as its own SDK client lists it. */
const EVERYTHING_COUNTS: Record<InventoryKind, number> = { tools: 13, prompts: 4, resources: 7, resourceTemplates: 2 };

let host: DidWebHost;
let db: TestDatabase;
let daemon: InjectedApp;
let daemonNet: Net;
const urls = new Map<string, string>();
const peers: PeerProcess[] = [];
const inProcess: McpTestServer[] = [];

beforeAll(async () => {
  assertBuilt();
  host = await startPlainHost();
  db = await sqliteDatabase('svc-mcp-matrix');
  // The daemon's outbound work goes through a Net that allows 127.0.0.1/32, as the CLI's flag does.
  daemonNet = testRuntime(systemClock, { allow: ['127.0.0.1/32'] }).net;
  daemon = await injectedApp(db.target, { net: daemonNet });
  const [started] = await Promise.all([
    Promise.allSettled(PEERS.map((spec) => startPeer(spec))),
    (async () => {
      for (const entry of IN_PROCESS) {
        const server = await entry.start(host);
        inProcess.push(server);
        // The host's origin names localhost; svc is allowed 127.0.0.1/32 only.
        urls.set(entry.id, server.url.replace('//localhost:', '//127.0.0.1:'));
      }
    })(),
  ]);
  for (const outcome of started) if (outcome.status === 'fulfilled') peers.push(outcome.value);
  const failed = started.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed.length > 0)
    throw new AggregateError(
      failed.map((f) => f.reason),
      failed.map((f) => String(f.reason)).join('\n'),
    );
  for (const peer of peers) urls.set(peer.spec.id, peer.url);
}, 90_000);

afterAll(async () => {
  await Promise.all(peers.map((p) => p.close()));
  await Promise.all(inProcess.map((s) => s.close()));
  await daemon?.close();
  daemonNet?.close();
  await db?.done();
  await host?.close();
});

/** The members of an inspection this file reads. */
interface Inspection {
  status: string;
  mode: string;
  negotiatedVersion: string;
  complete: boolean;
  inventoryHash: string | null;
  tools: Array<{ name: string; definitionSha256: string }>;
  prompts?: Array<{ name: string; definitionSha256: string }>;
  resources?: Array<{ uri: string; definitionSha256: string }>;
  resourceTemplates?: Array<{ uriTemplate: string; definitionSha256: string }>;
}

/** The member naming an entry of a kind: name, uri or uriTemplate. */
const idOf = (kind: InventoryKind) => INVENTORY_KINDS.find((k) => k.kind === kind)!.id;

/** An inspection's entries of one kind as [id, definitionSha256] pairs (undefined: the member is missing). */
function svcEntries(result: Inspection, kind: InventoryKind): Array<[string, string]> | undefined {
  const list = result[kind] as Array<Record<string, string>> | undefined;
  return list?.map((entry) => [entry[idOf(kind)]!, entry['definitionSha256']!]);
}

describe.each(MATRIX)('$id ($package)', (entry) => {
  let reference: ReferenceInventory;
  let fromCli: Inspection;
  let fromDaemon: Inspection;

  beforeAll(async () => {
    const url = urls.get(entry.id)!;
    reference = await referenceInventory(url);
    const run = await svcIn(['inspect-mcp', url, '--egress-allow', '127.0.0.1/32', '--json', '--no-store'], cleanEnv());
    // 3: plain http is a transport WARN (and any risk signal an inventory WARN); 0 otherwise.
    expect([0, 3], `exit ${run.exitCode}: ${run.stderr}\n${run.stdout.slice(0, 400)}`).toContain(run.exitCode);
    fromCli = JSON.parse(run.stdout) as Inspection;
    const answer = await daemon.anonymous('GET', `/v1/mcp/inspect?${new URLSearchParams({ endpoint: url }).toString()}`);
    expect(answer.statusCode, answer.body.slice(0, 400)).toBe(200);
    fromDaemon = JSON.parse(answer.body) as Inspection;
  });

  const sides = () => ({ cli: fromCli, daemon: fromDaemon });

  it('is INSPECTED through the CLI and the daemon, complete, in the expected protocol and mode', () => {
    for (const [side, result] of Object.entries(sides())) {
      expect({ side, status: result.status, complete: result.complete, version: result.negotiatedVersion, mode: result.mode }).toEqual({
        side,
        status: 'INSPECTED',
        complete: true,
        version: entry.negotiated[0],
        mode: entry.negotiated[1],
      });
    }
  });

  it.each(INVENTORY_KINDS.map((k) => k.kind))(
    "%s: the SDK client's entries, each definitionSha256 = SHA-256 of RFC 8785 (canonicalize) of the wire definition",
    (kind) => {
      const expected = reference.lists[kind].wire.map((e): [string, string] => [String(e[idOf(kind)]), referenceDefinitionSha256(e)]);
      expect(expected.map(([id]) => id)).toEqual(reference.lists[kind].sdk.map((e) => String(e[idOf(kind)])));
      for (const [side, result] of Object.entries(sides())) {
        expect({ side, entries: svcEntries(result, kind) }).toEqual({ side, entries: expected });
      }
    },
  );

  it('inventoryHash = the one recomputed from the independent fingerprints', () => {
    const expected = referenceInventoryHash(referenceFingerprints(reference));
    expect({ cli: fromCli.inventoryHash, daemon: fromDaemon.inventoryHash }).toEqual({ cli: expected, daemon: expected });
  });

  it("the SDK client's parsed entries equal the wire's (no member dropped or added; RFC 8785 ignores member order)", () => {
    for (const { kind } of INVENTORY_KINDS) {
      expect(reference.lists[kind].sdk.map(jcs), kind).toEqual(reference.lists[kind].wire.map(jcs));
    }
  });

  if (entry.id === 'server-everything') {
    it('the reference server lists 13 tools, 4 prompts, 7 resources and 2 templates, and svc finds them all', () => {
      const counts = (f: (kind: InventoryKind) => number) => Object.fromEntries(INVENTORY_KINDS.map(({ kind }) => [kind, f(kind)]));
      expect(counts((kind) => reference.lists[kind].wire.length)).toEqual(EVERYTHING_COUNTS);
      expect(counts((kind) => reference.lists[kind].sdk.length)).toEqual(EVERYTHING_COUNTS);
      for (const result of Object.values(sides())) {
        expect(counts((kind) => svcEntries(result, kind)?.length ?? -1)).toEqual(EVERYTHING_COUNTS);
      }
      expect(reference.serverInfo?.name).toBe('mcp-servers/everything');
    });
  }
});
