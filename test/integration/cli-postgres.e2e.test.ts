/**
 * The commands on a PostgreSQL database (`--db postgres://…` or SVC_DATABASE_URL), as users run
 * them (the first test through the built binary, the others in the test process, svcIn) against a
 * real server: resolutions recorded there and read back, chains registered there and used by
 * verify-tool, `svc backup` pointing at pg_dump, and a password that never appears in what svc
 * prints.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, parseCliError, svc, svcIn } from '../support/cli.js';
import { startDaemon } from '../support/daemon.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';
import { didKeyPrincipal, mintReceipt } from '../support/receipts.js';
import { generateTestKey } from '../support/signing.js';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-pg-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const freshDidKey = () => `did:key:${generateTestKey('EdDSA').multikey}`;
const json = (stdout: string): any => JSON.parse(stdout);

describePostgres('svc on a PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('resolve records there (--db) and history reads it back (SVC_DATABASE_URL); a second resolution coalesces', async () => {
    const did = freshDidKey();
    const env = cleanEnv({ XDG_STATE_HOME: path.join(dir, 'state-1') });
    for (let i = 0; i < 2; i++) {
      const resolved = await svc(['resolve', did, '--db', database.url, '--json'], env);
      expect(resolved.exitCode, resolved.stderr).toBe(0);
      expect(resolved.stderr).not.toMatch(/warning/);
    }
    const history = await svc(['history', did, '--json'], { ...env, SVC_DATABASE_URL: database.url });
    expect(history.exitCode, history.stderr).toBe(0);
    const body = json(history.stdout);
    expect(body.history).toHaveLength(1);
    expect(body.history[0].seenCount).toBe(2);
    // Nothing went to the default SQLite file.
    expect(existsSync(path.join(dir, 'state-1', 'svc', 'svc.db'))).toBe(false);
  });

  it('verify-delegation --register stores the chain there; verify-tool answers from it', async () => {
    const root = didKeyPrincipal();
    const agent = didKeyPrincipal();
    const now = Math.floor(Date.now() / 1000);
    const chainFile = path.join(dir, 'chain.txt');
    writeFileSync(chainFile, `${await mintReceipt(root, agent, { cap: ['search'], nbf: now - 60, exp: now + 3600 })}\n`);
    const env = cleanEnv({ XDG_STATE_HOME: path.join(dir, 'state-2'), SVC_DATABASE_URL: database.url });
    const registered = await svcIn(['verify-delegation', chainFile, '--trusted-root', root.did, '--register', '--no-color'], env);
    expect(registered.exitCode, registered.stderr).toBe(0);
    expect(registered.stdout.replace(/\s+/g, ' ')).toContain(`Registered in ${database.url}`);
    const allowed = await svcIn(['verify-tool', '--agent', agent.did, '--tool', 'search', '--root', root.did, '--json'], env);
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    expect(json(allowed.stdout)).toMatchObject({ decision: 'ALLOW' });
  });

  it('svc backup says a PostgreSQL database is backed up with pg_dump (exit 2, nothing written, nothing contacted)', async () => {
    const dest = path.join(dir, 'backup.db');
    // An address where nothing listens: the answer comes before any connection.
    const r = await svcIn(['backup', dest, '--db', 'postgres://svc:hunter2secret@127.0.0.1:1/svc'], cleanEnv());
    expect(r.exitCode).toBe(2);
    const error = parseCliError(r.stderr);
    expect(error.code).toBe('USAGE_ERROR');
    expect(error.detail).toMatch(/is a PostgreSQL database/);
    expect(error.hint).toMatch(/pg_dump/);
    expect(r.stderr).not.toContain('hunter2secret');
    expect(existsSync(dest)).toBe(false);
  });
});

it('an unreachable PostgreSQL server: history exits 4 with one line naming it without its password', async () => {
  const r = await svcIn(['history', freshDidKey(), '--db', 'postgres://svc:hunter2secret@127.0.0.1:1/svc'], cleanEnv());
  expect(r.exitCode).toBe(4);
  expect(r.stderr).toMatch(/postgres:\/\/svc:\*\*\*@127\.0\.0\.1:1\/svc/);
  expect(r.stderr).toMatch(/refused the connection/);
  expect(r.stderr).not.toContain('hunter2secret');
  expect(r.stderr).not.toMatch(/ at .*\.js:\d+/);
});

it('SVC_DATABASE_URL must be a PostgreSQL URL (a file is given with --db): exit 2 before anything runs', async () => {
  const env = cleanEnv({ SVC_DATABASE_URL: path.join(dir, 'file.db') });
  for (const args of [
    ['history', freshDidKey()],
    ['resolve', freshDidKey()],
    ['backup', path.join(dir, 'copy.db')],
  ]) {
    const r = await svcIn(args, env);
    expect(r.exitCode, args[0]).toBe(2);
    expect(r.stdout).toBe('');
    expect(parseCliError(r.stderr).detail).toMatch(/SVC_DATABASE_URL must be a postgres:\/\/ URL/);
  }
  // --no-store reads no database setting at all.
  expect((await svcIn(['resolve', freshDidKey(), '--no-store', '--json'], env)).exitCode).toBe(0);
  expect(existsSync(path.join(dir, 'file.db'))).toBe(false);
});

it('svc serve with an unreachable PostgreSQL --db starts unready and does not print its password', async () => {
  const daemon = await startDaemon({ noDb: true, args: ['--db', 'postgres://svc:hunter2secret@127.0.0.1:1/svc', '--production'] });
  try {
    expect(daemon.stderr()).toMatch(/the database is unavailable \(cannot open the database postgres:\/\/svc:\*\*\*@127\.0\.0\.1:1\/svc/);
    expect(daemon.stderr()).toMatch(/database postgres:\/\/svc:\*\*\*@127\.0\.0\.1:1\/svc\)/);
    const ready = await fetch(`${daemon.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).not.toContain('hunter2secret');
  } finally {
    await daemon.stop();
  }
  expect(daemon.stderr()).not.toContain('hunter2secret');
});
