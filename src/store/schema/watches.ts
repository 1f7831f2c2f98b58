/**
 * Watches and the baselines of their checks (docs/daemon.md#operator-monitoring) on both engines:
 * the scopes of operator rows and queued events, a watch with its two baselines as both engines
 * select it, and the row mappers and argument checks. The repositories: sqlite/watches.ts,
 * postgres/watches.ts; customer watches (schema/customer-monitor.ts) read their check input the
 * same way.
 */
import type { JsonObject } from '../../core/encoding/json.js';
import type { DomainBindingStatus } from '../../core/linkage/types.js';
import type { CheckOutcome, PlannedEvent, TlsState, Watch, WatchCheckInput } from '../../core/monitoring/store.js';
import type { DidDocument } from '../../core/resolve/types.js';

/** The rows of this repository: active operator watches. */
export const OPERATOR_ACTIVE = 'active = 1 AND project_id IS NULL';
export const QUEUED = `('PENDING', 'RETRY')`;
/**
 * Events of operator watches only: customer watches (with a project) have their own delivery
 * table and their own allowance, so their events neither count against the operator's event
 * capacity or gauges nor reach the operator's deliverer.
 */
export const OPERATOR_EVENT = 'watch_id IN (SELECT id FROM watches WHERE project_id IS NULL)';

/** A row as both engines return it: `active` is the 0/1 INTEGER of the schema. */
export type WatchRow = Omit<Watch, 'active'> & { active: number };

export function toWatch(row: WatchRow): Watch {
  return { ...row, active: row.active === 1 };
}

/** The Watch members as both engines select them (quoted aliases), with a table prefix (`w.`) or none; deliberately without `secret`. */
export const watchMembers = (t = ''): string =>
  `${t}id, ${t}kind, ${t}did, ${t}webhook_url AS "webhookUrl", ${t}interval_seconds AS "intervalSeconds", ${t}created_at AS "createdAt",
  ${t}last_hash AS "lastHash", ${t}last_status AS "lastStatus", ${t}last_checked_at AS "lastCheckedAt", ${t}active, ${t}revision,
  ${t}webhook_disabled_at AS "webhookDisabledAt", ${t}webhook_disabled_reason AS "webhookDisabledReason"`;

/** Ids are positive whole numbers; anything else names no row (and never reaches SQL). */
export function isRowId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1;
}

/**
 * A watch with its two baselines, as both engines select it (quoted aliases read alike on
 * SQLite and PostgreSQL): `p` the baseline of the watch's current revision (the last check),
 * `r` the newest one that resolved (RESOLVED or DEACTIVATED). Callers add `AND w.id …`.
 */
const baselineColumns = (t: 'p' | 'r'): string =>
  `${t}.status AS "${t}Status", ${t}.document_hash AS "${t}Hash", ${t}.fingerprint_profile AS "${t}Profile",
    ${t}.domain_binding_status AS "${t}Binding", ${t}.document AS "${t}Document", ${t}.problem AS "${t}Problem",
    ${t}.checked_at AS "${t}CheckedAt", ${t}.tls_leaf_sha256 AS "${t}TlsLeaf", ${t}.tls_not_after AS "${t}TlsNotAfter",
    ${t}.tls_announced_days AS "${t}TlsAnnounced"`;

/** The check inputs of the active watches in `scope` (operator: no project; customer: a project). */
export const checkInputOf = (scope: string): string => `
  SELECT ${watchMembers('w.')},
    ${baselineColumns('p')},
    ${baselineColumns('r')}
  FROM watches w
  LEFT JOIN monitor_baselines p ON p.watch_id = w.id AND p.revision = w.revision
  LEFT JOIN monitor_baselines r ON r.id = (
    SELECT b.id FROM monitor_baselines b
    WHERE b.watch_id = w.id AND b.status IN ('RESOLVED', 'DEACTIVATED')
    ORDER BY b.revision DESC LIMIT 1)
  WHERE w.active = 1 AND ${scope}`;

/** Active operator watches with their baselines. */
export const CHECK_INPUT = checkInputOf('w.project_id IS NULL');

type BaselineRow<T extends 'p' | 'r'> = Record<
  `${T}${'Status' | 'Hash' | 'Profile' | 'Binding' | 'Document' | 'Problem' | 'CheckedAt' | 'TlsLeaf' | 'TlsNotAfter'}`,
  string | null
> &
  Record<`${T}TlsAnnounced`, number | null>;

export type CheckInputRow = WatchRow & BaselineRow<'p'> & BaselineRow<'r'>;

function parsed(text: string | null): unknown {
  // The columns' CHECK (json_valid) holds what is stored to JSON; the checks only write objects.
  return text === null ? null : (JSON.parse(text) as unknown);
}

function baselineOf(row: CheckInputRow, t: 'p' | 'r'): CheckOutcome | null {
  const status = row[`${t}Status`];
  if (status === null) return null;
  return {
    status: status as CheckOutcome['status'],
    documentHash: row[`${t}Hash`],
    fingerprintProfile: row[`${t}Profile`],
    domainBindingStatus: row[`${t}Binding`] as DomainBindingStatus | null,
    document: parsed(row[`${t}Document`]) as DidDocument | null,
    problem: parsed(row[`${t}Problem`]) as JsonObject | null,
    checkedAt: row[`${t}CheckedAt`]!,
    tls: tlsOf(row[`${t}TlsLeaf`], row[`${t}TlsNotAfter`], row[`${t}TlsAnnounced`]),
  };
}

/** A baseline's certificate state from its three columns (null unless a leaf is stored). */
function tlsOf(leaf: string | null, notAfter: string | null, announced: number | null): TlsState | null {
  return leaf === null || notAfter === null ? null : { leafSha256: leaf, notAfter, announcedDays: announced === null ? null : Number(announced) };
}

export function toCheckInput(row: CheckInputRow): WatchCheckInput {
  const watch: Watch = {
    id: row.id,
    kind: row.kind,
    did: row.did,
    webhookUrl: row.webhookUrl,
    intervalSeconds: row.intervalSeconds,
    createdAt: row.createdAt,
    lastHash: row.lastHash,
    lastStatus: row.lastStatus,
    lastCheckedAt: row.lastCheckedAt,
    active: row.active === 1,
    revision: row.revision,
    webhookDisabledAt: row.webhookDisabledAt,
    webhookDisabledReason: row.webhookDisabledReason,
  };
  return { watch, previous: baselineOf(row, 'p'), lastResolved: baselineOf(row, 'r') };
}

/**
 * Each event's `data` as stored (JSON text), or undefined when one is over `maxBytes` bytes of
 * UTF-8 (written as "not within", so that a limit that is not a number refuses).
 */
export function serialisedData(events: readonly PlannedEvent[], maxBytes: number): string[] | undefined {
  const data = events.map((e) => JSON.stringify(e.data));
  return data.every((d) => Buffer.byteLength(d, 'utf8') <= maxBytes) ? data : undefined;
}

/** A revision a check can have read: a whole number from 0. */
export function isRevision(revision: number): boolean {
  return Number.isSafeInteger(revision) && revision >= 0;
}

/** The baseline's document and problem as stored (JSON text or NULL), and its certificate state (NULLs without one). */
export function storedOutcome(o: CheckOutcome): {
  document: string | null;
  problem: string | null;
  tlsLeaf: string | null;
  tlsNotAfter: string | null;
  tlsAnnounced: number | null;
} {
  return {
    document: o.document === null ? null : JSON.stringify(o.document),
    problem: o.problem === null ? null : JSON.stringify(o.problem),
    tlsLeaf: o.tls?.leafSha256 ?? null,
    tlsNotAfter: o.tls?.notAfter ?? null,
    tlsAnnounced: o.tls?.announcedDays ?? null,
  };
}
