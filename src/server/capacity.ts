/**
 * Bounded concurrency of outbound work: at most `max` resolutions fetch at once. A request past
 * that answers 503 CAPACITY_EXHAUSTED at once (SPEC §7: the whole service is busy, not the
 * client's budget) with a Retry-After that varies per response, so clients do not retry in step.
 */
import { ProblemError } from '../core/problems.js';

export class Capacity {
  #inFlight = 0;

  constructor(
    readonly max: number,
    private readonly random: () => number = Math.random,
  ) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Takes a slot and returns its release (call it exactly once), or throws CAPACITY_EXHAUSTED
   * when every slot is taken.
   */
  acquire(): () => void {
    if (this.#inFlight >= this.max) {
      // 1–4 s: long enough for a slot to free up, jittered per response.
      const retryAfter = 1 + Math.floor(this.random() * 4);
      throw new ProblemError('CAPACITY_EXHAUSTED', `svc is busy: ${this.max} resolutions are already running. Retry after ${retryAfter} s.`, { retryAfter });
    }
    this.#inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= 1;
    };
  }

  /** Runs `work` in a slot, or throws CAPACITY_EXHAUSTED when every slot is taken. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}
