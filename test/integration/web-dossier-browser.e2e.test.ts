/**
 * The web dossier in real Chromium (playwright-core with Debian's chromium) against a real
 * `svc serve` and a real HTTPS did:web host on loopback: the acceptance of the web dossier —
 * search to level 1, the evidence graph of a failing domain binding, live telemetry, the time
 * machine, no JavaScript, hostile documents, accessibility (axe), and the offline file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
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
import { json } from '../support/https-server.js';
import { didConfiguration, generateTestKey, linkageCredentialJwt, type TestKey } from '../support/signing.js';

const DID_KEY = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const LEVEL_TITLES = ['Verdict and dimensions', 'Evidence graph', 'Substrate inspector and time machine'];

function multikeyDocument(did: string, key: TestKey, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [{ id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase: key.multikey }],
    authentication: ['#key-1'],
    assertionMethod: ['#key-1'],
    ...extra,
  };
}

describeBrowser('the web dossier in Chromium', () => {
  let browser: Browser;
  let host: DidWebHost;
  let daemon: Daemon;
  let failing: string;

  beforeAll(async () => {
    host = await startDidWebHost();
    daemon = await startDaemonFor(host);
    browser = await launchBrowser();
    // A did:web whose DID configuration holds a credential signed by a key the document does not have.
    failing = host.did('binding', 'fails');
    host.publish(failing, multikeyDocument(failing, host.key));
    const origin = `https://localhost:${host.server.port}`;
    host.server.route(
      '/.well-known/did-configuration.json',
      json(didConfiguration(linkageCredentialJwt(failing, origin, generateTestKey('EdDSA'), `${failing}#key-1`))),
    );
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await host?.close();
  });

  it('/ → type a did:key → level 1 lists seven dimensions in three classes with proves / does not prove', async () => {
    const { page, context, requests, pageErrors } = await openPage(browser);
    try {
      await page.goto(`${daemon.url}/`);
      await page.getByLabel('A DID to examine').fill(DID_KEY);
      await expect(page.getByRole('search').count()).resolves.toBe(1);
      await page.getByRole('button', { name: 'Show evidence' }).click();
      await page.waitForURL(`${daemon.url}/d/${DID_KEY}`);
      const level1 = page.locator('#level-1');
      await expect(level1.getByRole('heading', { name: /Verdict and dimensions/ }).isVisible()).resolves.toBe(true);
      const classes = await level1.locator('.class-group h3').allInnerTexts();
      expect(classes.map((t) => t.replace(/^\S+\s+/, '').replace(/\s*\(\d+\)$/, ''))).toEqual(['Confirmed', 'Needs attention', 'Not confirmed']);
      const cards = level1.locator('article.dimension');
      await expect(cards.count()).resolves.toBe(7);
      for (let i = 0; i < 7; i++) {
        const card = cards.nth(i);
        await expect(card.locator('dd.proves').isVisible()).resolves.toBe(true);
        await expect(card.locator('dd.does-not-prove').isVisible()).resolves.toBe(true);
        expect((await card.locator('dd.proves').innerText()).length).toBeGreaterThan(5);
      }
      const organization = page.locator('[data-dimension="organization"]');
      await expect(organization.getAttribute('data-state')).resolves.toBe('NOT_ESTABLISHED');
      await expect(page.locator('[data-class="notConfirmed"] [data-dimension="organization"]').count()).resolves.toBe(1);
      await screenshot(page, 'dossier-did-key');
      expect(offOrigin(requests, daemon.url)).toEqual([]);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a did:web with a failing domain binding: origin and TLS nodes, a FAILED edge labelled so, the edge table equal to the JSON result', async () => {
    const { page, context } = await openPage(browser);
    try {
      await page.goto(`${daemon.url}/d/${failing}?noCache=true`);
      const svg = page.locator('#level-2 svg.evidence-graph');
      await expect(svg.isVisible()).resolves.toBe(true);
      await expect(svg.locator('g.node[data-kind="origin"]').count()).resolves.toBeGreaterThan(0);
      await expect(svg.locator('g.node[data-kind="tls"]').count()).resolves.toBe(1);
      const failed = svg.locator('g.edge[data-state="FAILED"]');
      await expect(failed.count()).resolves.toBeGreaterThan(0);
      expect(await failed.first().textContent()).toContain('FAILED');
      await expect(failed.first().getAttribute('data-relation')).resolves.toBe('linksDomain');

      const result = (await (await fetch(`${daemon.url}/v1/graph/${failing}`)).json()) as {
        edges: Array<{ from: string; to: string; relation: string; state: string }>;
      };
      const rows = await page.locator('#edge-table tbody tr').evaluateAll((trs: any[]) =>
        trs.map((tr: any) => ({
          from: tr.getAttribute('data-from'),
          to: tr.getAttribute('data-to'),
          relation: tr.getAttribute('data-relation'),
          state: tr.getAttribute('data-state'),
        })),
      );
      expect(rows).toEqual(result.edges);
      // Each node links to its evidence in level 4.
      const tlsLink = await svg.locator('g.node[data-kind="tls"]').locator('xpath=ancestor-or-self::*[local-name()="a"][1]').getAttribute('href');
      expect(tlsLink).toBe('#evidence-tls');
      await expect(page.locator('#evidence-tls').count()).resolves.toBe(1);
      await expect(page.locator('#evidence-domain-binding .credential[data-status="INVALID_PROOF"]').count()).resolves.toBe(1);
      await screenshot(page, 'dossier-did-web-failing-binding');
    } finally {
      await context.close();
    }
  });

  it('live telemetry: stage rows appear one by one, and their count and order equal the final trace', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    try {
      await page.goto(`${daemon.url}/d/${failing}`);
      // Record the row count at every change of the list while the stream runs.
      await page.evaluate(() => {
        const g = globalThis as any;
        const list = g.document.getElementById('live-stages');
        const counts: number[] = [];
        g.counts = counts;
        new g.MutationObserver(() => counts.push(list.querySelectorAll('li.stage').length)).observe(list, { childList: true });
      });
      await page.getByRole('button', { name: 'Run again live' }).click();
      await page.locator('#live-stages[data-state="done"]').waitFor({ timeout: 20_000 });
      const shown = await page.locator('#live-stages li.stage').evaluateAll((lis: any[]) => lis.map((li: any) => li.getAttribute('data-stage')));
      const observedAt = await page.locator('#level-3').getAttribute('data-observed-at');
      const counts = await page.evaluate(() => (globalThis as any).counts as number[]);
      // The list was cleared, then grew one row at a time up to the final count.
      const growth = counts.slice(counts.lastIndexOf(0) + 1);
      expect(growth.length).toBeGreaterThanOrEqual(3);
      expect(growth).toEqual(Array.from({ length: growth.length }, (_, i) => i + 1));
      // The final list is the trace of the result the stream delivered (the cache holds it now).
      const latest = (await (await fetch(`${daemon.url}/v1/resolve/${failing}`)).json()) as { trace: Array<{ stage: string }>; observedAt: string };
      expect(latest.observedAt).toBe(observedAt);
      expect(shown).toEqual(latest.trace.map((s) => s.stage));
      expect(growth[growth.length - 1]).toBe(latest.trace.length);
      await expect(page.locator('#live-status').innerText()).resolves.toMatch(/^Done: RESOLVED_WITH_WARNINGS/);
      expect(cspViolations(consoleErrors)).toEqual([]);
      await screenshot(page, 'dossier-live-telemetry');
    } finally {
      await context.close();
    }
  });

  it('live telemetry: a resolution that fails shows the problem and the stages up to the failing one', async () => {
    const did = host.did('vanishes');
    host.publish(did, multikeyDocument(did, host.key));
    const { page, context } = await openPage(browser);
    try {
      await page.goto(`${daemon.url}/d/${did}?noCache=true`);
      host.server.route(`/vanishes/did.json`, (_req, res) => {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
      });
      await page.getByRole('button', { name: 'Run again live' }).click();
      await page.locator('#live-stages[data-state="done"]').waitFor({ timeout: 20_000 });
      const error = page.locator('#live-error');
      await expect(error.isVisible()).resolves.toBe(true);
      expect(await error.innerText()).toContain('NOT_FOUND');
      const stages = await page
        .locator('#live-stages li.stage')
        .evaluateAll((lis: any[]) => lis.map((li: any) => [li.getAttribute('data-stage'), li.getAttribute('data-status')]));
      expect(stages.at(-1)).toEqual(['web.fetch', 'FAIL']);
      await expect(page.locator('#live-status').innerText()).resolves.toBe('Failed: NOT_FOUND');
      await expect(page.getByRole('button', { name: 'Run again live' }).isEnabled()).resolves.toBe(true);
    } finally {
      await context.close();
    }
  });

  it('time machine: a host rotated a key → the diff names the key and marks it in both documents', async () => {
    const did = host.did('rotates');
    const [a, b] = [generateTestKey('EdDSA'), generateTestKey('EdDSA')];
    host.publish(did, multikeyDocument(did, a));
    await fetch(`${daemon.url}/v1/resolve/${did}?noCache=true`);
    host.publish(did, multikeyDocument(did, b));
    const { page, context } = await openPage(browser);
    try {
      await page.goto(`${daemon.url}/d/${did}?noCache=true`);
      const summary = page.locator('#diff .diff-summary li[data-kind="keysRotated"]');
      await expect(summary.count()).resolves.toBe(1);
      expect(await summary.innerText()).toContain('#key-1');
      for (const side of ['from', 'to'] as const) {
        const mark = page.locator(`pre.document-${side} mark[data-change="rotated"][data-member="${did}#key-1"]`);
        await expect(mark.count(), side).resolves.toBe(1);
        expect(await mark.innerText()).toContain(side === 'from' ? a.multikey : b.multikey);
      }
      // Any two observations, without JavaScript: the form submits from/to and the page diffs them.
      await page.selectOption('#diff-from', { index: 1 });
      await page.getByRole('button', { name: 'Compare' }).click();
      await page.waitForURL(/[?&]from=[0-9a-f]+/);
      await expect(page.locator('#diff').count()).resolves.toBe(1);
      await screenshot(page, 'dossier-time-machine');
    } finally {
      await context.close();
    }
  });

  it('with JavaScript disabled, levels 1, 2 and 4 render (and the live button stays hidden)', async () => {
    const { page, context } = await openPage(browser, { javaScriptEnabled: false });
    try {
      await page.goto(`${daemon.url}/d/${failing}`);
      for (const title of LEVEL_TITLES) await expect(page.getByRole('heading', { name: new RegExp(title) }).isVisible(), title).resolves.toBe(true);
      await expect(page.locator('article.dimension').count()).resolves.toBe(7);
      await expect(page.locator('svg.evidence-graph g.edge').first().isVisible()).resolves.toBe(true);
      await expect(page.locator('#evidence-document pre').isVisible()).resolves.toBe(true);
      await expect(page.locator('#run-live').isVisible()).resolves.toBe(false);
    } finally {
      await context.close();
    }
  });

  it('a hostile did:web document renders as text: no script runs, no request leaves the origin', async () => {
    const did = host.did('hostile');
    const payloads = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "'><svg onload=alert(3)>", 'javascript:alert(4)'];
    host.publish(
      did,
      multikeyDocument(did, host.key, {
        service: payloads
          .map((p, i) => ({ id: `${did}#svc-${i}${encodeURIComponent(p)}`, type: p, serviceEndpoint: `https://evil.example/${p}` }))
          .concat([{ id: `${did}#raw`, type: 'LinkedDomains', serviceEndpoint: payloads[1]! }]),
        alsoKnownAs: payloads,
      }),
    );
    const { page, context, requests, dialogs, pageErrors, consoleErrors } = await openPage(browser);
    try {
      const answer = await page.goto(`${daemon.url}/d/${did}?noCache=true`);
      expect(answer?.status()).toBe(200);
      await page.waitForLoadState('networkidle');
      expect(dialogs).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(offOrigin(requests, daemon.url)).toEqual([]);
      await expect(page.locator('main img, main iframe, main object, main script').count()).resolves.toBe(0);
      await expect(page.locator('body').innerText()).resolves.toContain('"><img src=x onerror=alert(2)>');
      expect(cspViolations(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('axe: no serious or critical violations on /, a dossier and a problem page', async () => {
    for (const target of ['/', `/d/${failing}`, '/d/did:example:123']) {
      const { page, context } = await openPage(browser);
      try {
        await page.goto(`${daemon.url}${target}`);
        const violations = await axeViolations(page);
        expect(violations, `${target}\n${formatViolations(violations)}`).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('readable from 360 px wide: nothing overflows the page sideways', async () => {
    const { page, context } = await openPage(browser, { viewport: { width: 360, height: 740 } });
    try {
      await page.goto(`${daemon.url}/d/${failing}`);
      // Elements that reach past the right edge (inside a scrolling box is fine: pre, the graph's figure, tables).
      const { offenders, overflow } = await sidewaysOverflow(page);
      expect(offenders).toEqual([]);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, 'dossier-360px');
    } finally {
      await context.close();
    }
  });

  it('svc resolve <did> --html out.html opens from file:// with no network and shows level 1', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-html-'));
    try {
      const file = path.join(dir, 'out.html');
      const run = await svc(['resolve', DID_KEY, '--html', file, '--db', path.join(dir, 'svc.db')], cleanEnv());
      expect(run.exitCode, run.stderr).toBe(0);
      const { page, context, requests, consoleErrors } = await openPage(browser);
      try {
        await page.goto(pathToFileURL(file).href);
        await expect(page.locator('#level-1 article.dimension').count()).resolves.toBe(7);
        await expect(page.getByRole('heading', { name: /Verdict and dimensions/ }).isVisible()).resolves.toBe(true);
        // The inline stylesheet applied (its hash is in the page's own policy): the verdict has its border.
        const border = await page.locator('.verdict').evaluate((el) => (globalThis as any).getComputedStyle(el).borderLeftWidth as string);
        expect(border).toBe('6px');
        expect(offOrigin(requests, pathToFileURL(file).href)).toEqual([]);
        expect(cspViolations(consoleErrors)).toEqual([]);
        await screenshot(page, 'offline-file');
      } finally {
        await context.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
