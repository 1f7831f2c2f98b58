/**
 * The daemon under abuse, `svc serve` started in this process from its command line
 * (a process for a start-up refusal), on loopback: budgets charged
 * before bodies are read, a problem+json answer to requests Node's parser would answer bare,
 * fair capacity across clients (resolutions and MCP inspections), the SSE stream under the
 * request time limit, and the access log. Clients other than 127.0.0.1 connect from other
 * loopback addresses (all of 127/8 is loopback on Linux), so the daemon sees several clients.
 */
import http from 'node:http';
import net from 'node:net';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { warmInProcessDaemon, type DaemonHandle } from '../support/daemon.js';
import { call, expectJson, expectProblem, startDaemonFor, startInProcessDaemonFor, until, PROBLEM_TYPE } from '../support/daemon-client.js';
import { parseRawResponses } from '../support/daemon-limits-http.js';
import { documentPath, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { ED25519_DID } from '../support/dids.js';

let daemons: DaemonHandle[] = [];
async function daemonWith(env: Record<string, string | undefined>): Promise<DaemonHandle> {
  const daemon = await startInProcessDaemonFor(host, { env });
  daemons.push(daemon);
  return daemon;
}
afterEach(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  daemons = [];
});

let host: DidWebHost;
const hanging: ServerResponse[] = [];
beforeAll(async () => {
  host = await startDidWebHost();
  await warmInProcessDaemon();
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await host?.close();
});

/** A path on the test host that never answers. */
function hang(path: string): void {
  host.server.route(path, (_req, res) => {
    hanging.push(res);
  });
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One GET over a fresh connection from `localAddress`. */
function getFrom(url: string, localAddress: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { localAddress, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Writes `head` and `body` on a raw connection and resolves with what came back before it closed. */
function rawRequest(url: string, head: string, body = ''): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(received));
    socket.write(head + body);
  });
}

const SPEC_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'access-control-allow-origin': '*',
};

describe('budgets before bodies', () => {
  it('budget 5/min: five malformed 500 KiB bodies cost their tokens (400 each); the 6th is 429 before its body has been sent', async () => {
    const daemon = await daemonWith({ SVC_RATE_LIMIT_PER_MIN: '5' });
    const malformed = `{"credential": ${'['.repeat(500 * 1024 - 20)}`;
    for (let i = 0; i < 5; i++) {
      const answer = await call(`${daemon.url}/v1/credentials/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: malformed });
      expectProblem(answer, 400, 'INVALID_REQUEST');
    }

    // The 6th announces 512 KiB but sends only its first kilobyte: the answer must come anyway,
    // since the budget is charged when the request arrives, and the connection is then closed.
    const { hostname, port } = new URL(daemon.url);
    const received = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname);
      let text = '';
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer before the body was sent; received: ${text}`));
      }, 5_000);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(text);
      });
      socket.write(`POST /v1/credentials/verify HTTP/1.1\r\nHost: svc\r\nContent-Type: application/json\r\nContent-Length: ${512 * 1024}\r\n\r\n`);
      socket.write('['.repeat(1024));
    });
    const [response] = parseRawResponses(received);
    expect(response!.status).toBe(429);
    expect(response!.headers['content-type']).toBe(PROBLEM_TYPE);
    expect(response!.headers['retry-after']).toBe('1');
    expect(response!.headers['connection']).toBe('close');
    expect(JSON.parse(response!.body)).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
  });

  it('over budget, a request without a body is 429 and its connection stays open for the next', async () => {
    const daemon = await daemonWith({ SVC_RATE_LIMIT_PER_MIN: '1' });
    expectJson(await call(`${daemon.url}/v1/resolve/${ED25519_DID}`), 200);
    const limited = await call(`${daemon.url}/v1/resolve/${ED25519_DID}`);
    expectProblem(limited, 429, 'RATE_LIMITED');
    expect(limited.header('connection')).not.toBe('close');
  });
});

describe('every answer is a problem with the headers of every answer', () => {
  it('an HTTP/1.1 request without Host → 400 problem+json with X-Content-Type-Options, Referrer-Policy and CORS headers', async () => {
    const daemon = await daemonWith({});
    const [response] = parseRawResponses(await rawRequest(daemon.url, 'GET /health HTTP/1.1\r\n\r\n'));
    expect(response!.status).toBe(400);
    expect(response!.headers['content-type']).toBe(PROBLEM_TYPE);
    expect(response!.headers).toMatchObject(SPEC_HEADERS);
    expect(response!.headers['access-control-expose-headers']).toMatch(/Retry-After/);
    expect(JSON.parse(response!.body)).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    expect(JSON.parse(response!.body).detail).toMatch(/Host/);
  });

  it('bad framing (a Content-Length that is not a number) → 400 problem+json with the same headers', async () => {
    const daemon = await daemonWith({});
    const [response] = parseRawResponses(await rawRequest(daemon.url, 'POST /v1/fast-verify/jws HTTP/1.1\r\nHost: svc\r\nContent-Length: abc\r\n\r\n'));
    expect(response!.status).toBe(400);
    expect(response!.headers['content-type']).toBe('application/problem+json');
    expect(response!.headers).toMatchObject(SPEC_HEADERS);
    expect(JSON.parse(response!.body)).toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('an HTTP/1.0 request needs no Host', async () => {
    const daemon = await daemonWith({});
    const [response] = parseRawResponses(await rawRequest(daemon.url, 'GET /health HTTP/1.0\r\n\r\n'));
    expect(response!.status).toBe(200);
  });
});

describe('fair capacity', () => {
  it('SVC_MAX_CONCURRENCY=4: four slow did:web resolutions of one client hold two slots (the others 503), and another client is served', async () => {
    const daemon = await daemonWith({ SVC_MAX_CONCURRENCY: '4', SVC_REQUEST_TIMEOUT_MS: '4000' });
    const slow = [0, 1, 2, 3].map((i) => host.did(`slow-fair-${i}`));
    for (const did of slow) hang(documentPath(did));
    const pending = slow.map((did) => getFrom(`${daemon.url}/v1/resolve/${did}`, '127.0.0.1'));
    await until('two slots held', async () => (await getFrom(`${daemon.url}/v1/status`, '127.0.0.9')).body.includes('"inFlight":2'));
    const other = host.did('fair-other');
    host.publish(other);
    const served = await getFrom(`${daemon.url}/v1/resolve/${other}`, '127.0.0.2');
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body).did).toBe(other);

    const answers = await Promise.all(pending);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused).toHaveLength(2);
    for (const answer of refused) {
      const problem = JSON.parse(answer.body);
      expect(problem.code).toBe('CAPACITY_EXHAUSTED');
      expect(problem.detail).toMatch(/this client already holds 2 of the 4 slots/);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // The two admitted ones ran into the time limit.
    expect(answers.filter((a) => a.status === 408)).toHaveLength(2);
  });

  it('8 concurrent MCP inspections from four clients with capacity 4 → four run, four are 503 CAPACITY_EXHAUSTED with Retry-After', async () => {
    const daemon = await daemonWith({ SVC_MAX_CONCURRENCY: '4', SVC_REQUEST_TIMEOUT_MS: '4000' });
    hang('/mcp-hang');
    const endpoint = encodeURIComponent(`${host.server.origin}/mcp-hang`);
    const clients = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];
    const pending = clients.flatMap((address) => [0, 1].map(() => getFrom(`${daemon.url}/v1/mcp/inspect?endpoint=${endpoint}`, address)));
    const answers = await Promise.all(pending);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused).toHaveLength(4);
    for (const answer of refused) {
      expect(JSON.parse(answer.body).code).toBe('CAPACITY_EXHAUSTED');
      expect(answer.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
      expect(answer.headers['content-type']).toBe(PROBLEM_TYPE);
    }
    expect(answers.filter((a) => a.status === 408)).toHaveLength(4);
    await until(
      'every slot released',
      async () => JSON.parse((await getFrom(`${daemon.url}/v1/status`, '127.0.0.9')).body).components.resolution.inFlight === 0,
    );
  });

  it('capacity 1: an A2A inspection holds the slot while its card fetch hangs; any other outbound request is 503, from any client', async () => {
    const daemon = await daemonWith({ SVC_MAX_CONCURRENCY: '1', SVC_MAX_CONCURRENCY_PER_CLIENT: '1', SVC_REQUEST_TIMEOUT_MS: '3000' });
    hang('/agents/hang.json');
    const a2a = encodeURIComponent(`${host.server.origin}/agents/hang.json`);
    // An A2A inspection takes its slot at once and holds it while the card fetch hangs.
    const first = getFrom(`${daemon.url}/v1/a2a/inspect?url=${a2a}`, '127.0.0.1');
    await until('the slot held', async () => (await getFrom(`${daemon.url}/v1/status`, '127.0.0.9')).body.includes('"inFlight":1'));
    const busy = await getFrom(`${daemon.url}/v1/a2a/inspect?url=${a2a}`, '127.0.0.2');
    expect(busy.status).toBe(503);
    expect(JSON.parse(busy.body).detail).toMatch(/all 1 slots/);
    // A cache-free did:key needs no fetch but is outbound work all the same: refused too.
    expect((await getFrom(`${daemon.url}/v1/resolve/${ED25519_DID}?noCache=true`, '127.0.0.3')).status).toBe(503);
    expect((await first).status).toBe(408);
  });
});

describe('SSE under the time limit', () => {
  it('a stream of a host that never answers ends with error (408 REQUEST_TIMEOUT) then done, within the configured limit', async () => {
    const daemon = await daemonWith({ SVC_REQUEST_TIMEOUT_MS: '1500' });
    const did = host.did('stream-hang');
    hang(documentPath(did));
    const started = performance.now();
    const answer = await call(`${daemon.url}/v1/stream/${did}`);
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(200);
    const events = answer.text
      .trim()
      .split('\n\n')
      .map((block) => ({ event: /^event: (.+)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? 'null') }));
    expect(events.slice(-2).map((e) => e.event)).toEqual(['error', 'done']);
    expect(events.at(-2)!.data).toMatchObject({ code: 'REQUEST_TIMEOUT', status: 408 });
    expect(events.some((e) => e.event === 'result')).toBe(false);
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(1500 + 5_000);
  });
});

describe('access log', () => {
  it('one JSON line per request on stderr: method, route pattern, status, duration, client; never a query, token or body', async () => {
    const daemon = await daemonWith({ SVC_ACCESS_LOG: undefined });
    const secret = 'secret-token-4f9a1c';
    expectJson(
      await call(`${daemon.url}/v1/resolve/${ED25519_DID}?noCache=true`, { headers: { authorization: `Bearer ${secret}`, cookie: `session=${secret}` } }),
      200,
    );
    await call(`${daemon.url}/v1/fast-verify/jws`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jws: secret }) });
    await call(`${daemon.url}/no-such-route?token=${secret}`);
    await until(
      'three access lines',
      () =>
        daemon
          .stderr()
          .split('\n')
          .filter((l) => l.includes('"access":true')).length >= 3,
    );
    const lines = daemon
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"access":true'))
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ method: 'GET', route: '/v1/resolve/*', status: 200, client: '127.0.0.1' });
    expect(typeof lines[0].durationMs).toBe('number');
    expect(lines[1]).toMatchObject({ method: 'POST', route: '/v1/fast-verify/jws', status: 200 });
    expect(lines[2]).toMatchObject({ method: 'GET', status: 404 });
    expect(daemon.stderr()).not.toContain(secret);
    expect(daemon.stderr()).not.toContain('noCache');
    expect(daemon.stderr()).not.toContain(ED25519_DID);
  });

  it('SVC_ACCESS_LOG=off: no access lines; an unknown value is a usage error (exit 2)', async () => {
    const daemon = await daemonWith({ SVC_ACCESS_LOG: 'off' });
    expectJson(await call(`${daemon.url}/health`), 200);
    expect(daemon.stderr()).not.toContain('"access"');
    await expect(startDaemonFor(null, { env: { SVC_ACCESS_LOG: 'verbose' } })).rejects.toThrow(/SVC_ACCESS_LOG must be json, text or off/);
  });
});
