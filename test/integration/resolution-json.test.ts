/**
 * The daemon writes an enriched resolution with JSON.stringify (routes/resolution.ts
 * resolutionJson), not with its route's schema serialiser: the two must write the same members
 * and values, for results of every shape a resolution takes — did:key of two curves, did:jwk, a
 * did:web resolved over HTTPS (fetch stages, TLS evidence, linkage), a did:web that is not found,
 * a key that is not on its curve. The order of members may differ (the schema's, the result's own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { schemaCompilers } from '../../src/server/compilers.js';
import { resolutionJson } from '../../src/server/routes/resolution.js';
import { ALL_SCHEMAS } from '../../src/server/schemas/index.js';
import { RESOLUTION_ROUTE_SCHEMAS } from '../../src/server/schemas/resolution.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { ED25519_DID, OFF_CURVE_DID } from '../support/dids.js';
import { testRuntime } from '../support/runtime.js';

const P256_DID = 'did:key:zDnaerDaTF5BXEavCrfRZEk316dpbLsfPDZ3WJ5hRTPFU2169';
const JWK_DID = `did:jwk:${Buffer.from(
  JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: Buffer.from(new Uint8Array(32).fill(7)).toString('base64url') }),
).toString('base64url')}`;

/** The serialiser Fastify compiles from the resolve route's 200 schema. */
function schemaSerialiser(): (data: unknown) => string {
  const { serializerCompiler } = schemaCompilers(ALL_SCHEMAS);
  const response = RESOLUTION_ROUTE_SCHEMAS.resolve.response as Record<string, { content: Record<string, { schema: unknown }> }>;
  const schema = response['200']!.content['application/json']!.schema;
  return serializerCompiler({ schema, method: 'GET', url: '/v1/resolve/*', httpStatus: '200' } as never) as (data: unknown) => string;
}

describe('the enriched resolution as JSON', () => {
  let host: DidWebHost;
  const results: Array<[string, EnrichedResolution]> = [];

  beforeAll(async () => {
    host = await startDidWebHost();
    const web = host.did('u', 'alice');
    host.publish(web);
    const runtime = host.runtime();
    for (const did of [ED25519_DID, P256_DID, JWK_DID, OFF_CURVE_DID]) results.push([did, await resolve(did, testRuntime(), { noCache: true })]);
    results.push([web, await resolve(web, runtime, { noCache: true })]);
    // A document with a service and an extra member of its own.
    const rich = host.did('u', 'bob');
    const document = host.publish(rich);
    host.publish(rich, {
      ...document,
      service: [{ id: `${rich}#hub`, type: 'LinkedDomains', serviceEndpoint: 'https://example.com/' }],
      alsoKnownAs: ['https://example.com/bob'],
    });
    results.push([rich, await resolve(rich, runtime, { noCache: true })]);
  });
  afterAll(async () => {
    await host?.close();
  });

  it('has the members and values the route schema would write, for each shape of result', () => {
    const serialise = schemaSerialiser();
    expect(results.map(([, r]) => r.verdict.outcome)).toContain('RESOLVED');
    for (const [did, result] of results) {
      const text = resolutionJson(result);
      expect(JSON.parse(text), did).toEqual(JSON.parse(serialise(result)));
      expect(text.length, did).toBe(serialise(result).length);
    }
  });
});
