/**
 * Re-verification of the delegation registry at start (docs/delegation.md#the-registry). The
 * daemon verifies every registered chain again once per opened database: `svc serve` starts it
 * right after listening, in the background, so /health and every other route answer at once. A
 * database that opens only later (see StorageSlot) is re-verified when verify-tool first needs it.
 * verify-tool (routes/delegation.ts) never answers from a chain that has not been verified since
 * the daemon started: while the pass runs it waits for it (within the request's time limit; past
 * it, 408, which callers read as DENY); chains whose verification failed for a reason of the
 * service itself (capacity, cancellation, time) stay stored but are not used until the next restart
 * verifies them; if the pass itself fails (the database), verify-tool answers DENY and the next
 * query tries again. With SVC_DELEGATION_ROOTS set, the pass verifies against those roots, so a
 * root taken off the list drops its chains; and a chain expiring beyond SVC_REGISTRATION_MAX_DAYS
 * is dropped, as a new registration of it would be refused.
 */
import { didKeySource } from '../../core/credentials/keys.js';
import { verifyDelegationChain } from '../../core/delegation/index.js';
import { reverifyRegisteredChains } from '../../core/delegation/registry.js';
import type { RuntimeStore } from '../../core/store.js';
import type { ServerContext } from '../context.js';

/** What the daemon's re-verification of one database came to. */
export interface Reverified {
  ok: boolean;
  /** Chains kept in the store but not verified this time (not used by verify-tool). */
  unverified: ReadonlySet<string>;
}

const REVERIFIED = new WeakMap<RuntimeStore, Promise<Reverified>>();

/**
 * Re-verifies the registered chains of the open database once (a second call returns the same
 * pass); null when no database is open. `announce` gets the one-line outcome.
 */
export function reverifyRegistry(ctx: ServerContext, announce?: (line: string) => void): Promise<Reverified> | null {
  const { runtime } = ctx;
  const store = runtime.store;
  if (!store) return null;
  let pass = REVERIFIED.get(store);
  if (pass) return pass;
  const say = announce ?? ((line: string) => runtime.log.info(line));
  const trustedRoots = ctx.limits.delegationRoots ?? undefined;
  pass = (async (): Promise<Reverified> => {
    try {
      // The daemon's own work, not a client's: issuers are resolved through the core (its cache,
      // egress policy and limits) without taking the request capacity, whose slots are refused at
      // once when taken — a small SVC_MAX_CONCURRENCY would otherwise leave chains unverified.
      // One key source for the pass: an issuer shared by many chains is resolved once.
      const keySource = didKeySource(runtime);
      const outcome = await reverifyRegisteredChains(
        runtime,
        (chain) =>
          verifyDelegationChain(chain, {
            runtime,
            keySource,
            signal: AbortSignal.timeout(ctx.limits.requestTimeoutMs),
            ...(trustedRoots ? { trustedRoots } : {}),
          }),
        { maxDays: ctx.limits.registrationMaxDays },
      );
      const failed = outcome.failed.length > 0 ? `, ${outcome.failed.length} not verifiable now (kept, unused until the next start)` : '';
      say(`svc: delegation registry re-verified: ${outcome.kept} kept, ${outcome.dropped.length} dropped${failed}`);
      for (const { id, reason } of outcome.dropped) say(`svc: delegation chain ${id.slice(0, 16)}… dropped: ${reason}`);
      return { ok: true, unverified: new Set(outcome.failed.map((f) => f.id)) };
    } catch (err) {
      // The database failed: nothing registered is used, and the next query tries again.
      REVERIFIED.delete(store);
      say(`svc: warning: the delegation registry could not be re-verified: ${err instanceof Error ? err.message : String(err)}`);
      return { ok: false, unverified: new Set() };
    }
  })();
  REVERIFIED.set(store, pass);
  return pass;
}
