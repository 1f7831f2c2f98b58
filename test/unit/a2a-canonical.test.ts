/**
 * svc's A2A 1.0 canonical form (src/core/a2a/canonical.ts) against the reference signer,
 * @a2a-js/sdk 1.3.0 `canonicalizeAgentCard`: the same text for hand-written cards that exercise
 * every rule (proto3 defaults, unknown members, proto field names, oneofs, Struct params, type
 * coercion), for cards the SDK cannot canonicalise (both refuse), and for a few hundred
 * generated cards. Also: what the form leaves out is reported in `uncovered`.
 */
import { canonicalizeAgentCard, type AgentCard } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { canonicalizeA2aCard } from '../../src/core/a2a/canonical.js';
import { canonicalize } from '../../src/core/canonical.js';
import { parseJsonStrict, type JsonObject } from '../../src/core/encoding/json.js';

/** The card as svc would hold it: parsed by the strict parser from its JSON text. */
function parsed(card: unknown): JsonObject {
  return parseJsonStrict(JSON.stringify(card)) as JsonObject;
}

function sdk(card: unknown): string | { error: true } {
  try {
    return canonicalizeAgentCard(JSON.parse(JSON.stringify(card)) as AgentCard);
  } catch {
    return { error: true };
  }
}

function svc(card: unknown): string | { error: true } {
  const form = canonicalizeA2aCard(parsed(card));
  return 'error' in form ? { error: true } : form.text;
}

const base = {
  name: 'Recipe Agent',
  description: 'Finds recipes.',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'https://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's1', name: 'Skill', description: 'Does it.', tags: ['t'] }],
};

const CARDS: Record<string, unknown> = {
  'a minimal card': base,
  'empty lists the SDK drops (extensions, examples, inputModes)': {
    ...base,
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] },
    skills: [{ ...base.skills[0], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
  },
  'unknown vendor members at every depth': {
    ...base,
    xVendorField: { tier: 'gold' },
    supportedInterfaces: [{ ...base.supportedInterfaces[0], xRegion: 'eu' }],
    skills: [{ ...base.skills[0], xCost: 3 }],
    capabilities: { streaming: true, xBeta: true },
  },
  'security requirements with empty scope lists': {
    ...base,
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: {} }, {}],
    skills: [{ ...base.skills[0], securityRequirements: [{ schemes: { bearer: { list: ['read', ''] } } }] }],
  },
  'nested oauth flows, every flow type and scopes with empty values': {
    ...base,
    securitySchemes: {
      code: {
        oauth2SecurityScheme: {
          description: '',
          flows: {
            authorizationCode: {
              authorizationUrl: 'https://a/auth',
              tokenUrl: 'https://a/token',
              refreshUrl: '',
              scopes: { read: 'Read', write: '' },
              pkceRequired: true,
            },
          },
          oauth2MetadataUrl: 'https://a/.well-known/oauth-authorization-server',
        },
      },
      cc: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://a/token', scopes: {} } } } },
      device: {
        oauth2SecurityScheme: { flows: { deviceCode: { deviceAuthorizationUrl: 'https://a/device', tokenUrl: 'https://a/token', scopes: { x: 'y' } } } },
      },
      implicit: { oauth2SecurityScheme: { flows: { implicit: { authorizationUrl: 'https://a/auth', scopes: { a: 'b' } } } } },
      password: { oauth2SecurityScheme: { flows: { password: { tokenUrl: 'https://a/token', scopes: {} } } } },
      pkceOff: {
        oauth2SecurityScheme: {
          flows: { authorizationCode: { authorizationUrl: 'https://a', tokenUrl: 'https://b', scopes: { s: 'S' }, pkceRequired: false } },
        },
      },
    },
    securityRequirements: [{ schemes: { code: { list: ['read'] }, cc: { list: [] } } }],
  },
  'every other security scheme, an empty mTLS scheme, and two oneof cases at once': {
    ...base,
    securitySchemes: {
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key', description: 'API key' } },
      oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://id.example/.well-known/openid-configuration' } },
      mtls: { mtlsSecurityScheme: {} },
      mtlsDescribed: { mtlsSecurityScheme: { description: 'client certificates' } },
      both: { apiKeySecurityScheme: { location: 'query', name: 'k' }, httpAuthSecurityScheme: { scheme: 'Basic' } },
      flows2: {
        oauth2SecurityScheme: {
          flows: { clientCredentials: { tokenUrl: 'https://t' }, authorizationCode: { authorizationUrl: 'https://a', tokenUrl: 'https://t' } },
        },
      },
      empty: {},
    },
  },
  'extensions with Struct params holding nulls, empty values, numbers and false': {
    ...base,
    capabilities: {
      streaming: true,
      extensions: [
        {
          uri: 'https://ext.example/a',
          description: '',
          required: false,
          params: { n: 0, f: false, e: '', z: null, list: [1, '', null, [], {}, { k: '' }], deep: { a: { b: {} } }, s: 'x', big: 1e21, neg: -0.5 },
        },
        { uri: 'https://ext.example/b', required: true, params: {} },
        { uri: 'https://ext.example/c', params: ['a', '', null] },
        {},
      ],
    },
  },
  'proto field names (snake_case) and both spellings at once': {
    name: 'Snake',
    description: 'd',
    version: 'v',
    supported_interfaces: [{ url: 'https://s/a2a', protocol_binding: 'GRPC', protocol_version: '1.0' }],
    default_input_modes: ['text/plain'],
    defaultOutputModes: ['a/b'],
    default_output_modes: ['c/d'],
    documentation_url: 'https://s/docs',
    icon_url: '',
    capabilities: { push_notifications: true, extended_agent_card: false },
    security_schemes: { k: { api_key_security_scheme: { location: 'cookie', name: 'sid' } } },
    skills: [{ id: 'x', name: 'X', description: 'D', tags: ['t'], input_modes: ['text/plain'], security_requirements: [{ schemes: { k: { list: ['a'] } } }] }],
  },
  'values of the wrong JSON type, coerced as the SDK reads them': {
    ...base,
    name: 42,
    version: true,
    description: ['a', null, ['b', 'c']],
    capabilities: { streaming: 'false', pushNotifications: 0, extendedAgentCard: 'yes' },
    defaultInputModes: ['text/plain', 7, null, false],
    provider: 'Example Corp',
    supportedInterfaces: [{ url: 'https://a/b', protocolBinding: 'JSONRPC', protocolVersion: 1 }, 'https://c/d', 5, []],
    skills: [{ id: 1, name: { a: 1 }, description: 'x', tags: 'not-a-list' }],
    securitySchemes: { s: { httpAuthSecurityScheme: { scheme: { toStringish: 1 } } } },
  },
  'required members empty or missing (capabilities {}, skills [], no name)': {
    description: 'only a description',
    version: '',
    supportedInterfaces: [],
    capabilities: {},
    defaultInputModes: [''],
    defaultOutputModes: [],
    skills: [],
  },
  'unicode, escapes and key order': {
    ...base,
    name: 'Agent \u00e9\u00e8 \u2028 \ud83d\ude00 "quoted" \\ back',
    description: 'line\nbreak\ttab \u0001 control',
    skills: [{ ...base.skills[0], tags: ['zeta', 'alpha', 'Ä', 'a'] }],
  },
  'members named __proto__ in maps and Struct params': JSON.parse(
    '{"name":"p","description":"d","version":"1","capabilities":{"extensions":[{"uri":"u","params":{"__proto__":{"x":1},"ok":1}}]},"securitySchemes":{"__proto__":{"mtlsSecurityScheme":{"description":"m"}},"real":{"mtlsSecurityScheme":{"description":"r"}}},"__proto__":{"name":"shadow"}}',
  ),
  'a card already carrying signatures (left out)': {
    ...base,
    signatures: [{ protected: 'eyJhbGciOiJFUzI1NiJ9', signature: 'c2ln', header: { kid: 'k' } }],
  },
  'a 0.3-shaped card (url, protocolVersion) read as 1.0': {
    name: 'Legacy',
    description: 'd',
    url: 'https://legacy.example/a2a',
    version: '1',
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    capabilities: { streaming: true, stateTransitionHistory: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'a', name: 'A', description: 'A', tags: ['t'] }],
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    security: [{ bearer: [] }],
  },
};

describe('A2A 1.0 canonical form agrees with @a2a-js/sdk canonicalizeAgentCard', () => {
  for (const [name, card] of Object.entries(CARDS)) {
    it(name, () => {
      expect(svc(card)).toEqual(sdk(card));
    });
  }

  it('the cards above really differ from plain RFC 8785 (the naive form fails SDK signatures)', () => {
    const differ = Object.values(CARDS).filter((card) => {
      const { signatures: _s, ...rest } = card as Record<string, unknown>;
      return sdk(card) !== canonicalize(rest);
    });
    expect(differ.length).toBeGreaterThanOrEqual(Object.keys(CARDS).length - 2);
  });

  it('both refuse cards the SDK cannot read: null list elements, null map values, objects with their own toString', () => {
    const refused = [
      { ...base, skills: [null] },
      { ...base, supportedInterfaces: [base.supportedInterfaces[0], null] },
      { ...base, securitySchemes: { s: null } },
      { ...base, signatures: [null] },
      { ...base, name: { toString: 'x' } },
      { ...base, skills: [{ ...base.skills[0], tags: [{ toString: 1 }] }] },
    ];
    for (const card of refused) {
      expect(sdk(card)).toEqual({ error: true });
      expect(svc(card)).toEqual({ error: true });
    }
    // A null scope list is read as empty by both (StringList is read with optional chaining).
    const tolerated = { ...base, securityRequirements: [{ schemes: { bearer: null } }] };
    expect(svc(tolerated)).toEqual(sdk(tolerated));
    expect(typeof svc(tolerated)).toBe('string');
  });

  it('agrees on 400 generated cards (seeded)', () => {
    const random = seeded(0xa2a);
    let differing = 0;
    let refused = 0;
    const texts = new Set<string>();
    for (let n = 0; n < 400; n++) {
      const card = generateCard(random);
      const expected = sdk(card);
      const actual = svc(card);
      if (JSON.stringify(expected) !== JSON.stringify(actual)) {
        differing++;
        expect({ card, actual }).toEqual({ card, actual: expected });
      }
      if (typeof expected === 'string') texts.add(expected);
      else refused++;
    }
    expect(differing).toBe(0);
    // The generator reaches both outcomes and many distinct forms, not one trivial card.
    expect(refused).toBeGreaterThan(0);
    expect(texts.size).toBeGreaterThan(300);
  });
});

describe('what the A2A 1.0 form leaves out', () => {
  it('lists unknown members, dropped requirement entries, extra oneof cases and Struct members, not plain defaults', () => {
    const form = canonicalizeA2aCard(
      parsed({
        ...base,
        xVendorField: 1,
        skills: [{ ...base.skills[0], examples: [], xNote: 'n' }],
        securitySchemes: {
          mtls: { mtlsSecurityScheme: {} },
          both: { apiKeySecurityScheme: { location: 'h', name: 'n' }, mtlsSecurityScheme: { description: 'x' } },
        },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        capabilities: { extensions: [{ uri: 'u', params: { keep: 1, gone: '' } }] },
        supportedInterfaces: [{ ...base.supportedInterfaces[0], tenant: '' }],
      }),
    );
    if ('error' in form) throw new Error(form.error);
    expect(form.uncovered).toEqual(
      expect.arrayContaining([
        'xVendorField',
        'skills[0].xNote',
        'securitySchemes["mtls"]',
        'securitySchemes["both"].mtlsSecurityScheme',
        'securityRequirements[0].schemes["bearer"]',
        'capabilities.extensions[0].params["gone"]',
      ]),
    );
    expect(form.uncovered).toHaveLength(6);
    expect(form.uncoveredSecurity).toEqual(
      expect.arrayContaining(['securitySchemes["mtls"]', 'securitySchemes["both"].mtlsSecurityScheme', 'securityRequirements[0].schemes["bearer"]']),
    );
    expect(form.uncoveredSecurity).toHaveLength(3);
  });

  it('a card with nothing to normalise: the form is plain RFC 8785 and nothing is uncovered', () => {
    const form = canonicalizeA2aCard(parsed(base));
    if ('error' in form) throw new Error(form.error);
    const { supportedInterfaces, ...rest } = base;
    const withoutTenant = { ...rest, supportedInterfaces: supportedInterfaces.map(({ tenant: _t, ...i }) => i) };
    expect(form.text).toBe(canonicalize(withoutTenant));
    expect(form.uncovered).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Generated cards
// ---------------------------------------------------------------------------------------------

type Random = () => number;

/** mulberry32: a small deterministic PRNG, so a failure reproduces. */
function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generateCard(random: Random): Record<string, unknown> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  const str = () => pick(['', 'a', 'text/plain', 'https://x.example/a2a', 'Ω', '0', 'null', ' ']);
  /** Usually the right type, sometimes the empty value, sometimes something else entirely. */
  const scalar = (good: () => unknown) => (chance(0.75) ? good() : pick<unknown>(['', 0, 1, false, true, [], {}, ['x', 2], null, 'x']));
  const list = <T>(item: () => T, max = 3): T[] => Array.from({ length: Math.floor(random() * (max + 1)) }, item);
  const maybe = (obj: Record<string, unknown>, key: string, value: () => unknown, p = 0.6) => {
    if (chance(p)) obj[chance(0.1) ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : key] = value();
  };
  const struct = (depth = 0): unknown => {
    if (depth > 2 || chance(0.4)) return pick<unknown>(['', 0, -1.5, true, false, null, 'v', 1e-7]);
    if (chance(0.3)) return list(() => struct(depth + 1), 3);
    const o: Record<string, unknown> = {};
    for (const k of list(() => pick(['a', 'b', 'c', '']), 3)) o[k] = struct(depth + 1);
    return o;
  };
  const requirement = () => {
    const schemes: Record<string, unknown> = {};
    for (const k of list(() => pick(['bearer', 'key', 'oauth']), 2)) schemes[k] = chance(0.9) ? { list: list(str, 2) } : null;
    return chance(0.9) ? { schemes } : {};
  };
  const flow = () => {
    const f: Record<string, unknown> = {};
    maybe(f, 'authorizationUrl', () => scalar(str));
    maybe(f, 'tokenUrl', () => scalar(str));
    maybe(f, 'refreshUrl', () => scalar(str));
    maybe(f, 'deviceAuthorizationUrl', () => scalar(str), 0.3);
    maybe(f, 'scopes', () => Object.fromEntries(list(() => [pick(['r', 'w', '']), scalar(str)] as const, 2)));
    maybe(f, 'pkceRequired', () => scalar(() => chance(0.5)), 0.4);
    return f;
  };
  const scheme = () => {
    const s: Record<string, unknown> = {};
    const cases = ['apiKeySecurityScheme', 'httpAuthSecurityScheme', 'oauth2SecurityScheme', 'openIdConnectSecurityScheme', 'mtlsSecurityScheme'];
    for (const c of list(() => pick(cases), 2)) {
      const inner: Record<string, unknown> = {};
      maybe(inner, 'description', () => scalar(str));
      maybe(inner, 'location', () => scalar(str), 0.4);
      maybe(inner, 'name', () => scalar(str), 0.4);
      maybe(inner, 'scheme', () => scalar(str), 0.4);
      maybe(inner, 'bearerFormat', () => scalar(str), 0.3);
      maybe(inner, 'openIdConnectUrl', () => scalar(str), 0.3);
      maybe(inner, 'oauth2MetadataUrl', () => scalar(str), 0.3);
      if (c === 'oauth2SecurityScheme') {
        const flows: Record<string, unknown> = {};
        for (const fl of list(() => pick(['authorizationCode', 'clientCredentials', 'implicit', 'password', 'deviceCode']), 2)) flows[fl] = flow();
        inner['flows'] = flows;
      }
      s[chance(0.1) ? c.replace(/[A-Z]/g, (x) => `_${x.toLowerCase()}`) : c] = inner;
    }
    if (chance(0.1)) s['xOther'] = 1;
    return s;
  };
  const card: Record<string, unknown> = {};
  maybe(card, 'name', () => scalar(str), 0.9);
  maybe(card, 'description', () => scalar(str), 0.9);
  maybe(card, 'version', () => scalar(str), 0.9);
  maybe(card, 'supportedInterfaces', () =>
    list(() => {
      const i: Record<string, unknown> = {};
      maybe(i, 'url', () => scalar(str), 0.9);
      maybe(i, 'protocolBinding', () => scalar(() => pick(['JSONRPC', 'GRPC', 'HTTP+JSON', ''])), 0.9);
      maybe(i, 'protocolVersion', () => scalar(() => pick(['1.0', '0.3', ''])), 0.9);
      maybe(i, 'tenant', () => scalar(str), 0.4);
      if (chance(0.1)) i['xZone'] = 'z';
      return chance(0.93) ? i : pick<unknown>(['', 3, [], null]);
    }),
  );
  maybe(card, 'provider', () => ({ url: scalar(str), organization: scalar(str) }), 0.5);
  maybe(card, 'documentationUrl', () => scalar(str), 0.4);
  maybe(card, 'iconUrl', () => scalar(str), 0.3);
  maybe(
    card,
    'capabilities',
    () => {
      const c: Record<string, unknown> = {};
      maybe(c, 'streaming', () => scalar(() => chance(0.5)));
      maybe(c, 'pushNotifications', () => scalar(() => chance(0.5)));
      maybe(c, 'extendedAgentCard', () => scalar(() => chance(0.5)), 0.3);
      maybe(c, 'extensions', () => list(() => ({ uri: scalar(str), description: scalar(str), required: scalar(() => chance(0.5)), params: struct() })));
      return c;
    },
    0.9,
  );
  maybe(card, 'securitySchemes', () => Object.fromEntries(list(() => [pick(['bearer', 'key', 'oauth', 'm']), scheme()] as const, 3)), 0.5);
  maybe(card, 'securityRequirements', () => list(requirement, 2), 0.4);
  maybe(card, 'defaultInputModes', () => list(() => scalar(str), 3), 0.8);
  maybe(card, 'defaultOutputModes', () => list(() => scalar(str), 3), 0.8);
  maybe(
    card,
    'skills',
    () =>
      list(() => {
        const s: Record<string, unknown> = { id: scalar(str), name: scalar(str), description: scalar(str), tags: list(() => scalar(str), 2) };
        maybe(s, 'examples', () => list(str, 2), 0.5);
        maybe(s, 'inputModes', () => list(str, 2), 0.3);
        maybe(s, 'outputModes', () => list(str, 2), 0.3);
        maybe(s, 'securityRequirements', () => list(requirement, 2), 0.3);
        if (chance(0.1)) s['xPrice'] = { amount: 1 };
        return s;
      }),
    0.8,
  );
  maybe(card, 'signatures', () => list(() => ({ protected: 'e30', signature: 'c2ln' }), 2), 0.2);
  if (chance(0.2)) card['xVendor'] = struct();
  return card;
}
