/**
 * Observation history over PostgreSQL. Recording takes a transaction-level advisory
 * lock on the DID, so two daemons recording the same DID at once serialise: the second sees the
 * first's row and coalesces into it (one row, seenCount 2), never a second insert. With a ceiling
 * (the daemon's SVC_MAX_OBSERVATIONS) a new row is counted, makes room or is refused in the same
 * transaction, under the count's row lock shared by every daemon (src/store/postgres/ceiling.ts).
 */
import type pg from 'pg';
import { HASH_PROFILE } from '../../core/canonical.js';
import type { NewObservation, Observation, ObservationStore, Recorded, StoredObservation } from '../../core/history/store.js';
import type { CeilingOptions, RowUsage } from '../schema/ceiling.js';
import { distinctHashes, hashRange, limitOf, withDocument, type StoredRow } from '../schema/observations.js';
import { PgRowCeiling } from './ceiling.js';
import { inLockedTransaction, LOCK_CLASS } from './sql.js';

const COLUMNS = `id, did, document_hash AS "documentHash", observed_at AS "observedAt", last_seen_at AS "lastSeenAt",
  seen_count AS "seenCount", latency_ms AS "latencyMs", resolver_version AS "resolverVersion",
  domain_binding_status AS "domainBindingStatus", summary`;
const NEWEST_FIRST = 'ORDER BY observed_at DESC, id DESC';

/** COLUMNS of the table under the alias `t`. */
const COLUMNS_OF = (t: string) => COLUMNS.replace(/(^|,\s*)(\w+)/g, `$1${t}.$2`);

/** The DID's latest row, and the coalescing UPDATE of it when it matches (see RECORD). */
const LATEST_AND_COALESCED = `
  WITH latest AS (
    SELECT id, document_hash, domain_binding_status, fingerprint_profile FROM observations WHERE did = $1 ${NEWEST_FIRST} LIMIT 1
  ), coalesced AS (
    UPDATE observations o SET seen_count = o.seen_count + 1, last_seen_at = GREATEST(o.last_seen_at, $4),
      latency_ms = $5, resolver_version = $6, summary = $8
    FROM latest l
    WHERE o.id = l.id AND l.document_hash = $2 AND l.domain_binding_status IS NOT DISTINCT FROM $7::text AND l.fingerprint_profile = $9
    RETURNING ${COLUMNS_OF('o')}, 'coalesced' AS outcome
  )`;

/**
 * Coalesce into the DID's latest row when it has the same document hash, binding status and
 * fingerprint profile (as on SQLite: a row of another profile is not relabelled), else insert.
 * $1 did, $2 hash, $3 document, $4 observedAt, $5 latency, $6 resolver, $7 binding, $8 summary,
 * $9 profile.
 */
const RECORD = `${LATEST_AND_COALESCED}, stored AS (
    INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, seen_count,
      latency_ms, resolver_version, domain_binding_status, summary, fingerprint_profile)
    SELECT $1, $2, $3, $4, $4, 1, $5, $6, $7, $8, $9 WHERE NOT EXISTS (SELECT 1 FROM coalesced)
    RETURNING ${COLUMNS}, 'stored' AS outcome
  )
  SELECT * FROM coalesced UNION ALL SELECT * FROM stored`;

/**
 * With a ceiling: the coalescing alone, with RECORD's parameters but the document ($3, which it
 * does not read: a server refuses a parameter it cannot type) …
 */
const COALESCE = `${LATEST_AND_COALESCED.replace(/\$([4-9])/g, (_, n: string) => `$${Number(n) - 1}`)} SELECT * FROM coalesced`;
const withoutDocument = (values: unknown[]): unknown[] => values.filter((_, i) => i !== 2);
/** … and, when it found nothing to coalesce into and the ceiling made room, the insert. */
const INSERT = `
  INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, seen_count,
    latency_ms, resolver_version, domain_binding_status, summary, fingerprint_profile)
  VALUES ($1, $2, $3, $4, $4, 1, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`;

export class PostgresObservationStore implements ObservationStore {
  readonly #ceiling: PgRowCeiling;

  /** `options.ceiling`: most rows (the daemon's SVC_MAX_OBSERVATIONS); none: unbounded (the CLI). */
  constructor(
    private readonly pool: pg.Pool,
    options: CeilingOptions = {},
  ) {
    this.#ceiling = new PgRowCeiling('observations', 'did', options);
  }

  /**
   * Under the DID's advisory lock (taken in the same round trip as BEGIN), one statement reads
   * the latest row and either coalesces into it or inserts: it runs after the lock is held, so
   * its snapshot includes whatever a concurrent recorder of the same DID committed first.
   * Three round trips in all (BEGIN + lock, the statement, COMMIT).
   */
  record(o: NewObservation): Promise<Recorded<Observation>> {
    const values = [
      o.did,
      o.documentHash,
      JSON.stringify(o.document),
      o.observedAt,
      o.latencyMs,
      o.resolverVersion,
      o.domainBindingStatus,
      o.summary,
      HASH_PROFILE,
    ];
    const ceiling = this.#ceiling;
    if (ceiling.ceiling === null) {
      return inLockedTransaction(this.pool, LOCK_CLASS.observations, o.did, async (client) => {
        // Named: each connection parses and plans it once (the hot statement of every resolution).
        const { rows } = await client.query<Observation & { outcome: 'stored' | 'coalesced' }>({ name: 'svc-record-observation', text: RECORD, values });
        const { outcome, ...row } = rows[0]!;
        return { outcome, row, evicted: 0 };
      });
    }
    // Bounded: an unchanged snapshot coalesces without waiting for the count; a new row is
    // counted, makes room or is refused, and is inserted, all in this one transaction.
    return ceiling.commit(() =>
      inLockedTransaction(this.pool, LOCK_CLASS.observations, o.did, async (client): Promise<Recorded<Observation>> => {
        const coalesced = await client.query<Observation & { outcome: 'coalesced' }>({
          name: 'svc-coalesce-observation',
          text: COALESCE,
          values: withoutDocument(values),
        });
        if (coalesced.rows[0] !== undefined) {
          const { outcome: _outcome, ...row } = coalesced.rows[0];
          return { outcome: 'coalesced', row, evicted: 0 };
        }
        const evicted = await ceiling.makeRoom(client, o.did);
        if (evicted === null) return { outcome: 'refused', row: null, evicted: 0 };
        const { rows } = await client.query<Observation>({ name: 'svc-insert-observation', text: INSERT, values });
        return evicted > 0 ? { outcome: 'evicted', row: rows[0]!, evicted } : { outcome: 'stored', row: rows[0]!, evicted: 0 };
      }),
    );
  }

  /** Rows (the database's exact count), the ceiling, and evictions and refusals since the store was opened. */
  usage(): Promise<RowUsage> {
    return this.#ceiling.usage(this.pool);
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
    const { rows } = await this.pool.query<StoredRow>(`SELECT ${COLUMNS}, document FROM observations WHERE did = $1 ${NEWEST_FIRST} LIMIT $2`, [
      did,
      limitOf(limit),
    ]);
    return rows.map(withDocument);
  }

  async findByHash(did: string, documentHash: string): Promise<StoredObservation | undefined> {
    const { rows } = await this.pool.query<StoredRow>(
      `SELECT ${COLUMNS}, document FROM observations WHERE did = $1 AND document_hash = $2 ${NEWEST_FIRST} LIMIT 1`,
      [did, documentHash],
    );
    return rows[0] === undefined ? undefined : withDocument(rows[0]);
  }

  async hashesWithPrefix(did: string, prefix: string): Promise<string[]> {
    const range = hashRange(prefix);
    if (range === null) return [];
    // The range is what the (did, document_hash) index can serve; substr() is the exact test.
    const { rows } = await this.pool.query<{ documentHash: string }>(
      `SELECT document_hash AS "documentHash" FROM observations
       WHERE did = $1 AND document_hash >= $2 AND document_hash < $3 AND substr(document_hash, 1, $4) = $2 ${NEWEST_FIRST}`,
      [did, range[0], range[1], prefix.length],
    );
    return distinctHashes(rows);
  }

  async hashPrefixes(did: string, length: number): Promise<string[]> {
    // Grouped in the (did, document_hash) index's order: the documents are not read.
    const { rows } = await this.pool.query<{ p: string }>(
      `SELECT substr(document_hash, 1, $2) AS p FROM observations WHERE did = $1 GROUP BY document_hash ORDER BY document_hash`,
      [did, length],
    );
    return rows.map((row) => row.p);
  }

  async olderThan(did: string, row: Pick<Observation, 'observedAt' | 'id'>): Promise<StoredObservation | undefined> {
    // A row comparison, which the (did, observed_at, id) index serves as a range.
    const { rows } = await this.pool.query<StoredRow>(
      `SELECT ${COLUMNS}, document FROM observations WHERE did = $1 AND (observed_at, id) < ($2, $3) ${NEWEST_FIRST} LIMIT 1`,
      [did, row.observedAt, row.id],
    );
    return rows[0] === undefined ? undefined : withDocument(rows[0]);
  }
}
