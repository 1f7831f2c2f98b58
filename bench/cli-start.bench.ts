/**
 * CLI start-up as a person at a terminal meets it: wall-clock time of
 * `node bin/svc.js resolve <did:key> --json --no-store` next to `node -e 0` (the floor of any
 * Node CLI), without a terminal (pipes) and under a pseudo-terminal (util-linux `script -qec`,
 * whose own cost is in the baseline: `script -qec 'node -e 0'`). Also, informational, the
 * dossier a terminal gets without --json (ink loads). All commands are spawned sequentially and
 * interleaved (a, b, c, …) after two untimed rounds, RUNS times each; rows give the median and
 * the 90th percentile. `--no-store`: the history write is not part of start-up (see
 * cold-start.bench.ts for `resolve` with recording).
 *
 * Needs the built CLI (dist/cli.js); without it the rows say "not built". The TTY rows need
 * `script`; without it they say why. Every svc command is run once first and its output checked.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareSpawns, median, percentile, plainEnv, type BenchRow, type SpawnSpec, type SpawnTiming } from './lib.js';

const RUNS = 20;
/** Ed25519 test vector of the did:key method specification. */
const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const GOAL = { op: '<=' as const, ratio: 2.5 };

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/** The command under a pseudo-terminal with a size, as a user's terminal has. */
function inTty(command: string, args: readonly string[]): SpawnSpec {
  return { command: 'script', args: ['-qec', `stty rows 40 cols 100; ${[command, ...args].map(quote).join(' ')}`, '/dev/null'] };
}

const RESOLVE_ARGS = [bin, 'resolve', DID, '--json', '--no-store'];
const NODE: SpawnSpec = { command: process.execPath, args: ['-e', '0'] };
const RESOLVE: SpawnSpec = { command: process.execPath, args: RESOLVE_ARGS };
const TTY_NODE = inTty(process.execPath, ['-e', '0']);
const TTY_RESOLVE = inTty(process.execPath, RESOLVE_ARGS);
const TTY_DOSSIER = inTty(process.execPath, [bin, 'resolve', DID, '--no-store']);

/** One untimed run whose output is checked; returns why it is unusable, or null. */
function verify(spec: SpawnSpec, check: (stdout: string) => boolean, what: string): string | null {
  const result = spawnSync(spec.command, spec.args, { cwd: root, env: plainEnv(), encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) return result.error.message;
  if (result.status !== 0) {
    const stderr = `${result.stderr ?? ''}${result.stdout ?? ''}`.trim().split('\n')[0] ?? '';
    return `exit ${result.status ?? result.signal}${stderr ? `: ${stderr}` : ''}`;
  }
  return check((result.stdout ?? '').replace(/\r/g, '')) ? null : `${what} printed no document for the DID`;
}

function isResolutionJson(stdout: string): boolean {
  try {
    return (JSON.parse(stdout) as { didDocument?: { id?: unknown } }).didDocument?.id === DID;
  } catch {
    return false;
  }
}

function scriptAvailable(): boolean {
  const probe = spawnSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'ignore', timeout: 10_000 });
  return probe.error === undefined && probe.status === 0;
}

interface Pair {
  label: string;
  svc: SpawnSpec;
  peer: SpawnSpec;
  peerLabel: string;
  goal: BenchRow['goal'];
  /** Why this pair cannot be measured, or null. */
  problem: string | null;
}

export async function run(): Promise<BenchRow[]> {
  const built = existsSync(cli);
  const tty = scriptAvailable();
  const noScript = 'util-linux `script` is not available: no pseudo-terminal to measure under';
  const pairs: Pair[] = [
    {
      label: 'resolve <did:key> --json --no-store, no TTY',
      svc: RESOLVE,
      peer: NODE,
      peerLabel: 'node -e 0',
      goal: GOAL,
      problem: built ? verify(RESOLVE, isResolutionJson, '`resolve --json`') : null,
    },
    {
      label: 'resolve <did:key> --json --no-store, TTY',
      svc: TTY_RESOLVE,
      peer: TTY_NODE,
      peerLabel: "script -qec 'node -e 0'",
      goal: GOAL,
      problem: !tty ? noScript : built ? verify(TTY_RESOLVE, isResolutionJson, '`resolve --json` in a TTY') : null,
    },
    {
      label: 'resolve <did:key> --no-store, TTY (ink dossier)',
      svc: TTY_DOSSIER,
      peer: TTY_NODE,
      peerLabel: "script -qec 'node -e 0'",
      goal: null,
      problem: !tty ? noScript : built ? verify(TTY_DOSSIER, (out) => out.includes(DID) && out.includes('RESOLVED'), 'the dossier') : null,
    },
  ];

  // Every command that can run goes into one interleaved series, each baseline once.
  const specs: SpawnSpec[] = [NODE, ...(tty ? [TTY_NODE] : [])];
  const measured = built ? pairs.filter((p) => p.problem === null) : [];
  specs.push(...measured.map((p) => p.svc));
  const timings = compareSpawns(specs, RUNS);
  const timingOf = (spec: SpawnSpec): SpawnTiming | undefined => timings[specs.indexOf(spec)];

  const rows: BenchRow[] = [];
  for (const pair of pairs) {
    for (const stat of ['median', 'p90'] as const) {
      const figure = stat === 'median' ? median : (ms: number[]) => percentile(ms, 0.9);
      const peerTiming = timingOf(pair.peer);
      const base = {
        operation: `CLI start: ${pair.label}, ${stat} (×${RUNS})`,
        unit: 'ms' as const,
        peer: pair.peerLabel,
        peerValue: peerTiming && !peerTiming.failure ? figure(peerTiming.ms) : null,
        // The goal is on the median; the p90 rows show the tail beside it.
        goal: stat === 'median' ? pair.goal : null,
      };
      if (!built) {
        rows.push({ ...base, svc: null, status: 'not built', note: 'dist/cli.js is missing: run `npm run build` (npm run bench does).' });
        continue;
      }
      const timing = measured.includes(pair) ? timingOf(pair.svc) : undefined;
      const problem = pair.problem ?? timing?.failure ?? peerTiming?.failure ?? null;
      if (problem !== null || !timing || !peerTiming) {
        rows.push({ ...base, svc: null, status: 'error', note: `not measured: ${problem ?? 'unknown failure'}` });
        continue;
      }
      rows.push({
        ...base,
        svc: figure(timing.ms),
        status: 'ok',
        note:
          stat === 'median'
            ? `ratio = svc ms ÷ ${pair.peerLabel} ms${pair.peer === TTY_NODE ? ' (the pseudo-terminal costs both sides alike)' : ''}${pair.goal ? '' : '; informational'}.`
            : `90th percentile of ${RUNS} runs on each side (informational).`,
        samples: { svc: timing.ms, peer: peerTiming.ms },
      });
    }
  }
  return rows;
}
