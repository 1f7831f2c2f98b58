/**
 * The client's webhook verifiers (src/client/webhooks.ts, WebCrypto) against vectors computed
 * here with node:crypto: operator webhooks (X-Svc-Timestamp, X-Svc-Signature-256 = sha256=<hex>
 * over `<timestamp>.<raw body>`, 300 s) and customer webhooks (X-SVC-Signature: t=…,v1=…,
 * X-SVC-Event-ID, 1800 s). Every failure is `false`, never an exception.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyCustomerWebhook, verifyWebhook, type WebhookBytes, type WebhookHeaders } from '../../src/client/webhooks.js';

const SECRET = 'whsec_test_0123456789abcdef';
const NOW = 1_790_000_000;
const BODY = JSON.stringify({ id: 'evt_42', type: 'identity.document.changed', data: { fromHash: 'a', toHash: 'b', note: 'é ✓' } });

const hmac = (secret: string | Uint8Array, data: string | Uint8Array) => createHmac('sha256', secret).update(data).digest('hex');

/** The operator webhook headers of `body` signed at `timestamp` (as the daemon's delivery sends them). */
function operatorHeaders(body: string | Uint8Array, timestamp = NOW, secret: string | Uint8Array = SECRET): Record<string, string> {
  const signed = typeof body === 'string' ? `${timestamp}.${body}` : Buffer.concat([Buffer.from(`${timestamp}.`), body]);
  return {
    'X-Svc-Event': 'identity.document.changed',
    'X-Svc-Event-Id': 'evt_42',
    'X-Svc-Timestamp': String(timestamp),
    'X-Svc-Signature-256': `sha256=${hmac(secret, signed)}`,
  };
}

function customerHeaders(body: string, t = NOW, secret = SECRET): Record<string, string> {
  return { 'X-SVC-Event-ID': 'cevt_7', 'X-SVC-Signature': `t=${t},v1=${hmac(secret, `${t}.${body}`)}` };
}

const without = (headers: Record<string, string>, name: string) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== name));
const lowerKeys = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
const upperKeys = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));

describe('verifyWebhook (operator webhooks)', () => {
  const headers = operatorHeaders(BODY);
  const check = (
    h: WebhookHeaders,
    body: WebhookBytes = BODY,
    options: { toleranceSeconds?: number; now?: number } = { now: NOW },
    secret: string | Uint8Array = SECRET,
  ) => verifyWebhook(secret, h, body, options);

  it('accepts the signed body: a Headers object, a plain record in any case, array values, bytes', async () => {
    expect(await check(headers)).toBe(true);
    expect(await check(new Headers(headers))).toBe(true);
    expect(await check(lowerKeys(headers))).toBe(true);
    expect(await check(upperKeys(headers))).toBe(true);
    expect(await check(Object.fromEntries(Object.entries(lowerKeys(headers)).map(([k, v]) => [k, [v]])))).toBe(true);
    expect(await check(headers, new TextEncoder().encode(BODY))).toBe(true);
    expect(await check(headers, new TextEncoder().encode(BODY).buffer as ArrayBuffer)).toBe(true);
    expect(await check(headers, BODY, { now: NOW }, new TextEncoder().encode(SECRET))).toBe(true);
  });

  it('a raw body that is not UTF-8 is verified as the bytes received', async () => {
    const raw = Uint8Array.of(0xff, 0xfe, 0x00, 0x7b, 0x80);
    expect(await check(operatorHeaders(raw), raw)).toBe(true);
    expect(await check(operatorHeaders(raw), new TextDecoder().decode(raw))).toBe(false); // decoding changed the bytes
  });

  it('rejects a tampered body and a wrong secret', async () => {
    expect(await check(headers, BODY.replace('evt_42', 'evt_43'))).toBe(false);
    expect(await check(headers, `${BODY} `)).toBe(false);
    expect(await check(headers, BODY, { now: NOW }, `${SECRET}x`)).toBe(false);
    expect(await check(headers, BODY, { now: NOW }, '')).toBe(false);
  });

  it('timestamps: 300 s either way pass, 301 s old or 301 s in the future fail (tolerance 300)', async () => {
    expect(await check(operatorHeaders(BODY, NOW - 300))).toBe(true);
    expect(await check(operatorHeaders(BODY, NOW + 300))).toBe(true);
    expect(await check(operatorHeaders(BODY, NOW - 301))).toBe(false);
    expect(await check(operatorHeaders(BODY, NOW + 301))).toBe(false);
    expect(await check(operatorHeaders(BODY, NOW - 301), BODY, { now: NOW, toleranceSeconds: 301 })).toBe(true);
  });

  it('the default clock and the default tolerance (300 s)', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await verifyWebhook(SECRET, operatorHeaders(BODY, now), BODY)).toBe(true);
    expect(await verifyWebhook(SECRET, operatorHeaders(BODY, now - 400), BODY)).toBe(false);
    expect(await verifyWebhook(SECRET, operatorHeaders(BODY, now - 400), BODY, { toleranceSeconds: 500 })).toBe(true);
  });

  it('rejects when either header is missing', async () => {
    expect(await check(without(headers, 'X-Svc-Timestamp'))).toBe(false);
    expect(await check(without(headers, 'X-Svc-Signature-256'))).toBe(false);
    expect(await check(new Headers(without(headers, 'X-Svc-Signature-256')))).toBe(false);
    expect(await check({})).toBe(false);
    expect(await check(new Headers())).toBe(false);
    expect(await check({ ...lowerKeys(headers), 'x-svc-timestamp': undefined })).toBe(false);
  });

  it('rejects malformed headers', async () => {
    const sig = headers['X-Svc-Signature-256']!;
    const hex = sig.slice('sha256='.length);
    for (const bad of [
      hex,
      `sha1=${hex}`,
      `SHA256=${hex}`,
      `sha256=${hex.toUpperCase()}`,
      `sha256= ${hex}`,
      `sha256=${hex.slice(0, -1)}g`,
      `sha256=${hex},sha256=${hex}`,
      'sha256=',
      '',
    ]) {
      expect(await check({ ...headers, 'X-Svc-Signature-256': bad }), bad).toBe(false);
    }
    for (const bad of [`+${NOW}`, `${NOW}.0`, `${NOW}a`, `0x${NOW.toString(16)}`, '1e9', '-1', '', '٣', '99999999999999999999']) {
      const h = { ...headers, 'X-Svc-Timestamp': bad };
      expect(await check(h), JSON.stringify(bad)).toBe(false);
    }
    // The same name twice (two spellings, or two values): ambiguous.
    expect(await check({ ...headers, 'x-svc-signature-256': headers['X-Svc-Signature-256']! })).toBe(false);
    expect(await check({ ...without(headers, 'X-Svc-Signature-256'), 'x-svc-signature-256': [sig, sig] })).toBe(false);
  });

  it('a signature of the wrong length is false, never an exception', async () => {
    const hex = headers['X-Svc-Signature-256']!.slice('sha256='.length);
    for (const bad of [hex.slice(0, 62), `${hex}00`, hex.slice(0, 2), `${hex}${hex}`]) {
      await expect(check({ ...headers, 'X-Svc-Signature-256': `sha256=${bad}` })).resolves.toBe(false);
    }
  });

  it('never throws, whatever it is given', async () => {
    const nonsense: unknown[] = [
      null,
      undefined,
      42,
      {
        toString: () => {
          throw new Error('boom');
        },
      },
      Symbol('x'),
    ];
    for (const value of nonsense) {
      await expect(verifyWebhook(value as string, headers, BODY, { now: NOW })).resolves.toBe(false);
      await expect(verifyWebhook(SECRET, headers, value as string, { now: NOW })).resolves.toBe(false);
      await expect(verifyWebhook(SECRET, (value ?? {}) as WebhookHeaders, BODY, { now: NOW })).resolves.toBe(false);
      await expect(verifyCustomerWebhook(value as string, customerHeaders(BODY), BODY, { now: NOW })).resolves.toBe(false);
    }
    await expect(
      verifyWebhook(
        SECRET,
        {
          get: () => {
            throw new Error('boom');
          },
        },
        BODY,
      ),
    ).resolves.toBe(false);
    await expect(verifyWebhook(SECRET, headers, BODY, { now: NOW, toleranceSeconds: Number.NaN })).resolves.toBe(false);
  });
});

describe('verifyCustomerWebhook (customer webhooks)', () => {
  const headers = customerHeaders(BODY);
  const check = (h: WebhookHeaders, body = BODY, options: { toleranceSeconds?: number; now?: number } = { now: NOW }, secret = SECRET) =>
    verifyCustomerWebhook(secret, h, body, options);
  const v1 = (t = NOW, body = BODY, secret = SECRET) => hmac(secret, `${t}.${body}`);

  it('accepts the signed body: Headers object, plain record in any case', async () => {
    expect(await check(headers)).toBe(true);
    expect(await check(new Headers(headers))).toBe(true);
    expect(await check(lowerKeys(headers))).toBe(true);
    expect(await check(upperKeys(headers))).toBe(true);
  });

  it('parts in any order, whitespace around them, other parts ignored, several v1 (any may match)', async () => {
    const good = v1();
    const other = hmac('another secret', `${NOW}.${BODY}`);
    for (const signature of [
      `v1=${good},t=${NOW}`,
      ` t=${NOW} ,  v1=${good} `,
      `t=${NOW},v0=abc,v1=${good}`,
      `t=${NOW},v1=${other},v1=${good}`,
      `v1=${good},t=${NOW},v1=${other}`,
      `t=${NOW},v1=nothex,v1=${good}`,
      `t=${NOW},,v1=${good},`,
    ]) {
      expect(await check({ ...headers, 'X-SVC-Signature': signature }), signature).toBe(true);
    }
  });

  it('svc signs in lower-case hex: an upper-case v1 never matches; a part that is not name=value is malformed; at most 16 v1', async () => {
    const good = v1();
    for (const signature of [
      `t=${NOW},v1=${good.toUpperCase()}`,
      `t=${NOW},v1=${good},oops`,
      `t=${NOW},${Array.from({ length: 16 }, () => `v1=${'0'.repeat(64)}`).join(',')},v1=${good}`,
    ]) {
      expect(await check({ ...headers, 'X-SVC-Signature': signature }), signature.slice(0, 80)).toBe(false);
    }
    expect(await check({ ...headers, 'X-SVC-Signature': `t=${NOW},${Array.from({ length: 15 }, () => `v1=${'0'.repeat(64)}`).join(',')},v1=${good}` })).toBe(
      true,
    );
  });

  it('rejects a tampered body, a wrong secret, a signature over another t', async () => {
    expect(await check(headers, BODY.replace('evt_42', 'evt_43'))).toBe(false);
    expect(await check(headers, BODY, { now: NOW }, 'wrong')).toBe(false);
    expect(await check({ ...headers, 'X-SVC-Signature': `t=${NOW - 1},v1=${v1()}` })).toBe(false);
    expect(await check({ ...headers, 'X-SVC-Signature': `t=${NOW},v1=${hmac('another', `${NOW}.${BODY}`)}` })).toBe(false);
  });

  it('window: 1800 s by default (the retry schedule keeps t), 1801 s either way fails', async () => {
    expect(await check(customerHeaders(BODY, NOW - 1800))).toBe(true);
    expect(await check(customerHeaders(BODY, NOW + 1800))).toBe(true);
    expect(await check(customerHeaders(BODY, NOW - 1801))).toBe(false);
    expect(await check(customerHeaders(BODY, NOW + 1801))).toBe(false);
    expect(await check(customerHeaders(BODY, NOW - 301), BODY, { now: NOW, toleranceSeconds: 300 })).toBe(false);
    expect(await check(customerHeaders(BODY, NOW + 301), BODY, { now: NOW, toleranceSeconds: 300 })).toBe(false);
    expect(await check(customerHeaders(BODY, NOW - 300), BODY, { now: NOW, toleranceSeconds: 300 })).toBe(true);
  });

  it('rejects when X-SVC-Event-ID or X-SVC-Signature is missing (or empty)', async () => {
    expect(await check(without(headers, 'X-SVC-Event-ID'))).toBe(false);
    expect(await check({ ...headers, 'X-SVC-Event-ID': '' })).toBe(false);
    expect(await check(without(headers, 'X-SVC-Signature'))).toBe(false);
    expect(await check(new Headers(without(headers, 'X-SVC-Event-ID')))).toBe(false);
  });

  it('rejects malformed signatures: no t, two t, t not digits, no usable v1, wrong lengths', async () => {
    const good = v1();
    for (const signature of [
      `v1=${good}`,
      `t=${NOW}`,
      `t=${NOW},t=${NOW},v1=${good}`,
      `t=${NOW}a,v1=${good}`,
      `t=,v1=${good}`,
      `t=-${NOW},v1=${good}`,
      `t=${NOW},v1=${good.slice(0, 62)}`,
      `t=${NOW},v1=${good}00`,
      `t=${NOW},v1=`,
      `t=${NOW};v1=${good}`,
      `t=${NOW},v2=${good}`,
      `t=${NOW},V1=${good}`,
      '',
      'garbage',
    ]) {
      await expect(check({ ...headers, 'X-SVC-Signature': signature }), signature).resolves.toBe(false);
    }
  });

  it('does not try an unbounded number of v1 values', async () => {
    const many = Array.from({ length: 20 }, (_, i) => `v1=${hmac(`s${i}`, 'x')}`).join(',');
    expect(await check({ ...headers, 'X-SVC-Signature': `t=${NOW},${many},v1=${v1()}` })).toBe(false);
  });
});
