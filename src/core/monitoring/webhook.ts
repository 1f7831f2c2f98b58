/**
 * A monitor event as a webhook delivery (docs/daemon.md#operator-monitoring): the envelope
 * `{id, type, did, watchId, createdAt, data}` — the same bytes on every attempt, made from the
 * stored event — and the signature headers, fresh per attempt:
 *
 * - svc's own: X-Svc-Event, X-Svc-Event-Id, X-Svc-Timestamp (unix seconds) and
 *   X-Svc-Signature-256: `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`, the key
 *   being the secret's UTF-8 bytes (what the clients' verifyWebhook checks);
 * - Standard Webhooks' (standardwebhooks.com): webhook-id (the event id), webhook-timestamp and
 *   webhook-signature: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>`, the key
 *   being the base64 after `whsec_` in the secret — so any Standard Webhooks verifier given the
 *   watch's secret accepts svc's deliveries.
 *
 * Both sign the same raw body with the same secret; a receiver checks either.
 */
import { createHmac } from 'node:crypto';
import { subjectMember, type MonitorEvent } from './store.js';

/**
 * The envelope's bytes (JSON, fixed member order). The subject is named as the watch names it:
 * `did` for a DID watch, `mcpEndpoint` or `a2aCard` (the URL) for an MCP or A2A watch.
 */
export function envelopeOf(event: MonitorEvent): string {
  return JSON.stringify({
    id: `evt_${event.id}`,
    type: event.eventType,
    [subjectMember(event.kind)]: event.did,
    watchId: String(event.watchId),
    createdAt: event.createdAt,
    data: event.data,
  });
}

/** The key Standard Webhooks signs with: the bytes the `whsec_` secret encodes (else the secret's own bytes). */
function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** The headers of one attempt at `timestampSeconds` (lower-case names). */
export function deliveryHeaders(secret: string, event: MonitorEvent, body: string, timestampSeconds: number): Record<string, string> {
  const id = `evt_${event.id}`;
  const timestamp = String(Math.floor(timestampSeconds));
  const svc = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  const standard = createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
  return {
    'content-type': 'application/json',
    'x-svc-event': event.eventType,
    'x-svc-event-id': id,
    'x-svc-timestamp': timestamp,
    'x-svc-signature-256': `sha256=${svc}`,
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${standard}`,
  };
}

/** Seconds before the next attempt after failed attempt `attempt` (1-based), or null after the last (60, 120, 240, 480; five attempts). */
export function retryDelaySeconds(attempt: number): number | null {
  const delays = [60, 120, 240, 480];
  return attempt >= 1 && attempt <= delays.length ? delays[attempt - 1]! : null;
}

export const DELIVERY_ATTEMPTS = 5;
/**
 * How long one delivery attempt (operator or customer webhook) may take in all, ms: DNS, connect,
 * request and the receiver's answer. Longer than the 15 s of a resolution's fetch (which keeps
 * it): a receiver may do real work before it answers. Well within DELIVERY_LEASE_SECONDS.
 */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 45_000;
export const DELIVERY_LEASE_SECONDS = 120;
