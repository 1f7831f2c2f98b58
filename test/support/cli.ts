/** Runs the built CLI (bin/svc.js → dist/cli.js) as a real process, as users and CI do. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { execa } from 'execa';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const svcBin = path.join(repoRoot, 'bin/svc.js');

export function assertBuilt(): void {
  if (!existsSync(path.join(repoRoot, 'dist/cli.js'))) {
    throw new Error('dist/cli.js is missing: run `npm run build` (npm test does it first)');
  }
}

/**
 * The state directory of this test process's CLI runs: `svc resolve` records observations under
 * $XDG_STATE_HOME/svc/, never in the user's own history. Removed when the process exits.
 */
export const testStateHome = mkdtempSync(path.join(tmpdir(), 'svc-cli-state-'));
process.on('exit', () => rmSync(testStateHome, { recursive: true, force: true }));

/** Environment without the caller's colour settings, so tests decide them; state in a test directory. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm-256color', CI: undefined, XDG_STATE_HOME: testStateHome, ...extra };
}

export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

function asRun(r: { exitCode?: number | undefined; stdout: unknown; stderr: unknown }): Run {
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

export async function svc(args: string[], env: Record<string, string | undefined> = cleanEnv(), nodeArgs: string[] = []): Promise<Run> {
  return asRun(
    await execa(process.execPath, [...nodeArgs, svcBin, ...args], { reject: false, env, extendEnv: true, cwd: repoRoot, timeout: 20_000 }),
  );
}

/** Node flags that make any import of ink or react throw (see forbid-ink.mjs). */
export const FORBID_INK = ['--import', path.join(repoRoot, 'test/support/forbid-ink.mjs')];

/**
 * Runs the CLI under a pseudo-terminal (util-linux `script`) so stdout is a real TTY. The
 * terminal gets a size, as a user's has; `rows = 0` tests the size-less case.
 */
export async function svcInTty(
  args: string[],
  env: Record<string, string | undefined> = cleanEnv(),
  size: { rows: number; cols: number } = { rows: 40, cols: 100 },
  nodeArgs: string[] = [],
): Promise<Run> {
  const quoted = [process.execPath, ...nodeArgs, svcBin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const command = `stty rows ${size.rows} cols ${size.cols}; ${quoted}`;
  return asRun(
    await execa('script', ['-qec', command, '/dev/null'], {
      reject: false,
      env,
      extendEnv: true,
      cwd: repoRoot,
      timeout: 20_000,
    }),
  );
}

export const ANSI_COLOR = /\u001b\[(?:3[0-9]|9[0-7]|38;)/;
