/**
 * The presentation requirements of the W3C Verifiable Credentials Data Model v2.0 — sections
 * "Verifiable Presentations" (with "Enveloped Verifiable Credentials", "Enveloped Verifiable
 * Presentations" and "Presentations Including Holder Claims"), "Contexts", "Identifiers",
 * "Types" and the "Verification" algorithm — one case per MUST, named in the test title; then
 * the presentation cases of the W3C VC Data Model 2.0 test suite (its `createLocalVp` inputs,
 * signed here with eddsa-jcs-2022 by the suite's own did:key where it uses eddsa-rdfc-2022);
 * then hostile input, each refused as MALFORMED with a one-line reason.
 *
 * The documents are signed by @digitalbazaar/vc wherever the library lets a malformed one be
 * signed, so that the broken MUST is the only thing wrong with them: a verifier that skipped the
 * rule would answer VALID, not MALFORMED.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PresentationCheckId, PresentationVerification, VerifyPresentationOptions } from '../../src/core/presentations/types.js';
import { MAX_PRESENTED_CREDENTIALS } from '../../src/core/presentations/types.js';
import { verifyPresentation } from '../../src/core/presentations/verify.js';
import { base58Decode } from '../../src/core/encoding/base58.js';
import { issueDi, issueVcJwt, jwtIssuer, peerEd25519Issuer, unsignedCredential, VC2_CONTEXT, type Json, type PeerIssuer } from '../support/peer-issuers.js';
import {
  CHALLENGE,
  DOMAIN,
  PRESENTED_AT,
  envelopedCredential,
  peerHolder,
  signDiPresentation,
  signVpJwt,
  unsignedPresentation,
  type PeerHolder,
} from '../support/peer-presentations.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

type Options = Omit<VerifyPresentationOptions, 'runtime'>;

function verify(input: unknown, options: Options = {}): Promise<PresentationVerification> {
  return verifyPresentation(input, { challenge: CHALLENGE, domain: DOMAIN, ...options, runtime: testRuntime(fixedClock(PRESENTED_AT)) });
}

function check(result: PresentationVerification, id: PresentationCheckId) {
  const found = result.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no "${id}" check in ${JSON.stringify(result.checks)}`);
  return found;
}

/** MALFORMED, the structure check FAIL, and every reason one line matching `reason` (no stack trace). */
function expectMalformed(result: PresentationVerification, reason: RegExp): void {
  expect(result.status, JSON.stringify(result.checks)).toBe('MALFORMED');
  expect(result.valid).toBe(false);
  expect(check(result, 'structure').status).toBe('FAIL');
  expect(check(result, 'structure').detail).toMatch(reason);
  expect(result.errors.length).toBeGreaterThan(0);
  expect(result.errors.join(' ')).toMatch(reason);
  for (const line of [result.headline, ...result.errors, ...result.checks.map((c) => c.detail)]) {
    expect(line).not.toContain('\n');
    expect(line).not.toMatch(/\bat .+\.(?:ts|js):\d+/);
  }
}

/** The presentation is well formed but credential `index` is MALFORMED for `reason`: the credentials check FAIL names it. */
function expectMalformedCredential(result: PresentationVerification, index: number, reason: RegExp): void {
  expect(result.status, JSON.stringify(result.checks)).toBe('MALFORMED');
  expect(check(result, 'structure').status).toBe('PASS');
  expect(check(result, 'credentials').status).toBe('FAIL');
  expect(check(result, 'credentials').detail).toMatch(new RegExp(`credential ${index + 1} of ${result.credentials.length} is MALFORMED`, 'i'));
  const embedded = result.credentials[index]!.verification;
  expect(embedded.status).toBe('MALFORMED');
  expect(embedded.errors.join(' ')).toMatch(reason);
  for (const line of [result.headline, ...result.errors, ...embedded.errors]) expect(line).not.toContain('\n');
}

let holder: PeerHolder;
let issuer: PeerIssuer;
let credential: Json;

beforeAll(async () => {
  holder = await peerHolder(51);
  issuer = await peerEd25519Issuer(52);
  credential = await issueDi(unsignedCredential(issuer.did, { credentialSubject: { id: holder.did, name: 'Alice' } }), issuer);
});

/** The presentation body, changed by `edit`, signed by the holder (challenge CHALLENGE, domain DOMAIN). */
async function signed(edit: (vp: Json) => void = () => {}): Promise<Json> {
  const vp = unsignedPresentation(holder.did, [credential]);
  edit(vp);
  return signDiPresentation(vp, holder);
}

describe('W3C VC Data Model v2.0, "Verifiable Presentations"', () => {
  it('a conforming presentation signed by its holder is VALID (the baseline every case below departs from)', async () => {
    const result = await verify(await signed());
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(check(result, 'structure').status).toBe('PASS');
  });

  it('id: "If present, the normative guidance in Section Identifiers MUST be followed" — a single URL', async () => {
    expect((await verify(await signed((vp) => (vp['id'] = 'urn:uuid:9c9a36f8-518f-4976-a934-6649502d0008')))).status).toBe('VALID');
    expect((await verify(await signed((vp) => delete vp['id']))).status).toBe('VALID');
    expectMalformed(await verify(await signed((vp) => (vp['id'] = 'not a url'))), /\bid\b/);
    expectMalformed(await verify(await signed((vp) => (vp['id'] = ['urn:uuid:1', 'urn:uuid:2']))), /\bid\b/);
    expectMalformed(await verify(await signed((vp) => (vp['id'] = 42))), /\bid\b/);
  });

  it('type: "The type property MUST be present"', async () => {
    expectMalformed(await verify(await signed((vp) => delete vp['type'])), /type/);
  });

  it('type: "One value of this property MUST be VerifiablePresentation, but additional types MAY be included"', async () => {
    expect((await verify(await signed((vp) => (vp['type'] = ['VerifiablePresentation', 'ExamplePresentation'])))).status).toBe('VALID');
    expect((await verify(await signed((vp) => (vp['type'] = 'VerifiablePresentation')))).status).toBe('VALID');
    expectMalformed(await verify(await signed((vp) => (vp['type'] = ['ExamplePresentation']))), /VerifiablePresentation/);
    expectMalformed(await verify(await signed((vp) => (vp['type'] = ['VerifiableCredential']))), /not a presentation/);
  });

  it('verifiableCredential: "MAY be present" — a presentation with no credential is VALID, its credentials check not FAIL', async () => {
    const result = await verify(await signed((vp) => delete vp['verifiableCredential']));
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(result.credentials).toEqual([]);
    expect(check(result, 'credentials').status).not.toBe('FAIL');
  });

  it('verifiableCredential: "the values MUST NOT be non-object values such as numbers, strings, or URLs"', async () => {
    const jwt = await issueVcJwt(unsignedCredential(jwtIssuer('EdDSA').did), jwtIssuer('EdDSA'));
    for (const value of [42, 'https://issuer.example/credentials/1', jwt, null, [credential]]) {
      expectMalformed(await verify(await signed((vp) => (vp['verifiableCredential'] = [credential, value]))), /verifiableCredential entry 2 is/i);
    }
  });

  it('verifiableCredential: the objects "MUST express information that is secured using a securing mechanism" — an unsecured credential is not accepted', async () => {
    const { proof: _proof, ...unsecured } = credential;
    const result = await verify(await signed((vp) => (vp['verifiableCredential'] = [unsecured])));
    expect(result.valid).toBe(false);
    expect(check(result, 'proof').status).toBe('PASS');
    expect(check(result, 'credentials').status).toBe('FAIL');
    expect(result.credentials[0]!.verification.status).not.toBe('VALID');
  });

  it('verifiableCredential: every credential is held to the credential MUSTs ("type" MUST include VerifiableCredential)', async () => {
    const typeless = await issueDi({ ...unsignedCredential(issuer.did), type: ['ExampleCredential'] }, issuer, { bare: true });
    const result = await verify(await signed((vp) => (vp['verifiableCredential'] = [credential, typeless])));
    expect(result.valid).toBe(false);
    expect(check(result, 'credentials').status).toBe('FAIL');
    expect(check(result, 'credentials').detail).toMatch(/credential 2 of 2 is MALFORMED/i);
    expect(result.credentials[1]!.verification.status).toBe('MALFORMED');
    expect(result.credentials[0]!.verification.status).toBe('VALID');
  });

  it('holder: "If present, the value MUST be either a URL or an object containing an id property"', async () => {
    expect((await verify(await signed((vp) => (vp['holder'] = { id: holder.did, name: 'Holder' })))).status).toBe('VALID');
    expect((await verify(await signed((vp) => (vp['holder'] = holder.did)))).status).toBe('VALID');
    expectMalformed(await verify(await signed((vp) => (vp['holder'] = holder.did.slice('did:key:'.length)))), /holder/);
    expectMalformed(await verify(await signed((vp) => (vp['holder'] = { name: 'Acme' }))), /holder/);
    expectMalformed(await verify(await signed((vp) => (vp['holder'] = { id: holder.did.slice('did:key:'.length) }))), /holder/);
    expectMalformed(await verify(await signed((vp) => (vp['holder'] = [holder.did]))), /holder/);
  });
});

describe('W3C VC Data Model v2.0, "Contexts", "Identifiers" and "Types" for presentations', () => {
  it('"Verifiable credentials and verifiable presentations MUST include a @context property"', async () => {
    // Signed first (the library will not sign without one), then the context removed: the structure is what is reported.
    const vp = await signed();
    delete vp['@context'];
    expectMalformed(await verify(vp), /@context/);
  });

  it('"The value of the @context property MUST be an ordered set where the first item is a URL with the value https://www.w3.org/ns/credentials/v2"', async () => {
    expect((await verify(await signed((vp) => (vp['@context'] = [VC2_CONTEXT, 'https://www.w3.org/ns/credentials/examples/v2'])))).status).toBe('VALID');
    for (const context of [
      ['https://www.w3.org/ns/credentials/examples/v2', VC2_CONTEXT],
      [{ CredentialManagerPresentation: 'https://example.org/examples#CredentialManagerPresentation' }, VC2_CONTEXT],
      ['https://www.w3.org/ns/credentials/examples/v2'],
      [],
    ]) {
      const vp = await signed();
      vp['@context'] = context;
      expectMalformed(await verify(vp), /@context/);
    }
  });

  it('"Subsequent items in the ordered set MUST be composed of any combination of URLs and/or objects"', async () => {
    expect(
      (await verify(await signed((vp) => (vp['@context'] = [VC2_CONTEXT, { ExamplePresentation: 'https://example.org/#ExamplePresentation' }])))).status,
    ).toBe('VALID');
    for (const item of [123192875, 'https ://not-a-url/contexts/example/v1', null, true]) {
      expectMalformed(await verify(await signed((vp) => (vp['@context'] = [VC2_CONTEXT, item]))), /@context/);
    }
  });

  it('"Verifiable credentials and verifiable presentations MUST contain a type property with an associated value" — the value MUST be one or more terms and/or absolute URL strings', async () => {
    for (const type of [[], null, 7, ['VerifiablePresentation', 7], ['VerifiablePresentation', '']]) {
      expectMalformed(await verify(await signed((vp) => (vp['type'] = type))), /type/);
    }
  });
});

describe('W3C VC Data Model v2.0, "Enveloped Verifiable Credentials"', () => {
  let token: string;
  beforeAll(async () => {
    const jwtKey = jwtIssuer('EdDSA');
    token = await issueVcJwt(unsignedCredential(jwtKey.did, { credentialSubject: { id: holder.did, name: 'Alice' } }), jwtKey);
  });

  it('an EnvelopedVerifiableCredential with @context, a data: URL id and its type is verified as the credential it envelops', async () => {
    const result = await verify(await signed((vp) => (vp['verifiableCredential'] = [envelopedCredential('application/vc+jwt', token)])));
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(result.credentials[0]).toMatchObject({ form: 'ENVELOPED', verification: { status: 'VALID', format: 'VC_JOSE_COSE' } });
  });

  it('"The @context property of the object MUST be present"', async () => {
    const { '@context': _context, ...noContext } = envelopedCredential('application/vc+jwt', token);
    const result = await verify(await signed((vp) => (vp['verifiableCredential'] = [noContext])));
    expectMalformedCredential(result, 0, /@context/);
    expect(result.credentials[0]!.form).toBe('ENVELOPED');
  });

  it('"The id value of the object MUST be a data: URL"', async () => {
    for (const id of [`https://issuer.example/credentials/${token.slice(0, 8)}`, token, 42]) {
      const enveloped = { ...envelopedCredential('application/vc+jwt', token), id };
      expectMalformedCredential(await verify(await signed((vp) => (vp['verifiableCredential'] = [enveloped]))), 0, /data: URL/);
    }
  });

  it('"The type value of the object MUST be EnvelopedVerifiableCredential" — without it the object is not an enveloped credential, and not a credential either', async () => {
    const { type: _type, ...untyped } = envelopedCredential('application/vc+jwt', token);
    const result = await verify(await signed((vp) => (vp['verifiableCredential'] = [untyped])));
    expect(result.valid).toBe(false);
    expect(['MALFORMED', 'INVALID']).toContain(result.status);
    expect(result.errors.join(' ')).toMatch(/type|VerifiableCredential/);
  });

  it('the data: URL must express a secured credential: a tampered one is not accepted', async () => {
    const [h, p, s] = token.split('.') as [string, string, string];
    const tampered = `${h}.${Buffer.from(Buffer.from(p, 'base64url').toString('utf8').replace('Alice', 'Alicf')).toString('base64url')}.${s}`;
    const result = await verify(await signed((vp) => (vp['verifiableCredential'] = [envelopedCredential('application/vc+jwt', tampered)])));
    expect(result.status).toBe('INVALID');
    expect(check(result, 'credentials').status).toBe('FAIL');
    expect(result.credentials[0]!.verification.status).toBe('INVALID');
  });
});

describe('W3C VC Data Model v2.0, "Enveloped Verifiable Presentations"', () => {
  let vpJwt: string;
  beforeAll(async () => {
    vpJwt = await signVpJwt(unsignedPresentation(holder.did, [credential]), holder);
  });

  it('an EnvelopedVerifiablePresentation whose data: URL holds a vp+jwt is verified as that presentation', async () => {
    const enveloped = { '@context': VC2_CONTEXT, id: `data:application/vp+jwt,${vpJwt}`, type: 'EnvelopedVerifiablePresentation' };
    const result = await verify(enveloped);
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(result).toMatchObject({ format: 'VC_JOSE_COSE', holder: holder.did, challenge: CHALLENGE });
  });

  it('"The @context property of the object MUST be present"; "The id value of the object MUST be a data: URL"; "The type value of the object MUST be EnvelopedVerifiablePresentation"', async () => {
    expectMalformed(await verify({ id: `data:application/vp+jwt,${vpJwt}`, type: 'EnvelopedVerifiablePresentation' }), /@context/);
    expectMalformed(
      await verify({ '@context': VC2_CONTEXT, id: `https://holder.example/${vpJwt.slice(0, 8)}`, type: 'EnvelopedVerifiablePresentation' }),
      /data:/,
    );
    // Without the type it is neither an enveloped presentation nor a presentation.
    expectMalformed(await verify({ '@context': VC2_CONTEXT, id: `data:application/vp+jwt,${vpJwt}` }), /type|VerifiablePresentation/);
  });
});

describe('W3C VC Data Model v2.0, "Presentations Including Holder Claims"', () => {
  it('a self-asserted credential (issuer = holder) secured by its own proof is VALID and bound to the holder', async () => {
    const selfAsserted = await issueDi(unsignedCredential(holder.did, { credentialSubject: { id: holder.did, favoriteCheese: 'Gouda' } }), holder.di);
    const result = await verify(await signed((vp) => (vp['verifiableCredential'] = [selfAsserted])));
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(result.credentials[0]).toMatchObject({ holderBinding: 'BOUND', verification: { issuer: holder.did, status: 'VALID' } });
  });

  it('"A verifiable presentation that includes a self-asserted verifiable credential, which is secured only using the same mechanism as the verifiable presentation, MUST include a holder property"', async () => {
    const unsecured = unsignedCredential(holder.did, { credentialSubject: { favoriteCheese: 'Gouda' } });
    const result = await verify(await signDiPresentation(unsignedPresentation(null, [unsecured]), holder));
    expect(result.valid).toBe(false);
    expect(result.holder === null || result.status !== 'VALID').toBe(true);
  });
});

describe('W3C VC Data Model v2.0, "Verification"', () => {
  it('"A conforming verifier implementation MUST produce errors when non-conforming documents are detected"', async () => {
    expectMalformed(await verify({ type: ['NonconformingDocument'] }), /@context|VerifiablePresentation/);
  });

  it('the securing mechanism must have protected the document: a replaced proofValue is INVALID (proof FAIL)', async () => {
    const vp = await signed();
    (vp['proof'] as Json)['proofValue'] = 'z5nmMBw2u9TGKd9NxxHJtyZKgjN2Eh';
    const result = await verify(vp);
    expect(result.status).toBe('INVALID');
    expect(check(result, 'proof').status).toBe('FAIL');
  });
});

// ---------------------------------------------------------------------------------------------
// The presentation cases of the W3C VC Data Model 2.0 test suite (tests/4.03-contexts.js,
// 4.05-types.js, 4.13-verifiable-presentations.js, 7-algorithms.js, 1.03-conformance.js).
// ---------------------------------------------------------------------------------------------

/** The test suite's local issuer and holder (data-generator.js), its secret key as published there. */
const SUITE_DID = 'did:key:z6MkpJySvETLnxhQG9DzEdmKJtysBDjuuTeDfUj1uNNCUqcj';
const SUITE_SECRET = 'zrv1a6V2qqSGkBz7QPw4yJedKc8X9dEdug7c3MEzNUDVEmkyVcXtTWNLQLArgKXzN7LbGMTVjqE2CbdrqpnxqtxmY1M';
/** What the test suite's verifier is asked (TestEndpoints.verifyVp): its domain and a challenge. */
const SUITE_DOMAIN = 'github.com/w3c/vc-data-model-2.0-test-suite';

const suiteVc = (subject: string): Json => ({
  '@context': [VC2_CONTEXT],
  type: ['VerifiableCredential'],
  issuer: 'did:example:issuer',
  credentialSubject: { id: subject },
});
const suiteVp = (extra: Json = {}): Json => ({ '@context': [VC2_CONTEXT], type: ['VerifiablePresentation'], ...extra });
const CMP = { CredentialManagerPresentation: 'https://example.org/examples#CredentialManagerPresentation' };

describe('the W3C VC Data Model 2.0 test suite’s presentations', () => {
  let suiteHolder: PeerHolder;

  beforeAll(async () => {
    // An ed25519-priv Multikey (0x1300 varint 0x80 0x26) holds the 32-byte seed then the public key.
    suiteHolder = await peerHolder(base58Decode(SUITE_SECRET.slice(1))!.subarray(2, 34));
    expect(suiteHolder.did).toBe(SUITE_DID);
  });

  /** createLocalVp: each credential without a proof issued by the suite's key (issuer set to it), then the presentation signed. */
  async function localVp(presentation: Json): Promise<Json> {
    const vp = structuredClone(presentation);
    if (Array.isArray(vp['verifiableCredential'])) {
      vp['verifiableCredential'] = await Promise.all(
        (vp['verifiableCredential'] as unknown[]).map((c) =>
          typeof c !== 'object' || c === null || 'proof' in c ? c : issueDi({ ...(c as Json), issuer: suiteHolder.did }, suiteHolder.di, { bare: true }),
        ),
      );
    }
    return signDiPresentation(vp, suiteHolder, { domain: SUITE_DOMAIN });
  }
  const suiteVerify = (vp: unknown) => verify(vp, { domain: SUITE_DOMAIN });

  it('accepted: presentation-ok, -id-ok, -optional-type-ok, -context-combo1-ok, -context-combo2-ok, -multiple-vc-ok, -vc-ok, -holder-ok, -holder-object-ok', async () => {
    const cases: Record<string, Json> = {
      'presentation-ok': suiteVp(),
      'presentation-id-ok': suiteVp({ id: 'urn:uuid:9c9a36f8-518f-4976-a934-6649502d0008' }),
      'presentation-optional-type-ok': suiteVp({ '@context': [VC2_CONTEXT, CMP], type: ['VerifiablePresentation', 'CredentialManagerPresentation'] }),
      'presentation-context-combo1-ok': suiteVp({ holder: SUITE_DID, verifiableCredential: [suiteVc('did:example:subject')] }),
      'presentation-context-combo2-ok': suiteVp({
        '@context': [VC2_CONTEXT, { ExampleVerifiablePresentation: 'https://example.org/#ExampleVerifiablePresentation' }],
        type: ['VerifiablePresentation', 'ExampleVerifiablePresentation'],
        holder: SUITE_DID,
        verifiableCredential: [suiteVc('did:example:subject')],
      }),
      'presentation-multiple-vc-ok': suiteVp({ verifiableCredential: [suiteVc('did:example:subject'), suiteVc('did:example:other-subject')] }),
      'presentation-vc-ok': suiteVp({ verifiableCredential: [suiteVc('did:example:subject')] }),
      'presentation-holder-ok': suiteVp({ holder: SUITE_DID, verifiableCredential: [suiteVc('did:example:subject')] }),
      'presentation-holder-object-ok': suiteVp({ holder: { id: SUITE_DID }, verifiableCredential: [suiteVc('did:example:subject')] }),
    };
    for (const [name, input] of Object.entries(cases)) {
      const result = await suiteVerify(await localVp(input));
      // The suite's credentials are about did:example subjects, not the holder: reported, not refused.
      expect(result.status, `${name}: ${JSON.stringify(result.checks)}`).toBe('VALID');
    }
  });

  it('refused: presentation-no-type-fail, -missing-required-type-fail, -missing-base-context-fail, -context-order-fail, -no-context, -holder-fail, -holder-name-fail, -holder-object-fail, -vc-as-string-fail', async () => {
    const cases: Record<string, [Json, RegExp]> = {
      'presentation-no-type-fail': [{ '@context': [VC2_CONTEXT] }, /type/],
      'presentation-missing-required-type-fail': [{ '@context': [VC2_CONTEXT, CMP], type: ['CredentialManagerPresentation'] }, /VerifiablePresentation/],
      'presentation-missing-base-context-fail': [
        { '@context': ['https://www.w3.org/ns/credentials/examples/v2'], type: ['VerifiablePresentation'] },
        /@context/,
      ],
      'presentation-context-order-fail': [{ '@context': [CMP, VC2_CONTEXT], type: ['VerifiablePresentation', 'CredentialManagerPresentation'] }, /@context/],
      'presentation-no-context-fail-or-inject': [{ type: ['VerifiablePresentation'] }, /@context/],
      'presentation-holder-fail': [suiteVp({ holder: SUITE_DID.slice(8), verifiableCredential: [suiteVc('did:example:subject')] }), /holder/],
      'presentation-holder-name-fail': [suiteVp({ holder: { name: 'Acme' }, verifiableCredential: [suiteVc('did:example:subject')] }), /holder/],
      'presentation-holder-object-fail': [suiteVp({ holder: { id: SUITE_DID.slice(8) }, verifiableCredential: [suiteVc('did:example:subject')] }), /holder/],
      'presentation-vc-as-string-fail': [
        suiteVp({
          verifiableCredential: [
            'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJ2YyI6e30sImlzcyI6Imh0dHBzOi8vZXhhbXBsZS5lZHUifQ.0fkQPZOKlD0Sl0A798KBUNMOdGq90McQQIEtKU9tgSd9K1kRcxWVKDXQJcn_FJqLvo2bk793EHk-RTeEL1HyAQ',
          ],
        }),
        /verifiableCredential entry 1 is a string/i,
      ],
    };
    for (const [name, [input, reason]] of Object.entries(cases)) {
      // Sent signed where the library signs it (as createInvalidVp does), unsigned where it will not.
      const vp = await localVp(input).catch(() => input);
      const result = await suiteVerify(vp);
      expect(result.status, `${name}: ${JSON.stringify(result.checks)}`).toBe('MALFORMED');
      expect(result.errors.join(' '), name).toMatch(reason);
    }
  });

  it('refused: presentation-vc-missing-required-type-fail (a credential with "type": []) and a VP with "@context"[1] a number or not a URL', async () => {
    const typeless = await suiteVerify(await localVp(suiteVp({ verifiableCredential: [{ ...suiteVc('did:example:subject'), type: [] }] })));
    expect(typeless.valid).toBe(false);
    expect(typeless.credentials[0]!.verification.status).toBe('MALFORMED');
    for (const item of [123192875, 'https ://not-a-url/contexts/example/v1']) {
      const vp = await localVp(suiteVp({ verifiableCredential: [suiteVc('did:example:subject')] }));
      (vp['@context'] as unknown[])[1] = item;
      expect((await suiteVerify(vp)).status).toBe('MALFORMED');
    }
    // The suite also expects "@context"[1] = "https://example.com" refused: an unknown context a
    // JSON-LD processor cannot load. svc verifies JCS and JOSE proofs as JSON and loads no context
    // (as for credentials), so that case is the one it does not refuse.
  });

  it('7-algorithms: a valid presentation verifies; with its proofValue replaced it is refused', async () => {
    const vp = await localVp(suiteVp());
    expect((await suiteVerify(vp)).status).toBe('VALID');
    (vp['proof'] as Json)['proofValue'] = 'z5nmMBw2u9TGKd9NxxHJtyZKgjN2Eh';
    expect((await suiteVerify(vp)).status).toBe('INVALID');
  });

  it('1.03-conformance: a non-conforming document is refused', async () => {
    expect((await suiteVerify({ type: ['NonconformingDocument'] })).status).toBe('MALFORMED');
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile input
// ---------------------------------------------------------------------------------------------

describe('hostile presentations are refused as MALFORMED with a one-line reason', () => {
  it('a duplicate member at the top, in the proof, and deep in an embedded credential (raw JSON text)', async () => {
    const text = JSON.stringify(await signed());
    const cases = [
      text.replace('"type":["VerifiablePresentation"]', '"type":["VerifiablePresentation"],"type":["VerifiablePresentation"]'),
      text.replace('"proofPurpose":"authentication"', '"proofPurpose":"authentication","proofPurpose":"assertionMethod"'),
      text.replace('"name":"Alice"', '"name":"Alice","name":"Mallory"'),
    ];
    for (const duplicated of cases) {
      expect(duplicated).not.toBe(text);
      expectMalformed(await verify(duplicated), /duplicate/i);
    }
  });

  it(`more than MAX_PRESENTED_CREDENTIALS (${MAX_PRESENTED_CREDENTIALS}) credentials: 1,000 and ${MAX_PRESENTED_CREDENTIALS + 1} refused before any is verified; ${MAX_PRESENTED_CREDENTIALS} verified`, async () => {
    for (const count of [1000, MAX_PRESENTED_CREDENTIALS + 1]) {
      const result = await verify(await signed((vp) => (vp['verifiableCredential'] = Array.from({ length: count }, () => credential))));
      expectMalformed(result, new RegExp(String(MAX_PRESENTED_CREDENTIALS)));
      expect(result.credentials).toEqual([]);
    }
    const most = await verify(await signed((vp) => (vp['verifiableCredential'] = Array.from({ length: MAX_PRESENTED_CREDENTIALS }, () => credential))));
    expect(most.status).toBe('VALID');
    expect(most.credentials).toHaveLength(MAX_PRESENTED_CREDENTIALS);
  });

  it('a nested presentation: a VerifiablePresentation, or an enveloped one, inside verifiableCredential', async () => {
    const inner = await signed();
    expectMalformed(await verify(await signed((vp) => (vp['verifiableCredential'] = [credential, inner]))), /presentation/i);
    const innerJwt = await signVpJwt(unsignedPresentation(holder.did, [credential]), holder);
    const envelopedVp = { '@context': VC2_CONTEXT, id: `data:application/vp+jwt,${innerJwt}`, type: 'EnvelopedVerifiablePresentation' };
    expectMalformed(await verify(await signed((vp) => (vp['verifiableCredential'] = [envelopedVp]))), /presentation/i);
    // A presentation as a vp+jwt passed off as an enveloped credential.
    const disguised = await verify(await signed((vp) => (vp['verifiableCredential'] = [envelopedCredential('application/vp+jwt', innerJwt)])));
    expect(disguised.status).toBe('MALFORMED');
  });

  it('deep nesting: a claim nested 10,000 deep in raw text, and 100 deep as an object', async () => {
    const text = JSON.stringify(await signed());
    const deepText = text.replace('"name":"Alice"', `"name":${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expectMalformed(await verify(deepText), /deep|nest|depth/i);
    let deep: unknown = 'Alice';
    for (let i = 0; i < 100; i++) deep = { deeper: deep };
    const vp = await signed();
    ((vp['verifiableCredential'] as Json[])[0]!['credentialSubject'] as Json)['name'] = deep;
    expectMalformed(await verify(vp), /deep|nest|depth/i);
  });

  it('not a presentation at all: an array, a number, empty text, a credential', async () => {
    for (const input of [[], 42, '', '   ', null]) {
      const result = await verify(input);
      expect(result.status).toBe('MALFORMED');
      expect(result.errors.length).toBeGreaterThan(0);
      expect(result.errors.join(' ')).not.toContain('\n');
    }
    expectMalformed(await verify(credential), /verifiable credential, not a presentation/);
  });
});
