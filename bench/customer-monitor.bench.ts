/**
 * Customer monitoring, SQLite next to PostgreSQL in one run, through the store the
 * routes use: POST …/event-page's read (the ownership check and one page of 100 from a snapshot)
 * on a watch with 10,000 events in its window — p50 and p95 over pages drawn at random depths of
 * the snapshot — and a report's generation at 1,000 events (the store's one-snapshot read and the
 * JSON the route serialises and measures). The two engines are measured interleaved, round by
 * round, so that machine noise hits both. PostgreSQL: a database of the benchmark's own on the
 * server of SVC_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), dropped after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { rowOf } from '../src/core/monitoring/customer.js';
import { CUSTOMER_MONITOR_LIMITS as L } from '../src/core/store.js';
import { openDatabase, type Database } from '../src/store/database.js';
import { createDatabase } from '../test/support/pg-admin.js';
import { median, nowNs, percentile, type BenchRow } from './lib.js';

const EVENTS = 10_000;
const REPORT_ROWS = 1_000;
const PAGES = 400;
const REPORTS = 30;
const OWNER = 'did:web:owner.bench.example';
const serverUrl = process.env['SVC_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Engine {
  name: string;
  db: Database;
  project: string;
  /** The watch with EVENTS events, and the one with REPORT_ROWS. */
  big: number;
  small: number;
  /** The event row ids of the big watch, ascending. */
  ids: number[];
  close(): Promise<void>;
}

/** Inserts `count` events for the watch in statements of 500 rows; returns their ids ascending. */
async function seedEvents(run: (statement: string) => Promise<Array<{ id: number }>>, watchId: number, did: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  const data = JSON.stringify({
    fromHash: 'a'.repeat(64),
    toHash: 'b'.repeat(64),
    domainBinding: null,
    diff: { summary: 'One key was replaced.', changedMembers: ['verificationMethod'] },
    headline: 'Resolved.',
    problem: null,
  });
  for (let done = 0; done < count; done += 500) {
    const values: string[] = [];
    for (let i = done; i < Math.min(count, done + 500); i++) {
      // Spread over the last 29 days, in insertion order.
      const at = new Date(Date.now() - 29 * 86_400_000 + Math.floor((i * 29 * 86_400_000) / count)).toISOString().replace(/\.\d{3}Z$/, 'Z');
      values.push(`(${watchId}, '${did}', 'identity.document.changed', '${data}', '${at}', 'PENDING')`);
    }
    const rows = await run(
      `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status) VALUES ${values.join(', ')} RETURNING id`,
    );
    ids.push(...rows.map((r) => Number(r.id)));
  }
  return ids.sort((a, b) => a - b);
}

async function prepare(name: string, target: string, run: (statement: string) => Promise<Array<{ id: number }>>, close: () => Promise<void>): Promise<Engine> {
  const db = await openDatabase({ target });
  const tenant = await db.accounts.createTenant({ name: 'bench', owner: OWNER });
  const project = (await db.accounts.createProject(tenant.id, { name: 'bench' })).id;
  const watch = async (did: string) => {
    const added = await db.customerMonitor.addWatch(OWNER, project, did, L.watchesPerProject);
    if (added === 'full') throw new Error('no room for a watch');
    return rowOf('wch', added.watch.id)!;
  };
  const big = await watch('did:web:big.bench.example');
  const small = await watch('did:web:small.bench.example');
  const ids = await seedEvents(run, big, 'did:web:big.bench.example', EVENTS);
  await seedEvents(run, small, 'did:web:small.bench.example', REPORT_ROWS);
  return {
    name,
    db,
    project,
    big,
    small,
    ids,
    close: async () => {
      await db.close();
      await close();
    },
  };
}

/** One page of 100 before a random event of the snapshot (the first page when `depth` is 0); ms. */
async function timePage(e: Engine, snapshot: number, depth: number): Promise<number> {
  const before = depth === 0 ? undefined : e.ids[e.ids.length - depth];
  const t0 = nowNs();
  const page = await e.db.customerMonitor.eventPage(OWNER, e.project, e.big, {
    limit: L.pageMax,
    snapshotEventId: snapshot,
    ...(before !== undefined ? { beforeEventId: before } : {}),
  });
  const ms = (nowNs() - t0) / 1e6;
  if (page.events.length !== Math.min(L.pageMax, e.ids.length - depth)) throw new Error(`${e.name}: a page of ${page.events.length} events at depth ${depth}`);
  return ms;
}

/** One report of REPORT_ROWS events, serialised as the route does; ms. */
async function timeReport(e: Engine): Promise<number> {
  const t0 = nowNs();
  const report = await e.db.customerMonitor.report(OWNER, e.project, e.small, L.reportRows);
  if (report === 'too-many') throw new Error(`${e.name}: the report was refused`);
  const bytes = Buffer.byteLength(JSON.stringify(report), 'utf8');
  const ms = (nowNs() - t0) / 1e6;
  if (report.events.length !== REPORT_ROWS || bytes > L.reportBytes) throw new Error(`${e.name}: a report of ${report.events.length} events, ${bytes} bytes`);
  return ms;
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-customer-'));
  const file = path.join(dir, 'svc.db');
  const engines: Engine[] = [];
  try {
    // SQLite: the statements through a second connection on the same file.
    const { default: Sqlite } = await import('better-sqlite3');
    const seedDb = new Sqlite(file);
    const sqlite = await prepare(
      'SQLite',
      file,
      async (s) => seedDb.prepare(s).all() as Array<{ id: number }>,
      async () => void seedDb.close(),
    );
    engines.push(sqlite);
    let postgres: Engine | null = null;
    try {
      const database = await createDatabase(serverUrl, 'svc_bench_customer');
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      postgres = await prepare(
        'PostgreSQL',
        database.url,
        async (s) => (await client.query<{ id: number }>(s)).rows,
        async () => {
          await client.end();
          await database.drop();
        },
      );
      engines.push(postgres);
    } catch (err) {
      process.stderr.write(`bench: customer-monitor: PostgreSQL unavailable (${err instanceof Error ? err.message : String(err)}); SQLite only\n`);
    }

    const pages = new Map<string, number[]>(engines.map((e) => [e.name, []]));
    const reports = new Map<string, number[]>(engines.map((e) => [e.name, []]));
    const snapshots = new Map<string, number>();
    for (const e of engines) {
      const first = await e.db.customerMonitor.eventPage(OWNER, e.project, e.big, { limit: L.pageMax });
      if (first.snapshotEventId === null) throw new Error(`${e.name}: no snapshot`);
      snapshots.set(e.name, first.snapshotEventId);
      for (let i = 0; i < 20; i++) await timePage(e, first.snapshotEventId, i * 100); // warm-up
    }
    for (let i = 0; i < PAGES; i++) {
      const depth = Math.floor(Math.random() * (EVENTS - L.pageMax));
      for (const e of engines) pages.get(e.name)!.push(await timePage(e, snapshots.get(e.name)!, depth));
    }
    for (let i = 0; i < REPORTS + 3; i++) {
      for (const e of engines) {
        const ms = await timeReport(e);
        if (i >= 3) reports.get(e.name)!.push(ms);
      }
    }

    const s = pages.get('SQLite')!;
    const p = pages.get('PostgreSQL') ?? [];
    const figure = (values: number[], f: (v: number[]) => number) => (values.length === 0 ? null : f(values));
    const note = `a watch with ${EVENTS} events in its window, pages of ${L.pageMax} at random depths of one snapshot (${PAGES} each, interleaved); the store call the route makes, ownership check included`;
    return [
      {
        operation: 'customer monitor: event-page of 100 (10,000 events), p50, SQLite (peer: PostgreSQL)',
        unit: 'ms',
        svc: median(s),
        peer: 'PostgreSQL, same pages',
        peerValue: figure(p, median),
        goal: null,
        status: 'ok',
        note,
      },
      {
        operation: 'customer monitor: event-page of 100 (10,000 events), p95, SQLite (peer: PostgreSQL)',
        unit: 'ms',
        svc: percentile(s, 0.95),
        peer: 'PostgreSQL, same pages',
        peerValue: figure(p, (v) => percentile(v, 0.95)),
        goal: null,
        status: 'ok',
        note,
      },
      {
        operation: 'customer monitor: report of 1,000 events (one snapshot + JSON), SQLite (peer: PostgreSQL)',
        unit: 'ms',
        svc: median(reports.get('SQLite')!),
        peer: 'PostgreSQL',
        peerValue: figure(reports.get('PostgreSQL') ?? [], median),
        goal: null,
        status: 'ok',
        note: `median of ${REPORTS}; the report's read and its serialisation, measured against the 8 MiB limit`,
      },
    ];
  } finally {
    for (const e of engines) await e.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
