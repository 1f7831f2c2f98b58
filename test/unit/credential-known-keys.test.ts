/**
 * A JWT credential whose issuer's keys are at hand (a resolution cache hit read before) is
 * verified without waiting: the key found, the signature checked and the key bound at once, with
 * what the search and the binding found kept beside the cached keys. What must hold: every answer
 * is the one a lookup through keysOf gives, whatever the kid names (a key of the issuer, a key
 * missing from its document, another DID's key, no kid at all); a key's kept binding is never
 * another issuer's; and what is kept goes with the cache entry it was read from.
 */
import { describe, expect, it } from 'vitest';
import { didKeySource, type KeySource } from '../../src/core/credentials/keys.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import type { Runtime } from '../../src/core/runtime.js';
import { issueVcJwt, issueVcJwt11, jwtIssuer, unsignedCredential, unsignedCredential11 } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const es256 = jwtIssuer('ES256', new Uint8Array(32).fill(7));
const other = jwtIssuer('ES256', new Uint8Array(32).fill(8));
const eddsa = jwtIssuer('EdDSA', new Uint8Array(32).fill(9));

const tokens: Record<string, string> = {
  'kid: a DID URL of the issuer': await issueVcJwt(unsignedCredential(es256.did), es256),
  'kid: relative to the issuer': await issueVcJwt(unsignedCredential(es256.did), es256, { kid: `#${es256.publicKeyMultibase}` }),
  'kid: a key missing from the document': await issueVcJwt(unsignedCredential(es256.did), es256, { kid: `${es256.did}#missing` }),
  "kid: another DID's key": await issueVcJwt(unsignedCredential(es256.did), other, { kid: other.kid }),
  'kid: a bare thumbprint-like name': await issueVcJwt(unsignedCredential(es256.did), es256, { kid: 'key-1' }),
  'no kid (VC-JWT 1.1)': await issueVcJwt11(unsignedCredential11(), eddsa, { jti: 'urn:uuid:1', sub: 'did:example:subject' }),
};

/** didKeySource without knownKeysOf: every key is found through keysOf, awaited. */
function lookedUp(runtime: Runtime): KeySource {
  const source = didKeySource(runtime);
  return { keysOf: (controller, signal) => source.keysOf(controller, signal) };
}

describe('JWT credentials of an issuer whose keys are at hand', () => {
  it('answer as a lookup through keysOf does, whatever the kid names', async () => {
    const runtime = testRuntime(fixedClock());
    const statuses: Record<string, string> = {};
    for (const [name, token] of Object.entries(tokens)) {
      const first = await verifyCredential(token, { runtime });
      const known = await verifyCredential(token, { runtime });
      const again = await verifyCredential(token, { runtime });
      const awaited = await verifyCredential(token, { runtime, keySource: lookedUp(runtime) });
      expect(known, name).toEqual(awaited);
      expect(again, name).toEqual(awaited);
      expect(known.checks.slice(0, 3), name).toEqual(first.checks.slice(0, 3));
      statuses[name] = `${known.status} ${known.checks.find((c) => c.id === 'issuer')!.status}`;
    }
    expect(statuses).toEqual({
      'kid: a DID URL of the issuer': 'VALID PASS',
      'kid: relative to the issuer': 'VALID PASS',
      'kid: a key missing from the document': 'INVALID FAIL',
      "kid: another DID's key": 'INVALID FAIL',
      'kid: a bare thumbprint-like name': 'INVALID FAIL',
      'no kid (VC-JWT 1.1)': 'VALID PASS',
    });
  });

  it("bind a key to each credential's own issuer, not to the issuer it was bound to before", async () => {
    const runtime = testRuntime(fixedClock());
    const foreign = await issueVcJwt(unsignedCredential(es256.did), other, { kid: other.kid });
    const own = await issueVcJwt(unsignedCredential(other.did), other);
    const answers = [];
    for (const token of [foreign, own, foreign, own, own, foreign]) {
      const result = await verifyCredential(token, { runtime });
      answers.push(`${result.status}: ${result.checks.find((c) => c.id === 'issuer')!.detail}`);
    }
    const refused = `INVALID: The credential was signed with a key of ${other.did}, but its issuer is ${es256.did}.`;
    const bound = `VALID: The key ${other.kid} belongs to the issuer ${other.did} and is authorised for assertionMethod.`;
    expect(answers).toEqual([refused, bound, refused, bound, bound, refused]);
  });

  it('look the keys up again once their cache entry is gone or expired', async () => {
    const clock = fixedClock();
    const runtime = testRuntime(clock);
    const token = tokens['kid: a DID URL of the issuer']!;
    const details = async () => (await verifyCredential(token, { runtime })).issuerResolution?.detail;
    expect([await details(), await details()]).toEqual(['Resolved.', 'Resolved (from the cache).']);
    runtime.cache.delete(es256.did);
    expect([await details(), await details()]).toEqual(['Resolved.', 'Resolved (from the cache).']);
    clock.advance((runtime.config.cacheTtlSeconds + 1) * 1000);
    const later = await verifyCredential(token, { runtime });
    expect(later.status).toBe('VALID');
    expect(later.issuerResolution?.detail).toBe('Resolved.');
  });
});
