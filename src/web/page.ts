/**
 * The frame every page of the web dossier shares: head, header with the search box, main,
 * footer. Served pages link the content-hashed stylesheet and scripts under a strict
 * Content-Security-Policy sent as a header; the offline file (`svc resolve --html`) inlines the
 * stylesheet, carries no script, and holds its own policy in a meta element that allows exactly
 * that stylesheet (by hash) and nothing from anywhere.
 */
import { VERSION } from '../version.js';
import { FAVICON_DATA_URL, webAssets } from './assets.js';
import { html, trusted, type Html } from './html.js';

/** Sent with every served page: nothing but this origin, no inline script or style, no framing. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export type PageMode = 'served' | 'offline';

export interface PageOptions {
  title: string;
  mode: PageMode;
  main: Html;
  /** Load the dossier's scripts: the live telemetry and the claim flow (served dossiers only). */
  script?: boolean;
  /** The DID in the search box. */
  query?: string;
  /** The header's search box (the front page has its own). */
  headerSearch?: boolean;
}

export function renderPage(options: PageOptions): string {
  const assets = webAssets();
  const served = options.mode === 'served';
  const head = served
    ? html`${servedHead()}${options.script ? html`<script src="${assets.js.path}" defer></script><script src="${assets.claim.path}" defer></script>` : ''}`
    : html`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src '${assets.css.integrity}'; img-src data:; base-uri 'none'; form-action 'none'"><link rel="icon" type="image/svg+xml" href="${FAVICON_DATA_URL}"><style>${trustedCss(assets.css.body.toString('utf8'))}</style>`;
  const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title}</title>
${head}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
${served ? html`<a class="brand" href="/">svc</a>` : html`<span class="brand">svc</span>`}
<span class="tagline">identity evidence, not a trust score</span>
${served && options.headerSearch !== false ? searchForm(options.query ?? '', 'header') : ''}
</header>
<main id="main" tabindex="-1">
${options.main}
</main>
<footer class="site-footer">
<p>svc ${VERSION}${served ? html` · <a href="/openapi.json">API (OpenAPI)</a> · <a href="/health">health</a>` : ' · offline copy: no network was needed to open it'}</p>
</footer>
</body>
</html>
`;
  return doc.toString();
}

/** What a served page's head links: the stylesheet and the favicon (the cookie gateway's pages too). */
export function servedHead(): Html {
  const { css, icon } = webAssets();
  return html`<link rel="stylesheet" href="${css.path}"><link rel="icon" type="image/svg+xml" href="${icon.path}">`;
}

/** The search box: a plain GET form, so it works without JavaScript (`/?did=…` redirects to the permalink). */
export function searchForm(value: string, place: 'header' | 'home'): Html {
  const id = `did-${place}`;
  return html`<form class="search search-${place}" role="search" action="/" method="get">
<label for="${id}">${place === 'home' ? 'A DID to examine' : 'DID'}</label>
<input id="${id}" name="did" type="text" value="${value}" required spellcheck="false" autocomplete="off" autocapitalize="off" placeholder="did:web:example.com">
<button type="submit">Show evidence</button>
</form>`;
}

/**
 * The built stylesheet as markup inside <style>: it is svc's own file, and `</` cannot occur in
 * it (checked here, so a future stylesheet cannot close the element early).
 */
function trustedCss(css: string): Html {
  if (css.includes('</')) throw new Error('The stylesheet must not contain "</".');
  return trusted(css);
}
