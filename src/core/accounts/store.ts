/**
 * The storage contract of owner accounts, implemented on both engines in src/store
 * (sqlite/accounts.ts, postgres/accounts.ts); the rules every store method keeps are
 * core/runtime-store.ts's.
 */
import type { PendingLimits } from '../pending.js';

/**
 * Owner accounts (docs/daemon.md#commercial-mode): tenants and their projects, the subjects (DIDs)
 * that own them, project API keys, usage counters, owner sessions and sign-in challenges.
 *
 * Every time that decides anything is the database's clock. Times leave the store as RFC 3339
 * UTC text at second precision. Typed failures are StoreError (src/store/schema/errors.ts) with the
 * codes NOT_FOUND (no such tenant, project or key), NOT_OWNER (the acting subject does not own
 * the project, judged inside the transaction of the write), CONFLICT (a name, id or key digest
 * already taken), KEY_CAPACITY (a KeyCapacityError naming the cap: `active` or `retained`) and
 * CHALLENGE_CAPACITY (too many outstanding sign-in challenges). An argument out of range (an
 * empty name, a digest that is not 64 lower-case hex digits…) is a RangeError.
 * Plans, subscriptions, invoices and the ledger (schema v5) have no repository yet.
 */
export interface Tenant {
  /** `ten_` + 16 random bytes, base64url. */
  id: string;
  name: string;
  /** The founding owner (kept as founded; who owns the tenant now is tenant_owners). */
  ownerSubject: string;
  createdAt: string;
}

export interface Project {
  /** `prj_` + 16 random bytes, base64url. */
  id: string;
  tenantId: string;
  name: string;
  createdAt: string;
}

/** ACTIVE keys authenticate; ROTATED (replaced by a rotation) and REVOKED never again. */
export type ApiKeyStatus = 'ACTIVE' | 'ROTATED' | 'REVOKED';

/** A key the core generated: the store sees only its digest, never the secret. */
export interface NewApiKey {
  /** The key's public id (the core's choice, e.g. `key_…`), 1..100 characters. */
  id: string;
  /** SHA-256 of the secret, 64 lower-case hex digits (unique across all keys). */
  keyHash: string;
  /** The first visible characters of the secret (1..16), for telling keys apart. */
  prefix: string;
  /** A label of the owner's choice (at most 100 characters). */
  label?: string | null;
}

/** What an owner may see of a key: never its digest, never its secret. */
export interface ApiKeyMetadata {
  id: string;
  projectId: string;
  prefix: string;
  label: string | null;
  status: ApiKeyStatus;
  createdAt: string;
  lastUsedAt: string | null;
  /** When it stopped authenticating (revoked or rotated); null while ACTIVE. */
  revokedAt: string | null;
  /** The key this one replaced by a rotation. */
  replacesKeyId: string | null;
}

/** Who a keyed request acts for. */
export interface KeyPrincipal {
  keyId: string;
  projectId: string;
  tenantId: string;
}

export interface UsageRow {
  projectId: string;
  metric: string;
  period: string;
  count: number;
}

/** A mock-billing plan (schema v5): a monthly price in minor units and the requests it includes. */
export interface Plan {
  id: string;
  name: string;
  /** ISO 4217, three letters. */
  currency: string;
  monthlyPriceMinor: number;
  includedRequests: number;
  active: boolean;
  createdAt: string;
}

export type NewPlan = Omit<Plan, 'createdAt' | 'active'> & { active?: boolean };

export interface Subscription {
  tenantId: string;
  planId: string;
  startedAt: string;
}

export interface Invoice {
  id: string;
  tenantId: string;
  /** The month, `YYYY-MM-01T00:00:00Z` to the first of the next. */
  periodStart: string;
  periodEnd: string;
  currency: string;
  totalMinor: number;
  /** OPEN: what would be charged; no payment provider is involved, nothing is ever PAID here. */
  status: 'DRAFT' | 'OPEN' | 'PAID' | 'VOID';
  createdAt: string;
}

export interface LedgerEntry {
  id: number;
  tenantId: string;
  invoiceId: string | null;
  kind: 'CHARGE' | 'CREDIT' | 'PAYMENT' | 'ADJUSTMENT';
  amountMinor: number;
  description: string;
  createdAt: string;
}

export interface TenantBilling {
  subscription: Subscription | null;
  plan: Plan | null;
  /** Oldest first. */
  invoices: Invoice[];
  /** Oldest first. */
  ledger: LedgerEntry[];
}

export interface NewOwnerSession {
  /** A digest of the random session id (the id itself stays in the cookie only). */
  idDigest: string;
  subject: string;
  /** Idle lifetime: each touch moves the expiry to now + idleSeconds, never past the absolute expiry. */
  idleSeconds: number;
  /** Absolute lifetime from creation. */
  absoluteSeconds: number;
}

export interface OwnerSession {
  subject: string;
  createdAt: string;
  /** The idle expiry (never after absoluteExpiresAt). */
  expiresAt: string;
  absoluteExpiresAt: string;
}

export interface NewSignInChallenge {
  /** A digest of the random challenge token. */
  tokenDigest: string;
  /** The DID expected to answer it. */
  did: string;
  ttlSeconds: number;
  /** Who asked (the gateway request's clientKey): the challenge counts against that client's share. */
  client: string;
}

/** Project keys per project: at most 10 active and 100 retained. */
export const PROJECT_KEY_LIMITS = { active: 10, retained: 100 } as const;
/** Outstanding (unused, unexpired) sign-in challenges, all subjects together. */
export const SIGN_IN_CHALLENGE_LIMIT = 10_000;
/**
 * The shares of the sign-in pool by default (SVC_SIGN_IN_PENDING_PER_CLIENT, _PER_DID): a
 * sign-in needs one challenge, answered within its 300 s, so 10 per client and 3 per DID leave
 * room for retries and several owners behind one address.
 */
export const SIGN_IN_PENDING_LIMITS: Readonly<PendingLimits> = { total: SIGN_IN_CHALLENGE_LIMIT, perClient: 10, perDid: 3 };

export interface AccountStore {
  // --- Tenants and projects (operator operations) ---
  /** A new tenant; `owner` is attached as its first owner in the same transaction. */
  createTenant(tenant: { name: string; owner: string }): Promise<Tenant>;
  /** Every tenant, oldest first. */
  listTenants(): Promise<Tenant[]>;
  /** A new project of the tenant. NOT_FOUND: no such tenant; CONFLICT: the tenant has a project of that name. */
  createProject(tenantId: string, project: { name: string }): Promise<Project>;
  getProject(projectId: string): Promise<Project | undefined>;
  /** Every project of every tenant, oldest first (the operator's listing). */
  listProjects(): Promise<Project[]>;
  /** The projects of every tenant `subject` owns, oldest first. */
  listProjectsOwnedBy(subject: string): Promise<Project[]>;
  /**
   * Whether `subject` owns the project (false for a project that does not exist): the check an
   * owner action makes before any work of its own — a DNS lookup, an egress check — so that a
   * caller who owns nothing learns nothing and costs nothing. Actions still re-check ownership
   * inside their own transaction.
   */
  ownsProject(subject: string, projectId: string): Promise<boolean>;

  // --- Owners ---
  /** The tenant's owners, by when they were attached (to the second), then by subject. */
  ownersOf(tenantId: string): Promise<string[]>;
  /** Attaches an owner: true when added, false when already an owner (idempotent). NOT_FOUND: no such tenant. */
  attachOwner(tenantId: string, subject: string): Promise<boolean>;
  /**
   * Detaches an owner: true when removed, false when not an owner. Waits for owner actions of the
   * subject in flight (they hold its ownership row); any action that commits after it fails
   * NOT_OWNER. Removing the last owner is allowed (the operator re-attaches one).
   */
  removeOwner(tenantId: string, subject: string): Promise<boolean>;

  // --- Project keys (owner actions: each checks ownership in its own transaction) ---
  /** The project's keys, newest first, metadata only. NOT_OWNER when `subject` does not own the project (or it does not exist). */
  listKeys(subject: string, projectId: string): Promise<ApiKeyMetadata[]>;
  /**
   * Issues a key: ACTIVE keys of the project < 10 and rows of any status < 100, else
   * KeyCapacityError naming the cap (the active one is checked first). CONFLICT: id or digest taken.
   */
  issueKey(subject: string, projectId: string, key: NewApiKey): Promise<ApiKeyMetadata>;
  /**
   * ACTIVE → REVOKED. Idempotent: a key already REVOKED or ROTATED is returned as it is.
   * NOT_FOUND: the project has no key of that id.
   */
  revokeKey(subject: string, projectId: string, keyId: string): Promise<ApiKeyMetadata>;
  /**
   * Atomic rotation: the old key ACTIVE → ROTATED and the new one ACTIVE with replacesKeyId, or
   * nothing at all (any failure leaves the old key ACTIVE). The retained cap counts the new row.
   * NOT_FOUND: the project has no ACTIVE key of that id.
   */
  rotateKey(subject: string, projectId: string, oldKeyId: string, newKey: NewApiKey): Promise<{ rotated: ApiKeyMetadata; issued: ApiKeyMetadata }>;

  // --- Keyed requests ---
  /** The ACTIVE key of that digest, else null; stamps lastUsedAt (at most once a minute per key). */
  authenticateKey(keyHash: string): Promise<KeyPrincipal | null>;
  /** Adds `by` (a whole number from 1) to the counter and returns its new value. One upsert. */
  countUsage(projectId: string, metric: string, period: string, by?: number): Promise<number>;
  /** The project's counters (of one period, or all), by period then metric. */
  usageOf(projectId: string, period?: string): Promise<UsageRow[]>;

  // --- Owner sessions (the cookie gateway) ---
  /** CONFLICT: the digest is taken. */
  createSession(session: NewOwnerSession): Promise<OwnerSession>;
  /** The session, its idle expiry moved on; null when unknown, revoked, idle-expired or absolute-expired. */
  touchSession(idDigest: string): Promise<OwnerSession | null>;
  /** True when a live session was revoked. */
  revokeSession(idDigest: string): Promise<boolean>;
  /** Revokes every unrevoked session of the subject; how many. */
  revokeSessionsOf(subject: string): Promise<number>;

  // --- Sign-in challenges ---
  /**
   * Stores a challenge unless a share of `limits` (default SIGN_IN_PENDING_LIMITS) is used up —
   * the pool, the client's, or the DID's while the client holds one of them — else a
   * ChallengeCapacityError (CHALLENGE_CAPACITY) naming the share; returns its expiry. Counted and
   * inserted in one statement, as claim challenges are. CONFLICT: the digest is taken.
   */
  createSignInChallenge(challenge: NewSignInChallenge, limits?: PendingLimits): Promise<{ expiresAt: string }>;
  /** True exactly once, for the DID it was made for, while unexpired (one of concurrent consumers wins). */
  consumeSignInChallenge(tokenDigest: string, did: string): Promise<boolean>;

  /** Deletes sessions and challenges expired (or revoked) more than a day ago. */
  sweep(): Promise<{ sessionsRemoved: number; challengesRemoved: number }>;

  // --- Mock billing (schema v5; no payment provider: what would be charged, recorded) ---
  /** Creates or replaces a plan (by id). */
  setPlan(plan: NewPlan): Promise<Plan>;
  /** Every plan, by id. */
  listPlans(): Promise<Plan[]>;
  /** Subscribes the tenant to an active plan (replacing its subscription). NOT_FOUND: no such tenant or active plan. */
  subscribe(tenantId: string, planId: string): Promise<Subscription>;
  /**
   * Closes a month (`YYYY-MM`) for the tenant, in one transaction: an OPEN invoice of the plan's
   * monthly price and its CHARGE ledger entry, whose description states the month's keyed
   * requests (usage metric `requests` of every project of the tenant) against the plan's
   * included ones. NOT_FOUND: the tenant has no subscription; CONFLICT: that month is closed.
   */
  closePeriod(tenantId: string, period: string): Promise<{ invoice: Invoice; entries: LedgerEntry[] }>;
  /** The tenant's subscription, plan, invoices and ledger. NOT_FOUND: no such tenant. */
  billingOf(tenantId: string): Promise<TenantBilling>;
}
