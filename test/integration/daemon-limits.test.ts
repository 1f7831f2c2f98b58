/**
 * The daemon's limits over real HTTP (docs/operations.md#budgets): `svc serve` started in
 * this process from its command line and environment, on a free loopback port. Rate buckets (direct profile and the public budgets), request
 * bodies, the request time limit (handler and receiving), bounded outbound capacity, and the
 * headers of the answers Fastify itself would otherwise write (404, 405, HEAD).
 * Lifecycle (readiness, configuration errors, SIGTERM drain, SIGKILL restart):
 * daemon-limits-lifecycle.e2e.test.ts.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { warmInProcessDaemon, type DaemonHandle } from '../support/daemon.js';
import { call, expectCommonHeaders, expectJson, expectProblem, startInProcessDaemonFor, until, type Answer } from '../support/daemon-client.js';
import { parseRawResponses, rawExchange, retryAfterOf } from '../support/daemon-limits-http.js';
import { documentPath, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { ED25519_DID } from '../support/dids.js';
import { generateTestKey } from '../support/signing.js';

/** A syntactically valid did:webvh whose log lives on https://localhost (not reachable here). */
const WEBVH_DID = 'did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:localhost';

const freshDidKey = () => `did:key:${generateTestKey('EdDSA').multikey}`;

let daemons: DaemonHandle[] = [];
async function daemonWith(host: DidWebHost | null, options: Parameters<typeof startInProcessDaemonFor>[1] = {}): Promise<DaemonHandle> {
  const daemon = await startInProcessDaemonFor(host, options);
  daemons.push(daemon);
  return daemon;
}
afterEach(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  daemons = [];
});

let host: DidWebHost;
beforeAll(async () => {
  host = await startDidWebHost();
  await warmInProcessDaemon();
});
afterAll(async () => {
  await host?.close();
});

/** A route on the test host that never answers, remembering each response and whether it closed. */
function hangingRoute(did: string): { responses: ServerResponse[]; closed(): number } {
  const responses: ServerResponse[] = [];
  let closed = 0;
  host.server.route(documentPath(did), (_req, res) => {
    responses.push(res);
    res.on('close', () => {
      closed += 1;
    });
  });
  return { responses, closed: () => closed };
}

async function status(daemon: DaemonHandle): Promise<any> {
  return expectJson(await call(`${daemon.url}/v1/status`), 200);
}

function expectRateLimited(answer: Answer): Record<string, any> {
  const problem = expectProblem(answer, 429, 'RATE_LIMITED');
  expect(problem.type).toBe('urn:svc:problems#RATE_LIMITED');
  expect(answer.header('access-control-expose-headers')).toMatch(/\bRetry-After\b/);
  return problem;
}

describe('direct profile: one token bucket per client (SVC_RATE_LIMIT_PER_MIN)', () => {
  it('3 per minute: 3 resolutions pass, the 4th is 429 RATE_LIMITED with Retry-After: 1; /health and /ready are never limited', async () => {
    const daemon = await daemonWith(null, { env: { SVC_RATE_LIMIT_PER_MIN: '3' } });
    const get = (path: string, init?: RequestInit) => call(`${daemon.url}${path}`, init);
    for (let i = 0; i < 3; i++) expectJson(await get(`/v1/resolve/${ED25519_DID}`), 200);

    const limited = await get(`/v1/resolve/${ED25519_DID}`);
    const problem = expectRateLimited(limited);
    expect(limited.header('retry-after')).toBe('1');
    expect(problem.detail).toContain('3 requests per minute');

    for (let i = 0; i < 10; i++) {
      expectJson(await get('/health'), 200);
      expect(expectJson(await get('/ready'), 200)).toEqual({ ready: true, storage: 'file', schema: 'current' });
    }
    // The bucket is still empty: every other route, known or not, is refused before it runs.
    for (const path of [`/v1/resolve/${ED25519_DID}`, '/v1/status', '/v1/nothing-here', `/v1/history/${ED25519_DID}`]) {
      const answer = await get(path);
      expectRateLimited(answer);
      expect(answer.header('retry-after')).toBe('1');
    }
    // The W3C binding embeds the problem but keeps 429 and Retry-After: 1.
    const w3c = await get(`/1.0/identifiers/${ED25519_DID}`);
    expect(w3c.status).toBe(429);
    expect(w3c.header('retry-after')).toBe('1');
    expect(w3c.header('content-type')).toBe('application/did-resolution');
    expect(w3c.json()).toMatchObject({ didDocument: null, didResolutionMetadata: { error: { code: 'RATE_LIMITED' } } });
  });

  it('404s and /v1/status count toward the bucket, each once', async () => {
    const daemon = await daemonWith(null, { env: { SVC_RATE_LIMIT_PER_MIN: '3' } });
    const get = (path: string) => call(`${daemon.url}${path}`);
    expectProblem(await get('/v1/nothing-here'), 404, 'NOT_FOUND');
    expectProblem(await get('/nothing/either'), 404, 'NOT_FOUND');
    expect((await status(daemon)).components.rateLimit).toEqual({ status: 'ok', perMinute: 3 });
    const limited = await get(`/v1/resolve/${ED25519_DID}`);
    expectRateLimited(limited);
    expect(limited.header('retry-after')).toBe('1');
  });

  it('a 405 counts once too', async () => {
    const daemon = await daemonWith(null, { env: { SVC_RATE_LIMIT_PER_MIN: '2' } });
    expectProblem(await call(`${daemon.url}/health`, { method: 'POST' }), 405, 'METHOD_NOT_ALLOWED');
    expectJson(await call(`${daemon.url}/v1/resolve/${ED25519_DID}`), 200);
    expectRateLimited(await call(`${daemon.url}/v1/resolve/${ED25519_DID}`));
  });

  it('the default bucket is 120 per minute and the public budgets do not apply: 25 fast-verify calls pass', async () => {
    const daemon = await daemonWith(null, { env: { SVC_RATE_LIMIT_PER_MIN: undefined } });
    for (let i = 0; i < 25; i++) {
      expect(expectJson(await call(`${daemon.url}/v1/fast-verify/did/${ED25519_DID}`), 200)).toMatchObject({ did: ED25519_DID, outcome: 'RESOLVED' });
    }
    const body = await status(daemon);
    expect(body.profile).toBe('direct');
    expect(body.components.rateLimit).toEqual({ status: 'ok', perMinute: 120 });
  });
});

describe('public profile (--public): standard 20/min and intensive 10/min per client', () => {
  it('did:webvh resolutions are intensive: the 11th is 429 before any work; did:key on the same client still passes; /v1/stream is intensive', async () => {
    const daemon = await daemonWith(null, { args: ['--public'] });
    const get = (path: string) => call(`${daemon.url}${path}`);
    // Nothing answers on https://localhost:443 and loopback is not allowed egress: the DID
    // fails at its DNS check, but each attempt still draws on the intensive budget.
    for (let i = 0; i < 10; i++) {
      const problem = expectProblem(await get(`/v1/resolve/${WEBVH_DID}`), 403, 'EGRESS_BLOCKED');
      expect(problem.trace.at(-1)).toMatchObject({ stage: 'dns.resolve', status: 'FAIL' });
    }
    const limited = await get(`/v1/resolve/${WEBVH_DID}`);
    const problem = expectRateLimited(limited);
    expect(problem.detail).toContain('intensive budget of 10 requests per minute');
    expect(problem.trace).toBeUndefined();
    const wait = retryAfterOf(limited);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(6);
    // Percent-encoded, it is the same did:webvh and the same budget.
    expectRateLimited(await get(`/v1/resolve/${encodeURIComponent(WEBVH_DID)}`));
    expectRateLimited(await get(`/v1/stream/${ED25519_DID}`));

    // The standard budget is untouched.
    expectJson(await get(`/v1/resolve/${ED25519_DID}`), 200);
    expectJson(await get('/health'), 200);
  });

  it('standard: 20 requests pass, the 21st fast-verify is 429 with an integer Retry-After; /health and /ready are never limited', async () => {
    const daemon = await daemonWith(null, { args: ['--public'] });
    const get = (path: string) => call(`${daemon.url}${path}`);
    for (let i = 0; i < 20; i++) {
      expectJson(await get(`/v1/fast-verify/did/${ED25519_DID}`), 200);
    }
    const limited = await get(`/v1/fast-verify/did/${ED25519_DID}`);
    const problem = expectRateLimited(limited);
    expect(problem.detail).toContain('standard budget of 20 requests per minute');
    const wait = retryAfterOf(limited);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(3);
    expectRateLimited(await get('/v1/status'));
    expectRateLimited(await get(`/v1/resolve/${ED25519_DID}`));
    for (let i = 0; i < 10; i++) {
      expect(expectJson(await get('/health'), 200)).toMatchObject({ status: 'ok', profile: 'public' });
      expectJson(await get('/ready'), 200);
    }
    // The intensive budget is separate: a did:webvh still gets its own answer.
    expectProblem(await get(`/v1/resolve/${WEBVH_DID}`), 403, 'EGRESS_BLOCKED');
  });
});

describe('request bodies: JSON only, parsed strictly, at most 512 KiB', () => {
  let daemon: DaemonHandle;
  beforeAll(async () => {
    daemon = await startInProcessDaemonFor(null);
  });
  afterAll(async () => {
    await daemon?.stop();
  });
  const post = (body: string, contentType = 'application/json') =>
    call(`${daemon.url}/1.0/identifiers/${ED25519_DID}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('a valid {"noCache": true} → 200 with the DID document', async () => {
    const answer = await post('{"noCache": true}');
    const body = expectJson(answer, 200, 'application/did');
    expect(body.id).toBe(ED25519_DID);
  });

  it('600 KiB → 413 PAYLOAD_TOO_LARGE problem+json', async () => {
    const body = JSON.stringify({ noCache: true, padding: 'x'.repeat(600 * 1024) });
    const problem = expectProblem(await post(body), 413, 'PAYLOAD_TOO_LARGE');
    expect(problem.detail).toContain('512 KiB');
  });

  it('a body just under 512 KiB is read (and then judged by the route)', async () => {
    const body = JSON.stringify({ noCache: true, padding: 'x'.repeat(500 * 1024) });
    // The /1.0 binding embeds the route's problem in a resolution result.
    const embedded = expectJson(await post(body), 400, 'application/did-resolution');
    expect(embedded.didResolutionMetadata.error).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(embedded.didResolutionMetadata.error.detail).toContain('"padding"');
  });

  it('duplicate members → 400 INVALID_REQUEST naming the member, at any depth', async () => {
    const top = expectProblem(await post('{"a":1,"a":2}'), 400, 'INVALID_REQUEST');
    expect(top.detail).toMatch(/"a"/);
    const nested = expectProblem(await post('{"x":{"b":1,"b":2}}'), 400, 'INVALID_REQUEST');
    expect(nested.detail).toMatch(/"b"/);
  });

  it('malformed JSON → 400 INVALID_REQUEST', async () => {
    expectProblem(await post('{"noCache": tru'), 400, 'INVALID_REQUEST');
  });

  it('content-type text/plain → 400 INVALID_REQUEST', async () => {
    const problem = expectProblem(await post('{"noCache": true}', 'text/plain'), 400, 'INVALID_REQUEST');
    expect(problem.detail).toContain('application/json');
  });
});

describe('request time limit (SVC_REQUEST_TIMEOUT_MS)', () => {
  // Against a host that never answers the limit is 2 s: long enough that a loaded machine has
  // reached the host before it (at 500 ms a slow TLS handshake could outlast the limit).
  const HANGING_LIMIT_MS = '2000';

  it('a resolution whose host never answers → 408 REQUEST_TIMEOUT; the outbound connection is closed and the slot freed', async () => {
    const daemon = await daemonWith(host, { env: { SVC_REQUEST_TIMEOUT_MS: HANGING_LIMIT_MS } });
    const did = host.did('hang-timeout');
    const hung = hangingRoute(did);
    const answer = await call(`${daemon.url}/v1/resolve/${did}?noCache=true`);
    const problem = expectProblem(answer, 408, 'REQUEST_TIMEOUT');
    expect(problem.type).toBe('urn:svc:problems#REQUEST_TIMEOUT');
    expect(hung.responses.length).toBe(1);
    // The work was cancelled with the request: the daemon hung up on the host.
    await until('the host connection to close', () => hung.closed() === hung.responses.length);
    await until('no resolution in flight', async () => (await status(daemon)).components.resolution.inFlight === 0);
    expect(daemon.stderr()).not.toContain('request failed');
  });

  it('a POST whose work outlives the limit → 408 too (its body was read, so the framework timer is gone); the host is hung up on', async () => {
    const daemon = await daemonWith(host, { env: { SVC_REQUEST_TIMEOUT_MS: HANGING_LIMIT_MS } });
    const did = host.did('hang-post');
    const hung = hangingRoute(did);
    const answer = await call(`${daemon.url}/1.0/identifiers/${did}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ noCache: true }),
    });
    expectProblem(answer, 408, 'REQUEST_TIMEOUT');
    await until('the host connection to close', () => hung.responses.length === 1 && hung.closed() === 1);
    await until('no resolution in flight', async () => (await status(daemon)).components.resolution.inFlight === 0);
  });

  it('a body that trickles in slower than the limit → one 408 REQUEST_TIMEOUT problem, then the connection closes', async () => {
    const daemon = await daemonWith(null, { env: { SVC_REQUEST_TIMEOUT_MS: '500' } });
    const body = '{"noCache": true}';
    const head =
      `POST /1.0/identifiers/${ED25519_DID} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` + `Content-Length: ${body.length}\r\n\r\n`;
    const exchange = await rawExchange(daemon.url, head, body, 150);
    const responses = parseRawResponses(exchange.received);
    expect(responses.map((r) => r.status)).toEqual([408]);
    const [response] = responses;
    expect(response!.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
    expect(response!.headers['connection']).toBe('close');
    expect(response!.headers['x-content-type-options']).toBe('nosniff');
    expect(response!.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(response!.body)).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
  });

  it('headers that trickle in slower than the limit → 408 problem+json written by the clientErrorHandler', async () => {
    const daemon = await daemonWith(null, { env: { SVC_REQUEST_TIMEOUT_MS: '500' } });
    const exchange = await rawExchange(daemon.url, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: ' + 'a'.repeat(100), 50);
    const responses = parseRawResponses(exchange.received);
    expect(responses.map((r) => r.status)).toEqual([408]);
    const [response] = responses;
    expect(response!.headers).toMatchObject({
      'content-type': 'application/problem+json',
      connection: 'close',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'access-control-allow-origin': '*',
    });
    expect(JSON.parse(response!.body)).toEqual({
      type: 'urn:svc:problems#REQUEST_TIMEOUT',
      title: 'Request timeout',
      status: 408,
      detail: 'The request was not received within the time limit.',
      code: 'REQUEST_TIMEOUT',
      // No request was read: a new id, the same in the header and the body.
      requestId: response!.headers['x-request-id'],
    });
    expect(response!.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
    // The daemon is unharmed.
    expectJson(await call(`${daemon.url}/health`), 200);
  });
});

describe('capacity (SVC_MAX_CONCURRENCY=1)', () => {
  it('a second outbound resolution → 503 CAPACITY_EXHAUSTED with a jittered Retry-After; cache hits and /health still served; a client leaving frees the slot', async () => {
    const daemon = await daemonWith(host, { env: { SVC_MAX_CONCURRENCY: '1' } });
    const get = (path: string) => call(`${daemon.url}${path}`);
    const cachedDid = freshDidKey();
    expect(expectJson(await get(`/v1/resolve/${cachedDid}`), 200).cached).toBe(false);

    const hangDid = host.did('hang-capacity');
    const hung = hangingRoute(hangDid);
    const otherDid = host.did('other-capacity');
    host.publish(otherDid);

    const leave = new AbortController();
    const hanging = fetch(`${daemon.url}/v1/resolve/${hangDid}?noCache=true`, { signal: leave.signal }).then(
      () => 'answered',
      (err: Error) => err.name,
    );
    await until('the host to receive the hanging request', () => hung.responses.length === 1);
    expect((await status(daemon)).components.resolution).toMatchObject({ inFlight: 1, maxConcurrency: 1 });

    const waits = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const busy = await get(`/v1/resolve/${otherDid}`);
      const problem = expectProblem(busy, 503, 'CAPACITY_EXHAUSTED');
      expect(problem.type).toBe('urn:svc:problems#CAPACITY_EXHAUSTED');
      waits.add(retryAfterOf(busy));
    }
    // Retry-After varies per response, so clients do not retry in step.
    expect(waits.size).toBeGreaterThan(1);
    expectProblem(await get(`/v1/fast-verify/did/${freshDidKey()}`), 503, 'CAPACITY_EXHAUSTED');
    expect(host.server.requests.filter((r) => r.includes('other-capacity'))).toEqual([]);

    // A cache hit needs no slot, for a resolution or a dereference of the same DID.
    expect(expectJson(await get(`/v1/resolve/${cachedDid}`), 200).cached).toBe(true);
    const fragment = cachedDid.slice('did:key:'.length);
    expect(expectJson(await get(`/v1/dereference/${cachedDid}%23${fragment}`), 200).contentStream.id).toBe(`${cachedDid}#${fragment}`);
    expectProblem(await get(`/v1/dereference/${freshDidKey()}%23x`), 503, 'CAPACITY_EXHAUSTED');
    expectJson(await get('/health'), 200);

    // The client leaves: the resolution is cancelled, the host hung up on, the slot freed.
    leave.abort();
    expect(await hanging).toBe('AbortError');
    await until('the host connection to close', () => hung.closed() === 1);
    await until('the slot to be released', async () => (await status(daemon)).components.resolution.inFlight === 0);
    expect(expectJson(await get(`/v1/resolve/${otherDid}`), 200).did).toBe(otherDid);
  });
});

describe('answers Fastify would write itself carry the same headers', () => {
  let daemon: DaemonHandle;
  beforeAll(async () => {
    daemon = await startInProcessDaemonFor(null);
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('unknown route: 404 NOT_FOUND with the security and CORS headers', async () => {
    const answer = await call(`${daemon.url}/no/such/route?x=1`);
    expectProblem(answer, 404, 'NOT_FOUND');
    expect(answer.header('access-control-expose-headers')).toBe('Retry-After, Content-Type, Svc-Signature, X-Request-Id');
  });

  it('wrong method: 405 METHOD_NOT_ALLOWED with Allow and the security and CORS headers', async () => {
    for (const [method, path, allow] of [
      ['PUT', `/v1/resolve/${ED25519_DID}`, ['GET', 'HEAD', 'OPTIONS']],
      ['DELETE', '/health', ['GET', 'HEAD', 'OPTIONS']],
      ['PATCH', `/1.0/identifiers/${ED25519_DID}`, ['GET', 'HEAD', 'POST', 'OPTIONS']],
    ] as const) {
      const answer = await call(`${daemon.url}${path}`, { method });
      expectProblem(answer, 405, 'METHOD_NOT_ALLOWED');
      expect(answer.header('allow').split(', ').sort()).toEqual([...allow].sort());
      expect(answer.header('access-control-expose-headers')).toBe('Retry-After, Content-Type, Svc-Signature, X-Request-Id');
    }
  });

  it('a path with malformed percent-encoding: 400 INVALID_REQUEST problem with the same headers, the path not echoed', async () => {
    const answer = await call(`${daemon.url}/v1/resolve/did%3Akey%3A%ZZ-marker`);
    const problem = expectProblem(answer, 400, 'INVALID_REQUEST');
    expect(JSON.stringify(problem)).not.toContain('marker');
  });

  it('HEAD /health: 200, JSON content type, no body, the same headers', async () => {
    const answer = await call(`${daemon.url}/health`, { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.header('content-type')).toMatch(/^application\/json(;|$)/);
    expect(answer.text).toBe('');
    expectCommonHeaders(answer);
  });

  it('HEAD on an unknown route: 404 without a body', async () => {
    const answer = await call(`${daemon.url}/no/such/route`, { method: 'HEAD' });
    expect(answer.status).toBe(404);
    expect(answer.text).toBe('');
    expectCommonHeaders(answer);
  });
});
