/**
 * did:web and did:webvh are registered as lazy drivers (core/methods/registry.ts): their code
 * loads on the first resolution. What the registry answers before that must be the loaded
 * driver's own: the flags, and the same verdict of the syntax check.
 */
import { describe, expect, it } from 'vitest';
import { parseDid } from '../../src/core/did/syntax.js';
import { driverFor, lazyDidWeb, lazyDidWebvh } from '../../src/core/methods/registry.js';
import type { MethodDriver } from '../../src/core/methods/types.js';
import { didWeb } from '../../src/core/methods/web.js';
import { didWebvh } from '../../src/core/methods/webvh.js';

const outcome = (driver: MethodDriver, did: string): string => {
  try {
    driver.checkIdentifier?.(parseDid(did));
    return 'ok';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
};

describe.each([
  {
    lazy: lazyDidWeb,
    real: didWeb,
    dids: ['did:web:example.com', 'did:web:example.com%3A8443:u:alice', 'did:web:127.0.0.1', 'did:web:ex%2Fample.com', `did:web:${'a'.repeat(64)}.com`],
  },
  {
    lazy: lazyDidWebvh,
    real: didWebvh,
    dids: [
      'did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:example.com',
      'did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:127.0.0.1',
      'did:webvh:example.com',
    ],
  },
])('the lazy did:$real.method driver', ({ lazy, real, dids }) => {
  it('is the one registered, with the loaded driver’s flags', () => {
    expect(driverFor(real.method)).toBe(lazy);
    expect({ method: lazy.method, selfCertifying: lazy.selfCertifying, acceptsVersionOptions: lazy.acceptsVersionOptions }).toEqual({
      method: real.method,
      selfCertifying: real.selfCertifying,
      acceptsVersionOptions: real.acceptsVersionOptions,
    });
  });

  it('checks identifiers as the loaded driver does', () => {
    for (const did of dids) expect(outcome(lazy, did), did).toBe(outcome(real, did));
  });
});
