/**
 * The customer webhook's body and signature as svc makes them, checked by
 * the client's own verifier and by an independent HMAC; the public ids; the event-page body.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyCustomerWebhook } from '../../src/client/webhooks.js';
import {
  customerBody,
  customerHeaders,
  customerSignature,
  customerWebhookSecret,
  rowOf,
  sealCustomerDelivery,
  unixSeconds,
} from '../../src/core/monitoring/customer.js';
import type { ProblemError } from '../../src/core/problems.js';
import type { CustomerEvent } from '../../src/core/store.js';
import { pageQuery } from '../../src/server/routes/session-monitor.js';

const EVENT: CustomerEvent = {
  id: 'evt_42',
  type: 'identity.document.changed',
  projectId: 'prj_abc',
  watchId: 'wch_7',
  did: 'did:web:example.com',
  createdAt: '2026-11-27T10:00:00Z',
  data: {
    fromHash: 'a',
    toHash: 'b',
    domainBinding: null,
    diff: { summary: 'Keys changed: «é»', changedMembers: ['verificationMethod'] },
    headline: 'h',
    problem: null,
  },
};

describe('customer webhook body and signature', () => {
  it('the body is the event with its members in a fixed order, whatever order the object had', () => {
    const shuffled = {
      data: EVENT.data,
      did: EVENT.did,
      createdAt: EVENT.createdAt,
      watchId: EVENT.watchId,
      projectId: EVENT.projectId,
      type: EVENT.type,
      id: EVENT.id,
    } as CustomerEvent;
    expect(customerBody(shuffled)).toBe(customerBody(EVENT));
    expect(Object.keys(JSON.parse(customerBody(EVENT)))).toEqual(['id', 'type', 'projectId', 'watchId', 'did', 'createdAt', 'data']);
  });

  it('t is the creation time in unix seconds and v1 the HMAC-SHA256 over "<t>.<body>" keyed with the secret', () => {
    const secret = customerWebhookSecret();
    const { body, signature } = sealCustomerDelivery(EVENT, secret);
    const t = unixSeconds(EVENT.createdAt);
    expect(t).toBe(Date.UTC(2026, 10, 27, 10) / 1000);
    const hex = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signature).toBe(`t=${t},v1=${hex}`);
    expect(customerSignature(secret, t, body)).toBe(signature);
  });

  it("the client's verifier accepts a delivery within its window and refuses a changed body, another secret, another t", async () => {
    const secret = customerWebhookSecret();
    const { body, signature } = sealCustomerDelivery(EVENT, secret);
    const headers = customerHeaders(EVENT.id, signature);
    const now = unixSeconds(EVENT.createdAt) + 1_000; // a late retry: same t, same signature
    expect(headers).toEqual({ 'content-type': 'application/json', 'x-svc-event-id': 'evt_42', 'x-svc-signature': signature });
    expect(await verifyCustomerWebhook(secret, headers, body, { now })).toBe(true);
    expect(await verifyCustomerWebhook(secret, headers, body.replace('«é»', '«e»'), { now })).toBe(false);
    expect(await verifyCustomerWebhook(customerWebhookSecret(), headers, body, { now })).toBe(false);
    const shifted = { ...headers, 'x-svc-signature': signature.replace(/^t=(\d+)/, (_, t: string) => `t=${Number(t) + 1}`) };
    expect(await verifyCustomerWebhook(secret, shifted, body, { now })).toBe(false);
  });

  it('secrets are whsec_ and 32 random bytes, different each time', () => {
    const a = customerWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(customerWebhookSecret()).not.toBe(a);
  });
});

describe('public ids', () => {
  it('reads its own prefix and positive row numbers only', () => {
    expect(rowOf('wch', 'wch_12')).toBe(12);
    expect(rowOf('evt', 'evt_1')).toBe(1);
    for (const bad of ['wch_0', 'wch_012', 'wch_', 'evt_12', 'wch_1a', ' wch_1', 'wch_1234567890123456', 'wch_-1']) expect(rowOf('wch', bad)).toBeNull();
  });
});

describe('the event-page body', () => {
  it('strips the evt_ ids, keeps the limit, rounds asOf down to a whole second in UTC', () => {
    expect(pageQuery({ limit: 5 })).toEqual({ limit: 5 });
    expect(pageQuery({ limit: 5, asOf: '2026-11-27T11:00:00.900+01:00', snapshotEventId: 'evt_9', beforeEventId: 'evt_4' })).toEqual({
      limit: 5,
      asOf: '2026-11-27T10:00:00Z',
      snapshotEventId: 9,
      beforeEventId: 4,
    });
  });

  it('refuses a cursor without its snapshot, and ids that are not event ids, naming the member', () => {
    const refused = (body: Parameters<typeof pageQuery>[0]) => {
      try {
        pageQuery(body);
      } catch (err) {
        return err as ProblemError;
      }
      throw new Error('accepted');
    };
    expect(refused({ limit: 1, beforeEventId: 'evt_3' })).toMatchObject({ code: 'INVALID_REQUEST', detail: expect.stringContaining('snapshotEventId') });
    expect(refused({ limit: 1, snapshotEventId: 'wch_3' })).toMatchObject({
      code: 'INVALID_REQUEST',
      detail: expect.stringContaining('snapshotEventId is not an event id'),
    });
    expect(refused({ limit: 1, snapshotEventId: 'evt_3', beforeEventId: '3' })).toMatchObject({
      code: 'INVALID_REQUEST',
      detail: expect.stringContaining('beforeEventId'),
    });
  });
});
