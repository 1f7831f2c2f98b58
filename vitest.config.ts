import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LayeredSequencer from './test/support/sequencer.js';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __SVC_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    // A hook may start Chromium, a daemon or a PostgreSQL database: on a loaded 2-core CI machine the
    // first Chromium start alone has taken over 10 s (vitest's default).
    hookTimeout: 60_000,
    pool: 'forks',
    // Two workers per core (vitest's default is one fewer than the cores: a single worker on the
    // 2-core machines): the end-to-end files spend much of their time waiting on the processes
    // they start, and the CPU-bound in-process files fill those waits. Measured on 2 cores: 1
    // worker 638 s, 3 workers 308 s, 4 workers 303 s (with isolate: false).
    maxWorkers: availableParallelism() * 2,
    // A worker runs file after file in one process and keeps the modules it imported: importing
    // src anew for each of ~190 files cost about a third of the suite's CPU time. No test file
    // changes module state another relies on (none mocks a module, stubs a global or sets
    // process.env: test/unit/test-layers.test.ts holds it so); a test that needs a fresh process
    // starts one (*.e2e.test.ts).
    isolate: false,
    sequence: { sequencer: LayeredSequencer },
    // Every resolution is frozen when it is cached (in-process and in every svc the tests spawn),
    // so a change to a shared result anywhere in svc throws instead of passing unnoticed.
    env: { SVC_FREEZE_RESULTS: '1' },
    setupFiles: ['./test/support/assertion-count.ts'],
    globalSetup: ['./test/support/web-assets-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
