/** The verdict and limitations of a resolution, derived from the dimensions and evidence. */
import { lowerFirst, withoutPeriod } from '../text.js';
import { suppliedLimitations } from '../supplied/resources.js';
import { KEPT_LOG_LIMITATIONS } from '../webvh/kept-log.js';
import type { EvaluationInput } from './dimensions.js';
import { CLASS_LABELS, stateClass, type Dimension, type Outcome, type StateClass, type Verdict } from './types.js';

export function decideOutcome(input: EvaluationInput, dimensions: Dimension[]): Outcome {
  if (input.deactivated) return 'DEACTIVATED';
  const failed = dimensions.some((d) => d.state === 'FAILED');
  const invalidKey = input.evidence.keys.some((k) => k.status === 'INVALID_KEY');
  if (failed || invalidKey || input.evidence.document.warnings.length > 0) return 'RESOLVED_WITH_WARNINGS';
  return 'RESOLVED';
}

export function buildVerdict(input: EvaluationInput, dimensions: Dimension[]): Verdict {
  const outcome = decideOutcome(input, dimensions);
  const byClass: Record<StateClass, Dimension[]> = { confirmed: [], attention: [], notConfirmed: [] };
  for (const d of dimensions) byClass[stateClass(d.state)].push(d);
  const { keys, document } = input.evidence;
  const valid = keys.filter((k) => k.status === 'VALID_KEY');
  const curves = [...new Set(valid.map((k) => k.curve).filter(Boolean))].join(', ');
  const keySummary =
    keys.length === 0 ? 'no keys' : `${valid.length} of ${keys.length} key${keys.length === 1 ? '' : 's'} valid${curves ? ` (${curves})` : ''}`;

  let headline: string;
  if (outcome === 'DEACTIVATED') {
    headline = `Deactivated: the controller of this did:${input.method} identifier has terminated it.`;
  } else if (outcome === 'RESOLVED_WITH_WARNINGS') {
    // A rewritten did:webvh log heads the verdict: the other failures may follow from it.
    const failed =
      dimensions.find((d) => d.state === 'FAILED' && d.id === 'history' && input.evidence.history?.keptLog?.status === 'REWRITTEN') ??
      dimensions.find((d) => d.state === 'FAILED');
    const reason = failed ? `${failed.label}: ${lowerFirst(withoutPeriod(failed.statement))}` : withoutPeriod(document.warnings[0] ?? 'see the evidence');
    headline = `Resolved with warnings. ${reason}.`;
  } else if (byClass.attention.length > 0) {
    const first = byClass.attention[0]!;
    headline = `Resolved, but ${lowerFirst(first.label)} could not be confirmed: ${lowerFirst(withoutPeriod(first.statement))}.`;
  } else {
    const kind = input.selfCertifying ? `self-certifying did:${input.method}` : `did:${input.method}`;
    headline = `Resolved a ${kind} identifier with ${keySummary}.`;
  }

  const statements: string[] = [];
  for (const cls of ['confirmed', 'attention', 'notConfirmed'] as const) {
    const list = byClass[cls];
    if (list.length > 0) statements.push(`${CLASS_LABELS[cls]}: ${list.map((d) => lowerFirst(d.label)).join(', ')}.`);
  }
  for (const d of byClass.attention) statements.push(`${d.label}: ${d.statement}`);
  for (const w of document.warnings) statements.push(`Warning: ${w}`);
  statements.push('Control of a key says nothing about who holds it.');
  return { outcome, headline, statements };
}

export function buildLimitations(input: EvaluationInput): string[] {
  const limitations = [
    'No real-world or legal identity is established for any identifier; the organization dimension is always NOT_ESTABLISHED.',
    'Resolution shows which keys the document authorises, not that anyone currently holds the matching private keys.',
  ];
  if (input.selfCertifying) {
    limitations.push(
      `A did:${input.method} identifier cannot be rotated, updated or deactivated: if its private key is compromised, the identifier is compromised for good, and resolution cannot show it.`,
    );
  }
  if (input.method === 'web') {
    limitations.push(
      'did:web rests on DNS and the web host: whoever controls the domain or its server can replace the document at any time, and earlier versions cannot be checked.',
    );
  }
  if (input.method === 'webvh') {
    limitations.push(
      'A did:webvh log shows the versions its controller published and signed; it cannot show versions that were never published, and the web host can withhold the log or its newest entries.',
    );
    const history = input.evidence.history;
    if (history?.failure) {
      limitations.push(
        history.failure.check === 'method'
          ? `Entries from ${history.failure.versionNumber} on follow a version of the did:webvh specification svc does not implement, so the served version ${history.selectedVersion} is not necessarily the DID's current state.`
          : `Entries from ${history.failure.versionNumber} on do not verify, so the served version ${history.selectedVersion} is not necessarily the DID's current state.`,
      );
    }
    if (history && history.keptLog === undefined) limitations.push(KEPT_LOG_LIMITATIONS.noStore);
    else if (history?.keptLog?.atBound) limitations.push(KEPT_LOG_LIMITATIONS.atBound);
    if (history?.entries.some((e) => e.witness !== null)) {
      limitations.push('Witnesses are did:key identifiers: svc checks their signatures, not who they are.');
    }
  }
  for (const range of input.allowances) {
    limitations.push(
      `A fetch used a non-public address admitted by the operator's egress allowance ${range} (SVC_EGRESS_ALLOW); the host was not reached over the public Internet.`,
    );
  }
  limitations.push(...suppliedLimitations(input.supplied ?? []));
  if (input.method === 'jwk') {
    limitations.push('The same key can be written as many different did:jwk identifiers; compare identifiers, not keys.');
  }
  const unsupported = input.evidence.keys.filter((k) => k.status === 'UNSUPPORTED_KEY');
  if (unsupported.length > 0) {
    limitations.push(
      `${unsupported.length} key${unsupported.length === 1 ? ' was' : 's were'} not validated because svc does not support ${unsupported.length === 1 ? 'its type' : 'their types'}.`,
    );
  }
  return limitations;
}
