/**
 * Verification of a delegation chain (docs/delegation.md#receipts), root first. Chain checks:
 * `depth` (1 to 8 receipts) and `trustedRoot`. Each link: `receipt` (its format, receipt.ts),
 * `signature` (a key of the issuer's capabilityDelegation, resolved through the core),
 * `chaining` (iss = the previous aud), `prf` (the previous receipt's digest; none on the root),
 * `window` (nbf..exp inside the parent's), `capabilities` (each covered by the parent's),
 * `validity` (now, 60 s of skew on nbf only), `cycle` (no principal twice). DIDs are compared
 * without fragment.
 *
 * Status: MALFORMED when the chain is not usable (empty, over 8 receipts, a receipt that is not
 * a well-formed svc-delegation+jwt) — nothing is resolved then; INVALID when any check fails
 * (a link, or the trusted root); INDETERMINATE when a link could not be fully verified (its
 * issuer did not resolve); VALID otherwise. Only VALID grants anything.
 */
import { didKeySource, type KeySource } from '../credentials/keys.js';
import type { CheckStatus } from '../credentials/types.js';
import { checkJwsSignature } from '../proofs/jws.js';
import { rfc3339, type Runtime } from '../runtime.js';
import { capitalise, clause, withArticle, withoutPeriod } from '../text.js';
import { capabilityCovered } from './capability.js';
import { didOf } from '../did/syntax.js';
import { claimsOf, isReceipt, readReceipt, type Receipt, type ReceiptFailure } from './receipt.js';
import {
  LINK_CHECK_IDS,
  MAX_CHAIN_LENGTH,
  NBF_SKEW_SECONDS,
  RECEIPT_FORMAT,
  type ChainCheckId,
  type ChainStatus,
  type DelegationChainResult,
  type DelegationCheck,
  type DelegationLink,
  type LinkCheckId,
} from './types.js';

export interface VerifyChainOptions {
  runtime: Runtime;
  /** Where issuer keys are found; default: DIDs resolved through the core. */
  keySource?: KeySource;
  /** DIDs the root issuer must be one of (rule 9); absent or empty: any root. */
  trustedRoots?: readonly string[];
  signal?: AbortSignal;
  /** The time the chain is judged at; default the runtime clock. */
  now?: Date;
}

const LINK_LABELS: Readonly<Record<LinkCheckId, string>> = {
  receipt: 'Well-formed receipt',
  signature: 'Signed with a capabilityDelegation key of the issuer',
  chaining: 'Issued by the previous delegate',
  prf: 'Names the parent receipt',
  window: "Validity inside the parent's",
  capabilities: "Capabilities covered by the parent's",
  validity: 'Currently valid',
  cycle: 'No principal twice',
};

const CHAIN_LABELS: Readonly<Record<ChainCheckId, string>> = {
  depth: 'Chain of 1 to 8 receipts',
  trustedRoot: 'Rooted in a trusted DID',
};

export const DELEGATION_LIMITATIONS: readonly string[] = [
  'Delegation receipts are an experimental, service-defined format (v1), not a ratified standard.',
  'A chain is a bearer artefact: it proves who delegated what to whom, not that whoever presents it is the delegate.',
  'Receipts cannot be revoked; a chain stays valid until it expires.',
  'A valid chain does not observe or limit what the agent does once a call is allowed.',
];

type Finding = { status: CheckStatus; detail: string };

function stamp(seconds: number): string {
  return rfc3339(new Date(seconds * 1000));
}

/** The MALFORMED result of a chain that is not a usable list of receipts. */
function unusable(detail: string, links: DelegationLink[] = []): DelegationChainResult {
  return {
    status: 'MALFORMED',
    headline: `The delegation chain is malformed: ${clause(detail)}.`,
    format: RECEIPT_FORMAT,
    root: null,
    leaf: null,
    effectiveCapabilities: [],
    notAfter: null,
    trustedRoot: null,
    links,
    checks: [{ id: 'depth', label: CHAIN_LABELS.depth, status: 'FAIL', detail }],
    limitations: [...DELEGATION_LIMITATIONS],
  };
}

class LinkReport {
  readonly checks = new Map<LinkCheckId, Finding>();
  signatureValid = false;
  issuerHeadline: string | null = null;

  set(id: LinkCheckId, status: CheckStatus, detail: string): void {
    // Details may open with a capability or DID quoted as written: only the period is added.
    this.checks.set(id, { status, detail: `${withoutPeriod(detail)}.` });
  }

  get status(): ChainStatus {
    const statuses = [...this.checks.values()].map((c) => c.status);
    if (this.checks.get('receipt')?.status === 'FAIL') return 'MALFORMED';
    if (statuses.includes('FAIL')) return 'INVALID';
    if (statuses.includes('INDETERMINATE') || statuses.includes('UNSUPPORTED')) return 'INDETERMINATE';
    return 'VALID';
  }

  list(notRun: string): Array<DelegationCheck<LinkCheckId>> {
    return LINK_CHECK_IDS.map((id) => {
      const found = this.checks.get(id);
      return { id, label: LINK_LABELS[id], status: found?.status ?? 'SKIP', detail: found?.detail ?? notRun };
    });
  }
}

/** Rule 2: the signing key is a capabilityDelegation key of the issuer, and the signature verifies. */
async function checkSignature(receipt: Receipt, report: LinkReport, source: KeySource, signal?: AbortSignal): Promise<void> {
  const found = await source.keysOf(receipt.issDid, signal);
  if (!found.ok) {
    report.issuerHeadline = found.reason;
    report.set('signature', 'INDETERMINATE', `The issuer's keys could not be looked up: ${found.reason}`);
    return;
  }
  report.issuerHeadline = found.resolution?.headline ?? null;
  const key = found.keys.find((k) => k.id === receipt.kid);
  if (!key) return report.set('signature', 'FAIL', `${receipt.kid} is not a verification method of ${receipt.issDid}`);
  if (found.deactivated) return report.set('signature', 'FAIL', `${receipt.issDid} is deactivated; its keys delegate nothing`);
  if (!key.relationships.includes('capabilityDelegation')) {
    return report.set(
      'signature',
      'FAIL',
      `${receipt.kid} is not authorised for capabilityDelegation${key.relationships.length > 0 ? ` (only ${key.relationships.join(', ')})` : ''}`,
    );
  }
  if (key.status !== 'VALID_KEY' || !key.publicJwk)
    return report.set('signature', 'FAIL', `${receipt.kid} cannot verify: ${key.detail ?? 'no usable public key'}`);
  const check = checkJwsSignature(receipt.parsed, key.publicJwk);
  if (!check.valid) return report.set('signature', 'FAIL', check.reason);
  report.signatureValid = true;
  report.set('signature', 'PASS', `The ${receipt.alg} signature verifies with ${receipt.kid}, a capabilityDelegation key of the issuer`);
}

/** Rules 3–8 against the parent (null for the root) and the principals seen before. */
function checkAgainstParent(receipt: Receipt, parent: Receipt | null, earlier: readonly Receipt[], report: LinkReport, now: number): void {
  if (parent === null) {
    report.set('chaining', 'PASS', 'The root: no previous delegate');
    if (receipt.prf === null) report.set('prf', 'PASS', 'The root names no parent');
    else report.set('prf', 'FAIL', 'The root receipt carries a "prf", but a root has no parent');
    report.set('window', 'PASS', 'The root: no parent window');
    report.set('capabilities', 'PASS', 'The root: no parent to attenuate');
  } else {
    if (receipt.issDid === parent.audDid) report.set('chaining', 'PASS', `Issued by ${receipt.issDid}, the previous delegate`);
    else report.set('chaining', 'FAIL', `Issued by ${receipt.issDid}, but the previous receipt delegates to ${parent.audDid}`);
    if (receipt.prf === parent.digest) report.set('prf', 'PASS', `Names the previous receipt (${parent.digest.slice(0, 16)}…)`);
    else if (receipt.prf === null) report.set('prf', 'FAIL', 'Carries no "prf" naming the previous receipt');
    else report.set('prf', 'FAIL', `Names ${receipt.prf.slice(0, 16)}…, not the previous receipt ${parent.digest.slice(0, 16)}…`);
    if (receipt.nbf >= parent.nbf && receipt.exp <= parent.exp) {
      report.set('window', 'PASS', `${stamp(receipt.nbf)} to ${stamp(receipt.exp)} lies inside the parent's ${stamp(parent.nbf)} to ${stamp(parent.exp)}`);
    } else {
      const why =
        receipt.exp > parent.exp
          ? `it outlives its parent (expires ${stamp(receipt.exp)}, the parent ${stamp(parent.exp)})`
          : `it starts before its parent (${stamp(receipt.nbf)}, the parent ${stamp(parent.nbf)})`;
      report.set('window', 'FAIL', `Its validity is not inside the parent's: ${why}`);
    }
    const uncovered = receipt.cap.filter((c) => !capabilityCovered(parent.cap, c));
    if (uncovered.length === 0) report.set('capabilities', 'PASS', `${receipt.cap.join(', ')} covered by the parent's ${parent.cap.join(', ')}`);
    else
      report.set(
        'capabilities',
        'FAIL',
        `${uncovered.join(', ')} ${uncovered.length === 1 ? 'is' : 'are'} not covered by the parent's ${parent.cap.join(', ')}`,
      );
  }
  if (now < receipt.nbf - NBF_SKEW_SECONDS) report.set('validity', 'FAIL', `Not valid before ${stamp(receipt.nbf)}`);
  else if (now >= receipt.exp) report.set('validity', 'FAIL', `Expired at ${stamp(receipt.exp)}`);
  else report.set('validity', 'PASS', `Valid until ${stamp(receipt.exp)}`);
  const principals = new Set<string>([...earlier.map((r) => r.issDid), ...earlier.map((r) => r.audDid), receipt.issDid]);
  if (principals.has(receipt.audDid)) report.set('cycle', 'FAIL', `${receipt.audDid} already appears earlier in the chain`);
  else report.set('cycle', 'PASS', `${receipt.audDid} appears once`);
}

function linkOf(index: number, value: Receipt | ReceiptFailure, report: LinkReport, notRun: string): DelegationLink {
  const base = isReceipt(value)
    ? {
        issuer: value.iss,
        audience: value.aud,
        capabilities: value.cap,
        notBefore: stamp(value.nbf),
        expires: stamp(value.exp),
        jti: value.jti,
        kid: value.kid,
        alg: value.alg,
      }
    : {
        ...(({ iss, aud, cap, kid, alg, jti }) => ({ issuer: iss, audience: aud, capabilities: cap, kid, alg, jti }))(claimsOf(value)),
        notBefore: null,
        expires: null,
      };
  return {
    index,
    issuer: base.issuer,
    audience: base.audience,
    capabilities: base.capabilities,
    notBefore: base.notBefore,
    expires: base.expires,
    jti: base.jti,
    kid: base.kid,
    alg: base.alg,
    digest: value.digest,
    signatureValid: report.signatureValid,
    status: report.status,
    issuerHeadline: report.issuerHeadline,
    checks: report.list(notRun),
  };
}

function headlineOf(
  status: ChainStatus,
  links: DelegationLink[],
  root: string | null,
  leaf: string | null,
  notAfter: string | null,
  capabilities: string[],
  trustFailure: string | null,
): string {
  if (status === 'VALID') {
    return `The delegation chain is valid: ${root} delegated to ${leaf} through ${links.length} receipt${links.length === 1 ? '' : 's'}, granting ${capabilities.join(', ')} until ${notAfter}.`;
  }
  const lead =
    status === 'INVALID'
      ? 'The delegation chain is invalid'
      : status === 'INDETERMINATE'
        ? 'The delegation chain could not be verified'
        : 'The delegation chain is malformed';
  const wanted: CheckStatus = status === 'INDETERMINATE' ? 'INDETERMINATE' : 'FAIL';
  for (const link of links) {
    const check = link.checks.find((c) => c.status === wanted);
    if (check) return `${lead}: receipt ${link.index + 1} (${check.id}): ${clause(check.detail)}.`;
  }
  return `${lead}: ${trustFailure ?? 'see the checks.'}`;
}

/**
 * Verifies a chain of compact receipts, root first. Never throws for the chain's content;
 * only cancellation and the service's own limits (capacity, time) propagate.
 */
export async function verifyDelegationChain(chain: unknown, options: VerifyChainOptions): Promise<DelegationChainResult> {
  if (!Array.isArray(chain)) return unusable('The chain is not a list of receipts.');
  if (chain.length === 0) return unusable('The chain is empty; a chain holds 1 to 8 receipts.');
  if (chain.length > MAX_CHAIN_LENGTH) return unusable(`The chain holds ${chain.length} receipts; at most ${MAX_CHAIN_LENGTH} are verified.`);

  const now = Math.floor((options.now ?? options.runtime.clock.now()).getTime() / 1000);
  const read = chain.map((c) => readReceipt(c));
  const reports = read.map(() => new LinkReport());
  const receipts = read.filter(isReceipt);
  const usable = receipts.length === read.length;

  read.forEach((value, i) => {
    const report = reports[i]!;
    if (isReceipt(value))
      report.set('receipt', 'PASS', `${capitalise(withArticle(value.alg))} svc-delegation+jwt receipt from ${value.issDid} to ${value.audDid}`);
    else report.set('receipt', 'FAIL', capitalise(value.reason));
  });

  const checks: Array<DelegationCheck<ChainCheckId>> = [
    { id: 'depth', label: CHAIN_LABELS.depth, status: 'PASS', detail: `${chain.length} receipt${chain.length === 1 ? '' : 's'}.` },
  ];
  let trustedRoot: string | null = null;
  let trustFailure: string | null = null;
  const root = receipts.length > 0 && usable ? receipts[0]!.issDid : null;
  const trusted = (options.trustedRoots ?? []).map((d) => didOf(d) ?? d);

  if (usable) {
    const source = options.keySource ?? didKeySource(options.runtime);
    await Promise.all(receipts.map((r, i) => checkSignature(r, reports[i]!, source, options.signal)));
    receipts.forEach((r, i) => checkAgainstParent(r, i === 0 ? null : receipts[i - 1]!, receipts.slice(0, i), reports[i]!, now));
    if (trusted.length === 0) {
      checks.push({
        id: 'trustedRoot',
        label: CHAIN_LABELS.trustedRoot,
        status: 'SKIP',
        detail: 'No trusted roots were given: the chain may be rooted in any DID.',
      });
    } else if (trusted.includes(root!)) {
      trustedRoot = root;
      checks.push({ id: 'trustedRoot', label: CHAIN_LABELS.trustedRoot, status: 'PASS', detail: `The root ${root} is a trusted root.` });
    } else {
      trustFailure = `The root ${root} is not among the trusted roots (${trusted.join(', ')}).`;
      checks.push({ id: 'trustedRoot', label: CHAIN_LABELS.trustedRoot, status: 'FAIL', detail: trustFailure });
    }
  }

  const notRun = usable ? 'Not run.' : 'Not run: the chain holds a malformed receipt.';
  const links = read.map((value, i) => linkOf(i, value, reports[i]!, notRun));
  let status: ChainStatus;
  if (!usable) status = 'MALFORMED';
  else if (links.some((l) => l.status === 'INVALID') || trustFailure) status = 'INVALID';
  else if (links.some((l) => l.status === 'INDETERMINATE')) status = 'INDETERMINATE';
  else status = 'VALID';

  const leaf = usable ? receipts[receipts.length - 1]!.audDid : null;
  const valid = status === 'VALID';
  const notAfter = valid ? stamp(Math.min(...receipts.map((r) => r.exp))) : null;
  const effectiveCapabilities = valid ? [...receipts[receipts.length - 1]!.cap] : [];
  const limitations = [...DELEGATION_LIMITATIONS];
  if (usable && trusted.length === 0) limitations.push('No trusted roots were given: the chain may be rooted in any DID, including one the agent controls.');
  return {
    status,
    headline: headlineOf(status, links, root, leaf, notAfter, effectiveCapabilities, trustFailure),
    format: RECEIPT_FORMAT,
    root,
    leaf,
    effectiveCapabilities,
    notAfter,
    trustedRoot,
    links,
    checks,
    limitations,
  };
}
