/**
 * The daemon's observation writer (writer-thread.ts starts it): a worker thread with a SQLite
 * connection of its own to the store's file, writing the groups of observations the event loop
 * sends it, each group one IMMEDIATE transaction exactly as the store's own connection would
 * write it (observation-writer.ts), and answering each group after its COMMIT. Messages are
 * handled in the order they arrive; `close` closes the connection, says so through the shared
 * flag (the event loop may be waiting on it) and lets the thread end.
 *
 * The same entry runs the checkpointer thread (checkpointer.ts) when its data says so.
 */
import { workerData } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { ObservationWriter } from './observation-writer.js';
import type { CheckpointerData, WriterData, WriterReply, WriterRequest } from './writer-protocol.js';
import { errorOf, FLAG_CLOSED, FLAG_OPEN, wireResult } from './writer-protocol.js';
import { runCheckpointer } from './checkpoint-worker.js';

function open(data: WriterData): { db: Database.Database; writer: ObservationWriter } {
  const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  const db = new Driver(data.path, data.nativeBinding === null ? {} : { nativeBinding: data.nativeBinding });
  try {
    db.pragma('busy_timeout = 5000');
    // The store's connection set WAL on the file; synchronous is per connection: NORMAL, as
    // there (no committed transaction is lost when the process dies).
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    return { db, writer: new ObservationWriter(db, data.ceiling === undefined ? {} : { ceiling: data.ceiling }) };
  } catch (error) {
    db.close();
    throw error;
  }
}

function runWriter(data: WriterData): void {
  const port = data.port;
  const flag = new Int32Array(data.flag);
  const closed = (): void => {
    Atomics.store(flag, 0, FLAG_CLOSED);
    Atomics.notify(flag, 0);
    port.close();
  };
  let opened: { db: Database.Database; writer: ObservationWriter } | undefined;
  try {
    opened = open(data);
  } catch (error) {
    // Nothing was written: the event loop writes the rows it sent on its own connection instead.
    port.postMessage({ type: 'failed', error: errorOf(error) } satisfies WriterReply);
    closed();
  }

  if (opened !== undefined) {
    const { db, writer } = opened;
    port.on('message', (request: WriterRequest) => {
      if (request.type === 'close') {
        try {
          db.close();
        } finally {
          closed();
        }
        return;
      }
      const results = writer.recordGroup(request.rows).map(wireResult);
      port.postMessage({ type: 'recorded', id: request.id, results } satisfies WriterReply);
    });
    Atomics.store(flag, 0, FLAG_OPEN);
  }
}

const data = workerData as WriterData | CheckpointerData;
if (data.role === 'checkpointer') runCheckpointer(data);
else runWriter(data);
