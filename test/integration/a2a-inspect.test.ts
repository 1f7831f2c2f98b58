/**
 * A2A agent-card inspection against real agents: cards signed by @a2a-js/sdk 1.3.0 and served by
 * its `agentCardHandler` (express) on a loopback HTTPS host with a test CA; JWK sets and did:web
 * documents published on the same host; svc fetching everything through its own fetcher and
 * egress policy. Nothing is mocked.
 */
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { AgentCard, canonicalizeAgentCard } from '@a2a-js/sdk';
import { calculateJwkThumbprint } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inspectA2a } from '../../src/core/a2a/inspect.js';
import { A2A_LIMITATIONS, type A2aCheckId, type A2aInspection } from '../../src/core/a2a/types.js';
import { canonicalize, HASH_PROFILE, jcsSha256, sha256Hex } from '../../src/core/canonical.js';
import {
  a2aKey,
  agentCard,
  agentCard03,
  agentDidDocument,
  CARD_PATH,
  publishJwks,
  serveCard,
  signCard,
  signCardRfc8785,
  type A2aKey,
  type CardJson,
} from '../support/a2a-agent.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { closedPort, json, raw, redirect } from '../support/https-server.js';
import { createTestCa, type TestCa } from '../support/pki.js';
import { problemOf } from '../support/problems.js';

let ca: TestCa;
let es256: A2aKey;
let ed25519: A2aKey;
const hosts: DidWebHost[] = [];

beforeAll(async () => {
  ca = createTestCa();
  es256 = await a2aKey('ES256');
  ed25519 = await a2aKey('EdDSA');
});

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** A fresh HTTPS host (its own origin) sharing the test CA. */
async function newHost(): Promise<DidWebHost> {
  const host = await startDidWebHost({ ca });
  hosts.push(host);
  return host;
}

function checkOf(result: A2aInspection, id: A2aCheckId) {
  const found = result.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
}

function statuses(result: A2aInspection): Record<string, string> {
  return Object.fromEntries(result.checks.map((c) => [c.id, c.status]));
}

const ALL_PASS = { fetch: 'PASS', schema: 'PASS', version: 'PASS', interfaces: 'PASS', origin: 'PASS', provider: 'PASS', security: 'PASS', signature: 'PASS' };

/** A card signed by the SDK with `key`, its key published as a JWK set on the host. */
async function jkuSignedCard(host: DidWebHost, key: A2aKey = es256, overrides: CardJson = {}): Promise<{ card: CardJson; jku: string }> {
  const jku = publishJwks(host.server, [{ key, kid: 'card-key-1' }]);
  const card = await signCard(agentCard(host.server.origin, overrides), key, { kid: 'card-key-1', jku });
  return { card, jku };
}

describe('SDK-signed cards served by the SDK', () => {
  it('a jku key: signature VALID over the A2A 1.0 form, every check PASS, and the request said A2A-Version: 1.0', async () => {
    const host = await newHost();
    const { card, jku } = await jkuSignedCard(host);
    const seen: IncomingHttpHeaders[] = [];
    serveCard(host.server, card, { seen });

    // The trap this guards against: plain RFC 8785 of this card is not what the SDK signed.
    const { signatures: _s, ...unsigned } = card;
    expect(canonicalize(unsigned)).not.toBe(canonicalizeAgentCard(card as unknown as AgentCard));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures).toEqual([
      {
        alg: 'ES256',
        kid: 'card-key-1',
        jku,
        status: 'VALID',
        canonicalization: 'a2a-1.0',
        detail: `The ES256 signature verifies over the A2A 1.0 canonical form of the card with "card-key-1" of the JWK set at "${jku}" (the card's origin).`,
        // RFC 7638, as jose computes it: what an approved baseline pins.
        keyThumbprint: await calculateJwkThumbprint(es256.publicJwk),
      },
    ]);
    expect(statuses(result)).toEqual(ALL_PASS);
    expect(result.headline).toBe('Agent card of "Recipe Agent" (A2A 1.0), signature VALID.');
    expect(result).toMatchObject({
      cardUrl: `${host.server.origin}${CARD_PATH}`,
      httpStatus: 200,
      // agentCardHandler serves JSON.stringify of the card it is given.
      cardSha256: sha256Hex(JSON.stringify(card)),
      canonicalSha256: jcsSha256(card),
      hashProfile: HASH_PROFILE,
      specVersion: '1.0',
      name: 'Recipe Agent',
      description: 'Finds recipes and plans meals.',
      version: '1.2.0',
      provider: { organization: 'Example Foods', url: 'https://foods.example' },
      documentationUrl: `${host.server.origin}/docs`,
      interfaces: [
        { url: `${host.server.origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', https: true, sameOrigin: true },
        { url: `${host.server.origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', https: true, sameOrigin: true },
      ],
      capabilities: { streaming: true, pushNotifications: false, extensions: [] },
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT', description: '' } } },
      skills: [{ id: 'find-recipe', name: 'Find a recipe', description: 'Finds a recipe by ingredients.', tags: ['cooking', 'search'] }],
      // As served: the SDK's `header: undefined` is not in the JSON.
      card: JSON.parse(JSON.stringify(card)) as unknown,
    });
    expect(result.tls).toMatchObject({ host: 'localhost', hostnameInSan: true });
    expect(result.observedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(result.limitations).toEqual([A2A_LIMITATIONS.selfReported, A2A_LIMITATIONS.cardOnly, A2A_LIMITATIONS.jku]);

    expect(seen).toHaveLength(1);
    expect(seen[0]!['a2a-version']).toBe('1.0');
    expect(seen[0]!['accept']).toBe('application/json');
    // The JWK set was fetched once, with the JWK set media type first.
    expect(host.server.requests.filter((r) => r === 'GET /jwks.json')).toHaveLength(1);
  });

  it('a DID kid: the did:web key under assertionMethod verifies (EdDSA)', async () => {
    const host = await newHost();
    const did = host.did('agents', 'recipe');
    host.publish(did, agentDidDocument(did, [{ fragment: 'card', key: ed25519, relationships: ['assertionMethod'] }]));
    const card = await signCard(agentCard(host.server.origin), ed25519, { kid: `${did}#card` });
    serveCard(host.server, card);

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures).toEqual([
      {
        alg: 'EdDSA',
        kid: `${did}#card`,
        jku: null,
        status: 'VALID',
        canonicalization: 'a2a-1.0',
        detail: `The EdDSA signature verifies over the A2A 1.0 canonical form of the card with "${did}#card", authorised for assertionMethod.`,
        keyThumbprint: await calculateJwkThumbprint(ed25519.publicJwk),
      },
    ]);
    expect(checkOf(result, 'signature')).toMatchObject({
      status: 'PASS',
      detail: expect.stringMatching(/^1 of 1 signature VALID \(a2a-1\.0\); signatures\[0\]: the EdDSA/),
    });
    expect(result.limitations).toContain(A2A_LIMITATIONS.didKid);
    expect(result.limitations).not.toContain(A2A_LIMITATIONS.jku);
  });

  it('a card changed after signing: INVALID, the signature check FAILs', async () => {
    const host = await newHost();
    const { card } = await jkuSignedCard(host);
    serveCard(host.server, { ...card, description: 'Now also moves money.' });

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures[0]).toMatchObject({ status: 'INVALID', canonicalization: null, alg: 'ES256', kid: 'card-key-1' });
    expect(result.signatures[0]!.detail).toBe(
      `The ES256 signature does not verify (payloads tried: a2a-1.0 and rfc8785); key: "card-key-1" of the JWK set at "${host.server.origin}/jwks.json" (the card's origin).`,
    );
    expect(checkOf(result, 'signature')).toMatchObject({ status: 'FAIL', detail: expect.stringMatching(/^1 of 1 signature INVALID; signatures\[0\]: /) });
    expect(result.headline).toBe('Agent card of "Recipe Agent" (A2A 1.0), signature INVALID.');
  });

  it('fields outside the 1.0 schema and scope-less security requirements: VALID, but the uncovered parts are named', async () => {
    const host = await newHost();
    const { card } = await jkuSignedCard(host, es256, {
      xVendorTier: 'gold',
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    });
    // Anyone can change what the signature does not cover without breaking it.
    serveCard(host.server, { ...card, xVendorTier: 'platinum', securityRequirements: [] });

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures[0]).toMatchObject({ status: 'VALID', canonicalization: 'a2a-1.0' });
    expect(result.signatures[0]!.detail).toContain('; not covered: xVendorTier.');
    expect(result.limitations).toContain(A2A_LIMITATIONS.uncovered);
    expect(checkOf(result, 'schema').detail).toBe(
      'The card has every member A2A 1.0 requires, with the right types. 1 member lies outside the A2A 1.0 schema: xVendorTier.',
    );
    // The served card has no requirement left: the security check says so.
    expect(checkOf(result, 'security')).toMatchObject({
      status: 'WARN',
      detail: 'The card declares 1 security scheme ("bearer"), but no securityRequirements entry says one is required.',
    });

    // As signed (with the scope-less requirement), the requirement is named as not covered.
    serveCard(host.server, card);
    const signed = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(signed.signatures[0]!.detail).toContain('not covered: xVendorTier, securityRequirements[0].schemes["bearer"]');
    expect(signed.limitations).toEqual(expect.arrayContaining([A2A_LIMITATIONS.uncovered, A2A_LIMITATIONS.droppedSecurity]));
  });

  it('an SDK-typed card object (ts-proto form) served as is: its security schemes reach the wire as `$case` and no signature covers them', async () => {
    const host = await newHost();
    const jku = publishJwks(host.server, [{ key: es256, kid: 'typed' }]);
    const typed = AgentCard.fromJSON(agentCard(host.server.origin)) as unknown as CardJson;
    serveCard(host.server, await signCard(typed, es256, { kid: 'typed', jku }));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.securitySchemes).toEqual({
      bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { description: '', scheme: 'Bearer', bearerFormat: 'JWT' } } },
    });
    expect(result.signatures[0]).toMatchObject({
      status: 'VALID',
      canonicalization: 'a2a-1.0',
      detail: expect.stringContaining('; not covered: securitySchemes["bearer"].'),
    });
    expect(checkOf(result, 'schema')).toMatchObject({
      status: 'FAIL',
      detail: expect.stringContaining('securitySchemes["bearer"] has none of apiKeySecurityScheme'),
    });
    expect(result.limitations).toContain(A2A_LIMITATIONS.droppedSecurity);
  });

  it('a card signed over plain RFC 8785 (not the A2A 1.0 form): VALID with canonicalization rfc8785', async () => {
    const host = await newHost();
    const jku = publishJwks(host.server, [{ key: ed25519, kid: 'plain' }]);
    // agentCard() carries tenant "", extensions [], examples []: the two forms differ.
    const card = await signCardRfc8785(agentCard(host.server.origin), ed25519, { kid: 'plain', jku });
    serveCard(host.server, card);

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures[0]).toMatchObject({
      alg: 'EdDSA',
      status: 'VALID',
      canonicalization: 'rfc8785',
      detail: expect.stringContaining('verifies over the RFC 8785 form of the card without its signatures with "plain"'),
    });
    expect(checkOf(result, 'signature')).toMatchObject({ status: 'PASS', detail: expect.stringMatching(/^1 of 1 signature VALID \(rfc8785\)/) });
  });

  it('two signatures, one VALID and one with an algorithm svc does not verify: PASS, the other UNSUPPORTED', async () => {
    const host = await newHost();
    const { card } = await jkuSignedCard(host);
    const hs256 = { protected: Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'shared', typ: 'JOSE' })).toString('base64url'), signature: 'AAAA' };
    serveCard(host.server, { ...card, signatures: [...(card['signatures'] as unknown[]), hs256] });

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures.map((s) => s.status)).toEqual(['VALID', 'UNSUPPORTED']);
    expect(result.signatures[1]).toMatchObject({
      alg: 'HS256',
      kid: 'shared',
      detail: expect.stringContaining('HS256 (HMAC with a shared secret) is not supported'),
    });
    expect(checkOf(result, 'signature')).toMatchObject({ status: 'PASS', detail: expect.stringMatching(/^1 of 2 signatures VALID/) });
  });
});

describe('keys that cannot vouch for the card', () => {
  it('a DID kid whose key is listed only under authentication: INVALID', async () => {
    const host = await newHost();
    const did = host.did('agents', 'auth-only');
    host.publish(did, agentDidDocument(did, [{ fragment: 'card', key: es256, relationships: ['authentication'] }]));
    serveCard(host.server, await signCard(agentCard(host.server.origin), es256, { kid: `${did}#card` }));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures[0]).toMatchObject({
      status: 'INVALID',
      kid: `${did}#card`,
      detail: `The key "${did}#card" is not authorised for assertionMethod (it is listed only under authentication).`,
    });
    expect(checkOf(result, 'signature').status).toBe('FAIL');
    expect(result.limitations).toContain(A2A_LIMITATIONS.didKid);
  });

  it('a DID kid whose DID does not resolve: INDETERMINATE, the check WARNs', async () => {
    const host = await newHost();
    const did = host.did('agents', 'nobody');
    serveCard(host.server, await signCard(agentCard(host.server.origin), es256, { kid: `${did}#card` }));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures[0]).toMatchObject({
      status: 'INDETERMINATE',
      detail: `${did} did not resolve: no DID document at ${host.server.origin}/agents/nobody/did.json (HTTP 404).`,
    });
    expect(checkOf(result, 'signature').status).toBe('WARN');
    expect(result.headline).toBe('Agent card of "Recipe Agent" (A2A 1.0), signature INDETERMINATE.');
  });

  it('an unreachable jku (closed port): INDETERMINATE with the reason', async () => {
    const host = await newHost();
    const jku = `https://localhost:${await closedPort()}/jwks.json`;
    serveCard(host.server, await signCard(agentCard(host.server.origin), es256, { kid: 'k', jku }));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures[0]).toMatchObject({
      status: 'INDETERMINATE',
      jku,
      detail: expect.stringMatching(new RegExp(`^The JWK set at "${jku.replace(/[.]/g, '\\.')}" could not be fetched: `)),
    });
    expect(checkOf(result, 'signature').status).toBe('WARN');
  });

  it('a jku whose set has no key with the kid: INDETERMINATE; a kid that is neither a DID URL nor backed by a jku: INDETERMINATE', async () => {
    const host = await newHost();
    const jku = publishJwks(host.server, [{ key: es256, kid: 'other' }]);
    let card = await signCard(agentCard(host.server.origin), es256, { kid: 'missing', jku });
    card = await signCard(card, es256, { kid: 'bare-kid' });
    serveCard(host.server, card);

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures.map((s) => [s.status, s.detail])).toEqual([
      ['INDETERMINATE', `The JWK set at "${jku}" has no key with kid "missing".`],
      ['INDETERMINATE', 'The kid "bare-kid" is not a DID URL and the signature names no jku: no key source svc can use.'],
    ]);
    expect(checkOf(result, 'signature').detail).toMatch(/^No signature could be verified \(INDETERMINATE, INDETERMINATE\)/);
  });

  it('a JWK set key marked for encryption, or for another algorithm: INVALID', async () => {
    const host = await newHost();
    const jku = publishJwks(host.server, [
      { key: es256, kid: 'enc', extra: { use: 'enc' } },
      { key: es256, kid: 'p384', extra: { alg: 'ES384' } },
    ]);
    let card = await signCard(agentCard(host.server.origin), es256, { kid: 'enc', jku });
    card = await signCard(card, es256, { kid: 'p384', jku });
    serveCard(host.server, card);

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures.map((s) => [s.status, s.detail])).toEqual([
      ['INVALID', `The key "enc" at "${jku}" is not for signatures (use "enc").`],
      ['INVALID', `The key "p384" at "${jku}" is for "ES384", not ES256.`],
    ]);
    // One JWK set, fetched once for both signatures.
    expect(host.server.requests.filter((r) => r === 'GET /jwks.json')).toHaveLength(1);
  });

  it('a jku in the unprotected header is used when the protected header has none', async () => {
    const host = await newHost();
    const jku = publishJwks(host.server, [{ key: es256, kid: 'k-unprotected' }]);
    serveCard(host.server, await signCard(agentCard(host.server.origin), es256, { kid: 'k-unprotected' }, { jku }));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures[0]).toMatchObject({ status: 'VALID', jku });
  });
});

describe('what the card says', () => {
  it('an A2A 0.3 card: specVersion 0.3, interfaces from url + preferredTransport + additionalInterfaces, version WARN', async () => {
    const host = await newHost();
    host.server.route(CARD_PATH, json(agentCard03(host.server.origin)));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.specVersion).toBe('0.3');
    expect(result.interfaces).toEqual([
      { url: `${host.server.origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '0.3.0', https: true, sameOrigin: true },
      { url: `${host.server.origin}/a2a/grpc`, protocolBinding: 'GRPC', protocolVersion: '0.3.0', https: true, sameOrigin: true },
    ]);
    expect(checkOf(result, 'version')).toMatchObject({
      status: 'WARN',
      detail: 'A2A 0.3 card (url, protocolVersion "0.3.0"), although svc asked for A2A-Version 1.0; A2A 1.0 replaced these members with supportedInterfaces.',
    });
    expect(checkOf(result, 'schema')).toMatchObject({ status: 'PASS', detail: 'The card has every member A2A 0.3 requires, with the right types.' });
    expect(statuses(result)).toMatchObject({ provider: 'WARN', security: 'WARN', signature: 'SKIP' });
    expect(result.headline).toBe('Agent card of "Legacy Agent" (A2A 0.3), unsigned, 3 checks WARN.');
  });

  it('signatures that are not an array: schema and signature FAIL', async () => {
    const host = await newHost();
    serveCard(host.server, agentCard(host.server.origin, { signatures: { protected: 'e30', signature: 'AAAA' } }));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures).toEqual([]);
    expect(checkOf(result, 'signature')).toMatchObject({ status: 'FAIL', detail: 'The card member signatures is not an array.' });
    expect(checkOf(result, 'schema')).toMatchObject({
      status: 'FAIL',
      detail: 'Not valid against A2A 1.0 (1 problem): signatures is an object, not an array.',
    });
    expect(result.headline).toBe('Agent card of "Recipe Agent" (A2A 1.0), signatures malformed, 1 check FAIL.');
  });

  it('a 0.3 card signed by the SDK: VALID, but the A2A 1.0 form covers none of its 0.3 interface members', async () => {
    const host = await newHost();
    const jku = publishJwks(host.server, [{ key: es256, kid: 'k03' }]);
    const signed = await signCard(agentCard03(host.server.origin), es256, { kid: 'k03', jku });
    // Moving the agent's endpoint elsewhere keeps the signature valid.
    host.server.route(CARD_PATH, json({ ...signed, url: 'https://attacker.example/a2a', additionalInterfaces: [] }));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.specVersion).toBe('0.3');
    expect(result.signatures[0]).toMatchObject({ status: 'VALID', canonicalization: 'a2a-1.0' });
    expect(result.signatures[0]!.detail).toContain('; not covered: url, preferredTransport, additionalInterfaces and 1 more.');
    expect(result.limitations).toContain(A2A_LIMITATIONS.uncovered);
    expect(checkOf(result, 'origin').status).toBe('WARN');
  });

  it('an unsigned card: signature SKIP and the unsigned limitation', async () => {
    const host = await newHost();
    serveCard(host.server, agentCard(host.server.origin));

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.signatures).toEqual([]);
    expect(checkOf(result, 'signature')).toEqual({ id: 'signature', label: 'Card signature', status: 'SKIP', detail: 'The card is unsigned.' });
    expect(result.limitations).toEqual([A2A_LIMITATIONS.selfReported, A2A_LIMITATIONS.cardOnly, A2A_LIMITATIONS.unsigned]);
    expect(result.headline).toBe('Agent card of "Recipe Agent" (A2A 1.0), unsigned.');
  });

  it('an http:// interface: interfaces FAIL', async () => {
    const host = await newHost();
    const origin = host.server.origin;
    serveCard(
      host.server,
      agentCard(origin, {
        supportedInterfaces: [
          { url: `${origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          { url: `http://localhost:${host.server.port}/a2a`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        ],
      }),
    );

    const result = await inspectA2a(origin, { runtime: host.runtime() });
    expect(result.interfaces.map((i) => [i.https, i.sameOrigin])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(checkOf(result, 'interfaces')).toMatchObject({
      status: 'FAIL',
      detail: `1 of 2 interfaces are not https: "http://localhost:${host.server.port}/a2a".`,
    });
    expect(checkOf(result, 'origin').status).toBe('WARN');
    expect(result.headline).toBe('Agent card of "Recipe Agent" (A2A 1.0), unsigned, 1 check FAIL, 1 check WARN.');
  });

  it('an interface on another origin: origin WARN, interfaces PASS', async () => {
    const host = await newHost();
    serveCard(
      host.server,
      agentCard(host.server.origin, {
        supportedInterfaces: [{ url: 'https://relay.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      }),
    );

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.interfaces).toEqual([
      { url: 'https://relay.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0', https: true, sameOrigin: false },
    ]);
    expect(checkOf(result, 'interfaces').status).toBe('PASS');
    expect(checkOf(result, 'origin')).toMatchObject({
      status: 'WARN',
      detail: `1 of 1 interface is not on the card's origin ${host.server.origin}: "https://relay.example/a2a"; whoever serves the card sends callers there.`,
    });
  });

  it('schema problems are listed precisely', async () => {
    const host = await newHost();
    serveCard(
      host.server,
      agentCard(host.server.origin, {
        version: 3,
        skills: [
          { name: 'No id', description: 'd', tags: ['t'] },
          { id: 'x', name: 'X', description: 'd', tags: 'cooking' },
        ],
        provider: { organization: 'Org' },
        capabilities: undefined,
      }),
    );

    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(checkOf(result, 'schema')).toMatchObject({
      status: 'FAIL',
      detail:
        'Not valid against A2A 1.0 (5 problems): provider.url is missing; version is a number, not a string; capabilities is missing; skills[0].id is missing; skills[1].tags is a string, not an array.',
    });
    expect(result.version).toBeNull();
  });

  it('an SDK with 0.3 compatibility answers a bare request with a 0.3-shaped card; svc, sending A2A-Version: 1.0, gets the 1.0 card', async () => {
    const host = await newHost();
    const origin = host.server.origin;
    const card = agentCard(origin, {
      supportedInterfaces: [
        { url: `${origin}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${origin}/a2a/v03`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      securitySchemes: undefined,
      securityRequirements: undefined,
    });
    serveCard(host.server, card, { legacyCompat: true });

    const bare = await getWithoutVersion(host, CARD_PATH);
    expect(bare.headers['vary']).toContain('A2A-Version');
    expect(bare.body).toMatchObject({
      url: `${origin}/a2a/v03`,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
      supportedInterfaces: card['supportedInterfaces'],
    });

    const result = await inspectA2a(origin, { runtime: host.runtime() });
    expect(result.specVersion).toBe('1.0');
    expect(result.card).not.toHaveProperty('url');
    expect(result.card).not.toHaveProperty('protocolVersion');
    expect(checkOf(result, 'version')).toMatchObject({ status: 'PASS', detail: 'A2A 1.0 card: 1 interface declares protocol version 1.x.' });
    expect(result.interfaces.map((i) => i.protocolVersion)).toEqual(['1.0', '0.3']);
  });

  it('the same compat card, if served to svc as 0.3 (a server ignoring the header), reads as 0.3', async () => {
    const host = await newHost();
    const bareCard = {
      name: 'Compat',
      description: 'd',
      version: '1',
      url: `${host.server.origin}/a2a`,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
      supportedInterfaces: [{ url: `${host.server.origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }],
    };
    host.server.route(CARD_PATH, json(bareCard));
    const result = await inspectA2a(host.server.origin, { runtime: host.runtime() });
    expect(result.specVersion).toBe('0.3');
    expect(result.interfaces).toEqual([
      { url: `${host.server.origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3', https: true, sameOrigin: true },
    ]);
  });
});

describe('where the card comes from', () => {
  it('the legacy /.well-known/agent.json when agent-card.json is 404: fetch WARN', async () => {
    const host = await newHost();
    host.server.route('/.well-known/agent.json', json(agentCard(host.server.origin)));

    const result = await inspectA2a(`${host.server.origin}/`, { runtime: host.runtime() });
    expect(result.cardUrl).toBe(`${host.server.origin}/.well-known/agent.json`);
    expect(checkOf(result, 'fetch')).toEqual({
      id: 'fetch',
      label: 'Card served at the well-known path',
      status: 'WARN',
      detail: '/.well-known/agent-card.json answered HTTP 404; the card came from the legacy /.well-known/agent.json of A2A 0.2 and earlier.',
    });
    expect(host.server.requests).toEqual(['GET /.well-known/agent-card.json', 'GET /.well-known/agent.json']);
  });

  it('a card URL is fetched as given, without the legacy fallback', async () => {
    const host = await newHost();
    host.server.route('/agents/recipe/card.json', json(agentCard(host.server.origin)));

    const result = await inspectA2a(`${host.server.origin}/agents/recipe/card.json#frag`, { runtime: host.runtime() });
    expect(result.cardUrl).toBe(`${host.server.origin}/agents/recipe/card.json`);
    expect(checkOf(result, 'fetch')).toMatchObject({
      status: 'PASS',
      detail: `The card was served at ${host.server.origin}/agents/recipe/card.json (HTTP 200, JSON).`,
    });

    const missing = await problemOf(inspectA2a(`${host.server.origin}/agents/none/card.json`, { runtime: host.runtime() }));
    expect(missing.code).toBe('NOT_FOUND');
    expect(host.server.requests.filter((r) => r.includes('agent.json'))).toEqual([]);
  });

  it('a redirect to another origin: fetch WARN, and the origin check compares with where the card was served', async () => {
    const first = await newHost();
    const second = await newHost();
    serveCard(second.server, agentCard(second.server.origin));
    first.server.route(CARD_PATH, redirect(`${second.server.origin}${CARD_PATH}`));

    const result = await inspectA2a(first.server.origin, { runtime: first.runtime() });
    expect(result.cardUrl).toBe(`${second.server.origin}${CARD_PATH}`);
    expect(checkOf(result, 'fetch')).toMatchObject({
      status: 'WARN',
      detail: `The request to ${first.server.origin} was redirected to another origin, ${second.server.origin}.`,
    });
    expect(checkOf(result, 'origin').status).toBe('PASS');
  });

  it('no card at either path: NOT_FOUND', async () => {
    const host = await newHost();
    const problem = await problemOf(inspectA2a(host.server.origin, { runtime: host.runtime() }));
    expect(problem.code).toBe('NOT_FOUND');
    expect(problem.detail).toBe(
      `No agent card at ${host.server.origin}/.well-known/agent-card.json or at the legacy ${host.server.origin}/.well-known/agent.json (HTTP 404).`,
    );
    expect(host.server.requests).toEqual(['GET /.well-known/agent-card.json', 'GET /.well-known/agent.json']);
  });

  it('a 503 from the agent host: UPSTREAM_UNAVAILABLE, no fallback; a 401: NOT_FOUND', async () => {
    const host = await newHost();
    host.server.route(CARD_PATH, json({ error: 'down' }, { status: 503 }));
    expect((await problemOf(inspectA2a(host.server.origin, { runtime: host.runtime() }))).code).toBe('UPSTREAM_UNAVAILABLE');
    expect(host.server.requests).toEqual(['GET /.well-known/agent-card.json']);

    host.server.route(CARD_PATH, json({ error: 'who are you' }, { status: 401 }));
    const denied = await problemOf(inspectA2a(host.server.origin, { runtime: host.runtime() }));
    expect(denied.code).toBe('NOT_FOUND');
    expect(denied.detail).toBe(`No agent card at ${host.server.origin}/.well-known/agent-card.json (HTTP 401).`);
  });

  it('an HTML page instead of a card: INVALID_DID_DOCUMENT (422)', async () => {
    const host = await newHost();
    host.server.route(CARD_PATH, raw('<!doctype html><title>Agent</title>', { contentType: 'text/html' }));
    const problem = await problemOf(inspectA2a(host.server.origin, { runtime: host.runtime() }));
    expect(problem.code).toBe('INVALID_DID_DOCUMENT');
    expect(problem.status).toBe(422);
    expect(problem.detail).toBe(
      `The resource at ${host.server.origin}${CARD_PATH} is no agent card: the agent card is not valid JSON (unexpected character at offset 0).`,
    );
  });

  it('a card with a duplicate member: INVALID_DID_DOCUMENT', async () => {
    const host = await newHost();
    host.server.route(CARD_PATH, raw('{"name":"Honest Agent","description":"d","name":"Evil Agent"}', { contentType: 'application/json' }));
    const problem = await problemOf(inspectA2a(host.server.origin, { runtime: host.runtime() }));
    expect(problem.code).toBe('INVALID_DID_DOCUMENT');
    expect(problem.detail).toContain('has a duplicate member "name"');
  });

  it('JSON that is not an object: INVALID_DID_DOCUMENT', async () => {
    const host = await newHost();
    host.server.route(CARD_PATH, json([agentCard(host.server.origin)]));
    const problem = await problemOf(inspectA2a(host.server.origin, { runtime: host.runtime() }));
    expect(problem).toMatchObject({ code: 'INVALID_DID_DOCUMENT', detail: expect.stringContaining('it is JSON an array, not an object') });
  });

  it('a 600 KiB card: PAYLOAD_TOO_LARGE', async () => {
    const host = await newHost();
    host.server.route(CARD_PATH, json(agentCard(host.server.origin, { description: 'x'.repeat(600 * 1024) })));
    const problem = await problemOf(inspectA2a(host.server.origin, { runtime: host.runtime() }));
    expect(problem.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('input that is not a URL: INVALID_REQUEST; an http:// origin: EGRESS_BLOCKED before any connection', async () => {
    const host = await newHost();
    expect((await problemOf(inspectA2a('agent.example', { runtime: host.runtime() }))).code).toBe('INVALID_REQUEST');
    expect((await problemOf(inspectA2a(`http://localhost:${host.server.port}`, { runtime: host.runtime() }))).code).toBe('EGRESS_BLOCKED');
    expect(host.server.connections).toBe(0);
  });
});

/** GET without an A2A-Version header, with node:https trusting the test CA. */
function getWithoutVersion(host: DidWebHost, path: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      { host: '127.0.0.1', servername: 'localhost', port: host.server.port, path, ca: host.ca.certPem, headers: { accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }),
        );
      },
    );
    req.on('error', reject);
  });
}
