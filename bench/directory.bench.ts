/**
 * The opt-in directory: page latency of GET /v1/directory with 100,000 listings, on a
 * SQLite file and on PostgreSQL, side by side — a real `svc serve` process on loopback, one
 * request at a time (latency, not throughput), p50 and p95 of each case:
 *
 * - q empty, the first page (limit 20);
 * - q empty, a page deep in the order (a cursor past 90,000 listings);
 * - q matching every listing ("example"), the first page;
 * - q matching one listing near the end ("host-99990."): the worst case, the whole order scanned
 *   without an index; also with 100 and 10,000 listings on each engine (goal: at 100,000 at most
 *   2× the time at 100 — the trigram index of schema version 17).
 *
 * Listings and their claims are inserted with SQL in bulk (the API would take an hour of
 * signatures); every listing is bound to a current signature claim, as the routes make them.
 * The PostgreSQL database is the benchmark's own on SVC_BENCH_DATABASE_URL's server, dropped after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openDatabase } from '../src/store/database.js';
import { encodeCursor } from '../src/server/routes/claims.js';
import { createDatabase } from '../test/support/pg-admin.js';
import { percentile, plainEnv, serverStarted, type BenchRow } from './lib.js';

const ENTRIES = 100_000;
const REQUESTS = 200;
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const serverUrl = process.env['SVC_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Case {
  name: string;
  query: string;
}

const RARE = 'q matching one listing near the end';
const CASES: Case[] = [
  { name: 'q empty, first page', query: 'limit=20' },
  { name: `q empty, a page past 90,000 listings`, query: `limit=20&cursor=${encodeCursor({ after: 90_000, q: null, method: null })}` },
  { name: 'q matching every listing ("example")', query: 'q=example&limit=20' },
  { name: RARE, query: rareQuery(ENTRIES) },
];
/** The smaller directories the rare term is also searched in (the ratio's baseline is 100). */
const SMALLER = [100, 10_000];

/** A term one listing of `entries` holds, near the end of the order: the scan's worst case. */
function rareQuery(entries: number): string {
  return `q=${encodeURIComponent(`host-${entries - 10}.`)}&limit=20`;
}

/**
 * Bulk rows: ENTRIES signature claims (current for a year) and one listing bound to each, seq
 * 1..ENTRIES in insertion order. `series` yields i = 1..ENTRIES in the engine's dialect.
 */
function seedSql(series: string, nowMs: string): string[] {
  const did = `'did:web:host-' || i || '.example'`;
  return [
    `INSERT INTO claims (did, method, subject, token, verified_at_ms, checked_at_ms, expires_at_ms)
       SELECT ${did}, 'signature', ${did} || '#key-1', 'token-' || i, ${nowMs}, ${nowMs}, ${nowMs} + 31536000000 FROM (${series}) AS s`,
    `INSERT INTO directory_entries (did, did_method, search, claim_id, listed_at_ms)
       SELECT c.did, 'web', lower(c.did), c.id, c.verified_at_ms FROM claims c ORDER BY c.id`,
  ];
}

async function startDaemon(db: string): Promise<{ url: string; child: ChildProcess }> {
  const env = { ...plainEnv(), SVC_RATE_LIMIT_PER_MIN: '1000000', SVC_ACCESS_LOG: 'off', SVC_CLAIM_PERIOD: '3600' };
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  return { url: await serverStarted(child), child };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** p50 and p95 (ms) of REQUESTS sequential requests per case, after 20 warm-up requests. */
async function latencies(url: string, cases: Case[] = CASES): Promise<Map<string, { p50: number; p95: number }>> {
  const out = new Map<string, { p50: number; p95: number }>();
  for (const c of cases) {
    const target = `${url}/v1/directory?${c.query}`;
    const once = async (): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(target);
      const body = (await res.json()) as { entries?: unknown[] };
      const ms = performance.now() - t0;
      if (res.status !== 200 || !Array.isArray(body.entries) || body.entries.length === 0)
        throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      return ms;
    };
    for (let i = 0; i < 20; i++) await once();
    const samples: number[] = [];
    for (let i = 0; i < REQUESTS; i++) samples.push(await once());
    out.set(c.name, { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) });
  }
  return out;
}

async function measure(target: string, seed: () => Promise<void>, cases: Case[] = CASES): Promise<Map<string, { p50: number; p95: number }>> {
  // Migrate first (the daemon would too), then seed, then serve.
  const db = await openDatabase({ target });
  await db.close();
  await seed();
  const daemon = await startDaemon(target);
  try {
    return await latencies(daemon.url, cases);
  } finally {
    await stop(daemon.child);
  }
}

/** SQLite: a file of `entries` listings, measured on `cases`. */
async function sqliteOf(dir: string, entries: number, cases: Case[] = CASES): Promise<Map<string, { p50: number; p95: number }>> {
  const file = path.join(dir, `svc-${entries}.db`);
  return measure(
    file,
    async () => {
      const db = new Database(file);
      const nowMs = String(Date.now());
      db.transaction(() => {
        for (const sql of seedSql(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${entries}) SELECT i FROM n`, nowMs)) db.exec(sql);
      })();
      db.exec('ANALYZE');
      db.close();
    },
    cases,
  );
}

/** PostgreSQL: a database of `entries` listings (the benchmark's own, dropped after), measured on `cases`. */
async function postgresOf(entries: number, cases: Case[] = CASES): Promise<Map<string, { p50: number; p95: number }>> {
  const database = await createDatabase(serverUrl, 'svc_bench');
  try {
    return await measure(
      database.url,
      async () => {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          for (const sql of seedSql(`SELECT generate_series(1, ${entries}) AS i`, `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`))
            await client.query(sql);
          await client.query('ANALYZE');
        } finally {
          await client.end();
        }
      },
      cases,
    );
  } finally {
    await database.drop();
  }
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-directory-'));
  try {
    const sqlite = await sqliteOf(dir, ENTRIES);
    let postgres: Map<string, { p50: number; p95: number }> | null = null;
    let note = '';
    try {
      postgres = await postgresOf(ENTRIES);
    } catch (err) {
      note = `PostgreSQL not measured: ${err instanceof Error ? err.message : String(err)}`;
    }
    const rows: BenchRow[] = [];
    for (const c of CASES) {
      for (const p of ['p50', 'p95'] as const) {
        const lite = sqlite.get(c.name)![p];
        const post = postgres?.get(c.name)?.[p] ?? null;
        rows.push({
          operation: `directory page, ${ENTRIES.toLocaleString('en')} listings, ${c.name}, ${p}`,
          unit: 'ms',
          svc: post,
          peer: 'the same on SQLite',
          peerValue: lite,
          goal: null,
          status: post === null ? 'error' : 'ok',
          note: note || 'PostgreSQL vs SQLite; one svc serve process, sequential requests over loopback HTTP',
        });
      }
    }
    // The rare term as the directory grows, on each engine: the ratio to 100 listings (goal: at
    // most 2× at 100,000, the trigram index of schema version 17).
    const engines: Array<
      [string, (n: number, cases: Case[]) => Promise<Map<string, { p50: number; p95: number }>>, Map<string, { p50: number; p95: number }> | null]
    > = [
      ['SQLite', (n, cases) => sqliteOf(dir, n, cases), sqlite],
      ['PostgreSQL', (n, cases) => postgresOf(n, cases), postgres],
    ];
    for (const [engine, at, largest] of engines) {
      const bySize = new Map<number, number | null>();
      let failed = '';
      for (const n of SMALLER) {
        try {
          bySize.set(n, (await at(n, [{ name: RARE, query: rareQuery(n) }])).get(RARE)!.p50);
        } catch (err) {
          bySize.set(n, null);
          failed = `${engine} not measured: ${err instanceof Error ? err.message : String(err)}`;
        }
      }
      bySize.set(ENTRIES, largest?.get(RARE)?.p50 ?? null);
      const baseline = bySize.get(100) ?? null;
      for (const n of [...SMALLER.slice(1), ENTRIES]) {
        const value = bySize.get(n) ?? null;
        rows.push({
          operation: `directory rare-term search, ${n.toLocaleString('en')} listings (${engine}), p50`,
          unit: 'ms',
          svc: value,
          peer: `the same with 100 listings (${engine})`,
          peerValue: baseline,
          goal: n === ENTRIES ? { op: '<=', ratio: 2 } : null,
          status: value === null || baseline === null ? 'error' : 'ok',
          note: failed || note || 'one svc serve process, sequential requests over loopback HTTP; flat is 1.0',
        });
      }
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
