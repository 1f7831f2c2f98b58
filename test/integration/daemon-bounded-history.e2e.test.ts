/**
 * The daemon's bound on disk (docs/operations.md#bounded-history), `svc serve` started in this
 * process from its command line, on loopback: on the public profile fresh did:keys are not recorded
 * at all; on any profile the observation table stops at SVC_MAX_OBSERVATIONS rows, one-off rows
 * evicted first, refusals warned once and counted in /v1/status; bad settings are configuration
 * errors (exit 2).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, parseCliError, svc } from '../support/cli.js';
import { warmInProcessDaemon, type DaemonHandle } from '../support/daemon.js';
import { call, expectJson, startInProcessDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { generateTestKey } from '../support/signing.js';

const freshDidKey = () => `did:key:${generateTestKey('EdDSA').multikey}`;

let daemons: DaemonHandle[] = [];
let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  daemons = [];
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

let host: DidWebHost;
beforeAll(async () => {
  host = await startDidWebHost();
  await warmInProcessDaemon();
});
afterAll(async () => {
  await host?.close();
});

/** A daemon whose database lives outside its own directory, so that it can be measured after a clean stop. */
async function daemonWith(env: Record<string, string>, args: string[] = []): Promise<{ daemon: DaemonHandle; dbPath: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bounded-'));
  dirs.push(dir);
  const dbPath = path.join(dir, 'svc.db');
  const daemon = await startInProcessDaemonFor(host, { env, args, dbPath });
  daemons.push(daemon);
  return { daemon, dbPath };
}

/** Size of the database after a clean stop (SIGTERM: WAL checkpointed and removed). */
async function stoppedSize(daemon: DaemonHandle, dbPath: string): Promise<number> {
  expect(await daemon.stop('SIGTERM')).toBe(0);
  expect(() => statSync(`${dbPath}-wal`)).toThrow();
  return statSync(dbPath).size;
}

function rowsOf(dbPath: string): { observations: number; largestDocument: number; largestDid: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare<[], { observations: number; largestDocument: number; largestDid: number }>(
        'SELECT count(*) AS observations, coalesce(max(length(document)), 0) AS largestDocument, coalesce(max(length(did)), 0) AS largestDid FROM observations',
      )
      .get()!;
  } finally {
    db.close();
  }
}

/** An empty database of the current schema, as the daemon leaves it: the fixed part of the bound. */
async function emptySize(): Promise<number> {
  const { daemon, dbPath } = await daemonWith({});
  expectJson(await call(`${daemon.url}/ready`), 200);
  return stoppedSize(daemon, dbPath);
}

/** docs/operations.md#bounded-history: per row, the document, the DID three times (row and two indexes) and ~1 KiB. */
const rowBound = (largestDocument: number, largestDid: number) => largestDocument + 3 * largestDid + 1024;

/** Runs `requests` with at most `width` in flight. */
async function inBatches(requests: Array<() => Promise<void>>, width = 16): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < requests.length) await requests[next++]!();
    }),
  );
}

describe('public profile: self-certifying DIDs are not recorded', () => {
  it('1,000 fresh did:keys from 50 clients leave no observation and the database at its empty size; a did:web is still recorded', async () => {
    const empty = await emptySize();
    // The public budgets (20/min standard per client) are not configurable: 50 clients behind a
    // trusted proxy send 20 each.
    const { daemon, dbPath } = await daemonWith({ SVC_TRUST_PROXY: '127.0.0.1' }, ['--public']);
    const dids = Array.from({ length: 1_000 }, freshDidKey);
    await inBatches(
      dids.map((did, i) => async () => {
        const answer = await call(`${daemon.url}/v1/resolve/${did}`, { headers: { 'x-forwarded-for': `203.0.113.${Math.floor(i / 20) + 1}` } });
        expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      }),
    );
    const viaProxy = (client: string) => ({ headers: { 'x-forwarded-for': client } });
    expect(expectJson(await call(`${daemon.url}/v1/history/${dids[0]}`, viaProxy('198.51.100.1')), 200)).toMatchObject({ count: 0, history: [] });

    const web = host.did('bounded', 'public');
    host.publish(web);
    expectJson(await call(`${daemon.url}/v1/resolve/${web}`, viaProxy('198.51.100.1')), 200);
    expect(expectJson(await call(`${daemon.url}/v1/history/${web}`, viaProxy('198.51.100.1')), 200)).toMatchObject({ count: 1 });

    const status = expectJson(await call(`${daemon.url}/v1/status`, viaProxy('198.51.100.2')), 200);
    expect(status.components.storage.observations).toEqual({ stored: 1, ceiling: 100_000, evicted: 0, refused: 0 });
    expect(status.components.storage.mcpObservations).toEqual({ stored: 0, ceiling: 1_000, evicted: 0, refused: 0 });

    const size = await stoppedSize(daemon, dbPath);
    const rows = rowsOf(dbPath);
    expect(rows.observations).toBe(1);
    expect(size).toBeLessThanOrEqual(empty + rowBound(rows.largestDocument, rows.largestDid) + 4096);
    console.info(`public profile, 1,000 fresh did:keys: ${size} bytes (empty database: ${empty} bytes), ${rows.observations} observation row (the did:web)`);
  }, 120_000);
});

describe('SVC_MAX_OBSERVATIONS: a ceiling on rows', () => {
  it('direct profile, ceiling 100: 1,000 fresh did:keys leave the newest 100 and the file under ceiling × (document + per-row)', async () => {
    const empty = await emptySize();
    const { daemon, dbPath } = await daemonWith({ SVC_MAX_OBSERVATIONS: '100' });
    const dids = Array.from({ length: 1_000 }, freshDidKey);
    // In order, so that "oldest" is well defined.
    for (const did of dids) expectJson(await call(`${daemon.url}/v1/resolve/${did}`), 200);

    expect(expectJson(await call(`${daemon.url}/v1/history/${dids[0]}`), 200)).toMatchObject({ count: 0 });
    expect(expectJson(await call(`${daemon.url}/v1/history/${dids.at(-1)}`), 200)).toMatchObject({ count: 1 });
    expect(expectJson(await call(`${daemon.url}/v1/history/${dids[900]}`), 200)).toMatchObject({ count: 1 });
    expect(expectJson(await call(`${daemon.url}/v1/history/${dids[899]}`), 200)).toMatchObject({ count: 0 });
    const status = expectJson(await call(`${daemon.url}/v1/status`), 200);
    expect(status.components.storage).toMatchObject({ status: 'ok', observations: { stored: 100, ceiling: 100, evicted: 900, refused: 0 } });

    const size = await stoppedSize(daemon, dbPath);
    const rows = rowsOf(dbPath);
    expect(rows.observations).toBe(100);
    const bound = empty + 100 * rowBound(rows.largestDocument, rows.largestDid);
    expect(size).toBeLessThanOrEqual(bound);
    console.info(
      `direct profile, SVC_MAX_OBSERVATIONS=100, 1,000 fresh did:keys: ${size} bytes, ${rows.observations} rows ` +
        `(largest document ${rows.largestDocument} bytes; bound ${bound} bytes; empty database ${empty} bytes)`,
    );
  }, 120_000);

  it('SVC_RECORD_THREAD=on: 200 fresh did:keys, 20 at a time, each answered only once recorded by the writer thread, all in the file after a stop', async () => {
    const { daemon, dbPath } = await daemonWith({ SVC_RECORD_THREAD: 'on' });
    const dids = Array.from({ length: 200 }, freshDidKey);
    // 20 at a time: within one client's share of the daemon's slots, so that turns group several records.
    for (let i = 0; i < dids.length; i += 20) {
      await Promise.all(dids.slice(i, i + 20).map(async (did) => expectJson(await call(`${daemon.url}/v1/resolve/${did}`), 200)));
    }
    for (const did of [dids[0], dids[99], dids.at(-1)]) expect(expectJson(await call(`${daemon.url}/v1/history/${did}`), 200)).toMatchObject({ count: 1 });
    await stoppedSize(daemon, dbPath);
    expect(rowsOf(dbPath).observations).toBe(200);
  }, 120_000);

  it('with nothing to evict a new snapshot is refused, warned once on stderr and counted; history already kept is untouched', async () => {
    const { daemon } = await daemonWith({ SVC_MAX_OBSERVATIONS: '2' });
    const web = host.did('bounded', 'changing');
    host.publish(web, { '@context': ['https://www.w3.org/ns/did/v1'], id: web, alsoKnownAs: ['https://one.example/'] });
    expectJson(await call(`${daemon.url}/v1/resolve/${web}?noCache=true`), 200);
    host.publish(web, { '@context': ['https://www.w3.org/ns/did/v1'], id: web, alsoKnownAs: ['https://two.example/'] });
    expectJson(await call(`${daemon.url}/v1/resolve/${web}?noCache=true`), 200);

    // Two rows of one DID: history, never evicted. New DIDs are answered, not recorded.
    for (let i = 0; i < 3; i++) {
      const did = freshDidKey();
      expectJson(await call(`${daemon.url}/v1/resolve/${did}`), 200);
      expect(expectJson(await call(`${daemon.url}/v1/history/${did}`), 200)).toMatchObject({ count: 0 });
    }
    // An unchanged snapshot is still counted.
    expectJson(await call(`${daemon.url}/v1/resolve/${web}?noCache=true`), 200);
    const history = expectJson(await call(`${daemon.url}/v1/history/${web}`), 200);
    expect(history.count).toBe(2);
    expect(history.history[0].seenCount).toBe(2);

    const status = expectJson(await call(`${daemon.url}/v1/status`), 200);
    expect(status.components.storage.observations).toEqual({ stored: 2, ceiling: 2, evicted: 0, refused: 3 });
    const warnings = daemon
      .stderr()
      .split('\n')
      .filter((line) => line.includes('at its ceiling'));
    expect(warnings).toEqual([
      'svc: warning: the observation history is at its ceiling (SVC_MAX_OBSERVATIONS=2) with no one-off row to evict; new snapshots are not stored, unchanged ones are still counted (/v1/status counts the refusals)',
    ]);
  }, 60_000);
});

describe('configuration errors: exit 2, one usage error on stderr', () => {
  it.each([
    ['SVC_MAX_OBSERVATIONS', 'abc'],
    ['SVC_MAX_OBSERVATIONS', '-1'],
    ['SVC_MAX_OBSERVATIONS', '1.5'],
    ['SVC_MAX_OBSERVATIONS', '100000001'],
    ['SVC_MAX_MCP_OBSERVATIONS', '1e3'],
    ['SVC_MAX_MCP_OBSERVATIONS', '10000001'],
  ])('%s=%s', async (name, value) => {
    const run = await svc(['serve', '--port', '0', '--memory'], cleanEnv({ [name]: value }));
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    const error = parseCliError(run.stderr);
    expect(error).toMatchObject({ code: 'USAGE_ERROR', failedAt: [], stageDetails: [], hint: "see 'svc help environment'" });
    expect(error.detail).toContain(`${name} must be a whole number between 0 and`);
  });
});
