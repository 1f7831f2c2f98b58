/**
 * How svc says it could not do what was asked: one style for every command and every cause
 * (commander's own parse errors, bad settings, problems, the daemon failing to listen):
 *
 *   svc: CODE: what went wrong, on one line
 *     failed at dns.resolve            (a problem's failing stages, when they add something)
 *     hint: see 'svc resolve --help'
 *
 * CODE is a problem code (INVALID_DID, UPSTREAM_UNAVAILABLE …) or one of the CLI's own below.
 * The first line stands alone: scripts and logs read it with `head -1`. --quiet never hides an
 * error (it hides only the report). A failed check is a result, not an error: it prints its
 * report and exits 1 or 3.
 */
import type { Command } from 'commander';
import type { CliIo } from './io.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { colorLevel, styleFor } from './color.js';
import { printable } from '../../present/text.js';
import type { Style } from './layout.js';

/** The CLI's own codes, beside the problem codes (what each means: CLI_ERROR_GUIDE). */
export const CLI_ERROR_CODES = {
  USAGE_ERROR: 'USAGE_ERROR',
  LISTEN_FAILED: 'LISTEN_FAILED',
  BACKUP_FAILED: 'BACKUP_FAILED',
  OUTPUT_FAILED: 'OUTPUT_FAILED',
  DAEMON_UNREACHABLE: 'DAEMON_UNREACHABLE',
} as const;

/** What each of the CLI's own codes means and the exit code it comes with (docs/reference/problems.md lists them). */
export const CLI_ERROR_GUIDE: Readonly<Record<keyof typeof CLI_ERROR_CODES, { exit: ExitCode; meaning: string }>> = {
  USAGE_ERROR: { exit: EXIT.USAGE, meaning: 'The command line or a setting is wrong.' },
  LISTEN_FAILED: { exit: EXIT.NO_ANSWER, meaning: 'svc serve (or svc webhook listen) could not listen; a host that does not resolve is a USAGE_ERROR.' },
  BACKUP_FAILED: { exit: EXIT.NO_ANSWER, meaning: 'svc backup could not copy the database (nothing is left behind).' },
  OUTPUT_FAILED: { exit: EXIT.NO_ANSWER, meaning: 'The output could not be written; a reader that went away is not an error.' },
  DAEMON_UNREACHABLE: {
    exit: EXIT.NO_ANSWER,
    meaning: 'A command that calls a daemon (svc monitor, svc owner, svc claim, svc claims, svc directory) could not reach it, or the cookie gateway.',
  },
};

/** A stage of a problem's trace, as the problem object carries it. */
export interface ProblemTraceStage {
  stage: string;
  status: string;
  detail: string;
  label?: string;
}

/** The stages an error report shows: only the failing ones, since the rest passed and say nothing new. */
export function failingStages(trace: ProblemTraceStage[] | undefined): ProblemTraceStage[] {
  return (trace ?? []).filter((s) => s.status === 'FAIL');
}

export interface ErrorReport {
  code: string;
  /** One line; made printable here, so it may quote hostile input. */
  detail: string;
  /** Where a problem failed: `failed at` lines between the detail and the hint. */
  stages?: ReadonlyArray<{ stage: string; label?: string; detail?: string }>;
  /** What to read or do next; every usage error names a command's --help. */
  hint: string;
}

/**
 * An error a command reports in the one style, with its exit code (main prints it). A usage
 * error's hint names the running command's --help unless the thrower knows better.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: string,
    detail: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(detail);
  }
}

/** A usage error (exit 2). */
export function usageError(detail: string, hint?: string): CliError {
  return new CliError(CLI_ERROR_CODES.USAGE_ERROR, detail, EXIT.USAGE, hint);
}

/** `svc resolve`: the words that run a command, for hints. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

export function helpHint(path: string): string {
  return `see '${path} --help'`;
}

/**
 * The command each run is in, for the hint: set before its action runs and when commander
 * refuses its command line. Kept per CliIo (one per run), so nothing leaks between runs.
 */
const running = new WeakMap<CliIo, string>();

export function setRunningCommand(io: CliIo, cmd: Command): void {
  running.set(io, commandPath(cmd));
}

/** The running command's words, or just `svc` before one was chosen. */
export function runningCommand(io: CliIo): string {
  return running.get(io) ?? 'svc';
}

/** commander's message (`error: unknown option '--x'\n(Did you mean --y?)`) as one detail line. */
export function commanderDetail(message: string): string {
  return message
    .replace(/^error: /, '')
    .replace(/\s*\n\s*\(Did you mean (.+)\?\)\s*$/s, ' (did you mean $1?)')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** The error block, exactly as written to stderr. */
export function errorText(report: ErrorReport, style: Style): string {
  const lines = [`svc: ${style.bold(style.red(report.code))}: ${printable(report.detail)}`];
  for (const s of report.stages ?? []) {
    lines.push(`  ${style.dim('failed at')} ${style.cyan(printable(s.label ? `${s.stage} (${s.label})` : s.stage))}`);
    // The failing stage usually repeats the error's own detail; shown only when it adds something.
    if (s.detail && s.detail !== report.detail) lines.push(`    ${style.dim(printable(s.detail))}`);
  }
  lines.push(`  ${style.dim('hint:')} ${printable(report.hint)}`);
  return `${lines.join('\n')}\n`;
}

/** Colours for stderr, decided for stderr itself (chalk loads only when they are on). */
function stderrStyle(io: CliIo, noColor: boolean): Promise<Style> {
  return styleFor(colorLevel(io.stderr, io.env, noColor));
}

/** The one function that writes an error to stderr. */
export async function reportError(io: CliIo, report: ErrorReport, options: { noColor?: boolean } = {}): Promise<void> {
  io.stderr.write(errorText(report, await stderrStyle(io, options.noColor === true)));
}
