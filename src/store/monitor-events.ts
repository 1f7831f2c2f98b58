/**
 * Monitor events and their delivery state (SPEC §3, §6.2) over SQLite: the `monitor_events`
 * table of schema v2 (leases since v3). Read-only here: events are written by the watch checks
 * and moved along by the deliverer. Timestamps are RFC 3339 UTC at second precision, compared
 * as text, as everywhere in the schema.
 */
import type Database from 'better-sqlite3';
import type { JsonObject } from '../core/encoding/json.js';
import type { DeliveryStatus, MonitorEvent, MonitorEventStore, MonitoringGauges } from '../core/store.js';
import { limitOf } from './observations.js';
import { isRowId, OPERATOR_ACTIVE, QUEUED } from './watches.js';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['PENDING', 'DELIVERING', 'RETRY', 'DELIVERED', 'DEAD_LETTER', 'CANCELLED'];

export const EVENT_COLUMNS = `id, watch_id AS watchId, did, event_type AS eventType, data, created_at AS createdAt,
  delivery_status AS deliveryStatus, attempts, next_attempt_at AS nextAttemptAt, last_attempt_at AS lastAttemptAt,
  last_error AS lastError`;

export type EventRow = Omit<MonitorEvent, 'data'> & { data: string };

export function toEvent(row: EventRow): MonitorEvent {
  let data: JsonObject = {};
  try {
    const parsed: unknown = JSON.parse(row.data);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) data = parsed as JsonObject;
  } catch {
    // json_valid() in the table's CHECK makes this unreachable; the checks only ever write objects.
  }
  return { ...row, data };
}

/** Every status as a key, 0 where the table has none (the status route lists them all). */
export function byStatus(counts: ReadonlyMap<string, number>): Record<DeliveryStatus, number> {
  const result = {} as Record<DeliveryStatus, number>;
  for (const status of DELIVERY_STATUSES) result[status] = counts.get(status) ?? 0;
  return result;
}

/** The per-status counts as columns `s_<STATUS>` of the gauges query, so that one statement reads every gauge. */
const STATUS_COLUMNS = DELIVERY_STATUSES.map((s) => `coalesce(sum(delivery_status = '${s}'), 0) AS s_${s}`).join(', ');

/** The gauges' row on either engine (PostgreSQL gives the byte sum, a bigint, as a string). */
export type GaugeRow = Omit<MonitoringGauges, 'eventsByStatus' | 'eventPayloadBytes'> & Record<`s_${DeliveryStatus}`, number> & { eventPayloadBytes: number | string };

export function gaugesOf(row: GaugeRow): MonitoringGauges {
  return {
    watches: row.watches,
    events: row.events,
    eventsByStatus: byStatus(new Map(DELIVERY_STATUSES.map((s) => [s, row[`s_${s}`]]))),
    dueDeliveries: row.dueDeliveries,
    expiredLeases: row.expiredLeases,
    eventPayloadBytes: Number(row.eventPayloadBytes),
  };
}

export class SqliteMonitorEventStore implements MonitorEventStore {
  readonly #list: Database.Statement<[number], EventRow>;
  readonly #listOfWatch: Database.Statement<[number, number], EventRow>;
  readonly #gauges: Database.Statement<{ now: string }, GaugeRow>;

  constructor(db: Database.Database) {
    this.#list = db.prepare(`SELECT ${EVENT_COLUMNS} FROM monitor_events ORDER BY id DESC LIMIT ?`);
    this.#listOfWatch = db.prepare(`SELECT ${EVENT_COLUMNS} FROM monitor_events WHERE watch_id = ? ORDER BY id DESC LIMIT ?`);
    // One statement, so every gauge is read from the same snapshot (the status counts add up
    // to `events`). length() of a BLOB counts bytes; of the TEXT it would count characters.
    this.#gauges = db.prepare(
      `SELECT
         (SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE}) AS watches,
         count(*) AS events,
         ${STATUS_COLUMNS},
         coalesce(sum(delivery_status IN ${QUEUED} AND (next_attempt_at IS NULL OR next_attempt_at <= :now)), 0) AS dueDeliveries,
         coalesce(sum(delivery_status = 'DELIVERING' AND lease_expires_at <= :now), 0) AS expiredLeases,
         coalesce(sum(length(CAST(data AS BLOB))), 0) AS eventPayloadBytes
       FROM monitor_events`,
    );
  }

  async list(options: { watchId?: number; limit: number }): Promise<MonitorEvent[]> {
    const limit = limitOf(options.limit);
    if (options.watchId === undefined) return this.#list.all(limit).map(toEvent);
    if (!isRowId(options.watchId)) return [];
    return this.#listOfWatch.all(options.watchId, limit).map(toEvent);
  }

  async gauges(now: string): Promise<MonitoringGauges> {
    return gaugesOf(this.#gauges.get({ now })!);
  }
}
