/**
 * `svc config show` and `svc config path`: the settings svc.config.json, the environment and the
 * flags give together, each with where it came from, and where svc looks for the file
 * (cmdutil/config-lookup.ts). The file is read before the command runs, as for every command.
 */
import type { Command } from 'commander';
import { collect } from '../../cmdutil/store-options.js';
import type { CliIo } from '../../cmdutil/io.js';
import type { ConfigPathOptions, ConfigShowOptions } from './options.js';

export function registerConfig(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const config = program
    .command('config')
    .description('Show the settings svc uses and where they come from: svc.config.json, the environment, flags')
    .addHelpText(
      'after',
      `
svc.config.json holds the settings a team shares: each key sets one environment variable, which
the environment, then flags, override. svc reads the first of: --config <file>, $SVC_CONFIG,
$XDG_CONFIG_HOME/svc/config.json, ./svc.config.json. Secrets stay in the environment or in files
of mode 0600 named by path. Keys and an example: docs/configuration.md.

Examples:
  $ svc config show
  $ svc --config team.json config show --json`,
    );

  config
    .command('show')
    .description('Print every setting the config file can set: its value and its origin (default, file, env or flag), secrets redacted')
    .option('--json', 'print {file, searched, settings: [{key, variable, value, origin}]} as JSON')
    .option('--egress-allow <cidr>', 'as the commands take it: adds to egress.allow (SVC_EGRESS_ALLOW)', collect, [])
    .option('--db <path|url>', 'as the commands take it: overrides database.url (SVC_DATABASE_URL)')
    .option('--daemon <url>', 'as the commands take it: overrides daemon.url (SVC_DAEMON_URL)')
    .option('--gateway-port <n>', 'as svc serve takes it: overrides gateway.port (SVC_GATEWAY_PORT)')
    .addHelpText(
      'after',
      `
Each line: a key, its origin and its value ("set (redacted)" for a secret). The origin is default,
file (the config file named in the first line), env or flag; --json names the file's path, the
variable or the flag.

Exit status: 0 shown; 2 the config file is refused, or a usage error.

Examples:
  $ svc config show
  $ svc config show --json | jq '.settings[] | select(.origin != "default")'`,
    )
    .action(async (options: ConfigShowOptions) => (await import('./action.js')).configShowAction(io, setExit, options));

  config
    .command('path')
    .description('Print the config file svc reads (nothing found: where it looked, exit 1)')
    .option('--json', 'print {file, by, searched: [{path, by}]} as JSON')
    .addHelpText(
      'after',
      `
Exit status: 0 found; 1 none found; 2 a file named by --config or SVC_CONFIG is missing.

Examples:
  $ svc config path
  $ $EDITOR "$(svc config path)"`,
    )
    .action(async (options: ConfigPathOptions) => (await import('./action.js')).configPathAction(io, setExit, options));
}
