/**
 * A monitor event as a delivery (src/core/monitoring/webhook.ts): the envelope is the same bytes
 * on every attempt; the headers of each attempt verify with the clients' verifyWebhook and with
 * an independent Standard Webhooks verifier (the `standardwebhooks` package), and with neither
 * under another secret or another body.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/client/webhooks.js';
import {
  attemptOutcome,
  deliveryHeaders,
  envelopeOf,
  RETRY_AFTER_CAP_SECONDS,
  retryAfterSecondsOf,
  retryDelaySeconds,
} from '../../src/core/monitoring/webhook.js';
import type { MonitorEvent } from '../../src/core/store.js';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const event: MonitorEvent = {
  id: 42,
  watchId: 7,
  kind: 'did',
  replays: 0,
  did: 'did:web:example.com',
  eventType: 'identity.document.changed',
  data: {
    fromHash: 'a'.repeat(64),
    toHash: 'b'.repeat(64),
    domainBinding: null,
    diff: { summary: '1 key rotated', changedMembers: ['verificationMethod'] },
    headline: 'Zürich — 東京',
    problem: null,
  },
  createdAt: '2026-11-27T03:00:00Z',
  deliveryStatus: 'DELIVERING',
  attempts: 1,
  nextAttemptAt: null,
  lastAttemptAt: null,
  lastError: null,
};

describe('webhook deliveries', () => {
  it('the envelope: {id, type, did, watchId, createdAt, data}, the same bytes whatever the attempt', () => {
    const body = envelopeOf(event);
    expect(JSON.parse(body)).toEqual({ id: 'evt_42', type: event.eventType, did: event.did, watchId: '7', createdAt: event.createdAt, data: event.data });
    expect(Object.keys(JSON.parse(body))).toEqual(['id', 'type', 'did', 'watchId', 'createdAt', 'data']);
    expect(envelopeOf({ ...event, attempts: 4, deliveryStatus: 'RETRY' })).toBe(body);
  });

  it('each attempt verifies with verifyWebhook and with a Standard Webhooks verifier; a fresh timestamp changes both signatures', async () => {
    const key = secret();
    const body = envelopeOf(event);
    const now = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders(key, event, body, now);
    expect(headers).toMatchObject({
      'x-svc-event': event.eventType,
      'x-svc-event-id': 'evt_42',
      'x-svc-timestamp': String(now),
      'webhook-id': 'evt_42',
      'webhook-timestamp': String(now),
    });
    expect(headers['x-svc-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verifyWebhook(key, headers, body)).toBe(true);
    expect(new Webhook(key).verify(body, headers)).toEqual(JSON.parse(body));

    const later = deliveryHeaders(key, event, body, now + 60);
    expect(later['x-svc-signature-256']).not.toBe(headers['x-svc-signature-256']);
    expect(later['webhook-signature']).not.toBe(headers['webhook-signature']);
    expect(await verifyWebhook(key, later, body, { now: now + 60 })).toBe(true);
  });

  it('another secret or another body verifies with neither', async () => {
    const key = secret();
    const body = envelopeOf(event);
    const headers = deliveryHeaders(key, event, body, Math.floor(Date.now() / 1000));
    const other = secret();
    expect(await verifyWebhook(other, headers, body)).toBe(false);
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
    const tampered = body.replace('evt_42', 'evt_43');
    expect(await verifyWebhook(key, headers, tampered)).toBe(false);
    expect(() => new Webhook(key).verify(tampered, headers)).toThrow();
  });

  it('retries after 60, 120, 240 and 480 s; none after the fifth attempt', () => {
    expect([1, 2, 3, 4, 5].map(retryDelaySeconds)).toEqual([60, 120, 240, 480, null]);
  });
});

describe('what a receiver answer decides (attemptOutcome)', () => {
  const now = Date.parse('2026-11-29T00:00:00Z');
  const answer = (status: number, headers: Record<string, string> = {}) => ({ status, headers });

  it('reads Retry-After as delta-seconds or an HTTP-date (0 once past), else null', () => {
    expect(retryAfterSecondsOf('600', now)).toBe(600);
    expect(retryAfterSecondsOf(' 0 ', now)).toBe(0);
    expect(retryAfterSecondsOf('Sun, 29 Nov 2026 00:15:00 GMT', now)).toBe(900);
    expect(retryAfterSecondsOf('Sat, 28 Nov 2026 23:00:00 GMT', now)).toBe(0);
    for (const bad of [undefined, '', '-5', '1.5', 'soon', '2026-11-29T00:15:00Z']) expect(retryAfterSecondsOf(bad, now)).toBeNull();
  });

  it('2xx delivers; 410 is gone, never retried; 3xx is a failure, not followed', () => {
    expect(attemptOutcome(answer(204), '', 1, now)).toMatchObject({ delivered: true, status: 204 });
    expect(attemptOutcome(answer(410), '', 1, now)).toMatchObject({ delivered: false, gone: true, retryAfterSeconds: null, status: 410 });
    const moved = attemptOutcome(answer(308, { location: 'https://elsewhere.example/' }), '', 2, now);
    expect(moved).toMatchObject({ delivered: false, retryAfterSeconds: 120, status: 308 });
    expect(moved.detail).toMatch(/\(Location: https:\/\/elsewhere\.example\/\); redirects are not followed, since the egress policy would have to re-check/);
  });

  it('429 and 503 with Retry-After wait max(schedule, Retry-After capped); other statuses and unreadable values keep the schedule', () => {
    expect(attemptOutcome(answer(429, { 'retry-after': '600' }), '', 1, now)).toMatchObject({ retryAfterSeconds: 600 });
    expect(attemptOutcome(answer(503, { 'retry-after': '30' }), '', 2, now)).toMatchObject({ retryAfterSeconds: 120 });
    expect(attemptOutcome(answer(429, { 'retry-after': '999999' }), '', 4, now)).toMatchObject({ retryAfterSeconds: RETRY_AFTER_CAP_SECONDS });
    expect(attemptOutcome(answer(500, { 'retry-after': '600' }), '', 1, now)).toMatchObject({ retryAfterSeconds: 60 });
    expect(attemptOutcome(answer(429, { 'retry-after': 'later' }), '', 1, now)).toMatchObject({ retryAfterSeconds: 60 });
    expect(attemptOutcome(answer(429, { 'retry-after': '600' }), '', 5, now)).toMatchObject({ retryAfterSeconds: null });
    expect(attemptOutcome(null, 'UPSTREAM_UNAVAILABLE: refused', 3, now)).toMatchObject({
      delivered: false,
      error: 'UPSTREAM_UNAVAILABLE: refused',
      retryAfterSeconds: 240,
      detail: 'UPSTREAM_UNAVAILABLE: refused; next attempt in 240 s',
    });
    expect(RETRY_AFTER_CAP_SECONDS).toBe(3600);
  });
});
