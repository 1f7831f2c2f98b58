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
  // One exception, ink: importing it opened some 800 files (es-toolkit/compat for one throttle,
  // ws for devtools) and cost the terminal dossier about 0.5 s of every start. Bundled into the
  // dossier chunk (loaded only for a terminal), only what it uses is read. It stays a dependency,
  // so audits and licences still see it; react stays external (the bundled reconciler requires
  // it, hence createRequire), and so does the devtools package ink loads only under DEV=true.
  // typebox likewise (the route schemas): its ESM build is some 700 small modules, and importing
  // it cost `svc serve` about 0.3 s of every start; bundled into the daemon's chunk, it does not.
  noExternal: ['ink', 'typebox'],
  external: ['react-devtools-core'],
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
});
