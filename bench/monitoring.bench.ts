/**
 * The monitoring poller (issue 21, the part built so far): the time of one pass over 500 due
 * watches of fresh did:keys, on a SQLite file and on PostgreSQL, in this process — the daemon's
 * own poller (MonitorPoller.pass) over the daemon's own storage slot: claim on the database
 * clock, resolve afresh (noCache, recorded in the history), compare, record the baseline and the
 * watch state in one transaction. The first pass establishes 500 baselines; the second (the
 * watches aged by SQL so that they are due again) compares against them — the steady state.
 * Deliveries are not built yet, so they are not measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createRuntime } from '../src/runtime/node.js';
import { Capacity } from '../src/server/capacity.js';
import type { ServerContext } from '../src/server/context.js';
import { DEFAULT_LIMITS } from '../src/server/limits.js';
import { MonitorPoller } from '../src/server/poller.js';
import { StorageSlot } from '../src/server/storage.js';
import { createDatabase } from '../test/support/pg-admin.js';
import { ed25519DidKeys, type BenchRow } from './lib.js';

const WATCHES = 500;
const serverUrl = process.env['SVC_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Passes {
  first: number;
  steady: number;
}

/** Two timed passes over WATCHES due watches on the database `target`; `age` makes them all due again. */
async function passes(target: string, age: () => Promise<void>): Promise<Passes> {
  const storage = new StorageSlot(target, false);
  await storage.open();
  if (!storage.store) throw new Error(`the database could not be opened: ${storage.error}`);
  const runtime = createRuntime({});
  Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
  const limits = { ...DEFAULT_LIMITS, maxConcurrency: 1_000, maxConcurrencyPerClient: 1_000 };
  const ctx: ServerContext = { runtime, storage, profile: 'direct', limits, capacity: new Capacity(1_000, 1_000), startedAt: new Date(), draining: false, active: 0 };
  try {
    const dids = await ed25519DidKeys(WATCHES);
    for (const did of dids) {
      const added = await storage.store.watches.add({ did, webhookUrl: 'https://hooks.example/svc', secret: 'whsec_bench', intervalSeconds: 60, createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') }, WATCHES);
      if (added === 'full') throw new Error('the watch limit was reached');
    }
    const poller = new MonitorPoller(ctx);
    const timed = async (): Promise<number> => {
      let checked = 0;
      const t0 = performance.now();
      // A pass claims at most 100 watches: as many passes as it takes, as the poller would run them.
      for (let n = -1; n !== 0; ) {
        n = await poller.pass();
        checked += n;
      }
      const ms = performance.now() - t0;
      if (checked !== WATCHES) throw new Error(`${checked} of ${WATCHES} watches were checked`);
      return ms;
    };
    const first = await timed();
    await age();
    const steady = await timed();
    return { first, steady };
  } finally {
    await storage.close();
  }
}

const AGE = "UPDATE watches SET last_checked_at = '2000-01-01T00:00:00Z'";

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-monitor-'));
  const file = path.join(dir, 'svc.db');
  try {
    const sqlite = await passes(file, async () => {
      const db = new Database(file);
      db.exec(AGE);
      db.close();
    });
    let postgres: Passes | null = null;
    let note = '';
    try {
      const database = await createDatabase(serverUrl, 'svc_bench');
      try {
        postgres = await passes(database.url, async () => {
          const client = new pg.Client({ connectionString: database.url });
          await client.connect();
          await client.query(AGE);
          await client.end();
        });
      } finally {
        await database.drop();
      }
    } catch (err) {
      note = `PostgreSQL not measured: ${err instanceof Error ? err.message : String(err)}`;
    }
    const row = (label: string, key: keyof Passes): BenchRow => ({
      operation: `monitoring: one poller pass over ${WATCHES} due did:key watches, ${label}`,
      unit: 'ms',
      svc: postgres?.[key] ?? null,
      peer: 'the same pass on SQLite',
      peerValue: sqlite[key],
      goal: null,
      status: postgres ? 'ok' : 'error',
      note: note || `PostgreSQL vs SQLite; ${(WATCHES / (sqlite[key] / 1000)).toFixed(0)} checks/s on SQLite, ${postgres ? (WATCHES / (postgres[key] / 1000)).toFixed(0) : '—'} on PostgreSQL`,
    });
    return [row('first (baselines set)', 'first'), row('steady (nothing changed)', 'steady')];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
