/**
 * A real Prometheus (Debian's `prometheus` package, which also provides `promtool`) for the
 * metrics e2e test: started on a free loopback port with a configuration of the test's own,
 * its data in a temporary directory, always stopped. Without the binary the suite is skipped,
 * visibly; in CI (CI=true) it fails instead, since .ci/run installs the package — as the
 * browser tests do with Chromium (test/support/browser.ts).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import { freePort } from './gateway.js';

export const PROMETHEUS = process.env.SVC_PROMETHEUS ?? '/usr/bin/prometheus';
export const PROMTOOL = process.env.SVC_PROMTOOL ?? '/usr/bin/promtool';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const prometheusAvailable: boolean = executable(PROMETHEUS) && executable(PROMTOOL);
const skipReason = `Prometheus not found at ${PROMETHEUS} (apt-get install -y prometheus); the Prometheus e2e test is skipped`;
const inCi = process.env.CI === 'true';
if (!prometheusAvailable && !inCi) console.warn(`\n⚠ ${skipReason}\n`);

/** `describe` for tests that need Prometheus: run, skipped with a warning, or (CI=true) one failing test saying why. */
export function describePrometheus(name: string, body: () => void): void {
  if (prometheusAvailable) describe(name, body);
  else if (inCi) {
    describe(name, () => {
      it('needs Prometheus (CI=true: the test is not skipped in CI)', () => {
        throw new Error(skipReason.replace('is skipped', 'cannot run in CI without it'));
      });
    });
  } else describe.skipIf(true)(name, body);
}

export interface RunningPrometheus {
  url: string;
  /** GET /api/v1/query: the result vector of an instant query. */
  query(expression: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  /** Polls `query` until `accept` holds for its result (or the time is up: then throws with the last result). */
  until(expression: string, accept: (result: Array<{ metric: Record<string, string> }>) => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  output(): string;
}

/** Prometheus scraping `target` (host:port, path /metrics) every second. */
export async function startPrometheus(target: string): Promise<RunningPrometheus> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-prometheus-'));
  const port = await freePort();
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: svc',
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const query = async (expression: string) => {
    const answer = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expression)}`);
    const body = (await answer.json()) as { status: string; data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
    if (body.status !== 'success') throw new Error(`Prometheus refused the query ${expression}: ${JSON.stringify(body)}`);
    return body.data!.result;
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once its own readiness endpoint answers 200.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Prometheus did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    query,
    async until(expression, accept, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      let last: unknown = null;
      for (;;) {
        const result = await query(expression);
        if (accept(result)) return;
        last = result;
        if (Date.now() > end) throw new Error(`Prometheus never answered ${expression} as expected; last: ${JSON.stringify(last)}\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    stop,
    output: () => output,
  };
}

/** `promtool check metrics` on an exposition (stdin): its exit status and what it said. */
export function promtoolCheck(exposition: string): { status: number | null; output: string } {
  const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
