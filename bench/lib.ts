/**
 * Shared helpers of the benchmark suite: row type, timing, DID generation and the table.
 * Measurement only: nothing here asserts a goal. A benchmark throws only when its own inputs
 * or outputs are broken (a side produced no document), so that it cannot report nonsense.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { multikey } from '../test/support/codec.js';

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

/** `per op`: a count per operation (new connections per resolution), lower is better. */
export type Unit = 'ops/s' | 'ms' | 'µs' | 'MB' | 'KB' | 'per op';

export interface Goal {
  /** `>=` for higher-is-better figures (ops/s), `<=` for lower-is-better ones (ms). */
  op: '>=' | '<=';
  /** Bound on ratio = svc ÷ peer; with `absolute`, a bound on the svc figure itself (e.g. 120 MB). */
  ratio: number;
  absolute?: boolean;
}

export type RowStatus = 'ok' | 'not built' | 'error';

export interface BenchRow {
  operation: string;
  unit: Unit;
  /** svc figure (median), or null when it could not be measured (see status). */
  svc: number | null;
  /** What svc is compared with. */
  peer: string;
  /** Peer figure (median), same unit. */
  peerValue: number | null;
  /** Goal on svc ÷ peer, or null when the row is informational. */
  goal: Goal | null;
  status: RowStatus;
  /** Free text: what the ratio's baseline is, why a row was not measured, … */
  note?: string;
  /** Raw samples of each side (ops/s per sample, or ms per run), for --json readers. */
  samples?: { svc: number[]; peer: number[] };
}

export interface BenchModule {
  run(): Promise<BenchRow[]>;
}

/** Higher is better for throughput, lower is better for latency. */
export function higherIsBetter(unit: Unit): boolean {
  return unit === 'ops/s';
}

/** svc ÷ peer in the row's own unit, or null when either side is missing. */
export function ratioOf(row: BenchRow): number | null {
  if (row.svc === null || row.peerValue === null || row.peerValue === 0) return null;
  return row.svc / row.peerValue;
}

/** Whether the goal is met: true/false, or null when there is no goal or no ratio. */
export function goalMet(row: BenchRow): boolean | null {
  const ratio = row.goal?.absolute ? row.svc : ratioOf(row);
  if (row.goal === null || ratio === null || row.status !== 'ok') return null;
  return row.goal.op === '>=' ? ratio >= row.goal.ratio : ratio <= row.goal.ratio;
}

// ---------------------------------------------------------------------------------------------
// Statistics and timing
// ---------------------------------------------------------------------------------------------

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..1). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length))) - 1]!;
}

/** Nanoseconds since an arbitrary origin, as a plain number (fine for spans < ~100 days). */
export function nowNs(): number {
  return Number(process.hrtime.bigint());
}

export interface ThroughputOptions {
  /** Time spent calling the function before any sample is taken. */
  warmupMs?: number;
  /** Minimum duration of each sample. */
  sampleMs?: number;
  /** Number of samples; the reported figure is their median. */
  samples?: number;
}

const DEFAULT_THROUGHPUT: Required<ThroughputOptions> = { warmupMs: 300, sampleMs: 250, samples: 5 };

/**
 * Operation under test. `i` counts calls from 0 across warm-up and samples, so a benchmark can
 * walk a pool of inputs. The function may be sync or async; it is awaited either way.
 */
export type Op = (i: number) => unknown;

interface Runner {
  next: number;
  fn: Op;
}

/** Calls fn until at least `ms` have passed; returns [calls, elapsed ns]. */
async function runFor(runner: Runner, ms: number): Promise<[number, number]> {
  const budget = ms * 1e6;
  const start = nowNs();
  let calls = 0;
  let elapsed = 0;
  // Check the clock every few calls only, so very fast operations are not dominated by hrtime.
  let batch = 1;
  do {
    for (let k = 0; k < batch; k++) await runner.fn(runner.next++);
    calls += batch;
    elapsed = nowNs() - start;
    if (elapsed < budget / 100 && batch < 1024) batch *= 2;
  } while (elapsed < budget);
  return [calls, elapsed];
}

/**
 * Throughput of each operation in ops/s, as the median of several samples. With more than
 * one operation the samples are interleaved (a, b, a, b, …) so that machine noise — thermal
 * state, a neighbour process — falls on every side alike.
 */
export async function compareThroughput(ops: readonly Op[], options: ThroughputOptions = {}): Promise<number[][]> {
  const { warmupMs, sampleMs, samples } = { ...DEFAULT_THROUGHPUT, ...options };
  const runners: Runner[] = ops.map((fn) => ({ next: 0, fn }));
  for (const r of runners) await runFor(r, warmupMs);
  const results: number[][] = runners.map(() => []);
  for (let s = 0; s < samples; s++) {
    for (const [index, r] of runners.entries()) {
      const [calls, ns] = await runFor(r, sampleMs);
      results[index]!.push((calls * 1e9) / ns);
    }
  }
  return results;
}

export async function throughput(fn: Op, options: ThroughputOptions = {}): Promise<number[]> {
  return (await compareThroughput([fn], options))[0]!;
}

export interface SpawnSpec {
  command: string;
  args: readonly string[];
}

export interface SpawnTiming {
  /** Wall-clock milliseconds of each timed run. */
  ms: number[];
  /** Exit status of a run that failed, if any did (the timings are then meaningless). */
  failure: string | null;
}

/** Environment of spawned processes: the caller's, minus anything that preloads code into node. */
const benchStateHome = mkdtempSync(path.join(tmpdir(), 'svc-bench-state-'));
process.on('exit', () => rmSync(benchStateHome, { recursive: true, force: true }));

export function plainEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  // `svc resolve` records observations: into a state directory of the benchmark's own, never
  // the user's history (the recording itself stays in the measured cold start).
  env['XDG_STATE_HOME'] = benchStateHome;
  return env;
}

/**
 * Wall-clock time of spawning each command to completion, sequentially, interleaved across
 * commands (a, b, a, b, …) after `warmup` untimed rounds. stdout is ignored.
 */
export function compareSpawns(specs: readonly SpawnSpec[], runs: number, warmup = 2): SpawnTiming[] {
  const opts: SpawnSyncOptions = { stdio: ['ignore', 'ignore', 'pipe'], env: plainEnv(), timeout: 30_000 };
  const out: SpawnTiming[] = specs.map(() => ({ ms: [], failure: null }));
  for (let round = 0; round < warmup + runs; round++) {
    for (const [index, spec] of specs.entries()) {
      const timing = out[index]!;
      if (timing.failure) continue;
      const start = performance.now();
      const result = spawnSync(spec.command, spec.args, opts);
      const ms = performance.now() - start;
      if (result.error || result.status !== 0) {
        const stderr = result.stderr ? result.stderr.toString().trim().split('\n')[0] : '';
        timing.failure = result.error ? result.error.message : `exit ${result.status ?? result.signal}${stderr ? `: ${stderr}` : ''}`;
        continue;
      }
      if (round >= warmup) timing.ms.push(ms);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// DID generation with the tests' reference codec (independent of svc's own encoders, so a bug
// there cannot hide itself)
// ---------------------------------------------------------------------------------------------

export async function ed25519DidKeys(count: number): Promise<string[]> {
  const { ed25519 } = await import('@noble/curves/ed25519.js');
  return Array.from({ length: count }, () => `did:key:${multikey(0xed, ed25519.getPublicKey(randomBytes(32)))}`);
}

/** Compressed (33-byte) P-256 keys, as did:key requires. */
export async function p256DidKeys(count: number): Promise<string[]> {
  const { p256 } = await import('@noble/curves/nist.js');
  return Array.from({ length: count }, () => `did:key:${multikey(0x1200, p256.getPublicKey(p256.utils.randomSecretKey(), true))}`);
}

/** Fisher–Yates shuffle (in place), so mixed pools do not alternate predictably. */
export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

export function formatValue(value: number | null, unit: Unit): string {
  if (value === null || !Number.isFinite(value)) return '—';
  if (unit === 'ms') return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
  if (unit === 'µs') return `${value.toFixed(value < 10 ? 2 : 1)} µs`;
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  if (unit === 'KB') return `${value.toFixed(1)} KB`;
  if (unit === 'per op') return `${value.toFixed(value < 0.1 ? 4 : 2)} per op`;
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ops/s`;
}

function formatRatio(row: BenchRow): string {
  const ratio = ratioOf(row);
  if (ratio === null) return '—';
  return `${ratio.toFixed(ratio >= 100 ? 0 : 2)}× ${higherIsBetter(row.unit) ? '↑' : '↓'}`;
}

function formatGoal(goal: Goal | null, unit: Unit): string {
  if (!goal) return '—';
  if (goal.absolute) return `${goal.op === '>=' ? '≥' : '≤'} ${formatValue(goal.ratio, unit)}`;
  return `${goal.op === '>=' ? '≥' : '≤'} ${String(goal.ratio)}${goal.absolute ? '' : '×'}`;
}

function formatMet(row: BenchRow): string {
  if (row.status !== 'ok') return row.status;
  const met = goalMet(row);
  return met === null ? 'n/a' : met ? 'yes' : 'NO';
}

export function renderTable(rows: readonly BenchRow[]): string {
  const header = ['operation', 'svc', 'peer', 'peer value', 'ratio svc/peer', 'goal', 'met?'];
  const body = rows.map((row, i) => [
    `${i + 1}. ${row.operation}`,
    row.status === 'ok' ? formatValue(row.svc, row.unit) : row.svc === null ? row.status : formatValue(row.svc, row.unit),
    row.peer,
    formatValue(row.peerValue, row.unit),
    formatRatio(row),
    formatGoal(row.goal, row.unit),
    formatMet(row),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((r) => [...r[c]!].length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, c) => cell + ' '.repeat(widths[c]! - [...cell].length)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const notes = rows.map((row, i) => (row.note ? `  [${i + 1}] ${row.note}` : null)).filter((n): n is string => n !== null);
  return [
    line(header),
    rule,
    ...body.map(line),
    '',
    "ratio = svc ÷ peer in the row's unit; ↑ higher is better (ops/s), ↓ lower is better (ms, µs, MB). Figures are medians and machine-dependent.",
    ...(notes.length ? ['', 'notes:', ...notes] : []),
  ].join('\n');
}

/**
 * The URL a spawned server announces on stderr ("listening on http://…"); rejects if it exits
 * first or says nothing within 20 s. Its stderr keeps flowing afterwards (it is not buffered).
 */
export function serverStarted(child: ChildProcess): Promise<string> {
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
    child.stderr!.setEncoding('utf8');
    const onData = (chunk: string) => {
      err += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        child.stderr!.off('data', onData);
        child.stderr!.resume();
        resolve(m[1]!);
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
  });
}

/**
 * Connection checkouts and statements sent (each one round trip to the server) by a pg pool from
 * now on: every client is wrapped when it is checked out ('acquire'), so pool.query and a
 * transaction's client.query calls are both counted. Only the driver's types: no import of pg here.
 */
export function countRoundTrips(pool: { on(event: 'acquire', listener: (client: { query: unknown }) => void): unknown }): {
  checkouts: number;
  queries: number;
} {
  const counts = { checkouts: 0, queries: 0 };
  const wrapped = new WeakSet<object>();
  pool.on('acquire', (client) => {
    counts.checkouts += 1;
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = (client.query as (...args: unknown[]) => unknown).bind(client);
    client.query = (...args: unknown[]) => {
      counts.queries += 1;
      return query(...args);
    };
  });
  return counts;
}

/** CPU milliseconds (user + system) a process has used so far (Linux /proc/<pid>/stat), or null elsewhere. */
export function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // After the command: state is field 3, utime field 14, stime field 15 (1-based, man proc).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds of each PostgreSQL backend whose pid `pids` lists (a query over
 * pg_stat_activity), from /proc on this machine's server; null where unknown (another machine's
 * server, no /proc).
 */
export async function backendsCpuMs(pids: () => Promise<{ rows: Array<{ pid: number }> }>): Promise<Map<number, number> | null> {
  const { rows } = await pids();
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = processCpuMs(pid);
    if (ms === null) return null;
    out.set(pid, ms);
  }
  return out;
}

/** `svc serve --port 0 --memory` of the build at `svcBin`, unthrottled and without access log; stderr piped (serverStarted reads it). */
export function startMemoryServe(svcBin: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [svcBin, 'serve', '--port', '0', '--memory'], {
    cwd: path.dirname(path.dirname(svcBin)),
    env: { ...plainEnv(), SVC_RATE_LIMIT_PER_MIN: '1000000', SVC_ACCESS_LOG: 'off', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}
