/**
 * GET / on the cookie gateway: one small server-rendered page, no script, under a policy that
 * allows the daemon's own stylesheet and icon (served by the gateway from the same memory, under
 * the same hashed names: gateway.ts /assets/:name) and nothing but same-origin fetches (so a page
 * script the owner runs here may call the forwarded routes). It reads from 360 px wide: the
 * command wraps, ids wrap. Signed out it explains `svc owner login`; signed in it lists the
 * session's projects, each with its watches and their newest events, its webhook's state, replays
 * and events by type in the 30-day window — read through
 * the same store calls, and the same ownership check, as the forwarded routes.
 */
import type { ProjectMonitorCounts } from '../../core/monitoring/customer-store.js';
import type { CustomerEvent, CustomerWebhookConfig, OwnerSession, Project, ProjectWatch } from '../../core/store.js';
import { html, join } from '../../web/html.js';
import { servedHead } from '../../web/page.js';

export const GATEWAY_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Watches of a project shown with their events (the rest are counted). */
export const PAGE_WATCHES = 20;
/** Newest events shown per watch. */
export const PAGE_EVENTS = 5;

/** A project as the page shows it: its watches (the first PAGE_WATCHES with their newest events) and how many there are. */
export interface PageProject {
  project: Project;
  watches: Array<{ watch: ProjectWatch; events: CustomerEvent[] }>;
  watchCount: number;
  /** The project's webhook as GET …/webhook gives it (a receiver-disabled one included); absent: not shown. */
  webhook?: CustomerWebhookConfig | null;
  /** The project's webhook state, replays and events by type in the 30-day window. */
  counts?: ProjectMonitorCounts;
}

/** A note when a receiver disabled the project's webhook (410 Gone): why, and the fix. */
function webhookNote(p: PageProject) {
  const hook = p.webhook;
  if (!hook || hook.active || hook.disabledReason === null) return '';
  // The stored reason names the 410 and ends with the fix in words; the command follows it.
  return html`<p class="note"><strong>Webhook disabled:</strong> ${hook.disabledReason}: <code>svc owner webhook set --project ${p.project.id} --url &lt;https URL&gt;</code>. No event is delivered meanwhile.</p>`;
}

/** The project's delivery counts: the webhook's state, replays, and the event types seen in the window (only those with events). */
function countsSection(projectId: string, counts: ProjectMonitorCounts) {
  const hook =
    counts.webhook.state === 'active'
      ? html`enabled`
      : counts.webhook.state === 'none'
        ? html`none set (<code>svc owner webhook set --project ${projectId} --url &lt;URL&gt;</code>)`
        : html`<strong>disabled</strong> since ${counts.webhook.since}`;
  const types = Object.entries(counts.eventsByType).filter(([, n]) => n > 0);
  return html`<h3>Deliveries</h3>
<ul class="counts"><li>Webhook: ${hook}</li><li>Replays in the last 30 days: ${counts.replays}</li><li>Events in the last 30 days: ${
    types.length === 0 ? 'none' : join(types.map(([type, n], i) => html`${i > 0 ? ', ' : ''}<code>${type}</code> ${n}`))
  }</li></ul>`;
}

function eventList(events: CustomerEvent[]) {
  if (events.length === 0) return html`<p>No events in the last 30 days.</p>`;
  return html`<ul>${join(events.map((e) => html`<li><code>${e.id}</code> ${e.type} at ${e.createdAt}</li>`))}</ul>`;
}

function projectSection(p: PageProject) {
  const watches =
    p.watchCount === 0
      ? html`<p>No watches. Add one with <code>svc owner watches add --project ${p.project.id} --did &lt;DID&gt;</code>.</p>`
      : html`<ul>${join(
          p.watches.map(
            ({ watch, events }) =>
              html`<li><code>${watch.id}</code> <code>${watch.did ?? watch.mcpEndpoint ?? watch.a2aCard}</code>: ${watch.lastStatus ?? 'not checked yet'}${watch.lastCheckedAt ? html` (checked ${watch.lastCheckedAt})` : ''}, next due ${watch.nextDueAt}${eventList(events)}</li>`,
          ),
        )}</ul>${p.watchCount > p.watches.length ? html`<p>${p.watchCount - p.watches.length} more watches: <code>svc owner watches list --project ${p.project.id}</code>.</p>` : ''}`;
  return html`<section><h2><code>${p.project.id}</code> ${p.project.name}</h2>
${webhookNote(p)}
<h3>Watches</h3>
${watches}${p.counts === undefined ? '' : countsSection(p.project.id, p.counts)}</section>`;
}

export function ownerPage(origin: string, signedIn: { session: OwnerSession; projects: PageProject[] } | null): string {
  const main = signedIn
    ? html`<p>Signed in as <code>${signedIn.session.subject}</code> until ${signedIn.session.expiresAt} (idle expiry; at most ${signedIn.session.absoluteExpiresAt}).</p>
${signedIn.projects.length === 0 ? html`<p>No projects.</p>` : join(signedIn.projects.map(projectSection))}
<p>Manage keys with <code>svc owner keys list --project &lt;id&gt;</code>, watches with <code>svc owner watches</code>, the webhook with <code>svc owner webhook</code>. Sign out with <code>svc owner logout</code>.</p>`
    : html`<p>Not signed in. Owners sign in with a key their DID lists under <code>authentication</code>:</p>
<pre class="command">svc owner login --gateway ${origin} --did &lt;your DID&gt; --key &lt;private JWK file&gt;</pre>
<p>The gateway hands out a challenge (<code>POST /sign-in/challenge</code>), you sign its statement as a compact JWS and post it (<code>POST /sign-in</code>); the session lives in an HttpOnly, SameSite=Strict cookie for 30 minutes idle, 12 hours at most.</p>`;
  return `<!doctype html>\n${html`<html lang="en"><head><meta charset="utf-8"><title>svc owner gateway</title><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">${servedHead()}</head>
<body><header class="site-header"><span class="brand">svc</span> <span class="tagline">owner gateway: your projects, keys and watches</span></header>
<main id="main" class="gateway"><h1>svc owner gateway</h1>
${main}</main></body></html>`.toString()}\n`;
}
