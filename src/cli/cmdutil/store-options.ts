/** Options shared by several commands: the embedded store's file and the egress allowance (their values are read by database.ts and the runtime). */
import { Option, type Command } from 'commander';
import { completeFiles } from './completion.js';

export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** `--db <path|url>`: the database file or PostgreSQL URL; defaults to SVC_DATABASE_URL, else under $XDG_STATE_HOME/svc/ (shared by CLI and daemon). */
export function addDbOption(cmd: Command): Command {
  return completeFiles(cmd.option('--db <path|url>', 'database file or postgres:// URL (default: $SVC_DATABASE_URL, else $XDG_STATE_HOME/svc/svc.db)'), '--db');
}

/**
 * `--egress-allow <cidr>` (repeatable): non-public addresses this run may also fetch from, on
 * top of SVC_EGRESS_ALLOW. `what` names what is fetched there, for the help text.
 */
export function addEgressOption(cmd: Command, what = 'e.g. 10.0.0.0/8 for intranet DIDs'): Command {
  return cmd.option('--egress-allow <cidr>', `also fetch from these non-public addresses (${what}); repeatable, adds to SVC_EGRESS_ALLOW`, collect, []);
}

/**
 * `--allow-network`: verifying from files, also fetch what was not supplied
 * (docs/credentials.md#verify-from-files). Without it, a file option means svc fetches nothing at
 * all.
 */
export function addAllowNetworkOption(cmd: Command): Command {
  return cmd.option('--allow-network', 'with a file option: also fetch what was not supplied (without it svc fetches nothing, and says what it did not see)');
}

/**
 * A repeatable option of two values (`--issuer-document <did> <file>`): commander collects the
 * values of every occurrence in one list (a variadic option, read two by two by the action);
 * help, man page and completions show the two names. `fileValues` completes file names.
 */
export function addPairOption(cmd: Command, long: string, first: string, second: string, description: string): Command {
  const option = new Option(`${long} <${first}-and-${second}...>`, description);
  option.flags = `${long} <${first}> <${second}>`;
  cmd.addOption(option);
  return completeFiles(cmd, long);
}
