/**
 * The daemon's database, held so that a database that cannot be opened (missing directory,
 * future schema, a file that is not SQLite) does not stop the daemon: resolution still works,
 * `/ready` answers 503 NOT_READY with the reason, and each `/ready` probe tries again — a
 * volume mounted late, or a migration run by an operator, makes the daemon ready without a
 * restart.
 */
import type { RuntimeStore } from '../core/store.js';
import { openStore, type RowUsage, type Store } from '../store/index.js';

export type Readiness = { ready: true; storage: 'file' | 'memory'; schema: 'current' } | { ready: false; reason: string };

/** The daemon's bounds on its history tables (README "Bounded history"). */
export interface StorageBounds {
  /** SVC_MAX_OBSERVATIONS. */
  maxObservations: number;
  /** SVC_MAX_MCP_OBSERVATIONS. */
  maxMcpObservations: number;
  /** Told once per table, when the first new row is refused at its ceiling. */
  warn?: (line: string) => void;
}

const CEILING_SETTING = { observations: 'SVC_MAX_OBSERVATIONS', mcpObservations: 'SVC_MAX_MCP_OBSERVATIONS' } as const;

export class StorageSlot {
  #store: Store | null = null;
  #error: string | null = null;
  #closed = false;

  constructor(
    /** A file path, or ':memory:' (refused in production mode). */
    readonly path: string,
    private readonly production: boolean,
    /** Ceilings of the history tables; none: unbounded (tests of other concerns). */
    private readonly bounds?: StorageBounds,
  ) {
    this.#open();
  }

  #open(): void {
    if (this.#closed) return;
    try {
      const { bounds } = this;
      const warn = bounds?.warn;
      this.#store = openStore({
        path: this.path,
        production: this.production,
        maxObservations: bounds?.maxObservations,
        maxMcpObservations: bounds?.maxMcpObservations,
        onFirstRefusal: warn && ((table, ceiling) =>
          warn(
            `svc: warning: the ${table === 'observations' ? 'observation history' : 'MCP inventory history'} is at its ceiling ` +
              `(${CEILING_SETTING[table]}=${ceiling}) with no one-off row to evict; new snapshots are not stored, unchanged ones are still counted ` +
              '(/v1/status counts the refusals)',
          )),
      });
      this.#error = null;
    } catch (err) {
      this.#store = null;
      this.#error = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    }
  }

  /** The open store, for the Runtime; undefined while the database is unavailable. */
  get store(): RuntimeStore | undefined {
    return this.#store ?? undefined;
  }

  /** Why the database is unavailable, or null. */
  get error(): string | null {
    return this.#error;
  }

  /** Rows, ceilings, evictions and refusals of the history tables; null while the database is unavailable. */
  usage(): { observations: RowUsage; mcpObservations: RowUsage } | null {
    const store = this.#store;
    if (!store) return null;
    try {
      return { observations: store.observations.usage(), mcpObservations: store.mcpObservations.usage() };
    } catch {
      return null;
    }
  }

  readiness(): Readiness {
    if (this.#closed) return { ready: false, reason: 'the daemon is shutting down' };
    if (!this.#store) this.#open();
    if (!this.#store) return { ready: false, reason: `the database ${this.path} cannot be opened: ${this.#error ?? 'unknown reason'}` };
    return this.#store.readiness();
  }

  close(): void {
    this.#closed = true;
    this.#store?.close();
    this.#store = null;
  }
}
