/**
 * PostgreSQL for tests: the server of SVC_TEST_DATABASE_URL (default: the machine's, trust
 * authentication on 127.0.0.1:5432, database `test`). Suites that need it run when it answers
 * and skip with a visible message when it does not — except under CI=true, where a missing
 * server fails the run (CI here has one: a silently skipped half would hide breakage). Each
 * test gets a schema of its own, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';

export const postgresUrl: string = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probe(): Promise<string | null> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n', 1)[0]! : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why PostgreSQL cannot be used here, or null when it can (asked once per test file). */
export const postgresProblem: string | null = await probe();
export const postgresAvailable = postgresProblem === null;
const inCi = process.env.CI === 'true';
const skipReason = `PostgreSQL not reachable at ${postgresUrl.replace(/:[^:@/]*@/, ':***@')} (${postgresProblem ?? ''}); PostgreSQL tests skipped`;
if (!postgresAvailable && !inCi) console.warn(`\n⚠ ${skipReason}\n`);

/** `describe` for suites that need PostgreSQL: skipped visibly without it, failing in CI without it. */
export function describePostgres(name: string, fn: () => void): void {
  if (postgresAvailable) describe(name, fn);
  else if (inCi) {
    describe(name, () => {
      it('needs PostgreSQL (CI=true: these tests are not skipped in CI)', () => {
        throw new Error(skipReason.replace('PostgreSQL tests skipped', 'they cannot run in CI without it'));
      });
    });
  } else describe.skipIf(true)(name, fn);
}

/** A fresh schema name (svc_t_<random>) and a function that drops it with everything in it. */
export function freshSchema(): { schema: string; drop: () => Promise<void> } {
  const schema = `svc_t_${randomBytes(6).toString('hex')}`;
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}
