/**
 * Webhook signature verifiers (docs/clients.md#webhooks: operator and customer webhooks), with
 * WebCrypto only (browsers and Node ≥ 20; no node: import). Both return a boolean and never
 * throw: a missing or malformed header, a timestamp out of the window, a wrong secret, a body
 * that is not the signed one are all `false`. The HMAC comparison is `crypto.subtle.verify`,
 * which compares in constant time and answers false for a signature of any other length.
 */

/** A header value as Node's IncomingHttpHeaders holds it, or as a plain object would. */
export type HeaderValue = string | readonly string[] | undefined;
/** A fetch `Headers` (or anything with a `get`), or a plain record; names match case-insensitively. */
export type WebhookHeaders = { get(name: string): string | null } | Readonly<Record<string, HeaderValue>>;
/** Bytes as received, or a string (encoded as UTF-8). */
export type WebhookBytes = string | Uint8Array | ArrayBuffer;

export interface WebhookVerifyOptions {
  /** Largest accepted |now − timestamp| in seconds (default 300; 1800 for customer webhooks). */
  toleranceSeconds?: number;
  /** The current time in unix seconds (default: the clock). */
  now?: number;
}

/** Default window of an operator webhook: receivers reject timestamps older than a few minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/**
 * Default window of a customer webhook: it keeps the signature and `t` (the event's creation
 * time) on every retry, and the last of five attempts can start 60+120+240+480 s of backoff plus
 * five 45 s attempts (1125 s) after the first; 1800 s covers that schedule with room to spare.
 */
export const CUSTOMER_WEBHOOK_TOLERANCE_SECONDS = 1800;
/** At most this many `v1` values of one X-SVC-Signature header are tried (each costs an HMAC). */
const MAX_V1_SIGNATURES = 16;

/**
 * An operator webhook (docs/daemon.md#operator-monitoring): `X-Svc-Timestamp` (unix seconds,
 * digits) and `X-Svc-Signature-256: sha256=<64 lowercase hex>`, the HMAC-SHA256 keyed with the
 * watch secret over `<timestamp>.<raw body>`. Valid iff both headers are present and well formed,
 * the timestamp is within `toleranceSeconds` of now (either direction) and the HMAC matches.
 */
export async function verifyWebhook(
  secret: WebhookBytes,
  headers: WebhookHeaders,
  rawBody: WebhookBytes,
  options: WebhookVerifyOptions = {},
): Promise<boolean> {
  try {
    const timestamp = headerOf(headers, 'x-svc-timestamp');
    const signature = headerOf(headers, 'x-svc-signature-256');
    if (timestamp === undefined || signature === undefined) return false;
    if (!withinWindow(timestamp, options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS, options.now)) return false;
    const match = /^sha256=([0-9a-f]{64})$/.exec(signature);
    if (match === null) return false;
    const key = await hmacKey(secret);
    return await verifyHmac(key, hexBytes(match[1]!), signedBytes(timestamp, rawBody));
  } catch {
    return false;
  }
}

/**
 * A customer webhook (docs/daemon.md#customer-monitoring):
 * `X-SVC-Signature: t=<creationTime>,v1=<hex>` (comma-separated `name=value` parts in any order,
 * whitespace around them tolerated, one `t` of digits, one to 16 `v1` of 64 lowercase hex digits,
 * any of which may match; other names ignored), the HMAC-SHA256 over `<t>.<exact UTF-8 body>`, and
 * `X-SVC-Event-ID` present (receivers deduplicate on it). Default window 1800 s (see
 * CUSTOMER_WEBHOOK_TOLERANCE_SECONDS: retries keep the signature and `t`).
 */
export async function verifyCustomerWebhook(
  secret: WebhookBytes,
  headers: WebhookHeaders,
  rawBody: WebhookBytes,
  options: WebhookVerifyOptions = {},
): Promise<boolean> {
  try {
    const eventId = headerOf(headers, 'x-svc-event-id');
    const signature = headerOf(headers, 'x-svc-signature');
    if (eventId === undefined || eventId === '' || signature === undefined) return false;
    let t: string | undefined;
    const candidates: string[] = [];
    for (const part of signature.split(',')) {
      const item = part.trim();
      if (item === '') continue;
      const eq = item.indexOf('=');
      if (eq === -1) return false; // not `name=value`: a malformed header
      const name = item.slice(0, eq).trim();
      const value = item.slice(eq + 1).trim();
      if (name === 't') {
        if (t !== undefined) return false; // two timestamps: which one was signed?
        t = value;
      } else if (name === 'v1' && /^[0-9a-f]{64}$/.test(value)) {
        // svc signs in lowercase hex; any other v1 can never match.
        candidates.push(value);
      }
    }
    if (t === undefined || candidates.length === 0 || candidates.length > MAX_V1_SIGNATURES) return false;
    if (!withinWindow(t, options.toleranceSeconds ?? CUSTOMER_WEBHOOK_TOLERANCE_SECONDS, options.now)) return false;
    const key = await hmacKey(secret);
    const data = signedBytes(t, rawBody);
    for (const candidate of candidates) {
      if (await verifyHmac(key, hexBytes(candidate), data)) return true;
    }
    return false;
  } catch {
    return false;
  }
}

/** One header value, names case-insensitive; undefined when absent or given more than once. */
function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const value = (headers as { get(name: string): string | null }).get(name);
    return typeof value === 'string' ? value.trim() : undefined;
  }
  let found: HeaderValue;
  let count = 0;
  for (const [key, value] of Object.entries(headers as Record<string, HeaderValue>)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    found = value;
    count++;
  }
  if (count !== 1) return undefined;
  if (typeof found === 'string') return found.trim();
  if (Array.isArray(found) && found.length === 1 && typeof found[0] === 'string') return found[0].trim();
  return undefined;
}

/** `timestamp` is ASCII digits and |now − timestamp| ≤ tolerance. */
function withinWindow(timestamp: string, toleranceSeconds: number, now: number | undefined): boolean {
  if (!/^[0-9]{1,15}$/.test(timestamp)) return false;
  const seconds = Number(timestamp);
  if (!Number.isSafeInteger(seconds)) return false;
  const current = now ?? Math.floor(Date.now() / 1000);
  return Math.abs(current - seconds) <= toleranceSeconds;
}

const encoder = new TextEncoder();

function bytesOf(value: WebhookBytes): Uint8Array {
  if (typeof value === 'string') return encoder.encode(value);
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  throw new TypeError('expected a string, a Uint8Array or an ArrayBuffer');
}

/** `<timestamp>.<raw body>` as bytes. */
function signedBytes(timestamp: string, rawBody: WebhookBytes): Uint8Array {
  const prefix = encoder.encode(`${timestamp}.`);
  const body = bytesOf(rawBody);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

type Subtle = typeof globalThis.crypto.subtle;
type HmacKey = Awaited<ReturnType<Subtle['importKey']>>;

function subtle(): Subtle {
  const s = globalThis.crypto?.subtle;
  if (s === undefined) throw new Error('WebCrypto (crypto.subtle) is not available');
  return s;
}

function hmacKey(secret: WebhookBytes): Promise<HmacKey> {
  return subtle().importKey('raw', bytesOf(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

function verifyHmac(key: HmacKey, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  return subtle().verify('HMAC', key, signature, data);
}
