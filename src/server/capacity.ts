/**
 * Bounded concurrency of outbound work (docs/operations.md#capacity-and-time): at most `max`
 * requests reach out at once — resolutions, dereferences, MCP and A2A inspections, the resolutions
 * and status-list fetches of verifications, policies and delegation chains. A request past that
 * answers 503 at once with a Retry-After that varies per response, so clients do not retry in step.
 *
 * Fairness: one client holds at most `perClient` slots (default: half of them, rounded up), so a
 * client with many slow requests in flight always leaves room for others; its own extra requests
 * get the same 503 while the others are served.
 */
import { ProblemError } from '../core/problems.js';

/** The default per-client share of `max` slots: half, rounded up (all of one slot). */
export function fairShare(max: number): number {
  return Math.max(1, Math.ceil(max / 2));
}

export class Capacity {
  #inFlight = 0;
  readonly #byClient = new Map<string, number>();

  constructor(
    readonly max: number,
    readonly perClient: number = fairShare(max),
    private readonly random: () => number = Math.random,
    /** Told of each refusal (the daemon's metrics count them). */
    private readonly onRefusal?: () => void,
  ) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Clients holding at least one slot now. */
  get clients(): number {
    return this.#byClient.size;
  }

  /**
   * Takes a slot for `client` and returns its release (idempotent), or throws
   * CAPACITY_EXHAUSTED when every slot is taken or the client already holds its share.
   */
  acquire(client: string): () => void {
    if (this.#inFlight >= this.max) throw this.#busy(`all ${this.max} slots for outbound work are taken`);
    const held = this.#byClient.get(client) ?? 0;
    if (held >= this.perClient) {
      throw this.#busy(`this client already holds ${held} of the ${this.max} slots for outbound work, the most one client may hold`);
    }
    this.#inFlight += 1;
    this.#byClient.set(client, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= 1;
      const left = (this.#byClient.get(client) ?? 1) - 1;
      if (left <= 0) this.#byClient.delete(client);
      else this.#byClient.set(client, left);
    };
  }

  #busy(why: string): ProblemError {
    this.onRefusal?.();
    // 1–4 s: long enough for a slot to free up, jittered per response.
    const retryAfter = 1 + Math.floor(this.random() * 4);
    return new ProblemError('CAPACITY_EXHAUSTED', `svc is busy: ${why}. Retry after ${retryAfter} s.`, { retryAfter });
  }
}

/**
 * The one slot of one request: taken when the request first needs outbound work (or at once,
 * for work that always reaches out), shared by everything the request does, released once when
 * its work ends. A request never holds two slots, so nested work (the DID `kid` of an agent
 * card, an issuer and then its status list) cannot be refused halfway by its own request.
 */
export class RequestSlot {
  #release: (() => void) | null = null;

  constructor(
    private readonly capacity: Capacity,
    readonly client: string,
  ) {}

  get held(): boolean {
    return this.#release !== null;
  }

  /** Takes the slot unless already held; throws CAPACITY_EXHAUSTED when none is free. */
  take(): void {
    this.#release ??= this.capacity.acquire(this.client);
  }

  release(): void {
    this.#release?.();
    this.#release = null;
  }
}
