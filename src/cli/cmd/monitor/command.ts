/**
 * `svc monitor`: the operator monitoring routes of a running daemon (`svc serve` with
 * SVC_ADMIN_TOKEN), from the command line, through the TypeScript client (loaded only when one runs: action.ts).
 *
 *   watch add <did> <webhookUrl>   POST /v1/monitoring/watches (the secret is printed this once)
 *   watch list                     GET /v1/monitoring/watches
 *   watch rm <id>                  DELETE /v1/monitoring/watches/{id}
 *   watch check <id>               POST /v1/monitoring/watches/{id}/check
 *   events [--watch <id>]          GET /v1/monitoring/events
 *   replay <evt_id>                POST /v1/monitoring/events/{id}/replay
 *   replay --watch <id> --since <instant>   POST /v1/monitoring/watches/{id}/replay
 *   status                         GET /v1/monitoring/status
 *
 * The token comes from SVC_ADMIN_TOKEN only (a command-line argument shows in `ps`) and is never
 * printed. Exit: 0 done; 2 usage (no token, a bad URL or interval); 4 the daemon could not be
 * reached or answered a problem (`svc: CODE: detail`, the problem object on stdout with --json).
 */
import type { Command } from 'commander';
import { NO_PAGER_HELP } from '../../cmdutil/output-options.js';
import { DEFAULT_DAEMON_URL, type DaemonOptions } from '../../cmdutil/daemon-options.js';
import type { CliIo } from '../../cmdutil/io.js';

const EXIT_STATUS = `Exit status: 0 done; 2 a usage error (no SVC_ADMIN_TOKEN, a bad --daemon or option, or the daemon's
INVALID_OPTIONS); 4 the daemon could not be reached or answered another problem (UNAUTHORIZED, NOT_FOUND,
MONITORING_DISABLED …).`;

const ENVIRONMENT_NOTE = `The operator token is read from SVC_ADMIN_TOKEN only, never from the command line
(arguments show in ps), and is never printed. The daemon is --daemon, else SVC_DAEMON_URL,
else ${DEFAULT_DAEMON_URL}.`;

function daemonOptions(cmd: Command, json: string): Command {
  return cmd
    .option('--daemon <url>', `the daemon's URL (default: $SVC_DAEMON_URL, else ${DEFAULT_DAEMON_URL})`)
    .option('--json', json)
    .option('-q, --quiet', 'print nothing on success (--json output and errors still print); rely on the exit code')
    .option('--no-pager', NO_PAGER_HELP)
    .addHelpText('after', `\n${EXIT_STATUS}`);
}

export function registerMonitor(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const monitor = program
    .command('monitor')
    .helpCommand(false)
    .description('Operator monitoring on a running daemon: watch DIDs, post their changes to a webhook, list the events')
    .addHelpText(
      'after',
      `
${ENVIRONMENT_NOTE}

${EXIT_STATUS}

A watch's id is a number (watch add prints it, watch list lists them); events are evt_<n>.
To see deliveries on this machine: svc webhook listen --tls (svc help webhook).

Examples:
  $ export SVC_ADMIN_TOKEN=...   # the token the daemon was started with (24+ characters)
  $ svc monitor watch add did:web:example.com https://hooks.example/svc --interval 600
  $ svc monitor watch list
  $ svc monitor watch check 1
  $ svc monitor events --watch 1 --json
  $ svc monitor replay evt_42
  $ svc monitor replay --watch 1 --since 2026-11-01T00:00:00Z
  $ svc monitor status --daemon http://10.0.0.5:8080
  $ svc monitor watch rm 1`,
    );

  const watch = monitor
    .command('watch')
    .helpCommand(false)
    .description('Add, list, check and remove watches')
    .addHelpText(
      'after',
      `\n${EXIT_STATUS}\n\nExamples:\n  $ svc monitor watch add did:web:example.com https://hooks.example/svc\n  $ svc monitor watch list --json`,
    );

  daemonOptions(
    watch
      .command('add')
      .description('Watch a DID: its changes are posted, signed, to webhookUrl; prints the signing secret once')
      .argument('<did>', 'the DID to watch')
      .argument('<webhookUrl>', 'an https URL the daemon may reach (its egress policy applies)')
      .option('--interval <seconds>', 'seconds between checks (the daemon accepts 60..86400; default 3600)'),
    "print the daemon's answer, {watch, secret, note}, as JSON",
  )
    .addHelpText(
      'after',
      `
The secret (whsec_…) signs every delivery of this watch and is shown only in this answer: keep it
(svc webhook listen reads it from SVC_WEBHOOK_SECRET). With -q only the secret is printed.

Examples:
  $ svc monitor watch add did:web:example.com https://hooks.example/svc --interval 600
  $ SECRET=$(svc monitor watch add did:web:example.com https://hooks.example/svc -q)`,
    )
    .action(async (did: string, webhookUrl: string, options: DaemonOptions & { interval?: string }) =>
      (await import('./action.js')).watchAddAction(io, setExit, did, webhookUrl, options),
    );

  daemonOptions(
    watch.command('list').description('List the active watches (webhook URLs redacted, never a secret)'),
    "print the daemon's answer, {watches}, as JSON",
  )
    .addHelpText('after', "\nExamples:\n  $ svc monitor watch list\n  $ svc monitor watch list --json | jq -r '.watches[].id'")
    .action(async (options: DaemonOptions) => (await import('./action.js')).watchListAction(io, setExit, options));

  daemonOptions(
    watch.command('rm').alias('remove').description('Stop a watch (its queued events are cancelled)').argument('<id>', 'the watch id (svc monitor watch list)'),
    'print {id, deleted: true} as JSON (the daemon answers no body)',
  )
    .addHelpText('after', '\nAn unknown id is NOT_FOUND (exit 4).\n\nExamples:\n  $ svc monitor watch rm 1')
    .action(async (id: string, options: DaemonOptions) => (await import('./action.js')).watchRemoveAction(io, setExit, id, options));

  daemonOptions(
    watch.command('check').description('Check a watch now, as the poller does').argument('<id>', 'the watch id (svc monitor watch list)'),
    "print the daemon's answer, {eventId, changed, delivery}, as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc monitor watch check 1')
    .action(async (id: string, options: DaemonOptions) => (await import('./action.js')).watchCheckAction(io, setExit, id, options));

  daemonOptions(
    monitor.command('events').description('List the monitor events and their delivery state, newest first').option('--watch <id>', "only this watch's events"),
    "print the daemon's answer, {events}, as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc monitor events\n  $ svc monitor events --watch 1 --json')
    .action(async (options: DaemonOptions & { watch?: string }) => (await import('./action.js')).eventsAction(io, setExit, options));

  daemonOptions(
    monitor
      .command('replay')
      .description('Deliver a dead-lettered or cancelled event again (same id and bytes, five fresh attempts); never done automatically')
      .argument('[eventId]', 'the event to replay: evt_<n> (svc monitor events lists them)')
      .option('--watch <id>', 'replay every dead letter of this watch instead (needs --since)')
      .option('--since <instant>', 'with --watch: only events created at or after this RFC 3339 instant (seconds and an offset)'),
    "print the daemon's answer, {event} or {replayed, count}, as JSON",
  )
    .addHelpText(
      'after',
      `
Only DEAD_LETTER or CANCELLED events are replayed, of an active watch whose webhook is enabled;
anything else is the daemon's CONFLICT (exit 4) with a line naming the state and the fix (an event
still on its way, a removed watch, a webhook the receiver disabled: re-enable it first). The event
keeps its id and envelope bytes, so receivers that deduplicate on the id see it once. svc never
replays by itself: a dead letter stays one until an operator runs this.

Examples:
  $ svc monitor replay evt_42
  $ svc monitor replay --watch 1 --since 2026-11-01T00:00:00Z
  $ svc monitor replay --watch 1 --since 2026-11-01T00:00:00Z --json | jq -r '.replayed[]'`,
    )
    .action(async (eventId: string | undefined, options: DaemonOptions & { watch?: string; since?: string }) =>
      (await import('./action.js')).replayAction(io, setExit, eventId, options),
    );

  daemonOptions(monitor.command('status').description('Show the gauges of the monitoring tables (counts and limits)'), "print the daemon's answer as JSON")
    .addHelpText('after', '\nExamples:\n  $ svc monitor status\n  $ svc monitor status --json')
    .action(async (options: DaemonOptions) => (await import('./action.js')).statusAction(io, setExit, options));
}
