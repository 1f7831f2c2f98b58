/** The database a command's work uses (the --db option: commands/store-options.ts). */
import { ConfigError } from '../../runtime/node.js';
import { databaseTarget } from '../../store/database.js';
import { StoreError } from '../../store/errors.js';

/** The database a command uses (--db, SVC_DATABASE_URL, the default file); a bad SVC_DATABASE_URL is a usage error (exit 2). */
export function databaseOption(db: string | undefined, env: NodeJS.ProcessEnv): string {
  try {
    return databaseTarget(db, env);
  } catch (err) {
    if (err instanceof StoreError) throw new ConfigError(err.message);
    throw err;
  }
}
