/**
 * The claim re-checker: every SVC_CLAIM_PERIOD seconds (60 by default) the daemon lapses claims
 * whose time ran out (with their directory listings), then re-checks the well-known and DNS
 * claims that are due — on the database's clock, leased, so several daemons on one PostgreSQL
 * share the work and never check one claim twice at once. A proof that is still there holds the
 * claim for seven more intervals; one that disappeared (the file gone, the record removed or
 * changed) lapses it at once, with the finding as its reason, and its listing with it; one that
 * could not be reached (host, resolver, egress) is no verdict: it is tried again later, and the
 * claim lapses only when its time runs out unchecked.
 */
import { recheckClaim } from '../../core/claims/index.js';
import { RECHECK_LIFETIME_INTERVALS } from '../../core/claims/types.js';
import type { StoredClaim } from '../../core/store.js';
import type { ServerContext } from '../context.js';
import { Periodic } from './periodic.js';

/** Claims re-checked per pass at most (the rest wait for the next pass). */
const CLAIMS_PER_PASS = 50;
/** Re-checks running at once: each waits on a remote host or resolver, not on this process. */
const CHECKS_AT_ONCE = 4;
/** How long a claimed re-check is leased before another daemon may take it (seconds). */
const LEASE_SECONDS = 120;
/** An unreachable proof is tried again after this, or after the interval when that is shorter. */
const RETRY_SECONDS = 3_600;

export class ClaimChecker extends Periodic {
  constructor(ctx: ServerContext) {
    super(ctx, ctx.limits.claimPeriodSeconds, 'a claim re-check pass');
  }

  /** One pass: the sweep, then the due re-checks; returns how many re-checks were recorded. */
  override async pass(): Promise<number> {
    const store = this.ctx.runtime.store;
    if (!store) return 0;
    const swept = await store.claims.sweep();
    if (swept.lapsed > 0) this.ctx.runtime.log.info('claims lapsed unchecked', { lapsed: swept.lapsed });
    const queue = await store.claims.claimDue(CLAIMS_PER_PASS, LEASE_SECONDS);
    let recorded = 0;
    const worker = async () => {
      for (let claim = queue.shift(); claim !== undefined && !this.halted; claim = queue.shift()) {
        if (await this.recheck(claim)) recorded += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(CHECKS_AT_ONCE, queue.length) }, worker));
    return recorded;
  }

  /** Re-checks one claim and records what was found; false when nothing was recorded. */
  async recheck(claim: StoredClaim): Promise<boolean> {
    const { runtime, limits } = this.ctx;
    const interval = limits.claimRecheckSeconds;
    let found;
    try {
      found = await recheckClaim(claim, { runtime, signal: AbortSignal.timeout(limits.requestTimeoutMs) });
    } catch (err) {
      // The service's own trouble (a time limit, a cancelled fetch) says nothing about the proof.
      const error = err instanceof Error ? err.message : String(err);
      runtime.telemetry?.record({ type: 'claim.recheck', outcome: 'unreachable' });
      return runtime.store!.claims.recordRecheck(claim.id, { kind: 'unreachable', error, retrySeconds: Math.min(interval, RETRY_SECONDS) });
    }
    const result = found.ok
      ? { kind: 'held' as const, lifetimeSeconds: RECHECK_LIFETIME_INTERVALS * interval, recheckSeconds: interval }
      : found.definitive
        ? { kind: 'lapsed' as const, reason: `${found.code}: ${found.reason}` }
        : { kind: 'unreachable' as const, error: `${found.code}: ${found.reason}`, retrySeconds: Math.min(interval, RETRY_SECONDS) };
    runtime.telemetry?.record({ type: 'claim.recheck', outcome: result.kind });
    const written = await runtime.store!.claims.recordRecheck(claim.id, result);
    if (written && result.kind === 'lapsed') runtime.log.info('a claim lapsed on re-check', { did: claim.did, method: claim.method, reason: result.reason });
    return written;
  }
}
