/** Runs the built CLI (bin/svc.js → dist/cli.js) as a real process, as users and CI do. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';

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

/**
 * Environment without the caller's colour, width and pager settings, so tests decide them; state
 * in a test directory. No pager (SVC_PAGER=cat): a report taller than a test's pseudo-terminal
 * would otherwise wait in less for a key (test/integration/cli-pager.test.ts asks for one).
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    COLUMNS: undefined,
    TERM: 'xterm-256color',
    CI: undefined,
    XDG_STATE_HOME: testStateHome,
    SVC_DATABASE_URL: undefined,
    PAGER: undefined,
    SVC_PAGER: 'cat',
    ...extra,
  };
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

/** An error block as `parseCliError` reads it (src/cli/cmdutil/errors.ts writes it). */
export interface CliErrorBlock {
  /** A problem code (INVALID_DID …) or the CLI's own (USAGE_ERROR, LISTEN_FAILED …). */
  code: string;
  /** The rest of the first line, after `svc: CODE: `. */
  detail: string;
  /** Each `  failed at <stage> (<label>)` line's `<stage> (<label>)`, in order. */
  failedAt: string[];
  /** `<stage> (<label>): <its detail>` for each stage whose own detail is written under it. */
  stageDetails: string[];
  /** The `  hint: …` line's text, after `hint: `. */
  hint: string;
}

const ERROR_FIRST_LINE = /^svc: ([A-Z][A-Z0-9_]*): (\S.*)$/;
const ERROR_FAILED_AT = /^ {2}failed at (\S.*)$/;
// A failing stage's own detail, written under its `failed at` line only when it differs from the error's.
const ERROR_STAGE_DETAIL = /^ {4}(\S.*)$/;
const ERROR_HINT = /^ {2}hint: (\S.*)$/;
const STACK_FRAME = /^\s+at \S/;

/**
 * Reads stderr as exactly one error block in the CLI's one error style, and throws (failing the
 * test) on anything else:
 *
 *   svc: CODE: one-line detail
 *     failed at <stage> (<label>)       zero or more
 *     hint: …                           exactly one, last
 *
 * Nothing else: no other line before or after (not even a blank one; the one newline that ends
 * the block may be there or stripped, as svc() strips it), no colour, no stack trace. A `failed at` line may carry its stage's own detail on the next line, indented by four
 * (errors.ts writes it only when it differs from the error's detail); those are returned apart.
 */
export function parseCliError(stderr: string): CliErrorBlock {
  const fail = (why: string): never => {
    throw new Error(`stderr is not one svc error block (${why}):\n${JSON.stringify(stderr)}`);
  };
  if (/\u001b|\r/.test(stderr)) fail('escape sequences or carriage returns');
  // The CLI ends the block with one newline; svc() (execa) strips it, a raw capture keeps it.
  const lines = (stderr.endsWith('\n') ? stderr.slice(0, -1) : stderr).split('\n');
  const first = ERROR_FIRST_LINE.exec(lines[0] ?? '') ?? fail('the first line is not `svc: CODE: detail`');
  const last = ERROR_HINT.exec(lines.at(-1) ?? '');
  if (lines.length < 2 || !last) fail('the last line is not `  hint: …`');
  const failedAt: string[] = [];
  const stageDetails: string[] = [];
  let afterStage = false;
  for (const line of lines.slice(1, -1)) {
    if (STACK_FRAME.test(line)) fail('a stack trace');
    const stage = ERROR_FAILED_AT.exec(line);
    const detail = ERROR_STAGE_DETAIL.exec(line);
    if (stage) failedAt.push(stage[1]!);
    else if (detail && afterStage) stageDetails.push(`${failedAt.at(-1)!}: ${detail[1]!}`);
    else fail(`unexpected line ${JSON.stringify(line)}`);
    afterStage = stage !== null;
  }
  return { code: first[1]!, detail: first[2]!, failedAt, hint: last![1]!, stageDetails };
}

/** Exactly one JSON document on stdout (stderr shown when it is not). */
export function onlyJson(r: Run): any {
  expect(r.stdout.trimEnd().startsWith('{'), r.stderr).toBe(true);
  return JSON.parse(r.stdout);
}

/**
 * A usage error: exit 2, nothing on stdout, and the one error block with code USAGE_ERROR, its
 * detail matching `detail`; with `command`, the hint names that command's --help.
 */
export function expectUsageError(r: Run, detail: RegExp, command?: string): CliErrorBlock {
  expect({ exitCode: r.exitCode, stdout: r.stdout }, r.stderr).toEqual({ exitCode: 2, stdout: '' });
  const error = parseCliError(r.stderr);
  expect(error.code).toBe('USAGE_ERROR');
  expect(error.detail).toMatch(detail);
  if (command !== undefined) expect(error.hint).toBe(`see 'svc ${command} --help'`);
  return error;
}
