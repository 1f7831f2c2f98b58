/**
 * Debian's HAProxy running deploy/haproxy.cfg itself — the file operators use, its per-host
 * settings given as the environment variables it reads — in front of daemons on loopback ports,
 * for the rolling-restart test and the topology benchmark. The runtime API (a Unix socket in a
 * directory of its own) says which daemons HAProxy sees UP.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './cli.js';

export const haproxyConfig = path.join(repoRoot, 'deploy', 'haproxy.cfg');

/** Why HAProxy cannot run here (not installed), or null. */
export const haproxyProblem: string | null =
  spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0 ? null : 'haproxy is not installed (Debian: apt-get install haproxy; .ci/run installs it)';

export interface Haproxy {
  /** The frontend, http://127.0.0.1:<port>. */
  url: string;
  child: ChildProcess;
  /** Each server's state as HAProxy's health checks see it: svc1 → UP, DOWN, … */
  states(): Promise<Record<string, string>>;
  /** Everything HAProxy wrote to stderr. */
  stderr(): string;
  stop(): Promise<void>;
}

/** A free loopback port (listened on, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts HAProxy on `port` before the three daemons at `servers` (host:port), checking /ready
 * every `checkInter`; `retries`: of a refused connection (the file's default otherwise).
 */
export async function startHaproxy(options: {
  port: number;
  servers: readonly [string, string, string];
  checkInter: string;
  retries?: number;
}): Promise<Haproxy> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-haproxy-'));
  const socket = path.join(dir, 'admin.sock');
  const env = {
    PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
    SVC_LB_SOCKET: socket,
    SVC_LB_BIND: `127.0.0.1:${options.port}`,
    SVC_LB_CHECK_INTER: options.checkInter,
    SVC_LB_SERVER1: options.servers[0],
    SVC_LB_SERVER2: options.servers[1],
    SVC_LB_SERVER3: options.servers[2],
    ...(options.retries !== undefined ? { SVC_LB_RETRIES: String(options.retries) } : {}),
  };
  // -db: in the foreground, no daemon mode; its alerts (a server going DOWN …) go to stderr.
  const child = spawn('haproxy', ['-db', '-f', haproxyConfig], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.once('exit', () => child.kill('SIGKILL'));
  const command = (line: string) =>
    new Promise<string>((resolve, reject) => {
      let out = '';
      const conn = net.connect(socket, () => conn.end(`${line}\n`));
      conn.setEncoding('utf8');
      conn.on('data', (chunk: string) => (out += chunk));
      conn.on('end', () => resolve(out));
      conn.on('error', reject);
    });
  const states = async () => {
    // CSV: "# pxname,svname,…,status,…", one line per proxy and server.
    const [head, ...lines] = (await command('show stat')).trim().split('\n');
    const columns = head!.replace(/^# /, '').split(',');
    const [proxy, name, status] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c));
    const result: Record<string, string> = {};
    for (const line of lines) {
      const cells = line.split(',');
      if (cells[proxy!] === 'svc_daemons' && !['BACKEND', 'FRONTEND'].includes(cells[name!]!)) result[cells[name!]!] = cells[status!]!;
    }
    return result;
  };
  // Listening once the runtime API answers.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}) before it listened:\n${err}`);
    try {
      await states();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`haproxy did not start within 10 s:\n${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    child,
    states,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
