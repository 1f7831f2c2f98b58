/** `svc monitor …`: the work of its commands, loaded when one runs (their options: command.ts, cmdutil/daemon-options.ts). */
import { withDaemon } from '../../cmdutil/daemon.js';
import type { DaemonOptions } from '../../cmdutil/daemon-options.js';
import { usageError } from '../../cmdutil/errors.js';
import type { CliIo } from '../../cmdutil/io.js';
import { printable } from '../../../present/text.js';
import { loadA2aBaseline, loadMcpBaseline } from '../inspect/baseline.js';
import { retentionCutoff } from '../../../core/monitoring/rules.js';
import {
  attemptsText,
  eventReplayText,
  eventsText,
  statusText,
  watchCheckText,
  watchCreatedText,
  watchEnabledText,
  watchListText,
  watchReplayText,
} from './render.js';

function interval(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = /^[0-9]{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(value > 0)) throw usageError(`--interval must be a whole number of seconds, not ${printable(text.slice(0, 32))}`);
  return value;
}

/** The subject member of a registration from the arguments: a DID, or --mcp, or --a2a (exactly one), and the webhook URL. */
function subjectArguments(
  first: string | undefined,
  second: string | undefined,
  options: { mcp?: string; a2a?: string; baseline?: string },
): { subject: { did: string } | { mcpEndpoint: string } | { a2aCard: string }; webhookUrl: string } {
  if (options.mcp !== undefined && options.a2a !== undefined) throw usageError('give --mcp or --a2a, not both');
  const target = options.mcp ?? options.a2a;
  if (target === undefined) {
    if (options.baseline !== undefined) throw usageError('--baseline is for --mcp and --a2a watches (a DID watch takes its first check as its baseline)');
    if (first === undefined || second === undefined) throw usageError('give the DID and the webhook URL (or --mcp <url> or --a2a <url> and the webhook URL)');
    return { subject: { did: first }, webhookUrl: second };
  }
  if (first === undefined || second !== undefined)
    throw usageError(`with --${options.mcp !== undefined ? 'mcp' : 'a2a'} give only the webhook URL as an argument, not a DID too`);
  return { subject: options.mcp !== undefined ? { mcpEndpoint: target } : { a2aCard: target }, webhookUrl: first };
}

export async function watchAddAction(
  io: CliIo,
  setExit: (code: number) => void,
  first: string | undefined,
  second: string | undefined,
  options: DaemonOptions & { interval?: string; mcp?: string; a2a?: string; baseline?: string },
): Promise<void> {
  const intervalSeconds = interval(options.interval);
  const { subject, webhookUrl } = subjectArguments(first, second, options);
  await withDaemon(
    io,
    { ...options, quiet: false },
    setExit,
    async (client) => {
      // Read and checked here (a file svc cannot use is refused before anything is sent).
      const file = options.baseline;
      const baseline =
        file === undefined ? undefined : options.mcp !== undefined ? (await loadMcpBaseline(file)).baseline : (await loadA2aBaseline(file)).baseline;
      return client.createWatch({
        ...subject,
        webhookUrl,
        ...(intervalSeconds === undefined ? {} : { intervalSeconds }),
        ...(baseline === undefined ? {} : { baseline: baseline as unknown as Record<string, unknown> }),
      });
    },
    (created) => (options.quiet ? `${printable(created.secret)}\n` : watchCreatedText(created)),
  );
}

export async function watchListAction(io: CliIo, setExit: (code: number) => void, options: DaemonOptions): Promise<void> {
  await withDaemon(
    io,
    options,
    setExit,
    (client) => client.listWatches(),
    (list) => watchListText(list.watches),
  );
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
  await withDaemon(
    io,
    options,
    setExit,
    (client) => client.checkWatch(id),
    (check) => watchCheckText(id, check),
  );
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

export async function watchEnableWebhookAction(
  io: CliIo,
  setExit: (code: number) => void,
  id: string,
  options: DaemonOptions & { url?: string },
): Promise<void> {
  await withDaemon(
    io,
    options,
    setExit,
    (client) => client.enableWatchWebhook(id, options.url === undefined ? {} : { webhookUrl: options.url }),
    (answer) => watchEnabledText(answer.watch),
  );
}

export async function attemptsAction(io: CliIo, setExit: (code: number) => void, eventId: string, options: DaemonOptions): Promise<void> {
  await withDaemon(
    io,
    options,
    setExit,
    (client) => client.listEventAttempts(eventId),
    (list) => attemptsText(list.eventId, list.attempts),
  );
}

export async function replayAction(
  io: CliIo,
  setExit: (code: number) => void,
  eventId: string | undefined,
  options: DaemonOptions & { watch?: string; since?: string },
): Promise<void> {
  if (options.watch === undefined && options.since !== undefined) throw usageError('--since needs --watch <id> (the watch whose dead letters to replay)');
  if (options.watch !== undefined) {
    if (eventId !== undefined) throw usageError('give either an event id or --watch <id> --since <instant>, not both');
    const since = options.since;
    if (since === undefined) throw usageError('--watch needs --since <instant>: the dead letters created at or after it are replayed');
    if (retentionCutoff(since) === null) {
      throw usageError(`--since must be an RFC 3339 date-time with seconds and an offset, such as 2026-01-01T00:00:00Z, not ${printable(since.slice(0, 64))}`);
    }
    const watch = options.watch;
    await withDaemon(
      io,
      options,
      setExit,
      (client) => client.replayWatch(watch, since),
      (replayed) => watchReplayText(watch, replayed),
    );
    return;
  }
  if (eventId === undefined) throw usageError('name the event to replay (evt_<n>), or --watch <id> --since <instant>');
  await withDaemon(
    io,
    options,
    setExit,
    (client) => client.replayMonitorEvent(eventId),
    (replayed) => eventReplayText(replayed.event),
  );
}
