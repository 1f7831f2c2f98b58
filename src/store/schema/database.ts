/**
 * What an opened database offers the shells, whichever engine holds it (database.ts opens it:
 * sqlite/index.ts for a file or ':memory:', postgres/index.ts for a `postgres://` URL): the
 * repositories of the core's RuntimeStore, and readiness, usage, backup and close.
 */
import type { SharedResolutionCache } from '../../core/resolve/cache-store.js';
import type { RuntimeStore } from '../../core/runtime-store.js';
import type { RowUsage } from './ceiling.js';

/** What a backup wrote (SQLite's online backup; PostgreSQL's are the server's own job). */
export interface BackupResult {
  /** Absolute path of the copy. */
  destination: string;
  bytes: number;
  pages: number;
}

/** What GET /ready reports: the engine the daemon stores in (`file`, `memory` or `postgres`). */
export type DatabaseReadiness = { ready: true; storage: 'file' | 'memory' | 'postgres'; schema: 'current' } | { ready: false; reason: string };

export interface StorageUsage {
  observations: RowUsage;
  mcpObservations: RowUsage;
}

/** Shared by every daemon on one PostgreSQL database: the public budgets and the resolution cache's second tier. */
export interface SharedCoordination {
  budgets: { take(key: string, perPeriod: number, periodMs?: number): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> };
  resolutionCache: SharedResolutionCache;
}

export interface Database extends RuntimeStore {
  readonly engine: 'sqlite' | 'postgres';
  /** The file path, ':memory:', or the URL without its password: fit for logs and messages. */
  readonly location: string;
  readonly schemaVersion: number;
  /** Whether the database answers and its schema is current; never throws. */
  readiness(): Promise<DatabaseReadiness>;
  /** Rows, ceilings, evictions and refusals of the history tables. */
  usage(): Promise<StorageUsage>;
  /** Online copy to a new file (SQLite); PostgreSQL refuses with StoreError NOT_SUPPORTED (pg_dump's job). */
  backup(destination: string): Promise<BackupResult>;
  /** Present on PostgreSQL only: the pool's connections (total, idle) and the queries waiting for one, now. */
  connections?(): { total: number; idle: number; waiting: number };
  /** Present on PostgreSQL only: what several daemons share beyond the tables. */
  readonly shared?: SharedCoordination;
  /** Closes the connection or pool (idempotent). */
  close(): Promise<void>;
}
