/**
 * One schema history for both engines: the migrations of src/store/schema/migrations.ts are written
 * once, in SQLite's dialect, and translated here for PostgreSQL, so the two schemas cannot drift
 * apart. The translation is closed: a construct it does not know makes it throw (a new migration
 * that needs more is caught by the conformance suite the first time it runs).
 *
 * - `INTEGER PRIMARY KEY AUTOINCREMENT` → an identity column (never reuses a deleted id)
 * - `STRICT`, `WITHOUT ROWID` → dropped (PostgreSQL types are strict)
 * - `<name>_ms INTEGER` (milliseconds since the epoch) → `BIGINT`: SQLite's INTEGER is 64-bit,
 *   PostgreSQL's 32-bit, and today's epoch milliseconds (~1.8e12) do not fit 32 bits
 * - `REAL` → `DOUBLE PRECISION`
 * - `json_valid(x)` → `(x IS NULL OR x::json IS NOT NULL)` — the cast refuses what is not JSON;
 *   `json` (not `jsonb`) keeps the text as written, so a document reads back byte for byte. NULL
 *   passes, as in SQLite (json_valid(NULL) is NULL, which a CHECK lets through): a nullable JSON
 *   column (monitor_baselines.document, .problem) must take NULL on both engines
 * - `json_type(x) = 'array'` → `json_typeof(x::json) = 'array'`
 */

const RULES: ReadonlyArray<[RegExp, string]> = [
  [/\bINTEGER PRIMARY KEY AUTOINCREMENT\b/g, 'INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY'],
  [/\)\s*STRICT,\s*WITHOUT ROWID;/g, ');'],
  [/\)\s*STRICT;/g, ');'],
  [/\b(\w+_ms)\s+INTEGER\b/g, '$1 BIGINT'],
  [/\bREAL\b/g, 'DOUBLE PRECISION'],
  [/\bjson_valid\((\w+)\)/g, '($1 IS NULL OR $1::json IS NOT NULL)'],
  [/\bjson_type\((\w+)\)/g, 'json_typeof($1::json)'],
];

/** SQLite constructs with no rule above: their presence means the translation would be wrong. */
const UNTRANSLATED = /\b(STRICT|WITHOUT ROWID|AUTOINCREMENT|PRAGMA|json_\w+\(|rowid|IFNULL|GLOB)\b/i;

export function postgresSql(sqlite: string): string {
  let sql = sqlite;
  for (const [pattern, replacement] of RULES) sql = sql.replace(pattern, replacement);
  const code = sql.replace(/--[^\n]*/g, '');
  const left = UNTRANSLATED.exec(code.replace(/json_typeof\(/g, ''));
  if (left) throw new Error(`no PostgreSQL translation for "${left[0]}"`);
  return sql;
}

/**
 * Databases translated before NULL passed `json_valid` (above) refuse a NULL document or problem
 * in monitor_baselines (schema v7), so no check could record a baseline: their two CHECKs are
 * replaced by the current translation. Idempotent and cheap once repaired (a catalogue lookup);
 * run under the migration lock after migrating.
 */
export const NULLABLE_JSON_REPAIR = `
  DO $$
  DECLARE c record;
  BEGIN
    FOR c IN
      SELECT con.conname, a.attname
      FROM pg_constraint con
      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
      WHERE con.conrelid = to_regclass('monitor_baselines') AND con.contype = 'c' AND cardinality(con.conkey) = 1
        AND a.attname IN ('document', 'problem') AND pg_get_constraintdef(con.oid) NOT LIKE '%IS NULL%'
    LOOP
      EXECUTE format('ALTER TABLE monitor_baselines DROP CONSTRAINT %I, ADD CONSTRAINT %I CHECK (%I IS NULL OR %I::json IS NOT NULL)',
        c.conname, c.conname, c.attname, c.attname);
    END LOOP;
  END $$`;
