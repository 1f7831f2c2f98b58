/**
 * PostgreSQL for tests: the server of SVC_TEST_DATABASE_URL (default: the machine's, trust
 * authentication on 127.0.0.1:5432, database `test`). Suites that need it run when it answers
 * and skip with a visible message when it does not — except under CI=true, where a missing
 * server fails the run (CI here has one: a silently skipped half would hide breakage). Each
 * test gets a schema of its own, dropped afterwards.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, it } from 'vitest';
import { adminQuery, createDatabase } from './pg-admin.js';

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
    drop: () => adminQuery(postgresUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}

/** A database of its own on the machine's server (dropped by `drop`), for daemons started as processes. */
export function freshDatabase(): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  return createDatabase(postgresUrl);
}

/**
 * A PostgreSQL server of the test's own (initdb into a temporary directory, on a free loopback
 * port), so that a test can stop it under a running daemon and start it again without touching
 * the machine's server. Run as the `postgres` user when the tests run as root (the server
 * refuses root). Needs the server binaries (Debian: /usr/lib/postgresql/<version>/bin).
 */
export interface PrivatePostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

function serverBinaries(): string | null {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // pg_config absent: look where Debian puts the server.
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  for (const version of readdirSync(root).sort().reverse()) {
    const dir = path.join(root, version, 'bin');
    if (existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

/** Why a private server cannot be started here, or null. */
export const privatePostgresProblem: string | null = serverBinaries() === null ? 'the PostgreSQL server binaries (initdb, pg_ctl) are not installed' : null;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = serverBinaries();
  if (bin === null) throw new Error(privatePostgresProblem!);
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
      execFile(command, argv, { timeout: 60_000 }, (error, _stdout, stderr) =>
        error ? reject(new Error(`${tool} failed: ${stderr || error.message}`)) : resolve(),
      );
    });
  const data = path.join(dir, 'data');
  const port = await freePort();
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      '30',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
