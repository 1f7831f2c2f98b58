/** `svc monitor …`: the work of its commands, loaded when one runs (their options: command.ts, cmdutil/daemon-options.ts). */
import { withDaemon } from '../../cmdutil/daemon.js';
import type { DaemonOptions } from '../../cmdutil/daemon-options.js';
import { usageError } from '../../cmdutil/errors.js';
import type { CliIo } from '../../cmdutil/io.js';
import { printable } from '../../../present/text.js';
import { attemptsText, eventsText, statusText, watchCheckText, watchCreatedText, watchEnabledText, watchListText } from './render.js';

function interval(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = /^[0-9]{1,9}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(value > 0)) throw usageError(`--interval must be a whole number of seconds, not ${printable(text.slice(0, 32))}`);
  return value;
}

export async function watchAddAction(
  io: CliIo,
  setExit: (code: number) => void,
  did: string,
  webhookUrl: string,
  options: DaemonOptions & { interval?: string },
): Promise<void> {
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
