/**
 * The web dossier's pages as strings (src/web): the four levels of a did:key, hostile document
 * text rendered as text, the offline page's own policy, the claim offer (served and offline, the
 * methods that apply to each DID), problem pages for every code, and the negotiation of HTML and
 * JSON on a page URL.
 */
import { describe, expect, it } from 'vitest';
import { PROBLEMS, PROBLEM_GUIDE, ProblemError, type ProblemCode } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { acceptsGzip, matchesEtag, negotiatePage } from '../../src/server/routes/web.js';
import { FAVICON_DATA_URL, webAssets } from '../../src/web/assets.js';
import { claimOffer, dossierPage, problemPage, type TimeMachineInput } from '../../src/web/dossier.js';
import { homePage, HOME_EXAMPLES } from '../../src/web/home.js';
import { testRuntime } from '../support/runtime.js';

const DID_KEY = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const NO_HISTORY: TimeMachineInput = { history: null, diff: null, selected: null, unavailable: 'Not recorded here.' };
const HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>", 'a\u202eb\u0007'];

async function didKey(): Promise<EnrichedResolution> {
  return resolve(DID_KEY, testRuntime());
}

/** A did:key result whose document, services and statements carry hostile text. */
function hostile(result: EnrichedResolution): EnrichedResolution {
  const copy = structuredClone(result) as EnrichedResolution;
  const services = HOSTILE.map((text) => ({ id: `${copy.did}#${text}`, type: text, serviceEndpoint: `https://example.com/${text}` }));
  copy.didDocument = { ...copy.didDocument, service: services } as EnrichedResolution['didDocument'];
  copy.evidence.services = services;
  copy.graph.nodes.push(...services.map((s) => ({ id: s.id, kind: 'service' as const, label: String(s.type) })));
  copy.graph.edges.push(...services.map((s) => ({ from: 'document', to: s.id, relation: 'service', state: 'DECLARED' as const })));
  copy.verdict.statements.push(...HOSTILE);
  copy.limitations.push(HOSTILE[1]!);
  return copy;
}

/** The attribute names of every tag of a page (values quoted by the renderer, so a quote ends them). */
function attributeNames(page: string): string[] {
  const names: string[] = [];
  for (const tag of page.matchAll(/<[a-zA-Z][^\s>/]*((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    for (const attribute of tag[1]!.matchAll(/\s+([^\s=/>]+)(?:="[^"]*")?/g)) names.push(attribute[1]!.toLowerCase());
  }
  return names;
}

/** No markup but svc's own: no event handler or style attribute, no script element but the one asset. */
function expectInert(page: string): void {
  expect(page).not.toMatch(/<script(?![^>]*\bsrc="\/assets\/(?:live|claim)\.[0-9a-f]{16}\.js")/);
  const names = attributeNames(page);
  expect(names.length).toBeGreaterThan(20);
  expect(names.filter((n) => n.startsWith('on') || n === 'style' || n === 'srcdoc' || n === 'formaction')).toEqual([]);
  // Every tag is one the renderer writes: none comes from the document's text.
  const tags = new Set([...page.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase()));
  for (const tag of ['img', 'iframe', 'object', 'embed', 'foreignobject', 'base']) expect(tags.has(tag), tag).toBe(false);
  expect(page).not.toContain('\u202e');
  expect(page).not.toContain('\u0007');
}

describe('the dossier page', () => {
  it('has the four levels, seven dimensions in three classes with proves / does not prove', async () => {
    const result = await didKey();
    const page = dossierPage({ result, timeMachine: NO_HISTORY, mode: 'served' });
    for (const level of [1, 2, 3, 4]) expect(page).toContain(`id="level-${level}"`);
    for (const d of result.dimensions) {
      expect(page).toContain(`data-dimension="${d.id}" data-state="${d.state}"`);
      expect(page).toContain(d.proves);
      expect(page).toContain(d.doesNotProve);
    }
    const groups = [...page.matchAll(/data-class="(\w+)"/g)].map((m) => m[1]);
    expect(groups).toEqual(['confirmed', 'attention', 'notConfirmed']);
    // Each dimension sits under the class of its state.
    const confirmed = page.slice(page.indexOf('data-class="confirmed"'), page.indexOf('data-class="attention"'));
    for (const d of result.dimensions.filter((x) => x.state === 'SELF_CERTIFYING' || x.state === 'ESTABLISHED'))
      expect(confirmed).toContain(`data-dimension="${d.id}"`);
    expect(page).toContain('Not recorded here.');
    expect(page).toContain(`<pre class="document"`);
    for (const stage of result.trace) expect(page).toContain(`data-stage="${stage.stage}"`);
    expectInert(page);
  });

  it('keeps the levels of one result object, never its time machine', async () => {
    const result = Object.freeze(await didKey());
    const first = dossierPage({ result, timeMachine: { ...NO_HISTORY, unavailable: 'First reason.' }, mode: 'served' });
    const second = dossierPage({ result, timeMachine: { ...NO_HISTORY, unavailable: 'Second reason.' }, mode: 'served' });
    expect(first).toContain('First reason.');
    expect(second).toContain('Second reason.');
    expect(second).not.toContain('First reason.');
    expect(second.replace('Second reason.', 'First reason.')).toBe(first);
    // Another mode is another page, not the kept one.
    expect(dossierPage({ result, timeMachine: NO_HISTORY, mode: 'offline' })).not.toContain('id="run-live"');
  });

  it('renders hostile document text as text, everywhere', async () => {
    const page = dossierPage({ result: hostile(await didKey()), timeMachine: NO_HISTORY, mode: 'served' });
    expectInert(page);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('\\u202e');
  });

  it('offline: the stylesheet inline under its own hash policy, no script, no link, no form', async () => {
    const page = dossierPage({ result: await didKey(), timeMachine: NO_HISTORY, mode: 'offline' });
    const { css } = webAssets();
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src '${css.integrity}'`);
    expect(page).toContain(`<style>${css.body.toString('utf8')}</style>`);
    expect(page).not.toMatch(/<script|<form|href="\//);
    // One link: the favicon, as a data: URL (the policy allows images from data: only).
    expect([...page.matchAll(/<link [^>]*>/g)].map((m) => m[0])).toEqual([`<link rel="icon" type="image/svg+xml" href="${FAVICON_DATA_URL}">`]);
    expect(page).toContain('id="level-1"');
    expect(page).not.toContain('id="run-live"');
  });
});

/** The claim offer of a page: its aside, whole. */
function offerOf(page: string): string {
  const start = page.indexOf('<aside id="claim"');
  expect(start).toBeGreaterThan(0);
  return page.slice(start, page.indexOf('</aside>', start) + '</aside>'.length);
}

/** The method radios of an offer, in order. */
const methodOptions = (offer: string) =>
  [...offer.matchAll(/<input type="radio" name="method" id="claim-method-([a-z-]+)" value="([a-z-]+)"/g)].map((m) => m[2]);

describe('the claim offer', () => {
  const DID_WEB = 'did:web:example.com%3A8443:user:alice';

  it('served, did:key: the flow for a signature only, every control hidden until the script enables it, the CLI and API said', async () => {
    const page = dossierPage({ result: await didKey(), timeMachine: NO_HISTORY, mode: 'served' });
    const offer = offerOf(page);
    expect(page).toMatch(/<script src="\/assets\/claim\.[0-9a-f]{16}\.js" defer><\/script>/);
    expect(offer).toContain('Control this identifier? One free way to prove it');
    expect(offer).toContain(`data-did="${DID_KEY}"`);
    expect(offer).toContain(`data-claims-url="/v1/claims/${encodeURIComponent(DID_KEY)}"`);
    expect(offer).toContain('data-challenges-url="/v1/claims/challenges" data-verify-url="/v1/claims/verify"');
    expect(methodOptions(offer)).toEqual(['signature']);
    expect(offer).toContain('value="signature" checked');
    expect(offer).toContain(
      '<p class="claim-unavailable note" data-methods="well-known dns">Not for this identifier: a file on the web server or a DNS record, because did:key has no host',
    );
    expect(offer).toContain('<label for="claim-purpose-list">List this identifier in the directory</label>');
    expect(offer).toContain('<label for="claim-jws">');
    expect(offer).toContain('Claims are available on this service.');
    expect(offer).not.toContain('not available');
    // Every control and the regions the script fills are hidden in the markup; the note saying so is not.
    for (const id of ['claim-current', 'claim-form', 'claim-challenge', 'claim-jws-field'])
      expect(offer, id).toMatch(new RegExp(`id="${id}"[^>]*\\shidden[\\s>]`));
    expect(offer).toMatch(/<p id="claim-needs-script" class="note">Claiming from this page needs JavaScript/);
    // Each control sits inside the hidden form or the hidden challenge section.
    const within = (id: string, end: string): [number, number] => {
      const from = offer.indexOf(`id="${id}"`);
      return [from, offer.indexOf(end, from)];
    };
    const hiddenRanges = [within('claim-form', '</form>'), within('claim-challenge', '</section>')];
    const controls = [...offer.matchAll(/<(button|input|textarea)\b/g)];
    expect(controls.map((c) => c[1])).toEqual(['input', 'input', 'button', 'textarea', 'button']);
    for (const control of controls)
      expect(
        hiddenRanges.some(([a, b]) => control.index > a && control.index < b),
        control[0],
      ).toBe(true);
    expect(offer).toMatch(/<div id="claim-result" class="claim-result" role="status" aria-live="polite"/);
    // The CLI: a did:key names its key itself (no --kid), and no publishing method is offered.
    expect(offer).toContain(`<code>svc claim ${DID_KEY} --key &lt;private JWK file&gt;</code>`);
    expect(offer).toContain(`<code>svc claims ${DID_KEY}</code>`);
    expect(offer).not.toContain('--method');
    expect(offer).toContain('<code>POST /v1/claims/challenges</code>');
    expect(offer).toContain('<code>POST /v1/claims/verify</code>');
    expect(offer).toContain(`<a href="/v1/claims/${encodeURIComponent(DID_KEY)}" type="application/json">`);
    expectInert(page);
  });

  it('served, did:web: three methods in order, the CLI with --kid and the publishing methods', () => {
    const offer = claimOffer(DID_WEB, 'served').toString();
    expect(offer).toContain('Control this identifier? Three free ways to prove it');
    expect(methodOptions(offer)).toEqual(['signature', 'well-known', 'dns']);
    expect(offer).not.toContain('claim-unavailable');
    expect(offer).toContain(`<code>svc claim ${DID_WEB} --key &lt;private JWK file&gt; --kid ${DID_WEB}#&lt;key&gt;</code>`);
    expect(offer).toContain(`<code>svc claim ${DID_WEB} --method well-known</code> (or <code>--method dns</code>)`);
    expect(offer).toContain(`<code>svc claim ${DID_WEB} --token &lt;token&gt;</code>`);
    for (const method of ['signature', 'well-known', 'dns']) expect(offer).toContain(`<li data-method="${method}">`);
  });

  it('a did:web whose host is too long for the DNS record name: signature and well-known only, and why', () => {
    const host = Array.from({ length: 4 }, () => 'a'.repeat(61)).join('.') + '.com';
    const offer = claimOffer(`did:web:${host}`, 'served').toString();
    expect(methodOptions(offer)).toEqual(['signature', 'well-known']);
    expect(offer).toContain('Two free ways to prove it');
    expect(offer).toMatch(/data-methods="dns">Not for this identifier: a DNS record, because the record name _svc-claim\.a{20}… would be 262 characters/);
  });

  it('offline: the three methods described, how to claim on a running service, and no control, route or script', async () => {
    const offline = offerOf(dossierPage({ result: await didKey(), timeMachine: NO_HISTORY, mode: 'offline' }));
    expect(offline).toContain('Claims are made on a running svc service (svc serve), not in this offline copy.');
    expect(offline).toContain(`<code>svc claim ${DID_KEY} --key &lt;private JWK file&gt;</code>`);
    expect(offline).not.toMatch(/<(form|input|button|textarea)\b|data-claims-url|href=/);
    const web = claimOffer(DID_WEB, 'offline').toString();
    expect(web).toContain('Three free ways to prove it');
    expect(web).toContain(`--method well-known`);
    expect(web).not.toMatch(/<(form|input|button|textarea)\b|data-did|href=/);
  });

  it('keeps hostile text of a DID as text in its attributes and commands', () => {
    const offer = claimOffer('did:web:"><img src=x onerror=alert(1)>', 'served').toString();
    expect(offer).not.toContain('<img');
    expect(offer).toContain('data-did="did:web:&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
  });
});

describe('problem pages', () => {
  it('every code has a meaning and a handling, and its page shows them with the trace', () => {
    for (const code of Object.keys(PROBLEMS) as ProblemCode[]) {
      const guide = PROBLEM_GUIDE[code];
      expect(guide.meaning.length, code).toBeGreaterThan(10);
      expect(guide.handling.length, code).toBeGreaterThan(5);
    }
    const err = new ProblemError('METHOD_NOT_SUPPORTED', 'did:example is not supported.', {
      trace: [{ stage: 'syntax.parse', label: 'Parse the DID', status: 'FAIL', startedUs: 0, durationUs: 12, detail: HOSTILE[0]! }],
    });
    const page = problemPage({ problem: err, did: HOSTILE[1]!, mode: 'served' });
    expect(page).toContain('data-code="METHOD_NOT_SUPPORTED"');
    expect(page).toContain(PROBLEM_GUIDE.METHOD_NOT_SUPPORTED.handling);
    expect(page).toContain('data-stage="syntax.parse" data-status="FAIL"');
    expectInert(page);
  });
});

describe('the front page', () => {
  it('links examples that resolve without a network', async () => {
    const page = homePage();
    for (const example of HOME_EXAMPLES) {
      expect(page).toContain(`href="/d/${example.did}"`);
      const result = await resolve(example.did, testRuntime());
      expect(result.verdict.outcome).toBe('RESOLVED');
    }
    expectInert(page);
  });
});

describe('negotiatePage', () => {
  it.each([
    [undefined, 'html'],
    ['', 'html'],
    ['*/*', 'html'],
    ['text/html', 'html'],
    ['application/json', 'json'],
    ['application/json, */*', 'json'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
    ['application/json;q=0.5, text/html', 'html'],
    ['text/html;q=0.2, application/json;q=0.9', 'json'],
    ['application/*', 'json'],
    ['text/*', 'html'],
    ['image/png', null],
    ['text/html;q=0, application/json;q=0', null],
    ['garbage', 'html'],
  ] as const)('%s → %s', (accept, expected) => {
    expect(negotiatePage(accept)).toBe(expected);
  });
});

describe('acceptsGzip', () => {
  it.each([
    [undefined, false],
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['gzip;q=0', false],
    ['identity', false],
    ['*', true],
    ['x-gzip', true],
    ['gzipped', false],
  ] as const)('%s → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('matchesEtag', () => {
  it.each([
    [undefined, false],
    ['"abc"', true],
    ['"x", "abc"', true],
    ['W/"abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['abc', false],
  ] as const)('%s → %s', (header, expected) => {
    expect(matchesEtag(header, '"abc"')).toBe(expected);
  });
});
