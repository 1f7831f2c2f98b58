/** The database a command's work uses (the --db option: store-options.ts), and how a reading command opens it. */
import { existsSync } from 'node:fs';
import { ConfigError } from '../../runtime/node.js';
import { databaseTarget, isPostgresUrl, openDatabase, type Database } from '../../store/database.js';
import { StoreError } from '../../store/schema/errors.js';
import { storePathProblem } from '../../store/schema/paths.js';

/** The database a command uses (--db, SVC_DATABASE_URL, the default file); a bad SVC_DATABASE_URL is a usage error (exit 2). */
export function databaseOption(db: string | undefined, env: NodeJS.ProcessEnv): string {
  try {
    return databaseTarget(db, env);
  } catch (err) {
    if (err instanceof StoreError) throw new ConfigError(err.message);
    throw err;
  }
}

/**
 * Opens the store for reading; a missing file reads as an empty in-memory store (nothing
 * created), unless no database could ever be created there (StoreError: exit 4). A PostgreSQL
 * URL is opened as it is (and migrated, as a daemon would).
 */
export async function openForReading(target: string): Promise<Database> {
  if (isPostgresUrl(target)) return openDatabase({ target });
  const missing = !existsSync(target);
  const problem = missing ? storePathProblem(target) : null;
  if (problem !== null) throw new StoreError('OPEN_FAILED', problem);
  return openDatabase({ target: missing ? ':memory:' : target });
}
