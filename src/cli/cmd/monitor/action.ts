/** `svc monitor …`: the work of its commands, loaded when one runs (their options: commands/monitor.ts, daemon-options.ts). */
import type { MonitorEvent, MonitoringStatus, SvcClient, Watch, WatchCheck, WatchCreated } from '../../../client/index.js';
import { ConfigError } from '../../../runtime/node.js';
import { CLI_ERROR_CODES, CliError, helpHint, runningCommand, usageError } from '../../cmdutil/errors.js';
import { EXIT, exitForProblem } from '../../cmdutil/exit-codes.js';
import { writeReport } from '../../cmdutil/paging.js';
import type { CliIo } from '../../cmdutil/io.js';
import { DEFAULT_DAEMON_URL, type DaemonOptions } from '../../cmdutil/daemon-options.js';
import { printable } from '../../../present/text.js';

/** Time limit of one call to the daemon (a check resolves the DID afresh). */
const CALL_TIMEOUT_MS = 60_000;

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
  if (token === '') throw usageError("no operator token: svc reads it from SVC_ADMIN_TOKEN (the daemon's own)", TOKEN_HINT);
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

/** The daemon's failure as the CLI reports it: exit 4 (2 for INVALID_OPTIONS: exitForProblem), the problem on stdout with --json. */
export async function daemonFailure(io: CliIo, err: unknown, base: string, json: boolean): Promise<never> {
  const { SvcError, CLIENT_NETWORK_ERROR } = await import('../../../client/index.js');
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
        : err.code === 'COMMERCIAL_DISABLED'
          ? 'start the daemon with SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on and SVC_COMMERCIAL_ORIGIN set (svc serve says why the mode is off)'
          : helpHint(runningCommand(io));
  throw new CliError(err.code, err.detail || err.title || `the daemon answered ${err.status}`, exitForProblem(err.code), hint);
}

/**
 * Runs one call against the daemon and prints its answer (the JSON, or `text`); the exit code is
 * `exitOf(value)` (0 by default). `operator`: the call needs SVC_ADMIN_TOKEN (the monitoring
 * routes); the public routes (claims, directory) are called without it.
 */
export async function withDaemon<T>(
  io: CliIo,
  options: DaemonOptions,
  setExit: (code: number) => void,
  call: (client: SvcClient) => Promise<T>,
  text: (value: T) => string,
  { operator = true, exitOf = () => EXIT.PASS }: { operator?: boolean; exitOf?: (value: T) => number } = {},
): Promise<void> {
  const base = daemonUrl(options.daemon, io.env);
  const token = operator ? adminToken(io.env) : undefined;
  const { SvcClient } = await import('../../../client/index.js');
  const client = new SvcClient({ baseUrl: base, ...(token === undefined ? {} : { adminToken: token }), timeoutMs: CALL_TIMEOUT_MS });
  let value: T;
  try {
    value = await call(client);
  } catch (err) {
    return daemonFailure(io, err, base, options.json === true);
  }
  if (options.json) io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (!options.quiet) await writeReport(io, text(value), options);
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

export async function watchAddAction(io: CliIo, setExit: (code: number) => void, did: string, webhookUrl: string, options: DaemonOptions & { interval?: string }): Promise<void> {
  const intervalSeconds = interval(options.interval);
  await withDaemon(
    io,
    { ...options, quiet: false },
    setExit,
    (client) => client.createWatch({ did, webhookUrl, ...(intervalSeconds === undefined ? {} : { intervalSeconds }) }),
    (created) => (options.quiet ? `${printable(created.secret)}\n` : watchCreatedText(created)),
  );
}

export async function watchListAction(io: CliIo, setExit: (code: number) => void, options: DaemonOptions): Promise<void> {
  await withDaemon(io, options, setExit, (client) => client.listWatches(), (list) => watchListText(list.watches));
}

export async function watchRemoveAction(io: CliIo, setExit: (code: number) => void, id: string, options: DaemonOptions): Promise<void> {
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
}

export async function watchCheckAction(io: CliIo, setExit: (code: number) => void, id: string, options: DaemonOptions): Promise<void> {
  await withDaemon(io, options, setExit, (client) => client.checkWatch(id), (check) => watchCheckText(id, check));
}

export async function eventsAction(io: CliIo, setExit: (code: number) => void, options: DaemonOptions & { watch?: string }): Promise<void> {
  await withDaemon(
    io,
    options,
    setExit,
    (client) => client.listMonitorEvents(options.watch === undefined ? {} : { watchId: options.watch }),
    (list) => eventsText(list.events),
  );
}

export async function statusAction(io: CliIo, setExit: (code: number) => void, options: DaemonOptions): Promise<void> {
  await withDaemon(io, options, setExit, (client) => client.monitoringStatus(), statusText);
}
