/**
 * Traces from a real `svc serve` (SVC_OTEL_ENDPOINT) to a loopback OTLP/HTTP receiver that parses
 * the JSON export requests as a collector would: N requests are N traces, each with its stages;
 * no attribute value names a DID or a URL; what is still queued at SIGTERM is sent before exit.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multikey } from '../support/codec.js';
import { startDaemon, type Daemon } from '../support/daemon.js';
import { attribute, otlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';

/** A fresh did:key each time: every resolution does its stages (none is a cache hit). */
function freshDidKey(): string {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  return `did:key:${multikey(0xed, Buffer.from(jwk.x!, 'base64url'))}`;
}

const N = 5;

describe('svc serve with SVC_OTEL_ENDPOINT', () => {
  let receiver: OtlpReceiver;
  let daemon: Daemon;
  let exit: number | string;
  const requestIds: string[] = [];

  beforeAll(async () => {
    receiver = await otlpReceiver();
    daemon = await startDaemon({ env: { SVC_OTEL_ENDPOINT: `${receiver.url}/`, SVC_OTEL_SERVICE_NAME: 'svc-e2e' } });
    for (let i = 0; i < N; i++) {
      const answer = await fetch(`${daemon.url}/1.0/identifiers/${freshDidKey()}`);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      requestIds.push(answer.headers.get('x-request-id')!);
    }
    // At once: the spans still queued (sent every second otherwise) go out during the shutdown.
    exit = await daemon.stop('SIGTERM');
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('announces where traces go, without the path typed twice', () => {
    expect(exit).toBe(0);
    expect(daemon.stderr()).toContain(`svc: tracing to ${receiver.url}/v1/traces (OTLP/HTTP JSON, service svc-e2e)`);
    expect(receiver.requests.every((path) => path === '/v1/traces')).toBe(true);
  });

  it('sent one trace per request, its stages under the request span, before it exited', () => {
    const roots = receiver.spans.filter((span) => span.kind === 2);
    expect(roots.map((span) => attribute(span, 'svc.request_id')).sort()).toEqual([...requestIds].sort());
    expect(new Set(roots.map((span) => span.traceId)).size).toBe(N);
    for (const root of roots) {
      expect(root.name).toBe('GET /1.0/identifiers/*');
      expect(root.serviceName).toBe('svc-e2e');
      const trace = receiver.spans.filter((span) => span.traceId === root.traceId);
      const stages = trace.filter((span) => attribute(span, 'svc.span.kind') === 'stage');
      expect(stages.map((span) => span.name)).toEqual(expect.arrayContaining(['syntax.parse', 'document.derive']));
      expect(stages.every((span) => span.parentSpanId !== undefined && trace.some((parent) => parent.spanId === span.parentSpanId))).toBe(true);
    }
  });

  it('puts no DID and no URL in any attribute value', () => {
    const values = receiver.spans.flatMap((span) => span.attributes.map((a) => String(Object.values(a.value)[0])));
    expect(values.length).toBeGreaterThan(0);
    expect(values.filter((value) => /did:|:\/\/|127\.0\.0\.1/.test(value))).toEqual([]);
    expect(receiver.spans.filter((span) => /did:|:\/\//.test(span.name))).toEqual([]);
  });
});
