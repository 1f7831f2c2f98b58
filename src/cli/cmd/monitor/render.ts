/** What `svc monitor …` prints: the daemon's answers as text (--json prints them as they are). */
import type { DeliveryAttempt, MonitorEvent, MonitoringStatus, Watch, WatchCheck, WatchCreated } from '../../../client/index.js';
import { printable } from '../../../present/text.js';
import { table } from '../../cmdutil/table.js';

/** The watched DID, MCP endpoint or card URL, whichever the watch (or event) names. */
function subjectOf(named: { did?: string; mcpEndpoint?: string; a2aCard?: string }): string {
  return named.did ?? named.mcpEndpoint ?? named.a2aCard ?? '';
}

function watchLines(watch: Watch): string[] {
  return [
    `watch     ${printable(watch.id)}`,
    `${watch.kind === 'mcp' ? 'mcp     ' : watch.kind === 'a2a' ? 'a2a     ' : 'did     '}  ${printable(subjectOf(watch))}`,
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
    ['ID', 'SUBJECT', 'INTERVAL', 'LAST CHECKED', 'LAST STATUS', 'WEBHOOK'],
    watches.map((w) => [w.id, subjectOf(w), `${w.intervalSeconds}s`, w.lastCheckedAt ?? 'never', w.lastStatus ?? '-', webhookCell(w)]),
  );
}

/** The webhook as the list shows it: its URL, marked when a receiver disabled it. */
function webhookCell(w: Watch): string {
  return w.webhookDisabled === null ? w.webhook : `${w.webhook} (disabled: svc monitor watch enable-webhook ${w.id})`;
}

export function watchEnabledText(watch: Watch): string {
  return `watch ${printable(watch.id)}: webhook enabled, ${printable(watch.webhook)}; events from its next check on are delivered\n`;
}

export function attemptsText(eventId: string, attempts: readonly DeliveryAttempt[]): string {
  if (attempts.length === 0) return `${printable(eventId)}: no attempt yet\n`;
  return table(
    ['REPLAY', 'ATTEMPT', 'SENT', 'STATUS', 'DECISION', 'NEXT', 'DETAIL'],
    attempts.map((a) => [
      String(a.replay),
      String(a.attempt),
      a.attemptedAt,
      a.responseStatus === null ? '-' : String(a.responseStatus),
      a.decision,
      a.nextAttemptAt ?? '-',
      a.detail,
    ]),
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
    ['ID', 'CREATED', 'TYPE', 'DELIVERY', 'ATTEMPTS', 'WATCH', 'SUBJECT'],
    events.map((e) => [e.id, e.createdAt, e.eventType, e.deliveryStatus, String(e.attempts), e.watchId, subjectOf(e)]),
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
    `disabled hooks  ${status.disabledWebhooks}`,
    `replays         ${status.replays}`,
    `by type         ${byType(status.eventsByType)}`,
    '',
  ].join('\n');
}

/** The types with events, `type count` comma-separated (every type is in the JSON, zeros included). */
function byType(counts: Readonly<Record<string, number>>): string {
  const seen = Object.entries(counts).filter(([, n]) => n > 0);
  return seen.length === 0 ? 'none' : seen.map(([type, n]) => `${type} ${n}`).join(', ');
}

export function eventReplayText(event: MonitorEvent): string {
  return `${printable(event.id)} replayed: ${event.deliveryStatus}, five fresh attempts (replay ${event.replays}); receivers see the same id and bytes\n`;
}

export function watchReplayText(watch: string, replayed: { replayed: readonly string[]; count: number }): string {
  if (replayed.count === 0) return `watch ${printable(watch)}: no dead letter since that instant, nothing replayed\n`;
  return `watch ${printable(watch)}: ${replayed.count} dead letter${replayed.count === 1 ? '' : 's'} replayed (${replayed.replayed.map(printable).join(', ')})\n`;
}
