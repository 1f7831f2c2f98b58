/**
 * Approved baselines of a 500-tool MCP inventory (docs/agents.md#approved-baselines), in this
 * process, ms per operation (median), alternated with a peer in the same run. Informational: the
 * issue asks for the figures, it sets no goal.
 *
 *   compare     compareWithBaseline: 500 tools against their approved entry, one description
 *               changed (ADDED / CHANGED with changedFields / removed) — next to the stored-
 *               observation drift of the same items (compareInventory against a snapshot), the
 *               comparison it replaces
 *   read        readMcpBaseline of the file svc writes for them (strict parse, layout check, 500
 *               definitionSha256 recomputed) — next to JSON.parse of the same bytes
 *   write       the file's text (RFC 8785 laid out one member per line) — next to
 *               JSON.stringify(value, null, 2)
 *   end to end  inspectSavedMcp of the saved tools/list answer with --baseline (the file read,
 *               its entry chosen, the inventory fingerprinted, classed, scanned and compared) —
 *               next to the same inspection without a baseline (storage off)
 */
import { performance } from 'node:perf_hooks';
import { jcsSha256 } from '../src/core/canonical.js';
import type { JsonObject } from '../src/core/encoding/json.js';
import { compareWithBaseline, emptyMcpBaseline, entryForTarget, entryOf, mcpBaselineText, readMcpBaseline, withEntry } from '../src/core/mcp/baseline.js';
import { compareInventory, type FingerprintedInventory } from '../src/core/mcp/drift.js';
import { inspectSavedMcp } from '../src/core/mcp/inspect.js';
import { readSavedInventory } from '../src/core/mcp/saved.js';
import { systemClock } from '../src/runtime/node.js';
import { manyTools, wireTool } from '../test/support/mcp-servers.js';
import { testRuntime } from '../test/support/runtime.js';
import { median, type BenchRow } from './lib.js';

const TOOLS = 500;
const RUNS = 40;
const WARMUP = 5;
const TARGET = 'https://tools.example/mcp';
const COMPLETE = { tools: true, prompts: true, resources: true, resourceTemplates: true };

function fingerprinted(tools: readonly JsonObject[]): FingerprintedInventory {
  return {
    tools: tools.map((definition) => ({ key: definition['name'] as string, definition, definitionSha256: jcsSha256(definition) })),
    prompts: [],
    resources: [],
    resourceTemplates: [],
  };
}

/** `svc` and `peer` alternated, WARMUP + RUNS times each; each must return something truthy (the work was done). */
function alternate(svcSide: () => unknown, peerSide: () => unknown): { svc: number[]; peer: number[] } {
  const svc: number[] = [];
  const peer: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    let t = performance.now();
    if (!svcSide()) throw new Error('the svc side returned nothing');
    const a = performance.now() - t;
    t = performance.now();
    if (!peerSide()) throw new Error('the peer side returned nothing');
    const b = performance.now() - t;
    if (i >= WARMUP) {
      svc.push(a);
      peer.push(b);
    }
  }
  return { svc, peer };
}

async function alternateAsync(svcSide: () => Promise<unknown>, peerSide: () => Promise<unknown>): Promise<{ svc: number[]; peer: number[] }> {
  const svc: number[] = [];
  const peer: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    let t = performance.now();
    if (!(await svcSide())) throw new Error('the svc side returned nothing');
    const a = performance.now() - t;
    t = performance.now();
    if (!(await peerSide())) throw new Error('the peer side returned nothing');
    const b = performance.now() - t;
    if (i >= WARMUP) {
      svc.push(a);
      peer.push(b);
    }
  }
  return { svc, peer };
}

function row(operation: string, peer: string, samples: { svc: number[]; peer: number[] }, note: string): BenchRow {
  return { operation, unit: 'ms', svc: median(samples.svc), peer, peerValue: median(samples.peer), goal: null, status: 'ok', note, samples };
}

export async function run(): Promise<BenchRow[]> {
  const approved = manyTools(TOOLS).map((tool) => wireTool(tool) as JsonObject);
  const now = approved.map((tool, i) => (i === 250 ? { ...tool, description: 'Returns the item, then mails it to the author.' } : tool));
  const server = { target: TARGET, serverInfo: { name: 'bench', version: '1' }, instructions: null };
  const entry = entryOf(fingerprinted(approved), server);
  const baseline = withEntry(emptyMcpBaseline(), TARGET, entry);
  const text = mcpBaselineText(baseline);
  const bytes = new TextEncoder().encode(text);
  const current = fingerprinted(now);
  const snapshot = {
    id: 1,
    endpoint: TARGET,
    inventoryHash: 'x',
    profile: baseline.hashProfile,
    negotiatedVersion: null,
    observedAt: '2026-01-01T00:00:00Z',
    lastSeenAt: '2026-01-01T00:00:00Z',
    seenCount: 1,
    tools: Object.entries(entry.tools).map(([name, item]) => ({ name, ...item })),
    prompts: [],
    resources: [],
    resourceTemplates: [],
  };
  const use = { file: 'mcp-baseline.json', name: TARGET, entry };

  const compare = alternate(
    () => {
      const drift = compareWithBaseline(current, server, use, COMPLETE);
      return drift.inventory.changed.length === 1 && drift.items.tools.get('get_item_0251')?.changedFields?.[0] === 'description';
    },
    () => compareInventory(current, snapshot, COMPLETE).inventory.changed.length === 1,
  );
  const read = alternate(
    () => Object.keys(readMcpBaseline(bytes, 'The baseline').baseline.servers[TARGET]!.tools).length === TOOLS,
    () => Object.keys((JSON.parse(text) as typeof baseline).servers[TARGET]!.tools).length === TOOLS,
  );
  const write = alternate(
    () => mcpBaselineText(baseline).length === text.length,
    () => JSON.stringify(baseline, null, 2).length > 0,
  );

  const listing = new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools: now } }));
  const saved = await readSavedInventory(listing, 'tools-list.json', 'file:///tools-list.json');
  const runtime = testRuntime(systemClock);
  const endToEnd = await alternateAsync(
    async () => {
      const { baseline: read, lines } = readMcpBaseline(bytes, 'The baseline');
      const chosen = entryForTarget(read, null, 'The baseline');
      const result = await inspectSavedMcp(saved, { runtime, baseline: { file: 'mcp-baseline.json', ...chosen } });
      return lines.size > 0 && result.drift.status === 'CHANGED' && result.checks.at(-1)?.status === 'FAIL';
    },
    async () => (await inspectSavedMcp(saved, { runtime })).tools.length === TOOLS,
  );

  const size = `${(bytes.length / 1024).toFixed(0)} KiB file, ${text.split('\n').length - 1} lines`;
  return [
    row(
      `compare a ${TOOLS}-tool inventory with its approved baseline`,
      'drift against the stored snapshot (compareInventory), the same items',
      compare,
      'one description changed: CHANGED with changedFields',
    ),
    row(`read a ${TOOLS}-tool baseline file`, 'JSON.parse of the same bytes', read, `strict parse, layout check, ${TOOLS} fingerprints recomputed; ${size}`),
    row(`write a ${TOOLS}-tool baseline file`, 'JSON.stringify(value, null, 2)', write, 'RFC 8785 order and forms, one member per line'),
    row(
      `inspect a saved ${TOOLS}-tool listing --baseline (in process)`,
      'the same inspection without a baseline (storage off)',
      endToEnd,
      'file read and checked, entry chosen, fingerprints, classes, signals, comparison',
    ),
  ];
}
