/**
 * The schema history (schema/migrations.ts) applied to a SQLite file: the version is
 * `PRAGMA user_version`, and each migration runs in its own IMMEDIATE transaction together with
 * the version it reaches, so a crash or a failing statement mid-migration leaves the database at
 * the previous version, and two processes opening the same file migrate it once.
 */
import type Database from 'better-sqlite3';
import { reasonOf, StoreError } from '../schema/errors.js';
import { futureSchemaMessage, MIGRATIONS, SCHEMA_VERSION } from '../schema/migrations.js';

/** The database's schema version (`PRAGMA user_version`; 0 for a new file). */
export function readSchemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function futureSchemaError(found: number): StoreError {
  return new StoreError('FUTURE_SCHEMA', futureSchemaMessage(found));
}

/**
 * Applies the migrations the database lacks, up to `upTo` (default: all), and returns the
 * version reached. A database newer than this build is refused (FUTURE_SCHEMA), never
 * downgraded. A failing migration is OPEN_FAILED naming it, the database left at the version
 * before it.
 */
export function migrate(db: Database.Database, upTo: number = SCHEMA_VERSION): number {
  if (!Number.isInteger(upTo) || upTo < 0 || upTo > SCHEMA_VERSION) {
    throw new RangeError(`upTo must be a whole number between 0 and ${SCHEMA_VERSION}`);
  }
  for (const migration of MIGRATIONS) {
    if (migration.version > upTo) break;
    const before = readSchemaVersion(db);
    if (before > SCHEMA_VERSION) throw futureSchemaError(before);
    if (before >= migration.version) continue;
    // A table rebuild runs with foreign keys off (PRAGMA foreign_keys is a no-op inside a
    // transaction, so it is set before) and is checked with foreign_key_check before it commits.
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
    if (migration.rebuildsTables) db.pragma('foreign_keys = OFF');
    // IMMEDIATE takes the write lock before reading the version again: another process may
    // have migrated between the read above and this transaction.
    try {
      db.transaction(() => {
        const current = readSchemaVersion(db);
        if (current > SCHEMA_VERSION) throw futureSchemaError(current);
        if (current >= migration.version) return;
        db.exec(migration.up);
        if (migration.rebuildsTables) {
          const broken = db.pragma('foreign_key_check') as Array<{ table: string }>;
          if (broken.length > 0) throw new Error(`${broken.length} rows of ${broken[0]!.table} reference no row`);
        }
        db.pragma(`user_version = ${migration.version}`);
      }).immediate();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError('OPEN_FAILED', `migration ${migration.version} (${migration.name}) failed: ${reasonOf(error)}`);
    } finally {
      if (migration.rebuildsTables) db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
    }
  }
  const reached = readSchemaVersion(db);
  if (reached > SCHEMA_VERSION) throw futureSchemaError(reached);
  return reached;
}
