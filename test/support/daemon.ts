/**
 * Starts `svc serve` as a real process on a free loopback port (the built binary, as operators
 * run it) and always stops it. The address comes from the daemon's own "listening on" line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertBuilt, repoRoot, svcBin } from './cli.js';

export interface Daemon {
  url: string;
  child: ChildProcess;
  /** A directory of the test's own, removed on stop (holds the database unless --db says otherwise). */
  dir: string;
  dbPath: string;
  /** Everything the daemon wrote to stderr so far. */
  stderr(): string;
  /** Sends `signal` and waits for the exit; returns the exit code (or the signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | string>;
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

export async function startDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  assertBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-daemon-'));
  const dbPath = typeof options.dbPath === 'function' ? options.dbPath(dir) : (options.dbPath ?? path.join(dir, 'svc.db'));
  const args = ['serve', '--host', '127.0.0.1', '--port', '0', ...(options.noDb ? [] : ['--db', dbPath]), ...(options.args ?? [])];
  const env = { ...process.env, NO_COLOR: '1', XDG_STATE_HOME: path.join(dir, 'state'), SVC_LOG_LEVEL: undefined, SVC_DATABASE_URL: undefined, ...options.env };
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
