/**
 * The cookie gateway in a real Chromium: a page on the gateway origin signs in (the JWS computed
 * in Node, posted by the page with fetch), then a forwarded GET /v1/session/projects from the
 * page carries the cookie and succeeds; document.cookie cannot read svc_session (HttpOnly).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, launchBrowser, offOrigin, openPage } from '../support/browser.js';
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
    projects = await seedOwner(dbPath, owner.did, ['browser']);
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
      expect(forwarded.body.projects.map((p) => p.id)).toEqual(projects);
      // The owner page now lists the project.
      await page.goto(`${gw}/`);
      expect(await page.textContent('main')).toContain(projects[0]);
      expect(offOrigin(requests, gw)).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
