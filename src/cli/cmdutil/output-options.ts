/**
 * The output options every reporting command takes (--json, --no-color, --quiet, --verbose). Apart
 * from emit.ts so that registering a command (help, completions, the man page) loads nothing of
 * the output itself.
 */
import { Option, type Command } from 'commander';
import { usageError } from './errors.js';

/** `--format`: text (the report), json (as --json), sarif (a SARIF 2.1.0 log, cmd/inspect/sarif.ts). */
export const OUTPUT_FORMATS = ['text', 'json', 'sarif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputOptions {
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
  /** --verbose: the timed trace of the work on stderr once it is done. */
  verbose?: boolean;
  /** false with --no-pager: a long report on a terminal is never paged. */
  pager?: boolean;
  /** --format, where a command offers it (addFormatOption); resolveFormat folds json into `json`. */
  format?: OutputFormat;
}

/** --no-pager, for every command whose report may be long (paging.ts says when one is paged). */
export const NO_PAGER_HELP = 'never page the report (on a terminal, a report taller than the screen goes through less -FRX, SVC_PAGER or PAGER)';

export function addOutputOptions(cmd: Command): Command {
  return cmd
    .option('--json', 'print the result as JSON (the full result object, or a problem object when there is no answer)')
    .option('--no-color', 'never colour the output (NO_COLOR is honoured too)')
    .option('-q, --quiet', 'print no report (--json output and errors still print); rely on the exit code')
    .option('-v, --verbose', 'when done, print the timed trace of the work (each stage, status, duration) on standard error; with --json too, not with --quiet')
    .option('--no-pager', NO_PAGER_HELP);
}

/** --format text|json|sarif, for the commands whose results make a SARIF log (inspect-mcp, inspect-a2a). */
export function addFormatOption(cmd: Command): Command {
  return cmd.addOption(
    new Option('--format <format>', 'text (the report, the default), json (as --json) or sarif (a SARIF 2.1.0 log for code scanning; not with --json)').choices(
      OUTPUT_FORMATS,
    ),
  );
}

/**
 * The format asked for: --format json is --json; --format sarif with --json is a usage error
 * (exit 2: two documents cannot share stdout); --format text with --json is json.
 */
export function resolveFormat<T extends OutputOptions>(options: T): T & { format: OutputFormat } {
  if (options.format === 'sarif' && options.json) throw usageError('--format sarif and --json each print a document of their own: give one of them');
  if (options.format === 'json' || options.json) return { ...options, json: true, format: 'json' };
  return { ...options, format: options.format ?? 'text' };
}
