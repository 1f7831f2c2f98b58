/**
 * Local MCP servers over stdio (`svc inspect-mcp --stdio -- <command> …`) and
 * MCP client configuration files (`--config <file> [--run-stdio]`). Real processes throughout:
 *
 *   - @modelcontextprotocol/server-memory and server-filesystem (npm) inventoried over stdio by
 *     svc's core, equal to what the official SDK client lists over its StdioClientTransport
 *     (names, and definitionSha256 recomputed with `canonicalize`: test/support/mcp-reference.ts);
 *   - a hostile server of ours (test/support/mcp-stdio-hostile.mjs): noise, silence, a flood, an
 *     endless line, SIGTERM ignored, a forked child — each inventoried or refused with a precise
 *     reason, within bounds, and after every test no process it started is alive (checked by
 *     PID in /proc, the forked grandchild included);
 *   - the built CLI: --stdio, a config file naming two HTTP servers (SDK servers of
 *     test/support/mcp-servers.ts) and two stdio servers, with and without --run-stdio; bad
 *     input (malformed files exit 2, a command that cannot start exits 4).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inspectMcpStdio } from '../../src/core/mcp/inspect.js';
import { childEnvironment, type StdioLauncher, type StdioLimits } from '../../src/core/mcp/stdio.js';
import { parseMcpConfig } from '../../src/core/mcp/config.js';
import { ProblemError } from '../../src/core/problems.js';
import { stdioLauncher } from '../../src/runtime/mcp-stdio.js';
import { systemClock } from '../../src/runtime/node.js';
import { execa } from 'execa';
import { assertBuilt, cleanEnv, parseCliError, repoRoot, svc, svcBin } from '../support/cli.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { referenceDefinitionSha256, referenceStdioInventory } from '../support/mcp-reference.js';
import { PLAIN_TOOLS, startSdk1Server, startSdk2Server, type McpTestServer } from '../support/mcp-servers.js';
import { createTestCa, type TestCa } from '../support/pki.js';
import { testRuntime } from '../support/runtime.js';
import { tempStore } from '../support/store.js';

const NODE = process.execPath;
const MEMORY = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const FILESYSTEM = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const HOSTILE = path.join(repoRoot, 'test/support/mcp-stdio-hostile.mjs');

let dir: string;
let pidSeq = 0;
/** PIDs started in the current test: the servers (from the launcher) and what they wrote in their pid files. */
let started: number[] = [];
let pidFiles: string[] = [];

/** A process is gone when /proc has no entry for it, or only a zombie's. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function allPids(): number[] {
  const fromFiles = pidFiles.flatMap((file) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : []));
  return [...new Set([...started, ...fromFiles])];
}

/** The real launcher, with the ending steps 300 ms apart, noting each server's PID. */
const launch: StdioLauncher = async (command) => {
  const child = await stdioLauncher({ graceMs: 300 })(command);
  started.push(child.pid);
  return child;
};

const SHORT: StdioLimits = { replyMs: 1500, totalMs: 10_000, maxBytes: 8 * 1024 * 1024 };

function hostile(mode: string): { command: string; args: string[]; env: Record<string, string>; pidFile: string } {
  const pidFile = path.join(dir, `pids-${mode}-${++pidSeq}`);
  pidFiles.push(pidFile);
  return { command: NODE, args: [HOSTILE, mode, pidFile], env: childEnvironment(process.env, []), pidFile };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-mcp-stdio-'));
});

afterEach(async () => {
  // Nothing any test started outlives it: server, grandchild, anything in a pid file. A SIGKILL
  // sent as svc exits is delivered by the kernel a moment later on a loaded machine: a process
  // still running 5 s after the test is left behind.
  const pids = allPids();
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const left = pids.filter(alive);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  started = [];
  pidFiles = [];
  expect(left, `processes left behind: ${left.join(', ')}`).toEqual([]);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('official servers over stdio, equal to the SDK client', () => {
  const cases: Array<[string, () => string[]]> = [
    ['server-memory', () => [MEMORY]],
    ['server-filesystem', () => [FILESYSTEM, dir]],
  ];
  for (const [name, args] of cases) {
    it(`${name}: every tool, with the reference definitionSha256`, async () => {
      const env = childEnvironment(process.env, [], name === 'server-memory' ? { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } : {});
      // svc's inventory and the SDK client's, each over a server process of its own, at once.
      const [result, reference] = await Promise.all([
        inspectMcpStdio({ command: NODE, args: args(), env }, { runtime: testRuntime(systemClock), launch }),
        referenceStdioInventory(NODE, args()),
      ]);
      expect(result.status).toBe('INSPECTED');
      expect(result.endpoint).toBe(`stdio:${[NODE, ...args()].join(' ')}`);
      expect(result.tls).toBeNull();
      expect(result.complete).toBe(true);
      expect(result.serverInfo).toEqual(reference.serverInfo);
      expect(result.tools.length).toBeGreaterThan(3);
      expect(result.tools.map((t) => [t.name, t.definitionSha256])).toEqual(reference.lists.tools.wire.map((t) => [t['name'], referenceDefinitionSha256(t)]));
      for (const kind of ['prompts', 'resources', 'resourceTemplates'] as const) expect(result[kind].length).toBe(reference.lists[kind].wire.length);
      expect(result.checks.find((c) => c.id === 'transport')).toMatchObject({ status: 'PASS' });
      expect(result.checks.find((c) => c.id === 'protocol')).toMatchObject({ status: 'PASS' });
      expect(result.transcript.map((e) => [e.method, e.httpMethod])).toEqual([
        ['initialize', 'STDIO'],
        ['notifications/initialized', 'STDIO'],
        ['tools/list', 'STDIO'],
        ...(result.capabilities?.['prompts'] ? [['prompts/list', 'STDIO']] : []),
        ...(result.capabilities?.['resources']
          ? [
              ['resources/list', 'STDIO'],
              ['resources/templates/list', 'STDIO'],
            ]
          : []),
        ['end', 'STDIO'],
      ]);
      expect(result.transcript.at(-1)!.outcome).toBe('stdin closed; exited with status 0');
    });
  }
});

describe('drift over stdio', () => {
  it('is keyed by the command line: a second inspection of the same command is UNCHANGED, another argument is a first observation', async () => {
    const temp = tempStore();
    try {
      const runtime = testRuntime(systemClock);
      runtime.store = temp.store;
      const inspect = (extra: string[]) => {
        const { pidFile: _, command, args, env } = hostile('noise');
        return inspectMcpStdio({ command, args: [...args.slice(0, 2), ...extra], env }, { runtime, launch, limits: SHORT });
      };
      const first = await inspect([]);
      expect([first.drift.status, first.checks[0]!.status]).toEqual(['FIRST_OBSERVATION', 'PASS']);
      const second = await inspect([]);
      expect(second.endpoint).toBe(first.endpoint);
      expect(second.drift.status).toBe('UNCHANGED');
      const other = await inspect(['--other']);
      expect(other.drift.status).toBe('FIRST_OBSERVATION');
    } finally {
      temp.cleanup();
    }
  });
});

describe('a hostile stdio server', () => {
  const runtime = () => testRuntime(systemClock);

  it('noise: non-JSON lines, notifications, a ping and stray answers are skipped and counted; the ping is answered', async () => {
    const { pidFile, ...command } = hostile('noise');
    const result = await inspectMcpStdio(command, { runtime: runtime(), launch, limits: SHORT });
    expect(result.tools.map((t) => t.name)).toEqual(['echo', 'add']);
    expect(result.limitations).toContain(
      'Lines the server wrote besides the answers were skipped: 4 lines that are not JSON-RPC, 2 notifications, 2 server requests, 2 answers to other requests.',
    );
    expect(result.transcript.filter((e) => e.method === 'response').map((e) => e.outcome)).toEqual([
      "answered the server's ping",
      "answered the server's ping",
    ]);
    expect(readFileSync(pidFile, 'utf8').trim()).toMatch(/^\d+$/);
  });

  it('silent: no answer within the bound is a problem naming initialize', async () => {
    const { pidFile: _, ...command } = hostile('silent');
    const err = await inspectMcpStdio(command, { runtime: runtime(), launch, limits: SHORT }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemError);
    expect((err as ProblemError).code).toBe('UPSTREAM_UNAVAILABLE');
    expect((err as ProblemError).message).toMatch(/did not answer initialize as an MCP server: no JSON-RPC answer to request 1 within 1500 ms\.$/);
  });

  it('flood: more than 1000 lines without the answer stop the listing, with the reason', async () => {
    const { pidFile: _, ...command } = hostile('flood');
    const err = await inspectMcpStdio(command, { runtime: runtime(), launch, limits: SHORT }).catch((e: unknown) => e);
    expect((err as ProblemError).message).toMatch(
      /did not answer tools\/list as an MCP server: the server wrote more than 1000 lines without the JSON-RPC answer to request 2/,
    );
  });

  it('flood: past the total stdout bound the conversation is cut', async () => {
    const { pidFile: _, ...command } = hostile('longline');
    const err = await inspectMcpStdio(command, { runtime: runtime(), launch, limits: { ...SHORT, maxBytes: 1024 * 1024 } }).catch((e: unknown) => e);
    expect((err as ProblemError).message).toMatch(/the server wrote more than 1048576 bytes on stdout; svc stopped reading \(a flood\)/);
  });

  it('an endless line past 2 MiB leaves the tool listing partial (PAYLOAD_TOO_LARGE), as an HTTP reply would', async () => {
    const { pidFile: _, ...command } = hostile('longline');
    const result = await inspectMcpStdio(command, { runtime: runtime(), launch, limits: SHORT });
    expect(result.complete).toBe(false);
    expect(result.inventoryLimit).toBe('tools/list page 1 is larger than 2097152 bytes (2 MiB), the limit of one reply');
  });

  it('stubborn: SIGTERM ignored, killed with SIGKILL; the transcript says so', async () => {
    const { pidFile: _, ...command } = hostile('stubborn');
    const result = await inspectMcpStdio(command, { runtime: runtime(), launch, limits: SHORT });
    expect(result.tools).toHaveLength(2);
    expect(result.transcript.at(-1)!.outcome).toBe(
      'stdin closed; it kept running 0.3 s after stdin closed: SIGTERM; it ignored SIGTERM for 0.3 s: SIGKILL; ended by SIGKILL',
    );
    expect(result.limitations.at(-1)).toMatch(/^The server wrote \d+ bytes on stderr: hostile: SIGTERM ignored\.$/);
  });

  it('fork: the grandchild left behind is killed with its group', async () => {
    const { pidFile, ...command } = hostile('fork');
    const result = await inspectMcpStdio(command, { runtime: runtime(), launch, limits: SHORT });
    expect(result.tools).toHaveLength(2);
    expect(readFileSync(pidFile, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(result.transcript.at(-1)!.outcome).toBe('stdin closed; processes it left in its group: SIGKILL; exited with status 0');
  });

  it('exit: a server that exits at once is a problem carrying its stderr', async () => {
    const { pidFile: _, ...command } = hostile('exit');
    const err = await inspectMcpStdio(command, { runtime: runtime(), launch, limits: SHORT }).catch((e: unknown) => e);
    expect((err as ProblemError).message).toMatch(
      /did not answer initialize as an MCP server: the server closed its stdout before the JSON-RPC answer to request 1\. The server wrote 27 bytes on stderr: hostile: refusing to start\.$/,
    );
  });

  it('a command that does not exist is a problem naming it', async () => {
    const err = await inspectMcpStdio(
      { command: 'svc-no-such-mcp-server', args: [], env: childEnvironment(process.env, []) },
      { runtime: runtime(), launch },
    ).catch((e: unknown) => e);
    expect((err as ProblemError).message).toBe('The MCP server command "svc-no-such-mcp-server" could not be started: not found (ENOENT).');
  });

  it('the child environment is PATH, HOME and the variables named, nothing else', () => {
    expect(childEnvironment({ PATH: '/bin', HOME: '/h', SECRET: 's', TOKEN: 't' }, ['TOKEN', 'UNSET'], { FROM_CONFIG: 'c' })).toEqual({
      PATH: '/bin',
      HOME: '/h',
      TOKEN: 't',
      FROM_CONFIG: 'c',
    });
  });
});

describe('configuration files', () => {
  it('reads the four clients and refuses what is not one, naming the file', () => {
    expect(
      parseMcpConfig(JSON.stringify({ mcpServers: { a: { command: 'npx', args: ['x'], env: { K: 'v' } }, b: { url: 'https://x.example/mcp' } } }), 'c.json'),
    ).toEqual([
      { name: 'a', kind: 'stdio', command: 'npx', args: ['x'], env: { K: 'v' } },
      { name: 'b', kind: 'http', url: 'https://x.example/mcp' },
    ]);
    expect(parseMcpConfig(JSON.stringify({ mcpServers: { w: { serverUrl: 'https://w.example/mcp' } } }), 'windsurf.json')).toEqual([
      { name: 'w', kind: 'http', url: 'https://w.example/mcp' },
    ]);
    expect(
      parseMcpConfig(
        JSON.stringify({ servers: { v: { type: 'stdio', command: 'node', args: [] }, h: { type: 'http', url: 'https://h.example/mcp' } } }),
        '.vscode/mcp.json',
      ),
    ).toEqual([
      { name: 'v', kind: 'stdio', command: 'node', args: [], env: {} },
      { name: 'h', kind: 'http', url: 'https://h.example/mcp' },
    ]);
    expect(parseMcpConfig(JSON.stringify({ mcp: { servers: { s: { type: 'sse', url: 'https://s.example/sse' } } } }), 'settings.json')).toEqual([
      {
        name: 's',
        kind: 'unsupported',
        reason: 'the HTTP+SSE transport (2024-11-05) is not one svc speaks (Streamable HTTP and stdio only)',
        url: 'https://s.example/sse',
      },
    ]);
    const bad = (text: string) => {
      try {
        parseMcpConfig(text, 'f.json');
      } catch (err) {
        return `${(err as ProblemError).code}: ${(err as ProblemError).message}`;
      }
      return 'accepted';
    };
    expect(bad('{not json')).toMatch(/^INVALID_OPTIONS: f\.json: not JSON \(/);
    expect(bad('{"tools": {}}')).toBe(
      'INVALID_OPTIONS: f.json: not an MCP client configuration: no "mcpServers" (Claude Desktop, Cursor, Windsurf) or "servers" (VS Code) object.',
    );
    expect(bad('{"mcpServers": {"x": {"args": []}}}')).toBe('INVALID_OPTIONS: f.json: server "mcpServers.x" has neither a command nor a url.');
    expect(bad('{"mcpServers": {"x": {"command": "a", "args": [1]}}}')).toBe(
      'INVALID_OPTIONS: f.json: server "mcpServers.x": "args" must be an array of strings.',
    );
  });
});

describe('the CLI', () => {
  let ca: TestCa;
  let host: DidWebHost;
  let one: McpTestServer;
  let two: McpTestServer;
  let caFile: string;

  beforeAll(async () => {
    assertBuilt();
    ca = createTestCa();
    caFile = path.join(dir, 'ca.pem');
    writeFileSync(caFile, ca.certPem);
    host = await startDidWebHost({ ca });
    one = await startSdk1Server({ host, path: '/one', tools: PLAIN_TOOLS, stateful: true, json: true });
    two = await startSdk2Server({ host, path: '/two', tools: PLAIN_TOOLS });
  });

  afterAll(async () => {
    await Promise.all([one, two].filter(Boolean).map((s) => s.close()));
    await host?.close();
  });

  const env = () => cleanEnv({ NODE_EXTRA_CA_CERTS: caFile, COLUMNS: '200' });
  /** The servers' PIDs are not known to the CLI test: the hostile ones write pid files. */
  const cli = (args: string[]) => svc(['inspect-mcp', ...args], env());

  function config(): string {
    const file = path.join(dir, `claude_desktop_config-${++pidSeq}.json`);
    const { pidFile } = hostile('fork');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          'http-one': { url: one.url },
          memory: { command: NODE, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(dir, 'cli-memory.jsonl') } },
          'http-two': { url: two.url },
          forker: { command: NODE, args: [HOSTILE, 'fork', pidFile] },
        },
      }),
    );
    return file;
  }

  it('--stdio -- <command>: the inventory as JSON, endpoint stdio:<command line>', async () => {
    const r = await cli(['--stdio', '--no-store', '--json', '--', NODE, MEMORY]);
    expect(r.stderr).toBe('');
    const result = JSON.parse(r.stdout);
    expect(result.endpoint).toBe(`stdio:${NODE} ${MEMORY}`);
    expect(result.tools.map((t: { name: string }) => t.name)).toContain('create_entities');
    expect(r.exitCode).toBe(3); // delete_* tools carry risk signals
  });

  it('a config file with two HTTP and two stdio servers: four results, stdio ones not run without --run-stdio', async () => {
    const file = config();
    const r = await cli(['--config', file, '--egress-allow', '127.0.0.0/8', '--no-store', '--json']);
    expect(r.stderr).toBe('');
    const results = JSON.parse(r.stdout) as Array<Record<string, any>>;
    expect(results.map((e) => [e.name, e.kind, e.result ? 'result' : e.problem ? 'problem' : 'notRun'])).toEqual([
      ['http-one', 'http', 'result'],
      ['memory', 'stdio', 'notRun'],
      ['http-two', 'http', 'result'],
      ['forker', 'stdio', 'notRun'],
    ]);
    expect(results[1]).toEqual({ name: 'memory', kind: 'stdio', command: `${NODE} ${MEMORY}`, notRun: 'a stdio server runs only with --run-stdio' });
    expect(results[0]!.url).toBe(one.url);
    expect(r.exitCode).toBe(3);
  });

  it('--run-stdio: each command printed on stderr before it runs; four inventories; the text report ends with a summary', async () => {
    const file = config();
    const r = await cli(['--config', file, '--run-stdio', '--egress-allow', '127.0.0.0/8', '--no-store']);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      `svc: running memory: ${NODE} ${MEMORY}`,
      `svc: running forker: ${NODE} ${HOSTILE} fork ${pidFiles.at(-1)}`,
    ]);
    const summary = r.stdout.slice(r.stdout.lastIndexOf('Summary (4 servers)'));
    expect(
      summary
        .split('\n')
        .slice(1, 5)
        .map((l) => l.replace(/:.*/, '')),
    ).toEqual(['  3  http-one (http)', '  3  memory (stdio)', '  0  http-two (http)', '  0  forker (stdio)']);
    expect(r.exitCode).toBe(3);
  });

  it('Ctrl-C while a server runs: svc exits 130 and the server group is gone', async () => {
    // A server that never answers and has forked a child: both are in the pid file once it started.
    const { pidFile, command, args } = hostile('fork-silent');
    const run = execa(NODE, [svcBin, 'inspect-mcp', '--stdio', '--no-store', '--', command, ...args], { reject: false, env: env(), extendEnv: true });
    const started = () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).length === 2;
    for (let i = 0; i < 200 && !started(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(started()).toBe(true);
    run.kill('SIGINT');
    const done = await run;
    expect(done.exitCode).toBe(130);
  });

  it('bad input: a malformed file exits 2 naming it; a command that cannot start exits 4 naming it', async () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { x: { args: ['a'] } } }));
    const bad = await cli(['--config', file]);
    expect(bad.exitCode).toBe(2);
    expect(parseCliError(bad.stderr).detail).toBe(`${file}: server "mcpServers.x" has neither a command nor a url.`);
    const missing = await cli(['--stdio', '--no-store', '--', 'svc-no-such-mcp-server', '--flag']);
    expect(missing.exitCode).toBe(4);
    expect(parseCliError(missing.stderr).detail).toBe('The MCP server command "svc-no-such-mcp-server" could not be started: not found (ENOENT).');
  });
});
