/**
 * Owner accounts over SQLite: the statements of
 * schema/accounts.ts compiled with `@name` parameters, "now" read once per call. Every owner
 * action re-checks ownership inside an IMMEDIATE transaction: the write lock is held from the
 * check to the commit, so a removal of the owner commits wholly before or wholly after it.
 */
import type Database from 'better-sqlite3';
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
  chargeOf,
  checkKeyCapacity,
  conflictOr,
  HEX_DIGEST,
  keyValues,
  newId,
  newInvoiceId,
  notFound,
  notOwner,
  periodBounds,
  planValues,
  sessionValues,
  signInChallengeValues,
  stampDue,
  text,
  toInvoice,
  toKey,
  toLedger,
  toPlan,
  toSession,
  toUsage,
  usageBy,
  type AccountDialect,
  type SessionRow,
} from '../schema/accounts.js';
import { rfc3339, type Ms } from '../schema/claims.js';
import { pendingRefusal, type PendingStateRow } from '../schema/pending.js';

/** Active keys the SQLite store keeps read between commits (past it, it starts again). */
const KEY_CACHE_LIMIT = 10_000;

/** SQLite: every parameter is `@name`; now is `@now`, read once per call; no row locks (the write lock). */
export const SQLITE: AccountDialect = {
  p: (name) => `@${name}`,
  now: '@now',
  rfc3339: (ms) => `strftime('%Y-%m-%dT%H:%M:%SZ', (${ms}) / 1000, 'unixepoch')`,
  least: (a, b) => `min(${a}, ${b})`,
  ownedLock: '',
};

type Values = Record<string, unknown>;

export class SqliteAccountStore implements AccountStore {
  readonly #run: <R>(statement: keyof typeof ACCOUNT_STATEMENTS, values?: Values) => { get(): R | undefined; all(): R[] };
  /** `work` in one transaction (IMMEDIATE unless a read), given one reading of the clock. */
  readonly #write: <T>(work: (now: number) => T, mode?: 'immediate' | 'deferred') => T;
  /** SQLite's data_version: it changes when another connection (another daemon, the CLI) commits. */
  readonly #dataVersion: () => number;
  /**
   * Active keys read since the last commit anywhere: a keyed request is then one pragma and a Map
   * lookup. Emptied by every write of this store (a revocation here) and whenever data_version
   * moves (a write by any other connection), so a revoked key is never served from it.
   */
  readonly #keys = new Map<string, { principal: KeyPrincipal; lastUsedAt: string | null }>();
  #keysVersion = -1;

  constructor(db: Database.Database) {
    const version = db.prepare('PRAGMA data_version').pluck() as Database.Statement<[], number>;
    this.#dataVersion = () => version.get()!;
    const clock = db.prepare(`SELECT CAST(unixepoch('subsec') * 1000 AS INTEGER)`).pluck() as Database.Statement<[], number>;
    const prepared = new Map<string, Database.Statement<[Values]>>();
    // The clock is read (one more statement) only for the statements that use it.
    const usesClock = new Set(
      Object.keys(ACCOUNT_STATEMENTS).filter((name) => ACCOUNT_STATEMENTS[name as keyof typeof ACCOUNT_STATEMENTS](SQLITE).includes('@now')),
    );
    let at: number | null = null;
    this.#run = <R>(name: keyof typeof ACCOUNT_STATEMENTS, values: Values = {}) => {
      let statement = prepared.get(name);
      if (statement === undefined) {
        statement = db.prepare(ACCOUNT_STATEMENTS[name](SQLITE)) as Database.Statement<[Values]>;
        prepared.set(name, statement);
      }
      const bound = usesClock.has(name) ? { ...values, now: at ?? clock.get()! } : values;
      const s = statement;
      return { get: () => s.get(bound) as R | undefined, all: () => s.all(bound) as R[] };
    };
    // IMMEDIATE: what a call checks (ownership, caps, limits) and what it writes hold the write
    // lock together, so no other connection or process writes in between.
    const tx = db.transaction((work: (now: number) => unknown) => {
      at = clock.get()!;
      try {
        return work(at);
      } finally {
        at = null;
      }
    });
    this.#write = <T>(work: (now: number) => T, mode: 'immediate' | 'deferred' = 'immediate'): T => {
      this.#keys.clear();
      return tx[mode](work) as T;
    };
  }

  #owned(subject: string, projectId: string): void {
    if (this.#run('owned', { subject, projectId }).get() === undefined) throw notOwner();
  }

  async createTenant(tenant: { name: string; owner: string }): Promise<Tenant> {
    const name = text('name', tenant.name, 100);
    const owner = text('owner', tenant.owner, 2048);
    return this.#write(() => {
      const row = this.#run<Tenant>('insertTenant', { id: newId('ten'), name, owner }).get()!;
      this.#run('attachOwner', { tenantId: row.id, subject: owner }).get();
      return row;
    });
  }

  async listTenants(): Promise<Tenant[]> {
    return this.#run<Tenant>('listTenants').all();
  }

  async createProject(tenantId: string, project: { name: string }): Promise<Project> {
    const name = text('name', project.name, 100);
    return this.#write(() => {
      if (this.#run('tenantExists', { tenantId }).get() === undefined) throw notFound('tenant');
      try {
        return this.#run<Project>('insertProject', { id: newId('prj'), tenantId, name }).get()!;
      } catch (error) {
        throw conflictOr(error, 'the tenant already has a project of that name');
      }
    });
  }

  async getProject(projectId: string): Promise<Project | undefined> {
    return this.#run<Project>('getProject', { projectId }).get();
  }

  async listProjects(): Promise<Project[]> {
    return this.#run<Project>('listProjects').all();
  }

  async listProjectsOwnedBy(subject: string): Promise<Project[]> {
    return this.#run<Project>('projectsOwnedBy', { subject }).all();
  }

  async ownersOf(tenantId: string): Promise<string[]> {
    return this.#run<{ subject: string }>('ownersOf', { tenantId })
      .all()
      .map((r) => r.subject);
  }

  async attachOwner(tenantId: string, subject: string): Promise<boolean> {
    text('subject', subject, 2048);
    return this.#write(() => {
      if (this.#run('tenantExists', { tenantId }).get() === undefined) throw notFound('tenant');
      return this.#run('attachOwner', { tenantId, subject }).get() !== undefined;
    });
  }

  async removeOwner(tenantId: string, subject: string): Promise<boolean> {
    return this.#write(() => this.#run('removeOwner', { tenantId, subject }).get() !== undefined);
  }

  async ownsProject(subject: string, projectId: string): Promise<boolean> {
    return this.#run('owned', { subject, projectId }).get() !== undefined;
  }

  async listKeys(subject: string, projectId: string): Promise<ApiKeyMetadata[]> {
    // DEFERRED: one read transaction, the check and the list from one snapshot.
    return this.#write(() => {
      this.#owned(subject, projectId);
      return this.#run<ApiKeyMetadata>('listKeys', { projectId }).all().map(toKey);
    }, 'deferred');
  }

  async issueKey(subject: string, projectId: string, key: NewApiKey): Promise<ApiKeyMetadata> {
    const values = keyValues(projectId, key, null);
    return this.#write(() => {
      this.#owned(subject, projectId);
      checkKeyCapacity(this.#run<{ active: number; retained: number }>('keyCounts', { projectId }).get()!, false);
      try {
        return toKey(this.#run<ApiKeyMetadata>('insertKey', values).get()!);
      } catch (error) {
        throw conflictOr(error, 'a key of that id or digest exists');
      }
    });
  }

  async revokeKey(subject: string, projectId: string, keyId: string): Promise<ApiKeyMetadata> {
    return this.#write(() => {
      this.#owned(subject, projectId);
      const revoked = this.#run<ApiKeyMetadata>('retire', { keyId, projectId, status: 'REVOKED' }).get();
      if (revoked !== undefined) return toKey(revoked);
      const found = this.#run<ApiKeyMetadata>('getKey', { keyId, projectId }).get();
      if (found === undefined) throw notFound('key');
      return toKey(found);
    });
  }

  async rotateKey(subject: string, projectId: string, oldKeyId: string, newKey: NewApiKey): Promise<{ rotated: ApiKeyMetadata; issued: ApiKeyMetadata }> {
    const values = keyValues(projectId, newKey, oldKeyId);
    return this.#write(() => {
      this.#owned(subject, projectId);
      checkKeyCapacity(this.#run<{ active: number; retained: number }>('keyCounts', { projectId }).get()!, true);
      const rotated = this.#run<ApiKeyMetadata>('retire', { keyId: oldKeyId, projectId, status: 'ROTATED' }).get();
      if (rotated === undefined) throw notFound('active key');
      try {
        return { rotated: toKey(rotated), issued: toKey(this.#run<ApiKeyMetadata>('insertKey', values).get()!) };
      } catch (error) {
        throw conflictOr(error, 'a key of that id or digest exists');
      }
    });
  }

  async authenticateKey(keyHash: string): Promise<KeyPrincipal | null> {
    if (typeof keyHash !== 'string' || !HEX_DIGEST.test(keyHash)) return null;
    const version = this.#dataVersion();
    if (version !== this.#keysVersion) {
      this.#keys.clear();
      this.#keysVersion = version;
    }
    let known = this.#keys.get(keyHash);
    if (known === undefined) {
      const row = this.#run<KeyPrincipal & { lastUsedAt: string | null }>('authenticate', { keyHash }).get();
      // Unknown digests are not remembered (they would be anyone's to fill the map with).
      if (row === undefined) return null;
      known = { principal: { keyId: row.keyId, projectId: row.projectId, tenantId: row.tenantId }, lastUsedAt: row.lastUsedAt };
      if (this.#keys.size >= KEY_CACHE_LIMIT) this.#keys.clear();
      this.#keys.set(keyHash, known);
    }
    const principal = { ...known.principal };
    // A write only when the stamp is a minute old: keyed reads do not take the write lock each time.
    if (stampDue(known.lastUsedAt)) this.#write(() => this.#run('stamp', { keyId: principal.keyId }).get());
    return principal;
  }

  async countUsage(projectId: string, metric: string, period: string, by = 1): Promise<number> {
    const values = { projectId, metric: text('metric', metric, 64), period: text('period', period, 64), by: usageBy(by) };
    return this.#write(() => Number(this.#run<{ count: number }>('countUsage', values).get()!.count));
  }

  async usageOf(projectId: string, period?: string): Promise<UsageRow[]> {
    return this.#run<UsageRow>('usageOf', { projectId, period: period ?? null })
      .all()
      .map(toUsage);
  }

  async createSession(session: NewOwnerSession): Promise<OwnerSession> {
    const values = sessionValues(session);
    return this.#write(() => {
      try {
        return toSession(this.#run<SessionRow>('createSession', values).get()!);
      } catch (error) {
        throw conflictOr(error, 'a session of that digest exists');
      }
    });
  }

  async touchSession(idDigest: string): Promise<OwnerSession | null> {
    if (typeof idDigest !== 'string' || !HEX_DIGEST.test(idDigest)) return null;
    const row = this.#write(() => this.#run<SessionRow>('touchSession', { idDigest }).get());
    return row === undefined ? null : toSession(row);
  }

  async revokeSession(idDigest: string): Promise<boolean> {
    return this.#write(() => this.#run('revokeSession', { idDigest }).get() !== undefined);
  }

  async revokeSessionsOf(subject: string): Promise<number> {
    return this.#write(() => this.#run('revokeSessionsOf', { subject }).all().length);
  }

  async createSignInChallenge(challenge: NewSignInChallenge, limits: PendingLimits = SIGN_IN_PENDING_LIMITS): Promise<{ expiresAt: string }> {
    const values = signInChallengeValues(challenge, limits);
    const row = this.#write(() => {
      let created: { expiresAtMs: Ms } | undefined;
      try {
        created = this.#run<{ expiresAtMs: Ms }>('createChallenge', values).get();
      } catch (error) {
        throw conflictOr(error, 'a challenge of that digest exists');
      }
      if (created === undefined) throw challengesFull(pendingRefusal(this.#run<PendingStateRow>('pendingChallenges', values).get()!, limits));
      return created;
    });
    return { expiresAt: rfc3339(row.expiresAtMs) };
  }

  async consumeSignInChallenge(tokenDigest: string, did: string): Promise<boolean> {
    return this.#write(() => this.#run('consumeChallenge', { tokenDigest, did }).get() !== undefined);
  }

  async sweep(): Promise<{ sessionsRemoved: number; challengesRemoved: number }> {
    return this.#write(() => ({
      sessionsRemoved: this.#run('sweepSessions').all().length,
      challengesRemoved: this.#run('sweepChallenges').all().length,
    }));
  }

  async setPlan(plan: NewPlan): Promise<Plan> {
    const values = planValues(plan);
    return toPlan(this.#write(() => this.#run<Plan>('upsertPlan', values).get()!));
  }

  async listPlans(): Promise<Plan[]> {
    return this.#run<Plan>('listPlans').all().map(toPlan);
  }

  async subscribe(tenantId: string, planId: string): Promise<Subscription> {
    return this.#write(() => {
      if (this.#run('tenantExists', { tenantId }).get() === undefined) throw notFound('tenant');
      if (this.#run('activePlan', { planId }).get() === undefined) throw notFound('active plan');
      return this.#run<Subscription>('upsertSubscription', { tenantId, planId }).get()!;
    });
  }

  async closePeriod(tenantId: string, period: string): Promise<{ invoice: Invoice; entries: LedgerEntry[] }> {
    const { start, end } = periodBounds(period);
    return this.#write(() => {
      const subscription = this.#run<Subscription>('subscriptionOf', { tenantId }).get();
      if (subscription === undefined) throw notFound('subscription of the tenant');
      const plan = toPlan(this.#run<Plan>('planOf', { planId: subscription.planId }).get()!);
      const requests = Number(this.#run<{ requests: number }>('tenantRequests', { tenantId, period }).get()!.requests);
      const charge = chargeOf(plan, period, requests);
      let invoice: Invoice;
      try {
        invoice = toInvoice(
          this.#run<Invoice>('insertInvoice', { id: newInvoiceId(), tenantId, start, end, currency: plan.currency, total: charge.amount }).get()!,
        );
      } catch (error) {
        throw conflictOr(error, `the tenant's ${period} is closed already`);
      }
      const entry = toLedger(
        this.#run<LedgerEntry>('insertLedger', {
          tenantId,
          invoiceId: invoice.id,
          kind: 'CHARGE',
          amount: charge.amount,
          description: charge.description,
        }).get()!,
      );
      return { invoice, entries: [entry] };
    });
  }

  async billingOf(tenantId: string): Promise<TenantBilling> {
    return this.#write(() => {
      if (this.#run('tenantExists', { tenantId }).get() === undefined) throw notFound('tenant');
      const subscription = this.#run<Subscription>('subscriptionOf', { tenantId }).get() ?? null;
      const plan = subscription ? toPlan(this.#run<Plan>('planOf', { planId: subscription.planId }).get()!) : null;
      return {
        subscription,
        plan,
        invoices: this.#run<Invoice>('invoicesOf', { tenantId }).all().map(toInvoice),
        ledger: this.#run<LedgerEntry>('ledgerOf', { tenantId }).all().map(toLedger),
      };
    }, 'deferred');
  }
}
