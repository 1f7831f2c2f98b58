/**
 * Recording observations under load: autocannon against three `svc serve` daemons on
 * SQLite files, each request a did:key no cache holds (resolved, validated and recorded before
 * the answer), in the same run, rounds interleaved: the default group commit (the observations
 * of one event-loop turn in one transaction, SVC_RECORD_BATCH=64, on the event loop) next to
 * SVC_RECORD_BATCH=1 (each observation its own transaction, as every record was before the group
 * commit) and to SVC_RECORD_THREAD=on (the group commits written by a worker thread). Every
 * daemon answers only after the commit that holds the request's observation.
 *
 * With SVC_BENCH_BASELINE naming another checkout's built bin/svc.js, a third daemon of that
 * build (default settings) takes part in the same interleaved rounds, and a row compares this
 * build with it (a change's before and after on the same machine in the same run):
 *   SVC_BENCH_BASELINE=/tmp/svc-base/bin/svc.js npx tsx bench/run.ts recording
 *
 * Needs the built CLI (dist/cli.js). The daemons and autocannon share the machine's cores.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import type { NewObservation } from '../src/core/history/store.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { ed25519DidKeys, median, plainEnv, serverStarted, type BenchRow } from './lib.js';

const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 16;
/** Fresh DIDs for every request of every round and the warm-ups (~2,600/s at most here: 2 × 4 loads of 4 s). */
const POOL = 150_000;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

interface Daemon {
  url: string;
  child: ChildProcess;
  file: string;
}

async function startDaemon(file: string, recordBatch: number, svcBin = bin, extra: Record<string, string> = {}): Promise<Daemon> {
  const env = {
    ...plainEnv(),
    SVC_RATE_LIMIT_PER_MIN: '1000000',
    SVC_ACCESS_LOG: 'off',
    SVC_MAX_CONCURRENCY: '256',
    SVC_RECORD_BATCH: String(recordBatch),
    ...extra,
  };
  const child = spawn(process.execPath, [svcBin, 'serve', '--port', '0', '--db', file], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  return { url: await serverStarted(child), child, file };
}

/** Requests per second, each request a DID of `pool` not asked before. Fails on any non-2xx. */
async function load(daemon: Daemon, next: () => string): Promise<{ rps: number; total: number }> {
  const result = await autocannon({
    url: daemon.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: `/v1/resolve/${next()}` }) }],
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${failures} requests failed or were not 2xx under load`);
  return { rps: result.requests.total / SECONDS, total: result.requests.total };
}

function rowsIn(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM observations').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** An observation of a did:key shaped as the daemon records one (two keys, five relationships). */
function observationOf(n: number): NewObservation {
  const did = `did:key:z6Mk${n.toString(36).padStart(44, 'x')}`;
  const ed = `${did}#z6Mk${'a'.repeat(44)}`;
  const x = `${did}#z6LS${'b'.repeat(44)}`;
  const document = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [
      { id: ed, type: 'Multikey', controller: did, publicKeyMultibase: `z6Mk${'a'.repeat(44)}` },
      { id: x, type: 'Multikey', controller: did, publicKeyMultibase: `z6LS${'b'.repeat(44)}` },
    ],
    authentication: [ed],
    assertionMethod: [ed],
    capabilityInvocation: [ed],
    capabilityDelegation: [ed],
    keyAgreement: [x],
  } as NewObservation['document'];
  const observedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    did,
    documentHash: n.toString(16).padStart(64, '0'),
    document,
    observedAt,
    latencyMs: 1,
    resolverVersion: 'bench',
    domainBindingStatus: null,
    summary: 'valid',
  };
}

/**
 * Microseconds the event loop is busy per recorded observation (SQLite file, in process; the
 * event loop's utilisation, performance.eventLoopUtilization, over turns of 16 records each
 * awaited): the daemon's writer thread (the event loop serialises the documents, hands the group
 * over and settles the answers) next to the group commit on the event loop's own connection,
 * with SQLite's own checkpoints in the commits or (the daemon's default) the WAL checkpointed by
 * a thread of its own, and SVC_RECORD_BATCH=1. Samples interleaved.
 */
async function eventLoopCost(dir: string): Promise<BenchRow[]> {
  const stores = {
    thread: openSqliteStore({ path: path.join(dir, 'loop-thread.db'), maxObservations: 100_000, recordThread: true }),
    grouped: openSqliteStore({ path: path.join(dir, 'loop-grouped.db'), maxObservations: 100_000 }),
    checkpointed: openSqliteStore({ path: path.join(dir, 'loop-checkpointed.db'), maxObservations: 100_000, backgroundCheckpoints: true }),
    single: openSqliteStore({ path: path.join(dir, 'loop-single.db'), maxObservations: 100_000, recordBatch: 1 }),
  };
  type Name = keyof typeof stores;
  let n = 0;
  const sample = async (name: Name, turns: number): Promise<number> => {
    const store = stores[name];
    const before = performance.eventLoopUtilization();
    for (let t = 0; t < turns; t++) {
      await Promise.all(Array.from({ length: 16 }, () => store.observations.record(observationOf(n++))));
    }
    const { active } = performance.eventLoopUtilization(before);
    return (active * 1e3) / (turns * 16);
  };
  try {
    for (const name of ['thread', 'grouped', 'checkpointed', 'single'] as const) await sample(name, 100);
    const samples: Record<Name, number[]> = { thread: [], grouped: [], checkpointed: [], single: [] };
    const orders: Name[][] = [
      ['thread', 'grouped', 'checkpointed', 'single'],
      ['single', 'checkpointed', 'grouped', 'thread'],
    ];
    for (let round = 0; round < 10; round++) for (const name of orders[round % 2]!) samples[name].push(await sample(name, 200));
    const note =
      'event-loop busy time (performance.eventLoopUtilization) over turns of 16 awaited records: building the rows, JSON.stringify of the document, ' +
      'then the statements and the commit on the event loop, or the hand-over to the writer thread and its answers; 10 interleaved samples of 3,200 records';
    return [
      {
        operation: 'event-loop time per recorded observation (SQLite file, in process): writer thread vs group commit on the event loop',
        unit: 'µs',
        svc: median(samples.thread),
        peer: 'group commit of 16 a turn on the event loop',
        peerValue: median(samples.grouped),
        goal: null,
        status: 'ok',
        note,
        samples: { svc: samples.thread, peer: samples.grouped },
      },
      {
        // What the daemon does: the group commit on the event loop, the WAL checkpointed by a
        // thread of its own (src/store/sqlite/checkpointer.ts).
        operation: 'event-loop time per recorded observation (SQLite file, in process): WAL checkpoints on a thread vs in the commits',
        unit: 'µs',
        svc: median(samples.checkpointed),
        peer: 'group commit of 16 a turn, SQLite checkpointing in the commits (its default)',
        peerValue: median(samples.grouped),
        goal: null,
        status: 'ok',
        note,
        samples: { svc: samples.checkpointed, peer: samples.grouped },
      },
      {
        operation: 'event-loop time per recorded observation (SQLite file, in process): group commit of 16 a turn on the event loop',
        unit: 'µs',
        svc: median(samples.grouped),
        peer: 'SVC_RECORD_BATCH=1',
        peerValue: median(samples.single),
        goal: null,
        status: 'ok',
        note,
        samples: { svc: samples.grouped, peer: samples.single },
      },
    ];
  } finally {
    stores.thread.close();
    stores.grouped.close();
    stores.checkpointed.close();
    stores.single.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const operation = 'daemon: uncached did:key resolution, recorded (SQLite file), group commit vs one transaction each';
  if (!existsSync(cli)) {
    return [
      {
        operation,
        unit: 'ops/s',
        svc: null,
        peer: 'SVC_RECORD_BATCH=1',
        peerValue: null,
        goal: null,
        status: 'not built',
        note: 'dist/cli.js is missing: run `npm run build` (npm run bench does).',
      },
    ];
  }
  const baselineBin = process.env['SVC_BENCH_BASELINE'];
  if (baselineBin !== undefined && !existsSync(baselineBin)) throw new Error(`SVC_BENCH_BASELINE=${baselineBin} does not exist`);
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-rec-'));
  const daemons: Daemon[] = [];
  try {
    const grouped = await startDaemon(path.join(dir, 'grouped.db'), 64);
    daemons.push(grouped);
    const single = await startDaemon(path.join(dir, 'single.db'), 1);
    daemons.push(single);
    const threaded = await startDaemon(path.join(dir, 'threaded.db'), 64, bin, { SVC_RECORD_THREAD: 'on' });
    daemons.push(threaded);
    const baseline = baselineBin === undefined ? null : await startDaemon(path.join(dir, 'baseline.db'), 64, baselineBin);
    if (baseline) daemons.push(baseline);
    const pool = await ed25519DidKeys(POOL);
    let next = 0;
    // Past the end the pool wraps (a throw here would be inside autocannon's callback and end
    // the whole run); the row is then an error below, never a figure of cached answers.
    const fresh = () => pool[next++ % pool.length]!;
    type Name = 'grouped' | 'single' | 'threaded' | 'baseline';
    const sides: Array<[Name, Daemon]> = [
      ['grouped', grouped],
      ['single', single],
      ['threaded', threaded],
    ];
    if (baseline) sides.push(['baseline', baseline]);
    const answered: Record<Name, number> = { grouped: 0, single: 0, threaded: 0, baseline: 0 };
    for (const [name, daemon] of sides) answered[name] += (await load(daemon, fresh)).total;
    const samples: Record<Name, number[]> = { grouped: [], single: [], threaded: [], baseline: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, daemon] of round % 2 === 0 ? sides : [...sides].reverse()) {
        const { rps, total } = await load(daemon, fresh);
        samples[name].push(rps);
        answered[name] += total;
      }
    }
    if (next > pool.length) throw new Error(`the DID pool of ${pool.length} was used up (${next} requests): enlarge it so that every request stays uncached`);
    for (const d of daemons) {
      d.child.kill('SIGTERM');
      await new Promise((r) => d.child.once('exit', r));
    }
    // Every answered request's observation is in the file (the warm-up's too): nothing lost.
    for (const [name, daemon] of sides) {
      const stored = rowsIn(daemon.file);
      if (stored < answered[name]) throw new Error(`${answered[name]} requests were answered but only ${stored} observations stored (${name})`);
    }
    const compared: BenchRow[] = baseline
      ? [
          {
            operation: 'daemon: uncached did:key resolution, recorded (SQLite file), this build vs the baseline build',
            unit: 'ops/s',
            svc: median(samples.grouped),
            peer: `SVC_BENCH_BASELINE (${baselineBin})`,
            peerValue: median(samples.baseline),
            goal: null,
            status: 'ok',
            note: `both at their defaults (SVC_RECORD_BATCH=64), in the same ${ROUNDS} interleaved rounds; every one of the baseline's ${answered.baseline} answers has its observation in its file`,
            samples: { svc: samples.grouped, peer: samples.baseline },
          },
        ]
      : [];
    return [
      ...(await eventLoopCost(dir)),
      ...compared,
      {
        operation: 'daemon: uncached did:key resolution, recorded (SQLite file), SVC_RECORD_THREAD=on vs the default (off)',
        unit: 'ops/s',
        svc: median(samples.threaded),
        peer: 'the group commit on the event loop (the default)',
        peerValue: median(samples.grouped),
        goal: null,
        status: 'ok',
        note: `the same requests, in the same ${ROUNDS} interleaved rounds; every one of the ${answered.threaded} answers has its observation in the file. The thread needs a core of its own: on 2 cores shared with the load generator it is the slower`,
        samples: { svc: samples.threaded, peer: samples.grouped },
      },
      {
        operation,
        unit: 'ops/s',
        svc: median(samples.grouped),
        peer: 'SVC_RECORD_BATCH=1 (one transaction per observation)',
        peerValue: median(samples.single),
        goal: { op: '>=', ratio: 1.3 },
        status: 'ok',
        note:
          `a fresh did:key per request, resolved, validated, recorded, then answered (the full ~9 KB result); ${CONNECTIONS} connections, ` +
          `${ROUNDS} interleaved rounds of ${SECONDS} s; every one of the ${answered.grouped} and ${answered.single} answers has its observation in the file. The goal is ≥ 1.3× the ` +
          'figure before the group commit (1.3–1.7k/s on 2 cores); the svc figure is the one to compare with it',
        samples: { svc: samples.grouped, peer: samples.single },
      },
    ];
  } finally {
    for (const d of daemons) if (d.child.exitCode === null) d.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
