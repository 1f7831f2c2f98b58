/**
 * A2A agents for tests, built with the official SDK (@a2a-js/sdk 1.3.0): cards are signed with
 * its `generateAgentCardSignature` and served by its `agentCardHandler` on an express app that
 * the loopback HTTPS test server routes to. Keys come from jose; JWK sets and DID documents are
 * published on the same test host. Nothing is mocked: svc fetches everything over real TLS.
 *
 *   const host = await startDidWebHost({ ca });
 *   const key = await a2aKey('ES256');
 *   const card = await signCard(agentCard(host.server.origin), key, { kid: 'k1', jku: publishJwks(host.server, [{ key, kid: 'k1' }]) });
 *   serveCard(host.server, card);
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { generateAgentCardSignature, type AgentCard } from '@a2a-js/sdk';
import { agentCardHandler } from '@a2a-js/sdk/server/express';
import { exportJWK, FlattenedSign, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { canonicalize } from '../../src/core/canonical.js';
import { json, type Handler, type TestHttpsServer } from './https-server.js';

/** The little of express 5 used here (the project has no express type declarations). */
interface ExpressApp {
  (req: IncomingMessage, res: ServerResponse): void;
  use(path: string, handler: unknown): void;
}
const express = createRequire(import.meta.url)('express') as () => ExpressApp;

/** A JSON agent card (ProtoJSON, camelCase), as served and signed. */
export type CardJson = Record<string, unknown>;

export interface A2aKey {
  alg: 'ES256' | 'EdDSA' | 'ES384';
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function a2aKey(alg: A2aKey['alg'] = 'ES256'): Promise<A2aKey> {
  const pair = await generateKeyPair(alg, alg === 'EdDSA' ? { crv: 'Ed25519' } : {});
  return { alg, privateKey: pair.privateKey, publicJwk: await exportJWK(pair.publicKey) };
}

export const CARD_PATH = '/.well-known/agent-card.json';

/**
 * A 1.0 card whose interfaces are on `origin`, written the way SDK users write them: with the
 * proto3 defaults a typed `AgentCard` literal carries (`tenant: ""`, `extensions: []`,
 * `examples: []`), which the A2A 1.0 canonical form drops and plain RFC 8785 keeps.
 */
export function agentCard(origin: string, overrides: CardJson = {}): CardJson {
  return {
    name: 'Recipe Agent',
    description: 'Finds recipes and plans meals.',
    version: '1.2.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
    ],
    provider: { organization: 'Example Foods', url: 'https://foods.example' },
    documentationUrl: `${origin}/docs`,
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT', description: '' } } },
    securityRequirements: [{ schemes: { bearer: { list: ['recipes:read'] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      { id: 'find-recipe', name: 'Find a recipe', description: 'Finds a recipe by ingredients.', tags: ['cooking', 'search'], examples: [], inputModes: [] },
    ],
    ...overrides,
  };
}

/** A card as A2A 0.3 wrote it (url + preferredTransport + protocolVersion 0.3.0). */
export function agentCard03(origin: string, overrides: CardJson = {}): CardJson {
  return {
    name: 'Legacy Agent',
    description: 'Speaks A2A 0.3.',
    url: `${origin}/a2a/jsonrpc`,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, transport: 'JSONRPC' },
      { url: `${origin}/a2a/grpc`, transport: 'GRPC' },
    ],
    version: '0.9.0',
    protocolVersion: '0.3.0',
    capabilities: { streaming: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes.', tags: ['test'] }],
    ...overrides,
  };
}

/** Signs with the SDK (`generateAgentCardSignature`): the A2A 1.0 canonical form, detached JWS. */
export async function signCard(
  card: CardJson,
  key: A2aKey,
  header: { kid: string; jku?: string; typ?: string },
  unprotected?: Record<string, unknown>,
): Promise<CardJson> {
  const sign = generateAgentCardSignature(key.privateKey, { alg: key.alg, typ: 'JOSE', ...header }, unprotected);
  return (await sign(card as unknown as AgentCard)) as unknown as CardJson;
}

/**
 * Signs over plain RFC 8785 of the card minus `signatures` (what a naive signer does), with
 * jose's flattened JWS and svc's RFC 8785 serialiser.
 */
export async function signCardRfc8785(card: CardJson, key: A2aKey, header: { kid: string; jku?: string }): Promise<CardJson> {
  const { signatures: _previous, ...unsigned } = card;
  const jws = await new FlattenedSign(new TextEncoder().encode(canonicalize(unsigned)))
    .setProtectedHeader({ alg: key.alg, typ: 'JOSE', ...header })
    .sign(key.privateKey);
  const previous = Array.isArray(card['signatures']) ? (card['signatures'] as unknown[]) : [];
  return { ...card, signatures: [...previous, { protected: jws.protected, signature: jws.signature }] };
}

export interface CardAppOptions {
  /** The SDK's 0.3 compatibility layer (a 0.3-shaped card unless the request says A2A-Version ≥ 1.0). */
  legacyCompat?: boolean;
  /** Request headers of every request the app sees, in order. */
  seen?: IncomingHttpHeaders[];
}

/** An express app serving `card` with the SDK's `agentCardHandler` at the well-known path. */
export function cardApp(card: CardJson | (() => CardJson), options: CardAppOptions = {}): Handler {
  const app = express();
  app.use(
    CARD_PATH,
    agentCardHandler({
      agentCardProvider: async () => (typeof card === 'function' ? card() : card) as unknown as AgentCard,
      ...(options.legacyCompat ? { legacyCompat: { enabled: true } } : {}),
    }),
  );
  return (req, res) => {
    options.seen?.push({ ...req.headers });
    app(req, res);
  };
}

/** Routes the well-known path of `server` to the SDK handler serving `card`. */
export function serveCard(server: TestHttpsServer, card: CardJson | (() => CardJson), options: CardAppOptions = {}): void {
  server.route(CARD_PATH, cardApp(card, options));
}

/** Serves a JWK set of the public keys at `path` on `server`; returns its URL. */
export function publishJwks(server: TestHttpsServer, keys: Array<{ key: A2aKey; kid: string; extra?: Record<string, unknown> }>, path = '/jwks.json'): string {
  server.route(
    path,
    json(
      { keys: keys.map(({ key, kid, extra }) => ({ ...key.publicJwk, kid, use: 'sig', alg: key.alg, ...extra })) },
      { contentType: 'application/jwk-set+json' },
    ),
  );
  return `${server.origin}${path}`;
}

/** A DID document listing each key as a JsonWebKey under the relationships given. */
export function agentDidDocument(did: string, keys: Array<{ fragment: string; key: A2aKey; relationships: string[] }>): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/jwk/v1'],
    id: did,
    verificationMethod: keys.map(({ fragment, key }) => ({
      id: `${did}#${fragment}`,
      type: 'JsonWebKey',
      controller: did,
      publicKeyJwk: { kty: key.publicJwk.kty, crv: key.publicJwk.crv, x: key.publicJwk.x, ...(key.publicJwk.y ? { y: key.publicJwk.y } : {}) },
    })),
  };
  for (const { fragment, relationships } of keys) {
    for (const r of relationships) {
      const list = (doc[r] as string[] | undefined) ?? [];
      list.push(`${did}#${fragment}`);
      doc[r] = list;
    }
  }
  return doc;
}
