/**
 * MCP inspection of a 500-tool server on loopback HTTPS (the SDK 2.x `createMcpHandler`,
 * protocol 2026-07-28, JSON replies), ms per inspection, next to a bare `tools/list` loop over
 * the same server in the same run: undici `fetch` of server/discover and every tools/list page
 * with `JSON.parse`, over a kept-alive connection trusting the same test CA. svc does what the
 * bare loop does plus the egress check and pinned connection of every request, strict JSON
 * parsing (duplicate members), RFC 8785 fingerprints of 500 definitions, both classes and the
 * risk signals of every tool, and drift. Runs alternate (svc, bare, svc, …) so noise falls on
 * both sides alike. A second row adds the drift comparison and write to a real SQLite file.
 * Informational: the issue sets no goal.
 *
 * Scaling (issue 23, goal ≤ 2×): tools named outside `[A-Za-z0-9_.-]` (`files/get item_0001`)
 * are matched across tools as substrings; the risk signals of 1000 of them must cost at most
 * twice 500 (in-process: an inspection lists at most 500 tools, SPEC §8, so 1000 cannot go over
 * the wire). The "peer" is svc itself on 500 such tools, alternated. Beside it, informational:
 * inspecting 500 odd-named tools next to 500 plain-named ones over loopback HTTPS.
 */
import { performance } from 'node:perf_hooks';
import { Agent, fetch } from 'undici';
import type { ToolText } from '../src/core/mcp/classes.js';
import { inspectMcp } from '../src/core/mcp/inspect.js';
import { toolSignals } from '../src/core/mcp/signals.js';
import { manyTools, startSdk2Server } from '../test/support/mcp-servers.js';
import { tempStore } from '../test/support/store.js';
import { median, type BenchRow } from './lib.js';

const TOOLS = 500;
const RUNS = 15;
const WARMUP = 3;

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function bareLoop(url: string, dispatcher: Agent): Promise<number> {
  let id = 1;
  const post = async (method: string, params: Record<string, unknown>) => {
    const response = await fetch(url, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method },
      body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
    });
    return (await response.json()) as { result: { tools?: unknown[]; nextCursor?: string } };
  };
  await post('server/discover', { _meta: META });
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await post('tools/list', { _meta: META, ...(cursor ? { cursor } : {}) });
    count += page.result.tools?.length ?? 0;
    cursor = page.result.nextCursor;
  } while (cursor);
  return count;
}

const SIGNAL_RUNS = 41;
const SIGNAL_WARMUP = 10;

/** Names with `/` and a space: outside the standard name characters. */
const ODD_PREFIX = 'files/get item';

/** ms to compute the risk signals of every tool, as inspectMcp does (one names array). */
function signalsMs(tools: readonly ToolText[]): number {
  const names = tools.map((t) => t.name);
  const t = performance.now();
  for (const tool of tools) toolSignals(tool, names);
  return performance.now() - t;
}

function asToolText(n: number): ToolText[] {
  return manyTools(n, ODD_PREFIX).map((spec) => ({
    name: spec.name,
    title: null,
    description: spec.description ?? null,
    inputSchema: (spec.inputSchema ?? null) as ToolText['inputSchema'],
  }));
}

async function scalingRows(): Promise<BenchRow[]> {
  // In-process: fresh arrays each run, so every run indexes its inventory as an inspection does.
  // Runs of a few ms are noisy (a GC lands in one or the other): more of them, and the order of
  // the two sizes alternates from round to round.
  const signals: Record<number, number[]> = { 500: [], 1000: [] };
  for (let i = 0; i < SIGNAL_WARMUP + SIGNAL_RUNS; i++) {
    for (const n of i % 2 === 0 ? [500, 1000] : [1000, 500]) {
      const ms = signalsMs(asToolText(n));
      if (i >= SIGNAL_WARMUP) signals[n]!.push(ms);
    }
  }
  const servers = { odd: await startSdk2Server({ tools: manyTools(500, ODD_PREFIX), responseMode: 'json' }), plain: await startSdk2Server({ tools: manyTools(500), responseMode: 'json' }) };
  const runtimes = { odd: servers.odd.host.runtime(), plain: servers.plain.host.runtime() };
  const inspect: Record<'odd' | 'plain', number[]> = { odd: [], plain: [] };
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      for (const kind of ['odd', 'plain'] as const) {
        const t = performance.now();
        const result = await inspectMcp(servers[kind].url, { runtime: runtimes[kind] });
        const ms = performance.now() - t;
        if (result.tools.length !== 500) throw new Error(`svc listed ${result.tools.length} of 500 ${kind}-named tools`);
        if (i >= WARMUP) inspect[kind].push(ms);
      }
    }
  } finally {
    for (const runtime of Object.values(runtimes)) runtime.net.close();
    for (const server of Object.values(servers)) await server.close();
  }
  const goal = { op: '<=', ratio: 2 } as const;
  return [
    {
      operation: 'risk signals of 1000 odd-named tools (names with / and space)',
      unit: 'ms',
      svc: median(signals[1000]!),
      peer: 'svc, 500 odd-named tools',
      peerValue: median(signals[500]!),
      goal,
      status: 'ok',
      note: 'ratio = 1000 ÷ 500 tools; linear is 2.0 (cross-tool name matching, in-process)',
      samples: { svc: signals[1000]!, peer: signals[500]! },
    },
    {
      operation: 'inspect 500 odd-named tools (2026-07-28, loopback HTTPS)',
      unit: 'ms',
      svc: median(inspect.odd),
      peer: 'svc, 500 plain-named tools',
      peerValue: median(inspect.plain),
      goal: null,
      status: 'ok',
      note: 'informational: the cost of names outside A-Z a-z 0-9 _ - . (substring matching)',
      samples: { svc: inspect.odd, peer: inspect.plain },
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  return [...(await baseRows()), ...(await scalingRows())];
}

async function baseRows(): Promise<BenchRow[]> {
  // The SDK warns on stderr when a JSON-mode handler starts; the figures are unaffected.
  const server = await startSdk2Server({ tools: manyTools(TOOLS), responseMode: 'json' });
  const runtime = server.host.runtime();
  const dispatcher = new Agent({ connect: { ca: server.host.ca.certPem } });
  const temp = tempStore();
  const stored = { ...runtime, store: temp.store };
  try {
    const svcMs: number[] = [];
    const storedMs: number[] = [];
    const bareMs: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      let t = performance.now();
      const result = await inspectMcp(server.url, { runtime });
      const a = performance.now() - t;
      if (result.tools.length !== TOOLS) throw new Error(`svc listed ${result.tools.length} tools`);
      t = performance.now();
      const withStore = await inspectMcp(server.url, { runtime: stored });
      const b = performance.now() - t;
      if (withStore.checks[0]?.status !== 'PASS') throw new Error(`history: ${withStore.checks[0]?.detail}`);
      t = performance.now();
      const count = await bareLoop(server.url, dispatcher);
      const c = performance.now() - t;
      if (count !== TOOLS) throw new Error(`the bare loop listed ${count} tools`);
      if (i >= WARMUP) {
        svcMs.push(a);
        storedMs.push(b);
        bareMs.push(c);
      }
    }
    const peer = 'bare undici fetch of server/discover + tools/list, JSON.parse';
    return [
      {
        operation: `inspect a ${TOOLS}-tool MCP server (2026-07-28, loopback HTTPS)`,
        unit: 'ms',
        svc: median(svcMs),
        peer,
        peerValue: median(bareMs),
        goal: null,
        status: 'ok',
        note: 'no storage: fingerprints, classes, signals',
        samples: { svc: svcMs, peer: bareMs },
      },
      {
        operation: `inspect a ${TOOLS}-tool MCP server + drift and store (SQLite file)`,
        unit: 'ms',
        svc: median(storedMs),
        peer,
        peerValue: median(bareMs),
        goal: null,
        status: 'ok',
        note: 'previous snapshot read, drift, coalesced write',
        samples: { svc: storedMs, peer: bareMs },
      },
    ];
  } finally {
    temp.cleanup();
    runtime.net.close();
    await dispatcher.close();
    await server.close();
  }
}
