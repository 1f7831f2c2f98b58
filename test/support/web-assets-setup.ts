/**
 * Vitest's global setup: the web dossier's assets in dist/web/ (tsup.web.ts), built alone when
 * they are missing or older than their sources — so the in-process test layer runs on a clone
 * that was never built, and never on stale assets. After a whole build (`npm test` builds first)
 * there is nothing to do.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { webAssetsBuild } from '../../tsup.web.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILT = ['dossier.css', 'live.js', 'claim.js'].map((file) => path.join(root, 'dist/web', file));
const SOURCES = path.join(root, 'src/web/assets');

/** Whether the built assets are missing or older than any of their sources. */
export function webAssetsStale(): boolean {
  if (!BUILT.every((file) => existsSync(file))) return true;
  const built = Math.min(...BUILT.map((file) => statSync(file).mtimeMs));
  return readdirSync(SOURCES).some((file) => statSync(path.join(SOURCES, file)).mtimeMs > built);
}

export default async function setup(): Promise<void> {
  if (!webAssetsStale()) return;
  const cwd = process.cwd();
  try {
    process.chdir(root);
    await build({ ...webAssetsBuild, silent: true, config: false });
  } finally {
    process.chdir(cwd);
  }
}
