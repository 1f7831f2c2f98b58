/**
 * `svc webhook listen --tls`'s certificate (src/cli/cmd/webhook/tls.ts): made once, reused
 * while it covers the host for a day more, its own trust anchor for Node, the daemon's trust file
 * carrying the caller's other CAs (never an earlier certificate of its own), the egress allowance,
 * and a temporary folder where the state folder cannot be written.
 */
import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listenerTls, tlsSetupText, urlHostOf, webhookUrl } from '../../src/cli/cmd/webhook/tls.js';
import { createTestCa } from '../support/pki.js';

const DAY = 86_400_000;
let dir: string;
const envIn = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ XDG_STATE_HOME: path.join(dir, 'state'), ...extra });
const certificates = (pem: string) => pem.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'svc-webhook-tls-unit-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the receiver certificate', () => {
  it('is made once in the state folder (key 0600) and reused; a new one when it would expire within a day or does not name the host', async () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    const first = await listenerTls(envIn(), '127.0.0.1', now);
    expect(first).toMatchObject({ fresh: true, kept: true, urlHost: '127.0.0.1', allow: ['127.0.0.1/32'], names: ['localhost', '127.0.0.1', '::1'] });
    expect(first.certFile).toBe(path.join(dir, 'state', 'svc', 'webhook-listen', 'cert.pem'));
    expect(statSync(path.join(path.dirname(first.certFile), 'key.pem')).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(first.certFile)).mode & 0o777).toBe(0o700);
    expect(first.notAfter.getTime()).toBe(now + 30 * DAY);
    expect(new X509Certificate(readFileSync(first.certFile)).fingerprint256).toBe(first.fingerprint);

    const again = await listenerTls(envIn(), '127.0.0.1', now + 20 * DAY);
    expect(again).toMatchObject({ fresh: false, fingerprint: first.fingerprint });
    const late = await listenerTls(envIn(), '127.0.0.1', now + 29.5 * DAY);
    expect(late.fresh).toBe(true);
    expect(late.fingerprint).not.toBe(first.fingerprint);
    // Another name: a certificate that holds it too.
    const named = await listenerTls(envIn(), 'receiver.localhost', now + 29.5 * DAY);
    expect(named.fresh).toBe(true);
    expect(named.names).toEqual(['localhost', 'receiver.localhost', '127.0.0.1', '::1']);
    expect(webhookUrl(named.urlHost, 9000)).toBe('https://receiver.localhost:9000/');
  });

  it('serves TLS that Node accepts with the trust file as its only extra CA, and nothing else', async () => {
    const tls = await listenerTls(envIn(), '127.0.0.1');
    const server = https.createServer({ key: tls.keyPem, cert: tls.certPem }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const get = (ca: string | undefined) =>
      new Promise<number | string>((resolve) => {
        https
          .get({ host: '127.0.0.1', port, path: '/', ...(ca ? { ca } : {}) }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
      });
    try {
      expect(await get(readFileSync(tls.trustFile, 'utf8'))).toBe(200);
      expect(await get(undefined)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      server.close();
    }
  });

  it('the trust file carries the caller’s NODE_EXTRA_CA_CERTS, never an earlier certificate of its own', async () => {
    const ca = createTestCa('private CA');
    const caFile = path.join(dir, 'private.pem');
    writeFileSync(caFile, ca.certPem);
    const now = Date.now();
    const first = await listenerTls(envIn({ NODE_EXTRA_CA_CERTS: caFile }), '127.0.0.1', now);
    expect(first).toMatchObject({ carried: 1, carriedFrom: caFile });
    expect(certificates(readFileSync(first.trustFile, 'utf8'))).toBe(2);
    // The shell now exports the printed trust file; a new certificate replaces the old one in it.
    const renewed = await listenerTls(envIn({ NODE_EXTRA_CA_CERTS: first.trustFile }), '127.0.0.1', now + 29.5 * DAY);
    expect(renewed.fresh).toBe(true);
    const trust = readFileSync(renewed.trustFile, 'utf8');
    expect(certificates(trust)).toBe(2);
    expect(trust).toContain(ca.certPem.trim());
    expect(trust).toContain(renewed.certPem.trim());
    expect(trust).not.toContain(first.certPem.trim());
    // An unreadable file carries nothing.
    expect((await listenerTls(envIn({ NODE_EXTRA_CA_CERTS: path.join(dir, 'missing.pem') }), '127.0.0.1', now)).carried).toBe(0);
  });

  it('uses a temporary folder, for this run only, where the state folder cannot be written', async () => {
    const locked = path.join(dir, 'locked');
    writeFileSync(locked, 'a file where a folder should be');
    const tls = await listenerTls({ XDG_STATE_HOME: locked }, '127.0.0.1');
    expect(tls.kept).toBe(false);
    expect(tls.certFile.startsWith(tmpdir())).toBe(true);
    expect(tlsSetupText(tls, 9000)).toContain('in a temporary folder, for this run only');
    rmSync(path.dirname(tls.certFile), { recursive: true, force: true });
    chmodSync(locked, 0o600);
  });

  it('says what the daemon needs: the trust file, the allowance (none for a public address), the URL', async () => {
    expect(urlHostOf('0.0.0.0')).toBe('127.0.0.1');
    expect(urlHostOf('::')).toBe('127.0.0.1');
    expect(webhookUrl('::1', null)).toBe('https://[::1]:<port>/');
    const loopback = await listenerTls(envIn(), '::1');
    const text = tlsSetupText(loopback, 9443);
    expect(text).toContain(`  NODE_EXTRA_CA_CERTS=${loopback.trustFile} SVC_EGRESS_ALLOW=::1/128 svc serve\n`);
    expect(text).toContain('  (or NODE_EXTRA_CA_CERTS as above and: svc serve --egress-allow ::1/128)\n');
    expect(text).toContain('  svc monitor watch add <did> https://[::1]:9443/\n');
    expect(text).toContain(`  SHA-256      ${loopback.fingerprint}\n`);
    expect(text).not.toMatch(/ at /);
    const open = await listenerTls(envIn(), '93.184.216.34');
    expect(open.allow).toEqual([]);
    expect(tlsSetupText(open, 9443)).toContain(`  NODE_EXTRA_CA_CERTS=${open.trustFile} svc serve\n`);
  });
});
