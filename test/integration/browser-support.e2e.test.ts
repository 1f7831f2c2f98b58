/**
 * The browser test support (test/support/browser.ts) does what later browser tests rely on: a
 * script that runs is seen to run (DOM, dialogs), one that must not run does not, requests that
 * leave the origin are logged, screenshots are written, and axe finds a real violation while
 * passing a clean page.
 */
import { existsSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeViolations, describeBrowser, formatViolations, launchBrowser, offOrigin, openPage, screenshot } from '../support/browser.js';

const REMOTE_IMAGE = 'http://203.0.113.7/x.png';

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const ROUTES: Record<string, { type: string; body: string | Buffer }> = {
  '/': {
    type: 'text/html; charset=utf-8',
    body: page('Support', `<main><h1>Support</h1><p id="target">before</p><img src="${REMOTE_IMAGE}" alt="remote"></main><script src="/app.js"></script>`),
  },
  '/app.js': { type: 'text/javascript', body: `document.getElementById('target').textContent = 'after';` },
  '/alert': { type: 'text/html; charset=utf-8', body: page('Alert', '<main><h1>Alert</h1></main><script src="/alert.js"></script>') },
  '/alert.js': { type: 'text/javascript', body: `alert('a script ran');` },
  '/bad': { type: 'text/html; charset=utf-8', body: page('Bad', '<main><h1>Bad</h1><img src="/pixel.png"></main>') },
  '/good': {
    type: 'text/html; charset=utf-8',
    body: page('Good', '<main><h1>Good</h1><img src="/pixel.png" alt="A single pixel"><label for="q">Query</label><input id="q" type="text"></main>'),
  },
  '/pixel.png': { type: 'image/png', body: PNG_1X1 },
};

describeBrowser('browser test support', () => {
  let browser: Browser;
  let server: http.Server;
  let origin: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const route = ROUTES[new URL(req.url ?? '/', 'http://x').pathname];
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': route.type, 'cache-control': 'no-store' }).end(route.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('sees a same-origin script run and logs the request that left the origin', async () => {
    const { page, context, requests, pageErrors, dialogs } = await openPage(browser);
    await page.goto(`${origin}/`);
    await expect.poll(() => page.textContent('#target')).toBe('after');
    expect(requests.map((r) => r.url)).toEqual(expect.arrayContaining([`${origin}/`, `${origin}/app.js`]));
    expect(offOrigin(requests, origin)).toEqual([{ url: REMOTE_IMAGE, method: 'GET', resourceType: 'image' }]);
    expect(offOrigin(requests, page.url())).toHaveLength(1); // any URL of the page will do
    expect(pageErrors).toEqual([]);
    expect(dialogs).toEqual([]);
    await context.close();
  });

  it('offOrigin allows data: URLs, and counts everything but file: and data: for a file:// page', () => {
    const log = [
      { url: 'data:image/png;base64,AAAA', method: 'GET', resourceType: 'image' },
      { url: 'file:///tmp/dossier/app.js', method: 'GET', resourceType: 'script' },
      { url: 'http://127.0.0.1:1/x', method: 'GET', resourceType: 'fetch' },
    ];
    expect(offOrigin(log, 'file:///tmp/dossier/index.html').map((r) => r.url)).toEqual(['http://127.0.0.1:1/x']);
    expect(offOrigin(log, 'http://127.0.0.1:1').map((r) => r.url)).toEqual(['file:///tmp/dossier/app.js']);
  });

  it('does not run scripts in a context with JavaScript disabled', async () => {
    const { page, context, requests } = await openPage(browser, { javaScriptEnabled: false });
    await page.goto(`${origin}/`);
    expect(await page.textContent('#target')).toBe('before');
    expect(requests.some((r) => r.url === `${origin}/` && r.resourceType === 'document')).toBe(true);
    await context.close();
  });

  it('records a dialog, which means a script ran', async () => {
    const { page, context, dialogs } = await openPage(browser);
    await page.goto(`${origin}/alert`);
    await expect.poll(() => dialogs).toEqual(['alert: a script ran']);
    await context.close();
  });

  it('writes a full-page screenshot', async () => {
    const { page, context } = await openPage(browser, { viewport: { width: 400, height: 300 } });
    await page.goto(`${origin}/good`);
    const file = await screenshot(page, 'browser-support-good');
    expect(file.endsWith('test-artefacts/browser/browser-support-good.png')).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).size).toBeGreaterThan(100);
    await context.close();
  });

  it('runs axe: an image without a text alternative is a violation, a clean page has none', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${origin}/bad`);
    const bad = await axeViolations(page);
    const imageAlt = bad.find((v) => v.id === 'image-alt');
    expect(imageAlt, formatViolations(bad)).toMatchObject({ impact: 'critical', nodes: ['img'] });
    expect(formatViolations(bad)).toContain('[critical] image-alt:');

    await page.goto(`${origin}/good`);
    const good = await axeViolations(page);
    expect(good, formatViolations(good)).toEqual([]);
    expect(formatViolations(good)).toBe('no serious or critical accessibility violations');
    await context.close();
  });
});
