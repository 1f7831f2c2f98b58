/**
 * What every command that calls a running daemon shares (`svc monitor`, `svc owner`'s operator
 * subcommands, `svc claim`, `svc claims`, `svc directory`): the default URL, named in their help,
 * and their options. Read by the registrations (statically) and by the actions that run them.
 */
export const DEFAULT_DAEMON_URL = 'http://127.0.0.1:8080';

/** --daemon, --json, --quiet, --no-pager. */
export interface DaemonOptions {
  daemon?: string;
  json?: boolean;
  quiet?: boolean;
  /** false with --no-pager. */
  pager?: boolean;
}
