/**
 * The exit code of a result's checks, and `--allow-warn`: the one place where a WARN check
 * becomes exit 3 (or 1 with --strict; docs/cli.md#exit-codes) — unless the caller has accepted that
 * warning.
 *
 *   --allow-warn <check-id>[,…]   repeatable; each id must be a check of the command (else a usage
 *                                 error, exit 2, listing them). An accepted WARN stays in the result
 *                                 and the report (marked "accepted") but counts toward neither
 *                                 exit 3 nor --strict; a FAIL is never accepted.
 *
 * With --allow-warn, --json adds one top-level member to the result: `acceptedWarnings`, the ids
 * of the checks that did WARN and were accepted, in report order ([] when none did). Without it
 * the result is printed exactly as documented.
 *
 * Static (commands register the option from here): no core import but types.
 */
import type { Command } from 'commander';
import { completeWords } from './completion.js';
import { usageError } from './errors.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { printable } from '../../present/text.js';

export interface Check {
  id: string;
  status: string;
}

/** How WARN checks count: --strict, and the ids --allow-warn accepts. */
export interface WarnPolicy {
  strict?: boolean | undefined;
  accepted?: ReadonlySet<string> | undefined;
}

/** 1 when a check FAILs; 3 when a check WARNs that was not accepted (--strict: 1); else 0. */
export function exitForChecks(checks: readonly Check[], policy: WarnPolicy = {}): ExitCode {
  if (checks.some((c) => c.status === 'FAIL')) return EXIT.CHECK_FAILED;
  if (checks.some((c) => c.status === 'WARN' && !isAccepted(c, policy.accepted))) return policy.strict ? EXIT.CHECK_FAILED : EXIT.INDETERMINATE;
  return EXIT.PASS;
}

/** A WARN check the caller accepted with --allow-warn. */
export function isAccepted(check: Check, accepted: ReadonlySet<string> | undefined): boolean {
  return check.status === 'WARN' && accepted?.has(check.id) === true;
}

/**
 * The result as --json prints it: as is without --allow-warn; with it, `acceptedWarnings` added
 * (the ids of the WARN checks accepted, in report order).
 */
export function withAcceptedWarnings<T extends { checks: readonly Check[] }>(
  result: T,
  accepted: ReadonlySet<string> | undefined,
): T | (T & { acceptedWarnings: string[] }) {
  if (accepted === undefined) return result;
  return { ...result, acceptedWarnings: result.checks.filter((c) => isAccepted(c, accepted)).map((c) => c.id) };
}

/** `--allow-warn <check-id>[,…]` for a command whose checks are `ids` (listed in its help, completed by the shells). */
export function addAllowWarnOption(cmd: Command, ids: readonly string[]): Command {
  cmd.option(
    '--allow-warn <check-id>',
    `accept a known warning: these WARN checks count toward neither exit 3 nor --strict (still reported, marked accepted); comma-separated or repeatable; one of ${ids.join(', ')}`,
    (value: string, previous: string[]) => [...previous, value],
    [],
  );
  completeWords(cmd.options[cmd.options.length - 1]!, () => ids);
  return cmd;
}

/**
 * The ids given to --allow-warn (each value may list several, comma-separated); undefined when
 * the option was not given. An id that is not one of `ids` is a usage error naming the valid ones.
 */
export function parseAllowWarn(values: readonly string[] | undefined, ids: readonly string[], command: string): ReadonlySet<string> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const accepted = new Set<string>();
  for (const value of values) {
    const parts = value.split(',').map((p) => p.trim());
    if (parts.some((p) => p === ''))
      throw usageError(
        `--allow-warn needs check ids separated by commas, not ${JSON.stringify(printable(value.slice(0, 80)))}; the checks of ${command} are ${ids.join(', ')}`,
      );
    for (const id of parts) {
      if (!ids.includes(id))
        throw usageError(`--allow-warn: ${JSON.stringify(printable(id.slice(0, 80)))} is not a check of ${command}; its checks are ${ids.join(', ')}`);
      accepted.add(id);
    }
  }
  return accepted;
}
