/**
 * The policy engine: parsePolicy refusals, and each of the thirteen rules PASS,
 * FAIL and INDETERMINATE against real did:key and did:jwk resolutions. Where a state cannot come
 * from a did:key or did:jwk (a domain binding, TLS evidence, a deactivation, a stale observation),
 * a structuredClone of a real resolution is edited and the test says so; the same states come
 * from real loopback hosts in test/integration/policy.test.ts. Credential verifications are
 * hand-built CredentialVerification objects (the verifier is not this module's business).
 */
import { describe, expect, it } from 'vitest';
import type { CredentialVerification, CredentialStatus } from '../../src/core/credentials/types.js';
import { evaluatePolicy, parsePolicy, POLICY_RULES, type PolicyEvidence, type RuleEvaluation } from '../../src/core/policy/index.js';
import { ProblemError, type ProblemCode } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import type { TlsEvidence } from '../../src/core/net.js';
import { OFF_CURVE_DID } from '../support/dids.js';
import { problemOf, problemFrom } from '../support/problems.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { generateTestKey } from '../support/signing.js';

const ED25519_DID = 'did:key:z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw';
const ED_KEY = `${ED25519_DID}#z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw`;
const X_KEY = `${ED25519_DID}#z6LSrEnPXPcLyNLKJPhdJ1eWqyYKARWket5BbiN1rjdUsQ9b`;
/** P-256 and P-384 did:keys of the w3c-ccg did:key test vectors (nist-curves.json). */
const P256_DID = 'did:key:zDnaerx9CtbPJ1q36T5Ln5wYt3MQYeGRG5ehnPAmxcf5mDZpv';
const P384_DID = 'did:key:z82Lm1MpAkeJcix9K8TMiLd5NMAhnwkjjCBeWHXyu3U4oT2MVJJKXkcVBgjGhnLBn2Kaau9';

const jwkDid = (jwk: object) => `did:jwk:${Buffer.from(JSON.stringify(jwk)).toString('base64url')}`;
const SECP256K1_DID = jwkDid(generateTestKey('ES256K').publicJwk);
/** X25519 with use "enc": one valid key, under keyAgreement only — no signing key. */
const X25519_ONLY_DID = jwkDid({ kty: 'OKP', crv: 'X25519', x: 'hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo', use: 'enc' });
/** Ed448: a key svc does not support. */
const ED448_DID = jwkDid({ kty: 'OKP', crv: 'Ed448', x: 'X9dEm1m0Yf0s54fsYWrUah2hNCSFpw4fig6nXYDpZ3jt8SR2m0bHBhvWeD3x5Q9s0foavq_oJWGA' });

/** observedAt of every resolution here is 2025-03-04T05:06:07Z (fixedClock). */
const OBSERVED = '2025-03-04T05:06:07Z';
const NOW = new Date('2025-03-04T05:06:37.500Z'); // 30 s after the observation

async function resolved(did: string): Promise<EnrichedResolution> {
  return resolve(did, testRuntime(fixedClock()));
}

function evidenceOf(resolution: EnrichedResolution | null, credential: CredentialVerification | null = null): PolicyEvidence {
  return { resolution, resolutionProblem: null, credential };
}

function failedWith(code: ProblemCode, detail = 'The host did not answer in time.', credential: CredentialVerification | null = null): PolicyEvidence {
  return { resolution: null, resolutionProblem: new ProblemError(code, detail), credential };
}

/** Evaluates a one-rule policy and returns that rule's evaluation. */
function rule(did: string, name: string, value: unknown, evidence: PolicyEvidence, now = NOW): RuleEvaluation {
  const evaluation = evaluatePolicy(did, parsePolicy({ rules: { [name]: value } }), evidence, now);
  expect(evaluation.evaluations).toHaveLength(1);
  expect(evaluation.evaluations[0]!.rule).toBe(name);
  expect(evaluation.evaluations[0]!.expected).toEqual(value);
  expect(evaluation.status).toBe(evaluation.evaluations[0]!.status);
  return evaluation.evaluations[0]!;
}

function credential(status: CredentialStatus, issuer: string | null): CredentialVerification {
  return {
    status,
    headline: status === 'VALID' ? 'The credential is valid.' : `The credential is ${status.toLowerCase()}.`,
    format: 'VC_JOSE_COSE',
    dataModel: '2.0',
    issuer,
    subject: 'did:example:holder',
    types: ['VerifiableCredential'],
    validFrom: '2025-01-01T00:00:00Z',
    validUntil: null,
    claims: { id: 'did:example:holder' },
    checks: [],
    proof: null,
    statusList: [],
    issuerResolution: null,
    limitations: [],
    valid: status === 'VALID',
    errors: [],
  };
}

function invalidRequest(value: unknown): ProblemError {
  const problem = problemFrom(() => parsePolicy(value));
  expect(problem.code).toBe('INVALID_REQUEST');
  expect(problem.detail).not.toContain('\n');
  expect(problem.detail.endsWith('.')).toBe(true);
  return problem;
}

describe('parsePolicy', () => {
  it('accepts every rule with a well-formed value and keeps their order', () => {
    const rules = {
      credentialIssuerMustBeSubject: false,
      allowedMethods: ['web', 'did:key'],
      didResolution: 'required',
      allowedCurves: ['Ed25519', 'P-256', 'secp256k1', 'P-384', 'P-521'],
      allowedKeySuites: ['Multikey'],
      minKeyBits: 256,
      requireKeyRelationship: 'capabilityDelegation',
      domainBinding: 'optional',
      tlsMinDaysRemaining: 0,
      verifiableHistory: 'required',
      maxCacheAgeSeconds: 0,
      credentialStatus: 'active',
      trustedIssuers: ['did:web:*.example.com', ED25519_DID],
    };
    const policy = parsePolicy({ name: 'gate', rules });
    expect(policy).toEqual({ name: 'gate', rules });
    expect(Object.keys(policy.rules)).toEqual(Object.keys(rules));
    expect(new Set(Object.keys(policy.rules))).toEqual(new Set(POLICY_RULES));
    expect(parsePolicy({ rules: {} })).toEqual({ name: null, rules: {} });
  });

  it('refuses a policy that is not an object, a name that is not a string, missing or non-object rules', () => {
    for (const value of [null, 'policy', 42, [], [{ rules: {} }]]) expect(invalidRequest(value).detail).toContain('must be a JSON object');
    expect(invalidRequest({ name: 7, rules: {} }).detail).toBe('The policy\'s "name" must be a string, not 7.');
    expect(invalidRequest({ name: null, rules: {} }).detail).toContain('"name" must be a string, not null');
    expect(invalidRequest({ name: 'x' }).detail).toContain('no "rules" member');
    for (const rules of [null, [], 'didResolution', 3]) expect(invalidRequest({ rules }).detail).toContain('"rules" must be an object');
  });

  it('refuses an unknown member next to name and rules', () => {
    const problem = invalidRequest({ name: 'x', rules: {}, rule: { minKeyBits: 256 } });
    expect(problem.detail).toBe('The policy has an unknown member "rule"; a policy has only "name" and "rules".');
  });

  it('refuses an unknown rule, naming it, guessing the intended one and listing the known ones', () => {
    const problem = invalidRequest({ rules: { didResolution: 'required', allowedCurve: ['Ed25519'] } });
    expect(problem.detail).toContain('unknown rule "allowedCurve" (did you mean "allowedCurves"?)');
    expect(problem.detail).toContain(`the known rules are ${POLICY_RULES.join(', ')}.`);
    const far = invalidRequest({ rules: { trustScore: 90 } });
    expect(far.detail).toContain('unknown rule "trustScore"; the known rules are didResolution,');
    expect(far.detail).not.toContain('did you mean');
    // JSON.parse makes __proto__ an own member: it is an unknown rule, not a prototype.
    expect(invalidRequest(JSON.parse('{"rules":{"__proto__":{"minKeyBits":1}}}')).detail).toContain('unknown rule "__proto__"');
  });

  it('refuses values of the wrong type or shape, rule by rule', () => {
    const cases: Array<[string, unknown, string]> = [
      ['didResolution', true, 'The rule "didResolution" takes the value "required", not true.'],
      ['didResolution', 'optional', 'takes the value "required", not "optional"'],
      ['verifiableHistory', 'yes', 'The rule "verifiableHistory" takes the value "required", not "yes".'],
      ['credentialStatus', 'VALID', 'The rule "credentialStatus" takes the value "active", not "VALID".'],
      ['domainBinding', 'preferred', 'The rule "domainBinding" takes one of "required", "optional", not "preferred".'],
      [
        'requireKeyRelationship',
        'auth',
        'takes one of "authentication", "assertionMethod", "keyAgreement", "capabilityInvocation", "capabilityDelegation", not "auth"',
      ],
      ['credentialIssuerMustBeSubject', 'true', 'The rule "credentialIssuerMustBeSubject" takes true or false, not "true".'],
      ['allowedMethods', [], 'The rule "allowedMethods" takes a non-empty array of method names such as "web" or "did:web", not an empty array.'],
      ['allowedMethods', 'web', 'not "web"'],
      ['allowedMethods', ['web', 3], 'entry 2 is wrong: it is 3, not a string.'],
      ['allowedMethods', ['did:Web'], 'entry 1 is wrong: "did:Web" is not a DID method name.'],
      ['allowedCurves', ['Ed25519', 'X25519'], 'entry 2 is wrong: "X25519" is not a signing curve svc knows.'],
      ['allowedCurves', ['ed25519'], '"ed25519" is not a signing curve'],
      ['allowedKeySuites', [''], 'entry 1 is wrong: it is an empty string.'],
      ['allowedKeySuites', {}, 'not an object'],
      ['minKeyBits', 0, 'The rule "minKeyBits" takes a positive integer (bits), not 0.'],
      ['minKeyBits', 255.5, 'not 255.5'],
      ['minKeyBits', '256', 'not "256"'],
      ['tlsMinDaysRemaining', -1, 'The rule "tlsMinDaysRemaining" takes a non-negative integer (days), not -1.'],
      ['tlsMinDaysRemaining', 1.5, 'not 1.5'],
      ['maxCacheAgeSeconds', -5, 'The rule "maxCacheAgeSeconds" takes a non-negative integer (seconds), not -5.'],
      ['maxCacheAgeSeconds', 2 ** 60, 'non-negative integer'],
      ['maxCacheAgeSeconds', null, 'not null'],
      [
        'trustedIssuers',
        'did:web:example.com',
        'The rule "trustedIssuers" takes an array of DIDs or did:web domain forms such as "did:web:*.example.com", not "did:web:example.com".',
      ],
      [
        'trustedIssuers',
        [ED25519_DID, 'did:web:*example.com'],
        'The rule "trustedIssuers" cannot be used: trusted issuer 2 ("did:web:*example.com") is refused: a wildcard is allowed only as "*." before the host',
      ],
      ['trustedIssuers', ['https://issuer.example'], 'trusted issuer 1 ("https://issuer.example") is refused: it is not a DID'],
      ['trustedIssuers', Array(101).fill(ED25519_DID), 'at most 100 trusted issuers may be given, not 101.'],
    ];
    for (const [name, value, detail] of cases) expect(invalidRequest({ rules: { [name]: value } }).detail, name).toContain(detail);
  });

  it('evaluatePolicy re-validates a hand-built policy', () => {
    const problem = problemFrom(() => evaluatePolicy(ED25519_DID, { name: null, rules: { minKeyBits: -1 } }, evidenceOf(null), NOW));
    expect(problem.code).toBe('INVALID_REQUEST');
    expect(problem.detail).toContain('"minKeyBits"');
  });
});

describe('evaluatePolicy: aggregation, order, headline', () => {
  it('a policy without rules is INDETERMINATE, never a default PASS', async () => {
    const evaluation = evaluatePolicy(ED25519_DID, parsePolicy({ name: 'empty', rules: {} }), evidenceOf(await resolved(ED25519_DID)), NOW);
    expect(evaluation).toEqual({
      did: ED25519_DID,
      policyName: 'empty',
      status: 'INDETERMINATE',
      headline: 'The policy could not be decided: it has no rules, and a policy never passes by default.',
      rulesEvaluated: 0,
      rulesPassed: 0,
      evaluations: [],
      evaluatedAt: '2025-03-04T05:06:37Z',
    });
  });

  it('passes when every rule passes; members in the documented order', async () => {
    const evaluation = evaluatePolicy(
      ED25519_DID,
      parsePolicy({ rules: { didResolution: 'required', allowedMethods: ['key'], allowedCurves: ['Ed25519'], minKeyBits: 256, maxCacheAgeSeconds: 60 } }),
      evidenceOf(await resolved(ED25519_DID)),
      NOW,
    );
    expect(Object.keys(evaluation)).toEqual(['did', 'policyName', 'status', 'headline', 'rulesEvaluated', 'rulesPassed', 'evaluations', 'evaluatedAt']);
    expect(Object.keys(evaluation.evaluations[0]!)).toEqual(['rule', 'status', 'message', 'expected', 'observedValue']);
    expect(evaluation.status).toBe('PASS');
    expect(evaluation.policyName).toBeNull();
    expect(evaluation.headline).toBe('The policy passes: 5 of 5 rules pass.');
    expect(evaluation.rulesEvaluated).toBe(5);
    expect(evaluation.rulesPassed).toBe(5);
  });

  it('evaluates rules in the order of the policy object', async () => {
    const order = ['maxCacheAgeSeconds', 'credentialStatus', 'allowedMethods', 'didResolution', 'minKeyBits'];
    const values: Record<string, unknown> = {
      maxCacheAgeSeconds: 60,
      credentialStatus: 'active',
      allowedMethods: ['key'],
      didResolution: 'required',
      minKeyBits: 256,
    };
    const rules = Object.fromEntries(order.map((r) => [r, values[r]]));
    const evaluation = evaluatePolicy(ED25519_DID, parsePolicy({ rules }), evidenceOf(await resolved(ED25519_DID)), NOW);
    expect(evaluation.evaluations.map((e) => e.rule)).toEqual(order);
    const reversed = Object.fromEntries([...order].reverse().map((r) => [r, values[r]]));
    expect(evaluatePolicy(ED25519_DID, parsePolicy({ rules: reversed }), evidenceOf(await resolved(ED25519_DID)), NOW).evaluations.map((e) => e.rule)).toEqual(
      [...order].reverse(),
    );
  });

  it('any FAIL fails the policy, even beside INDETERMINATE rules; the headline names the failing rules', async () => {
    const evaluation = evaluatePolicy(
      SECP256K1_DID,
      parsePolicy({
        name: 'ed only',
        rules: {
          allowedCurves: ['Ed25519'],
          credentialStatus: 'active',
          minKeyBits: 384,
          didResolution: 'required',
          allowedMethods: ['jwk'],
          domainBinding: 'optional',
        },
      }),
      evidenceOf(await resolved(SECP256K1_DID)),
      NOW,
    );
    expect(evaluation.evaluations.map((e) => e.status)).toEqual(['FAIL', 'INDETERMINATE', 'FAIL', 'PASS', 'PASS', 'PASS']);
    expect(evaluation.status).toBe('FAIL');
    expect(evaluation.policyName).toBe('ed only');
    expect(evaluation.rulesEvaluated).toBe(6);
    expect(evaluation.rulesPassed).toBe(3);
    expect(evaluation.headline).toBe('The policy fails: 2 of 6 rules fail (allowedCurves and minKeyBits).');
  });

  it('INDETERMINATE without a FAIL is INDETERMINATE, naming the undecided rules', async () => {
    const evaluation = evaluatePolicy(
      ED25519_DID,
      parsePolicy({ rules: { didResolution: 'required', credentialStatus: 'active' } }),
      evidenceOf(await resolved(ED25519_DID)),
      NOW,
    );
    expect(evaluation.status).toBe('INDETERMINATE');
    expect(evaluation.rulesPassed).toBe(1);
    expect(evaluation.headline).toBe('The policy could not be decided: 1 of 2 rules is indeterminate (credentialStatus) and none fails.');
    const single = evaluatePolicy(ED25519_DID, parsePolicy({ rules: { minKeyBits: 512 } }), evidenceOf(await resolved(ED25519_DID)), NOW);
    expect(single.headline).toBe('The policy fails: 1 of 1 rule fails (minKeyBits).');
  });

  it('a failed resolution leaves only allowedMethods, didResolution and credential rules decidable', () => {
    const evaluation = evaluatePolicy(
      'did:web:example.com',
      parsePolicy({
        rules: { didResolution: 'required', allowedMethods: ['did:web'], minKeyBits: 256, domainBinding: 'optional', credentialIssuerMustBeSubject: true },
      }),
      failedWith('UPSTREAM_UNAVAILABLE', 'The host example.com did not answer within 10 s.', credential('VALID', 'did:web:example.com#key-1')),
      NOW,
    );
    expect(evaluation.evaluations.map((e) => [e.rule, e.status])).toEqual([
      ['didResolution', 'INDETERMINATE'],
      ['allowedMethods', 'PASS'],
      ['minKeyBits', 'INDETERMINATE'],
      ['domainBinding', 'INDETERMINATE'],
      ['credentialIssuerMustBeSubject', 'PASS'],
    ]);
    expect(evaluation.status).toBe('INDETERMINATE');
    for (const e of evaluation.evaluations.slice(2, 4)) expect(e.message).toContain('could not be resolved (UPSTREAM_UNAVAILABLE)');
  });

  it('copies `expected` from the policy and refuses incoherent evidence', async () => {
    const policy = parsePolicy({ rules: { allowedMethods: ['key'] } });
    const resolution = await resolved(ED25519_DID);
    const evaluation = evaluatePolicy(ED25519_DID, policy, evidenceOf(resolution), NOW);
    expect(evaluation.evaluations[0]!.expected).toEqual(['key']);
    expect(evaluation.evaluations[0]!.expected).not.toBe(policy.rules.allowedMethods);
    const other = problemFrom(() => evaluatePolicy(P256_DID, policy, evidenceOf(resolution), NOW));
    expect(other.code).toBe('INTERNAL_ERROR');
    expect(other.detail).toContain('another DID');
    const both = problemFrom(() =>
      evaluatePolicy(ED25519_DID, policy, { ...evidenceOf(resolution), resolutionProblem: new ProblemError('NOT_FOUND', 'gone') }, NOW),
    );
    expect(both.code).toBe('INTERNAL_ERROR');
  });
});

describe('didResolution', () => {
  it('PASS: the DID resolves and is not deactivated', async () => {
    const e = rule(ED25519_DID, 'didResolution', 'required', evidenceOf(await resolved(ED25519_DID)));
    expect(e).toMatchObject({ status: 'PASS', observedValue: 'RESOLVED', message: 'The DID resolves (RESOLVED) and is not deactivated.' });
    // RESOLVED_WITH_WARNINGS (an off-curve key) still resolves.
    expect(rule(OFF_CURVE_DID, 'didResolution', 'required', evidenceOf(await resolved(OFF_CURVE_DID)))).toMatchObject({
      status: 'PASS',
      observedValue: 'RESOLVED_WITH_WARNINGS',
    });
  });

  it('FAIL: a deactivated DID (derived: outcome set to DEACTIVATED on a clone), and problems that are verdicts about the DID', async () => {
    const deactivated = structuredClone(await resolved(ED25519_DID));
    deactivated.verdict.outcome = 'DEACTIVATED';
    expect(rule(ED25519_DID, 'didResolution', 'required', evidenceOf(deactivated))).toMatchObject({
      status: 'FAIL',
      observedValue: 'DEACTIVATED',
      message: 'The DID resolves but has been deactivated.',
    });
    // Real problems from resolve(): a method svc does not support, an invalid DID.
    const unsupported = await problemOf(resolved('did:example:123'));
    const e = rule('did:example:123', 'didResolution', 'required', { resolution: null, resolutionProblem: unsupported, credential: null });
    expect(e).toMatchObject({ status: 'FAIL', observedValue: 'METHOD_NOT_SUPPORTED' });
    expect(e.message).toContain('The DID does not resolve (METHOD_NOT_SUPPORTED): The DID method "example" is not supported');
    const badJwk = await problemOf(resolved('did:jwk:!!'));
    expect(rule('did:jwk:!!', 'didResolution', 'required', { resolution: null, resolutionProblem: badJwk, credential: null })).toMatchObject({
      status: 'FAIL',
      observedValue: 'INVALID_DID',
    });
    for (const code of ['NOT_FOUND', 'INVALID_DID_DOCUMENT'] as const) {
      expect(rule('did:web:example.com', 'didResolution', 'required', failedWith(code, 'x'))).toMatchObject({ status: 'FAIL', observedValue: code });
    }
  });

  it('INDETERMINATE: problems that are no verdict about the DID, or no resolution at all', () => {
    for (const code of ['UPSTREAM_UNAVAILABLE', 'EGRESS_BLOCKED', 'INTERNAL_ERROR', 'PAYLOAD_TOO_LARGE', 'REQUEST_TIMEOUT'] as const) {
      const e = rule('did:web:example.com', 'didResolution', 'required', failedWith(code, 'The host did not answer in time'));
      expect(e, code).toMatchObject({ status: 'INDETERMINATE', observedValue: code });
      expect(e.message).toBe(`The DID could not be resolved (${code}), which is no verdict about the DID: The host did not answer in time.`);
    }
    expect(rule(ED25519_DID, 'didResolution', 'required', evidenceOf(null))).toMatchObject({ status: 'INDETERMINATE', observedValue: null });
  });
});

describe('allowedMethods', () => {
  it('PASS: the method is listed, written with or without "did:"', async () => {
    const resolution = await resolved(ED25519_DID);
    expect(rule(ED25519_DID, 'allowedMethods', ['web', 'key'], evidenceOf(resolution))).toMatchObject({
      status: 'PASS',
      observedValue: 'key',
      message: 'The method did:key is allowed.',
    });
    expect(rule(ED25519_DID, 'allowedMethods', ['did:key'], evidenceOf(resolution))).toMatchObject({ status: 'PASS', observedValue: 'key' });
  });

  it('PASS or FAIL without a resolution: only the DID string is needed', () => {
    expect(rule('did:web:example.com', 'allowedMethods', ['did:web'], failedWith('UPSTREAM_UNAVAILABLE'))).toMatchObject({
      status: 'PASS',
      observedValue: 'web',
    });
    expect(rule('did:web:example.com', 'allowedMethods', ['webvh'], failedWith('UPSTREAM_UNAVAILABLE'))).toMatchObject({
      status: 'FAIL',
      observedValue: 'web',
    });
  });

  it('FAIL: the method is not listed; a string that is not a DID has no method', async () => {
    const e = rule(P256_DID, 'allowedMethods', ['web', 'did:webvh'], evidenceOf(await resolved(P256_DID)));
    expect(e).toMatchObject({ status: 'FAIL', observedValue: 'key', message: 'The method did:key is not among the allowed methods (did:web and did:webvh).' });
    const bad = rule('not-a-did', 'allowedMethods', ['key'], failedWith('INVALID_DID', 'Not a valid DID.'));
    expect(bad).toMatchObject({ status: 'FAIL', observedValue: null });
    expect(bad.message).toContain('"not-a-did" is not a DID');
  });

  it('INDETERMINATE: never — the DID string is always there; decided even when nothing resolved', () => {
    // The rule has no INDETERMINATE case by design (it needs only the DID). Asserting it
    // stays decided when no resolution and no problem is supplied at all:
    expect(rule(ED25519_DID, 'allowedMethods', ['key'], evidenceOf(null)).status).toBe('PASS');
    expect(rule(ED25519_DID, 'allowedMethods', ['jwk'], evidenceOf(null)).status).toBe('FAIL');
  });
});

describe('allowedCurves', () => {
  it('PASS: every valid signing key uses a listed curve (the X25519 agreement key is not a signing key)', async () => {
    const e = rule(ED25519_DID, 'allowedCurves', ['Ed25519'], evidenceOf(await resolved(ED25519_DID)));
    expect(e).toMatchObject({ status: 'PASS', observedValue: ['Ed25519'], message: 'Every valid signing key uses an allowed curve (Ed25519).' });
    expect(rule(P256_DID, 'allowedCurves', ['Ed25519', 'P-256'], evidenceOf(await resolved(P256_DID)))).toMatchObject({
      status: 'PASS',
      observedValue: ['P-256'],
    });
  });

  it('FAIL: a valid signing key uses a curve that is not listed', async () => {
    const e = rule(SECP256K1_DID, 'allowedCurves', ['Ed25519', 'P-256'], evidenceOf(await resolved(SECP256K1_DID)));
    expect(e).toMatchObject({ status: 'FAIL', observedValue: ['secp256k1'] });
    expect(e.message).toBe(`The signing key ${SECP256K1_DID}#0 (secp256k1) uses a curve the policy does not allow (allowed: Ed25519 and P-256).`);
  });

  it('INDETERMINATE: only unsupported, invalid or agreement keys; no resolution', async () => {
    const ed448 = rule(ED448_DID, 'allowedCurves', ['Ed25519'], evidenceOf(await resolved(ED448_DID)));
    expect(ed448).toMatchObject({ status: 'INDETERMINATE', observedValue: null });
    expect(ed448.message).toBe('No curve could be checked: the document has no valid signing key (its 1 verification method: 1 unsupported).');
    expect(rule(OFF_CURVE_DID, 'allowedCurves', ['P-256'], evidenceOf(await resolved(OFF_CURVE_DID))).message).toContain('1 invalid');
    expect(rule(X25519_ONLY_DID, 'allowedCurves', ['Ed25519'], evidenceOf(await resolved(X25519_ONLY_DID))).message).toContain('1 valid but not for signing');
    // A P-256 key with use "enc" is listed under keyAgreement only: valid, but not a signing key.
    const p256Enc = jwkDid({ ...generateTestKey('ES256').publicJwk, use: 'enc' });
    const enc = rule(p256Enc, 'allowedCurves', ['Ed25519'], evidenceOf(await resolved(p256Enc)));
    expect(enc).toMatchObject({ status: 'INDETERMINATE', observedValue: null });
    expect(enc.message).toContain('1 valid but not for signing');
    expect(rule(p256Enc, 'minKeyBits', 512, evidenceOf(await resolved(p256Enc))).status).toBe('INDETERMINATE');
    const none = rule('did:web:example.com', 'allowedCurves', ['Ed25519'], failedWith('EGRESS_BLOCKED'));
    expect(none).toMatchObject({ status: 'INDETERMINATE', observedValue: null });
    expect(none.message).toBe('The DID could not be resolved (EGRESS_BLOCKED), so the curves of its keys could not be examined.');
  });
});

describe('allowedKeySuites', () => {
  it('PASS: every verification method type is listed', async () => {
    const e = rule(ED25519_DID, 'allowedKeySuites', ['Multikey'], evidenceOf(await resolved(ED25519_DID)));
    expect(e).toMatchObject({ status: 'PASS', observedValue: ['Multikey'], message: 'Every verification method has an allowed type (Multikey).' });
  });

  it('FAIL: a type is not listed, whatever the key status; an untyped method fails by name (derived: type removed on a clone)', async () => {
    const e = rule(OFF_CURVE_DID, 'allowedKeySuites', ['Multikey'], evidenceOf(await resolved(OFF_CURVE_DID)));
    expect(e).toMatchObject({ status: 'FAIL', observedValue: ['JsonWebKey2020'] });
    expect(e.message).toBe(`The verification method ${OFF_CURVE_DID}#0 (JsonWebKey2020) has a type the policy does not list (allowed: Multikey).`);
    const untyped = structuredClone(await resolved(ED25519_DID));
    untyped.evidence.keys[1]!.type = null;
    const u = rule(ED25519_DID, 'allowedKeySuites', ['Multikey'], evidenceOf(untyped));
    expect(u).toMatchObject({ status: 'FAIL', observedValue: ['Multikey', null] });
    expect(u.message).toBe(`The verification method ${X_KEY} has no type, so it is not among the allowed suites.`);
  });

  it('INDETERMINATE: a document without verification methods (derived: keys emptied on a clone); no resolution', async () => {
    const keyless = structuredClone(await resolved(ED25519_DID));
    keyless.evidence.keys = [];
    expect(rule(ED25519_DID, 'allowedKeySuites', ['Multikey'], evidenceOf(keyless))).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: null,
      message: 'The document declares no verification methods, so there is no type to check.',
    });
    expect(rule(ED25519_DID, 'allowedKeySuites', ['Multikey'], evidenceOf(null)).message).toBe(
      'No resolution of the DID was available, so the types of its verification methods could not be examined.',
    );
  });
});

describe('minKeyBits', () => {
  it('PASS: the weakest valid signing key meets the size', async () => {
    expect(rule(ED25519_DID, 'minKeyBits', 256, evidenceOf(await resolved(ED25519_DID)))).toMatchObject({
      status: 'PASS',
      observedValue: 256,
      message: `The only valid signing key, ${ED_KEY} (Ed25519), has 256 bits, at least the 256 required.`,
    });
    expect(rule(P384_DID, 'minKeyBits', 384, evidenceOf(await resolved(P384_DID)))).toMatchObject({ status: 'PASS', observedValue: 384 });
  });

  it('FAIL: the weakest valid signing key is smaller (derived: a P-256 key added to a P-384 resolution on a clone)', async () => {
    expect(rule(P256_DID, 'minKeyBits', 384, evidenceOf(await resolved(P256_DID)))).toMatchObject({ status: 'FAIL', observedValue: 256 });
    const mixed = structuredClone(await resolved(P384_DID));
    const p256 = (await resolved(P256_DID)).evidence.keys[0]!;
    mixed.evidence.keys.push({ ...structuredClone(p256), id: `${P384_DID}#weak` });
    const e = rule(P384_DID, 'minKeyBits', 384, evidenceOf(mixed));
    expect(e).toMatchObject({ status: 'FAIL', observedValue: 256 });
    expect(e.message).toBe(`The weakest valid signing key, ${P384_DID}#weak (P-256), has 256 bits, fewer than the 384 required.`);
  });

  it('INDETERMINATE: no valid signing key; no resolution', async () => {
    const e = rule(X25519_ONLY_DID, 'minKeyBits', 128, evidenceOf(await resolved(X25519_ONLY_DID)));
    expect(e).toMatchObject({ status: 'INDETERMINATE', observedValue: null });
    expect(e.message).toContain('No key size could be checked: the document has no valid signing key');
    expect(rule(ED25519_DID, 'minKeyBits', 128, failedWith('INTERNAL_ERROR')).message).toContain('(INTERNAL_ERROR), so the sizes of its keys');
  });
});

describe('requireKeyRelationship', () => {
  it('PASS: a valid signing key is authorised for the relationship; keyAgreement needs an agreement curve', async () => {
    const resolution = await resolved(ED25519_DID);
    expect(rule(ED25519_DID, 'requireKeyRelationship', 'assertionMethod', evidenceOf(resolution))).toMatchObject({
      status: 'PASS',
      observedValue: [ED_KEY],
      message: `The valid Ed25519 signing key ${ED_KEY} is authorised for assertionMethod.`,
    });
    expect(rule(ED25519_DID, 'requireKeyRelationship', 'keyAgreement', evidenceOf(resolution))).toMatchObject({
      status: 'PASS',
      observedValue: [X_KEY],
      message: `The valid X25519 key-agreement key ${X_KEY} is authorised for keyAgreement.`,
    });
  });

  it('FAIL: nothing is authorised for it, or only an invalid or unfit key', async () => {
    const x = rule(X25519_ONLY_DID, 'requireKeyRelationship', 'authentication', evidenceOf(await resolved(X25519_ONLY_DID)));
    expect(x).toMatchObject({ status: 'FAIL', observedValue: [], message: 'No verification method is authorised for authentication.' });
    const off = rule(OFF_CURVE_DID, 'requireKeyRelationship', 'assertionMethod', evidenceOf(await resolved(OFF_CURVE_DID)));
    expect(off).toMatchObject({ status: 'FAIL', observedValue: [`${OFF_CURVE_DID}#0`] });
    expect(off.message).toBe(`No valid signing key is authorised for assertionMethod: ${OFF_CURVE_DID}#0 is invalid (the point is not on the P-256 curve).`);
    // An Ed25519 did:jwk without "use" lists its key under keyAgreement, but Ed25519 cannot agree keys.
    const edJwk = jwkDid(generateTestKey('EdDSA').publicJwk);
    const ed = rule(edJwk, 'requireKeyRelationship', 'keyAgreement', evidenceOf(await resolved(edJwk)));
    expect(ed.status).toBe('FAIL');
    expect(ed.message).toBe(`No valid key-agreement key is authorised for keyAgreement: ${edJwk}#0 is an Ed25519 key, which cannot serve keyAgreement.`);
    // A document without keys shows that nothing is authorised (derived: emptied on a clone).
    const keyless = structuredClone(await resolved(ED25519_DID));
    keyless.evidence.keys = [];
    for (const r of Object.keys(keyless.evidence.document.relationships) as Array<keyof typeof keyless.evidence.document.relationships>)
      keyless.evidence.document.relationships[r] = [];
    expect(rule(ED25519_DID, 'requireKeyRelationship', 'authentication', evidenceOf(keyless)).status).toBe('FAIL');
  });

  it('INDETERMINATE: only an unsupported key, or a method defined elsewhere, is listed; no resolution', async () => {
    const e = rule(ED448_DID, 'requireKeyRelationship', 'authentication', evidenceOf(await resolved(ED448_DID)));
    expect(e).toMatchObject({ status: 'INDETERMINATE', observedValue: [`${ED448_DID}#0`] });
    expect(e.message).toBe(`No valid signing key could be confirmed for authentication: ${ED448_DID}#0 is a key svc does not support.`);
    // Derived: a relationship that references a method of another document.
    const external = structuredClone(await resolved(ED25519_DID));
    external.evidence.document.relationships.capabilityDelegation = ['did:web:example.com#key-1'];
    external.evidence.keys[0]!.relationships = ['authentication'];
    expect(rule(ED25519_DID, 'requireKeyRelationship', 'capabilityDelegation', evidenceOf(external)).message).toContain(
      'did:web:example.com#key-1 is defined outside the document',
    );
    expect(rule(ED25519_DID, 'requireKeyRelationship', 'authentication', failedWith('UPSTREAM_UNAVAILABLE'))).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: null,
    });
  });
});

describe('domainBinding (states a did:key cannot have are derived on clones; real ones in test/integration/policy.test.ts)', () => {
  async function withBinding(status: string | null): Promise<PolicyEvidence> {
    const resolution = structuredClone(await resolved(ED25519_DID));
    if (status !== null) {
      resolution.evidence.domainBinding = {
        status: status as never,
        origin: 'https://example.com',
        configurationUrl: 'https://example.com/.well-known/did-configuration.json',
        reason: `The configuration is ${status.toLowerCase()}`,
        credentials: [],
      };
    }
    return evidenceOf(resolution);
  }

  it('PASS: VERIFIED (required or optional); NOT_CONFIGURED or no domain when optional', async () => {
    for (const value of ['required', 'optional']) {
      expect(rule(ED25519_DID, 'domainBinding', value, await withBinding('VERIFIED'))).toMatchObject({
        status: 'PASS',
        observedValue: 'VERIFIED',
        message: 'The domain https://example.com is bound to the DID by a verified domain linkage credential.',
      });
    }
    expect(rule(ED25519_DID, 'domainBinding', 'optional', await withBinding('NOT_CONFIGURED'))).toMatchObject({
      status: 'PASS',
      observedValue: 'NOT_CONFIGURED',
    });
    expect(rule(ED25519_DID, 'domainBinding', 'optional', await withBinding(null))).toMatchObject({
      status: 'PASS',
      observedValue: null,
      message: 'The domain binding is optional and did:key has no domain to bind.',
    });
  });

  it('FAIL: required and not VERIFIED, or no domain; a configuration that does not verify even when optional', async () => {
    expect(rule(ED25519_DID, 'domainBinding', 'required', await withBinding(null))).toMatchObject({
      status: 'FAIL',
      observedValue: null,
      message: 'A domain binding is required, but did:key has no domain to bind.',
    });
    expect(rule(ED25519_DID, 'domainBinding', 'required', await withBinding('NOT_CONFIGURED'))).toMatchObject({
      status: 'FAIL',
      observedValue: 'NOT_CONFIGURED',
    });
    for (const status of ['NOT_LINKED', 'INVALID_PROOF', 'UNSUPPORTED_PROOF', 'MALFORMED']) {
      for (const value of ['required', 'optional']) {
        const e = rule(ED25519_DID, 'domainBinding', value, await withBinding(status));
        expect(e, `${status} ${value}`).toMatchObject({ status: 'FAIL', observedValue: status });
        expect(e.message).toBe(`The DID configuration of https://example.com does not bind the DID (${status}): The configuration is ${status.toLowerCase()}.`);
      }
    }
  });

  it('INDETERMINATE: UNREACHABLE either way; no resolution', async () => {
    for (const value of ['required', 'optional']) {
      const e = rule(ED25519_DID, 'domainBinding', value, await withBinding('UNREACHABLE'));
      expect(e).toMatchObject({ status: 'INDETERMINATE', observedValue: 'UNREACHABLE' });
      expect(e.message).toContain('could not be retrieved (UNREACHABLE)');
    }
    expect(rule('did:web:example.com', 'domainBinding', 'optional', failedWith('UPSTREAM_UNAVAILABLE')).message).toBe(
      'The DID could not be resolved (UPSTREAM_UNAVAILABLE), so its domain binding could not be examined.',
    );
  });
});

describe('tlsMinDaysRemaining', () => {
  /** Derived: a did:key resolution given HTTPS source and TLS evidence on a clone (real ones in the integration test). */
  async function withTls(daysUntilExpiry: number): Promise<PolicyEvidence> {
    const resolution = structuredClone(await resolved(ED25519_DID));
    resolution.evidence.source.kind = 'HTTPS';
    const tls: TlsEvidence = {
      host: 'example.com',
      validatedBy: 'CN=Test Root',
      protocol: 'TLSv1.3',
      cipher: 'TLS_AES_128_GCM_SHA256',
      certificate: {} as TlsEvidence['certificate'],
      daysUntilExpiry,
      hostnameInSan: true,
    };
    resolution.evidence.tls = tls;
    return evidenceOf(resolution);
  }

  it('PASS: at least the required days remain (boundary included)', async () => {
    expect(rule(ED25519_DID, 'tlsMinDaysRemaining', 30, await withTls(30))).toMatchObject({
      status: 'PASS',
      observedValue: 30,
      message: 'The TLS certificate of example.com expires in 30 days, at least the 30 days required.',
    });
    expect(rule(ED25519_DID, 'tlsMinDaysRemaining', 0, await withTls(0))).toMatchObject({ status: 'PASS', observedValue: 0 });
  });

  it('FAIL: fewer days, an expired certificate, or a method that fetches nothing', async () => {
    expect(rule(ED25519_DID, 'tlsMinDaysRemaining', 30, await withTls(29))).toMatchObject({ status: 'FAIL', observedValue: 29 });
    expect(rule(ED25519_DID, 'tlsMinDaysRemaining', 0, await withTls(-3))).toMatchObject({
      status: 'FAIL',
      observedValue: -3,
      message: 'The TLS certificate of example.com expired 3 days ago, less than the 0 days required.',
    });
    expect(rule(ED25519_DID, 'tlsMinDaysRemaining', 1, evidenceOf(await resolved(ED25519_DID)))).toMatchObject({
      status: 'FAIL',
      observedValue: null,
      message: 'There is no TLS certificate to check: did:key documents are derived from the identifier, not fetched.',
    });
  });

  it('INDETERMINATE: no resolution; an HTTPS resolution without TLS evidence (derived)', async () => {
    expect(rule('did:web:example.com', 'tlsMinDaysRemaining', 1, failedWith('UPSTREAM_UNAVAILABLE'))).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: null,
    });
    const https = structuredClone(await resolved(ED25519_DID));
    https.evidence.source.kind = 'HTTPS';
    expect(rule(ED25519_DID, 'tlsMinDaysRemaining', 1, evidenceOf(https)).status).toBe('INDETERMINATE');
  });
});

describe('verifiableHistory (real did:webvh logs in test/integration/policy.test.ts)', () => {
  async function withHistory(edit: (h: NonNullable<EnrichedResolution['evidence']['history']>) => void): Promise<PolicyEvidence> {
    const resolution = structuredClone(await resolved(ED25519_DID));
    const entry = {
      versionId: '1-Qm',
      versionNumber: 1,
      versionTime: '2025-01-01T00:00:00Z',
      status: 'VERIFIED' as const,
      check: null,
      reason: null,
      documentId: ED25519_DID,
      method: 'did:webvh:1.0',
      signedBy: null,
      changes: [],
      updateKeys: [],
      preRotation: false,
      witness: null,
      deactivated: false,
    };
    const history = {
      scid: 'Qm',
      entries: [entry, { ...entry, versionNumber: 2, versionId: '2-Qm' }],
      witness: {
        status: 'NOT_REQUIRED' as const,
        url: 'https://example.com/.well-known/did-witness.json',
        httpStatus: null,
        contentType: null,
        bytes: null,
        sha256: null,
        acceptedProofs: 0,
        discarded: [],
        reason: null,
      },
      verifiedEntries: 2,
      selectedVersion: 2,
      failure: null,
      reusedEntries: 0,
    };
    edit(history);
    resolution.evidence.history = history;
    return evidenceOf(resolution);
  }

  it('PASS: a log verified to its end (derived on a clone)', async () => {
    expect(rule(ED25519_DID, 'verifiableHistory', 'required', await withHistory(() => {}))).toMatchObject({
      status: 'PASS',
      observedValue: { entries: 2, verifiedEntries: 2 },
      message: 'The did:webvh log verifies: all 2 entries verified.',
    });
  });

  it('FAIL: a method without a log; a log that fails or does not verify to its end (derived)', async () => {
    expect(rule(ED25519_DID, 'verifiableHistory', 'required', evidenceOf(await resolved(ED25519_DID)))).toMatchObject({
      status: 'FAIL',
      observedValue: null,
      message: 'did:key keeps no verifiable log of versions.',
    });
    const failing = rule(
      ED25519_DID,
      'verifiableHistory',
      'required',
      await withHistory((h) => {
        h.verifiedEntries = 1;
        h.failure = { versionNumber: 2, check: 'proof', reason: 'the proof does not verify' };
      }),
    );
    expect(failing).toMatchObject({ status: 'FAIL', observedValue: { entries: 2, verifiedEntries: 1 } });
    expect(failing.message).toBe('The log does not verify: entry 2 fails the proof check (the proof does not verify), 1 of 2 entries verified.');
    expect(
      rule(
        ED25519_DID,
        'verifiableHistory',
        'required',
        await withHistory((h) => {
          h.entries = [];
          h.verifiedEntries = 0;
        }),
      ).status,
    ).toBe('FAIL');
  });

  it('INDETERMINATE: no resolution', () => {
    const e = rule('did:webvh:Qm:example.com', 'verifiableHistory', 'required', failedWith('UPSTREAM_UNAVAILABLE'));
    expect(e).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: null,
      message: 'The DID could not be resolved (UPSTREAM_UNAVAILABLE), so its history could not be examined.',
    });
  });
});

describe('maxCacheAgeSeconds', () => {
  it('PASS: observed within the allowance (boundary included)', async () => {
    const resolution = await resolved(ED25519_DID);
    expect(resolution.observedAt).toBe(OBSERVED);
    expect(rule(ED25519_DID, 'maxCacheAgeSeconds', 30, evidenceOf(resolution))).toMatchObject({
      status: 'PASS',
      observedValue: 30,
      message: 'The evidence was observed 30 seconds before the evaluation, within the 30 seconds allowed.',
    });
    // A resolution stamped in the second after `now` was taken counts as age 0.
    expect(rule(ED25519_DID, 'maxCacheAgeSeconds', 0, evidenceOf(resolution), new Date('2025-03-04T05:06:06.999Z'))).toMatchObject({
      status: 'PASS',
      observedValue: 0,
    });
  });

  it('FAIL: older than allowed, a cache hit says so', async () => {
    const runtime = testRuntime(fixedClock());
    await resolve(ED25519_DID, runtime);
    const hit = await resolve(ED25519_DID, runtime);
    expect(hit.cached).toBe(true);
    const e = rule(ED25519_DID, 'maxCacheAgeSeconds', 29, evidenceOf(hit));
    expect(e).toMatchObject({ status: 'FAIL', observedValue: 30 });
    expect(e.message).toBe('The evidence was observed 30 seconds before the evaluation (served from the cache), more than the 29 seconds allowed.');
  });

  it('INDETERMINATE: no resolution', () => {
    expect(rule('did:web:example.com', 'maxCacheAgeSeconds', 60, failedWith('UPSTREAM_UNAVAILABLE'))).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: null,
    });
  });
});

describe('credentialStatus', () => {
  it('PASS: the supplied credential is VALID', async () => {
    expect(rule(ED25519_DID, 'credentialStatus', 'active', evidenceOf(await resolved(ED25519_DID), credential('VALID', ED25519_DID)))).toMatchObject({
      status: 'PASS',
      observedValue: 'VALID',
      message: 'The supplied credential is VALID.',
    });
  });

  it('FAIL: any other decided status', async () => {
    const resolution = await resolved(ED25519_DID);
    for (const status of ['INVALID', 'EXPIRED', 'NOT_YET_VALID', 'REVOKED', 'SUSPENDED', 'UNSUPPORTED', 'MALFORMED'] as const) {
      const e = rule(ED25519_DID, 'credentialStatus', 'active', evidenceOf(resolution, credential(status, ED25519_DID)));
      expect(e, status).toMatchObject({ status: 'FAIL', observedValue: status });
      expect(e.message).toBe(`The supplied credential is not active (${status}): The credential is ${status.toLowerCase()}.`);
    }
  });

  it('INDETERMINATE: no credential supplied, or its status is INDETERMINATE; decided without a resolution', async () => {
    expect(rule(ED25519_DID, 'credentialStatus', 'active', evidenceOf(await resolved(ED25519_DID)))).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: null,
      message: 'No credential was supplied, so its status could not be checked.',
    });
    expect(rule(ED25519_DID, 'credentialStatus', 'active', evidenceOf(null, credential('INDETERMINATE', ED25519_DID)))).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: 'INDETERMINATE',
    });
    expect(rule('did:web:example.com', 'credentialStatus', 'active', failedWith('UPSTREAM_UNAVAILABLE', 'x', credential('REVOKED', null))).status).toBe('FAIL');
  });
});

describe('credentialIssuerMustBeSubject', () => {
  it('PASS: the issuer is the evaluated DID (a fragment is ignored); false requires nothing', async () => {
    const resolution = await resolved(ED25519_DID);
    expect(rule(ED25519_DID, 'credentialIssuerMustBeSubject', true, evidenceOf(resolution, credential('VALID', ED25519_DID)))).toMatchObject({
      status: 'PASS',
      observedValue: ED25519_DID,
      message: 'The credential issuer is the evaluated DID.',
    });
    expect(rule(ED25519_DID, 'credentialIssuerMustBeSubject', true, evidenceOf(resolution, credential('VALID', ED_KEY)))).toMatchObject({
      status: 'PASS',
      observedValue: ED_KEY,
    });
    const claimed = rule(ED25519_DID, 'credentialIssuerMustBeSubject', true, evidenceOf(resolution, credential('INVALID', ED25519_DID)));
    expect(claimed.status).toBe('PASS');
    expect(claimed.message).toContain('as the credential states it; the credential itself is INVALID');
    expect(rule(ED25519_DID, 'credentialIssuerMustBeSubject', false, evidenceOf(resolution))).toMatchObject({
      status: 'PASS',
      observedValue: null,
      message: 'The policy sets credentialIssuerMustBeSubject to false, so it requires nothing of the credential issuer.',
    });
  });

  it('FAIL: another issuer, or none', async () => {
    const resolution = await resolved(ED25519_DID);
    const e = rule(ED25519_DID, 'credentialIssuerMustBeSubject', true, evidenceOf(resolution, credential('VALID', P256_DID)));
    expect(e).toMatchObject({ status: 'FAIL', observedValue: P256_DID, message: `The credential issuer ${P256_DID} is not the evaluated DID ${ED25519_DID}.` });
    // A prefix is not the DID.
    expect(rule('did:web:example.com', 'credentialIssuerMustBeSubject', true, evidenceOf(null, credential('VALID', 'did:web:example.com:evil'))).status).toBe(
      'FAIL',
    );
    expect(rule(ED25519_DID, 'credentialIssuerMustBeSubject', true, evidenceOf(resolution, credential('MALFORMED', null)))).toMatchObject({
      status: 'FAIL',
      observedValue: null,
    });
  });

  it('INDETERMINATE: no credential supplied', async () => {
    expect(rule(ED25519_DID, 'credentialIssuerMustBeSubject', true, evidenceOf(await resolved(ED25519_DID)))).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: null,
      message: 'No credential was supplied, so its issuer could not be compared with the DID.',
    });
  });
});

describe('trustedIssuers', () => {
  it('PASS: the issuer is listed, or under a listed domain; the policy shows the entry that matched', async () => {
    const resolution = await resolved(ED25519_DID);
    expect(rule(ED25519_DID, 'trustedIssuers', [P256_DID, ED25519_DID], evidenceOf(resolution, credential('VALID', ED25519_DID)))).toMatchObject({
      status: 'PASS',
      observedValue: ED25519_DID,
      message: `The issuer ${ED25519_DID} is trusted: it is listed.`,
    });
    // The evaluated DID plays no part: this rule is about the credential's issuer.
    expect(rule(ED25519_DID, 'trustedIssuers', ['did:web:*.example.com'], evidenceOf(resolution, credential('VALID', 'did:web:ci.example.com')))).toMatchObject(
      {
        status: 'PASS',
        message: 'The issuer did:web:ci.example.com is trusted: it matches the entry did:web:*.example.com.',
      },
    );
    const claimed = rule(ED25519_DID, 'trustedIssuers', [ED25519_DID], evidenceOf(resolution, credential('INVALID', ED25519_DID)));
    expect(claimed.status).toBe('PASS');
    expect(claimed.message).toContain('That is the issuer the credential states: it is INVALID, so who issued it is not established.');
  });

  it('FAIL: an issuer not listed, named; a look-alike of a listed domain; an issuer that is not a DID', async () => {
    const resolution = await resolved(ED25519_DID);
    expect(rule(ED25519_DID, 'trustedIssuers', [ED25519_DID], evidenceOf(resolution, credential('VALID', P256_DID)))).toMatchObject({
      status: 'FAIL',
      observedValue: P256_DID,
      message: `The issuer ${P256_DID} is not among the trusted issuers (1 entry: ${ED25519_DID}).`,
    });
    expect(
      rule(ED25519_DID, 'trustedIssuers', ['did:web:example.com:*'], evidenceOf(resolution, credential('VALID', 'did:web:example.com.evil.com'))).status,
    ).toBe('FAIL');
    expect(rule(ED25519_DID, 'trustedIssuers', ['did:web:issuer.example'], evidenceOf(resolution, credential('VALID', 'https://issuer.example'))).status).toBe(
      'FAIL',
    );
  });

  it('INDETERMINATE: no credential, an empty list, or a credential whose issuer could not be read', async () => {
    const resolution = await resolved(ED25519_DID);
    expect(rule(ED25519_DID, 'trustedIssuers', [ED25519_DID], evidenceOf(resolution))).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: null,
      message: 'No credential was supplied, so its issuer could not be compared with the trusted issuers.',
    });
    expect(rule(ED25519_DID, 'trustedIssuers', [], evidenceOf(resolution, credential('VALID', ED25519_DID)))).toMatchObject({
      status: 'INDETERMINATE',
      observedValue: ED25519_DID,
      message: 'The list of trusted issuers is empty: it trusts no one, so whether the issuer is trusted is not decided.',
    });
    expect(rule(ED25519_DID, 'trustedIssuers', [ED25519_DID], evidenceOf(resolution, credential('MALFORMED', null))).status).toBe('INDETERMINATE');
  });
});
