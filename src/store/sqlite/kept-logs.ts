/**
 * Kept did:webvh logs over SQLite (schema v14: webvh_kept_logs, webvh_kept_entries). append()
 * is one IMMEDIATE transaction: the count read and the entries written together.
 */
import type Database from 'better-sqlite3';
import type { AppendKeptLog, KeptLog, KeptLogEntry, KeptLogStore, KeptLogText, LogRewrite } from '../../core/webvh/store.js';
import { KEPT_ENTRY_COLUMNS, KEPT_LOG_COLUMNS, readRewrite, toEntry, type KeptLogRow } from '../schema/kept-logs.js';

export class SqliteKeptLogStore implements KeptLogStore {
  readonly #log: Database.Statement<[string], KeptLogRow>;
  readonly #entries: Database.Statement<[string], KeptLogEntry>;
  readonly #lines: Database.Statement<[string], { line: string }>;
  readonly #witness: Database.Statement<[string], { witness: string | null }>;
  readonly #append: (log: AppendKeptLog) => number | null;
  readonly #rewrite: Database.Statement<[string, string]>;

  constructor(db: Database.Database) {
    this.#log = db.prepare(`SELECT ${KEPT_LOG_COLUMNS('')} FROM webvh_kept_logs WHERE did = ?`);
    this.#entries = db.prepare(`SELECT ${KEPT_ENTRY_COLUMNS('')} FROM webvh_kept_entries WHERE did = ? ORDER BY version_number`);
    this.#lines = db.prepare('SELECT line FROM webvh_kept_entries WHERE did = ? ORDER BY version_number');
    this.#witness = db.prepare('SELECT witness FROM webvh_kept_logs WHERE did = ?');
    this.#rewrite = db.prepare('UPDATE webvh_kept_logs SET rewrite = ? WHERE did = ? AND rewrite IS NULL');
    const count = db.prepare<[string], { entries: number }>('SELECT entries FROM webvh_kept_logs WHERE did = ?');
    const upsert = db.prepare<[string, string, string | null, string, string]>(
      `INSERT INTO webvh_kept_logs (did, scid, witness, first_kept_at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (did) DO UPDATE SET witness = COALESCE(excluded.witness, webvh_kept_logs.witness), updated_at = excluded.updated_at`,
    );
    const insert = db.prepare<[string, number, string, string, string, string, string]>(
      `INSERT INTO webvh_kept_entries (did, version_number, version_id, version_time, entry_hash, line_sha256, line)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    const totals = db.prepare<[number, number, string]>('UPDATE webvh_kept_logs SET entries = entries + ?, bytes = bytes + ? WHERE did = ?');
    const logs = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM webvh_kept_logs');
    const append = db.transaction((log: AppendKeptLog): number | null => {
      const kept = count.get(log.did);
      if (kept === undefined && logs.get()!.n >= log.maxLogs) return null;
      if ((kept?.entries ?? 0) !== log.after) return 0;
      upsert.run(log.did, log.scid, log.witness, log.at, log.at);
      let added = 0;
      let bytes = 0;
      for (const e of log.entries) {
        if (insert.run(log.did, e.versionNumber, e.versionId, e.versionTime, e.entryHash, e.lineSha256, e.line).changes === 0) continue;
        added++;
        bytes += Buffer.byteLength(e.line, 'utf8');
      }
      totals.run(added, bytes, log.did);
      return added;
    });
    this.#append = (log) => append.immediate(log);
  }

  async get(did: string): Promise<KeptLog | undefined> {
    const row = this.#log.get(did);
    if (row === undefined) return undefined;
    return {
      did: row.did,
      scid: row.scid,
      bytes: row.bytes,
      firstKeptAt: row.firstKeptAt,
      updatedAt: row.updatedAt,
      rewrite: readRewrite(row.rewrite),
      entries: this.#entries.all(did).map(toEntry),
    };
  }

  async text(did: string): Promise<KeptLogText | undefined> {
    const row = this.#witness.get(did);
    if (row === undefined) return undefined;
    return { lines: this.#lines.all(did).map((r) => r.line), witness: row.witness };
  }

  async append(log: AppendKeptLog): Promise<number | null> {
    return this.#append(log);
  }

  async markRewritten(did: string, rewrite: LogRewrite): Promise<void> {
    this.#rewrite.run(JSON.stringify(rewrite), did);
  }
}
