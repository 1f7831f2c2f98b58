/**
 * The PostgreSQL backend (several daemons, one database): the same schema versions as the
 * embedded SQLite store (the migrations translated by dialect.ts), behind the same asynchronous
 * repository interfaces of src/core/store.ts. Loaded only when a `postgres://` database is
 * configured, like better-sqlite3 for a file.
 *
 * Schema versions live in `svc_schema_version` (one row). Every migration runs in one
 * transaction holding a transaction-level advisory lock, so daemons starting together on an
 * empty database migrate it once; a database newer than this build is refused, never
 * downgraded. Times that decide anything (coalescing order, expiry) come from the values the
 * core passes or from the database, never from this process.
 */
import pg from 'pg';
import type { BackupResult } from '../schema/database.js';
import type { Database, SharedCoordination, StorageUsage } from '../schema/database.js';
import { StoreError } from '../schema/errors.js';
import { futureSchemaMessage, MIGRATIONS, SCHEMA_VERSION } from '../schema/migrations.js';
import { checkCeiling } from '../schema/ceiling.js';
import { BUDGETS_DDL, PostgresBudgets } from './budgets.js';
import { ROW_COUNTS_DDL } from './ceiling.js';
import { NULLABLE_JSON_REPAIR, postgresSql } from './dialect.js';
import { PostgresResolutionCache, RESOLUTION_LEASES_DDL } from './resolution-cache.js';
import { inTransaction, transaction } from './sql.js';
import { PostgresDelegationChainStore } from './delegation-chains.js';
import { PostgresKeptLogStore } from './kept-logs.js';
import { PostgresMcpObservationStore } from './mcp-observations.js';
import { PostgresObservationStore } from './observations.js';
import { PostgresMonitorEventStore } from './monitor-events.js';
import { PostgresWatchStore } from './watches.js';
import { PostgresClaimStore } from './claims.js';
import { PostgresAccountStore } from './accounts.js';
import { PostgresCustomerMonitorStore } from './customer-monitor.js';
import { redactedUrl } from './url.js';

export { isPostgresUrl, redactedUrl } from './url.js';

/** The advisory lock every migration takes: 'svc!' as a 32-bit number, in the key space of svc. */
const MIGRATION_LOCK = 0x73766321;

export interface OpenPostgresOptions {
  /** `postgres://user@host:port/database` (libpq URL; a password may be given in it or in PGPASSWORD). */
  url: string;
  /** A schema to use (created when missing) instead of the user's default (`public`); tests use one each. */
  schema?: string;
  /** Most connections this daemon holds (default 10). */
  maxConnections?: number;
  /**
   * Most observation rows (the daemon's SVC_MAX_OBSERVATIONS), held across every daemon on the
   * database (src/store/postgres/ceiling.ts); undefined: unbounded, as the CLI's store is.
   */
  maxObservations?: number;
  /** Most MCP inventory rows (the daemon's SVC_MAX_MCP_OBSERVATIONS); undefined: unbounded. */
  maxMcpObservations?: number;
  /**
   * Most observations one group commit writes (the daemon's SVC_RECORD_BATCH, as on SQLite;
   * default GROUP_COMMIT_BATCH, 64; 1: each in a transaction of its own).
   */
  recordBatch?: number;
  /** Called once per table, on its first refusal at the ceiling since the store was opened. */
  onFirstRefusal?: (table: 'observations' | 'mcpObservations', ceiling: number) => void;
}

export interface PostgresStore extends Database {
  readonly engine: 'postgres';
  readonly storage: 'postgres';
  readonly pool: pg.Pool;
  readonly observations: PostgresObservationStore;
  readonly delegationChains: PostgresDelegationChainStore;
  readonly mcpObservations: PostgresMcpObservationStore;
  readonly watches: PostgresWatchStore;
  readonly monitorEvents: PostgresMonitorEventStore;
  readonly claims: PostgresClaimStore;
  readonly accounts: PostgresAccountStore;
  readonly customerMonitor: PostgresCustomerMonitorStore;
  /** Whether the server answers and the schema is current; never throws. */
  readiness(): Promise<{ ready: true; storage: 'postgres'; schema: 'current' } | { ready: false; reason: string }>;
  /** Closes every connection (idempotent). */
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** One line for a failure of the server or the driver (its code where there is one). */
export function pgReason(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  switch (e?.code) {
    case 'ECONNREFUSED':
      return 'the server refused the connection (is PostgreSQL running there?)';
    case 'ENOTFOUND':
      return 'the server name does not resolve';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case '28P01':
    case '28000':
      return 'authentication failed';
    case '3D000':
      return 'the database does not exist';
    case '42501':
      return 'permission denied';
    case '57P01':
    case '57P03':
      return 'the server is shutting down or starting up';
  }
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return message.split('\n', 1)[0] || 'unknown error';
}

/**
 * Whether a failure means the server cannot be reached just now, rather than a fault of the
 * statement: the driver's own errors (refused, reset, timed out, terminated connections carry
 * no SQLSTATE), and the SQLSTATE classes 08 (connection exception), 57P (shut down, starting
 * up) and 53 (out of connections, memory or disk).
 */
export function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57P') || code.startsWith('53');
}

/**
 * The repository with every method's failure to reach the server turned into
 * StoreError('UNAVAILABLE'): the daemon answers 503 SERVICE_UNAVAILABLE with Retry-After for
 * it, never a 500, and stays up. Other failures pass through as they are, and so does a
 * repository's RangeError (an argument out of range: the caller's mistake, not the server away).
 */
function guarded<T extends object>(repository: T): T {
  return new Proxy(repository, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).catch((error: unknown) => {
          if (error instanceof StoreError || error instanceof RangeError || !isUnavailable(error)) throw error;
          throw new StoreError('UNAVAILABLE', `the database cannot be reached: ${pgReason(error)}`);
        });
    },
  });
}

async function readVersion(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ version: number }>('SELECT version FROM svc_schema_version WHERE id = 1');
  return rows[0]?.version ?? 0;
}

/** Applies the migrations the database lacks, each in its own transaction under the advisory lock. */
async function migrate(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  const locked = (work: () => Promise<void>) =>
    transaction(client, async () => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await work();
    });
  try {
    // Under the lock: two daemons creating the table at once would race in the catalogue.
    await locked(async () => {
      await client.query('CREATE TABLE IF NOT EXISTS svc_schema_version (id SMALLINT PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)');
    });
    for (const migration of MIGRATIONS) {
      try {
        await locked(async () => {
          const current = await readVersion(client);
          if (current > SCHEMA_VERSION) throw new StoreError('FUTURE_SCHEMA', futureSchemaMessage(current));
          if (current >= migration.version) return;
          await client.query(postgresSql(migration.postgres ?? migration.up));
          await client.query('INSERT INTO svc_schema_version (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version', [
            migration.version,
          ]);
        });
      } catch (error) {
        if (error instanceof StoreError) throw error;
        throw new StoreError('OPEN_FAILED', `migration ${migration.version} (${migration.name}) failed: ${pgReason(error)}`);
      }
    }
    try {
      await locked(async () => {
        if ((await readVersion(client)) >= 7) await client.query(NULLABLE_JSON_REPAIR);
      });
    } catch (error) {
      throw new StoreError('OPEN_FAILED', `repairing the JSON checks of monitor_baselines failed: ${pgReason(error)}`);
    }
    const version = await readVersion(client);
    if (version > SCHEMA_VERSION) throw new StoreError('FUTURE_SCHEMA', futureSchemaMessage(version));
    return version;
  } finally {
    client.release();
  }
}

class Store implements PostgresStore {
  readonly engine = 'postgres' as const;
  readonly storage = 'postgres' as const;
  readonly observations: PostgresObservationStore;
  readonly delegationChains: PostgresDelegationChainStore;
  readonly mcpObservations: PostgresMcpObservationStore;
  readonly watches: PostgresWatchStore;
  readonly monitorEvents: PostgresMonitorEventStore;
  readonly claims: PostgresClaimStore;
  readonly accounts: PostgresAccountStore;
  readonly customerMonitor: PostgresCustomerMonitorStore;
  readonly keptLogs: PostgresKeptLogStore;
  readonly shared: SharedCoordination;
  #closed = false;

  constructor(
    readonly pool: pg.Pool,
    readonly schemaVersion: number,
    /** The URL without its password. */
    readonly location: string,
    options: OpenPostgresOptions,
  ) {
    const refused = options.onFirstRefusal;
    this.observations = guarded(
      new PostgresObservationStore(pool, {
        ceiling: options.maxObservations,
        ...(options.recordBatch !== undefined ? { batch: options.recordBatch } : {}),
        onFirstRefusal: refused && ((ceiling) => refused('observations', ceiling)),
      }),
    );
    this.delegationChains = guarded(new PostgresDelegationChainStore(pool));
    this.mcpObservations = guarded(
      new PostgresMcpObservationStore(pool, {
        ceiling: options.maxMcpObservations,
        onFirstRefusal: refused && ((ceiling) => refused('mcpObservations', ceiling)),
      }),
    );
    this.watches = guarded(new PostgresWatchStore(pool));
    this.monitorEvents = guarded(new PostgresMonitorEventStore(pool));
    this.claims = guarded(new PostgresClaimStore(pool));
    this.accounts = guarded(new PostgresAccountStore(pool));
    this.customerMonitor = guarded(new PostgresCustomerMonitorStore(pool));
    this.keptLogs = guarded(new PostgresKeptLogStore(pool));
    this.shared = { budgets: new PostgresBudgets(pool), resolutionCache: new PostgresResolutionCache(pool) };
  }

  async readiness(): Promise<{ ready: true; storage: 'postgres'; schema: 'current' } | { ready: false; reason: string }> {
    if (this.#closed) return { ready: false, reason: 'the database is closed' };
    try {
      const { rows } = await this.pool.query<{ version: number }>('SELECT version FROM svc_schema_version WHERE id = 1');
      const version = rows[0]?.version ?? 0;
      if (version !== SCHEMA_VERSION) return { ready: false, reason: `the database has schema version ${version}, expected ${SCHEMA_VERSION}` };
      return { ready: true, storage: 'postgres', schema: 'current' };
    } catch (error) {
      return { ready: false, reason: `the database cannot be read: ${pgReason(error)}` };
    }
  }

  /** The pool's connections now (total, idle) and the queries waiting for one: read at a metrics scrape, no query. */
  connections(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  /**
   * Rows of the history tables (the exact counts the database keeps), their ceilings, and the
   * evictions and refusals of this process since it opened the store. The ceilings hold across
   * every daemon on the database (src/store/postgres/ceiling.ts).
   */
  async usage(): Promise<StorageUsage> {
    try {
      const [observations, mcpObservations] = await Promise.all([this.observations.usage(), this.mcpObservations.usage()]);
      return { observations, mcpObservations };
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(isUnavailable(error) ? 'UNAVAILABLE' : 'OPEN_FAILED', `the database cannot be read: ${pgReason(error)}`);
    }
  }

  /** Backups of a PostgreSQL database are the server's own job. */
  backup(): Promise<BackupResult> {
    return Promise.reject(
      new StoreError(
        'NOT_SUPPORTED',
        `svc backup copies an embedded SQLite file; the database ${this.location} is PostgreSQL: back it up with the server's own tools (pg_dump, or continuous archiving)`,
      ),
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Records already submitted to a group commit are written (or fail) before the pool goes.
    await Promise.all([this.observations.drain(), this.mcpObservations.drain(), this.watches.drain()]);
    await this.pool.end();
  }
}

/**
 * Connects, creates the schema when asked for one, and migrates. Throws StoreError: OPEN_FAILED
 * when the server cannot be reached or a migration fails (the URL in the message without its
 * password), FUTURE_SCHEMA for a database newer than this build. The pool is closed on failure.
 */
export async function openPostgresStore(options: OpenPostgresOptions): Promise<PostgresStore> {
  // Refused before connecting, as the SQLite store refuses them when it opens.
  checkCeiling('observations', options.maxObservations);
  checkCeiling('mcp_observations', options.maxMcpObservations);
  if (options.recordBatch !== undefined && !(Number.isSafeInteger(options.recordBatch) && options.recordBatch >= 1)) {
    throw new RangeError('the observation batch must be a whole number, 1 or more');
  }
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new StoreError('OPEN_FAILED', `the schema name "${options.schema.slice(0, 70)}" is not a plain lower-case identifier`);
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    ...(options.schema !== undefined ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // A connection that breaks while idle is reported here, not as an unhandled 'error' event.
  pool.on('error', () => undefined);
  try {
    if (options.schema !== undefined) await createSchema(pool, options.schema);
    const version = await migrate(pool);
    // Coordination tables beside the versioned schema (unlogged; each DDL idempotent and locked).
    await pool.query(BUDGETS_DDL);
    await pool.query(RESOLUTION_LEASES_DDL);
    // The exact row counts the ceilings read (beside the versioned schema, as the above).
    await pool.query(ROW_COUNTS_DDL);
    return new Store(pool, version, redactedUrl(options.url), options);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof StoreError) throw error;
    throw new StoreError('OPEN_FAILED', `cannot open the database ${redactedUrl(options.url)}: ${pgReason(error)}`);
  }
}

/** CREATE SCHEMA under the migration lock (two daemons creating it at once would race in the catalogue). */
function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  });
}
