/**
 * Owner accounts over PostgreSQL, shared by every daemon on the database: the
 * statements of schema/accounts.ts compiled for PostgreSQL, with its argument checks and row
 * mappers. "Now" is the database's clock_timestamp() in epoch milliseconds, read once per
 * statement (a MATERIALIZED CTE).
 *
 * Ownership is re-checked inside the transaction of each owner action by a statement that locks
 * the acting subject's tenant_owners row FOR SHARE and the project row FOR NO KEY UPDATE. A
 * removal of the owner (a DELETE of that row) therefore waits for an action holding it, and an
 * action that reaches the row while a removal holds it waits for the removal and then, re-reading
 * the row under READ COMMITTED, finds it gone: NOT_OWNER. The project lock makes issuers of one
 * project take turns, so the key caps are counted with every earlier key committed (and it does
 * not block the FOR KEY SHARE of foreign-key checks: usage counting goes on meanwhile).
 */
import type pg from 'pg';
import {
  SIGN_IN_PENDING_LIMITS,
  type AccountStore,
  type ApiKeyMetadata,
  type Invoice,
  type KeyPrincipal,
  type LedgerEntry,
  type NewApiKey,
  type NewOwnerSession,
  type NewPlan,
  type NewSignInChallenge,
  type OwnerSession,
  type Plan,
  type Project,
  type Subscription,
  type Tenant,
  type TenantBilling,
  type UsageRow,
} from '../../core/accounts/store.js';
import type { PendingLimits } from '../../core/pending.js';
import {
  ACCOUNT_STATEMENTS,
  challengesFull,
  checkKeyCapacity,
  conflictOr,
  keyValues,
  newId,
  notFound,
  notOwner,
  sessionValues,
  signInChallengeValues,
  text,
  toKey,
  toSession,
  toUsage,
  usageBy,
  stampDue,
  chargeOf,
  newInvoiceId,
  periodBounds,
  planValues,
  toInvoice,
  toLedger,
  toPlan,
  type AccountDialect,
  type SessionRow,
} from '../schema/accounts.js';
import { rfc3339, type Ms } from '../schema/claims.js';
import { pendingRefusal, type PendingStateRow } from '../schema/pending.js';
import { CLOCK, inLockedTransaction, inTransaction, LOCK_CLASS, numberedParameters, type Compiled } from './sql.js';

/**
 * A shared statement for PostgreSQL: `$n` parameters in order of first use, now read once by a
 * CTE in front. `extra` completes a dialect that extends the accounts' (customer monitoring's).
 */
export function compileFor<D extends AccountDialect>(
  build: (d: D) => string,
  extra: Omit<D, keyof AccountDialect>,
  ownedLock = 'FOR NO KEY UPDATE OF p FOR SHARE OF o',
): Compiled {
  const params = numberedParameters();
  const dialect = {
    p: params.p,
    now: '(SELECT now FROM clock)',
    rfc3339: (ms: string) => `to_char(to_timestamp((${ms}) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    least: (a: string, b: string) => `LEAST(${a}, ${b})`,
    ownedLock,
    ...extra,
  } as D;
  const body = build(dialect);
  return { text: `${CLOCK} ${body}`, values: params.values };
}

function compile(build: (d: AccountDialect) => string, ownedLock?: string): Compiled {
  return compileFor(build, {}, ownedLock);
}

const S = Object.fromEntries(Object.entries(ACCOUNT_STATEMENTS).map(([name, build]) => [name, compile(build)])) as Record<
  keyof typeof ACCOUNT_STATEMENTS,
  Compiled
>;
/** The ownership check of a read: no locks (one statement, one snapshot). */
const OWNED_READ = compile(ACCOUNT_STATEMENTS.owned, '');

type Runner = pg.Pool | pg.PoolClient;

async function all<R extends pg.QueryResultRow>(on: Runner, statement: Compiled, values: Record<string, unknown> = {}): Promise<R[]> {
  return (await on.query<R>(statement.text, statement.values(values))).rows;
}

async function one<R extends pg.QueryResultRow>(on: Runner, statement: Compiled, values: Record<string, unknown> = {}): Promise<R | undefined> {
  return (await all<R>(on, statement, values))[0];
}

export class PostgresAccountStore implements AccountStore {
  constructor(private readonly pool: pg.Pool) {}

  async #owned(client: pg.PoolClient, subject: string, projectId: string): Promise<void> {
    if ((await one(client, S.owned, { subject, projectId })) === undefined) throw notOwner();
  }

  async createTenant(tenant: { name: string; owner: string }): Promise<Tenant> {
    const name = text('name', tenant.name, 100);
    const owner = text('owner', tenant.owner, 2048);
    return inTransaction(this.pool, async (client) => {
      const row = (await one<Tenant>(client, S.insertTenant, { id: newId('ten'), name, owner }))!;
      await one(client, S.attachOwner, { tenantId: row.id, subject: owner });
      return row;
    });
  }

  async listTenants(): Promise<Tenant[]> {
    return all<Tenant>(this.pool, S.listTenants);
  }

  async createProject(tenantId: string, project: { name: string }): Promise<Project> {
    const name = text('name', project.name, 100);
    return inTransaction(this.pool, async (client) => {
      if ((await one(client, S.tenantExists, { tenantId })) === undefined) throw notFound('tenant');
      try {
        return (await one<Project>(client, S.insertProject, { id: newId('prj'), tenantId, name }))!;
      } catch (error) {
        throw conflictOr(error, 'the tenant already has a project of that name');
      }
    });
  }

  async getProject(projectId: string): Promise<Project | undefined> {
    return one<Project>(this.pool, S.getProject, { projectId });
  }

  async listProjects(): Promise<Project[]> {
    return all<Project>(this.pool, S.listProjects, {});
  }

  async listProjectsOwnedBy(subject: string): Promise<Project[]> {
    return all<Project>(this.pool, S.projectsOwnedBy, { subject });
  }

  async ownersOf(tenantId: string): Promise<string[]> {
    return (await all<{ subject: string }>(this.pool, S.ownersOf, { tenantId })).map((r) => r.subject);
  }

  async attachOwner(tenantId: string, subject: string): Promise<boolean> {
    text('subject', subject, 2048);
    return inTransaction(this.pool, async (client) => {
      if ((await one(client, S.tenantExists, { tenantId })) === undefined) throw notFound('tenant');
      return (await one(client, S.attachOwner, { tenantId, subject })) !== undefined;
    });
  }

  /** One DELETE: it waits for the owner's actions in flight (their FOR SHARE on the row). */
  async removeOwner(tenantId: string, subject: string): Promise<boolean> {
    return (await one(this.pool, S.removeOwner, { tenantId, subject })) !== undefined;
  }

  async ownsProject(subject: string, projectId: string): Promise<boolean> {
    // PostgreSQL refuses NUL in text; no id or subject holds one, so nobody owns such a project.
    if (subject.includes('\u0000') || projectId.includes('\u0000')) return false;
    return (await one(this.pool, OWNED_READ, { subject, projectId })) !== undefined;
  }

  async listKeys(subject: string, projectId: string): Promise<ApiKeyMetadata[]> {
    // REPEATABLE READ: the check and the list from one snapshot.
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        if ((await one(client, OWNED_READ, { subject, projectId })) === undefined) throw notOwner();
        const rows = await all<ApiKeyMetadata>(client, S.listKeys, { projectId });
        await client.query('COMMIT');
        return rows.map(toKey);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      client.release();
    }
  }

  async issueKey(subject: string, projectId: string, key: NewApiKey): Promise<ApiKeyMetadata> {
    const values = keyValues(projectId, key, null);
    return inTransaction(this.pool, async (client) => {
      await this.#owned(client, subject, projectId);
      checkKeyCapacity((await one<{ active: number; retained: number }>(client, S.keyCounts, { projectId }))!, false);
      try {
        return toKey((await one<ApiKeyMetadata>(client, S.insertKey, values))!);
      } catch (error) {
        throw conflictOr(error, 'a key of that id or digest exists');
      }
    });
  }

  async revokeKey(subject: string, projectId: string, keyId: string): Promise<ApiKeyMetadata> {
    return inTransaction(this.pool, async (client) => {
      await this.#owned(client, subject, projectId);
      const revoked = await one<ApiKeyMetadata>(client, S.retire, { keyId, projectId, status: 'REVOKED' });
      if (revoked !== undefined) return toKey(revoked);
      const found = await one<ApiKeyMetadata>(client, S.getKey, { keyId, projectId });
      if (found === undefined) throw notFound('key');
      return toKey(found);
    });
  }

  async rotateKey(subject: string, projectId: string, oldKeyId: string, newKey: NewApiKey): Promise<{ rotated: ApiKeyMetadata; issued: ApiKeyMetadata }> {
    const values = keyValues(projectId, newKey, oldKeyId);
    return inTransaction(this.pool, async (client) => {
      await this.#owned(client, subject, projectId);
      checkKeyCapacity((await one<{ active: number; retained: number }>(client, S.keyCounts, { projectId }))!, true);
      const rotated = await one<ApiKeyMetadata>(client, S.retire, { keyId: oldKeyId, projectId, status: 'ROTATED' });
      if (rotated === undefined) throw notFound('active key');
      try {
        return { rotated: toKey(rotated), issued: toKey((await one<ApiKeyMetadata>(client, S.insertKey, values))!) };
      } catch (error) {
        throw conflictOr(error, 'a key of that id or digest exists');
      }
    });
  }

  async authenticateKey(keyHash: string): Promise<KeyPrincipal | null> {
    if (typeof keyHash !== 'string' || !/^[0-9a-f]{64}$/.test(keyHash)) return null;
    const row = await one<KeyPrincipal & { lastUsedAt: string | null }>(this.pool, S.authenticate, { keyHash });
    if (row === undefined) return null;
    if (stampDue(row.lastUsedAt)) await one(this.pool, S.stamp, { keyId: row.keyId });
    return { keyId: row.keyId, projectId: row.projectId, tenantId: row.tenantId };
  }

  async countUsage(projectId: string, metric: string, period: string, by = 1): Promise<number> {
    const values = { projectId, metric: text('metric', metric, 64), period: text('period', period, 64), by: usageBy(by) };
    return Number((await one<{ count: number }>(this.pool, S.countUsage, values))!.count);
  }

  async usageOf(projectId: string, period?: string): Promise<UsageRow[]> {
    return (await all<UsageRow>(this.pool, S.usageOf, { projectId, period: period ?? null })).map(toUsage);
  }

  async createSession(session: NewOwnerSession): Promise<OwnerSession> {
    const values = sessionValues(session);
    try {
      return toSession((await one<SessionRow>(this.pool, S.createSession, values))!);
    } catch (error) {
      throw conflictOr(error, 'a session of that digest exists');
    }
  }

  async touchSession(idDigest: string): Promise<OwnerSession | null> {
    if (typeof idDigest !== 'string' || !/^[0-9a-f]{64}$/.test(idDigest)) return null;
    const row = await one<SessionRow>(this.pool, S.touchSession, { idDigest });
    return row === undefined ? null : toSession(row);
  }

  async revokeSession(idDigest: string): Promise<boolean> {
    return (await one(this.pool, S.revokeSession, { idDigest })) !== undefined;
  }

  async revokeSessionsOf(subject: string): Promise<number> {
    return (await all(this.pool, S.revokeSessionsOf, { subject })).length;
  }

  /**
   * Under an advisory lock on one key: creators on every daemon take turns, so every share of the
   * pool (schema/pending.ts) holds across them; a refusal reads the shares under the same lock.
   */
  async createSignInChallenge(challenge: NewSignInChallenge, limits: PendingLimits = SIGN_IN_PENDING_LIMITS): Promise<{ expiresAt: string }> {
    const values = signInChallengeValues(challenge, limits);
    const row = await inLockedTransaction(this.pool, LOCK_CLASS.signInChallenges, 'sign-in challenges', async (client) => {
      let created: { expiresAtMs: Ms } | undefined;
      try {
        created = await one<{ expiresAtMs: Ms }>(client, S.createChallenge, values);
      } catch (error) {
        throw conflictOr(error, 'a challenge of that digest exists');
      }
      if (created === undefined) throw challengesFull(pendingRefusal((await one<PendingStateRow>(client, S.pendingChallenges, values))!, limits));
      return created;
    });
    return { expiresAt: rfc3339(row.expiresAtMs) };
  }

  /** One guarded UPDATE: of concurrent consumers, the first takes the row lock, the others re-read it used. */
  async consumeSignInChallenge(tokenDigest: string, did: string): Promise<boolean> {
    return (await one(this.pool, S.consumeChallenge, { tokenDigest, did })) !== undefined;
  }

  async sweep(): Promise<{ sessionsRemoved: number; challengesRemoved: number }> {
    const sessions = await all(this.pool, S.sweepSessions);
    const challenges = await all(this.pool, S.sweepChallenges);
    return { sessionsRemoved: sessions.length, challengesRemoved: challenges.length };
  }

  async setPlan(plan: NewPlan): Promise<Plan> {
    return toPlan((await one<Plan>(this.pool, S.upsertPlan, planValues(plan)))!);
  }

  async listPlans(): Promise<Plan[]> {
    return (await all<Plan>(this.pool, S.listPlans)).map(toPlan);
  }

  async subscribe(tenantId: string, planId: string): Promise<Subscription> {
    return inTransaction(this.pool, async (client) => {
      if ((await one(client, S.tenantExists, { tenantId })) === undefined) throw notFound('tenant');
      // FOR SHARE: the plan cannot be deactivated between this check and the subscription's commit.
      if ((await one(client, PLAN_FOR_SHARE, { planId })) === undefined) throw notFound('active plan');
      return (await one<Subscription>(client, S.upsertSubscription, { tenantId, planId }))!;
    });
  }

  async closePeriod(tenantId: string, period: string): Promise<{ invoice: Invoice; entries: LedgerEntry[] }> {
    const { start, end } = periodBounds(period);
    return inTransaction(this.pool, async (client) => {
      const subscription = await one<Subscription>(client, S.subscriptionOf, { tenantId });
      if (subscription === undefined) throw notFound('subscription of the tenant');
      const plan = toPlan((await one<Plan>(client, S.planOf, { planId: subscription.planId }))!);
      const requests = Number((await one<{ requests: string }>(client, S.tenantRequests, { tenantId, period }))!.requests);
      const charge = chargeOf(plan, period, requests);
      let invoice: Invoice;
      try {
        invoice = toInvoice(
          (await one<Invoice>(client, S.insertInvoice, { id: newInvoiceId(), tenantId, start, end, currency: plan.currency, total: charge.amount }))!,
        );
      } catch (error) {
        throw conflictOr(error, `the tenant's ${period} is closed already`);
      }
      const entry = toLedger(
        (await one<LedgerEntry>(client, S.insertLedger, {
          tenantId,
          invoiceId: invoice.id,
          kind: 'CHARGE',
          amount: charge.amount,
          description: charge.description,
        }))!,
      );
      return { invoice, entries: [entry] };
    });
  }

  async billingOf(tenantId: string): Promise<TenantBilling> {
    return inTransaction(this.pool, async (client) => {
      if ((await one(client, S.tenantExists, { tenantId })) === undefined) throw notFound('tenant');
      const subscription = (await one<Subscription>(client, S.subscriptionOf, { tenantId })) ?? null;
      const plan = subscription ? toPlan((await one<Plan>(client, S.planOf, { planId: subscription.planId }))!) : null;
      return {
        subscription,
        plan,
        invoices: (await all<Invoice>(client, S.invoicesOf, { tenantId })).map(toInvoice),
        ledger: (await all<LedgerEntry>(client, S.ledgerOf, { tenantId })).map(toLedger),
      };
    });
  }
}

const PLAN_FOR_SHARE = compile((d) => `${ACCOUNT_STATEMENTS.activePlan(d)} FOR SHARE`);
