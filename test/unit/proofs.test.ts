/**
 * Proofs: compact JWS (strict parsing, EdDSA / ES256 / ES256K / ES384 with node:crypto) and Data
 * Integrity eddsa-jcs-2022 (W3C vc-di-eddsa test vectors, plus self-signed documents).
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalize, sha256, sha256Hex } from '../../src/core/canonical.js';
import { base58Decode } from '../../src/core/encoding/base58.js';
import { base64urlDecode, base64urlEncode } from '../../src/core/encoding/base64url.js';
import { multibaseEncode } from '../../src/core/encoding/multibase.js';
import {
  checkProofSupport,
  proofLabel,
  verifyDataIntegrity,
  verifyEddsaJcs2022,
  type DataIntegrityResult,
  type ProofKeyLookup,
} from '../../src/core/proofs/data-integrity.js';
import { numericDate, parseDateTime } from '../../src/core/proofs/datetime.js';
import { checkJwsSignature, isJwsParseError, parseCompactJws, verifyJwsSignature, type JwsParseError, type ParsedJws } from '../../src/core/proofs/jws.js';
import type { PublicKeyJwk } from '../../src/core/proofs/signature.js';
import { describeWithFixtures } from '../support/fixtures.js';
import { signBytes } from '../support/signing.js';

// ---------------------------------------------------------------------------------------------
// helpers

type Alg = 'EdDSA' | 'ES256' | 'ES256K' | 'ES384';

interface TestKey {
  privateKey: KeyObject;
  publicJwk: PublicKeyJwk;
}

function keyFor(alg: Alg): TestKey {
  const pair =
    alg === 'EdDSA'
      ? generateKeyPairSync('ed25519')
      : generateKeyPairSync('ec', { namedCurve: alg === 'ES256' ? 'P-256' : alg === 'ES256K' ? 'secp256k1' : 'P-384' });
  return { privateKey: pair.privateKey, publicJwk: pair.publicKey.export({ format: 'jwk' }) as PublicKeyJwk };
}

/** The instant the proof windows are checked at: the test's own clock, as the default was before. */
const WALL_NOW = Date.now();
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Compact JWS from raw header and payload text (so duplicates can be written). */
function jwsFromText(headerText: string, payloadText: string, key: KeyObject, alg: string): string {
  const input = `${b64(headerText)}.${b64(payloadText)}`;
  return `${input}.${base64urlEncode(signBytes(alg, key, Buffer.from(input, 'ascii')))}`;
}

function jws(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  return jwsFromText(JSON.stringify(header), JSON.stringify(payload), key, String(header['alg']));
}

function parsedOk(token: string): ParsedJws {
  const parsed = parseCompactJws(token);
  if (isJwsParseError(parsed)) throw new Error(`unexpected parse error: ${parsed.error}`);
  return parsed;
}

function parseError(token: string): JwsParseError {
  const parsed = parseCompactJws(token);
  if (!isJwsParseError(parsed)) throw new Error('expected a parse error');
  return parsed;
}

function replacePart(token: string, index: number, value: string): string {
  const parts = token.split('.');
  parts[index] = value;
  return parts.join('.');
}

const CLAIMS = { iss: 'did:example:issuer', sub: 'did:example:subject', nbf: 1_700_000_000 };

// ---------------------------------------------------------------------------------------------
// JWS

describe('compact JWS: supported algorithms', () => {
  const algs: Alg[] = ['EdDSA', 'ES256', 'ES256K', 'ES384'];

  it.each(algs)('%s: a signature made with node:crypto verifies', (alg) => {
    const key = keyFor(alg);
    const parsed = parsedOk(jws({ alg, kid: 'did:example:issuer#k' }, CLAIMS, key.privateKey));
    expect(parsed.alg).toBe(alg);
    expect(parsed.header).toEqual({ alg, kid: 'did:example:issuer#k' });
    expect(parsed.payload).toEqual(CLAIMS);
    expect(checkJwsSignature(parsed, key.publicJwk)).toEqual({ valid: true });
    expect(verifyJwsSignature(parsed, key.publicJwk)).toBe(true);
  });

  it.each(algs)('%s: a tampered payload does not verify', (alg) => {
    const key = keyFor(alg);
    const token = jws({ alg }, CLAIMS, key.privateKey);
    const tampered = replacePart(token, 1, b64(JSON.stringify({ ...CLAIMS, sub: 'did:example:mallory' })));
    const check = checkJwsSignature(parsedOk(tampered), key.publicJwk);
    expect(check).toEqual({ valid: false, reason: `the ${alg} signature does not verify` });
  });

  it.each(algs)('%s: another key of the same curve does not verify', (alg) => {
    const token = jws({ alg }, CLAIMS, keyFor(alg).privateKey);
    expect(verifyJwsSignature(parsedOk(token), keyFor(alg).publicJwk)).toBe(false);
  });

  it.each(algs)('%s: a flipped signature bit does not verify', (alg) => {
    const key = keyFor(alg);
    const parsed = parsedOk(jws({ alg }, CLAIMS, key.privateKey));
    const signature = Uint8Array.from(parsed.signature);
    signature[5] = signature[5]! ^ 0x01;
    expect(verifyJwsSignature({ ...parsed, signature }, key.publicJwk)).toBe(false);
  });

  it('accepts the fully-specified algorithm name Ed25519 (RFC 9864)', () => {
    const key = keyFor('EdDSA');
    const parsed = parsedOk(jws({ alg: 'Ed25519' }, CLAIMS, key.privateKey));
    expect(verifyJwsSignature(parsed, key.publicJwk)).toBe(true);
  });

  it('keeps a non-JSON payload as raw bytes', () => {
    const key = keyFor('EdDSA');
    const input = `${b64('{"alg":"EdDSA"}')}.${b64('hello')}`;
    const token = `${input}.${base64urlEncode(signBytes('EdDSA', key.privateKey, Buffer.from(input)))}`;
    const parsed = parsedOk(token);
    expect(parsed.payload).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(parsed.payload as Uint8Array).toString()).toBe('hello');
    expect(verifyJwsSignature(parsed, key.publicJwk)).toBe(true);
  });

  it('never uses a key embedded in the header', () => {
    const real = keyFor('EdDSA');
    const attacker = keyFor('EdDSA');
    const parsed = parsedOk(jws({ alg: 'EdDSA', jwk: attacker.publicJwk }, CLAIMS, attacker.privateKey));
    expect(verifyJwsSignature(parsed, real.publicJwk)).toBe(false);
  });
});

describe('compact JWS: key, curve and signature length', () => {
  it('refuses a key of another curve than the algorithm signs with', () => {
    const p256 = keyFor('ES256');
    const k1 = keyFor('ES256K');
    const ed = keyFor('EdDSA');
    const es256 = parsedOk(jws({ alg: 'ES256' }, CLAIMS, p256.privateKey));
    expect(checkJwsSignature(es256, k1.publicJwk)).toEqual({ valid: false, reason: 'the key is a secp256k1 key, but ES256 signs with P-256' });
    expect(checkJwsSignature(es256, ed.publicJwk)).toEqual({ valid: false, reason: 'the key is an Ed25519 key, but ES256 signs with P-256' });
    const eddsa = parsedOk(jws({ alg: 'EdDSA' }, CLAIMS, ed.privateKey));
    expect(checkJwsSignature(eddsa, p256.publicJwk)).toMatchObject({ valid: false, reason: expect.stringContaining('EdDSA signs with Ed25519') });
    // ES256K signed, presented as ES256 with the right secp256k1 key: the curve decides.
    const relabelled = parsedOk(jws({ alg: 'ES256K' }, CLAIMS, k1.privateKey));
    expect(checkJwsSignature({ ...relabelled, alg: 'ES256' }, k1.publicJwk).valid).toBe(false);
  });

  it('refuses truncated and over-long ECDSA signatures (raw r‖s only)', () => {
    const key = keyFor('ES256');
    const parsed = parsedOk(jws({ alg: 'ES256' }, CLAIMS, key.privateKey));
    expect(checkJwsSignature({ ...parsed, signature: parsed.signature.subarray(0, 63) }, key.publicJwk)).toEqual({
      valid: false,
      reason: 'an ES256 signature is 64 bytes (raw r‖s), not 63',
    });
    const longer = new Uint8Array(65);
    longer.set(parsed.signature);
    expect(verifyJwsSignature({ ...parsed, signature: longer }, key.publicJwk)).toBe(false);
  });

  it('refuses a DER-encoded ECDSA signature', () => {
    const key = keyFor('ES384');
    const parsed = parsedOk(jws({ alg: 'ES384' }, CLAIMS, key.privateKey));
    const der = new Uint8Array(sign('sha384', parsed.signingInput, key.privateKey));
    const check = checkJwsSignature({ ...parsed, signature: der }, key.publicJwk);
    expect(check.valid).toBe(false);
    expect(check).toMatchObject({ reason: expect.stringMatching(/^an ES384 signature is 96 bytes \(raw r‖s\), not \d+$/) });
  });

  it('refuses a truncated Ed25519 signature', () => {
    const key = keyFor('EdDSA');
    const token = jws({ alg: 'EdDSA' }, CLAIMS, key.privateKey);
    const sig = base64urlDecode(token.split('.')[2]!)!;
    const parsed = parsedOk(replacePart(token, 2, base64urlEncode(sig.subarray(0, 60))));
    expect(checkJwsSignature(parsed, key.publicJwk)).toEqual({ valid: false, reason: 'an EdDSA signature is 64 bytes, not 60' });
  });

  it('reports a key node:crypto cannot import', () => {
    const key = keyFor('EdDSA');
    const parsed = parsedOk(jws({ alg: 'EdDSA' }, CLAIMS, key.privateKey));
    const check = checkJwsSignature(parsed, { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' });
    expect(check).toEqual({ valid: false, reason: 'the Ed25519 key could not be imported' });
  });
});

describe('compact JWS: strict parsing', () => {
  const key = keyFor('EdDSA');

  it('refuses a duplicate member in the header, which jose would resolve to the last one', () => {
    const token = jwsFromText('{"alg":"EdDSA","kid":"did:example:a#1","kid":"did:example:b#1"}', JSON.stringify(CLAIMS), key.privateKey, 'EdDSA');
    const err = parseError(token);
    expect(err.kind).toBe('MALFORMED');
    expect(err.error).toBe('the protected header has a duplicate member "kid" (at /kid), which parsers resolve differently');
  });

  it('refuses a duplicate "alg" even when one of them is none', () => {
    const token = jwsFromText('{"alg":"none","alg":"EdDSA"}', '{}', key.privateKey, 'EdDSA');
    expect(parseError(token)).toMatchObject({ kind: 'MALFORMED', error: expect.stringContaining('duplicate member "alg"') });
  });

  it('refuses a duplicate claim nested in the payload, naming where it is', () => {
    const token = jwsFromText(
      '{"alg":"EdDSA"}',
      '{"iss":"did:example:a","vc":{"credentialSubject":{"id":"did:example:a","id":"did:example:b"}}}',
      key.privateKey,
      'EdDSA',
    );
    const err = parseError(token);
    expect(err.kind).toBe('MALFORMED');
    expect(err.error).toContain('the payload has a duplicate member "id" (at /vc/credentialSubject/id)');
    expect(err.header).toEqual({ alg: 'EdDSA' });
  });

  it('refuses a payload that opens as JSON but is not', () => {
    const token = jwsFromText('{"alg":"EdDSA"}', '{"iss": }', key.privateKey, 'EdDSA');
    expect(parseError(token)).toMatchObject({ kind: 'MALFORMED', error: expect.stringMatching(/^the payload is not valid JSON/) });
  });

  it('refuses a header that is not a JSON object, or has no alg', () => {
    expect(parseError(`${b64('[1]')}.${b64('{}')}.AAAA`).error).toBe('the protected header is not a JSON object');
    expect(parseError(`${b64('{"kid":"x"}')}.${b64('{}')}.AAAA`).error).toBe('the protected header has no "alg"');
    expect(parseError(`${b64('{"alg":7}')}.${b64('{}')}.AAAA`).error).toBe('the header parameter "alg" is not a string');
  });

  it('refuses the wrong number of parts, and says when it is a JWE', () => {
    expect(parseError('a.b').error).toBe('a compact JWS has three base64url parts separated by "."; this one has 2');
    expect(parseError('a.b.c.d.e').error).toBe('the token has five parts: it is a JWE (encrypted), not a JWS');
  });

  it('refuses padded or non-canonical base64url', () => {
    const token = jws({ alg: 'EdDSA' }, CLAIMS, key.privateKey);
    const [h, p, s] = token.split('.') as [string, string, string];
    expect(parseError(`${h}=.${p}.${s}`).error).toBe('the protected header is not canonical unpadded base64url');
    expect(parseError(`${h}.${p}.${s}=`).error).toBe('the signature is not canonical unpadded base64url');
    expect(parseError(`${h}.${p}+.${s}`).error).toBe('the payload is not canonical unpadded base64url');
    // A 64-byte signature leaves 4 unused bits in its last character; setting one decodes
    // leniently elsewhere, but is not the canonical encoding.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const lastBitSet = `${s.slice(0, -1)}${alphabet[alphabet.indexOf(s.slice(-1)) ^ 1]}`;
    expect(Buffer.from(lastBitSet, 'base64url').equals(Buffer.from(s, 'base64url'))).toBe(true);
    expect(parseError(`${h}.${p}.${lastBitSet}`).error).toBe('the signature is not canonical unpadded base64url');
  });

  it('reads a header seen before as the first time: its own copy each time, every check run again', () => {
    const header = { alg: 'EdDSA', typ: 'JWT', kid: 'did:example:issuer#key-1', n: 1, ok: true, none: null };
    const first = parsedOk(jws(header, CLAIMS, key.privateKey));
    first.header['alg'] = 'none';
    first.header['extra'] = 'x';
    const second = parsedOk(jws(header, { ...CLAIMS, sub: 'did:example:other' }, key.privateKey));
    expect(second.header).toEqual(header);
    expect(second.header).not.toBe(first.header);
    expect(Object.keys(second.header)).toEqual(Object.keys(header));
    // The same header text with another fault elsewhere is still refused for that fault.
    const [h, p] = jws(header, CLAIMS, key.privateKey).split('.') as [string, string];
    expect(parseError(`${h}.${p}.`).error).toBe('the signature is empty');
    // A header with a nested member, and one whose member is named "error", read twice alike.
    for (const nested of [
      { alg: 'EdDSA', crit: ['exp'], exp: 1 },
      { alg: 'EdDSA', error: 'not one' },
    ]) {
      const token = jws(nested, CLAIMS, key.privateKey);
      const a = parseCompactJws(token);
      const b = parseCompactJws(token);
      expect(b).toEqual(a);
      expect(b.header).not.toBe(a.header);
    }
    // A text outside the base64url alphabet is refused even after the same header was read.
    expect(parseError(`${h}!.${p}.AAAA`).error).toBe('the protected header is not canonical unpadded base64url');
  });

  it('refuses invalid UTF-8 in the header and an empty signature', () => {
    const badUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]).toString('base64url');
    expect(parseError(`${badUtf8}.${b64('{}')}.AAAA`).error).toBe('the protected header is not valid UTF-8');
    expect(parseError(`${b64('{"alg":"EdDSA"}')}.${b64('{}')}.`).error).toBe('the signature is empty');
  });

  it('tells unsupported algorithms from malformed tokens, and still returns the claims', () => {
    for (const [alg, phrase] of [
      ['none', 'the algorithm "none" (an unsecured JWS) is not accepted'],
      ['HS256', 'the algorithm HS256 (HMAC with a shared secret) is not supported'],
      ['RS256', 'the algorithm RS256 (RSA) is not supported'],
      ['PS384', 'the algorithm PS384 (RSA) is not supported'],
      ['ES512', 'the algorithm "ES512" is not supported'],
    ] as const) {
      const err = parseError(`${b64(JSON.stringify({ alg }))}.${b64(JSON.stringify(CLAIMS))}.${alg === 'none' ? '' : 'AAAA'}`);
      expect(err.kind, alg).toBe('UNSUPPORTED');
      expect(err.error, alg).toContain(phrase);
      expect(err.payload).toEqual(CLAIMS);
    }
  });

  it('checks crit as RFC 7515 §4.1.11 requires, then refuses every critical extension', () => {
    const token = (header: Record<string, unknown>) => jws(header, CLAIMS, key.privateKey);
    expect(parseError(token({ alg: 'EdDSA', crit: ['exp'], exp: 1 }))).toMatchObject({
      kind: 'UNSUPPORTED',
      error: 'the header marks "exp" critical; svc processes no critical header extension',
    });
    expect(parseError(token({ alg: 'EdDSA', crit: 'b64' }))).toMatchObject({
      kind: 'MALFORMED',
      error: '"crit" must be a non-empty array of header parameter names',
    });
    expect(parseError(token({ alg: 'EdDSA', crit: [] })).kind).toBe('MALFORMED');
    expect(parseError(token({ alg: 'EdDSA', crit: ['x'] }))).toMatchObject({ kind: 'MALFORMED', error: '"crit" lists "x", which the header does not contain' });
    expect(parseError(token({ alg: 'EdDSA', crit: ['kid'], kid: 'k' }))).toMatchObject({
      kind: 'MALFORMED',
      error: expect.stringContaining('a parameter the JWS specifications define'),
    });
    expect(parseError(token({ alg: 'EdDSA', crit: ['b64', 'b64'], b64: true })).kind).toBe('MALFORMED');
    // Even b64 with its default value: any crit is refused.
    expect(parseError(token({ alg: 'EdDSA', crit: ['b64'], b64: true }))).toMatchObject({
      kind: 'UNSUPPORTED',
      error: 'the header marks "b64" critical; svc processes no critical header extension',
    });
    expect(verifyJwsSignature(parsedOk(token({ alg: 'EdDSA', b64: true })), key.publicJwk)).toBe(true);
  });

  it('refuses unencoded payloads (b64: false)', () => {
    const token = (header: Record<string, unknown>) => jws(header, CLAIMS, key.privateKey);
    expect(parseError(token({ alg: 'EdDSA', crit: ['b64'], b64: false }))).toMatchObject({
      kind: 'UNSUPPORTED',
      error: expect.stringContaining('unencoded payloads'),
    });
    expect(parseError(token({ alg: 'EdDSA', b64: false }))).toMatchObject({ kind: 'MALFORMED', error: expect.stringContaining('must be listed in "crit"') });
    expect(parseError(token({ alg: 'EdDSA', b64: 'no' })).kind).toBe('MALFORMED');
  });

  it('never throws on junk', () => {
    for (const junk of ['', '.', '..', '...', 'a.b.c', '\u0000.\u0000.\u0000', `${b64('{')}.${b64('{')}.AA`, 'x'.repeat(2_000_000)]) {
      expect(isJwsParseError(parseCompactJws(junk))).toBe(true);
    }
    expect(isJwsParseError(parseCompactJws(42 as unknown as string))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Data Integrity, eddsa-jcs-2022

/** Raw Ed25519 public key of a `z6Mk…` Multikey. */
function ed25519FromMultikey(multikey: string): Uint8Array {
  const bytes = base58Decode(multikey.slice(1))!;
  expect([bytes[0], bytes[1]]).toEqual([0xed, 0x01]);
  return bytes.subarray(2);
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

function proofOf(doc: Record<string, unknown>): Record<string, unknown> {
  return doc['proof'] as Record<string, unknown>;
}

describeWithFixtures('eddsa-jcs-2022: W3C vc-di-eddsa test vectors', 'vc-di-eddsa/TestVectors', (dir) => {
  const jcsDir = path.join(dir, 'eddsa-jcs-2022');
  const signed = readJson(path.join(jcsDir, 'signedJCS.json'));
  const keyPair = readJson(path.join(dir, 'keyPair.json'));
  const publicKey = ed25519FromMultikey(keyPair['publicKeyMultibase'] as string);

  it('the vectors hash as the suite says (proof configuration and document, JCS + SHA-256)', () => {
    const { proofValue: _pv, ...config } = proofOf(signed);
    const { proof: _p, ...doc } = signed;
    expect(canonicalize(config)).toBe(readFileSync(path.join(jcsDir, 'proofCanonJCS.txt'), 'utf8').trim());
    expect(canonicalize(doc)).toBe(readFileSync(path.join(jcsDir, 'canonDocJCS.txt'), 'utf8').trim());
    expect(sha256Hex(canonicalize(config)) + sha256Hex(canonicalize(doc))).toBe(readFileSync(path.join(jcsDir, 'combinedHashJCS.txt'), 'utf8').trim());
  });

  it('verifies the signed credential with the vector key', () => {
    expect(verifyEddsaJcs2022(signed, proofOf(signed), publicKey, WALL_NOW)).toEqual({ status: 'VALID', proofConfiguration: 'as-written' });
  });

  it('verifies through the wrapper with a key lookup and the expected proof purpose', async () => {
    const seen: string[] = [];
    const result = await verifyDataIntegrity(signed, {
      nowMs: Date.now(),
      expectedProofPurpose: 'assertionMethod',
      lookupKey: (vm) => {
        seen.push(vm);
        return { publicKey };
      },
    });
    expect(result).toMatchObject({ status: 'VALID', reason: null });
    expect(result.proofs).toHaveLength(1);
    expect(result.proofs[0]).toMatchObject({ index: 0, label: 'eddsa-jcs-2022', verificationMethod: proofOf(signed)['verificationMethod'] as string });
    expect(seen).toEqual([proofOf(signed)['verificationMethod']]);
  });

  it('detects a change to the document, to the proof options, and a wrong key', () => {
    const tamperedDoc = { ...signed, name: 'Alumni Credential!' };
    expect(verifyEddsaJcs2022(tamperedDoc, proofOf(signed), publicKey, WALL_NOW)).toEqual({
      status: 'INVALID',
      reason: 'the Ed25519 signature does not verify',
    });
    const tamperedProof = { ...proofOf(signed), created: '2023-02-24T23:36:39Z' };
    expect(verifyEddsaJcs2022(signed, tamperedProof, publicKey, WALL_NOW).status).toBe('INVALID');
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    expect(verifyEddsaJcs2022(signed, proofOf(signed), base64urlDecode(other.x!)!, WALL_NOW).status).toBe('INVALID');
  });

  it('requires the proof @context to be a prefix of the document @context', () => {
    const reordered = { ...signed, '@context': [...(signed['@context'] as string[])].reverse() };
    expect(verifyEddsaJcs2022(reordered, proofOf(signed), publicKey, WALL_NOW)).toEqual({
      status: 'INVALID',
      reason: "the document's @context does not start with the proof's @context",
    });
  });

  it('reports a truncated or non-multibase proofValue', () => {
    const sig = base58Decode((proofOf(signed)['proofValue'] as string).slice(1))!;
    const truncated = { ...proofOf(signed), proofValue: multibaseEncode(sig.subarray(0, 63)) };
    expect(verifyEddsaJcs2022(signed, truncated, publicKey, WALL_NOW)).toEqual({ status: 'INVALID', reason: 'an Ed25519 signature is 64 bytes, not 63' });
    expect(verifyEddsaJcs2022(signed, { ...proofOf(signed), proofValue: `u${base64urlEncode(sig)}` }, publicKey, WALL_NOW)).toEqual({
      status: 'MALFORMED',
      reason: 'the proofValue is not base58btc multibase (prefix "z")',
    });
    expect(verifyEddsaJcs2022(signed, { ...proofOf(signed), proofValue: 'z0OIl' }, publicKey, WALL_NOW).status).toBe('MALFORMED');
    const { proofValue: _pv, ...unsigned } = proofOf(signed);
    expect(verifyEddsaJcs2022(signed, unsigned, publicKey, WALL_NOW)).toEqual({ status: 'MALFORMED', reason: 'the proof has no string "proofValue"' });
  });

  it('calls the JSON-LD suites unsupported, not invalid', () => {
    const edsig = readJson(path.join(dir, 'Ed25519Signature2020', 'signedEdSig.json'));
    expect(verifyEddsaJcs2022(edsig, proofOf(edsig), publicKey, WALL_NOW)).toEqual({
      status: 'UNSUPPORTED',
      reason: 'proof type Ed25519Signature2020 (JSON-LD) is not supported; only eddsa-jcs-2022 is verified',
    });
    const rdfc = readJson(path.join(dir, 'eddsa-rdfc-2022', 'signedDataInt.json'));
    expect(verifyEddsaJcs2022(rdfc, proofOf(rdfc), publicKey, WALL_NOW)).toEqual({
      status: 'UNSUPPORTED',
      reason: 'cryptosuite eddsa-rdfc-2022 (JSON-LD, RDF canonicalization) is not supported; only eddsa-jcs-2022 is verified',
    });
    expect(proofLabel(proofOf(rdfc))).toBe('eddsa-rdfc-2022');
    expect(proofLabel(proofOf(edsig))).toBe('Ed25519Signature2020');
  });

  it('reports the first unsupported proof of an rdfc proof set', async () => {
    const set = readJson(path.join(dir, 'proof-set-chain', 'signedProofSet2.json'));
    const result = await verifyDataIntegrity(set, { lookupKey: () => ({ publicKey }), nowMs: Date.now() });
    expect(result.status).toBe('UNSUPPORTED');
    expect(result.reason).toMatch(/^proof 1 of 2: cryptosuite eddsa-rdfc-2022/);
  });
});

describe('eddsa-jcs-2022: self-signed documents', () => {
  const { privateKey, publicKey: pub } = generateKeyPairSync('ed25519');
  const publicKey = base64urlDecode((pub.export({ format: 'jwk' }) as PublicKeyJwk).x!)!;
  const VM = 'did:example:signer#key-1';
  const DOC = {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: 'urn:uuid:1',
    type: ['VerifiableCredential'],
    issuer: 'did:example:signer',
    credentialSubject: { id: 'did:example:subject', n: 1.5, s: 'é€😀' },
  };
  const OPTIONS = {
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    created: '2025-01-01T00:00:00Z',
    verificationMethod: VM,
    proofPurpose: 'assertionMethod',
  };

  /** Signs as vc-di-eddsa §3.3.1 does; `copyContext: false` omits the proof @context but hashed with it (older drafts), `'none'` neither. */
  function signDoc(doc: Record<string, unknown>, options: Record<string, unknown>, mode: 'current' | 'legacy' | 'none' = 'current'): Record<string, unknown> {
    const proof: Record<string, unknown> = { ...options };
    if (mode === 'current' && doc['@context'] !== undefined) proof['@context'] = doc['@context'];
    const config = mode === 'legacy' ? { ...proof, '@context': doc['@context'] } : proof;
    const data = Buffer.concat([sha256(canonicalize(config)), sha256(canonicalize(doc))]);
    return { ...doc, proof: { ...proof, proofValue: multibaseEncode(new Uint8Array(sign(null, data, privateKey))) } };
  }

  it('verifies the three ways signers write the proof configuration', () => {
    const current = signDoc(DOC, OPTIONS, 'current');
    expect(verifyEddsaJcs2022(current, proofOf(current), publicKey, WALL_NOW)).toEqual({ status: 'VALID', proofConfiguration: 'as-written' });
    const bare = signDoc(DOC, OPTIONS, 'none');
    expect(verifyEddsaJcs2022(bare, proofOf(bare), publicKey, WALL_NOW)).toEqual({ status: 'VALID', proofConfiguration: 'as-written' });
    const legacy = signDoc(DOC, OPTIONS, 'legacy');
    expect(verifyEddsaJcs2022(legacy, proofOf(legacy), publicKey, WALL_NOW)).toEqual({ status: 'VALID', proofConfiguration: 'document-context' });
  });

  it('signs documents without @context (did:webvh log entries)', () => {
    const entry = { versionId: '1-Qm', versionTime: '2025-01-01T00:00:00Z', state: { id: 'did:example:x' } };
    const signed = signDoc(entry, { ...OPTIONS, proofPurpose: 'assertionMethod' });
    expect(proofOf(signed)['@context']).toBeUndefined();
    expect(verifyEddsaJcs2022(signed, proofOf(signed), publicKey, WALL_NOW).status).toBe('VALID');
    expect(verifyEddsaJcs2022({ ...signed, versionId: '2-Qm' }, proofOf(signed), publicKey, WALL_NOW).status).toBe('INVALID');
  });

  it('verifies a proof set proof by proof, and names the failing one', async () => {
    const a = proofOf(signDoc(DOC, OPTIONS));
    const b = proofOf(signDoc(DOC, { ...OPTIONS, created: '2025-02-02T00:00:00Z' }));
    const lookupKey = (): ProofKeyLookup => ({ publicKey });
    expect((await verifyDataIntegrity({ ...DOC, proof: [a, b] }, { lookupKey, nowMs: Date.now() })).status).toBe('VALID');
    const broken = { ...b, created: '2025-03-03T00:00:00Z' };
    const result = await verifyDataIntegrity({ ...DOC, proof: [a, broken] }, { lookupKey, nowMs: Date.now() });
    expect(result).toMatchObject({ status: 'INVALID', reason: 'proof 2 of 2: the Ed25519 signature does not verify' });
    expect(result.proofs.map((p) => p.result.status)).toEqual(['VALID', 'INVALID']);
  });

  it('checks the proof purpose, the verification method, and passes on lookup failures', async () => {
    const signed = signDoc(DOC, { ...OPTIONS, proofPurpose: 'authentication' });
    const lookupKey = (): ProofKeyLookup => ({ publicKey });
    expect(await verifyDataIntegrity(signed, { lookupKey, nowMs: Date.now(), expectedProofPurpose: 'assertionMethod' })).toMatchObject({
      status: 'INVALID',
      reason: "the proof's purpose is authentication, not assertionMethod",
    });
    const noVm = signDoc(DOC, { ...OPTIONS, verificationMethod: undefined });
    expect((await verifyDataIntegrity(noVm, { lookupKey, nowMs: Date.now() })).reason).toBe('the proof has no string "verificationMethod"');
    const failing = await verifyDataIntegrity(signDoc(DOC, OPTIONS), {
      nowMs: Date.now(),
      lookupKey: async () => ({ status: 'INVALID', reason: 'the key is not in the document' }),
    });
    expect(failing).toMatchObject({ status: 'INVALID', reason: 'the key is not in the document' });
  });

  it('reports documents without proofs, empty proof sets and proof chains', async () => {
    const lookupKey = (): ProofKeyLookup => ({ publicKey });
    expect(await verifyDataIntegrity(DOC, { lookupKey, nowMs: Date.now() })).toMatchObject({ status: 'MALFORMED', reason: 'the document has no proof' });
    expect(await verifyDataIntegrity({ ...DOC, proof: [] }, { lookupKey, nowMs: Date.now() })).toMatchObject({
      status: 'MALFORMED',
      reason: 'the proof set is empty',
    });
    const chained = signDoc(DOC, { ...OPTIONS, previousProof: 'urn:uuid:p1' });
    expect(verifyEddsaJcs2022(chained, proofOf(chained), publicKey, WALL_NOW)).toEqual({
      status: 'UNSUPPORTED',
      reason: 'proof chains ("previousProof") are not supported',
    });
    const badCreated = signDoc(DOC, { ...OPTIONS, created: '2025-02-30T00:00:00Z' });
    expect(verifyEddsaJcs2022(badCreated, proofOf(badCreated), publicKey, WALL_NOW)).toEqual({
      status: 'MALFORMED',
      reason: 'the proof\'s "created" is not a dateTimeStamp (a date-time with a time-zone offset or Z): "2025-02-30T00:00:00Z"',
    });
  });

  it('checks the proof window: created and expires dateTimeStamps, expires past, created ahead (60 s skew)', () => {
    const now = Date.parse('2025-06-01T00:00:00Z');
    const check = (extra: Record<string, unknown>) => {
      const doc = signDoc(DOC, { ...OPTIONS, ...extra });
      return verifyEddsaJcs2022(doc, proofOf(doc), publicKey, now);
    };
    expect(check({ expires: '2025-06-02T00:00:00Z' }).status).toBe('VALID');
    expect(check({ expires: '2025-06-01T00:00:30Z', created: '2025-06-01T00:00:59Z' }).status).toBe('VALID');
    expect(check({ expires: '2025-05-31T23:59:00Z' })).toEqual({
      status: 'INVALID',
      reason: 'the proof expired: "expires" 2025-05-31T23:59:00Z is before 2025-06-01T00:00:00Z',
    });
    expect(check({ expires: 'invalidDate' })).toMatchObject({ status: 'MALFORMED', reason: expect.stringContaining('"expires" is not a dateTimeStamp') });
    expect(check({ expires: '2025-06-02T00:00:00' })).toMatchObject({
      status: 'MALFORMED',
      reason: expect.stringContaining('"expires" is not a dateTimeStamp'),
    });
    expect(check({ created: '2025-01-01T00:00:00' })).toMatchObject({
      status: 'MALFORMED',
      reason: expect.stringContaining('"created" is not a dateTimeStamp'),
    });
    expect(check({ created: '2025-06-01T00:01:01Z' })).toMatchObject({ status: 'INVALID', reason: expect.stringContaining('created in the future') });
  });

  it('classifies other proof kinds without verifying them', () => {
    expect(checkProofSupport({ type: 'DataIntegrityProof', cryptosuite: 'ecdsa-rdfc-2019' })).toEqual({
      status: 'UNSUPPORTED',
      reason: 'cryptosuite ecdsa-rdfc-2019 (JSON-LD, RDF canonicalization) is not supported; only eddsa-jcs-2022 is verified',
    });
    expect(checkProofSupport({ type: 'Ed25519Signature2018' }, 'only eddsa-jcs-2022 and JWT are verified')?.reason).toBe(
      'proof type Ed25519Signature2018 (JSON-LD) is not supported; only eddsa-jcs-2022 and JWT are verified',
    );
    expect(checkProofSupport({ type: 'DataIntegrityProof' })).toEqual({ status: 'MALFORMED', reason: 'the DataIntegrityProof has no string "cryptosuite"' });
    expect(checkProofSupport('proof')).toEqual({ status: 'MALFORMED', reason: 'the proof is not a JSON object' });
    expect(checkProofSupport({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022' })).toBeNull();
  });

  it('never throws for values that are not JSON', () => {
    const signed = signDoc(DOC, OPTIONS);
    const result: DataIntegrityResult = verifyEddsaJcs2022({ ...signed, bad: () => 1 } as Record<string, unknown>, proofOf(signed), publicKey, WALL_NOW);
    expect(result.status).not.toBe('VALID');
  });
});

describe('date-time stamps', () => {
  it('parses RFC 3339 stamps with offsets, and refuses impossible or zone-less ones', () => {
    expect(parseDateTime('2020-12-04T14:08:28-06:00')?.toISOString()).toBe('2020-12-04T20:08:28.000Z');
    expect(parseDateTime('2024-02-29T23:59:59.5Z')?.toISOString()).toBe('2024-02-29T23:59:59.500Z');
    for (const bad of [
      '2023-02-29T00:00:00Z',
      '2025-02-30T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T00:00:00',
      '2025-01-01',
      'yesterday',
    ]) {
      expect(parseDateTime(bad), bad).toBeNull();
    }
    expect(numericDate(1764879139)?.toISOString()).toBe('2025-12-04T20:12:19.000Z');
    expect(numericDate('1764879139')).toBeNull();
    expect(numericDate(Number.POSITIVE_INFINITY)).toBeNull();
  });
});
