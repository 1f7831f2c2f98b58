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
 */
import type Database from 'better-sqlite3';
import { HASH_PROFILE } from '../../core/canonical.js';
import type { NewObservation, Observation, ObservationStore, Recorded, StoredObservation } from '../../core/history/store.js';
import type { CeilingOptions, RowUsage } from '../schema/ceiling.js';
import { distinctHashes, hashRange, limitOf, withDocument, type StoredRow } from '../schema/observations.js';
import { RowCeiling } from './ceiling.js';

// Columns aliased to the interface's names, so a row is an Observation without copying.
const COLUMNS = `id, did, document_hash AS documentHash, observed_at AS observedAt, last_seen_at AS lastSeenAt,
  seen_count AS seenCount, latency_ms AS latencyMs, resolver_version AS resolverVersion,
  domain_binding_status AS domainBindingStatus, summary`;
const NEWEST_FIRST = 'ORDER BY observed_at DESC, id DESC';

/** Most observations one group commit writes (see record()). */
export const RECORD_BATCH = 64;

/** A batch size that is not a whole number of at least 1 is refused (when the store opens). */
export function checkRecordBatch(batch: number | undefined): void {
  if (batch !== undefined && !(Number.isSafeInteger(batch) && batch >= 1)) throw new RangeError('the observation batch must be a whole number, 1 or more');
}

interface PendingRecord {
  observation: NewObservation;
  resolve: (recorded: Recorded<Observation>) => void;
  reject: (error: unknown) => void;
}

export class SqliteObservationStore implements ObservationStore {
  readonly #latestOf: Database.Statement<[string], { id: number; documentHash: string; domainBindingStatus: string | null; fingerprintProfile: string | null }>;
  readonly #coalesce: Database.Statement<[string, number | null, string, string, number], Observation>;
  readonly #insert: Database.Statement<[string, string, string, string, string, number | null, string, string | null, string, string]>;
  readonly #list: Database.Statement<[string, number], Observation>;
  readonly #count: Database.Statement<[string], { n: number }>;
  readonly #latest: Database.Statement<[string, number], StoredRow>;
  readonly #byHash: Database.Statement<[string, string], StoredRow>;
  readonly #hashesWithPrefix: Database.Statement<[string, string, string, number, string], { documentHash: string }>;
  readonly #olderThan: Database.Statement<[string, string, number], StoredRow>;
  readonly #hashPrefixes: Database.Statement<[number, string], string>;
  readonly #record: (observation: NewObservation) => Recorded<Observation>;
  readonly #recordMany: (observations: readonly NewObservation[]) => Recorded<Observation>[];
  readonly #ceiling: RowCeiling;
  readonly #batch: number;
  #pending: PendingRecord[] = [];

  /**
   * `options.ceiling`: most rows (the daemon's SVC_MAX_OBSERVATIONS); none: unbounded (the CLI).
   * `options.batch`: most observations one transaction writes (default RECORD_BATCH; 1: each
   * its own).
   */
  constructor(db: Database.Database, options: CeilingOptions & { batch?: number } = {}) {
    const batch = options.batch ?? RECORD_BATCH;
    checkRecordBatch(batch);
    this.#batch = batch;
    this.#ceiling = new RowCeiling(db, 'observations', 'did', options);
    this.#latestOf = db.prepare(
      `SELECT id, document_hash AS documentHash, domain_binding_status AS domainBindingStatus,
        fingerprint_profile AS fingerprintProfile
       FROM observations WHERE did = ? ${NEWEST_FIRST} LIMIT 1`,
    );
    // max(): an observation that arrives with an older timestamp never moves lastSeenAt back.
    this.#coalesce = db.prepare(
      `UPDATE observations SET seen_count = seen_count + 1, last_seen_at = max(last_seen_at, ?),
        latency_ms = ?, resolver_version = ?, summary = ?
       WHERE id = ? RETURNING ${COLUMNS}`,
    );
    this.#insert = db.prepare(
      `INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, seen_count,
        latency_ms, resolver_version, domain_binding_status, summary, fingerprint_profile)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
    );
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
    // IMMEDIATE: the read of the latest row and the write that depends on it hold the write
    // lock together, so two processes recording the same DID cannot both insert; the count,
    // an eviction and the insert are the same one write.
    const recordOne = (o: NewObservation): Recorded<Observation> => {
      const latest = this.#latestOf.get(o.did);
      // A row of another fingerprint profile (or none: rows from before schema v3) is not
      // relabelled by coalescing into it; the new observation starts a row of its own.
      if (
        latest !== undefined &&
        latest.documentHash === o.documentHash &&
        latest.domainBindingStatus === o.domainBindingStatus &&
        latest.fingerprintProfile === HASH_PROFILE
      ) {
        return { outcome: 'coalesced', row: this.#coalesce.get(o.observedAt, o.latencyMs, o.resolverVersion, o.summary, latest.id)!, evicted: 0 };
      }
      const evicted = this.#ceiling.makeRoom(o.did);
      if (evicted === null) return { outcome: 'refused', row: null, evicted: 0 };
      const { lastInsertRowid } = this.#insert.run(
        o.did,
        o.documentHash,
        JSON.stringify(o.document),
        o.observedAt,
        o.observedAt,
        o.latencyMs,
        o.resolverVersion,
        o.domainBindingStatus,
        o.summary,
        HASH_PROFILE,
      );
      this.#ceiling.added();
      // The new row is exactly what was bound (STRICT columns, no trigger rewrites them), so it
      // is built here in COLUMNS' order rather than read back (RETURNING cost a fifth of a record).
      const row: Observation = {
        id: Number(lastInsertRowid),
        did: o.did,
        documentHash: o.documentHash,
        observedAt: o.observedAt,
        lastSeenAt: o.observedAt,
        seenCount: 1,
        latencyMs: o.latencyMs,
        resolverVersion: o.resolverVersion,
        domainBindingStatus: o.domainBindingStatus,
        summary: o.summary,
      };
      return evicted > 0 ? { outcome: 'evicted', row, evicted } : { outcome: 'stored', row, evicted: 0 };
    };
    // IMMEDIATE: the read of the latest row and the write that depends on it hold the write
    // lock together, so two processes recording the same DID cannot both insert; the count,
    // an eviction and the insert are the same one write.
    const record = db.transaction(recordOne);
    this.#record = (observation) => this.#ceiling.commit(() => record.immediate(observation));
    // The records of a group share the outer transaction without a savepoint each: a record
    // that throws rolls the whole group back, and #flush() then writes each record alone.
    const recordMany = db.transaction((list: readonly NewObservation[]) => list.map(recordOne));
    this.#recordMany = (list) => this.#ceiling.commitMany(() => recordMany.immediate(list));
  }

  record(observation: NewObservation): Promise<Recorded<Observation>> {
    if (this.#batch === 1) {
      try {
        return Promise.resolve(this.#record(observation));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise((resolve, reject) => {
      this.#pending.push({ observation, resolve, reject });
      if (this.#pending.length === 1) setImmediate(() => this.#flush());
    });
  }

  /** Writes what is pending now instead of at the end of the turn (the store is closing). */
  flush(): void {
    this.#flush();
  }

  /** Writes what is pending, `batch` at a time, and settles each record's promise. */
  #flush(): void {
    while (this.#pending.length > 0) {
      const group = this.#pending.splice(0, this.#batch);
      let recorded: Recorded<Observation>[] | null = null;
      try {
        recorded = this.#recordMany(group.map((p) => p.observation));
      } catch {
        recorded = null;
      }
      if (recorded !== null) {
        group.forEach((p, i) => p.resolve(recorded[i]!));
        continue;
      }
      // The batch rolled back as a whole: each record alone, so one failure is only its own.
      for (const p of group) {
        try {
          p.resolve(this.#record(p.observation));
        } catch (err) {
          p.reject(err);
        }
      }
    }
  }

  /** Rows, ceiling, and evictions and refusals since the store was opened. */
  usage(): RowUsage {
    return this.#ceiling.usage();
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
