/**
 * The write side of the observation history on SQLite: the statements of one record, prepared
 * on one connection. The store's own connection writes through it when records are written on
 * the event loop (the CLI); the daemon's writer thread (writer-thread.ts) writes through it on a
 * connection of its own. Either way one record is exactly the same transaction.
 */
import type Database from 'better-sqlite3';
import { HASH_PROFILE } from '../../core/canonical.js';
import type { NewObservation, Observation, Recorded } from '../../core/history/store.js';
import type { CeilingOptions } from '../schema/ceiling.js';
import { RowCeiling } from './ceiling.js';

/**
 * An observation as it is written: the document already serialised (JSON.stringify), so that
 * the event loop that built it hands the writer a string, not an object to copy.
 */
export type ObservationRow = Omit<NewObservation, 'document'> & { document: string };

export function observationRow(o: NewObservation): ObservationRow {
  return {
    did: o.did,
    documentHash: o.documentHash,
    document: JSON.stringify(o.document),
    observedAt: o.observedAt,
    latencyMs: o.latencyMs,
    resolverVersion: o.resolverVersion,
    domainBindingStatus: o.domainBindingStatus,
    summary: o.summary,
  };
}

// Columns aliased to the interface's names, so a row is an Observation without copying.
export const OBSERVATION_COLUMNS = `id, did, document_hash AS documentHash, observed_at AS observedAt, last_seen_at AS lastSeenAt,
  seen_count AS seenCount, latency_ms AS latencyMs, resolver_version AS resolverVersion,
  domain_binding_status AS domainBindingStatus, summary`;
export const NEWEST_FIRST = 'ORDER BY observed_at DESC, id DESC';

/**
 * The row a new observation is stored as: exactly what was bound (STRICT columns, no trigger
 * rewrites them), so it is built from the values rather than read back (RETURNING cost a fifth
 * of a record), in OBSERVATION_COLUMNS' order.
 */
export function newRow(o: ObservationRow, id: number): Observation {
  return {
    id,
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
}

export class ObservationWriter {
  readonly ceiling: RowCeiling;
  /** One record, one IMMEDIATE transaction. */
  readonly record: (row: ObservationRow) => Recorded<Observation>;
  /**
   * Several records in one IMMEDIATE transaction, without a savepoint each: a record that
   * throws rolls the whole group back (the caller then writes each alone).
   */
  readonly recordMany: (rows: readonly ObservationRow[]) => Recorded<Observation>[];

  constructor(db: Database.Database, options: CeilingOptions = {}) {
    const ceiling = new RowCeiling(db, 'observations', 'did', options);
    this.ceiling = ceiling;
    const latestOf: Database.Statement<[string], { id: number; documentHash: string; domainBindingStatus: string | null; fingerprintProfile: string | null }> =
      db.prepare(
        `SELECT id, document_hash AS documentHash, domain_binding_status AS domainBindingStatus,
          fingerprint_profile AS fingerprintProfile
         FROM observations WHERE did = ? ${NEWEST_FIRST} LIMIT 1`,
      );
    // max(): an observation that arrives with an older timestamp never moves lastSeenAt back.
    const coalesce: Database.Statement<[string, number | null, string, string, number], Observation> = db.prepare(
      `UPDATE observations SET seen_count = seen_count + 1, last_seen_at = max(last_seen_at, ?),
        latency_ms = ?, resolver_version = ?, summary = ?
       WHERE id = ? RETURNING ${OBSERVATION_COLUMNS}`,
    );
    const insert: Database.Statement<[string, string, string, string, string, number | null, string, string | null, string, string]> = db.prepare(
      `INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, seen_count,
        latency_ms, resolver_version, domain_binding_status, summary, fingerprint_profile)
       VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
    );
    const recordOne = (o: ObservationRow): Recorded<Observation> => {
      const latest = latestOf.get(o.did);
      // A row of another fingerprint profile (or none: rows from before schema v3) is not
      // relabelled by coalescing into it; the new observation starts a row of its own.
      if (
        latest !== undefined &&
        latest.documentHash === o.documentHash &&
        latest.domainBindingStatus === o.domainBindingStatus &&
        latest.fingerprintProfile === HASH_PROFILE
      ) {
        return { outcome: 'coalesced', row: coalesce.get(o.observedAt, o.latencyMs, o.resolverVersion, o.summary, latest.id)!, evicted: 0 };
      }
      const evicted = ceiling.makeRoom(o.did);
      if (evicted === null) return { outcome: 'refused', row: null, evicted: 0 };
      const { lastInsertRowid } = insert.run(
        o.did,
        o.documentHash,
        o.document,
        o.observedAt,
        o.observedAt,
        o.latencyMs,
        o.resolverVersion,
        o.domainBindingStatus,
        o.summary,
        HASH_PROFILE,
      );
      ceiling.added();
      const row = newRow(o, Number(lastInsertRowid));
      return evicted > 0 ? { outcome: 'evicted', row, evicted } : { outcome: 'stored', row, evicted: 0 };
    };
    // IMMEDIATE: the read of the latest row and the write that depends on it hold the write
    // lock together, so two connections recording the same DID cannot both insert; the count,
    // an eviction and the insert are the same one write.
    const one = db.transaction(recordOne);
    this.record = (row) => ceiling.commit(() => one.immediate(row));
    const many = db.transaction((rows: readonly ObservationRow[]) => rows.map(recordOne));
    this.recordMany = (rows) => ceiling.commitMany(() => many.immediate(rows));
  }

  /**
   * Writes `rows` as one group commit and answers each: a recorded row, or the error that
   * refused it. When the group fails it rolled back as a whole, and each record is written
   * alone, so a failure rejects only the records it concerns.
   */
  recordGroup(rows: readonly ObservationRow[]): Array<{ recorded: Recorded<Observation> } | { error: unknown }> {
    if (rows.length > 1) {
      try {
        return this.recordMany(rows).map((recorded) => ({ recorded }));
      } catch {
        // Each alone, below.
      }
    }
    return rows.map((row) => {
      try {
        return { recorded: this.record(row) };
      } catch (error) {
        return { error };
      }
    });
  }
}
