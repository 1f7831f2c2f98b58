/**
 * The presentation verifier's own rules, on presentations made during the run by
 * @digitalbazaar/vc (Data Integrity, eddsa-jcs-2022, authentication with challenge and domain)
 * and jose (vp+jwt): challenge and domain compared with the caller's, the holder's key
 * authorised for authentication, each credential verified, holder binding reported or required,
 * and what is refused before any work.
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as eddsaJcs from '@digitalbazaar/eddsa-jcs-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import * as jose from 'jose';
import jsigs from 'jsonld-signatures';
import { describe, expect, it } from 'vitest';
import type { PresentationVerification } from '../../src/core/presentations/types.js';
import { verifyPresentation } from '../../src/core/presentations/verify.js';
import {
  DEFAULT_CREATED,
  issueDi,
  issueVcJwt,
  jwtIssuer,
  offlineDocumentLoader,
  peerEd25519Issuer,
  unsignedCredential,
  VC2_CONTEXT,
  type Json,
  type PeerIssuer,
} from '../support/peer-issuers.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const runtime = (at = '2025-06-01T00:00:00Z') => testRuntime(fixedClock(at));
const CHALLENGE = 'c0ffee-42';
const DOMAIN = 'https://verifier.example';

function statuses(result: PresentationVerification): Record<string, string> {
  return Object.fromEntries(result.checks.map((c) => [c.id, c.status]));
}

function detail(result: PresentationVerification, id: string): string {
  return result.checks.find((c) => c.id === id)?.detail ?? '';
}

/** A holder whose key signs presentations for authentication (did:key puts it there). */
async function holderKey(seed: number): Promise<PeerIssuer> {
  const holder = await peerEd25519Issuer(seed);
  holder.keyPair.id = `${holder.did}#${holder.did.slice('did:key:'.length)}`;
  return holder;
}

/** Signed by @digitalbazaar/vc `signPresentation`; without a challenge (which it requires) by jsonld-signatures for authentication. */
async function signVp(presentation: Json, holder: PeerIssuer, options: { challenge?: string; domain?: string } = {}): Promise<Json> {
  const suite = new DataIntegrityProof({ signer: holder.keyPair.signer(), date: DEFAULT_CREATED, cryptosuite: eddsaJcs.createSignCryptosuite() });
  if (options.challenge !== undefined)
    return vc.signPresentation({
      presentation: structuredClone(presentation),
      suite,
      documentLoader: offlineDocumentLoader,
      ...options,
      challenge: options.challenge,
    });
  const proof = await jsigs.sign(structuredClone(presentation), {
    suite,
    purpose: new jsigs.purposes.ControllerProofPurpose({ term: 'authentication', ...(options.domain ? { domain: options.domain } : {}) }),
    documentLoader: offlineDocumentLoader,
  });
  return proof;
}

async function fixture() {
  const issuer = await peerEd25519Issuer(3);
  const holder = await holderKey(4);
  const credential = await issueDi(unsignedCredential(issuer.did, { credentialSubject: { id: holder.did, name: 'Alice' } }), issuer);
  const presentation = { '@context': [VC2_CONTEXT], type: ['VerifiablePresentation'], holder: holder.did, verifiableCredential: [credential] };
  const signed = await signVp(presentation, holder, { challenge: CHALLENGE, domain: DOMAIN });
  return { issuer, holder, credential, presentation, signed };
}

describe('Data Integrity presentations (@digitalbazaar/vc, eddsa-jcs-2022)', async () => {
  const { issuer, holder, credential, presentation, signed } = await fixture();

  it('is VALID with the challenge and domain the holder signed, each check passing', async () => {
    const result = await verifyPresentation(signed, { runtime: runtime(), challenge: CHALLENGE, domain: DOMAIN });
    expect(result.status, result.headline).toBe('VALID');
    expect(statuses(result)).toEqual({
      structure: 'PASS',
      holder: 'PASS',
      proof: 'PASS',
      validity: 'PASS',
      challenge: 'PASS',
      domain: 'PASS',
      credentials: 'PASS',
      holderBinding: 'PASS',
    });
    expect(result).toMatchObject({ format: 'DATA_INTEGRITY', dataModel: '2.0', holder: holder.did, challenge: CHALLENGE, domain: [DOMAIN], valid: true });
    expect(result.proof).toMatchObject({ suite: 'eddsa-jcs-2022', proofPurpose: 'authentication' });
    expect(result.credentials).toHaveLength(1);
    expect(result.credentials[0]).toMatchObject({ index: 0, form: 'OBJECT', holderBinding: 'BOUND' });
    expect(result.credentials[0]!.verification).toMatchObject({ status: 'VALID', issuer: issuer.did });
  });

  it('is INVALID with another challenge or domain, naming both values', async () => {
    const challenge = await verifyPresentation(signed, { runtime: runtime(), challenge: 'another', domain: DOMAIN });
    expect(challenge.status).toBe('INVALID');
    expect(statuses(challenge).challenge).toBe('FAIL');
    expect(detail(challenge, 'challenge')).toContain(CHALLENGE);
    expect(detail(challenge, 'challenge')).toContain('another');
    const domain = await verifyPresentation(signed, { runtime: runtime(), challenge: CHALLENGE, domain: 'https://elsewhere.example' });
    expect(domain.status).toBe('INVALID');
    expect(statuses(domain).domain).toBe('FAIL');
    expect(domain.headline).toContain('https://elsewhere.example');
  });

  it('is INVALID when a challenge was required and the proof states none, never skipped', async () => {
    const bare = await signVp(presentation, holder, { domain: DOMAIN });
    const result = await verifyPresentation(bare, { runtime: runtime(), challenge: CHALLENGE, domain: DOMAIN });
    expect(result.status).toBe('INVALID');
    expect(detail(result, 'challenge')).toMatch(/states no challenge/);
  });

  it('without a challenge or domain given, skips both and says what was not excluded', async () => {
    const result = await verifyPresentation(signed, { runtime: runtime() });
    expect(result.status).toBe('VALID');
    expect(statuses(result)).toMatchObject({ challenge: 'SKIP', domain: 'SKIP' });
    expect(result.limitations.join(' ')).toMatch(/not a replay/);
    expect(result.limitations.join(' ')).toMatch(/meant for this verifier/);
  });

  it('a changed byte in the presentation or in its credential is INVALID, naming the check', async () => {
    const edited = structuredClone(signed) as Json;
    edited['holder'] = `${holder.did}x`;
    const byHolder = await verifyPresentation(edited, { runtime: runtime(), challenge: CHALLENGE, domain: DOMAIN });
    expect(byHolder.status).toBe('INVALID');
    const tampered = structuredClone(signed) as { verifiableCredential: Array<{ credentialSubject: { name: string } }> };
    tampered.verifiableCredential[0]!.credentialSubject.name = 'Alicf';
    const result = await verifyPresentation(tampered, { runtime: runtime(), challenge: CHALLENGE, domain: DOMAIN });
    // The presentation's proof covers its credentials: it fails first.
    expect(result.status).toBe('INVALID');
    expect(statuses(result).proof).toBe('FAIL');
  });

  it('a credential whose own proof fails is reported by index, its status the presentation’s', async () => {
    const broken = structuredClone(credential) as { credentialSubject: { name: string } };
    broken.credentialSubject.name = 'Alicf';
    const vp = await signVp({ ...presentation, verifiableCredential: [credential, broken] }, holder, { challenge: CHALLENGE, domain: DOMAIN });
    const result = await verifyPresentation(vp, { runtime: runtime(), challenge: CHALLENGE, domain: DOMAIN });
    expect(result.status).toBe('INVALID');
    expect(statuses(result)).toMatchObject({ proof: 'PASS', credentials: 'FAIL' });
    expect(detail(result, 'credentials')).toMatch(/credential 2 of 2 is INVALID/i);
    expect(result.credentials.map((c) => c.verification.status)).toEqual(['VALID', 'INVALID']);
  });

  it('a credential about someone else is reported (WARN), and INVALID when holder binding is required', async () => {
    const other = await issueDi(unsignedCredential(issuer.did), issuer);
    const vp = await signVp({ ...presentation, verifiableCredential: [other] }, holder);
    const reported = await verifyPresentation(vp, { runtime: runtime() });
    expect(reported.status).toBe('VALID');
    expect(statuses(reported).holderBinding).toBe('WARN');
    expect(reported.credentials[0]!.holderBinding).toBe('NOT_BOUND');
    expect(detail(reported, 'holderBinding')).toContain('did:example:subject');
    const required = await verifyPresentation(vp, { runtime: runtime(), requireHolderBinding: true });
    expect(required.status).toBe('INVALID');
    expect(statuses(required).holderBinding).toBe('FAIL');
  });

  it('a proof for assertionMethod does not authenticate the holder', async () => {
    const suite = new DataIntegrityProof({ signer: holder.keyPair.signer(), date: DEFAULT_CREATED, cryptosuite: eddsaJcs.createSignCryptosuite() });
    const asserted = await jsigs.sign(structuredClone(presentation), {
      suite,
      purpose: new jsigs.purposes.AssertionProofPurpose(),
      documentLoader: offlineDocumentLoader,
    });
    const result = await verifyPresentation(asserted, { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(detail(result, 'proof')).toMatch(/secured for authentication/);
  });
});

describe('vp+jwt presentations (jose)', async () => {
  const issuer = jwtIssuer('EdDSA');
  const holder = jwtIssuer('ES256');
  const credential = await issueVcJwt(unsignedCredential(issuer.did, { credentialSubject: { id: holder.did, name: 'Alice' } }), issuer);
  const payload = {
    '@context': [VC2_CONTEXT],
    type: ['VerifiablePresentation'],
    holder: holder.did,
    verifiableCredential: [{ '@context': [VC2_CONTEXT], type: 'EnvelopedVerifiableCredential', id: `data:application/vc+jwt,${credential}` }],
    nonce: CHALLENGE,
    aud: DOMAIN,
    exp: Date.parse('2025-06-01T00:05:00Z') / 1000,
  };
  const token = await new jose.SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'vp+jwt', kid: holder.kid }).sign(holder.privateKey);

  it('is VALID with its nonce and aud as challenge and domain', async () => {
    const result = await verifyPresentation(token, { runtime: runtime(), challenge: CHALLENGE, domain: DOMAIN });
    expect(result.status, result.headline).toBe('VALID');
    expect(result).toMatchObject({ format: 'VC_JOSE_COSE', holder: holder.did, challenge: CHALLENGE, domain: [DOMAIN] });
    expect(result.credentials[0]).toMatchObject({ form: 'ENVELOPED', holderBinding: 'BOUND' });
    expect(result.credentials[0]!.verification.format).toBe('VC_JOSE_COSE');
  });

  it('after its exp it is EXPIRED, naming the claim', async () => {
    const result = await verifyPresentation(token, { runtime: runtime('2025-06-01T01:00:00Z'), challenge: CHALLENGE, domain: DOMAIN });
    expect(result.status).toBe('EXPIRED');
    expect(detail(result, 'validity')).toMatch(/JWT exp/);
  });

  it('a vc+jwt handed over as a presentation is turned away naming the right command', async () => {
    const result = await verifyPresentation(credential, { runtime: runtime() });
    expect(result.status).toBe('UNSUPPORTED');
    expect(result.headline).toMatch(/svc verify-credential/);
  });
});

describe('refused before any work', async () => {
  const { signed, credential } = await fixture();

  it('duplicate members in the presentation text are MALFORMED', async () => {
    const text = JSON.stringify(signed).replace('"holder":', '"holder":"did:example:x","holder":');
    const result = await verifyPresentation(text, { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(result.headline).toMatch(/duplicate/i);
  });

  it('a presentation inside a presentation is MALFORMED', async () => {
    const nested = { ...(signed as Json), verifiableCredential: [credential, { '@context': [VC2_CONTEXT], type: ['VerifiablePresentation'] }] };
    const result = await verifyPresentation(nested, { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(result.headline).toMatch(/entry 2 is a presentation/);
  });

  it('1,000 credentials are MALFORMED, none verified', async () => {
    const many = { ...(signed as Json), verifiableCredential: Array.from({ length: 1000 }, () => credential) };
    const result = await verifyPresentation(many, { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(result.headline).toMatch(/1000 credentials/);
    expect(result.credentials).toEqual([]);
  });

  it('a presentation without proof is MALFORMED: it is not secured', async () => {
    const { proof: _proof, ...unsigned } = signed as Json;
    const result = await verifyPresentation(unsigned, { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(result.headline).toMatch(/not secured/);
  });
});
