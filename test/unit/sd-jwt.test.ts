/**
 * SD-JWT core (src/core/credentials/sd-jwt.ts) against presentations made during the run by an
 * independent implementation, @sd-jwt/sd-jwt-vc (issue, present, key binding), with node:crypto
 * signers and hasher; and against presentations crafted by hand here for what that library
 * refuses to produce (repeated digests, colliding names, duplicate JSON members, …).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { describe, expect, it } from 'vitest';
import { isSdJwtParseError, parseSdJwt, verifySdJwt, type KeyBinding, type SdJwtVerification } from '../../src/core/credentials/sd-jwt.js';
import { MAX_JWS_LENGTH, checkJwsSignature } from '../../src/core/proofs/jws.js';
import type { PublicKeyJwk } from '../../src/core/proofs/signature.js';

/* ------------------------------------------------------------------ keys and the peer library */

type Alg = 'EdDSA' | 'ES256';

interface TestKey {
  alg: Alg;
  privateKey: KeyObject;
  jwk: PublicKeyJwk;
  sign: (data: string) => string;
}

function makeKey(alg: Alg): TestKey {
  const { privateKey, publicKey } = alg === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as PublicKeyJwk;
  const signData = (data: string): string =>
    alg === 'EdDSA'
      ? sign(null, Buffer.from(data), privateKey).toString('base64url')
      : sign('sha256', Buffer.from(data), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return { alg, privateKey, jwk, sign: signData };
}

const hasher = (data: string | ArrayBuffer, alg: string): Uint8Array => {
  const name = alg === 'sha-512' ? 'sha512' : 'sha256';
  return new Uint8Array(
    createHash(name)
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
};

function library(issuer: TestKey, holder: TestKey = issuer, hashAlg: 'sha-256' | 'sha-512' = 'sha-256'): SDJwtVcInstance {
  return new SDJwtVcInstance({
    signer: issuer.sign,
    signAlg: issuer.alg,
    hasher,
    hashAlg,
    saltGenerator: () => randomBytes(16).toString('base64url'),
    kbSigner: holder.sign,
    kbSignAlg: holder.alg,
  });
}

const NOW = new Date('2026-06-01T12:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);

const issuerEd = makeKey('EdDSA');
const issuerP256 = makeKey('ES256');
const holderEd = makeKey('EdDSA');
const stranger = makeKey('EdDSA');

function claims(holder: TestKey | null = holderEd): Record<string, unknown> {
  return {
    iss: 'did:example:issuer',
    vct: 'https://credentials.example/identity',
    iat: NOW_S - 3600,
    given_name: 'Erika',
    family_name: 'Mustermann',
    birthdate: '1963-08-12',
    ...(holder ? { cnf: { jwk: holder.jwk } } : {}),
  };
}

const FLAT_FRAME = { _sd: ['given_name', 'family_name', 'birthdate'] };

async function issueFlat(issuer = issuerEd, holder: TestKey | null = holderEd): Promise<string> {
  return library(issuer, holder ?? issuer).issue(claims(holder) as never, FLAT_FRAME as never);
}

function kbOptions(overrides: Record<string, unknown> = {}) {
  return { kb: { payload: { iat: NOW_S - 10, aud: 'https://verifier.example', nonce: 'n-0S6_WzA2Mj', ...overrides } as never } };
}

/* ------------------------------------------------------------------ hand-made presentations */

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const digestOf = (disclosure: string): string => createHash('sha256').update(disclosure, 'ascii').digest('base64url');

/** A compact JWS from header and payload texts as written (duplicates kept), signed with `key`. */
function craftJws(headerText: string, payloadText: string, key: TestKey = issuerEd): string {
  const input = `${b64(headerText)}.${b64(payloadText)}`;
  return `${input}.${key.sign(input)}`;
}

const ED_HEADER = '{"typ":"dc+sd-jwt","alg":"EdDSA"}';

function craft(payload: Record<string, unknown>, disclosures: string[], kb = ''): string {
  return `${craftJws(ED_HEADER, JSON.stringify(payload))}~${disclosures.map((d) => `${d}~`).join('')}${kb}`;
}

/* ------------------------------------------------------------------ helpers */

function verify(text: string, expectedAudience?: string, maxAgeSeconds?: number): SdJwtVerification {
  return verifySdJwt(text, {
    now: NOW,
    ...(expectedAudience === undefined ? {} : { expectedAudience }),
    ...(maxAgeSeconds === undefined ? {} : { maxAgeSeconds }),
  });
}

function passing(text: string, expectedAudience?: string): SdJwtVerification {
  const result = verify(text, expectedAudience);
  expect(result.reason).toBeNull();
  expect(result.status).toBe('PASS');
  return result;
}

function failing(text: string, status: string, reason: RegExp, expectedAudience?: string): SdJwtVerification {
  const result = verify(text, expectedAudience);
  expect(result.status).toBe(status);
  expect(result.reason).toMatch(reason);
  return result;
}

function kbOf(result: SdJwtVerification): KeyBinding {
  if (!result.keyBinding) throw new Error('no key binding result');
  return result.keyBinding;
}

/** Splits a presentation: issuer JWT, disclosures, KB-JWT text. */
function partsOf(sdJwt: string): { jwt: string; disclosures: string[]; kb: string } {
  const parts = sdJwt.split('~');
  return { jwt: parts[0]!, disclosures: parts.slice(1, -1), kb: parts[parts.length - 1]! };
}

function join(jwt: string, disclosures: string[], kb = ''): string {
  return `${jwt}~${disclosures.map((d) => `${d}~`).join('')}${kb}`;
}

/* ------------------------------------------------------------------ tests */

describe('disclosures from @sd-jwt/sd-jwt-vc', () => {
  it('all disclosed (EdDSA): the payload is rebuilt without _sd/_sd_alg, every claim listed', async () => {
    const credential = await issueFlat();
    const result = passing(credential);
    expect(result.disclosures?.payload).toEqual(claims());
    expect(result.disclosures?.disclosed.sort()).toEqual(['/birthdate', '/family_name', '/given_name']);
    expect(result.disclosures?.undisclosedDigests).toBe(0);
    expect(result.parsed?.typ).toBe('dc+sd-jwt');
    expect(result.parsed?.issuerPayload['_sd']).toHaveLength(3);
  });

  it('the issuer signature of the library output verifies with checkJwsSignature on the parsed issuer JWT, and only with its key', async () => {
    for (const issuer of [issuerEd, issuerP256]) {
      const parsed = parseSdJwt(await issueFlat(issuer));
      if (isSdJwtParseError(parsed)) throw new Error(parsed.error);
      expect(parsed.issuerJws.alg).toBe(issuer.alg);
      expect(checkJwsSignature(parsed.issuerJws, issuer.jwk)).toEqual({ valid: true });
      const other = issuer === issuerEd ? stranger : makeKey('ES256');
      expect(checkJwsSignature(parsed.issuerJws, other.jwk).valid).toBe(false);
    }
  });

  it('some disclosed: hidden claims are counted, never shown', async () => {
    const credential = await issueFlat();
    const presentation = await library(issuerEd).present(credential, { given_name: true } as never);
    const result = passing(presentation);
    expect(result.disclosures?.disclosed).toEqual(['/given_name']);
    expect(result.disclosures?.undisclosedDigests).toBe(2);
    expect(result.disclosures?.payload).not.toHaveProperty('family_name');
    expect(JSON.stringify(result)).not.toContain('Mustermann');
    expect(JSON.stringify(result)).not.toContain('1963-08-12');
  });

  it('none disclosed: no disclosures, every digest undisclosed', async () => {
    const presentation = await library(issuerEd).present(await issueFlat(), {} as never);
    expect(partsOf(presentation).disclosures).toEqual([]);
    const result = passing(presentation);
    expect(result.disclosures?.disclosed).toEqual([]);
    expect(result.disclosures?.undisclosedDigests).toBe(3);
    expect(result.disclosures?.payload).not.toHaveProperty('given_name');
  });

  it('decoy digests are counted as undisclosed', async () => {
    const credential = await library(issuerEd).issue(claims() as never, { _sd: ['given_name'], _sd_decoy: 2 } as never);
    const result = passing(credential);
    expect(result.disclosures?.disclosed).toEqual(['/given_name']);
    expect(result.disclosures?.undisclosedDigests).toBe(2);
  });

  it('nested (recursive) disclosures and array elements (ES256 issuer)', async () => {
    const payload = {
      ...claims(),
      address: { street_address: 'Heidestraße 17', locality: 'Köln', country: 'DE' },
      nationalities: ['DE', 'FR', 'US'],
    };
    const frame = { _sd: ['address', 'nationalities'], address: { _sd: ['street_address', 'locality'] }, nationalities: { _sd: [1, 2] } };
    const sd = library(issuerP256, holderEd);
    const credential = await sd.issue(payload as never, frame as never);
    const all = passing(credential);
    expect(all.parsed?.issuerJws.alg).toBe('ES256');
    expect(all.disclosures?.payload).toEqual(payload);
    expect([...(all.disclosures?.disclosed ?? [])].sort()).toEqual([
      '/address',
      '/address/locality',
      '/address/street_address',
      '/nationalities',
      '/nationalities/1',
      '/nationalities/2',
    ]);

    const presentation = await sd.present(credential, { address: { street_address: true }, nationalities: { 1: true } } as never);
    const some = passing(presentation);
    expect(some.disclosures?.payload['address']).toEqual({ country: 'DE', street_address: 'Heidestraße 17' });
    expect(some.disclosures?.payload['nationalities']).toEqual(['DE', 'FR']);
    expect([...(some.disclosures?.disclosed ?? [])].sort()).toEqual(['/address', '/address/street_address', '/nationalities', '/nationalities/1']);
    expect(some.disclosures?.undisclosedDigests).toBe(2);
    expect(JSON.stringify(some)).not.toContain('Köln');
  });

  it('the legacy typ vc+sd-jwt is accepted', () => {
    const text = `${craftJws('{"typ":"vc+sd-jwt","alg":"EdDSA"}', '{"iss":"did:example:i","_sd_alg":"sha-256"}')}~`;
    expect(passing(text).parsed?.typ).toBe('vc+sd-jwt');
  });
});

describe('key binding', () => {
  it('a valid KB-JWT passes and reports the nonce and audience', async () => {
    const presentation = await library(issuerEd, holderEd).present(await issueFlat(), { given_name: true } as never, kbOptions());
    const result = passing(presentation, 'https://verifier.example');
    const kb = kbOf(result);
    expect(kb.status).toBe('PASS');
    if (kb.status !== 'PASS') return;
    expect(kb.nonce).toBe('n-0S6_WzA2Mj');
    expect(kb.audience).toEqual({ status: 'PASS', value: 'https://verifier.example' });
    expect(result.limitations).toEqual([]);
  });

  it('an ES256 holder key works too', async () => {
    const holder = makeKey('ES256');
    const credential = await library(issuerEd, holder).issue(claims(holder) as never, FLAT_FRAME as never);
    const presentation = await library(issuerEd, holder).present(credential, {} as never, kbOptions());
    expect(kbOf(passing(presentation, 'https://verifier.example')).status).toBe('PASS');
  });

  it('no expected audience: the audience is skipped, with a limitation', async () => {
    const presentation = await library(issuerEd, holderEd).present(await issueFlat(), {} as never, kbOptions());
    const result = passing(presentation);
    const kb = kbOf(result);
    expect(kb.status === 'PASS' && kb.audience.status).toBe('SKIP');
    expect(result.limitations.join(' ')).toMatch(/audience .* not compared/);
  });

  it('a wrong audience is INVALID when an audience is expected', async () => {
    const presentation = await library(issuerEd, holderEd).present(await issueFlat(), {} as never, kbOptions({ aud: 'https://other.example' }));
    failing(presentation, 'INVALID', /audience "https:\/\/other\.example", not "https:\/\/verifier\.example"/, 'https://verifier.example');
  });

  it('an sd_hash over another set of disclosures is INVALID', async () => {
    const sd = library(issuerEd, holderEd);
    const credential = await issueFlat();
    const one = await sd.present(credential, { given_name: true } as never, kbOptions());
    const two = await sd.present(credential, { given_name: true, family_name: true } as never, kbOptions());
    // The KB-JWT of `one` (validly signed) moved onto the disclosures of `two`.
    const moved = join(partsOf(two).jwt, partsOf(two).disclosures, partsOf(one).kb);
    failing(moved, 'INVALID', /sd_hash" does not match/, 'https://verifier.example');
    // A disclosure dropped from a bound presentation breaks it too.
    const dropped = join(partsOf(two).jwt, partsOf(two).disclosures.slice(1), partsOf(two).kb);
    failing(dropped, 'INVALID', /sd_hash/, 'https://verifier.example');
  });

  it('a KB-JWT signed by another key than cnf.jwk is INVALID', async () => {
    const presentation = await library(issuerEd, stranger).present(await issueFlat(), {} as never, kbOptions());
    failing(presentation, 'INVALID', /not signed by the key in "cnf\.jwk"/, 'https://verifier.example');
  });

  it('a stale or future iat is INVALID; maxAgeSeconds widens the window', async () => {
    const sd = library(issuerEd, holderEd);
    const credential = await issueFlat();
    const stale = await sd.present(credential, {} as never, kbOptions({ iat: NOW_S - 600 }));
    failing(stale, 'INVALID', /600 s old/, 'https://verifier.example');
    expect(verify(stale, 'https://verifier.example', 900).status).toBe('PASS');
    const future = await sd.present(credential, {} as never, kbOptions({ iat: NOW_S + 120 }));
    failing(future, 'INVALID', /in the future/, 'https://verifier.example');
    const slightlyAhead = await sd.present(credential, {} as never, kbOptions({ iat: NOW_S + 30 }));
    expect(verify(slightlyAhead, 'https://verifier.example').status).toBe('PASS');
  });

  it('cnf without a KB-JWT: holder binding not shown (a limitation, not a failure)', async () => {
    const result = passing(await issueFlat());
    expect(kbOf(result)).toMatchObject({ status: 'ABSENT' });
    expect(result.limitations.join(' ')).toMatch(/holder binding not shown/);
    const unbound = passing(await issueFlat(issuerEd, null));
    expect(unbound.limitations).toEqual([]);
  });

  it('a KB-JWT without cnf.jwk in the credential is INVALID', async () => {
    const credential = await issueFlat(issuerEd, null);
    const presentation = await library(issuerEd, holderEd).present(credential, {} as never, kbOptions());
    failing(presentation, 'INVALID', /no "cnf"/, 'https://verifier.example');
    const kidOnly = craft({ cnf: { kid: 'k1' }, _sd_alg: 'sha-256' }, [], partsOf(presentation).kb);
    failing(kidOnly, 'INVALID', /no "jwk"/, 'https://verifier.example');
  });

  it('a KB-JWT not typed kb+jwt is MALFORMED', async () => {
    const credential = await issueFlat();
    const hashed = `${partsOf(credential).jwt}~`;
    const sdHash = createHash('sha256').update(hashed).digest('base64url');
    const kb = craftJws('{"typ":"JWT","alg":"EdDSA"}', JSON.stringify({ iat: NOW_S, aud: 'a', nonce: 'n', sd_hash: sdHash }), holderEd);
    failing(`${hashed}${kb}`, 'MALFORMED', /KB-JWT has "typ" "JWT"/);
    const good = craftJws('{"typ":"kb+jwt","alg":"EdDSA"}', JSON.stringify({ iat: NOW_S, aud: 'a', nonce: 'n', sd_hash: sdHash }), holderEd);
    expect(verify(`${hashed}${good}`, 'a').status).toBe('PASS');
  });
});

describe('tampering and structure', () => {
  it('a tampered disclosure (its digest not in the payload) is INVALID', async () => {
    const credential = await issueFlat();
    const { jwt, disclosures } = partsOf(credential);
    const decoded = JSON.parse(Buffer.from(disclosures[0]!, 'base64url').toString('utf8')) as unknown[];
    decoded[2] = 'Mallory';
    const tampered = b64(JSON.stringify(decoded));
    failing(join(jwt, [tampered, ...disclosures.slice(1)]), 'INVALID', /disclosure 1 .* is not in the payload/);
    expect(verify(join(jwt, disclosures)).status).toBe('PASS');
  });

  it('a disclosure sent twice is INVALID', async () => {
    const { jwt, disclosures } = partsOf(await issueFlat());
    failing(join(jwt, [...disclosures, disclosures[1]!]), 'INVALID', /disclosure 4 repeats disclosure 2/);
  });

  it('a digest repeated in the payload is INVALID', () => {
    const d = b64('["salt-1","given_name","Erika"]');
    failing(craft({ _sd: [digestOf(d), digestOf(d)] }, [d]), 'INVALID', /occurs more than once/);
    failing(craft({ _sd: [digestOf(d)], nested: { _sd: [digestOf(d)] } }, [d]), 'INVALID', /occurs more than once/);
    // Undisclosed digests repeated are refused as well.
    failing(craft({ _sd: ['AAAA', 'AAAA'] }, []), 'INVALID', /occurs more than once/);
    expect(verify(craft({ _sd: [digestOf(d), 'AAAA'] }, [d])).status).toBe('PASS');
  });

  it('reserved claim names in a disclosure are MALFORMED', () => {
    for (const name of ['_sd', '...']) {
      const d = b64(JSON.stringify(['salt-1', name, 'x']));
      failing(craft({ _sd: [digestOf(d)] }, [d]), 'MALFORMED', /reserves/);
    }
  });

  it('a disclosed name that repeats a plain claim is INVALID', () => {
    const d = b64('["salt-1","given_name","Mallory"]');
    failing(craft({ given_name: 'Erika', _sd: [digestOf(d)] }, [d]), 'INVALID', /"given_name" .* repeats a claim/);
    const e = b64('["salt-2","given_name","Mallory"]');
    failing(craft({ _sd: [digestOf(d), digestOf(e)] }, [d, e]), 'INVALID', /repeats a claim/);
  });

  it('a disclosure referenced from the wrong place is INVALID', () => {
    const element = b64('["salt-1","FR"]');
    failing(craft({ _sd: [digestOf(element)] }, [element]), 'INVALID', /array-element disclosure .* from "_sd"/);
    const property = b64('["salt-2","given_name","Erika"]');
    failing(craft({ list: [{ '...': digestOf(property) }] }, [property]), 'INVALID', /"given_name" is referenced from an array element/);
    expect(verify(craft({ list: [{ '...': digestOf(element) }] }, [element])).disclosures?.payload).toEqual({ list: ['FR'] });
  });

  it('a disclosure that is not canonical base64url is MALFORMED', () => {
    const d = b64('["salt-1","given_name","Erika"]'); // 43 bytes: ends in 2 spare bits
    const last = d[d.length - 1]!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const nonCanonical = d.slice(0, -1) + alphabet[alphabet.indexOf(last) | 1]!;
    expect(Buffer.from(nonCanonical, 'base64url').equals(Buffer.from(d, 'base64url'))).toBe(true);
    failing(craft({ _sd: [digestOf(nonCanonical)] }, [nonCanonical]), 'MALFORMED', /disclosure 1 is not canonical/);
    failing(craft({ _sd: [digestOf(`${d}=`)] }, [`${d}=`]), 'MALFORMED', /not canonical/);
    expect(verify(craft({ _sd: [digestOf(d)] }, [d])).status).toBe('PASS');
  });

  it('a disclosure that is not a 2- or 3-element array with a string salt is MALFORMED', () => {
    for (const text of ['{"salt":"s"}', '["s"]', '["s","a","b","c"]', '[1,"a","b"]', '["s",2,"b"]']) {
      const d = b64(text);
      failing(craft({ _sd: [digestOf(d)] }, [d]), 'MALFORMED', /disclosure 1/);
    }
  });

  it('duplicate JSON members are MALFORMED in every part', async () => {
    const dup = b64('["salt-1","given_name","Erika"]');
    // issuer header
    failing(
      `${craftJws('{"typ":"dc+sd-jwt","alg":"EdDSA","typ":"dc+sd-jwt"}', '{"iss":"did:example:i"}')}~`,
      'MALFORMED',
      /protected header has a duplicate member "typ"/,
    );
    // issuer payload
    failing(`${craftJws(ED_HEADER, '{"iss":"did:example:i","iss":"did:example:j"}')}~`, 'MALFORMED', /payload has a duplicate member "iss"/);
    // disclosure (a duplicate inside the disclosed value)
    const d = b64('["salt-1","address",{"country":"DE","country":"FR"}]');
    failing(craft({ _sd: [digestOf(d)] }, [d]), 'MALFORMED', /disclosure 1 has a duplicate member "country"/);
    expect(verify(craft({ _sd: [digestOf(dup)] }, [dup])).status).toBe('PASS');
    // KB-JWT header and payload
    const credential = await issueFlat();
    const hashed = `${partsOf(credential).jwt}~`;
    const sdHash = createHash('sha256').update(hashed).digest('base64url');
    const kbHeader = craftJws('{"typ":"kb+jwt","alg":"EdDSA","alg":"EdDSA"}', JSON.stringify({ iat: NOW_S, aud: 'a', nonce: 'n', sd_hash: sdHash }), holderEd);
    failing(`${hashed}${kbHeader}`, 'MALFORMED', /KB-JWT: .*duplicate member "alg"/);
    const kbPayload = craftJws('{"typ":"kb+jwt","alg":"EdDSA"}', `{"iat":${NOW_S},"aud":"a","aud":"b","nonce":"n","sd_hash":"${sdHash}"}`, holderEd);
    failing(`${hashed}${kbPayload}`, 'MALFORMED', /KB-JWT: .*duplicate member "aud"/);
  });

  it('a wrong or missing typ is MALFORMED and names what was found', () => {
    failing(`${craftJws('{"typ":"JWT","alg":"EdDSA"}', '{}')}~`, 'MALFORMED', /has "typ" "JWT"/);
    failing(`${craftJws('{"typ":"vc+jwt","alg":"EdDSA"}', '{}')}~`, 'MALFORMED', /has "typ" "vc\+jwt"/);
    failing(`${craftJws('{"alg":"EdDSA"}', '{}')}~`, 'MALFORMED', /has no "typ"/);
  });

  it('an algorithm other than EdDSA, ES256 or ES256K is UNSUPPORTED', () => {
    failing(`${craftJws('{"typ":"dc+sd-jwt","alg":"ES384"}', '{}')}~`, 'UNSUPPORTED', /uses ES384/);
    failing(`${craftJws('{"typ":"dc+sd-jwt","alg":"Ed25519"}', '{}')}~`, 'UNSUPPORTED', /uses Ed25519/);
    failing(`${craftJws('{"typ":"dc+sd-jwt","alg":"RS256"}', '{}')}~`, 'UNSUPPORTED', /RS256/);
    failing(`${craftJws('{"typ":"dc+sd-jwt","alg":"none"}', '{}')}~`, 'UNSUPPORTED', /none/);
  });

  it('_sd_alg sha-512 (from the library) is UNSUPPORTED', async () => {
    const credential = await library(issuerEd, holderEd, 'sha-512').issue(claims() as never, FLAT_FRAME as never);
    expect(parseSdJwt(credential)).toMatchObject({ kind: 'UNSUPPORTED' });
    failing(credential, 'UNSUPPORTED', /"sha-512"/);
    failing(`${craftJws(ED_HEADER, '{"_sd_alg":256}')}~`, 'MALFORMED', /"_sd_alg" is not a string/);
  });

  it('oversized input, no "~", an empty disclosure and a non-object payload are MALFORMED', async () => {
    const credential = await issueFlat();
    const big = `${credential}${'A'.repeat(MAX_JWS_LENGTH - credential.length + 1)}`;
    failing(big, 'MALFORMED', /longer than/);
    failing(partsOf(credential).jwt, 'MALFORMED', /has none/);
    failing(`${partsOf(credential).jwt}~~`, 'MALFORMED', /disclosure 1 is empty/);
    failing(`${craftJws(ED_HEADER, '"text"')}~`, 'MALFORMED', /not a JSON object/);
    failing('', 'MALFORMED', /.+/);
  });

  it('a chain of disclosures nested in one another stops at the depth bound, without recursing past the stack', () => {
    /** `links` disclosures, each the value of a claim of the one before (the first referenced from the payload). */
    const chain = (links: number): string => {
      const disclosures: string[] = [];
      let inner: Record<string, unknown> = { leaf: true };
      for (let i = 0; i < links; i++) {
        const d = b64(JSON.stringify([`s${i}`, `c${i}`, inner]));
        disclosures.push(d);
        inner = { _sd: [digestOf(d)] };
      }
      return craft(inner, disclosures.reverse());
    };
    expect(verify(chain(20)).status).toBe('PASS');
    expect(verify(chain(20)).disclosures?.disclosed).toHaveLength(20);
    failing(chain(100), 'MALFORMED', /nest deeper than 64/);
    // Nearly as many links as 1 MiB holds: refused the same way, no RangeError.
    const perLink = chain(101).length - chain(100).length;
    const long = chain(Math.floor((MAX_JWS_LENGTH * 0.95) / perLink));
    expect(long.length).toBeGreaterThan(MAX_JWS_LENGTH * 0.9);
    failing(long, 'MALFORMED', /nest deeper than 64/);
  });

  it('an _sd that is not a list of digest strings is MALFORMED', () => {
    failing(craft({ _sd: 'abc' }, []), 'MALFORMED', /"_sd" at \/ is not an array/);
    failing(craft({ a: { _sd: [1] } }, []), 'MALFORMED', /"_sd" at \/a is not an array/);
    failing(craft({ a: [{ '...': 5 }] }, []), 'MALFORMED', /"\.\.\." that is not a digest/);
  });
});
