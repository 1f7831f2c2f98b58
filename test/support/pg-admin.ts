/**
 * Databases of their own on a PostgreSQL server, for tests and benchmarks that start daemons as
 * processes (a schema cannot be named in a URL, a database can). Only the driver: no test
 * framework, so bench/ uses it too.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Runs one statement on the server of `serverUrl` over a connection of its own. */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates `<prefix>_<random>` on the server of `serverUrl`; `drop` removes it, connections and all. */
export async function createDatabase(serverUrl: string, prefix = 'svc_t'): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
