/**
 * Both clients' webhook verifiers agree (operator and customer webhooks, docs/clients.md#webhooks):
 * one set of vectors, signed here with node:crypto (not with either client's code), is run
 * through the TypeScript verifiers (src/client/webhooks.ts) and through the Python ones
 * (clients/python: tests/verify_vectors.py reads the vectors on stdin and prints the answers),
 * and each answer must be the expected one — so the two agree with each other and with docs/daemon.md.
 * Skipped, with a warning, where python3 (≥ 3.9) is absent; the TypeScript half still runs.
 */
import { createHmac } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyCustomerWebhook, verifyWebhook } from '../../src/client/webhooks.js';
import { repoRoot } from '../support/cli.js';

const SECRET = 'whsec_5ZCJx0d2mJ3oQ4pXkq1tY8Ll';
const NOW = 1_795_000_000;
const BODY = JSON.stringify({
  id: 'evt_17',
  type: 'identity.domain_binding.changed',
  did: 'did:web:example.com',
  watchId: 'w_3',
  createdAt: '2026-11-20T08:00:00Z',
  data: { fromHash: null, toHash: 'ab'.repeat(32), domainBinding: { from: 'VERIFIED', to: 'NOT_LINKED' }, diff: null, headline: 'Résumé ✓', problem: null },
});

interface Vector {
  name: string;
  scheme: 'operator' | 'customer';
  secret: string;
  headers: Record<string, string | string[] | null>;
  body: string;
  toleranceSeconds?: number;
  now: number;
  expected: boolean;
}

const hmacHex = (secret: string, data: string) => createHmac('sha256', secret).update(data, 'utf8').digest('hex');

function operator(
  name: string,
  expected: boolean,
  options: {
    t?: number;
    secret?: string;
    body?: string;
    sentBody?: string;
    headers?: (h: Record<string, string>) => Record<string, string | string[] | null>;
  } = {},
): Vector {
  const t = options.t ?? NOW;
  const signedBody = options.body ?? BODY;
  const headers = {
    'X-Svc-Event': 'identity.domain_binding.changed',
    'X-Svc-Event-Id': 'evt_17',
    'X-Svc-Timestamp': String(t),
    'X-Svc-Signature-256': `sha256=${hmacHex(options.secret ?? SECRET, `${t}.${signedBody}`)}`,
  };
  return {
    name: `operator: ${name}`,
    scheme: 'operator',
    secret: SECRET,
    headers: options.headers ? options.headers(headers) : headers,
    body: options.sentBody ?? signedBody,
    toleranceSeconds: 300,
    now: NOW,
    expected,
  };
}

function customer(
  name: string,
  expected: boolean,
  options: { t?: number; secret?: string; sentBody?: string; header?: (t: number, v1: string) => string; extra?: Record<string, string | null> } = {},
): Vector {
  const t = options.t ?? NOW;
  const v1 = hmacHex(options.secret ?? SECRET, `${t}.${BODY}`);
  const headers: Record<string, string | null> = {
    'X-SVC-Event-ID': 'cevt_9',
    'X-SVC-Signature': options.header ? options.header(t, v1) : `t=${t},v1=${v1}`,
    ...options.extra,
  };
  return { name: `customer: ${name}`, scheme: 'customer', secret: SECRET, headers, body: options.sentBody ?? BODY, toleranceSeconds: 300, now: NOW, expected };
}

const drop = (name: string) => (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== name));

const VECTORS: Vector[] = [
  operator('valid', true),
  operator('valid, header names in lower case', true, { headers: (h) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v])) }),
  operator('tampered body', false, { sentBody: BODY.replace('NOT_LINKED', 'VERIFIED') }),
  operator('wrong secret', false, { secret: `${SECRET}x` }),
  operator('timestamp 300 s old (the edge)', true, { t: NOW - 300 }),
  operator('timestamp 301 s old', false, { t: NOW - 301 }),
  operator('timestamp 301 s in the future', false, { t: NOW + 301 }),
  operator('no X-Svc-Timestamp', false, { headers: drop('X-Svc-Timestamp') }),
  operator('no X-Svc-Signature-256', false, { headers: drop('X-Svc-Signature-256') }),
  operator('a signature of the wrong length', false, { headers: (h) => ({ ...h, 'X-Svc-Signature-256': h['X-Svc-Signature-256']!.slice(0, -2) }) }),
  operator('a signature in upper-case hex', false, {
    headers: (h) => ({ ...h, 'X-Svc-Signature-256': `sha256=${h['X-Svc-Signature-256']!.slice(7).toUpperCase()}` }),
  }),
  operator('no sha256= prefix', false, { headers: (h) => ({ ...h, 'X-Svc-Signature-256': h['X-Svc-Signature-256']!.slice(7) }) }),
  operator('a timestamp that is not digits', false, { headers: (h) => ({ ...h, 'X-Svc-Timestamp': `${NOW}.0` }) }),
  operator('the signature header twice', false, { headers: (h) => ({ ...h, 'X-Svc-Signature-256': [h['X-Svc-Signature-256']!, h['X-Svc-Signature-256']!] }) }),
  customer('valid', true),
  customer('valid, parts reordered with spaces', true, { header: (t, v1) => ` v1=${v1} , t=${t} ` }),
  customer('valid, a second v1 that does not match', true, { header: (t, v1) => `t=${t},v1=${'0'.repeat(64)},v1=${v1}` }),
  customer('tampered body', false, { sentBody: BODY.replace('VERIFIED', 'NOT_LINKED') }),
  customer('wrong secret', false, { secret: 'another secret' }),
  customer('t 301 s old', false, { t: NOW - 301 }),
  customer('t 301 s in the future', false, { t: NOW + 301 }),
  customer('no X-SVC-Event-ID', false, { extra: { 'X-SVC-Event-ID': null } }),
  customer('no X-SVC-Signature', false, { extra: { 'X-SVC-Signature': null } }),
  customer('no t', false, { header: (_t, v1) => `v1=${v1}` }),
  customer('two t', false, { header: (t, v1) => `t=${t},t=${t},v1=${v1}` }),
  customer('a part without =', false, { header: (t, v1) => `t=${t},v1=${v1},oops` }),
  customer('a v1 of the wrong length', false, { header: (t, v1) => `t=${t},v1=${v1.slice(0, 63)}` }),
  customer('a v1 in upper-case hex', false, { header: (t, v1) => `t=${t},v1=${v1.toUpperCase()}` }),
  customer('16 v1, the last matching', true, { header: (t, v1) => `t=${t},${'v1='.concat('0'.repeat(64), ',').repeat(15)}v1=${v1}` }),
  customer('17 v1: more than are tried', false, { header: (t, v1) => `t=${t},${'v1='.concat('0'.repeat(64), ',').repeat(16)}v1=${v1}` }),
];

/** The TypeScript verifiers' answers. */
async function typescriptAnswers(): Promise<boolean[]> {
  return Promise.all(
    VECTORS.map((v) => {
      const headers = Object.fromEntries(Object.entries(v.headers).filter(([, value]) => value !== null)) as Record<string, string | string[]>;
      const verify = v.scheme === 'operator' ? verifyWebhook : verifyCustomerWebhook;
      return verify(v.secret, headers, v.body, { toleranceSeconds: v.toleranceSeconds, now: v.now });
    }),
  );
}

const python = spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)']);
const havePython = python.error === undefined && python.status === 0;
if (!havePython) console.warn('[svc] skipping the Python half of the webhook vector test: python3 ≥ 3.9 not found');

describe('webhook verifiers: TypeScript and Python on the same vectors', () => {
  it('the TypeScript verifiers give the expected answer for every vector', async () => {
    const answers = await typescriptAnswers();
    expect(VECTORS.map((v, i) => [v.name, answers[i]])).toEqual(VECTORS.map((v) => [v.name, v.expected]));
  });

  it.skipIf(!havePython)('the Python verifiers give the same answers', async () => {
    const run = spawnSync('python3', [path.join(repoRoot, 'clients/python/tests/verify_vectors.py')], { input: JSON.stringify(VECTORS), encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const answers = JSON.parse(run.stdout) as boolean[];
    expect(VECTORS.map((v, i) => [v.name, answers[i]])).toEqual(VECTORS.map((v) => [v.name, v.expected]));
    expect(answers).toEqual(await typescriptAnswers());
  });

  it('a signature of another length never throws, in either verifier', async () => {
    const headers = { 'X-Svc-Timestamp': String(NOW), 'X-Svc-Signature-256': 'sha256=ab' };
    await expect(verifyWebhook(SECRET, headers, BODY, { now: NOW })).resolves.toBe(false);
    await expect(verifyCustomerWebhook(SECRET, { 'X-SVC-Event-ID': 'e', 'X-SVC-Signature': `t=${NOW},v1=ab` }, BODY, { now: NOW })).resolves.toBe(false);
  });
});
