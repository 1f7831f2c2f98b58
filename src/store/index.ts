/**
 * The storage package (ARCHITECTURE.md, `src/store`): what the shells and the tests import of it.
 * The layout:
 * - database.ts: openDatabase, the one way the shells open storage — a SQLite file or
 *   ':memory:', or a `postgres://` URL — each driver loaded only when its engine is asked for;
 * - schema/: what both engines share — the migrations (written once, translated for PostgreSQL),
 *   the statements and rules written once for both (ceilings, pending shares, claims, accounts,
 *   customer monitoring), row mappers, StoreError, the default path, the Database contract;
 * - sqlite/: the embedded engine (better-sqlite3): openSqliteStore and a repository per table group;
 * - postgres/: the PostgreSQL engine (pg): openPostgresStore, the same repositories, and what
 *   several daemons share (budgets, the resolution cache's second tier).
 * Importing this module loads the SQLite repositories (not the native driver, which the first open
 * loads); a command that may store nothing imports database.ts, schema/errors.ts or
 * schema/paths.ts instead.
 */
export { SCHEMA_VERSION } from './schema/migrations.js';
export { KeyCapacityError, StoreError, type StoreErrorCode } from './schema/errors.js';
export type { BackupResult } from './schema/database.js';
export type { RowUsage } from './schema/ceiling.js';
// Kept in its own module so that commands can name the path without loading better-sqlite3.
export { defaultStorePath, storePathProblem } from './schema/paths.js';
export { backupDatabase } from './sqlite/backup.js';
export { openSqliteStore, type OpenSqliteOptions, type SqliteReadiness, type SqliteStore } from './sqlite/index.js';
/**
 * openStore opens the embedded SQLite store of a file or ':memory:' (openSqliteStore, under the
 * name its callers know); a shell that may be given a `postgres://` URL opens through openDatabase.
 */
export { openSqliteStore as openStore, type OpenSqliteOptions as OpenStoreOptions, type SqliteStore as Store } from './sqlite/index.js';
export { SqliteObservationStore } from './sqlite/observations.js';
export { SqliteDelegationChainStore } from './sqlite/delegation-chains.js';
export { SqliteMcpObservationStore } from './sqlite/mcp-observations.js';
export { SqliteResolutionCache, type SqliteResolutionCacheOptions } from './sqlite/resolution-cache.js';
export { SqliteWatchStore } from './sqlite/watches.js';
export { SqliteMonitorEventStore } from './sqlite/monitor-events.js';
export { SqliteClaimStore } from './sqlite/claims.js';
export { SqliteAccountStore } from './sqlite/accounts.js';
export { SqliteCustomerMonitorStore } from './sqlite/customer-monitor.js';
