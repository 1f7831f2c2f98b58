/**
 * The monitoring poller: the time of one pass over 500 due
 * watches of fresh did:keys, on a SQLite file and on PostgreSQL, in this process; and the same over
 * 500 watches mixing 300 did:keys, 100 MCP endpoints and 100 A2A cards served over loopback HTTPS
 * (SDK 1.x MCP servers, plain agent cards), next to the did:key-only pass of the same run — the daemon's
 * own poller (MonitorPoller.pass) over the daemon's own storage slot: claim on the database
 * clock, resolve afresh (noCache, recorded in the history), compare, record the baseline and the
 * watch state in one transaction. The first pass establishes 500 baselines; the second (the
 * watches aged by SQL so that they are due again) compares against them — the steady state; for
 * the did:key-only watches, three steady passes on each engine, interleaved, their median; per
 * watch of those, the round trips to PostgreSQL, this process's CPU and the CPU of the PostgreSQL
 * backends serving it (their processes' time in /proc, on this machine's server): on a shared
 * machine the CPU figures say more than the times.
 *
 * Deliveries: 1,000 PENDING events of one watch delivered by the daemon's own deliverDue (claim,
 * sign, POST, settle) to an HTTPS receiver on loopback (a test CA trusted through the Runtime,
 * 127.0.0.0/8 allowed), deliveries per second, on both engines. Memory: a daemon started over a
 * database holding 10,000 events (a SQLite file), its resident set size after answering the
 * status and the event list.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Runtime } from '../src/core/runtime.js';
import type { WatchKind } from '../src/core/store.js';
import { createRuntime } from '../src/runtime/node.js';
import { Capacity } from '../src/server/capacity.js';
import type { ServerContext } from '../src/server/context.js';
import { DEFAULT_LIMITS } from '../src/server/limits.js';
import { deliverDue, MonitorPoller } from '../src/server/jobs/poller.js';
import { systemClock } from '../src/runtime/node.js';
import { agentCard } from '../test/support/a2a-agent.js';
import { FAR_FROM_EXPIRY_DAYS, startDidWebHost } from '../test/support/did-web-host.js';
import { countingReceiver, json, startHttpsServer } from '../test/support/https-server.js';
import { PLAIN_TOOLS, startSdk1Server, type McpTestServer } from '../test/support/mcp-servers.js';
import { createTestCa } from '../test/support/pki.js';
import { testRuntime } from '../test/support/runtime.js';
import { StorageSlot } from '../src/server/storage.js';
import { createDatabase } from '../test/support/pg-admin.js';
import { backendsCpuMs, countRoundTrips, ed25519DidKeys, median, plainEnv, serverStarted, type BenchRow } from './lib.js';

const WATCHES = 500;
/** Steady passes of the did:key-only watches on each engine, interleaved. */
const STEADY_ROUNDS = 3;
const serverUrl = process.env['SVC_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Passes {
  first: number;
  steady: number;
  /** Per watch in the steady pass: this process's CPU (ms; the checks and the store's driver), and on PostgreSQL the round trips to it and its backends' CPU. */
  steadyCpuMs: number;
  steadyRoundTrips: number | null;
  steadyBackendCpuMs: number | null;
}

/** The watches of a pass: fresh did:keys only, or did:keys with MCP endpoints and A2A cards on a loopback host. */
type Subjects = Array<{ kind: WatchKind; did: string }>;

/** The watches set up on the database `target` and their first pass timed; `steady()` times one more pass after `age` made them all due again. */
interface Prepared {
  first: number;
  steady(): Promise<{ ms: number; cpuMs: number; roundTrips: number | null; backendCpuMs: number | null }>;
  close(): Promise<void>;
}

/**
 * CPU milliseconds of the client backends connected to the PostgreSQL database at `url` (their
 * processes' user + system time, /proc/<pid>/stat, on this machine's server), by backend; null
 * where unknown (another machine's server, no /proc).
 */
async function backendCpuMs(url: string): Promise<Map<number, number> | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await backendsCpuMs(() =>
      client.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
      ),
    );
  } finally {
    await client.end();
  }
}

/** The backends' CPU between two readings: a backend started between them counts from zero. */
function backendCpuSpent(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (before === null || after === null) return null;
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

async function prepare(target: string, age: () => Promise<void>, subjects: Subjects, makeRuntime: () => Runtime = () => createRuntime({})): Promise<Prepared> {
  const runtime = makeRuntime();
  const storage = new StorageSlot(target, false);
  await storage.open();
  if (!storage.store) throw new Error(`the database could not be opened: ${storage.error}`);
  const store = storage.store;
  Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
  const limits = { ...DEFAULT_LIMITS, maxConcurrency: 1_000, maxConcurrencyPerClient: 1_000 };
  const ctx: ServerContext = {
    runtime,
    storage,
    profile: 'direct',
    limits,
    capacity: new Capacity(1_000, 1_000),
    startedAt: new Date(),
    draining: false,
    active: 0,
  };
  try {
    for (const { kind, did } of subjects) {
      const added = await store.watches.add(
        {
          kind,
          did,
          webhookUrl: 'https://hooks.example/svc',
          secret: 'whsec_bench',
          intervalSeconds: 60,
          createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        },
        WATCHES,
      );
      if (added === 'full') throw new Error('the watch limit was reached');
    }
    const poller = new MonitorPoller(ctx);
    const timed = async (): Promise<number> => {
      let checked = 0;
      const t0 = performance.now();
      // A pass claims at most 100 watches: as many passes as it takes, as the poller would run them.
      for (let n = -1; n !== 0; ) {
        n = await poller.pass();
        checked += n;
      }
      const ms = performance.now() - t0;
      if (checked !== subjects.length) throw new Error(`${checked} of ${subjects.length} watches were checked`);
      return ms;
    };
    const first = await timed();
    const pool = (store as { pool?: Parameters<typeof countRoundTrips>[0] }).pool;
    const counts = pool ? countRoundTrips(pool) : null;
    return {
      first,
      steady: async () => {
        await age();
        const queries = counts?.queries ?? 0;
        const backends0 = pool ? await backendCpuMs(target) : null;
        const cpu0 = process.cpuUsage();
        const ms = await timed();
        const cpu = process.cpuUsage(cpu0);
        const backends = pool ? backendCpuSpent(backends0, await backendCpuMs(target)) : null;
        // Every check resolved or inspected: none failed (a failure would be cheaper and flatter the figure).
        const failed = (await store.watches.list()).filter((w) => w.lastStatus !== 'RESOLVED');
        if (failed.length > 0)
          throw new Error(`${failed.length} watches did not check cleanly (e.g. ${failed[0]!.kind} ${failed[0]!.did}: ${failed[0]!.lastStatus})`);
        return {
          ms,
          cpuMs: (cpu.user + cpu.system) / 1000 / subjects.length,
          roundTrips: counts ? (counts.queries - queries) / subjects.length : null,
          backendCpuMs: backends === null ? null : backends / subjects.length,
        };
      },
      close: () => storage.close(),
    };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

/** Two timed passes over the watches on the database `target` (the first, then one steady); `age` makes them all due again. */
async function passes(target: string, age: () => Promise<void>, subjects: Subjects, makeRuntime?: () => Runtime): Promise<Passes> {
  const prepared = await prepare(target, age, subjects, makeRuntime);
  try {
    const steady = await prepared.steady();
    return {
      first: prepared.first,
      steady: steady.ms,
      steadyCpuMs: steady.cpuMs,
      steadyRoundTrips: steady.roundTrips,
      steadyBackendCpuMs: steady.backendCpuMs,
    };
  } finally {
    await prepared.close();
  }
}

const AGE = "UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z'";

/** Every watch of a SQLite file made due again. */
async function ageSqlite(file: string): Promise<void> {
  const db = new Database(file);
  db.exec(AGE);
  db.close();
}

/** Every watch of a PostgreSQL database made due again. */
async function agePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(AGE);
  } finally {
    await client.end();
  }
}

/** MCP endpoints and A2A cards of the mixed pass (the rest of WATCHES are did:keys). */
const MCP_WATCHES = 100;
const A2A_WATCHES = 100;

/**
 * A loopback HTTPS host (a test CA, a leaf far from expiry) serving MCP_WATCHES SDK 1.x MCP
 * servers (stateless, JSON replies, the plain tool set, one path each) and A2A_WATCHES agent cards;
 * the watches of the mixed pass (did:keys for the rest) and a Runtime trusting the host.
 */
async function mixedSubjects(): Promise<{ subjects: Subjects; runtime: () => Runtime; close(): Promise<void> }> {
  const host = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
  const servers: McpTestServer[] = [];
  for (let i = 0; i < MCP_WATCHES; i++) servers.push(await startSdk1Server({ host, path: `/mcp/${i}`, tools: PLAIN_TOOLS, stateful: false, json: true }));
  const origin = `https://localhost:${host.server.port}`;
  for (let i = 0; i < A2A_WATCHES; i++) host.server.route(`/cards/${i}.json`, json(agentCard(`${origin}/agents/${i}`, { name: `Agent ${i}` })));
  const dids = await ed25519DidKeys(WATCHES - MCP_WATCHES - A2A_WATCHES);
  const subjects: Subjects = [
    ...dids.map((did) => ({ kind: 'did' as const, did })),
    ...servers.map((s) => ({ kind: 'mcp' as const, did: s.url })),
    ...Array.from({ length: A2A_WATCHES }, (_, i) => ({ kind: 'a2a' as const, did: `${origin}/cards/${i}.json` })),
  ];
  return {
    subjects,
    runtime: () => host.runtime(),
    close: async () => {
      for (const s of servers) await s.close();
      await host.close();
    },
  };
}

const EVENTS_DELIVERED = 1_000;

/** Deliveries per second of EVENTS_DELIVERED events to a loopback HTTPS receiver through deliverDue. */
async function deliveries(target: string, insertEvents: (watchId: number, count: number) => Promise<void>): Promise<number> {
  const ca = createTestCa();
  const receiver = await startHttpsServer({ cert: ca.issue({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }), ca });
  const received = countingReceiver(receiver, '/hook');
  const storage = new StorageSlot(target, false);
  await storage.open();
  try {
    const store = storage.store;
    if (!store) throw new Error(`the database could not be opened: ${storage.error}`);
    const runtime = testRuntime(systemClock, { allow: ['127.0.0.0/8'], trustAnchors: [ca.certPem] });
    Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
    const ctx: ServerContext = {
      runtime,
      storage,
      profile: 'direct',
      limits: DEFAULT_LIMITS,
      capacity: new Capacity(64, 64),
      startedAt: new Date(),
      draining: false,
      active: 0,
    };
    const watch = await store.watches.add(
      {
        did: 'did:web:bench.example',
        webhookUrl: `https://127.0.0.1:${receiver.port}/hook`,
        secret: 'whsec_YmVuY2g=',
        intervalSeconds: 3600,
        createdAt: '2026-11-27T00:00:00Z',
      },
      10,
    );
    if (watch === 'full') throw new Error('no room for the watch');
    await insertEvents(watch.id, EVENTS_DELIVERED);
    const t0 = performance.now();
    while ((await deliverDue(ctx)) > 0);
    const seconds = (performance.now() - t0) / 1000;
    if (received() !== EVENTS_DELIVERED) throw new Error(`${received()} of ${EVENTS_DELIVERED} deliveries arrived`);
    return EVENTS_DELIVERED / seconds;
  } finally {
    await storage.close();
    await receiver.close();
  }
}

/** SQL that inserts `count` PENDING events of the watch (a recursive series on SQLite, generate_series on PostgreSQL). */
function eventsSql(engine: 'sqlite' | 'postgres', watchId: number, count: number, status = 'PENDING'): string {
  const series =
    engine === 'sqlite'
      ? `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count}) SELECT i FROM n`
      : `SELECT generate_series(1, ${count}) AS i`;
  return `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status)
    SELECT ${watchId}, 'did:web:bench.example', 'identity.document.changed', '{"fromHash":null,"toHash":null,"domainBinding":null,"diff":null,"headline":"bench","problem":null}', '2026-11-27T00:00:00Z', '${status}'
    FROM (${series}) AS s`;
}

/** Resident set size (MB) of a daemon over a SQLite file holding 10,000 events, after the status and the event list. */
async function rssWithEvents(dir: string): Promise<number> {
  const file = path.join(dir, 'rss.db');
  const storage = new StorageSlot(file, false);
  await storage.open();
  const watch = await storage.store!.watches.add(
    {
      did: 'did:web:bench.example',
      webhookUrl: 'https://hooks.example/svc',
      secret: 'whsec_YmVuY2g=',
      intervalSeconds: 3600,
      createdAt: '2026-11-27T00:00:00Z',
    },
    10,
  );
  await storage.close();
  if (watch === 'full') throw new Error('no room for the watch');
  const db = new Database(file);
  db.exec(eventsSql('sqlite', watch.id, 10_000, 'DELIVERED'));
  db.close();
  const token = 'bench-operator-token-0123456789';
  const child = spawn(process.execPath, [fileURLToPath(new URL('../bin/svc.js', import.meta.url)), 'serve', '--port', '0', '--db', file], {
    env: { ...plainEnv(), SVC_ADMIN_TOKEN: token, SVC_ACCESS_LOG: 'off', SVC_MONITOR_PERIOD: '3600' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const url = await serverStarted(child);
    for (const route of ['/v1/monitoring/status', '/v1/monitoring/events', '/v1/monitoring/watches']) {
      const answer = await fetch(`${url}${route}`, { headers: { authorization: `Bearer ${token}` } });
      if (answer.status !== 200) throw new Error(`${route} answered ${answer.status}`);
      await answer.arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, 300));
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    if (!m) throw new Error('no VmRSS');
    return Number(m[1]) / 1024;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-monitor-'));
  const mixed = await mixedSubjects();
  try {
    const didOnly: Subjects = (await ed25519DidKeys(WATCHES)).map((did) => ({ kind: 'did', did }));
    const onSqlite = async (name: string, subjects: Subjects, runtime?: () => Runtime) => {
      const at = path.join(dir, name);
      return passes(at, () => ageSqlite(at), subjects, runtime);
    };
    const onPostgres = async (subjects: Subjects, runtime?: () => Runtime) => {
      const database = await createDatabase(serverUrl, 'svc_bench');
      try {
        return await passes(database.url, () => agePostgres(database.url), subjects, runtime);
      } finally {
        await database.drop();
      }
    };
    // The did:key-only passes: both engines set up, then STEADY_ROUNDS steady passes interleaved
    // (SQLite, PostgreSQL, SQLite…), the medians reported.
    const sqliteFile = path.join(dir, 'svc.db');
    const sqlitePrepared = await prepare(sqliteFile, () => ageSqlite(sqliteFile), didOnly);
    const sqliteSteady: Array<Awaited<ReturnType<Prepared['steady']>>> = [];
    const postgresSteady: typeof sqliteSteady = [];
    let postgresFirst: number | null = null;
    let note = '';
    try {
      const database = await createDatabase(serverUrl, 'svc_bench').catch((err: unknown) => {
        note = `PostgreSQL not measured: ${err instanceof Error ? err.message : String(err)}`;
        return null;
      });
      try {
        const postgresPrepared = database ? await prepare(database.url, () => agePostgres(database.url), didOnly) : null;
        try {
          postgresFirst = postgresPrepared?.first ?? null;
          for (let round = 0; round < STEADY_ROUNDS; round++) {
            sqliteSteady.push(await sqlitePrepared.steady());
            if (postgresPrepared) postgresSteady.push(await postgresPrepared.steady());
          }
        } finally {
          await postgresPrepared?.close();
        }
      } finally {
        await database?.drop();
      }
    } finally {
      await sqlitePrepared.close();
    }
    const medianOf = (list: typeof sqliteSteady): Passes | null =>
      list.length === 0
        ? null
        : {
            first: 0,
            steady: median(list.map((r) => r.ms)),
            steadyCpuMs: median(list.map((r) => r.cpuMs)),
            steadyRoundTrips: list[0]!.roundTrips === null ? null : median(list.map((r) => r.roundTrips!)),
            steadyBackendCpuMs: list.some((r) => r.backendCpuMs === null) ? null : median(list.map((r) => r.backendCpuMs!)),
          };
    const sqlite: Passes = { ...medianOf(sqliteSteady)!, first: sqlitePrepared.first };
    const postgresMedian = medianOf(postgresSteady);
    let postgres: Passes | null = postgresMedian && postgresFirst !== null ? { ...postgresMedian, first: postgresFirst } : null;
    const sqliteMixed = await onSqlite('mixed.db', mixed.subjects, mixed.runtime);
    let postgresMixed: Passes | null = null;
    try {
      if (postgres) postgresMixed = await onPostgres(mixed.subjects, mixed.runtime);
    } catch (err) {
      postgres = null;
      note = `PostgreSQL not measured: ${err instanceof Error ? err.message : String(err)}`;
    }
    const mixedRow = (engine: string, m: Passes | null, d: Passes | null): BenchRow => ({
      operation: `monitoring: one steady poller pass over ${WATCHES} due watches mixing ${WATCHES - MCP_WATCHES - A2A_WATCHES} did:keys, ${MCP_WATCHES} MCP endpoints and ${A2A_WATCHES} A2A cards (loopback HTTPS), ${engine}`,
      unit: 'ms',
      svc: m?.steady ?? null,
      peer: `${WATCHES} did:key watches only, the same pass, same run`,
      peerValue: d?.steady ?? null,
      goal: null,
      status: m && d ? 'ok' : 'error',
      note:
        m && d
          ? `${(m.steady / d.steady).toFixed(2)}× the DID-only pass; first pass (baselines set) ${m.first.toFixed(0)} ms vs ${d.first.toFixed(0)} ms; each MCP check lists tools, prompts and resources, each A2A check fetches and inspects the card`
          : note,
    });
    const row = (label: string, key: 'first' | 'steady', pg = postgres): BenchRow => ({
      operation: `monitoring: one poller pass over ${WATCHES} due did:key watches, ${label}`,
      unit: 'ms',
      svc: postgres?.[key] ?? null,
      peer: 'the same pass on SQLite',
      peerValue: sqlite[key],
      goal: key === 'steady' ? { op: '<=', ratio: 2 } : null,
      status: postgres ? 'ok' : 'error',
      note:
        note ||
        `PostgreSQL vs SQLite; ${(WATCHES / (sqlite[key] / 1000)).toFixed(0)} checks/s on SQLite, ${postgres ? (WATCHES / (postgres[key] / 1000)).toFixed(0) : '—'} on PostgreSQL` +
          (key === 'steady' && pg
            ? `; the median of ${STEADY_ROUNDS} steady passes on each engine, interleaved; per watch: ${pg.steadyRoundTrips?.toFixed(2) ?? '—'} round trips to PostgreSQL, CPU of this process ${pg.steadyCpuMs.toFixed(2)} ms (SQLite ${sqlite.steadyCpuMs.toFixed(2)} ms), of PostgreSQL's backends serving it ${pg.steadyBackendCpuMs?.toFixed(2) ?? '—'} ms more`
            : ''),
    });
    const sqliteDeliveries = await deliveries(path.join(dir, 'deliveries.db'), async (watchId, count) => {
      const db = new Database(path.join(dir, 'deliveries.db'));
      db.exec(eventsSql('sqlite', watchId, count));
      db.close();
    });
    let postgresDeliveries: number | null = null;
    try {
      const database = await createDatabase(serverUrl, 'svc_bench');
      try {
        postgresDeliveries = await deliveries(database.url, async (watchId, count) => {
          const client = new pg.Client({ connectionString: database.url });
          await client.connect();
          await client.query(eventsSql('postgres', watchId, count));
          await client.end();
        });
      } finally {
        await database.drop();
      }
    } catch (err) {
      note ||= `PostgreSQL not measured: ${err instanceof Error ? err.message : String(err)}`;
    }
    const rss = await rssWithEvents(dir);
    return [
      row('first (baselines set)', 'first'),
      row('steady (nothing changed)', 'steady'),
      mixedRow('SQLite', sqliteMixed, sqlite),
      mixedRow('PostgreSQL', postgresMixed, postgres),
      {
        operation: `monitoring: webhook deliveries to a loopback HTTPS receiver (${EVENTS_DELIVERED} events)`,
        unit: 'ops/s',
        svc: postgresDeliveries,
        peer: 'the same on SQLite',
        peerValue: sqliteDeliveries,
        goal: null,
        status: postgresDeliveries === null ? 'error' : 'ok',
        note: 'claim (lease), sign (two HMACs), POST through the egress policy, settle; 20 claimed per round, 4 at once',
      },
      {
        operation: 'monitoring: daemon RSS with 10,000 stored events (after status and event list)',
        unit: 'MB',
        svc: rss,
        peer: '—',
        peerValue: null,
        goal: null,
        status: 'ok',
      },
    ];
  } finally {
    await mixed.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
