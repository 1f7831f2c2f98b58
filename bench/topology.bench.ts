/**
 * The deployment topology (deploy/README.md) under load: autocannon against HAProxy running
 * deploy/haproxy.cfg before three `svc serve` processes on one PostgreSQL database, next to one of
 * those daemons addressed directly, in the same run, for a cached did:key resolution (served from
 * each daemon's in-memory cache). Each process's CPU over the HAProxy rounds (from /proc: HAProxy,
 * each daemon, PostgreSQL's processes, and this process, which runs autocannon) says what
 * saturates. No goal: on a 2-core machine three daemons, HAProxy and the load generator share the
 * same cores, so the figure says what the proxy costs here, not how the topology scales.
 *
 * Needs the built CLI (dist/cli.js), Debian's haproxy and PostgreSQL (SVC_BENCH_DATABASE_URL,
 * default the machine's); about 35 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort, haproxyProblem, startHaproxy, type Haproxy } from '../test/support/haproxy.js';
import { createDatabase } from '../test/support/pg-admin.js';
import { median, plainEnv, serverStarted, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const SECONDS = 4;
const ROUNDS = 3;
const CONNECTIONS = 16;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const serverUrl = process.env['SVC_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const OPERATION = 'Topology: cached did:key resolution, HAProxy + 3 daemons vs 1 daemon direct (autocannon)';

/** Requests per second against `url` for SECONDS; fails on any non-2xx. */
async function load(url: string): Promise<number> {
  const result = await autocannon({ url: `${url}/v1/resolve/${DID}`, connections: CONNECTIONS, duration: SECONDS });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${failures} requests failed or were not 2xx under load (${url})`);
  return result.requests.total / SECONDS;
}

/** CPU ticks (user + system) a process has used so far, or 0 once it is gone. */
function ticks(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Busy and total jiffies of all cores so far (/proc/stat): what else ran on the machine shows in the difference. */
function machineTicks(): { busy: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** The pids of PostgreSQL's processes (the server and its backends) on this machine. */
function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^[0-9]+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });
}

export async function run(): Promise<BenchRow[]> {
  const unmeasured = (note: string, status: BenchRow['status']): BenchRow[] => [
    { operation: OPERATION, unit: 'ops/s', svc: null, peer: '1 daemon direct', peerValue: null, goal: null, status, note },
  ];
  if (!existsSync(cli)) return unmeasured('run `npm run build` first', 'not built');
  if (haproxyProblem !== null) return unmeasured(haproxyProblem, 'error');
  let database: Awaited<ReturnType<typeof createDatabase>>;
  try {
    database = await createDatabase(serverUrl, 'svc_bench');
  } catch (err) {
    return unmeasured(`PostgreSQL not reachable at ${serverUrl.replace(/:[^:@/]*@/, ':***@')}: ${err instanceof Error ? err.message : String(err)}`, 'error');
  }
  const children: ChildProcess[] = [];
  let haproxy: Haproxy | undefined;
  try {
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    const env = { ...plainEnv(), SVC_RATE_LIMIT_PER_MIN: '1000000', SVC_ACCESS_LOG: 'off', SVC_TRUST_PROXY: '127.0.0.1', SVC_DRAIN_NOTICE: '0' };
    const start = async (port: number) => {
      const child = spawn(process.execPath, [bin, 'serve', '--port', String(port), '--db', database.url], {
        cwd: root,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      children.push(child);
      return serverStarted(child);
    };
    // The first start migrates the database; the others find it current.
    const direct = await start(ports[0]!);
    await Promise.all([start(ports[1]!), start(ports[2]!)]);
    const servers = ports.slice(0, 3).map((port) => `127.0.0.1:${port}`) as [string, string, string];
    haproxy = await startHaproxy({ port: ports[3]!, servers, checkInter: '2s' });
    for (const deadline = Date.now() + 15_000; Object.values(await haproxy.states()).join() !== 'UP,UP,UP'; ) {
      if (Date.now() > deadline) throw new Error('HAProxy did not see the three daemons UP within 15 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await load(direct); // warm-up: JIT, each daemon's cache
    await load(haproxy.url);

    const samples = { direct: [] as number[], proxied: [] as number[] };
    const processes = [
      { name: 'HAProxy', pids: () => [haproxy!.child.pid!] },
      ...children.map((child, i) => ({ name: `daemon ${i + 1}`, pids: () => [child.pid!] })),
      { name: 'PostgreSQL', pids: postgresPids },
      { name: 'autocannon (this process)', pids: () => [process.pid] },
    ];
    const cpu = (pids: number[]) => pids.reduce((sum, pid) => sum + ticks(pid), 0);
    const used = { direct: processes.map(() => 0), proxied: processes.map(() => 0) };
    const machine = { direct: 0, proxied: 0 };
    const measure = async (side: 'direct' | 'proxied', url: string) => {
      const before = processes.map((p) => cpu(p.pids()));
      const all = machineTicks();
      const t0 = performance.now();
      samples[side].push(await load(url));
      const seconds = (performance.now() - t0) / 1000;
      // Ticks are 1/100 s on Linux: ticks / seconds is the percentage of one core.
      processes.forEach((p, i) => (used[side][i]! += (cpu(p.pids()) - before[i]!) / seconds / ROUNDS));
      const after = machineTicks();
      if (after.total > all.total) machine[side] += ((after.busy - all.busy) / (after.total - all.total) / ROUNDS) * 100;
    };
    for (let round = 0; round < ROUNDS; round++) {
      await measure('direct', direct);
      await measure('proxied', haproxy.url);
    }
    const shares = (side: 'direct' | 'proxied') =>
      processes
        .map((p, i) => ({ name: p.name, percent: Math.round(used[side][i]!) }))
        .filter((p) => p.percent > 0)
        .map((p) => `${p.name} ${p.percent}%`)
        .join(', ');
    return [
      {
        operation: OPERATION,
        unit: 'ops/s',
        svc: median(samples.proxied),
        peer: '1 daemon direct',
        peerValue: median(samples.direct),
        goal: null,
        status: 'ok',
        note:
          `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, ${availableParallelism()} cores for everything; ` +
          `CPU (% of one core) through HAProxy: ${shares('proxied')}; direct: ${shares('direct')}; ` +
          `the machine's cores busy ${Math.round(machine.proxied)}% and ${Math.round(machine.direct)}% (other work on it included)`,
        samples: { svc: samples.proxied, peer: samples.direct },
      },
    ];
  } finally {
    await haproxy?.stop();
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
    await database.drop().catch(() => undefined);
  }
}
