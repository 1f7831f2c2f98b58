/**
 * The suite's two layers, kept honest. A test file that starts a process besides the test runner
 * (the built svc binary, `svc serve` as a process, Chromium, python3, a peer server's process, a
 * child of its own) or reads the build (dist/) is named `*.e2e.test.ts`; every other file runs in
 * the test's own process on the sources, needs no build (the web assets it reads are built by
 * test/support/web-assets-setup.ts when missing), and is part of `npm run test:fast`.
 * `npm test` builds and runs both.
 *
 * A file is placed by what it imports: the helpers that start processes or read the build are
 * listed here, each with what it needs, and a file importing one (or node:child_process, or execa)
 * is end-to-end. A file that no longer needs one is moved back to the fast layer, so the inner
 * loop stays whole.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/fixtures.js';

/** The support modules' exports that start a process, and what each starts. */
const PROCESS_HELPERS: Record<string, Record<string, string>> = {
  'cli.js': { svc: 'the built svc binary', svcInTty: 'the built svc binary under script(1)', assertBuilt: 'the build in dist/ (npm run build)' },
  'daemon.js': { startDaemon: '`svc serve` as a process' },
  'daemon-client.js': { startDaemonFor: '`svc serve` as a process' },
  'browser.js': { describeBrowser: 'Chromium', launchBrowser: 'Chromium' },
  'mcp-peers.js': { startPeer: 'a peer MCP server as a process' },
  'gateway.js': { startGatewayDaemon: '`svc serve` and its gateway as a process' },
  'client-scenario.js': { startClientScenario: 'three `svc serve` processes' },
  'monitoring-crash.js': { monitoringCrashSuite: '`svc serve` processes killed with SIGKILL', sharedWatchesSuite: 'two `svc serve` processes' },
  'customer-monitor-crash.js': { customerCrashSuite: '`svc serve` processes killed with SIGKILL' },
};
const PROCESS_MODULES: Record<string, string> = { 'node:child_process': 'processes of its own', execa: 'processes of its own' };

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'support' ? [] : testFiles(full);
    return /\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** What a test file needs beyond its own process, read from its imports: `name (what)`, or nothing. */
function processesStarted(source: string): string[] {
  const started: string[] = [];
  for (const match of source.matchAll(/^import\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)'/gm)) {
    if (match[1]) continue;
    const [, , clause, from] = match as unknown as [string, string | undefined, string, string];
    if (PROCESS_MODULES[from]) {
      started.push(`${from} (${PROCESS_MODULES[from]})`);
      continue;
    }
    const helpers = PROCESS_HELPERS[path.basename(from)];
    if (!helpers || !from.includes('support/')) continue;
    const names = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
    for (const name of names
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '' && !n.startsWith('type '))) {
      const imported = name.split(/\s+as\s+/)[0]!;
      if (helpers[imported]) started.push(`${imported} (${helpers[imported]})`);
    }
  }
  return started;
}

describe('the test layers', () => {
  const files = testFiles(path.join(repoRoot, 'test')).map((file) => ({
    file: path.relative(repoRoot, file),
    e2e: file.endsWith('.e2e.test.ts'),
    started: processesStarted(readFileSync(file, 'utf8')),
  }));

  it('every file that starts a process or reads the build is named *.e2e.test.ts', () => {
    const misplaced = files.filter((f) => !f.e2e && f.started.length > 0).map((f) => `${f.file} needs ${f.started.join(', ')}: name it *.e2e.test.ts`);
    expect(misplaced).toEqual([]);
  });

  it('every *.e2e.test.ts file starts a process or reads the build (else it belongs to the fast layer)', () => {
    const misplaced = files
      .filter((f) => f.e2e && f.started.length === 0)
      .map((f) => `${f.file} starts no process and reads no build: drop .e2e from its name`);
    expect(misplaced).toEqual([]);
  });

  it('no file mocks a module, stubs a global or an environment variable, or fakes the timers (workers keep their imports: isolate: false)', () => {
    const shared = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/;
    const offenders = files.flatMap(({ file }) =>
      readFileSync(path.join(repoRoot, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (shared.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it('reads imports as they are written', () => {
    expect(processesStarted(`import { svcIn, onlyJson } from '../support/cli.js';`)).toEqual([]);
    expect(processesStarted(`import {\n  onlyJson,\n  svc,\n} from '../support/cli.js';`)).toEqual(['svc (the built svc binary)']);
    expect(processesStarted(`import type { Daemon } from '../support/daemon.js';`)).toEqual([]);
    expect(processesStarted(`import { type Daemon, startDaemon as start } from '../support/daemon.js';`)).toEqual(['startDaemon (`svc serve` as a process)']);
    expect(processesStarted(`import { spawnSync } from 'node:child_process';`)).toEqual(['node:child_process (processes of its own)']);
    expect(processesStarted(`import { svc } from './local.js';`)).toEqual([]);
  });
});
