/**
 * The cookie gateway in a real Chromium: a page on the gateway origin signs in (the JWS computed
 * in Node, posted by the page with fetch), then a forwarded GET /v1/session/projects from the
 * page carries the cookie and succeeds; document.cookie cannot read svc_session (HttpOnly).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { goneReason } from '../../src/store/schema/monitor-events.js';
import { describeBrowser, launchBrowser, offOrigin, openPage, screenshot } from '../support/browser.js';
import type { Daemon } from '../support/daemon.js';
import { didKeyPrincipal, gatewayUrl, seedOwner, signStatement, startGatewayDaemon } from '../support/gateway.js';

describeBrowser('the cookie gateway in a browser', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-gateway-browser-'));
  const dbPath = path.join(dir, 'svc.db');
  const owner = didKeyPrincipal();
  let projects: string[];
  let daemon: Daemon;
  let gw: string;
  let browser: Browser;

  beforeAll(async () => {
    projects = await seedOwner(dbPath, owner.did, ['browser', 'a-project-with-a-rather-long-name-for-a-phone-screen']);
    daemon = (await startGatewayDaemon({ dbPath })).daemon;
    gw = gatewayUrl(daemon);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in from the gateway origin; the cookie goes along and stays out of reach of scripts', async () => {
    const { page, context, requests, pageErrors } = await openPage(browser);
    try {
      await page.goto(`${gw}/`);
      expect(await page.textContent('h1')).toContain('svc owner gateway');
      const challenge = await page.evaluate(async (did) => {
        const res = await fetch('/sign-in/challenge', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ did }) });
        return { status: res.status, body: (await res.json()) as { challenge: string; statement: string } };
      }, owner.did);
      expect(challenge.status).toBe(201);
      const jws = signStatement(owner, challenge.body.statement);
      const signedIn = await page.evaluate(
        async (body) => {
          const res = await fetch('/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          return { status: res.status, body: (await res.json()) as { subject: string } };
        },
        { did: owner.did, challenge: challenge.body.challenge, jws },
      );
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.subject).toBe(owner.did);
      // HttpOnly: the browser holds it, scripts cannot read it.
      expect(await page.evaluate(() => (globalThis as any).document.cookie as string)).not.toContain('svc_session');
      const cookies = await context.cookies(gw);
      const session = cookies.find((c) => c.name === 'svc_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', secure: false });
      const forwarded = await page.evaluate(async () => {
        const res = await fetch('/v1/session/projects');
        return { status: res.status, body: (await res.json()) as { subject: string; projects: Array<{ id: string }> } };
      });
      expect(forwarded.status).toBe(200);
      expect(forwarded.body.subject).toBe(owner.did);
      expect(forwarded.body.projects.map((p) => p.id).sort()).toEqual([...projects].sort());
      // The owner page now lists the project.
      await page.goto(`${gw}/`);
      expect(await page.textContent('main')).toContain(projects[0]);
      expect(offOrigin(requests, gw)).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  /** The page's width beyond the viewport (0: no sideways scroll), and whether the daemon's stylesheet applied. */
  async function layoutOf(page: Page): Promise<{ overflow: number; styled: boolean }> {
    return page.evaluate(() => {
      const g = globalThis as any;
      const root = g.document.documentElement;
      const main = g.document.querySelector('main');
      return {
        overflow: root.scrollWidth - g.innerWidth,
        styled: g.getComputedStyle(main).maxWidth === '72rem' || g.getComputedStyle(main).maxWidth === '1152px',
      };
    });
  }

  it('the owner pages share the daemon’s stylesheet and icon, and wrap at 360 px (no sideways scroll), signed out and in', async () => {
    const { page, context, requests, consoleErrors } = await openPage(browser, { viewport: { width: 360, height: 740 } });
    try {
      const answer = await page.goto(`${gw}/`);
      expect(answer?.headers()['content-security-policy']).toContain("style-src 'self'");
      expect(await layoutOf(page)).toEqual({ overflow: 0, styled: true });
      await expect(page.locator('pre.command').evaluate((pre: any) => (globalThis as any).getComputedStyle(pre).whiteSpace)).resolves.toBe('pre-wrap');
      await screenshot(page, 'gateway-signed-out-360');
      // The icon and the stylesheet come from the gateway itself, under the daemon's names.
      for (const rel of ['stylesheet', 'icon']) {
        const href = (await page.locator(`head link[rel="${rel}"]`).getAttribute('href'))!;
        const daemonHtml = await (await fetch(`${daemon.url}/`)).text();
        expect(daemonHtml, rel).toContain(`href="${href}"`);
        const asset = await page.request.get(new URL(href, gw).href);
        expect(asset.status(), rel).toBe(200);
      }

      // Signed in, with a watch on a long DID in the long-named project.
      const challenge = await page.evaluate(async (did) => {
        const res = await fetch('/sign-in/challenge', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ did }) });
        return (await res.json()) as { challenge: string; statement: string };
      }, owner.did);
      const signedIn = await page.evaluate(
        async (body) => (await fetch('/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
        {
          did: owner.did,
          challenge: challenge.challenge,
          jws: signStatement(owner, challenge.statement),
        },
      );
      expect(signedIn).toBe(200);
      const added = await page.evaluate(
        async ({ project, did }) =>
          (
            await fetch(`/v1/session/projects/${project}/watches`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ did }),
            })
          ).status,
        { project: projects[1]!, did: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' },
      );
      expect(added).toBe(201);
      await page.goto(`${gw}/`);
      expect(await page.textContent('main')).toContain('a-project-with-a-rather-long-name-for-a-phone-screen');
      expect(await page.textContent('main')).toContain('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK');
      // Each project's deliveries: its webhook's state, replays and events by type (none yet).
      expect(await page.locator('ul.counts').first().textContent()).toMatch(
        /^Webhook: none set .*Replays in the last 30 days: 0Events in the last 30 days: none$/,
      );
      expect(await layoutOf(page)).toEqual({ overflow: 0, styled: true });
      await screenshot(page, 'gateway-signed-in-360');

      // A webhook its receiver turned off (410 Gone, as the deliverer records it): the note names
      // why and the fix, beside the counts; readable at 360 px and at 1280 px.
      const db = new Database(dbPath);
      try {
        db.prepare(
          `INSERT INTO customer_webhooks (project_id, url, secret, created_at, active, disabled_at, disabled_reason)
           VALUES (?, 'https://hooks.example/a-rather-long-receiver-path/for/svc-events', 'whsec_x', '2026-11-28T00:00:00Z', 0, ?, ?)`,
        ).run(projects[1]!, '2026-11-29T03:00:00Z', `${goneReason('2026-11-29T03:00:00Z', 'evt_12')}; set a webhook again to resume deliveries`);
      } finally {
        db.close();
      }
      await page.goto(`${gw}/`);
      expect(await page.locator('p.note').textContent()).toMatch(
        /^Webhook disabled: the receiver answered 410 Gone .*resume deliveries: svc owner webhook set --project /,
      );
      expect(await page.textContent('main')).toMatch(/Webhook: disabled since 2026-11-29T03:00:00Z/);
      expect(await layoutOf(page)).toEqual({ overflow: 0, styled: true });
      await screenshot(page, 'gateway-webhook-disabled-360');
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await layoutOf(page)).toEqual({ overflow: 0, styled: true });
      await screenshot(page, 'gateway-webhook-disabled-1280');
      expect(offOrigin(requests, gw)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
