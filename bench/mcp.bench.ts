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
 * Scaling (goal ≤ 2×): tools named outside `[A-Za-z0-9_.-]` (`files/get item_0001`)
 * are matched across tools as substrings; the risk signals of 1000 of them must cost at most
 * twice 500 (in-process: an inspection lists at most 500 tools, so 1000 cannot go over
 * the wire). The "peer" is svc itself on 500 such tools, alternated. Beside it, informational:
 * inspecting 500 odd-named tools next to 500 plain-named ones over loopback HTTPS.
 *
 * Against the official SDK client (goal ≤ 1.5×): svc's `inspectMcp` next to the SDK
 * Client listing tools, prompts, resources and resource templates (every page; connect and close
 * included), alternated, on @modelcontextprotocol/server-everything (a child process) and on an
 * SDK 1.x server with 500 tools, 100 prompts and 100 resources in pages of 100 (plain http on
 * 127.0.0.1). Memory, informational: one tools/list answer of just under 2 MiB read by the svc CLI
 * and by the SDK client in a plain node process (bench/support/sdk-client-list.mjs): the bytes
 * each read and each process's peak RSS (bench/support/max-rss.mjs).
 *
 * Over stdio (goal ≤ 1.5× like the row above): inspectMcpStdio on
 * @modelcontextprotocol/server-memory, process start to process end, next to the SDK Client over
 * StdioClientTransport, alternated.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';
import type { ToolText } from '../src/core/mcp/classes.js';
import { inspectMcp, inspectMcpStdio } from '../src/core/mcp/inspect.js';
import { childEnvironment } from '../src/core/mcp/stdio.js';
import { stdioLauncher } from '../src/runtime/mcp-stdio.js';
import { toolSignals } from '../src/core/mcp/signals.js';
import { systemClock } from '../src/runtime/node.js';
import { PEERS, startPeer } from '../test/support/mcp-peers.js';
import { referenceInventory, referenceStdioInventory, type InventoryKind } from '../test/support/mcp-reference.js';
import { manyResources, manyTools, startOversizedServer, startPagedServer, startPlainHost, startSdk2Server } from '../test/support/mcp-servers.js';
import { testRuntime } from '../test/support/runtime.js';
import { tempStore } from '../test/support/store.js';
import { median, plainEnv, type BenchRow } from './lib.js';

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
  const servers = {
    odd: await startSdk2Server({ tools: manyTools(500, ODD_PREFIX), responseMode: 'json' }),
    plain: await startSdk2Server({ tools: manyTools(500), responseMode: 'json' }),
  };
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
  return [...(await baseRows()), ...(await scalingRows()), ...(await interopRows()), ...(await stdioRows()), ...(await largeReplyRows())];
}

const MEMORY_SERVER = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url));

/**
 * Over stdio: svc's inspectMcpStdio on @modelcontextprotocol/server-memory —
 * start the process, initialize, every listing, fingerprints, signals, end the process group
 * (stdin closed; it exits) — next to the SDK Client over its StdioClientTransport doing the same
 * listings (start, connect, list, close), alternated, in the same run.
 */
async function stdioRows(): Promise<BenchRow[]> {
  const runtime = testRuntime(systemClock);
  const command = { command: process.execPath, args: [MEMORY_SERVER], env: childEnvironment(process.env, []) };
  return [
    await svcVsSdk(
      'inspect server-memory over stdio (process start to end): svc vs SDK client',
      '@modelcontextprotocol/sdk Client + StdioClientTransport: spawn, connect, all lists, close',
      'svc in process (inspectMcpStdio, no store)',
      () => inspectMcpStdio(command, { runtime, launch: stdioLauncher() }),
      () => referenceStdioInventory(command.command, command.args),
    ),
  ];
}

/** svc and the SDK client alternated (INTEROP_WARMUP + INTEROP_RUNS each), every run's inventory checked complete and of the same tool count. */
async function svcVsSdk(
  operation: string,
  peer: string,
  how: string,
  svcSide: () => Promise<Awaited<ReturnType<typeof inspectMcp>>>,
  sdkSide: () => Promise<Awaited<ReturnType<typeof referenceInventory>>>,
): Promise<BenchRow> {
  const svcMs: number[] = [];
  const sdkMs: number[] = [];
  let listed = '';
  for (let i = 0; i < INTEROP_WARMUP + INTEROP_RUNS; i++) {
    let t = performance.now();
    const result = await svcSide();
    const a = performance.now() - t;
    if (result.status !== 'INSPECTED' || !result.complete) throw new Error(`svc: ${operation}: ${result.status}, ${result.inventoryLimit ?? 'complete'}`);
    t = performance.now();
    const reference = await sdkSide();
    const b = performance.now() - t;
    if (reference.lists.tools.sdk.length !== result.tools.length)
      throw new Error(`${operation}: svc listed ${result.tools.length} tools, the SDK client ${reference.lists.tools.sdk.length}`);
    if (i >= INTEROP_WARMUP) {
      svcMs.push(a);
      sdkMs.push(b);
    }
    const counts = svcCounts(result);
    listed = KINDS.map((kind) => `${kind} ${counts[kind]}/${reference.lists[kind].sdk.length}`).join(', ');
  }
  return {
    operation,
    unit: 'ms',
    svc: median(svcMs),
    peer,
    peerValue: median(sdkMs),
    goal: { op: '<=', ratio: 1.5 },
    status: 'ok',
    note: `${how}; entries svc/SDK: ${listed}`,
    samples: { svc: svcMs, peer: sdkMs },
  };
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

// ---------------------------------------------------------------------------------------------
// Against the official SDK client: the same servers, the same lists, one run
// ---------------------------------------------------------------------------------------------

const INTEROP_RUNS = 15;
const INTEROP_WARMUP = 3;
const KINDS: InventoryKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];

/** Entries svc's inspection lists per kind (a kind svc does not list yet counts 0). */
function svcCounts(result: Awaited<ReturnType<typeof inspectMcp>>): Record<InventoryKind, number> {
  const members = result as unknown as Partial<Record<InventoryKind, unknown[]>>;
  return Object.fromEntries(KINDS.map((kind) => [kind, members[kind]?.length ?? 0])) as Record<InventoryKind, number>;
}

/** `n` prompts `prompt_0001` … with one required argument. */
function manyPrompts(n: number): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, i) => {
    const number = String(i + 1).padStart(4, '0');
    return {
      name: `prompt_${number}`,
      description: `Prompt ${number} of the catalogue.`,
      arguments: [{ name: 'topic', description: 'What to write about', required: true }],
    };
  });
}

/**
 * svc's `inspectMcp` (in process, no store) next to the SDK client's connect + every page of
 * tools/list, prompts/list, resources/list and resources/templates/list + close, alternated,
 * against server-everything (a child process) and an SDK 1.x server with 500 tools, 100 prompts
 * and 100 resources paged 100 at a time (in this process, stateless, JSON replies). Goal: svc
 * at most 1.5× the SDK client's time.
 */
async function interopRows(): Promise<BenchRow[]> {
  const everything = await startPeer(PEERS.find((p) => p.id === 'server-everything')!);
  const host = await startPlainHost();
  const paged = await startPagedServer({
    host,
    tools: manyTools(500),
    pageSize: 100,
    prompts: manyPrompts(100),
    resources: manyResources(100),
  });
  const runtime = testRuntime(systemClock, { allow: ['127.0.0.1/32'] });
  const targets = [
    { label: `server-everything ${everything.version} (child process, sessions, SSE)`, url: everything.url },
    { label: 'SDK 1.x, 500 tools + 100 prompts + 100 resources (pages of 100, JSON)', url: paged.url.replace('//localhost:', '//127.0.0.1:') },
  ];
  const rows: BenchRow[] = [];
  try {
    for (const target of targets) {
      rows.push(
        await svcVsSdk(
          `inspect ${target.label}: svc vs SDK client`,
          '@modelcontextprotocol/sdk Client: connect, all four lists paginated, close',
          'svc in process (inspectMcp, no store)',
          () => inspectMcp(target.url, { runtime }),
          () => referenceInventory(target.url),
        ),
      );
    }
  } finally {
    runtime.net.close();
    await paged.close();
    await host.close();
    await everything.close();
  }
  return rows;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_RSS = path.join(repoRoot, 'bench/support/max-rss.mjs');
const LARGE_REPLY_RUNS = 5;

/** A node child with the max-RSS preload: its stdout and its peak RSS in MB. */
function measuredChild(args: string[]): Promise<{ stdout: string; code: number | null; rssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', MAX_RSS, ...args], { cwd: repoRoot, env: plainEnv(), stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let rss = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr!.on('data', () => {});
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => (rss += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ stdout, code, rssMb: Number(rss.trim()) / 1024 }));
  });
}

/**
 * One `tools/list` answer of just under 2 MiB (svc's limit per reply; one tool whose
 * description fills it, SDK 1.x, stateless, JSON) read by the svc CLI (`inspect-mcp --json
 * --no-store`) and by the SDK client in a plain node process (bench/support/sdk-client-list.mjs),
 * each its own process: the bytes each read (svc's transcript; the SDK's fetch bodies) and the
 * peak RSS of each process. Informational.
 */
async function largeReplyRows(): Promise<BenchRow[]> {
  const cli = path.join(repoRoot, 'dist/cli.js');
  const replyBytes = 2 * 1024 * 1024 - 4096;
  if (!existsSync(cli)) {
    return [
      {
        operation: 'a 2 MiB tools/list answer: peak RSS',
        unit: 'MB',
        svc: null,
        peer: 'SDK client process',
        peerValue: null,
        goal: null,
        status: 'not built',
        note: 'dist/cli.js is missing (npm run build)',
      },
    ];
  }
  const host = await startPlainHost();
  // The same server with a reply of a few hundred bytes: what each process needs anyway.
  const servers = {
    large: await startOversizedServer({ host, path: '/large', replyBytes }),
    small: await startOversizedServer({ host, path: '/small', replyBytes: 0 }),
  };
  const samples = {
    large: { svcRss: [] as number[], sdkRss: [] as number[], svcBytes: [] as number[], sdkBytes: [] as number[] },
    small: { svcRss: [] as number[], sdkRss: [] as number[], svcBytes: [] as number[], sdkBytes: [] as number[] },
  };
  try {
    for (let i = 0; i < LARGE_REPLY_RUNS; i++) {
      for (const size of ['large', 'small'] as const) {
        const url = servers[size].url.replace('//localhost:', '//127.0.0.1:');
        const a = await measuredChild([path.join(repoRoot, 'bin/svc.js'), 'inspect-mcp', url, '--egress-allow', '127.0.0.1/32', '--json', '--no-store']);
        const result = JSON.parse(a.stdout) as { status: string; complete: boolean; tools: unknown[]; transcript: Array<{ bytes: number }> };
        if (result.status !== 'INSPECTED' || !result.complete || result.tools.length !== 1)
          throw new Error(`svc on the ${size} reply: ${a.stdout.slice(0, 300)}`);
        samples[size].svcRss.push(a.rssMb);
        samples[size].svcBytes.push(result.transcript.reduce((sum, e) => sum + e.bytes, 0) / 1024);
        const b = await measuredChild([path.join(repoRoot, 'bench/support/sdk-client-list.mjs'), url]);
        const listed = JSON.parse(b.stdout) as { tools: number; bytes: number };
        if (listed.tools !== 1) throw new Error(`the SDK client on the ${size} reply: ${b.stdout.slice(0, 300)}`);
        samples[size].sdkRss.push(b.rssMb);
        samples[size].sdkBytes.push(listed.bytes / 1024);
      }
    }
  } finally {
    await servers.large.close();
    await servers.small.close();
    await host.close();
  }
  const { svcRss, sdkRss, svcBytes, sdkBytes } = samples.large;
  const small = samples.small;
  const note = `one tools/list reply of ${replyBytes} bytes; each side its own node process; KB = 1024 bytes`;
  return [
    {
      operation: 'a 2 MiB tools/list answer: bytes read (all exchanges)',
      unit: 'KB',
      svc: median(svcBytes),
      peer: 'SDK client (fetch bodies counted)',
      peerValue: median(sdkBytes),
      goal: null,
      status: 'ok',
      note,
      samples: { svc: svcBytes, peer: sdkBytes },
    },
    {
      operation: 'a 2 MiB tools/list answer: peak RSS of the process',
      unit: 'MB',
      svc: median(svcRss),
      peer: 'SDK client process (plain node, tools + other lists)',
      peerValue: median(sdkRss),
      goal: null,
      status: 'ok',
      note: `svc: the CLI (inspect-mcp --json --no-store); ${note}; with a reply of ${Math.round(median(small.svcBytes) * 1024)} bytes instead: svc ${median(small.svcRss).toFixed(1)} MB, SDK client ${median(small.sdkRss).toFixed(1)} MB`,
      samples: { svc: svcRss, peer: sdkRss },
    },
  ];
}
