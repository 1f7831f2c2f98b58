/** DID and DID URL syntax (W3C DID Core §3.1–3.2) and the decode-once rule for identifiers. */
import { describe, expect, it } from 'vitest';
import { decodeIdentifier, MAX_DID_LENGTH, parseDid, parseDidUrl } from '../../src/core/did/syntax.js';
import { ProblemError, type ProblemCode } from '../../src/core/problems.js';

/** Runs `fn`, which must throw a ProblemError; returns it. */
function problemOf(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    return err as ProblemError;
  }
  throw new Error('expected a ProblemError, but nothing was thrown');
}

function expectProblem(fn: () => unknown, code: ProblemCode, detail: RegExp | string): ProblemError {
  const problem = problemOf(fn);
  expect(problem.code).toBe(code);
  if (typeof detail === 'string') expect(problem.detail).toContain(detail);
  else expect(problem.detail).toMatch(detail);
  return problem;
}

describe('parseDid: valid DIDs', () => {
  it.each([
    ['did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', 'key', 'z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'],
    [
      'did:jwk:eyJjcnYiOiJQLTI1NiIsImt0eSI6IkVDIiwieCI6ImFjYklRaXVNczNpOF91c3pFakoydHBUdFJNNEVVM3l6OTFQSDZDZEgyVjAiLCJ5IjoiX0tjeUxqOXZXTXB0bm1LdG00NkdxRHo4d2Y3NEk1TEtncmwyR3pIM25TRSJ9',
      'jwk',
      'eyJjcnYiOiJQLTI1NiIsImt0eSI6IkVDIiwieCI6ImFjYklRaXVNczNpOF91c3pFakoydHBUdFJNNEVVM3l6OTFQSDZDZEgyVjAiLCJ5IjoiX0tjeUxqOXZXTXB0bm1LdG00NkdxRHo4d2Y3NEk1TEtncmwyR3pIM25TRSJ9',
    ],
    ['did:web:example.com', 'web', 'example.com'],
    ['did:web:example.com:user:alice', 'web', 'example.com:user:alice'],
    ['did:web:localhost%3A8443', 'web', 'localhost%3A8443'],
    ['did:webvh:QmfGEUAcMpzo25kF2Rhn8L5FAXysfGnkzjwdKoNPi615XQ:example.com', 'webvh', 'QmfGEUAcMpzo25kF2Rhn8L5FAXysfGnkzjwdKoNPi615XQ:example.com'],
    ['did:example:123456789abcdefghi', 'example', '123456789abcdefghi'],
    ['did:a1:x', 'a1', 'x'],
    ['did:example:a::b', 'example', 'a::b'],
    ['did:example:A.b_c-D', 'example', 'A.b_c-D'],
  ])('%s', (did, method, id) => {
    expect(parseDid(did)).toEqual({ did, method, id });
  });

  it('keeps the %3A of a did:web port encoded', () => {
    const parsed = parseDid('did:web:host%3A8443');
    expect(parsed.id).toBe('host%3A8443');
    expect(parsed.did).toBe('did:web:host%3A8443');
  });

  it(`accepts a DID of exactly ${MAX_DID_LENGTH} characters`, () => {
    const did = `did:key:z${'a'.repeat(MAX_DID_LENGTH - 'did:key:z'.length)}`;
    expect(did).toHaveLength(MAX_DID_LENGTH);
    expect(parseDid(did).did).toBe(did);
  });
});

describe('parseDid: invalid DIDs give INVALID_DID with a precise detail', () => {
  it.each([
    ['empty', '', 'the identifier is empty'],
    ['no did: scheme', 'key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', 'starts with "did:"'],
    ['no did: scheme (URL)', 'https://example.com', 'starts with "did:"'],
    ['upper-case scheme', 'DID:key:z6Mk', 'the scheme "did" must be lower case'],
    ['mixed-case scheme', 'Did:key:z6Mk', 'the scheme "did" must be lower case'],
    ['upper-case method', 'did:KEY:z6Mk', 'the method name "KEY" may hold only lower-case letters and digits'],
    ['method with a hyphen', 'did:my-method:z', 'the method name "my-method" may hold only lower-case letters and digits'],
    ['empty method', 'did::z6Mk', 'the method name is empty'],
    ['no method-specific id', 'did:key', 'did:<method>:<method-specific-id>'],
    ['empty method-specific id', 'did:key:', 'the method-specific identifier is empty'],
    ['trailing colon', 'did:web:example.com:', 'must not end with ":"'],
  ])('%s: %j', (_name, text, detail) => {
    const problem = expectProblem(() => parseDid(text), 'INVALID_DID', detail);
    expect(problem.status).toBe(400);
  });

  it.each([
    ['truncated escape', 'did:web:ab%2', 'did:web:ab%2'.indexOf('%') + 1],
    ['non-hex escape', 'did:web:ab%2Gc', 'did:web:ab%2Gc'.indexOf('%') + 1],
    ['lone percent', 'did:web:%', 'did:web:%'.indexOf('%') + 1],
    ['bad escape after a good one', 'did:web:a%3Ab%zz', 'did:web:a%3Ab%zz'.lastIndexOf('%') + 1],
  ])('bad percent-encoding (%s) names its position', (_name, text, position) => {
    expectProblem(() => parseDid(text), 'INVALID_DID', `malformed percent-encoding at position ${position}`);
  });

  it.each([
    ['space', 'did:key:ab c', 'U+0020', 11],
    ['tab', 'did:key:ab\tc', 'U+0009', 11],
    ['non-ASCII é', 'did:key:abé', 'U+00E9', 11],
    ['non-ASCII Ω', 'did:example:Ωmega', 'U+03A9', 13],
    ['NUL', 'did:key:a\u0000', 'U+0000', 10],
    ['bracket', 'did:key:a[b', '"["', 10],
  ])('forbidden character (%s) is named with its position', (_name, text, char, position) => {
    expectProblem(() => parseDid(text), 'INVALID_DID', `character ${char} at position ${position} is not allowed in a DID`);
  });

  // Regression: diagnose() once walked the identifier by UTF-16 code unit and named the lone
  // high surrogate (U+D83D) instead of the character (U+1F600).
  it('a non-BMP character is named by its code point, not by a surrogate half', () => {
    expectProblem(() => parseDid('did:key:a\u{1F600}'), 'INVALID_DID', 'character U+1F600 at position 10 is not allowed in a DID');
  });

  it(`rejects a DID longer than ${MAX_DID_LENGTH} characters`, () => {
    const did = `did:key:z${'a'.repeat(MAX_DID_LENGTH - 'did:key:z'.length + 1)}`;
    expect(did).toHaveLength(MAX_DID_LENGTH + 1);
    expectProblem(() => parseDid(did), 'INVALID_DID', `longer than ${MAX_DID_LENGTH} characters`);
  });

  it('rejects an over-long DID URL too', () => {
    const url = `did:key:z#${'a'.repeat(MAX_DID_LENGTH)}`;
    expectProblem(() => parseDidUrl(url), 'INVALID_DID_URL', `longer than ${MAX_DID_LENGTH} characters`);
  });

  it.each([
    ['did:key:z6Mk#z6Mk', 'fragment'],
    ['did:web:example.com?versionId=1', 'query'],
    ['did:web:example.com/path', 'path'],
    // With several parts, the detail names the last one present.
    ['did:web:example.com/a/b?x=1#y', 'fragment'],
    ['did:web:example.com/a/b?x=1', 'query'],
  ])('%s is INVALID_DID saying it is a DID URL (it has a %s)', (text, part) => {
    const problem = expectProblem(() => parseDid(text), 'INVALID_DID', 'is a DID URL');
    expect(problem.detail).toContain(`it has a ${part}`);
  });
});

describe('parseDidUrl', () => {
  it('splits path, query and fragment without decoding', () => {
    expect(parseDidUrl('did:example:123/path/to%20x?versionId=1&q=a%2Fb#key-1')).toEqual({
      didUrl: 'did:example:123/path/to%20x?versionId=1&q=a%2Fb#key-1',
      did: 'did:example:123',
      method: 'example',
      id: '123',
      path: '/path/to%20x',
      query: 'versionId=1&q=a%2Fb',
      fragment: 'key-1',
    });
  });

  it.each([
    ['did:key:z6Mk', '', null, null],
    ['did:key:z6Mk#z6Mk', '', null, 'z6Mk'],
    ['did:web:example.com?service=files&relativeRef=/a', '', 'service=files&relativeRef=/a', null],
    ['did:web:example.com/', '/', null, null],
    ['did:web:example.com/a/b', '/a/b', null, null],
    ['did:web:example.com#', '', null, ''],
    ['did:web:example.com#frag/with?chars', '', null, 'frag/with?chars'],
    ['did:web:host%3A8443/p#f', '/p', null, 'f'],
  ])('%s', (url, path, query, fragment) => {
    const parsed = parseDidUrl(url);
    expect(parsed.didUrl).toBe(url);
    expect(parsed.path).toBe(path);
    expect(parsed.query).toBe(query);
    expect(parsed.fragment).toBe(fragment);
    expect(url.startsWith(parsed.did)).toBe(true);
  });

  it('keeps the did:web port marker %3A in the DID part', () => {
    const parsed = parseDidUrl('did:web:host%3A8443/path');
    expect(parsed.did).toBe('did:web:host%3A8443');
    expect(parsed.id).toBe('host%3A8443');
  });

  it('"#" inside a path must be written %23', () => {
    // Encoded, the # is part of the path.
    const encoded = parseDidUrl('did:web:example.com/a%23b/c');
    expect(encoded.path).toBe('/a%23b/c');
    expect(encoded.fragment).toBeNull();
    // Raw, it ends the path: what follows is a fragment, not path.
    const raw = parseDidUrl('did:web:example.com/a#b');
    expect(raw.path).toBe('/a');
    expect(raw.fragment).toBe('b');
    // A second raw # cannot be placed at all; the detail says how to write it.
    expectProblem(() => parseDidUrl('did:web:example.com/a#b#c'), 'INVALID_DID_URL', '%23');
  });

  it.each([
    ['space in the path', 'did:web:example.com/a b'],
    ['bad percent-encoding in the query', 'did:web:example.com?x=%zz'],
    ['non-ASCII in the fragment', 'did:web:example.com#é'],
  ])('%s → INVALID_DID_URL saying a character must be percent-encoded', (_name, url) => {
    const problem = expectProblem(() => parseDidUrl(url), 'INVALID_DID_URL', 'must be percent-encoded');
    expect(problem.status).toBe(400);
  });

  it('an invalid DID part is diagnosed precisely', () => {
    expectProblem(() => parseDidUrl('DID:web:example.com/path'), 'INVALID_DID_URL', 'the scheme "did" must be lower case');
    expectProblem(() => parseDidUrl('did:web:/path'), 'INVALID_DID_URL', 'the method-specific identifier is empty');
  });
});

describe('decodeIdentifier', () => {
  it('decodes a fully percent-encoded identifier exactly once', () => {
    expect(decodeIdentifier('did%3Aweb%3Ahost%253A8443')).toBe('did:web:host%3A8443');
    expect(decodeIdentifier('did%3aweb%3aexample.com')).toBe('did:web:example.com');
    expect(decodeIdentifier('did%3Akey%3Az6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK')).toBe('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK');
  });

  it('returns a raw DID untouched, %3A included', () => {
    for (const raw of ['did:web:host%3A8443', 'did:web:example.com:user%2Falice', 'did:key:z6Mk', 'not-a-did', '']) {
      expect(decodeIdentifier(raw)).toBe(raw);
    }
  });

  it('the decoded identifier parses, with the port still encoded', () => {
    expect(parseDid(decodeIdentifier('did%3Aweb%3Ahost%253A8443'))).toEqual({ did: 'did:web:host%3A8443', method: 'web', id: 'host%3A8443' });
  });

  it('malformed percent-encoding in an encoded identifier is INVALID_DID', () => {
    expectProblem(() => decodeIdentifier('did%3Aweb%3Ahost%ZZ'), 'INVALID_DID', 'malformed percent-encoding');
  });
});
