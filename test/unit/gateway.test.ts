/** The cookie gateway's pure parts: the cookie, the loopback rule, the forwarded table, the sign-in statement and its check. */
import { sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSignIn, signInPayload, signInStatement, tokenDigest } from '../../src/core/accounts/sign-in.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { clearedSessionCookie, sessionCookie, sessionIdOf } from '../../src/server/gateway/cookie.js';
import { forwardedMethods, isForwarded, upstreamHost } from '../../src/server/gateway/forward.js';
import { gatewayRefusal, isLoopbackHost } from '../../src/server/gateway.js';
import { didKeyPrincipal } from '../support/receipts.js';
import { testRuntime } from '../support/runtime.js';

const ID = 'a'.repeat(43);

describe('session cookie', () => {
  it('http origin: HttpOnly, SameSite=Strict, Path=/, Max-Age, no Secure', () => {
    expect(sessionCookie(ID, { secure: false, maxAgeSeconds: 43_200 })).toBe(`svc_session=${ID}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200`);
  });
  it('https origin: Secure too', () => {
    expect(sessionCookie(ID, { secure: true, maxAgeSeconds: 60 })).toBe(`svc_session=${ID}; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=60`);
    expect(clearedSessionCookie({ secure: true })).toBe('svc_session=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0');
  });
  it('reads the first well-formed svc_session only', () => {
    expect(sessionIdOf(`a=1; svc_session=${ID}; b=2`)).toBe(ID);
    expect(sessionIdOf('svc_session=short')).toBeNull();
    expect(sessionIdOf(`xsvc_session=${ID}`)).toBeNull();
    expect(sessionIdOf(undefined)).toBeNull();
  });
  it('digests are SHA-256 hex', () => {
    expect(tokenDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('loopback rule', () => {
  it('accepts 127.0.0.0/8, ::1 and localhost only', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.1', 'example.com', '128.0.0.1', '::2']) expect(isLoopbackHost(host), host).toBe(false);
  });
  it('refuses a non-loopback host, and the mode off, saying why', () => {
    const on = { commercial: { enabled: true as const, origin: 'http://127.0.0.1:1', bridgeSecret: 'x', bridgeDigest: Buffer.alloc(32) } };
    expect(gatewayRefusal('0.0.0.0', on)).toMatch(/loopback only/);
    expect(gatewayRefusal('127.0.0.1', on)).toBeNull();
    expect(gatewayRefusal('127.0.0.1', { commercial: { enabled: false, reason: 'SVC_COMMERCIAL is not on' } })).toMatch(/SVC_COMMERCIAL is not on/);
  });
  it('reaches an unspecified bind address over loopback', () => {
    expect(upstreamHost('0.0.0.0')).toBe('127.0.0.1');
    expect(upstreamHost('::')).toBe('::1');
    expect(upstreamHost('127.0.0.1')).toBe('127.0.0.1');
  });
});

describe('forwarded routes', () => {
  const p = '/v1/session/projects/prj_abc';
  it('exactly the methods and paths of docs/daemon.md#owner-accounts-and-the-cookie-gateway', () => {
    const yes: Array<[string, string]> = [
      ['GET', '/v1/session/projects'],
      ['GET', `${p}/keys`],
      ['POST', `${p}/keys`],
      ['DELETE', `${p}/keys/key_1`],
      ['POST', `${p}/keys/key_1/rotate`],
      ['GET', `${p}/watches`],
      ['POST', `${p}/watches`],
      ['DELETE', `${p}/watches/w1`],
      ['GET', `${p}/watches/w1/events`],
      ['POST', `${p}/watches/w1/event-page`],
      ['POST', `${p}/watches/w1/report`],
      ['GET', `${p}/webhook`],
      ['POST', `${p}/webhook`],
      ['DELETE', `${p}/webhook`],
      ['GET', `${p}/webhook-deliveries`],
      ['POST', `${p}/webhook-deliveries/dlv_1_2/replay`],
      ['POST', `${p}/watches/wch_1/replay`],
      ['GET', '/v1/session/scheduled-usage'],
    ];
    for (const [method, path] of yes) expect(isForwarded(method, path), `${method} ${path}`).toBe(true);
    const no: Array<[string, string]> = [
      ['POST', '/v1/session/projects'],
      ['PUT', `${p}/keys`],
      ['GET', `${p}/keys/key_1`],
      ['GET', `${p}/keys/key_1/rotate`],
      ['GET', `${p}/watches/w1/event-page`],
      ['GET', `${p}/watches/w1/report`],
      ['GET', `${p}/webhook-deliveries/dlv_1_2/replay`],
      ['POST', `${p}/webhook-deliveries/dlv_1_2`],
      ['GET', `${p}/keys/`],
      ['GET', '/v1/session/projects/a/b/keys'],
      ['GET', '/v1/session/projects/%2e%2e/keys'],
      ['GET', '/v1/session/projects/../keys'],
      ['GET', '/v1/monitoring/watches'],
      ['GET', '/v1/session/scheduled-usage/x'],
    ];
    for (const [method, path] of no) expect(isForwarded(method, path), `${method} ${path}`).toBe(false);
    // Paths of the table asked with another method name their methods (the gateway's 405); others none.
    expect(forwardedMethods(`${p}/watches/w1/event-page`)).toEqual(['POST']);
    expect(forwardedMethods(`${p}/webhook`)).toEqual(['GET', 'POST', 'DELETE']);
    expect(forwardedMethods('/v1/session/projects/a/b/keys')).toBeNull();
    expect(forwardedMethods('/v1/monitoring/watches')).toBeNull();
  });
});

describe('sign-in statement and check', () => {
  const runtime = testRuntime();
  const owner = didKeyPrincipal();
  const origin = 'http://127.0.0.1:8081';
  const statement = signInStatement({ nonce: 'n'.repeat(43), origin, did: owner.did });
  const jwsOf = (text: string, kid = owner.kid, key = owner.privateKey) => {
    const input = `${Buffer.from(JSON.stringify({ alg: 'EdDSA', kid })).toString('base64url')}.${signInPayload(text)}`;
    return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
  };
  const keysRuntime = { runtime };

  it('is canonical JSON with the four members', () => {
    expect(statement).toBe(`{"aud":"svc-sign-in","did":"${owner.did}","nonce":"${'n'.repeat(43)}","origin":"${origin}"}`);
  });
  it('accepts the statement signed by an authentication key of the DID', async () => {
    expect(await checkSignIn(owner.did, statement, jwsOf(statement), keysRuntime)).toEqual({ ok: true, kid: owner.kid });
  });
  it('refuses another origin, another key, a malformed JWS', async () => {
    const other = signInStatement({ nonce: 'n'.repeat(43), origin: 'http://evil.example', did: owner.did });
    expect(await checkSignIn(owner.did, statement, jwsOf(other), keysRuntime)).toMatchObject({ ok: false, code: 'PAYLOAD_MISMATCH' });
    const stranger = didKeyPrincipal();
    expect(await checkSignIn(owner.did, statement, jwsOf(statement, owner.kid, stranger.privateKey), keysRuntime)).toMatchObject({
      ok: false,
      code: 'SIGNATURE_INVALID',
    });
    expect(await checkSignIn(owner.did, statement, jwsOf(statement, stranger.kid, stranger.privateKey), keysRuntime)).toMatchObject({
      ok: false,
      code: 'SIGNER_MISMATCH',
    });
    expect(await checkSignIn(owner.did, statement, 'not.a.jws', keysRuntime)).toMatchObject({ ok: false, code: 'JWS_MALFORMED' });
  });
  it('resolves the DID through the core', async () => {
    expect((await resolve(owner.did, runtime)).didDocument).toBeTruthy();
  });
});
