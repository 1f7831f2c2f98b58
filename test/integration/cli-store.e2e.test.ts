/**
 * The embedded store from the command line, as users run it (in the test process, svcIn; history and backup
 * also through the built binary): `svc resolve`
 * records observations under $XDG_STATE_HOME/svc/ or --db, `--no-store` skips it, and
 * `svc history`, `svc diff` and `svc backup` read and copy it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cleanEnv, parseCliError, svc, svcIn } from '../support/cli.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { generateTestKey, didDocument } from '../support/signing.js';

const ED25519 = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

let dir: string;
let host: DidWebHost;
let caFile: string;

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-cli-store-'));
  host = await startDidWebHost();
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, host.ca.certPem);
});

afterAll(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh state directory per test, so histories do not mix. */
function state(name: string): { env: Record<string, string | undefined>; db: string } {
  const home = path.join(dir, name);
  return {
    env: cleanEnv({ XDG_STATE_HOME: home, NODE_EXTRA_CA_CERTS: caFile, SVC_EGRESS_ALLOW: '127.0.0.0/8' }),
    db: path.join(home, 'svc', 'svc.db'),
  };
}

function rows(db: string): number {
  const handle = new Database(db, { readonly: true });
  try {
    return (handle.prepare('SELECT count(*) AS n FROM observations').get() as { n: number }).n;
  } finally {
    handle.close();
  }
}

describe('svc resolve records observations', () => {
  it('records under $XDG_STATE_HOME/svc/svc.db, coalescing an unchanged document', async () => {
    const { env, db } = state('xdg');
    expect((await svc(['resolve', ED25519, '--json'], env)).exitCode).toBe(0);
    expect(statSync(db).mode & 0o777).toBe(0o600);
    expect((await svc(['resolve', ED25519, '--quiet'], env)).exitCode).toBe(0);
    const history = await svc(['history', ED25519, '--json'], env);
    expect(history.exitCode).toBe(0);
    const body = JSON.parse(history.stdout);
    expect(body).toMatchObject({ did: ED25519, count: 1 });
    expect(body.history[0]).toMatchObject({ did: ED25519, seenCount: 2, domainBindingStatus: null, resolverVersion: expect.any(String) });
    expect(body.history[0].documentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.note).toMatch(/not proofs of history/);
  });

  it('--db chooses the file; --no-store records nothing and creates no file', async () => {
    const { env } = state('flags');
    const db = path.join(dir, 'chosen.db');
    const first = await svcIn(['resolve', ED25519, '--db', db, '--quiet'], env);
    expect(first.stderr).toBe('');
    expect(first.exitCode).toBe(0);
    expect(rows(db)).toBe(1);
    const other = path.join(dir, 'never.db');
    expect((await svcIn(['resolve', ED25519, '--db', other, '--no-store', '--quiet'], env)).exitCode).toBe(0);
    expect(existsSync(other)).toBe(false);
  });

  it('a store that cannot be opened costs a warning, not the answer or its exit code', async () => {
    const { env } = state('broken');
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, 'not a directory');
    const r = await svcIn(['resolve', ED25519, '--json', '--db', path.join(blocker, 'svc.db')], env);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).did).toBe(ED25519);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toMatch(/^svc: warning: the resolution was not recorded in /);
  });

  it('a problem is not recorded', async () => {
    const { env, db } = state('problem');
    expect((await svcIn(['resolve', 'did:example:123', '--quiet'], env)).exitCode).toBe(4);
    expect(existsSync(db)).toBe(false);
  });
});

describe('svc history and svc diff', () => {
  it('history of a DID never seen: count 0, exit 0, and no database is created', async () => {
    const { env, db } = state('empty');
    const r = await svcIn(['history', ED25519, '--json'], env);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ did: ED25519, count: 0, history: [] });
    expect(existsSync(db)).toBe(false);
    const text = await svcIn(['history', ED25519], env);
    expect(text.stdout).toContain('No observations recorded yet');
  });

  it('diff of a did:web whose host changed its keys: keys added, removed and rotated exactly; exit 1', async () => {
    const { env } = state('diff');
    const did = host.did('diff');
    const [k1, k3] = [generateTestKey('EdDSA'), generateTestKey('EdDSA')];
    const before = didDocument(did, k1, [{ fragment: 'key-3', key: k3 }]);
    host.publish(did, before);
    expect((await svcIn(['resolve', did, '--quiet'], env)).exitCode).toBe(0);

    const nothing = await svcIn(['diff', did, '--json'], env);
    expect(nothing.exitCode).toBe(4);
    expect(JSON.parse(nothing.stdout)).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(JSON.parse(nothing.stdout).detail).toMatch(/1 observation/);

    const [k1b, k2] = [generateTestKey('EdDSA'), generateTestKey('EdDSA')];
    host.publish(did, didDocument(did, k1b, [{ fragment: 'key-2', key: k2 }]));
    expect((await svcIn(['resolve', did, '--quiet'], env)).exitCode).toBe(0);

    const r = await svcIn(['diff', did, '--json'], env);
    expect(r.exitCode).toBe(1);
    const diff = JSON.parse(r.stdout);
    expect(diff).toMatchObject({
      did,
      identical: false,
      keysAdded: [`${did}#key-2`],
      keysRemoved: [`${did}#key-3`],
      keysRotated: [`${did}#key-1`],
      domainBindingFrom: 'NOT_CONFIGURED',
      domainBindingTo: 'NOT_CONFIGURED',
      domainBindingChanged: false,
    });
    expect(diff.fromDocument).toEqual(before);

    const history = JSON.parse((await svcIn(['history', did, '--json'], env)).stdout);
    expect(history.count).toBe(2);
    const [newest, older] = history.history;
    expect(diff.toHash).toBe(newest.documentHash);
    expect(diff.fromHash).toBe(older.documentHash);

    const text = await svcIn(['diff', did, '--no-color'], env);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain('Keys rotated (same id, new material)');
    expect(text.stdout).toContain(`${did}#key-1`);

    const same = await svcIn(['diff', did, '--from', older.documentHash, '--to', older.documentHash, '--json'], env);
    expect(same.exitCode).toBe(0);
    expect(JSON.parse(same.stdout).identical).toBe(true);

    // An unusable option value: exit 2, the problem object still printed (test/integration/cli-bad-arguments.e2e.test.ts).
    const bad = await svcIn(['diff', did, '--from', 'xyz', '--json'], env);
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stdout).code).toBe('INVALID_OPTIONS');
  });
});

describe('svc backup', () => {
  it('copies with the same rows, mode 0600; an existing destination is refused (exit 2) and untouched', async () => {
    const { env, db } = state('backup');
    expect((await svc(['resolve', ED25519, '--quiet'], env)).exitCode).toBe(0);
    const dest = path.join(dir, 'backup.db');
    const r = await svc(['backup', dest, '--json'], env);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ source: db, destination: dest, bytes: expect.any(Number) });
    expect(statSync(dest).mode & 0o777).toBe(0o600);
    expect(rows(dest)).toBe(rows(db));

    const existing = path.join(dir, 'existing.db');
    writeFileSync(existing, 'precious');
    const refused = await svc(['backup', existing], env);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    const error = parseCliError(refused.stderr);
    expect(error).toMatchObject({ code: 'USAGE_ERROR', failedAt: [], stageDetails: [], hint: "see 'svc backup --help'" });
    expect(error.detail).toContain(existing);
    expect(error.detail).toMatch(/exists/);
    expect(readFileSync(existing, 'utf8')).toBe('precious');
  });

  it('without a database there is nothing to back up: exit 4, nothing created', async () => {
    const { env } = state('nodb');
    const dest = path.join(dir, 'nothing.db');
    const r = await svcIn(['backup', dest], env);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    const error = parseCliError(r.stderr);
    expect(error).toMatchObject({ code: 'NOT_FOUND', failedAt: [], stageDetails: [], hint: "see 'svc backup --help'" });
    expect(error.detail).toMatch(/^no database at .*nothing to back up$/);
    expect(existsSync(dest)).toBe(false);
  });

  it('a missing argument is a usage error', async () => {
    expect((await svcIn(['backup'], state('usage').env)).exitCode).toBe(2);
    expect((await svcIn(['history', ED25519, '--limit', '0'], state('usage').env)).exitCode).toBe(2);
  });
});
