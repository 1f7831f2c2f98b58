/**
 * Owner accounts (docs/daemon.md#commercial-mode) on both engines: tenants, projects and api_keys
 * and usage_counters of schema v4, tenant_owners, owner_sessions and sign_in_challenges of v10.
 *
 * The statements are written once here, as functions of an AccountDialect (how a parameter is
 * named, what "now" is, the row locks of the ownership check), and compiled by each engine
 * (sqlite/accounts.ts, postgres/accounts.ts), which also take the argument checks and row mappers
 * from this module. "Now" is always the database's clock (SQLite: read once per call;
 * PostgreSQL: once per statement). Every owner action re-checks, in the transaction of its write,
 * that the acting subject owns the project: on SQLite an IMMEDIATE transaction (the write lock is
 * held from the check to the commit, so a removal of the owner commits wholly before or wholly
 * after it); on PostgreSQL the check locks the subject's tenant_owners row FOR SHARE (a removal
 * waits for the action, or the action, re-reading the row, finds it gone) and the project row FOR
 * NO KEY UPDATE (the key caps are counted by one issuer at a time).
 */
import { randomBytes } from 'node:crypto';
import {
  PROJECT_KEY_LIMITS,
  type ApiKeyMetadata,
  type ApiKeyStatus,
  type Invoice,
  type LedgerEntry,
  type NewApiKey,
  type NewOwnerSession,
  type NewPlan,
  type NewSignInChallenge,
  type OwnerSession,
  type Plan,
  type UsageRow,
} from '../../core/accounts/store.js';
import type { PendingLimits, PendingRefusal } from '../../core/pending.js';
import { rfc3339, secondsMs, type Ms } from './claims.js';
import { ChallengeCapacityError, KeyCapacityError, StoreError } from './errors.js';
import { pendingGuard, pendingState, pendingValues } from './pending.js';

export interface AccountDialect {
  p(name: string): string;
  /** Now, epoch milliseconds (BIGINT). */
  readonly now: string;
  /** The RFC 3339 UTC text (second precision) of an epoch-milliseconds expression. */
  rfc3339(ms: string): string;
  /** The smaller of two numbers. */
  least(a: string, b: string): string;
  /** The row locks the ownership check takes (aliases p: projects, o: tenant_owners). */
  readonly ownedLock: string;
}

/** A duration parameter in milliseconds, cast (PostgreSQL then adds BIGINTs). */
const ms = (d: AccountDialect, name: string): string => `CAST(${d.p(name)} AS BIGINT)`;
/** How long expired sessions and challenges are kept before the sweep deletes them. */
const KEEP_MS = 86_400_000;
/** lastUsedAt is stamped at most this often per key. */
const STAMP_MS = 60_000;

const TENANT = `id, name, owner_subject AS "ownerSubject", created_at AS "createdAt"`;
const projectColumns = (a: string) => `${a}id, ${a}tenant_id AS "tenantId", ${a}name, ${a}created_at AS "createdAt"`;
const KEY = `id, project_id AS "projectId", prefix, label, status, created_at AS "createdAt", last_used_at AS "lastUsedAt",
  revoked_at AS "revokedAt", replaces_key_id AS "replacesKeyId"`;
const PLAN = `id, name, currency, monthly_price_minor AS "monthlyPriceMinor", included_requests AS "includedRequests", active, created_at AS "createdAt"`;
const SUBSCRIPTION = `tenant_id AS "tenantId", plan_id AS "planId", started_at AS "startedAt"`;
const INVOICE = `id, tenant_id AS "tenantId", period_start AS "periodStart", period_end AS "periodEnd", currency, total_minor AS "totalMinor", status, created_at AS "createdAt"`;
const LEDGER = `id, tenant_id AS "tenantId", invoice_id AS "invoiceId", kind, amount_minor AS "amountMinor", description, created_at AS "createdAt"`;
const SESSION = `subject, created_at_ms AS "createdAtMs", expires_at_ms AS "expiresAtMs", absolute_expires_at_ms AS "absoluteExpiresAtMs"`;

/** The statements both engines run as they are (compiled per dialect). */
export const ACCOUNT_STATEMENTS = {
  insertTenant: (d: AccountDialect) => `
    INSERT INTO tenants (id, name, owner_subject, created_at) VALUES (${d.p('id')}, ${d.p('name')}, ${d.p('owner')}, ${d.rfc3339(d.now)})
    RETURNING ${TENANT}`,
  listTenants: () => `SELECT ${TENANT} FROM tenants ORDER BY created_at, id`,
  tenantExists: (d: AccountDialect) => `SELECT id FROM tenants WHERE id = ${d.p('tenantId')}`,
  /** Attaches an owner; no row when already one. */
  attachOwner: (d: AccountDialect) => `
    INSERT INTO tenant_owners (tenant_id, subject, added_at) VALUES (${d.p('tenantId')}, ${d.p('subject')}, ${d.rfc3339(d.now)})
    ON CONFLICT (tenant_id, subject) DO NOTHING RETURNING subject`,
  removeOwner: (d: AccountDialect) => `DELETE FROM tenant_owners WHERE tenant_id = ${d.p('tenantId')} AND subject = ${d.p('subject')} RETURNING subject`,
  ownersOf: (d: AccountDialect) => `SELECT subject FROM tenant_owners WHERE tenant_id = ${d.p('tenantId')} ORDER BY added_at, subject`,
  insertProject: (d: AccountDialect) => `
    INSERT INTO projects (id, tenant_id, name, created_at) VALUES (${d.p('id')}, ${d.p('tenantId')}, ${d.p('name')}, ${d.rfc3339(d.now)})
    RETURNING ${projectColumns('')}`,
  getProject: (d: AccountDialect) => `SELECT ${projectColumns('')} FROM projects WHERE id = ${d.p('projectId')}`,
  listProjects: () => `SELECT ${projectColumns('')} FROM projects ORDER BY created_at, id`,
  projectsOwnedBy: (d: AccountDialect) => `
    SELECT ${projectColumns('p.')} FROM projects p JOIN tenant_owners o ON o.tenant_id = p.tenant_id
    WHERE o.subject = ${d.p('subject')} ORDER BY p.created_at, p.id`,
  /** One row when the subject owns the project, taking the dialect's locks. */
  owned: (d: AccountDialect) => `
    SELECT p.tenant_id AS "tenantId" FROM projects p JOIN tenant_owners o ON o.tenant_id = p.tenant_id
    WHERE p.id = ${d.p('projectId')} AND o.subject = ${d.p('subject')} ${d.ownedLock}`,
  keyCounts: (d: AccountDialect) => `
    SELECT CAST(count(CASE WHEN status = 'ACTIVE' THEN 1 END) AS INTEGER) AS active, CAST(count(*) AS INTEGER) AS retained
    FROM api_keys WHERE project_id = ${d.p('projectId')}`,
  insertKey: (d: AccountDialect) => `
    INSERT INTO api_keys (id, project_id, key_hash, prefix, label, status, created_at, replaces_key_id)
    VALUES (${d.p('id')}, ${d.p('projectId')}, ${d.p('keyHash')}, ${d.p('prefix')}, ${d.p('label')}, 'ACTIVE', ${d.rfc3339(d.now)}, ${d.p('replaces')})
    RETURNING ${KEY}`,
  listKeys: (d: AccountDialect) => `SELECT ${KEY} FROM api_keys WHERE project_id = ${d.p('projectId')} ORDER BY created_at DESC, id DESC`,
  getKey: (d: AccountDialect) => `SELECT ${KEY} FROM api_keys WHERE id = ${d.p('keyId')} AND project_id = ${d.p('projectId')}`,
  /** ACTIVE → `status` (REVOKED or ROTATED), only while ACTIVE. */
  retire: (d: AccountDialect) => `
    UPDATE api_keys SET status = ${d.p('status')}, revoked_at = ${d.rfc3339(d.now)}
    WHERE id = ${d.p('keyId')} AND project_id = ${d.p('projectId')} AND status = 'ACTIVE'
    RETURNING ${KEY}`,
  /** No clock in it: the lookup of every keyed request is one indexed read (the stamp below decides on the database clock). */
  authenticate: (d: AccountDialect) => `
    SELECT k.id AS "keyId", k.project_id AS "projectId", p.tenant_id AS "tenantId", k.last_used_at AS "lastUsedAt"
    FROM api_keys k JOIN projects p ON p.id = k.project_id
    WHERE k.key_hash = ${d.p('keyHash')} AND k.status = 'ACTIVE'`,
  stamp: (d: AccountDialect) => `
    UPDATE api_keys SET last_used_at = ${d.rfc3339(d.now)}
    WHERE id = ${d.p('keyId')} AND status = 'ACTIVE' AND (last_used_at IS NULL OR last_used_at < ${d.rfc3339(`${d.now} - ${STAMP_MS}`)})
    RETURNING id`,
  countUsage: (d: AccountDialect) => `
    INSERT INTO usage_counters (project_id, metric, period, count) VALUES (${d.p('projectId')}, ${d.p('metric')}, ${d.p('period')}, ${d.p('by')})
    ON CONFLICT (project_id, metric, period) DO UPDATE SET count = usage_counters.count + excluded.count
    RETURNING count`,
  usageOf: (d: AccountDialect) => `
    SELECT project_id AS "projectId", metric, period, count FROM usage_counters
    WHERE project_id = ${d.p('projectId')} AND (CAST(${d.p('period')} AS TEXT) IS NULL OR period = ${d.p('period')})
    ORDER BY period, metric`,
  createSession: (d: AccountDialect) => `
    INSERT INTO owner_sessions (id_digest, subject, created_at_ms, last_seen_at_ms, idle_ms, expires_at_ms, absolute_expires_at_ms)
    VALUES (${d.p('idDigest')}, ${d.p('subject')}, ${d.now}, ${d.now}, ${ms(d, 'idleMs')}, ${d.least(`${d.now} + ${ms(d, 'idleMs')}`, `${d.now} + ${ms(d, 'absoluteMs')}`)},
      ${d.now} + ${ms(d, 'absoluteMs')})
    RETURNING ${SESSION}`,
  /** A live session's idle expiry moved to now + idle, never past the absolute expiry. */
  touchSession: (d: AccountDialect) => `
    UPDATE owner_sessions SET last_seen_at_ms = ${d.now}, expires_at_ms = ${d.least(`${d.now} + idle_ms`, 'absolute_expires_at_ms')}
    WHERE id_digest = ${d.p('idDigest')} AND revoked_at_ms IS NULL AND expires_at_ms > ${d.now} AND absolute_expires_at_ms > ${d.now}
    RETURNING ${SESSION}`,
  revokeSession: (d: AccountDialect) => `
    UPDATE owner_sessions SET revoked_at_ms = ${d.now} WHERE id_digest = ${d.p('idDigest')} AND revoked_at_ms IS NULL AND expires_at_ms > ${d.now}
    RETURNING subject`,
  revokeSessionsOf: (d: AccountDialect) => `
    UPDATE owner_sessions SET revoked_at_ms = ${d.now} WHERE subject = ${d.p('subject')} AND revoked_at_ms IS NULL
    RETURNING subject`,
  /** Inserts the challenge only while every share of the pool has room (schema/pending.ts). */
  createChallenge: (d: AccountDialect) => `
    INSERT INTO sign_in_challenges (token_digest, did, created_at_ms, expires_at_ms, client)
    SELECT CAST(${d.p('tokenDigest')} AS TEXT), CAST(${d.p('did')} AS TEXT), ${d.now}, ${d.now} + ${ms(d, 'ttlMs')}, CAST(${d.p('client')} AS TEXT)
    ${pendingGuard(d, 'sign_in_challenges')}
    RETURNING expires_at_ms AS "expiresAtMs"`,
  /** Which share refused a challenge, and until when (read after a refusal, in its transaction). */
  pendingChallenges: (d: AccountDialect) => pendingState(d, 'sign_in_challenges'),
  consumeChallenge: (d: AccountDialect) => `
    UPDATE sign_in_challenges SET used_at_ms = ${d.now}
    WHERE token_digest = ${d.p('tokenDigest')} AND did = ${d.p('did')} AND used_at_ms IS NULL AND expires_at_ms > ${d.now}
    RETURNING did`,
  sweepSessions: (d: AccountDialect) => `
    DELETE FROM owner_sessions
    WHERE expires_at_ms < ${d.now} - ${KEEP_MS} OR (revoked_at_ms IS NOT NULL AND revoked_at_ms < ${d.now} - ${KEEP_MS})
    RETURNING subject`,
  sweepChallenges: (d: AccountDialect) => `DELETE FROM sign_in_challenges WHERE expires_at_ms < ${d.now} - ${KEEP_MS} RETURNING did`,
  upsertPlan: (d: AccountDialect) => `
    INSERT INTO plans (id, name, currency, monthly_price_minor, included_requests, active, created_at)
    VALUES (${d.p('id')}, ${d.p('name')}, ${d.p('currency')}, ${d.p('price')}, ${d.p('included')}, ${d.p('active')}, ${d.rfc3339(d.now)})
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, currency = excluded.currency, monthly_price_minor = excluded.monthly_price_minor,
      included_requests = excluded.included_requests, active = excluded.active
    RETURNING ${PLAN}`,
  listPlans: () => `SELECT ${PLAN} FROM plans ORDER BY id`,
  activePlan: (d: AccountDialect) => `SELECT ${PLAN} FROM plans WHERE id = ${d.p('planId')} AND active = 1`,
  upsertSubscription: (d: AccountDialect) => `
    INSERT INTO subscriptions (tenant_id, plan_id, started_at) VALUES (${d.p('tenantId')}, ${d.p('planId')}, ${d.rfc3339(d.now)})
    ON CONFLICT (tenant_id) DO UPDATE SET plan_id = excluded.plan_id, started_at = excluded.started_at
    RETURNING ${SUBSCRIPTION}`,
  subscriptionOf: (d: AccountDialect) => `SELECT ${SUBSCRIPTION} FROM subscriptions WHERE tenant_id = ${d.p('tenantId')}`,
  planOf: (d: AccountDialect) => `SELECT ${PLAN} FROM plans WHERE id = ${d.p('planId')}`,
  tenantRequests: (d: AccountDialect) => `
    SELECT CAST(COALESCE(SUM(u.count), 0) AS BIGINT) AS requests FROM usage_counters u JOIN projects p ON p.id = u.project_id
    WHERE p.tenant_id = ${d.p('tenantId')} AND u.metric = 'requests' AND u.period = ${d.p('period')}`,
  insertInvoice: (d: AccountDialect) => `
    INSERT INTO invoices (id, tenant_id, period_start, period_end, currency, total_minor, status, created_at)
    VALUES (${d.p('id')}, ${d.p('tenantId')}, ${d.p('start')}, ${d.p('end')}, ${d.p('currency')}, ${d.p('total')}, 'OPEN', ${d.rfc3339(d.now)})
    RETURNING ${INVOICE}`,
  insertLedger: (d: AccountDialect) => `
    INSERT INTO ledger_entries (tenant_id, invoice_id, kind, amount_minor, description, created_at)
    VALUES (${d.p('tenantId')}, ${d.p('invoiceId')}, ${d.p('kind')}, ${d.p('amount')}, ${d.p('description')}, ${d.rfc3339(d.now)})
    RETURNING ${LEDGER}`,
  invoicesOf: (d: AccountDialect) => `SELECT ${INVOICE} FROM invoices WHERE tenant_id = ${d.p('tenantId')} ORDER BY period_start, id`,
  ledgerOf: (d: AccountDialect) => `SELECT ${LEDGER} FROM ledger_entries WHERE tenant_id = ${d.p('tenantId')} ORDER BY id`,
} as const;

// --- Argument checks and row mappers, shared by both engines ---

export const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** A non-empty string of at most `max` characters (else RangeError). */
export function text(name: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) throw new RangeError(`${name} must be a string of 1 to ${max} characters`);
  return value;
}

/** A digest given by the core (key hash, session id or token digest): 64 lower-case hex digits. */
export function digest(name: string, value: unknown): string {
  if (typeof value !== 'string' || !HEX_DIGEST.test(value)) throw new RangeError(`${name} must be 64 lower-case hex digits (a SHA-256 digest)`);
  return value;
}

/** The values of a new key's insert, checked. */
export function keyValues(projectId: string, key: NewApiKey, replaces: string | null): Record<string, unknown> {
  const label = key.label ?? null;
  if (label !== null) text('label', label, 100);
  return { id: text('id', key.id, 100), projectId, keyHash: digest('keyHash', key.keyHash), prefix: text('prefix', key.prefix, 16), label, replaces };
}

export function usageBy(by: number): number {
  if (!Number.isSafeInteger(by) || by < 1 || by > 2 ** 31 - 1) throw new RangeError(`by must be a whole number from 1, not ${by}`);
  return by;
}

/** A random id: the prefix and 16 random bytes in base64url. */
export function newId(prefix: 'ten' | 'prj'): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

export function notOwner(): StoreError {
  return new StoreError('NOT_OWNER', 'the subject does not own the project');
}

export function notFound(what: string): StoreError {
  return new StoreError('NOT_FOUND', `no such ${what}`);
}

/** Throws the cap reached, if any: the active cap first. */
export function checkKeyCapacity(counts: { active: number | string; retained: number | string }, rotation: boolean): void {
  if (!rotation && Number(counts.active) >= PROJECT_KEY_LIMITS.active) throw new KeyCapacityError('active', PROJECT_KEY_LIMITS.active);
  if (Number(counts.retained) >= PROJECT_KEY_LIMITS.retained) throw new KeyCapacityError('retained', PROJECT_KEY_LIMITS.retained);
}

/** Whether a failure is a uniqueness violation (SQLite's constraint codes, PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A uniqueness violation as CONFLICT; anything else as it is. */
export function conflictOr(error: unknown, message: string): unknown {
  return isUniqueViolation(error) ? new StoreError('CONFLICT', message) : error;
}

export interface SessionRow {
  subject: string;
  createdAtMs: Ms;
  expiresAtMs: Ms;
  absoluteExpiresAtMs: Ms;
}

export function toSession(row: SessionRow): OwnerSession {
  return {
    subject: row.subject,
    createdAt: rfc3339(row.createdAtMs),
    expiresAt: rfc3339(row.expiresAtMs),
    absoluteExpiresAt: rfc3339(row.absoluteExpiresAtMs),
  };
}

/** A key row as metadata: the members listed, and only those (never the digest). */
export function toKey(row: ApiKeyMetadata): ApiKeyMetadata {
  return {
    id: row.id,
    projectId: row.projectId,
    prefix: row.prefix,
    label: row.label,
    status: row.status as ApiKeyStatus,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    replacesKeyId: row.replacesKeyId,
  };
}

export function toUsage(row: UsageRow): UsageRow {
  return { projectId: row.projectId, metric: row.metric, period: row.period, count: Number(row.count) };
}

export function sessionValues(session: NewOwnerSession): Record<string, unknown> {
  return {
    idDigest: digest('idDigest', session.idDigest),
    subject: text('subject', session.subject, 2048),
    idleMs: secondsMs('idleSeconds', session.idleSeconds),
    absoluteMs: secondsMs('absoluteSeconds', session.absoluteSeconds),
  };
}

/**
 * Whether a key's lastUsedAt may be a minute old: a hint on this process's clock that spares the
 * write; the stamp itself (UPDATE … WHERE last_used_at < now − 60 s) decides on the database's.
 */
export function stampDue(lastUsedAt: string | null): boolean {
  return lastUsedAt === null || Date.parse(lastUsedAt) < Date.now() - STAMP_MS;
}

/** A sign-in challenge's checked values, with its shares' (schema/pending.ts). */
export function signInChallengeValues(challenge: NewSignInChallenge, limits: PendingLimits): Record<string, unknown> {
  return {
    tokenDigest: digest('tokenDigest', challenge.tokenDigest),
    ttlMs: secondsMs('ttlSeconds', challenge.ttlSeconds),
    ...pendingValues(limits, text('client', challenge.client, 2048), text('did', challenge.did, 2048)),
  };
}

export function challengesFull(refusal: PendingRefusal): ChallengeCapacityError {
  return new ChallengeCapacityError(refusal);
}

// --- Mock billing: argument checks, row mappers and the closing of a month, shared by both engines ---

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** The one month whose end has no stored form. */
const LAST_MONTH = '9999-12';
const CURRENCY = /^[A-Z]{3}$/;

/** The checked values of a plan's upsert. */
export function planValues(plan: NewPlan): Record<string, unknown> {
  if (typeof plan.currency !== 'string' || !CURRENCY.test(plan.currency)) throw new RangeError('currency must be three upper-case letters (ISO 4217)');
  for (const [name, value] of [
    ['monthlyPriceMinor', plan.monthlyPriceMinor],
    ['includedRequests', plan.includedRequests],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0 || value > 2 ** 31 - 1) throw new RangeError(`${name} must be a whole number from 0`);
  }
  return {
    id: text('id', plan.id, 64),
    name: text('name', plan.name, 100),
    currency: plan.currency,
    price: plan.monthlyPriceMinor,
    included: plan.includedRequests,
    active: plan.active === false ? 0 : 1,
  };
}

/**
 * `YYYY-MM` → the month's first instant and the next month's, RFC 3339 UTC (four-digit years: the
 * stored text sorts as time does). 0000-01 to 9999-11: the end of 9999-12 would be year 10000,
 * outside the instants svc stores (core/storable.ts).
 */
export function periodBounds(period: string): { start: string; end: string } {
  const match = typeof period === 'string' ? PERIOD.exec(period) : null;
  if (!match || period === LAST_MONTH) throw new RangeError('period must be a month, YYYY-MM, from 0000-01 to 9999-11');
  const year = Number(match[1]);
  const month = Number(match[2]);
  const next = month === 12 ? `${String(year + 1).padStart(4, '0')}-01` : `${match[1]}-${String(month + 1).padStart(2, '0')}`;
  return { start: `${period}-01T00:00:00Z`, end: `${next}-01T00:00:00Z` };
}

export function toPlan(row: Plan & { active: unknown }): Plan {
  return { ...row, monthlyPriceMinor: Number(row.monthlyPriceMinor), includedRequests: Number(row.includedRequests), active: Number(row.active) === 1 };
}

export function toInvoice(row: Invoice): Invoice {
  return { ...row, totalMinor: Number(row.totalMinor) };
}

export function toLedger(row: LedgerEntry): LedgerEntry {
  return { ...row, id: Number(row.id), amountMinor: Number(row.amountMinor) };
}

/** The CHARGE of a closed month: the plan's price; the description states the usage against what the plan includes. */
export function chargeOf(plan: Plan, period: string, requests: number): { amount: number; description: string } {
  const over = requests - plan.includedRequests;
  const usage = `${requests} keyed request${requests === 1 ? '' : 's'} of ${plan.includedRequests} included`;
  const overage = over > 0 ? `; ${over} over, not charged (the plan sets no overage price)` : '';
  return { amount: plan.monthlyPriceMinor, description: `Plan ${plan.name} (${plan.id}) for ${period}: ${usage}${overage}` };
}

export function newInvoiceId(): string {
  return `inv_${randomBytes(16).toString('base64url')}`;
}
