import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

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
    // Every resolution is frozen when it is cached (in-process and in every svc the tests spawn),
    // so a change to a shared result anywhere in svc throws instead of passing unnoticed.
    env: { SVC_FREEZE_RESULTS: '1' },
    setupFiles: ['./test/support/assertion-count.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
