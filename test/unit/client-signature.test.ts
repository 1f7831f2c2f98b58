/**
 * The TypeScript client's verifier of signed results (src/client/signature.ts: WebCrypto, no
 * node:) agrees with the core's (src/core/signing) on every reason, for Ed25519 and P-256
 * signers; it finds a did:key's key offline (a P-256 point decompressed to the signer's own
 * coordinates) and a did:web's in its did.json (assertionMethod only), fetched with the fetch it
 * is given.
 */
import { createHash, sign as nodeSign, type JsonWebKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { didKeyJwk, defaultKeyResolver, canonicalJson, verifyResultSignature } from '../../src/client/signature.js';
import { compactDetached, createSigner, signCanonical, verifyCanonicalSignature, type SignatureKeyResolver } from '../../src/core/signing/index.js';
import { canonicalize } from '../../src/core/canonical.js';
import { b64url } from '../support/codec.js';
import { generateTestKey, type TestKey } from '../support/signing.js';

const AT = new Date('2026-01-02T03:04:05Z');
const BODY = { z: [1, 2.5, -0, 1e21, 1e-7], did: 'did:example:ü', a: { '\u00e9': 'é', e: '\u2028\u0007"\\', b: null }, ok: true };

function handMade(key: TestKey, head: Record<string, unknown>, payload: string): string {
  const protectedHeader = b64url(JSON.stringify(head));
  const input = Buffer.from(`${protectedHeader}.${b64url(payload)}`);
  const signature = key.alg === 'EdDSA' ? nodeSign(null, input, key.privateKey) : nodeSign('sha256', input, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${protectedHeader}..${b64url(signature)}`;
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

describe('canonicalJson', () => {
  it('is the core’s RFC 8785 form', () => {
    expect(canonicalJson(BODY)).toBe(canonicalize(BODY));
    expect(() => canonicalJson({ a: '\ud800' })).toThrow(/lone surrogate/);
    expect(() => canonicalJson([Number.NaN])).toThrow(/not finite/);
  });
});

describe.each(['EdDSA', 'ES256'] as const)('%s: the client and the core name the same reason', (alg) => {
  const key = generateTestKey(alg);
  const signer = createSigner(key.privateKey.export({ format: 'jwk' }));
  const other = createSigner(generateTestKey(alg).privateKey.export({ format: 'jwk' }));
  const { did, kid } = signer.identity;
  const good = compactDetached(signCanonical(BODY, signer, { typ: 'svc-result+jws', iat: AT }));
  const head = JSON.parse(Buffer.from(good.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  const jcs = canonicalize(BODY);
  const own: SignatureKeyResolver = async (k) => (k === kid ? signer.identity.publicJwk : null);

  const cases: Array<[string, unknown, string | null, { resolveKey: SignatureKeyResolver; expectedSigner?: string }, string]> = [
    ['valid', BODY, good, { resolveKey: own }, 'VALID'],
    ['re-ordered body', JSON.parse(JSON.stringify({ ok: BODY.ok, a: BODY.a, did: BODY.did, z: BODY.z })), good, { resolveKey: own }, 'VALID'],
    ['edited body', { ...BODY, ok: false }, good, { resolveKey: own }, 'EDITED'],
    ['another key under the kid', BODY, good, { resolveKey: async () => other.identity.publicJwk }, 'WRONG_KEY'],
    ['not the expected signer', BODY, good, { resolveKey: own, expectedSigner: other.identity.did }, 'WRONG_KEY'],
    ['unknown kid', BODY, good, { resolveKey: async () => null }, 'UNKNOWN_KEY'],
    [
      'a resolver that fails',
      BODY,
      good,
      {
        resolveKey: async () => {
          throw new Error('no such host');
        },
      },
      'UNKNOWN_KEY',
    ],
    [
      'over JSON.stringify',
      BODY,
      handMade(key, { ...head, 'svc-sha256': sha256Hex(JSON.stringify(BODY)) }, JSON.stringify(BODY)),
      { resolveKey: own },
      'OTHER_CANONICAL_FORM',
    ],
    ['another svc-canon', BODY, handMade(key, { ...head, 'svc-canon': 'none' }, jcs), { resolveKey: own }, 'OTHER_CANONICAL_FORM'],
    ['RS256', BODY, handMade(key, { ...head, alg: 'RS256' }, jcs), { resolveKey: own }, 'UNSUPPORTED_ALG'],
    ['a payload', BODY, good.replace('..', `.${b64url(jcs)}.`), { resolveKey: own }, 'MALFORMED'],
    ['no iat', BODY, handMade(key, { ...head, iat: undefined }, jcs), { resolveKey: own }, 'MALFORMED'],
    ['an iat past year 9999', BODY, handMade(key, { ...head, iat: 2 ** 52 }, jcs), { resolveKey: own }, 'MALFORMED'],
    ['a short signature', BODY, `${good.split('..')[0]}..${b64url(Buffer.alloc(10))}`, { resolveKey: own }, 'WRONG_KEY'],
  ];

  it.each(cases)('%s', async (_what, body, header, options, reason) => {
    const client = await verifyResultSignature(body, header, options);
    const core = await verifyCanonicalSignature(body, header ?? '', { ...options, typ: 'svc-result+jws' });
    expect(client.reason).toBe(reason);
    expect(client).toEqual(core);
  });

  it('no header: MALFORMED, saying the daemon did not sign', async () => {
    expect(await verifyResultSignature(BODY, null)).toEqual({
      verified: false,
      reason: 'MALFORMED',
      detail: 'The answer carries no svc-signature header: the daemon did not sign it.',
      signer: null,
      signedAt: null,
    });
  });

  it('the did:key’s key offline: the default resolver verifies; another fragment is UNKNOWN_KEY', async () => {
    expect(didKeyJwk(did)).toEqual(signer.identity.publicJwk);
    expect(await verifyResultSignature(BODY, good, { expectedSigner: did })).toMatchObject({ verified: true, reason: 'VALID', signer: { did, kid } });
    expect(await defaultKeyResolver()(`${did}#key-2`)).toBeNull();
  });
});

describe('the default resolver of a did:web', () => {
  const key = generateTestKey('ES256');
  const jwk = key.privateKey.export({ format: 'jwk' }) as JsonWebKey;
  const did = 'did:web:svc.example.com%3A8443:signer';
  const signer = createSigner(jwk, { did: `${did}#results` });
  const header = compactDetached(signCanonical(BODY, signer, { typ: 'svc-result+jws', iat: AT }));
  const method = { id: '#results', type: 'JsonWebKey', controller: did, publicKeyJwk: key.publicJwk };

  function host(document: unknown, seen: string[] = []) {
    return async (url: string) => {
      seen.push(url);
      return new Response(JSON.stringify(document), { status: 200, headers: { 'content-type': 'application/did+json' } });
    };
  }

  it('fetches https://host:port/path/did.json and finds the assertionMethod key', async () => {
    const seen: string[] = [];
    const fetch = host({ id: did, verificationMethod: [method], assertionMethod: ['#results'] }, seen);
    expect(await verifyResultSignature(BODY, header, { fetch })).toMatchObject({ verified: true, reason: 'VALID', signer: { did, kid: `${did}#results` } });
    expect(seen).toEqual(['https://svc.example.com:8443/signer/did.json']);
  });

  it('a key not under assertionMethod, a missing key or another document: UNKNOWN_KEY', async () => {
    const notAsserting = await verifyResultSignature(BODY, header, { fetch: host({ id: did, verificationMethod: [method], authentication: ['#results'] }) });
    expect(notAsserting).toMatchObject({
      reason: 'UNKNOWN_KEY',
      detail: `The signing key ${did}#results cannot be found: ${did} lists ${did}#results, but not under assertionMethod.`,
    });
    expect((await verifyResultSignature(BODY, header, { fetch: host({ id: did, verificationMethod: [] }) })).reason).toBe('UNKNOWN_KEY');
    expect((await verifyResultSignature(BODY, header, { fetch: host({ id: 'did:web:elsewhere.example' }) })).reason).toBe('UNKNOWN_KEY');
  });
});
