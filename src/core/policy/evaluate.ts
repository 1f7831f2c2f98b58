/**
 * The policy engine of POST /v1/policies/evaluate (docs/credentials.md#policies): validates a
 * declarative policy and decides it against evidence the caller gathered. No network, no clock
 * of its own, no trust score: each rule says PASS, FAIL or INDETERMINATE with the value it saw.
 *
 * Principle. FAIL when the evidence shows the requirement is not met. INDETERMINATE when the
 * evidence needed could not be obtained, or does not exist to be measured. A rule never
 * defaults to PASS, and a vacuous "every key is fine" over no keys is INDETERMINATE.
 *
 * Overall status. Any FAIL → FAIL; else any INDETERMINATE → INDETERMINATE; else PASS. A policy
 * without rules is INDETERMINATE. NOT_APPLICABLE (in the documented enumeration) is never produced:
 * every rule in a policy is a requirement its author chose to state, so "does not apply" would
 * be a PASS in disguise (a did:key asked for TLS days fails, it is not exempt).
 *
 * Rules, in the order the policy object lists them (rulesEvaluated = their number,
 * rulesPassed = the PASS count):
 *
 * - didResolution 'required': PASS resolved and not DEACTIVATED. FAIL for DEACTIVATED, or a
 *   resolution problem that is a verdict about the DID (NOT_FOUND, INVALID_DID_DOCUMENT,
 *   INVALID_DID, METHOD_NOT_SUPPORTED). INDETERMINATE for every other problem (UPSTREAM_UNAVAILABLE,
 *   EGRESS_BLOCKED, INTERNAL_ERROR, PAYLOAD_TOO_LARGE, time limits …): no verdict. observedValue:
 *   the outcome or the problem code.
 * - allowedMethods: the method, from the resolution or else from the DID string (so it is
 *   decided even when resolution failed); entries are written `web` or `did:web`. A string that is
 *   not a DID has no method: FAIL. observedValue: the method name.
 * - allowedCurves: every valid signing key (VALID_KEY, curve in SIGNING_CURVES, listed under a
 *   relationship other than keyAgreement) uses a listed curve; INDETERMINATE when there is none.
 *   Invalid and unsupported keys are not judged here. observedValue: the curves seen.
 * - allowedKeySuites: every verification method's `type` (whatever its key status) is listed; an
 *   untyped method FAILs; a document without methods is INDETERMINATE. observedValue: the types.
 * - minKeyBits: CURVE_BITS of the weakest valid signing key ≥ value; none → INDETERMINATE.
 *   observedValue: the weakest bits.
 * - requireKeyRelationship: a valid key on a fitting curve is listed under the relationship
 *   (a signing curve; for keyAgreement an agreement curve, i.e. not Ed25519). Only unsupported
 *   keys, or methods defined outside the document, under it → INDETERMINATE (svc cannot tell).
 *   Nothing under it, or only invalid or unfit keys → FAIL. svc's own choice: a
 *   document without any keys FAILs this rule, because the document itself was obtained and shows
 *   that nothing is authorised (unlike the curve and size rules, there is no vacuous truth to
 *   avoid). observedValue: the ids the document lists under the relationship.
 * - domainBinding 'required': VERIFIED → PASS; UNREACHABLE → INDETERMINATE; any other status, or a
 *   method without a domain (did:key, did:jwk) → FAIL. 'optional': VERIFIED, NOT_CONFIGURED or no
 *   domain → PASS; a configuration that exists but does not verify (NOT_LINKED, INVALID_PROOF,
 *   UNSUPPORTED_PROOF, MALFORMED) → FAIL; UNREACHABLE → INDETERMINATE. observedValue: the status.
 * - tlsMinDaysRemaining: evidence.tls.daysUntilExpiry (whole days at observation time, negative
 *   once expired) ≥ value. A method that fetches nothing (source DERIVED) has no certificate: FAIL.
 *   observedValue: the days.
 * - verifiableHistory 'required': evidence.history verified to its end (no failure,
 *   verifiedEntries = entries > 0) → PASS; no log (not did:webvh) or a failing log → FAIL. A
 *   deactivated but verifying log passes (didResolution judges deactivation). observedValue:
 *   {entries, verifiedEntries}.
 * - maxCacheAgeSeconds: age = ⌊(now − observedAt) / 1 s⌋, clamped at 0 (observedAt is truncated
 *   to the second, so a resolution started just after `now` was taken must not look negative);
 *   age ≤ value → PASS. observedValue: the age.
 * - credentialStatus 'active': the credential's status VALID → PASS; none supplied or
 *   INDETERMINATE → INDETERMINATE; any other status → FAIL. observedValue: the status.
 * - credentialIssuerMustBeSubject true: the issuer as extracted, without fragment, equals the DID
 *   without fragment → PASS; a different or absent issuer → FAIL; no credential → INDETERMINATE.
 *   Only the claim is compared; whether the credential verifies is credentialStatus's question
 *   (the message says so when the credential is not VALID). false → PASS, the policy's explicit
 *   choice to require nothing. observedValue: the issuer.
 *
 * Every rule that needs the resolution is INDETERMINATE without one, naming the problem code;
 * only didResolution turns a problem into a verdict. The caller's evidence must be coherent: a
 * resolution of another DID, or both a resolution and a problem, is a programming error
 * (INTERNAL_ERROR), never silently evaluated.
 */
import { ProblemError } from '../problems.js';
import { rfc3339 } from '../runtime.js';
import { describeValue, evaluateRule, joinList, validateRule, type RuleContext } from './rules.js';
import {
  isPolicyRule,
  POLICY_RULES,
  type Policy,
  type PolicyEvaluation,
  type PolicyEvidence,
  type PolicyRule,
  type PolicyRuleValues,
  type PolicyStatus,
  type RuleEvaluation,
} from './types.js';

export type { PolicyEvidence } from './types.js';

const POLICY_MEMBERS: readonly string[] = ['name', 'rules'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function invalid(message: string): ProblemError {
  return new ProblemError('INVALID_REQUEST', message);
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known rule an unknown name was most likely meant to be, if any is close. */
function closestRule(name: string): PolicyRule | null {
  let best: PolicyRule | null = null;
  let bestDistance = Infinity;
  for (const rule of POLICY_RULES) {
    const distance = rule.toLowerCase() === name.toLowerCase() ? 0 : editDistance(rule.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      best = rule;
      bestDistance = distance;
    }
  }
  return bestDistance <= 3 ? best : null;
}

function validateRules(rules: Record<string, unknown>): Partial<PolicyRuleValues> {
  const validated: Partial<Record<PolicyRule, unknown>> = {};
  for (const name of Object.keys(rules)) {
    if (!isPolicyRule(name)) {
      const guess = closestRule(name);
      throw invalid(
        `The policy names an unknown rule ${describeValue(name)}${guess ? ` (did you mean "${guess}"?)` : ''}; the known rules are ${POLICY_RULES.join(', ')}.`,
      );
    }
    validated[name] = validateRule(name, rules[name]);
  }
  return validated as Partial<PolicyRuleValues>;
}

/**
 * Validates a policy document `{name?: string, rules: {<rule>: <value>, …}}`; throws
 * ProblemError('INVALID_REQUEST', one sentence) for anything else, including an unknown rule or
 * member (a typo must never silently weaken a gate). Rules keep their order.
 */
export function parsePolicy(value: unknown): Policy {
  if (!isPlainObject(value)) {
    throw invalid(`The policy must be a JSON object with "rules" and optionally "name", not ${describeValue(value)}.`);
  }
  for (const member of Object.keys(value)) {
    if (!POLICY_MEMBERS.includes(member)) {
      throw invalid(`The policy has an unknown member ${describeValue(member)}; a policy has only "name" and "rules".`);
    }
  }
  const name = value['name'];
  if (name !== undefined && typeof name !== 'string') {
    throw invalid(`The policy's "name" must be a string, not ${describeValue(name)}.`);
  }
  if (!Object.hasOwn(value, 'rules')) {
    throw invalid('The policy has no "rules" member; give an object of rules such as {"didResolution": "required"}.');
  }
  const rules = value['rules'];
  if (!isPlainObject(rules)) {
    throw invalid(`The policy's "rules" must be an object mapping rule names to values, not ${describeValue(rules)}.`);
  }
  return { name: name ?? null, rules: validateRules(rules) };
}

function rulesPhrase(count: number, total: number, singularVerb: string, pluralVerb: string): string {
  return `${count} of ${total} ${total === 1 ? 'rule' : 'rules'} ${count === 1 ? singularVerb : pluralVerb}`;
}

function headline(status: PolicyStatus, evaluations: readonly RuleEvaluation[]): string {
  const total = evaluations.length;
  if (total === 0) return 'The policy could not be decided: it has no rules, and a policy never passes by default.';
  const named = (s: RuleEvaluation['status']) => evaluations.filter((e) => e.status === s).map((e) => e.rule);
  if (status === 'PASS') return `The policy passes: ${rulesPhrase(total, total, 'passes', 'pass')}.`;
  if (status === 'FAIL') {
    const failed = named('FAIL');
    return `The policy fails: ${rulesPhrase(failed.length, total, 'fails', 'fail')} (${joinList(failed)}).`;
  }
  const open = named('INDETERMINATE');
  return `The policy could not be decided: ${rulesPhrase(open.length, total, 'is', 'are')} indeterminate (${joinList(open)}) and none fails.`;
}

function overall(evaluations: readonly RuleEvaluation[]): PolicyStatus {
  if (evaluations.length === 0) return 'INDETERMINATE';
  if (evaluations.some((e) => e.status === 'FAIL')) return 'FAIL';
  if (evaluations.some((e) => e.status === 'INDETERMINATE')) return 'INDETERMINATE';
  return 'PASS';
}

/**
 * Decides `policy` for `did` against `evidence` at `now`. Pure: nothing is fetched. Rules are
 * re-validated, so a hand-built Policy cannot smuggle in a malformed value.
 */
export function evaluatePolicy(did: string, policy: Policy, evidence: PolicyEvidence, now: Date): PolicyEvaluation {
  if (Number.isNaN(now.getTime())) throw new ProblemError('INTERNAL_ERROR', 'The policy was evaluated with an invalid time.');
  if (evidence.resolution && evidence.resolutionProblem) {
    throw new ProblemError('INTERNAL_ERROR', 'The policy evidence holds both a resolution and a resolution problem.');
  }
  if (evidence.resolution && evidence.resolution.did !== did) {
    throw new ProblemError('INTERNAL_ERROR', 'The policy evidence holds the resolution of another DID than the one evaluated.');
  }
  const rules = validateRules(policy.rules as Record<string, unknown>);
  const context: RuleContext = { did, evidence, now };
  const evaluations: RuleEvaluation[] = [];
  for (const rule of Object.keys(rules) as PolicyRule[]) {
    const value = rules[rule]!;
    const outcome = evaluateRule(rule, value as PolicyRuleValues[typeof rule], context);
    evaluations.push({
      rule,
      status: outcome.status,
      message: outcome.message,
      expected: structuredClone(value),
      observedValue: outcome.observedValue,
    });
  }
  const status = overall(evaluations);
  return {
    did,
    policyName: policy.name,
    status,
    headline: headline(status, evaluations),
    rulesEvaluated: evaluations.length,
    rulesPassed: evaluations.filter((e) => e.status === 'PASS').length,
    evaluations,
    evaluatedAt: rfc3339(now),
  };
}
