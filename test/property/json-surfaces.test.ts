/**
 * Property suite, core level: every JSON surface that needs no network, fed hostile JSON made
 * from a valid input (./support/hostile.ts). The invariant is the one the daemon and the CLI
 * rely on: a result or a precise problem, never INTERNAL_ERROR (thrown, or embedded in a result
 * as an issuer's resolution problem), never a stack trace.
 *
 *   strict parser    parseJsonStrict / parseJsonBytes: a value RFC 8785 accepts, or a StrictJsonError
 *   did:jwk          resolve() of a did:jwk whose JWK text is hostile
 *   credentials      verifyCredential: the raw JSON text, the object a library caller's
 *                    JSON.parse made of it, and a vc+jwt whose header or payload is hostile
 *   JWS              verifyJws with a hostile header or payload (re-signed)
 *   receipts         verifyDelegationChain with one hostile receipt part (re-signed)
 *   policy bodies    parsePolicy of the strictly parsed body and of a JSON.parse object, then
 *                    decidePolicy
 *
 * Cases per property: propertyRuns() (SVC_PROPERTY_RUNS for a longer run; README, Testing).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/canonical.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { verifyDelegationChain } from '../../src/core/delegation/chain.js';
import { parseJsonBytes, parseJsonStrict, StrictJsonError } from '../../src/core/encoding/json.js';
import { verifyJws } from '../../src/core/jws/verify.js';
import { parsePolicy } from '../../src/core/policy/index.js';
import { decidePolicy } from '../../src/core/policy/run.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { b64url } from '../support/codec.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { generateTestKey, signBytes, signEddsaJcs2022, type TestKey } from '../support/signing.js';
import { expectAnswered, expectNoInternalError, hostileJson, propertyParameters, propertyTimeout, settle, wtf8, type HostileCase } from './support/hostile.js';

const NOW = '2025-03-04T05:06:07Z';
const NOW_S = Date.parse(NOW) / 1000;
const runtime = () => testRuntime(fixedClock(NOW));

const TIMEOUT = propertyTimeout(100, 150);
const params = propertyParameters(100);

const key = generateTestKey('EdDSA');
const did = `did:key:${key.multikey!}`;
const kid = `${did}#${key.multikey!}`;

/** A compact JWS over header and payload TEXT (so hostile text is signed as written). */
function signCompact(headerText: string, payloadText: string, signer: TestKey = key): string {
  const input = `${b64url(wtf8(headerText))}.${b64url(wtf8(payloadText))}`;
  return `${input}.${b64url(signBytes(signer.alg, signer.privateKey, Buffer.from(input)))}`;
}

/** JSON.parse as a library caller would use it (BOM stripped as fs readers do); null when it refuses. */
function looseParse(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\ufeff/, '')) as unknown;
  } catch {
    return null;
  }
}

const credential = signEddsaJcs2022(
  {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    type: ['VerifiableCredential'],
    issuer: did,
    validFrom: '2025-01-01T00:00:00Z',
    credentialSubject: { id: 'did:example:subject', name: 'Alice', degree: { type: 'BachelorDegree', grade: 3.5 } },
  },
  key,
  kid,
  // Proofs made in the future of the clock do not verify (the proof window): dated before NOW.
  '2025-01-01T00:00:00Z',
);
const jwtHeader = { alg: 'EdDSA', typ: 'vc+jwt', kid };
const { proof: _proof, ...unsignedCredential } = credential;
const jwtPayload = { ...unsignedCredential, iss: did, nbf: NOW_S - 3600 };
const jwsHeader = { alg: 'EdDSA', kid };
const jwsPayload = { hello: 'world', n: [1, 2.5, { deep: true }] };
const policyBody = {
  name: 'gate',
  rules: {
    didResolution: 'required',
    allowedMethods: ['key', 'did:web'],
    allowedCurves: ['Ed25519'],
    minKeyBits: 256,
    requireKeyRelationship: 'assertionMethod',
    domainBinding: 'optional',
  },
};

describe('the strict parser: I-JSON or a StrictJsonError', () => {
  const bases: unknown[] = [credential, policyBody, { a: [1, 'two', null, true, { b: -0.5 }] }];
  it(
    'every value it returns has an RFC 8785 form; everything else is a StrictJsonError or a reason',
    async () => {
      for (const base of bases) {
        await fc.assert(
          fc.asyncProperty(hostileJson(base), async ({ text }: HostileCase) => {
            let value: unknown;
            try {
              value = parseJsonStrict(text);
            } catch (err) {
              if (!(err instanceof StrictJsonError)) throw err;
              value = undefined;
            }
            if (value !== undefined) canonicalize(value);
            const bytes = parseJsonBytes(wtf8(text), 'the text');
            if ('value' in bytes) canonicalize(bytes.value);
          }),
          params,
        );
      }
    },
    TIMEOUT,
  );
});

describe('did:jwk payloads', () => {
  it(
    'resolve() of a did:jwk with a hostile JWK: a result or INVALID_DID-like problem, never INTERNAL_ERROR',
    async () => {
      expect((await resolve(`did:jwk:${b64url(JSON.stringify(key.publicJwk))}`, runtime())).verdict.outcome).toMatch(/^RESOLVED/);
      await fc.assert(
        fc.asyncProperty(hostileJson(key.publicJwk), async ({ text }: HostileCase) => {
          const target = `did:jwk:${b64url(wtf8(text))}`;
          await expectNoInternalError('did:jwk', () => resolve(target, runtime(), { noCache: true }));
        }),
        params,
      );
    },
    TIMEOUT,
  );
});

describe('credentials', () => {
  it(
    'raw JSON text and the object JSON.parse makes of it',
    async () => {
      expect((await verifyCredential(JSON.stringify(credential), { runtime: runtime() })).status).toBe('VALID');
      await fc.assert(
        fc.asyncProperty(hostileJson(credential), async ({ text }: HostileCase) => {
          await expectNoInternalError('credential text', () => verifyCredential(text, { runtime: runtime() }));
          const object = looseParse(text);
          if (object !== null) await expectNoInternalError('credential object', () => verifyCredential(object, { runtime: runtime() }));
        }),
        params,
      );
    },
    TIMEOUT,
  );

  it(
    'a vc+jwt whose header or payload is hostile',
    async () => {
      expect((await verifyCredential(signCompact(JSON.stringify(jwtHeader), JSON.stringify(jwtPayload)), { runtime: runtime() })).status).toBe('VALID');
      await fc.assert(
        fc.asyncProperty(fc.boolean(), hostileJson(jwtHeader), hostileJson(jwtPayload), async (inHeader, header: HostileCase, payload: HostileCase) => {
          const token = inHeader ? signCompact(header.text, JSON.stringify(jwtPayload)) : signCompact(JSON.stringify(jwtHeader), payload.text);
          await expectNoInternalError('vc+jwt', () => verifyCredential(token, { runtime: runtime() }));
        }),
        params,
      );
    },
    TIMEOUT,
  );
});

describe('JWS', () => {
  it(
    'verifyJws with a hostile protected header or payload',
    async () => {
      expect((await verifyJws(signCompact(JSON.stringify(jwsHeader), JSON.stringify(jwsPayload)), { runtime: runtime() })).status).toBe('VALID');
      await fc.assert(
        fc.asyncProperty(fc.boolean(), hostileJson(jwsHeader), hostileJson(jwsPayload), async (inHeader, header: HostileCase, payload: HostileCase) => {
          const token = inHeader ? signCompact(header.text, JSON.stringify(jwsPayload)) : signCompact(JSON.stringify(jwsHeader), payload.text);
          await expectNoInternalError('JWS', () => verifyJws(token, { runtime: runtime() }));
        }),
        params,
      );
    },
    TIMEOUT,
  );
});

describe('delegation receipts', () => {
  const b = generateTestKey('EdDSA');
  const c = generateTestKey('EdDSA');
  const didB = `did:key:${b.multikey!}`;
  const didC = `did:key:${c.multikey!}`;
  const rootHeader = { alg: 'EdDSA', typ: 'svc-delegation+jwt', kid };
  const rootPayload = { iss: did, aud: didB, cap: ['*'], nbf: NOW_S - 600, exp: NOW_S + 3600, jti: 'urn:uuid:7f1c0a4e-1111-4222-8333-944455556666' };
  const root = signCompact(JSON.stringify(rootHeader), JSON.stringify(rootPayload));
  const leafHeader = { alg: 'EdDSA', typ: 'svc-delegation+jwt', kid: `${didB}#${b.multikey!}` };
  const leafPayload = { iss: didB, aud: didC, cap: ['payments:*'], nbf: NOW_S - 300, exp: NOW_S + 1800, prf: createHash('sha256').update(root).digest('hex') };

  it(
    'verifyDelegationChain with one hostile receipt part',
    async () => {
      const valid = [root, signCompact(JSON.stringify(leafHeader), JSON.stringify(leafPayload), b)];
      expect((await verifyDelegationChain(valid, { runtime: runtime(), trustedRoots: [did] })).status).toBe('VALID');
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: 3 }),
          hostileJson(rootHeader),
          hostileJson(rootPayload),
          hostileJson(leafPayload),
          async (which, header: HostileCase, payload: HostileCase, leaf: HostileCase) => {
            const chain =
              which === 0
                ? [signCompact(header.text, JSON.stringify(rootPayload)), signCompact(JSON.stringify(leafHeader), JSON.stringify(leafPayload), b)]
                : which === 1
                  ? [signCompact(JSON.stringify(rootHeader), payload.text), signCompact(JSON.stringify(leafHeader), JSON.stringify(leafPayload), b)]
                  : [root, signCompact(JSON.stringify(leafHeader), leaf.text, b)];
            await expectNoInternalError('delegation chain', () => verifyDelegationChain(chain, { runtime: runtime(), trustedRoots: [did] }));
          },
        ),
        params,
      );
    },
    TIMEOUT,
  );
});

describe('policy bodies', () => {
  it(
    'parsePolicy of the strictly parsed body (the daemon) and of a JSON.parse object, then decidePolicy',
    async () => {
      expect((await decidePolicy(did, parsePolicy(policyBody), undefined, { runtime: runtime() })).evaluation.status).toBe('PASS');
      await fc.assert(
        fc.asyncProperty(hostileJson(policyBody), async ({ text }: HostileCase) => {
          for (const parse of [(t: string) => parseJsonStrict(t), looseParse]) {
            const parsed = await settle(() => parse(text));
            if (!('result' in parsed) || parsed.result === null) continue;
            const policy = await settle(() => parsePolicy(parsed.result));
            expectAnswered(policy, 'parsePolicy');
            if ('result' in policy) {
              await expectNoInternalError('decidePolicy', () =>
                decidePolicy(did, policy.result as ReturnType<typeof parsePolicy>, undefined, { runtime: runtime() }),
              );
            }
          }
        }),
        params,
      );
    },
    TIMEOUT,
  );
});
