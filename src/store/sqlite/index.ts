/**
 * The embedded store: one SQLite database (better-sqlite3) in WAL mode, migrated to
 * SCHEMA_VERSION on open (sqlite/migrate.ts), with a thin repository per table group behind the
 * interfaces of the core's domains (core/runtime-store.ts). The shells reach it through
 * database.ts (openDatabase, lazily: the native module costs startup time), which hands `store`
 * to the Runtime.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { RuntimeStore } from '../../core/runtime-store.js';
import type { Clock } from '../../core/runtime.js';
import { checkCeiling } from '../schema/ceiling.js';
import type { BackupResult } from '../schema/database.js';
import { reasonOf, StoreError } from '../schema/errors.js';
import { SCHEMA_VERSION } from '../schema/migrations.js';
import { makeDirectory } from '../schema/paths.js';
import { SqliteAccountStore } from './accounts.js';
import { backupDatabase } from './backup.js';
import { Checkpointer } from './checkpointer.js';
import { SqliteClaimStore } from './claims.js';
import { SqliteCustomerMonitorStore } from './customer-monitor.js';
import { SqliteDelegationChainStore } from './delegation-chains.js';
import { SqliteKeptLogStore } from './kept-logs.js';
import { SqliteMcpObservationStore } from './mcp-observations.js';
import { futureSchemaError, migrate, readSchemaVersion } from './migrate.js';
import { SqliteMonitorEventStore } from './monitor-events.js';
import { checkRecordBatch, SqliteObservationStore } from './observations.js';
import { SqliteResolutionCache } from './resolution-cache.js';
import { SqliteWatchStore } from './watches.js';

export interface OpenSqliteOptions {
  /** A database file, or ':memory:'. */
  path: string;
  /** Production mode (the daemon): a database file is required. */
  production?: boolean;
  /** Clock of the resolution cache's expiry; the system clock unless a test fixes it. */
  clock?: Clock;
  /** Live entries the persistent resolution cache keeps at most (default 10000). */
  cacheMaxEntries?: number;
  /**
   * Most observation rows (the daemon's SVC_MAX_OBSERVATIONS; see src/store/schema/ceiling.ts);
   * undefined: unbounded, as the CLI's store is.
   */
  maxObservations?: number;
  /**
   * Most observations one transaction writes (a group commit of the records made while the
   * event loop was busy; see src/store/sqlite/observations.ts). Default 64; 1: each record commits on
   * its own, at once.
   */
  recordBatch?: number;
  /**
   * Write the observations on a worker thread with a connection of its own (the daemon; see
   * src/store/sqlite/writer-thread.ts), started on the first record. A store in memory writes on its
   * one connection all the same.
   */
  recordThread?: boolean;
  /**
   * Checkpoint the WAL on a worker thread instead of in the commits of the event loop (the
   * daemon; see src/store/sqlite/checkpointer.ts), started on the first group commit of
   * observations. Not for a store in memory, nor with recordThread (whose connection commits
   * off the event loop already).
   */
  backgroundCheckpoints?: boolean;
  /** Most MCP inventory rows (the daemon's SVC_MAX_MCP_OBSERVATIONS); undefined: unbounded. */
  maxMcpObservations?: number;
  /** Called once per table, on its first refusal at the ceiling since the store was opened. */
  onFirstRefusal?: (table: 'observations' | 'mcpObservations', ceiling: number) => void;
}

/** What GET /ready reports of a SQLite store (docs/daemon.md#probes). */
export type SqliteReadiness = { ready: true; storage: 'file' | 'memory'; schema: 'current' } | { ready: false; reason: string };

export interface SqliteStore extends RuntimeStore {
  /** Absolute path of the database file, or ':memory:'. */
  readonly path: string;
  readonly schemaVersion: number;
  /** The connection, for repositories of later table groups and for tests. */
  readonly db: Database.Database;
  readonly observations: SqliteObservationStore;
  readonly delegationChains: SqliteDelegationChainStore;
  readonly mcpObservations: SqliteMcpObservationStore;
  readonly resolutionCache: SqliteResolutionCache;
  readonly watches: SqliteWatchStore;
  readonly monitorEvents: SqliteMonitorEventStore;
  readonly claims: SqliteClaimStore;
  readonly accounts: SqliteAccountStore;
  readonly customerMonitor: SqliteCustomerMonitorStore;
  /** Re-reads the schema version and the schema itself; never throws. */
  readiness(): SqliteReadiness;
  /** Closes the connection (idempotent); a WAL file is checkpointed and removed. */
  close(): void;
  /** Online copy to a new file (mode 0600); never overwrites. */
  backup(destination: string): Promise<BackupResult>;
}

const systemClock: Clock = {
  now: () => new Date(),
  monotonicUs: () => performance.now() * 1000,
};

class Store implements SqliteStore {
  // Each repository prepares its statements when first used, not when the store opens: a run
  // of `svc resolve` touches the observations only (some 70 statements in all would be prepared).
  #observations?: SqliteObservationStore;
  #delegationChains?: SqliteDelegationChainStore;
  #mcpObservations?: SqliteMcpObservationStore;
  #resolutionCache?: SqliteResolutionCache;
  #watches?: SqliteWatchStore;
  #monitorEvents?: SqliteMonitorEventStore;
  #claims?: SqliteClaimStore;
  #accounts?: SqliteAccountStore;
  #customerMonitor?: SqliteCustomerMonitorStore;
  #keptLogs?: SqliteKeptLogStore;
  #probe?: Database.Statement<[], { n: number }>;
  readonly #checkpointer: Checkpointer | null;

  constructor(
    readonly db: Database.Database,
    readonly path: string,
    readonly storage: 'file' | 'memory',
    readonly schemaVersion: number,
    private readonly options: OpenSqliteOptions,
  ) {
    // The repositories are built on first use; their settings are refused now, when the store opens.
    checkCeiling('observations', options.maxObservations);
    checkCeiling('mcp_observations', options.maxMcpObservations);
    checkRecordBatch(options.recordBatch);
    this.#checkpointer =
      options.backgroundCheckpoints === true && storage === 'file' && options.recordThread !== true
        ? new Checkpointer(db, { path, nativeBinding: sqliteAddon() })
        : null;
  }

  get observations(): SqliteObservationStore {
    const refused = this.options.onFirstRefusal;
    const thread = this.options.recordThread === true && this.storage === 'file' ? { path: this.path, nativeBinding: sqliteAddon() } : undefined;
    const checkpointer = this.#checkpointer;
    return (this.#observations ??= new SqliteObservationStore(this.db, {
      ...(thread ? { thread } : {}),
      ...(checkpointer ? { committed: () => checkpointer.nudge() } : {}),
      batch: this.options.recordBatch,
      ceiling: this.options.maxObservations,
      onFirstRefusal: refused && ((ceiling) => refused('observations', ceiling)),
    }));
  }

  get keptLogs(): SqliteKeptLogStore {
    return (this.#keptLogs ??= new SqliteKeptLogStore(this.db));
  }

  get delegationChains(): SqliteDelegationChainStore {
    return (this.#delegationChains ??= new SqliteDelegationChainStore(this.db));
  }

  get mcpObservations(): SqliteMcpObservationStore {
    const refused = this.options.onFirstRefusal;
    return (this.#mcpObservations ??= new SqliteMcpObservationStore(this.db, {
      ceiling: this.options.maxMcpObservations,
      onFirstRefusal: refused && ((ceiling) => refused('mcpObservations', ceiling)),
    }));
  }

  get resolutionCache(): SqliteResolutionCache {
    return (this.#resolutionCache ??= new SqliteResolutionCache(this.db, this.options.clock ?? systemClock, {
      maxEntries: this.options.cacheMaxEntries ?? 10_000,
    }));
  }

  get watches(): SqliteWatchStore {
    return (this.#watches ??= new SqliteWatchStore(this.db));
  }

  get monitorEvents(): SqliteMonitorEventStore {
    return (this.#monitorEvents ??= new SqliteMonitorEventStore(this.db));
  }

  get claims(): SqliteClaimStore {
    return (this.#claims ??= new SqliteClaimStore(this.db));
  }

  get accounts(): SqliteAccountStore {
    return (this.#accounts ??= new SqliteAccountStore(this.db));
  }

  get customerMonitor(): SqliteCustomerMonitorStore {
    return (this.#customerMonitor ??= new SqliteCustomerMonitorStore(this.db));
  }

  readiness(): SqliteReadiness {
    if (!this.db.open) return { ready: false, reason: 'the database is closed' };
    try {
      const version = readSchemaVersion(this.db);
      if (version !== SCHEMA_VERSION) {
        return { ready: false, reason: `the database has schema version ${version}, expected ${SCHEMA_VERSION}` };
      }
      (this.#probe ??= this.db.prepare('SELECT count(*) AS n FROM sqlite_schema')).get();
      return { ready: true, storage: this.storage, schema: 'current' };
    } catch (error) {
      return { ready: false, reason: `the database cannot be read: ${reasonOf(error)}` };
    }
  }

  close(): void {
    if (!this.db.open) return;
    // Records still waiting for their group commit are written (or refused) first; a writer
    // thread writes what it was sent and closes its connection before this one closes.
    this.#observations?.close();
    // The checkpointer's connection closes first: this one, the last, then checkpoints what is
    // left and removes the WAL.
    this.#checkpointer?.close();
    this.db.close();
  }

  backup(destination: string): Promise<BackupResult> {
    return backupDatabase(this.db, destination);
  }
}

/**
 * Creates the parent directory (0700) and the file (0600) when missing, so that the database is
 * never readable by others even for an instant. SQLite gives its -wal and -shm files the
 * database file's mode.
 */
function prepareFile(file: string): void {
  // Not mkdirSync({ recursive: true }): it spins forever under /proc (see makeDirectory).
  makeDirectory(path.dirname(file), 0o700);
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new StoreError('OPEN_FAILED', `cannot create the database ${file}: ${reasonOf(error)}`);
  }
  // The umask may have narrowed the mode further; make it exactly 0600.
  fs.chmodSync(file, 0o600);
}

/**
 * better-sqlite3 itself, loaded with require() when a store is first opened: an ESM import of
 * the CommonJS package makes Node scan each of its files for export names first (about 3 ms of
 * every `svc resolve`).
 */
let driver: typeof Database | undefined;

function sqliteDriver(): typeof Database {
  driver ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  return driver;
}

let addonPath: string | null | undefined;

/**
 * Where better-sqlite3's addon is, when it is where npm builds or installs it: handed to the
 * driver, this spares every start its own search (the `bindings` package walks the call stack and
 * tries a dozen paths), some milliseconds of a CLI run. null: elsewhere, and the driver searches.
 */
function sqliteAddon(): string | null {
  if (addonPath === undefined) {
    try {
      addonPath = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
    } catch {
      addonPath = null;
    }
  }
  return addonPath;
}

/**
 * Opens (creating if needed) and migrates the SQLite database of `options.path`: a file, or
 * ':memory:'. Throws StoreError: FUTURE_SCHEMA for a database newer than this build (left
 * untouched), OPEN_FAILED when the file cannot be opened, is not a SQLite database or a migration
 * fails, MEMORY_IN_PRODUCTION for ':memory:' in production mode. The connection is closed on
 * every failure.
 */
export function openSqliteStore(options: OpenSqliteOptions): SqliteStore {
  const memory = options.path === ':memory:';
  if (memory && options.production === true) {
    throw new StoreError('MEMORY_IN_PRODUCTION', 'production mode requires a database file');
  }
  // better-sqlite3 reads '' as "a temporary database": never what a configured path means.
  if (options.path.trim() === '') throw new StoreError('OPEN_FAILED', 'the database path is empty');
  const file = memory ? ':memory:' : path.resolve(options.path);
  if (!memory) prepareFile(file);

  let db: Database.Database | undefined;
  try {
    const nativeBinding = sqliteAddon();
    const Driver = sqliteDriver();
    db = new Driver(file, nativeBinding === null ? {} : { nativeBinding });
    db.pragma('busy_timeout = 5000');
    // Read before anything that writes: journal_mode = WAL rewrites the header of a database
    // in rollback mode, and a future database must stay byte-identical.
    const found = readSchemaVersion(db);
    if (found > SCHEMA_VERSION) throw futureSchemaError(found);
    if (!memory) db.pragma('journal_mode = WAL');
    // With WAL, NORMAL loses no committed transaction when the process dies (only on power
    // loss may the last ones roll back), and the database is never corrupted.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const version = migrate(db);
    return new Store(db, file, memory ? 'memory' : 'file', version, options);
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Already failing; the cause below is the one to report.
    }
    if (error instanceof StoreError) throw error;
    throw new StoreError('OPEN_FAILED', `cannot open the database ${file}: ${reasonOf(error)}`);
  }
}
