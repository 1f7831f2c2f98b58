/**
 * Browser tests with the Chromium of the system (Debian's /usr/bin/chromium), driven by
 * playwright-core; accessibility checked with axe-core (@axe-core/playwright).
 *
 *   describeBrowser('the dossier page', () => {
 *     let browser: Browser;
 *     beforeAll(async () => { browser = await launchBrowser(); });
 *     afterAll(async () => { await browser?.close(); });
 *     it('…', async () => {
 *       const { page, requests, dialogs } = await openPage(browser);
 *       await page.goto(url);
 *       expect(offOrigin(requests, url)).toEqual([]);
 *       expect(dialogs).toEqual([]);
 *     });
 *   });
 *
 * Without Chromium the suite is skipped, visibly (one warning per test file); in CI
 * (CI=true) it fails instead, since CI installs Chromium and a skipped suite would hide breakage.
 *
 * Pages cannot reach the network: every request that is not to loopback, `data:`, `blob:` or
 * `file:` is logged and then aborted (unless `allowRemote`), so a test never depends on, or
 * talks to, anything outside the machine.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium to drive: `$SVC_CHROMIUM` when set (and then only it: pointing it at a path that
 * is not there is how the skip and CI paths are tried), else /usr/bin/chromium, else
 * /usr/bin/chromium-browser; null unless the file exists and is executable.
 */
export function chromiumPath(): string | null {
  const fromEnv = process.env.SVC_CHROMIUM;
  for (const file of fromEnv ? [fromEnv] : CANDIDATES) {
    if (executable(file)) return file;
  }
  return null;
}

export const browserAvailable: boolean = chromiumPath() !== null;
export const skipReason = 'Chromium not found at /usr/bin/chromium (apt-get install -y chromium); browser tests skipped';

const inCi = process.env.CI === 'true';
if (!browserAvailable && !inCi) console.warn(`\n⚠ ${skipReason}\n`);

/**
 * `describe` for browser tests: run when Chromium is there; skipped (with the warning above)
 * when it is not; in CI without Chromium, one failing test that says why. Options (a timeout
 * for long flows) as vitest's `describe` takes them.
 */
export function describeBrowser(name: string, options: { timeout?: number } | (() => void), body?: () => void): void {
  const fn = typeof options === 'function' ? options : body!;
  const settings = typeof options === 'function' ? {} : options;
  if (browserAvailable) {
    describe(name, settings, fn);
  } else if (inCi) {
    describe(name, () => {
      it('needs Chromium (CI=true: browser tests are not skipped in CI)', () => {
        throw new Error(skipReason.replace('browser tests skipped', 'browser tests cannot run in CI without it'));
      });
    });
  } else {
    describe.skipIf(true)(name, fn);
  }
}

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
];

/** Headless Chromium with the flags above. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(skipReason);
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
}

export interface RequestLogEntry {
  url: string;
  method: string;
  resourceType: string;
}

export interface OpenPageOptions {
  javaScriptEnabled?: boolean;
  viewport?: { width: number; height: number };
  /** Let requests leave loopback (default: they are logged, then aborted). */
  allowRemote?: boolean;
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Every request of the context, in order (including aborted ones). */
  requests: RequestLogEntry[];
  /** Text of console messages of type 'error' (CSP violations are reported this way). */
  consoleErrors: string[];
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
  /** Messages of alert/confirm/prompt/beforeunload dialogs (dismissed): a dialog means a script ran. */
  dialogs: string[];
}

function stays(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (['data:', 'blob:', 'file:', 'about:'].includes(parsed.protocol)) return true;
  const host = parsed.hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A fresh context and page that log requests, console errors, page errors and dialogs. Close with `context.close()` (or the browser). */
export async function openPage(browser: Browser, options: OpenPageOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  const requests: RequestLogEntry[] = [];
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const dialogs: string[] = [];
  context.on('request', (request) => {
    requests.push({ url: request.url(), method: request.method(), resourceType: request.resourceType() });
  });
  if (!options.allowRemote) {
    await context.route(
      (url) => !stays(url.href),
      (route) => route.abort('blockedbyclient'),
    );
  }
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => {
    pageErrors.push(error.message);
  });
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  return { page, context, requests, consoleErrors, pageErrors, dialogs };
}

/**
 * Requests that left the page's origin (`origin` may be any URL of the page). `data:` URLs are
 * allowed; for a file:// page, every request that is neither `file:` nor `data:` counts.
 */
export function offOrigin(requests: readonly RequestLogEntry[], origin: string): RequestLogEntry[] {
  const pageUrl = new URL(origin);
  const filePage = pageUrl.protocol === 'file:';
  return requests.filter(({ url }) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return true;
    }
    if (target.protocol === 'data:') return false;
    if (filePage) return target.protocol !== 'file:';
    return target.origin !== pageUrl.origin;
  });
}

/** Console messages that report a Content Security Policy violation. */
export function cspViolations(consoleMessages: readonly string[]): string[] {
  return consoleMessages.filter((text) => /Content Security Policy/i.test(text));
}

/** test-artefacts/browser under the repository root (created; test-artefacts/ is git-ignored). */
export function artefactDir(): string {
  const dir = path.join(repoRoot, 'test-artefacts', 'browser');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A full-page screenshot at `<artefactDir>/<name>.png`; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(artefactDir(), `${name.replace(/[^\w.-]+/g, '_')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * What reaches past the right edge of the viewport: elements that do (unless a box that scrolls
 * sideways holds them: pre, tables in their wrapper, the graph's figure), and how far the page
 * itself scrolls sideways (0 when it does not).
 */
export async function sidewaysOverflow(page: Page): Promise<{ offenders: string[]; overflow: number }> {
  return page.evaluate(() => {
    const g = globalThis as any;
    const root = g.document.documentElement;
    const width = root.clientWidth;
    const offenders: string[] = [];
    for (const el of g.document.querySelectorAll('body *')) {
      if (el.getBoundingClientRect().right <= width + 0.5) continue;
      let scroller = el.parentElement;
      while (scroller && !['auto', 'scroll'].includes(g.getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      if (!scroller)
        offenders.push(`${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '')} (right ${Math.round(el.getBoundingClientRect().right)})`);
    }
    return { offenders, overflow: root.scrollWidth - root.clientWidth };
  });
}

export interface AxeViolation {
  id: string;
  impact: 'serious' | 'critical';
  help: string;
  /** Targets (selectors) of the offending nodes. */
  nodes: string[];
}

export interface AxeOptions {
  /** Only this part of the page (a CSS selector). */
  include?: string;
  /** Leave these parts out (CSS selectors). */
  exclude?: string[];
  /** Rules not to run (with a reason in the calling test). */
  disableRules?: string[];
}

/** WCAG 2.1 A/AA violations that axe rates serious or critical. */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<AxeViolation[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
  const results = await builder.analyze();
  const found: AxeViolation[] = [];
  for (const violation of results.violations) {
    if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
    found.push({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.map((part) => (Array.isArray(part) ? part.join(' >>> ') : String(part))).join(' ')),
    });
  }
  return found;
}

/** Violations as readable lines, for an assertion message. */
export function formatViolations(violations: readonly AxeViolation[]): string {
  if (violations.length === 0) return 'no serious or critical accessibility violations';
  return violations.map((v) => `[${v.impact}] ${v.id}: ${v.help}\n${v.nodes.map((node) => `    at ${node}`).join('\n')}`).join('\n');
}
