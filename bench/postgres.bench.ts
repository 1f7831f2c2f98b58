/**
 * Several daemons on one PostgreSQL database, next to one daemon on its SQLite file, in one run:
 * autocannon against `svc serve` processes on loopback for cached and uncached did:key
 * resolution (uncached: every request a DID no cache holds, so each is resolved, shared through
 * the PostgreSQL cache tier and recorded), the latency of appending to the history (one
 * observation recorded through the store, in this process; and CONCURRENT_WRITERS appending at
 * once, as a daemon's resolutions under load do, with the round trips and connection checkouts
 * per append counted on the store's pool), and verify-tool's latency against a registered chain.
 * The one-daemon rows give each daemon's CPU per request (its process's user + system time over
 * the round, divided by the requests it answered); in the uncached rounds, also the CPU of the
 * PostgreSQL backends serving the measured daemon (their processes' time in /proc, when the
 * server runs on this machine; its connections are found by their application_name); and the
 * PostgreSQL daemon's round trips per request: counted on one more daemon of the same database,
 * connected through a relay that counts its Query and Sync messages (pg-wire.ts), in rounds of
 * its own after the measured ones (the relay's hop would slow the measured daemons).
 *
 * The database is one of the benchmark's own on the server of SVC_BENCH_DATABASE_URL (default
 * the machine's, postgres://postgres@127.0.0.1:5432/test), dropped afterwards. Every process —
 * the daemons, PostgreSQL and autocannon — shares this machine's cores, so "two daemons" can
 * only scale as far as idle cores allow; the note says how many there are.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import type { NewObservation } from '../src/core/store.js';
import { openDatabase, type Database } from '../src/store/database.js';
import { createDatabase } from '../test/support/pg-admin.js';
import { didKeyPrincipal, mintReceipt } from '../test/support/receipts.js';
import { backendsCpuMs, countRoundTrips, ed25519DidKeys, median, percentile, plainEnv, processCpuMs, serverStarted, type BenchRow } from './lib.js';
import { countingRelay } from './pg-wire.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const SECONDS = 4;
const ROUNDS = 3;
const CONNECTIONS = 16;
const APPENDS = 400;
const VERIFY_TOOL_CALLS = 300;
/** Appenders at once in the concurrent append row (the daemon's connections in the load rows). */
const CONCURRENT_WRITERS = 16;
const CONCURRENT_APPENDS = 2_000;
/** Seconds of each round of the daemon whose round trips are counted. */
const COUNTED_SECONDS = 3;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const serverUrl = process.env['SVC_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Daemon {
  url: string;
  child: ChildProcess;
}

async function startDaemon(db: string): Promise<Daemon> {
  const env = { ...plainEnv(), SVC_RATE_LIMIT_PER_MIN: '1000000', SVC_ACCESS_LOG: 'off', SVC_MAX_CONCURRENCY: '256' };
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  return { url: await serverStarted(child), child };
}

/**
 * Requests per second against all `daemons` at once (connections split evenly), the paths
 * given by `pathFor` (each request its own when it varies). Fails on any non-2xx.
 */
async function load(daemons: readonly Daemon[], pathFor: () => string): Promise<number> {
  const per = Math.max(1, Math.floor(CONNECTIONS / daemons.length));
  const results = await Promise.all(
    daemons.map((d) =>
      autocannon({
        url: d.url,
        connections: per,
        duration: SECONDS,
        requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: pathFor() }) }],
      }),
    ),
  );
  const failures = results.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
  if (failures > 0) throw new Error(`${failures} requests failed or were not 2xx under load`);
  return results.reduce((sum, r) => sum + r.requests.total, 0) / SECONDS;
}

/** Busy and total jiffies of all cores so far (Linux /proc/stat), or null elsewhere. */
function cpuTimes(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** `load`, and how busy the whole machine was meanwhile (0..1; null where unknown). */
async function loadWithCpu(daemons: readonly Daemon[], pathFor: () => string): Promise<{ rps: number; busy: number | null }> {
  const before = cpuTimes();
  const rps = await load(daemons, pathFor);
  const after = cpuTimes();
  return { rps, busy: before && after && after.total > before.total ? (after.busy - before.busy) / (after.total - before.total) : null };
}

/** `load` against one daemon, and the daemon's CPU milliseconds per request meanwhile (null where unknown). */
async function loadWithDaemonCpu(daemon: Daemon, pathFor: () => string): Promise<{ rps: number; cpuMsPerRequest: number | null }> {
  const pid = daemon.child.pid ?? 0;
  const before = processCpuMs(pid);
  const rps = await load([daemon], pathFor);
  const after = processCpuMs(pid);
  return { rps, cpuMsPerRequest: before !== null && after !== null && rps > 0 ? (after - before) / (rps * SECONDS) : null };
}

/** The application_name of the measured PostgreSQL daemon's connections, which finds its backends. */
const MEASURED_APPLICATION = 'svc_bench_measured';

/**
 * CPU milliseconds of the PostgreSQL backends serving the daemon of MEASURED_APPLICATION (their
 * processes' user + system time, /proc/<pid>/stat, on this machine's server), by backend; null
 * where unknown (another machine's server, no /proc).
 */
async function backendCpuMs(admin: pg.Client): Promise<Map<number, number> | null> {
  return backendsCpuMs(() => admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [MEASURED_APPLICATION]));
}

/** The backends' CPU between two readings: a backend started between them counts from zero. */
function backendCpuSpent(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (before === null || after === null) return null;
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/** Round trips to PostgreSQL per request answered by `daemon` (behind `relay`) over a round of COUNTED_SECONDS. */
async function countedLoad(daemon: Daemon, pathFor: () => string, relay: Awaited<ReturnType<typeof countingRelay>>): Promise<number> {
  const before = relay.roundTrips();
  const result = await autocannon({
    url: daemon.url,
    connections: CONNECTIONS,
    duration: COUNTED_SECONDS,
    requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: pathFor() }) }],
  });
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error('requests failed or were not 2xx on the counted daemon');
  return result.requests.total > 0 ? (relay.roundTrips() - before) / result.requests.total : 0;
}

/** Appends per second of CONCURRENT_APPENDS new observations, CONCURRENT_WRITERS at a time. */
async function concurrentAppends(db: Database): Promise<number> {
  let left = CONCURRENT_APPENDS;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENT_WRITERS }, async () => {
      while (left-- > 0) await db.observations.record(observation());
    }),
  );
  return CONCURRENT_APPENDS / ((performance.now() - t0) / 1000);
}

function observation(): NewObservation {
  const did = `did:example:${randomBytes(8).toString('hex')}`;
  return {
    did,
    documentHash: randomBytes(32).toString('hex'),
    document: { id: did } as NewObservation['document'],
    observedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    latencyMs: 1,
    resolverVersion: 'bench',
    domainBindingStatus: null,
    summary: 'bench',
  };
}

/** Milliseconds of each of APPENDS sequential appends of a new observation (a new row each). */
async function appends(db: Database): Promise<number[]> {
  for (let i = 0; i < 50; i++) await db.observations.record(observation());
  const ms: number[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const o = observation();
    const t0 = performance.now();
    await db.observations.record(o);
    ms.push(performance.now() - t0);
  }
  return ms;
}

/** Milliseconds of each sequential GET verify-tool (an ALLOW from a registered chain). */
async function verifyToolLatency(daemon: Daemon, agent: string): Promise<number[]> {
  const url = `${daemon.url}/v1/agents/verify-tool?agent=${encodeURIComponent(agent)}&tool=search`;
  const ms: number[] = [];
  for (let i = 0; i < VERIFY_TOOL_CALLS + 30; i++) {
    const t0 = performance.now();
    const answer = await fetch(url);
    const body = (await answer.json()) as { decision?: string };
    if (body.decision !== 'ALLOW') throw new Error(`verify-tool answered ${answer.status} ${JSON.stringify(body)}`);
    if (i >= 30) ms.push(performance.now() - t0);
  }
  return ms;
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const unmeasured = (note: string, status: BenchRow['status']): BenchRow[] => [
    {
      operation: 'PostgreSQL: uncached did:key resolution, 2 daemons vs 1 (autocannon)',
      unit: 'ops/s',
      svc: null,
      peer: '1 daemon on PostgreSQL',
      peerValue: null,
      goal: { op: '>=', ratio: 1.6 },
      status,
      note,
    },
  ];
  if (!existsSync(cli)) return unmeasured('run `npm run build` first', 'not built');
  let database: Awaited<ReturnType<typeof createDatabase>>;
  try {
    database = await createDatabase(serverUrl, 'svc_bench');
  } catch (err) {
    return unmeasured(`PostgreSQL not reachable at ${serverUrl.replace(/:[^:@/]*@/, ':***@')}: ${err instanceof Error ? err.message : String(err)}`, 'error');
  }
  const pgUrl = database.url;
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-pg-'));
  const daemons: Daemon[] = [];
  const closers: Array<() => Promise<void>> = [];
  try {
    // The measured daemon's connections are named, so that its backends' CPU can be read.
    const measuredUrl = new URL(pgUrl);
    measuredUrl.searchParams.set('application_name', MEASURED_APPLICATION);
    const [sqlite, pgA, pgB] = [await startDaemon(path.join(dir, 'svc.db')), await startDaemon(measuredUrl.toString()), await startDaemon(pgUrl)];
    const admin = new pg.Client({ connectionString: pgUrl });
    admin.on('error', () => undefined);
    await admin.connect();
    closers.push(() => admin.end());
    daemons.push(sqlite, pgA, pgB);

    // Cached: one DID every request, served from each daemon's LRU.
    const cached = () => `/v1/resolve/${DID}`;
    // Uncached: a fresh DID each request, from a pool large enough for every round.
    const pool = await ed25519DidKeys(150_000);
    let next = 0;
    const fresh = () => `/v1/resolve/${pool[next++ % pool.length]}`;
    await load([sqlite], cached);
    await load([pgA, pgB], cached);
    await load([pgA], fresh); // warm-up (JIT, connection pools)
    const samples = {
      sqliteCached: [] as number[],
      oneCached: [] as number[],
      twoCached: [] as number[],
      sqliteFresh: [] as number[],
      oneFresh: [] as number[],
      twoFresh: [] as number[],
    };
    const busy = { one: [] as number[], two: [] as number[] };
    const cpu = { sqlite: [] as number[], postgres: [] as number[], backends: [] as number[], sqliteCached: [] as number[], postgresCached: [] as number[] };
    const cpuOf = (into: number[], measured: { rps: number; cpuMsPerRequest: number | null }): number => {
      if (measured.cpuMsPerRequest !== null) into.push(measured.cpuMsPerRequest);
      return measured.rps;
    };
    for (let round = 0; round < ROUNDS; round++) {
      samples.sqliteCached.push(cpuOf(cpu.sqliteCached, await loadWithDaemonCpu(sqlite, cached)));
      samples.oneCached.push(cpuOf(cpu.postgresCached, await loadWithDaemonCpu(pgA, cached)));
      samples.twoCached.push(await load([pgA, pgB], cached));
      samples.sqliteFresh.push(cpuOf(cpu.sqlite, await loadWithDaemonCpu(sqlite, fresh)));
      const before = processCpuMs(pgA.child.pid ?? 0);
      const backendsBefore = await backendCpuMs(admin);
      const one = await loadWithCpu([pgA], fresh);
      const after = processCpuMs(pgA.child.pid ?? 0);
      const backends = backendCpuSpent(backendsBefore, await backendCpuMs(admin));
      samples.oneFresh.push(one.rps);
      if (one.busy !== null) busy.one.push(one.busy);
      if (before !== null && after !== null && one.rps > 0) cpu.postgres.push((after - before) / (one.rps * SECONDS));
      if (backends !== null && one.rps > 0) cpu.backends.push(backends / (one.rps * SECONDS));
      const two = await loadWithCpu([pgA, pgB], fresh);
      samples.twoFresh.push(two.rps);
      if (two.busy !== null) busy.two.push(two.busy);
    }
    // Round trips per request, on a daemon of its own behind the counting relay.
    const relay = await countingRelay(pgUrl);
    const roundTrips = { cached: 0, fresh: 0 };
    try {
      const counted = await startDaemon(relay.url);
      daemons.push(counted);
      await countedLoad(counted, fresh, relay); // warm-up
      roundTrips.cached = await countedLoad(counted, cached, relay);
      roundTrips.fresh = await countedLoad(counted, fresh, relay);
      counted.child.kill('SIGTERM');
      await new Promise((r) => (counted.child.exitCode !== null ? r(null) : counted.child.once('exit', r)));
    } finally {
      await relay.close();
    }
    if (next > pool.length) throw new Error('the DID pool was reused: enlarge it so that uncached stays uncached');
    const cpuNote = (values: number[]) => (values.length ? `${median(values).toFixed(3)} ms` : 'unknown');
    const perRequest = (engine: 'fresh' | 'cached') =>
      `daemon CPU per request: PostgreSQL ${cpuNote(engine === 'fresh' ? cpu.postgres : cpu.postgresCached)}, SQLite ${cpuNote(engine === 'fresh' ? cpu.sqlite : cpu.sqliteCached)} (the daemon process only${engine === 'fresh' ? `; PostgreSQL's backends serving it ${cpuNote(cpu.backends)} more` : "; PostgreSQL's own backends not counted"}); round trips to PostgreSQL per request ${roundTrips[engine].toFixed(3)} (SQLite: none, in process)`;
    const percent = (values: number[]) => (values.length ? `${Math.round(median(values) * 100)}%` : 'unknown');
    const cores = `${availableParallelism()} cores shared by the daemons, PostgreSQL and autocannon, busy ${percent(busy.one)} with one daemon and ${percent(busy.two)} with two`;
    const figures = `SQLite ${Math.round(median(samples.sqliteFresh))}/s, 1 PostgreSQL daemon ${Math.round(median(samples.oneFresh))}/s, 2 daemons ${Math.round(median(samples.twoFresh))}/s`;
    rows.push(
      {
        operation: 'PostgreSQL: uncached did:key resolution, 2 daemons vs 1 (autocannon)',
        unit: 'ops/s',
        svc: median(samples.twoFresh),
        peer: '1 daemon on PostgreSQL',
        peerValue: median(samples.oneFresh),
        goal: { op: '>=', ratio: 1.6 },
        status: 'ok',
        note: `a fresh did:key per request (resolved where it arrives — a self-certifying DID skips the shared cache tier — and recorded); ${figures}; ${CONNECTIONS} connections in all, ${ROUNDS} interleaved rounds of ${SECONDS} s; ${cores}`,
        samples: { svc: samples.twoFresh, peer: samples.oneFresh },
      },
      {
        operation: 'PostgreSQL: uncached did:key resolution, 1 daemon vs SQLite (autocannon)',
        unit: 'ops/s',
        svc: median(samples.oneFresh),
        peer: '1 daemon on SQLite',
        peerValue: median(samples.sqliteFresh),
        goal: { op: '>=', ratio: 0.8 },
        status: 'ok',
        note: `${perRequest('fresh')}; ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds`,
        samples: { svc: samples.oneFresh, peer: samples.sqliteFresh },
      },
      {
        operation: 'PostgreSQL: cached did:key resolution, 1 daemon vs SQLite (autocannon)',
        unit: 'ops/s',
        svc: median(samples.oneCached),
        peer: '1 daemon on SQLite',
        peerValue: median(samples.sqliteCached),
        goal: null,
        status: 'ok',
        note: `${perRequest('cached')}; ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds`,
        samples: { svc: samples.oneCached, peer: samples.sqliteCached },
      },
      {
        operation: 'PostgreSQL: cached did:key resolution, 2 daemons vs 1 (autocannon)',
        unit: 'ops/s',
        svc: median(samples.twoCached),
        peer: '1 daemon on PostgreSQL',
        peerValue: median(samples.oneCached),
        goal: null,
        status: 'ok',
        note: `served from each daemon's in-memory cache (no database work); SQLite daemon ${Math.round(median(samples.sqliteCached))}/s`,
        samples: { svc: samples.twoCached, peer: samples.oneCached },
      },
    );

    // History append, in this process, on a file and on the database.
    const file = await openDatabase({ target: path.join(dir, 'append.db') });
    const shared = await openDatabase({ target: pgUrl });
    try {
      const sqliteMs = await appends(file);
      const pgMs = await appends(shared);
      for (const [label, p] of [
        ['p50', 0.5],
        ['p95', 0.95],
      ] as const) {
        rows.push({
          operation: `PostgreSQL: history append ${label} (one new observation row)`,
          unit: 'ms',
          svc: percentile(pgMs, p),
          peer: 'SQLite file (WAL)',
          peerValue: percentile(sqliteMs, p),
          goal: null,
          status: 'ok',
          note:
            label === 'p50'
              ? `${APPENDS} sequential appends each; PostgreSQL over loopback TCP, one transaction with a per-DID advisory lock (a group commit of one)`
              : undefined,
        });
      }
      // Appends at once, as a daemon's resolutions under load: the group commit's figure.
      const counts = countRoundTrips((shared as unknown as { pool: Parameters<typeof countRoundTrips>[0] }).pool);
      const sqliteRate = await concurrentAppends(file);
      const pgRate = await concurrentAppends(shared);
      rows.push({
        operation: `PostgreSQL: history appends, ${CONCURRENT_WRITERS} at once (new observation rows)`,
        unit: 'ops/s',
        svc: pgRate,
        peer: 'SQLite file (WAL)',
        peerValue: sqliteRate,
        goal: null,
        status: 'ok',
        note: `${CONCURRENT_APPENDS} appends each, in this process; PostgreSQL: ${(counts.queries / CONCURRENT_APPENDS).toFixed(3)} round trips and ${(counts.checkouts / CONCURRENT_APPENDS).toFixed(3)} connection checkouts per append (one store without a ceiling, as the CLI opens it)`,
      });
    } finally {
      await file.close();
      await shared.close();
    }

    // verify-tool against a chain registered on each backend.
    const agent = didKeyPrincipal();
    const now = Math.floor(Date.now() / 1000);
    const chain = [await mintReceipt(didKeyPrincipal(), agent, { cap: ['search'], nbf: now - 60, exp: now + 3600 })];
    for (const daemon of [sqlite, pgA]) {
      const answer = await fetch(`${daemon.url}/v1/agents/verify-delegation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain, register: true }),
      });
      if (((await answer.json()) as { registered?: boolean }).registered !== true) throw new Error('the chain was not registered');
    }
    const sqliteTool = await verifyToolLatency(sqlite, agent.did);
    const pgTool = await verifyToolLatency(pgA, agent.did);
    rows.push({
      operation: 'PostgreSQL: GET /v1/agents/verify-tool p50 (registered chain, ALLOW)',
      unit: 'ms',
      svc: median(pgTool),
      peer: 'daemon on SQLite',
      peerValue: median(sqliteTool),
      goal: null,
      status: 'ok',
      note: `${VERIFY_TOOL_CALLS} sequential calls each, over HTTP on loopback`,
    });
    return rows;
  } finally {
    for (const close of closers) await close().catch(() => undefined);
    for (const d of daemons) d.child.kill('SIGTERM');
    await Promise.all(daemons.map((d) => new Promise((r) => (d.child.exitCode !== null ? r(null) : d.child.once('exit', r)))));
    rmSync(dir, { recursive: true, force: true });
    await database.drop().catch(() => undefined);
  }
}
