/**
 * The thirteen policy rules (docs/credentials.md#policies): for each, how its value is validated
 * and how it is decided against the evidence. The semantics, and the choices svc made,
 * are documented at the top of ./evaluate.ts; each rule below repeats its own briefly.
 *
 * Every evaluator is pure. PASS needs positive evidence; missing evidence is INDETERMINATE.
 */
import { CURVE_BITS, CURVES, SIGNING_CURVES, type Curve } from '../keys/types.js';
import { ProblemError, type ProblemCode } from '../problems.js';
import { RELATIONSHIPS, type EnrichedResolution, type KeyEvidence, type Relationship } from '../resolve/types.js';
import type { PolicyEvidence, PolicyRule, PolicyRuleValues, RuleStatus } from './types.js';
import { plural, withArticle } from '../text.js';
import { checkTrustedIssuer, trustedIssuersProblem } from './trusted-issuers.js';

export interface RuleContext {
  /** The DID being evaluated, as given. */
  did: string;
  evidence: PolicyEvidence;
  now: Date;
}

export interface RuleOutcome {
  status: RuleStatus;
  message: string;
  observedValue: unknown;
}

interface RuleSpec<R extends PolicyRule> {
  /** Returns the value when well formed; throws ProblemError('INVALID_REQUEST', one sentence) otherwise. */
  validate(value: unknown): PolicyRuleValues[R];
  evaluate(value: PolicyRuleValues[R], context: RuleContext): RuleOutcome;
}

// ---------------------------------------------------------------------------------------------
// Validation helpers

/** A short, safe description of a value for an error sentence. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  switch (typeof value) {
    case 'string': {
      const quoted = JSON.stringify(value);
      return quoted.length > 48 ? `${quoted.slice(0, 45)}…"` : quoted;
    }
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return withArticle(typeof value);
  }
}

function invalid(message: string): ProblemError {
  return new ProblemError('INVALID_REQUEST', message);
}

function exactly<T extends string>(rule: PolicyRule, allowed: readonly T[]): (value: unknown) => T {
  const written = allowed.map((a) => `"${a}"`);
  const choice = written.length === 1 ? `the value ${written[0]}` : `one of ${written.join(', ')}`;
  return (value) => {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    throw invalid(`The rule "${rule}" takes ${choice}, not ${describeValue(value)}.`);
  };
}

function integer(rule: PolicyRule, minimum: 0 | 1, unit: string): (value: unknown) => number {
  const kind = minimum === 1 ? 'a positive integer' : 'a non-negative integer';
  return (value) => {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum) return value;
    throw invalid(`The rule "${rule}" takes ${kind} (${unit}), not ${describeValue(value)}.`);
  };
}

function stringList(rule: PolicyRule, what: string, check: (entry: string) => string | null): (value: unknown) => string[] {
  return (value) => {
    if (!Array.isArray(value) || value.length === 0) {
      throw invalid(`The rule "${rule}" takes a non-empty array of ${what}, not ${describeValue(value)}.`);
    }
    for (const [index, entry] of value.entries()) {
      const problem = typeof entry === 'string' ? check(entry) : `it is ${describeValue(entry)}, not a string`;
      if (problem !== null) throw invalid(`The rule "${rule}" takes a non-empty array of ${what}, but entry ${index + 1} is wrong: ${problem}.`);
    }
    return [...(value as string[])];
  };
}

const METHOD_NAME = /^(?:did:)?([a-z0-9]+)$/;

/** `web` and `did:web` both name the method `web`. */
export function methodName(entry: string): string {
  return METHOD_NAME.exec(entry)?.[1] ?? entry;
}

const SIGNING_CURVE_NAMES: readonly string[] = CURVES.filter((c) => SIGNING_CURVES.has(c));

// ---------------------------------------------------------------------------------------------
// Evidence helpers

const VERDICT_PROBLEMS: ReadonlySet<ProblemCode> = new Set(['NOT_FOUND', 'INVALID_DID_DOCUMENT', 'INVALID_DID', 'METHOD_NOT_SUPPORTED']);

/** Curves whose keys can agree keys (ECDH/X25519); every svc curve but Ed25519. */
const AGREEMENT_CURVES: ReadonlySet<string> = new Set(CURVES.filter((c) => c !== 'Ed25519'));

/** VALID_KEY on a signing curve, listed under at least one relationship other than keyAgreement. */
export function isValidSigningKey(key: KeyEvidence): boolean {
  return key.status === 'VALID_KEY' && key.curve !== null && SIGNING_CURVES.has(key.curve) && key.relationships.some((r) => r !== 'keyAgreement');
}

function curveBits(curve: string): number {
  return Object.hasOwn(CURVE_BITS, curve) ? CURVE_BITS[curve as Curve] : 0;
}

/** "a", "a and b", "a, b and c". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** The INDETERMINATE outcome of a rule that needs the resolution when there is none. */
function unresolved(context: RuleContext, what: string): RuleOutcome {
  const problem = context.evidence.resolutionProblem;
  const message = problem
    ? `The DID could not be resolved (${problem.code}), so ${what} could not be examined.`
    : `No resolution of the DID was available, so ${what} could not be examined.`;
  return { status: 'INDETERMINATE', message, observedValue: null };
}

function withResolution(context: RuleContext, what: string, decide: (resolution: EnrichedResolution) => RuleOutcome): RuleOutcome {
  const { resolution } = context.evidence;
  return resolution ? decide(resolution) : unresolved(context, what);
}

/** Why a document offers no valid signing key, for an INDETERMINATE sentence. */
function noSigningKeys(keys: readonly KeyEvidence[]): string {
  if (keys.length === 0) return 'the document declares no verification methods';
  const invalidKeys = keys.filter((k) => k.status === 'INVALID_KEY').length;
  const unsupported = keys.filter((k) => k.status === 'UNSUPPORTED_KEY').length;
  const other = keys.length - invalidKeys - unsupported;
  const parts = [
    invalidKeys > 0 ? `${invalidKeys} invalid` : null,
    unsupported > 0 ? `${unsupported} unsupported` : null,
    other > 0 ? `${other} valid but not for signing` : null,
  ].filter((p): p is string => p !== null);
  return `the document has no valid signing key (its ${plural(keys.length, 'verification method')}: ${joinList(parts)})`;
}

function stripFragment(value: string): string {
  const hash = value.indexOf('#');
  return hash === -1 ? value : value.slice(0, hash);
}

/** Ends quoted text (a problem detail, a linkage reason) as the end of a sentence. */
function closing(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function days(count: number): string {
  return plural(count, 'day');
}

// ---------------------------------------------------------------------------------------------
// The rules

export const RULES: { readonly [R in PolicyRule]: RuleSpec<R> } = {
  /** PASS: resolved, not DEACTIVATED. FAIL: DEACTIVATED, or a problem that is a verdict about the DID. */
  didResolution: {
    validate: exactly('didResolution', ['required']),
    evaluate(_value, { evidence }) {
      const { resolution, resolutionProblem } = evidence;
      if (resolution) {
        const outcome = resolution.verdict.outcome;
        if (outcome === 'DEACTIVATED') {
          return { status: 'FAIL', message: 'The DID resolves but has been deactivated.', observedValue: outcome };
        }
        return { status: 'PASS', message: `The DID resolves (${outcome}) and is not deactivated.`, observedValue: outcome };
      }
      if (!resolutionProblem) {
        return { status: 'INDETERMINATE', message: 'No resolution of the DID was available, so whether it resolves is unknown.', observedValue: null };
      }
      const code = resolutionProblem.code;
      if (VERDICT_PROBLEMS.has(code)) {
        return { status: 'FAIL', message: `The DID does not resolve (${code}): ${closing(resolutionProblem.detail)}`, observedValue: code };
      }
      return {
        status: 'INDETERMINATE',
        message: `The DID could not be resolved (${code}), which is no verdict about the DID: ${closing(resolutionProblem.detail)}`,
        observedValue: code,
      };
    },
  },

  /** Needs only the DID string: evaluable without a resolution. */
  allowedMethods: {
    validate: stringList('allowedMethods', 'method names such as "web" or "did:web"', (entry) =>
      METHOD_NAME.test(entry) ? null : `${describeValue(entry)} is not a DID method name`,
    ),
    evaluate(value, { did, evidence }) {
      const allowed = unique(value.map(methodName));
      const method = evidence.resolution?.method ?? /^did:([a-z0-9]+):/.exec(did)?.[1] ?? null;
      if (method === null) {
        return { status: 'FAIL', message: `${describeValue(did)} is not a DID, so it has no method the policy could allow.`, observedValue: null };
      }
      if (allowed.includes(method)) {
        return { status: 'PASS', message: `The method did:${method} is allowed.`, observedValue: method };
      }
      return {
        status: 'FAIL',
        message: `The method did:${method} is not among the allowed methods (${joinList(allowed.map((m) => `did:${m}`))}).`,
        observedValue: method,
      };
    },
  },

  /** Every valid signing key uses a listed curve; no valid signing key is INDETERMINATE. */
  allowedCurves: {
    validate: stringList('allowedCurves', `signing curve names (${SIGNING_CURVE_NAMES.join(', ')})`, (entry) =>
      SIGNING_CURVES.has(entry) ? null : `${describeValue(entry)} is not a signing curve svc knows`,
    ),
    evaluate(value, context) {
      return withResolution(context, 'the curves of its keys', (resolution) => {
        const signing = resolution.evidence.keys.filter(isValidSigningKey);
        if (signing.length === 0) {
          return { status: 'INDETERMINATE', message: `No curve could be checked: ${noSigningKeys(resolution.evidence.keys)}.`, observedValue: null };
        }
        const curves = unique(signing.map((k) => k.curve!));
        const refused = signing.filter((k) => !value.includes(k.curve!));
        if (refused.length === 0) {
          return { status: 'PASS', message: `Every valid signing key uses an allowed curve (${joinList(curves)}).`, observedValue: curves };
        }
        const named = refused.map((k) => `${k.id} (${k.curve})`);
        return {
          status: 'FAIL',
          message: `${refused.length === 1 ? 'The signing key' : `${refused.length} signing keys`} ${joinList(named)} ${refused.length === 1 ? 'uses a curve' : 'use curves'} the policy does not allow (allowed: ${joinList(value)}).`,
          observedValue: curves,
        };
      });
    },
  },

  /** Every verification method's type is listed; a method without a type fails. */
  allowedKeySuites: {
    validate: stringList('allowedKeySuites', 'verification method types such as "Multikey"', (entry) => (entry.length > 0 ? null : 'it is an empty string')),
    evaluate(value, context) {
      return withResolution(context, 'the types of its verification methods', (resolution) => {
        const keys = resolution.evidence.keys;
        if (keys.length === 0) {
          return { status: 'INDETERMINATE', message: 'The document declares no verification methods, so there is no type to check.', observedValue: null };
        }
        const types = unique(keys.map((k) => k.type));
        const untyped = keys.filter((k) => k.type === null);
        if (untyped.length > 0) {
          return {
            status: 'FAIL',
            message: `The verification method${untyped.length === 1 ? '' : 's'} ${joinList(untyped.map((k) => k.id))} ${untyped.length === 1 ? 'has' : 'have'} no type, so ${untyped.length === 1 ? 'it is' : 'they are'} not among the allowed suites.`,
            observedValue: types,
          };
        }
        const refused = keys.filter((k) => !value.includes(k.type!));
        if (refused.length === 0) {
          return { status: 'PASS', message: `Every verification method has an allowed type (${joinList(types as string[])}).`, observedValue: types };
        }
        const named = refused.map((k) => `${k.id} (${k.type})`);
        return {
          status: 'FAIL',
          message: `The verification method${refused.length === 1 ? '' : 's'} ${joinList(named)} ${refused.length === 1 ? 'has a type' : 'have types'} the policy does not list (allowed: ${joinList(value)}).`,
          observedValue: types,
        };
      });
    },
  },

  /** The weakest valid signing key's CURVE_BITS meets the value; no valid signing key is INDETERMINATE. */
  minKeyBits: {
    validate: integer('minKeyBits', 1, 'bits'),
    evaluate(value, context) {
      return withResolution(context, 'the sizes of its keys', (resolution) => {
        const signing = resolution.evidence.keys.filter(isValidSigningKey);
        if (signing.length === 0) {
          return { status: 'INDETERMINATE', message: `No key size could be checked: ${noSigningKeys(resolution.evidence.keys)}.`, observedValue: null };
        }
        const weakest = signing.reduce((a, b) => (curveBits(b.curve!) < curveBits(a.curve!) ? b : a));
        const bits = curveBits(weakest.curve!);
        const which = signing.length === 1 ? 'The only valid signing key' : 'The weakest valid signing key';
        if (bits >= value) {
          return {
            status: 'PASS',
            message: `${which}, ${weakest.id} (${weakest.curve}), has ${bits} bits, at least the ${value} required.`,
            observedValue: bits,
          };
        }
        return {
          status: 'FAIL',
          message: `${which}, ${weakest.id} (${weakest.curve}), has ${bits} bits, fewer than the ${value} required.`,
          observedValue: bits,
        };
      });
    },
  },

  /**
   * A valid key is authorised for the relationship: a signing key (VALID_KEY, signing curve) for
   * the four signing relationships; for keyAgreement a VALID_KEY on an agreement curve (not
   * Ed25519). INDETERMINATE when only unsupported keys, or methods defined outside the document,
   * are listed there; FAIL when nothing, or only invalid keys, are.
   */
  requireKeyRelationship: {
    validate: exactly<Relationship>('requireKeyRelationship', RELATIONSHIPS),
    evaluate(value, context) {
      return withResolution(context, `its ${value} keys`, (resolution) => {
        const listed = resolution.evidence.document.relationships[value] ?? [];
        const keys = resolution.evidence.keys.filter((k) => k.relationships.includes(value));
        const curves = value === 'keyAgreement' ? AGREEMENT_CURVES : SIGNING_CURVES;
        const kind = value === 'keyAgreement' ? 'key-agreement key' : 'signing key';
        const fit = keys.find((k) => k.status === 'VALID_KEY' && k.curve !== null && curves.has(k.curve));
        if (fit) {
          return { status: 'PASS', message: `The valid ${fit.curve} ${kind} ${fit.id} is authorised for ${value}.`, observedValue: listed };
        }
        if (listed.length === 0) {
          return { status: 'FAIL', message: `No verification method is authorised for ${value}.`, observedValue: listed };
        }
        const external = listed.filter((id) => !keys.some((k) => k.id === id));
        const unsupported = keys.filter((k) => k.status === 'UNSUPPORTED_KEY');
        if (unsupported.length > 0 || external.length > 0) {
          const reasons = [
            ...unsupported.map((k) => `${k.id} is a key svc does not support`),
            ...external.map((id) => `${id} is defined outside the document`),
          ];
          return { status: 'INDETERMINATE', message: `No valid ${kind} could be confirmed for ${value}: ${joinList(reasons)}.`, observedValue: listed };
        }
        const reasons = keys.map((k) =>
          k.status === 'INVALID_KEY'
            ? `${k.id} is invalid${k.detail ? ` (${k.detail})` : ''}`
            : `${k.id} is ${withArticle(`${k.curve ?? 'unknown-curve'} key`)}, which cannot serve ${value}`,
        );
        return { status: 'FAIL', message: `No valid ${kind} is authorised for ${value}: ${joinList(reasons)}.`, observedValue: listed };
      });
    },
  },

  /**
   * required: VERIFIED passes; UNREACHABLE is INDETERMINATE; anything else, and a method without a
   * domain, fails. optional: VERIFIED, NOT_CONFIGURED or no domain pass; a configuration that does
   * not verify fails; UNREACHABLE is INDETERMINATE.
   */
  domainBinding: {
    validate: exactly('domainBinding', ['required', 'optional']),
    evaluate(value, context) {
      return withResolution(context, 'its domain binding', (resolution) => {
        const binding = resolution.evidence.domainBinding;
        if (binding === null) {
          return value === 'required'
            ? { status: 'FAIL', message: `A domain binding is required, but did:${resolution.method} has no domain to bind.`, observedValue: null }
            : { status: 'PASS', message: `The domain binding is optional and did:${resolution.method} has no domain to bind.`, observedValue: null };
        }
        const { status, origin, reason } = binding;
        if (status === 'VERIFIED') {
          return { status: 'PASS', message: `The domain ${origin} is bound to the DID by a verified domain linkage credential.`, observedValue: status };
        }
        if (status === 'UNREACHABLE') {
          return {
            status: 'INDETERMINATE',
            message: `The DID configuration of ${origin} could not be retrieved (UNREACHABLE): ${closing(reason)}`,
            observedValue: status,
          };
        }
        if (status === 'NOT_CONFIGURED') {
          return value === 'required'
            ? { status: 'FAIL', message: `A domain binding is required, but ${origin} publishes no DID configuration (NOT_CONFIGURED).`, observedValue: status }
            : {
                status: 'PASS',
                message: `The domain binding is optional and ${origin} publishes no DID configuration (NOT_CONFIGURED).`,
                observedValue: status,
              };
        }
        return { status: 'FAIL', message: `The DID configuration of ${origin} does not bind the DID (${status}): ${closing(reason)}`, observedValue: status };
      });
    },
  },

  /** daysUntilExpiry of the leaf certificate (at observation time) meets the value. */
  tlsMinDaysRemaining: {
    validate: integer('tlsMinDaysRemaining', 0, 'days'),
    evaluate(value, context) {
      return withResolution(context, 'its TLS certificate', (resolution) => {
        const tls = resolution.evidence.tls;
        if (tls === null) {
          if (resolution.evidence.source.kind === 'DERIVED') {
            return {
              status: 'FAIL',
              message: `There is no TLS certificate to check: did:${resolution.method} documents are derived from the identifier, not fetched.`,
              observedValue: null,
            };
          }
          return { status: 'INDETERMINATE', message: 'The resolution records no TLS certificate, so its remaining validity is unknown.', observedValue: null };
        }
        const remaining = tls.daysUntilExpiry;
        const seen = remaining < 0 ? `expired ${days(-remaining)} ago` : `expires in ${days(remaining)}`;
        if (remaining >= value) {
          return { status: 'PASS', message: `The TLS certificate of ${tls.host} ${seen}, at least the ${days(value)} required.`, observedValue: remaining };
        }
        return { status: 'FAIL', message: `The TLS certificate of ${tls.host} ${seen}, less than the ${days(value)} required.`, observedValue: remaining };
      });
    },
  },

  /** A did:webvh log that verified to its end; a method without a log, or a failing log, fails. */
  verifiableHistory: {
    validate: exactly('verifiableHistory', ['required']),
    evaluate(_value, context) {
      return withResolution(context, 'its history', (resolution) => {
        const history = resolution.evidence.history;
        if (history === null) {
          return { status: 'FAIL', message: `did:${resolution.method} keeps no verifiable log of versions.`, observedValue: null };
        }
        const total = history.entries.length;
        const observed = { entries: total, verifiedEntries: history.verifiedEntries };
        if (history.failure) {
          const { versionNumber, check, reason } = history.failure;
          return {
            status: 'FAIL',
            message: `The log does not verify: entry ${versionNumber} fails the ${check} check (${reason}), ${history.verifiedEntries} of ${plural(total, 'entry', 'entries')} verified.`,
            observedValue: observed,
          };
        }
        if (total === 0 || history.verifiedEntries !== total) {
          return {
            status: 'FAIL',
            message: `The log does not verify to its end: ${history.verifiedEntries} of ${plural(total, 'entry', 'entries')} verified.`,
            observedValue: observed,
          };
        }
        return { status: 'PASS', message: `The did:webvh log verifies: all ${plural(total, 'entry', 'entries')} verified.`, observedValue: observed };
      });
    },
  },

  /** age = now − observedAt, whole seconds (a slightly future observedAt counts as 0). */
  maxCacheAgeSeconds: {
    validate: integer('maxCacheAgeSeconds', 0, 'seconds'),
    evaluate(value, context) {
      return withResolution(context, 'the age of its evidence', (resolution) => {
        const observed = Date.parse(resolution.observedAt);
        if (Number.isNaN(observed)) {
          return {
            status: 'INDETERMINATE',
            message: `The evidence carries no readable observation time (${describeValue(resolution.observedAt)}).`,
            observedValue: null,
          };
        }
        const age = Math.max(0, Math.floor((context.now.getTime() - observed) / 1000));
        const seen = `The evidence was observed ${plural(age, 'second')} before the evaluation${resolution.cached ? ' (served from the cache)' : ''}`;
        if (age <= value) {
          return { status: 'PASS', message: `${seen}, within the ${plural(value, 'second')} allowed.`, observedValue: age };
        }
        return { status: 'FAIL', message: `${seen}, more than the ${plural(value, 'second')} allowed.`, observedValue: age };
      });
    },
  },

  /** The supplied credential is VALID; none supplied, or INDETERMINATE, is INDETERMINATE. */
  credentialStatus: {
    validate: exactly('credentialStatus', ['active']),
    evaluate(_value, { evidence }) {
      const credential = evidence.credential;
      if (!credential) {
        return { status: 'INDETERMINATE', message: 'No credential was supplied, so its status could not be checked.', observedValue: null };
      }
      const status = credential.status;
      if (status === 'VALID') return { status: 'PASS', message: 'The supplied credential is VALID.', observedValue: status };
      if (status === 'INDETERMINATE') {
        return {
          status: 'INDETERMINATE',
          message: `The status of the supplied credential could not be decided: ${closing(credential.headline)}`,
          observedValue: status,
        };
      }
      return { status: 'FAIL', message: `The supplied credential is not active (${status}): ${closing(credential.headline)}`, observedValue: status };
    },
  },

  /**
   * true: the credential's issuer, without a fragment, equals the evaluated DID (the issuer as
   * extracted; its proof is the business of credentialStatus). false: nothing is required.
   */
  credentialIssuerMustBeSubject: {
    validate(value) {
      if (typeof value === 'boolean') return value;
      throw invalid(`The rule "credentialIssuerMustBeSubject" takes true or false, not ${describeValue(value)}.`);
    },
    evaluate(value, { did, evidence }) {
      const credential = evidence.credential;
      if (!value) {
        return {
          status: 'PASS',
          message: 'The policy sets credentialIssuerMustBeSubject to false, so it requires nothing of the credential issuer.',
          observedValue: credential?.issuer ?? null,
        };
      }
      if (!credential) {
        return { status: 'INDETERMINATE', message: 'No credential was supplied, so its issuer could not be compared with the DID.', observedValue: null };
      }
      const issuer = credential.issuer;
      if (issuer === null) {
        return { status: 'FAIL', message: `The supplied credential names no issuer, so its issuer is not ${did}.`, observedValue: null };
      }
      const unverified = credential.status === 'VALID' ? '' : ` (as the credential states it; the credential itself is ${credential.status})`;
      if (stripFragment(issuer) === stripFragment(did)) {
        return { status: 'PASS', message: `The credential issuer is the evaluated DID${unverified}.`, observedValue: issuer };
      }
      return { status: 'FAIL', message: `The credential issuer ${issuer} is not the evaluated DID ${did}.`, observedValue: issuer };
    },
  },

  /**
   * The supplied credential's issuer is among the entries (./trusted-issuers.ts): PASS, FAIL or,
   * for an empty list or an issuer that could not be read, INDETERMINATE; no credential is
   * INDETERMINATE. Only the issuer as stated is judged; whether the credential verifies is
   * credentialStatus's question (the message says so when it is not VALID).
   */
  trustedIssuers: {
    validate(value) {
      if (!Array.isArray(value)) {
        throw invalid(`The rule "trustedIssuers" takes an array of DIDs or did:web domain forms such as "did:web:*.example.com", not ${describeValue(value)}.`);
      }
      const problem = trustedIssuersProblem(value);
      if (problem !== null) throw invalid(`The rule "trustedIssuers" cannot be used: ${problem}.`);
      return [...(value as string[])];
    },
    evaluate(value, { evidence }) {
      const credential = evidence.credential;
      if (!credential) {
        return {
          status: 'INDETERMINATE',
          message: 'No credential was supplied, so its issuer could not be compared with the trusted issuers.',
          observedValue: null,
        };
      }
      const trust = checkTrustedIssuer(credential.issuer, value);
      const unverified =
        trust.status === 'PASS' && credential.status !== 'VALID'
          ? ` That is the issuer the credential states: it is ${credential.status}, so who issued it is not established.`
          : '';
      return { status: trust.status, message: `${trust.detail}${unverified}`, observedValue: credential.issuer };
    },
  },
};

/** Validates one rule's value (throws INVALID_REQUEST). */
export function validateRule<R extends PolicyRule>(rule: R, value: unknown): PolicyRuleValues[R] {
  return (RULES[rule] as RuleSpec<R>).validate(value);
}

/** Decides one validated rule. */
export function evaluateRule<R extends PolicyRule>(rule: R, value: PolicyRuleValues[R], context: RuleContext): RuleOutcome {
  return (RULES[rule] as RuleSpec<R>).evaluate(value, context);
}
