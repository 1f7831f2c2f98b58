/**
 * The one way the shells open storage, whichever engine holds it: a SQLite file (the embedded
 * default, better-sqlite3) or a PostgreSQL database (`postgres://…`, several daemons on one
 * database). Each driver is imported only when its engine is asked for, so a command that stores
 * nothing loads neither, and a SQLite user never loads `pg`.
 *
 * Which database: `--db <path or URL>`, else SVC_DATABASE_URL (a PostgreSQL URL), else the
 * default file under $XDG_STATE_HOME/svc/.
 */
import type { Database } from './schema/database.js';
import { StoreError } from './schema/errors.js';
import { defaultStorePath } from './schema/paths.js';
import { isPostgresUrl, redactedUrl } from './postgres/url.js';

export type { BackupResult, Database, DatabaseReadiness, SharedCoordination, StorageUsage } from './schema/database.js';

export interface OpenDatabaseOptions {
  /** A file path, ':memory:', or a `postgres://` URL (see databaseTarget). */
  target: string;
  /** Production mode (the daemon): ':memory:' is refused. */
  production?: boolean;
  /** The daemon's ceilings of the history tables, on either engine (docs/operations.md#bounded-history). */
  maxObservations?: number;
  maxMcpObservations?: number;
  /** Most observations one group commit writes, on either engine (SVC_RECORD_BATCH; default 64). */
  recordBatch?: number;
  /** SQLite: write the observations on a worker thread (the daemon; see src/store/sqlite/writer-thread.ts). */
  recordThread?: boolean;
  /** SQLite: checkpoint the WAL on a worker thread (the daemon; see src/store/sqlite/checkpointer.ts). */
  backgroundCheckpoints?: boolean;
  onFirstRefusal?: (table: 'observations' | 'mcpObservations', ceiling: number) => void;
  /** PostgreSQL: most connections this process holds (default 10). */
  maxConnections?: number;
}

/** SVC_DATABASE_URL, when set and not empty; anything but a PostgreSQL URL is refused by databaseTarget. */
function databaseUrlSetting(env: NodeJS.ProcessEnv): string | undefined {
  const value = env['SVC_DATABASE_URL']?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The database a command uses: `--db` (a file path, or a `postgres://` URL), else
 * SVC_DATABASE_URL, else the default file. Throws StoreError OPEN_FAILED for a SVC_DATABASE_URL
 * that is not a PostgreSQL URL (a file is named with --db; silently treating a URL typo as a
 * file name would create a stray database).
 */
export function databaseTarget(db: string | undefined, env: NodeJS.ProcessEnv): string {
  if (db !== undefined) return db;
  const url = databaseUrlSetting(env);
  if (url !== undefined) {
    if (!isPostgresUrl(url))
      throw new StoreError('OPEN_FAILED', `SVC_DATABASE_URL must be a postgres:// URL (a database file is given with --db), not "${url.slice(0, 40)}"`);
    return url;
  }
  return defaultStorePath(env);
}

/** The target as messages may show it: a URL without its password, a path as it is. */
export function databaseLocation(target: string): string {
  return isPostgresUrl(target) ? redactedUrl(target) : target;
}

export { isPostgresUrl };

/**
 * Opens (creating and migrating as needed) the database of `target`, on the engine it names: a
 * `postgres://` URL on PostgreSQL (postgres/index.ts), a file or ':memory:' on SQLite
 * (sqlite/index.ts). Throws StoreError as the engine's own open does: OPEN_FAILED, FUTURE_SCHEMA,
 * MEMORY_IN_PRODUCTION.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (isPostgresUrl(options.target)) {
    const { openPostgresStore } = await import('./postgres/index.js');
    const store = await openPostgresStore({
      url: options.target,
      ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
      ...(options.maxObservations !== undefined ? { maxObservations: options.maxObservations } : {}),
      ...(options.maxMcpObservations !== undefined ? { maxMcpObservations: options.maxMcpObservations } : {}),
      ...(options.recordBatch !== undefined ? { recordBatch: options.recordBatch } : {}),
      ...(options.onFirstRefusal ? { onFirstRefusal: options.onFirstRefusal } : {}),
    });
    return store;
  }
  const { openSqliteStore } = await import('./sqlite/index.js');
  const store = openSqliteStore({
    path: options.target,
    ...(options.production !== undefined ? { production: options.production } : {}),
    ...(options.maxObservations !== undefined ? { maxObservations: options.maxObservations } : {}),
    ...(options.maxMcpObservations !== undefined ? { maxMcpObservations: options.maxMcpObservations } : {}),
    ...(options.recordBatch !== undefined ? { recordBatch: options.recordBatch } : {}),
    ...(options.recordThread !== undefined ? { recordThread: options.recordThread } : {}),
    ...(options.backgroundCheckpoints !== undefined ? { backgroundCheckpoints: options.backgroundCheckpoints } : {}),
    ...(options.onFirstRefusal ? { onFirstRefusal: options.onFirstRefusal } : {}),
  });
  return {
    engine: 'sqlite',
    location: store.path,
    schemaVersion: store.schemaVersion,
    storage: store.storage,
    // Getters: each repository prepares its statements when first used (a `svc resolve` touches
    // the observations only); reading them all here would prepare every statement on every open.
    get observations() {
      return store.observations;
    },
    get delegationChains() {
      return store.delegationChains;
    },
    get mcpObservations() {
      return store.mcpObservations;
    },
    get watches() {
      return store.watches;
    },
    get customerMonitor() {
      return store.customerMonitor;
    },
    get keptLogs() {
      return store.keptLogs;
    },
    get monitorEvents() {
      return store.monitorEvents;
    },
    get claims() {
      return store.claims;
    },
    get accounts() {
      return store.accounts;
    },
    readiness: async () => store.readiness(),
    usage: async () => ({ observations: store.observations.usage(), mcpObservations: store.mcpObservations.usage() }),
    backup: (destination) => store.backup(destination),
    close: async () => store.close(),
  };
}
