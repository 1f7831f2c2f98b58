/**
 * The resolution cache shared by several daemons over PostgreSQL: a second tier behind each
 * daemon's in-process LRU, with the leases that give one caller at a time the resolution of a
 * key (single flight; the protocol itself is src/server/shared-cache.ts).
 *
 * Every time that decides anything — an entry's expiry, a lease's — is the database's
 * clock_timestamp() (epoch milliseconds for `expires_at_ms`), never a daemon's clock: daemons
 * whose clocks disagree still agree on what is live. clock_timestamp(), not now(): now() is the
 * start of the transaction, and these statements must judge the moment they run.
 *
 * The table stays bounded without a scan on every read: a read is one primary-key lookup, and
 * every `maintenanceEvery`-th write of this instance (its first included) deletes expired
 * entries and leases and trims the entries beyond `maxEntries` (those closest to expiry go
 * first, as in the SQLite tier). Between two passes the table may hold up to `maintenanceEvery`
 * rows per daemon more than `maxEntries`.
 */
import type pg from 'pg';
import type { SharedResolutionCache } from '../../core/resolve/cache-store.js';
import type { EnrichedResolution } from '../../core/resolve/types.js';
import { NOW_MS } from './sql.js';

/** The migration lock of index.ts ('svc!'): schema changes of every kind serialise on it. */
const SCHEMA_LOCK = 0x73766321;

/**
 * Run once by the backend's open function after migrating (idempotent, safe for daemons starting
 * together: it holds the schema lock, and a multi-statement query is one transaction).
 *
 * - `svc_resolution_leases`: who is resolving which key, until when. Coordination state, not part
 *   of the versioned schema: UNLOGGED (not written to the WAL, emptied after a crash — a lease
 *   lost then only means a DID may be resolved twice).
 */
export const RESOLUTION_LEASES_DDL = `
  SELECT pg_advisory_xact_lock(${SCHEMA_LOCK});
  CREATE UNLOGGED TABLE IF NOT EXISTS svc_resolution_leases (
    key TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
  );
`;

/** Reviver that freezes every object and array as JSON.parse completes it (children first). */
function freeze(_key: string, value: unknown): unknown {
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}

/** A stored body read back: the resolution, or undefined when it is not one (corrupt, truncated, foreign). */
function parseBody(body: string): EnrichedResolution | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body, freeze);
  } catch {
    return undefined;
  }
  // Not a full validation (that would cost more than the cache saves): enough to refuse what is
  // plainly not a stored resolution, written by this class with `cached: true`.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const candidate = value as Partial<Record<keyof EnrichedResolution, unknown>>;
  if (typeof candidate.did !== 'string' || candidate.cached !== true) return undefined;
  return value as EnrichedResolution;
}

export interface PostgresResolutionCacheOptions {
  /** Live entries kept at most (default 10 000); beyond it the entries closest to expiry go first. */
  maxEntries?: number;
  /** Writes of this instance between two maintenance passes (default 64; 1: every write). */
  maintenanceEvery?: number;
}

export class PostgresResolutionCache implements SharedResolutionCache {
  readonly #maxEntries: number;
  readonly #maintenanceEvery: number;
  #writes = 0;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresResolutionCacheOptions = {},
  ) {
    this.#maxEntries = Math.max(0, Math.floor(options.maxEntries ?? 10_000));
    this.#maintenanceEvery = Math.max(1, Math.floor(options.maintenanceEvery ?? 64));
  }

  async get(key: string): Promise<EnrichedResolution | undefined> {
    // An expired row is left where it is: a read stays a read, and the next write of the key
    // overwrites it or a maintenance pass deletes it.
    const { rows } = await this.pool.query<{ body: string }>(`SELECT body FROM resolution_cache WHERE key = $1 AND expires_at_ms > ${NOW_MS}`, [key]);
    const body = rows[0]?.body;
    if (body === undefined) return undefined;
    const hit = parseBody(body);
    if (hit === undefined) {
      // A miss, never the client's error. Deleted only if still this body: another daemon may
      // have stored a good one since. A failure here changes nothing for this read.
      await this.pool.query('DELETE FROM resolution_cache WHERE key = $1 AND body = $2', [key, body]).catch(() => undefined);
    }
    return hit;
  }

  async set(key: string, did: string, value: EnrichedResolution, ttlSeconds: number): Promise<void> {
    // `!(x > 0)` also refuses NaN. Capped so that the sum stays far inside BIGINT.
    if (!(ttlSeconds > 0) || this.#maxEntries === 0) return;
    const ttlMs = Math.min(Math.ceil(ttlSeconds * 1000), Number.MAX_SAFE_INTEGER);
    // Stored with `cached: true`, so a hit is the parsed body as it is, like an in-process hit.
    const body = JSON.stringify({ ...value, cached: true });
    await this.pool.query(
      `INSERT INTO resolution_cache (key, did, body, expires_at_ms) VALUES ($1, $2, $3, ${NOW_MS} + $4::bigint)
       ON CONFLICT (key) DO UPDATE SET did = excluded.did, body = excluded.body, expires_at_ms = excluded.expires_at_ms`,
      [key, did, body, ttlMs],
    );
    if (this.#writes++ % this.#maintenanceEvery === 0) {
      // The entry is stored: a failed pass is not this write's failure, and the next pass redoes it.
      await this.maintain().catch(() => undefined);
    }
  }

  /**
   * Deletes expired entries and leases, then the entries beyond maxEntries (closest to expiry
   * first). Run by set() now and then; public for tests and for an operator's periodic job.
   * One multi-statement query: one round trip, one transaction.
   */
  async maintain(): Promise<void> {
    await this.pool.query(`
      DELETE FROM resolution_cache WHERE expires_at_ms <= ${NOW_MS};
      DELETE FROM resolution_cache WHERE key IN (
        SELECT key FROM resolution_cache ORDER BY expires_at_ms DESC OFFSET ${this.#maxEntries});
      DELETE FROM svc_resolution_leases WHERE expires_at <= clock_timestamp();
    `);
  }

  async claim(key: string, holder: string, leaseMs: number): Promise<boolean> {
    const ms = Math.max(1, Math.min(Math.ceil(leaseMs), 2_147_483_647));
    // One statement, so two claimants cannot both win: the insert, or — on the key's row, locked
    // by ON CONFLICT — a takeover only when that lease has expired (or is the holder's own: a
    // renewal). When the WHERE refuses, nothing is returned.
    const { rowCount } = await this.pool.query(
      `INSERT INTO svc_resolution_leases (key, holder, expires_at)
       VALUES ($1, $2, clock_timestamp() + $3::bigint * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE svc_resolution_leases.expires_at <= clock_timestamp() OR svc_resolution_leases.holder = excluded.holder
       RETURNING holder`,
      [key, holder, ms],
    );
    return rowCount === 1;
  }

  async release(key: string, holder: string): Promise<void> {
    // Only the holder's own: a holder whose lease expired and was taken over does not free the
    // new holder's.
    await this.pool.query('DELETE FROM svc_resolution_leases WHERE key = $1 AND holder = $2', [key, holder]);
  }
}
