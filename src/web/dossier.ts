/**
 * The web dossier of one resolved identifier (a permalink, `/d/<did>`): four levels, each with an
 * anchor — 1 verdict and dimensions, 2 evidence graph, 3 execution telemetry, 4 substrate
 * inspector and time machine. Server-rendered from the same result objects the API answers
 * with, so levels 1, 2 and 4 need no JavaScript; the script only adds the live run of level 3.
 *
 * Where the terminal dossier says the same thing, the words come from the view model both draw
 * (src/present): groups, key and evidence fields, the did:webvh timeline.
 */
import { methodUnavailable } from '../core/claims/challenge.js';
import { CLAIM_METHODS, type ClaimMethod } from '../core/claims/types.js';
import { hintSentence, PROBLEM_GUIDE, PROBLEMS, type ProblemError } from '../core/problems.js';
import { CLASS_LABELS, STATE_CLASSES, stateClass, type Dimension, type EnrichedResolution, type StateClass, type TraceStage } from '../core/resolve/types.js';
import type { ObservationHistory, SemanticDiff } from '../core/history/types.js';
import { buildDossierView, classMarker, durationText, WHOIS_TITLE, type DossierView } from '../present/dossier.js';
import type { HistoryView, RewriteView } from '../present/history.js';
import { displayKeyId, type Field } from '../present/text.js';
import { edgeTable, graphSvg } from './graph.js';
import { anchorId, html, join, preformatted, type Html } from './html.js';
import { renderPage, type PageMode } from './page.js';
import { diffView, timelineView } from './timemachine.js';
import { BUNDLE_MEDIA_TYPE } from '../core/bundle/format.js';

/** What level 4's time machine shows: the observations of the DID and one diff, or why not. */
export interface TimeMachineInput {
  history: ObservationHistory | null;
  diff: SemanticDiff | null;
  /** The pair asked for (`?from=…&to=…`), or null for the latest two. */
  selected: { from: string; to: string } | null;
  /** Why there is no history to show (no store, not recorded …), when `history` is null. */
  unavailable?: string;
  /** Why the diff asked for could not be made (an unknown hash …), or null. */
  diffProblem?: string | null;
}

export interface DossierInput {
  result: EnrichedResolution;
  timeMachine: TimeMachineInput;
  mode: PageMode;
}

/** The permalink of a DID's dossier: the DID raw (DID syntax needs no escaping in a path). */
export function dossierPath(did: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
  const search = params.toString();
  return `/d/${did}${search ? `?${search}` : ''}`;
}

const OUTCOME_WORDS = {
  RESOLVED: 'Resolved',
  RESOLVED_WITH_WARNINGS: 'Resolved with warnings',
  DEACTIVATED: 'Deactivated',
} as const;

const CLASS_EXPLAINED: Readonly<Record<StateClass, string>> = {
  confirmed: 'Shown by the evidence: established, or true by construction.',
  attention: 'A check failed, or could not finish.',
  notConfirmed: 'Nothing shows it, or it does not apply to this method.',
};

export function dossierPage(input: DossierInput): string {
  const { result } = input;
  return renderPage({
    title: `${result.did} — svc dossier`,
    mode: input.mode,
    main: dossierMain(input),
    script: input.mode === 'served',
    query: result.did,
  });
}

export function dossierMain(input: DossierInput): Html {
  const { before, after } = resultParts(input.result, input.mode);
  return html`${before}
${timeMachine(input)}
${after}`;
}

/**
 * Everything of a dossier but the time machine depends on the result alone, so it is built once
 * per result object: a cached result is the same frozen object on every request.
 */
const keptParts: Readonly<Record<PageMode, WeakMap<EnrichedResolution, { before: Html; after: Html }>>> = { served: new WeakMap(), offline: new WeakMap() };

function resultParts(result: EnrichedResolution, mode: PageMode): { before: Html; after: Html } {
  let parts = keptParts[mode].get(result);
  if (parts === undefined) {
    const view = buildDossierView(result);
    parts = {
      before: html`<article class="dossier" data-did="${result.did}" data-outcome="${result.verdict.outcome}">
${identityHeader(result, view, mode)}
<nav class="levels" aria-label="Levels of the dossier"><ol>
<li><a href="#level-1">1 Verdict and dimensions</a></li>
<li><a href="#level-2">2 Evidence graph</a></li>
${mode === 'served' ? html`<li><a href="#level-3">3 Execution telemetry</a></li>` : ''}
<li><a href="#level-4">4 Inspector and time machine</a></li>
</ol></nav>
${levelOne(result, view)}
${levelTwo(result)}
${levelThree(result, mode)}
${levelFourInspector(result, view)}`,
      after: html`</section>
${claimOffer(result.did, mode)}
</article>`,
    };
    keptParts[mode].set(result, parts);
  }
  return parts;
}

function identityHeader(result: EnrichedResolution, view: DossierView, mode: PageMode): Html {
  const json = `/v1/resolve/${result.did}`;
  return html`<header class="dossier-header">
<p class="eyebrow">Evidence dossier · did:${result.method}</p>
<h1 class="did">${result.did}</h1>
<p class="observed">Observed <time datetime="${result.observedAt}">${result.observedAt}</time>${result.cached ? ' (from the cache)' : ''}${view.version ? html` · ${view.version}` : ''} · resolved in ${result.didResolutionMetadata.durationMs} ms</p>
${mode === 'served' ? html`<p class="formats">The same result as <a href="${json}" type="application/json">JSON</a>, or the <a href="${`${json}?bundle=true`}" type="${BUNDLE_MEDIA_TYPE}" download>evidence bundle</a> of a fresh resolution: the bytes fetched and their TLS chains, to re-check offline with <code>svc verify-bundle</code>.</p>` : html`<p class="formats">An offline copy made by svc resolve --html; <code>svc resolve --json</code> gives the same result as JSON.</p>`}
</header>`;
}

/* ------------------------------------------------------------------ level 1 */

function levelOne(result: EnrichedResolution, view: DossierView): Html {
  const { verdict } = result;
  const classes = Object.keys(STATE_CLASSES) as StateClass[];
  return html`<section id="level-1" class="level" aria-labelledby="level-1-title">
<h2 id="level-1-title"><span class="level-number">1</span> Verdict and dimensions</h2>
<div class="verdict tone-${view.verdict.tone}" data-outcome="${verdict.outcome}">
<p class="outcome"><span class="badge">${OUTCOME_WORDS[verdict.outcome]}</span> <code>${verdict.outcome}</code></p>
<p class="headline">${verdict.headline}</p>
${verdict.statements.length > 0 ? html`<ul class="statements">${verdict.statements.map((s) => html`<li>${s}</li>`)}</ul>` : ''}
</div>
<p class="no-score">Seven dimensions, each judged on its own evidence. There is no total and no trust score.</p>
<div class="classes">
${classes.map((cls) =>
  classGroup(
    cls,
    result.dimensions.filter((d) => stateClass(d.state) === cls),
  ),
)}
</div>
${view.warnings.length > 0 ? html`<section class="warnings" aria-labelledby="warnings-title"><h3 id="warnings-title">Warnings</h3><ul>${view.warnings.map((w) => html`<li>${w}</li>`)}</ul></section>` : ''}
<section class="limitations" aria-labelledby="limitations-title">
<h3 id="limitations-title">What this result does not show</h3>
<ul>${result.limitations.map((l) => html`<li>${l}</li>`)}</ul>
</section>
</section>`;
}

function classGroup(cls: StateClass, dimensions: Dimension[]): Html {
  const id = `class-${cls}`;
  return html`<section class="class-group class-${cls}" data-class="${cls}" data-count="${dimensions.length}" aria-labelledby="${id}">
<h3 id="${id}"><span class="marker" aria-hidden="true">${classMarker(cls)}</span> ${CLASS_LABELS[cls]} <span class="count">(${dimensions.length})</span></h3>
<p class="class-explained">${CLASS_EXPLAINED[cls]}</p>
${dimensions.length === 0 ? html`<p class="empty">None.</p>` : dimensions.map(dimensionCard)}
</section>`;
}

function dimensionCard(d: Dimension): Html {
  return html`<article class="dimension dim-${d.state.toLowerCase()}" id="dimension-${d.id}" data-dimension="${d.id}" data-state="${d.state}">
<h4>${d.label} <span class="state">${d.state}</span></h4>
<p class="statement">${d.statement}</p>
<dl class="proof-scope">
<dt>Proves</dt><dd class="proves">${d.proves}</dd>
<dt>Does not prove</dt><dd class="does-not-prove">${d.doesNotProve}</dd>
</dl>
</article>`;
}

/* ------------------------------------------------------------------ level 2 */

function levelTwo(result: EnrichedResolution): Html {
  return html`<section id="level-2" class="level" aria-labelledby="level-2-title">
<h2 id="level-2-title"><span class="level-number">2</span> Evidence graph</h2>
<p>Who asserts what about whom, and what svc checked. Line style and label both give an edge’s state: <strong>VERIFIED</strong> a check passed, <strong>OBSERVED</strong> retrieved, <strong>DECLARED</strong> asserted by the document, <strong>FAILED</strong> a check failed. Each node links to its evidence below.</p>
<figure class="graph">
${graphSvg(result.graph, result.did)}
</figure>
<details class="edge-table-wrap" open>
<summary>The same edges as a table</summary>
${edgeTable(result.graph, result.did)}
</details>
</section>`;
}

/* ------------------------------------------------------------------ level 3 */

function levelThree(result: EnrichedResolution, mode: PageMode): Html {
  const trace = traceRows(result.trace);
  if (mode === 'offline') {
    return html`<section id="level-3" class="level" aria-labelledby="level-3-title">
<h2 id="level-3-title">Stages of this resolution</h2>
${trace}
</section>`;
  }
  return html`<section id="level-3" class="level" aria-labelledby="level-3-title" data-stream-url="${`/v1/stream/${result.did}?noCache=true`}">
<h2 id="level-3-title"><span class="level-number">3</span> Execution telemetry</h2>
<p>The stages of the resolution shown above, on one time axis. “Run again live” resolves the identifier afresh and draws each stage as it completes.</p>
<button id="run-live" type="button" hidden>Run again live</button>
<p id="live-status" role="status" aria-live="polite"></p>
${trace}
<div id="live-error" role="alert" hidden></div>
</section>`;
}

/** The waterfall of a trace: one row per stage, its bar drawn in SVG (no style attributes under the page's policy). */
export function traceRows(trace: readonly TraceStage[]): Html {
  const end = Math.max(1, ...trace.map((s) => s.startedUs + s.durationUs));
  return html`<ol id="live-stages" class="waterfall" data-count="${trace.length}">${trace.map((s) => {
    const x = (s.startedUs / end) * 1000;
    const width = Math.max(2, (s.durationUs / end) * 1000);
    return html`<li class="stage" data-stage="${s.stage}" data-status="${s.status}">
<span class="stage-status status-${s.status.toLowerCase()}">${s.status}</span>
<code class="stage-name">${s.stage}</code>
<span class="stage-label">${s.label}${s.detail ? html`: <span class="stage-detail">${s.detail}</span>` : ''}</span>
<span class="stage-time">+${durationText(s.startedUs)}, ${durationText(s.durationUs)}</span>
<svg class="bar-track" viewBox="0 0 1000 10" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="bar-fill status-${s.status.toLowerCase()}" x="${x.toFixed(1)}" y="0" width="${Math.min(width, 1000 - x).toFixed(1)}" height="10"/></svg>
</li>`;
  })}</ol>`;
}

/* ------------------------------------------------------------------ level 4 */

/** Level 4 up to its time machine: the section is left open (resultParts closes it). */
function levelFourInspector(result: EnrichedResolution, view: DossierView): Html {
  const doc = result.evidence.document;
  return html`<section id="level-4" class="level" aria-labelledby="level-4-title">
<h2 id="level-4-title"><span class="level-number">4</span> Substrate inspector and time machine</h2>
<section id="evidence-document" class="evidence" aria-labelledby="evidence-document-title">
<h3 id="evidence-document-title">DID document</h3>
${fields([
  { label: 'id matches the DID', value: doc.idMatches ? 'yes' : 'no', tone: doc.idMatches ? 'good' : 'bad' },
  { label: 'sha256 (RFC 8785)', value: doc.jcsSha256, tone: 'plain' },
  { label: 'hash profile', value: doc.hashProfile, tone: 'plain' },
])}
${doc.contexts.length > 0 ? html`<h4>Contexts</h4><ul class="contexts">${doc.contexts.map((c) => html`<li><code>${c.uri}</code> <span class="${c.known ? 'tone-good' : 'tone-warn'}">${c.known ? 'known' : 'not known to svc'}</span></li>`)}</ul>` : ''}
${doc.warnings.length > 0 ? html`<h4>Warnings</h4><ul>${doc.warnings.map((w) => html`<li>${w}</li>`)}</ul>` : ''}
<details class="raw-document" open><summary>The document as retrieved</summary>
<pre class="document" tabindex="0" aria-label="The DID document">${prettyJson(result.didDocument)}</pre>
</details>
</section>
${view.evidence.map(
  (
    section,
  ) => html`<section id="${EVIDENCE_IDS[section.title] ?? anchorId('evidence', section.title)}" class="evidence" aria-labelledby="${EVIDENCE_IDS[section.title] ?? anchorId('evidence', section.title)}-title">
<h3 id="${EVIDENCE_IDS[section.title] ?? anchorId('evidence', section.title)}-title">${section.title}</h3>
${fields(section.fields)}
${section.title === 'Origin binding' ? linkageCredentials(result) : ''}
</section>`,
)}
${keysSection(result, view)}
${servicesSection(result, view)}
${view.history ? webvhHistory(view.history) : ''}
<section id="evidence-metadata" class="evidence" aria-labelledby="evidence-metadata-title">
<h3 id="evidence-metadata-title">Metadata</h3>
<details><summary>Resolution and document metadata</summary>
<pre class="document" tabindex="0" aria-label="Resolution metadata">${prettyJson({ didResolutionMetadata: result.didResolutionMetadata, didDocumentMetadata: result.didDocumentMetadata, resolver: result.resolver })}</pre>
</details>
</section>`;
}

/** JSON with a 2-space indent for a `<pre>`: one line of the page per line of the text. */
function prettyJson(value: unknown): Html {
  return preformatted(JSON.stringify(value, null, 2) ?? '');
}

const EVIDENCE_IDS: Readonly<Record<string, string>> = {
  Source: 'evidence-source',
  Transport: 'evidence-tls',
  'Origin binding': 'evidence-domain-binding',
  [WHOIS_TITLE]: 'evidence-whois',
};

function fields(list: readonly Field[]): Html {
  return html`<dl class="fields">${list.map((f) => html`<div class="field"><dt>${f.label}</dt><dd class="tone-${f.tone}">${f.value}</dd></div>`)}</dl>`;
}

function linkageCredentials(result: EnrichedResolution): Html {
  const binding = result.evidence.domainBinding;
  if (!binding || binding.credentials.length === 0) return html``;
  return html`<h4>Domain linkage credentials</h4>
<ol class="credentials">${binding.credentials.map(
    (c) => html`<li class="credential" data-status="${c.status}">
<p><strong>#${c.index}</strong> ${c.format}${c.proof ? html` · ${c.proof}` : ''} · <span class="status">${c.status}</span></p>
<p class="reason">${c.reason}</p>
${fields([
  { label: 'issuer', value: c.issuer ?? '(none)', tone: 'plain' },
  { label: 'subject', value: c.subject ?? '(none)', tone: 'plain' },
  { label: 'origin', value: c.origin ?? '(none)', tone: 'plain' },
  { label: 'key', value: c.verificationMethod ?? '(none)', tone: 'plain' },
  { label: 'valid', value: `${c.validFrom ?? '?'} to ${c.validUntil ?? '?'}`, tone: 'plain' },
])}
</li>`,
  )}</ol>`;
}

function keysSection(result: EnrichedResolution, view: DossierView): Html {
  return html`<section id="evidence-keys" class="evidence" aria-labelledby="evidence-keys-title">
<h3 id="evidence-keys-title">Keys <span class="count">(${view.keys.length})</span></h3>
${view.keys.length === 0 ? html`<p class="empty">The document publishes no verification methods.</p>` : ''}
${view.keys.map((key, i) => {
  const evidence = result.evidence.keys[i]!;
  return html`<article class="key" id="${anchorId('key', key.id)}" data-key-id="${key.id}" data-status="${key.status}">
<h4><code>${key.displayId}</code> <span class="status">${key.status}</span></h4>
${fields([{ label: 'type', value: evidence.type ?? '(none)', tone: 'plain' }, ...key.fields, ...(evidence.multicodec ? [{ label: 'multicodec', value: JSON.stringify(evidence.multicodec), tone: 'plain' as const }] : [])])}
</article>`;
})}
</section>`;
}

function servicesSection(result: EnrichedResolution, view: DossierView): Html {
  if (view.services.length === 0) return html``;
  return html`<section id="evidence-services" class="evidence" aria-labelledby="evidence-services-title">
<h3 id="evidence-services-title">Services <span class="count">(${view.services.length})</span></h3>
<p class="note">Service endpoints are what the document declares; svc does not contact them.</p>
${view.services.map(
  (s) => html`<article class="service" id="${anchorId('service', s.id)}" data-service-id="${s.id}">
<h4><code>${displayKeyId(s.id, result.did)}</code></h4>
${fields(s.fields)}
</article>`,
)}
</section>`;
}

function webvhHistory(history: HistoryView): Html {
  return html`<section id="evidence-history" class="evidence" aria-labelledby="evidence-history-title">
<h3 id="evidence-history-title">did:webvh log</h3>
${fields(history.summary)}
<ol class="webvh-log">${history.timeline.map((row) =>
    row.kind === 'gap'
      ? html`<li class="gap">${row.text}</li>`
      : html`<li class="entry tone-${row.markerTone}${row.served ? ' served' : ''}" data-version-number="${row.versionNumber}"><span class="marker">${row.marker}</span> <span class="when">${row.when}</span> ${join(
          row.notes.map((n) => html`<span class="note tone-${n.tone}">${n.text}</span>`),
          ' · ',
        )}</li>`,
  )}</ol>
${history.failure ? html`<p class="tone-${history.failure.tone}">${history.failure.text}</p>` : ''}
${fields(history.witness)}
${history.reused ? html`<p class="note">${history.reused.text}</p>` : ''}
${history.kept ? html`<p class="kept-log tone-${history.kept.tone}">${history.kept.text}</p>` : ''}
${history.rewrite ? rewriteTable(history.rewrite) : ''}
</section>`;
}

/** A rewritten log: the kept entry beside the served one. */
function rewriteTable(rewrite: RewriteView): Html {
  return html`<div class="rewrite" id="log-rewrite">
<p class="tone-${rewrite.headline.tone}">${rewrite.headline.text}</p>
<table class="rewrite-sides"><thead><tr><th scope="col"></th><th scope="col">${rewrite.columns[0]}</th><th scope="col">${rewrite.columns[1]}</th></tr></thead>
<tbody>${rewrite.rows.map((r) => html`<tr><th scope="row">${r.label}</th><td class="kept"><code>${r.kept}</code></td><td class="served"><code>${r.served}</code></td></tr>`)}</tbody></table>
</div>`;
}

function timeMachine(input: DossierInput): Html {
  const { result, timeMachine: tm, mode } = input;
  const pageHref = (query: { from?: string; to?: string }) => dossierPath(result.did, query);
  return html`<section id="time-machine" class="evidence" aria-labelledby="time-machine-title">
<h3 id="time-machine-title">Time machine: observations over time</h3>
${
  tm.history === null
    ? html`<p class="empty">${tm.unavailable ?? 'No observations of this identifier are available.'}</p>`
    : timelineView(tm.history, { selected: tm.selected, pageHref: mode === 'served' ? pageHref : null })
}
${typeof tm.diffProblem === 'string' ? html`<p class="tone-warn diff-problem">${tm.diffProblem}</p>` : ''}
${tm.diff ? diffView(tm.diff, result.did) : ''}
</section>`;
}

/* ------------------------------------------------------------------ claim offer */

const CLAIM_METHOD_TEXT: Readonly<Record<ClaimMethod, { label: string; phrase: string; describe: Html }>> = {
  signature: {
    label: 'Sign a challenge with a key',
    phrase: 'a signature',
    describe: html`<strong>Sign a challenge</strong> with a key the document authorises under <code>authentication</code>. Proves: someone holding that key acted. Does not prove: who they are, or that the key is held by no one else.`,
  },
  'well-known': {
    label: 'Host the token on the web',
    phrase: 'a file on the web server',
    describe: html`<strong>Host the challenge token</strong> at <code>/.well-known/svc-claim.txt</code> on the domain. Proves: someone can publish on that web origin. Does not prove: control of the DID’s keys.`,
  },
  dns: {
    label: 'Publish the token in DNS',
    phrase: 'a DNS record',
    describe: html`<strong>Publish the challenge in DNS</strong> as a TXT record named <code>_svc-claim</code>. Proves: someone controls the domain’s DNS. Does not prove: control of the web server or of the keys.`,
  },
};

const WAYS = ['', 'One free way', 'Two free ways', 'Three free ways'];

/** Why a method cannot prove control of this DID (it has no host, the record name would be too long), or null. */
function claimMethodUnavailable(did: string, method: ClaimMethod): string | null {
  try {
    return methodUnavailable(did, method);
  } catch {
    // A DID that resolved but whose host the claim rules refuse: the service would refuse it too.
    return 'its host cannot be derived from the identifier';
  }
}

/**
 * The offer to prove control. Served pages carry the flow (the current claims, a form, the
 * challenge, Verify), hidden until claim.js enables it, so without JavaScript no dead control
 * shows; every page says how to claim with the CLI and the API. Only the methods that apply
 * to this DID are offered (well-known and dns need a host).
 */
export function claimOffer(did: string, mode: PageMode): Html {
  const usable = CLAIM_METHODS.filter((m) => claimMethodUnavailable(did, m) === null);
  // Methods that do not apply, grouped by why (a did:key's two publishing methods share one reason).
  const missing = new Map<string, ClaimMethod[]>();
  for (const m of CLAIM_METHODS) {
    const reason = claimMethodUnavailable(did, m);
    if (reason !== null) missing.set(reason, [...(missing.get(reason) ?? []), m]);
  }
  const served = mode === 'served';
  const claimsUrl = `/v1/claims/${encodeURIComponent(did)}`;
  return html`<aside id="claim" class="claim-offer" aria-labelledby="claim-title"${served ? html` data-did="${did}" data-claims-url="${claimsUrl}" data-challenges-url="/v1/claims/challenges" data-verify-url="/v1/claims/verify"` : ''}>
<h2 id="claim-title">Control this identifier? ${WAYS[usable.length]!} to prove it</h2>
<ol class="claim-methods">${usable.map((m) => html`<li data-method="${m}">${CLAIM_METHOD_TEXT[m].describe}</li>`)}</ol>
${[...missing].map(([reason, methods]) => html`<p class="claim-unavailable note" data-methods="${methods.join(' ')}">Not for this identifier: ${methods.map((m) => CLAIM_METHOD_TEXT[m].phrase).join(' or ')}, because ${reason}.</p>`)}
<p class="claim-scope">A claim shows that someone able to sign with the key, or to publish on the host or in its DNS zone, acted on a given day: never legal identity, never ongoing control. Listing the identifier in the directory is a separate choice, made with the proof.</p>
<p class="claim-availability">${served ? 'Claims are available on this service.' : 'Claims are made on a running svc service (svc serve), not in this offline copy.'}</p>
${served ? claimFlow(usable) : ''}
${claimCommands(did, usable, mode, claimsUrl)}
</aside>`;
}

/** The served flow's controls and regions, all hidden until the script enables them. */
function claimFlow(usable: readonly ClaimMethod[]): Html {
  return html`<p id="claim-needs-script" class="note">Claiming from this page needs JavaScript; without it, use the commands below.</p>
<section id="claim-current" class="claim-current" aria-labelledby="claim-current-title" hidden>
<h3 id="claim-current-title">Current claims</h3>
<p id="claim-current-status">Loading the claims of this identifier…</p>
<div id="claim-current-list"></div>
</section>
<form id="claim-form" class="claim-form" aria-labelledby="claim-form-title" hidden>
<h3 id="claim-form-title">Claim it here</h3>
<fieldset>
<legend>How to prove control</legend>
${usable.map((m, i) => html`<div class="claim-choice"><input type="radio" name="method" id="claim-method-${m}" value="${m}"${i === 0 ? html` checked` : ''}> <label for="claim-method-${m}">${CLAIM_METHOD_TEXT[m].label}</label></div>`)}
</fieldset>
<div class="claim-choice"><input type="checkbox" id="claim-purpose-list" name="list" value="list"> <label for="claim-purpose-list">List this identifier in the directory</label></div>
<button type="submit" id="claim-get">Get a challenge</button>
</form>
<section id="claim-challenge" class="claim-challenge" aria-labelledby="claim-challenge-title" hidden>
<h3 id="claim-challenge-title" tabindex="-1">Your challenge</h3>
<div id="claim-steps"></div>
<div id="claim-jws-field" class="claim-jws" hidden>
<label for="claim-jws">The compact JWS over this payload</label>
<textarea id="claim-jws" rows="4" spellcheck="false" autocomplete="off" autocapitalize="off"></textarea>
</div>
<button type="button" id="claim-verify">Verify</button>
</section>
<div id="claim-result" class="claim-result" role="status" aria-live="polite" tabindex="-1"></div>`;
}

/** How to claim without this page: the svc commands and the API routes. */
function claimCommands(did: string, usable: readonly ClaimMethod[], mode: PageMode, claimsUrl: string): Html {
  // did:key and did:jwk name their one key themselves; any other DID needs the key's id.
  const kid = /^did:(?:key|jwk):/.test(did) ? '' : ` --kid ${did}#<key>`;
  const publish = usable.filter((m) => m !== 'signature');
  const served = mode === 'served';
  return html`<section id="claim-how" class="claim-how" aria-labelledby="claim-how-title">
<h3 id="claim-how-title">${served ? 'From a terminal, or through the API' : 'How to claim it'}</h3>
<p>With svc, pointed at ${served ? 'this service' : 'a running svc service'} by <code>--daemon &lt;URL&gt;</code> or <code>SVC_DAEMON_URL</code>:</p>
<ul class="claim-commands">
<li><code>${`svc claim ${did} --key <private JWK file>${kid}`}</code> asks for a challenge, signs it with the key (which is never sent) and submits it; add <code>--list</code> to list the identifier in the directory.</li>
${publish.length > 0 ? html`<li><code>${`svc claim ${did} --method ${publish[0]!}`}</code>${publish.length > 1 ? html` (or <code>--method ${publish[1]!}</code>)` : ''} prints what to publish; once it is published, <code>${`svc claim ${did} --token <token>`}</code> verifies it.</li>` : ''}
<li><code>${`svc claims ${did}`}</code> lists the current claims, each with what it proves and what it does not.</li>
</ul>
<p>Through the API: <code>POST /v1/claims/challenges</code> with <code>{"did", "method", "purpose"}</code>, then <code>POST /v1/claims/verify</code> with <code>{"did", "token", "jws"}</code> (<code>jws</code> for a signature only); <code>GET /v1/claims/{did}</code> lists the claims${served ? html` (<a href="${claimsUrl}" type="application/json">this identifier’s, as JSON</a>)` : ''}.</p>
</section>`;
}

/* ------------------------------------------------------------------ problems */

export interface ProblemPageInput {
  /** The problem as thrown: its detail and its hint apart (the served problem's detail ends with the hint). */
  problem: ProblemError;
  /** The identifier asked for, when there was one. */
  did?: string;
  /**
   * Something else asked about (an MCP endpoint): its noun, its value, and what the page offers
   * next instead of "Examine another identifier" (served pages).
   */
  asked?: { noun: string; value?: string; next: Html };
  mode: PageMode;
}

/**
 * A problem as a page: what happened, what it means, what to do — and the trace up to the failing
 * stage. What to do is the problem's hint when it has one (the same words as the terminal's
 * `hint:` line, PROBLEM_HINTS), else the code's handling (PROBLEM_GUIDE).
 */
export function problemPage(input: ProblemPageInput): string {
  const { problem } = input;
  const guide = PROBLEM_GUIDE[problem.code];
  const title = PROBLEMS[problem.code].title;
  const todo = problem.hint ? hintSentence(problem.hint) : guide.handling;
  const main = html`<article class="problem" data-code="${problem.code}" data-status="${problem.status}">
<p class="eyebrow">No answer · HTTP ${problem.status}</p>
<h1>${title}</h1>
${input.did !== undefined ? html`<p class="did-asked">For <code>${input.did}</code></p>` : ''}
${input.asked?.value !== undefined ? html`<p class="did-asked">For the ${input.asked.noun} <code>${input.asked.value}</code></p>` : ''}
<p class="detail">${problem.detail || title}</p>
<dl class="fields problem-guide">
<div class="field"><dt>Code</dt><dd><code>${problem.code}</code></dd></div>
<div class="field"><dt>What it means</dt><dd>${guide.meaning}</dd></div>
<div class="field problem-todo"><dt>What to do</dt><dd>${todo}${problem.retryAfter !== undefined ? ` (Retry-After: ${problem.retryAfter} s)` : ''}</dd></div>
</dl>
<p class="note">An error means no answer could be produced; it is not a verdict about the ${input.asked?.noun ?? 'identifier'}.</p>
${problem.trace && problem.trace.length > 0 ? html`<section aria-labelledby="problem-trace-title"><h2 id="problem-trace-title">Stages up to the failure</h2>${traceRows(problem.trace)}</section>` : ''}
${input.mode === 'served' ? (input.asked?.next ?? html`<p><a href="/">Examine another identifier</a></p>`) : ''}
</article>`;
  return renderPage({ title: `${title} — svc`, mode: input.mode, main, query: input.did });
}
