/**
 * Runs every bench/*.bench.ts module and prints one table (or, with --json, the rows as JSON)
 * on stdout; progress goes to stderr. Extra arguments select modules by name substring:
 *
 *   tsx bench/run.ts                 all benchmarks, table
 *   tsx bench/run.ts --json          all benchmarks, JSON rows
 *   tsx bench/run.ts did-key         only bench/did-key.bench.ts
 *
 * A module that throws becomes an "error" row and the exit code is 1; goals that are not met
 * do not change the exit code (this is measurement, not a test).
 */
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { goalMet, ratioOf, renderTable, type BenchModule, type BenchRow } from './lib.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const filters = args.filter((a) => !a.startsWith('--'));

const dir = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort();

if (files.length === 0) {
  process.stderr.write(`bench: no bench/*.bench.ts module matches ${filters.join(', ')}\n`);
  process.exit(2);
}

const rows: BenchRow[] = [];
const started = performance.now();
for (const file of files) {
  const t0 = performance.now();
  process.stderr.write(`bench: ${file} …\n`);
  try {
    const mod = (await import(pathToFileURL(`${dir}${file}`).href)) as Partial<BenchModule>;
    if (typeof mod.run !== 'function') throw new Error('the module exports no run() function');
    rows.push(...(await mod.run()));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`bench: ${file} failed: ${err instanceof Error && err.stack ? err.stack : message}\n`);
    rows.push({ operation: file, unit: 'ops/s', svc: null, peer: '—', peerValue: null, goal: null, status: 'error', note: message });
    process.exitCode = 1;
  }
  process.stderr.write(`bench: ${file} done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}
process.stderr.write(`bench: total ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

if (json) {
  const out = rows.map((row) => ({
    ...row,
    ratio: ratioOf(row),
    better: row.unit === 'ops/s' ? 'higher' : 'lower',
    met: goalMet(row),
  }));
  process.stdout.write(`${JSON.stringify({ node: process.version, platform: `${process.platform}-${process.arch}`, rows: out }, null, 2)}\n`);
} else {
  process.stdout.write(`${renderTable(rows)}\n`);
}
