/**
 * I-JSON (RFC 7493) at every door: RFC 8785 has no form for a lone surrogate, a
 * number that is not finite or a value JSON cannot hold, so outside content carrying one must
 * be refused where it is read — as the problem or result of its surface — and never reach a
 * fingerprint, where it used to throw and become 500 INTERNAL_ERROR.
 *
 *   parseJsonStrict / parseJsonBytes   lone surrogates escaped or raw, in strings and names
 *   jsonValueProblem                   the same rules for values not read by the parser
 *   canonicalize                       CanonicalizationError (typed, with a reason), never a crash
 *   each surface                       did:jwk, did.json, did.jsonl entry, credential object,
 *                                      JWS header, MCP reply, a hand-built DID document
 *   "__proto__"                        an own member wherever svc copies outside members
 */
import { describe, expect, it } from 'vitest';
import { CanonicalizationError, canonicalize, jcsSha256 } from '../../src/core/canonical.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { describeJsonError, jsonValueProblem, parseJsonBytes, parseJsonStrict, StrictJsonError } from '../../src/core/encoding/json.js';
import { readRpcReply } from '../../src/core/mcp/client.js';
import { changedMembers, definitionSha256, schemaSha256, toolDefinition } from '../../src/core/mcp/fingerprint.js';
import { semanticDiff } from '../../src/core/history/diff.js';
import type { StoredObservation } from '../../src/core/store.js';
import { parseDocumentBytes } from '../../src/core/methods/web.js';
import type { FetchResponse } from '../../src/core/net.js';
import { parseCompactJws } from '../../src/core/proofs/jws.js';
import { readDocument } from '../../src/core/resolve/document.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { DidDocument } from '../../src/core/resolve/types.js';
import { verifyLogEntries } from '../../src/core/webvh/verify.js';
import { b64url } from '../support/codec.js';
import { problemFrom, problemOf } from '../support/problems.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { createWebvhLog } from '../support/webvh-log.js';

function strictError(text: string): StrictJsonError {
  try {
    parseJsonStrict(text);
  } catch (err) {
    expect(err).toBeInstanceOf(StrictJsonError);
    return err as StrictJsonError;
  }
  throw new Error(`parsed: ${JSON.stringify(text)}`);
}

function canonicalizationError(value: unknown): CanonicalizationError {
  try {
    canonicalize(value);
  } catch (err) {
    expect(err).toBeInstanceOf(CanonicalizationError);
    return err as CanonicalizationError;
  }
  throw new Error('canonicalised');
}

/** UTF-8 with a lone surrogate written as its 3-byte sequence (as a hostile server sends it). */
const WTF8_D800 = Uint8Array.from([0x22, 0xed, 0xa0, 0x80, 0x22]);

describe('parseJsonStrict: lone surrogates are not I-JSON', () => {
  it.each([
    ['"\\ud800"', 'lone surrogate \\ud800 in a string', 1],
    ['"\\uDFFF"', 'lone surrogate \\udfff in a string', 1],
    ['["ok","ab\\udbff"]', 'lone surrogate \\udbff in a string', 9],
    ['"\\udc00\\ud800"', 'lone surrogate \\udc00 in a string', 1],
    ['"\\ud800\\u0041"', 'lone surrogate \\ud800 in a string', 1],
    ['"\\ud800x"', 'lone surrogate \\ud800 in a string', 1],
    ['{"\\ud800":1}', 'lone surrogate \\ud800 in a member name', 2],
    ['"a\ud800"', 'lone surrogate \\ud800 in a string', 2],
    ['"\udc00\ud800"', 'lone surrogate \\udc00 in a string', 1],
    ['{"k\udfff":1}', 'lone surrogate \\udfff in a member name', 3],
    // An escaped half and a raw half do not make a pair: each must be written like the other.
    ['"\\ud83d\ude00"', 'lone surrogate \\ud83d in a string', 1],
  ])('%j → %s at offset %d', (text, message, position) => {
    const err = strictError(text);
    expect({ kind: err.kind, message: err.message, position: err.position }).toEqual({ kind: 'lone-surrogate', message, position });
  });

  it('accepts surrogate pairs, escaped or raw, and keeps them', () => {
    expect(parseJsonStrict('"\\ud83d\\ude00"')).toBe('😀');
    expect(parseJsonStrict('{"😀":"x😀y"}')).toEqual({ '😀': 'x😀y' });
    expect(parseJsonStrict('"\\uD83D\\uDE00\\u00e9"')).toBe('😀é');
  });

  it('reasons name the code unit and the rule, never the text around it', () => {
    const err = strictError('{"secret":"attacker text \\ud800"}');
    expect(err.message).not.toContain('attacker');
    expect(describeJsonError(err, 'the document at https://x.example/did.json')).toBe(
      'the document at https://x.example/did.json is not I-JSON: it has a lone surrogate \\ud800 in a string (at offset 25), which RFC 7493 forbids',
    );
  });

  it('parseJsonBytes: an escaped lone surrogate is a reason; a raw one is not UTF-8', () => {
    expect(parseJsonBytes(new TextEncoder().encode('{"a":"\\udfff"}'), 'the card')).toEqual({
      error: 'the card is not I-JSON: it has a lone surrogate \\udfff in a string (at offset 6), which RFC 7493 forbids',
    });
    expect(parseJsonBytes(WTF8_D800, 'the card')).toEqual({ error: 'the card is not valid UTF-8' });
  });

  it('the other hostile texts stay refused as before: 1e400, raw NUL, a BOM, 10 000-deep nesting', () => {
    expect(strictError('[1e400]').message).toBe('number out of range');
    expect(strictError('-1e400').message).toBe('number out of range');
    expect(strictError('"a\u0000b"').message).toBe('control character in string');
    expect(strictError('\ufeff{}').message).toBe('unexpected character');
    expect(strictError('['.repeat(10_000) + ']'.repeat(10_000)).kind).toBe('too-deep');
    expect(parseJsonStrict('"\\u0000"')).toBe('\u0000');
  });
});

describe('jsonValueProblem: values the parser did not read', () => {
  it.each([
    [{ a: 'x\ud800' }, 'a string holds a lone surrogate \\ud800'],
    [{ ['\udc00']: 1 }, 'a member name holds a lone surrogate \\udc00'],
    [[1, Number.NaN], 'the number NaN is not finite'],
    [{ n: JSON.parse('1e400') as number }, 'the number Infinity is not finite'],
    [[undefined], 'it holds undefined, which JSON cannot represent'],
    [{ f: () => 1 }, 'it holds a function, which JSON cannot represent'],
    [{ big: 1n }, 'it holds a bigint, which JSON cannot represent'],
  ])('%o → %s', (value, reason) => {
    expect(jsonValueProblem(value)).toBe(reason);
  });

  it('stops at maxDepth, so a 10 000-deep value or a cycle cannot exhaust the stack', () => {
    const deep = JSON.parse('['.repeat(10_000) + ']'.repeat(10_000)) as unknown;
    expect(jsonValueProblem(deep)).toBe('it is nested deeper than 64');
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(jsonValueProblem(cycle, 10)).toBe('it is nested deeper than 10');
  });

  it('accepts I-JSON, pairs, own "__proto__" members and members whose value is undefined', () => {
    expect(jsonValueProblem(JSON.parse('{"__proto__":{"a":"😀"},"b":[1,-0,null,true]}'))).toBeNull();
    expect(jsonValueProblem({ a: undefined, b: 'ok' })).toBeNull();
  });
});

describe('canonicalize: a typed error for values with no RFC 8785 form', () => {
  it.each([
    ['a lone surrogate', { a: '\ud800' }, 'a string holds a lone surrogate \\ud800'],
    ['a lone surrogate in a name', { ['\udfff']: 1 }, 'a member name holds a lone surrogate \\udfff'],
    ['NaN', [Number.NaN], 'the number NaN is not finite'],
    ['Infinity', { n: Number.POSITIVE_INFINITY }, 'the number Infinity is not finite'],
    ['undefined', undefined, 'it holds undefined, which JSON cannot represent'],
  ])('%s → CanonicalizationError', (_name, value, reason) => {
    const err = canonicalizationError(value);
    expect(err.reason).toBe(reason);
    expect(err.message).toBe(`The value has no RFC 8785 form: ${reason}.`);
  });

  it('a cycle or 10 000-deep nesting is refused before the serialiser recurses', () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(canonicalizationError(cycle).reason).toBe('it is nested deeper than 128');
    expect(canonicalizationError(JSON.parse('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000))).reason).toBe('it is nested deeper than 128');
  });

  it('I-JSON canonicalises as before', () => {
    expect(canonicalize({ b: [1e21, -0, '😀'], a: { __proto__: null, z: 1 } })).toBe('{"a":{"z":1},"b":[1e+21,0,"😀"]}');
    expect(jcsSha256(parseJsonStrict('{"a":"\\ud83d\\ude00"}'))).toBe(jcsSha256({ a: '😀' }));
  });
});

describe('each surface answers a lone surrogate with its own problem or result', () => {
  const runtime = () => testRuntime(fixedClock('2025-03-04T05:06:07Z'));

  it('did:jwk: INVALID_DID naming the lone surrogate (was INTERNAL_ERROR)', async () => {
    const did = `did:jwk:${b64url('{"kty":"OKP","crv":"Ed25519","x":"\\ud800"}')}`;
    const problem = await problemOf(resolve(did, runtime()));
    expect({ code: problem.code, detail: problem.detail }).toEqual({
      code: 'INVALID_DID',
      detail: 'Not a valid did:jwk: the decoded JWK is malformed (lone surrogate \\ud800 in a string).',
    });
  });

  it('did.json: INVALID_DID_DOCUMENT with the reason', () => {
    const body = new TextEncoder().encode('{"id":"did:web:x.example","alsoKnownAs":["\\ud800"]}');
    const problem = problemFrom(() => parseDocumentBytes(body, 'https://x.example/.well-known/did.json'));
    expect({ code: problem.code, detail: problem.detail }).toEqual({
      code: 'INVALID_DID_DOCUMENT',
      detail:
        'The document at https://x.example/.well-known/did.json is not I-JSON: it has a lone surrogate \\ud800 in a string (at offset 42), which RFC 7493 forbids.',
    });
  });

  it('a DID document built by hand (not parsed): INVALID_DID_DOCUMENT, not an exception', () => {
    const doc = { id: 'did:example:1', alsoKnownAs: ['\ud800'] } as unknown as DidDocument;
    const problem = problemFrom(() => readDocument('did:example:1', doc));
    expect({ code: problem.code, detail: problem.detail }).toEqual({
      code: 'INVALID_DID_DOCUMENT',
      detail: 'The DID document has no RFC 8785 form: a string holds a lone surrogate \\ud800.',
    });
  });

  it('a did.jsonl entry: the entry fails its json check (was a throw)', async () => {
    const log = createWebvhLog();
    const line = JSON.stringify(log.entries[0]).replace('"state":{', '"state":{"note":"\\udc00",');
    const verification = await verifyLogEntries(log.did, log.scid, `${line}\n`, Date.parse('2025-03-04T05:06:07Z'));
    expect(verification.failure).toMatchObject({ versionNumber: 1, check: 'json', reason: expect.stringContaining('lone surrogate \\udc00 in a string') });
  });

  it('a credential object from JSON.parse or built by hand: MALFORMED, not I-JSON', async () => {
    const base = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential'],
      issuer: 'did:example:1',
      credentialSubject: { id: 'did:example:2' },
    };
    for (const [credential, reason] of [
      [
        JSON.parse('{"@context":["https://www.w3.org/ns/credentials/v2"],"type":["VerifiableCredential"],"issuer":"did:example:\\ud800"}'),
        'a string holds a lone surrogate \\ud800',
      ],
      [{ ...base, credentialSubject: { id: 'did:example:2', score: JSON.parse('1e400') as number } }, 'the number Infinity is not finite'],
      [{ ...base, credentialSubject: JSON.parse('['.repeat(10_000) + ']'.repeat(10_000)) as unknown }, 'it is nested deeper than 64'],
    ] as const) {
      const result = await verifyCredential(credential, { runtime: runtime() });
      expect(result.status).toBe('MALFORMED');
      expect(result.checks[0]).toMatchObject({ id: 'structure', status: 'FAIL', detail: `The credential is not I-JSON (RFC 7493): ${reason}.` });
      expect(() => JSON.stringify(result)).not.toThrow();
    }
  });

  it('a JWS header with a lone surrogate member name: MALFORMED', () => {
    const token = `${b64url('{"alg":"EdDSA","\\ud800":1}')}.${b64url('{}')}.${b64url('sig')}`;
    expect(parseCompactJws(token)).toMatchObject({ kind: 'MALFORMED', error: expect.stringContaining('lone surrogate \\ud800 in a member name') });
  });

  it('an MCP reply: not a JSON-RPC answer (the client maps it to a problem), not a result', () => {
    const body = new TextEncoder().encode('{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"\\ud800"}]}}');
    const response = {
      url: 'https://tools.example/mcp',
      status: 200,
      contentType: 'application/json',
      headers: {},
      body,
      bytes: body.length,
      sha256: '',
      peerAddress: '192.0.2.1',
      redirects: [],
      latencyMs: 1,
      tls: null,
      allowances: [],
    } as unknown as FetchResponse;
    expect(readRpcReply(response, 2)).toMatchObject({ kind: 'http', reason: expect.stringContaining('lone surrogate \\ud800 in a string') });
  });
});

describe('"__proto__" stays an own member when svc copies outside members', () => {
  it('an MCP tool definition keeps it, fingerprints it, and lends nothing to later reads', () => {
    const tool = parseJsonStrict('{"name":"t","__proto__":{"inputSchema":{"type":"object","hidden":true}}}') as Record<string, never>;
    const definition = toolDefinition(tool);
    expect(Object.getPrototypeOf(definition)).toBe(Object.prototype);
    expect(Object.keys(definition)).toEqual(['name', '__proto__']);
    expect(definitionSha256(definition)).not.toBe(definitionSha256(toolDefinition(parseJsonStrict('{"name":"t"}') as Record<string, never>)));
    // Without an own inputSchema the schema fingerprint is that of no schemas at all.
    expect(schemaSha256(definition)).toBe(jcsSha256({}));
  });
});

describe('a member one side lacks is absent, never an Object.prototype property', () => {
  // Found by the property suite (SVC_PROPERTY_SEED=43997119): a tool gaining "constructor": null
  // made drift read the stored definition's inherited constructor, a function, and canonicalise it.
  it('MCP drift: "constructor" or "toString" added or removed is a changed member', () => {
    const before = parseJsonStrict('{"name":"t","toString":"x"}') as Record<string, never>;
    const after = parseJsonStrict('{"name":"t","constructor":null}') as Record<string, never>;
    expect(changedMembers(before, after)).toEqual(['constructor', 'toString']);
  });

  it('history diff: a document member named like an Object.prototype property is compared as a member', () => {
    const stored = (document: Record<string, unknown>, observedAt: string): StoredObservation => ({
      id: 1,
      did: 'did:web:x.example',
      documentHash: jcsSha256(document),
      document: document as DidDocument,
      observedAt,
      lastSeenAt: observedAt,
      seenCount: 1,
      latencyMs: 1,
      resolverVersion: '1.0.0',
      domainBindingStatus: null,
      summary: 'Resolved.',
    });
    const from = stored({ id: 'did:web:x.example' }, '2026-01-01T00:00:00Z');
    const to = stored(
      parseJsonStrict('{"id":"did:web:x.example","constructor":{"a":1},"hasOwnProperty":null}') as Record<string, unknown>,
      '2026-02-01T00:00:00Z',
    );
    expect(semanticDiff(from, to).changedMembers).toEqual(['constructor', 'hasOwnProperty']);
  });
});
