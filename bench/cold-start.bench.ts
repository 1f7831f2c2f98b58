/**
 * CLI cold start: wall-clock time of spawning `node bin/svc.js …` to completion, against
 * `node -e 0` (the floor any Node CLI pays). Each command is spawned sequentially, the
 * commands interleaved, after two untimed rounds; the median is reported.
 *
 * Needs the built CLI (dist/cli.js, from `npm run build`); without it the svc rows say
 * "not built". Before timing, one run of each svc command is checked for a sensible answer.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareSpawns, median, plainEnv, type BenchRow, type SpawnSpec } from './lib.js';

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
  const timings = compareSpawns([NODE, ...timed.map((s) => s.spec)], RUNS);
  const nodeTiming = timings[0]!;
  const nodeMs = nodeTiming.failure ? null : median(nodeTiming.ms);

  return svcSpecs.map((s) => {
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
}
