/**
 * The web view of an MCP inspection in real Chromium (playwright-core, Debian's chromium)
 * against a real `svc serve`: the reference server @modelcontextprotocol/server-everything run as
 * a process (test/support/mcp-peers.ts) — reached from the front page through the form, its 13
 * tools, 4 prompts, 7 resources and 2 resource templates rendered, readable at 1280 and 390 px
 * with nothing scrolling sideways —, a poisoned SDK server whose text runs nothing, a server that
 * requires authentication, a problem page, accessibility (axe), and `svc inspect-mcp --html` opened from file:// with no network.
 * Screenshots go to test-artefacts/browser.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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
  sidewaysOverflow,
} from '../support/browser.js';
import { cleanEnv, svc } from '../support/cli.js';
import type { Daemon } from '../support/daemon.js';
import { startDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { PEERS, startPeer, type PeerProcess } from '../support/mcp-peers.js';
import { PLAIN_TOOLS, POISONED_ITEMS, POISONED_TOOLS, startAuthServer, startSdk2Server, type McpTestServer } from '../support/mcp-servers.js';

/** What server-everything lists (its 2.x release): the counts the page must show. */
const EVERYTHING = { tools: 13, prompts: 4, resources: 7, 'resource-templates': 2 } as const;

const mcpUrl = (daemon: Daemon, endpoint: string) => `${daemon.url}/mcp?${new URLSearchParams({ endpoint }).toString()}`;

/** The item cards of each section, counted. */
async function counts(page: Page): Promise<Record<keyof typeof EVERYTHING, number>> {
  const out = {} as Record<keyof typeof EVERYTHING, number>;
  for (const id of Object.keys(EVERYTHING) as Array<keyof typeof EVERYTHING>) out[id] = await page.locator(`#${id} article.mcp-item`).count();
  return out;
}

/** Opens every <details> (the transcript, the instructions), so their content is measured too. */
async function openAll(page: Page): Promise<void> {
  await page.evaluate(() => (globalThis as any).document.querySelectorAll('details').forEach((d: any) => (d.open = true)));
}

// An inspection and three axe passes in Chromium: on a loaded machine more than the default 30 s.
describeBrowser('the MCP inspection page in Chromium', { timeout: 90_000 }, () => {
  let browser: Browser;
  let host: DidWebHost;
  let daemon: Daemon;
  let everything: PeerProcess;
  let poisoned: McpTestServer;

  beforeAll(async () => {
    host = await startDidWebHost();
    poisoned = await startSdk2Server({
      host,
      path: '/poisoned',
      tools: [
        PLAIN_TOOLS[0]!,
        ...POISONED_TOOLS,
        { name: 'render_page', title: '<svg onload=alert(3)>', description: '"><img src=x onerror=alert(2)><script>alert(1)</script>' },
      ],
      ...POISONED_ITEMS,
    });
    host.server.route('/not-mcp', raw('<!doctype html><title>Welcome</title><p>A web site.', { contentType: 'text/html' }));
    // The daemon trusts the host's CA and may reach 127.0.0.0/8 (server-everything speaks plain http there).
    daemon = await startDaemonFor(host);
    everything = await startPeer(PEERS.find((p) => p.id === 'server-everything')!);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await everything?.close();
    await poisoned?.close();
    await host?.close();
  });

  it('/ → "inspect an MCP endpoint" → type the reference server → 13 tools, 4 prompts, 7 resources, 2 templates at 1280 px, nothing sideways', async () => {
    const { page, context, requests, pageErrors, consoleErrors } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${daemon.url}/`);
      await page.getByRole('link', { name: 'inspect an MCP endpoint' }).click();
      await page.waitForURL(`${daemon.url}/mcp`);
      await page.getByLabel('MCP endpoint (Streamable HTTP)').fill(everything.url);
      await page.getByRole('button', { name: 'Inspect' }).click();
      await page.waitForURL(mcpUrl(daemon, everything.url));
      await expect(page.locator('article.mcp-inspection').getAttribute('data-status')).resolves.toBe('INSPECTED');
      await expect(page.locator('.verdict .headline').innerText()).resolves.toMatch(
        /^mcp-servers\/everything: 13 tools, 4 prompts, 7 resources, 2 resource templates; MCP 2025-11-25, session/,
      );
      expect(await counts(page)).toEqual(EVERYTHING);
      await expect(page.locator('#checks li.mcp-check').count()).resolves.toBe(6);
      // The flagged tools come first in their section, and the attention box links to them.
      const flagged = await page.locator('#tools article.mcp-item').evaluateAll((cards: any[]) => cards.map((c) => Number(c.getAttribute('data-signals')) > 0));
      expect(flagged.indexOf(false)).toBe(flagged.filter(Boolean).length);
      expect(flagged.filter(Boolean).length).toBeGreaterThan(0);
      await expect(page.locator('#attention a').count()).resolves.toBe(flagged.filter(Boolean).length);
      // The transcript is collapsed until asked for.
      await expect(page.locator('#transcript details').getAttribute('open')).resolves.toBeNull();
      await expect(page.locator('#transcript .mcp-exchanges').isVisible()).resolves.toBe(false);
      await page.locator('#transcript summary').click();
      await expect(page.locator('#transcript .mcp-exchanges').isVisible()).resolves.toBe(true);
      await openAll(page);
      expect(await sidewaysOverflow(page)).toEqual({ offenders: [], overflow: 0 });
      await screenshot(page, 'mcp-everything-1280');
      expect(offOrigin(requests, daemon.url)).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(cspViolations(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('at 390 px wide: the same counts, nothing reaches past the right edge, long URIs and hashes wrap', async () => {
    const { page, context } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    try {
      await page.goto(mcpUrl(daemon, everything.url));
      expect(await counts(page)).toEqual(EVERYTHING);
      await openAll(page);
      expect(await sidewaysOverflow(page)).toEqual({ offenders: [], overflow: 0 });
      // The inventory hash wraps inside its column instead of widening the page.
      const hash = await page.locator('#server .hash-full').boundingBox();
      expect(hash!.x + hash!.width).toBeLessThanOrEqual(390);
      expect(hash!.height).toBeGreaterThan(20);
      await screenshot(page, 'mcp-everything-390');
    } finally {
      await context.close();
    }
  });

  it('a poisoned server: its text is shown as text, invisible characters as U+XXXX; no script runs, nothing loads', async () => {
    const { page, context, requests, dialogs, pageErrors, consoleErrors } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    try {
      const answer = await page.goto(mcpUrl(daemon, poisoned.url));
      expect(answer?.status()).toBe(200);
      await page.waitForLoadState('networkidle');
      expect(dialogs).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(cspViolations(consoleErrors)).toEqual([]);
      expect(offOrigin(requests, daemon.url)).toEqual([]);
      await expect(page.locator('main img, main iframe, main object, main script, main svg').count()).resolves.toBe(0);
      const text = await page.locator('main').innerText();
      expect(text).toContain('<IMPORTANT>');
      expect(text).toContain('"><img src=x onerror=alert(2)><script>alert(1)</script>');
      expect(text).not.toMatch(/[\u200B\u200D]|[\u{E0000}-\u{E007F}]/u);
      await expect(page.locator('[data-key="lookup_word"] .codepoint').first().innerText()).resolves.toBe('U+200B');
      // The plain tool the server listed first comes after every poisoned one.
      const keys = await page.locator('#tools article.mcp-item').evaluateAll((cards: any[]) => cards.map((c) => c.getAttribute('data-key')));
      expect(keys.slice(0, POISONED_TOOLS.length)).toEqual(POISONED_TOOLS.map((t) => t.name));
      expect(keys.slice(POISONED_TOOLS.length).sort()).toEqual(['get_weather', 'render_page']);
      await expect(page.locator('#attention').isVisible()).resolves.toBe(true);
      await screenshot(page, 'mcp-poisoned-1280');
    } finally {
      await context.close();
    }
  });

  it('a server that requires authentication: AUTH_REQUIRED with its challenge, readable at 390 px', async () => {
    const auth = await startAuthServer({ host, path: '/auth' });
    const { page, context } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    try {
      await page.goto(mcpUrl(daemon, auth.url));
      await expect(page.locator('article.mcp-inspection').getAttribute('data-status')).resolves.toBe('AUTH_REQUIRED');
      await expect(page.locator('#auth').innerText()).resolves.toContain(auth.challenge);
      await openAll(page);
      expect(await sidewaysOverflow(page)).toEqual({ offenders: [], overflow: 0 });
      await screenshot(page, 'mcp-auth-390');
    } finally {
      await context.close();
      await auth.close();
    }
  });

  it('a URL that is no MCP endpoint is a problem page, with the form filled in', async () => {
    const endpoint = `${host.server.origin}/not-mcp`;
    const { page, context } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    try {
      const answer = await page.goto(mcpUrl(daemon, endpoint));
      expect(answer?.status()).toBe(502);
      await expect(page.locator('article.problem').getAttribute('data-code')).resolves.toBe('UPSTREAM_UNAVAILABLE');
      await expect(page.getByLabel('MCP endpoint (Streamable HTTP)').inputValue()).resolves.toBe(endpoint);
      expect(await sidewaysOverflow(page)).toEqual({ offenders: [], overflow: 0 });
      await screenshot(page, 'mcp-problem-390');
    } finally {
      await context.close();
    }
  });

  it('axe: no serious or critical violations on the form, an inspection and a problem page', async () => {
    for (const target of [
      '/mcp',
      `/mcp?${new URLSearchParams({ endpoint: everything.url })}`,
      `/mcp?${new URLSearchParams({ endpoint: poisoned.url })}`,
      '/mcp?endpoint=not-a-url',
    ]) {
      const { page, context } = await openPage(browser);
      try {
        await page.goto(`${daemon.url}${target}`);
        await openAll(page);
        const violations = await axeViolations(page);
        expect(violations, `${target}\n${formatViolations(violations)}`).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('svc inspect-mcp --html: the same page as one file, opened from file:// with no network', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-mcp-html-'));
    try {
      const file = path.join(dir, 'everything.html');
      const run = await svc(['inspect-mcp', everything.url, '--egress-allow', '127.0.0.1/32', '--no-store', '--html', file, '--json'], cleanEnv());
      expect(run.exitCode, run.stderr).toBe(3);
      expect(run.stderr).toBe(`svc: the inspection page is in ${file}`);
      const { page, context, requests, consoleErrors } = await openPage(browser, { viewport: { width: 390, height: 844 } });
      try {
        await page.goto(pathToFileURL(file).href);
        expect(await counts(page)).toEqual(EVERYTHING);
        // The inline stylesheet applied (its hash is in the page's own policy): a flagged card has its red edge.
        const border = await page
          .locator('article.mcp-flagged')
          .first()
          .evaluate((el) => (globalThis as any).getComputedStyle(el).borderLeftWidth as string);
        expect(border).toBe('6px');
        await expect(page.locator('form.mcp-form').count()).resolves.toBe(0);
        expect(offOrigin(requests, pathToFileURL(file).href)).toEqual([]);
        expect(cspViolations(consoleErrors)).toEqual([]);
        await openAll(page);
        expect(await sidewaysOverflow(page)).toEqual({ offenders: [], overflow: 0 });
      } finally {
        await context.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
