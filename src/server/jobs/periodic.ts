/**
 * Background work of the daemon that runs every so many seconds (the monitoring pollers, the
 * claim re-checker, the accounts sweep): a pass now and then every period, never two passes at
 * once, none started once the daemon drains, and a failed pass logged (the next one runs as
 * usual). A job extends this class with its `pass()`.
 */
import type { ServerContext } from '../context.js';

export abstract class Periodic {
  #timer: NodeJS.Timeout | null = null;
  #pass: Promise<void> | null = null;
  #stopped = false;

  constructor(
    protected readonly ctx: ServerContext,
    private readonly periodSeconds: number,
    /** What a failed pass is logged as ("a monitoring pass"). */
    private readonly what: string,
  ) {}

  /** One pass of the job. */
  abstract pass(): Promise<unknown>;

  /** Whether the work should stop taking more (stopped, or the daemon drains). */
  protected get halted(): boolean {
    return this.#stopped || this.ctx.draining;
  }

  /** Runs a pass now and then every period; a pass still running when the next is due is not doubled. */
  start(): void {
    if (this.#timer) return;
    const tick = () => {
      if (this.#pass || this.halted) return;
      this.#pass = this.pass()
        .then(() => undefined)
        .catch((err: unknown) => {
          this.ctx.runtime.log.error(`${this.what} failed`, { error: err instanceof Error ? err.message : String(err) });
        })
        .finally(() => {
          this.#pass = null;
        });
    };
    this.#timer = setInterval(tick, this.periodSeconds * 1000);
    this.#timer.unref();
    tick();
  }

  /** Stops the timer and waits for a pass in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#pass;
  }
}
