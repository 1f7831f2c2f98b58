/**
 * `svc diff <did> --to <old hash prefix> --json` against a SQLite file holding 10 and 10,000
 * observations of the DID (each a distinct ~2 KB document), wall-clock ms per spawned command;
 * `to` names the second-oldest observation, so a diff that walked the history to it would read
 * (nearly) every row. Goal: flat — 10,000 observations at most 1.2× the time of 10.
 * `svc history <did>` against 10, 1,000 and 10,000 observations: it prints 100 rows, with hash
 * prefixes long enough to be unique over the whole history. Goal: 10,000 at most 1.1× of 10.
 * The "peer" is svc itself on the 10-observation history; runs alternate. Needs dist/cli.js.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { DidDocument } from '../src/core/resolve/types.js';
import { sampleObservation, tempStore, type TempStore } from '../test/support/store.js';
import { median, plainEnv, type BenchRow } from './lib.js';

const RUNS = 15;
const WARMUP = 2;
const DID = 'did:web:history.bench.example';
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

function hashOf(i: number): string {
  return createHash('sha256').update(`bench document ${i}`).digest('hex');
}

/** A did:web document of about 2 KB: eight keys and two services, varied by `i`. */
function documentOf(i: number): DidDocument {
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: DID,
    verificationMethod: Array.from({ length: 8 }, (_, k) => ({
      id: `${DID}#key-${k}`,
      type: 'Multikey',
      controller: DID,
      publicKeyMultibase: `z6Mk${createHash('sha256').update(`${i}/${k}`).digest('base64url')}`,
    })),
    authentication: [`${DID}#key-0`],
    assertionMethod: [`${DID}#key-1`],
    service: [
      { id: `${DID}#files`, type: 'LinkedDomains', serviceEndpoint: `https://history.bench.example/files/${i}` },
      { id: `${DID}#hub`, type: 'DIDCommMessaging', serviceEndpoint: `https://history.bench.example/hub/${i}` },
    ],
  } as DidDocument;
}

/** A store file with `n` observations of DID, one a minute, oldest first. */
async function historyOf(n: number): Promise<TempStore> {
  const temp = tempStore();
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < n; i++) {
    await temp.store.observations.record(
      sampleObservation({
        did: DID,
        documentHash: hashOf(i),
        document: documentOf(i),
        observedAt: new Date(start + i * 60_000).toISOString().replace('.000', ''),
        summary: `observation ${i}`,
      }),
    );
  }
  return temp;
}

/** ms of one `svc diff --to`; throws unless it printed the diff (exit 1: the documents differ). */
function diffMs(file: string): number {
  const t = performance.now();
  const result = spawnSync(process.execPath, [bin, 'diff', DID, '--to', hashOf(1).slice(0, 12), '--db', file, '--json'], {
    env: plainEnv(),
    encoding: 'utf8',
    timeout: 30_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = performance.now() - t;
  if (result.status !== 1) throw new Error(`svc diff exited ${result.status ?? result.signal}: ${result.stderr.trim().split('\n')[0] ?? ''}`);
  const diff = JSON.parse(result.stdout) as { identical?: boolean };
  if (diff.identical !== false) throw new Error('svc diff did not report the two documents as different');
  return ms;
}

/**
 * ms of one `svc history` (text: the table with its hash prefixes, whose length is chosen over
 * the whole history); throws unless it printed the newest observation's prefix.
 */
function historyMs(file: string, newest: number): number {
  const t = performance.now();
  const result = spawnSync(process.execPath, [bin, 'history', DID, '--db', file], {
    env: { ...plainEnv(), NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 30_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = performance.now() - t;
  if (result.status !== 0) throw new Error(`svc history exited ${result.status ?? result.signal}: ${result.stderr.trim().split('\n')[0] ?? ''}`);
  if (!result.stdout.includes(hashOf(newest).slice(0, 12))) throw new Error('svc history did not print the newest observation');
  return ms;
}

export async function run(): Promise<BenchRow[]> {
  const base = { unit: 'ms' as const, peer: 'svc, 10 observations' };
  const diffOperation = 'svc diff --to <old hash prefix>, 10,000 observations (SQLite)';
  const sizes = [1_000, 10_000];
  const historyOperation = (n: number) => `svc history (100 rows, hash prefixes unique over the history), ${n.toLocaleString('en')} observations (SQLite)`;
  if (!existsSync(cli)) {
    const note = 'dist/cli.js is missing: run `npm run build` (npm run bench does).';
    return [diffOperation, ...sizes.map(historyOperation)].map((operation) => ({
      ...base,
      goal: null,
      operation,
      svc: null,
      peerValue: null,
      status: 'not built',
      note,
    }));
  }
  const small = await historyOf(10);
  const larger = await Promise.all(sizes.map((n) => historyOf(n)));
  const large = larger.at(-1)!;
  // Closed before timing: the CLI opens the files as any user would.
  for (const temp of [small, ...larger]) temp.store.close();
  try {
    const smallMs: number[] = [];
    const largeMs: number[] = [];
    const historySmall: number[] = [];
    const historyLarge: number[][] = sizes.map(() => []);
    // Interleaved rounds: a load that comes and goes weighs on every size alike.
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const a = diffMs(small.path);
      const b = diffMs(large.path);
      const h = historyMs(small.path, 9);
      const hs = sizes.map((n, k) => historyMs(larger[k]!.path, n - 1));
      if (i >= WARMUP) {
        smallMs.push(a);
        largeMs.push(b);
        historySmall.push(h);
        hs.forEach((ms, k) => historyLarge[k]!.push(ms));
      }
    }
    return [
      {
        ...base,
        goal: { op: '<=' as const, ratio: 1.2 },
        operation: diffOperation,
        svc: median(largeMs),
        peerValue: median(smallMs),
        status: 'ok',
        note: 'ratio = 10,000 ÷ 10 observations (spawned CLI, cold start included); flat is 1.0',
        samples: { svc: largeMs, peer: smallMs },
      },
      ...sizes.map((n, k) => ({
        ...base,
        goal: n === 10_000 ? { op: '<=' as const, ratio: 1.1 } : null,
        operation: historyOperation(n),
        svc: median(historyLarge[k]!),
        peerValue: median(historySmall),
        status: 'ok' as const,
        note: `ratio = ${n.toLocaleString('en')} ÷ 10 observations (spawned CLI, cold start included); flat is 1.0`,
        samples: { svc: historyLarge[k]!, peer: historySmall },
      })),
    ];
  } finally {
    for (const temp of [small, ...larger]) rmSync(temp.dir, { recursive: true, force: true });
  }
}
