/**
 * Migrated PostgreSQL schemas reused by the tests of one file. Migrating a fresh schema takes
 * seconds (every migration one locked transaction, the lock shared by every schema of the
 * database); emptying a migrated one takes a few milliseconds. So a test takes a schema that is
 * exactly as a fresh one is once migrated and opened — every table empty, every sequence at its
 * start, the row counts at 0 — and gives it back when done: it is emptied (TRUNCATE … RESTART
 * IDENTITY; the count triggers set the counts to 0) and kept for the next test only when its
 * catalogue (tables, columns, constraints, indexes, triggers, functions, sequences) and its
 * bookkeeping rows (svc_schema_version, svc_row_counts) are the same as when it was made.
 * A test that changed the schema (a dropped trigger, a renamed table, an older version) has its
 * schema dropped instead. Tests of migrations themselves take fresh schemas (freshSchema).
 */
import pg from 'pg';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { freshSchema, postgresUrl } from './postgres.js';

export interface PooledSchema {
  schema: string;
  /** Gives the schema back (after every store and connection on it is closed). */
  drop: () => Promise<void>;
  /**
   * Empties the schema in place, for stores kept open from test to test (their connections idle):
   * true when it is again as it was made; false when a test changed it (then close the stores and
   * drop it).
   */
  reset: () => Promise<boolean>;
}

/** Bookkeeping tables kept through the emptying (their rows are part of a migrated schema). */
const KEPT = ['svc_schema_version', 'svc_row_counts'];

/** The catalogue of the schema a test could have changed, in one statement (`$1`: the schema). */
const CATALOGUE = `SELECT json_build_array(
  (SELECT json_agg(x ORDER BY x.relname, x.relkind) FROM (SELECT c.relname, c.relkind, c.relpersistence FROM pg_class c WHERE c.relnamespace = n.oid) x),
  (SELECT json_agg(x ORDER BY x.relname, x.attnum) FROM (
     SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull, pg_get_expr(d.adbin, d.adrelid) AS def
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relnamespace = n.oid AND a.attnum > 0 AND NOT a.attisdropped) x),
  (SELECT json_agg(x ORDER BY x.t, x.conname) FROM (SELECT c.conrelid::regclass::text AS t, c.conname, pg_get_constraintdef(c.oid) AS d FROM pg_constraint c WHERE c.connamespace = n.oid) x),
  (SELECT json_agg(x ORDER BY x.indexname) FROM (SELECT i.indexrelid::regclass::text AS indexname, pg_get_indexdef(i.indexrelid) AS d FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = n.oid) x),
  (SELECT json_agg(x ORDER BY x.t, x.tgname) FROM (SELECT t.tgrelid::regclass::text AS t, t.tgname, t.tgenabled, pg_get_triggerdef(t.oid) AS d FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = n.oid AND NOT t.tgisinternal) x),
  (SELECT json_agg(x ORDER BY x.proname) FROM (SELECT p.proname, p.prosrc, p.proconfig FROM pg_proc p WHERE p.pronamespace = n.oid) x),
  (SELECT json_agg(x ORDER BY x.sequencename) FROM (SELECT s.sequencename, s.start_value, s.increment_by, s.last_value FROM pg_sequences s WHERE s.schemaname = n.nspname) x)
) AS catalogue FROM pg_namespace n WHERE n.nspname = $1`;

/** Everything of the schema a test could have changed, as one text (rows only of the bookkeeping tables). */
async function fingerprint(client: pg.ClientBase, schema: string): Promise<string> {
  const catalogue = (await client.query(CATALOGUE, [schema])).rows[0]?.catalogue ?? null;
  const kept = await Promise.all(
    KEPT.map(async (table) =>
      (await client.query(`SELECT to_regclass($1) IS NOT NULL AS e`, [`${schema}.${table}`])).rows[0].e
        ? (await client.query(`SELECT * FROM ${schema}.${table} ORDER BY 1`)).rows
        : null,
    ),
  );
  return JSON.stringify([catalogue, kept]);
}

/**
 * Empties every table that holds rows (but the bookkeeping ones) and restarts every sequence that
 * was used; false when it could not (locks held past the timeout, the schema gone).
 */
async function empty(client: pg.ClientBase, schema: string): Promise<boolean> {
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = '10s'`);
    const tables = (await client.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = $1 ORDER BY 1`, [schema])).rows
      .map((r) => r.t)
      .filter((t) => !KEPT.includes(t));
    const filled =
      tables.length === 0
        ? []
        : (await client.query<{ t: string }>(tables.map((t) => `SELECT '${t}' AS t WHERE EXISTS (SELECT 1 FROM ${schema}.${t})`).join(' UNION ALL '))).rows.map(
            (r) => r.t,
          );
    if (filled.length > 0) await client.query(`TRUNCATE ${filled.map((t) => `${schema}.${t}`).join(', ')} RESTART IDENTITY CASCADE`);
    const used = (
      await client.query<{ s: string }>(`SELECT sequencename AS s FROM pg_sequences WHERE schemaname = $1 AND last_value IS NOT NULL`, [schema])
    ).rows.map((r) => r.s);
    for (const s of used) await client.query(`ALTER SEQUENCE ${schema}.${s} RESTART`);
    await client.query('COMMIT');
    return true;
  } catch {
    await client.query('ROLLBACK').catch(() => undefined);
    return false;
  }
}

export interface SchemaPool {
  /** A migrated, empty schema of its own for the test (made when none is free). */
  take(): Promise<PooledSchema>;
  /** Drops every schema the pool made (a file's afterAll). */
  dispose(): Promise<void>;
}

export function schemaPool(): SchemaPool {
  const idle: string[] = [];
  const made = new Map<string, { fingerprint: string; drop: () => Promise<void> }>();
  let admin: pg.Client | undefined;
  const connection = async () => {
    if (!admin) {
      admin = new pg.Client({ connectionString: postgresUrl });
      admin.on('error', () => undefined);
      await admin.connect();
    }
    return admin;
  };

  async function make(): Promise<string> {
    const { schema, drop } = freshSchema();
    const store = await openPostgresStore({ url: postgresUrl, schema });
    await store.close();
    made.set(schema, { fingerprint: await fingerprint(await connection(), schema), drop });
    return schema;
  }

  async function giveBack(schema: string): Promise<void> {
    const entry = made.get(schema)!;
    const client = await connection();
    if ((await empty(client, schema)) && (await fingerprint(client, schema)) === entry.fingerprint) {
      idle.push(schema);
      return;
    }
    made.delete(schema);
    await entry.drop();
  }

  return {
    async take() {
      const schema = idle.pop() ?? (await make());
      let given = false;
      return {
        schema,
        drop: async () => {
          if (given) return;
          given = true;
          await giveBack(schema);
        },
        reset: async () => {
          const client = await connection();
          return (await empty(client, schema)) && (await fingerprint(client, schema)) === made.get(schema)!.fingerprint;
        },
      };
    },
    async dispose() {
      const drops = [...made.values()].map((m) => m.drop());
      made.clear();
      idle.length = 0;
      await Promise.all(drops);
      await admin?.end().catch(() => undefined);
      admin = undefined;
    },
  };
}

export interface KeptStores {
  schema: string;
  stores: PostgresStore[];
  /** The end of a test: the schema emptied in place for the next (or, changed by the test, the stores closed and the schema dropped). */
  done(): Promise<void>;
}

/**
 * `count` stores (each its own pool, as several daemons on one database) on one migrated schema,
 * kept open from test to test: each test still starts on an empty database. `close` ends them (a
 * file's afterAll, before the pool's dispose).
 */
export function keptStores(pool: SchemaPool, count: number): { open(): Promise<KeptStores>; close(): Promise<void> } {
  let kept: { taken: PooledSchema; stores: PostgresStore[] } | undefined;
  const close = async () => {
    const k = kept;
    kept = undefined;
    if (!k) return;
    for (const store of k.stores) await store.close();
    await k.taken.drop();
  };
  return {
    async open() {
      kept ??= await (async () => {
        const taken = await pool.take();
        const stores: PostgresStore[] = [];
        for (let i = 0; i < count; i++) stores.push(await openPostgresStore({ url: postgresUrl, schema: taken.schema }));
        return { taken, stores };
      })();
      const { taken, stores } = kept;
      return {
        schema: taken.schema,
        stores,
        done: async () => {
          if (kept?.taken !== taken) return;
          if (!(await taken.reset())) await close();
        },
      };
    },
    close,
  };
}
