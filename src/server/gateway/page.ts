/**
 * GET / on the cookie gateway: one small server-rendered page, no script, no style, no external
 * asset, under a policy that allows nothing but same-origin fetches (so a page script the owner
 * runs here may call the forwarded routes). Signed out it explains `svc owner login`; signed in
 * it lists the session's projects.
 */
import type { OwnerSession, Project } from '../../core/store.js';
import { html, join } from '../../web/html.js';

export const GATEWAY_CSP = "default-src 'none'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function ownerPage(origin: string, signedIn: { session: OwnerSession; projects: Project[] } | null): string {
  const main = signedIn
    ? html`<p>Signed in as <code>${signedIn.session.subject}</code> until ${signedIn.session.expiresAt} (idle expiry; at most ${signedIn.session.absoluteExpiresAt}).</p>
<h2>Projects</h2>
<ul>${join(signedIn.projects.map((p) => html`<li><code>${p.id}</code> ${p.name}</li>`))}</ul>
<p>Manage their keys with <code>svc owner keys list --project &lt;id&gt;</code>. Sign out with <code>svc owner logout</code>.</p>`
    : html`<p>Not signed in. Owners sign in with a key their DID lists under <code>authentication</code>:</p>
<pre>svc owner login --gateway ${origin} --did &lt;your DID&gt; --key &lt;private JWK file&gt;</pre>
<p>The gateway hands out a challenge (<code>POST /sign-in/challenge</code>), you sign its statement as a compact JWS and post it (<code>POST /sign-in</code>); the session lives in an HttpOnly, SameSite=Strict cookie for 30 minutes idle, 12 hours at most.</p>`;
  return `<!doctype html>\n${html`<html lang="en"><head><meta charset="utf-8"><title>svc owner gateway</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>svc owner gateway</h1>
${main}</main></body></html>`.toString()}\n`;
}
