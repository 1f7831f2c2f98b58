/**
 * Starts `svc serve` on a free loopback port and always stops it, two ways:
 * - startDaemon: a real process (the built binary, as operators run it), for what only a process
 *   shows: signals, kill -9, exit codes, start-up refusals, the listening line of a real start.
 *   The address comes from the daemon's own "listening on" line.
 * - startInProcessDaemon: the same command line and environment through the same code
 *   (commander's `serve` options → startServer → serve()), listening in this test process: the
 *   real app, store and runtime over real HTTP, without a process start (about a second each on
 *   a loaded machine). Its stderr is what the daemon would have written there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServeCommandOptions } from '../../src/cli/cmd/serve/options.js';
import type { CliIo } from '../../src/cli/cmdutil/io.js';
import type { RunningServer } from '../../src/server/serve.js';
import { assertBuilt, repoRoot, svcBin } from './cli.js';

/** What every started daemon offers, in a process or in this one. */
export interface DaemonHandle {
  url: string;
  /** A directory of the test's own, removed on stop (holds the database unless --db says otherwise). */
  dir: string;
  dbPath: string;
  /** Everything the daemon wrote to stderr so far. */
  stderr(): string;
  /**
   * Stops it and returns the exit code (or the signal name). A process is sent `signal`; a daemon
   * in this process drains as that signal would make it (SIGKILL included: nothing kills it).
   */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export interface Daemon extends DaemonHandle {
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | string>;
}

export interface InProcessDaemon extends DaemonHandle {
  /** serve()'s handle: the cookie gateway's URL, this start's commercial mode (its bridge secret). */
  server: RunningServer;
}

export interface DaemonOptions {
  args?: string[];
  env?: Record<string, string | undefined>;
  /** Database path; default `<dir>/svc.db`. */
  dbPath?: string | ((dir: string) => string);
  /** Skip `--db` entirely (e.g. to test --memory). */
  noDb?: boolean;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The directory, database, command line and environment of one start, the same for both ways. */
function startOf(options: DaemonOptions): { dir: string; dbPath: string; args: string[]; env: Record<string, string | undefined> } {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-daemon-'));
  const dbPath = typeof options.dbPath === 'function' ? options.dbPath(dir) : (options.dbPath ?? path.join(dir, 'svc.db'));
  const args = ['serve', '--host', '127.0.0.1', '--port', '0', ...(options.noDb ? [] : ['--db', dbPath]), ...(options.args ?? [])];
  const env = {
    ...process.env,
    NO_COLOR: '1',
    XDG_STATE_HOME: path.join(dir, 'state'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    SVC_CONFIG: undefined,
    SVC_LOG_LEVEL: undefined,
    SVC_DATABASE_URL: undefined,
    ...options.env,
  };
  return { dir, dbPath, args, env };
}

export async function startDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  assertBuilt();
  const { dir, dbPath, args, env } = startOf(options);
  const child = spawn(process.execPath, [svcBin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let err = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    err += chunk;
  });
  child.stdout!.resume();
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? -1);
    });
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc serve did not start within 15 s:\n${err}`)), 15_000);
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        child.stderr!.off('data', check);
        resolve(m[1]!);
      }
    };
    child.stderr!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`svc serve exited (${code}) before listening:\n${err}`));
    });
  });
  return {
    url,
    child,
    dir,
    dbPath,
    stderr: () => err,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/**
 * Loads what an in-process daemon runs before the first one starts: the command line, the server
 * and the store, and what svc loads on first use (the fetcher and undici on the first outbound
 * request, the did:web and did:webvh drivers on the first such DID). The bundled binary loads
 * them in a moment; this process transforms svc's sources on first import, which on a loaded
 * machine can take longer than a test's time, or its request time limit. A file that starts its
 * daemons inside tests calls it in beforeAll (a hook has the longer time); otherwise the first
 * start does.
 */
let warming: Promise<unknown> | undefined;
export function warmInProcessDaemon(): Promise<unknown> {
  warming ??= Promise.all([
    import('../../src/cli/program.js'),
    import('../../src/cli/cmd/serve/action.js'),
    import('../../src/server/serve.js'),
    import('../../src/net/fetch.js'),
    import('../../src/core/methods/web.js'),
    import('../../src/core/methods/webvh.js'),
    import('undici'),
    import('node:dns/promises'),
    import('node:net'),
    import('node:tls'),
  ]);
  return warming;
}

/** The in-process starts so far, run one at a time (see the exit handlers below). */
let starts: Promise<unknown> = Promise.resolve();

/**
 * `svc serve` in this process: the command line parsed by the CLI's own `serve` command (its
 * defaults and option parsing), then startServer (src/cli/cmd/serve/action.ts) — every setting read
 * and refused as the process would — and serve(), listening on 127.0.0.1:0. What the process
 * would write on stderr (announcements, the access log, SVC_LOG_LEVEL diagnostics) is kept for
 * stderr(). NODE_EXTRA_CA_CERTS, which Node reads only when a process starts, is handed to the
 * fetcher as its extra trust anchors (Node's store plus that file, as the process has them).
 * A start-up refusal rejects with its reason (exit codes are the process's: use startDaemon).
 */
export async function startInProcessDaemon(options: DaemonOptions = {}): Promise<InProcessDaemon> {
  const { dir, dbPath, args, env: given } = startOf(options);
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(given).filter((e): e is [string, string] => e[1] !== undefined));
  let err = '';
  const io: CliIo = {
    stdout: { write: () => true },
    stderr: {
      isTTY: false,
      write: (chunk: string) => {
        err += chunk;
        return true;
      },
    },
    env,
  };
  await warmInProcessDaemon();
  const extraCa = env['NODE_EXTRA_CA_CERTS'];
  const seams = extraCa ? { net: { trustAnchors: [readFileSync(extraCa, 'utf8')] } } : {};
  const [{ buildProgram }, { startServer }] = await Promise.all([import('../../src/cli/program.js'), import('../../src/cli/cmd/serve/action.js')]);
  let server: RunningServer | undefined;
  const program = buildProgram(io, () => undefined, args);
  const serveCommand = program.commands.find((c) => c.name() === 'serve')!;
  serveCommand.action(async (parsed: ServeCommandOptions) => {
    server = await startServer(io, parsed, seams);
  });
  // One start at a time, so that the exit handlers this start registers are known as its own.
  let exitHandlers: NodeJS.ExitListener[] = [];
  const turn = starts.then(async () => {
    const before = new Set(process.listeners('exit'));
    try {
      await program.parseAsync(args, { from: 'user' });
    } finally {
      exitHandlers = process.listeners('exit').filter((listener) => !before.has(listener));
    }
  });
  starts = turn.catch(() => undefined);
  try {
    await turn;
    if (server === undefined) throw new Error('the serve command did not run');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`svc serve (in process) refused to start: ${error instanceof Error ? error.message : String(error)}\n${err}`, { cause: error });
  }
  const running = server;
  let stopped: Promise<number | string> | undefined;
  return {
    url: running.url,
    dir,
    dbPath,
    server: running,
    stderr: () => err,
    stop(signal: NodeJS.Signals = 'SIGTERM') {
      stopped ??= (async () => {
        await running.shutdown(signal);
        await running.closed;
        // What the process would do as it exits (the access log's last lines), then no more.
        for (const handler of exitHandlers) {
          process.removeListener('exit', handler);
          handler(0);
        }
        rmSync(dir, { recursive: true, force: true });
        // serveAction's exit codes: SIGINT 130, SIGTERM 0.
        return signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 0 : signal;
      })();
      return stopped;
    },
  };
}

/** Reads a whole SSE response into frames `{event, data}` (data parsed as JSON). */
export function parseSse(text: string): Array<{ event: string; data: unknown }> {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) as unknown };
    });
}
