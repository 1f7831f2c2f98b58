/**
 * Observation history (SPEC §2.5) over PostgreSQL. Recording takes a transaction-level advisory
 * lock on the DID, so two daemons recording the same DID at once serialise: the second sees the
 * first's row and coalesces into it (one row, seenCount 2), never a second insert.
 */
import type pg from 'pg';
import { HASH_PROFILE } from '../../core/canonical.js';
import type { NewObservation, Observation, ObservationStore, Recorded, StoredObservation } from '../../core/store.js';
import { limitOf, withDocument, type StoredRow } from '../observations.js';
import { inTransaction, LOCK_CLASS } from './sql.js';

const COLUMNS = `id, did, document_hash AS "documentHash", observed_at AS "observedAt", last_seen_at AS "lastSeenAt",
  seen_count AS "seenCount", latency_ms AS "latencyMs", resolver_version AS "resolverVersion",
  domain_binding_status AS "domainBindingStatus", summary`;
const NEWEST_FIRST = 'ORDER BY observed_at DESC, id DESC';

export class PostgresObservationStore implements ObservationStore {
  constructor(private readonly pool: pg.Pool) {}

  record(o: NewObservation): Promise<Recorded<Observation>> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS.observations, o.did]);
      const { rows: latest } = await client.query<{ id: number; documentHash: string; domainBindingStatus: string | null; fingerprintProfile: string | null }>(
        `SELECT id, document_hash AS "documentHash", domain_binding_status AS "domainBindingStatus", fingerprint_profile AS "fingerprintProfile"
         FROM observations WHERE did = $1 ${NEWEST_FIRST} LIMIT 1`,
        [o.did],
      );
      const last = latest[0];
      // As on SQLite: a row of another fingerprint profile is not relabelled by coalescing into it.
      if (last !== undefined && last.documentHash === o.documentHash && last.domainBindingStatus === o.domainBindingStatus && last.fingerprintProfile === HASH_PROFILE) {
        const { rows } = await client.query<Observation>(
          `UPDATE observations SET seen_count = seen_count + 1, last_seen_at = GREATEST(last_seen_at, $1),
             latency_ms = $2, resolver_version = $3, summary = $4
           WHERE id = $5 RETURNING ${COLUMNS}`,
          [o.observedAt, o.latencyMs, o.resolverVersion, o.summary, last.id],
        );
        return { outcome: 'coalesced', row: rows[0]!, evicted: 0 };
      }
      const { rows } = await client.query<Observation>(
        `INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, seen_count,
           latency_ms, resolver_version, domain_binding_status, summary, fingerprint_profile)
         VALUES ($1, $2, $3, $4, $4, 1, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
        [o.did, o.documentHash, JSON.stringify(o.document), o.observedAt, o.latencyMs, o.resolverVersion, o.domainBindingStatus, o.summary, HASH_PROFILE],
      );
      return { outcome: 'stored', row: rows[0]!, evicted: 0 };
    });
  }

  async list(did: string, limit: number): Promise<Observation[]> {
    const { rows } = await this.pool.query<Observation>(`SELECT ${COLUMNS} FROM observations WHERE did = $1 ${NEWEST_FIRST} LIMIT $2`, [did, limitOf(limit)]);
    return rows;
  }

  async count(did: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations WHERE did = $1', [did]);
    return rows[0]?.n ?? 0;
  }

  async latest(did: string, limit: number): Promise<StoredObservation[]> {
    const { rows } = await this.pool.query<StoredRow>(`SELECT ${COLUMNS}, document FROM observations WHERE did = $1 ${NEWEST_FIRST} LIMIT $2`, [did, limitOf(limit)]);
    return rows.map(withDocument);
  }

  async findByHash(did: string, documentHash: string): Promise<StoredObservation | undefined> {
    const { rows } = await this.pool.query<StoredRow>(
      `SELECT ${COLUMNS}, document FROM observations WHERE did = $1 AND document_hash = $2 ${NEWEST_FIRST} LIMIT 1`,
      [did, documentHash],
    );
    return rows[0] === undefined ? undefined : withDocument(rows[0]);
  }
}
