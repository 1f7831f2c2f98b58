/**
 * The web dossier over real HTTP (svc serve): the front page, the permalink of a DID (raw and
 * percent-encoded), JSON from the same URL, the claim offer by DID method, problems as pages,
 * the assets from memory with content hashes, the strict Content-Security-Policy, and the time
 * machine of a did:web whose host rotated a key. Everything is held to openapi.json by the contract hook of `call`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonHandle } from '../support/daemon.js';
import { call, expectCommonHeaders, expectJson, expectProblem, startInProcessDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { closedPort } from '../support/https-server.js';
import { generateTestKey } from '../support/signing.js';

const DID_KEY = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const HTML_TYPE = 'text/html; charset=utf-8';

let host: DidWebHost;
let daemon: DaemonHandle;

beforeAll(async () => {
  host = await startDidWebHost();
  daemon = await startInProcessDaemonFor(host);
});
afterAll(async () => {
  await daemon?.stop();
  await host?.close();
});

const get = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) => call(`${daemon.url}${path}`, { headers, ...init });

/** The page's policy: only this origin, no inline script or style, no framing. */
function expectPageHeaders(answer: Awaited<ReturnType<typeof get>>): void {
  expectCommonHeaders(answer);
  expect(answer.header('content-type')).toBe(HTML_TYPE);
  const csp = answer.header('content-security-policy');
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
}

/** Every attribute value and element of a page that could load or run something. */
function loads(page: string): string[] {
  return [...page.matchAll(/<(script|link|img|iframe|object|embed)\b[^>]*>/gi)].map((m) => m[0]);
}

describe('the front page', () => {
  it('says what svc is, has a search box and examples, and loads only its own assets', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expectPageHeaders(page);
    expect(page.text).toContain('<form class="search search-home" role="search" action="/"');
    expect(page.text).toContain(`href="/d/${DID_KEY}"`);
    for (const tag of loads(page.text)) expect(tag, tag).toMatch(/(href|src)="\/assets\/[a-z]+\.[0-9a-f]{16}\.(css|js|svg)"/);
    // The favicon, so no browser asks for /favicon.ico and logs a 404.
    expect(page.text).toMatch(/<link rel="icon" type="image\/svg\+xml" href="\/assets\/favicon\.[0-9a-f]{16}\.svg">/);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.text).not.toMatch(/\sstyle=/);
    expect(page.text).not.toMatch(/\son[a-z]+=/i);
  });

  it('the search box redirects to the permalink: raw when DID syntax allows, encoded otherwise', async () => {
    const raw = await get(`/?did=${encodeURIComponent(` ${DID_KEY} `)}`, {}, { redirect: 'manual' });
    expect(raw.status).toBe(303);
    expect(raw.header('location')).toBe(`/d/${DID_KEY}`);
    const odd = await get(`/?did=${encodeURIComponent('did:web:exa mple')}`, {}, { redirect: 'manual' });
    expect(odd.header('location')).toBe('/d/did%3Aweb%3Aexa%20mple');
    const empty = await get('/?did=');
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('INVALID_DID');
  });
});

describe('the dossier of a did:key', () => {
  it('renders the four levels with seven dimensions in three classes, proves and does not prove', async () => {
    const page = await get(`/d/${DID_KEY}`);
    expect(page.status).toBe(200);
    expectPageHeaders(page);
    expect(page.header('vary')).toContain('Accept');
    for (const id of ['level-1', 'level-2', 'level-3', 'level-4', 'time-machine', 'claim']) expect(page.text).toContain(`id="${id}"`);
    const dimensions = [...page.text.matchAll(/data-dimension="([a-z]+)" data-state="([A-Z_]+)"/g)].map((m) => m[1]);
    expect(dimensions.sort()).toEqual(['control', 'history', 'integrity', 'keys', 'organization', 'origin', 'transport']);
    expect(page.text.match(/<dt>Proves<\/dt>/g)).toHaveLength(7);
    expect(page.text.match(/<dt>Does not prove<\/dt>/g)).toHaveLength(7);
    for (const cls of ['confirmed', 'attention', 'notConfirmed']) expect(page.text).toContain(`data-class="${cls}"`);
    expect(page.text).toContain('data-stream-url="/v1/stream/' + DID_KEY + '?noCache=true"');
    // The claim offer: the flow's routes for its script, a signature only (a did:key has no host), the CLI.
    expect(page.text).toContain('Claims are available on this service.');
    expect(page.text).toContain(`data-claims-url="/v1/claims/${encodeURIComponent(DID_KEY)}"`);
    expect([...page.text.matchAll(/name="method" id="claim-method-[a-z-]+" value="([a-z-]+)"/g)].map((m) => m[1])).toEqual(['signature']);
    expect(page.text).toContain(`<code>svc claim ${DID_KEY} --key &lt;private JWK file&gt;</code>`);
    // The JSON the offer links to is this DID's claims.
    const claimsHref = /<a href="(\/v1\/claims\/[^"]+)" type="application\/json">/.exec(page.text)?.[1];
    expect(expectJson(await get(claimsHref!), 200)).toMatchObject({ did: DID_KEY, claims: [], listed: false });
  });

  it('is the same page for the percent-encoded permalink', async () => {
    const encoded = await get(`/d/${encodeURIComponent(DID_KEY)}`);
    expect(encoded.status).toBe(200);
    expect(encoded.text).toContain(`<h1 class="did">${DID_KEY}</h1>`);
  });

  it('answers the enriched resolution as JSON when asked, as /v1/resolve does', async () => {
    const viaPage = expectJson(await get(`/d/${DID_KEY}`, { accept: 'application/json' }), 200);
    const viaApi = expectJson(await get(`/v1/resolve/${DID_KEY}`), 200);
    expect(viaPage.did).toBe(DID_KEY);
    expect(viaPage.dimensions).toEqual(viaApi.dimensions);
    expect(viaPage.graph).toEqual(viaApi.graph);
    // A browser's Accept gets the page; neither type acceptable is a 406.
    expect((await get(`/d/${DID_KEY}`, { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' })).header('content-type')).toBe(HTML_TYPE);
    expectProblem(await get(`/d/${DID_KEY}`, { accept: 'image/png' }), 406, 'REPRESENTATION_NOT_SUPPORTED');
  });
});

describe('the claim offer of a did:web', () => {
  it('offers the three methods, and the CLI with --kid, the publishing methods and --token', async () => {
    const did = host.did('web', 'claimable');
    host.publish(did);
    const page = await get(`/d/${did}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Control this identifier? Three free ways to prove it');
    expect([...page.text.matchAll(/name="method" id="claim-method-[a-z-]+" value="([a-z-]+)"/g)].map((m) => m[1])).toEqual(['signature', 'well-known', 'dns']);
    expect(page.text).toContain(`--kid ${did}#&lt;key&gt;`);
    expect(page.text).toContain(`<code>svc claim ${did} --method well-known</code> (or <code>--method dns</code>)`);
    expect(page.text).not.toContain('claim-unavailable');
  });
});

describe('problems as pages', () => {
  it('an invalid DID, an unsupported method and an egress refusal are readable pages with code, meaning and what to do', async () => {
    const cases: Array<[string, number, string, string]> = [
      ['not-a-did', 400, 'INVALID_DID', 'did:&lt;method&gt;:&lt;id&gt;'],
      ['did:example:123', 501, 'METHOD_NOT_SUPPORTED', 'did:key, did:jwk, did:web, did:webvh'],
      ['did:web:localhost%3A1', 403, 'EGRESS_BLOCKED', '--egress-allow 127.0.0.1/32'],
    ];
    for (const [did, status, code, words] of cases) {
      // The daemon of this file may fetch from loopback; localhost is refused without that allowance.
      const target = code === 'EGRESS_BLOCKED' ? daemonWithoutEgress : daemon;
      const page = await call(`${target.url}/d/${did}`);
      expect(page.status, did).toBe(status);
      expectPageHeaders(page);
      expect(page.text).toContain(`data-code="${code}"`);
      expect(page.text).toContain(words);
      expect(page.text).toContain('it is not a verdict about the identifier');
      expect(page.text).not.toMatch(/at [A-Za-z.]+ \(.*:\d+:\d+\)/);
    }
    // The problem's trace up to the failing stage is on the page.
    const unsupported = await get('/d/did:example:123');
    expect(unsupported.text).toContain('data-stage="syntax.parse" data-status="FAIL"');
    // A client that asks for JSON gets problem+json, as on /v1.
    expectProblem(await get('/d/did:example:123', { accept: 'application/json' }), 501, 'METHOD_NOT_SUPPORTED');
  });

  it('an unreachable host is UPSTREAM_UNAVAILABLE, said as no verdict', async () => {
    const page = await get(`/d/did:web:localhost%3A${await closedPort()}`);
    expect(page.status).toBe(502);
    expect(page.text).toContain('data-code="UPSTREAM_UNAVAILABLE"');
    expect(page.text).toContain('Retry later');
  });

  it('hostile text in the path comes back as text', async () => {
    const page = await get(`/d/${encodeURIComponent('did:web:"><img src=x onerror=alert(1)>')}`);
    expect(page.status).toBe(400);
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('assets', () => {
  it('are named by content hash, immutable for a year, gzipped when accepted, 304 on a match', async () => {
    const page = await get('/');
    const paths = [...page.text.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(paths.map((p) => p.split('.').pop()).sort()).toEqual(['css', 'svg']); // the front page needs no script
    const dossier = await get(`/d/${DID_KEY}`);
    const all = [...dossier.text.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(all.map((p) => p.split('.').pop()).sort()).toEqual(['css', 'js', 'js', 'svg']); // the live run and the claim flow
    for (const path of all) {
      const asset = await get(path, { 'accept-encoding': 'identity' });
      expect(asset.status).toBe(200);
      expect(asset.header('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.header('content-type')).toMatch(path.endsWith('.css') ? /^text\/css/ : path.endsWith('.svg') ? /^image\/svg\+xml$/ : /^text\/javascript/);
      const etag = asset.header('etag');
      expect(path).toContain(etag.replace(/"/g, ''));
      const raw = await fetch(`${daemon.url}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      // fetch decompresses; the header says what was sent.
      expect(raw.headers.get('content-encoding')).toBe('gzip');
      expect(await raw.text()).toBe(asset.text);
      const again = await get(path, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    }
    expectProblem(await get('/assets/dossier.0000000000000000.css', { accept: 'application/json' }), 404, 'NOT_FOUND');
  });
});

describe('the time machine', () => {
  it('a did:web whose host rotated a key: the diff names the key and marks it in both documents', async () => {
    const did = host.did('web', 'rotating');
    const [a, b] = [generateTestKey(), generateTestKey()];
    const doc = (key: typeof a) => ({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: did,
      verificationMethod: [{ id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase: key.multikey }],
      authentication: ['#key-1'],
    });
    host.publish(did, doc(a));
    const first = await get(`/d/${did}?noCache=true`);
    expect(first.status).toBe(200);
    expect(first.text).toMatch(/a diff needs two/i);
    host.publish(did, doc(b));
    const second = await get(`/d/${did}?noCache=true`);
    expect(second.status).toBe(200);
    expect(second.text).toContain(`data-id="${did}#key-1"`);
    const marks = [...second.text.matchAll(/<mark class="change change-rotated"[^>]*data-member="([^"]+)"/g)].map((m) => m[1]);
    expect(marks).toEqual([`${did}#key-1`, `${did}#key-1`]);
    const from = second.text.slice(second.text.indexOf('document-from'));
    expect(from.slice(0, from.indexOf('</pre>'))).toContain(a.multikey);
    const to = second.text.slice(second.text.indexOf('document-to'));
    expect(to.slice(0, to.indexOf('</pre>'))).toContain(b.multikey);
    // A hash that is not one is refused as an option; one never observed is said on the page.
    const malformed = await get(`/d/${did}?from=xyz`);
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('data-code="INVALID_OPTIONS"');
    const unknown = await get(`/d/${did}?from=${'ab'.repeat(32)}&to=${'cd'.repeat(32)}`);
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain('class="tone-warn diff-problem"');
    expect(unknown.text).toContain('was never observed');
    // Any two observations, chosen without JavaScript: a GET form with two selects.
    expect(second.text).toMatch(/<form[^>]*method="get"[^>]*class="diff-form"|<form[^>]*class="diff-form"[^>]*method="get"/);
  });
});

let daemonWithoutEgress: DaemonHandle;
beforeAll(async () => {
  daemonWithoutEgress = await startInProcessDaemonFor(null);
});
afterAll(async () => {
  await daemonWithoutEgress?.stop();
});

describe('the public profile', () => {
  let open: DaemonHandle;
  beforeAll(async () => {
    open = await startInProcessDaemonFor(null, { args: ['--public'] });
  });
  afterAll(async () => {
    await open?.stop();
  });

  it('serves the pages too; the dossier draws on the standard budget, the front page and assets on none', async () => {
    const home = await call(`${open.url}/`);
    expect(home.status).toBe(200);
    const page = await call(`${open.url}/d/${DID_KEY}`);
    expect(page.status).toBe(200);
    // A self-certifying DID is not recorded on the public profile, and the page says why.
    expect(page.text).toContain('does not record the history of self-certifying identifiers');
    const doc = JSON.parse((await call(`${open.url}/openapi.json`)).text) as { paths: Record<string, { get: Record<string, unknown> }> };
    expect(doc.paths['/d/{did}']!.get['x-svc-budget']).toBe('standard');
    expect(doc.paths['/d/{did}']!.get['x-svc-budget-did-webvh']).toBe('intensive');
    expect(doc.paths['/']!.get['x-svc-budget']).toBe('none');
    expect(doc.paths['/assets/{name}']!.get['x-svc-budget']).toBe('none');
  });

  it('a did:webvh dossier draws on the intensive budget (10 a minute), as /v1/resolve does', async () => {
    const webvh = 'did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:localhost';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call(`${open.url}/d/${webvh}`)).status);
    expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(statuses[10]).toBe(429);
    const limited = await call(`${open.url}/d/${webvh}`);
    expect(limited.text).toContain('data-code="RATE_LIMITED"');
    expect(Number(limited.header('retry-after'))).toBeGreaterThanOrEqual(1);
    // The standard budget is untouched.
    expect((await call(`${open.url}/d/${DID_KEY}`)).status).toBe(200);
  });
});
