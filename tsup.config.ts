import { readFileSync, rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { webAssetsBuild } from './tsup.web.js';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// Quiet by default: `npm ci` builds through `prepare`, and tsup's log (some 300 lines: every chunk
// of every build) stood before the README's first answer. Errors are printed all the same (tsup's
// `silent` mutes its info lines only); on success one line says what was built.
// SVC_BUILD_VERBOSE=1 brings tsup's whole log back.
const verbose = /^(1|true|yes)$/i.test(process.env['SVC_BUILD_VERBOSE'] ?? '');
const started = performance.now();
if (!verbose) {
  process.once('exit', (code) => {
    if (code === 0) console.log(`svc: built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s (SVC_BUILD_VERBOSE=1 for tsup's log)`);
  });
}

const svc: Options = {
  silent: !verbose,
  // sqlite-writer: the daemon's observation writer thread (src/store/sqlite/writer-thread.ts
  // starts it from dist/sqlite-writer.js, next to the chunk that holds the store).
  entry: { cli: 'src/cli/main.ts', index: 'src/index.ts', 'sqlite-writer': 'src/store/sqlite/writer-worker.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: true,
  // dist/ is emptied once, below, before both builds: they run at the same time, and tsup's own
  // clean of one would delete what the other wrote.
  clean: false,
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
  // commander too: every command starts with it, and as a CommonJS package reached from ESM it
  // was resolved, pre-parsed for its exports and compiled apart on each start (3–4 ms of about
  // 130 for `svc resolve <did:key> --json`).
  noExternal: ['ink', 'typebox', 'commander'],
  external: ['react-devtools-core'],
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
};

// The API client (`import { SvcClient } from 'svc-evidence/client'`): a build of its own, so that
// it shares no chunk with svc and gets none of its node-only banner — one dist/client.js for
// Node ≥ 20 and browsers (no node: import; test/integration/client-bundle.e2e.test.ts holds it so), and one
// bundled dist/client.d.ts.
const client: Options = {
  silent: !verbose,
  entry: { client: 'src/client/index.ts' },
  format: ['esm'],
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  sourcemap: true,
  clean: false,
  dts: { entry: { client: 'src/client/index.ts' } },
};

// The web dossier's assets (tsup.web.ts): also built by the tests' global setup when missing.
const web: Options = { ...webAssetsBuild, silent: !verbose };

export default defineConfig(() => {
  rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
  return [svc, client, web];
});
