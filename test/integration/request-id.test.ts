/**
 * Request ids (docs/daemon.md#request-ids), on the daemon's app in process: one id per request, in
 * the X-Request-Id response header, the problem body, the SSE error frame and the access-log line,
 * all equal; a client's id of sane shape is kept, anything else replaced and never echoed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessEntry } from '../../src/server/access-log.js';
import { REQUEST_ID_PATTERN } from '../../src/server/request-id.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { tableLookup } from '../support/did-web-host.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';

let db: TestDatabase;
let svc: InjectedApp;
const access: AccessEntry[] = [];

beforeAll(async () => {
  db = await sqliteDatabase('svc-request-id');
  svc = await injectedApp(db.target, { netOverrides: { lookup: tableLookup() }, accessLog: (entry) => access.push(entry) });
});

afterAll(async () => {
  await svc?.close();
  await db?.done();
});

/** The access-log entry of the request answered with `id` (written when its response closes). */
async function logged(id: string): Promise<AccessEntry[]> {
  await new Promise((r) => setImmediate(r));
  return access.filter((entry) => entry.requestId === id);
}

describe('request ids', () => {
  it("a failing request's id is its X-Request-Id header, its problem's requestId and its access-log line's", async () => {
    const res = await svc.anonymous('GET', '/v1/no-such-route');
    expect(res.statusCode).toBe(404);
    const id = res.headers['x-request-id'];
    expect(typeof id).toBe('string');
    expect(id).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', requestId: id });
    expect(await logged(id as string)).toEqual([expect.objectContaining({ method: 'GET', status: 404, requestId: id })]);
  });

  it('keeps an incoming id of sane shape, on success and on a problem', async () => {
    const ok = await svc.anonymous('GET', '/health', undefined, { 'x-request-id': 'lb-7f3a:0001.b_c-d' });
    expect(ok.headers['x-request-id']).toBe('lb-7f3a:0001.b_c-d');
    const longest = 'a'.repeat(128);
    const problem = await svc.anonymous('GET', '/v1/no-such-route', undefined, { 'x-request-id': longest });
    expect(problem.headers['x-request-id']).toBe(longest);
    expect(problem.json().requestId).toBe(longest);
    expect(await logged(longest)).toHaveLength(1);
  });

  it('replaces an id of 10 KiB, with a space or a control character, and echoes it nowhere', async () => {
    for (const incoming of ['x'.repeat(10 * 1024), 'a'.repeat(129), 'two words', 'bell\u0007here', 'semi;colon', '']) {
      const before = access.length;
      const res = await svc.anonymous('GET', '/v1/no-such-route', undefined, { 'x-request-id': incoming });
      const id = res.headers['x-request-id'] as string;
      expect(id).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
      expect(id).not.toBe(incoming);
      expect(res.body.includes(incoming === '' ? '"requestId":""' : incoming)).toBe(false);
      expect(res.json().requestId).toBe(id);
      await new Promise((r) => setImmediate(r));
      const lines = access.slice(before);
      expect(lines.map((entry) => entry.requestId)).toEqual([id]);
      expect(JSON.stringify(lines).includes(incoming === '' ? '"requestId":""' : incoming)).toBe(false);
    }
    expect(REQUEST_ID_PATTERN.test('a'.repeat(128))).toBe(true);
  });

  it('gives two requests different ids', async () => {
    const [a, b] = await Promise.all([svc.anonymous('GET', '/health'), svc.anonymous('GET', '/health')]);
    expect(a!.headers['x-request-id']).not.toBe(b!.headers['x-request-id']);
  });

  it('exposes the header to browsers (CORS)', async () => {
    const res = await svc.anonymous('GET', '/health');
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/(^|, )X-Request-Id(,|$)/);
  });

  it("puts the id in the live stream's error frame", async () => {
    const res = await svc.anonymous('GET', '/v1/stream/did:web:nowhere.example', undefined, { 'x-request-id': 'stream-check-1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('stream-check-1');
    const frame = /event: error\ndata: (.*)\n/.exec(res.body);
    expect(frame).not.toBeNull();
    expect(JSON.parse(frame![1]!)).toMatchObject({ requestId: 'stream-check-1' });
  });

  it('a body over the limit (413) and a /1.0 problem carry it too', async () => {
    const big = await svc.app.inject({
      method: 'POST',
      url: '/v1/credentials/verify',
      headers: { 'content-type': 'application/json', 'x-request-id': 'big-1' },
      payload: JSON.stringify({ padding: 'x'.repeat(600 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.headers['x-request-id']).toBe('big-1');
    expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: 'big-1' });
    const w3c = await svc.anonymous('GET', '/1.0/identifiers/did:nope:x', undefined, { 'x-request-id': 'w3c-1' });
    expect(w3c.headers['x-request-id']).toBe('w3c-1');
    expect(w3c.json().didResolutionMetadata.error).toMatchObject({ requestId: 'w3c-1' });
  });

  it('answers 503 while draining with its id', async () => {
    svc.ctx.draining = true;
    try {
      const res = await svc.anonymous('GET', '/health', undefined, { 'x-request-id': 'drain-1' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['x-request-id']).toBe('drain-1');
      expect(res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', requestId: 'drain-1' });
    } finally {
      svc.ctx.draining = false;
    }
  });
});
