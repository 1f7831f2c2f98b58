/**
 * What the re-runs of an evidence bundle count as a difference (src/core/bundle/verify.ts
 * compareResults), and the one instant the recorded work reads (record.ts recordingRuntime).
 */
import { describe, expect, it } from 'vitest';
import { recordingRuntime } from '../../src/core/bundle/record.js';
import { compareResults } from '../../src/core/bundle/verify.js';
import { fixedClock, testRuntime } from '../support/runtime.js';

const recorded = {
  status: 'VALID',
  checks: [
    { id: 'validity', status: 'PASS', detail: 'Valid at 2026-11-28T21:16:08Z (validFrom 2025-01-01T00:00:00Z).' },
    { id: 'transport', status: 'PASS', detail: 'TLS validated, certificate valid until 2026-12-08T21:15:49Z (9 days left).' },
  ],
  trace: [{ stage: 'fetch', durationMs: 12 }],
  observedAt: '2026-11-28T21:16:08Z',
};

describe('compareResults', () => {
  it('at the bundle’s time: every word counts, volatile members (timings, the trace, stamps) aside', () => {
    const rerun = structuredClone(recorded);
    rerun.trace = [];
    rerun.observedAt = '2026-11-28T21:16:09Z';
    expect(compareResults(recorded, rerun)).toEqual([]);
    rerun.checks[0]!.detail = 'Valid at 2026-11-28T21:16:09Z (validFrom 2025-01-01T00:00:00Z).';
    expect(compareResults(recorded, rerun)).toEqual([
      { path: 'checks[validity].detail', recorded: recorded.checks[0]!.detail, recomputed: rerun.checks[0]!.detail },
    ]);
  });

  it('now (another instant): a sentence that differs only in the times and day counts it names is no difference', () => {
    const later = structuredClone(recorded);
    later.checks[0]!.detail = 'Valid at 2027-03-01T10:00:00Z (validFrom 2025-01-01T00:00:00Z).';
    later.checks[1]!.detail = 'TLS validated, certificate valid until 2026-12-08T21:15:49Z (1 day left).';
    expect(compareResults(recorded, later, { otherInstant: true })).toEqual([]);
    // A decision, or any other word, still is.
    later.status = 'EXPIRED';
    later.checks[0]!.status = 'FAIL';
    later.checks[0]!.detail = 'Expired at 2027-01-01T00:00:00Z (validUntil 2027-01-01T00:00:00Z).';
    expect(compareResults(recorded, later, { otherInstant: true }).map((d) => d.path)).toEqual([
      'status',
      'checks[validity].status',
      'checks[validity].detail',
    ]);
  });
});

describe('recordingRuntime', () => {
  it('the recorded work reads one instant, the observation’s, however long it runs', () => {
    const clock = fixedClock('2026-11-28T21:16:08.999Z');
    const recording = recordingRuntime(testRuntime(clock));
    clock.advance(5_000);
    expect(recording.observedAt.toISOString()).toBe('2026-11-28T21:16:08.999Z');
    expect(recording.runtime.clock.now().toISOString()).toBe('2026-11-28T21:16:08.999Z');
  });
});
