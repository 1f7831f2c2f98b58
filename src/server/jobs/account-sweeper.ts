/**
 * The accounts sweep: while the commercial mode is on, every 10 minutes the daemon
 * deletes owner sessions and sign-in challenges that expired (or were revoked) more than a day
 * ago (AccountStore.sweep, on the database's clock; idempotent, so several daemons on one
 * PostgreSQL database may sweep alike). Stopped at shutdown like the other periodic jobs.
 */
import type { ServerContext } from '../context.js';
import { Periodic } from './periodic.js';

export const ACCOUNT_SWEEP_SECONDS = 600;

export class AccountSweeper extends Periodic {
  constructor(ctx: ServerContext, periodSeconds = ACCOUNT_SWEEP_SECONDS) {
    super(ctx, periodSeconds, 'an accounts sweep');
  }

  override async pass(): Promise<void> {
    const store = this.ctx.runtime.store;
    if (!store) return;
    const swept = await store.accounts.sweep();
    if (swept.sessionsRemoved + swept.challengesRemoved > 0) this.ctx.runtime.log.info('owner sessions and sign-in challenges swept', swept);
  }
}
