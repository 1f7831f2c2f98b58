/**
 * The checkpointer thread (checkpointer.ts starts it through the writer thread's entry,
 * writer-worker.ts): a SQLite connection of its own to the store's file, which waits on the
 * shared write count and runs a PASSIVE checkpoint when the event loop has written, at most once
 * every `gapMs`. A checkpoint that finds the database busy is simply tried again at the next
 * write. On stop it closes its connection and says so in the shared state.
 */
import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import {
  CHECKPOINTER_CLOSED,
  CHECKPOINTER_NUDGES,
  CHECKPOINTER_OPEN,
  CHECKPOINTER_STATE,
  CHECKPOINTER_STOP,
  type CheckpointerData,
} from './writer-protocol.js';

export function runCheckpointer(data: CheckpointerData): void {
  const shared = new Int32Array(data.shared);
  const closed = (): void => {
    Atomics.store(shared, CHECKPOINTER_STATE, CHECKPOINTER_CLOSED);
    Atomics.notify(shared, CHECKPOINTER_STATE);
  };
  let db: Database.Database;
  try {
    const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
    db = new Driver(data.path, data.nativeBinding === null ? {} : { nativeBinding: data.nativeBinding });
    // Checkpoints are this connection's whole work: it never writes a row, and never
    // checkpoints on a commit of its own (it makes none).
    db.pragma('busy_timeout = 0');
  } catch {
    // The event loop's connection checkpoints by itself again when this thread ends.
    closed();
    return;
  }
  Atomics.store(shared, CHECKPOINTER_STATE, CHECKPOINTER_OPEN);
  Atomics.notify(shared, CHECKPOINTER_STATE);
  const stopped = (): boolean => Atomics.load(shared, CHECKPOINTER_STOP) === 1;
  // From zero: what the event loop wrote while this thread was starting is checkpointed at once.
  let seen = 0;
  try {
    while (!stopped()) {
      // Asleep until the event loop writes (or asks the thread to stop).
      Atomics.wait(shared, CHECKPOINTER_NUDGES, seen);
      if (stopped()) break;
      seen = Atomics.load(shared, CHECKPOINTER_NUDGES);
      try {
        db.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // SQLITE_BUSY (another checkpoint runs) or a passing I/O error: the next write tries again.
      }
      // At most one checkpoint per gap; a stop request ends the wait at once.
      Atomics.wait(shared, CHECKPOINTER_STOP, 0, data.gapMs);
    }
  } finally {
    try {
      db.close();
    } finally {
      closed();
    }
  }
}
