/**
 * The dossier's view model: what `svc resolve` and the web dossier say about one resolution,
 * decided once — grouping, markers, tones, the words of each row. The terminal lays it out as
 * lines (src/cli, with ink on a terminal), the web as HTML (src/web/dossier.ts); neither decides
 * what is said.
 *
 * Pure: no ink, no react, no chalk, no HTML.
 */
import type { KeyStatus } from '../core/keys/types.js';
import type { DomainBindingStatus } from '../core/linkage/types.js';
import {
  CLASS_LABELS,
  STATE_CLASSES,
  stateClass,
  type Dimension,
  type DimensionId,
  type DimensionState,
  type EnrichedResolution,
  type KeyEvidence,
  type Outcome,
  type ServiceEvidence,
  type StageStatus,
  type StateClass,
  type TraceStage,
  type WhoisEvidence,
  type WhoisStatus,
} from '../core/resolve/types.js';
import { graphView, type GraphGroup } from './graph.js';
import { historyView, type HistoryView } from './history.js';
import { displayKeyId, field, printable, type Field, type Tone } from './text.js';

const OUTCOME_TONES: Readonly<Record<Outcome, Tone>> = {
  RESOLVED: 'good',
  RESOLVED_WITH_WARNINGS: 'warn',
  DEACTIVATED: 'bad',
};

const KEY_STATUS_TONES: Readonly<Record<KeyStatus, Tone>> = {
  VALID_KEY: 'good',
  INVALID_KEY: 'bad',
  UNSUPPORTED_KEY: 'warn',
};

const CLASS_MARKERS: Readonly<Record<StateClass, string>> = {
  confirmed: '✔',
  attention: '!',
  notConfirmed: '·',
};

export function outcomeTone(outcome: Outcome): Tone {
  return OUTCOME_TONES[outcome];
}

export function keyStatusTone(status: KeyStatus): Tone {
  return KEY_STATUS_TONES[status];
}

/** A failure is worse than not knowing, so within "Needs attention" only FAILED is red. */
export function dimensionTone(state: DimensionState): Tone {
  const cls = stateClass(state);
  if (cls === 'confirmed') return 'good';
  if (cls === 'notConfirmed') return 'muted';
  return state === 'FAILED' ? 'bad' : 'warn';
}

export function classMarker(cls: StateClass): string {
  return CLASS_MARKERS[cls];
}

export interface DimensionRow {
  id: DimensionId;
  label: string;
  state: DimensionState;
  statement: string;
  marker: string;
  tone: Tone;
}

export interface DimensionGroup {
  cls: StateClass;
  title: string;
  rows: DimensionRow[];
}

export interface KeyRow {
  /** The id as shown: the fragment when the id belongs to the DID, otherwise the whole id. */
  displayId: string;
  id: string;
  status: KeyStatus;
  fields: Field[];
}

/** Evidence beyond keys, as labelled fields: where the document came from, TLS, domain binding. */
export interface EvidenceSection {
  title: string;
  fields: Field[];
}

export interface DossierView {
  did: string;
  method: string;
  observedAt: string;
  cached: boolean;
  /** The served version from didDocumentMetadata (`version 2-Qm… (2025-01-02T00:00:00Z)`), or null. */
  version: string | null;
  verdict: { outcome: Outcome; tone: Tone; headline: string };
  /** Non-empty groups only, in the order of STATE_CLASSES. */
  groups: DimensionGroup[];
  keys: KeyRow[];
  /** Source, transport and origin-binding evidence (fetched documents only). */
  evidence: EvidenceSection[];
  /** The did:webvh log as a timeline; null for other methods. */
  history: HistoryView | null;
  services: ServiceRow[];
  graph: GraphGroup[];
  /** Every stage of the resolution; shown with --verbose only. */
  trace: TraceRow[];
  warnings: string[];
  limitations: string[];
}

/** A service of the document: its id as shown, type and endpoint. */
export interface ServiceRow {
  displayId: string;
  id: string;
  fields: Field[];
}

/** One stage of the trace: mark, name, duration and what it found. */
export interface TraceRow {
  marker: string;
  tone: Tone;
  stage: string;
  duration: string;
  text: string;
}

function dimensionRow(d: Dimension): DimensionRow {
  return {
    id: d.id,
    label: d.label,
    state: d.state,
    statement: printable(d.statement),
    marker: classMarker(stateClass(d.state)),
    tone: dimensionTone(d.state),
  };
}

/** Groups in STATE_CLASSES order, keeping the dimensions' own order inside each group. */
export function groupDimensions(dimensions: Dimension[]): DimensionGroup[] {
  const classes = Object.keys(STATE_CLASSES) as StateClass[];
  return classes
    .map((cls) => ({
      cls,
      title: CLASS_LABELS[cls],
      rows: dimensions.filter((d) => stateClass(d.state) === cls).map(dimensionRow),
    }))
    .filter((g) => g.rows.length > 0);
}

const NONE = '(none)';

export function keyRow(key: KeyEvidence, did: string): KeyRow {
  const fields: Field[] = [
    { label: 'curve', value: printable(key.curve ?? 'unknown'), tone: 'plain' },
    { label: 'status', value: key.status, tone: keyStatusTone(key.status) },
    { label: 'relationships', value: key.relationships.length > 0 ? key.relationships.join(', ') : NONE, tone: 'plain' },
    { label: 'jwk thumbprint', value: printable(key.jwkThumbprint ?? NONE), tone: 'plain' },
  ];
  if (key.detail !== null) fields.push({ label: 'detail', value: printable(key.detail), tone: 'plain' });
  return { displayId: printable(displayKeyId(key.id, did)), id: key.id, status: key.status, fields };
}

const BINDING_TONES: Readonly<Record<DomainBindingStatus, Tone>> = {
  VERIFIED: 'good',
  NOT_CONFIGURED: 'muted',
  NOT_LINKED: 'muted',
  INVALID_PROOF: 'bad',
  MALFORMED: 'bad',
  UNSUPPORTED_PROOF: 'warn',
  UNREACHABLE: 'warn',
};

export function evidenceSections(result: EnrichedResolution): EvidenceSection[] {
  const { source, tls, domainBinding } = result.evidence;
  const sections: EvidenceSection[] = [];
  if (source.kind === 'HTTPS') {
    const fields = [field('url', source.url ?? NONE)];
    for (const hop of source.redirects) fields.push(field('redirect', `${hop.status} ${hop.from} → ${hop.to}`, 'warn'));
    if (source.httpStatus === null) {
      // Verify from files: the bytes stood in for the URL; no exchange took place (see Limitations).
      fields.push(
        field('response', `none: supplied from a file, not fetched; ${source.bytes ?? '?'} bytes, ${source.contentType ?? 'no content type'}`, 'warn'),
        field('sha256', source.sha256 ?? NONE),
      );
    } else {
      fields.push(
        field('response', `HTTP ${source.httpStatus}, ${source.bytes ?? '?'} bytes, ${source.contentType ?? 'no content type'}`),
        field('pinned address', source.peerAddress ?? NONE),
        field('sha256', source.sha256 ?? NONE),
        field('latency', `${source.latencyMs ?? '?'} ms`),
      );
    }
    sections.push({ title: 'Source', fields });
  }
  if (tls) {
    const { certificate } = tls;
    const days = tls.daysUntilExpiry;
    sections.push({
      title: 'Transport',
      fields: [
        field('protocol', `${tls.protocol}, ${tls.cipher}`),
        field('certificate', certificate.subject || '(empty subject)'),
        field('names', certificate.subjectAltNames.join(', ') || NONE, tls.hostnameInSan ? 'plain' : 'bad'),
        field('host in SAN', tls.hostnameInSan ? `yes (${tls.host})` : `no (${tls.host})`, tls.hostnameInSan ? 'good' : 'bad'),
        field('issuer', certificate.issuer),
        field('trust anchor', tls.validatedBy),
        field(
          'valid',
          `${certificate.validFrom} to ${certificate.validTo} (${days} day${days === 1 ? '' : 's'} left)`,
          days < 0 ? 'bad' : days < 14 ? 'warn' : 'plain',
        ),
        field('fingerprint', certificate.sha256Fingerprint),
      ],
    });
  }
  if (domainBinding) {
    const fields = [
      field('status', domainBinding.status, BINDING_TONES[domainBinding.status]),
      field('configuration', domainBinding.configurationUrl),
      field('reason', domainBinding.reason),
    ];
    for (const credential of domainBinding.credentials) {
      const proof = credential.proof ? ` ${credential.proof}` : '';
      fields.push(field(`#${credential.index} ${credential.format}${proof}`, `${credential.status}: ${credential.reason}`, BINDING_TONES[credential.status]));
    }
    sections.push({ title: 'Origin binding', fields });
  }
  if (result.evidence.whois) sections.push(whoisSection(result.evidence.whois));
  return sections;
}

/** Title of the whois section: what it shows is what the DID says of itself. */
export const WHOIS_TITLE = 'Whois (claims, not verified identity)';

const WHOIS_TONES: Readonly<Record<WhoisStatus, Tone>> = { VERIFIED: 'good', FAILED: 'bad', INDETERMINATE: 'warn' };
/** Claims shown per credential; the rest are counted. */
const WHOIS_CLAIMS_SHOWN = 12;

function claimText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? NONE);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** The whois presentation: its status, who signed it, and each credential's claims as claims. */
export function whoisSection(whois: WhoisEvidence): EvidenceSection {
  const fields = [
    field('status', whois.status, WHOIS_TONES[whois.status]),
    field('presentation', `${whois.url} (${whois.service === 'IMPLICIT' ? 'implicit #whois service' : 'declared #whois service'})`),
    field('reason', whois.reason),
  ];
  if (whois.signedBy) fields.push(field('signed by', whois.signedBy));
  for (const credential of whois.credentials) {
    fields.push(
      field(
        `credential #${credential.index + 1}`,
        `${credential.status}${credential.verified ? ' (verifies)' : ''}, issued by ${credential.issuer ?? 'no named issuer'}; ${credential.types.join(', ') || 'no type'}`,
        credential.verified ? 'good' : 'bad',
      ),
    );
    const subjects = Array.isArray(credential.claims) ? credential.claims : credential.claims ? [credential.claims] : [];
    const entries = subjects.flatMap((subject) => Object.entries(subject));
    for (const [name, value] of entries.slice(0, WHOIS_CLAIMS_SHOWN)) fields.push(field(`  claims ${name}`, claimText(value)));
    if (entries.length > WHOIS_CLAIMS_SHOWN) fields.push(field('  claims', `${entries.length - WHOIS_CLAIMS_SHOWN} more (see the JSON result)`, 'muted'));
  }
  if (whois.credentials.length > 0) {
    fields.push(field('note', 'These are claims, not verified identity: svc checks who signed them, never that they are true.', 'muted'));
  }
  return { title: WHOIS_TITLE, fields };
}

/** `version 2-Qm… (2025-01-02T00:00:00Z)` from didDocumentMetadata, when the method reports versions. */
export function versionLine(metadata: Record<string, unknown>): string | null {
  const { versionId, versionTime } = metadata;
  if (typeof versionId !== 'string') return null;
  return printable(`version ${versionId}${typeof versionTime === 'string' ? ` (${versionTime})` : ''}`);
}

/** A service endpoint as text: a URL as is, a list item after item, a map as compact JSON. */
function endpointText(endpoint: unknown): string {
  if (typeof endpoint === 'string') return endpoint;
  if (Array.isArray(endpoint)) return endpoint.map(endpointText).join(', ');
  return JSON.stringify(endpoint) ?? NONE;
}

export function serviceRow(service: ServiceEvidence, did: string): ServiceRow {
  const type = Array.isArray(service.type) ? service.type.join(', ') : (service.type ?? NONE);
  return {
    displayId: printable(displayKeyId(service.id, did)),
    id: service.id,
    fields: [field('type', type), field('endpoint', endpointText(service.serviceEndpoint))],
  };
}

const STAGE_MARKS: Readonly<Record<StageStatus, { marker: string; tone: Tone }>> = {
  PASS: { marker: '✓', tone: 'good' },
  FAIL: { marker: '✗', tone: 'bad' },
  WARN: { marker: '!', tone: 'warn' },
  SKIP: { marker: '-', tone: 'muted' },
};

/** `0.4 ms`, `25.8 ms` below ten milliseconds, whole milliseconds above. */
export function durationText(us: number): string {
  const ms = us / 1000;
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

export function traceView(trace: readonly TraceStage[]): TraceRow[] {
  return trace.map((stage) => ({
    ...STAGE_MARKS[stage.status],
    stage: printable(stage.stage),
    duration: durationText(stage.durationUs),
    text: printable(stage.detail ? `${stage.label}: ${stage.detail}` : stage.label),
  }));
}

export function buildDossierView(result: EnrichedResolution): DossierView {
  const { history } = result.evidence;
  return {
    did: printable(result.did),
    method: printable(result.method),
    observedAt: result.observedAt,
    cached: result.cached,
    version: versionLine(result.didDocumentMetadata),
    verdict: {
      outcome: result.verdict.outcome,
      tone: outcomeTone(result.verdict.outcome),
      headline: printable(result.verdict.headline),
    },
    groups: groupDimensions(result.dimensions),
    keys: result.evidence.keys.map((k) => keyRow(k, result.did)),
    evidence: evidenceSections(result),
    history: history ? historyView(history) : null,
    services: result.evidence.services.map((service) => serviceRow(service, result.did)),
    graph: graphView(result.graph, result.did),
    trace: traceView(result.trace),
    warnings: result.evidence.document.warnings.map(printable),
    limitations: result.limitations.map(printable),
  };
}
