/** The front page: what svc is, the search box, and identifiers to try. */
import { html } from './html.js';
import { renderPage, searchForm } from './page.js';

/** Identifiers that resolve with no network: they carry their own keys. */
export const HOME_EXAMPLES: ReadonlyArray<{ did: string; what: string }> = [
  { did: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', what: 'an Ed25519 did:key: self-certifying, nothing fetched' },
  {
    did: 'did:jwk:eyJrdHkiOiJPS1AiLCJjcnYiOiJYMjU1MTkiLCJ1c2UiOiJlbmMiLCJ4IjoiM3A3YmZYdDl3YlRUVzJIQzdPUTFOei1EUThoYmVHZE5yZngtRkctSUswOCJ9',
    what: 'an X25519 did:jwk: the key is the identifier',
  },
];

export function homePage(): string {
  const main = html`<section class="home" aria-labelledby="home-title">
<h1 id="home-title">What can actually be shown about an identifier?</h1>
<p class="lead">svc resolves a decentralized identifier (did:key, did:jwk, did:web, did:webvh) and reports the evidence, dimension by dimension: what was proven, and what was not. It never gives a trust score.</p>
${searchForm('', 'home')}
<h2>Try one</h2>
<ul class="examples">${HOME_EXAMPLES.map((e) => html`<li><a href="/d/${e.did}"><code>${e.did.length > 60 ? `${e.did.slice(0, 57)}…` : e.did}</code></a> — ${e.what}</li>`)}</ul>
<h2>What a dossier shows</h2>
<ol class="level-list">
<li><strong>Verdict and dimensions.</strong> Seven dimensions, grouped as Confirmed, Needs attention and Not confirmed, each with what it proves and what it does not prove.</li>
<li><strong>Evidence graph.</strong> Who asserts what about whom, and which of it svc checked.</li>
<li><strong>Execution telemetry.</strong> Every stage of the resolution, live.</li>
<li><strong>Inspector and time machine.</strong> The raw document and every piece of evidence; earlier observations and what changed between them.</li>
</ol>
<p class="note">svc never verifies real-world or legal identity: the dimension “Real-world identity” is never established.</p>
<h2>Inspect an MCP server</h2>
<p>What an MCP tool server exposes — tools, prompts, resources and resource templates — with fingerprints, what the server declares beside svc’s estimate, risk signals and drift since the last inspection: <a href="/mcp">inspect an MCP endpoint</a>.</p>
</section>`;
  return renderPage({ title: 'svc — identity evidence', mode: 'served', main, headerSearch: false });
}
