/**
 * Local MCP servers as child processes (`svc inspect-mcp --stdio`, `--config … --run-stdio`): the
 * StdioLauncher of core/mcp/stdio.ts.
 *
 * Each server is spawned without a shell, detached into a process group of its own (so the
 * terminal's Ctrl-C never reaches it, and everything it forks can be ended with it), with the
 * environment the core composed (childEnvironment: PATH, HOME and the variables named) and stdin,
 * stdout and stderr all pipes: stdin comes from svc only, never the terminal; stderr is kept as a
 * bounded tail, never written through.
 *
 * Ending (end()): stdin closed; after MCP_LIMITS.stdioGraceMs SIGTERM to the group; after as long
 * again SIGKILL to the group — and SIGKILL to the group in any case once the server exited, so a
 * child it forked and left behind is ended too. Groups still alive when svc exits (an error, Ctrl-C)
 * are killed from a process 'exit' handler. A process that leaves the group itself (setsid) is
 * out of reach, as for any supervisor without cgroups.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { ProblemError } from '../core/problems.js';
import type { StdioCommand, StdioLauncher, StdioProcess, StdioRead } from '../core/mcp/stdio.js';
import { MCP_LIMITS } from '../core/mcp/types.js';

/** Process groups started and not yet ended, killed if svc exits first. */
const LIVE = new Set<number>();
let exitHook = false;

function killGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any process of group `pgid` is still running (a zombie is not): /proc where there is
 * one, else kill(-pgid, 0).
 */
function groupRunning(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return killGroup(pgid, 0);
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

function watchExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const pid of LIVE) killGroup(pid, 'SIGKILL');
  });
}

/** Queued stdout bytes past which the pipe is paused until the core reads. */
const HIGH_WATER = 4 * 1024 * 1024;

class ChildServer implements StdioProcess {
  readonly pid: number;
  #chunks: Uint8Array[] = [];
  #queued = 0;
  #stdoutEnded = false;
  #waiter: (() => void) | null = null;
  #stderr = '';
  #stderrBytes = 0;
  #exited: Promise<string>;
  #exit: string | null = null;
  #ending: Promise<string> | null = null;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly graceMs: number,
  ) {
    this.pid = child.pid!;
    child.stdout.on('data', (chunk: Buffer) => {
      this.#chunks.push(chunk);
      this.#queued += chunk.length;
      if (this.#queued > HIGH_WATER) child.stdout.pause();
      this.#wake();
    });
    child.stdout.on('end', () => {
      this.#stdoutEnded = true;
      this.#wake();
    });
    child.stdout.on('error', () => {
      this.#stdoutEnded = true;
      this.#wake();
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.#stderrBytes += Buffer.byteLength(text);
      this.#stderr = (this.#stderr + text).slice(-MCP_LIMITS.stdioStderrTail);
    });
    child.stderr.on('error', () => {});
    // A server that exits at once closes stdin under our writes: EPIPE is not svc's error.
    child.stdin.on('error', () => {});
    this.#exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.#exit = signal ? `ended by ${signal}` : `exited with status ${code}`;
        // stdout may close after the exit event; it is read to its end either way.
        resolve(this.#exit);
      });
    });
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.();
  }

  send(text: string): void {
    if (!this.child.stdin.destroyed && this.child.stdin.writable) this.child.stdin.write(text);
  }

  async read(ms: number): Promise<StdioRead> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk) {
        this.#queued -= chunk.length;
        if (this.#queued <= HIGH_WATER && this.child.stdout.isPaused()) this.child.stdout.resume();
        return { kind: 'data', chunk };
      }
      if (this.#stdoutEnded) return { kind: 'end' };
      const woke = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          this.#waiter = null;
          resolve(false);
        }, ms);
        this.#waiter = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (!woke) return { kind: 'timeout' };
    }
  }

  stderr(): { tail: string; bytes: number } {
    return { tail: this.#stderr, bytes: this.#stderrBytes };
  }

  end(): Promise<string> {
    this.#ending ??= this.#end();
    return this.#ending;
  }

  async #end(): Promise<string> {
    const within = (ms: number) =>
      Promise.race([this.#exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
    const steps: string[] = [];
    this.child.stdin.end();
    if (this.#exit === null && !(await within(this.graceMs))) {
      steps.push(`it kept running ${this.graceMs / 1000} s after stdin closed: SIGTERM`);
      killGroup(this.pid, 'SIGTERM');
      if (!(await within(this.graceMs))) {
        steps.push(`it ignored SIGTERM for ${this.graceMs / 1000} s: SIGKILL`);
        killGroup(this.pid, 'SIGKILL');
        await within(this.graceMs);
      }
    }
    // Whatever it forked and left in its group ends with it; its end is waited for (bounded).
    if (groupRunning(this.pid)) {
      killGroup(this.pid, 'SIGKILL');
      steps.push('processes it left in its group: SIGKILL');
      for (let waited = 0; groupRunning(this.pid) && waited < this.graceMs; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    LIVE.delete(this.pid);
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    const how = this.#exit ?? 'still running after SIGKILL';
    return steps.length ? `stdin closed; ${steps.join('; ')}; ${how}` : `stdin closed; ${how}`;
  }
}

/** Starts a server (see the module comment); a program that cannot start is a problem naming it. */
export function stdioLauncher(options: { graceMs?: number } = {}): StdioLauncher {
  const graceMs = options.graceMs ?? MCP_LIMITS.stdioGraceMs;
  return (command: StdioCommand) =>
    new Promise<StdioProcess>((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(command.command, command.args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: command.env, windowsHide: true });
      } catch (err) {
        reject(
          new ProblemError(
            'UPSTREAM_UNAVAILABLE',
            `The MCP server command ${JSON.stringify(command.command)} could not be started: ${(err as Error).message}.`,
          ),
        );
        return;
      }
      child.once('error', (err: NodeJS.ErrnoException) => {
        const why = err.code === 'ENOENT' ? 'not found (ENOENT)' : err.code === 'EACCES' ? 'permission denied (EACCES)' : (err.code ?? err.message);
        reject(new ProblemError('UPSTREAM_UNAVAILABLE', `The MCP server command ${JSON.stringify(command.command)} could not be started: ${why}.`));
      });
      child.once('spawn', () => {
        watchExit();
        LIVE.add(child.pid!);
        resolve(new ChildServer(child, graceMs));
      });
    });
}
