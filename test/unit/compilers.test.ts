/**
 * The route schemas at work (src/server/compilers.ts): requests validated strictly with the same
 * schemas openapi.json is made of, each failure told as one precise problem; responses
 * serialised with them. The schemas here are the routes' own (schemas/), not copies.
 */
import Type, { type TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { resolve } from '../../src/core/resolve/resolve.js';
import { isValidationFailure, schemaCompilers, validationProblem } from '../../src/server/compilers.js';
import { ALL_SCHEMAS } from '../../src/server/schemas/index.js';
import { DirectoryQuerySchema } from '../../src/server/schemas/claims.js';
import { StoredText } from '../../src/server/schemas/common.js';
import { McpInspectQuerySchema } from '../../src/server/schemas/inspection.js';
import { VerifyToolQuerySchema } from '../../src/server/schemas/delegation.js';
import { ResolveQuerySchema } from '../../src/server/schemas/resolution.js';
import { W3cOptionsBodySchema } from '../../src/server/schemas/w3c.js';
import { testRuntime } from '../support/runtime.js';
import { systemClock } from '../../src/runtime/node.js';

const { validatorCompiler, serializerCompiler } = schemaCompilers(ALL_SCHEMAS);

type Part = 'body' | 'querystring' | 'params';

/** Validates `data` as Fastify would for one part of a route; the problem (code, detail) or null. */
function problemOf(schema: TSchema, part: Part, data: unknown, options: { optionsBody?: boolean } = {}): { code: string; detail: string } | null {
  const validate = validatorCompiler({ schema, httpPart: part, method: 'POST', url: '/test' }) as ((data: unknown) => boolean) & { errors?: unknown };
  if (validate(data)) return null;
  const failure = { validation: validate.errors, validationContext: part };
  expect(isValidationFailure(failure)).toBe(true);
  const problem = validationProblem(failure as never, options);
  return { code: problem.code, detail: problem.detail };
}

const body = (id: string, data: unknown) => problemOf(Type.Ref(id), 'body', data);
const query = (schema: TSchema, data: Record<string, unknown>) => problemOf(schema, 'querystring', data);

describe('request validation: one precise problem per failure', () => {
  it('accepts what the routes take', () => {
    expect(body('VerifyDelegationRequest', { chain: ['a.b.c'], trustedRoots: ['did:key:z6Mk'], register: true })).toBeNull();
    expect(body('PolicyEvaluateRequest', { did: 'did:key:z', policy: { name: 'p', rules: { allowedMethods: ['key'], minKeyBits: 256 } } })).toBeNull();
    expect(query(ResolveQuerySchema, { noCache: 'true', versionNumber: '3' })).toBeNull();
    expect(query(VerifyToolQuerySchema, { agent: 'did:key:z', tool: 'search' })).toBeNull();
  });

  it('a body that is not an object', () => {
    expect(body('VerifyDelegationRequest', [])).toEqual({ code: 'INVALID_REQUEST', detail: 'The request body must be a JSON object.' });
    expect(body('JwsVerifyRequest', 'x')).toEqual({ code: 'INVALID_REQUEST', detail: 'The request body must be a JSON object.' });
  });

  it('unknown members, all of them, before a missing one (a misspelt member is both)', () => {
    expect(body('VerifyDelegationRequest', { chian: [], registr: true })).toEqual({
      code: 'INVALID_REQUEST',
      detail: 'Unknown members "chian", "registr"; the request takes chain, trustedRoots, register.',
    });
    expect(body('PolicyEvaluateRequest', { did: 'did:key:z', policy: { rules: { didResolutoin: 'required' } } })?.detail).toMatch(
      /^Unknown member "didResolutoin" in "policy\.rules"; "policy\.rules" takes didResolution, allowedMethods, /,
    );
  });

  it('a missing member: its name, and what to give when the schema says', () => {
    expect(body('AuthorizeRequest', { chain: [] })).toEqual({
      code: 'INVALID_REQUEST',
      detail: '"tool" (required) is missing; give the name of the tool to authorise.',
    });
    expect(body('PolicyEvaluateRequest', { did: 'did:key:z', policy: {} })?.detail).toBe('"policy.rules" (required) is missing.');
  });

  it('a member of the wrong type, with its place in arrays', () => {
    expect(body('VerifyDelegationRequest', { chain: ['a', 7] })?.detail).toBe('"chain[1]" must be a string, not the integer 7.');
    expect(body('VerifyDelegationRequest', { chain: 'a.b.c' })?.detail).toBe(
      '"chain" must be an array, not the string "a.b.c" (compact receipts (JWS), root first).',
    );
    expect(body('VerifyDelegationRequest', { chain: [], register: 'yes' })?.detail).toBe('"register" must be true or false, not the string "yes".');
  });

  it('a value outside an enumeration names the allowed values', () => {
    expect(body('JwsVerifyRequest', { jws: 'a.b.c', relationship: 'owner' })?.detail).toBe(
      '"relationship" must be one of authentication, assertionMethod, keyAgreement, capabilityInvocation, capabilityDelegation, not "owner".',
    );
    expect(query(ResolveQuerySchema, { noCache: 'maybe' })).toEqual({
      code: 'INVALID_OPTIONS',
      detail: 'The query option "noCache" must be one of true, 1, (empty), false, 0, not "maybe".',
    });
  });

  it('lengths, counts, bounds and patterns', () => {
    expect(body('JwsVerifyRequest', { jws: '' })?.detail).toBe('"jws" must not be empty (a compact JWS whose kid is a DID URL).');
    expect(body('AuthorizeRequest', { chain: [], tool: 't'.repeat(1025) })?.detail).toBe('"tool" is longer than 1024 characters.');
    expect(body('VerifyDelegationRequest', { chain: Array.from({ length: 65 }, () => 'x') })?.detail).toBe('"chain" has 65 entries; at most 64 are taken.');
    expect(body('PolicyEvaluateRequest', { did: 'd', policy: { rules: { allowedMethods: [] } } })?.detail).toBe(
      '"policy.rules.allowedMethods" needs at least 1 entry.',
    );
    expect(body('PolicyEvaluateRequest', { did: 'd', policy: { rules: { minKeyBits: 0 } } })?.detail).toBe(
      '"policy.rules.minKeyBits" must be at least 1, not 0.',
    );
    expect(body('PolicyEvaluateRequest', { did: 'd', policy: { rules: { minKeyBits: 2.5 } } })?.detail).toBe(
      '"policy.rules.minKeyBits" must be an integer, not the number 2.5.',
    );
    expect(query(ResolveQuerySchema, { versionNumber: 'three' })?.detail).toBe(
      'The query option "versionNumber" is not valid, "three" (did:webvh: the version with this number (a positive integer)).',
    );
  });

  it('query options: unknown, repeated, missing, empty — INVALID_OPTIONS', () => {
    expect(query(McpInspectQuerySchema, { endpoint: 'https://a.example/mcp', url: 'x' })).toEqual({
      code: 'INVALID_OPTIONS',
      detail: 'Unknown query option "url"; this route takes endpoint, signed.',
    });
    expect(query(Type.Object({}, { additionalProperties: false }), { x: '1' })?.detail).toBe('Unknown query option "x"; this route takes none.');
    expect(query(McpInspectQuerySchema, { endpoint: ['a', 'b'] })?.detail).toBe('The query option "endpoint" is given 2 times; give it once.');
    expect(query(VerifyToolQuerySchema, { tool: 'search' })?.detail).toBe(
      'The query option "agent" (required) is missing; give the DID of the agent (a fragment is ignored).',
    );
    expect(query(VerifyToolQuerySchema, { agent: 'did:key:z', tool: '' })?.detail).toBe('The query option "tool" must not be empty (the name of the tool).');
  });

  it('no coercion, nothing removed: strictness stays', () => {
    // Fastify's default Ajv would coerce 1 to "1" and silently drop the unknown member.
    expect(body('AuthorizeRequest', { chain: [], tool: 1 })?.detail).toBe('"tool" must be a string, not the integer 1 (the name of the tool to authorise).');
    const data = { chain: [], tool: 'x', extra: true };
    expect(body('AuthorizeRequest', data)?.detail).toMatch(/^Unknown member "extra"/);
    expect(data).toEqual({ chain: [], tool: 'x', extra: true });
  });

  it('the W3C binding body holds resolution options: INVALID_OPTIONS', () => {
    expect(problemOf(W3cOptionsBodySchema, 'body', { nocache: true }, { optionsBody: true })).toEqual({
      code: 'INVALID_OPTIONS',
      detail: 'Unknown member "nocache"; the request takes noCache, versionId, versionTime, versionNumber, accept.',
    });
  });

  it("a wildcard route's path parameter is not validated here (the raw identifier goes to the core); an absent body is the handler's", () => {
    const validate = validatorCompiler({
      schema: Type.Object({ did: Type.String() }, { additionalProperties: false }),
      httpPart: 'params',
      method: 'GET',
      url: '/v1/resolve/*',
    }) as (data: unknown) => boolean;
    expect(validate({ '*': 'did:key:z\u0000' })).toBe(true);
    expect(body('AuthorizeRequest', null)).toBeNull();
  });

  it('an id in the path holding what no stored id holds is the 404 of an unknown id, naming the parameter', () => {
    const params = Type.Object({ project: StoredText(), watch: StoredText() }, { additionalProperties: false });
    expect(problemOf(params, 'params', { project: 'prj_x', watch: 'wch_1' })).toBeNull();
    expect(problemOf(params, 'params', { project: 'prj_x', watch: 'wch_\u0000' })).toEqual({
      code: 'NOT_FOUND',
      detail: 'Nothing has this id: the path parameter "watch" holds a NUL character or a lone surrogate, which svc never stores.',
    });
  });

  it('stored text: NUL and lone surrogates refused by name, surrogate pairs and other controls kept', () => {
    expect(body('TenantRequest', { name: 'a\u0000b', owner: 'did:key:z' })).toEqual({
      code: 'INVALID_REQUEST',
      detail: '"name" holds a NUL character or a lone surrogate, which svc never stores.',
    });
    expect(body('ProjectRequest', { name: 'a\ud800' })?.detail).toMatch(/^"name" holds a NUL character or a lone surrogate/);
    expect(body('ProjectRequest', { name: 'b\udc00a' })?.detail).toMatch(/^"name" holds/);
    expect(body('ProjectRequest', { name: 'emoji \ud83d\ude00 tab\t bell\u0007' })).toBeNull();
    expect(query(DirectoryQuerySchema, { q: 'a\u0000' })).toEqual({
      code: 'INVALID_OPTIONS',
      detail: 'The query option "q" holds a NUL character or a lone surrogate, which svc never stores.',
    });
  });

  it('date-time: an RFC 3339 instant from year 0000 to 9999 (the offset applied), refused by name otherwise', () => {
    const page = (asOf: string) => body('EventPageRequest', { limit: 5, asOf });
    for (const ok of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-01-01T02:00:00+02:00', '2024-02-29T12:00:00.5Z', '0000-01-01T00:00:00-01:00']) {
      expect(page(ok), ok).toBeNull();
    }
    for (const bad of [
      '+275760-09-13T00:00:00.000Z',
      '-000001-01-01T00:00:00Z',
      '0000-01-01T00:30:00+01:00',
      '9999-12-31T23:59:59-00:01',
      '2025-02-29T00:00:00Z',
      '2025-01-01T00:00:60Z',
      '2025-01-01T00:00Z',
      '2025-01-01t00:00:00z',
      '1e400',
      '',
    ]) {
      expect(page(bad), bad).toEqual({
        code: 'INVALID_REQUEST',
        detail: `"asOf" is not an RFC 3339 date-time (seconds and Z or ±hh:mm required) from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z, not ${JSON.stringify(bad)}.`,
      });
    }
  });
});

describe('response serialisation with the schemas', () => {
  const serializer = (schema: TSchema) => serializerCompiler({ schema, method: 'GET', url: '/test', httpStatus: '200' }) as (data: unknown) => string;

  it('an EnrichedResolution of a did:key and a did:jwk serialises to the same JSON value as JSON.stringify', async () => {
    const serialize = serializer(Type.Ref('EnrichedResolution'));
    const runtime = testRuntime(systemClock);
    const jwk = `did:jwk:${Buffer.from(JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })).toString('base64url')}`;
    for (const did of ['did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', jwk]) {
      const result = await resolve(did, runtime);
      expect(JSON.parse(serialize(result))).toEqual(JSON.parse(JSON.stringify(result)));
    }
  });

  it('compiled once per schema, on first use, shared by routes', () => {
    const a = serializer(Type.Ref('Problem'));
    const b = serializer(Type.Ref('Problem'));
    const problem = { type: 't', title: 'T', status: 400, detail: 'd', code: 'C' };
    expect(a(problem)).toBe(b(problem));
    expect(JSON.parse(a(problem))).toEqual(problem);
  });

  it('a result missing a required member fails loudly (a 500 from the error handler), never a silent hole', () => {
    const serialize = serializer(Type.Ref('Problem'));
    expect(() => serialize({ type: 't', title: 'T', status: 400, detail: 'd' })).toThrow(/code/);
  });

  it('a closed resource never carries a member its schema does not name', () => {
    const serialize = serializer(Type.Ref('Problem'));
    const text = serialize({ type: 't', title: 'T', status: 400, detail: 'd', code: 'C', secret: 'internal' });
    expect(JSON.parse(text)).toEqual({ type: 't', title: 'T', status: 400, detail: 'd', code: 'C' });
  });
});
