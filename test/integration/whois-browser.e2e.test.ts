/**
 * The whois section of the web dossier in real Chromium at 1280 and 390 px: a did:webvh whose
 * whois.vp (signed by the DID, one credential from a did:key issuer) verifies. The section is
 * titled as claims, names the claim and its issuer, and nothing in it scrolls the page sideways
 * (long DIDs in the reason and the signer included). Screenshots land in test-artefacts/browser/.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signCredential } from '../../src/core/issue/credential.js';
import { readIssuingKey } from '../../src/core/issue/key.js';
import { signPresentation } from '../../src/core/issue/presentation.js';
import { generateSigningKey } from '../../src/core/keys/generate.js';
import { SCID_PLACEHOLDER } from '../../src/core/webvh/hash.js';
import { artefactDir, describeBrowser, launchBrowser, openPage, screenshot, sidewaysOverflow } from '../support/browser.js';
import { startInProcessDaemonFor } from '../support/daemon-client.js';
import type { DaemonHandle } from '../support/daemon.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { createWebvhLog } from '../support/webvh-log.js';

describeBrowser('the whois section of the web dossier at 1280 and 390 px', () => {
  let browser: Browser;
  let host: DidWebHost;
  let daemon: DaemonHandle;
  let did: string;

  beforeAll(async () => {
    host = await startDidWebHost();
    const holder = readIssuingKey((await generateSigningKey('Ed25519')).privateJwk);
    const issuer = readIssuingKey((await generateSigningKey('Ed25519')).privateJwk);
    const domain = `localhost%3A${host.server.port}:whois`;
    const ph = `did:webvh:${SCID_PLACEHOLDER}:${domain}`;
    const log = createWebvhLog({
      domain,
      state: {
        '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
        id: ph,
        verificationMethod: [{ id: `${ph}#key-1`, type: 'Multikey', controller: ph, publicKeyMultibase: holder.didKey.slice('did:key:'.length) }],
        authentication: [`${ph}#key-1`],
      },
    });
    did = log.did;
    host.server.route('/whois/did.jsonl', raw(log.text(), { contentType: 'text/jsonl' }));
    host.server.route('/whois/did-witness.json', raw('not found', { status: 404 }));
    const vc = { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], credentialSubject: { id: did, name: 'Example Org' } };
    const credential = JSON.parse((await signCredential(vc, { key: issuer, format: 'di-eddsa-jcs', now: new Date() })).text);
    const vp = signPresentation([credential], { key: holder, format: 'di-eddsa-jcs', challenge: 'w', holder: did, kid: `${did}#key-1`, now: new Date() });
    host.server.route('/whois/whois.vp', raw(vp.text, { contentType: 'application/json' }));
    daemon = await startInProcessDaemonFor(host);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await host?.close();
  });

  for (const width of [1280, 390] as const) {
    it(`${width} px: the whois claims are shown as claims, and nothing scrolls sideways`, async () => {
      const { page, context, pageErrors } = await openPage(browser, { viewport: { width, height: 900 } });
      try {
        await page.goto(`${daemon.url}/d/${did}`);
        const section = page.locator('#evidence-whois');
        await expect(section.locator('h3').textContent()).resolves.toBe('Whois (claims, not verified identity)');
        const text = (await section.textContent()) ?? '';
        expect(text).toContain('VERIFIED');
        expect(text).toContain('Example Org');
        expect(text).toContain('These are claims, not verified identity');
        await section.scrollIntoViewIfNeeded();
        await screenshot(page, `whois-dossier-${width}`);
        await section.screenshot({ path: path.join(artefactDir(), `whois-section-${width}.png`) });
        expect(await sidewaysOverflow(page)).toEqual({ offenders: [], overflow: 0 });
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
