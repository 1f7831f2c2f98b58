/**
 * The dossier's stylesheet and scripts, built by `npm run build` into dist/web/ (tsup.config.ts)
 * and read once, and its icon (an SVG written here): each is named by its content hash
 * (`/assets/dossier.3f9c….css`) so it can be cached for a year, kept in memory with its gzip
 * form, and served without touching the disk. The daemon's pages and the cookie gateway's link
 * the same files.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface WebAsset {
  /** `/assets/<name>.<hash>.<ext>` */
  path: string;
  contentType: string;
  body: Buffer;
  gzip: Buffer;
  /** A strong validator: the content hash. */
  etag: string;
  /** `sha256-…` of the body, for a Content-Security-Policy hash source. */
  integrity: string;
}

export interface WebAssets {
  css: WebAsset;
  /** Level 3's live run (live.js). */
  js: WebAsset;
  /** The claim offer's flow (claim.js). */
  claim: WebAsset;
  /** The favicon (SVG), linked by every page; the offline file carries it as a data: URL (FAVICON_DATA_URL). */
  icon: WebAsset;
  byPath: ReadonlyMap<string, WebAsset>;
}

/** Where the built assets are: beside the bundled chunk (dist/), or dist/web from the sources (tests). */
function assetDirectory(): string {
  const candidates = [new URL('./web/', import.meta.url), new URL('../../dist/web/', import.meta.url)];
  for (const url of candidates) {
    const dir = fileURLToPath(url);
    if (existsSync(`${dir}dossier.css`)) return dir;
  }
  throw new Error('The web dossier’s assets are not built; run npm run build.');
}

/** The favicon: a check mark on svc's accent blue, no text (no font needed). */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#174ea6"/><path d="M8.5 16.5l5 5 10-11" fill="none" stroke="#ffffff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/** The favicon as a data: URL, for the offline file (its policy allows images from data: only). */
export const FAVICON_DATA_URL = `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`;

function asset(dir: string, file: string, name: string, ext: string, contentType: string): WebAsset {
  return assetOf(readFileSync(`${dir}${file}`), name, ext, contentType);
}

function assetOf(body: Buffer, name: string, ext: string, contentType: string): WebAsset {
  const digest = createHash('sha256').update(body).digest();
  const hash = digest.toString('hex').slice(0, 16);
  return {
    path: `/assets/${name}.${hash}.${ext}`,
    contentType,
    body,
    gzip: gzipSync(body, { level: 9 }),
    etag: `"${hash}"`,
    integrity: `sha256-${digest.toString('base64')}`,
  };
}

let loaded: WebAssets | undefined;

/** The assets, read on first use and kept. */
export function webAssets(): WebAssets {
  if (loaded) return loaded;
  const dir = assetDirectory();
  const css = asset(dir, 'dossier.css', 'dossier', 'css', 'text/css; charset=utf-8');
  const js = asset(dir, 'live.js', 'live', 'js', 'text/javascript; charset=utf-8');
  const claim = asset(dir, 'claim.js', 'claim', 'js', 'text/javascript; charset=utf-8');
  const icon = assetOf(Buffer.from(FAVICON_SVG, 'utf8'), 'favicon', 'svg', 'image/svg+xml');
  loaded = { css, js, claim, icon, byPath: new Map([css, js, claim, icon].map((a) => [a.path, a])) };
  return loaded;
}
