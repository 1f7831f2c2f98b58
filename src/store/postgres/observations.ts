/**
 * Observation history over PostgreSQL. Recording takes a transaction-level advisory
 * lock on the DID, so two daemons recording the same DID at once serialise: the second sees the
 * first's row and coalesces into it (one row, seenCount 2), never a second insert. With a ceiling
 * (the daemon's SVC_MAX_OBSERVATIONS) a new row is counted, makes room or is refused in the same
 * transaction, under the count's row lock shared by every daemon (src/store/postgres/ceiling.ts).
 *
 * record() is a group commit (sql.ts GroupCommit), as on SQLite: the observations recorded in one
 * turn of the event loop are written by one transaction holding the advisory locks of all their
 * DIDs, each exactly as a transaction of its own would write it (in order: a later one of the
 * same DID coalesces into an earlier one), in multi-row statements — one per round of distinct
 * DIDs (sql.ts rounds) — and each promise settles after the COMMIT. Round trips per batch: one
 * (the locks and every round in one simple query: an implicit transaction), also under a
 * ceiling while far from it; near the ceiling BEGIN with the locks, one statement per round (the
 * coalescing, then the count and the insert of the new rows), COMMIT. Instead of three or four
 * per observation. The locks and the rounds far from the ceiling are statements prepared once per
 * connection (PREPARED), executed with the batch's columns as array literals and its documents as
 * one text: the server neither parses nor plans them again for each batch. At most two batches
 * are written at once (BATCHES_IN_FLIGHT).
 */
import type pg from 'pg';
import { HASH_PROFILE } from '../../core/canonical.js';
import type { NewObservation, Observation, ObservationStore, Recorded, StoredObservation } from '../../core/history/store.js';
import type { CeilingOptions, RowUsage } from '../schema/ceiling.js';
import { distinctHashes, hashRange, limitOf, withDocument, type StoredRow } from '../schema/observations.js';
import { PgRowCeiling } from './ceiling.js';
import { GROUP_COMMIT_BATCH, GroupCommit, LOCK_CLASS, locksOf, quote, rounds, sqlArray, sqlLiteral, type GroupTransaction } from './sql.js';

const COLUMNS = `id, did, document_hash AS "documentHash", observed_at AS "observedAt", last_seen_at AS "lastSeenAt",
  seen_count AS "seenCount", latency_ms AS "latencyMs", resolver_version AS "resolverVersion",
  domain_binding_status AS "domainBindingStatus", summary`;
const NEWEST_FIRST = 'ORDER BY observed_at DESC, id DESC';

/** COLUMNS of the table under the alias `t`. */
const COLUMNS_OF = (t: string) => COLUMNS.replace(/(^|,\s*)(\w+)/g, `$1${t}.$2`);

/** One new row (at the ceiling, after makeRoom): $1 did, $2 hash, $3 document, $4 observedAt, $5 latency, $6 resolver, $7 binding, $8 summary, $9 profile. */
const INSERT = `
  INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, seen_count,
    latency_ms, resolver_version, domain_binding_status, summary, fingerprint_profile)
  VALUES ($1, $2, $3, $4, $4, 1, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`;

/** The columns of a batch's rows, each sent as an array literal (sql.ts sqlArray), and their types. */
const INPUT: ReadonlyArray<[column: string, type: string, value: (o: NewObservation) => string | number | null]> = [
  ['did', 'text', (o) => o.did],
  ['hash', 'text', (o) => o.documentHash],
  ['document', 'text', (o) => JSON.stringify(o.document)],
  ['observed_at', 'text', (o) => o.observedAt],
  ['latency', 'float8', (o) => o.latencyMs],
  ['resolver', 'text', (o) => o.resolverVersion],
  ['binding', 'text', (o) => o.domainBindingStatus],
  ['summary', 'text', (o) => o.summary],
];

/**
 * The batch (one round: distinct DIDs) as a table `input` of literals, `n` its order;
 * `withDocument` false leaves the document out (the coalescing does not read it).
 */
function inputOf(list: readonly NewObservation[], withDocument: boolean): string {
  const columns = INPUT.filter(([c]) => withDocument || c !== 'document');
  const arrays = columns.map(([, type, value]) => sqlArray(list.map(value), type)).join(', ');
  return `input AS MATERIALIZED (SELECT * FROM unnest(${arrays}) WITH ORDINALITY AS i(${columns.map(([c]) => c).join(', ')}, n))`;
}

/**
 * Each DID's latest row, with its input row's values (so the UPDATE joins nothing again), and the
 * coalescing UPDATE of those that match (a row of another profile is not relabelled, as on SQLite).
 */
const COALESCED = `latest AS (
    SELECT i.hash, i.binding, i.observed_at, i.latency, i.resolver, i.summary, l.id, l.document_hash, l.domain_binding_status, l.fingerprint_profile
    FROM input i
    CROSS JOIN LATERAL (SELECT id, document_hash, domain_binding_status, fingerprint_profile FROM observations WHERE did = i.did ${NEWEST_FIRST} LIMIT 1) l
  ), coalesced AS (
    UPDATE observations o SET seen_count = o.seen_count + 1, last_seen_at = GREATEST(o.last_seen_at, l.observed_at),
      latency_ms = l.latency, resolver_version = l.resolver, summary = l.summary
    FROM latest l
    WHERE o.id = l.id AND l.document_hash = l.hash AND l.domain_binding_status IS NOT DISTINCT FROM l.binding AND l.fingerprint_profile = '${HASH_PROFILE}'
    RETURNING ${COLUMNS_OF('o')}, 'coalesced' AS outcome
  )`;

/** The insert of the rows of `input` that pass `where`, in the batch's order (ids ascending). */
const insertInput = (where: string) => `
    INSERT INTO observations (did, document_hash, document, observed_at, last_seen_at, seen_count,
      latency_ms, resolver_version, domain_binding_status, summary, fingerprint_profile)
    SELECT i.did, i.hash, i.document, i.observed_at, i.observed_at, 1, i.latency, i.resolver, i.binding, i.summary, '${HASH_PROFILE}'
    FROM input i WHERE ${where} ORDER BY i.n
    RETURNING ${COLUMNS}, 'stored' AS outcome`;

/** A round of distinct DIDs, unbounded: each coalesced into its latest row, or inserted. */
const recordRound = (input: string) => `WITH ${input}, ${COALESCED}, stored AS (${insertInput('NOT EXISTS (SELECT 1 FROM coalesced c WHERE c.did = i.did)')})
  SELECT * FROM coalesced UNION ALL SELECT * FROM stored`;
/** With a ceiling: the coalescing alone (no documents sent) … */
const coalesceRound = (input: string) => `WITH ${input}, ${COALESCED} SELECT * FROM coalesced`;
/** What a round that does not fit under the ceiling fails with (boundedRound): the batch is then written by the steps below. */
const NO_ROOM = 'svc: no room under the ceiling for the round';

/**
 * Under a ceiling, a round of distinct DIDs in one statement, for a batch sent whole in one
 * simple query: each coalesced into its latest row; then, only when some are new, the count is
 * locked (as makeRoom locks it) and the new rows are inserted when all of them fit under the
 * ceiling without an eviction (makeRoom would evict nothing and refuse none). When they do not,
 * the statement fails (an integer cast of NO_ROOM and the count): the query's implicit
 * transaction rolls back whole and the batch is written again step by step. FOR UPDATE reads the
 * count's latest committed version once it is granted (READ COMMITTED reads a locked row again
 * after waiting for it), so the room is judged on every insert and eviction committed before; a
 * round whose rows all coalesce never takes the count's lock. Each row back carries the count
 * before the insert (`counted`), for the store's guess of how close the ceiling is.
 */
const boundedRound = (input: string, ceiling: number | string) => `WITH ${input}, ${COALESCED},
  fresh AS MATERIALIZED (SELECT count(*) AS k FROM input i WHERE NOT EXISTS (SELECT 1 FROM coalesced c WHERE c.did = i.did)),
  counted AS MATERIALIZED (SELECT n FROM svc_row_counts WHERE table_name = 'observations' AND (SELECT k FROM fresh) > 0 FOR UPDATE),
  stored AS (${insertInput(
    `NOT EXISTS (SELECT 1 FROM coalesced c WHERE c.did = i.did)
    AND (SELECT CASE WHEN n + (SELECT k FROM fresh) <= ${ceiling} THEN 1 ELSE ('${NO_ROOM} ' || n)::int END FROM counted) = 1`,
  )})
  SELECT *, (SELECT n FROM counted) AS counted FROM coalesced UNION ALL SELECT *, (SELECT n FROM counted) FROM stored`;

/** Whether `error` is boundedRound's refusal of a round that does not fit. */
function isNoRoom(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '22P02' && typeof e.message === 'string' && e.message.includes(NO_ROOM);
}

/**
 * … then the count locked (as makeRoom locks it) and, in the same round trip, the insert of the
 * round's new rows only when all of them fit under the ceiling ($ceiling) without an eviction —
 * makeRoom would evict nothing and refuse none of them. Nothing back: they are recorded one at a
 * time instead. The insert is a statement of its own after the lock, so its snapshot includes
 * every insert committed before the count was granted.
 */
const insertRoundIfRoom = (input: string, count: number, ceiling: number) => [
  `SELECT n FROM svc_row_counts WHERE table_name = 'observations' FOR UPDATE`,
  `WITH ${input}, room AS (SELECT 1 FROM svc_row_counts WHERE table_name = 'observations' AND n + ${count} <= ${ceiling})
  ${insertInput('EXISTS (SELECT 1 FROM room)')}`,
];

/**
 * What separates the documents of a batch sent as one text: JSON text never holds a raw control
 * character (JSON.stringify escapes every one inside strings and writes no whitespace), so the
 * documents — most of a batch's bytes — need neither the escapes of an array literal nor
 * array_in's parse, only a split.
 */
const DOCUMENT_SEPARATOR = '\u0001';

/** Whether `column` goes as one text of documents (DOCUMENT_SEPARATOR) rather than an array. */
const joined = (column: string) => column === 'document';

/**
 * The batch as parameters, for the prepared statements below: one array each of INPUT's columns,
 * $1… in INPUT's order, the documents one text split into an array (the unbounded statement's
 * text is then the same for every batch, so the server parses and plans it once per connection
 * instead of once per batch).
 */
const PARAMETER_INPUT = `input AS MATERIALIZED (SELECT * FROM unnest(${INPUT.map(([column, type], k) =>
  joined(column) ? `string_to_array($${k + 1}::text, chr(1))` : `$${k + 1}::${type}[]`,
).join(', ')}) WITH ORDINALITY AS i(${INPUT.map(([c]) => c).join(', ')}, n))`;

/** The types of PARAMETER_INPUT's parameters. */
const PARAMETER_TYPES = INPUT.map(([column, type]) => (joined(column) ? 'text' : `${type}[]`));

/** The writes of a batch far from the ceiling, prepared on each connection (SQL PREPARE): unbounded, and with the ceiling its last parameter. */
const PREPARED = [
  { name: 'svc_observations_lock', types: ['text[]'], text: locksOf(LOCK_CLASS.observations, '$1::text[]') },
  { name: 'svc_observations_record', types: PARAMETER_TYPES, text: recordRound(PARAMETER_INPUT) },
  {
    name: 'svc_observations_bounded',
    types: [...PARAMETER_TYPES, 'bigint'],
    text: boundedRound(PARAMETER_INPUT, `$${INPUT.length + 1}::bigint`),
  },
] as const;
type PreparedName = (typeof PREPARED)[number]['name'];

/** The connections known to hold PREPARED (a statement lasts as long as its session). */
const preparedOn = new WeakSet<pg.ClientBase>();

/**
 * PREPARED on `client` unless it holds them already: the ones its session lacks (asked of
 * pg_prepared_statements, so a connection prepared by an earlier store is not prepared twice).
 * Two round trips, once per connection.
 */
async function prepare(client: pg.ClientBase): Promise<void> {
  if (preparedOn.has(client)) return;
  const { rows } = await client.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE name = ANY($1::text[])', [PREPARED.map((p) => p.name)]);
  const held = new Set(rows.map((r) => r.name));
  const missing = PREPARED.filter((p) => !held.has(p.name));
  if (missing.length > 0) await client.query(missing.map((p) => `PREPARE ${p.name} (${p.types.join(', ')}) AS ${p.text}`).join(';\n'));
  preparedOn.add(client);
}

/** Whether `error` says one of PREPARED is missing (its session's statements were discarded). */
function isUnprepared(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '26000' && typeof e.message === 'string' && PREPARED.some((p) => e.message === `prepared statement "${p.name}" does not exist`);
}

/**
 * One element of an array literal: NULL, a finite number, or a string in double quotes with its
 * backslashes and double quotes escaped (array_in's rules).
 */
function arrayElement(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('a number written to the database must be finite');
    return String(value);
  }
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * `values` as one array literal ('{…}'), itself an SQL string literal: dollar-quoted, so the
 * text goes to the server as it is (no quote or backslash doubled), unless it holds the tag.
 */
function arrayParameter(values: ReadonlyArray<string | number | null>): string {
  return dollarQuoted(`{${values.map(arrayElement).join(',')}}`);
}

/**
 * `text` as a dollar-quoted SQL literal (sent as it is), or quoted when it holds `$svc` (with the
 * closing tag after it, `…$svc` would end the literal early) or ends in a dollar sign.
 */
function dollarQuoted(text: string): string {
  return text.includes('$svc') || text.endsWith('$') ? quote(text) : `$svc$${text}$svc$`;
}

/** The documents of a round as one text (DOCUMENT_SEPARATOR between them), as an SQL literal. */
function documentsParameter(documents: ReadonlyArray<string | number | null>): string {
  const text = documents.join(DOCUMENT_SEPARATOR);
  // Never when the documents are JSON.stringify's: a document holding the separator would split in two.
  if (documents.some((d) => typeof d !== 'string' || d.includes(DOCUMENT_SEPARATOR))) throw new RangeError('a document must be JSON text');
  return dollarQuoted(text);
}

/** EXECUTE of a prepared statement with the round's columns (and `extra` parameters after them). */
function execute(name: PreparedName, list: readonly NewObservation[], extra: readonly number[] = []): string {
  const columns = INPUT.map(([column, , value]) => (joined(column) ? documentsParameter(list.map(value)) : arrayParameter(list.map(value))));
  return `EXECUTE ${name}(${[...columns, ...extra.map((n) => sqlLiteral(n))].join(', ')})`;
}

/**
 * Most batches one store writes at once. Without a limit, a daemon under load writes a small
 * batch per turn of its event loop, each a commit of its own; with two, the records of the turns
 * while both are busy wait for the first to finish and go as one larger batch — fewer commits,
 * less server CPU per observation — while a second connection keeps one slow batch from holding
 * up the rest.
 */
const BATCHES_IN_FLIGHT = 2;

type Outcome<T extends string> = Observation & { outcome: T; counted?: unknown };

/** The rows back by DID (distinct within a round), without their outcome (and count) column. */
function byDid<T extends string>(rows: Outcome<T>[]): Map<string, { outcome: T; row: Observation }> {
  return new Map(rows.map(({ outcome, counted: _, ...row }) => [row.did, { outcome, row }]));
}

export class PostgresObservationStore implements ObservationStore {
  readonly #ceiling: PgRowCeiling;
  readonly #commits: GroupCommit<NewObservation, Recorded<Observation>>;
  /**
   * The table's row count as this store last saw it (null: not yet), to guess whether a batch
   * fits under the ceiling: a guess only, which picks the way a batch is written — whole in one
   * round trip when far from the ceiling, step by step near it (where a batch that does not fit
   * would fail and be written again) — never what is written.
   */
  #seenCount: number | null = null;

  /**
   * `options.ceiling`: most rows (the daemon's SVC_MAX_OBSERVATIONS); none: unbounded (the CLI).
   * `options.batch`: most observations one transaction writes (default GROUP_COMMIT_BATCH; 1: each its own).
   */
  constructor(
    private readonly pool: pg.Pool,
    options: CeilingOptions & { batch?: number } = {},
  ) {
    this.#ceiling = new PgRowCeiling('observations', 'did', options);
    this.#commits = new GroupCommit(
      pool,
      LOCK_CLASS.observations,
      (o) => o.did,
      (tx, list) => this.#write(tx, list),
      (results) => this.#ceiling.settleAll(results),
      options.batch ?? GROUP_COMMIT_BATCH,
      (dids) => `EXECUTE svc_observations_lock(${arrayParameter([...new Set(dids)])})`,
      BATCHES_IN_FLIGHT,
    );
  }

  /**
   * Submitted to the group commit. The batch's statements run after the locks of all its DIDs
   * are held, so their snapshots include whatever a concurrent recorder of those DIDs (another
   * daemon's batch) committed first.
   */
  record(o: NewObservation): Promise<Recorded<Observation>> {
    return this.#commits.submit(o);
  }

  /** Resolves when every record submitted so far has been written or refused (the store is closing). */
  drain(): Promise<void> {
    return this.#commits.drain();
  }

  /**
   * One batch, its DIDs locked. Unbounded: the locks and every round of distinct DIDs in one
   * simple query (one round trip, one implicit transaction). Bounded and far from the ceiling:
   * the same, each round a boundedRound — no lock is held across a round trip. Near it, or when
   * a round did not fit: BEGIN, the locks and the first round's coalescing in one round trip,
   * then per round the new rows' count and insert in one more; the group commit sends COMMIT.
   */
  async #write(tx: GroupTransaction, list: NewObservation[]): Promise<Array<Recorded<Observation>>> {
    await prepare(tx.client);
    try {
      return await this.#writePrepared(tx, list);
    } catch (error) {
      if (!isUnprepared(error)) throw error;
      // The session lost the prepared statements (DISCARD ALL): the statement that found one
      // missing was the batch's first EXECUTE (the locks, or the whole batch in one implicit
      // transaction), so nothing is written and nothing counted. Rolled back (a warning only
      // when no transaction is open), prepared again, and the batch written again.
      preparedOn.delete(tx.client);
      await tx.client.query('ROLLBACK');
      await prepare(tx.client);
      return this.#writePrepared(tx, list);
    }
  }

  async #writePrepared(tx: GroupTransaction, list: NewObservation[]): Promise<Array<Recorded<Observation>>> {
    const out: Array<Recorded<Observation>> = new Array(list.length);
    const { client } = tx;
    const ceiling = this.#ceiling.ceiling;
    const groups = rounds(list, (o) => o.did);
    const items = (round: Array<{ item: NewObservation }>) => round.map((r) => r.item);
    const whole = async (statement: (round: NewObservation[]) => string): Promise<Array<Recorded<Observation>>> => {
      const answers = await tx.once(groups.map((round) => statement(items(round))));
      groups.forEach((round, k) => {
        const rows = answers[k]!.rows as Array<Outcome<'stored' | 'coalesced'>>;
        const counted = rows.find((r) => r.counted !== null && r.counted !== undefined)?.counted;
        if (counted !== undefined) this.#seenCount = Number(counted) + rows.filter((r) => r.outcome === 'stored').length;
        const written = byDid(rows);
        for (const { item, index } of round) out[index] = { ...written.get(item.did)!, evicted: 0 };
      });
      return out;
    };
    if (ceiling === null) return whole((round) => execute('svc_observations_record', round));
    // Far: what the count was plus this batch stays a tenth of the ceiling (at most 1,000 rows) below it.
    if (this.#seenCount === null || this.#seenCount + list.length + Math.min(1_000, Math.floor(ceiling / 10)) <= ceiling) {
      try {
        return await whole((round) => execute('svc_observations_bounded', round, [ceiling]));
      } catch (error) {
        if (!isNoRoom(error)) throw error;
        this.#seenCount = ceiling;
      }
    }
    // Bounded: an unchanged snapshot coalesces without waiting for the count; new rows are
    // counted, make room or are refused, and are inserted, all in this one transaction.
    for (const [k, round] of groups.entries()) {
      const coalesce = coalesceRound(inputOf(items(round), false));
      const { rows } = k === 0 ? await tx.begin<Outcome<'coalesced'>>(coalesce) : await client.query<Outcome<'coalesced'>>(coalesce);
      const coalesced = byDid(rows);
      const fresh = round.filter(({ item, index }) => {
        const hit = coalesced.get(item.did);
        if (hit !== undefined) out[index] = { ...hit, evicted: 0 };
        return hit === undefined;
      });
      if (fresh.length === 0) continue;
      const answer = await client.query(insertRoundIfRoom(inputOf(items(fresh), true), fresh.length, ceiling).join(';\n'));
      const seen = (answer as unknown as pg.QueryResult[])[0]!.rows[0] as { n?: unknown } | undefined;
      if (seen?.n !== undefined) this.#seenCount = Number(seen.n);
      const inserted = (answer as unknown as pg.QueryResult[])[1]!.rows as Array<Outcome<'stored'>>;
      if (inserted.length === fresh.length) {
        const stored = byDid(inserted);
        for (const { item, index } of fresh) out[index] = { ...stored.get(item.did)!, evicted: 0 };
        continue;
      }
      // At the ceiling: one at a time, each making room (or refused) as a transaction of its own would.
      for (const { item, index } of fresh) out[index] = await this.#insertAtCeiling(client, item);
    }
    return out;
  }

  async #insertAtCeiling(client: pg.PoolClient, o: NewObservation): Promise<Recorded<Observation>> {
    const evicted = await this.#ceiling.makeRoom(client, o.did);
    if (evicted === null) return { outcome: 'refused', row: null, evicted: 0 };
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
    const { rows } = await client.query<Observation>({ name: 'svc-insert-observation', text: INSERT, values });
    return evicted > 0 ? { outcome: 'evicted', row: rows[0]!, evicted } : { outcome: 'stored', row: rows[0]!, evicted: 0 };
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
