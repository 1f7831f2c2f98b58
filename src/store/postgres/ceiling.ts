/**
 * The history tables' ceiling on PostgreSQL (docs/operations.md#bounded-history): the rule of
 * src/store/schema/ceiling.ts, with its statements, driven over the record's pooled connection,
 * so that several daemons on one database hold one ceiling together.
 *
 * The count: `svc_row_counts` holds one row per bounded table, kept exact by the database itself
 * (statement triggers on INSERT, DELETE and TRUNCATE of the table, in the writer's transaction),
 * so it counts every writer — a daemon with a ceiling, a CLI without one, an operator pruning by
 * hand — and costs one indexed row read instead of count(*) over the table (~0.1 s at 100,000
 * rows before a VACUUM). A recorder about to insert a new row reads that row FOR UPDATE: the
 * recorders of new rows on every daemon take turns on it, each counting with every earlier insert
 * and eviction committed, so N concurrent recorders never exceed the ceiling. Every other insert
 * waits on the same row too (its trigger updates it), so nothing commits between the count and
 * the insert. Coalescing adds no row, fires no trigger and never waits for it.
 *
 * Lock order: the key's advisory lock (the record's transaction), then the count row, then the
 * rows an eviction deletes — never waited for: a row another transaction holds (a coalescer
 * confirming it, a hand-made DELETE) is passed over (SKIP LOCKED), so no cycle can form. An
 * eviction re-checks that its row is still a one-off (a coalescer may have committed a second
 * sighting since the row was found).
 *
 * Not part of the versioned migrations (one schema history shared with SQLite): created beside
 * them at every open, idempotently, under a one-key advisory lock. The first open that installs
 * the triggers counts the table in the same transaction, while CREATE TRIGGER's lock holds
 * writers off, so the count starts exact.
 */
import type pg from 'pg';
import type { Recorded } from '../../core/history/store.js';
import {
  CEILING_STATEMENTS,
  CeilingRule,
  type CeilingDialect,
  type CeilingKey,
  type CeilingOptions,
  type CeilingStatement,
  type CeilingTable,
  type RowUsage,
} from '../schema/ceiling.js';

/** One-key advisory lock ('svcc') held while the count table and its triggers are made. */
const DDL_LOCK = 0x73766363;

/** The tables with a ceiling. */
const BOUNDED: ReadonlyArray<CeilingTable> = ['observations', 'mcp_observations'];

const installTriggers = (table: CeilingTable) => `
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = '${table}'::regclass AND tgname = 'svc_count_added') THEN
      CREATE TRIGGER svc_count_added AFTER INSERT ON ${table} REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION svc_count_added();
      CREATE TRIGGER svc_count_removed AFTER DELETE ON ${table} REFERENCING OLD TABLE AS removed
        FOR EACH STATEMENT EXECUTE FUNCTION svc_count_removed();
      CREATE TRIGGER svc_count_truncated AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION svc_count_truncated();
      -- CREATE TRIGGER's lock keeps writers out until this commits: the count starts exact.
      INSERT INTO svc_row_counts (table_name, n) VALUES ('${table}', (SELECT count(*) FROM ${table}))
        ON CONFLICT (table_name) DO UPDATE SET n = excluded.n;
    END IF;`;

/** The trigger functions: a statement that wrote no row leaves the count alone, unlocked. */
const FUNCTIONS: Record<string, string> = {
  svc_count_added: `DECLARE changed BIGINT := (SELECT count(*) FROM added);
    BEGIN
      IF changed > 0 THEN UPDATE svc_row_counts SET n = n + changed WHERE table_name = TG_TABLE_NAME; END IF;
      RETURN NULL;
    END`,
  svc_count_removed: `DECLARE changed BIGINT := (SELECT count(*) FROM removed);
    BEGIN
      IF changed > 0 THEN UPDATE svc_row_counts SET n = n - changed WHERE table_name = TG_TABLE_NAME; END IF;
      RETURN NULL;
    END`,
  svc_count_truncated: `BEGIN
      UPDATE svc_row_counts SET n = 0 WHERE table_name = TG_TABLE_NAME;
      RETURN NULL;
    END`,
};

const installFunction = ([name, body]: [string, string]) => `
    IF to_regprocedure('${name}()') IS NULL THEN
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $f$ ${body} $f$;
    END IF;`;

/**
 * The count table, its trigger functions (SET search_path FROM CURRENT: the triggers find the
 * count table of the schema they were made in, whatever a writer's search_path) and the triggers
 * of each bounded table. One simple query: its statements are one transaction under the lock.
 * Each object is made only when missing, so a daemon connecting as a role that does not own them
 * opens the database as before (only the first open needs the right to create them).
 */
export const ROW_COUNTS_DDL = `SELECT pg_advisory_xact_lock(${DDL_LOCK});
CREATE TABLE IF NOT EXISTS svc_row_counts (table_name TEXT PRIMARY KEY, n BIGINT NOT NULL);
DO $$
BEGIN${Object.entries(FUNCTIONS).map(installFunction).join('')}${BOUNDED.map(installTriggers).join('')}
END $$;`;

/** The count of `$1`'s rows, locked until the transaction ends: one recorder of a new row at a time. */
const LOCK_COUNT = 'SELECT n::float8 AS v FROM svc_row_counts WHERE table_name = $1 FOR UPDATE';
const READ_COUNT = 'SELECT n::float8 AS v FROM svc_row_counts WHERE table_name = $1';

/** The rule on PostgreSQL: driven inside the record's transaction, on its connection. */
export class PgRowCeiling {
  readonly #rule: CeilingRule;
  readonly #statements: Record<CeilingStatement, string>;

  constructor(
    private readonly table: CeilingTable,
    key: CeilingKey,
    options: CeilingOptions = {},
  ) {
    this.#rule = new CeilingRule(table, options);
    const postgres: CeilingDialect = { p: (n) => `$${n}`, skipLocked: 'FOR UPDATE SKIP LOCKED' };
    const text = (name: CeilingStatement) => CEILING_STATEMENTS[name](table, key, postgres);
    this.#statements = { oneOff: text('oneOff'), oneOffKey: text('oneOffKey'), maxId: text('maxId'), rowsOf: text('rowsOf'), evict: text('evict') };
  }

  get ceiling(): number | null {
    return this.#rule.ceiling;
  }

  /**
   * Inside the record transaction, before inserting a new row of `key`: locks the count, then
   * evicts what the ceiling asks for; the rows evicted, or null when the row must be refused.
   * The count stays locked until the transaction ends, over the insert that follows.
   */
  async makeRoom(client: pg.PoolClient, key: string): Promise<number | null> {
    const { rows } = await client.query<{ v: number }>(LOCK_COUNT, [this.table]);
    const count = rows[0]?.v;
    if (count === undefined) throw new Error(`svc_row_counts has no row for ${this.table}`);
    const work = this.#rule.makeRoom(key, count);
    let step = work.next();
    while (!step.done) {
      const { statement, args } = step.value;
      const result = await client.query<{ v: unknown }>(this.#statements[statement], args);
      step = work.next(result.rows.map((row) => row.v));
    }
    return step.value;
  }

  /** After a group commit: each record counted (settle), or the watermark read again after its rollback (null). */
  settleAll(results: ReadonlyArray<Recorded<unknown>> | null): void {
    if (results === null) this.#rule.reset();
    else for (const recorded of results) this.#rule.settle(recorded);
  }

  /**
   * Runs one recording transaction (which called makeRoom, or not) and keeps the counts true:
   * settled after the commit, the watermark read again after a rollback.
   */
  async commit<T>(transaction: () => Promise<Recorded<T>>): Promise<Recorded<T>> {
    let recorded: Recorded<T>;
    try {
      recorded = await transaction();
    } catch (error) {
      this.#rule.reset();
      throw error;
    }
    this.#rule.settle(recorded);
    return recorded;
  }

  /** Rows now (the exact count), the ceiling, evictions and refusals since this store was opened. */
  async usage(pool: pg.Pool): Promise<RowUsage> {
    const { rows } = await pool.query<{ v: number }>(READ_COUNT, [this.table]);
    return this.#rule.usage(rows[0]?.v ?? 0);
  }
}
