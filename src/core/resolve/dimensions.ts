/**
 * The seven dimensions (docs/evidence.md#dimensions-and-states), computed from the evidence by one
 * function. Labels, proves and doesNotProve are fixed; only `state` and `statement` depend on the
 * evidence.
 */
import type { DomainBindingStatus } from '../linkage/types.js';
import { noteFor, type SuppliedNote } from '../supplied/resources.js';
import { rewriteStatement } from '../webvh/kept-log.js';
import { AUTHORITY_CHECKS, CHAIN_CHECKS, type HistoryEvidence } from '../webvh/types.js';
import type { Dimension, DimensionId, DimensionState, Evidence } from './types.js';
import { plural, truncate } from '../text.js';

export const DIMENSION_TEXT: Readonly<Record<DimensionId, { label: string; proves: string; doesNotProve: string }>> = {
  integrity: {
    label: 'Document integrity',
    proves: 'the document matches its identifier, hash chain or self-certifying data',
    doesNotProve: 'control of the web servers',
  },
  keys: {
    label: 'Key material',
    proves: 'published keys are well formed and on valid curve points',
    doesNotProve: 'real identity of the holder',
  },
  control: {
    label: 'Update authority',
    proves: 'updates need cryptographic signatures (e.g. did:webvh)',
    doesNotProve: 'security of the web host for did:web',
  },
  origin: {
    label: 'Origin binding',
    proves: 'the web domain signed a valid domain-configuration credential binding the DID',
    doesNotProve: 'corporate registration',
  },
  transport: {
    label: 'Transport security',
    proves: 'leaf TLS certificate validity, SAN match, trusted web PKI chain',
    doesNotProve: 'host internals',
  },
  history: {
    label: 'Verifiable history',
    proves: 'hash-chained signed log of versions (did:webvh)',
    doesNotProve: 'real-world conduct',
  },
  organization: {
    label: 'Real-world identity',
    proves: 'fixed: always NOT_ESTABLISHED',
    doesNotProve: 'any corporate identity',
  },
};

/** What the pipeline knows besides the evidence itself. */
export interface EvaluationInput {
  did: string;
  method: string;
  /** The document is expanded from the identifier (did:key, did:jwk). */
  selfCertifying: boolean;
  deactivated: boolean;
  evidence: Evidence;
  /** Operator allowance ranges that admitted a non-public address during the fetches. */
  allowances: string[];
  /**
   * Verifying from files: the resources supplied in place of a fetch, or neither supplied nor
   * fetched (core/supplied/resources.ts). Absent or empty: everything was fetched.
   */
  supplied?: SuppliedNote[];
}

type Finding = [DimensionState, string];

function distinct(values: Array<string | null>): string[] {
  return [...new Set(values.filter((v): v is string => v !== null))];
}

/** Where a did:webvh log stops verifying, as a clause: "entry 4 (4-Qm…) fails (proof): …". */
function logFailure(history: HistoryEvidence): string {
  const f = history.failure!;
  const entry = history.entries[f.versionNumber - 1];
  return `entry ${f.versionNumber}${entry?.versionId ? ` (${entry.versionId})` : ''} fails (${f.check}): ${f.reason}`;
}

function servedClause(history: HistoryEvidence): string {
  const n = history.verifiedEntries;
  return `${n === 1 ? 'version 1 verifies' : `versions 1 to ${n} verify`}, and version ${history.selectedVersion} is served`;
}

function integrity({ method, selfCertifying, evidence }: EvaluationInput): Finding {
  if (!evidence.document.idMatches) return ['FAILED', "The document's id does not match the identifier."];
  const history = evidence.history;
  if (history) {
    if (history.failure && CHAIN_CHECKS.has(history.failure.check)) {
      return ['FAILED', `The log's hash chain breaks: ${logFailure(history)}; ${servedClause(history)}.`];
    }
    return [
      'SELF_CERTIFYING',
      `The first log entry hashes to the SCID ${history.scid} in the identifier, and every verified entry's hash chains to the one before it.`,
    ];
  }
  if (selfCertifying) {
    return ['SELF_CERTIFYING', `The document is expanded from the did:${method} identifier itself, so it cannot differ from what the identifier encodes.`];
  }
  return ['ESTABLISHED', "The document's id matches the identifier."];
}

function keys({ evidence }: EvaluationInput): Finding {
  const all = evidence.keys;
  if (all.length === 0) return ['NOT_ESTABLISHED', 'The document publishes no keys.'];
  const invalid = all.filter((k) => k.status === 'INVALID_KEY');
  const unsupported = all.filter((k) => k.status === 'UNSUPPORTED_KEY');
  if (invalid.length > 0) {
    return ['FAILED', `${invalid.length} of ${plural(all.length, 'key')} ${invalid.length === 1 ? 'is' : 'are'} invalid: ${invalid[0]!.detail}.`];
  }
  if (unsupported.length > 0) {
    const kinds = distinct(unsupported.map((k) => k.curve ?? k.type)).join(', ') || 'unknown types';
    const valid = all.length - unsupported.length;
    return [
      'INDETERMINATE',
      `${unsupported.length} of ${plural(all.length, 'key')} could not be validated (${kinds})${valid > 0 ? `; ${valid} ${valid === 1 ? 'is' : 'are'} valid` : ''}.`,
    ];
  }
  const curves = distinct(all.map((k) => k.curve)).join(', ');
  const subject = all.length === 1 ? 'The key is' : all.length === 2 ? 'Both keys are' : `All ${all.length} keys are`;
  return ['ESTABLISHED', `${subject} well formed and on valid curve points (${curves}).`];
}

function control({ method, selfCertifying, evidence }: EvaluationInput): Finding {
  const history = evidence.history;
  if (history) {
    if (history.failure && AUTHORITY_CHECKS.has(history.failure.check)) {
      return ['FAILED', `An entry of the log is not authorised: ${logFailure(history)}; ${servedClause(history)}.`];
    }
    const verified = history.entries.slice(0, history.verifiedEntries);
    const witnessed = verified.filter((e) => e.witness !== null).length;
    const preRotation = verified.some((e) => e.preRotation);
    return [
      'ESTABLISHED',
      `Every verified entry is signed (eddsa-jcs-2022) by a key the log itself authorised${preRotation ? ', with pre-rotation commitments' : ''}${
        witnessed > 0 ? `; ${witnessed} of ${verified.length} entries carry the witness approvals they need` : ''
      }.`,
    ];
  }
  if (selfCertifying) return ['NOT_APPLICABLE', `A did:${method} document cannot be updated, so there is no update authority to establish.`];
  if (method === 'web') {
    return ['NOT_ESTABLISHED', 'Whoever can change the file on the web server can change this document; no signature is needed for an update.'];
  }
  return ['NOT_ESTABLISHED', 'Nothing shows that updates to this document require a cryptographic signature.'];
}

/** What the domain binding status means for the origin dimension. */
const ORIGIN_STATES: Readonly<Record<DomainBindingStatus, DimensionState>> = {
  VERIFIED: 'ESTABLISHED',
  NOT_CONFIGURED: 'NOT_ESTABLISHED',
  NOT_LINKED: 'NOT_ESTABLISHED',
  INVALID_PROOF: 'FAILED',
  MALFORMED: 'FAILED',
  UNSUPPORTED_PROOF: 'INDETERMINATE',
  UNREACHABLE: 'INDETERMINATE',
};

function origin({ method, selfCertifying, evidence, supplied = [] }: EvaluationInput): Finding {
  if (selfCertifying || evidence.source.kind === 'DERIVED') return ['NOT_APPLICABLE', `A did:${method} identifier is not tied to a web domain.`];
  const binding = evidence.domainBinding;
  const configuration = supplied.find((n) => n.purpose === 'DID configuration');
  if (!binding) {
    if (configuration?.source === null) {
      return [
        'NOT_ESTABLISHED',
        `Not established: the DID configuration (${configuration.url}) was not supplied from a file, and nothing is fetched when verifying from files.`,
      ];
    }
    return ['NOT_ESTABLISHED', 'No domain-configuration credential binding the DID to its domain was checked.'];
  }
  const state = ORIGIN_STATES[binding.status];
  if (configuration?.source) {
    // The credentials are verified as if fetched; that the origin publishes them was not seen.
    return [state, `${binding.reason} The DID configuration was supplied from the file ${configuration.source}, not fetched from ${binding.origin}.`];
  }
  return [state, binding.reason];
}

function transport({ evidence, supplied = [] }: EvaluationInput): Finding {
  if (evidence.source.kind === 'DERIVED') return ['NOT_APPLICABLE', 'Nothing was fetched: the document came from the identifier itself.'];
  const read = noteFor(supplied, evidence.source.url);
  if (read?.source) {
    const host = new URL(read.url).host;
    return [
      'NOT_ESTABLISHED',
      `Not established: the ${read.purpose} was supplied from the file ${read.source}, not fetched from ${host}; svc saw no TLS connection.`,
    ];
  }
  const tls = evidence.tls;
  if (!tls) return ['NOT_ESTABLISHED', 'No TLS evidence was recorded for the fetch.'];
  const { certificate } = tls;
  if (!tls.hostnameInSan) {
    return ['FAILED', `The certificate of ${tls.host} does not name the host in its subjectAltName (${certificate.subjectAltNames.join(', ') || 'none'}).`];
  }
  if (tls.daysUntilExpiry < 0) return ['FAILED', `The certificate of ${tls.host} expired on ${certificate.validTo}.`];
  const hops = evidence.source.redirects.length;
  const via = hops > 0 ? ` after ${plural(hops, 'audited redirect')}` : '';
  const expiry =
    tls.daysUntilExpiry < 14
      ? `expires in ${plural(tls.daysUntilExpiry, 'day')} (${certificate.validTo})`
      : `is valid until ${certificate.validTo.slice(0, 10)}`;
  return [
    'ESTABLISHED',
    `${tls.protocol} to ${tls.host} at ${evidence.source.peerAddress ?? 'the pinned address'}${via}; the certificate names the host, chains to ${tls.validatedBy} and ${expiry}.`,
  ];
}

function history({ method, selfCertifying, evidence }: EvaluationInput): Finding {
  const log = evidence.history;
  if (log) {
    // A rewrite is evidence in its own right, whatever the served log says about itself.
    if (log.keptLog?.status === 'REWRITTEN') return ['FAILED', `${rewriteStatement(log.keptLog)}.`];
    // An entry of a specification version svc does not implement is no fault of the log: undecided.
    if (log.failure?.check === 'method')
      return ['INDETERMINATE', `The log is verified only up to an entry svc cannot check: ${log.failure.reason}; ${servedClause(log)}.`];
    if (log.failure) return ['FAILED', `The log does not verify to its end: ${logFailure(log)}; ${servedClause(log)}.`];
    const n = log.verifiedEntries;
    const first = log.entries[0]?.versionTime;
    const last = log.entries[n - 1]?.versionTime;
    return [
      'ESTABLISHED',
      `${n === 1 ? 'The single version of the log verifies' : `All ${n} versions of the log verify`}, hash-chained and signed${first && last && n > 1 ? `, from ${first} to ${last}` : first ? `, created ${first}` : ''}.`,
    ];
  }
  if (selfCertifying) return ['NOT_APPLICABLE', `A did:${method} identifier has a single, unchangeable version.`];
  if (method === 'web')
    return ['NOT_ESTABLISHED', 'did:web keeps no history: only the current document can be fetched, and earlier versions cannot be checked.'];
  return ['NOT_ESTABLISHED', 'No verifiable log of earlier versions exists for this identifier.'];
}

/** A credential's name-like claim (name, legalName), for the organization statement; null when none. */
function claimedName(claims: unknown): string | null {
  const subject = Array.isArray(claims) ? claims[0] : claims;
  if (typeof subject !== 'object' || subject === null) return null;
  for (const member of ['name', 'legalName']) {
    const value = (subject as Record<string, unknown>)[member];
    if (typeof value === 'string' && value.trim() !== '') return `${member} ${JSON.stringify(truncate(value.trim(), 80))}`;
  }
  return null;
}

/** Always NOT_ESTABLISHED; names what a whois presentation claims, as a claim. */
function organization({ evidence }: EvaluationInput): Finding {
  const never = 'svc never verifies real-world or legal identity.';
  const whois = evidence.whois;
  if (whois?.status !== 'VERIFIED') return ['NOT_ESTABLISHED', never];
  const named = whois.credentials
    .filter((c) => c.verified)
    .map((c) => {
      const name = claimedName(c.claims);
      return name === null ? null : `${name} (issued by ${c.issuer ?? 'an unnamed issuer'})`;
    })
    .filter((n): n is string => n !== null);
  if (named.length === 0) return ['NOT_ESTABLISHED', `The DID's whois presentation verifies, but what it claims is not verified identity; ${never}`];
  return ['NOT_ESTABLISHED', `The DID's whois presentation claims ${named.slice(0, 3).join('; ')}: claims, not verified identity; ${never}`];
}

const RULES: Readonly<Record<DimensionId, (input: EvaluationInput) => Finding>> = {
  integrity,
  keys,
  control,
  origin,
  transport,
  history,
  organization,
};

/** Evaluates all seven dimensions independently; there is no total. */
export function evaluateDimensions(input: EvaluationInput): Dimension[] {
  return (Object.keys(RULES) as DimensionId[]).map((id) => {
    const [state, statement] = RULES[id](input);
    const text = DIMENSION_TEXT[id];
    return { id, label: text.label, state, statement, proves: text.proves, doesNotProve: text.doesNotProve };
  });
}
