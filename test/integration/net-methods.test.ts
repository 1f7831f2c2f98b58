/**
 * The egress fetcher beyond GET (used by the MCP client): POST with a body and request headers,
 * DELETE, response headers handed back, and redirects of other methods followed only for
 * 307/308 with the same method and body. A real HTTPS server on loopback; nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Runtime } from '../../src/core/runtime.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { redirect, startPlainHttpServer, type TestHttpsServer } from '../support/https-server.js';
import { tableLookup } from '../support/did-web-host.js';

let host: DidWebHost;
let runtime: Runtime;
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];

function echo(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'abc', 'x-multi': ['1', '2'] });
    res.end(JSON.stringify({ method: req.method, body }));
  });
}

beforeAll(async () => {
  host = await startDidWebHost();
  runtime = host.runtime();
  host.server.route('/echo', echo);
  host.server.route('/moved-307', redirect('/echo', 307));
  host.server.route('/moved-302', redirect('/echo', 302));
});
afterAll(async () => {
  runtime.net.close();
  await host.close();
});

describe('EgressFetcher methods', () => {
  it('POSTs a body with request headers and returns the response headers', async () => {
    seen.length = 0;
    const response = await runtime.net.fetch({
      url: `${host.server.origin}/echo`,
      purpose: 'test reply',
      maxBytes: 4096,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-method': 'tools/list', accept: 'text/plain' },
      body: '{"a":1}',
      accept: 'application/json, text/event-stream',
    });
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toBe('abc');
    expect(response.headers['x-multi']).toBe('1, 2');
    expect(seen[0]).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(seen[0]!.headers['mcp-method']).toBe('tools/list');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    // The fetcher's own accept wins over a caller header of the same name.
    expect(seen[0]!.headers['accept']).toBe('application/json, text/event-stream');
  });

  it('sends DELETE', async () => {
    seen.length = 0;
    const response = await runtime.net.fetch({
      url: `${host.server.origin}/echo`,
      purpose: 'session end',
      maxBytes: 4096,
      method: 'DELETE',
      headers: { 'mcp-session-id': 's1' },
    });
    expect(response.status).toBe(200);
    expect(seen[0]).toMatchObject({ method: 'DELETE', body: '' });
    expect(seen[0]!.headers['mcp-session-id']).toBe('s1');
  });

  it('follows a 307 with the same method and body, and returns a 302 to a POST as it is', async () => {
    seen.length = 0;
    const followed = await runtime.net.fetch({ url: `${host.server.origin}/moved-307`, purpose: 'reply', maxBytes: 4096, method: 'POST', body: 'x=1' });
    expect(followed.status).toBe(200);
    expect(followed.redirects).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', body: 'x=1' });
    const kept = await runtime.net.fetch({ url: `${host.server.origin}/moved-302`, purpose: 'reply', maxBytes: 4096, method: 'POST', body: 'x=1' });
    expect(kept.status).toBe(302);
    expect(kept.redirects).toHaveLength(0);
    expect(kept.headers['location']).toBe('/echo');
    expect(seen).toHaveLength(1);
  });

  it('follows a 302 for GET as before', async () => {
    const response = await runtime.net.fetch({ url: `${host.server.origin}/moved-302`, purpose: 'reply', maxBytes: 4096 });
    expect(response.status).toBe(200);
    expect(response.redirects[0]).toMatchObject({ status: 302 });
  });
});

describe('plain http (allowPlainHttp)', () => {
  let plain: TestHttpsServer;
  beforeAll(async () => {
    plain = await startPlainHttpServer();
    plain.route('/echo', echo);
    plain.route('/to-https', redirect(`${host.server.origin}/echo`, 307));
  });
  afterAll(() => plain.close());

  it('fetches http: from an operator-allowed address, with tls null', async () => {
    seen.length = 0;
    const response = await runtime.net.fetch({
      url: `${plain.origin}/echo`,
      purpose: 'reply',
      maxBytes: 4096,
      method: 'POST',
      body: 'x',
      allowPlainHttp: true,
    });
    expect(response).toMatchObject({ status: 200, tls: null, allowances: ['127.0.0.0/8'] });
    expect(seen[0]).toMatchObject({ method: 'POST', body: 'x' });
  });

  it('refuses http: unless asked, and at a public address even when asked (before connecting)', async () => {
    const before = plain.connections;
    await expect(runtime.net.fetch({ url: `${plain.origin}/echo`, purpose: 'reply', maxBytes: 4096 })).rejects.toMatchObject({
      code: 'EGRESS_BLOCKED',
      message: expect.stringMatching(/is not https; svc fetches over HTTPS only/),
    });
    const publicName = host.runtime({ lookup: tableLookup({ 'tools.example': ['93.184.216.34'] }), connectTo: () => plain.port });
    await expect(publicName.net.fetch({ url: 'http://tools.example/echo', purpose: 'reply', maxBytes: 4096, allowPlainHttp: true })).rejects.toMatchObject({
      code: 'EGRESS_BLOCKED',
      message: expect.stringMatching(/tools\.example is a public address/),
    });
    expect(plain.connections).toBe(before);
  });

  it('never follows a redirect from https down to http, and follows http → https', async () => {
    host.server.route('/to-http', redirect(`${plain.origin}/echo`, 307));
    await expect(runtime.net.fetch({ url: `${host.server.origin}/to-http`, purpose: 'reply', maxBytes: 4096, allowPlainHttp: true })).rejects.toMatchObject({
      code: 'EGRESS_BLOCKED',
    });
    const up = await runtime.net.fetch({ url: `${plain.origin}/to-https`, purpose: 'reply', maxBytes: 4096, allowPlainHttp: true });
    expect(up.status).toBe(200);
    expect(up.tls?.host).toBe('localhost');
  });
});
