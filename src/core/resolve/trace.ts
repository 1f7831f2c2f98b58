/**
 * The telemetry of a resolution: each stage timed in microseconds with the monotonic clock,
 * appended to the trace, and announced to an optional listener as it completes (the SSE
 * stream is this listener, not a second implementation).
 */
import { asProblemError, cancelledProblem } from '../problems.js';
import type { Clock } from '../clock.js';
import type { StageStatus, TraceStage } from './stages.js';
import type { SpanNote, Telemetry } from '../telemetry.js';

export type StageListener = (stage: TraceStage) => void;

/** Told when a stage starts (a terminal's live progress line); it is recorded on completion as before. */
export type StageStartListener = (stage: { stage: string; label: string }) => void;

/**
 * Who watches the stages of some work: the SSE stream and the CLI's progress line. Verification,
 * inspection and policy take the same hooks, so their fetches and resolutions report alike.
 */
export interface StageHooks {
  /** Called as each stage completes. */
  onStage?: StageListener;
  /** Called as each stage starts. */
  onStageStart?: StageStartListener;
}

/** Lets a stage body set its outcome; PASS with an empty detail unless it says otherwise. */
export interface StageHandle {
  status: StageStatus;
  detail: string;
}

/** A stage begun with `Trace.begin`: `commit` records it and yields its result. */
export interface PendingStage<T> {
  /** Settles (never rejects) when the work is done, recorded or not. */
  settled: Promise<void>;
  commit(): Promise<T>;
}

export class Trace {
  readonly stages: TraceStage[] = [];
  readonly #origin: number;

  constructor(
    private readonly clock: Clock,
    private readonly listener?: StageListener,
    /** When aborted, no further stage starts (each throws `cancelledProblem()`). */
    readonly signal?: AbortSignal,
    private readonly onStart?: StageStartListener,
    /** The operator's telemetry (runtime.telemetry): each stage is also a span. */
    private readonly telemetry?: Telemetry,
  ) {
    this.#origin = clock.monotonicUs();
  }

  /** Microseconds since the resolution began. */
  elapsedUs(): number {
    return Math.round(this.clock.monotonicUs() - this.#origin);
  }

  /**
   * Runs one stage. A ProblemError thrown by the body records a FAIL stage carrying the
   * problem's detail, gets the trace attached, and propagates; anything else thrown becomes
   * INTERNAL_ERROR the same way.
   */
  run<T>(stage: string, label: string, body: (handle: StageHandle) => Promise<T> | T): Promise<T> {
    const telemetry = this.telemetry;
    if (!telemetry) return this.#run(stage, label, body);
    return telemetry.within('stage', stage, (note) => this.#run(stage, label, spanned(note, body)));
  }

  async #run<T>(stage: string, label: string, body: (handle: StageHandle) => Promise<T> | T): Promise<T> {
    const handle: StageHandle = { status: 'PASS', detail: '' };
    const startedUs = this.elapsedUs();
    try {
      if (this.signal?.aborted) throw cancelledProblem();
      this.onStart?.({ stage, label });
      const result = await body(handle);
      this.#record(stage, label, handle.status, startedUs, handle.detail);
      return result;
    } catch (err) {
      const problem = asProblemError(err);
      this.#record(stage, label, 'FAIL', startedUs, problem.detail);
      problem.trace = this.stages.slice();
      throw problem;
    }
  }

  /**
   * Starts a stage now but records it only on `commit()`: for work that runs beside the main
   * path (the DID configuration fetch runs while the document is fetched), so that its stage
   * never shows up in the trace of a problem the main path raises meanwhile. The recorded
   * `startedUs` and `durationUs` are those of the work itself.
   */
  begin<T>(stage: string, label: string, body: (handle: StageHandle) => Promise<T> | T): PendingStage<T> {
    const handle: StageHandle = { status: 'PASS', detail: '' };
    const startedUs = this.elapsedUs();
    const telemetry = this.telemetry;
    const work = telemetry ? (h: StageHandle) => telemetry.within('stage', stage, (note) => Promise.resolve(spanned(note, body)(h))) : body;
    const outcome = (async () => {
      try {
        if (this.signal?.aborted) throw cancelledProblem();
        this.onStart?.({ stage, label });
        const value = await work(handle);
        return { ok: true as const, value, endUs: this.elapsedUs() };
      } catch (err) {
        return { ok: false as const, problem: asProblemError(err), endUs: this.elapsedUs() };
      }
    })();
    return {
      settled: outcome.then(() => undefined),
      commit: async () => {
        const result = await outcome;
        if (result.ok) {
          this.#record(stage, label, handle.status, startedUs, handle.detail, result.endUs);
          return result.value;
        }
        this.#record(stage, label, 'FAIL', startedUs, result.problem.detail, result.endUs);
        result.problem.trace = this.stages.slice();
        throw result.problem;
      },
    };
  }

  #record(stage: string, label: string, status: StageStatus, startedUs: number, detail: string, endUs: number = this.elapsedUs()): void {
    const entry: TraceStage = { stage, label, status, startedUs, durationUs: Math.max(0, endUs - startedUs), detail };
    this.stages.push(entry);
    this.listener?.(entry);
  }
}

/**
 * Stage events for work outside a resolution (a status list, an MCP request, an agent card):
 * timed and told to the hooks exactly as a resolution's stages are, but kept in no trace and
 * attached to no problem, so no result or problem changes shape. Without hooks it only runs.
 */
export class StageReporter {
  readonly #origin: number;

  constructor(
    private readonly clock: Clock,
    private readonly hooks: StageHooks = {},
    /** The operator's telemetry (runtime.telemetry): each stage is also a span. */
    private readonly telemetry?: Telemetry,
  ) {
    this.#origin = clock.monotonicUs();
  }

  run<T>(stage: string, label: string, body: (handle: StageHandle) => Promise<T> | T): Promise<T> {
    const telemetry = this.telemetry;
    if (!telemetry) return this.#run(stage, label, body);
    return telemetry.within('stage', stage, (note) => this.#run(stage, label, spanned(note, body)));
  }

  async #run<T>(stage: string, label: string, body: (handle: StageHandle) => Promise<T> | T): Promise<T> {
    const handle: StageHandle = { status: 'PASS', detail: '' };
    const { onStage, onStageStart } = this.hooks;
    if (!onStage && !onStageStart) return body(handle);
    const startedUs = Math.round(this.clock.monotonicUs() - this.#origin);
    const record = (status: StageStatus, detail: string) => {
      const durationUs = Math.max(0, Math.round(this.clock.monotonicUs() - this.#origin) - startedUs);
      onStage?.({ stage, label, status, startedUs, durationUs, detail });
    };
    onStageStart?.({ stage, label });
    try {
      const result = await body(handle);
      record(handle.status, handle.detail);
      return result;
    } catch (err) {
      record('FAIL', asProblemError(err).detail);
      throw err;
    }
  }
}

/** A stage body that also tells its span the stage's status (PASS, WARN …) once it returns. */
function spanned<T>(note: SpanNote, body: (handle: StageHandle) => Promise<T> | T): (handle: StageHandle) => Promise<T> {
  return async (handle) => {
    const value = await body(handle);
    note.outcome = handle.status;
    return value;
  };
}
