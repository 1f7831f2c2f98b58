/**
 * The output options every reporting command takes (--json, --no-color, --quiet, --verbose). Apart
 * from emit.ts so that registering a command (help, completions, the man page) loads nothing of
 * the output itself.
 */
import type { Command } from 'commander';

export interface OutputOptions {
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
  /** --verbose: the timed trace of the work on stderr once it is done. */
  verbose?: boolean;
  /** false with --no-pager: a long report on a terminal is never paged. */
  pager?: boolean;
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
