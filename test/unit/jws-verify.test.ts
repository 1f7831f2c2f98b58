/**
 * JWS fast-verify: the key comes from the DID in `kid`, resolved through the
 * core (did:key here, derived locally; did:web in the daemon tests).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyJws } from '../../src/core/jws/verify.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { b64url } from '../support/codec.js';
import { generateTestKey, signBytes, signJws, type TestKey } from '../support/signing.js';

const runtime = () => testRuntime(fixedClock());

function didKeyOf(key: TestKey): { did: string; kid: string } {
  const did = `did:key:${key.multikey!}`;
  return { did, kid: `${did}#${key.multikey!}` };
}

/** A JWS whose header text is written by hand (to hold what JSON.stringify cannot: duplicates). */
function rawJws(headerText: string, payloadText: string, key: TestKey): string {
  const input = `${b64url(headerText)}.${b64url(payloadText)}`;
  return `${input}.${b64url(signBytes(key.alg, key.privateKey, Buffer.from(input)))}`;
}

describe('verifyJws', () => {
  const key = generateTestKey('EdDSA');
  const { did, kid } = didKeyOf(key);

  it('VALID with the signer and the relationship that authorises the key (assertionMethod first)', async () => {
    const token = signJws({ alg: 'EdDSA', kid, typ: 'JWT' }, { hello: 'world' }, key);
    const result = await verifyJws(token, { runtime: runtime() });
    const [h, p] = token.split('.');
    expect(result).toEqual({
      status: 'VALID',
      valid: true,
      headline: expect.stringContaining('verifies with'),
      alg: 'EdDSA',
      kid,
      typ: 'JWT',
      payload: { hello: 'world' },
      signingInputSha256: createHash('sha256').update(`${h}.${p}`).digest('hex'),
      signer: did,
      relationship: 'assertionMethod',
    });
  });

  it('honours a named relationship, and refuses a key not authorised for it', async () => {
    const token = signJws({ alg: 'EdDSA', kid }, { a: 1 }, key);
    expect(await verifyJws(token, { runtime: runtime(), relationship: 'capabilityDelegation' })).toMatchObject({
      status: 'VALID',
      relationship: 'capabilityDelegation',
    });
    const refused = await verifyJws(token, { runtime: runtime(), relationship: 'keyAgreement' });
    expect(refused).toMatchObject({ status: 'INVALID', valid: false, headline: expect.stringContaining('not authorised for keyAgreement') });
    expect(refused).not.toHaveProperty('signer');
    expect(refused).not.toHaveProperty('relationship');
  });

  it('INVALID for a signature by another key, and for a kid that is not in the document', async () => {
    const other = generateTestKey('EdDSA');
    const forged = signJws({ alg: 'EdDSA', kid }, { a: 1 }, other);
    expect(await verifyJws(forged, { runtime: runtime() })).toMatchObject({ status: 'INVALID', headline: expect.stringContaining('does not verify') });
    const wrongKid = signJws({ alg: 'EdDSA', kid: `${did}#nope` }, { a: 1 }, key);
    expect(await verifyJws(wrongKid, { runtime: runtime() })).toMatchObject({
      status: 'INVALID',
      headline: expect.stringContaining('not a verification method'),
    });
  });

  it('INDETERMINATE when the kid is absent or not a DID URL', async () => {
    expect(await verifyJws(signJws({ alg: 'EdDSA' }, { a: 1 }, key), { runtime: runtime() })).toMatchObject({ status: 'INDETERMINATE', kid: null });
    expect(await verifyJws(signJws({ alg: 'EdDSA', kid: 'key-1' }, { a: 1 }, key), { runtime: runtime() })).toMatchObject({
      status: 'INDETERMINATE',
      headline: expect.stringContaining('not a DID URL'),
    });
    // A bare DID names no key.
    expect(await verifyJws(signJws({ alg: 'EdDSA', kid: did }, { a: 1 }, key), { runtime: runtime() })).toMatchObject({ status: 'INDETERMINATE' });
  });

  it('INDETERMINATE when the DID does not resolve (an unsupported method is no verdict on the signature)', async () => {
    const token = signJws({ alg: 'EdDSA', kid: 'did:example:123#k' }, { a: 1 }, key);
    expect(await verifyJws(token, { runtime: runtime() })).toMatchObject({ status: 'INDETERMINATE', headline: expect.stringContaining('did:example:123') });
  });

  it('MALFORMED for duplicate members in the decoded header or payload, before any key is looked up', async () => {
    const header = await verifyJws(rawJws(`{"alg":"EdDSA","kid":"${kid}","kid":"${did}#other"}`, '{"a":1}', key), { runtime: runtime() });
    expect(header).toMatchObject({ status: 'MALFORMED', headline: expect.stringContaining('duplicate member "kid"') });
    const payload = await verifyJws(rawJws(`{"alg":"EdDSA","kid":"${kid}"}`, '{"iss":"a","iss":"b"}', key), { runtime: runtime() });
    expect(payload).toMatchObject({ status: 'MALFORMED', headline: expect.stringContaining('duplicate member "iss"') });
  });

  it('refuses alg none, b64 false and any crit', async () => {
    const none = `${b64url(JSON.stringify({ alg: 'none', kid }))}.${b64url('{"a":1}')}.`;
    expect(await verifyJws(none, { runtime: runtime() })).toMatchObject({ status: 'UNSUPPORTED', alg: 'none' });
    const b64 = signJws({ alg: 'EdDSA', kid, b64: false, crit: ['b64'] }, { a: 1 }, key);
    expect(await verifyJws(b64, { runtime: runtime() })).toMatchObject({ status: 'UNSUPPORTED' });
    const crit = signJws({ alg: 'EdDSA', kid, crit: ['b64'], b64: true }, { a: 1 }, key);
    expect(await verifyJws(crit, { runtime: runtime() })).toMatchObject({ status: 'UNSUPPORTED', headline: expect.stringContaining('critical') });
  });

  it('MALFORMED for a string that is no compact JWS; a non-JSON payload is reported as base64url', async () => {
    expect(await verifyJws('not-a-jws', { runtime: runtime() })).toMatchObject({ status: 'MALFORMED', signingInputSha256: null });
    const input = `${b64url(JSON.stringify({ alg: 'EdDSA', kid }))}.${b64url('plain text')}`;
    const token = `${input}.${b64url(signBytes('EdDSA', key.privateKey, Buffer.from(input)))}`;
    expect(await verifyJws(token, { runtime: runtime() })).toMatchObject({ status: 'VALID', payload: b64url('plain text') });
  });

  it('verifies ES256 and ES256K signatures by P-256 and secp256k1 did:jwk keys', async () => {
    for (const alg of ['ES256', 'ES256K'] as const) {
      const ec = generateTestKey(alg);
      const jwkDid = `did:jwk:${b64url(JSON.stringify(ec.publicJwk))}`;
      const token = signJws({ alg, kid: `${jwkDid}#0` }, { a: 1 }, ec);
      expect(await verifyJws(token, { runtime: runtime() }), alg).toMatchObject({ status: 'VALID', signer: jwkDid });
    }
  });
});
