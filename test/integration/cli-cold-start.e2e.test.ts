/**
 * The CLI's cold start (bench/cold-start.bench.ts) is mostly the JavaScript loaded before the
 * first byte: every module of dist/cli.js's static import graph is read and compiled on every
 * run, `svc --version` included. Commands register their options statically
 * (src/cli/cmd/<name>/command.ts) and load their work with `await import()` when they run (the
 * rest of src/cli/cmd/<name>/). This reads the built chunks (tsup names each bundled source
 * module in a `// src/…` comment) and holds that line: nothing of
 * credentials, delegation, policy, the resolver, the store or the text dossier in the static
 * graph; and `svc resolve` loading no credential, delegation, policy or did:web/did:webvh code
 * before a did:web or did:webvh is resolved, nor the fetcher before a first request.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, repoRoot } from '../support/cli.js';

const dist = path.join(repoRoot, 'dist');

interface Graph {
  /** dist file name → its size in bytes. */
  files: Map<string, number>;
  /** The source modules bundled into those files. */
  modules: Set<string>;
}

/** The static import graph from `entry` (a file of dist/): `import … from "./…"` and `export … from "./…"`, recursively. */
function staticGraph(entry: string): Graph {
  const files = new Map<string, number>();
  const modules = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    const text = readFileSync(path.join(dist, file), 'utf8');
    files.set(file, Buffer.byteLength(text));
    for (const m of text.matchAll(/^\/\/ (src\/\S+)$/gm)) modules.add(m[1]!);
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?\bfrom\s*"\.\/([^"]+)"|^import\s*"\.\/([^"]+)"/gm)) visit(m[1] ?? m[2]!);
  };
  visit(entry);
  return { files, modules };
}

/** The dist file that bundles `source` (e.g. src/cli/cmd/resolve/action.ts). */
function fileOf(source: string): string {
  const hits = readdirSync(dist).filter((f) => f.endsWith('.js') && readFileSync(path.join(dist, f), 'utf8').includes(`\n// ${source}\n`));
  expect(hits, `${source} is bundled into one dist file`).toHaveLength(1);
  return hits[0]!;
}

const kb = (graph: Graph): number => [...graph.files.values()].reduce((a, b) => a + b, 0) / 1024;

/** Never loaded by `svc resolve <did:key>` (nor by any command before its action runs). */
const NOT_FOR_RESOLVE = [
  // Their types.ts (enumerations only: the check ids --allow-warn lists) are the exception.
  /^src\/core\/(credentials|delegation|policy|jws|(mcp|a2a|claims)\/(?!types\.ts))/,
  // did:web and did:webvh load on their first resolution (core/methods/registry.ts).
  /^src\/core\/methods\/(web|webvh|web-fetch)\.ts$/,
  /^src\/core\/linkage\/(check|verify)\.ts$/,
  /^src\/core\/webvh\/verify\.ts$/,
  /^src\/server\//,
  /^src\/web\//,
  /^src\/cli\/cmd\/resolve\/render(-ink)?\.tsx?$/,
  // The dossier's view model (the web dossier's too) loads with the text dossier.
  /^src\/present\/(dossier|history|graph)\.ts$/,
  // The fetcher (and undici, node:tls) loads on the first request (src/net/index.ts).
  /^src\/net\/(fetch|tls-evidence)\.ts$/,
  // The pager (and node:child_process) loads only when a report is paged (src/cli/cmdutil/paging.ts).
  /^src\/cli\/cmdutil\/pager\.ts$/,
];

/** Loaded only once a command runs: its work, the resolver, the store, the network. */
const NOT_STATIC = [
  ...NOT_FOR_RESOLVE,
  // A command's folder: only its registration (command.ts) and its options are read before it runs.
  /^src\/cli\/cmd\/[^/]+\/(?![a-z-]*command\.ts$|options\.ts$)/,
  // The shared parts only actions use.
  /^src\/cli\/cmdutil\/(daemon|database|html-file|listen|source|supplied|table|check-report|shell-word)\.ts$/,
  /^src\/core\/resolve\/resolve\.ts$/,
  /^src\/core\/methods\//,
  /^src\/store\//,
  /^src\/net\//,
  /^src\/runtime\//,
];

describe('what the CLI loads before a command runs', () => {
  beforeAll(() => {
    assertBuilt();
  });

  it("dist/cli.js's static graph is the command tree only", () => {
    const graph = staticGraph('cli.js');
    expect([...graph.modules].filter((m) => NOT_STATIC.some((re) => re.test(m)))).toEqual([]);
    // 86 KB when this test was written (566 KB before the actions were made lazy); 206 KB with
    // commander bundled in (tsup.config.ts), which every command needs anyway; 264 KB with
    // verify-bundle, mcp approve and a2a approve and their help (the modules above: still only the tree);
    // 282 KB with MCP and A2A watches, replays, attempt records and re-enabling in svc monitor and
    // svc owner and their help (the monitor and owner registrations are now 26 KB of the tree);
    // 289 KB with svc config, --config on every command and the config file lookup (its reader,
    // config-file.ts, loads only when a file is found); 290.3 KB with the metrics, tracing and
    // drain-notice settings in the environment table that help prints.
    expect(kb(graph)).toBeLessThan(296);
  });

  it('svc resolve loads its own work and no credential, delegation, policy, dossier or did:web code', () => {
    const graph = staticGraph(fileOf('src/cli/cmd/resolve/action.ts'));
    expect(graph.modules.has('src/core/resolve/resolve.ts')).toBe(true);
    expect([...graph.modules].filter((m) => NOT_FOR_RESOLVE.some((re) => re.test(m)))).toEqual([]);
  });
});
