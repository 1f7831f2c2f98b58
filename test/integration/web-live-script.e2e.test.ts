/**
 * The live telemetry script of the web dossier (src/web/assets/live.js), in Chromium, on a page
 * with the dossier's level-3 DOM contract and Content Security Policy, served from loopback with
 * hand-written SSE streams: stages drawn one by one and re-scaled on one axis, the final rows
 * equal to the result's trace, a problem shown with its trace, a stream that cannot be opened,
 * the page without JavaScript, and hostile text that stays text.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  axeViolations,
  cspViolations,
  describeBrowser,
  formatViolations,
  launchBrowser,
  offOrigin,
  openPage,
  screenshot,
  type OpenedPage,
} from '../support/browser.js';

const LIVE_JS = readFileSync(new URL('../../src/web/assets/live.js', import.meta.url), 'utf8');

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** Enough of the dossier's stylesheet to see the waterfall in screenshots. */
const LIVE_CSS = `
.waterfall { list-style: none; padding: 0; }
.stage { position: relative; padding: .25rem 0 .75rem; }
.stage-status { font-weight: bold; }
.bar { position: absolute; bottom: .2rem; height: .35rem; left: var(--start, 0%); width: var(--width, 0%); background: #1a5fb4; min-width: 1px; }
[data-status="FAIL"] .bar { background: #a51d2d; }
`;

const HOSTILE = '<img src=x onerror=alert(1)>';

type Stage = { stage: string; label: string; status: 'PASS' | 'FAIL' | 'WARN' | 'SKIP'; startedUs: number; durationUs: number; detail: string };

const stage = (name: string, startedUs: number, durationUs: number, status: Stage['status'] = 'PASS', detail = `${name} ok`): Stage => ({
  stage: name,
  label: `The ${name} stage`,
  status,
  startedUs,
  durationUs,
  detail,
});

// The axis grows as stages arrive: 400 µs, then 1600, then 2000; the result adds one ending at 14000.
const TRACE: Stage[] = [stage('parse', 0, 400), stage('resolve', 400, 1200), stage('verify', 1600, 400), stage('policy', 2000, 12000, 'WARN')];
const OBSERVED_AT = '2025-06-01T12:00:00.000Z';
const RESULT = {
  did: 'did:key:z6MkTest',
  observedAt: OBSERVED_AT,
  verdict: { outcome: 'VERIFIED', headline: 'Everything that could be checked holds.' },
  trace: TRACE,
};
const PROBLEM_TRACE: Stage[] = [stage('parse', 0, 300), stage('resolve', 300, 900, 'FAIL', 'the host answered 404'), stage('verify', 1200, 0, 'SKIP')];
const PROBLEM = {
  type: 'https://svc.example/problems/not-found',
  title: 'The DID document was not found',
  status: 404,
  detail: 'https://example.com/.well-known/did.json answered 404.',
  code: 'NOT_FOUND',
  trace: PROBLEM_TRACE,
};

type Frame = [event: string, data: unknown, delayMs?: number];

const STREAMS: Record<string, Frame[]> = {
  ok: [
    ['stage', TRACE[0], 150],
    ['stage', TRACE[1], 150],
    ['stage', TRACE[2], 150],
    ['result', RESULT, 250],
    ['done', {}],
  ],
  problem: [
    ['stage', PROBLEM_TRACE[0], 100],
    ['error', PROBLEM, 100],
    ['done', {}],
  ],
  hostile: [
    ['stage', { ...stage('parse', 0, 500), label: HOSTILE, detail: HOSTILE }],
    ['error', { ...PROBLEM, title: HOSTILE, detail: HOSTILE, code: 'X<b>Y</b>', trace: undefined }],
    ['done', {}],
  ],
  // A result and then the connection closes without `done`: not a failure.
  'no-done': [
    ['stage', TRACE[0]],
    ['result', { ...RESULT, trace: [TRACE[0]] }],
  ],
};

/** A custom property's value in a style attribute ("--start: 0.000%; --width: 2.857%;"). */
const cssVar = (style: string, name: string): string => new RegExp(`${name}:\\s*([^;]+)`).exec(style)?.[1]?.trim() ?? '';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pageHtml(streamUrl: string): string {
  const attr = streamUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dossier</title><link rel="stylesheet" href="/live.css"></head>
<body><main>
<h1>did:key:z6MkTest</h1>
<section id="level-3" data-stream-url="${attr}" aria-labelledby="level-3-title">
  <h2 id="level-3-title">Level 3: how it was worked out</h2>
  <button id="run-live" type="button" hidden>Run again live</button>
  <p id="live-status" role="status" aria-live="polite"></p>
  <ol id="live-stages" class="waterfall"><li class="stage" data-stage="cached" data-status="PASS"><span class="stage-status">PASS</span> <code>cached</code> from the cache</li></ol>
  <div id="live-error" role="alert" hidden></div>
</section>
</main>
<script src="/live.js" defer></script>
</body></html>`;
}

describeBrowser('the live telemetry script (level 3)', () => {
  let browser: Browser;
  let server: http.Server;
  let origin: string;
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (type: string, body: string, headers: Record<string, string> = {}) =>
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(body);
      if (url.pathname.startsWith('/page/')) {
        const name = url.pathname.slice('/page/'.length);
        return send('text/html; charset=utf-8', pageHtml(`/v1/stream/${encodeURIComponent(`did:key:${name}`)}?noCache=true&s=${name}`), {
          'content-security-policy': CSP,
        });
      }
      if (url.pathname === '/live.js') return send('text/javascript; charset=utf-8', LIVE_JS);
      if (url.pathname === '/live.css') return send('text/css; charset=utf-8', LIVE_CSS);
      if (url.pathname.startsWith('/v1/stream/')) {
        const name = url.searchParams.get('s') ?? '';
        const frames = STREAMS[name];
        if (!frames) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end('no stream');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        void (async () => {
          for (const [event, data, delay] of frames) {
            if (delay) await sleep(delay);
            if (res.destroyed) return;
            res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
          }
          res.end();
        })();
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function open(name: string, javaScriptEnabled = true): Promise<OpenedPage> {
    const session = await openPage(browser, { javaScriptEnabled });
    opened.push(session);
    await session.page.goto(`${origin}/page/${name}`);
    return session;
  }

  const done = (page: Page) => page.waitForSelector('#live-stages[data-state="done"]', { state: 'attached', timeout: 10_000 });
  const stageNames = (page: Page) => page.$$eval('#live-stages > li.stage', (rows) => rows.map((row) => row.getAttribute('data-stage')));
  /** --start and --width of each bar (set through the CSSOM, they show in its style attribute). */
  const barVars = async (page: Page) =>
    (await page.$$eval('#live-stages .bar', (bars) => bars.map((bar) => bar.getAttribute('style') ?? ''))).map((style) => [
      cssVar(style, '--start'),
      cssVar(style, '--width'),
    ]);

  /** Everything a clean run must also be: no CSP report, no script error, no dialog, nothing off the origin. */
  function expectClean(session: OpenedPage): void {
    expect(cspViolations(session.consoleErrors)).toEqual([]);
    expect(session.pageErrors).toEqual([]);
    expect(session.dialogs).toEqual([]);
    expect(offOrigin(session.requests, origin)).toEqual([]);
  }

  it('draws stages one by one, re-scales the axis, and ends with exactly the result trace', async () => {
    const session = await open('ok');
    const { page } = session;
    await expect(page.isVisible('#run-live')).resolves.toBe(true);
    expect(await stageNames(page)).toEqual(['cached']); // the server-rendered trace until a live run

    // Every state the section passes through, recorded in the page as the DOM changes (a
    // MutationObserver sees each SSE frame's change, however busy the machine; polling could
    // miss one): the number of stages drawn, whether the run is done, the first bar's width.
    await page.evaluate(() => {
      const g = globalThis as any;
      const section = g.document.querySelector('#level-3');
      const seen: { count: number; done: boolean; firstStyle: string }[] = [];
      g.__liveStates = seen;
      const record = () => {
        const sample = {
          count: section.querySelectorAll('#live-stages > li.stage').length,
          done: (section.querySelector('#live-status')?.textContent ?? '').startsWith('Done'),
          firstStyle: section.querySelector('#live-stages .bar')?.getAttribute('style') ?? '',
        };
        const last = seen.at(-1);
        // One entry per run of equal counts, holding its latest look (the bar drawn by then).
        if (last && last.count === sample.count && last.done === sample.done) seen[seen.length - 1] = sample;
        else seen.push(sample);
      };
      new g.MutationObserver(record).observe(section, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await page.click('#run-live');
    expect(await page.isDisabled('#run-live')).toBe(true);
    expect(await page.textContent('#live-status')).toBe('Running…');
    await done(page);
    const seen = ((await page.evaluate(() => (globalThis as any).__liveStates)) as { count: number; done: boolean; firstStyle: string }[]).map((s) => ({
      count: s.count,
      done: s.done,
      firstWidth: cssVar(s.firstStyle, '--width'),
    }));
    // The run starts by clearing the cached trace (0 stages), then draws one stage per frame.
    const beforeResult = seen.filter((s) => !s.done).map((s) => s.count);
    expect(beforeResult.filter((count) => count > 0)).toEqual([1, 2, 3]);
    expect(beforeResult[0]).toBeLessThanOrEqual(1);
    // The first bar spans the whole axis alone, then a quarter of 1600 µs, a fifth of 2000 µs.
    expect(seen.filter((s) => !s.done && s.count > 0).map((s) => s.firstWidth)).toEqual(['100.000%', '25.000%', '20.000%']);

    await done(page);
    expect(await stageNames(page)).toEqual(RESULT.trace.map((s) => s.stage));
    expect(await page.getAttribute('#live-stages', 'data-count')).toBe('4');
    expect(await page.getAttribute('#level-3', 'data-observed-at')).toBe(OBSERVED_AT);
    expect(await page.textContent('#live-status')).toBe('Done: VERIFIED — Everything that could be checked holds. (4 stages in 14 ms)');
    expect(await page.isEnabled('#run-live')).toBe(true);
    expect(await page.isHidden('#live-error')).toBe(true);
    // One axis of 14000 µs: starts and widths as percentages of it.
    expect(await barVars(page)).toEqual([
      ['0.000%', '2.857%'],
      ['2.857%', '8.571%'],
      ['11.429%', '2.857%'],
      ['14.286%', '85.714%'],
    ]);
    // A word for the status, the stage name, its times as text, and the bar labelled with them.
    const second = page.locator('#live-stages > li.stage').nth(1);
    expect(await second.getAttribute('data-status')).toBe('PASS');
    expect(await second.locator('.stage-status').textContent()).toBe('PASS');
    expect(await second.locator('code').textContent()).toBe('resolve');
    expect(await second.locator('.stage-label').textContent()).toBe('The resolve stage');
    expect(await second.locator('.stage-time').textContent()).toBe('+0.4 ms, 1.2 ms');
    expect(await second.locator('.stage-detail').textContent()).toBe('resolve ok');
    expect(await second.locator('.bar').getAttribute('aria-label')).toBe('Starts at +0.4 ms, lasts 1.2 ms');
    expect(await page.locator('#live-stages > li.stage').nth(3).locator('.stage-time').textContent()).toBe('+2.0 ms, 12 ms');

    await screenshot(page, 'web-live-script-done');
    const violations = await axeViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);

    // Again: the list starts over and ends the same.
    await page.click('#run-live');
    await page.waitForSelector('#live-stages[data-state="running"]', { state: 'attached' });
    await done(page);
    expect(await stageNames(page)).toEqual(RESULT.trace.map((s) => s.stage));
    expectClean(session);
  });

  it('shows a problem with its code, title and detail, and its trace up to the failing stage', async () => {
    const session = await open('problem');
    const { page } = session;
    await page.click('#run-live');
    await done(page);
    expect(await page.isVisible('#live-error')).toBe(true);
    expect(await page.textContent('#live-error .problem-code')).toBe('NOT_FOUND');
    expect(await page.textContent('#live-error .problem-title')).toBe(PROBLEM.title);
    expect(await page.textContent('#live-error .problem-detail')).toBe(PROBLEM.detail);
    expect(await page.textContent('#live-status')).toBe('Failed: NOT_FOUND');
    expect(await stageNames(page)).toEqual(['parse', 'resolve']);
    expect(await page.$$eval('#live-stages > li.stage', (rows) => rows.map((row) => row.getAttribute('data-status')))).toEqual(['PASS', 'FAIL']);
    expect(await page.getAttribute('#live-stages', 'data-count')).toBe('2');
    expect(await page.isEnabled('#run-live')).toBe(true);
    await screenshot(page, 'web-live-script-problem');
    const violations = await axeViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);
    expectClean(session);
  });

  it('says so when the stream cannot be opened (HTTP 500)', async () => {
    const session = await open('missing');
    const { page } = session;
    await page.click('#run-live');
    await done(page);
    expect(await page.isVisible('#live-error')).toBe(true);
    expect(await page.textContent('#live-error')).toBe('The live stream could not be opened or was interrupted.');
    expect(await page.getAttribute('#live-stages', 'data-count')).toBe('0');
    expect(await page.isEnabled('#run-live')).toBe(true);
    // The failed request itself is reported by Chromium; nothing else may be.
    expect(cspViolations(session.consoleErrors)).toEqual([]);
    expect(session.pageErrors).toEqual([]);
    expect(session.requests.filter((r) => r.url.includes('/v1/stream/'))).toHaveLength(1); // closed, not retried
  });

  it('ends quietly when the connection closes after the result without a done frame', async () => {
    const session = await open('no-done');
    const { page } = session;
    await page.click('#run-live');
    await done(page);
    expect(await page.isHidden('#live-error')).toBe(true);
    expect(await page.textContent('#live-status')).toMatch(/^Done: VERIFIED/);
    expect(await stageNames(page)).toEqual(['parse']);
    expect(await page.isEnabled('#run-live')).toBe(true);
    await sleep(300);
    expect(session.requests.filter((r) => r.url.includes('/v1/stream/'))).toHaveLength(1); // no reconnection
    expectClean(session);
  });

  it('without JavaScript, the button stays hidden and the server-rendered trace stays', async () => {
    const session = await open('ok', false);
    const { page } = session;
    expect(await page.isHidden('#run-live')).toBe(true);
    expect(await stageNames(page)).toEqual(['cached']);
    expect(session.requests.some((r) => r.url.endsWith('/live.js'))).toBe(false);
  });

  it('shows hostile text from the stream as text', async () => {
    const session = await open('hostile');
    const { page } = session;
    await page.click('#run-live');
    await done(page);
    expect(await page.textContent('#live-stages .stage-detail')).toBe(HOSTILE);
    expect(await page.textContent('#live-stages .stage-label')).toBe(HOSTILE);
    expect(await page.textContent('#live-error .problem-title')).toBe(HOSTILE);
    expect(await page.textContent('#live-error .problem-detail')).toBe(HOSTILE);
    expect(await page.textContent('#live-error .problem-code')).toBe('X<b>Y</b>');
    expect(await page.locator('img, b').count()).toBe(0);
    await sleep(200);
    expect(session.requests.filter((r) => new URL(r.url).pathname === '/x')).toEqual([]);
    expectClean(session);
  });

  afterAll(async () => {
    await Promise.all(opened.map((session) => session.context.close().catch(() => {})));
  });
});
