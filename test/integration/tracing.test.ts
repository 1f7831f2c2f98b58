/**
 * Traces (server/tracing.ts) in process: the daemon's app with the OTLP tracer pointed at a
 * loopback receiver. A resolution is one trace whose root is the request's span and whose
 * children are its stages and database calls; a failed request's span is marked; nothing on a
 * span names the DID; a collector that is down changes no answer; bad settings are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/node.js';
import { combinedServerTelemetry, daemonTelemetry, type ServerTelemetry } from '../../src/server/telemetry.js';
import { OtlpTracer, tracingSettings } from '../../src/server/tracing.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { ED25519_DID } from '../support/dids.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { attribute, otlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';

/** Sent at once: the tests wait for spans, not for a timer. */
const FAST = { intervalMs: 20, maxBatch: 64 };

describe('a request as a trace', () => {
  let database: TestDatabase;
  let receiver: OtlpReceiver;
  let tracer: OtlpTracer;
  let daemon: InjectedApp;

  beforeAll(async () => {
    database = await sqliteDatabase('svc-tracing');
    receiver = await otlpReceiver();
    tracer = new OtlpTracer({ settings: tracingSettings({ SVC_OTEL_ENDPOINT: receiver.url, SVC_OTEL_SERVICE_NAME: 'svc-test' })!, limits: FAST });
    daemon = await injectedApp(database.target, { telemetry: tracer });
  });
  afterAll(async () => {
    await daemon?.close();
    await tracer?.close();
    await receiver?.close();
    await database?.done();
  });

  /** The spans of the trace whose root answered `requestId`, once the root has arrived. */
  const traceOf = async (requestId: string): Promise<{ root: ReceivedSpan; spans: ReceivedSpan[] }> => {
    await receiver.until((spans) => spans.some((span) => attribute(span, 'svc.request_id') === requestId));
    const root = receiver.spans.find((span) => attribute(span, 'svc.request_id') === requestId)!;
    // Children end before their parent: they were sent in the same or an earlier batch.
    return { root, spans: receiver.spans.filter((span) => span.traceId === root.traceId) };
  };

  it('holds the stages and the database calls of a did:key resolution under the request span', async () => {
    const answer = await daemon.anonymous('GET', `/1.0/identifiers/${ED25519_DID}`);
    expect(answer.statusCode).toBe(200);
    const { root, spans } = await traceOf(String(answer.headers['x-request-id']));
    expect(root).toMatchObject({ name: 'GET /1.0/identifiers/*', kind: 2, status: { code: 0 } });
    expect(root.parentSpanId ?? '').toBe('');
    expect(root.serviceName).toBe('svc-test');
    expect(attribute(root, 'http.route')).toBe('/1.0/identifiers/*');
    expect(attribute(root, 'http.response.status_code')).toBe('200');
    expect(attribute(root, 'http.request.method')).toBe('GET');
    expect(spans.filter((span) => span.parentSpanId === undefined || span.parentSpanId === '')).toEqual([root]);
    const children = spans.filter((span) => span !== root);
    // Each child hangs off a span of the same trace.
    const ids = new Set(spans.map((span) => span.spanId));
    expect(children.every((span) => ids.has(span.parentSpanId!))).toBe(true);
    const stages = children.filter((span) => attribute(span, 'svc.span.kind') === 'stage');
    expect(stages.map((span) => span.name)).toEqual(expect.arrayContaining(['syntax.parse', 'document.derive']));
    expect(stages.every((span) => span.kind === 1 && attribute(span, 'svc.outcome') === 'PASS')).toBe(true);
    const db = children.filter((span) => attribute(span, 'svc.span.kind') === 'db');
    expect(db.length).toBeGreaterThan(0);
    expect(db.every((span) => span.kind === 3 && /^[a-zA-Z]+\.[a-zA-Z]+$/.test(span.name) && attribute(span, 'svc.outcome') === 'ok')).toBe(true);
    for (const span of spans) {
      expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano));
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(JSON.stringify(spans)).not.toContain('did:');
  });

  it('marks a request answered 5xx as an error, and names an unmatched one', async () => {
    const failed = await daemon.anonymous('GET', '/1.0/identifiers/did:web:localhost%3A9');
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    const { root, spans } = await traceOf(String(failed.headers['x-request-id']));
    expect(root).toMatchObject({ name: 'GET /1.0/identifiers/*', status: { code: 2 } });
    expect(attribute(root, 'http.response.status_code')).toBe(String(failed.statusCode));
    expect(spans.filter((span) => attribute(span, 'svc.span.kind') === 'fetch').every((span) => attribute(span, 'svc.outcome') === 'EGRESS_BLOCKED')).toBe(
      true,
    );
    expect(JSON.stringify(spans)).not.toMatch(/did:|localhost/);

    const missing = await daemon.anonymous('GET', '/no/such/route');
    expect(missing.statusCode).toBe(404);
    const unmatched = await traceOf(String(missing.headers['x-request-id']));
    expect(unmatched.root).toMatchObject({ name: 'GET unmatched', status: { code: 0 } });
    expect(attribute(unmatched.root, 'http.route')).toBeUndefined();
  });

  it('starts a trace of its own whatever traceparent a client sends, and keeps a DID out of svc.request_id', async () => {
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const answer = await daemon.anonymous('GET', `/1.0/identifiers/${ED25519_DID}`, undefined, { traceparent: parent, 'x-request-id': 'did:key:z6Mk' });
    expect(answer.statusCode).toBe(200);
    await receiver.until((spans) => spans.some((span) => span.kind === 2 && attribute(span, 'svc.request_id') === undefined));
    const root = receiver.spans.find((span) => span.kind === 2 && attribute(span, 'svc.request_id') === undefined)!;
    expect(root.traceId).not.toBe('0af7651916cd43dd8448eb211c80319c');
    expect(root.parentSpanId ?? '').toBe('');
  });
});

describe('a collector that is down', () => {
  it('changes no answer: the spans are dropped, one warning said', async () => {
    const database = await sqliteDatabase('svc-tracing-down');
    const gone = await otlpReceiver();
    const url = gone.url;
    await gone.close();
    const warnings: string[] = [];
    const tracer = new OtlpTracer({ settings: tracingSettings({ SVC_OTEL_ENDPOINT: url })!, limits: FAST, warn: (line) => warnings.push(line) });
    const daemon = await injectedApp(database.target, { telemetry: tracer });
    try {
      for (let i = 0; i < 3; i++) expect((await daemon.anonymous('GET', `/1.0/identifiers/${ED25519_DID}`)).statusCode).toBe(200);
    } finally {
      await daemon.close();
      await tracer.close();
      await database.done();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^svc: warning: traces could not be sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(ECONNREFUSED\); spans are dropped until it answers$/,
    );
  });
});

describe('combinedServerTelemetry', () => {
  it('closes every part that can be closed (the tracer sends what waits)', async () => {
    const closed: string[] = [];
    const part = (name: string, closable: boolean): ServerTelemetry => ({
      within: (_kind, _name, body) => body({ outcome: 'ok' }),
      record: () => undefined,
      request: (_method, _id, next) => (next(), { end: () => undefined }),
      ...(closable ? { close: async () => void closed.push(name) } : {}),
    });
    await combinedServerTelemetry([part('metrics', false), part('traces', true), part('other', true)])!.close!();
    expect(closed.sort()).toEqual(['other', 'traces']);
  });
});

describe('SVC_OTEL_ENDPOINT and SVC_OTEL_SERVICE_NAME', () => {
  it('is off unset or empty, and then loads nothing', async () => {
    expect(tracingSettings({})).toBeUndefined();
    expect(tracingSettings({ SVC_OTEL_ENDPOINT: '  ' })).toBeUndefined();
    expect(await daemonTelemetry({ SVC_METRICS: 'off' })).toEqual({});
  });

  it('appends /v1/traces to a base URL, keeps a traces URL, and announces neither userinfo nor query', () => {
    expect(tracingSettings({ SVC_OTEL_ENDPOINT: 'http://127.0.0.1:4318' })?.url.href).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracingSettings({ SVC_OTEL_ENDPOINT: 'https://otel.example/collector/' })?.url.href).toBe('https://otel.example/collector/v1/traces');
    expect(tracingSettings({ SVC_OTEL_ENDPOINT: 'http://c:4318/v1/traces' })?.url.href).toBe('http://c:4318/v1/traces');
    const secret = tracingSettings({ SVC_OTEL_ENDPOINT: 'https://user:s3cret@otel.example:4318/?tenant=7' })!;
    expect(secret.shown).toBe('https://otel.example:4318/v1/traces');
    expect(secret.url.href).toBe('https://otel.example:4318/v1/traces?tenant=7');
    expect(secret.authorization).toBe(`Basic ${Buffer.from('user:s3cret').toString('base64')}`);
    expect(secret.serviceName).toBe('svc');
  });

  it.each([
    ['SVC_OTEL_ENDPOINT', { SVC_OTEL_ENDPOINT: '127.0.0.1:4318' }],
    ['SVC_OTEL_ENDPOINT', { SVC_OTEL_ENDPOINT: 'grpc://127.0.0.1:4317' }],
    ['SVC_OTEL_ENDPOINT', { SVC_OTEL_ENDPOINT: 'not a url' }],
    ['SVC_OTEL_ENDPOINT', { SVC_OTEL_ENDPOINT: 'http://127.0.0.1:4318/#x' }],
    ['SVC_OTEL_SERVICE_NAME', { SVC_OTEL_ENDPOINT: 'http://127.0.0.1:4318', SVC_OTEL_SERVICE_NAME: 'svc prod' }],
  ])('refuses a bad %s with a one-line ConfigError naming it', async (setting, env) => {
    const refusal = await daemonTelemetry(env).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ConfigError);
    const message = (refusal as Error).message;
    expect(message.startsWith(setting)).toBe(true);
    expect(message).not.toContain('\n');
  });
});
