/**
 * `svc monitor`: the operator monitoring routes of a running daemon (`svc serve` with
 * SVC_ADMIN_TOKEN), from the command line, through the TypeScript client (loaded only when one runs: action.ts).
 *
 *   watch add <did> <webhookUrl>   POST /v1/monitoring/watches (the secret is printed this once);
 *     --mcp <url> | --a2a <url>    an MCP endpoint or A2A card instead of the DID, --baseline <file>
 *   watch list                     GET /v1/monitoring/watches
 *   watch rm <id>                  DELETE /v1/monitoring/watches/{id}
 *   watch check <id>               POST /v1/monitoring/watches/{id}/check
 *   watch enable-webhook <id>      POST /v1/monitoring/watches/{id}/webhook (after a 410 Gone; --url: a new URL)
 *   events [--watch <id>]          GET /v1/monitoring/events
 *   attempts <evt_id>              GET /v1/monitoring/events/{id}/attempts
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
import { RETRY_AFTER_CAP_SECONDS } from '../../../core/monitoring/delivery-limits.js';

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
    .description('Operator monitoring on a running daemon: watch DIDs, MCP endpoints and A2A cards, post their changes to a webhook, list the events')
    .addHelpText(
      'after',
      `
${ENVIRONMENT_NOTE}

${EXIT_STATUS}

A watch's id is a number (watch add prints it, watch list lists them); events are evt_<n>.
To see deliveries on this machine: svc webhook listen --tls (svc help webhook).
Besides changes of the DID, a watch reports its host's TLS certificate:
tls.certificate.expiring once at each of the daemon's SVC_TLS_EXPIRY_DAYS
(30, 14, 3 days before expiry by default), tls.certificate.changed when the
certificate is replaced.

Examples:
  $ export SVC_ADMIN_TOKEN=...   # the token the daemon was started with (24+ characters)
  $ svc monitor watch add did:web:example.com https://hooks.example/svc --interval 600
  $ svc monitor watch add --mcp https://tools.example/mcp https://hooks.example/svc
  $ svc monitor watch list
  $ svc monitor watch check 1
  $ svc monitor events --watch 1 --json
  $ svc monitor attempts evt_12
  $ svc monitor watch enable-webhook 1 --url https://hooks.example/svc-new
  $ svc monitor replay evt_42
  $ svc monitor replay --watch 1 --since 2026-11-01T00:00:00Z
  $ svc monitor status --daemon http://10.0.0.5:8080
  $ svc monitor watch rm 1`,
    );

  const watch = monitor
    .command('watch')
    .helpCommand(false)
    .description('Add, list, check and remove watches; enable a webhook a receiver disabled')
    .addHelpText(
      'after',
      `\n${EXIT_STATUS}\n\nExamples:\n  $ svc monitor watch add did:web:example.com https://hooks.example/svc\n  $ svc monitor watch list --json`,
    );

  daemonOptions(
    watch
      .command('add')
      .usage('[options] <did> <webhookUrl> | --mcp <url> <webhookUrl> | --a2a <url> <webhookUrl>')
      .description(
        'Watch a DID, an MCP endpoint (--mcp) or an A2A agent card (--a2a): changes are posted, signed, to webhookUrl; prints the signing secret once',
      )
      .argument('[did]', 'the DID to watch (leave it out with --mcp or --a2a)')
      .argument('[webhookUrl]', 'an https URL the daemon may reach (its egress policy applies)')
      .option('--mcp <url>', "watch this Streamable HTTP MCP endpoint's tools, prompts and resources instead of a DID")
      .option('--a2a <url>', "watch this A2A agent's card (its origin or the card's URL) instead of a DID")
      .option('--baseline <file>', 'with --mcp or --a2a: the approved baseline file (svc mcp approve / svc a2a approve) the first check compares with')
      .option('--interval <seconds>', 'seconds between checks (the daemon accepts 60..86400; default 3600)'),
    "print the daemon's answer, {watch, secret, note}, as JSON",
  )
    .addHelpText(
      'after',
      `
The secret (whsec_…) signs every delivery of this watch and is shown only in this answer: keep it
(svc webhook listen reads it from SVC_WEBHOOK_SECRET). With -q only the secret is printed.

An MCP watch inspects the endpoint's inventory at each check and posts mcp.inventory.changed
(items added, removed or changed, with the fields that changed); an A2A watch inspects the card
and posts a2a.card.changed (skills, interfaces, signing keys, signature status). Without
--baseline the first check is the baseline; with it, the first check compares with the entry the
file approved from this endpoint or card (a difference is an event at once). A failed inspection
posts …inspection.failed once, and …inspection.recovered when it answers again.

Examples:
  $ svc monitor watch add did:web:example.com https://hooks.example/svc --interval 600
  $ SECRET=$(svc monitor watch add did:web:example.com https://hooks.example/svc -q)
  $ svc monitor watch add --mcp https://tools.example/mcp https://hooks.example/svc
  $ svc mcp approve https://tools.example/mcp --baseline mcp-baseline.json
  $ svc monitor watch add --mcp https://tools.example/mcp --baseline mcp-baseline.json https://hooks.example/svc
  $ svc monitor watch add --a2a https://agent.example https://hooks.example/svc`,
    )
    .action(
      async (
        first: string | undefined,
        second: string | undefined,
        options: DaemonOptions & { interval?: string; mcp?: string; a2a?: string; baseline?: string },
      ) => (await import('./action.js')).watchAddAction(io, setExit, first, second, options),
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
    watch
      .command('enable-webhook')
      .description("Enable a watch's webhook again after its receiver answered 410 Gone (optionally at a new URL)")
      .argument('<id>', 'the watch id (svc monitor watch list)')
      .option('--url <url>', 'a new https webhook URL in place of the old one (the egress policy checks it, as at registration)'),
    "print the daemon's answer, {watch}, as JSON",
  )
    .addHelpText(
      'after',
      `
A receiver that answers 410 Gone disables its watch's webhook: the watch is still checked, but its
events are kept CANCELLED and nothing is sent (watch list shows the webhook as disabled). This
enables it again; events from the next check on are delivered. The signing secret stays.

Examples:
  $ svc monitor watch enable-webhook 1
  $ svc monitor watch enable-webhook 1 --url https://hooks.example/svc-new --json`,
    )
    .action(async (id: string, options: DaemonOptions & { url?: string }) => (await import('./action.js')).watchEnableWebhookAction(io, setExit, id, options));

  daemonOptions(
    monitor.command('events').description('List the monitor events and their delivery state, newest first').option('--watch <id>', "only this watch's events"),
    "print the daemon's answer, {events}, as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc monitor events\n  $ svc monitor events --watch 1 --json')
    .action(async (options: DaemonOptions & { watch?: string }) => (await import('./action.js')).eventsAction(io, setExit, options));

  daemonOptions(
    monitor
      .command('attempts')
      .description("List an event's delivery attempts: the receiver's answer, the decision and why")
      .argument('<evt_id>', 'the event id, evt_<n> (svc monitor events)'),
    "print the daemon's answer, {eventId, attempts}, as JSON",
  )
    .addHelpText(
      'after',
      `
Each attempt says when it was sent, the receiver's HTTP status, the decision (DELIVERED, RETRY,
DEAD_LETTER, WEBHOOK_DISABLED after a 410 Gone, CANCELLED when nothing was sent) and one line of
detail: a redirect not followed, a Retry-After honoured or capped at ${RETRY_AFTER_CAP_SECONDS} s.
An unknown event is NOT_FOUND (exit 4).

Examples:
  $ svc monitor attempts evt_12
  $ svc monitor attempts evt_12 --json | jq '.attempts[].decision'`,
    )
    .action(async (eventId: string, options: DaemonOptions) => (await import('./action.js')).attemptsAction(io, setExit, eventId, options));

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
