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
/** The directories the rare term is searched in, side by side (the ratio's baseline is 100). */
const SIZES = [100, 10_000, ENTRIES];

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

/** One request's ms; throws unless it answered 200 with entries. */
async function once(url: string, c: Case): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/directory?${c.query}`);
  const body = (await res.json()) as { entries?: unknown[] };
  const ms = performance.now() - t0;
  if (res.status !== 200 || !Array.isArray(body.entries) || body.entries.length === 0)
    throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return ms;
}

/** p50 and p95 (ms) of REQUESTS sequential requests per case, after 20 warm-up requests. */
async function latencies(url: string): Promise<Map<string, { p50: number; p95: number }>> {
  const out = new Map<string, { p50: number; p95: number }>();
  for (const c of CASES) {
    for (let i = 0; i < 20; i++) await once(url, c);
    const samples: number[] = [];
    for (let i = 0; i < REQUESTS; i++) samples.push(await once(url, c));
    out.set(c.name, { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) });
  }
  return out;
}

/**
 * p50 (ms) of the rare term on each daemon (`urls[k]` serves `SIZES[k]` listings), in
 * interleaved rounds: a load that comes and goes weighs on every size alike.
 */
async function rareLatencies(urls: string[]): Promise<number[]> {
  const cases = SIZES.map((n) => ({ name: RARE, query: rareQuery(n) }));
  const samples: number[][] = SIZES.map(() => []);
  for (let round = 0; round < 22; round++) {
    for (const [k, url] of urls.entries()) {
      for (let i = 0; i < 10; i++) {
        const ms = await once(url, cases[k]!);
        if (round >= 2) samples[k]!.push(ms);
      }
    }
  }
  return samples.map((s) => percentile(s, 0.5));
}

async function serving<T>(target: string, seed: () => Promise<void>, use: (url: string) => Promise<T>): Promise<T> {
  // Migrate first (the daemon would too), then seed, then serve.
  const db = await openDatabase({ target });
  await db.close();
  await seed();
  const daemon = await startDaemon(target);
  try {
    return await use(daemon.url);
  } finally {
    await stop(daemon.child);
  }
}

/** SQLite: a daemon on a file of `entries` listings, used by `use`. */
async function sqliteOf<T>(dir: string, entries: number, use: (url: string) => Promise<T>): Promise<T> {
  const file = path.join(dir, `svc-${entries}-${Math.random().toString(36).slice(2)}.db`);
  return serving(
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
    use,
  );
}

/** PostgreSQL: a daemon on a database of `entries` listings (the benchmark's own, dropped after), used by `use`. */
async function postgresOf<T>(entries: number, use: (url: string) => Promise<T>): Promise<T> {
  const database = await createDatabase(serverUrl, 'svc_bench');
  try {
    return await serving(
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
      use,
    );
  } finally {
    await database.drop();
  }
}

/** Daemons for every size of SIZES at once (opened by `open`), their URLs given to `use`. */
async function allSizes<T>(open: (n: number, use: (url: string) => Promise<T>) => Promise<T>, use: (urls: string[]) => Promise<T>): Promise<T> {
  const next = (k: number, urls: string[]): Promise<T> => (k === SIZES.length ? use(urls) : open(SIZES[k]!, (url) => next(k + 1, [...urls, url])));
  return next(0, []);
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-directory-'));
  try {
    const sqlite = await sqliteOf(dir, ENTRIES, latencies);
    let postgres: Map<string, { p50: number; p95: number }> | null = null;
    let note = '';
    try {
      postgres = await postgresOf(ENTRIES, latencies);
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
    // The rare term as the directory grows, on each engine, every size served at once and asked
    // in turn (goal: at most 2× at 100,000 what it is at 100 — the trigram index of schema 17).
    const engines: Array<[string, (n: number, use: (url: string) => Promise<number[]>) => Promise<number[]>]> = [
      ['SQLite', (n, use) => sqliteOf(dir, n, use)],
      ['PostgreSQL', (n, use) => postgresOf(n, use)],
    ];
    for (const [engine, open] of engines) {
      let p50s: number[] | null = null;
      let failed = '';
      try {
        p50s = await allSizes(open, rareLatencies);
      } catch (err) {
        failed = `${engine} not measured: ${err instanceof Error ? err.message : String(err)}`;
      }
      for (const [k, n] of SIZES.entries()) {
        if (k === 0) continue;
        const value = p50s?.[k] ?? null;
        const baseline = p50s?.[0] ?? null;
        rows.push({
          operation: `directory rare-term search, ${n.toLocaleString('en')} listings (${engine}), p50`,
          unit: 'ms',
          svc: value,
          peer: `the same with 100 listings (${engine})`,
          peerValue: baseline,
          goal: n === ENTRIES ? { op: '<=', ratio: 2 } : null,
          status: value === null || baseline === null ? 'error' : 'ok',
          note: failed || 'one svc serve process per size, all running; interleaved rounds of sequential requests over loopback HTTP; flat is 1.0',
        });
      }
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
