/**
 * Observation history over SQLite: statements prepared once per Store. The methods
 * are async because the interface is; the reads run their statements within the one call.
 *
 * record() is a group commit: the observations recorded while the event loop is busy (the
 * daemon under load: every resolution that finishes in one turn) are written by one IMMEDIATE
 * transaction at the end of the turn (setImmediate), at most `batch` of them, each exactly as a
 * transaction of its own would write it (in order: a later one of the same DID coalesces into
 * an earlier one). A record's promise settles only after the transaction that holds it has
 * committed, so whatever a caller has acknowledged (the daemon answers after it) is on disk as
 * far as SQLite's WAL commit goes; a crash before the commit loses only records nobody was told
 * of. When a batch fails, each of its records is tried again alone, so a failure rejects only
 * the records it concerns.
 *
 * Where the transaction runs: on the event loop, on the store's connection (the CLI, whose one
 * record would not repay a thread's start, SVC_RECORD_BATCH=1, and the daemon by default), or —
 * a daemon's store of a file with SVC_RECORD_THREAD=on (`thread`) — on a worker thread with a
 * connection of its own (writer-thread.ts), the event loop only serialising the document and
 * handing the group over. The writes are the same (observation-writer.ts). The thread needs a
 * core of its own: on 2 cores shared with the clients it measured 0.8× the event loop's rate.
 */
import type Database from 'better-sqlite3';
import type { NewObservation, Observation, ObservationStore, Recorded, StoredObservation } from '../../core/history/store.js';
import type { CeilingOptions, RowUsage } from '../schema/ceiling.js';
import { distinctHashes, hashRange, limitOf, withDocument, type StoredRow } from '../schema/observations.js';
import { NEWEST_FIRST, OBSERVATION_COLUMNS as COLUMNS, ObservationWriter, observationRow, type ObservationRow } from './observation-writer.js';
import { WriterThread } from './writer-thread.js';

/** Most observations one group commit writes (see record()). */
export const RECORD_BATCH = 64;

/** A batch size that is not a whole number of at least 1 is refused (when the store opens). */
export function checkRecordBatch(batch: number | undefined): void {
  if (batch !== undefined && !(Number.isSafeInteger(batch) && batch >= 1)) throw new RangeError('the observation batch must be a whole number, 1 or more');
}

interface PendingRecord {
  row: ObservationRow;
  resolve: (recorded: Recorded<Observation>) => void;
  reject: (error: unknown) => void;
}

export interface ObservationStoreOptions extends CeilingOptions {
  /** Most observations one transaction writes (default RECORD_BATCH; 1: each its own). */
  batch?: number;
  /**
   * Write on a worker thread with a connection of its own to this file (the daemon): the
   * file's absolute path and better-sqlite3's addon (null: the driver searches for it). Not
   * with a batch of 1, whose records commit at once.
   */
  thread?: { path: string; nativeBinding: string | null };
  /** Called after each commit of observations on this connection (the daemon's checkpointer). */
  committed?: () => void;
}

export class SqliteObservationStore implements ObservationStore {
  readonly #list: Database.Statement<[string, number], Observation>;
  readonly #count: Database.Statement<[string], { n: number }>;
  readonly #latest: Database.Statement<[string, number], StoredRow>;
  readonly #byHash: Database.Statement<[string, string], StoredRow>;
  readonly #hashesWithPrefix: Database.Statement<[string, string, string, number, string], { documentHash: string }>;
  readonly #olderThan: Database.Statement<[string, string, number], StoredRow>;
  readonly #hashPrefixes: Database.Statement<[number, string], string>;
  readonly #writer: ObservationWriter;
  readonly #thread: WriterThread | null;
  readonly #batch: number;
  /** Told after each group commit on this connection (the daemon's checkpointer). */
  readonly #committed: (() => void) | undefined;
  #pending: PendingRecord[] = [];

  /**
   * `options.ceiling`: most rows (the daemon's SVC_MAX_OBSERVATIONS); none: unbounded (the CLI).
   * `options.batch`: most observations one transaction writes (default RECORD_BATCH; 1: each
   * its own). `options.thread`: write on a worker thread (see the module's comment).
   */
  constructor(db: Database.Database, options: ObservationStoreOptions = {}) {
    const batch = options.batch ?? RECORD_BATCH;
    checkRecordBatch(batch);
    this.#batch = batch;
    this.#committed = options.committed;
    const { thread } = options;
    this.#writer = new ObservationWriter(db, options);
    const writer = this.#writer;
    // SVC_RECORD_BATCH=1 keeps its meaning: each record commits at once, within record().
    this.#thread =
      thread === undefined || batch === 1
        ? null
        : new WriterThread({
            path: thread.path,
            nativeBinding: thread.nativeBinding,
            ceiling: options.ceiling,
            batch,
            settled: (recorded) => writer.ceiling.settle(recorded),
            inline: (rows) => writer.recordGroup(rows),
          });
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM observations WHERE did = ? ${NEWEST_FIRST} LIMIT ?`);
    this.#count = db.prepare('SELECT count(*) AS n FROM observations WHERE did = ?');
    this.#latest = db.prepare(`SELECT ${COLUMNS}, document FROM observations WHERE did = ? ${NEWEST_FIRST} LIMIT ?`);
    // INDEXED BY: left to itself SQLite walks the (did, observed_at, id) index for the ORDER BY,
    // reading every row of the DID newer than the hash's; this reads the hash's rows only.
    this.#byHash = db.prepare(
      `SELECT ${COLUMNS}, document FROM observations INDEXED BY observations_did_hash
       WHERE did = ? AND document_hash = ? ${NEWEST_FIRST} LIMIT 1`,
    );
    // The (did, document_hash) index serves the range; only the few matching rows are read.
    this.#hashesWithPrefix = db.prepare(
      `SELECT document_hash AS documentHash FROM observations INDEXED BY observations_did_hash
       WHERE did = ? AND document_hash >= ? AND document_hash < ? AND substr(document_hash, 1, ?) = ? ${NEWEST_FIRST}`,
    );
    // Covered by the (did, document_hash) index, grouped in its order: no row, no sort.
    this.#hashPrefixes = db
      .prepare(
        `SELECT substr(document_hash, 1, ?) FROM observations INDEXED BY observations_did_hash
         WHERE did = ? GROUP BY document_hash ORDER BY document_hash`,
      )
      .pluck() as Database.Statement<[number, string], string>;
    // A row-value range on the (did, observed_at, id) index: one step back from the given row.
    this.#olderThan = db.prepare(`SELECT ${COLUMNS}, document FROM observations WHERE did = ? AND (observed_at, id) < (?, ?) ${NEWEST_FIRST} LIMIT 1`);
  }

  record(observation: NewObservation): Promise<Recorded<Observation>> {
    let row: ObservationRow;
    try {
      row = observationRow(observation);
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.#thread !== null) return this.#thread.record(row);
    if (this.#batch === 1) {
      try {
        const recorded = this.#writer.record(row);
        this.#committed?.();
        return Promise.resolve(recorded);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise((resolve, reject) => {
      this.#pending.push({ row, resolve, reject });
      if (this.#pending.length === 1) setImmediate(() => this.#flush());
    });
  }

  /**
   * Writes what is pending now instead of at the end of the turn; on a writer thread, sends it
   * now (its promises settle when the thread answers).
   */
  flush(): void {
    if (this.#thread !== null) this.#thread.flush();
    else this.#flush();
  }

  /** Writes (or refuses) what is pending and, on a writer thread, waits for it to finish and close. */
  close(): void {
    if (this.#thread !== null) this.#thread.close();
    else this.#flush();
  }

  /** Writes what is pending, `batch` at a time, and settles each record's promise. */
  #flush(): void {
    if (this.#pending.length === 0) return;
    while (this.#pending.length > 0) {
      const group = this.#pending.splice(0, this.#batch);
      this.#writer.recordGroup(group.map((p) => p.row)).forEach((result, i) => {
        if ('error' in result) group[i]!.reject(result.error);
        else group[i]!.resolve(result.recorded);
      });
    }
    this.#committed?.();
  }

  /** Rows, ceiling, and evictions and refusals since the store was opened. */
  usage(): RowUsage {
    return this.#writer.ceiling.usage();
  }

  async list(did: string, limit: number): Promise<Observation[]> {
    return this.#list.all(did, limitOf(limit));
  }

  async count(did: string): Promise<number> {
    return this.#count.get(did)?.n ?? 0;
  }

  async latest(did: string, limit: number): Promise<StoredObservation[]> {
    return this.#latest.all(did, limitOf(limit)).map(withDocument);
  }

  async findByHash(did: string, documentHash: string): Promise<StoredObservation | undefined> {
    const row = this.#byHash.get(did, documentHash);
    return row === undefined ? undefined : withDocument(row);
  }

  async hashesWithPrefix(did: string, prefix: string): Promise<string[]> {
    const range = hashRange(prefix);
    if (range === null) return [];
    return distinctHashes(this.#hashesWithPrefix.all(did, range[0], range[1], prefix.length, prefix));
  }

  async hashPrefixes(did: string, length: number): Promise<string[]> {
    return this.#hashPrefixes.all(length, did);
  }

  async olderThan(did: string, row: Pick<Observation, 'observedAt' | 'id'>): Promise<StoredObservation | undefined> {
    const older = this.#olderThan.get(did, row.observedAt, row.id);
    return older === undefined ? undefined : withDocument(older);
  }
}
