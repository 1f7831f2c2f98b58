/**
 * While the cookie gateway runs, the owner sessions and sign-in challenges that expired (or were
 * revoked) more than a day ago are deleted (AccountStore.sweep), once at start and then every
 * SWEEP_PERIOD_SECONDS: neither table grows with every sign-in forever.
 */
import type { ServerContext } from '../context.js';
import { Periodic } from '../periodic.js';

export const SWEEP_PERIOD_SECONDS = 600;

export class SessionSweeper extends Periodic {
  constructor(ctx: ServerContext, periodSeconds = SWEEP_PERIOD_SECONDS) {
    super(ctx, periodSeconds, 'an owner-session sweep');
  }

  override async pass(): Promise<number> {
    const store = this.ctx.runtime.store;
    if (!store) return 0;
    const swept = await store.accounts.sweep();
    const removed = swept.sessionsRemoved + swept.challengesRemoved;
    if (removed > 0) this.ctx.runtime.log.info('owner sessions and sign-in challenges swept', { sessions: swept.sessionsRemoved, challenges: swept.challengesRemoved });
    return removed;
  }
}
