/**
 * Card signature entries judged one by one (src/core/a2a/signatures.ts), with keys from an
 * injected KeySource (the documented test seam of credentials/keys.ts) so no network is
 * needed: malformed entries, unsupported algorithms, key relationships, the payload forms, the
 * per-card bound. Signing uses @a2a-js/sdk and jose, never svc's own code.
 */
import { FlattenedSign } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardPayloads, verifyCardSignatures, type SignatureOutcome } from '../../src/core/a2a/signatures.js';
import { A2A_MAX_SIGNATURES } from '../../src/core/a2a/types.js';
import type { ControllerKey, KeySource } from '../../src/core/credentials/keys.js';
import { parseJsonStrict, type JsonObject, type JsonValue } from '../../src/core/encoding/json.js';
import type { Relationship } from '../../src/core/resolve/types.js';
import { a2aKey, agentCard, signCard, signCardRfc8785, type A2aKey, type CardJson } from '../support/a2a-agent.js';
import { testRuntime } from '../support/runtime.js';

const DID = 'did:web:agent.example';
const ORIGIN = 'https://agent.example';
let es256: A2aKey;
let es384: A2aKey;
let ed25519: A2aKey;

beforeAll(async () => {
  [es256, es384, ed25519] = await Promise.all([a2aKey('ES256'), a2aKey('ES384'), a2aKey('EdDSA')]);
});

function controllerKey(fragment: string, key: A2aKey, relationships: Relationship[]): ControllerKey {
  const { kty, crv, x, y } = key.publicJwk as { kty: string; crv: string; x: string; y?: string };
  return {
    id: `${DID}#${fragment}`,
    type: 'JsonWebKey',
    status: 'VALID_KEY',
    curve: crv,
    publicJwk: { kty, crv, x, ...(y ? { y } : {}) },
    thumbprint: null,
    relationships,
    detail: null,
  };
}

/** Keys of DID only; `deactivated` as given. */
function keySource(keys: ControllerKey[], deactivated = false): KeySource {
  return {
    async keysOf(controller) {
      if (controller !== DID) return { ok: false, controller, reason: `${controller} did not resolve: no such host`, resolution: null };
      return { ok: true, controller, keys, deactivated, resolution: null, enriched: null };
    },
  };
}

async function verify(card: CardJson, keys: KeySource): Promise<SignatureOutcome[]> {
  const parsed = parseJsonStrict(JSON.stringify(card)) as JsonObject;
  const entries = (parsed['signatures'] ?? []) as JsonValue[];
  return verifyCardSignatures(entries, { runtime: testRuntime(), keys, cardUrl: `${ORIGIN}/.well-known/agent-card.json`, ...cardPayloadsOf(parsed) });
}

function cardPayloadsOf(card: JsonObject) {
  const { a2aForm: _form, ...rest } = cardPayloads(card);
  return rest;
}

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('keys from a DID kid', () => {
  it('ES256, EdDSA and ES384 keys under assertionMethod: VALID over the A2A 1.0 form', async () => {
    const keys = keySource([
      controllerKey('p256', es256, ['assertionMethod']),
      controllerKey('ed', ed25519, ['assertionMethod']),
      controllerKey('p384', es384, ['assertionMethod']),
    ]);
    let card = await signCard(agentCard(ORIGIN), es256, { kid: `${DID}#p256` });
    card = await signCard(card, ed25519, { kid: `${DID}#ed` });
    card = await signCard(card, es384, { kid: `${DID}#p384` });
    const out = await verify(card, keys);
    expect(out.map((s) => [s.alg, s.status, s.canonicalization, s.keySource])).toEqual([
      ['ES256', 'VALID', 'a2a-1.0', 'did'],
      ['EdDSA', 'VALID', 'a2a-1.0', 'did'],
      ['ES384', 'VALID', 'a2a-1.0', 'did'],
    ]);
  });

  it('a key under authentication only, a key not in the document, a deactivated DID: INVALID', async () => {
    const card = await signCard(agentCard(ORIGIN), es256, { kid: `${DID}#login` });
    expect((await verify(card, keySource([controllerKey('login', es256, ['authentication'])])))[0]).toMatchObject({
      status: 'INVALID',
      detail: `The key "${DID}#login" is not authorised for assertionMethod (it is listed only under authentication).`,
    });
    expect((await verify(card, keySource([controllerKey('other', es256, ['assertionMethod'])])))[0]).toMatchObject({
      status: 'INVALID',
      detail: `"${DID}#login" is not a verification method in the DID document of ${DID}.`,
    });
    expect((await verify(card, keySource([controllerKey('login', es256, ['assertionMethod'])], true)))[0]).toMatchObject({
      status: 'INVALID',
      detail: `${DID} is deactivated; its keys authorise nothing.`,
    });
  });

  it('a DID that does not resolve: INDETERMINATE with the resolver reason, DID kept as written', async () => {
    const card = await signCard(agentCard(ORIGIN), es256, { kid: 'did:web:elsewhere.example#k' });
    expect((await verify(card, keySource([])))[0]).toMatchObject({
      status: 'INDETERMINATE',
      detail: 'did:web:elsewhere.example did not resolve: no such host.',
    });
  });

  it('a key of the wrong curve for the algorithm: INVALID, naming both', async () => {
    const card = await signCard(agentCard(ORIGIN), ed25519, { kid: `${DID}#k` });
    const [out] = await verify(card, keySource([controllerKey('k', es256, ['assertionMethod'])]));
    expect(out).toMatchObject({ status: 'INVALID', canonicalization: null });
    expect(out!.detail).toBe(
      `The key is a P-256 key, but EdDSA signs with Ed25519 (payloads tried: a2a-1.0 and rfc8785); key: "${DID}#k", authorised for assertionMethod.`,
    );
  });
});

describe('payload forms', () => {
  it('signed over plain RFC 8785: VALID rfc8785; the A2A 1.0 form is tried first', async () => {
    const card = await signCardRfc8785(agentCard(ORIGIN), es256, { kid: `${DID}#k` });
    const [out] = await verify(card, keySource([controllerKey('k', es256, ['assertionMethod'])]));
    expect(out).toMatchObject({ status: 'VALID', canonicalization: 'rfc8785' });
  });

  it('a card whose two forms coincide: one payload, reported as a2a-1.0 and said to be identical', async () => {
    const minimal: CardJson = {
      name: 'n',
      description: 'd',
      version: '1',
      supportedInterfaces: [{ url: `${ORIGIN}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 's', name: 'S', description: 'D', tags: ['t'] }],
    };
    const payloads = cardPayloads(parseJsonStrict(JSON.stringify(minimal)) as JsonObject);
    expect(payloads.payloads.map((p) => p.form)).toEqual(['a2a-1.0']);
    const card = await signCardRfc8785(minimal, es256, { kid: `${DID}#k` });
    const [out] = await verify(card, keySource([controllerKey('k', es256, ['assertionMethod'])]));
    expect(out).toMatchObject({ status: 'VALID', canonicalization: 'a2a-1.0', detail: expect.stringContaining('(here identical to its RFC 8785 form)') });
  });

  it('a card for which the A2A 1.0 form is undefined (a null skill) is still checked over RFC 8785', async () => {
    const base = agentCard(ORIGIN, { skills: [null] });
    const payloads = cardPayloads(parseJsonStrict(JSON.stringify(base)) as JsonObject);
    expect(payloads.payloads.map((p) => p.form)).toEqual(['rfc8785']);
    expect(payloads.a2aFormError).toBe('skills[0] is null where the schema expects AgentSkill');
    const valid = await signCardRfc8785(base, es256, { kid: `${DID}#k` });
    const keys = keySource([controllerKey('k', es256, ['assertionMethod'])]);
    expect((await verify(valid, keys))[0]).toMatchObject({ status: 'VALID', canonicalization: 'rfc8785' });
    const tampered = { ...valid, name: 'Other' };
    expect((await verify(tampered, keys))[0]!.detail).toBe(
      `The ES256 signature does not verify (payloads tried: rfc8785; the A2A 1.0 canonical form is undefined for this card (skills[0] is null where the schema expects AgentSkill)); key: "${DID}#k", authorised for assertionMethod.`,
    );
  });
});

describe('malformed and unsupported entries', () => {
  const keys = () => keySource([controllerKey('k', es256, ['assertionMethod'])]);
  const entryCard = (...signatures: unknown[]): CardJson => agentCard(ORIGIN, { signatures });

  it('entries that are not detached JWS: INVALID with the reason', async () => {
    const good = b64({ alg: 'ES256', kid: `${DID}#k` });
    const out = await verify(
      entryCard(
        'eyJhbGciOiJFUzI1NiJ9',
        { signature: 'AAAA' },
        { protected: good, signature: 'AAAA', header: 'jku' },
        { protected: 'not base64url!', signature: 'AAAA' },
        { protected: b64('{"alg":"ES256","alg":"EdDSA","kid":"k"}'), signature: 'AAAA' },
        { protected: b64({ alg: 'ES256' }), signature: 'AAAA' },
        { protected: good, signature: 'AAAA', header: { kid: 'other' } },
        { protected: good, signature: 'AAAA', header: { jku: 5 } },
      ),
      keys(),
    );
    expect(out.map((s) => [s.status, s.detail])).toEqual([
      ['INVALID', 'The entry signatures[0] is not an object.'],
      ['INVALID', 'The entry signatures[1] has no "protected" string.'],
      ['INVALID', 'The header of signatures[2] is not an object.'],
      ['INVALID', 'The protected header is not canonical unpadded base64url.'],
      ['INVALID', 'The protected header has a duplicate member "alg" (at /alg), which parsers resolve differently.'],
      ['INVALID', 'The protected header has no "kid", which A2A 1.0 §8.4 requires.'],
      ['INVALID', 'The header parameter "kid" appears in both the protected and the unprotected header (RFC 7515 §7.2.1).'],
      ['INVALID', 'The header parameter "jku" is not a string.'],
    ]);
  });

  it('algorithms and extensions svc does not verify: UNSUPPORTED, with alg and kid still reported', async () => {
    const out = await verify(
      entryCard(
        { protected: b64({ alg: 'none', kid: 'k' }), signature: 'AAAA' },
        { protected: b64({ alg: 'RS256', kid: 'k' }), signature: 'AAAA' },
        { protected: b64({ alg: 'ES256', kid: `${DID}#k`, crit: ['exp'], exp: 1 }), signature: 'AAAA' },
      ),
      keys(),
    );
    expect(out.map((s) => [s.status, s.alg, s.kid])).toEqual([
      ['UNSUPPORTED', 'none', 'k'],
      ['UNSUPPORTED', 'RS256', 'k'],
      ['UNSUPPORTED', 'ES256', `${DID}#k`],
    ]);
    expect(out[0]!.detail).toBe('The algorithm "none" (an unsecured JWS) is not accepted.');
  });

  it(`at most ${A2A_MAX_SIGNATURES} entries are verified; the rest are INDETERMINATE`, async () => {
    const one = (await signCard(agentCard(ORIGIN), es256, { kid: `${DID}#k` }))['signatures'] as unknown[];
    const out = await verify(entryCard(...Array.from({ length: A2A_MAX_SIGNATURES + 2 }, () => one[0])), keys());
    expect(out.filter((s) => s.status === 'VALID')).toHaveLength(A2A_MAX_SIGNATURES);
    expect(out.slice(A2A_MAX_SIGNATURES).map((s) => [s.status, s.detail])).toEqual([
      ['INDETERMINATE', `Not verified: svc verifies at most ${A2A_MAX_SIGNATURES} signatures per card.`],
      ['INDETERMINATE', `Not verified: svc verifies at most ${A2A_MAX_SIGNATURES} signatures per card.`],
    ]);
  });

  it('a padded signature is malformed; an unprotected header that shares no name with the protected one is accepted (the signature then decides)', async () => {
    const card = await signCard(agentCard(ORIGIN), es256, { kid: `${DID}#k` });
    const [entry] = card['signatures'] as Array<{ protected: string; signature: string }>;
    const padded = { ...entry!, signature: `${entry!.signature}=` };
    expect((await verify(entryCard(padded), keys()))[0]).toMatchObject({ status: 'INVALID', detail: 'The signature is not canonical unpadded base64url.' });
    // Signed over another payload ("{}"), with an unprotected header: the header is fine, the signature is not.
    const jws = await new FlattenedSign(new TextEncoder().encode('{}'))
      .setProtectedHeader({ alg: 'ES256', kid: `${DID}#k` })
      .setUnprotectedHeader({ note: 'x' })
      .sign(es256.privateKey);
    expect((await verify(entryCard({ protected: jws.protected, signature: jws.signature, header: jws.header }), keys()))[0]).toMatchObject({
      status: 'INVALID',
      detail: expect.stringMatching(/^The ES256 signature does not verify \(payloads tried: a2a-1\.0 and rfc8785\); key: /),
    });
  });
});
