/** MCP inventories by endpoint (SPEC §2.11 drift) over PostgreSQL, coalesced as observations are. */
import type pg from 'pg';
import type { McpObservationStore, McpSnapshot, NewMcpSnapshot, Recorded } from '../../core/store.js';
import { toSnapshot, type SnapshotRow } from '../mcp-observations.js';
import { inLockedTransaction, LOCK_CLASS } from './sql.js';

const COLUMNS = `id, endpoint, fingerprint AS "inventoryHash", fingerprint_profile AS profile,
  negotiated_version AS "negotiatedVersion", observed_at AS "observedAt", last_seen_at AS "lastSeenAt",
  seen_count AS "seenCount", body`;
const NEWEST_FIRST = 'ORDER BY observed_at DESC, id DESC';

export class PostgresMcpObservationStore implements McpObservationStore {
  constructor(private readonly pool: pg.Pool) {}

  async latest(endpoint: string): Promise<McpSnapshot | undefined> {
    const { rows } = await this.pool.query<SnapshotRow>(`SELECT ${COLUMNS} FROM mcp_observations WHERE endpoint = $1 ${NEWEST_FIRST} LIMIT 1`, [endpoint]);
    return rows[0] === undefined ? undefined : toSnapshot(rows[0]);
  }

  record(s: NewMcpSnapshot): Promise<Recorded<McpSnapshot>> {
    return inLockedTransaction(this.pool, LOCK_CLASS.mcpObservations, s.endpoint, async (client) => {
      const { rows: latest } = await client.query<SnapshotRow>(`SELECT ${COLUMNS} FROM mcp_observations WHERE endpoint = $1 ${NEWEST_FIRST} LIMIT 1`, [s.endpoint]);
      const last = latest[0];
      if (last !== undefined && last.inventoryHash === s.inventoryHash && last.profile === s.profile && s.profile !== null) {
        const { rows } = await client.query<SnapshotRow>(
          `UPDATE mcp_observations SET seen_count = seen_count + 1, last_seen_at = GREATEST(last_seen_at, $1), negotiated_version = $2
           WHERE id = $3 RETURNING ${COLUMNS}`,
          [s.observedAt, s.negotiatedVersion, last.id],
        );
        return { outcome: 'coalesced', row: toSnapshot(rows[0]!), evicted: 0 };
      }
      const { rows } = await client.query<SnapshotRow>(
        `INSERT INTO mcp_observations (endpoint, fingerprint, body, negotiated_version, observed_at, last_seen_at, seen_count, fingerprint_profile)
         VALUES ($1, $2, $3, $4, $5, $5, 1, $6) RETURNING ${COLUMNS}`,
        [s.endpoint, s.inventoryHash, JSON.stringify({ tools: s.tools }), s.negotiatedVersion, s.observedAt, s.profile],
      );
      return { outcome: 'stored', row: toSnapshot(rows[0]!), evicted: 0 };
    });
  }
}
