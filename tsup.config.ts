import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  entry: { cli: 'src/cli/main.ts', index: 'src/index.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: true,
  clean: true,
  // Declarations for the library entry only (`import … from 'svc-evidence'`): one bundled
  // dist/index.d.ts that names no source file, so nothing outside `files` is referenced.
  dts: { entry: { index: 'src/index.ts' } },
  define: { __SVC_VERSION__: JSON.stringify(pkg.version) },
  // Runtime dependencies stay external: they are installed by npm, and bundling
  // them would hide them from audits. Lazy `import()` calls become separate chunks.
});
