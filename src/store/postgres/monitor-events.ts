/** Monitor events and their delivery state (SPEC §3, §6.2) over PostgreSQL: read-only, as on SQLite. */
import type pg from 'pg';
import type { MonitorEvent, MonitorEventStore, MonitoringGauges } from '../../core/store.js';
import { DELIVERY_STATUSES, gaugesOf, toEvent, type EventRow, type GaugeRow } from '../monitor-events.js';
import { limitOf } from '../observations.js';
import { OPERATOR_ACTIVE, QUEUED } from '../watches.js';
import { isPgRowId } from './watches.js';

const COLUMNS = `id, watch_id AS "watchId", did, event_type AS "eventType", data, created_at AS "createdAt",
  delivery_status AS "deliveryStatus", attempts, next_attempt_at AS "nextAttemptAt", last_attempt_at AS "lastAttemptAt",
  last_error AS "lastError"`;

const STATUS_COLUMNS = DELIVERY_STATUSES.map((s) => `count(*) FILTER (WHERE delivery_status = '${s}')::int AS "s_${s}"`).join(', ');

/**
 * One statement: every gauge from the same snapshot. octet_length() counts the bytes of the text
 * in the server's encoding (UTF-8 for svc's databases), as SQLite's length() of a BLOB does;
 * the sum is BIGINT, which the driver hands over as a string.
 */
const GAUGES = `
  SELECT
    (SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE})::int AS watches,
    count(*)::int AS events,
    ${STATUS_COLUMNS},
    count(*) FILTER (WHERE delivery_status IN ${QUEUED} AND (next_attempt_at IS NULL OR next_attempt_at <= $1))::int AS "dueDeliveries",
    count(*) FILTER (WHERE delivery_status = 'DELIVERING' AND lease_expires_at <= $1)::int AS "expiredLeases",
    coalesce(sum(octet_length(data)), 0)::bigint AS "eventPayloadBytes"
  FROM monitor_events`;


export class PostgresMonitorEventStore implements MonitorEventStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(options: { watchId?: number; limit: number }): Promise<MonitorEvent[]> {
    const limit = limitOf(options.limit);
    if (options.watchId === undefined) {
      const { rows } = await this.pool.query<EventRow>(`SELECT ${COLUMNS} FROM monitor_events ORDER BY id DESC LIMIT $1`, [limit]);
      return rows.map(toEvent);
    }
    if (!isPgRowId(options.watchId)) return [];
    const { rows } = await this.pool.query<EventRow>(`SELECT ${COLUMNS} FROM monitor_events WHERE watch_id = $1 ORDER BY id DESC LIMIT $2`, [options.watchId, limit]);
    return rows.map(toEvent);
  }

  async gauges(now: string): Promise<MonitoringGauges> {
    const { rows } = await this.pool.query<GaugeRow>(GAUGES, [now]);
    return gaugesOf(rows[0]!);
  }
}
