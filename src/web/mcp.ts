/**
 * The web view of an MCP inspection (`/mcp?endpoint=…`, `svc inspect-mcp … --html`): the same
 * McpInspection the API answers, as a page in the dossier's frame and style. Everything the
 * server said — names, titles, descriptions, URIs, serverInfo, instructions, the auth challenge —
 * is hostile text: it goes through `visibleText`, which escapes it and shows every invisible or
 * control character as a marked `U+XXXX`. What the server claims (serverInfo, annotations and
 * the declared class) and what svc estimates (heuristic class, risk signals) stand side by side
 * and are never merged. Items with risk signals come first in their section, and are marked.
 *
 * No script: the page is complete as served. The form (served pages) is a plain GET to /mcp.
 */
import {
  ITEM_KINDS,
  type ItemDrift,
  type ItemKind,
  type KindDrift,
  type McpCheck,
  type McpInspection,
  type McpPrompt,
  type McpResource,
  type McpResourceTemplate,
  type McpTool,
  type RiskSignal,
  type TranscriptEntry,
} from '../core/mcp/types.js';
import type { ProblemError } from '../core/problems.js';
import { plural } from '../core/text.js';
import { problemPage } from './dossier.js';
import { anchorId, html, join, visibleText, type Html } from './html.js';
import { renderPage, type PageMode } from './page.js';

export interface McpPageInput {
  result: McpInspection;
  mode: PageMode;
}

/** The page of an endpoint's inspection. */
export function mcpPagePath(endpoint: string): string {
  return `/mcp?${new URLSearchParams({ endpoint }).toString()}`;
}

/** The same inspection as JSON, from the API. */
export function mcpApiPath(endpoint: string): string {
  return `/v1/mcp/inspect?${new URLSearchParams({ endpoint }).toString()}`;
}

/** The endpoint form: a plain GET to /mcp (works without JavaScript). */
export function mcpForm(value: string, place: 'page' | 'result' | 'problem'): Html {
  const id = `mcp-endpoint-${place}`;
  return html`<form class="search search-home mcp-form" action="/mcp" method="get">
<label for="${id}">${place === 'result' ? 'Inspect another MCP endpoint' : 'MCP endpoint (Streamable HTTP)'}</label>
<input id="${id}" name="endpoint" type="url" value="${value}" required maxlength="2048" spellcheck="false" autocomplete="off" autocapitalize="off" placeholder="https://tools.example/mcp">
<button type="submit">Inspect</button>
</form>`;
}

/** GET /mcp without an endpoint: what an inspection is, and the form. */
export function mcpFormPage(): string {
  const main = html`<section class="mcp mcp-intro" aria-labelledby="mcp-title">
<p class="eyebrow">MCP server inspection</p>
<h1 id="mcp-title">What does an MCP server expose?</h1>
<p class="lead">svc connects to an MCP server’s Streamable HTTP endpoint as a client and lists its tools, prompts, resources and resource templates. It fingerprints each (RFC 8785), compares them with the last inspection of the same URL, and reports what the server claims beside svc’s own estimate of what each tool does. It never calls a tool, reads a resource or authenticates.</p>
${mcpForm('', 'page')}
<h2>What the page shows</h2>
<ol class="level-list">
<li><strong>Status and checks.</strong> Six checks — history, transport, protocol, identity, inventory, drift — each PASS, WARN or SKIP on its own evidence. There is no score.</li>
<li><strong>Tools, prompts, resources, templates.</strong> Each with its fingerprint and drift; for tools, the class the server declares beside svc’s heuristic class; risk signals with where they were found.</li>
<li><strong>Drift.</strong> What was added, removed or changed since the last inspection of this endpoint.</li>
<li><strong>Transcript.</strong> Every HTTP exchange of the inspection.</li>
</ol>
<p class="note">An inspection draws on the intensive budget, as <code>GET /v1/mcp/inspect</code> does. Only public addresses are contacted unless the operator allows others.</p>
</section>`;
  return renderPage({ title: 'Inspect an MCP server — svc', mode: 'served', main });
}

export function mcpPage(input: McpPageInput): string {
  const { result } = input;
  return renderPage({ title: `${result.endpoint} — svc MCP inspection`, mode: input.mode, main: mcpMain(input) });
}

/**
 * A problem of an inspection as a page (no inspection could be produced: not an MCP endpoint,
 * egress refused, unreachable …), naming the endpoint and offering the form again with it.
 */
export function mcpProblemPage(problem: ProblemError, endpoint: string | undefined, mode: PageMode): string {
  const shown = endpoint !== undefined && endpoint.length > 300 ? `${endpoint.slice(0, 300)}…` : endpoint;
  return problemPage({
    problem,
    mode,
    asked: { noun: 'MCP endpoint', ...(shown !== undefined && shown !== '' ? { value: shown } : {}), next: mcpForm(endpoint ?? '', 'problem') },
  });
}

/* ------------------------------------------------------------------ words */

const STATUS_WORDS = { INSPECTED: 'Inspected', AUTH_REQUIRED: 'Authentication required' } as const;

const KIND_TEXT: Readonly<Record<'tools' | ItemKind, { title: string; noun: string; nouns: string; capability: string; anchor: string }>> = {
  tools: { title: 'Tools', noun: 'tool', nouns: 'tools', capability: 'tools', anchor: 'tool' },
  prompts: { title: 'Prompts', noun: 'prompt', nouns: 'prompts', capability: 'prompts', anchor: 'prompt' },
  resources: { title: 'Resources', noun: 'resource', nouns: 'resources', capability: 'resources', anchor: 'resource' },
  resourceTemplates: { title: 'Resource templates', noun: 'resource template', nouns: 'resource templates', capability: 'resources', anchor: 'template' },
};

const SECTION_IDS: Readonly<Record<'tools' | ItemKind, string>> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resource-templates',
};

const DRIFT_TONE: Readonly<Record<ItemDrift, 'pass' | 'warn' | 'skip'>> = {
  UNCHANGED: 'pass',
  FIRST_OBSERVATION: 'skip',
  PROFILE_CHANGED: 'skip',
  ADDED: 'warn',
  CHANGED: 'warn',
};

const INVENTORY_DRIFT_TEXT: Readonly<Record<McpInspection['drift']['status'], string>> = {
  FIRST_OBSERVATION: 'No earlier inventory of this endpoint URL is stored: this inspection is the first one compared against later.',
  UNCHANGED: 'The inventory is the same as at the last inspection of this endpoint URL.',
  CHANGED: 'The inventory differs from the last inspection of this endpoint URL.',
  PROFILE_CHANGED:
    'The stored inventory was fingerprinted under another profile, so the two cannot be compared item by item; this inspection is the new baseline.',
};

/** A fingerprint shortened to 12 hex digits, the whole value in its title (and in the JSON). */
function hash(value: string): Html {
  return html`<code class="hash" title="${value}">${value.slice(0, 12)}…</code>`;
}

/** A labelled fingerprint, kept on one line. */
function fingerprint(label: string, value: string): Html {
  return html`<span class="mcp-nowrap">${label} ${hash(value)}</span>`;
}

function statusBadge(status: string, tone: 'pass' | 'warn' | 'skip' | 'fail'): Html {
  return html`<span class="status status-${tone}">${status}</span>`;
}

function driftBadge(drift: ItemDrift): Html {
  return html`<span class="status status-${DRIFT_TONE[drift]} mcp-drift" title="Drift since the last inspection">${drift}</span>`;
}

function field(label: string, value: Html | string, extra = ''): Html {
  return html`<div class="field${extra ? ` ${extra}` : ''}"><dt>${label}</dt><dd>${value}</dd></div>`;
}

/** An item's key as code: resource URIs and URI templates wrap anywhere, names do not. */
function keyCode(kind: 'tools' | ItemKind, key: string, extra = ''): Html {
  const uri = kind === 'resources' || kind === 'resourceTemplates';
  const cls = [extra, uri ? 'uri' : ''].filter((c) => c !== '').join(' ');
  return cls ? html`<code class="${cls}">${visibleText(key)}</code>` : html`<code>${visibleText(key)}</code>`;
}

/* ------------------------------------------------------------------ page */

export function mcpMain(input: McpPageInput): Html {
  const { result, mode } = input;
  const auth = result.status === 'AUTH_REQUIRED';
  return html`<article class="mcp mcp-inspection" data-endpoint="${result.endpoint}" data-status="${result.status}">
${header(result, mode)}
${verdict(result)}
<nav class="levels" aria-label="Sections of the inspection"><ol>
${auth ? html`<li><a href="#auth">Authentication</a></li>` : ''}
<li><a href="#server">Server</a></li>
<li><a href="#checks">Checks</a></li>
${(['tools', ...ITEM_KINDS] as const).map((kind) => html`<li><a href="#${SECTION_IDS[kind]}">${KIND_TEXT[kind].title} (${result[kind].length})</a></li>`)}
<li><a href="#drift">Drift</a></li>
<li><a href="#transcript">Transcript</a></li>
</ol></nav>
${attention(result)}
${auth ? authSection(result) : ''}
${serverSection(result)}
${checksSection(result.checks)}
${toolsSection(result)}
${ITEM_KINDS.map((kind) => itemSection(result, kind))}
${driftSection(result)}
<section id="limitations" class="limitations mcp-section" aria-labelledby="limitations-title">
<h2 id="limitations-title">What this does not show</h2>
<ul>${result.limitations.map((l) => html`<li>${visibleText(l)}</li>`)}</ul>
</section>
${transcriptSection(result.transcript)}
${mode === 'served' ? mcpForm(result.endpoint, 'result') : ''}
</article>`;
}

function header(result: McpInspection, mode: PageMode): Html {
  const protocol = result.negotiatedVersion ? html` · <span class="mcp-nowrap">MCP ${result.negotiatedVersion},</span> ${result.mode.toLowerCase()}` : '';
  return html`<header class="dossier-header mcp-header">
<p class="eyebrow">MCP server inspection</p>
<h1 class="mcp-endpoint uri">${visibleText(result.endpoint)}</h1>
<p class="observed">Inspected <time datetime="${result.observedAt}">${result.observedAt}</time>${protocol}</p>
${
  mode === 'served'
    ? html`<p class="formats">The same inspection as <a href="${mcpApiPath(result.endpoint)}" type="application/json">JSON</a> (each request inspects afresh, and counts as the next inspection for drift).</p>`
    : html`<p class="formats">An offline copy made by svc inspect-mcp --html; <code>svc inspect-mcp --json</code> gives the same result as JSON.</p>`
}
</header>`;
}

function verdict(result: McpInspection): Html {
  const counts = { PASS: 0, WARN: 0, FAIL: 0, SKIP: 0 };
  for (const c of result.checks) counts[c.status] += 1;
  const tone = counts.FAIL > 0 ? 'bad' : result.status === 'AUTH_REQUIRED' || counts.WARN > 0 ? 'warn' : 'good';
  const summary = (['FAIL', 'WARN', 'PASS', 'SKIP'] as const)
    .filter((s) => counts[s] > 0)
    .map((s) => `${counts[s]} ${s}`)
    .join(', ');
  return html`<div class="verdict tone-${tone}" data-status="${result.status}">
<p class="outcome"><span class="badge">${STATUS_WORDS[result.status]}</span> <code>${result.status}</code></p>
<p class="headline">${visibleText(result.headline)}</p>
<p class="mcp-check-summary">Checks: ${summary}.</p>
</div>
<p class="no-score">Each check stands on its own evidence; there is no total and no trust score. What the server says about itself is its claim; svc’s estimates (heuristic class, risk signals) stand beside it and are never merged with it.</p>`;
}

/** Every item with risk signals, linked to its card: the first thing to read. */
function attention(result: McpInspection): Html {
  const rows: Html[] = [];
  for (const kind of ['tools', ...ITEM_KINDS] as const) {
    for (const item of result[kind] as ReadonlyArray<McpTool | McpPrompt | McpResource | McpResourceTemplate>) {
      if (item.riskSignals.length === 0) continue;
      const key = keyOf(kind, item);
      rows.push(
        html`<li><a href="#${anchorId(KIND_TEXT[kind].anchor, key)}">${KIND_TEXT[kind].noun} ${keyCode(kind, key)}</a>: ${signalIds(item.riskSignals)}</li>`,
      );
    }
  }
  if (result.instructionSignals.length > 0) {
    rows.push(html`<li><a href="#server-instructions">the server’s instructions</a>: ${signalIds(result.instructionSignals)}</li>`);
  }
  if (rows.length === 0) return html``;
  return html`<section id="attention" class="mcp-attention" aria-labelledby="attention-title">
<h2 id="attention-title">Risk signals <span class="count">(${rows.length} ${rows.length === 1 ? 'place' : 'places'})</span></h2>
<p class="note">svc’s estimate from names, descriptions and schemas — not the server’s claim, and not proof of what a tool does. Each is listed with where it was found below.</p>
<ul>${rows}</ul>
</section>`;
}

function signalIds(signals: readonly RiskSignal[]): Html {
  const ids = signals.map((s) => s.id).filter((id, i, all) => all.indexOf(id) === i);
  return join(
    ids.map((id) => html`<code>${id}</code>`),
    ', ',
  );
}

function serverSection(result: McpInspection): Html {
  const info = result.serverInfo;
  const name = info && typeof info['name'] === 'string' ? info['name'] : null;
  const version = info && typeof info['version'] === 'string' ? info['version'] : null;
  const title = info && typeof info['title'] === 'string' ? info['title'] : null;
  const tls = result.tls;
  const capabilities = result.capabilities ? Object.keys(result.capabilities) : [];
  const inventory = result.inventoryHash
    ? html`<code class="hash hash-full">${result.inventoryHash}</code> <span class="mcp-profile">(${result.hashProfile})</span>`
    : html`<span class="tone-muted">none: ${result.status === 'AUTH_REQUIRED' ? 'nothing was listed' : 'the listing is incomplete'} (profile ${result.hashProfile})</span>`;
  return html`<section id="server" class="mcp-section" aria-labelledby="server-title">
<h2 id="server-title">Server <span class="count">(self-reported)</span></h2>
<dl class="fields mcp-fields">
${field('name', name ? html`<code>${visibleText(name)}</code>${version ? html` <span class="mcp-version">${visibleText(version)}</span>` : ''}` : html`<span class="tone-muted">not given</span>`)}
${title ? field('title', visibleText(title)) : ''}
${field('protocol', result.negotiatedVersion ? html`MCP ${result.negotiatedVersion} (${result.mode.toLowerCase()})` : html`<span class="tone-muted">not negotiated</span>`)}
${result.supportedVersions.length > 0 ? field('advertised versions', visibleText(result.supportedVersions.join(', '))) : ''}
${field(
  'transport',
  tls
    ? html`${tls.protocol}, ${tls.cipher}; certificate for <code>${visibleText(tls.host)}</code>${tls.hostnameInSan ? '' : html` <span class="tone-bad">(host not in its names)</span>`}, validated by ${visibleText(tls.validatedBy)}, ${tls.daysUntilExpiry} days until it expires`
    : html`<span class="tone-warn">plain http: no TLS</span>`,
)}
${capabilities.length > 0 ? field('capabilities', visibleText(capabilities.join(', '))) : ''}
${field('inventory hash', inventory, 'mcp-inventory')}
${result.complete ? '' : field('listing', html`<span class="tone-warn">incomplete: ${visibleText(result.inventoryLimit ?? 'a limit was reached')}</span>`)}
</dl>
${result.instructions !== null ? instructions(result.instructions, result.instructionSignals) : ''}
</section>`;
}

function instructions(text: string, signals: readonly RiskSignal[]): Html {
  return html`<details id="server-instructions" class="mcp-instructions"${signals.length > 0 ? html` open` : ''}>
<summary>Instructions the server gives to models (${plural(text.length, 'character')})${signals.length > 0 ? html` <span class="mcp-flag">${plural(signals.length, 'risk signal')}</span>` : ''}</summary>
<p class="mcp-text" tabindex="0">${visibleText(text, { lines: true })}</p>
${signals.length > 0 ? signalList(signals, 'parameter') : ''}
</details>`;
}

function checksSection(checks: readonly McpCheck[]): Html {
  return html`<section id="checks" class="mcp-section" aria-labelledby="checks-title">
<h2 id="checks-title">Checks</h2>
<ol class="mcp-checks">${checks.map(
    (c) => html`<li class="mcp-check" data-check="${c.id}" data-status="${c.status}">
${statusBadge(c.status, c.status === 'PASS' ? 'pass' : c.status === 'WARN' ? 'warn' : c.status === 'FAIL' ? 'fail' : 'skip')}
<div><strong>${c.label}</strong> <code class="mcp-check-id">${c.id}</code><p>${visibleText(c.detail)}</p></div>
</li>`,
  )}</ol>
</section>`;
}

function authSection(result: McpInspection): Html {
  const auth = result.auth;
  if (!auth) return html``;
  const metadata = auth.resourceMetadata;
  const servers =
    metadata && Array.isArray(metadata['authorization_servers']) ? metadata['authorization_servers'].filter((s): s is string => typeof s === 'string') : [];
  return html`<section id="auth" class="mcp-section" aria-labelledby="auth-title">
<h2 id="auth-title">Authentication required</h2>
<p>The server answered HTTP ${auth.status}. svc never authenticates, so nothing was listed; an authenticated client may see tools this page cannot.</p>
<dl class="fields mcp-fields">
${field('challenge', auth.wwwAuthenticate ? html`<code class="uri">${visibleText(auth.wwwAuthenticate)}</code>` : html`<span class="tone-muted">no WWW-Authenticate header</span>`)}
${auth.scope ? field('scope', html`<code>${visibleText(auth.scope)}</code>`) : ''}
${field('resource metadata', auth.resourceMetadataUrl ? html`<code class="uri">${visibleText(auth.resourceMetadataUrl)}</code>` : html`<span class="tone-muted">no URL</span>`)}
${metadata && typeof metadata['resource'] === 'string' ? field('resource', html`<code class="uri">${visibleText(metadata['resource'])}</code>`) : ''}
${
  servers.length > 0
    ? field(
        'authorization servers',
        join(
          servers.map((s) => html`<code class="uri">${visibleText(s)}</code>`),
          ', ',
        ),
      )
    : ''
}
${auth.resourceMetadataError ? field('metadata', html`<span class="tone-warn">not available: ${visibleText(auth.resourceMetadataError)}</span>`) : ''}
</dl>
${metadata ? html`<details><summary>The protected-resource metadata (RFC 9728) as retrieved</summary><pre class="document" tabindex="0" aria-label="Protected-resource metadata">${visibleText(JSON.stringify(metadata, null, 2), { lines: true })}</pre></details>` : ''}
</section>`;
}

/* ------------------------------------------------------------------ items */

type Item = McpTool | McpPrompt | McpResource | McpResourceTemplate;

function keyOf(kind: 'tools' | ItemKind, item: Item): string {
  if (kind === 'resources') return (item as McpResource).uri;
  if (kind === 'resourceTemplates') return (item as McpResourceTemplate).uriTemplate;
  return (item as McpTool | McpPrompt).name;
}

/** Items with risk signals first (the server's order kept within each group). */
function signalsFirst<T extends Item>(items: readonly T[]): T[] {
  return [...items.filter((i) => i.riskSignals.length > 0), ...items.filter((i) => i.riskSignals.length === 0)];
}

function declared(result: McpInspection, capability: string): boolean {
  const value = result.capabilities?.[capability];
  return typeof value === 'object' && value !== null;
}

function sectionIntro(result: McpInspection, kind: 'tools' | ItemKind, items: readonly Item[]): Html {
  const k = KIND_TEXT[kind];
  if (items.length > 0) {
    const flagged = items.filter((i) => i.riskSignals.length > 0).length;
    return html`<p class="note">${flagged > 0 ? `${flagged} of ${items.length} with risk signals, listed first.` : 'None with risk signals.'}</p>`;
  }
  if (result.status === 'AUTH_REQUIRED') return html`<p class="empty">Nothing listed: the server requires authentication.</p>`;
  if (kind !== 'tools' && !declared(result, k.capability))
    return html`<p class="empty">The server does not declare the <code>${k.capability}</code> capability, so svc did not ask for ${k.nouns}.</p>`;
  return html`<p class="empty">The server lists no ${k.nouns}.</p>`;
}

function removedLine(result: McpInspection, kind: 'tools' | ItemKind): Html {
  const removed = kind === 'tools' ? result.drift.removed : result.drift[kind].removed;
  if (removed.length === 0) return html``;
  const since = result.drift.baseline ? 'from the approved baseline' : `since ${result.drift.previousObservedAt ?? 'the last inspection'}`;
  return html`<p class="tone-warn mcp-removed">Removed ${since}: ${join(
    removed.map((r) => keyCode(kind, r)),
    ', ',
  )}</p>`;
}

function toolsSection(result: McpInspection): Html {
  const tools = result.tools;
  const counts = result.classCounts;
  const line = (record: Record<string, number>) =>
    Object.entries(record)
      .filter(([, n]) => n > 0)
      .map(([cls, n]) => `${n} ${cls}`)
      .join(', ') || 'none';
  return html`<section id="tools" class="mcp-section" aria-labelledby="tools-title">
<h2 id="tools-title">Tools <span class="count">(${tools.length}${result.complete ? '' : ', incomplete'})</span></h2>
${
  tools.length > 0
    ? html`<dl class="fields mcp-fields mcp-class-counts">
${field('declared by the server', line(counts.declared))}
${field('svc’s heuristic', line(counts.heuristic))}
</dl>`
    : ''
}
${sectionIntro(result, 'tools', tools)}
${removedLine(result, 'tools')}
${signalsFirst(tools).map(toolCard)}
</section>`;
}

function itemHeading(kind: 'tools' | ItemKind, item: Item, key: string): Html {
  const name = kind === 'resources' || kind === 'resourceTemplates' ? (item as McpResource | McpResourceTemplate).name : null;
  return html`<h3>${keyCode(kind, key, 'mcp-name')}${item.title ? html` <span class="mcp-title">${visibleText(item.title)}</span>` : name ? html` <span class="mcp-title">${visibleText(name)}</span>` : ''}${item.riskSignals.length > 0 ? html` <span class="mcp-flag">${plural(item.riskSignals.length, 'risk signal')}</span>` : ''} ${driftBadge(item.drift)}</h3>`;
}

function cardAttributes(kind: 'tools' | ItemKind, item: Item, key: string): Html {
  return html`id="${anchorId(KIND_TEXT[kind].anchor, key)}" class="mcp-item${item.riskSignals.length > 0 ? ' mcp-flagged' : ''}" data-kind="${KIND_TEXT[kind].anchor}" data-key="${key}" data-drift="${item.drift}" data-signals="${item.riskSignals.length}"`;
}

function description(value: string | null): Html {
  return value ? html`<p class="mcp-text mcp-description">${visibleText(value, { lines: true })}</p>` : html``;
}

function changedFields(item: Item): Html {
  return item.drift === 'CHANGED' && item.changedFields?.length
    ? field('changed', html`<span class="tone-warn">${visibleText(item.changedFields.join(', '))}</span>`)
    : html``;
}

function toolCard(tool: McpTool): Html {
  const hints = Object.entries(tool.declaredHints).map(
    ([hint, h]) => html`<li><code>${hint}</code> ${String(h.value)}${h.source === 'default' ? html` <span class="tone-muted">(MCP default)</span>` : ''}</li>`,
  );
  const differs = tool.heuristicClass !== tool.declaredClass;
  return html`<article ${cardAttributes('tools', tool, tool.name)}>
${itemHeading('tools', tool, tool.name)}
${description(tool.description)}
<dl class="fields mcp-fields">
${field('declared class', html`<strong class="mcp-class" data-declared-class="${tool.declaredClass}">${tool.declaredClass}</strong> <span class="tone-muted">— the server’s claim${tool.annotations === null ? ' (no annotations: the MCP defaults apply)' : ''}</span><ul class="mcp-hints">${hints}</ul>`)}
${field('heuristic class', html`<strong class="mcp-class" data-heuristic-class="${tool.heuristicClass}">${tool.heuristicClass}</strong> <span class="tone-muted">— ${tool.heuristicClass === 'unknown' ? 'svc could not tell from the words and schema' : `svc’s estimate from the words and schema${differs ? '; not the declared class' : ''}`}</span>`)}
${field('parameters', tool.parameters.length === 0 ? html`<span class="tone-muted">none</span>` : html`<ul class="mcp-params">${tool.parameters.map((p) => html`<li><code>${visibleText(p.name)}</code>${p.type ? html` <span class="tone-muted">${visibleText(p.type)}</span>` : ''}${p.required ? ' (required)' : ''}${p.description ? html` — ${visibleText(p.description)}` : ''}</li>`)}</ul>`)}
${field('fingerprints', html`<span class="mcp-fingerprints">${fingerprint('definition', tool.definitionSha256)} ${fingerprint('schema', tool.schemaSha256)}</span>`)}
${changedFields(tool)}
</dl>
${tool.riskSignals.length > 0 ? signalList(tool.riskSignals, 'parameter') : ''}
</article>`;
}

function itemSection(result: McpInspection, kind: ItemKind): Html {
  const items: readonly Item[] = result[kind];
  const k = KIND_TEXT[kind];
  const id = SECTION_IDS[kind];
  return html`<section id="${id}" class="mcp-section" aria-labelledby="${id}-title">
<h2 id="${id}-title">${k.title} <span class="count">(${items.length})</span></h2>
${sectionIntro(result, kind, items)}
${removedLine(result, kind)}
${signalsFirst(items).map((item) => itemCard(kind, item))}
</section>`;
}

function itemCard(kind: ItemKind, item: Item): Html {
  const key = keyOf(kind, item);
  let facts: Html;
  if (kind === 'prompts') {
    const prompt = item as McpPrompt;
    facts = field(
      'arguments',
      prompt.arguments.length === 0
        ? html`<span class="tone-muted">none</span>`
        : html`<ul class="mcp-params">${prompt.arguments.map((a) => html`<li><code>${visibleText(a.name)}</code>${a.required ? ' (required)' : ''}${a.description ? html` — ${visibleText(a.description)}` : ''}</li>`)}</ul>`,
    );
  } else {
    const resource = item as McpResource | McpResourceTemplate;
    facts = html`${resource.title && resource.name ? field('name', html`<code>${visibleText(resource.name)}</code>`) : ''}${field('media type', resource.mimeType ? html`<code>${visibleText(resource.mimeType)}</code>` : html`<span class="tone-muted">not given</span>`)}`;
  }
  return html`<article ${cardAttributes(kind, item, key)}>
${itemHeading(kind, item, key)}
${description(item.description)}
<dl class="fields mcp-fields">
${facts}
${field('fingerprint', fingerprint('definition', item.definitionSha256))}
${changedFields(item)}
</dl>
${item.riskSignals.length > 0 ? signalList(item.riskSignals, kind === 'prompts' ? 'argument' : 'parameter') : ''}
</article>`;
}

function signalList(signals: readonly RiskSignal[], parameterWord: string): Html {
  return html`<ul class="mcp-signals" aria-label="Risk signals (svc’s estimate)">${signals.map(
    (s) => html`<li class="mcp-signal" data-signal="${s.id}" data-location="${s.location}">
<code class="mcp-signal-id">${s.id}</code> in the ${s.location === 'parameter' ? html`${parameterWord} <code>${visibleText(s.parameter ?? '')}</code>` : s.location === 'uri' ? 'URI' : s.location}: ${visibleText(s.detail)}
${s.excerpt ? html`<q class="mcp-excerpt">${visibleText(s.excerpt)}</q>` : ''}
</li>`,
  )}</ul>`;
}

/* ------------------------------------------------------------------ drift, transcript */

function driftSection(result: McpInspection): Html {
  const drift = result.drift;
  const rows: Array<{ kind: 'tools' | ItemKind; lists: KindDrift }> = [
    { kind: 'tools', lists: { added: drift.added, removed: drift.removed, changed: drift.changed } },
    ...ITEM_KINDS.map((kind) => ({ kind, lists: drift[kind] })),
  ];
  const compared = drift.previousInventoryHash !== null || drift.previousObservedAt !== null;
  // Nothing to compare with because nothing is stored: the drift check says why.
  const check = result.checks.find((c) => c.id === 'drift');
  const baseline = drift.baseline;
  // Against an approved baseline (--baseline), the drift check's own sentence says what differs.
  const explained =
    (drift.status === 'FIRST_OBSERVATION' && check?.status === 'SKIP') || (baseline && check) ? check!.detail : INVENTORY_DRIFT_TEXT[drift.status];
  const keys = (kind: 'tools' | ItemKind, word: string, list: readonly string[]) =>
    html`<li${list.length > 0 ? html` class="tone-warn"` : ''}><span class="mcp-drift-word">${word}:</span> ${
      list.length === 0
        ? html`<span class="tone-muted">none</span>`
        : join(
            list.map((k) => keyCode(kind, k)),
            ', ',
          )
    }</li>`;
  return html`<section id="drift" class="mcp-section" aria-labelledby="drift-title" data-drift="${drift.status}">
<h2 id="drift-title">${baseline ? 'Drift against the approved baseline' : 'Drift since the last inspection'}</h2>
<p>${statusBadge(drift.status, drift.status === 'UNCHANGED' ? 'pass' : drift.status === 'CHANGED' ? (baseline ? 'fail' : 'warn') : 'skip')} ${visibleText(explained)}</p>
${drift.reason ? html`<p class="tone-warn mcp-drift-reason">${visibleText(drift.reason)}</p>` : ''}
${
  compared
    ? html`<dl class="fields mcp-fields">
${
  baseline
    ? field('baseline', html`<code>${visibleText(baseline.file)}</code> (${visibleText(baseline.name)})`)
    : field(
        'last inspection',
        drift.previousObservedAt
          ? html`<time datetime="${drift.previousObservedAt}">${drift.previousObservedAt}</time>`
          : html`<span class="tone-muted">unknown</span>`,
      )
}
${field('its inventory hash', drift.previousInventoryHash ? html`<code class="hash hash-full">${drift.previousInventoryHash}</code>` : html`<span class="tone-muted">none</span>`)}
</dl>
<h3 class="mcp-drift-kinds">By kind <span class="count">(tools and prompts by name, resources by URI, templates by URI template)</span></h3>
<dl class="fields mcp-fields">${rows.map(({ kind, lists }) => html`<div class="field" data-kind="${kind}"><dt>${KIND_TEXT[kind].title}</dt><dd><ul class="mcp-kind-drift">${keys(kind, 'added', lists.added)}${keys(kind, 'removed', lists.removed)}${keys(kind, 'changed', lists.changed)}</ul></dd></div>`)}</dl>`
    : ''
}
</section>`;
}

function transcriptSection(transcript: readonly TranscriptEntry[]): Html {
  return html`<section id="transcript" class="mcp-section" aria-labelledby="transcript-title">
<h2 id="transcript-title">Transcript</h2>
<details class="mcp-transcript">
<summary>The ${plural(transcript.length, 'HTTP exchange')} of this inspection</summary>
<ol class="mcp-exchanges">${transcript.map(
    (t) => html`<li data-method="${t.method}"><div class="mcp-exchange">
<span class="mcp-exchange-request"><code>${t.httpMethod}</code>${t.method !== t.httpMethod ? html` <code>${visibleText(t.method)}</code>` : ''}${t.protocolVersion ? html` <span class="mcp-nowrap tone-muted">${visibleText(t.protocolVersion)}</span>` : ''}</span>
<span class="mcp-exchange-answer">${t.status === null ? html`<span class="tone-bad">no answer</span>` : html`<span class="mcp-nowrap">HTTP ${t.status}</span>`}${t.contentType ? html` <code>${visibleText(t.contentType)}</code>` : ''} <span class="mcp-nowrap tone-muted">${plural(t.bytes, 'byte')},</span> <span class="mcp-nowrap tone-muted">${Math.round(t.durationMs)} ms</span></span>
<span class="mcp-exchange-outcome">${visibleText(t.outcome)}</span>
</div></li>`,
  )}</ol>
</details>
</section>`;
}
