/**
 * The web dossier's time machine (src/web/timemachine.ts): the timeline, the GET form choosing
 * two observations, and the semantic diff beside the two documents with the changes marked.
 * Diffs come from the real semanticDiff; checks are on the HTML text (no DOM in the test deps).
 *
 * "Stripped text": the markup with every `<span class="change-tag">…</span>` removed (the visible
 * kind of a change, which is not part of the JSON), then every other tag removed and the
 * entities unescaped. It must be JSON.stringify(doc, null, 2).
 */
import { describe, expect, it } from 'vitest';
import { HISTORY_NOTE } from '../../src/core/history/history.js';
import type { ObservationHistory } from '../../src/core/history/types.js';
import type { Observation } from '../../src/core/store.js';
import { diffView, documentView, marksFor, timelineView, type DocumentMarks } from '../../src/web/timemachine.js';
import { DID, baseDocument, diff, k1, k2, k3, multikeyMethod } from '../support/diff-documents.js';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** See the file comment: change tags out, tags out, entities unescaped. */
function stripped(markup: string): string {
  return markup
    .replace(/<span class="change-tag">[^<]*<\/span>/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
}

/** The `<pre class="document document-<side>">` of a diff view. */
function pre(markup: string, side: 'from' | 'to'): string {
  const match = new RegExp(`<pre class="document document-${side}"[\\s\\S]*?</pre>`).exec(markup);
  expect(match, `a ${side} document`).not.toBeNull();
  return match![0];
}

/** Each `<mark>` opening tag with the text up to its `</mark>` (marks do not nest). */
function marks(markup: string): { change: string; member: string; text: string }[] {
  return [...markup.matchAll(/<mark class="change change-(\w+)" data-change="(\w+)" data-member="([^"]*)">([\s\S]*?)<\/mark>/g)].map((m) => {
    expect(m[1]).toBe(m[2]);
    return { change: m[2]!, member: m[3]!.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!), text: stripped(m[4]!) };
  });
}

const NO_MARKS: DocumentMarks = { side: 'from', entries: new Map(), members: new Map() };

/** No style attribute, script element or event handler: attribute names of every real tag (values blanked, text ignored). */
function noInlineStyleOrScript(markup: string): void {
  expect(markup).not.toMatch(/<script/i);
  for (const tag of markup.match(/<[a-zA-Z][^>]*>/g) ?? []) {
    expect(tag.replace(/"[^"]*"/g, '""')).not.toMatch(/\s(style|on[a-z]+)\s*=/i);
  }
}

describe('documentView', () => {
  it('prints exactly JSON.stringify(doc, null, 2) once tags are stripped', () => {
    const doc = baseDocument({
      alsoKnownAs: [],
      nested: { a: [1, 2.5, -3e-7, true, false, null, { b: {} }], 'quote"key': 'back\\slash\nnewline\ttab\u0001', empty: '' },
    });
    const out = documentView(doc, NO_MARKS, { side: 'from', label: 'Document observed 2026-01-01T00:00:00Z' }).toString();
    expect(out.startsWith('<pre class="document document-from" role="region" tabindex="0" aria-label="Document observed 2026-01-01T00:00:00Z">')).toBe(true);
    expect(stripped(out)).toBe(JSON.stringify(doc, null, 2));
    for (const value of [[], {}, 'text', 12, null, [[]], [{}]]) {
      expect(stripped(documentView(value, NO_MARKS, { side: 'to', label: 'x' }).toString())).toBe(JSON.stringify(value, null, 2));
    }
  });

  it('stays JSON.stringify(doc, null, 2) with marks in it', () => {
    const from = baseDocument({ controller: DID });
    const to = baseDocument({
      controller: 'did:web:other.example',
      verificationMethod: [multikeyMethod('key-1', k2), multikeyMethod('key-2', k3)],
      authentication: [`${DID}#key-2`],
    });
    const d = diff(from, to);
    const out = diffView(d, DID).toString();
    expect(stripped(pre(out, 'from')).trim()).toBe(JSON.stringify(from, null, 2));
    expect(stripped(pre(out, 'to')).trim()).toBe(JSON.stringify(to, null, 2));
    expect(marks(out).length).toBeGreaterThan(3);
  });

  it('writes hostile strings as text, and deceptive characters as JSON escapes that read back as the same value', () => {
    const hostile = '"><img src=x onerror=alert(1)><script>alert(1)</script>';
    const doc = baseDocument({
      alsoKnownAs: [hostile, 'https://evil.example/\u202etxt.exe', 'zero\u200bwidth\u0085\u2028\u{e0001}'],
      [hostile]: 'x',
      service: [{ id: `#${hostile}`, type: hostile, serviceEndpoint: `javascript:alert(1)//${hostile}` }],
    });
    const other = baseDocument();
    const d = diff(other, doc);
    const out = diffView(d, DID).toString();
    expect(out).not.toMatch(/<script|<img/i);
    noInlineStyleOrScript(out);
    expect(out).not.toMatch(/[\u202e\u200b\u0085\u2028]|\u{e0001}/u);
    const text = stripped(pre(out, 'to'));
    expect(JSON.parse(text)).toEqual(doc);
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\udb40\\udc01');
    // The service mark's data-member is the absolute hostile id, escaped.
    expect(marks(out).some((m) => m.member === `${DID}#${hostile}` && m.change === 'added')).toBe(true);
  });
});

describe('marks of a semantic diff', () => {
  it('a rotated key: named in the summary, its entry marked rotated in both documents (old material before, new after)', () => {
    const d = diff(baseDocument(), baseDocument({ verificationMethod: [multikeyMethod('key-1', k2)] }));
    expect(d.keysRotated).toEqual([`${DID}#key-1`]);
    const out = diffView(d, DID).toString();
    expect(out).toContain(`<li data-kind="keysRotated" data-id="${DID}#key-1">Key rotated: <code>#key-1</code></li>`);
    const before = marks(pre(out, 'from'));
    const after = marks(pre(out, 'to'));
    expect(before).toEqual([
      { change: 'rotated', member: `${DID}#key-1`, text: JSON.stringify(multikeyMethod('key-1', k1), null, 2).replace(/\n/g, '\n    ') },
    ]);
    expect(after).toEqual([{ change: 'rotated', member: `${DID}#key-1`, text: JSON.stringify(multikeyMethod('key-1', k2), null, 2).replace(/\n/g, '\n    ') }]);
    expect(before[0]!.text).toContain(k1.multikey!);
    expect(after[0]!.text).toContain(k2.multikey!);
    // The visible tag: colour is not the only signal.
    expect(pre(out, 'from')).toContain('<span class="change-tag">[↻ rotated] </span>');
  });

  it('a key added and a relationship changed: the method and the reference strings marked', () => {
    const to = baseDocument({
      verificationMethod: [multikeyMethod('key-1', k1), multikeyMethod('key-2', k2)],
      authentication: [`${DID}#key-2`],
    });
    const d = diff(baseDocument(), to);
    const out = diffView(d, DID).toString();
    expect(out).toContain(`<li data-kind="keysAdded" data-id="${DID}#key-2">Key added: <code>#key-2</code></li>`);
    expect(out).toContain(
      '<li data-kind="relationshipsChanged" data-relationship="authentication">authentication: +<code>#key-2</code> −<code>#key-1</code></li>',
    );
    expect(marks(pre(out, 'from'))).toEqual([{ change: 'removed', member: `${DID}#key-1`, text: `"${DID}#key-1"` }]);
    expect(marks(pre(out, 'to'))).toEqual([
      { change: 'added', member: `${DID}#key-2`, text: expect.stringContaining(k2.multikey!) },
      { change: 'added', member: `${DID}#key-2`, text: `"${DID}#key-2"` },
    ]);
    // Members the finer marks explain are not marked whole.
    const m = marksFor(d, 'to');
    expect([...m.members.keys()]).toEqual([]);
    expect(m.entries.get('verificationMethod')?.get(`${DID}#key-2`)).toBe('added');
    expect(m.entries.get('authentication')?.get(`${DID}#key-2`)).toBe('added');
    expect(marksFor(d, 'from').entries.get('authentication')?.get(`${DID}#key-1`)).toBe('removed');
  });

  it('a service changed: marked changed on both sides and listed', () => {
    const to = baseDocument({ service: [{ id: '#linked-domain', type: 'LinkedDomains', serviceEndpoint: 'https://new.example.com' }] });
    const d = diff(baseDocument(), to);
    expect(d.servicesChanged).toEqual([`${DID}#linked-domain`]);
    const out = diffView(d, DID).toString();
    expect(out).toContain(`<li data-kind="servicesChanged" data-id="${DID}#linked-domain">Service changed: <code>#linked-domain</code></li>`);
    expect(marks(pre(out, 'from'))).toEqual([{ change: 'changed', member: `${DID}#linked-domain`, text: expect.stringContaining('https://id.example.com') }]);
    expect(marks(pre(out, 'to'))).toEqual([{ change: 'changed', member: `${DID}#linked-domain`, text: expect.stringContaining('https://new.example.com') }]);
  });

  it('the controller changed: the whole member marked, with its name', () => {
    const d = diff(baseDocument({ controller: DID }), baseDocument({ controller: [DID, 'did:web:other.example'] }));
    const out = diffView(d, DID).toString();
    expect(out).toContain('<li data-kind="controllerChanged" data-member="controller">Controller changed</li>');
    expect(marks(pre(out, 'from'))).toEqual([{ change: 'changed', member: 'controller', text: `"controller": "${DID}"` }]);
    expect(marks(pre(out, 'to'))).toEqual([
      { change: 'changed', member: 'controller', text: `"controller": [\n    "${DID}",\n    "did:web:other.example"\n  ]` },
    ]);
  });

  it('a member only one document has: added on the to side, nothing to mark on the from side', () => {
    const d = diff(baseDocument(), baseDocument({ alsoKnownAs: ['https://id.example.com'] }));
    const out = diffView(d, DID).toString();
    expect(marks(pre(out, 'from'))).toEqual([]);
    expect(marks(pre(out, 'to'))).toEqual([{ change: 'added', member: 'alsoKnownAs', text: '"alsoKnownAs": [\n    "https://id.example.com"\n  ]' }]);
    expect(out).toContain('<li data-kind="alsoKnownAsChanged" data-member="alsoKnownAs">alsoKnownAs changed</li>');
  });

  it('identical documents: said plainly, nothing marked', () => {
    const d = diff(baseDocument(), baseDocument(), ['VERIFIED', 'NOT_LINKED']);
    expect(d.identical).toBe(true);
    const out = diffView(d, DID).toString();
    expect(out).toContain('The two observations have the same document; only the domain binding status differs.');
    expect(out).toContain('<li data-kind="domainBindingChanged">Domain binding: VERIFIED → NOT_LINKED</li>');
    expect(out).not.toContain('<mark');
    const same = diffView(diff(baseDocument(), baseDocument()), DID).toString();
    expect(same).toContain('The two observations have the same document.');
    expect(same).not.toContain('class="diff-summary"');
    expect(same).toContain('<div class="diff-documents">');
  });

  it('a relative id in one document and an absolute id in the other name the same entry', () => {
    const from = baseDocument({ verificationMethod: [multikeyMethod('key-1', k1, '#key-1')], authentication: ['#key-1'] });
    const to = baseDocument({ verificationMethod: [multikeyMethod('key-1', k2)] });
    const d = diff(from, to);
    expect(d.keysRotated).toEqual([`${DID}#key-1`]);
    expect(d.relationshipsChanged).toEqual([]);
    const out = diffView(d, DID).toString();
    expect(marks(pre(out, 'from'))).toEqual([{ change: 'rotated', member: `${DID}#key-1`, text: expect.stringContaining('"id": "#key-1"') }]);
    expect(marks(pre(out, 'to'))).toEqual([{ change: 'rotated', member: `${DID}#key-1`, text: expect.stringContaining(`"id": "${DID}#key-1"`) }]);
  });

  it('a key embedded in a relationship is marked like a declared one', () => {
    const from = baseDocument({ authentication: [multikeyMethod('auth-1', k1, '#auth-1')] });
    const to = baseDocument({ authentication: [multikeyMethod('auth-1', k2, '#auth-1'), multikeyMethod('auth-2', k3)] });
    const d = diff(from, to);
    expect(d.keysRotated).toEqual([`${DID}#auth-1`]);
    expect(d.keysAdded).toEqual([`${DID}#auth-2`]);
    const out = diffView(d, DID).toString();
    expect(marks(pre(out, 'from'))).toEqual([{ change: 'rotated', member: `${DID}#auth-1`, text: expect.stringContaining(k1.multikey!) }]);
    expect(marks(pre(out, 'to'))).toEqual([
      { change: 'rotated', member: `${DID}#auth-1`, text: expect.stringContaining(k2.multikey!) },
      { change: 'added', member: `${DID}#auth-2`, text: expect.stringContaining(k3.multikey!) },
    ]);
  });

  it('a change the diff fields do not name (a method controller) marks the entry changed', () => {
    const to = baseDocument({ verificationMethod: [{ ...multikeyMethod('key-1', k1), controller: 'did:web:other.example' }] });
    const d = diff(baseDocument(), to);
    expect(d.keysRotated).toEqual([]);
    expect(d.changedMembers).toEqual(['verificationMethod']);
    const out = diffView(d, DID).toString();
    expect(out).toContain('<li data-kind="changedMembers" data-member="verificationMethod">Member changed: <code>verificationMethod</code></li>');
    expect(marks(pre(out, 'from'))).toEqual([{ change: 'changed', member: `${DID}#key-1`, text: expect.stringContaining(`"controller": "${DID}"`) }]);
    expect(marks(pre(out, 'to'))).toEqual([{ change: 'changed', member: `${DID}#key-1`, text: expect.stringContaining('did:web:other.example') }]);
  });

  it('the documents sit side by side under headings with time and short hash; no style attribute anywhere', () => {
    const d = diff(baseDocument(), baseDocument({ verificationMethod: [multikeyMethod('key-1', k2)] }));
    const out = diffView(d, DID).toString();
    expect(out).toMatch(/^<section id="diff" class="diff" aria-labelledby="diff-heading">\n<h3 id="diff-heading">What changed<\/h3>/);
    expect(out).toContain(`<p class="diff-summary-text">${d.summary}</p>`);
    const documents = out.slice(out.indexOf('<div class="diff-documents">'));
    expect(documents.indexOf('diff-document-from')).toBeLessThan(documents.indexOf('diff-document-to'));
    expect(documents).toContain(`<code class="hash" title="${d.fromHash}">${d.fromHash.slice(0, 12)}</code>`);
    expect(documents).toContain(`aria-label="After: document observed 2026-02-01T00:00:00Z (${d.toHash.slice(0, 12)})"`);
    noInlineStyleOrScript(out);
  });
});

describe('timelineView', () => {
  let nextId = 1000;
  function observation(hash: string, observedAt: string, extra: Partial<Observation> = {}): Observation {
    return {
      id: nextId++,
      did: DID,
      documentHash: hash,
      observedAt,
      lastSeenAt: observedAt,
      seenCount: 1,
      latencyMs: 30,
      resolverVersion: '1.0.0',
      domainBindingStatus: 'VERIFIED',
      summary: 'Resolved a did:web identifier.',
      ...extra,
    };
  }
  const A = 'a'.repeat(64);
  const B = 'b'.repeat(64);
  const C = 'c'.repeat(64);
  const history = (rows: Observation[], count = rows.length): ObservationHistory => ({ did: DID, count, history: rows, note: HISTORY_NOTE });
  const pageHref = (q: { from?: string; to?: string }) => `/dossier/${encodeURIComponent(DID)}?level=4&from=${q.from ?? ''}&to=${q.to ?? ''}`;

  const rows = () => [
    observation(C, '2026-03-01T00:00:00Z', { seenCount: 3, lastSeenAt: '2026-03-05T00:00:00Z', summary: '<script>alert(1)</script>' }),
    observation(B, '2026-02-01T00:00:00Z', { domainBindingStatus: 'NOT_LINKED' }),
    observation(A, '2026-01-01T00:00:00Z', { domainBindingStatus: null }),
  ];

  it('lists observations newest first as given, with times, counts, binding, summary and short hash', () => {
    const out = timelineView(history(rows()), { pageHref }).toString();
    expect(out).toContain('<ol id="observations" class="timeline">');
    const hashes = [...out.matchAll(/<li class="observation[^"]*" id="[^"]*" data-hash="([0-9a-f]+)" data-observed-at="([^"]+)">/g)].map((m) => [m[1], m[2]]);
    expect(hashes).toEqual([
      [C, '2026-03-01T00:00:00Z'],
      [B, '2026-02-01T00:00:00Z'],
      [A, '2026-01-01T00:00:00Z'],
    ]);
    expect(out).toContain('<time datetime="2026-03-01T00:00:00Z">2026-03-01T00:00:00Z</time>, seen 3 times until <time datetime="2026-03-05T00:00:00Z">');
    expect(out).toContain(`<code class="hash" title="${C}">${C.slice(0, 12)}</code>, domain binding VERIFIED`);
    expect(out).toContain('domain binding NOT_LINKED');
    expect(out).toContain('domain binding not checked');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain(`<p class="note history-note">${HISTORY_NOTE}</p>`);
    noInlineStyleOrScript(out);
  });

  it('a GET form with labelled selects of every distinct hash, the latest two preselected by default', () => {
    const out = timelineView(history(rows()), { pageHref }).toString();
    expect(out).toContain('<form method="get" action="#time-machine" class="diff-form">');
    expect(out).toContain('<label for="diff-from">');
    expect(out).toContain('<label for="diff-to">');
    const select = (name: string) => new RegExp(`<select id="diff-${name}" name="${name}">([\\s\\S]*?)</select>`).exec(out)![1]!;
    const options = (name: string) =>
      [...select(name).matchAll(/<option value="([0-9a-f]+)"( selected)?>([^<]*)<\/option>/g)].map((m) => [m[1], m[2] === ' selected', m[3]]);
    expect(options('from')).toEqual([
      [C, false, `2026-03-01T00:00:00Z · ${C.slice(0, 12)}`],
      [B, true, `2026-02-01T00:00:00Z · ${B.slice(0, 12)}`],
      [A, false, `2026-01-01T00:00:00Z · ${A.slice(0, 12)}`],
    ]);
    expect(options('to').map((o) => o[1])).toEqual([true, false, false]);
    expect(out).toContain('<button type="submit">Compare</button>');
  });

  it('preselects options.selected (a whole hash or a prefix) and tags the compared observations', () => {
    const out = timelineView(history(rows()), { pageHref, selected: { from: A.slice(0, 10), to: B } }).toString();
    expect(out).toContain(`<select id="diff-from" name="from"><option value="${C}">`);
    expect(out).toMatch(new RegExp(`<select id="diff-from" name="from">.*<option value="${A}" selected>`));
    expect(out).toMatch(new RegExp(`<select id="diff-to" name="to"><option value="${C}">[^]*?<option value="${B}" selected>`));
    expect(out).toContain('<span class="selected-tag">compared as from</span>');
    expect(out).toContain('<span class="selected-tag">compared as to</span>');
  });

  it('links each observation to its diff with the previous one, ending with #time-machine', () => {
    const out = timelineView(history(rows()), { pageHref }).toString();
    const links = [...out.matchAll(/<a class="compare-previous" href="([^"]+)">/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(links).toEqual([`${pageHref({ from: B, to: C })}#time-machine`, `${pageHref({ from: A, to: B })}#time-machine`]);
  });

  it('fewer than two distinct observations: says a diff needs two and how to get one; no form', () => {
    for (const h of [
      history([]),
      history([observation(A, '2026-01-01T00:00:00Z')]),
      history([observation(A, '2026-02-01T00:00:00Z'), observation(A, '2026-01-01T00:00:00Z', { domainBindingStatus: 'NOT_LINKED' })]),
    ]) {
      const out = timelineView(h, { pageHref }).toString();
      expect(out).toContain('A diff needs two distinct observations');
      expect(out).toContain('Run again');
      expect(out).not.toContain('<form');
      expect(out).not.toContain('<select');
      expect(out).not.toContain('class="compare-previous"');
    }
    expect(timelineView(history([]), { pageHref }).toString()).toContain('No observations recorded yet');
  });

  it('a document observed again later: one option per distinct hash (its newest observation), no link between equal documents', () => {
    const h = history([
      observation(A, '2026-03-01T00:00:00Z'),
      observation(A, '2026-02-15T00:00:00Z', { domainBindingStatus: 'NOT_LINKED' }),
      observation(B, '2026-02-01T00:00:00Z'),
      observation(A, '2026-01-01T00:00:00Z'),
    ]);
    const out = timelineView(h, { pageHref }).toString();
    const from = /<select id="diff-from" name="from">([\s\S]*?)<\/select>/.exec(out)![1]!;
    expect([...from.matchAll(/<option value="([0-9a-f]+)"/g)].map((m) => m[1])).toEqual([A, B]);
    expect(from).toContain(`2026-03-01T00:00:00Z · ${A.slice(0, 12)}`);
    expect(out).toContain('Same document as the previous observation; only the domain binding status differs.');
    expect(out.match(/class="compare-previous"/g)).toHaveLength(2);
    expect(out.match(/class="selected-tag"/g)).toHaveLength(2);
  });

  it('says when only the latest observations are listed', () => {
    expect(timelineView(history(rows(), 250), { pageHref }).toString()).toContain('250 observations, the latest 3 shown.');
  });
});
