/**
 * DID URL dereferencing without network: did:key and did:jwk documents, the
 * fragment lookup, and every refusal the DID URL alone decides — made before any resolution.
 */
import { describe, expect, it } from 'vitest';
import { checkRelativeRef, dereference, parseDidParameters, readDidUrl } from '../../src/core/dereference/index.js';
import { cancelledProblem } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { parseVersionOptions } from '../../src/core/resolve/version-options.js';
import type { Runtime } from '../../src/core/runtime.js';
import { problemFrom, problemOf } from '../support/problems.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const ED25519_DID = 'did:key:z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw';
const ED_FRAGMENT = 'z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw';
const X_FRAGMENT = 'z6LSrEnPXPcLyNLKJPhdJ1eWqyYKARWket5BbiN1rjdUsQ9b';
const JWK_P256_DID =
  'did:jwk:eyJjcnYiOiJQLTI1NiIsImt0eSI6IkVDIiwieCI6ImFjYklRaXVNczNpOF91c3pFakoydHBUdFJNNEVVM3l6OTFQSDZDZEgyVjAiLCJ5IjoiX0tjeUxqOXZXTXB0bm1LdG00NkdxRHo4d2Y3NEk1TEtncmwyR3pIM25TRSJ9';
const JWK_X25519_ENC_DID = 'did:jwk:eyJrdHkiOiJPS1AiLCJjcnYiOiJYMjU1MTkiLCJ1c2UiOiJlbmMiLCJ4IjoiM3A3YmZYdDl3YlRUVzJIQzdPUTFOei1EUThoYmVHZE5yZngtRkctSUswOCJ9';

/** A Runtime whose network counts calls and fails them; its cache shows whether resolve() ran. */
function offlineRuntime(): Runtime & { fetches: () => number } {
  let fetches = 0;
  const base = testRuntime(fixedClock());
  return {
    ...base,
    net: {
      egressAllow: [],
      close() {},
      async fetch() {
        fetches++;
        throw new Error('the network must not be used');
      },
      async checkDestination() {
        throw new Error('the network must not be used');
      },
      async resolveTxt() {
        throw new Error('the network must not be used');
      },
    },
    fetches: () => fetches,
  };
}

describe('dereference: documents and fragments (did:key, did:jwk)', () => {
  it('a bare DID gives the document as application/did', async () => {
    const runtime = offlineRuntime();
    const result = await dereference(ED25519_DID, runtime);
    const resolved = await resolve(ED25519_DID, runtime);
    expect(result).toEqual({
      '@context': 'https://w3id.org/did-resolution/v1',
      dereferencingMetadata: { contentType: 'application/did', retrieved: '2025-03-04T05:06:07Z' },
      contentStream: resolved.didDocument,
      contentMetadata: resolved.didDocumentMetadata,
    });
    expect(Object.isFrozen(result.contentStream)).toBe(false);
  });

  it('did#fragment gives the verification method as application/json', async () => {
    const result = await dereference(`${ED25519_DID}#${ED_FRAGMENT}`, offlineRuntime());
    expect(result.dereferencingMetadata.contentType).toBe('application/json');
    expect(result.contentStream).toEqual({
      id: `${ED25519_DID}#${ED_FRAGMENT}`,
      type: 'Multikey',
      controller: ED25519_DID,
      publicKeyMultibase: ED_FRAGMENT,
    });
    expect(result.contentMetadata).toEqual({});
  });

  it('finds the key-agreement key derived for did:key', async () => {
    const result = await dereference(`${ED25519_DID}#${X_FRAGMENT}`, offlineRuntime());
    expect(result.contentStream).toEqual({ id: `${ED25519_DID}#${X_FRAGMENT}`, type: 'Multikey', controller: ED25519_DID, publicKeyMultibase: X_FRAGMENT });
  });

  it('finds #0 of a did:jwk, signing or key agreement', async () => {
    const p256 = await dereference(`${JWK_P256_DID}#0`, offlineRuntime());
    expect(p256.contentStream).toMatchObject({ id: `${JWK_P256_DID}#0`, type: 'JsonWebKey2020', publicKeyJwk: { crv: 'P-256', kty: 'EC' } });
    const x25519 = await dereference(`${JWK_X25519_ENC_DID}#0`, offlineRuntime());
    expect(x25519.contentStream).toMatchObject({ id: `${JWK_X25519_ENC_DID}#0`, publicKeyJwk: { crv: 'X25519', use: 'enc' } });
  });

  it('an unknown fragment is NOT_FOUND naming the DID URL', async () => {
    const problem = await problemOf(dereference(`${ED25519_DID}#key-9`, offlineRuntime()));
    expect(problem.code).toBe('NOT_FOUND');
    expect(problem.detail).toContain(`${ED25519_DID}#key-9`);
  });

  it('a fragment matches exactly: a prefix or another case is not the key', async () => {
    expect((await problemOf(dereference(`${ED25519_DID}#${ED_FRAGMENT.slice(0, -1)}`, offlineRuntime()))).code).toBe('NOT_FOUND');
    expect((await problemOf(dereference(`${JWK_P256_DID}#00`, offlineRuntime()))).code).toBe('NOT_FOUND');
  });

  it('a service parameter on a document without services is NOT_FOUND', async () => {
    const problem = await problemOf(dereference(`${ED25519_DID}?service=files`, offlineRuntime()));
    expect(problem.code).toBe('NOT_FOUND');
    expect(problem.detail).toContain('"files"');
  });

  it('decodes parameter names once: %73ervice is service', async () => {
    const problem = await problemOf(dereference(`${ED25519_DID}?%73ervice=files`, offlineRuntime()));
    expect(problem.code).toBe('NOT_FOUND');
  });

  it('passes noCache and the abort signal to the resolution', async () => {
    const runtime = offlineRuntime();
    await dereference(ED25519_DID, runtime);
    expect(runtime.cache.size).toBe(1);
    const controller = new AbortController();
    controller.abort();
    const cancelled = await problemOf(dereference(ED25519_DID, runtime, { noCache: true, signal: controller.signal }));
    expect(cancelled.code).toBe(cancelledProblem().code);
    // A cache hit would have answered despite the signal: noCache reached resolve().
    expect(cancelled.trace?.[0]?.stage).toBe('syntax.parse');
  });
});

describe('dereference: refusals before any resolution', () => {
  async function refused(didUrl: string) {
    const runtime = offlineRuntime();
    const problem = await problemOf(dereference(didUrl, runtime));
    expect(runtime.cache.size, 'resolve() must not have run').toBe(0);
    expect(runtime.fetches()).toBe(0);
    return problem;
  }

  it('a path is FEATURE_NOT_SUPPORTED (501) before any network', async () => {
    const key = await refused(`${ED25519_DID}/some/path`);
    expect(key.code).toBe('FEATURE_NOT_SUPPORTED');
    expect(key.status).toBe(501);
    expect(key.detail).toContain('/some/path');
    const web = await refused('did:web:example.com/whois?service=files#x');
    expect(web.code).toBe('FEATURE_NOT_SUPPORTED');
  });

  it('an unknown parameter is FEATURE_NOT_SUPPORTED naming it', async () => {
    const problem = await refused(`${ED25519_DID}?transformKey=JsonWebKey`);
    expect(problem.code).toBe('FEATURE_NOT_SUPPORTED');
    expect(problem.detail).toContain('"transformKey"');
    expect((await refused(`${ED25519_DID}?serviceType=LinkedDomains`)).detail).toContain('"serviceType"');
    expect((await refused('did:web:example.com?hl=zQm')).code).toBe('FEATURE_NOT_SUPPORTED');
  });

  it('a repeated parameter is INVALID_DID_URL', async () => {
    const problem = await refused(`${ED25519_DID}?service=a&service=b`);
    expect(problem.code).toBe('INVALID_DID_URL');
    expect(problem.detail).toContain('"service"');
    expect((await refused('did:web:example.com?versionId=1&%76ersionId=1')).code).toBe('INVALID_DID_URL');
  });

  it('relativeRef without service is INVALID_DID_URL', async () => {
    const problem = await refused('did:web:example.com?relativeRef=/a');
    expect(problem.code).toBe('INVALID_DID_URL');
    expect(problem.detail).toContain('service');
  });

  it('an empty service is INVALID_DID_URL', async () => {
    expect((await refused('did:web:example.com?service=')).code).toBe('INVALID_DID_URL');
    expect((await refused('did:web:example.com?service')).code).toBe('INVALID_DID_URL');
  });

  it('malformed percent-encoding in a parameter is INVALID_DID_URL', async () => {
    expect((await refused('did:web:example.com?service=%E0%A4')).code).toBe('INVALID_DID_URL');
    expect((await refused('did:web:example.com?%ZZ=1')).code).toBe('INVALID_DID_URL');
  });

  it('a DID URL that is not one is INVALID_DID_URL', async () => {
    expect((await refused('did:key:')).code).toBe('INVALID_DID_URL');
    expect((await refused('did:web:example.com#a#b')).code).toBe('INVALID_DID_URL');
    expect((await refused('not-a-did')).code).toBe('INVALID_DID_URL');
  });

  it('a malformed version selector is INVALID_OPTIONS', async () => {
    for (const query of [
      'versionTime=yesterday',
      'versionTime=2025-02-30T00:00:00Z',
      'versionTime=2025-01-01T00:00:00',
      'versionNumber=0',
      'versionNumber=-1',
      'versionNumber=1.5',
      'versionNumber=abc',
      'versionNumber=99999999999999999999',
      'versionId=',
    ]) {
      const problem = await refused(`did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:example.com?${query}`);
      expect(problem.code, query).toBe('INVALID_OPTIONS');
    }
    const named = await refused(`did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:example.com?versionTime=yesterday`);
    expect(named.detail).toContain('versionTime');
    expect(named.detail).toContain('"yesterday"');
  });

  it('refuses a relativeRef that could leave the endpoint before any network', async () => {
    for (const ref of ['../x', './x', '%252e%252e/x', '//evil.example/x', 'https://evil.example/', 'javascript:alert(1)']) {
      const problem = await refused(`did:web:example.com?service=files&relativeRef=${ref}`);
      expect(problem.code, ref).toBe('INVALID_DID_URL');
    }
  });
});

describe('dereference: version selectors reach resolve()', () => {
  it('version parameters on did:key are INVALID_OPTIONS from the resolution', async () => {
    for (const query of ['versionId=1-abc', 'versionNumber=1', 'versionTime=2025-01-01T00:00:00Z']) {
      const problem = await problemOf(dereference(`${ED25519_DID}?${query}`, offlineRuntime()));
      expect(problem.code, query).toBe('INVALID_OPTIONS');
      expect(problem.trace?.map((s) => `${s.stage}:${s.status}`)).toEqual(['syntax.parse:FAIL']);
    }
    const withFragment = await problemOf(dereference(`${ED25519_DID}?versionNumber=1#${ED_FRAGMENT}`, offlineRuntime()));
    expect(withFragment.code).toBe('INVALID_OPTIONS');
  });
});

describe('readDidUrl and parseDidParameters', () => {
  it('reads the DID, fragment, service, relativeRef and typed version selectors', () => {
    expect(
      readDidUrl('did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:example.com?versionNumber=2&service=files&relativeRef=%2Fa%2Fb%3Fc%3Dd#intro'),
    ).toEqual({
      did: 'did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:example.com',
      fragment: 'intro',
      service: 'files',
      relativeRef: '/a/b?c=d',
      version: { versionNumber: 2 },
    });
  });

  it('decodes each name and value exactly once, "+" staying a plus, and skips empty members', () => {
    const parameters = parseDidParameters('service=a%2Bb+c&&relativeRef=%252e');
    expect([...parameters]).toEqual([
      ['service', 'a+b+c'],
      ['relativeRef', '%2e'],
    ]);
    expect(parseDidParameters('').size).toBe(0);
  });
});

describe('checkRelativeRef', () => {
  it.each([['/path/a?b=c'], ['path/a'], ['/a/b.c/..d/...'], ['/a?x=../y'], ['?q=1'], ['#section'], ['/a:b'], ['/%2Fencoded-but-not-dots']])(
    'accepts %s',
    (ref) => {
      expect(() => checkRelativeRef(ref)).not.toThrow();
    },
  );

  it.each([
    [''],
    ['..'],
    ['.'],
    ['../x'],
    ['./x'],
    ['/a/../../x'],
    ['/a/./x'],
    ['%2e%2e/x'],
    ['%2E%2E/x'],
    ['.%2e/x'],
    ['%2e./x'],
    ['%252e%252e/x'],
    ['%25252e%25252e/x'],
    ['/a%2f..%2fx'],
    ['/a%252f..%252fx'],
    ['/a/..%5cx'],
    ['/a\\..\\x'],
    ['/.\t./x'],
    ['/a\nb'],
    [' /a'],
    ['//evil.example/x'],
    ['///evil.example/x'],
    ['https://evil.example/'],
    ['HTTPS://evil.example/'],
    ['javascript:alert(1)'],
    ['mailto:a@b'],
    ['x:'],
  ])('refuses %j with INVALID_DID_URL', (ref) => {
    expect(problemFrom(() => checkRelativeRef(ref)).code).toBe('INVALID_DID_URL');
  });
});

describe('parseVersionOptions', () => {
  it('types the selectors and leaves absent ones out', () => {
    expect(parseVersionOptions({})).toEqual({});
    expect(parseVersionOptions({ versionId: '2-Qm', versionTime: '2025-01-01T00:00:00+01:00', versionNumber: '12' })).toEqual({
      versionId: '2-Qm',
      versionTime: '2025-01-01T00:00:00+01:00',
      versionNumber: 12,
    });
  });

  it('names a selector with the label it is given', () => {
    const problem = problemFrom(() => parseVersionOptions({ versionNumber: '0' }, (name) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`));
    expect(problem.code).toBe('INVALID_OPTIONS');
    expect(problem.detail).toContain('--version-number must be a positive whole number');
    expect(problemFrom(() => parseVersionOptions({ versionTime: 'x'.repeat(500) })).detail.length).toBeLessThan(200);
  });
});
