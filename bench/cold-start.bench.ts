/**
 * CLI cold start: wall-clock time of spawning `node bin/svc.js …` to completion, against
 * `node -e 0` (the floor any Node CLI pays). Each command is spawned sequentially, the
 * commands interleaved, after two untimed rounds; the median is reported.
 *
 * Needs the built CLI (dist/cli.js, from `npm run build`); without it the svc rows say
 * "not built". Before timing, one run of each svc command is checked for a sensible answer.
 *
 * With SVC_BENCH_BASELINE naming another checkout's built bin/svc.js, its `resolve --json` is
 * spawned in the same interleaved rounds, and a row compares this build with it (a change's
 * before and after on the same machine in the same run):
 *   SVC_BENCH_BASELINE=/tmp/svc-base/bin/svc.js npx tsx bench/run.ts cold-start
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareSpawns, median, plainEnv, type BenchRow, type SpawnSpec, type SpawnTiming } from './lib.js';

const RUNS = 15;
/** Ed25519 test vector of the did:key method specification. */
const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const NODE: SpawnSpec = { command: process.execPath, args: ['-e', '0'] };
const RESOLVE: SpawnSpec = { command: process.execPath, args: [bin, 'resolve', DID, '--json'] };
const VERSION: SpawnSpec = { command: process.execPath, args: [bin, '--version'] };

/** One untimed run whose output is checked; returns why it is unusable, or null. */
function verify(spec: SpawnSpec, check: (stdout: string) => string | null): string | null {
  const result = spawnSync(spec.command, spec.args, { cwd: root, env: plainEnv(), encoding: 'utf8', timeout: 30_000 });
  if (result.error) return result.error.message;
  if (result.status !== 0) {
    const stderr = (result.stderr ?? '').trim().split('\n')[0] ?? '';
    return `exit ${result.status ?? result.signal}${stderr ? `: ${stderr}` : ''}`;
  }
  return check(result.stdout ?? '');
}

function checkResolve(stdout: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return 'stdout of `resolve --json` is not JSON';
  }
  const doc = (parsed as { didDocument?: { id?: unknown } } | null)?.didDocument;
  return doc && doc.id === DID ? null : '`resolve --json` printed no didDocument for the DID';
}

function checkVersion(stdout: string): string | null {
  return /\d+\.\d+\.\d+/.test(stdout) ? null : '`--version` printed no version number';
}

export async function run(): Promise<BenchRow[]> {
  const built = existsSync(cli);
  const baselineBin = process.env['SVC_BENCH_BASELINE'];
  if (baselineBin !== undefined && !existsSync(baselineBin)) throw new Error(`SVC_BENCH_BASELINE=${baselineBin} does not exist`);
  const baseline: SpawnSpec | null = baselineBin ? { command: process.execPath, args: [baselineBin, 'resolve', DID, '--json'] } : null;
  const baselineProblem = baseline ? verify(baseline, checkResolve) : null;
  const svcSpecs: Array<{ operation: string; spec: SpawnSpec; goal: BenchRow['goal']; problem: string | null }> = [
    {
      operation: `CLI cold start: svc resolve <did:key> --json (×${RUNS})`,
      spec: RESOLVE,
      goal: { op: '<=', ratio: 2.0 },
      problem: built ? verify(RESOLVE, checkResolve) : null,
    },
    {
      operation: `CLI cold start: svc --version (×${RUNS})`,
      spec: VERSION,
      goal: null,
      problem: built ? verify(VERSION, checkVersion) : null,
    },
  ];
  const timed = built ? svcSpecs.filter((s) => s.problem === null) : [];
  const withBaseline = baseline !== null && baselineProblem === null && timed.includes(svcSpecs[0]!);
  const timings = compareSpawns([NODE, ...timed.map((s) => s.spec), ...(withBaseline ? [baseline] : [])], RUNS);
  const nodeTiming = timings[0]!;
  const nodeMs = nodeTiming.failure ? null : median(nodeTiming.ms);

  const rows: BenchRow[] = svcSpecs.map((s) => {
    const base = { operation: s.operation, unit: 'ms' as const, peer: 'node -e 0', peerValue: nodeMs, goal: s.goal };
    if (!built) {
      return { ...base, svc: null, status: 'not built' as const, note: 'dist/cli.js is missing: run `npm run build` (npm run bench does).' };
    }
    const index = timed.indexOf(s);
    const timing = index >= 0 ? timings[index + 1]! : null;
    const problem = s.problem ?? timing?.failure ?? nodeTiming.failure;
    if (problem || !timing) {
      return { ...base, svc: null, status: 'error' as const, note: `not measured: ${problem ?? 'unknown failure'}` };
    }
    return {
      ...base,
      svc: median(timing.ms),
      status: 'ok' as const,
      note: s.goal ? 'ratio = svc ms ÷ node -e 0 ms (lower is better).' : 'Informational: no goal; the floor of any svc invocation.',
      samples: { svc: timing.ms, peer: nodeTiming.ms },
    };
  });
  if (baselineBin !== undefined) rows.push(baselineRow(baselineBin, baselineProblem, withBaseline ? timings[1]! : null, withBaseline ? timings.at(-1)! : null));
  return rows;
}

/** This build's `resolve --json` next to the baseline build's, timed in the same rounds. */
function baselineRow(baselineBin: string, problem: string | null, mine: SpawnTiming | null, base: SpawnTiming | null): BenchRow {
  const operation = `CLI cold start: svc resolve <did:key> --json, this build vs a baseline build (×${RUNS})`;
  const peer = `baseline build (${baselineBin})`;
  const failure = problem ?? mine?.failure ?? base?.failure ?? (mine && base ? null : 'this build was not measured');
  if (failure !== null || !mine || !base) {
    return { operation, unit: 'ms', svc: null, peer, peerValue: null, goal: null, status: 'error', note: `not measured: ${failure}` };
  }
  return {
    operation,
    unit: 'ms',
    svc: median(mine.ms),
    peer,
    peerValue: median(base.ms),
    goal: { op: '<=', ratio: 1.1 },
    status: 'ok',
    note: 'ratio = this build ÷ the baseline (lower is better); the goal allows noise, not a regression.',
    samples: { svc: mine.ms, peer: base.ms },
  };
}
