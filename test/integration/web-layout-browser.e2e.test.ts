/**
 * The web dossier's layout in real Chromium at 1280 and 390 px: a did:web with three
 * keys, two services and a failing domain binding, whose graph crowds labels near the keys.
 * Measured, not eyeballed: no two graph labels overlap (nor a label a node), nothing scrolls the
 * page sideways, a table cell never breaks inside a word, the documents' `<pre>` keep their
 * lines, "Needs attention" comes first on a phone while the graph keeps its natural size in a
 * scrolling box, every node's full name is its accessible name and in the table, and the
 * favicon is served. Screenshots land in test-artefacts/browser/.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { artefactDir, describeBrowser, launchBrowser, offOrigin, openPage, screenshot } from '../support/browser.js';
import type { Daemon } from '../support/daemon.js';
import { startDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import { didConfiguration, didDocument, generateTestKey, linkageCredentialJwt } from '../support/signing.js';

const WIDTHS = [1280, 390] as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

/** Every pair of boxes that overlap, named. */
function overlapping(boxes: Array<{ name: string; box: Box }>): string[] {
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) if (overlaps(boxes[i]!.box, boxes[j]!.box)) out.push(`${boxes[i]!.name} ✕ ${boxes[j]!.name}`);
  }
  return out;
}

/** Words (runs of letters and digits) of the table's cells that the browser broke across lines. */
function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const g = globalThis as any;
    const out: string[] = [];
    for (const cell of g.document.querySelectorAll(sel)) {
      const walker = g.document.createTreeWalker(cell, 4 /* SHOW_TEXT */);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text: string = node.data;
        for (const m of text.matchAll(/[A-Za-z0-9_]+/g)) {
          const range = g.document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r: any) => r.width > 0).map((r: any) => Math.round(r.top)));
          if (lines.size > 1) out.push(`${m[0]} (${cell.tagName.toLowerCase()}.${cell.className})`);
        }
      }
    }
    return out;
  }, selector);
}

describeBrowser('the web dossier’s layout at 1280 and 390 px', () => {
  let browser: Browser;
  let host: DidWebHost;
  let daemon: Daemon;
  let did: string;

  beforeAll(async () => {
    host = await startDidWebHost();
    daemon = await startDaemonFor(host);
    browser = await launchBrowser();
    did = host.did('layout', 'three-keys-and-services');
    const doc = didDocument(did, host.key, [
      { fragment: 'signing-key-p256-2026', key: generateTestKey('ES256') },
      { fragment: 'recovery-key-secp256k1', key: generateTestKey('ES256K') },
    ]);
    const ids = (doc['verificationMethod'] as Array<{ id: string }>).map((m) => m.id);
    Object.assign(doc, {
      capabilityInvocation: [ids[0]],
      capabilityDelegation: [ids[0], ids[1]],
      keyAgreement: [ids[2]],
      service: [
        { id: `${did}#linked-domain`, type: 'LinkedDomains', serviceEndpoint: `https://localhost:${host.server.port}` },
        { id: `${did}#messaging-endpoint`, type: 'DIDCommMessaging', serviceEndpoint: 'https://messaging.example/inbox' },
      ],
    });
    host.publish(did, doc);
    // A DID configuration whose credential is signed by a key the document does not have: FAILED.
    host.server.route(
      '/.well-known/did-configuration.json',
      json(didConfiguration(linkageCredentialJwt(did, `https://localhost:${host.server.port}`, generateTestKey('EdDSA'), `${did}#key-1`))),
    );
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await host?.close();
  });

  for (const width of WIDTHS) {
    it(`${width} px: graph labels overlap nothing, no sideways scroll, no word broken in the edge table`, async () => {
      const { page, context, requests, pageErrors } = await openPage(browser, { viewport: { width, height: 900 } });
      try {
        await page.goto(`${daemon.url}/d/${did}`);
        await screenshot(page, `layout-dossier-${width}`);
        await page.locator('#level-2').screenshot({ path: path.join(artefactDir(), `layout-graph-${width}.png`) });

        const labels = await page.locator('svg.evidence-graph g.edge').evaluateAll((gs: any[]) =>
          gs.map((g: any) => {
            const r = g.getBoundingClientRect();
            return { name: `${g.getAttribute('data-relation')}:${g.getAttribute('data-to')}`, box: { x: r.x, y: r.y, width: r.width, height: r.height } };
          }),
        );
        const nodes = await page.locator('svg.evidence-graph g.node rect.node-box').evaluateAll((rects: any[]) =>
          rects.map((rect: any) => {
            const r = rect.getBoundingClientRect();
            return { name: `node ${rect.parentElement.getAttribute('data-node-id')}`, box: { x: r.x, y: r.y, width: r.width, height: r.height } };
          }),
        );
        expect(labels.length).toBeGreaterThan(12);
        expect(overlapping(labels)).toEqual([]);
        const labelOnNode = labels.flatMap((l) => nodes.filter((n) => overlaps(l.box, n.box)).map((n) => `${l.name} ✕ ${n.name}`));
        expect(labelOnNode).toEqual([]);
        // No drawn line runs through a label: points every 2 units along each path, in page pixels.
        const points = await page.locator('svg.evidence-graph path.edge-line').evaluateAll((paths: any[]) =>
          paths.flatMap((path: any) => {
            const matrix = path.getScreenCTM();
            const length = path.getTotalLength();
            const out: Array<{ line: string; x: number; y: number }> = [];
            for (let at = 0; at <= length; at += 2) {
              const p = path.getPointAtLength(at).matrixTransform(matrix);
              out.push({ line: `${path.getAttribute('data-from')} → ${path.getAttribute('data-to')}`, x: p.x, y: p.y });
            }
            return out;
          }),
        );
        const crossed = new Set<string>();
        for (const label of labels) {
          const { x, y, width: w, height: h } = label.box;
          for (const p of points) if (p.x > x + 1 && p.x < x + w - 1 && p.y > y + 1 && p.y < y + h - 1) crossed.add(`${p.line} through ${label.name}`);
        }
        expect([...crossed]).toEqual([]);

        const scroll = await page.evaluate(() => {
          const g = globalThis as any;
          return { scrollWidth: g.document.documentElement.scrollWidth, viewport: g.innerWidth };
        });
        expect(scroll.scrollWidth).toBeLessThanOrEqual(scroll.viewport);

        expect(await brokenWords(page, '#edge-table th, #edge-table td')).toEqual([]);
        expect(offOrigin(requests, daemon.url)).toEqual([]);
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);
  }

  it('every node: its full name (and id) on hover and focus, and in the edge table', async () => {
    const { page, context } = await openPage(browser);
    try {
      await page.goto(`${daemon.url}/d/${did}`);
      const graph = (await (await fetch(`${daemon.url}/v1/graph/${did}`)).json()) as { nodes: Array<{ id: string; kind: string }> };
      for (const node of graph.nodes) {
        const link = page.locator(`svg.evidence-graph a.node-link:has(g.node[data-node-id="${node.id}"])`);
        await expect(link.count(), node.id).resolves.toBe(1);
        // The tooltip (its <title>) names it whole, and so does the link's accessible name.
        const title = (await link.locator('> title').textContent()) ?? '';
        if (node.kind !== 'document') expect(title, node.id).toContain(node.id);
        if (node.kind === 'key' || node.kind === 'service') expect(title.split('\n')[0], node.id).toBe(node.id.slice(did.length));
        await expect(page.getByRole('link', { name: title.replace(/\s+/g, ' '), exact: true }).count(), node.id).resolves.toBe(1);
      }
      // The table names each key and service by its whole fragment, never cut, with its whole id.
      for (const node of graph.nodes.filter((n) => n.kind === 'key' || n.kind === 'service')) {
        const cell = page.locator(`#edge-table td[data-node-id="${node.id}"]`).first();
        await expect(cell.locator('.node-name').textContent(), node.id).resolves.toBe(node.id.slice(did.length));
        await expect(cell.locator('.node-id').textContent(), node.id).resolves.toBe(node.id);
      }
    } finally {
      await context.close();
    }
  }, 60_000);

  it('the documents’ <pre> keep their lines: as many as the JSON has', async () => {
    const { page, context } = await openPage(browser);
    try {
      await page.goto(`${daemon.url}/d/${did}`);
      const result = (await (await fetch(`${daemon.url}/v1/resolve/${did}`)).json()) as Record<string, any>;
      const documentLines = JSON.stringify(result['didDocument'], null, 2).split('\n');
      const metadataLines = JSON.stringify(
        { didResolutionMetadata: result['didResolutionMetadata'], didDocumentMetadata: result['didDocumentMetadata'], resolver: result['resolver'] },
        null,
        2,
      ).split('\n');
      const documentPre = page.locator('#evidence-document pre.document');
      const shown = ((await documentPre.textContent()) ?? '').split('\n');
      expect(shown.length).toBe(documentLines.length);
      // The same lines (the page keeps the document's member order, the JSON answer its schema's).
      expect([...shown].sort()).toEqual([...documentLines].sort());
      // Drawn as lines too, not one long line: its height holds them all.
      const lineBoxes = await documentPre.evaluate((pre: any) => {
        const g = globalThis as any;
        const style = g.getComputedStyle(pre);
        return Math.round((pre.scrollHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight));
      });
      expect(lineBoxes).toBe(documentLines.length);
      const metadata = ((await page.locator('#evidence-metadata pre.document').textContent()) ?? '').split('\n');
      expect(metadata.length).toBe(metadataLines.length);
      // Still text: the metadata holds the DID, escaped, never markup.
      await expect(page.locator('#evidence-metadata pre.document *').count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('390 px: "Needs attention" (a FAILED dimension) comes first; the graph keeps its natural size and scrolls in its box', async () => {
    const { page, context } = await openPage(browser, { viewport: { width: 390, height: 900 } });
    try {
      await page.goto(`${daemon.url}/d/${did}`);
      await expect(page.locator('[data-class="attention"] [data-state="FAILED"]').count()).resolves.toBeGreaterThan(0);
      const tops = await page
        .locator('.class-group')
        .evaluateAll((groups: any[]) => groups.map((g: any) => [g.getAttribute('data-class'), g.getBoundingClientRect().top] as [string, number]));
      const order = [...tops].sort((a, b) => a[1] - b[1]).map(([cls]) => cls);
      expect(order[0]).toBe('attention');
      const graph = await page.locator('svg.evidence-graph').evaluate((svg: any) => {
        const figure = svg.closest('figure');
        return {
          width: svg.getBoundingClientRect().width,
          natural: svg.viewBox.baseVal.width,
          figureScrolls: figure.scrollWidth > figure.clientWidth,
          overflowX: (globalThis as any).getComputedStyle(figure).overflowX,
        };
      });
      expect(graph.width).toBeCloseTo(graph.natural, 0);
      expect(graph.figureScrolls).toBe(true);
      expect(graph.overflowX).toBe('auto');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('1280 px: the classes keep their order, side by side', async () => {
    const { page, context } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${daemon.url}/d/${did}`);
      const boxes = await page
        .locator('.class-group')
        .evaluateAll((groups: any[]) => groups.map((g: any) => [g.getAttribute('data-class'), g.getBoundingClientRect().left] as [string, number]));
      expect([...boxes].sort((a, b) => a[1] - b[1]).map(([cls]) => cls)).toEqual(['confirmed', 'attention', 'notConfirmed']);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a favicon: every page links one, and it answers 200 (no 404 in the console)', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    try {
      for (const target of ['/', `/d/${did}`, '/d/did:example:123']) {
        await page.goto(`${daemon.url}${target}`);
        const link = page.locator('head link[rel="icon"]');
        await expect(link.count(), target).resolves.toBe(1);
        const href = (await link.getAttribute('href'))!;
        const icon = await page.request.get(new URL(href, daemon.url).href);
        expect(icon.status(), target).toBe(200);
        expect(icon.headers()['content-type']).toBe('image/svg+xml');
        expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      }
      expect(consoleErrors.filter((e) => /404/.test(e) && !/did:example/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
