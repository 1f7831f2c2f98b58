/**
 * The web dossier's "time machine" (level 4): the DID's observation timeline, a form to
 * pick any two observations without JavaScript, and the semantic diff (docs/history.md#svc-diff)
 * shown as a list of changes beside the two documents, whose changed parts are marked.
 *
 * Documents are printed by a small JSON printer of our own so that a change can be wrapped in a
 * `<mark>` exactly where it is; with the marks' tags removed the text is `JSON.stringify(doc,
 * null, 2)` (see documentView for the one exception: characters a reader could be fooled by are
 * written as JSON escapes, which read back as the same value).
 *
 * DOM contract (what routes, styles and browser tests rely on):
 * - timeline: `<ol id="observations" class="timeline">`, one `<li class="observation"
 *   data-hash data-observed-at>` per observation, newest first; a pair link
 *   `<a class="compare-previous" href="…#time-machine">`; the note `<p class="history-note">`;
 *   the form `<form class="diff-form" method="get" action="#time-machine">` with
 *   `<select id="diff-from" name="from">` and `<select id="diff-to" name="to">`; fewer than two
 *   distinct documents: `<p class="diff-needs-two">` and no form;
 * - diff: `<section id="diff" class="diff">`, `<ul class="diff-summary">` of `<li data-kind
 *   data-id>` (data-relationship for relationship changes, data-member for other members),
 *   `<div class="diff-documents">` holding two `<div class="diff-document diff-document-from|to">`,
 *   each with a heading and a `<pre class="document document-from|to">`;
 * - marks: `<mark class="change change-<kind>" data-change="<kind>" data-member="<absolute id
 *   or member name>">`, whose first child is `<span class="change-tag">` (the kind as visible
 *   text, so colour is never the only signal); kinds are added, removed, rotated, changed.
 * No style attribute, script or event handler is written anywhere (strict CSP).
 */
import { canonicalize } from '../core/canonical.js';
import { unexplainedMembers } from '../core/history/diff.js';
import { uniquePrefixLength } from '../core/history/prefix.js';
import type { ObservationHistory, SemanticDiff } from '../core/history/types.js';
import type { DomainBindingStatus } from '../core/linkage/types.js';
import { RELATIONSHIPS } from '../core/resolve/types.js';
import type { Observation } from '../core/store.js';
import { plural } from '../core/text.js';
import { displayKeyId } from '../present/text.js';
import { type Html, anchorId, html, join } from './html.js';

/* ------------------------------------------------------------------ marks */

export type ChangeKind = 'added' | 'removed' | 'rotated' | 'changed';
export type DiffSide = 'from' | 'to';

/**
 * What to mark in one of the two documents of a diff. Only top-level members and the entries of
 * the id-keyed array members (verificationMethod, service and the verification relationships)
 * are marked; ids are absolute, resolved against the document's own `id` as the diff resolves
 * them (a relative `#key-1` and `did:…#key-1` are the same entry).
 */
export interface DocumentMarks {
  side: DiffSide;
  /**
   * Array member name (`verificationMethod`, `service`, `authentication` …) → absolute id of an
   * entry → how it changed. An entry is an object with that id (a declared or embedded method, a
   * service) or, in a relationship, a reference string resolving to it. Every entry of the member
   * with the id is marked (a duplicate declaration included).
   */
  entries: ReadonlyMap<string, ReadonlyMap<string, ChangeKind>>;
  /** Top-level members marked whole (key and value): changed, with no finer mark inside either document. */
  members: ReadonlyMap<string, ChangeKind>;
}

/** Members whose entries are matched by id (the entries the diff itself compares). */
const ENTRY_MEMBERS: readonly string[] = ['verificationMethod', 'service', ...RELATIONSHIPS];
/** Members that may hold verification method objects (declared or embedded). */
const METHOD_MEMBERS: ReadonlySet<string> = new Set(['verificationMethod', ...RELATIONSHIPS]);
const RELATIONSHIP_MEMBERS: ReadonlySet<string> = new Set(RELATIONSHIPS);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function member(document: unknown, name: string): unknown {
  return isObject(document) && Object.hasOwn(document, name) ? document[name] : undefined;
}

/** As readDocument resolves a method or service id (src/core/resolve/document.ts `absolute`). */
function absolute(id: string, documentId: unknown): string {
  return id.startsWith('#') && typeof documentId === 'string' ? `${documentId}${id}` : id;
}

/** The absolute id of an array entry: a reference string, or an object's string `id`; null otherwise. */
function entryId(entry: unknown, documentId: unknown, referencesToo: boolean): string | null {
  if (typeof entry === 'string') return referencesToo ? absolute(entry, documentId) : null;
  if (isObject(entry) && typeof entry['id'] === 'string') return absolute(entry['id'], documentId);
  return null;
}

/** An entry object with its id absolute, so that `#key-1` and `did:…#key-1` compare equal. */
function asAbsolute(entry: unknown, documentId: unknown): unknown {
  return isObject(entry) && typeof entry['id'] === 'string' ? { ...entry, id: absolute(entry['id'], documentId) } : entry;
}

/** Two id-keyed lists equal once every id in them (reference or entry id) is absolute. */
function sameEntries(list: unknown, documentId: unknown, otherList: unknown, otherDocumentId: unknown): boolean {
  const normal = (value: unknown, id: unknown) =>
    Array.isArray(value) ? value.map((entry) => (typeof entry === 'string' ? absolute(entry, id) : asAbsolute(entry, id))) : value;
  return canonical(normal(list, documentId)) === canonical(normal(otherList, otherDocumentId));
}

/** RFC 8785 text, or (for a value with no RFC 8785 form) its JSON text: only ever compared for equality. */
function canonical(value: unknown): string {
  try {
    return canonicalize(value);
  } catch {
    return `\u0000${JSON.stringify(value)}`;
  }
}

/** First entry per absolute id, as the diff matches them (first declaration wins). */
function entriesById(list: unknown, documentId: unknown, referencesToo: boolean): Map<string, unknown> {
  const map = new Map<string, unknown>();
  if (!Array.isArray(list)) return map;
  for (const entry of list) {
    const id = entryId(entry, documentId, referencesToo);
    if (id !== null && !map.has(id)) map.set(id, entry);
  }
  return map;
}

/**
 * The marks for one side of `diff`. On the `from` side: what was removed, rotated (the old
 * material) or changed; on the `to` side: what was added, rotated (the new material) or changed.
 * The diff's own id lists decide first (keys, services, relationship entries); an entry with an
 * id that the diff's fields do not account for but whose JSON differs from the other document's
 * entry of the same id (e.g. a method's controller, a service's extra member) is marked
 * `changed`, or `added`/`removed` when the other document has no entry with that id. A member in
 * `changedMembers` with no entry mark in either document (controller, alsoKnownAs, @context, a
 * reordered list …) is marked whole — unless the only difference in an id-keyed member is a
 * relative id written absolute (or the reverse) and the diff does not report the member either.
 */
export function marksFor(diff: SemanticDiff, side: DiffSide): DocumentMarks {
  const own = side === 'from' ? diff.fromDocument : diff.toDocument;
  const other = side === 'from' ? diff.toDocument : diff.fromDocument;
  const entries = entryMarks(diff, side);
  // A finer mark in either document explains the member (a removed service leaves no mark in `to`).
  const otherEntries = entryMarks(diff, side === 'from' ? 'to' : 'from');
  const members = new Map<string, ChangeKind>();
  const unexplained = unexplainedMembers(diff);
  for (const name of diff.changedMembers) {
    if (member(own, name) === undefined || entries.has(name) || otherEntries.has(name)) continue;
    // Only relative ids written absolute (or the reverse), and the diff reports nothing for it: not a change to show.
    if (ENTRY_MEMBERS.includes(name) && !unexplained.includes(name) && sameEntries(member(own, name), own['id'], member(other, name), other['id'])) continue;
    members.set(name, member(other, name) !== undefined ? 'changed' : side === 'from' ? 'removed' : 'added');
  }
  return { side, entries, members };
}

/** The entry marks of one side's document, by member; members without a marked entry are left out. */
function entryMarks(diff: SemanticDiff, side: DiffSide): Map<string, ReadonlyMap<string, ChangeKind>> {
  const own = side === 'from' ? diff.fromDocument : diff.toDocument;
  const other = side === 'from' ? diff.toDocument : diff.fromDocument;
  const onlyHere: ChangeKind = side === 'from' ? 'removed' : 'added';

  const methods = new Map<string, ChangeKind>();
  for (const id of side === 'from' ? diff.keysRemoved : diff.keysAdded) methods.set(id, onlyHere);
  for (const id of diff.keysRotated) methods.set(id, 'rotated');
  const services = new Map<string, ChangeKind>();
  for (const id of side === 'from' ? diff.servicesRemoved : diff.servicesAdded) services.set(id, onlyHere);
  for (const id of diff.servicesChanged) services.set(id, 'changed');

  const result = new Map<string, ReadonlyMap<string, ChangeKind>>();
  for (const name of ENTRY_MEMBERS) {
    const list = member(own, name);
    if (!diff.changedMembers.includes(name) || !Array.isArray(list)) continue;
    const isRelationship = RELATIONSHIP_MEMBERS.has(name);
    const change = diff.relationshipsChanged.find((r) => r.relationship === name);
    const referenced = new Set(change ? (side === 'from' ? change.removed : change.added) : []);
    const counterparts = entriesById(member(other, name), other['id'], isRelationship);
    const marks = new Map<string, ChangeKind>();
    for (const entry of list) {
      const id = entryId(entry, own['id'], isRelationship);
      if (id === null || marks.has(id)) continue;
      let kind: ChangeKind | undefined;
      if (typeof entry !== 'string') kind = METHOD_MEMBERS.has(name) ? methods.get(id) : services.get(id);
      if (kind === undefined && referenced.has(id)) kind = onlyHere;
      // What the diff's fields do not account for: the entry's JSON against the other document's entry of that id.
      if (kind === undefined && !counterparts.has(id)) kind = onlyHere;
      else if (
        kind === undefined &&
        typeof entry !== 'string' &&
        canonical(asAbsolute(counterparts.get(id), other['id'])) !== canonical(asAbsolute(entry, own['id']))
      ) {
        kind = 'changed';
      }
      if (kind !== undefined) marks.set(id, kind);
    }
    if (marks.size > 0) result.set(name, marks);
  }
  return result;
}

/* ------------------------------------------------------------------ JSON printer */

/**
 * Characters the page would otherwise show as `\x…` display escapes (html.ts `printable`: C1
 * controls, DEL, line/paragraph separators, bidi and other format characters): written as JSON
 * `\uXXXX` escapes instead, so the printed text is still JSON that parses to the same value.
 * (JSON.stringify already escapes C0 controls and lone surrogates.)
 */
const DECEPTIVE = /[\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

function jsonString(text: string): string {
  return JSON.stringify(text).replace(DECEPTIVE, (c) => {
    let out = '';
    for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}

const NEWLINE = html`
`;
const INDENT = html`  `;
const COMMA_NEWLINE = html`,
`;

function indent(depth: number): Html {
  return join(Array.from({ length: depth }, () => INDENT));
}

/** The text JSON.stringify gives a scalar (null for what JSON cannot hold, as in an array). */
function scalar(value: unknown): string {
  if (typeof value === 'string') return jsonString(value);
  const text = JSON.stringify(value) as string | undefined;
  return text ?? 'null';
}

/** JSON.stringify leaves these members out of an object. */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

type EntryMarker = (entry: unknown, printed: Html) => Html;

function printValue(value: unknown, depth: number, mark?: EntryMarker): Html {
  if (Array.isArray(value)) {
    if (value.length === 0) return html`[]`;
    const items = value.map((entry) => {
      const printed = printValue(omitted(entry) ? null : entry, depth + 1);
      return html`${indent(depth + 1)}${mark ? mark(entry, printed) : printed}`;
    });
    return html`[${NEWLINE}${join(items, COMMA_NEWLINE)}${NEWLINE}${indent(depth)}]`;
  }
  if (isObject(value)) {
    const names = Object.keys(value).filter((name) => !omitted(value[name]));
    if (names.length === 0) return html`{}`;
    const items = names.map((name) => html`${indent(depth + 1)}${jsonString(name)}: ${printValue(value[name], depth + 1)}`);
    return html`{${NEWLINE}${join(items, COMMA_NEWLINE)}${NEWLINE}${indent(depth)}}`;
  }
  return html`${scalar(value)}`;
}

/** The visible tag of each kind: a sign and a word, so neither colour nor the sign alone carries it. */
const TAGS: Readonly<Record<ChangeKind, string>> = {
  added: '+ added',
  removed: '− removed',
  rotated: '↻ rotated',
  changed: '~ changed',
};

function markup(kind: ChangeKind, name: string, content: Html): Html {
  return html`<mark class="change change-${kind}" data-change="${kind}" data-member="${name}"><span class="change-tag">[${TAGS[kind]}] </span>${content}</mark>`;
}

/**
 * The JSON of a DID document, pretty-printed (2-space indent) as HTML, with marks. With every
 * `<span class="change-tag">` element removed, the other tags stripped and entities unescaped,
 * the text is `JSON.stringify(document, null, 2)` — except that C1 controls, DEL, U+2028/2029
 * and format characters (bidi overrides, zero-width …) inside strings are written as `\uXXXX`
 * escapes, so the text still parses to the same document. A marked top-level member is marked
 * with its name (`"controller": …`); a marked entry is marked as the whole entry (the object or
 * the reference string), never its trailing comma.
 *
 * The `<pre>` is a labelled, focusable region so that a keyboard user can scroll a long line.
 */
export function documentView(document: unknown, marks: DocumentMarks, options: { side: DiffSide; label: string }): Html {
  const body = (() => {
    if (!isObject(document)) return printValue(document, 0);
    const documentId = document['id'];
    const names = Object.keys(document).filter((name) => !omitted(document[name]));
    if (names.length === 0) return html`{}`;
    const items = names.map((name) => {
      const value = document[name];
      const entryMarks = marks.entries.get(name);
      const marker: EntryMarker | undefined = entryMarks
        ? (entry, printed) => {
            const id = entryId(entry, documentId, RELATIONSHIP_MEMBERS.has(name));
            const kind = id === null ? undefined : entryMarks.get(id);
            return kind === undefined || id === null ? printed : markup(kind, id, printed);
          }
        : undefined;
      const printed = html`${jsonString(name)}: ${printValue(value, 1, marker)}`;
      const whole = marks.members.get(name);
      return html`${INDENT}${whole === undefined ? printed : markup(whole, name, printed)}`;
    });
    return html`{${NEWLINE}${join(items, COMMA_NEWLINE)}${NEWLINE}}`;
  })();
  const side = options.side;
  return html`<pre class="document document-${side}" role="region" tabindex="0" aria-label="${options.label}"><code>${body}</code></pre>`;
}

/* ------------------------------------------------------------------ timeline */

function bindingLabel(status: DomainBindingStatus | null): string {
  return status ?? 'not checked';
}

function time(at: string): Html {
  return html`<time datetime="${at}">${at}</time>`;
}

/** The short form of a hash, with the whole hash in its title. */
function hashCode(hash: string, length: number): Html {
  return html`<code class="hash" title="${hash}">${hash.slice(0, length)}</code>`;
}

/** The newest observation of the history whose hash is or starts with `selected` (the route may pass a prefix). */
function pick(observations: readonly Observation[], selected: string | undefined): string | undefined {
  if (selected === undefined || selected === '') return undefined;
  return observations.find((o) => o.documentHash === selected)?.documentHash ?? observations.find((o) => o.documentHash.startsWith(selected))?.documentHash;
}

function observationItem(
  o: Observation,
  older: Observation | undefined,
  length: number,
  selected: { from?: string | undefined; to?: string | undefined },
  pageHref: ((query: { from?: string; to?: string }) => string) | null,
): Html {
  const seen = o.seenCount > 1 ? html`, seen ${plural(o.seenCount, 'time')} until ${time(o.lastSeenAt)}` : html``;
  const roles = [selected.from === o.documentHash ? 'from' : null, selected.to === o.documentHash ? 'to' : null].filter((r) => r !== null);
  const tag = roles.length > 0 ? html` <span class="selected-tag">compared as ${roles.join(' and ')}</span>` : html``;
  let compare = html``;
  if (older !== undefined) {
    compare =
      older.documentHash === o.documentHash
        ? html`<p class="observation-compare">Same document as the previous observation; only the domain binding status differs.</p>`
        : pageHref === null
          ? html``
          : html`<p class="observation-compare"><a class="compare-previous" href="${`${pageHref({ from: older.documentHash, to: o.documentHash })}#time-machine`}">Compare with previous observation (${older.observedAt})</a></p>`;
  }
  return html`<li class="observation${roles.length > 0 ? ' selected' : ''}" id="${anchorId('observation', String(o.id))}" data-hash="${o.documentHash}" data-observed-at="${o.observedAt}">
<p class="observation-when">${time(o.observedAt)}${seen}${tag}</p>
<p class="observation-document">Document ${hashCode(o.documentHash, length)}, domain binding ${bindingLabel(o.domainBindingStatus)}</p>
<p class="observation-summary">${o.summary}</p>
${compare}</li>`;
}

function hashOptions(hashes: readonly Observation[], length: number, selected: string | undefined): Html {
  return join(
    hashes.map(
      (o) =>
        html`<option value="${o.documentHash}"${o.documentHash === selected ? html` selected` : html``}>${o.observedAt} · ${o.documentHash.slice(0, length)}</option>`,
    ),
  );
}

/**
 * The observations, newest first (as given), and — when at least two distinct documents were
 * observed — a GET form choosing the two to compare. The form's action is `#time-machine`: the
 * browser replaces the page's query with `from` and `to` and lands on the time machine again.
 * Each observation but the oldest links to its diff with the previous one
 * (`pageHref({from, to})#time-machine`). Options are the distinct document hashes (a hash
 * names its newest observation, as the diff route finds it), labelled with time and short hash.
 * Without a selection, the latest two distinct documents are preselected.
 */
export function timelineView(
  history: ObservationHistory,
  options: {
    selected?: { from: string; to: string } | null;
    /** The page with other observations compared; null where there is no server to ask (the offline file): no links, no form. */
    pageHref: ((query: { from?: string; to?: string }) => string) | null;
  },
): Html {
  const observations = history.history;
  const length = uniquePrefixLength(observations.map((o) => o.documentHash));
  const distinct = observations.filter((o, i) => observations.findIndex((p) => p.documentHash === o.documentHash) === i);
  const selected = {
    from: pick(observations, options.selected?.from) ?? distinct[1]?.documentHash,
    to: pick(observations, options.selected?.to) ?? distinct[0]?.documentHash,
  };

  const shown = observations.length < history.count ? `, the latest ${observations.length} shown` : '';
  const heading = html`<p class="timeline-count">${plural(history.count, 'observation')}${shown}.</p>`;
  const list =
    observations.length === 0
      ? html`<p class="timeline-empty">No observations recorded yet: each resolution of this DID records one.</p>`
      : html`<ol id="observations" class="timeline">
${join(
  observations.map((o, i) =>
    // A hash names its newest observation: only that row is tagged as compared.
    observationItem(o, observations[i + 1], length, distinct.length >= 2 && distinct.includes(o) ? selected : {}, options.pageHref),
  ),
  NEWLINE,
)}
</ol>`;
  const note = html`<p class="note history-note">${history.note}</p>`;
  const form =
    options.pageHref === null && distinct.length >= 2
      ? html`<p class="note">This copy shows the latest two distinct observations; a running svc compares any two.</p>`
      : distinct.length < 2
        ? html`<p class="diff-needs-two">A diff needs two distinct observations: two retrievals that found different documents. ${
            observations.length === 0 ? 'Resolve this DID to record a first one, then' : 'Only one document has been observed so far;'
          } resolve it again later (Run again) after the document changes, and its two versions can be compared here.</p>`
        : html`<form method="get" action="#time-machine" class="diff-form">
<p class="diff-form-field"><label for="diff-from">From (older)</label> <select id="diff-from" name="from">${hashOptions(distinct, length, selected.from)}</select></p>
<p class="diff-form-field"><label for="diff-to">To (newer)</label> <select id="diff-to" name="to">${hashOptions(distinct, length, selected.to)}</select></p>
<p class="diff-form-submit"><button type="submit">Compare</button></p>
</form>`;
  return html`<div class="time-machine-timeline">
${heading}
${list}
${note}
${form}
</div>`;
}

/* ------------------------------------------------------------------ diff */

function changeItems(diff: SemanticDiff, did: string): Html[] {
  const id = (value: string) => html`<code>${displayKeyId(value, did)}</code>`;
  const items: Html[] = [];
  const ids = (kind: string, label: string, list: readonly string[]) => {
    for (const value of list) items.push(html`<li data-kind="${kind}" data-id="${value}">${label}: ${id(value)}</li>`);
  };
  ids('keysAdded', 'Key added', diff.keysAdded);
  ids('keysRemoved', 'Key removed', diff.keysRemoved);
  ids('keysRotated', 'Key rotated', diff.keysRotated);
  for (const change of diff.relationshipsChanged) {
    const parts = [...change.added.map((value) => html`+${id(value)}`), ...change.removed.map((value) => html`−${id(value)}`)];
    items.push(html`<li data-kind="relationshipsChanged" data-relationship="${change.relationship}">${change.relationship}: ${join(parts, ' ')}</li>`);
  }
  ids('servicesAdded', 'Service added', diff.servicesAdded);
  ids('servicesRemoved', 'Service removed', diff.servicesRemoved);
  ids('servicesChanged', 'Service changed', diff.servicesChanged);
  if (diff.controllerChanged) items.push(html`<li data-kind="controllerChanged" data-member="controller">Controller changed</li>`);
  if (diff.alsoKnownAsChanged) items.push(html`<li data-kind="alsoKnownAsChanged" data-member="alsoKnownAs">alsoKnownAs changed</li>`);
  if (diff.contextsChanged) items.push(html`<li data-kind="contextsChanged" data-member="@context">@context changed</li>`);
  for (const name of unexplainedMembers(diff)) items.push(html`<li data-kind="changedMembers" data-member="${name}">Member changed: <code>${name}</code></li>`);
  if (diff.domainBindingChanged) {
    items.push(html`<li data-kind="domainBindingChanged">Domain binding: ${bindingLabel(diff.domainBindingFrom)} → ${bindingLabel(diff.domainBindingTo)}</li>`);
  }
  return items;
}

function documentColumn(diff: SemanticDiff, side: DiffSide, length: number): Html {
  const observedAt = side === 'from' ? diff.fromObservedAt : diff.toObservedAt;
  const hash = side === 'from' ? diff.fromHash : diff.toHash;
  const document = side === 'from' ? diff.fromDocument : diff.toDocument;
  const headingId = `diff-document-${side}-heading`;
  const label = `${side === 'from' ? 'Before' : 'After'}: document observed ${observedAt} (${hash.slice(0, length)})`;
  return html`<div class="diff-document diff-document-${side}">
<h4 id="${headingId}">${side === 'from' ? 'Before' : 'After'}: observed ${time(observedAt)}, document ${hashCode(hash, length)}</h4>
${documentView(document, marksFor(diff, side), { side, label })}
</div>`;
}

/** The diff: its summary, one line per change, then the two documents side by side with their changes marked. */
export function diffView(diff: SemanticDiff, did: string): Html {
  const length = uniquePrefixLength([diff.fromHash, diff.toHash]);
  const items = changeItems(diff, did);
  const identical = diff.identical
    ? html`<p class="diff-identical">The two observations have the same document${diff.domainBindingChanged ? '; only the domain binding status differs' : ''}.</p>`
    : html``;
  const list =
    items.length > 0
      ? html`<ul class="diff-summary">
${join(items, NEWLINE)}
</ul>`
      : html``;
  return html`<section id="diff" class="diff" aria-labelledby="diff-heading">
<h3 id="diff-heading">What changed</h3>
<p class="diff-between">From the document observed ${time(diff.fromObservedAt)} (${hashCode(diff.fromHash, length)}) to the one observed ${time(diff.toObservedAt)} (${hashCode(diff.toHash, length)}).</p>
<p class="diff-summary-text">${diff.summary}</p>
${identical}
${list}
<div class="diff-documents">
${documentColumn(diff, 'from', length)}
${documentColumn(diff, 'to', length)}
</div>
</section>`;
}
