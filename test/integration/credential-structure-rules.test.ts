/**
 * The structural rules of VC Data Model 2.0 (and 1.1 where it states them) a verifier must
 * enforce (docs/credentials.md#structure-rules). Each credential below is signed correctly, so the
 * one broken rule is the only defect: it must come back MALFORMED, with a failing `structure` check
 * that names the rule and its section, and the proof check not run (the rules are checked before
 * any proof work). The negative cases follow the W3C VC Data Model 2.0 test suite's own vectors.
 */
import { describe, expect, it } from 'vitest';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { isVcdmUrl } from '../../src/core/credentials/vcdm-rules.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { unsignedCredential, VC1_CONTEXT } from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { generateTestKey, signEddsaJcs2022, signJws } from '../support/signing.js';

type Json = Record<string, unknown>;

const runtime = () => testRuntime(fixedClock('2025-06-01T00:00:00Z'));
const key = generateTestKey('EdDSA');
const did = `did:key:${key.multikey!}`;
const vm = `${did}#${key.multikey!}`;
const SUBJECT = { id: 'did:example:subject', name: 'Alice' };
const SRI = 'sha384-S57yQDg1MTzF56Oi9DbSQ14u7jBy0RDdx0YbeV7shwhCS88G8SCXeFq82PafhCrW';
const MULTIBASE = 'uEres1usWcWCmW7uolIW2uA0CjQ8iRV14eGaZIJ3lFmk';

/** A VC 2.0 credential with `change` applied (a member set to undefined is removed), signed eddsa-jcs-2022. */
function signed(change: Json, base: Json = unsignedCredential(did)): Json {
  const credential: Json = { ...base };
  for (const [name, value] of Object.entries(change)) {
    if (value === undefined) delete credential[name];
    else credential[name] = value;
  }
  return signEddsaJcs2022(credential, key, vm, '2025-01-01T00:00:00Z');
}

async function verify(credential: unknown): Promise<CredentialVerification> {
  return verifyCredential(credential, { runtime: runtime() });
}

function check(result: CredentialVerification, id: string) {
  return result.checks.find((c) => c.id === id)!;
}

async function expectRule(credential: unknown, rule: string, section: string, mentions: string): Promise<void> {
  const result = await verify(credential);
  const structure = check(result, 'structure');
  expect(result.status, structure.detail).toBe('MALFORMED');
  expect(result.valid).toBe(false);
  expect(structure.status).toBe('FAIL');
  expect(structure.detail).toContain(`rule "${rule}"`);
  expect(structure.detail).toContain(section);
  expect(structure.detail).toContain(mentions);
  // Before any proof work: the proof is not even looked at.
  expect(check(result, 'proof').status).toBe('SKIP');
}

const NOT_A_URL = 'https ://not-a-url/vcs/343cf54b';

interface Case {
  name: string;
  change: Json;
  rule: string;
  section: string;
  mentions: string;
}

const CASES: Case[] = [
  // §4.3 Contexts
  { name: '@context missing', change: { '@context': undefined }, rule: 'context', section: '§4.3 Contexts', mentions: 'no "@context"' },
  {
    name: 'first @context not the v2 URL',
    change: { '@context': ['https://www.w3.org/ns/credentials/examples/v2'] },
    rule: 'context',
    section: '§4.3',
    mentions: 'neither https://www.w3.org/ns/credentials/v2',
  },
  {
    name: 'a later @context a number',
    change: { '@context': ['https://www.w3.org/ns/credentials/v2', 123192875] },
    rule: 'context',
    section: '§4.3',
    mentions: '"@context"[1] is 123192875',
  },
  {
    name: 'a later @context not a URL',
    change: { '@context': ['https://www.w3.org/ns/credentials/v2', 'https ://not-a-url/contexts/example/v1'] },
    rule: 'context',
    section: '§4.3',
    mentions: 'must be a URL or an object',
  },
  // §4.4 Identifiers
  {
    name: 'credential id an array',
    change: { id: ['https://example.org/credentials/1', 'https://example.net/credentials/1'] },
    rule: 'id',
    section: '§4.4 Identifiers',
    mentions: 'an id must be a single URL',
  },
  { name: 'credential id null', change: { id: null }, rule: 'id', section: '§4.4', mentions: 'credential "id" null is not a URL' },
  { name: 'credential id not a URL', change: { id: NOT_A_URL }, rule: 'id', section: '§4.4', mentions: 'is not a URL' },
  {
    name: 'subject id an array',
    change: { credentialSubject: { id: ['did:example:one', 'did:example:two'] } },
    rule: 'id',
    section: '§4.4',
    mentions: '"credentialSubject" "id" is an array',
  },
  {
    name: 'subject id not a URL',
    change: { credentialSubject: { id: 'subject-one', name: 'Alice' } },
    rule: 'id',
    section: '§4.4',
    mentions: '"subject-one" is not a URL',
  },
  {
    name: 'status id not a URL',
    change: { credentialStatus: { id: NOT_A_URL, type: 'BitstringStatusListEntry' } },
    rule: 'id',
    section: '§4.4',
    mentions: '"credentialStatus" "id"',
  },
  {
    name: 'status id an array',
    change: { credentialStatus: { id: ['did:example:status:1', 'did:example:status:2'], type: 'BitstringStatusListEntry' } },
    rule: 'id',
    section: '§4.4',
    mentions: 'is an array',
  },
  // §4.5 Types
  { name: 'type missing', change: { type: undefined }, rule: 'type', section: '§4.5 Types', mentions: 'no "type"' },
  {
    name: 'type without VerifiableCredential',
    change: { type: ['RelationshipCredential'] },
    rule: 'type',
    section: '§4.5',
    mentions: 'does not include VerifiableCredential',
  },
  // §4.6 Names and Descriptions, §11.1 language value objects
  {
    name: 'name a number',
    change: { name: 42 },
    rule: 'names',
    section: '§4.6 Names and Descriptions',
    mentions: 'must be a string or a language value object',
  },
  {
    name: 'name with an extra member',
    change: { name: { '@value': 'Example Credential', '@language': 'en', url: 'did:example:credential' } },
    rule: 'languageValue',
    section: '§11.1',
    mentions: 'has the member "url"',
  },
  {
    name: 'description with an extra member',
    change: { description: { '@value': 'An Example Credential', '@language': 'en', url: 'did:example:credential' } },
    rule: 'languageValue',
    section: '§11.1',
    mentions: 'credential\'s "description"',
  },
  {
    name: 'issuer name with an extra member',
    change: { issuer: { id: did, name: { '@value': 'ExampleIssuer', '@language': 'en', url: 'did:example:issuer' } } },
    rule: 'languageValue',
    section: '§11.1',
    mentions: 'issuer\'s "name"',
  },
  {
    name: 'issuer description with an extra member',
    change: { issuer: { id: did, description: { '@value': 'An Example Issuer', '@language': 'en', url: 'did:example:issuer' } } },
    rule: 'languageValue',
    section: '§11.1',
    mentions: 'issuer\'s "description"',
  },
  { name: 'language value without @value', change: { name: { '@language': 'en' } }, rule: 'languageValue', section: '§11.1', mentions: 'no string "@value"' },
  {
    name: '@language not a language tag',
    change: { name: { '@value': 'Example', '@language': 'en us' } },
    rule: 'languageValue',
    section: '§11.1',
    mentions: 'not a well-formed BCP 47 language tag',
  },
  {
    name: '@direction neither ltr nor rtl',
    change: { name: { '@value': 'Example', '@direction': 'up' } },
    rule: 'languageValue',
    section: '§11.1',
    mentions: 'must be "ltr" or "rtl"',
  },
  // §4.7 Issuer
  { name: 'issuer missing', change: { issuer: undefined }, rule: 'issuer', section: '§4.7 Issuer', mentions: 'no "issuer"' },
  { name: 'issuer not a URL', change: { issuer: 'fake-issuer' }, rule: 'issuer', section: '§4.7', mentions: '"fake-issuer" is neither a URL' },
  { name: 'issuer null', change: { issuer: null }, rule: 'issuer', section: '§4.7', mentions: 'null is neither a URL' },
  { name: 'issuer object without id', change: { issuer: { name: 'Example Issuer' } }, rule: 'issuer', section: '§4.7', mentions: 'object has no "id"' },
  { name: 'issuer object id not a URL', change: { issuer: { id: 'fake-issuer' } }, rule: 'issuer', section: '§4.7', mentions: 'id "fake-issuer" is not a URL' },
  { name: 'issuer object id null', change: { issuer: { id: null } }, rule: 'issuer', section: '§4.7', mentions: 'id null is not a URL' },
  // §4.8 Credential Subject
  {
    name: 'credentialSubject missing',
    change: { credentialSubject: undefined },
    rule: 'credentialSubject',
    section: '§4.8 Credential Subject',
    mentions: 'no "credentialSubject"',
  },
  {
    name: 'credentialSubject empty',
    change: { credentialSubject: {} },
    rule: 'credentialSubject',
    section: '§4.8',
    mentions: 'is empty; each subject must make at least one claim',
  },
  {
    name: 'one of several subjects empty',
    change: { credentialSubject: [{ id: 'did:example:subject' }, {}] },
    rule: 'credentialSubject',
    section: '§4.8',
    mentions: '"credentialSubject"[1] is empty',
  },
  {
    name: 'credentialSubject a string',
    change: { credentialSubject: 'did:example:subject' },
    rule: 'credentialSubject',
    section: '§4.8',
    mentions: 'neither an object nor a non-empty array of objects',
  },
  {
    name: 'credentialSubject an empty array',
    change: { credentialSubject: [] },
    rule: 'credentialSubject',
    section: '§4.8',
    mentions: 'neither an object nor a non-empty array of objects',
  },
  // §4.9 Validity Period
  {
    name: 'validFrom not a dateTimeStamp',
    change: { validFrom: 'Sat 25 Feb 2023 07:16:31 PM CST' },
    rule: 'validity',
    section: '§4.9 Validity Period',
    mentions: 'is not a date-time with a time zone',
  },
  {
    name: 'validUntil before validFrom',
    change: { validFrom: '2025-03-01T00:00:00Z', validUntil: '2025-02-01T00:00:00Z' },
    rule: 'validity',
    section: '§4.9',
    mentions: '"validFrom" is later than "validUntil"',
  },
  // §4.10 Status
  {
    name: 'credentialStatus without type',
    change: { credentialStatus: { id: 'did:example:status' } },
    rule: 'credentialStatus',
    section: '§4.10 Status',
    mentions: '"credentialStatus" has no "type"',
  },
  {
    name: 'credentialStatus type a number',
    change: { credentialStatus: { id: 'did:example:status', type: 2 } },
    rule: 'credentialStatus',
    section: '§4.10',
    mentions: 'not one or more non-empty strings',
  },
  {
    name: 'credentialStatus not an object',
    change: { credentialStatus: ['https://example.org/status/1'] },
    rule: 'credentialStatus',
    section: '§4.10',
    mentions: 'not an object',
  },
  // §4.11 Data Schemas
  {
    name: 'credentialSchema without type',
    change: { credentialSchema: { id: 'did:example:schemas/1' } },
    rule: 'credentialSchema',
    section: '§4.11 Data Schemas',
    mentions: 'has no "type"',
  },
  {
    name: 'credentialSchema without id',
    change: { credentialSchema: { type: 'JsonSchema' } },
    rule: 'credentialSchema',
    section: '§4.11',
    mentions: 'has no "id"',
  },
  {
    name: 'credentialSchema id not a URL',
    change: { credentialSchema: { type: 'JsonSchema', id: 'https ://not-a-url.org/cd28a5c0' } },
    rule: 'id',
    section: '§4.4',
    mentions: '"credentialSchema" "id"',
  },
  // §5.3 Integrity of Related Resources
  {
    name: 'relatedResource an array of strings',
    change: { relatedResource: ['https://www.w3.org/ns/credentials/v2'] },
    rule: 'relatedResource',
    section: '§5.3 Integrity of Related Resources',
    mentions: 'not an object',
  },
  {
    name: 'relatedResource without id',
    change: { relatedResource: [{ digestMultibase: MULTIBASE }] },
    rule: 'relatedResource',
    section: '§5.3',
    mentions: 'has no "id"',
  },
  {
    name: 'relatedResource ids repeated',
    change: {
      relatedResource: [
        { id: 'https://example.org/a', digestSRI: SRI },
        { id: 'https://example.org/a', digestMultibase: MULTIBASE },
      ],
    },
    rule: 'relatedResource',
    section: '§5.3',
    mentions: 'repeats the id',
  },
  {
    name: 'relatedResource without a digest',
    change: { relatedResource: [{ id: 'https://example.org/a' }] },
    rule: 'relatedResource',
    section: '§5.3',
    mentions: 'neither "digestSRI" nor "digestMultibase"',
  },
  {
    name: 'relatedResource digestSRI malformed',
    change: { relatedResource: { id: 'https://example.org/a', digestSRI: 'md5-abc' } },
    rule: 'relatedResource',
    section: '§5.3',
    mentions: 'not Subresource Integrity metadata',
  },
  // §5.4–5.6 Refreshing, Terms of Use, Evidence
  {
    name: 'refreshService without type',
    change: { refreshService: { id: 'did:example:refresh/1' } },
    rule: 'refreshService',
    section: '§5.4 Refreshing',
    mentions: 'has no "type"',
  },
  { name: 'termsOfUse empty', change: { termsOfUse: {} }, rule: 'termsOfUse', section: '§5.5 Terms of Use', mentions: 'has no "type"' },
  { name: 'termsOfUse with only an id', change: { termsOfUse: { id: 'did:example:terms/1' } }, rule: 'termsOfUse', section: '§5.5', mentions: 'has no "type"' },
  { name: 'evidence empty', change: { evidence: {} }, rule: 'evidence', section: '§5.6 Evidence', mentions: 'has no "type"' },
  {
    name: 'one of several evidence entries without type',
    change: { evidence: [{ type: ['Evidence'] }, { id: 'https://example.org/evidence/2' }] },
    rule: 'evidence',
    section: '§5.6',
    mentions: '"evidence"[1] has no "type"',
  },
];

describe('VC Data Model 2.0 structure rules: each broken rule is MALFORMED, named, before any proof work', () => {
  it.each(CASES)('$name → MALFORMED, rule "$rule"', async ({ change, rule, section, mentions }) => {
    await expectRule(signed(change), rule, section, mentions);
  });

  it('every broken rule is listed, not only the first', async () => {
    const result = await verify(signed({ id: null, termsOfUse: {}, name: 7 }));
    const detail = check(result, 'structure').detail;
    for (const rule of ['id', 'termsOfUse', 'names']) expect(detail).toContain(`rule "${rule}"`);
  });

  it("a vc+jwt credential breaking a rule is MALFORMED too (the rules are the data model's, whatever secures it)", async () => {
    const payload = { ...unsignedCredential(did), evidence: {} };
    const jwt = signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid: vm }, payload, key);
    await expectRule(jwt, 'evidence', '§5.6', 'has no "type"');
    // The same payload with a typed evidence verifies: the rule, not the format, decided.
    const good = signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid: vm }, { ...payload, evidence: { type: 'Evidence' } }, key);
    expect((await verify(good)).status).toBe('VALID');
  });

  it('a VC 1.1 credential is held to the rules 1.1 states, named by its own sections', async () => {
    const base: Json = {
      '@context': [VC1_CONTEXT],
      type: ['VerifiableCredential'],
      issuer: did,
      issuanceDate: '2025-01-01T00:00:00Z',
      credentialSubject: { id: 'did:example:subject', name: 'Alice' },
    };
    expect((await verify(signed({}, base))).status).toBe('VALID');
    await expectRule(
      signed({ credentialStatus: { id: 'https://example.org/status/1' } }, base),
      'credentialStatus',
      'VC Data Model 1.1 §4.9 Status',
      'has no "type"',
    );
    await expectRule(
      signed({ credentialSchema: { id: 'https://example.org/schema/1' } }, base),
      'credentialSchema',
      'VC Data Model 1.1 §5.3 Data Schemas',
      'has no "type"',
    );
    await expectRule(signed({ issuer: 'fake-issuer' }, base), 'issuer', 'VC Data Model 1.1 §4.5 Issuer', 'fake-issuer');
    // 1.1 has no language value objects nor related resources: those members are not its rules.
    expect((await verify(signed({ name: 42, relatedResource: 'x' }, base))).status).toBe('VALID');
  });
});

describe('credentials that keep every rule still verify', () => {
  const VALID: Array<{ name: string; change: Json }> = [
    { name: 'name and description as strings', change: { name: 'Example Credential', description: 'An Example Credential' } },
    { name: 'name as a language value object with a direction', change: { name: { '@value': 'Example Credential', '@language': 'en', '@direction': 'ltr' } } },
    {
      name: 'name and description in several languages',
      change: {
        name: [
          { '@value': 'Dog', '@language': 'en' },
          { '@value': 'Chien', '@language': 'fr' },
        ],
        description: [{ '@value': 'Cane', '@language': 'it-IT' }],
      },
    },
    {
      name: 'an issuer object with a URL id, name and description',
      change: { issuer: { id: did, name: { '@value': 'Issuer', '@language': 'en' }, description: 'An issuer' } },
    },
    { name: 'several subjects, each with claims', change: { credentialSubject: [SUBJECT, { id: 'did:example:other', name: 'Bob' }] } },
    { name: 'a subject without an id', change: { credentialSubject: { name: 'Alice' } } },
    {
      name: 'extra contexts: a URL and an object',
      change: { '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2', { ex: 'https://example.org/#' }] },
    },
    { name: 'credentialSchema with a URL id and a type', change: { credentialSchema: [{ id: 'https://example.org/schema/1', type: 'JsonSchema' }] } },
    {
      name: 'typed termsOfUse, evidence and refreshService',
      change: {
        termsOfUse: { type: 'TrustFrameworkPolicy', id: 'https://example.org/policies/1' },
        evidence: [{ type: ['Evidence'] }],
        refreshService: { type: 'VerifiableCredentialRefreshService2021', id: 'https://example.org/refresh' },
      },
    },
    {
      name: 'relatedResource with digestSRI, digestMultibase and a mediaType',
      change: {
        relatedResource: [
          { id: 'https://www.w3.org/ns/credentials/v2', digestSRI: SRI, mediaType: 'application/ld+json' },
          { id: 'https://www.w3.org/ns/credentials/examples/v2', digestMultibase: MULTIBASE },
        ],
      },
    },
    {
      name: 'a urn:uuid id and validUntil after validFrom',
      change: { id: 'urn:uuid:9a1b7c1e-0000-4000-8000-000000000002', validUntil: '2026-01-01T00:00:00Z' },
    },
  ];

  it.each(VALID)('$name → VALID', async ({ change }) => {
    const result = await verify(signed(change));
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
  });

  it('related resources are not fetched: a limitation says their digests were checked for shape only', async () => {
    const result = await verify(signed({ relatedResource: { id: 'https://example.org/a', digestSRI: SRI } }));
    expect(result.status).toBe('VALID');
    expect(result.limitations.join(' ')).toContain('related resources were not fetched');
    expect((await verify(signed({}))).limitations.join(' ')).not.toContain('related resources');
  });
});

describe('isVcdmUrl', () => {
  it('takes a scheme, a colon and no white space; refuses the rest', () => {
    for (const url of ['https://example.org/a', 'did:example:123', 'urn:uuid:4c9f3a2e-0000-4000-8000-000000000001', 'data:,x'])
      expect(isVcdmUrl(url), url).toBe(true);
    for (const text of [
      'fake-issuer',
      'https ://not-a-url',
      ' https://example.org',
      'https://example.org/a b',
      'did:',
      ':x',
      '1abc:x',
      42,
      null,
      ['https://a'],
    ]) {
      expect(isVcdmUrl(text), JSON.stringify(text)).toBe(false);
    }
  });
});
