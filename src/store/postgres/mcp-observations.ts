/**
 * MCP inventories by endpoint (for drift) over PostgreSQL, coalesced as observations are
 * (the body refreshed), under the same ceiling (the daemon's SVC_MAX_MCP_OBSERVATIONS;
 * src/store/postgres/ceiling.ts). The body is written and read as on SQLite
 * (schema/mcp-observations.ts: snapshotBody / toSnapshot).
 *
 * record() is a group commit (sql.ts GroupCommit), as observations are: the inventories recorded
 * in one turn are written in order by one transaction holding the locks of all their endpoints,
 * each settled after its COMMIT. Inventories are few (one per inspection), so each keeps its own
 * statements; the batch saves the connection, BEGIN and COMMIT of each.
 */
import type pg from 'pg';
import type { Recorded } from '../../core/history/store.js';
import type { McpObservationStore, McpSnapshot, NewMcpSnapshot } from '../../core/mcp/store.js';
import type { CeilingOptions, RowUsage } from '../schema/ceiling.js';
import { snapshotBody, toSnapshot, type SnapshotRow } from '../schema/mcp-observations.js';
import { PgRowCeiling } from './ceiling.js';
import { GroupCommit, LOCK_CLASS } from './sql.js';

const COLUMNS = `id, endpoint, fingerprint AS "inventoryHash", fingerprint_profile AS profile,
  negotiated_version AS "negotiatedVersion", observed_at AS "observedAt", last_seen_at AS "lastSeenAt",
  seen_count AS "seenCount", body`;
const NEWEST_FIRST = 'ORDER BY observed_at DESC, id DESC';

export class PostgresMcpObservationStore implements McpObservationStore {
  readonly #ceiling: PgRowCeiling;
  readonly #commits: GroupCommit<NewMcpSnapshot, Recorded<McpSnapshot>>;

  /** `options.ceiling`: most rows (the daemon's SVC_MAX_MCP_OBSERVATIONS); none: unbounded (the CLI). */
  constructor(
    private readonly pool: pg.Pool,
    options: CeilingOptions = {},
  ) {
    this.#ceiling = new PgRowCeiling('mcp_observations', 'endpoint', options);
    this.#commits = new GroupCommit(
      pool,
      LOCK_CLASS.mcpObservations,
      (s) => s.endpoint,
      async (tx, list) => {
        await tx.begin();
        // In order: a later inventory of the same endpoint coalesces into an earlier one.
        const out: Array<Recorded<McpSnapshot>> = [];
        for (const s of list) out.push(await this.#recordOne(tx.client, s));
        return out;
      },
      (results) => this.#ceiling.settleAll(results),
    );
  }

  /** Resolves when every record submitted so far has been written or refused (the store is closing). */
  drain(): Promise<void> {
    return this.#commits.drain();
  }

  /** Rows (the database's exact count), the ceiling, and evictions and refusals since the store was opened. */
  usage(): Promise<RowUsage> {
    return this.#ceiling.usage(this.pool);
  }

  async latest(endpoint: string): Promise<McpSnapshot | undefined> {
    const { rows } = await this.pool.query<SnapshotRow>(`SELECT ${COLUMNS} FROM mcp_observations WHERE endpoint = $1 ${NEWEST_FIRST} LIMIT 1`, [endpoint]);
    return rows[0] === undefined ? undefined : toSnapshot(rows[0]);
  }

  record(s: NewMcpSnapshot): Promise<Recorded<McpSnapshot>> {
    return this.#commits.submit(s);
  }

  /** One inventory, in the batch's transaction (its endpoint's lock held). */
  async #recordOne(client: pg.PoolClient, s: NewMcpSnapshot): Promise<Recorded<McpSnapshot>> {
    const ceiling = this.#ceiling;
    const { rows: latest } = await client.query<SnapshotRow>(`SELECT ${COLUMNS} FROM mcp_observations WHERE endpoint = $1 ${NEWEST_FIRST} LIMIT 1`, [
      s.endpoint,
    ]);
    const last = latest[0];
    if (last !== undefined && last.inventoryHash === s.inventoryHash && last.profile === s.profile && s.profile !== null) {
      const { rows } = await client.query<SnapshotRow>(
        `UPDATE mcp_observations SET seen_count = seen_count + 1, last_seen_at = GREATEST(last_seen_at, $1), negotiated_version = $2,
       body = $3 WHERE id = $4 RETURNING ${COLUMNS}`,
        [s.observedAt, s.negotiatedVersion, snapshotBody(s), last.id],
      );
      return { outcome: 'coalesced', row: toSnapshot(rows[0]!), evicted: 0 };
    }
    // A new row: counted, room made or refused, inserted, in this transaction (unbounded: no wait).
    const evicted = ceiling.ceiling === null ? 0 : await ceiling.makeRoom(client, s.endpoint);
    if (evicted === null) return { outcome: 'refused', row: null, evicted: 0 };
    const { rows } = await client.query<SnapshotRow>(
      `INSERT INTO mcp_observations (endpoint, fingerprint, body, negotiated_version, observed_at, last_seen_at, seen_count, fingerprint_profile)
     VALUES ($1, $2, $3, $4, $5, $5, 1, $6) RETURNING ${COLUMNS}`,
      [s.endpoint, s.inventoryHash, snapshotBody(s), s.negotiatedVersion, s.observedAt, s.profile],
    );
    const row = toSnapshot(rows[0]!);
    return evicted > 0 ? { outcome: 'evicted', row, evicted } : { outcome: 'stored', row, evicted: 0 };
  }
}
