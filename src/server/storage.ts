/**
 * The daemon's database, held so that a database that cannot be opened (missing directory,
 * future schema, a file that is not SQLite) does not stop the daemon: resolution still works,
 * `/ready` answers 503 NOT_READY with the reason, and each `/ready` probe tries again — a
 * volume mounted late, or a migration run by an operator, makes the daemon ready without a
 * restart.
 */
import type { RuntimeStore } from '../core/store.js';
import { openStore, type Store } from '../store/index.js';

export type Readiness = { ready: true; storage: 'file' | 'memory'; schema: 'current' } | { ready: false; reason: string };

export class StorageSlot {
  #store: Store | null = null;
  #error: string | null = null;
  #closed = false;

  constructor(
    /** A file path, or ':memory:' (refused in production mode). */
    readonly path: string,
    private readonly production: boolean,
  ) {
    this.#open();
  }

  #open(): void {
    if (this.#closed) return;
    try {
      this.#store = openStore({ path: this.path, production: this.production });
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
