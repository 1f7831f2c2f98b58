/**
 * One check of a watch, without I/O: what a fresh resolution (or its problem) shows, and which
 * monitor events (docs/daemon.md#operator-monitoring) it means against the watch's baselines.
 *
 * - The first check of a watch establishes its baseline and emits nothing.
 * - A failure emits `identity.resolution.failed` once (not again while it keeps failing); the
 *   first success after it emits `identity.resolution.recovered`.
 * - Document and binding changes are measured against the last check that resolved (not the last
 *   check), so a change made while the host was down is reported when it comes back.
 * - Becoming deactivated emits `identity.deactivated` (with the document change, when there is one).
 * - svc's addition: a did:webvh log that no longer extends the one svc kept of it
 *   (core/webvh/kept-log.ts) emits `identity.history.rewritten` once, from the check whose
 *   resolution reports a rewrite first seen after the previous check's resolution ended (its
 *   `detectedAt` later than the previous baseline's checkedAt, which is taken when the resolution
 *   returned): a rewrite stays recorded, so every later resolution reports it with the same
 *   detectedAt and no later check emits it again. It comes first among the check's events.
 *
 * Every event of one check carries the same `data`: fromHash, toHash, the domain binding before
 * and after (null when unchanged), a summary of the semantic diff (null when the document is the
 * same), the verdict headline (null on failure) and the problem (failures only). The rewrite
 * event's data is the same and one more member, `rewrite`: the first diverging entry, kept and
 * served (versionId, versionTime, entry hash), and when the rewrite was first seen.
 */
import type { JsonObject } from '../encoding/json.js';
import { semanticDiff } from '../history/diff.js';
import type { Problem } from '../problems.js';
import type { EnrichedResolution } from '../resolve/types.js';
import type { StoredObservation } from '../history/store.js';
import type { LogRewrite } from '../webvh/types.js';
import type { CheckOutcome, MonitorEventType, PlannedEvent } from './store.js';

/** The outcome of a check that resolved. */
export function resolvedOutcome(result: EnrichedResolution, checkedAt: string): CheckOutcome {
  return {
    status: result.didDocumentMetadata['deactivated'] === true ? 'DEACTIVATED' : 'RESOLVED',
    documentHash: result.evidence.document.jcsSha256,
    fingerprintProfile: result.evidence.document.hashProfile,
    domainBindingStatus: result.evidence.domainBinding?.status ?? null,
    document: result.didDocument,
    problem: null,
    checkedAt,
    tls: null,
  };
}

/** The outcome of a check whose resolution gave no answer. */
export function failedOutcome(problem: Problem, checkedAt: string): CheckOutcome {
  // The problem as a client reads it, without the trace (stages say nothing a receiver needs).
  const { trace: _trace, ...rest } = problem;
  return {
    status: 'FAILED',
    documentHash: null,
    fingerprintProfile: null,
    domainBindingStatus: null,
    document: null,
    problem: rest as unknown as JsonObject,
    checkedAt,
    tls: null,
  };
}

/** The baseline as the semantic diff reads an observation. */
function asObservation(did: string, outcome: CheckOutcome): StoredObservation {
  return {
    id: 0,
    did,
    documentHash: outcome.documentHash ?? '',
    observedAt: outcome.checkedAt,
    lastSeenAt: outcome.checkedAt,
    seenCount: 1,
    latencyMs: null,
    resolverVersion: '',
    domainBindingStatus: outcome.domainBindingStatus,
    summary: '',
    document: outcome.document ?? { id: did },
  };
}

export interface CheckBaselines {
  /** The last check (any status), or null before the first. */
  previous: CheckOutcome | null;
  /** The last check that resolved (RESOLVED or DEACTIVATED), or null. */
  lastResolved: CheckOutcome | null;
}

/** The rewrite a resolution reports of a kept did:webvh log, or null. */
export function rewriteOf(result: EnrichedResolution): LogRewrite | null {
  const kept = result.evidence.history?.keptLog;
  return kept?.status === 'REWRITTEN' ? kept.rewrite : null;
}

/** The rewrite event's own member: the first diverging entry, both sides, when first seen. */
function rewriteData(rewrite: LogRewrite): JsonObject {
  const side = (s: LogRewrite['kept']) => ({ versionId: s.versionId, versionTime: s.versionTime, entryHash: s.entryHash });
  return {
    versionNumber: rewrite.versionNumber,
    kind: rewrite.kind,
    kept: side(rewrite.kept),
    served: rewrite.served === null ? null : side(rewrite.served),
    detectedAt: rewrite.detectedAt,
  };
}

/**
 * The events one check means, in a fixed order (a rewrite first); none for the first check.
 * `rewrite`: what the check's resolution reports of a kept did:webvh log (rewriteOf), or null.
 */
export function plannedEvents(
  did: string,
  baselines: CheckBaselines,
  next: CheckOutcome,
  headline: string | null,
  rewrite: LogRewrite | null = null,
): PlannedEvent[] {
  const { previous, lastResolved } = baselines;
  if (previous === null) return [];
  const types: MonitorEventType[] = [];
  // RFC 3339 UTC at whole seconds on both sides: compared as text, later is greater.
  const newRewrite = rewrite !== null && next.status !== 'FAILED' && rewrite.detectedAt > previous.checkedAt;
  if (newRewrite) types.push('identity.history.rewritten');
  if (next.status === 'FAILED') {
    if (previous.status !== 'FAILED') types.push('identity.resolution.failed');
  } else {
    if (previous.status === 'FAILED') types.push('identity.resolution.recovered');
    if (lastResolved !== null && lastResolved.documentHash !== next.documentHash) types.push('identity.document.changed');
    if (lastResolved !== null && lastResolved.domainBindingStatus !== next.domainBindingStatus) types.push('identity.domain_binding.changed');
    if (next.status === 'DEACTIVATED' && lastResolved?.status !== 'DEACTIVATED') types.push('identity.deactivated');
  }
  if (types.length === 0) return [];

  const from = lastResolved;
  const resolved = next.status !== 'FAILED';
  const documentChanged = resolved && from !== null && from.documentHash !== next.documentHash && from.document !== null && next.document !== null;
  const diff = documentChanged ? semanticDiff(asObservation(did, from), asObservation(did, next)) : null;
  const bindingChanged = resolved && from !== null && from.domainBindingStatus !== next.domainBindingStatus;
  const data: JsonObject = {
    fromHash: from?.documentHash ?? null,
    toHash: next.documentHash,
    domainBinding: bindingChanged ? { from: from.domainBindingStatus, to: next.domainBindingStatus } : null,
    diff: diff === null ? null : { summary: diff.summary, changedMembers: diff.changedMembers },
    headline: resolved ? headline : null,
    problem: next.problem,
  };
  return types.map((type) => ({ type, data: type === 'identity.history.rewritten' ? { ...data, rewrite: rewriteData(rewrite!) } : data }));
}
