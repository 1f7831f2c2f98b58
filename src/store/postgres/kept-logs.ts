/**
 * Kept did:webvh logs over PostgreSQL (schema v14, as on SQLite: sqlite/kept-logs.ts). append()
 * runs under the DID's advisory lock, so daemons keeping the same log take turns.
 */
import type pg from 'pg';
import type { AppendKeptLog, KeptLog, KeptLogEntry, KeptLogStore, KeptLogText, LogRewrite } from '../../core/webvh/store.js';
import { KEPT_ENTRY_COLUMNS, KEPT_LOG_COLUMNS, readRewrite, toEntry, type KeptLogRow } from '../schema/kept-logs.js';
import { inLockedTransaction, LOCK_CLASS } from './sql.js';

export class PostgresKeptLogStore implements KeptLogStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(did: string): Promise<KeptLog | undefined> {
    const { rows } = await this.pool.query<KeptLogRow>(`SELECT ${KEPT_LOG_COLUMNS('"')} FROM webvh_kept_logs WHERE did = $1`, [did]);
    const row = rows[0];
    if (row === undefined) return undefined;
    const entries = await this.pool.query<KeptLogEntry>(`SELECT ${KEPT_ENTRY_COLUMNS('"')} FROM webvh_kept_entries WHERE did = $1 ORDER BY version_number`, [
      did,
    ]);
    return {
      did: row.did,
      scid: row.scid,
      bytes: Number(row.bytes),
      firstKeptAt: row.firstKeptAt,
      updatedAt: row.updatedAt,
      rewrite: readRewrite(row.rewrite),
      entries: entries.rows.map(toEntry),
    };
  }

  async text(did: string): Promise<KeptLogText | undefined> {
    const { rows } = await this.pool.query<{ witness: string | null }>('SELECT witness FROM webvh_kept_logs WHERE did = $1', [did]);
    if (rows[0] === undefined) return undefined;
    const lines = await this.pool.query<{ line: string }>('SELECT line FROM webvh_kept_entries WHERE did = $1 ORDER BY version_number', [did]);
    return { lines: lines.rows.map((r) => r.line), witness: rows[0].witness };
  }

  append(log: AppendKeptLog): Promise<number | null> {
    return inLockedTransaction(this.pool, LOCK_CLASS.keptLogs, log.did, async (client): Promise<number | null> => {
      const { rows } = await client.query<{ entries: number }>('SELECT entries FROM webvh_kept_logs WHERE did = $1', [log.did]);
      if (rows[0] === undefined) {
        // The bound on kept logs, as the count reads it now: daemons adding new DIDs at once may pass it by a few.
        const { rows: all } = await client.query<{ n: string }>('SELECT count(*) AS n FROM webvh_kept_logs');
        if (Number(all[0]!.n) >= log.maxLogs) return null;
      }
      if (Number(rows[0]?.entries ?? 0) !== log.after) return 0;
      await client.query(
        `INSERT INTO webvh_kept_logs (did, scid, witness, first_kept_at, updated_at) VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (did) DO UPDATE SET witness = COALESCE(excluded.witness, webvh_kept_logs.witness), updated_at = excluded.updated_at`,
        [log.did, log.scid, log.witness, log.at],
      );
      let added = 0;
      let bytes = 0;
      for (const e of log.entries) {
        const result = await client.query(
          `INSERT INTO webvh_kept_entries (did, version_number, version_id, version_time, entry_hash, line_sha256, line)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
          [log.did, e.versionNumber, e.versionId, e.versionTime, e.entryHash, e.lineSha256, e.line],
        );
        if (result.rowCount === 0) continue;
        added++;
        bytes += Buffer.byteLength(e.line, 'utf8');
      }
      await client.query('UPDATE webvh_kept_logs SET entries = entries + $1, bytes = bytes + $2 WHERE did = $3', [added, bytes, log.did]);
      return added;
    });
  }

  async markRewritten(did: string, rewrite: LogRewrite): Promise<void> {
    await this.pool.query('UPDATE webvh_kept_logs SET rewrite = $1 WHERE did = $2 AND rewrite IS NULL', [JSON.stringify(rewrite), did]);
  }
}
