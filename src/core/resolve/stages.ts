/**
 * The stages of a trace (`trace[]`: docs/evidence.md#the-resolution-result-field-by-field), as a
 * result carries them and a problem reports the ones that ran: a leaf that imports nothing, so that
 * problems.ts and the Trace (trace.ts) read them without the rest of the result types.
 * resolve/types.ts re-exports them.
 */

export const STAGE_STATUSES = ['PASS', 'FAIL', 'WARN', 'SKIP'] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

export interface TraceStage {
  stage: string;
  label: string;
  status: StageStatus;
  /** Start, in microseconds since the resolution began (monotonic clock). */
  startedUs: number;
  durationUs: number;
  detail: string;
}
