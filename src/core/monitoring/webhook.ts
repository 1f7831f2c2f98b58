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
import { RETRY_AFTER_CAP_SECONDS } from './delivery-limits.js';
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

export { RETRY_AFTER_CAP_SECONDS } from './delivery-limits.js';

/**
 * The seconds a Retry-After header value asks for at `nowMs`: delta-seconds (`600`) or an
 * HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`, 0 when already past); null when absent or neither
 * form. Not capped (see RETRY_AFTER_CAP_SECONDS).
 */
export function retryAfterSecondsOf(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^[0-9]{1,12}$/.test(text)) return Number(text);
  // An HTTP-date (IMF-fixdate, or the obsolete forms Date.parse reads): a weekday name first.
  if (!/^[A-Za-z]{3,9}, /.test(text)) return null;
  const at = Date.parse(text);
  if (!Number.isFinite(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** The decision an attempt's outcome records (delivery_attempts.decision). */
export type AttemptDecision = 'DELIVERED' | 'RETRY' | 'DEAD_LETTER' | 'WEBHOOK_DISABLED' | 'CANCELLED';

/**
 * What one attempt `attempt` (1-based) of five means, from the receiver's answer: its status and
 * headers (lower-case names), or null with `failure` (one line) when no answer came.
 *
 * - 2xx: delivered.
 * - 410 Gone: the receiver turned the webhook off: never retried (`gone`; the store disables the
 *   webhook and cancels its queued events).
 * - 3xx: a failure, never followed (the egress policy would have to re-check the new target).
 * - 429 or 503 with Retry-After: the next attempt after max(schedule, Retry-After capped at
 *   RETRY_AFTER_CAP_SECONDS).
 * - anything else, or no answer: retried on the schedule (60, 120, 240, 480 s); after the fifth
 *   attempt, a dead letter.
 */
export function attemptOutcome(
  answer: { status: number; headers: Readonly<Record<string, string>> } | null,
  failure: string,
  attempt: number,
  nowMs: number,
): DeliveryOutcome {
  const scheduled = attempt < DELIVERY_ATTEMPTS ? retryDelaySeconds(attempt) : null;
  const status = answer?.status;
  if (answer === null || status === undefined) {
    return { delivered: false, error: failure, retryAfterSeconds: scheduled, detail: `${failure.replace(/\.$/, '')}; ${nextOf(scheduled)}` };
  }
  if (status >= 200 && status < 300) return { delivered: true, status, detail: `the receiver answered ${status}` };
  if (status === 410) {
    return {
      delivered: false,
      gone: true,
      status,
      error: 'the receiver answered 410 Gone',
      retryAfterSeconds: null,
      detail: 'the receiver answered 410 Gone: the webhook is disabled and its queued events cancelled; never retried',
    };
  }
  const error = `the receiver answered ${status}`;
  if (status >= 300 && status < 400) {
    const location = answer.headers.location;
    const detail =
      `${error}${location ? ` (Location: ${location.slice(0, 200)})` : ''}; redirects are not followed, since the egress policy would have to ` +
      `re-check the new target: register the final URL; ${nextOf(scheduled)}`;
    return { delivered: false, error: `${error}; redirects are not followed (register the final URL)`, retryAfterSeconds: scheduled, status, detail };
  }
  if ((status === 429 || status === 503) && answer.headers['retry-after'] !== undefined) {
    const asked = retryAfterSecondsOf(answer.headers['retry-after'], nowMs);
    const header = `Retry-After: ${answer.headers['retry-after'].slice(0, 64)}`;
    if (asked === null)
      return { delivered: false, error, retryAfterSeconds: scheduled, status, detail: `${error} with an unreadable ${header}; ${nextOf(scheduled)}` };
    if (scheduled === null) return { delivered: false, error, retryAfterSeconds: null, status, detail: `${error} with ${header}; ${nextOf(null)}` };
    const capped = Math.min(asked, RETRY_AFTER_CAP_SECONDS);
    const wait = Math.max(scheduled, capped);
    const why = asked > RETRY_AFTER_CAP_SECONDS ? `, capped at ${RETRY_AFTER_CAP_SECONDS} s` : wait === scheduled ? ` (sooner than the schedule)` : '';
    const detail =
      wait === scheduled
        ? `${error} with ${header}${why}; next attempt in ${wait} s, the schedule's`
        : `${error} with ${header}${why}; next attempt in ${wait} s, not the scheduled ${scheduled} s`;
    return { delivered: false, error, retryAfterSeconds: wait, status, detail };
  }
  return { delivered: false, error, retryAfterSeconds: scheduled, status, detail: `${error}; ${nextOf(scheduled)}` };
}

/** How an attempt ended, as the sender settles it (a DeliveryResult with the receiver's status and the record's detail). */
export type DeliveryOutcome =
  | { delivered: true; status: number; detail: string }
  | { delivered: false; error: string; retryAfterSeconds: number | null; status?: number; detail: string; gone?: true };

function nextOf(scheduled: number | null): string {
  return scheduled === null ? `that was the last of ${DELIVERY_ATTEMPTS} attempts: dead letter` : `next attempt in ${scheduled} s`;
}
