/**
 * The daemon's database, held so that a database that cannot be opened (missing directory,
 * future schema, a file that is not SQLite, a PostgreSQL server that is down) does not stop the
 * daemon: resolution still works, `/ready` answers 503 NOT_READY with the reason, and each
 * `/ready` probe tries again — a volume mounted late, a migration run by an operator, or a
 * database server coming up makes the daemon ready without a restart.
 *
 * Opening is asynchronous (a PostgreSQL server is reached over the network); one attempt runs at
 * a time, however many probes arrive meanwhile.
 */
import type { RuntimeStore } from '../core/store.js';
import type { Telemetry } from '../core/telemetry.js';
import {
  databaseLocation,
  isPostgresUrl,
  openDatabase,
  type Database,
  type DatabaseReadiness,
  type SharedCoordination,
  type StorageUsage,
} from '../store/database.js';

export type Readiness = DatabaseReadiness;

/** The daemon's bounds on its history tables (docs/operations.md#bounded-history). */
export interface StorageBounds {
  /** SVC_MAX_OBSERVATIONS. */
  maxObservations: number;
  /** SVC_MAX_MCP_OBSERVATIONS. */
  maxMcpObservations: number;
  /** SVC_RECORD_BATCH (either engine). */
  recordBatch?: number;
  /** SVC_RECORD_THREAD: SQLite observations written by a worker thread (src/store/sqlite/writer-thread.ts). */
  recordThread?: boolean;
  /** Told once per table, when the first new row is refused at its ceiling. */
  warn?: (line: string) => void;
}

const CEILING_SETTING = { observations: 'SVC_MAX_OBSERVATIONS', mcpObservations: 'SVC_MAX_MCP_OBSERVATIONS' } as const;

export class StorageSlot {
  #db: Database | null = null;
  #error: string | null = null;
  #opening: Promise<void> | null = null;
  #closed = false;
  /** Where the database is, fit for logs (a URL without its password). */
  readonly location: string;

  constructor(
    /** A file path, ':memory:' (refused in production mode) or a `postgres://` URL. */
    private readonly target: string,
    private readonly production: boolean,
    /** Ceilings of the history tables; none: unbounded (tests of other concerns). */
    private readonly bounds?: StorageBounds,
    /** The operator's telemetry: each repository call is a `db` span named `<repository>.<method>`. */
    private readonly telemetry?: Telemetry,
  ) {
    this.location = databaseLocation(target);
  }

  /** Tries to open the database (once at a time); the outcome is in `store` and `error`. */
  open(): Promise<void> {
    if (this.#closed || this.#db) return Promise.resolve();
    this.#opening ??= this.#attempt().finally(() => {
      this.#opening = null;
    });
    return this.#opening;
  }

  async #attempt(): Promise<void> {
    const { bounds } = this;
    const warn = bounds?.warn;
    try {
      const db = await openDatabase({
        target: this.target,
        production: this.production,
        ...(bounds ? { maxObservations: bounds.maxObservations, maxMcpObservations: bounds.maxMcpObservations } : {}),
        ...(bounds?.recordBatch !== undefined ? { recordBatch: bounds.recordBatch } : {}),
        ...(bounds?.recordThread === true ? { recordThread: true } : {}),
        // The daemon's SQLite file is checkpointed off the event loop (src/store/sqlite/checkpointer.ts).
        backgroundCheckpoints: true,
        ...(warn
          ? {
              onFirstRefusal: (table: 'observations' | 'mcpObservations', ceiling: number) =>
                warn(
                  `svc: warning: the ${table === 'observations' ? 'observation history' : 'MCP inventory history'} is at its ceiling ` +
                    `(${CEILING_SETTING[table]}=${ceiling}) with no one-off row to evict; new snapshots are not stored, unchanged ones are still counted ` +
                    '(/v1/status counts the refusals)',
                ),
            }
          : {}),
      });
      // Closed while opening (a shutdown during start): the new connection is not kept.
      if (this.#closed) {
        await db.close();
        return;
      }
      this.#db = db;
      this.#error = null;
    } catch (err) {
      this.#db = null;
      this.#error = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    }
  }

  /** The open store, for the Runtime; undefined while the database is unavailable. */
  get store(): RuntimeStore | undefined {
    const db = this.#db;
    if (!db || !this.telemetry) return db ?? undefined;
    if (this.#spanned?.db !== db) this.#spanned = { db, store: spannedStore(db, this.telemetry) };
    return this.#spanned.store;
  }

  #spanned: { db: Database; store: RuntimeStore } | undefined;

  /** The engine's coordination shared by several daemons (PostgreSQL), or undefined. */
  get shared(): SharedCoordination | undefined {
    return this.#db?.shared;
  }

  /** The PostgreSQL pool's connections now (metrics read it at scrape time); null on SQLite or while the database is unavailable. */
  get pool(): { total: number; idle: number; waiting: number } | null {
    return this.#db?.connections?.() ?? null;
  }

  /** `sqlite` or `postgres`: what the target names, open or not. */
  get engine(): 'sqlite' | 'postgres' {
    return this.#db?.engine ?? (isPostgresUrl(this.target) ? 'postgres' : 'sqlite');
  }

  /** Why the database is unavailable, or null. */
  get error(): string | null {
    return this.#error;
  }

  /** Rows, ceilings, evictions and refusals of the history tables; null while the database is unavailable. */
  async usage(): Promise<StorageUsage | null> {
    const db = this.#db;
    if (!db) return null;
    try {
      return await db.usage();
    } catch {
      return null;
    }
  }

  async readiness(): Promise<Readiness> {
    if (this.#closed) return { ready: false, reason: 'the daemon is shutting down' };
    if (!this.#db) await this.open();
    const db = this.#db;
    if (!db) return { ready: false, reason: `the database ${this.location} cannot be opened: ${this.#error ?? 'unknown reason'}` };
    return db.readiness();
  }

  async close(): Promise<void> {
    this.#closed = true;
    // An attempt under way finishes first: it sees the slot closed and closes what it opened.
    await this.#opening;
    const db = this.#db;
    this.#db = null;
    await db?.close();
  }
}

/** The repositories of RuntimeStore: each call of their methods is a `db` span. */
const REPOSITORIES: ReadonlySet<string> = new Set<keyof RuntimeStore>([
  'observations',
  'delegationChains',
  'mcpObservations',
  'watches',
  'monitorEvents',
  'claims',
  'accounts',
  'customerMonitor',
  'keptLogs',
]);

/** The store with every repository method spanned (`observations.record` …); other members as they are. */
function spannedStore(db: Database, telemetry: Telemetry): RuntimeStore {
  const repositories = new Map<string, object>();
  const spanned = (name: string, repository: object): object =>
    new Proxy(repository, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        const span = `${name}.${property}`;
        return (...args: unknown[]) =>
          telemetry.within('db', span, (note) => {
            const result = (value as (...a: unknown[]) => unknown).apply(target, args);
            note.outcome = 'ok';
            return result;
          });
      },
    });
  return new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !REPOSITORIES.has(property) || typeof value !== 'object' || value === null) return value;
      let wrapped = repositories.get(property);
      if (!wrapped) repositories.set(property, (wrapped = spanned(property, value)));
      return wrapped;
    },
  });
}
