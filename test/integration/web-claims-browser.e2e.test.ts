/**
 * The dossier's claim offer in real Chromium against a real `svc serve`, a real HTTPS did:web host
 * and a real DNS server on loopback (the daemon resolves TXT records through it): a DNS claim made
 * from the page, with the keyboard; a proof verified before the record is there (RECORD_ABSENT),
 * then after; a did:key proved by a JWS pasted into the page, listed in the directory. Every page
 * stays on its origin, raises no error or dialog and passes axe; without JavaScript the offer
 * says how to claim from a terminal and shows no control that cannot work.
 */
import { sign } from 'node:crypto';
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
import { b64url } from '../support/codec.js';
import type { Daemon } from '../support/daemon.js';
import { startDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { generateTestKey } from '../support/signing.js';

/** Every did:web of the test host lives on `localhost`, so all share this record name. */
const RECORD = '_svc-claim.localhost';

// Each test drives a whole claim in Chromium: on a loaded machine it takes more than the default 30 s.
describeBrowser('the claim offer in Chromium', { timeout: 90_000 }, () => {
  let browser: Browser;
  let host: DidWebHost;
  let dns: TestDnsServer;
  let daemon: Daemon;

  beforeAll(async () => {
    host = await startDidWebHost();
    dns = await startDnsServer();
    daemon = await startDaemonFor(host, { env: { SVC_DNS_SERVERS: dns.address } });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await dns?.close();
    await host?.close();
  });

  /** Everything a page of these tests must also be: on its origin, no script error, no dialog, no CSP report, axe clean. */
  async function expectClean(session: OpenedPage, name: string): Promise<void> {
    expect(offOrigin(session.requests, daemon.url)).toEqual([]);
    expect(session.pageErrors).toEqual([]);
    expect(session.dialogs).toEqual([]);
    expect(cspViolations(session.consoleErrors)).toEqual([]);
    const violations = await axeViolations(session.page);
    expect(violations, `${name}\n${formatViolations(violations)}`).toEqual([]);
  }

  /** Opens the dossier of `did` and waits for the offer's script to have loaded the claims. */
  async function openOffer(did: string): Promise<OpenedPage> {
    const session = await openPage(browser);
    await session.page.goto(`${daemon.url}/d/${did}`);
    await session.page.locator('#claim-current[data-count]').waitFor({ state: 'attached', timeout: 10_000 });
    return session;
  }

  const methods = (page: Page) => page.locator('#claim-form input[name="method"]').evaluateAll((inputs: any[]) => inputs.map((i: any) => i.value as string));
  const term = (page: Page, name: string) => page.locator(`#claim-steps [data-term="${name}"]`).innerText();
  const outcome = (page: Page) => page.locator('#claim-result .claim-outcome').getAttribute('data-status');

  /** Clicks Verify and waits for its answer. */
  async function verify(page: Page): Promise<string | null> {
    const answered = page.waitForResponse((r) => r.url().endsWith('/v1/claims/verify'));
    await page.locator('#claim-verify').click();
    await answered;
    await page.locator('#claim-result .claim-outcome').waitFor();
    return outcome(page);
  }

  it('a did:web: choose dns with the keyboard, get a challenge, publish the token shown, Verify → VERIFIED and the claim listed as current', async () => {
    dns.remove(RECORD);
    const did = host.did('claims', 'by-dns');
    host.publish(did);
    const session = await openOffer(did);
    const { page } = session;
    try {
      await expect(page.locator('#claim-current-status').innerText()).resolves.toBe('No claim yet.');
      expect(await methods(page)).toEqual(['signature', 'well-known', 'dns']);
      await expect(page.locator('#claim-needs-script').isHidden()).resolves.toBe(true);

      // The keyboard alone: arrows move through the radio group, Tab reaches the button, Enter submits.
      await page.locator('#claim-method-signature').focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect(page.locator('#claim-method-dns').isChecked()).resolves.toBe(true);
      await page.keyboard.press('Tab'); // the list checkbox, left unchecked
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => (globalThis as any).document.activeElement?.id)).resolves.toBe('claim-get');
      await page.keyboard.press('Enter');
      await page.locator('#claim-challenge:not([hidden])').waitFor();
      // Focus moves to the challenge, so a keyboard or screen-reader user lands on what to do.
      await expect(page.evaluate(() => (globalThis as any).document.activeElement?.id)).resolves.toBe('claim-challenge-title');

      const token = await page.locator('#claim-challenge').getAttribute('data-token');
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await expect(term(page, 'name')).resolves.toBe(RECORD);
      await expect(term(page, 'type')).resolves.toBe('TXT');
      await expect(term(page, 'value')).resolves.toBe(token);
      await expect(page.locator('#claim-jws-field').isHidden()).resolves.toBe(true);
      await expect(page.locator('#claim-steps').innerText()).resolves.toContain(`svc claim ${did} --token ${token}`);

      dns.set(RECORD, ['v=spf1 -all', token!]);
      const answered = page.waitForResponse((r) => r.url().endsWith('/v1/claims/verify'));
      await page.locator('#claim-verify').focus();
      await page.keyboard.press('Enter');
      await answered;
      await page.locator('#claim-result .claim-outcome').waitFor();
      await expect(outcome(page)).resolves.toBe('VERIFIED');
      const result = page.locator('#claim-result');
      await expect(result.locator('.proves').innerText()).resolves.toMatch(
        /^Someone able to publish in the DNS zone of localhost acted on \d{4}-\d{2}-\d{2}\.$/,
      );
      await expect(result.locator('.does-not-prove li').count()).resolves.toBe(3);
      await expect(result.locator('.claim-listed').getAttribute('data-listed')).resolves.toBe('false');
      // A challenge proves once: its Verify button is gone.
      await expect(page.locator('#claim-verify').isHidden()).resolves.toBe(true);

      // The list of current claims is loaded again and shows the new one, as the API does.
      await page.locator('#claim-current[data-count="1"]').waitFor();
      const claim = page.locator('#claim-current li.claim');
      await expect(claim.getAttribute('data-method')).resolves.toBe('dns');
      await expect(claim.locator('.claim-subject').innerText()).resolves.toBe(RECORD);
      await expect(claim.locator('.does-not-prove li').count()).resolves.toBe(3);
      await expect(page.locator('#claim-current-status').innerText()).resolves.toBe('1 current claim; not listed in the directory.');
      const api = (await (await fetch(`${daemon.url}/v1/claims/${encodeURIComponent(did)}`)).json()) as { claims: Array<{ method: string; proves: string }> };
      expect(api.claims.map((c) => c.method)).toEqual(['dns']);
      await expect(claim.locator('.proves').innerText()).resolves.toBe(api.claims[0]!.proves);

      await screenshot(page, 'claim-dns-verified');
      await expectClean(session, 'after a dns claim');
    } finally {
      await session.context.close();
    }
  });

  it('Verify before the record is published → REFUSED with RECORD_ABSENT, the button stays; published, Verify again → VERIFIED', async () => {
    dns.remove(RECORD);
    const did = host.did('claims', 'too-soon');
    host.publish(did);
    const session = await openOffer(did);
    const { page } = session;
    try {
      await page.locator('#claim-method-dns').check();
      await page.getByRole('button', { name: 'Get a challenge' }).click();
      await page.locator('#claim-challenge:not([hidden])').waitFor();
      const token = await term(page, 'value');

      await expect(verify(page)).resolves.toBe('REFUSED');
      await expect(page.locator('#claim-result .refusal-code').innerText()).resolves.toBe('RECORD_ABSENT');
      expect((await page.locator('#claim-result .refusal-reason').innerText()).length).toBeGreaterThan(10);
      await expect(page.locator('#claim-result .claim-next').innerText()).resolves.toMatch(/4 attempts are left/);
      await expect(page.getByRole('button', { name: 'Verify' }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Verify' }).isEnabled()).resolves.toBe(true);
      await expect(page.locator('#claim-current-status').innerText()).resolves.toBe('No claim yet.');
      await expectClean(session, 'after a refusal');
      await screenshot(page, 'claim-dns-refused');

      dns.set(RECORD, [token]);
      await expect(verify(page)).resolves.toBe('VERIFIED');
      await page.locator('#claim-current[data-count="1"]').waitFor();
      await expect(page.locator('#claim-current li.claim').getAttribute('data-method')).resolves.toBe('dns');
      await expectClean(session, 'verified on the second attempt');
    } finally {
      await session.context.close();
    }
  });

  it('a did:key: signature only; the payload shown, signed outside, pasted; "list" checked → VERIFIED and listed', async () => {
    const key = generateTestKey('EdDSA');
    const did = `did:key:${key.multikey}`;
    const session = await openOffer(did);
    const { page } = session;
    try {
      expect(await methods(page)).toEqual(['signature']);
      await expect(page.locator('#claim-method-signature').isChecked()).resolves.toBe(true);
      await page.getByLabel('List this identifier in the directory').check();
      await page.getByRole('button', { name: 'Get a challenge' }).click();
      await page.locator('#claim-challenge:not([hidden])').waitFor();
      await expect(page.locator('#claim-steps').innerText()).resolves.toContain(`svc claim ${did} --key <file>`);

      // Verify with nothing pasted asks for the JWS and sends nothing (no attempt spent).
      const before = session.requests.filter((r) => r.url.endsWith('/v1/claims/verify')).length;
      await page.locator('#claim-verify').click();
      await expect(page.locator('#claim-result').innerText()).resolves.toMatch(/Paste the compact JWS/);
      expect(session.requests.filter((r) => r.url.endsWith('/v1/claims/verify')).length).toBe(before);

      const payload = await term(page, 'payload');
      const statement = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      expect(statement).toMatchObject({ aud: 'svc-claim', did, purpose: 'list' });
      const input = `${b64url(JSON.stringify({ alg: 'EdDSA', kid: `${did}#${key.multikey}` }))}.${payload}`;
      const jws = `${input}.${b64url(new Uint8Array(sign(null, Buffer.from(input), key.privateKey)))}`;
      // Pasted as a terminal would wrap it: the line breaks are not part of the JWS.
      await page.getByLabel('The compact JWS over this payload').fill(`${jws.slice(0, 60)}\n${jws.slice(60)}\n`);

      await expect(verify(page)).resolves.toBe('VERIFIED');
      await expect(page.locator('#claim-result .claim-listed').innerText()).resolves.toBe('yes');
      await expect(page.locator('#claim-result .proves').innerText()).resolves.toContain(`${did}#${key.multikey}`);
      await page.locator('#claim-current[data-count="1"][data-listed="true"]').waitFor();
      await expect(page.locator('#claim-current-status').innerText()).resolves.toBe('1 current claim; listed in the directory.');
      const directory = (await (await fetch(`${daemon.url}/v1/directory?q=${encodeURIComponent(did)}`)).json()) as { entries: Array<{ did: string }> };
      expect(directory.entries.map((e) => e.did)).toEqual([did]);
      await screenshot(page, 'claim-signature-listed');
      await expectClean(session, 'after a signature claim');
    } finally {
      await session.context.close();
    }
  });

  it('a problem is shown as a problem: a wrong signature is a refusal, a challenge the service refuses is its title and detail', async () => {
    const key = generateTestKey('EdDSA');
    const did = `did:key:${key.multikey}`;
    const session = await openOffer(did);
    const { page } = session;
    try {
      await page.getByRole('button', { name: 'Get a challenge' }).click();
      await page.locator('#claim-challenge:not([hidden])').waitFor();
      await page.getByLabel('The compact JWS over this payload').fill('not.a.jws');
      await expect(verify(page)).resolves.toBe('REFUSED');
      await expect(page.locator('#claim-result .refusal-code').innerText()).resolves.toMatch(/^JWS_|PAYLOAD_MISMATCH/);
      await expect(page.locator('#claim-verify').isVisible()).resolves.toBe(true);

      // A method the page did not offer, forced: the service answers 400, shown with its title and detail.
      await page.locator('#claim-method-signature').evaluate((input: any) => {
        input.value = 'dns';
      });
      const answered = page.waitForResponse((r) => r.url().endsWith('/v1/claims/challenges'));
      await page.getByRole('button', { name: 'Get a challenge' }).click();
      expect((await answered).status()).toBe(400);
      await expect(page.locator('#claim-result .claim-outcome').getAttribute('data-status')).resolves.toBe('PROBLEM');
      await expect(page.locator('#claim-result .problem-code').innerText()).resolves.toBe('INVALID_REQUEST');
      await expect(page.locator('#claim-result .problem-detail').innerText()).resolves.toMatch(/no host/);
      await expect(page.locator('#claim-challenge').isHidden()).resolves.toBe(true);
      await expectClean(session, 'after a problem');
    } finally {
      await session.context.close();
    }
  });

  it('with JavaScript disabled, the offer says how to claim from a terminal and shows no control', async () => {
    const did = host.did('claims', 'no-script');
    host.publish(did);
    const session = await openPage(browser, { javaScriptEnabled: false });
    const { page } = session;
    try {
      await page.goto(`${daemon.url}/d/${did}`);
      const offer = page.locator('#claim');
      await expect(offer.getByRole('heading', { name: 'Control this identifier? Three free ways to prove it' }).isVisible()).resolves.toBe(true);
      await expect(offer.locator('#claim-needs-script').isVisible()).resolves.toBe(true);
      await expect(offer.locator('.claim-availability').innerText()).resolves.toBe('Claims are available on this service.');
      const commands = await offer.locator('.claim-commands code').allInnerTexts();
      expect(commands).toContain(`svc claim ${did} --method well-known`);
      expect(commands).toContain(`svc claim ${did} --token <token>`);
      expect(commands).toContain(`svc claims ${did}`);
      await expect(offer.locator('.claim-how').innerText()).resolves.toContain('POST /v1/claims/challenges');
      // Nothing to press or fill that could not work: every control of the offer is hidden.
      const controls = offer.locator('button, input, textarea, select');
      const count = await controls.count();
      expect(count).toBe(7); // three method radios, the list checkbox, Get a challenge, the JWS, Verify
      for (let i = 0; i < count; i++) await expect(controls.nth(i).isVisible(), `control ${i}`).resolves.toBe(false);
      await expect(offer.locator('#claim-current').isHidden()).resolves.toBe(true);
      expect(session.requests.some((r) => r.url.includes('/v1/claims'))).toBe(false);
      await screenshot(page, 'claim-no-javascript');
    } finally {
      await session.context.close();
    }

    // axe injects a script, so the same state is checked with the claim script alone kept from loading.
    const blocked = await openPage(browser);
    try {
      await blocked.page.route(/\/assets\/claim\.[0-9a-f]{16}\.js$/, (route) => route.abort('blockedbyclient'));
      await blocked.page.goto(`${daemon.url}/d/${did}`);
      await expect(blocked.page.locator('#claim-needs-script').isVisible()).resolves.toBe(true);
      await expect(blocked.page.locator('#claim-form').isHidden()).resolves.toBe(true);
      const violations = await axeViolations(blocked.page);
      expect(violations, formatViolations(violations)).toEqual([]);
    } finally {
      await blocked.context.close();
    }
  });
});
