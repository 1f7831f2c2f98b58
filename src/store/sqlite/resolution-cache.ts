/**
 * Persistent second tier of the resolution cache (the daemon's): survives restarts and is
 * shared by the processes using one database file. Expiry follows the Runtime clock; expired
 * rows are deleted when read and whenever an entry is written.
 */
import type Database from 'better-sqlite3';
import type { EnrichedResolution } from '../../core/resolve/types.js';
import type { Clock, ResolutionCache } from '../../core/runtime.js';

/** Reviver that freezes every object and array as JSON.parse completes it (children first). */
function freeze(_key: string, value: unknown): unknown {
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}

export interface SqliteResolutionCacheOptions {
  /** Live entries kept at most; beyond it the entries closest to expiry go first. */
  maxEntries?: number;
}

export class SqliteResolutionCache implements ResolutionCache {
  readonly #get: Database.Statement<[string], { body: string; expiresAtMs: number }>;
  readonly #deleteIfExpired: Database.Statement<[string, number]>;
  readonly #purge: Database.Statement<[number]>;
  readonly #upsert: Database.Statement<[string, string, string, number]>;
  readonly #trim: Database.Statement<[number]>;
  readonly #delete: Database.Statement<[string]>;
  readonly #clear: Database.Statement<[]>;
  readonly #size: Database.Statement<[number], { n: number }>;
  readonly #write: (key: string, did: string, body: string, expiresAtMs: number, nowMs: number) => void;

  constructor(
    db: Database.Database,
    private readonly clock: Clock,
    options: SqliteResolutionCacheOptions = {},
  ) {
    const maxEntries = options.maxEntries ?? 10_000;
    this.#get = db.prepare('SELECT body, expires_at_ms AS expiresAtMs FROM resolution_cache WHERE key = ?');
    // Conditional: another process may have stored a fresh entry since this one was read.
    this.#deleteIfExpired = db.prepare('DELETE FROM resolution_cache WHERE key = ? AND expires_at_ms <= ?');
    this.#purge = db.prepare('DELETE FROM resolution_cache WHERE expires_at_ms <= ?');
    this.#upsert = db.prepare(
      `INSERT INTO resolution_cache (key, did, body, expires_at_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET did = excluded.did, body = excluded.body, expires_at_ms = excluded.expires_at_ms`,
    );
    this.#trim = db.prepare(
      `DELETE FROM resolution_cache WHERE key IN (
         SELECT key FROM resolution_cache ORDER BY expires_at_ms
         LIMIT max(0, (SELECT count(*) FROM resolution_cache) - ?))`,
    );
    this.#delete = db.prepare('DELETE FROM resolution_cache WHERE key = ?');
    this.#clear = db.prepare('DELETE FROM resolution_cache');
    this.#size = db.prepare('SELECT count(*) AS n FROM resolution_cache WHERE expires_at_ms > ?');
    this.#write = db.transaction((key: string, did: string, body: string, expiresAtMs: number, nowMs: number) => {
      this.#purge.run(nowMs);
      this.#upsert.run(key, did, body, expiresAtMs);
      this.#trim.run(maxEntries);
    });
  }

  /** Entries not yet expired. */
  get size(): number {
    return this.#size.get(this.clock.now().getTime())?.n ?? 0;
  }

  get(key: string): EnrichedResolution | undefined {
    const row = this.#get.get(key);
    if (row === undefined) return undefined;
    const nowMs = this.clock.now().getTime();
    if (nowMs >= row.expiresAtMs) {
      this.#deleteIfExpired.run(key, nowMs);
      return undefined;
    }
    // Stored with `cached: true`, so a hit is the parsed body, deep-frozen like a memory hit.
    return JSON.parse(row.body, freeze) as EnrichedResolution;
  }

  set(key: string, value: EnrichedResolution, ttlSeconds: number): void {
    if (!(ttlSeconds > 0)) return;
    const nowMs = this.clock.now().getTime();
    const expiresAtMs = Math.min(nowMs + Math.ceil(ttlSeconds * 1000), Number.MAX_SAFE_INTEGER);
    this.#write(key, value.did, JSON.stringify({ ...value, cached: true }), expiresAtMs, nowMs);
  }

  delete(key: string): void {
    this.#delete.run(key);
  }

  clear(): void {
    this.#clear.run();
  }
}
