/**
 * A verifier that sees many credentials of one issuer reads the issuer's keys once per cached
 * resolution: later verifications that hit the same cache entry share what the
 * first built, frozen. What must hold: every verification still answers as if it had looked the
 * keys up itself, an expired cache entry is resolved again, the shared reading cannot be
 * changed by a caller, and a daemon that routes lookups through its own resolveDid sees every one.
 */
import { describe, expect, it } from 'vitest';
import { didKeySource } from '../../src/core/credentials/keys.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { issueVcJwt, jwtIssuer, unsignedCredential } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const issuer = jwtIssuer('ES256', new Uint8Array(32).fill(42));
const jwt = await issueVcJwt(unsignedCredential(issuer.did), issuer);

describe('issuer keys read once per cached resolution', () => {
  it('answers alike on a fresh resolution, the first hit and later hits, and resolves again after expiry', async () => {
    const clock = fixedClock();
    const runtime = testRuntime(clock);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await verifyCredential(jwt, { runtime }));
    expect(results.map((r) => r.status)).toEqual(['VALID', 'VALID', 'VALID', 'VALID']);
    expect(results.map((r) => r.issuerResolution?.detail)).toEqual([
      'Resolved.',
      'Resolved (from the cache).',
      'Resolved (from the cache).',
      'Resolved (from the cache).',
    ]);
    for (const r of results.slice(1)) {
      expect(r.proof).toEqual(results[0]!.proof);
      expect(r.checks).toEqual(results[0]!.checks);
    }

    // The reading the later hits share is frozen: a caller that changes its report throws
    // instead of changing what the next verification reports.
    const shared = results[3]!.issuerResolution!;
    expect(() => {
      (shared as { detail: string }).detail = 'changed';
    }).toThrow(TypeError);
    expect((await verifyCredential(jwt, { runtime })).issuerResolution?.detail).toBe('Resolved (from the cache).');

    clock.advance((runtime.config.cacheTtlSeconds + 1) * 1000);
    const later = await verifyCredential(jwt, { runtime });
    expect(later.status).toBe('VALID');
    expect(later.issuerResolution?.detail).toBe('Resolved.');
  });

  it('leaves a daemon’s resolveDid every lookup', async () => {
    const runtime = testRuntime();
    let lookups = 0;
    const resolveDid = (did: string) => {
      lookups++;
      return resolve(did, runtime);
    };
    for (let i = 0; i < 3; i++) {
      const result = await verifyCredential(jwt, { runtime, keySource: didKeySource(runtime, resolveDid) });
      expect(result.status).toBe('VALID');
    }
    expect(lookups).toBe(3);
  });
});
