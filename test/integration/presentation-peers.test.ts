/**
 * Presentations made during the run by independent libraries verify with svc's presentation
 * verifier: @digitalbazaar/vc Data Integrity presentations (eddsa-jcs-2022, `authentication`,
 * challenge and domain) carrying eddsa-jcs-2022 and ecdsa-jcs-2019 credentials, `jose` vp+jwt
 * (VC-JOSE-COSE) carrying enveloped vc+jwt credentials, did-jwt-vc VC-JWT 1.1 presentations
 * carrying VC-JWT 1.1 credentials, and an @sd-jwt/sd-jwt-vc SD-JWT VC with a KB-JWT carried as
 * an enveloped credential — did:key holders and issuers, resolved by svc's core, on a fixed clock.
 *
 * Each is VALID with the challenge and domain (nonce and aud) its maker bound it to, and each
 * way of breaking it — wrong challenge, wrong domain, no challenge when one is required, a KB-JWT
 * nonce other than the expected one, an expired presentation, one byte changed in an embedded
 * credential — gives the status that says so, the failing check names what failed, and the
 * embedded credential's own result says why. @digitalbazaar/vc refuses the same tampering.
 */
import * as jose from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import type { PresentationCheckId, PresentationVerification, VerifyPresentationOptions } from '../../src/core/presentations/types.js';
import { verifyPresentation } from '../../src/core/presentations/verify.js';
import {
  issueDi,
  issueVcJwt,
  issueVcJwt11,
  jwtIssuer,
  peerEd25519Issuer,
  peerP256Issuer,
  unsignedCredential,
  unsignedCredential11,
  type Json,
  type JwtIssuer,
  type PeerIssuer,
} from '../support/peer-issuers.js';
import {
  CHALLENGE,
  DOMAIN,
  EXPIRES_AT,
  PRESENTED_AT,
  envelopedCredential,
  issueSdJwtVc,
  peerHolder,
  peerVerifyDiPresentation,
  signDiPresentation,
  signVpJwt,
  signVpJwt11,
  tamperJwsPayload,
  unsignedPresentation,
  type PeerHolder,
} from '../support/peer-presentations.js';
import { fixedClock, testRuntime, type TestClock } from '../support/runtime.js';

type Options = Omit<VerifyPresentationOptions, 'runtime'>;

/** svc's verdict at PRESENTED_AT (or on `clock`), asked for CHALLENGE and DOMAIN unless `options` says otherwise. */
function verify(input: unknown, options: Options = {}, clock: TestClock = fixedClock(PRESENTED_AT)): Promise<PresentationVerification> {
  return verifyPresentation(input, { challenge: CHALLENGE, domain: DOMAIN, ...options, runtime: testRuntime(clock) });
}

function check(result: PresentationVerification, id: PresentationCheckId) {
  const found = result.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no "${id}" check in ${JSON.stringify(result.checks)}`);
  return found;
}

function statuses(result: PresentationVerification): Record<string, string> {
  return Object.fromEntries(result.checks.map((c) => [c.id, c.status]));
}

function credentialCheck(verification: CredentialVerification, id: string) {
  const found = verification.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no "${id}" check in ${JSON.stringify(verification.checks)}`);
  return found;
}

/** Every presentation check PASS (what a VALID presentation with everything asked of it shows). */
const ALL_PASS = {
  structure: 'PASS',
  holder: 'PASS',
  proof: 'PASS',
  validity: 'PASS',
  challenge: 'PASS',
  domain: 'PASS',
  credentials: 'PASS',
  holderBinding: 'PASS',
};

/** A credential body about `subject` (its `credentialSubject.id`) by `issuer`. */
function about(issuer: string, subject: string, id: number): Json {
  return unsignedCredential(issuer, {
    id: `urn:uuid:4c9f3a2e-0000-4000-8000-00000000010${id}`,
    credentialSubject: { id: subject, name: 'Alice' },
  });
}

let holder: PeerHolder;
let other: PeerHolder;
let edIssuer: PeerIssuer;
let p256Issuer: PeerIssuer;
let jwtEd: JwtIssuer;
let jwtP256: JwtIssuer;

beforeAll(async () => {
  holder = await peerHolder(21);
  other = await peerHolder(22);
  edIssuer = await peerEd25519Issuer(31);
  p256Issuer = await peerP256Issuer();
  jwtEd = jwtIssuer('EdDSA', new Uint8Array(32).fill(41));
  jwtP256 = jwtIssuer('ES256', new Uint8Array(32).fill(42));
});

// ---------------------------------------------------------------------------------------------
// Data Integrity presentations by @digitalbazaar/vc
// ---------------------------------------------------------------------------------------------

describe('Data Integrity presentations signed by @digitalbazaar/vc (eddsa-jcs-2022, authentication)', () => {
  let credentials: Json[];
  let presentation: Json;

  beforeAll(async () => {
    credentials = [await issueDi(about(edIssuer.did, holder.did, 1), edIssuer), await issueDi(about(p256Issuer.did, holder.did, 2), p256Issuer)];
    presentation = await signDiPresentation(unsignedPresentation(holder.did, credentials), holder);
  });

  it('carrying eddsa-jcs-2022 and ecdsa-jcs-2019 credentials about the holder: VALID with its challenge and domain, as the peer says', async () => {
    expect(await peerVerifyDiPresentation(presentation)).toEqual({ verified: true, presentationVerified: true, credentialsVerified: [true, true] });
    const result = await verify(presentation);
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(statuses(result)).toEqual(ALL_PASS);
    expect(result).toMatchObject({ format: 'DATA_INTEGRITY', dataModel: '2.0', holder: holder.did, challenge: CHALLENGE, domain: [DOMAIN] });
    expect(result.types).toContain('VerifiablePresentation');
    expect(result.proof).toMatchObject({
      format: 'DATA_INTEGRITY',
      suite: 'eddsa-jcs-2022',
      verificationMethod: holder.verificationMethod,
      proofPurpose: 'authentication',
    });
    expect(result.holderResolution).toMatchObject({ did: holder.did, outcome: 'RESOLVED', problem: null });
    expect(result.credentials.map((c) => [c.index, c.form, c.holderBinding, c.verification.status, c.verification.proof?.suite])).toEqual([
      [0, 'OBJECT', 'BOUND', 'VALID', 'eddsa-jcs-2022'],
      [1, 'OBJECT', 'BOUND', 'VALID', 'ecdsa-jcs-2019'],
    ]);
    expect(result.credentials.map((c) => c.verification.issuer)).toEqual([edIssuer.did, p256Issuer.did]);
  });

  it('the same presentation as raw JSON text verifies alike', async () => {
    expect((await verify(JSON.stringify(presentation, null, 2))).status).toBe('VALID');
  });

  it('a verifier that asked another challenge: INVALID, the challenge check FAIL names both; the peer refuses it too', async () => {
    const result = await verify(presentation, { challenge: 'another-challenge-0000' });
    expect(result.status).toBe('INVALID');
    expect(check(result, 'challenge').status).toBe('FAIL');
    expect(check(result, 'challenge').detail).toContain('another-challenge-0000');
    expect(check(result, 'challenge').detail).toContain(CHALLENGE);
    // Nothing else is wrong with it.
    expect(statuses(result)).toEqual({ ...ALL_PASS, challenge: 'FAIL' });
    expect(result.errors.length).toBeGreaterThan(0);
    expect((await peerVerifyDiPresentation(presentation, { challenge: 'another-challenge-0000' })).presentationVerified).toBe(false);
  });

  it('a verifier of another domain: INVALID, the domain check FAIL names it; the peer refuses it too', async () => {
    const result = await verify(presentation, { domain: 'https://elsewhere.example' });
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toEqual({ ...ALL_PASS, domain: 'FAIL' });
    expect(check(result, 'domain').detail).toContain('https://elsewhere.example');
    expect((await peerVerifyDiPresentation(presentation, { domain: 'https://elsewhere.example' })).presentationVerified).toBe(false);
  });

  it('a proof bound to no challenge when the verifier gave one: INVALID (challenge FAIL), though its signature is good', async () => {
    const unbound = await signDiPresentation(unsignedPresentation(holder.did, credentials), holder, { challenge: null });
    expect((unbound['proof'] as Json)['challenge']).toBeUndefined();
    const result = await verify(unbound, { domain: undefined });
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').status).toBe('PASS');
    expect(check(result, 'challenge').status).toBe('FAIL');
    expect(check(result, 'challenge').detail).toMatch(/challenge/i);
    expect(result.challenge).toBeNull();
  });

  it('no challenge asked: the proof’s challenge is reported but not passed as checked', async () => {
    const result = await verify(presentation, { challenge: undefined, domain: undefined });
    expect(result.challenge).toBe(CHALLENGE);
    expect(['SKIP', 'WARN']).toContain(check(result, 'challenge').status);
    expect(['SKIP', 'WARN']).toContain(check(result, 'domain').status);
    expect(check(result, 'proof').status).toBe('PASS');
  });

  it('a proof that expires: VALID before; after, INVALID with the proof FAIL naming its "expires" (a Data Integrity proof past its expiry, as for credentials)', async () => {
    const expiring = await signDiPresentation(unsignedPresentation(holder.did, credentials), holder, { expires: EXPIRES_AT });
    const clock = fixedClock(PRESENTED_AT);
    expect((await verify(expiring, {}, clock)).status).toBe('VALID');
    clock.advance(60 * 60 * 1000);
    const result = await verify(expiring, {}, clock);
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').status).toBe('FAIL');
    expect(check(result, 'proof').detail).toMatch(/expire/);
    expect(check(result, 'proof').detail).toContain(EXPIRES_AT);
    // The peer checks no "expires" (it verifies the same presentation at any time).
    expect((await peerVerifyDiPresentation(expiring)).verified).toBe(true);
  });

  it('one byte changed in an embedded credential: INVALID, the presentation proof FAIL (it covers the credential; nothing after it is checked); the peer agrees', async () => {
    const tampered = structuredClone(presentation);
    ((tampered['verifiableCredential'] as Json[])[0]!['credentialSubject'] as Json)['name'] = 'Alicf';
    expect(await peerVerifyDiPresentation(tampered)).toEqual({ verified: false, presentationVerified: false, credentialsVerified: [false, true] });
    const result = await verify(tampered);
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').status).toBe('FAIL');
    expect(check(result, 'proof').detail).toMatch(/signature|verif/i);
    expect(statuses(result)).toMatchObject({ structure: 'PASS', proof: 'FAIL', credentials: 'SKIP' });
  });

  it('a holder who signs over a tampered credential: the presentation proof PASS, the credentials check FAIL names the credential; the peer agrees', async () => {
    const bad = structuredClone(credentials[0]!);
    (bad['credentialSubject'] as Json)['name'] = 'Alicf';
    const signedOver = await signDiPresentation(unsignedPresentation(holder.did, [credentials[1]!, bad]), holder);
    expect(await peerVerifyDiPresentation(signedOver)).toEqual({ verified: false, presentationVerified: true, credentialsVerified: [true, false] });
    const result = await verify(signedOver);
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ proof: 'PASS', challenge: 'PASS', domain: 'PASS', credentials: 'FAIL' });
    expect(check(result, 'credentials').detail).toMatch(/credential 2 of 2 is INVALID/i);
    const embedded = result.credentials[1]!.verification;
    expect(embedded.status).toBe('INVALID');
    expect(credentialCheck(embedded, 'proof').status).toBe('FAIL');
    expect(embedded.errors.length).toBeGreaterThan(0);
    expect(result.credentials[0]!.verification.status).toBe('VALID');
  });

  it('one byte changed in the presentation itself: INVALID, proof FAIL; the peer agrees, its credentials verified', async () => {
    const tampered = { ...structuredClone(presentation), id: 'urn:uuid:7a1e0c52-0000-4000-8000-00000000000b' };
    expect(await peerVerifyDiPresentation(tampered)).toEqual({ verified: false, presentationVerified: false, credentialsVerified: [true, true] });
    const result = await verify(tampered);
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').status).toBe('FAIL');
    expect(result.errors).toHaveLength(1);
  });

  it('signed by a key that is not the holder’s: INVALID (holder FAIL)', async () => {
    const foreign = await signDiPresentation(unsignedPresentation(holder.did, credentials), other);
    const result = await verify(foreign);
    expect(result.status).toBe('INVALID');
    expect(check(result, 'holder').status).toBe('FAIL');
    expect(check(result, 'holder').detail).toContain(holder.did);
  });

  it('a credential about someone else: reported NOT_BOUND (WARN), INVALID when holder binding is required', async () => {
    const elsewhere = await issueDi(about(edIssuer.did, other.did, 3), edIssuer);
    const mixed = await signDiPresentation(unsignedPresentation(holder.did, [credentials[0]!, elsewhere]), holder);
    const lenient = await verify(mixed);
    expect(lenient.credentials.map((c) => c.holderBinding)).toEqual(['BOUND', 'NOT_BOUND']);
    expect(check(lenient, 'holderBinding').status).toBe('WARN');
    expect(lenient.status).toBe('VALID');
    const strict = await verify(mixed, { requireHolderBinding: true });
    expect(strict.status).toBe('INVALID');
    expect(check(strict, 'holderBinding').status).toBe('FAIL');
  });
});

// ---------------------------------------------------------------------------------------------
// vp+jwt (VC-JOSE-COSE) by jose
// ---------------------------------------------------------------------------------------------

describe('vp+jwt presentations signed with jose, carrying enveloped vc+jwt credentials', () => {
  let tokens: string[];
  let body: Json;
  let vpJwt: string;

  beforeAll(async () => {
    tokens = [await issueVcJwt(about(jwtEd.did, holder.did, 4), jwtEd), await issueVcJwt(about(jwtP256.did, holder.did, 5), jwtP256)];
    body = unsignedPresentation(
      holder.did,
      tokens.map((t) => envelopedCredential('application/vc+jwt', t)),
    );
    vpJwt = await signVpJwt(body, holder);
  });

  it('VALID with its nonce as the challenge and its aud as the domain', async () => {
    const result = await verify(vpJwt);
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(statuses(result)).toEqual(ALL_PASS);
    expect(result).toMatchObject({ format: 'VC_JOSE_COSE', dataModel: '2.0', holder: holder.did, challenge: CHALLENGE, domain: [DOMAIN] });
    expect(result.proof).toMatchObject({ format: 'VC_JOSE_COSE', suite: 'EdDSA', verificationMethod: holder.verificationMethod });
    expect(result.credentials.map((c) => [c.form, c.holderBinding, c.verification.status, c.verification.format, c.verification.proof?.suite])).toEqual([
      ['ENVELOPED', 'BOUND', 'VALID', 'VC_JOSE_COSE', 'EdDSA'],
      ['ENVELOPED', 'BOUND', 'VALID', 'VC_JOSE_COSE', 'ES256'],
    ]);
  });

  it('another nonce asked: INVALID, challenge FAIL; another audience: INVALID, domain FAIL', async () => {
    const nonce = await verify(vpJwt, { challenge: 'another-nonce-1111' });
    expect(nonce.status).toBe('INVALID');
    expect(statuses(nonce)).toEqual({ ...ALL_PASS, challenge: 'FAIL' });
    expect(check(nonce, 'challenge').detail).toContain('another-nonce-1111');
    const audience = await verify(vpJwt, { domain: 'https://elsewhere.example' });
    expect(audience.status).toBe('INVALID');
    expect(statuses(audience)).toEqual({ ...ALL_PASS, domain: 'FAIL' });
    expect(check(audience, 'domain').detail).toContain('https://elsewhere.example');
  });

  it('no nonce in the token when the verifier gave a challenge: INVALID, challenge FAIL', async () => {
    const unbound = await signVpJwt(body, holder, { nonce: null });
    const result = await verify(unbound);
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').status).toBe('PASS');
    expect(check(result, 'challenge').status).toBe('FAIL');
    expect(result.challenge).toBeNull();
  });

  it('exp: VALID before, EXPIRED once the clock is past it (validity FAIL)', async () => {
    const expiring = await signVpJwt(body, holder, { exp: EXPIRES_AT });
    const clock = fixedClock(PRESENTED_AT);
    expect((await verify(expiring, {}, clock)).status).toBe('VALID');
    clock.advance(60 * 60 * 1000);
    const result = await verify(expiring, {}, clock);
    expect(result.status).toBe('EXPIRED');
    expect(check(result, 'validity').status).toBe('FAIL');
    expect(check(result, 'validity').detail).toContain(EXPIRES_AT);
  });

  it('one byte changed in an enveloped credential the holder signed over: INVALID, credentials FAIL, the credential’s proof FAIL', async () => {
    const tampered = unsignedPresentation(holder.did, [
      envelopedCredential('application/vc+jwt', tokens[0]!),
      envelopedCredential('application/vc+jwt', tamperJwsPayload(tokens[1]!)),
    ]);
    const result = await verify(await signVpJwt(tampered, holder));
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ proof: 'PASS', credentials: 'FAIL' });
    expect(result.credentials[0]!.verification.status).toBe('VALID');
    expect(result.credentials[1]!.verification.status).toBe('INVALID');
    expect(credentialCheck(result.credentials[1]!.verification, 'proof').status).toBe('FAIL');
  });

  it('one byte changed in the vp+jwt payload: INVALID, proof FAIL', async () => {
    const result = await verify(tamperJwsPayload(vpJwt, CHALLENGE, `${CHALLENGE.slice(0, -1)}d`), { challenge: `${CHALLENGE.slice(0, -1)}d` });
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').status).toBe('FAIL');
  });
});

// ---------------------------------------------------------------------------------------------
// VC-JWT 1.1 by did-jwt-vc
// ---------------------------------------------------------------------------------------------

describe('VC-JWT 1.1 presentations made by did-jwt-vc, carrying VC-JWT 1.1 credentials', () => {
  let token: string;
  let credential: string;

  beforeAll(async () => {
    credential = await issueVcJwt11(unsignedCredential11(), jwtEd, { sub: holder.did });
    token = await signVpJwt11([credential], holder);
  });

  it('VALID with its nonce and aud; the holder is the `iss`, the credential a JWT string', async () => {
    const result = await verify(token);
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(statuses(result)).toEqual(ALL_PASS);
    expect(result).toMatchObject({ format: 'VC_JWT_1_1', dataModel: '1.1', holder: holder.did, challenge: CHALLENGE, domain: [DOMAIN] });
    expect(result.credentials.map((c) => [c.form, c.holderBinding, c.verification.status, c.verification.format])).toEqual([
      ['JWT', 'BOUND', 'VALID', 'VC_JWT_1_1'],
    ]);
    expect(result.holderResolution).toMatchObject({ did: holder.did, outcome: 'RESOLVED' });
  });

  it('another nonce: INVALID (challenge FAIL); another aud: INVALID (domain FAIL); no nonce: INVALID', async () => {
    expect(statuses(await verify(token, { challenge: 'another-nonce-2222' }))).toEqual({ ...ALL_PASS, challenge: 'FAIL' });
    expect(statuses(await verify(token, { domain: 'https://elsewhere.example' }))).toEqual({ ...ALL_PASS, domain: 'FAIL' });
    const unbound = await verify(await signVpJwt11([credential], holder, { nonce: null }));
    expect(unbound.status).toBe('INVALID');
    expect(check(unbound, 'challenge').status).toBe('FAIL');
  });

  it('exp passed: EXPIRED (validity FAIL)', async () => {
    const expiring = await signVpJwt11([credential], holder, { exp: EXPIRES_AT });
    const clock = fixedClock(PRESENTED_AT);
    expect((await verify(expiring, {}, clock)).status).toBe('VALID');
    clock.advance(60 * 60 * 1000);
    const result = await verify(expiring, {}, clock);
    expect(result.status).toBe('EXPIRED');
    expect(check(result, 'validity').status).toBe('FAIL');
  });

  it('a tampered credential the holder signed over: INVALID, credentials FAIL, the credential’s proof FAIL', async () => {
    const result = await verify(await signVpJwt11([tamperJwsPayload(credential)], holder));
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ proof: 'PASS', credentials: 'FAIL' });
    expect(credentialCheck(result.credentials[0]!.verification, 'proof').status).toBe('FAIL');
  });

  it('naming the holder as `iss` but signed by another key: INVALID (proof FAIL)', async () => {
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Json;
    const forged = await new jose.SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' }).sign(other.jwt.privateKey);
    const result = await verify(forged);
    expect(result.status).toBe('INVALID');
    expect(result.holder).toBe(holder.did);
    expect(check(result, 'proof').status).toBe('FAIL');
  });
});

// ---------------------------------------------------------------------------------------------
// SD-JWT VC with a KB-JWT, enveloped in a presentation
// ---------------------------------------------------------------------------------------------

describe('an SD-JWT VC by @sd-jwt/sd-jwt-vc with a KB-JWT, carried as an enveloped credential', () => {
  let sdJwt: string;
  let presentation: Json;

  beforeAll(async () => {
    sdJwt = await issueSdJwtVc(jwtEd, holder);
    presentation = await signDiPresentation(unsignedPresentation(holder.did, [envelopedCredential('application/dc+sd-jwt', sdJwt)]), holder);
  });

  it('in a Data Integrity presentation with the expected KB-JWT nonce: VALID, the key binding by the presentation’s signer (BOUND)', async () => {
    const result = await verify(presentation, { expectedNonce: CHALLENGE, expectedAudience: DOMAIN });
    expect(result.status, JSON.stringify([result.checks, result.credentials[0]?.verification.checks])).toBe('VALID');
    const [embedded] = result.credentials;
    expect(embedded).toMatchObject({ index: 0, form: 'ENVELOPED', holderBinding: 'BOUND' });
    expect(embedded!.verification).toMatchObject({ status: 'VALID', format: 'SD_JWT_VC', issuer: jwtEd.did });
    expect(embedded!.verification.disclosures?.keyBinding).toMatchObject({ status: 'PASS', nonce: CHALLENGE, audience: DOMAIN });
    expect(credentialCheck(embedded!.verification, 'kb.nonce').status).toBe('PASS');
  });

  it('a KB-JWT nonce other than the expected one: INVALID, credentials FAIL, the credential names the nonce', async () => {
    const result = await verify(presentation, { expectedNonce: 'the-verifiers-nonce-3333', expectedAudience: DOMAIN });
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ proof: 'PASS', challenge: 'PASS', credentials: 'FAIL' });
    const embedded = result.credentials[0]!.verification;
    expect(embedded.status).toBe('INVALID');
    // The KB-JWT itself is sound (signed by cnf, over this SD-JWT); it was made for another nonce.
    expect(embedded.disclosures?.keyBinding).toMatchObject({ status: 'PASS', nonce: CHALLENGE });
    expect(credentialCheck(embedded, 'kb.nonce').status).toBe('FAIL');
    expect(credentialCheck(embedded, 'kb.nonce').detail).toContain('the-verifiers-nonce-3333');
    expect(credentialCheck(embedded, 'kb.nonce').detail).toContain(CHALLENGE);
    expect(embedded.errors.join(' ')).toMatch(/nonce/i);
  });

  it('in a vp+jwt too: VALID with the nonce, INVALID with another', async () => {
    const vpJwt = await signVpJwt(unsignedPresentation(holder.did, [envelopedCredential('application/dc+sd-jwt', sdJwt)]), holder);
    expect((await verify(vpJwt, { expectedNonce: CHALLENGE, expectedAudience: DOMAIN })).status).toBe('VALID');
    const wrong = await verify(vpJwt, { expectedNonce: 'the-verifiers-nonce-4444', expectedAudience: DOMAIN });
    expect(wrong.status).toBe('INVALID');
    expect(check(wrong, 'credentials').status).toBe('FAIL');
  });

  it('one byte changed in a disclosed claim: INVALID, the credential’s proof FAIL', async () => {
    const [jws, ...rest] = sdJwt.split('~') as [string, ...string[]];
    // The first disclosure is base64url JSON [salt, name, value]: change one byte of its value.
    const disclosure = JSON.parse(Buffer.from(rest[0]!, 'base64url').toString('utf8')) as [string, string, string];
    disclosure[2] = `${disclosure[2].slice(0, -1)}${disclosure[2].endsWith('a') ? 'b' : 'a'}`;
    const tampered = [jws, Buffer.from(JSON.stringify(disclosure)).toString('base64url'), ...rest.slice(1)].join('~');
    const signedOver = await signDiPresentation(unsignedPresentation(holder.did, [envelopedCredential('application/dc+sd-jwt', tampered)]), holder);
    const result = await verify(signedOver, { expectedNonce: CHALLENGE, expectedAudience: DOMAIN });
    expect(result.status).toBe('INVALID');
    expect(check(result, 'credentials').status).toBe('FAIL');
    expect(result.credentials[0]!.verification.status).not.toBe('VALID');
  });

  it('an SD-JWT VC bound to another key than the presentation’s signer: NOT_BOUND', async () => {
    const foreign = await issueSdJwtVc(jwtEd, other);
    const vp = await signDiPresentation(unsignedPresentation(holder.did, [envelopedCredential('application/dc+sd-jwt', foreign)]), holder);
    const result = await verify(vp, { expectedNonce: CHALLENGE, expectedAudience: DOMAIN, requireHolderBinding: true });
    expect(result.credentials[0]!.holderBinding).toBe('NOT_BOUND');
    expect(result.status).toBe('INVALID');
    expect(check(result, 'holderBinding').status).toBe('FAIL');
  });
});
