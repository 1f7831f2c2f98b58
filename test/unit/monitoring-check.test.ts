/**
 * Which monitor events a check means (src/core/monitoring/check.ts): nothing on the first check,
 * a failure once, a recovery once, document and binding changes against the last check that
 * resolved, deactivation; one data object per check with the diff summary.
 */
import { describe, expect, it } from 'vitest';
import { failedOutcome, plannedEvents, resolvedOutcome } from '../../src/core/monitoring/check.js';
import { ProblemError } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { CheckOutcome } from '../../src/core/store.js';
import { createRuntime } from '../../src/runtime/node.js';

const DID = 'did:web:watched.example';
const key = (n: number) => ({ id: `${DID}#k${n}`, type: 'Multikey', controller: DID, publicKeyMultibase: `z6MkKey${n}` });

function resolved(n: number, options: { binding?: CheckOutcome['domainBindingStatus']; deactivated?: boolean; at?: string } = {}): CheckOutcome {
  return {
    status: options.deactivated ? 'DEACTIVATED' : 'RESOLVED',
    documentHash: `hash-${n}`,
    fingerprintProfile: 'rfc8785-binary64-v1',
    domainBindingStatus: options.binding ?? 'NOT_CONFIGURED',
    document: { id: DID, verificationMethod: [key(n)], assertionMethod: [`${DID}#k${n}`] },
    problem: null,
    checkedAt: options.at ?? '2026-11-27T00:00:00Z',
    tls: null,
  };
}

const failed = (at = '2026-11-27T00:10:00Z') => failedOutcome(new ProblemError('UPSTREAM_UNAVAILABLE', 'The host did not answer.').toProblem(), at);
const types = (events: ReturnType<typeof plannedEvents>) => events.map((e) => e.type);

describe('plannedEvents', () => {
  it('the first check establishes the baseline and emits nothing, whatever it saw', () => {
    expect(plannedEvents(DID, { previous: null, lastResolved: null }, resolved(1), 'ok')).toEqual([]);
    expect(plannedEvents(DID, { previous: null, lastResolved: null }, failed(), null)).toEqual([]);
  });

  it('an unchanged document emits nothing', () => {
    const base = resolved(1);
    expect(plannedEvents(DID, { previous: base, lastResolved: base }, resolved(1, { at: '2026-11-27T01:00:00Z' }), 'ok')).toEqual([]);
  });

  it('a rotated key: one identity.document.changed with both hashes and the diff summary', () => {
    const base = resolved(1);
    const events = plannedEvents(DID, { previous: base, lastResolved: base }, resolved(2), 'Resolved; 1 key valid.');
    expect(types(events)).toEqual(['identity.document.changed']);
    expect(events[0]!.data).toMatchObject({ fromHash: 'hash-1', toHash: 'hash-2', domainBinding: null, headline: 'Resolved; 1 key valid.', problem: null });
    expect((events[0]!.data['diff'] as { summary: string }).summary).toMatch(/key/);
  });

  it('a binding change alone: identity.domain_binding.changed with from and to', () => {
    const base = resolved(1, { binding: 'VERIFIED' });
    const events = plannedEvents(DID, { previous: base, lastResolved: base }, resolved(1, { binding: 'UNREACHABLE' }), 'h');
    expect(types(events)).toEqual(['identity.domain_binding.changed']);
    expect(events[0]!.data).toMatchObject({ domainBinding: { from: 'VERIFIED', to: 'UNREACHABLE' }, diff: null });
  });

  it('a failure is reported once; the recovery once; a change made meanwhile is reported on recovery', () => {
    const base = resolved(1);
    const down = failed();
    const first = plannedEvents(DID, { previous: base, lastResolved: base }, down, null);
    expect(types(first)).toEqual(['identity.resolution.failed']);
    expect(first[0]!.data).toMatchObject({ fromHash: 'hash-1', toHash: null, headline: null, problem: { code: 'UPSTREAM_UNAVAILABLE' } });
    expect(first[0]!.data['problem']).not.toHaveProperty('trace');
    expect(plannedEvents(DID, { previous: down, lastResolved: base }, failed('2026-11-27T00:20:00Z'), null)).toEqual([]);
    expect(types(plannedEvents(DID, { previous: down, lastResolved: base }, resolved(1), 'ok'))).toEqual(['identity.resolution.recovered']);
    expect(types(plannedEvents(DID, { previous: down, lastResolved: base }, resolved(3), 'ok'))).toEqual([
      'identity.resolution.recovered',
      'identity.document.changed',
    ]);
  });

  it('deactivation: identity.deactivated once (with the document change when the document changed)', () => {
    const base = resolved(1);
    expect(types(plannedEvents(DID, { previous: base, lastResolved: base }, resolved(1, { deactivated: true }), 'd'))).toEqual(['identity.deactivated']);
    expect(types(plannedEvents(DID, { previous: base, lastResolved: base }, resolved(2, { deactivated: true }), 'd'))).toEqual([
      'identity.document.changed',
      'identity.deactivated',
    ]);
    const gone = resolved(2, { deactivated: true });
    expect(plannedEvents(DID, { previous: gone, lastResolved: gone }, resolved(2, { deactivated: true }), 'd')).toEqual([]);
  });

  it('resolvedOutcome reads a real resolution; failedOutcome keeps the problem without its trace', async () => {
    const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const result = await resolve(did, createRuntime({}));
    const outcome = resolvedOutcome(result, '2026-11-27T00:00:00Z');
    expect(outcome).toMatchObject({
      status: 'RESOLVED',
      documentHash: result.evidence.document.jcsSha256,
      fingerprintProfile: result.evidence.document.hashProfile,
      domainBindingStatus: null,
      problem: null,
    });
    expect(outcome.document).toEqual(result.didDocument);
    const problem = new ProblemError('NOT_FOUND', 'absent', { trace: [] }).toProblem();
    expect(failedOutcome(problem, 't')).toMatchObject({
      status: 'FAILED',
      documentHash: null,
      document: null,
      problem: { code: 'NOT_FOUND', detail: 'absent' },
    });
  });

  it('a did:webvh log rewrite: identity.history.rewritten once, first, with the diverging entry; never on the first check', () => {
    const rewrite = {
      versionNumber: 3,
      kind: 'CHANGED' as const,
      kept: { versionId: '3-QmKept', versionTime: '2026-11-01T00:00:00Z', entryHash: 'a'.repeat(64) },
      served: { versionId: '3-QmServed', versionTime: '2026-11-02T00:00:00Z', entryHash: 'b'.repeat(64) },
      detectedAt: '2026-11-27T01:00:00Z',
    };
    const base = resolved(1);
    expect(plannedEvents(DID, { previous: null, lastResolved: null }, resolved(1), 'h', rewrite)).toEqual([]);
    // Seen after the previous check: emitted, before the document change that comes with it.
    const now = resolved(2, { at: '2026-11-27T01:00:00Z' });
    const events = plannedEvents(DID, { previous: base, lastResolved: base }, now, 'the log was rewritten', rewrite);
    expect(types(events)).toEqual(['identity.history.rewritten', 'identity.document.changed']);
    expect(events[0]!.data).toEqual({ ...events[1]!.data, rewrite: { ...rewrite } });
    expect(events[1]!.data).not.toHaveProperty('rewrite');
    // The next check sees the same recorded rewrite: nothing, not even in the same second.
    expect(plannedEvents(DID, { previous: now, lastResolved: now }, resolved(2, { at: '2026-11-27T01:00:00Z' }), 'h', rewrite)).toEqual([]);
    expect(plannedEvents(DID, { previous: now, lastResolved: now }, resolved(2, { at: '2026-11-27T02:00:00Z' }), 'h', rewrite)).toEqual([]);
    // A removed entry: served is null.
    const removed = { ...rewrite, kind: 'REMOVED' as const, served: null };
    const only = plannedEvents(DID, { previous: base, lastResolved: base }, resolved(1, { at: '2026-11-27T01:00:00Z' }), 'h', removed);
    expect(types(only)).toEqual(['identity.history.rewritten']);
    expect(only[0]!.data['rewrite']).toMatchObject({ kind: 'REMOVED', served: null });
  });
});
