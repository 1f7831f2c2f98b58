/**
 * Hints that name the fix, on the web dossier's problem pages and in the problem+json
 * of the same request: the daemon's app in process (the real app, store and fetcher; a DNS table
 * and a real HTTPS host on loopback), so a browser and an API client read the same words as the
 * terminal's `hint:` line (test/integration/cli-did-web.e2e.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';

let host: DidWebHost;
let db: TestDatabase;
/** The production policy: no allowance, Node's trust store; DNS from a table. */
let strict: InjectedApp;
/** Loopback allowed (an operator relaxation) but the test CA not trusted; https to localhost:443 lands on the test host. */
let relaxed: InjectedApp;
/** Loopback allowed and the test CA trusted, https to localhost:443 lands on the test host. */
let trusting: InjectedApp;

beforeAll(async () => {
  host = await startDidWebHost();
  db = await sqliteDatabase('svc-web-hints');
  const lookup = tableLookup();
  const connectTo = (name: string, port: number) => (name === 'localhost' && port === 443 ? host.server.port : undefined);
  strict = await injectedApp(db.target, { netOverrides: { lookup } });
  relaxed = await injectedApp(db.target, { netOverrides: { lookup, connectTo }, egressAllow: ['127.0.0.0/8'] });
  trusting = await injectedApp(db.target, { netOverrides: { lookup, connectTo, trustAnchors: [host.ca.certPem] }, egressAllow: ['127.0.0.0/8'] });
});

afterAll(async () => {
  await strict?.close();
  await relaxed?.close();
  await trusting?.close();
  await db?.done();
  await host?.close();
});

/** The page's "What to do", its problem code, and the problem+json detail of the same URL. */
async function problemOf(app: InjectedApp, did: string): Promise<{ code: string; todo: string; detail: string; page: string }> {
  const page = await app.anonymous('GET', `/d/${did}`, undefined, { accept: 'text/html' });
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  const todo = /<dt>What to do<\/dt><dd>(.*?)<\/dd>/s.exec(page.body)?.[1] ?? '';
  const code = /data-code="([A-Z_]+)"/.exec(page.body)?.[1] ?? '';
  const json = await app.anonymous('GET', `/d/${did}`, undefined, { accept: 'application/json' });
  expect(json.headers['content-type']).toMatch(/^application\/problem\+json/);
  return { code, todo, detail: JSON.parse(json.body).detail as string, page: page.body };
}

/** Text as the page shows it (the hints hold < > and &). */
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('problem pages name the fix', () => {
  it('EGRESS_BLOCKED on loopback: the exact --egress-allow of the address, said to be an operator relaxation', async () => {
    const { code, todo, detail } = await problemOf(strict, 'did:web:localhost');
    expect(code).toBe('EGRESS_BLOCKED');
    expect(todo).toContain('--egress-allow 127.0.0.1/32');
    expect(todo).toContain('SVC_EGRESS_ALLOW=127.0.0.1/32');
    expect(todo).toContain('operator relaxation');
    expect(todo).not.toContain('Not retryable');
    // The same words end the problem's detail.
    expect(detail).toMatch(
      /^localhost resolves only to non-public addresses: 127\.0\.0\.1 \(loopback, 127\.0\.0\.0\/8\)\. The DID document was not fetched\. /,
    );
    expect(detail.endsWith(todo)).toBe(true);
  });

  it('a certificate from an authority Node does not trust: NODE_EXTRA_CA_CERTS=<file>', async () => {
    const { code, todo, detail, page } = await problemOf(relaxed, host.did());
    expect(code).toBe('UPSTREAM_UNAVAILABLE');
    // The test host sends its CA along, so Node names the chain's self-signed end.
    expect(page).toMatch(/\((?:UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)\)\./);
    expect(todo).toContain(escaped('NODE_EXTRA_CA_CERTS=<file>'));
    expect(todo).not.toContain('Retry later');
    expect(detail).toMatch(
      /^TLS connection to localhost:\d+ \(127\.0\.0\.1\) failed: .*\((?:UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)\)\. If you trust/,
    );
    expect(detail.endsWith('NODE_EXTRA_CA_CERTS=<file> (read when svc starts); svc never turns certificate checks off.')).toBe(true);
  });

  it('a did:web whose port is written with a colon: the %3A form of the same DID', async () => {
    const port = String(host.server.port);
    // did:web:localhost:<port> names https://localhost/<port>/did.json, which the host does not have.
    const { code, todo, detail } = await problemOf(trusting, `did:web:localhost:${port}`);
    expect(code).toBe('NOT_FOUND');
    expect(todo).toContain(`the DID is did:web:localhost%3A${port}`);
    expect(detail).toMatch(new RegExp(`^No DID document at https://localhost/${port}/did\\.json \\(HTTP 404\\)\\. A port in a did:web is written %3A`));
    // With a path after the port, the path stays.
    const withPath = await problemOf(trusting, `did:web:localhost:${port}:users:alice`);
    expect(withPath.todo).toContain(`the DID is did:web:localhost%3A${port}:users:alice`);
    // The DID so written resolves.
    host.publish(host.did());
    const resolved = await trusting.anonymous('GET', `/d/${host.did()}`, undefined, { accept: 'application/json' });
    expect(resolved.statusCode).toBe(200);
  });

  it('a host that does not exist (ENOTFOUND): check the host name, not "retry later"', async () => {
    const { code, todo, detail } = await problemOf(strict, 'did:web:no-such-host.example');
    expect(code).toBe('UPSTREAM_UNAVAILABLE');
    expect(todo).toContain('Check the host name no-such-host.example');
    expect(todo).not.toMatch(/retry later/i);
    expect(detail).toBe(`DNS lookup of no-such-host.example failed: no such host (ENOTFOUND). ${todo}`);
  });

  it("a problem without a hint keeps the code's handling", async () => {
    const { code, todo, detail } = await problemOf(strict, 'did:example:123');
    expect(code).toBe('METHOD_NOT_SUPPORTED');
    expect(todo).toBe('Use a supported method; this is no verdict about the identifier.');
    expect(detail).not.toContain(todo);
  });
});
