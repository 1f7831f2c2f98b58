/**
 * The resolution pipeline end to end, for did:key and did:jwk: dimensions, evidence,
 * trace, cache, and problems with the status table of the interface specification.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/canonical.js';
import { PROBLEMS, ProblemError, problemType, toProblem, type ProblemCode } from '../../src/core/problems.js';
import { resolve, type ResolveOptions } from '../../src/core/resolve/resolve.js';
import { RELATIONSHIPS, type EnrichedResolution, type Relationship } from '../../src/core/resolve/types.js';
import type { Runtime } from '../../src/core/runtime.js';
import { createRuntime } from '../../src/runtime/node.js';
import { b64url, didJwkOf, fromB64url, refBase58Decode, rfc7638Thumbprint, splitMultikey } from '../support/codec.js';
import { repoRoot, sharedFixturesDir } from '../support/fixtures.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

/** RFC 8032 §7.1 TEST 1 public key, and its did:key. */
const ED25519_PUB_HEX = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const ED25519_DID = 'did:key:z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw';

/** did:jwk specification examples. */
const JWK_P256_DID =
  'did:jwk:eyJjcnYiOiJQLTI1NiIsImt0eSI6IkVDIiwieCI6ImFjYklRaXVNczNpOF91c3pFakoydHBUdFJNNEVVM3l6OTFQSDZDZEgyVjAiLCJ5IjoiX0tjeUxqOXZXTXB0bm1LdG00NkdxRHo4d2Y3NEk1TEtncmwyR3pIM25TRSJ9';
const JWK_P256 = {
  crv: 'P-256',
  kty: 'EC',
  x: 'acbIQiuMs3i8_uszEjJ2tpTtRM4EU3yz91PH6CdH2V0',
  y: '_KcyLj9vWMptnmKtm46GqDz8wf74I5LKgrl2GzH3nSE',
};
const JWK_X25519_ENC_DID = 'did:jwk:eyJrdHkiOiJPS1AiLCJjcnYiOiJYMjU1MTkiLCJ1c2UiOiJlbmMiLCJ4IjoiM3A3YmZYdDl3YlRUVzJIQzdPUTFOei1EUThoYmVHZE5yZngtRkctSUswOCJ9';

/** The dimensions of the interface specification, in its order. */
const SPEC_DIMENSIONS = [
  ['integrity', 'Document integrity', 'the document matches its identifier, hash chain or self-certifying data', 'control of the web servers'],
  ['keys', 'Key material', 'published keys are well formed and on valid curve points', 'real identity of the holder'],
  ['control', 'Update authority', 'updates need cryptographic signatures (e.g. did:webvh)', 'security of the web host for did:web'],
  ['origin', 'Origin binding', 'the web domain signed a valid domain-configuration credential binding the DID', 'corporate registration'],
  ['transport', 'Transport security', 'leaf TLS certificate validity, SAN match, trusted web PKI chain', 'host internals'],
  ['history', 'Verifiable history', 'hash-chained signed log of versions (did:webvh)', 'real-world conduct'],
  ['organization', 'Real-world identity', 'fixed: always NOT_ESTABLISHED', 'any corporate identity'],
] as const;

const STAGES = ['syntax.parse', 'document.derive', 'document.inspect', 'crypto.validate_keys', 'evidence.evaluate'];

function dimension(result: EnrichedResolution, id: string) {
  const found = result.dimensions.find((d) => d.id === id);
  expect(found, `dimension ${id}`).toBeDefined();
  return found!;
}

async function problemOf(did: string, runtime: Runtime = testRuntime(), options: ResolveOptions = {}): Promise<ProblemError> {
  try {
    await resolve(did, runtime, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    return err as ProblemError;
  }
  throw new Error(`expected resolving ${did} to fail`);
}

function failingStage(problem: ProblemError): string {
  expect(problem.trace, 'the problem carries the trace').toBeDefined();
  const last = problem.trace!.at(-1)!;
  expect(last.status).toBe('FAIL');
  expect(last.detail).toBe(problem.detail);
  return last.stage;
}

describe('did:key (Ed25519)', () => {
  it('the test DID is the RFC 8032 key (independent construction)', () => {
    const { code, key } = splitMultikey(ED25519_DID.slice('did:key:'.length));
    expect(code).toBe(0xed);
    expect(Buffer.from(key).toString('hex')).toBe(ED25519_PUB_HEX);
  });

  it('dimensions: SPEC order, SPEC wording, and the states of a self-certifying key', async () => {
    const result = await resolve(ED25519_DID, testRuntime());
    expect(result.dimensions.map((d) => [d.id, d.label, d.proves, d.doesNotProve])).toEqual(SPEC_DIMENSIONS.map((row) => [...row]));
    expect(Object.fromEntries(result.dimensions.map((d) => [d.id, d.state]))).toEqual({
      integrity: 'SELF_CERTIFYING',
      keys: 'ESTABLISHED',
      control: 'NOT_APPLICABLE',
      origin: 'NOT_APPLICABLE',
      transport: 'NOT_APPLICABLE',
      history: 'NOT_APPLICABLE',
      organization: 'NOT_ESTABLISHED',
    });
    for (const d of result.dimensions) expect(d.statement.length, `${d.id} has a statement`).toBeGreaterThan(0);
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.method).toBe('key');
    expect(result.evidence.source.kind).toBe('DERIVED');
  });

  it('keys: the Ed25519 key signs, its X25519 conversion agrees', async () => {
    const result = await resolve(ED25519_DID, testRuntime());
    const [ed, x] = result.evidence.keys;
    expect(result.evidence.keys).toHaveLength(2);
    expect(ed!.id).toBe(`${ED25519_DID}#${ED25519_DID.slice(8)}`);
    expect(ed!.curve).toBe('Ed25519');
    expect(ed!.status).toBe('VALID_KEY');
    expect(ed!.type).toBe('Multikey');
    expect(ed!.multicodec).toEqual({ name: 'ed25519-pub', code: '0xed' });
    expect(ed!.jwkThumbprint).toBe(rfc7638Thumbprint({ kty: 'OKP', crv: 'Ed25519', x: b64url(Buffer.from(ED25519_PUB_HEX, 'hex')) }));
    expect([...ed!.relationships].sort()).toEqual(['assertionMethod', 'authentication', 'capabilityDelegation', 'capabilityInvocation']);
    expect(x!.curve).toBe('X25519');
    expect(x!.status).toBe('VALID_KEY');
    expect(x!.relationships).toEqual(['keyAgreement']);
    expect(result.evidence.document.relationships.keyAgreement).toEqual([x!.id]);
    expect(result.evidence.document.idMatches).toBe(true);
    expect(result.evidence.document.warnings).toEqual([]);
  });

  it('trace: the five stages in order, with sane timings', async () => {
    const result = await resolve(ED25519_DID, testRuntime());
    expect(result.trace.map((s) => s.stage)).toEqual(STAGES);
    let previous = -Infinity;
    for (const s of result.trace) {
      expect(s.status).toBe('PASS');
      expect(Number.isFinite(s.startedUs)).toBe(true);
      expect(s.startedUs).toBeGreaterThanOrEqual(previous);
      expect(s.startedUs).toBeGreaterThanOrEqual(0);
      expect(s.durationUs).toBeGreaterThanOrEqual(0);
      expect(s.label.length).toBeGreaterThan(0);
      previous = s.startedUs;
    }
  });

  it('trace timings hold with the system clock too', async () => {
    const result = await resolve(ED25519_DID, createRuntime({}));
    expect(result.trace.map((s) => s.stage)).toEqual(STAGES);
    for (let i = 1; i < result.trace.length; i++) expect(result.trace[i]!.startedUs).toBeGreaterThanOrEqual(result.trace[i - 1]!.startedUs);
    for (const s of result.trace) expect(s.durationUs).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(result.didResolutionMetadata.durationMs)).toBe(true);
  });

  it('observedAt is RFC 3339 UTC, second precision, from the injected clock', async () => {
    const result = await resolve(ED25519_DID, testRuntime(fixedClock('2031-12-24T23:59:58.999Z')));
    expect(result.observedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(result.observedAt).toBe('2031-12-24T23:59:58Z');
    expect(result.didResolutionMetadata.retrieved).toBe('2031-12-24T23:59:58Z');
  });

  it('document.jcsSha256 is SHA-256 of the RFC 8785 form of the document', async () => {
    const result = await resolve(ED25519_DID, testRuntime());
    const expected = createHash('sha256').update(canonicalize(result.didDocument), 'utf8').digest('hex');
    expect(result.evidence.document.jcsSha256).toBe(expected);
    expect(result.evidence.document.hashProfile).toBe('rfc8785-binary64-v1');
  });

  it('the derived document matches the did:key method', async () => {
    const result = await resolve(ED25519_DID, testRuntime());
    const doc = result.didDocument;
    expect(doc.id).toBe(ED25519_DID);
    const vms = doc['verificationMethod'] as Array<Record<string, unknown>>;
    expect(vms[0]).toEqual({
      id: `${ED25519_DID}#${ED25519_DID.slice(8)}`,
      type: 'Multikey',
      controller: ED25519_DID,
      publicKeyMultibase: ED25519_DID.slice(8),
    });
    expect(refBase58Decode(ED25519_DID.slice(9)).subarray(2)).toEqual(new Uint8Array(Buffer.from(ED25519_PUB_HEX, 'hex')));
  });

  it('caches: the second resolution is cached: true; noCache bypasses and refreshes', async () => {
    const clock = fixedClock('2025-01-01T00:00:00Z');
    const runtime = testRuntime(clock);
    const first = await resolve(ED25519_DID, runtime);
    expect(first.cached).toBe(false);

    clock.advance(5_000);
    const second = await resolve(ED25519_DID, runtime);
    expect(second.cached).toBe(true);
    expect(second.observedAt).toBe(first.observedAt);
    expect({ ...second, cached: false }).toEqual(first);

    const bypass = await resolve(ED25519_DID, runtime, { noCache: true });
    expect(bypass.cached).toBe(false);
    expect(bypass.observedAt).toBe('2025-01-01T00:00:05Z');

    const third = await resolve(ED25519_DID, runtime);
    expect(third.cached).toBe(true);
    expect(third.observedAt).toBe('2025-01-01T00:00:05Z');
  });

  it('cache entries expire after cacheTtlSeconds', async () => {
    const clock = fixedClock('2025-01-01T00:00:00Z');
    const runtime = testRuntime(clock);
    await resolve(ED25519_DID, runtime);
    clock.advance(3_599_000);
    expect((await resolve(ED25519_DID, runtime)).cached).toBe(true);
    clock.advance(1_000);
    expect((await resolve(ED25519_DID, runtime)).cached).toBe(false);
  });

  it('a cache TTL of 0 disables caching', async () => {
    const runtime = createRuntime({ SVC_CACHE_TTL: '0' }, { clock: fixedClock() });
    await resolve(ED25519_DID, runtime);
    expect((await resolve(ED25519_DID, runtime)).cached).toBe(false);
  });
});

describe('problems of resolution', () => {
  it("'not-a-did' → INVALID_DID, failing syntax.parse", async () => {
    const problem = await problemOf('not-a-did');
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.status).toBe(400);
    expect(problem.trace!.map((s) => s.stage)).toEqual(['syntax.parse']);
    expect(failingStage(problem)).toBe('syntax.parse');
  });

  it("'did:example:123' → METHOD_NOT_SUPPORTED (501), failing syntax.parse", async () => {
    const problem = await problemOf('did:example:123');
    expect(problem.code).toBe('METHOD_NOT_SUPPORTED');
    expect(problem.status).toBe(501);
    expect(problem.detail).toContain('example');
    expect(failingStage(problem)).toBe('syntax.parse');
    const body = problem.toProblem();
    expect(body.status).toBe(501);
    expect(body.trace?.at(-1)?.stage).toBe('syntax.parse');
    expect(body.trace?.at(-1)?.status).toBe('FAIL');
  });

  it.each<[string, ResolveOptions]>([
    ['versionId', { versionId: '1' }],
    ['versionTime', { versionTime: '2024-01-01T00:00:00Z' }],
    ['versionNumber', { versionNumber: 1 }],
  ])('%s on did:key → INVALID_OPTIONS', async (_name, options) => {
    const problem = await problemOf(ED25519_DID, testRuntime(), options);
    expect(problem.code).toBe('INVALID_OPTIONS');
    expect(problem.status).toBe(400);
    expect(failingStage(problem)).toBe('syntax.parse');
  });

  it('version options on did:jwk → INVALID_OPTIONS', async () => {
    expect((await problemOf(JWK_P256_DID, testRuntime(), { versionId: '1' })).code).toBe('INVALID_OPTIONS');
  });

  it('a DID URL is INVALID_DID', async () => {
    const problem = await problemOf(`${ED25519_DID}#key-1`);
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.detail).toContain('DID URL');
  });

  it('a did:key that is not base58btc multibase is INVALID_DID at document.derive', async () => {
    const problem = await problemOf('did:key:m6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw');
    expect(problem.code).toBe('INVALID_DID');
    expect(failingStage(problem)).toBe('document.derive');
  });

  it('problems are not cached: the same bad DID fails again', async () => {
    const runtime = testRuntime();
    expect((await problemOf('did:example:123', runtime)).code).toBe('METHOD_NOT_SUPPORTED');
    expect((await problemOf('did:example:123', runtime)).code).toBe('METHOD_NOT_SUPPORTED');
    expect(runtime.cache.size).toBe(0);
  });
});

describe('did:jwk', () => {
  it('the specification P-256 example: one key #0 in all five relationships', async () => {
    expect(JSON.parse(Buffer.from(JWK_P256_DID.slice(8), 'base64url').toString('utf8'))).toEqual(JWK_P256);
    const result = await resolve(JWK_P256_DID, testRuntime());
    expect(result.method).toBe('jwk');
    expect(result.evidence.keys).toHaveLength(1);
    const key = result.evidence.keys[0]!;
    expect(key.id).toBe(`${JWK_P256_DID}#0`);
    expect(key.status).toBe('VALID_KEY');
    expect(key.curve).toBe('P-256');
    expect(key.jwkThumbprint).toBe(rfc7638Thumbprint(JWK_P256));
    expect([...key.relationships].sort()).toEqual([...RELATIONSHIPS].sort());
    for (const rel of RELATIONSHIPS) expect(result.evidence.document.relationships[rel]).toEqual([`${JWK_P256_DID}#0`]);
    const vm = (result.didDocument['verificationMethod'] as Array<Record<string, unknown>>)[0]!;
    expect(vm['publicKeyJwk']).toEqual(JWK_P256);
    expect(vm['controller']).toBe(JWK_P256_DID);
    expect(result.verdict.outcome).toBe('RESOLVED');
  });

  it('dimensions: self-certifying, and organization NOT_ESTABLISHED as for every method', async () => {
    const result = await resolve(JWK_P256_DID, testRuntime());
    expect(result.dimensions.map((d) => d.id)).toEqual(SPEC_DIMENSIONS.map((row) => row[0]));
    expect(dimension(result, 'organization').state).toBe('NOT_ESTABLISHED');
    expect(dimension(result, 'integrity').state).toBe('SELF_CERTIFYING');
    expect(dimension(result, 'keys').state).toBe('ESTABLISHED');
    expect(dimension(result, 'transport').state).toBe('NOT_APPLICABLE');
    expect(result.trace.map((s) => s.stage)).toEqual(STAGES);
  });

  it('use "sig" → every relationship but keyAgreement', async () => {
    const did = didJwkOf({ ...JWK_P256, use: 'sig' });
    const result = await resolve(did, testRuntime());
    const rels = result.evidence.document.relationships;
    expect(rels.keyAgreement).toEqual([]);
    for (const rel of RELATIONSHIPS.filter((r) => r !== 'keyAgreement')) expect(rels[rel]).toEqual([`${did}#0`]);
    expect(result.didDocument['keyAgreement']).toBeUndefined();
    expect(result.evidence.keys[0]!.status).toBe('VALID_KEY');
  });

  it('use "enc" (the specification X25519 example) → keyAgreement only', async () => {
    const jwk = JSON.parse(Buffer.from(JWK_X25519_ENC_DID.slice(8), 'base64url').toString('utf8')) as Record<string, string>;
    expect(jwk['use']).toBe('enc');
    const result = await resolve(JWK_X25519_ENC_DID, testRuntime());
    const rels = result.evidence.document.relationships;
    expect(rels.keyAgreement).toEqual([`${JWK_X25519_ENC_DID}#0`]);
    for (const rel of RELATIONSHIPS.filter((r) => r !== 'keyAgreement')) expect(rels[rel as Relationship]).toEqual([]);
    const key = result.evidence.keys[0]!;
    expect(key.curve).toBe('X25519');
    expect(key.status).toBe('VALID_KEY');
    expect(key.relationships).toEqual(['keyAgreement']);
    expect(key.jwkThumbprint).toBe(rfc7638Thumbprint({ kty: 'OKP', crv: 'X25519', x: jwk['x']! }));
    expect(fromB64url(jwk['x']!)).toHaveLength(32);
    expect(result.verdict.outcome).toBe('RESOLVED');
  });

  it('a JWK with "d" is refused: INVALID_DID mentioning private key material', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = privateKey.export({ format: 'jwk' });
    expect(jwk.d).toEqual(expect.any(String));
    const problem = await problemOf(didJwkOf({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d }));
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.detail).toMatch(/private key material/);
    expect(problem.detail).toContain('"d"');
    expect(failingStage(problem)).toBe('document.derive');
  });

  it('duplicate members in the JWK JSON → INVALID_DID', async () => {
    const text = `{"kty":"EC","crv":"P-256","x":"${JWK_P256.x}","y":"${JWK_P256.y}","crv":"secp256k1"}`;
    const problem = await problemOf(didJwkOf(text));
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.detail).toMatch(/duplicate/);
    expect(problem.detail).toContain('crv');
    expect(failingStage(problem)).toBe('document.derive');
  });

  it('duplicate members that only match after unescaping → INVALID_DID', async () => {
    const text = `{"kty":"EC","crv":"P-256","x":"${JWK_P256.x}","y":"${JWK_P256.y}","\\u0078":"${JWK_P256.y}"}`;
    expect((await problemOf(didJwkOf(text))).code).toBe('INVALID_DID');
  });

  it.each([
    ['a character outside base64url', 'did:jwk:eyJrdHkiOiJFQyJ9.eyJrdHkiOiJFQyJ9'],
    ['an impossible length', `${JWK_P256_DID}A`],
    // eyJrdHkiOiJPS1AifQ is {"kty":"OKP"}; a final R instead of Q sets a bit past the data.
    ['non-canonical trailing bits', 'did:jwk:eyJrdHkiOiJPS1AifR'],
  ])('an identifier with %s → INVALID_DID', async (_name, did) => {
    const problem = await problemOf(did);
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.detail).toMatch(/base64url/);
    expect(failingStage(problem)).toBe('document.derive');
  });

  it.each([
    ['not JSON', b64url('not json')],
    ['a JSON array', b64url('[1,2]')],
    ['no kty', b64url('{"crv":"P-256"}')],
    ['invalid UTF-8', b64url(Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]))],
  ])('a decoded JWK that is %s → INVALID_DID', async (_name, id) => {
    expect((await problemOf(`did:jwk:${id}`)).code).toBe('INVALID_DID');
  });

  it('an RSA JWK resolves with an UNSUPPORTED_KEY', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { kty, n, e } = publicKey.export({ format: 'jwk' });
    const did = didJwkOf({ kty, n, e });
    const result = await resolve(did, testRuntime());
    expect(result.evidence.keys).toHaveLength(1);
    const key = result.evidence.keys[0]!;
    expect(key.status).toBe('UNSUPPORTED_KEY');
    expect(key.detail).toMatch(/RSA/);
    expect(dimension(result, 'keys').state).toBe('INDETERMINATE');
    expect(dimension(result, 'organization').state).toBe('NOT_ESTABLISHED');
    expect(result.trace.find((s) => s.stage === 'crypto.validate_keys')?.status).toBe('WARN');
  });

  it('an off-curve EC JWK resolves with INVALID_KEY, not an error', async () => {
    const did = didJwkOf({ kty: 'EC', crv: 'P-256', x: JWK_P256.x, y: JWK_P256.x });
    const result = await resolve(did, testRuntime());
    expect(result.evidence.keys[0]!.status).toBe('INVALID_KEY');
    expect(dimension(result, 'keys').state).toBe('FAILED');
    expect(result.verdict.outcome).toBe('RESOLVED_WITH_WARNINGS');
  });
});

/** The specification's error table: code, type base, /v1 status, /1.0 status (null: none). */
const SPEC_STATUS_TABLE: Array<[ProblemCode, 'W3C' | 'service', number, number | null]> = [
  ['INVALID_DID', 'W3C', 400, 400],
  ['INVALID_DID_URL', 'W3C', 400, 400],
  ['INVALID_OPTIONS', 'W3C', 400, 400],
  ['NOT_FOUND', 'W3C', 404, 404],
  ['REPRESENTATION_NOT_SUPPORTED', 'W3C', 406, 406],
  ['METHOD_NOT_SUPPORTED', 'W3C', 501, 501],
  ['FEATURE_NOT_SUPPORTED', 'W3C', 501, 501],
  ['INVALID_DID_DOCUMENT', 'W3C', 422, 500],
  ['INTERNAL_ERROR', 'W3C', 500, 500],
  ['EGRESS_BLOCKED', 'service', 403, 500],
  ['UPSTREAM_UNAVAILABLE', 'service', 502, 500],
  ['INVALID_REQUEST', 'service', 400, null],
  ['PAYLOAD_TOO_LARGE', 'service', 413, null],
  ['UNAUTHORIZED', 'service', 401, null],
  ['RATE_LIMITED', 'service', 429, 429],
];

/** The specification's "Further codes" (service codes, /v1 status). */
const SPEC_FURTHER_CODES: Array<[ProblemCode, number]> = [
  ['METHOD_NOT_ALLOWED', 405],
  ['CAPACITY_EXHAUSTED', 503],
  ['SERVICE_UNAVAILABLE', 503],
  ['NOT_READY', 503],
  ['KEY_CAPACITY_EXHAUSTED', 429],
  ['MONITOR_REPORT_CAPACITY', 409],
];

describe('ProblemError and the status table', () => {
  it('type URIs: W3C namespace for W3C codes, problems base for service codes', () => {
    const w3c = new ProblemError('INVALID_DID', 'bad').toProblem();
    expect(w3c).toEqual({ type: 'https://www.w3.org/ns/did#INVALID_DID', title: PROBLEMS.INVALID_DID.title, status: 400, detail: 'bad', code: 'INVALID_DID' });
    const service = new ProblemError('EGRESS_BLOCKED', 'private address').toProblem();
    expect(service.type).toBe('urn:svc:problems#EGRESS_BLOCKED');
    expect(service.status).toBe(403);
    expect(new ProblemError('EGRESS_BLOCKED', 'x').toProblem('https://errors.example/p').type).toBe('https://errors.example/p#EGRESS_BLOCKED');
    expect(new ProblemError('INVALID_DID', 'x').toProblem('https://errors.example/p').type).toBe('https://www.w3.org/ns/did#INVALID_DID');
  });

  it('toProblem carries trace and retryAfter when present', () => {
    const trace = [{ stage: 'syntax.parse', label: 'Parse', status: 'FAIL' as const, startedUs: 0, durationUs: 1, detail: 'd' }];
    const problem = toProblem(new ProblemError('RATE_LIMITED', 'slow down', { trace, retryAfter: 3 }));
    expect(problem.trace).toEqual(trace);
    expect(problem.retryAfter).toBe(3);
    expect(problem.status).toBe(429);
    expect(Object.hasOwn(new ProblemError('INVALID_DID', 'x').toProblem(), 'trace')).toBe(false);
  });

  it.each(SPEC_STATUS_TABLE)('%s: %s, /v1 %i, /1.0 %s', (code, base, v1, w3cStatus) => {
    const err = new ProblemError(code, 'detail');
    expect(err.status).toBe(v1);
    expect(err.w3cStatus).toBe(w3cStatus);
    expect(PROBLEMS[code].w3c).toBe(base === 'W3C');
    const type = err.toProblem('urn:test:base').type;
    expect(type).toBe(base === 'W3C' ? `https://www.w3.org/ns/did#${code}` : `urn:test:base#${code}`);
    expect(problemType(code, 'urn:test:base')).toBe(type);
    expect(err.toProblem().status).toBe(v1);
  });

  it.each(SPEC_FURTHER_CODES)('further code %s: /v1 %i, service type', (code, v1) => {
    const err = new ProblemError(code, 'detail');
    expect(err.status).toBe(v1);
    expect(err.toProblem().type).toBe(`urn:svc:problems#${code}`);
  });

  it('every code svc defines is in the SPEC, but for those whose code it leaves open: the 408, the 501 of disabled operator routes and of the commercial mode off, the 429 of a full watch list, the 422 of a file that is no evidence bundle, the 409 of a state that does not allow the action', () => {
    const specCodes = new Set<string>([...SPEC_STATUS_TABLE.map((r) => r[0]), ...SPEC_FURTHER_CODES.map((r) => r[0])]);
    expect(Object.keys(PROBLEMS).filter((c) => !specCodes.has(c))).toEqual([
      'MONITORING_DISABLED',
      'COMMERCIAL_DISABLED',
      'FORBIDDEN',
      'WATCH_CAPACITY_EXHAUSTED',
      'REQUEST_TIMEOUT',
      'INVALID_BUNDLE',
      'CONFLICT',
    ]);
    expect(new ProblemError('INVALID_BUNDLE', 'x').toProblem().status).toBe(422);
    expect(new ProblemError('CONFLICT', 'x').toProblem().status).toBe(409);
    expect(new ProblemError('COMMERCIAL_DISABLED', 'x').toProblem().status).toBe(501);
    expect(new ProblemError('REQUEST_TIMEOUT', 'x').toProblem().status).toBe(408);
    expect(new ProblemError('MONITORING_DISABLED', 'x').toProblem().status).toBe(501);
    expect(new ProblemError('WATCH_CAPACITY_EXHAUSTED', 'x').toProblem().status).toBe(429);
  });

  const specPath = (() => {
    const fixtures = sharedFixturesDir();
    const candidate = fixtures ? path.join(path.dirname(fixtures), 'SPEC.md') : path.resolve(repoRoot, '../shared/SPEC.md');
    return existsSync(candidate) ? candidate : null;
  })();
  if (!specPath) console.warn('[svc] skipping the cross-check of the error table: ../shared/SPEC.md not found');

  it.skipIf(!specPath)('the transcribed table matches every row of the error table of SPEC.md', () => {
    const spec = readFileSync(specPath!, 'utf8');
    const section = spec.slice(spec.indexOf('## 7. Errors'), spec.indexOf('## 8.'));
    const header = section.indexOf('| code | Type base | /v1 status | /1.0 status |');
    expect(header).toBeGreaterThanOrEqual(0);
    const rows: Array<[string, string, number, number | null]> = [];
    for (const line of section.slice(header).split('\n').slice(2)) {
      if (!line.startsWith('|')) break;
      const [code, base, v1, w3c] = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      rows.push([code!, base!, Number(/^\d+/.exec(v1!)![0]), w3c === 'none' ? null : Number(w3c)]);
    }
    expect(rows.length).toBe(15);
    expect(rows).toEqual(SPEC_STATUS_TABLE);
    const further = /Further codes: (.*?)\. A request/.exec(section)![1]!;
    const parsed = [...further.matchAll(/([A-Z_]+) (\d{3})/g)].map((m) => [m[1], Number(m[2])]);
    expect(parsed).toEqual(SPEC_FURTHER_CODES);
  });
});
