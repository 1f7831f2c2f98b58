/**
 * Prometheus metrics in process (src/server/metrics.ts, docs/operations.md#metrics): after a varied
 * workload — a did:key resolved twice (the second from the cache), a did:web the egress policy
 * refuses, a body that is not JSON, a path holding a DID and a URL that matches no route, a
 * bearer token nobody issued, a budget used up, a credential verified — GET /metrics has the
 * series of each, and no label value anywhere in the scrape holds a DID, a URL, the token or an
 * IP address. /metrics is the operator's (401 without the token, 501 without one set, 404 on the
 * public profile and with the metrics off). On both engines (the pool gauges on PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrometheusTelemetry } from '../../src/server/metrics.js';
import { ED25519_DID } from '../support/dids.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { INJECTED_ADMIN_TOKEN, injectedApp, type InjectedApp } from '../support/injected.js';
import { issueVcJwt, jwtIssuer, unsignedCredential } from '../support/peer-issuers.js';

/** A bearer token the daemon never issued: it must appear nowhere in the scrape. */
const STRANGER_TOKEN = 'svck_0123456789abcdefghijklmnopqrstuvwxyzSECRET';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a text exposition (comments skipped), label values unescaped. */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    out.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return out;
}

const find = (all: Sample[], name: string, labels: Record<string, string>) =>
  all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe.each([
  ['SQLite', () => sqliteDatabase('svc-metrics')],
  ['PostgreSQL', () => postgresDatabase()],
])('GET /metrics after a varied workload (%s)', (engine, open) => {
  let database: TestDatabase;
  let daemon: InjectedApp;
  let scrape: Sample[];
  let text: string;

  beforeAll(async () => {
    database = await open();
    const metrics = new PrometheusTelemetry();
    daemon = await injectedApp(database.target, { telemetry: metrics, metrics, limits: { directPerMinute: 40 } });
    // The workload: each answer checked, so that the series below are the ones of these requests.
    expect((await daemon.anonymous('GET', `/v1/resolve/${ED25519_DID}`)).statusCode).toBe(200);
    expect((await daemon.anonymous('GET', `/v1/resolve/${ED25519_DID}`)).statusCode).toBe(200);
    expect((await daemon.anonymous('GET', '/v1/resolve/did:web:localhost%3A9')).statusCode).toBe(403);
    expect((await daemon.anonymous('POST', '/v1/credentials/verify', '{"credential": ', { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect((await daemon.anonymous('GET', `/nothing/${ED25519_DID}/https://example.com/x`)).statusCode).toBe(404);
    expect((await daemon.anonymous('GET', '/v1/status', undefined, { authorization: `Bearer ${STRANGER_TOKEN}` })).statusCode).toBe(401);
    const issuer = jwtIssuer('EdDSA');
    const credential = await issueVcJwt(unsignedCredential(issuer.did), issuer);
    const verified = await daemon.anonymous('POST', '/v1/credentials/verify', { credential });
    expect(verified.statusCode).toBe(200);
    // The direct budget (40 a minute here) used up: one 429 at least.
    let limited = 0;
    for (let i = 0; i < 45 && limited === 0; i++) if ((await daemon.anonymous('GET', '/v1/status')).statusCode === 429) limited++;
    expect(limited).toBe(1);
    // A scrape after one more (a request is counted once its response has closed).
    await daemon.operator('GET', '/metrics');
    const answer = await daemon.operator('GET', '/metrics');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    text = answer.body;
    scrape = samples(text);
  });
  afterAll(async () => {
    await daemon?.close();
    await database?.done();
  });

  it('counts requests and their latency by method, route pattern and status; unmatched paths as such', () => {
    expect(find(scrape, 'svc_http_requests_total', { method: 'GET', route: '/v1/resolve/*', status: '200' })[0]?.value).toBe(2);
    expect(find(scrape, 'svc_http_requests_total', { method: 'GET', route: '/v1/resolve/*', status: '403' })[0]?.value).toBe(1);
    expect(find(scrape, 'svc_http_requests_total', { method: 'POST', route: '/v1/credentials/verify', status: '400' })[0]?.value).toBe(1);
    expect(find(scrape, 'svc_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })[0]?.value).toBe(1);
    expect(find(scrape, 'svc_http_requests_total', { route: '/v1/status', status: '401' })[0]?.value).toBe(1);
    expect(find(scrape, 'svc_http_requests_total', { route: '/v1/status', status: '429' })[0]?.value).toBe(1);
    const buckets = find(scrape, 'svc_http_request_duration_seconds_bucket', { route: '/v1/resolve/*', status: '200' });
    expect(buckets.find((b) => b.labels['le'] === '+Inf')?.value).toBe(2);
    // The scrape in flight is the one request in flight.
    expect(find(scrape, 'svc_http_requests_in_flight', {})[0]?.value).toBe(1);
  });

  it('counts resolutions by method and outcome, with the cache hit; fetches by outcome; stages', () => {
    expect(find(scrape, 'svc_resolutions_total', { method: 'key', outcome: 'ok', cached: 'false' })[0]?.value).toBe(2);
    expect(find(scrape, 'svc_resolutions_total', { method: 'key', outcome: 'ok', cached: 'true' })[0]?.value).toBe(1);
    expect(find(scrape, 'svc_resolutions_total', { method: 'web', outcome: 'EGRESS_BLOCKED' })[0]?.value).toBe(1);
    expect(find(scrape, 'svc_outbound_fetches_total', { outcome: 'EGRESS_BLOCKED' })[0]?.value).toBeGreaterThanOrEqual(1);
    expect(find(scrape, 'svc_stage_duration_seconds_count', { stage: 'syntax.parse', outcome: 'PASS' })[0]?.value).toBeGreaterThanOrEqual(2);
  });

  it('counts the budget refusal, the credential verification and the database calls', () => {
    expect(find(scrape, 'svc_refusals_total', { reason: 'budget' })[0]?.value).toBe(1);
    const credentials = find(scrape, 'svc_credential_verifications_total', {});
    expect(credentials.reduce((n, s) => n + s.value, 0)).toBe(1);
    expect(credentials[0]!.labels['format']).toBe('VC_JOSE_COSE');
    expect(find(scrape, 'svc_db_call_duration_seconds_count', { operation: 'observations.record', outcome: 'ok' })[0]?.value).toBeGreaterThanOrEqual(1);
    expect(find(scrape, 'svc_process_cpu_seconds_total', {})).toHaveLength(1);
  });

  it(`reports the PostgreSQL pool at scrape time${engine === 'SQLite' ? ' (absent on SQLite)' : ''}`, () => {
    const pool = find(scrape, 'svc_db_pool_connections', {});
    if (engine === 'SQLite') expect(pool).toHaveLength(0);
    else {
      expect(pool.map((s) => s.labels['state']).sort()).toEqual(['idle', 'total', 'waiting']);
      expect(find(pool, 'svc_db_pool_connections', { state: 'total' })[0]!.value).toBeGreaterThanOrEqual(1);
    }
  });

  it('holds no DID, URL, token or IP address in any label value', () => {
    const values = scrape.flatMap((s) => Object.values(s.labels));
    expect(values.length).toBeGreaterThan(100);
    const ipv4 = /\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/;
    const ipv6 = /(^|[^a-z0-9])[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}/i;
    const leaks = values.filter(
      (v) =>
        v.includes('did:') ||
        v.includes('http') ||
        v.includes('://') ||
        v.includes(STRANGER_TOKEN) ||
        v.includes(INJECTED_ADMIN_TOKEN) ||
        ipv4.test(v) ||
        ipv6.test(v),
    );
    expect(leaks).toEqual([]);
    expect(text).not.toContain(STRANGER_TOKEN);
    expect(text).not.toContain(INJECTED_ADMIN_TOKEN);
    expect(text).not.toContain('example.com');
  });

  it('answers 401 without the operator token and with a wrong one', async () => {
    const none = await daemon.anonymous('GET', '/metrics');
    expect(none.statusCode).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await daemon.anonymous('GET', '/metrics', undefined, { authorization: `Bearer ${INJECTED_ADMIN_TOKEN}x` })).statusCode).toBe(401);
  });
});

describe('GET /metrics where it is not served', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await sqliteDatabase('svc-metrics-off');
  });
  afterAll(async () => {
    await database?.done();
  });

  it('is an unknown path on the public profile, even with the token', async () => {
    const metrics = new PrometheusTelemetry();
    const daemon = await injectedApp(database.target, { telemetry: metrics, metrics, profile: 'public' });
    try {
      const answer = await daemon.operator('GET', '/metrics');
      expect(answer.statusCode).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await daemon.close();
    }
  });

  it('is 404 with the metrics off (SVC_METRICS=off), once the token is checked', async () => {
    const daemon = await injectedApp(database.target);
    try {
      expect((await daemon.anonymous('GET', '/metrics')).statusCode).toBe(401);
      const answer = await daemon.operator('GET', '/metrics');
      expect(answer.statusCode).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await daemon.close();
    }
  });
});
