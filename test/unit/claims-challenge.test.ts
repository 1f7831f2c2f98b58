/**
 * Proofs of control, without I/O: the token, the host a web DID publishes on, the statement a
 * key signs and its exact payload bytes, the terms each method's challenge gives, which methods
 * a DID can use, and what a claim is said to prove.
 */
import { describe, expect, it } from 'vitest';
import {
  CHALLENGE_ATTEMPTS,
  CLAIM_LIMITATIONS,
  challengeTerms,
  claimHostOf,
  claimPayload,
  claimStatement,
  describeClaim,
  isClaimToken,
  methodUnavailable,
  newClaimToken,
  recheckClaim,
  type ClaimMethod,
} from '../../src/core/claims/index.js';
import type { ClaimChallenge, StoredClaim } from '../../src/core/store.js';
import { ED25519_DID } from '../support/dids.js';
import { problemFrom } from '../support/problems.js';
import { testRuntime } from '../support/runtime.js';

const SCID = 'QmNdazvnrgei4agYFMVJjYduyZSYHcYWnHEgNW7A1sMUoU';
const JWK_DID = `did:jwk:${Buffer.from(JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: 'rQHbTT2rXHq1uKbMmuQjZr0oiAGl3kP9o1Ul8ZlO6fE' })).toString('base64url')}`;
const TOKEN = 'q5mVbW7oVqg0yN8dRrQJ2kQyW3eMNZ3hSxXHh9gHfJc';

function challenge(method: ClaimMethod, did = 'did:web:example.com', extra: Partial<ClaimChallenge> = {}): ClaimChallenge {
  return {
    token: TOKEN,
    did,
    method,
    purpose: 'list',
    createdAt: '2026-11-27T10:00:00Z',
    expiresAt: '2026-11-27T10:10:00Z',
    attempts: 0,
    usedAt: null,
    ...extra,
  };
}

describe('newClaimToken', () => {
  it('is 43 base64url characters (32 random bytes), different every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => newClaimToken()));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(isClaimToken(token)).toBe(true);
    }
    expect(isClaimToken(`${TOKEN}=`)).toBe(false);
    expect(isClaimToken(TOKEN.slice(1))).toBe(false);
    expect(isClaimToken(`${TOKEN.slice(1)}+`)).toBe(false);
  });
});

describe('claimHostOf', () => {
  it.each([
    ['did:web:example.com', 'https://example.com', 'example.com'],
    ['did:web:Example.COM', 'https://example.com', 'example.com'],
    ['did:web:example.com%3A8443', 'https://example.com:8443', 'example.com'],
    ['did:web:example.com%3a8443:users:alice', 'https://example.com:8443', 'example.com'],
    ['did:web:example.com%3A443:u', 'https://example.com', 'example.com'],
    ['did:web:sub.example.org:a:b:c', 'https://sub.example.org', 'sub.example.org'],
    [`did:webvh:${SCID}:example.com`, 'https://example.com', 'example.com'],
    [`did:webvh:${SCID}:example.com%3A3000:dids:issuer`, 'https://example.com:3000', 'example.com'],
  ])('%s → %s', (did, origin, hostname) => {
    expect(claimHostOf(did)).toEqual({ origin, hostname });
  });

  it('did:key, did:jwk and other methods have no host', () => {
    expect(claimHostOf(ED25519_DID)).toBeNull();
    expect(claimHostOf(JWK_DID)).toBeNull();
    expect(claimHostOf('did:example:123')).toBeNull();
  });

  it('a web DID the resolver would refuse is INVALID_DID', () => {
    expect(problemFrom(() => claimHostOf('did:web:127.0.0.1'))).toMatchObject({ code: 'INVALID_DID' });
    expect(problemFrom(() => claimHostOf('did:web:example.com:..'))).toMatchObject({ code: 'INVALID_DID' });
    expect(problemFrom(() => claimHostOf('not a did'))).toMatchObject({ code: 'INVALID_DID' });
  });
});

describe('methodUnavailable', () => {
  it('every DID can sign; only a web DID can publish', () => {
    for (const did of [ED25519_DID, JWK_DID, 'did:web:example.com', `did:webvh:${SCID}:example.com`]) expect(methodUnavailable(did, 'signature')).toBeNull();
    for (const method of ['well-known', 'dns'] as const) {
      expect(methodUnavailable('did:web:example.com%3A8443:u', method)).toBeNull();
      expect(methodUnavailable(`did:webvh:${SCID}:example.com`, method)).toBeNull();
      expect(methodUnavailable(ED25519_DID, method)).toBe('did:key has no host to publish on; prove control with the signature method');
      expect(methodUnavailable(JWK_DID, method)).toBe('did:jwk has no host to publish on; prove control with the signature method');
    }
  });

  it('dns is unavailable when _svc-claim. would push the host past 253 characters', () => {
    const host = Array.from({ length: 4 }, () => 'a'.repeat(61)).join('.') + '.com'; // 251 characters, a valid did:web host
    expect(claimHostOf(`did:web:${host}`)?.hostname).toBe(host);
    expect(methodUnavailable(`did:web:${host}`, 'well-known')).toBeNull();
    expect(methodUnavailable(`did:web:${host}`, 'dns')).toMatch(/^the record name _svc-claim\.a{20}… would be 262 characters, more than DNS allows \(253\)/);
  });
});

describe('claimStatement and claimPayload', () => {
  it('the statement binds the audience, DID, token, purpose and lifetime (Unix seconds)', () => {
    expect(claimStatement(challenge('signature', ED25519_DID))).toEqual({
      aud: 'svc-claim',
      did: ED25519_DID,
      token: TOKEN,
      purpose: 'list',
      iat: Date.UTC(2026, 10, 27, 10, 0, 0) / 1000,
      exp: Date.UTC(2026, 10, 27, 10, 10, 0) / 1000,
    });
  });

  it('the payload is base64url of the RFC 8785 bytes: members sorted, no whitespace', () => {
    const payload = claimPayload(challenge('signature', ED25519_DID, { purpose: 'claim' }));
    expect(payload).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(payload, 'base64url').toString('utf8')).toBe(
      `{"aud":"svc-claim","did":"${ED25519_DID}","exp":1795774200,"iat":1795773600,"purpose":"claim","token":"${TOKEN}"}`,
    );
  });

  it('differs with the token, the DID and the purpose', () => {
    const base = claimPayload(challenge('signature', ED25519_DID));
    expect(claimPayload(challenge('signature', ED25519_DID, { token: newClaimToken() }))).not.toBe(base);
    expect(claimPayload(challenge('signature', JWK_DID))).not.toBe(base);
    expect(claimPayload(challenge('signature', ED25519_DID, { purpose: 'unlist' }))).not.toBe(base);
  });
});

describe('challengeTerms', () => {
  it('signature: the statement, its payload, authentication; how to submit', () => {
    const c = challenge('signature', ED25519_DID);
    const terms = challengeTerms(c);
    expect(terms).toMatchObject({
      did: ED25519_DID,
      method: 'signature',
      purpose: 'list',
      token: TOKEN,
      createdAt: c.createdAt,
      expiresAt: c.expiresAt,
      attemptsAllowed: CHALLENGE_ATTEMPTS,
      signature: { statement: claimStatement(c), payload: claimPayload(c), relationship: 'authentication' },
      wellKnown: null,
      dns: null,
    });
    expect(terms.instructions).toContain('listed under authentication');
    expect(terms.instructions).toContain(`POST /v1/claims/verify with {"did":"${ED25519_DID}","token":"${TOKEN}","jws":"<the compact JWS>"}`);
  });

  it('well-known: the file at the origin (port kept, path dropped) and the token as content', () => {
    const terms = challengeTerms(challenge('well-known', 'did:web:example.com%3A8443:users:alice'));
    expect(terms.wellKnown).toEqual({ url: 'https://example.com:8443/.well-known/svc-claim.txt', content: TOKEN });
    expect(terms.signature).toBeNull();
    expect(terms.dns).toBeNull();
    expect(terms.instructions).toContain('https://example.com:8443/.well-known/svc-claim.txt');
    expect(terms.instructions).toContain(`POST /v1/claims/verify with {"did":"did:web:example.com%3A8443:users:alice","token":"${TOKEN}"}`);
  });

  it('dns: a TXT record at _svc-claim.<host> (no port) holding the token', () => {
    const terms = challengeTerms(challenge('dns', `did:webvh:${SCID}:example.com%3A3000:dids`));
    expect(terms.dns).toEqual({ name: '_svc-claim.example.com', type: 'TXT', value: TOKEN });
    expect(terms.wellKnown).toBeNull();
    expect(terms.instructions).toContain('TXT record at _svc-claim.example.com');
    expect(terms.instructions).toContain(`POST /v1/claims/verify with {"did":"did:webvh:${SCID}:example.com%3A3000:dids","token":"${TOKEN}"}`);
  });

  it('instructions are one paragraph and cite no specification sections', () => {
    for (const method of ['signature', 'well-known', 'dns'] as const) {
      const { instructions } = challengeTerms(challenge(method));
      expect(instructions).not.toMatch(/\n|SPEC|§/);
    }
  });

  it('no well-known or dns terms for a DID without a host', () => {
    expect(() => challengeTerms(challenge('dns', ED25519_DID))).toThrow(RangeError);
    expect(() => challengeTerms(challenge('well-known', JWK_DID))).toThrow(RangeError);
  });
});

describe('describeClaim', () => {
  const claim = (method: ClaimMethod, subject: string, extra: Partial<StoredClaim> = {}): StoredClaim => ({
    id: 1,
    did: 'did:web:example.com',
    method,
    subject,
    token: TOKEN,
    verifiedAt: '2026-11-27T10:03:00Z',
    checkedAt: '2026-11-27T10:03:00Z',
    expiresAt: '2026-12-27T10:03:00Z',
    nextCheckAt: null,
    checkFailures: 0,
    lastError: null,
    lapsedAt: null,
    lapseReason: null,
    ...extra,
  });

  it('signature: the key acted on that day; not identity, not that the key is still held', () => {
    const d = describeClaim(claim('signature', `${ED25519_DID}#z6Mk`));
    expect(d.proves).toBe(`Someone able to sign with ${ED25519_DID}#z6Mk (a key under authentication) acted on 2026-11-27.`);
    expect(d.doesNotProve.join(' | ')).toMatch(/legal or real-world identity/);
    expect(d.doesNotProve.join(' | ')).toMatch(/that the key is still held/);
  });

  it('well-known: publishing at the URL; not control between re-checks, nor of the keys', () => {
    const d = describeClaim(claim('well-known', 'https://example.com/.well-known/svc-claim.txt', { checkedAt: '2026-11-30T00:00:00Z' }));
    expect(d.proves).toBe('Someone able to publish at https://example.com/.well-known/svc-claim.txt acted on 2026-11-27 (last found in place on 2026-11-30).');
    expect(d.doesNotProve).toEqual(
      expect.arrayContaining([expect.stringMatching(/identity/), expect.stringMatching(/^control between re-checks/), "control of the DID's keys"]),
    );
  });

  it('dns: publishing in the zone; not control of the web server or the keys', () => {
    const d = describeClaim(claim('dns', '_svc-claim.example.com'));
    expect(d.proves).toBe('Someone able to publish in the DNS zone of example.com acted on 2026-11-27.');
    expect(d.doesNotProve).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/identity/),
        expect.stringMatching(/^control between re-checks/),
        'control of the web server or of the keys',
      ]),
    );
  });

  it('the limitations say a claim is not identity and a listing cannot be bought', () => {
    expect(CLAIM_LIMITATIONS.join(' ')).toMatch(/not legal or real-world identity/);
    expect(CLAIM_LIMITATIONS.join(' ')).toMatch(/cannot be bought/);
    for (const line of CLAIM_LIMITATIONS) expect(line).not.toMatch(/\n|SPEC|§/);
  });

  it('a signature claim cannot be re-checked', async () => {
    await expect(recheckClaim(claim('signature', `${ED25519_DID}#z6Mk`), { runtime: testRuntime() })).rejects.toThrow(RangeError);
  });
});
