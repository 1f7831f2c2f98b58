/**
 * Kept did:webvh logs: what the comparison with the kept log costs a resolution, and what a kept
 * entry costs the database.
 *
 * The log: 120 entries (createWebvhLog, one Ed25519 update key, one entry a day), ~100 KB of
 * did.jsonl, supplied in place of its URL (withSuppliedResources) so that no network is timed.
 * The same Runtime is measured with and without a store (a SQLite file in a temporary
 * directory): with one, the `webvh.compare_kept_log` stage reads the kept entries' hashes and
 * hashes the 120 served lines (nothing is appended after the first resolution). Sides interleave
 * after warm-up rounds, `noCache` so that every resolution verifies (the verified-prefix cache is
 * per Runtime: each side has its own, warmed alike). Every answer is checked (history
 * ESTABLISHED; with the store, keptLog UNCHANGED).
 *
 * Storage: the file's bytes (after a checkpoint) with the log of 100 DIDs kept, less the bytes of
 * the empty database, per kept entry; beside it, the lines' own bytes per entry.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { resolve } from '../src/core/resolve/resolve.js';
import type { Runtime } from '../src/core/runtime.js';
import { withSuppliedResources } from '../src/core/supplied/resources.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { testRuntime } from '../test/support/runtime.js';
import { generateTestKey } from '../test/support/signing.js';
import { createWebvhLog, type WebvhTestLog } from '../test/support/webvh-log.js';
import { median, percentile, type BenchRow } from './lib.js';

const ENTRIES = 120;
const WARMUP_ROUNDS = 5;
const ROUNDS = 40;
const STORED_LOGS = 100;

function logOf(entries: number, seed: string): WebvhTestLog {
  const log = createWebvhLog({ key: generateTestKey('EdDSA'), domain: `${seed}.example.com` });
  for (let i = 2; i <= entries; i++) log.append({ state: (d) => ({ ...d, alsoKnownAs: [`https://${seed}.example.com/v${i}`] }) });
  return log;
}

function suppliedRuntime(log: WebvhTestLog): Runtime {
  const runtime = withSuppliedResources(testRuntime(), [
    {
      url: `https://${log.domain}/.well-known/did.jsonl`,
      body: new TextEncoder().encode(log.text()),
      mediaType: 'text/jsonl',
      source: 'did.jsonl',
      purpose: 'DID log',
    },
  ]);
  return { ...runtime, config: { ...runtime.config } };
}

async function timed(runtime: Runtime, did: string, expectKept: boolean): Promise<number> {
  const start = performance.now();
  const result = await resolve(did, runtime, { noCache: true });
  const ms = performance.now() - start;
  const history = result.dimensions.find((d) => d.id === 'history')!;
  if (history.state !== 'ESTABLISHED') throw new Error(`history is ${history.state}: ${history.statement}`);
  const status = result.evidence.history?.keptLog?.status;
  if (expectKept ? status !== 'UNCHANGED' : status !== undefined) throw new Error(`keptLog is ${status ?? 'absent'}`);
  return ms;
}

const f1 = (n: number) => n.toFixed(1);

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-kept-'));
  try {
    const store = openSqliteStore({ path: path.join(dir, 'svc.db') });
    const log = logOf(ENTRIES, 'bench');
    const without = suppliedRuntime(log);
    // The supplied Runtime has no store (a file's result is never recorded): this side adds one.
    const withStore: Runtime = { ...suppliedRuntime(log), store };
    await resolve(log.did, withStore, { noCache: true }); // keeps the log
    const sides = { with: [] as number[], without: [] as number[] };
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      const order = round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
      for (const side of order) {
        const ms = await timed(side === 'with' ? withStore : without, log.did, side === 'with');
        if (round >= WARMUP_ROUNDS) sides[side].push(ms);
      }
    }

    // Storage per kept entry.
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = path.join(dir, 'svc.db');
    const before = statSync(file).size;
    let lineBytes = 0;
    for (let i = 0; i < STORED_LOGS; i++) {
      const other = logOf(ENTRIES, `d${i}`);
      lineBytes += Buffer.byteLength(other.text(), 'utf8') - ENTRIES;
      const r = await resolve(other.did, { ...suppliedRuntime(other), store }, { noCache: true });
      if (r.evidence.history?.keptLog?.appendedEntries !== ENTRIES) throw new Error('the log was not kept');
    }
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const after = statSync(file).size;
    store.close();
    const perEntry = (after - before) / (STORED_LOGS * ENTRIES);
    const linePerEntry = lineBytes / (STORED_LOGS * ENTRIES);
    const rounds = `${ROUNDS} rounds after ${WARMUP_ROUNDS} warm-up, sides interleaved.`;
    return [
      {
        operation: `did:webvh resolve ${ENTRIES}-entry log with the kept-log comparison (SQLite) vs without a store, p50`,
        unit: 'ms',
        svc: median(sides.with),
        peer: 'svc without a store (no comparison)',
        peerValue: median(sides.without),
        goal: null,
        status: 'ok',
        note: `Informational. p95 ${f1(percentile(sides.with, 0.95))} ms with, ${f1(percentile(sides.without, 0.95))} ms without. ${rounds}`,
        samples: { svc: sides.with, peer: sides.without },
      },
      {
        operation: `kept did:webvh log: SQLite file bytes per kept entry (${STORED_LOGS} logs of ${ENTRIES} entries)`,
        unit: 'KB',
        svc: perEntry / 1024,
        peer: 'the entry line itself',
        peerValue: linePerEntry / 1024,
        goal: null,
        status: 'ok',
        note: `Informational. ${Math.round(perEntry)} bytes per entry in the file (line, its two SHA-256 hex digests, versionId, versionTime, the primary key index) for lines of ${Math.round(linePerEntry)} bytes.`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
