/**
 * MCP servers of other implementations, each run as a real child process on 127.0.0.1 (plain
 * HTTP, Streamable HTTP transport), for the interoperability matrix
 * (test/integration/mcp-matrix.e2e.test.ts) and the MCP benchmark:
 *
 *   server-everything  @modelcontextprotocol/server-everything, the reference server, as its
 *                      README runs it: `PORT=<p> node dist/index.js streamableHttp` (endpoint /mcp)
 *   fastmcp            test/support/mcp-peers/fastmcp.mjs (stateful SSE, or stateless JSON)
 *   mcp-framework      test/support/mcp-peers/mcp-framework.mjs (its http-stream transport)
 *   tmcp               test/support/mcp-peers/tmcp.mjs (@tmcp/transport-http)
 *   mcp-lite           test/support/mcp-peers/mcp-lite.mjs (StreamableHttpTransport, sessions)
 *
 * A peer that takes its port from us gets a free one (bound on 127.0.0.1 and released just
 * before the start); the others listen on port 0 and say which. A peer is ready when its output
 * names its endpoint; one that exits or stays silent fails the start with its last output. Its
 * output is drained as it runs (a full pipe would stall it) and kept only in a short tail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Not from ./cli.js: that module imports vitest, and the benchmarks start peers too.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface PeerSpec {
  /** Short id, used in test names and by the README's table. */
  id: string;
  /** The npm package that implements the server. */
  package: string;
  /** What the matrix exercises: protocol versions, sessions, reply format. */
  transport: string;
  /** Node arguments (script first); `port` is null for a peer that picks its own. */
  args: (port: number | null) => string[];
  env?: (port: number | null) => Record<string, string>;
  /** True when the peer must be given a port (it cannot report one it picked). */
  needsPort: boolean;
  /** Matches the peer's output once it accepts connections; group 1 is the endpoint URL or the port. */
  ready: RegExp;
}

const peerScript = (name: string) => path.join(repoRoot, 'test/support/mcp-peers', name);
const LISTENING = /^listening (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m;

export const PEERS: readonly PeerSpec[] = [
  {
    id: 'server-everything',
    package: '@modelcontextprotocol/server-everything',
    transport: '2025-11-25, sessions, SSE replies with an event store (priming events)',
    args: () => [path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'],
    env: (port) => ({ PORT: String(port) }),
    needsPort: true,
    ready: /MCP Streamable HTTP Server listening on port (\d+)/,
  },
  {
    id: 'fastmcp',
    package: 'fastmcp',
    transport: '2025-11-25, sessions, SSE replies',
    args: (port) => [peerScript('fastmcp.mjs'), String(port)],
    needsPort: true,
    ready: LISTENING,
  },
  {
    id: 'fastmcp-stateless-json',
    package: 'fastmcp',
    transport: '2025-11-25, stateless, JSON replies',
    args: (port) => [peerScript('fastmcp.mjs'), String(port), '--stateless', '--json'],
    needsPort: true,
    ready: LISTENING,
  },
  {
    id: 'mcp-framework',
    package: 'mcp-framework',
    transport: '2025-11-25, sessions, SSE replies (http-stream)',
    args: (port) => [peerScript('mcp-framework.mjs'), String(port)],
    needsPort: true,
    ready: /HTTP server listening on 127\.0\.0\.1:(\d+), endpoint \/mcp[\s\S]*Server running and ready/,
  },
  {
    id: 'tmcp',
    package: 'tmcp',
    transport: '2026-07-28 per request and 2025-11-25 sessions, SSE replies (@tmcp/transport-http)',
    args: () => [peerScript('tmcp.mjs'), '0'],
    needsPort: false,
    ready: LISTENING,
  },
  {
    id: 'mcp-lite',
    package: 'mcp-lite',
    transport: '2025-06-18 / 2025-03-26 (negotiated down), sessions, JSON and SSE replies',
    args: () => [peerScript('mcp-lite.mjs'), '0'],
    needsPort: false,
    ready: LISTENING,
  },
];

/** The installed version of a package (from its package.json in node_modules). */
export function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

export interface PeerProcess {
  spec: PeerSpec;
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  version: string;
  child: ChildProcess;
  /** Ends the process (SIGTERM, then SIGKILL after 2 s) and waits for its exit. */
  close(): Promise<void>;
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const TAIL_BYTES = 4096;
const START_TIMEOUT_MS = 30_000;

/**
 * Starts a peer; one that takes a port is started again on a new port when another process took
 * the free one first (the window between freePort() and the peer's listen: EADDRINUSE).
 */
export async function startPeer(spec: PeerSpec): Promise<PeerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPeerOnce(spec);
    } catch (err) {
      if (!spec.needsPort || attempt >= 3 || !/EADDRINUSE/.test(String((err as Error).message))) throw err;
    }
  }
}

async function startPeerOnce(spec: PeerSpec): Promise<PeerProcess> {
  const port = spec.needsPort ? await freePort() : null;
  const child = spawn(process.execPath, spec.args(port), {
    cwd: repoRoot,
    env: { ...process.env, NODE_OPTIONS: '', ...spec.env?.(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Should this process end without close() (a crashed test run), the peer ends with it.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  let tail = '';
  /** Output until the ready line (then null: only the tail is kept). */
  let seen: string | null = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const fail = (why: string) => {
      // A peer that never said it was ready is not left running.
      child.kill('SIGKILL');
      reject(new Error(`${spec.id} did not start: ${why}\n${tail}`));
    };
    const timer = setTimeout(() => fail(`no "ready" line within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      tail = (tail + text).slice(-TAIL_BYTES);
      if (seen === null) return;
      seen += text;
      const match = spec.ready.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      seen = null;
      resolve(match[1]!.startsWith('http') ? match[1]! : `http://127.0.0.1:${match[1]}/mcp`);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('error', (err) => fail(err.message));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code})`));
  });
  let closing: Promise<void> | null = null;
  return {
    spec,
    url,
    version: installedVersion(spec.package),
    child,
    close: () =>
      (closing ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(kill);
      })()),
  };
}
