/**
 * A daemon's database for tests that run on both engines, with raw SQL beside the daemon (to age
 * timestamps, fill tables, read rows): a SQLite file in a directory of its own, or a fresh
 * PostgreSQL database. Each statement on a connection of its own, as another process would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { freshDatabase } from './postgres.js';

export type Sql = (statement: string) => Promise<Array<Record<string, unknown>>>;

export interface TestDatabase {
  /** A SQLite file path or a postgres:// URL (the daemon's --db). */
  target: string;
  sql: Sql;
  done: () => Promise<void>;
}

/** A SQLite file in a new directory named after `prefix` (removed by done). */
export async function sqliteDatabase(prefix: string): Promise<TestDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const target = path.join(dir, 'svc.db');
  return {
    target,
    sql: async (statement) => {
      const handle = new Database(target);
      try {
        handle.pragma('busy_timeout = 5000');
        const prepared = handle.prepare(statement);
        return prepared.reader ? (prepared.all() as Array<Record<string, unknown>>) : (prepared.run(), []);
      } finally {
        handle.close();
      }
    },
    done: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Statements on the PostgreSQL database at `url`, each on a connection of its own. */
export function postgresSql(url: string): Sql {
  return async (statement) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(statement)).rows as Array<Record<string, unknown>>;
    } finally {
      await client.end();
    }
  };
}

/** A fresh PostgreSQL database (dropped by done). */
export async function postgresDatabase(): Promise<TestDatabase> {
  const database = await freshDatabase();
  return { target: database.url, sql: postgresSql(database.url), done: database.drop };
}
