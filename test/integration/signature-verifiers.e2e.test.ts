/**
 * Three verifiers of signed results agree (docs/daemon.md#signed-results): svc's core
 * (src/core/signing), the TypeScript client (src/client/signature.ts) and the Python client
 * (clients/python: tests/verify_signatures.py reads the vectors on stdin). One set of vectors, signed
 * by svc's core with Ed25519 and P-256 keys (and by node:crypto for the signatures svc never makes),
 * covers every reason; all three must give the same answer — reason, detail, signer and time — and
 * it must be the expected reason. Skipped, with a warning, where python3 (≥ 3.9) is absent; the two
 * TypeScript verifiers still run.
 */
import { spawnSync } from 'node:child_process';
import { createHash, sign as nodeSign } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultKeyResolver, verifyResultSignature } from '../../src/client/signature.js';
import { canonicalize } from '../../src/core/canonical.js';
import { compactDetached, createSigner, signCanonical, verifyCanonicalSignature, type SignatureKeyResolver } from '../../src/core/signing/index.js';
import { repoRoot } from '../support/cli.js';
import { b64url } from '../support/codec.js';
import { generateTestKey, type TestKey } from '../support/signing.js';

/** A result as the daemon answers one: unsorted members, non-ASCII text, floats, nulls, nesting. */
const BODY = {
  did: 'did:web:münchen.example',
  verdict: { outcome: 'RESOLVED', headline: 'Résumé ✓ — “quoted” \u2028', score: 0.1 + 0.2 },
  dimensions: [
    { id: 'control', status: 'PASS', weight: 1e21, tiny: 1e-7, ratio: 0.000001 },
    { id: 'keys', status: null },
  ],
  cached: false,
  trace: [{ stage: 'syntax.parse', durationUs: 12, startedUs: 0 }],
  '\u{1F600}': 'emoji key',
  '\uFB33': 'after the emoji in UTF-16 order',
};

interface Vector {
  name: string;
  body: unknown;
  header: string | null;
  expectedSigner?: string;
  keys?: Record<string, unknown>;
  keyError?: string;
  expected: string;
}

function handMade(key: TestKey, head: Record<string, unknown>, payload: string): string {
  const protectedHeader = b64url(JSON.stringify(head));
  const input = Buffer.from(`${protectedHeader}.${b64url(payload)}`);
  const signature = key.alg === 'EdDSA' ? nodeSign(null, input, key.privateKey) : nodeSign('sha256', input, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${protectedHeader}..${b64url(signature)}`;
}

function vectors(): Vector[] {
  const out: Vector[] = [];
  for (const alg of ['EdDSA', 'ES256'] as const) {
    const key = generateTestKey(alg);
    const signer = createSigner(key.privateKey.export({ format: 'jwk' }));
    const other = createSigner(generateTestKey(alg).privateKey.export({ format: 'jwk' }));
    const otherCurve = createSigner(generateTestKey(alg === 'EdDSA' ? 'ES256' : 'EdDSA').privateKey.export({ format: 'jwk' }));
    const { did, kid } = signer.identity;
    const header = compactDetached(signCanonical(BODY, signer, { typ: 'svc-result+jws', iat: new Date('2026-03-04T05:06:07Z') }));
    const head = JSON.parse(Buffer.from(header.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const jcs = canonicalize(BODY);
    const plain = JSON.stringify(BODY);
    const keys = { [kid]: signer.identity.publicJwk };
    const add = (name: string, expected: string, v: Omit<Vector, 'name' | 'expected'>) => out.push({ name: `${alg}: ${name}`, expected, ...v });
    add('valid, the did:key decoded by the verifier', 'VALID', { body: BODY, header, expectedSigner: did });
    add('valid, a re-ordered and re-indented body', 'VALID', { body: JSON.parse(JSON.stringify({ ...BODY, did: BODY.did }, null, 2)), header, keys });
    add('edited', 'EDITED', { body: { ...BODY, cached: true }, header, keys });
    add('another key under the kid', 'WRONG_KEY', { body: BODY, header, keys: { [kid]: other.identity.publicJwk } });
    add('a key of the other curve', 'WRONG_KEY', { body: BODY, header, keys: { [kid]: otherCurve.identity.publicJwk } });
    add('not the expected signer', 'WRONG_KEY', { body: BODY, header, expectedSigner: other.identity.did, keys });
    add('the kid names no key', 'UNKNOWN_KEY', { body: BODY, header, keys: {} });
    add('the key cannot be found', 'UNKNOWN_KEY', { body: BODY, header, keyError: 'did:web:example.com answered 404' });
    add('another fragment of the did:key', 'UNKNOWN_KEY', { body: BODY, header: handMade(key, { ...head, kid: `${did}#key-2` }, jcs) });
    add('over JSON.stringify', 'OTHER_CANONICAL_FORM', {
      body: BODY,
      header: handMade(key, { ...head, 'svc-sha256': createHash('sha256').update(plain).digest('hex') }, plain),
      keys,
    });
    add('another svc-canon', 'OTHER_CANONICAL_FORM', { body: BODY, header: handMade(key, { ...head, 'svc-canon': 'JCS-ish' }, jcs), keys });
    add('RS256', 'UNSUPPORTED_ALG', { body: BODY, header: handMade(key, { ...head, alg: 'RS256' }, jcs), keys });
    add('no header', 'MALFORMED', { body: BODY, header: null, keys });
    add('a payload inside', 'MALFORMED', { body: BODY, header: header.replace('..', `.${b64url(jcs)}.`), keys });
    add('another typ', 'MALFORMED', { body: BODY, header: handMade(key, { ...head, typ: 'JWT' }, jcs), keys });
    add('no digest', 'MALFORMED', { body: BODY, header: handMade(key, { ...head, 'svc-sha256': undefined }, jcs), keys });
    add('a kid that is no DID URL', 'MALFORMED', { body: BODY, header: handMade(key, { ...head, kid: 'key-1' }, jcs), keys });
  }
  return out;
}

function findPython(): string | null {
  const probe = spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 3)']);
  return probe.error === undefined && probe.status === 0 ? 'python3' : null;
}

const python = findPython();
if (python === null) console.warn('[svc] skipping the Python half of the signature cross-check: no python3 ≥ 3.9 on PATH');

function resolverOf(v: Vector): SignatureKeyResolver | undefined {
  if (v.keyError !== undefined) {
    const message = v.keyError;
    return async () => {
      throw new Error(message);
    };
  }
  if (v.keys !== undefined) {
    const keys = v.keys;
    return async (kid) => (keys[kid] as { kty: string } | undefined) ?? null;
  }
  return undefined;
}

describe('svc, the TypeScript client and the Python client verify signed results alike', () => {
  const all = vectors();

  it('svc’s core and the TypeScript client give the expected reason, identically', async () => {
    for (const v of all) {
      const resolveKey = resolverOf(v);
      const options = { ...(v.expectedSigner !== undefined ? { expectedSigner: v.expectedSigner } : {}) };
      const client = await verifyResultSignature(v.body, v.header, { ...options, ...(resolveKey ? { resolveKey } : {}) });
      expect(client.reason, v.name).toBe(v.expected);
      if (v.header !== null) {
        const core = await verifyCanonicalSignature(v.body, v.header, {
          ...options,
          typ: 'svc-result+jws',
          resolveKey: resolveKey ?? defaultKeyResolver(),
        });
        expect(client, v.name).toEqual(core);
      }
    }
  });

  it.skipIf(python === null)(
    'the Python client gives the same answers',
    async () => {
      const expected = await Promise.all(
        all.map((v) => {
          const resolveKey = resolverOf(v);
          return verifyResultSignature(v.body, v.header, {
            ...(v.expectedSigner !== undefined ? { expectedSigner: v.expectedSigner } : {}),
            ...(resolveKey ? { resolveKey } : {}),
          });
        }),
      );
      const run = spawnSync(python!, [path.join(repoRoot, 'clients/python/tests/verify_signatures.py')], {
        input: JSON.stringify(all),
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '', PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' },
        timeout: 120_000,
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const answers = JSON.parse(run.stdout) as unknown[];
      expect(answers.length).toBe(all.length);
      all.forEach((v, i) => expect(answers[i], v.name).toEqual(expected[i]));
    },
    150_000,
  );
});
