/**
 * `svc monitor`: the operator monitoring routes of a running daemon (`svc serve` with
 * SVC_ADMIN_TOKEN), from the command line, through the TypeScript client (loaded only here).
 *
 *   watch add <did> <webhookUrl>   POST /v1/monitoring/watches (the secret is printed this once)
 *   watch list                     GET /v1/monitoring/watches
 *   watch rm <id>                  DELETE /v1/monitoring/watches/{id}
 *   watch check <id>               POST /v1/monitoring/watches/{id}/check
 *   events [--watch <id>]          GET /v1/monitoring/events
 *   status                         GET /v1/monitoring/status
 *
 * The token comes from SVC_ADMIN_TOKEN only (a command-line argument shows in `ps`) and is never
 * printed. Exit: 0 done; 2 usage (no token, a bad URL or interval); 4 the daemon could not be
 * reached or answered a problem (`svc: CODE: detail`, the problem object on stdout with --json).
 */
import type { Command } from 'commander';
import type { MonitorEvent, MonitoringStatus, SvcClient, Watch, WatchCheck, WatchCreated } from '../../client/index.js';
import { ConfigError } from '../../runtime/node.js';
import { CLI_ERROR_CODES, CliError, helpHint, runningCommand, usageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { printable } from '../output/dossier.js';

export const DEFAULT_DAEMON_URL = 'http://127.0.0.1:8080';
/** Time limit of one call to the daemon (a check resolves the DID afresh). */
const CALL_TIMEOUT_MS = 60_000;

export interface MonitorOptions {
  daemon?: string;
  json?: boolean;
  quiet?: boolean;
}

const TOKEN_HINT = "export SVC_ADMIN_TOKEN=<the daemon's operator token> (never on the command line: arguments show in ps)";

/** --daemon, else SVC_DAEMON_URL, else the default; an http(s) URL or a usage error. */
export function daemonUrl(option: string | undefined, env: NodeJS.ProcessEnv): string {
  const fromEnv = env['SVC_DAEMON_URL']?.trim() || undefined;
  const value = option ?? fromEnv ?? DEFAULT_DAEMON_URL;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
    const what = `an http(s) URL of the daemon without credentials, such as ${DEFAULT_DAEMON_URL}, not ${printable(value.slice(0, 80))}`;
    if (option !== undefined) throw usageError(`--daemon must be ${what}`);
    throw new ConfigError(`SVC_DAEMON_URL must be ${what}`);
  }
  return value.replace(/\/+$/, '');
}

function adminToken(env: NodeJS.ProcessEnv): string {
  const token = env['SVC_ADMIN_TOKEN'] ?? '';
  if (token === '') throw usageError("no operator token: svc monitor reads it from SVC_ADMIN_TOKEN (the daemon's own)", TOKEN_HINT);
  // The client refuses such a token too; said here without quoting it.
  if (!/^[\x21-\x7e]+$/.test(token)) throw usageError('SVC_ADMIN_TOKEN must be visible ASCII characters without spaces', TOKEN_HINT);
  return token;
}

function interval(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = /^[0-9]{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(value > 0)) throw usageError(`--interval must be a whole number of seconds, not ${printable(text.slice(0, 32))}`);
  return value;
}

/** The daemon's failure as the CLI reports it: exit 4, the problem on stdout with --json. */
export async function daemonFailure(io: CliIo, err: unknown, base: string, json: boolean): Promise<never> {
  const { SvcError, CLIENT_NETWORK_ERROR } = await import('../../client/index.js');
  if (!(err instanceof SvcError)) throw err;
  if (err.code === CLIENT_NETWORK_ERROR) {
    throw new CliError(
      CLI_ERROR_CODES.DAEMON_UNREACHABLE,
      `cannot reach the daemon at ${base}: ${err.detail}`,
      EXIT.NO_ANSWER,
      'is svc serve running there? --daemon or SVC_DAEMON_URL name another',
    );
  }
  if (json && err.problem) io.stdout.write(`${JSON.stringify(err.problem, null, 2)}\n`);
  const hint =
    err.code === 'UNAUTHORIZED'
      ? "SVC_ADMIN_TOKEN must be the daemon's own operator token"
      : err.code === 'MONITORING_DISABLED'
        ? 'start the daemon with SVC_ADMIN_TOKEN set (24 characters at least)'
        : helpHint(runningCommand(io));
  throw new CliError(err.code, err.detail || err.title || `the daemon answered ${err.status}`, EXIT.NO_ANSWER, hint);
}

/**
 * Runs one call against the daemon and prints its answer (the JSON, or `text`); the exit code is
 * `exitOf(value)` (0 by default). `operator`: the call needs SVC_ADMIN_TOKEN (the monitoring
 * routes); the public routes (claims, directory) are called without it.
 */
export async function withDaemon<T>(
  io: CliIo,
  options: MonitorOptions,
  setExit: (code: number) => void,
  call: (client: SvcClient) => Promise<T>,
  text: (value: T) => string,
  { operator = true, exitOf = () => EXIT.PASS }: { operator?: boolean; exitOf?: (value: T) => number } = {},
): Promise<void> {
  const base = daemonUrl(options.daemon, io.env);
  const token = operator ? adminToken(io.env) : undefined;
  const { SvcClient } = await import('../../client/index.js');
  const client = new SvcClient({ baseUrl: base, ...(token === undefined ? {} : { adminToken: token }), timeoutMs: CALL_TIMEOUT_MS });
  let value: T;
  try {
    value = await call(client);
  } catch (err) {
    return daemonFailure(io, err, base, options.json === true);
  }
  if (options.json) io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (!options.quiet) io.stdout.write(text(value));
  setExit(exitOf(value));
}

/** Columns of printable cells, each as wide as its widest, the last one unpadded. */
export function table(header: string[], rows: string[][]): string {
  const cells = [header, ...rows.map((r) => r.map((c) => printable(c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}

function watchLines(watch: Watch): string[] {
  return [
    `watch     ${printable(watch.id)}`,
    `did       ${printable(watch.did)}`,
    `webhook   ${printable(watch.webhook)}`,
    `interval  ${watch.intervalSeconds} s`,
    `created   ${printable(watch.createdAt)}`,
  ];
}

export function watchCreatedText(created: WatchCreated): string {
  return [
    ...watchLines(created.watch),
    `secret    ${printable(created.secret)}`,
    '',
    'The secret is shown only now: the daemon never lists it again. Keep it where your receiver',
    'reads it (svc webhook listen reads SVC_WEBHOOK_SECRET); each delivery is signed with it.',
    '',
  ].join('\n');
}

export function watchListText(watches: readonly Watch[]): string {
  if (watches.length === 0) return 'no watches\n';
  return table(
    ['ID', 'DID', 'INTERVAL', 'LAST CHECKED', 'LAST STATUS', 'WEBHOOK'],
    watches.map((w) => [w.id, w.did, `${w.intervalSeconds}s`, w.lastCheckedAt ?? 'never', w.lastStatus ?? '-', w.webhook]),
  );
}

export function watchCheckText(id: string, check: WatchCheck): string {
  if (!check.changed) return `watch ${printable(id)} checked: no change, nothing to deliver (a watch's first check only records its baseline)\n`;
  const event = check.eventId === null ? 'an event' : `event ${printable(check.eventId)}`;
  return `watch ${printable(id)} checked: changed, ${event} ${check.delivery === 'queued' ? 'queued for delivery' : 'recorded'}\n`;
}

export function eventsText(events: readonly MonitorEvent[]): string {
  if (events.length === 0) return 'no events\n';
  return table(
    ['ID', 'CREATED', 'TYPE', 'DELIVERY', 'ATTEMPTS', 'WATCH', 'DID'],
    events.map((e) => [e.id, e.createdAt, e.eventType, e.deliveryStatus, String(e.attempts), e.watchId, e.did]),
  );
}

export function statusText(status: MonitoringStatus): string {
  const byStatus = Object.entries(status.eventsByStatus)
    .map(([name, count]) => `${name.toLowerCase()} ${count}`)
    .join(', ');
  return [
    `watches         ${status.watches} of ${status.watchLimit}`,
    `events          ${status.events} of ${status.eventLimit} (${byStatus})`,
    `due deliveries  ${status.dueDeliveries}`,
    `expired leases  ${status.expiredLeases}`,
    `event payloads  ${status.eventPayloadBytes} bytes (one event at most ${status.eventPayloadLimitBytes})`,
    '',
  ].join('\n');
}

const EXIT_STATUS = `Exit status: 0 done; 2 a usage error (no SVC_ADMIN_TOKEN, a bad --daemon or option); 4 the
daemon could not be reached or answered a problem (UNAUTHORIZED, NOT_FOUND, MONITORING_DISABLED …).`;

const ENVIRONMENT_NOTE = `The operator token is read from SVC_ADMIN_TOKEN only, never from the command line
(arguments show in ps), and is never printed. The daemon is --daemon, else SVC_DAEMON_URL,
else ${DEFAULT_DAEMON_URL}.`;

function daemonOptions(cmd: Command, json: string): Command {
  return cmd
    .option('--daemon <url>', `the daemon's URL (default: $SVC_DAEMON_URL, else ${DEFAULT_DAEMON_URL})`)
    .option('--json', json)
    .option('-q, --quiet', 'print nothing on success (--json output and errors still print); rely on the exit code')
    .addHelpText('after', `\n${EXIT_STATUS}`);
}

export function registerMonitor(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const monitor = program
    .command('monitor')
    .helpCommand(false)
    .description("Operator monitoring on a running daemon: watch DIDs, post their changes to a webhook, list the events")
    .addHelpText(
      'after',
      `
${ENVIRONMENT_NOTE}

${EXIT_STATUS}

Examples:
  $ export SVC_ADMIN_TOKEN=...   # the token the daemon was started with (24+ characters)
  $ svc monitor watch add did:web:example.com https://hooks.example/svc --interval 600
  $ svc monitor watch list
  $ svc monitor watch check w_1
  $ svc monitor events --watch w_1 --json
  $ svc monitor status --daemon http://10.0.0.5:8080
  $ svc monitor watch rm w_1`,
    );

  const watch = monitor
    .command('watch')
    .helpCommand(false)
    .description('Add, list, check and remove watches')
    .addHelpText('after', `\n${EXIT_STATUS}\n\nExamples:\n  $ svc monitor watch add did:web:example.com https://hooks.example/svc\n  $ svc monitor watch list --json`);

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
    .action(async (did: string, webhookUrl: string, options: MonitorOptions & { interval?: string }) => {
      const intervalSeconds = interval(options.interval);
      await withDaemon(
        io,
        { ...options, quiet: false },
        setExit,
        (client) => client.createWatch({ did, webhookUrl, ...(intervalSeconds === undefined ? {} : { intervalSeconds }) }),
        (created) => (options.quiet ? `${printable(created.secret)}\n` : watchCreatedText(created)),
      );
    });

  daemonOptions(watch.command('list').description('List the active watches (webhook URLs redacted, never a secret)'), "print the daemon's answer, {watches}, as JSON")
    .addHelpText('after', '\nExamples:\n  $ svc monitor watch list\n  $ svc monitor watch list --json | jq -r \'.watches[].id\'')
    .action(async (options: MonitorOptions) => {
      await withDaemon(io, options, setExit, (client) => client.listWatches(), (list) => watchListText(list.watches));
    });

  daemonOptions(
    watch.command('rm').alias('remove').description('Stop a watch (its queued events are cancelled)').argument('<id>', 'the watch id (svc monitor watch list)'),
    'print {id, deleted: true} as JSON (the daemon answers no body)',
  )
    .addHelpText('after', '\nAn unknown id is NOT_FOUND (exit 4).\n\nExamples:\n  $ svc monitor watch rm w_1')
    .action(async (id: string, options: MonitorOptions) => {
      await withDaemon(
        io,
        options,
        setExit,
        async (client) => {
          await client.deleteWatch(id);
          return { id, deleted: true };
        },
        () => `watch ${printable(id)} removed; its queued events are cancelled\n`,
      );
    });

  daemonOptions(
    watch.command('check').description('Check a watch now, as the poller does').argument('<id>', 'the watch id (svc monitor watch list)'),
    "print the daemon's answer, {eventId, changed, delivery}, as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc monitor watch check w_1')
    .action(async (id: string, options: MonitorOptions) => {
      await withDaemon(io, options, setExit, (client) => client.checkWatch(id), (check) => watchCheckText(id, check));
    });

  daemonOptions(
    monitor.command('events').description('List the monitor events and their delivery state, newest first').option('--watch <id>', "only this watch's events"),
    "print the daemon's answer, {events}, as JSON",
  )
    .addHelpText('after', '\nExamples:\n  $ svc monitor events\n  $ svc monitor events --watch w_1 --json')
    .action(async (options: MonitorOptions & { watch?: string }) => {
      await withDaemon(
        io,
        options,
        setExit,
        (client) => client.listMonitorEvents(options.watch === undefined ? {} : { watchId: options.watch }),
        (list) => eventsText(list.events),
      );
    });

  daemonOptions(monitor.command('status').description('Show the gauges of the monitoring tables (counts and limits)'), "print the daemon's answer as JSON")
    .addHelpText('after', '\nExamples:\n  $ svc monitor status\n  $ svc monitor status --json')
    .action(async (options: MonitorOptions) => {
      await withDaemon(io, options, setExit, (client) => client.monitoringStatus(), statusText);
    });
}
