/**
 * The A2A card schemas (src/core/a2a/schema.ts) and the version rule (inspect.ts): which
 * problems are reported, in which words, and how a card's version is told.
 */
import { describe, expect, it } from 'vitest';
import { specVersionOf } from '../../src/core/a2a/inspect.js';
import { A2A_V03_SCHEMA, A2A_V1_SCHEMA, validateCard } from '../../src/core/a2a/schema.js';
import { cardTarget } from '../../src/core/a2a/fetch.js';
import { parseJsonStrict, type JsonObject } from '../../src/core/encoding/json.js';
import { agentCard, agentCard03 } from '../support/a2a-agent.js';

const card = (value: unknown) => parseJsonStrict(JSON.stringify(value)) as JsonObject;
const ORIGIN = 'https://agent.example';

describe('specVersion', () => {
  it('tells 1.0, 0.3 and unknown cards apart, and reads an SDK compat card by its interfaces', () => {
    expect(specVersionOf(card(agentCard(ORIGIN)))).toBe('1.0');
    expect(specVersionOf(card(agentCard03(ORIGIN)))).toBe('0.3');
    expect(specVersionOf(card(agentCard03(ORIGIN, { protocolVersion: '0.3' })))).toBe('0.3');
    // Both shapes: the 1.0 card (with a 1.x interface) wins; the SDK's 0.3 answer (only 0.3 interfaces) stays 0.3.
    const both = {
      ...agentCard03(ORIGIN, { protocolVersion: '0.3' }),
      supportedInterfaces: [{ url: `${ORIGIN}/a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    };
    expect(specVersionOf(card(both))).toBe('1.0');
    expect(specVersionOf(card({ ...both, supportedInterfaces: [{ url: `${ORIGIN}/a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }] }))).toBe('0.3');
    // A 1.0-shaped card without a 1.x interface is still 1.0 (the version check then WARNs).
    expect(specVersionOf(card(agentCard(ORIGIN, { supportedInterfaces: [{ url: `${ORIGIN}/a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }] })))).toBe(
      '1.0',
    );
    expect(specVersionOf(card(agentCard03(ORIGIN, { protocolVersion: '0.2.5' })))).toBe('unknown');
    expect(specVersionOf(card({ name: 'x' }))).toBe('unknown');
  });
});

describe('A2A 1.0 schema', () => {
  it('a complete card has no problems; defaults like tenant "" and empty lists are fine', () => {
    expect(validateCard(card(agentCard(ORIGIN)), A2A_V1_SCHEMA)).toEqual({ problems: [], unknown: [] });
  });

  it('reports types, missing and empty required members, oneof violations, with paths of schema names and quoted keys', () => {
    const report = validateCard(
      card({
        ...agentCard(ORIGIN),
        name: '',
        supportedInterfaces: [],
        defaultInputModes: ['text/plain', 3],
        securitySchemes: {
          'odd "name"': { httpAuthSecurityScheme: { bearerFormat: 'JWT' } },
          both: { apiKeySecurityScheme: { location: 'header', name: 'k' }, mtlsSecurityScheme: {} },
          none: {},
          flows: { oauth2SecurityScheme: { flows: {} } },
          openapi: { type: 'http', scheme: 'bearer' },
        },
        securityRequirements: [{ schemes: { bearer: { list: 'read' } } }],
        skills: [null, { id: 'a', name: 'A', description: 'D', tags: [] }],
        signatures: [{ protected: 'e30' }],
        capabilities: { streaming: 'yes', extensions: [{ uri: 'u', params: [] }] },
        'x-vendor': true,
        provider: { url: 'https://p', organization: 'P', xRegion: 'eu' },
      }),
      A2A_V1_SCHEMA,
    );
    expect(report.problems).toEqual([
      'name is empty',
      'supportedInterfaces is empty',
      'capabilities.streaming is a string, not a boolean',
      'capabilities.extensions[0].params is an array, not an object',
      'securitySchemes["odd \\"name\\""].httpAuthSecurityScheme.scheme is missing',
      'securitySchemes["both"] sets apiKeySecurityScheme and mtlsSecurityScheme, of which only one may be set',
      'securitySchemes["none"] has none of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme',
      'securitySchemes["flows"].oauth2SecurityScheme.flows has none of authorizationCode, clientCredentials, implicit, password, deviceCode',
      'securitySchemes["openapi"] has none of apiKeySecurityScheme, httpAuthSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme',
      'securityRequirements[0].schemes["bearer"].list is a string, not an array',
      'defaultInputModes[1] is a number, not a string',
      'skills[0] is null, not an object',
      'signatures[0].signature is missing',
    ]);
    expect(report.unknown).toEqual(['["x-vendor"]', 'provider.xRegion', 'securitySchemes["openapi"].type', 'securitySchemes["openapi"].scheme']);
  });
});

describe('A2A 0.3 schema', () => {
  it('a 0.3 card is valid against 0.3 and not against 1.0', () => {
    expect(validateCard(card(agentCard03(ORIGIN)), A2A_V03_SCHEMA)).toEqual({ problems: [], unknown: [] });
    expect(validateCard(card(agentCard03(ORIGIN)), A2A_V1_SCHEMA).problems).toEqual(['supportedInterfaces is missing']);
  });

  it('reports 0.3 problems; OpenAPI-style security schemes are open objects with a type', () => {
    const report = validateCard(
      card(
        agentCard03(ORIGIN, {
          url: 5,
          additionalInterfaces: [{ url: 'https://x' }],
          securitySchemes: { b: { scheme: 'bearer' }, ok: { type: 'http', scheme: 'bearer' } },
          security: {},
        }),
      ),
      A2A_V03_SCHEMA,
    );
    expect(report.problems).toEqual([
      'url is a number, not a string',
      'additionalInterfaces[0].transport is missing',
      'securitySchemes["b"].type is missing',
      'security is an object, not an array',
    ]);
  });
});

describe('card URLs', () => {
  it('an origin means its well-known card; any other path is the card itself; not a URL is INVALID_REQUEST', () => {
    expect(cardTarget('https://agent.example')).toEqual({ url: new URL('https://agent.example/.well-known/agent-card.json'), origin: true });
    expect(cardTarget('https://agent.example/?q=1#x').url.href).toBe('https://agent.example/.well-known/agent-card.json');
    expect(cardTarget('https://agent.example:8443/cards/a.json#frag')).toEqual({ url: new URL('https://agent.example:8443/cards/a.json'), origin: false });
    expect(() => cardTarget('agent.example')).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});
