/** The fast DID verdict: a projection of the full resolution, field for field. */
import { describe, expect, it } from 'vitest';
import { fastVerdict } from '../../src/core/resolve/fast-verify.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const ED25519_DID = 'did:key:z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw';
const ED_ID = `${ED25519_DID}#z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw`;
const X_ID = `${ED25519_DID}#z6LSrEnPXPcLyNLKJPhdJ1eWqyYKARWket5BbiN1rjdUsQ9b`;

describe('fastVerdict', () => {
  it('has exactly the documented members, in order, on a did:key resolution', async () => {
    const result = await resolve(ED25519_DID, testRuntime(fixedClock()));
    const fast = fastVerdict(result);
    expect(Object.keys(fast)).toEqual([
      'did',
      'resolved',
      'outcome',
      'headline',
      'statements',
      'dimensions',
      'keys',
      'domainBinding',
      'documentSha256',
      'observedAt',
      'cached',
    ]);
    expect(fast).toEqual({
      did: ED25519_DID,
      resolved: true,
      outcome: 'RESOLVED',
      headline: result.verdict.headline,
      statements: result.verdict.statements,
      dimensions: [
        { id: 'integrity', state: 'SELF_CERTIFYING' },
        { id: 'keys', state: 'ESTABLISHED' },
        { id: 'control', state: result.dimensions.find((d) => d.id === 'control')!.state },
        { id: 'origin', state: 'NOT_APPLICABLE' },
        { id: 'transport', state: 'NOT_APPLICABLE' },
        { id: 'history', state: result.dimensions.find((d) => d.id === 'history')!.state },
        { id: 'organization', state: 'NOT_ESTABLISHED' },
      ],
      keys: [
        {
          id: ED_ID,
          curve: 'Ed25519',
          status: 'VALID_KEY',
          relationships: ['authentication', 'assertionMethod', 'capabilityInvocation', 'capabilityDelegation'],
          jwkThumbprint: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
        },
        { id: X_ID, curve: 'X25519', status: 'VALID_KEY', relationships: ['keyAgreement'], jwkThumbprint: 'OTWELRJ96RFsIKpcZCh2gmAS_xrhKmfuZHU__L6VWss' },
      ],
      domainBinding: null,
      documentSha256: result.evidence.document.jcsSha256,
      observedAt: '2025-03-04T05:06:07Z',
      cached: false,
    });
    expect(fast.headline.length).toBeGreaterThan(0);
    expect(fast.statements.length).toBeGreaterThan(0);
    expect(fast.documentSha256).toMatch(/^[0-9a-f]{64}$/);
    for (const key of fast.keys) expect(Object.keys(key)).toEqual(['id', 'curve', 'status', 'relationships', 'jwkThumbprint']);
  });

  it('carries the cached flag of a cache hit, and copies rather than shares the frozen arrays', async () => {
    const runtime = testRuntime(fixedClock());
    await resolve(ED25519_DID, runtime);
    const hit = await resolve(ED25519_DID, runtime);
    expect(hit.cached).toBe(true);
    const fast = fastVerdict(hit);
    expect(fast.cached).toBe(true);
    expect(Object.isFrozen(hit.verdict.statements)).toBe(true);
    expect(Object.isFrozen(fast.statements)).toBe(false);
    expect(fast.statements).toEqual(hit.verdict.statements);
    expect(fast.keys[0]!.relationships).not.toBe(hit.evidence.keys[0]!.relationships);
  });

  it('reports the domain binding status string when the method has one', async () => {
    const result = await resolve(ED25519_DID, testRuntime(fixedClock()));
    const withBinding: EnrichedResolution = {
      ...result,
      verdict: { ...result.verdict, outcome: 'RESOLVED_WITH_WARNINGS' },
      evidence: {
        ...result.evidence,
        domainBinding: {
          status: 'NOT_LINKED',
          origin: 'https://example.com',
          configurationUrl: 'https://example.com/.well-known/did-configuration.json',
          reason: 'r',
          credentials: [],
        },
      },
    };
    const fast = fastVerdict(withBinding);
    expect(fast.domainBinding).toBe('NOT_LINKED');
    expect(fast.outcome).toBe('RESOLVED_WITH_WARNINGS');
  });
});
