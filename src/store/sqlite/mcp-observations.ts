/**
 * MCP inventories by endpoint (for drift) over SQLite: the `mcp_observations` table of
 * schema v2 (fingerprint_profile since v3). `fingerprint` holds the inventory hash and `body`
 * the fingerprinted definitions, so that a later inspection can say which members of an item
 * changed: `{tools: [{name, definitionSha256, definition}], prompts, resources,
 * resourceTemplates: [{key, definitionSha256, definition}]}`. No migration was needed for the
 * last three: a body without them was written before svc inventoried prompts and resources
 * ("tools-only coverage") and reads back with them undefined. An unchanged inventory is
 * coalesced into its row, as observations are, its body refreshed (a tools-only row thus gains
 * the coverage marker). The methods are async because the interface is; record() is one
 * synchronous transaction within the call.
 */
import type Database from 'better-sqlite3';
import type { Recorded } from '../../core/history/store.js';
import type { McpObservationStore, McpSnapshot, NewMcpSnapshot } from '../../core/mcp/store.js';
import type { CeilingOptions, RowUsage } from '../schema/ceiling.js';
import { snapshotBody, toSnapshot, type SnapshotRow } from '../schema/mcp-observations.js';
import { RowCeiling } from './ceiling.js';

const COLUMNS = `id, endpoint, fingerprint AS inventoryHash, fingerprint_profile AS profile,
  negotiated_version AS negotiatedVersion, observed_at AS observedAt, last_seen_at AS lastSeenAt,
  seen_count AS seenCount, body`;
const NEWEST_FIRST = 'ORDER BY observed_at DESC, id DESC';

export class SqliteMcpObservationStore implements McpObservationStore {
  readonly #latest: Database.Statement<[string], SnapshotRow>;
  readonly #coalesce: Database.Statement<[string, string | null, string, number], SnapshotRow>;
  readonly #insert: Database.Statement<[string, string, string, string | null, string, string, string | null], SnapshotRow>;
  readonly #record: (snapshot: NewMcpSnapshot) => Recorded<McpSnapshot>;
  readonly #ceiling: RowCeiling;

  /** `options.ceiling`: most rows (the daemon's SVC_MAX_MCP_OBSERVATIONS); none: unbounded (the CLI). */
  constructor(db: Database.Database, options: CeilingOptions = {}) {
    this.#ceiling = new RowCeiling(db, 'mcp_observations', 'endpoint', options);
    this.#latest = db.prepare(`SELECT ${COLUMNS} FROM mcp_observations WHERE endpoint = ? ${NEWEST_FIRST} LIMIT 1`);
    this.#coalesce = db.prepare(
      `UPDATE mcp_observations SET seen_count = seen_count + 1, last_seen_at = max(last_seen_at, ?),
        negotiated_version = ?, body = ? WHERE id = ? RETURNING ${COLUMNS}`,
    );
    this.#insert = db.prepare(
      `INSERT INTO mcp_observations (endpoint, fingerprint, body, negotiated_version, observed_at, last_seen_at, seen_count, fingerprint_profile)
       VALUES (?, ?, ?, ?, ?, ?, 1, ?) RETURNING ${COLUMNS}`,
    );
    // IMMEDIATE: reading the latest row and the write that depends on it hold the lock together
    // (with the count and an eviction at the ceiling).
    const record = db.transaction((s: NewMcpSnapshot): Recorded<McpSnapshot> => {
      const latest = this.#latest.get(s.endpoint);
      if (latest !== undefined && latest.inventoryHash === s.inventoryHash && latest.profile === s.profile && s.profile !== null) {
        return { outcome: 'coalesced', row: toSnapshot(this.#coalesce.get(s.observedAt, s.negotiatedVersion, snapshotBody(s), latest.id)!), evicted: 0 };
      }
      const evicted = this.#ceiling.makeRoom(s.endpoint);
      if (evicted === null) return { outcome: 'refused', row: null, evicted: 0 };
      const row = toSnapshot(this.#insert.get(s.endpoint, s.inventoryHash, snapshotBody(s), s.negotiatedVersion, s.observedAt, s.observedAt, s.profile)!);
      this.#ceiling.added();
      return evicted > 0 ? { outcome: 'evicted', row, evicted } : { outcome: 'stored', row, evicted: 0 };
    });
    this.#record = (snapshot) => this.#ceiling.commit(() => record.immediate(snapshot));
  }

  /** Rows, ceiling, and evictions and refusals since the store was opened. */
  usage(): RowUsage {
    return this.#ceiling.usage();
  }

  async latest(endpoint: string): Promise<McpSnapshot | undefined> {
    const row = this.#latest.get(endpoint);
    return row === undefined ? undefined : toSnapshot(row);
  }

  async record(snapshot: NewMcpSnapshot): Promise<Recorded<McpSnapshot>> {
    return this.#record(snapshot);
  }
}
