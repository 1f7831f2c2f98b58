/**
 * The daemon's WAL checkpoints off the event loop.
 *
 * SQLite checkpoints in the connection that commits, once the WAL holds `wal_autocheckpoint`
 * pages (1,000 by default): it copies them into the database file and syncs both files, on the
 * event loop, every few hundred observations (measured: 30–80 µs of each recorded resolution's
 * time). Here a worker thread with a connection of its own (checkpoint-worker.ts) checkpoints
 * soon after the event loop writes: PASSIVE, so it never waits for, nor holds up, the event
 * loop's reads and writes, and at most once every CHECKPOINT_GAP_MS. The event loop's
 * connection keeps an automatic checkpoint as a backstop, at BACKSTOP_PAGES: it then finds
 * almost every page already copied, and lets the WAL start again from its beginning, which a
 * checkpoint that a busy writer keeps overtaking cannot.
 *
 * Nothing about durability changes: a commit is as durable as before (synchronous=NORMAL in WAL
 * mode: it survives the process's death, it is in the WAL before it is acknowledged); a
 * checkpoint only moves committed pages from the WAL into the database file.
 *
 * The thread is started on the first group commit (only for a file, only in the daemon) and is
 * told of writes through shared memory (one atomic add per group commit, no message). Should it fail to
 * start or end, the event loop's connection checkpoints as SQLite does by default again.
 * close() stops the thread and waits for its connection to close, so that the store's own
 * close, the last, checkpoints what is left and removes the WAL as before.
 */
import type Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import {
  CHECKPOINT_GAP_MS,
  CHECKPOINTER_CLOSED,
  CHECKPOINTER_NUDGES,
  CHECKPOINTER_STARTING,
  CHECKPOINTER_STATE,
  CHECKPOINTER_STOP,
  type CheckpointerData,
} from './writer-protocol.js';
import { startWorker, workerEntry } from './writer-thread.js';

/** The event loop connection's automatic checkpoint while the thread runs (pages, ~16 MiB). */
export const BACKSTOP_PAGES = 4_000;
/** SQLite's default, restored when the thread cannot run. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
/** How long close() waits for the thread's connection to close (ms). */
const CLOSE_WAIT_MS = 10_000;

export class Checkpointer {
  readonly #db: Database.Database;
  readonly #shared: Int32Array;
  #worker: Worker | null = null;
  #running = false;

  readonly #options: { path: string; nativeBinding: string | null };
  /** The thread was asked for (on the first write): started, or found impossible to start. */
  #started = false;

  constructor(db: Database.Database, options: { path: string; nativeBinding: string | null }) {
    this.#db = db;
    this.#options = options;
    this.#shared = new Int32Array(new SharedArrayBuffer(4 * 4));
  }

  /** Whether the thread checkpoints (false: not started yet, could not start, or ended). */
  get running(): boolean {
    return this.#running;
  }

  /** The event loop committed: the thread checkpoints soon (a few nudges in a row make one). */
  nudge(): void {
    if (!this.#started) this.#start();
    if (!this.#running) return;
    Atomics.add(this.#shared, CHECKPOINTER_NUDGES, 1);
    Atomics.notify(this.#shared, CHECKPOINTER_NUDGES, 1);
  }

  #start(): void {
    this.#started = true;
    const found = workerEntry();
    if (found === null || !this.#db.open) return;
    const data: CheckpointerData = {
      role: 'checkpointer',
      path: this.#options.path,
      nativeBinding: this.#options.nativeBinding,
      shared: this.#shared.buffer as SharedArrayBuffer,
      gapMs: CHECKPOINT_GAP_MS,
    };
    let worker: Worker;
    try {
      worker = startWorker(found, data);
    } catch {
      return;
    }
    // The thread never keeps the process alive: everything it would copy is already committed.
    worker.unref();
    worker.on('error', () => this.#lost());
    worker.on('exit', () => this.#lost());
    this.#worker = worker;
    this.#running = true;
    this.#db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** The thread is gone: the event loop's connection checkpoints by itself again. */
  #lost(): void {
    if (!this.#running) return;
    this.#running = false;
    if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }

  /** Stops the thread and waits (synchronously, bounded) until its connection is closed. */
  close(): void {
    this.#started = true;
    const worker = this.#worker;
    if (worker === null) return;
    this.#worker = null;
    this.#running = false;
    Atomics.store(this.#shared, CHECKPOINTER_STOP, 1);
    Atomics.add(this.#shared, CHECKPOINTER_NUDGES, 1);
    Atomics.notify(this.#shared, CHECKPOINTER_NUDGES);
    Atomics.notify(this.#shared, CHECKPOINTER_STOP);
    // A thread that has not opened its connection yet holds nothing: it is ended as it is.
    if (Atomics.load(this.#shared, CHECKPOINTER_STATE) === CHECKPOINTER_STARTING) {
      void worker.terminate();
      return;
    }
    const deadline = Date.now() + CLOSE_WAIT_MS;
    for (let state = Atomics.load(this.#shared, CHECKPOINTER_STATE); state !== CHECKPOINTER_CLOSED; state = Atomics.load(this.#shared, CHECKPOINTER_STATE)) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      Atomics.wait(this.#shared, CHECKPOINTER_STATE, state, left);
    }
    void worker.terminate();
  }
}
