/**
 * Proofs of control and the opt-in directory (docs/daemon.md#proofs-of-control-and-the-directory)
 * on both engines: the tables of schema v9. Every time that decides anything — a challenge's or a
 * claim's expiry, a re-check being due — is the database's clock in epoch milliseconds, read once
 * per call; times leave the store as RFC 3339 UTC text at second precision.
 *
 * Most statements are written once here, as functions of a Dialect (how a parameter is named,
 * what "now" is), and compiled by each engine (sqlite/claims.ts, postgres/claims.ts), which also
 * take the row mappers and argument checks from this module.
 */
import type { ClaimChallenge, DirectoryEntry, DirectoryPage, DirectoryQuery, NewProof, RecheckResult, StoredClaim } from '../../core/claims/store.js';
import { DIRECTORY_LIMIT, type ClaimMethod, type ClaimPurpose } from '../../core/claims/types.js';
import { MAX_SECONDS } from './monitor-events.js';
import { pendingGuard, pendingState } from './pending.js';

/** Epoch milliseconds as a driver hands them over: a number (SQLite), a string (PostgreSQL's BIGINT). */
export type Ms = number | string;

/**
 * How a statement shared by both engines names its parameters and the database's clock.
 * SQLite: `@name`, and `now` a parameter read once per call; PostgreSQL: `$n`, and `now` either
 * a clock read once per statement or a parameter carried through a transaction.
 */
export interface Dialect {
  p(name: string): string;
  /** Now, epoch milliseconds (BIGINT), the same instant wherever the statement uses it. */
  now: string;
  /** The RFC 3339 UTC text (second precision) of an epoch-milliseconds expression. */
  rfc3339(ms: string): string;
  /** Whether `needle` occurs in `haystack` (no pattern characters: a plain substring). */
  contains(haystack: string, needle: string): string;
  /** A JSON array of the DID's current claims, by method (DirectoryEntry.claims with *Ms numbers). */
  currentClaimsJson(did: string): string;
  /**
   * The directory's listings `e` through the engine's trigram index (schema v17) for a term of
   * at least TRIGRAM characters: `from` joins them, `where` keeps at least every listing whose
   * `search` contains the term (the plain test, kept beside it, is exact), `seq` is the listing's
   * seq as the index walks it, in order.
   */
  trigram: { from: string; where: string; seq: string };
}

/** The reason a newer proof gives the claim it replaces. */
export const SUPERSEDED = 'superseded by a newer proof';

/** A duration parameter in milliseconds, cast: PostgreSQL then adds BIGINTs (30 days in ms passes 32 bits). */
const ms = (d: Dialect, name: string): string => `CAST(${d.p(name)} AS BIGINT)`;

/** Why a claim lapses unchecked (the sweep's reasons, also given to an expired claim a newer proof replaces). */
const expiryReason = (d: Dialect, alias = ''): string =>
  `CASE ${alias}method WHEN 'signature' THEN 'expired' ELSE 'not re-checked successfully since ' || ${d.rfc3339(`${alias}checked_at_ms`)} END`;

/** Current on the database clock: not lapsed and not expired. */
export const current = (d: Dialect, alias: string): string => `${alias}.lapsed_at_ms IS NULL AND ${alias}.expires_at_ms > ${d.now}`;

export const CHALLENGE_COLUMNS = `token, did, method, purpose, created_at_ms AS "createdAtMs", expires_at_ms AS "expiresAtMs", attempts, used_at_ms AS "usedAtMs"`;

/** The StoredClaim members, aliased (quoted: read alike on both engines), of the table `alias`. */
export function claimColumns(alias: string): string {
  const a = `${alias}.`;
  return `${a}id, ${a}did, ${a}method, ${a}subject, ${a}token, ${a}verified_at_ms AS "verifiedAtMs", ${a}checked_at_ms AS "checkedAtMs",
    ${a}expires_at_ms AS "expiresAtMs", ${a}next_check_at_ms AS "nextCheckAtMs", ${a}check_failures AS "checkFailures",
    ${a}last_error AS "lastError", ${a}lapsed_at_ms AS "lapsedAtMs", ${a}lapse_reason AS "lapseReason"`;
}

export interface ChallengeRow {
  token: string;
  did: string;
  method: ClaimMethod;
  purpose: ClaimPurpose;
  createdAtMs: Ms;
  expiresAtMs: Ms;
  attempts: number;
  usedAtMs: Ms | null;
}

export interface ClaimRow {
  id: number;
  did: string;
  method: ClaimMethod;
  subject: string;
  token: string;
  verifiedAtMs: Ms;
  checkedAtMs: Ms;
  expiresAtMs: Ms;
  nextCheckAtMs: Ms | null;
  checkFailures: number;
  lastError: string | null;
  lapsedAtMs: Ms | null;
  lapseReason: string | null;
}

/** A directory row: the listing and its DID's current claims as JSON (text on SQLite, parsed by pg). */
export interface EntryRow {
  seq: number;
  did: string;
  didMethod: string;
  listedAtMs: Ms;
  claims: string | Array<{ method: ClaimMethod; verifiedAtMs: number; expiresAtMs: number }>;
}

/** RFC 3339 UTC at second precision (milliseconds truncated). */
export function rfc3339(ms: Ms): string {
  return new Date(Number(ms)).toISOString().slice(0, 19) + 'Z';
}

const rfc3339OrNull = (ms: Ms | null): string | null => (ms === null ? null : rfc3339(ms));

export function toChallenge(row: ChallengeRow): ClaimChallenge {
  return {
    token: row.token,
    did: row.did,
    method: row.method,
    purpose: row.purpose,
    createdAt: rfc3339(row.createdAtMs),
    expiresAt: rfc3339(row.expiresAtMs),
    attempts: row.attempts,
    usedAt: rfc3339OrNull(row.usedAtMs),
  };
}

export function toClaim(row: ClaimRow): StoredClaim {
  return {
    id: row.id,
    did: row.did,
    method: row.method,
    subject: row.subject,
    token: row.token,
    verifiedAt: rfc3339(row.verifiedAtMs),
    checkedAt: rfc3339(row.checkedAtMs),
    expiresAt: rfc3339(row.expiresAtMs),
    nextCheckAt: rfc3339OrNull(row.nextCheckAtMs),
    checkFailures: row.checkFailures,
    lastError: row.lastError,
    lapsedAt: rfc3339OrNull(row.lapsedAtMs),
    lapseReason: row.lapseReason,
  };
}

export function toEntry(row: EntryRow): DirectoryEntry {
  const claims = typeof row.claims === 'string' ? (JSON.parse(row.claims) as Exclude<EntryRow['claims'], string>) : row.claims;
  return {
    seq: row.seq,
    did: row.did,
    didMethod: row.didMethod,
    listedAt: rfc3339(row.listedAtMs),
    claims: claims.map((c) => ({ method: c.method, verifiedAt: rfc3339(c.verifiedAtMs), expiresAt: rfc3339(c.expiresAtMs) })),
  };
}

/**
 * Why a challenge of the right DID refused an attempt, read after the refusal: used, expired on
 * the database clock at `nowMs`, or else out of attempts. Each condition only ever becomes true,
 * so a read after the refusal still finds a reason that held at it.
 */
export function refusalOf(row: ChallengeRow, nowMs: Ms): 'used' | 'expired' | 'exhausted' {
  if (row.usedAtMs !== null) return 'used';
  if (Number(row.expiresAtMs) <= Number(nowMs)) return 'expired';
  return 'exhausted';
}

/** A duration of whole seconds from 1 (else RangeError), in milliseconds. */
export function secondsMs(name: string, seconds: number): number {
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_SECONDS)
    throw new RangeError(`${name} must be a whole number of seconds from 1, not ${seconds}`);
  return seconds * 1000;
}

/** A count of whole attempts from 1 (else RangeError). */
export function attemptsOf(maxAttempts: number): number {
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > MAX_SECONDS)
    throw new RangeError(`maxAttempts must be a whole number from 1, not ${maxAttempts}`);
  return maxAttempts;
}

/** What last_error keeps of a re-check that could not reach the proof: one line, at most 300 characters. */
export function errorLine(error: string): string {
  const line = error.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** The DID method's name: `did:web:x` → `web`. */
export function didMethodOf(did: string): string {
  return did.split(':', 3)[1] ?? '';
}

/** A proof's durations in milliseconds, checked (RangeError). */
export function proofArguments(proof: NewProof): { lifetimeMs: number; recheckMs: number | null } {
  return {
    lifetimeMs: secondsMs('lifetimeSeconds', proof.lifetimeSeconds),
    recheckMs: proof.recheckSeconds === null ? null : secondsMs('recheckSeconds', proof.recheckSeconds),
  };
}

/** A re-check's columns, checked (RangeError). */
export function recheckArguments(result: RecheckResult): Record<string, unknown> {
  switch (result.kind) {
    case 'held':
      return { lifetimeMs: secondsMs('lifetimeSeconds', result.lifetimeSeconds), recheckMs: secondsMs('recheckSeconds', result.recheckSeconds) };
    case 'unreachable':
      return { error: errorLine(result.error), retryMs: secondsMs('retrySeconds', result.retrySeconds) };
    case 'lapsed':
      return { reason: result.reason };
  }
}

/** The most listings one directory page holds. */
export const DIRECTORY_MAX = DIRECTORY_LIMIT.max;

export interface DirectoryShape {
  after: boolean;
  didMethod: boolean;
  q: boolean;
  /** The text is searched through the trigram index (q of at least TRIGRAM characters). */
  indexed: boolean;
  /** The walk ends at seq `upTo` (SQLite: the stretch scanned before the index is asked). */
  upTo?: boolean;
}

/** The fewest characters (code points) a trigram index can look up: shorter terms are scanned for. */
export const TRIGRAM = 3;

/**
 * Whether a (lower-cased) term is looked up in the trigram index: three characters or more, and
 * no NUL (FTS5's query syntax would end the phrase there; no DID holds one).
 */
export function trigramTerm(q: string | null): q is string {
  return q !== null && !q.includes('\0') && [...q].length >= TRIGRAM;
}

/**
 * A directory query, checked (limit 1..50, a cursor of a whole number from 0: else RangeError),
 * with the values its statement binds. The free text is lower-cased here, as `search` is the DID
 * in lower case: the comparison is the same on both engines, whatever their lower().
 */
export function directoryArguments(query: DirectoryQuery): { shape: DirectoryShape; values: Record<string, unknown> } {
  const { limit, after } = query;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > DIRECTORY_MAX)
    throw new RangeError(`limit must be a whole number from 1 to ${DIRECTORY_MAX}, not ${limit}`);
  if (after !== null && (!Number.isSafeInteger(after) || after < 0)) throw new RangeError(`after must be a whole number from 0, not ${after}`);
  const q = query.q?.toLowerCase() ?? null;
  const indexed = trigramTerm(q);
  return {
    shape: { after: after !== null, didMethod: query.didMethod !== null, q: q !== null, indexed },
    // One row over the limit: whether it comes back says whether there is more. `match` is the
    // term as one FTS5 phrase (quotes doubled), `like` as a LIKE pattern (\, % and _ escaped).
    values: {
      after,
      didMethod: query.didMethod,
      q,
      limit: limit + 1,
      ...(indexed ? { match: `"${q.replaceAll('"', '""')}"`, like: `%${q.replace(/[\\%_]/g, '\\$&')}%` } : {}),
    },
  };
}

/**
 * One page of listings, with one row more than asked when there is more. The page walks the
 * listings in seq order (the primary key, or (did_method, seq) with a method) and stops at the
 * limit: the text filter and the bound claim's currency are checked row by row on the way, so
 * a query that matches often reads little. The claims of the page's DIDs are read by the same
 * statement (one snapshot): a listing is never shown without the current claim behind it.
 */
export function directorySql(d: Dialect, shape: DirectoryShape): string {
  const indexed = shape.q && shape.indexed;
  const seq = indexed ? d.trigram.seq : 'e.seq';
  const where = [
    ...(indexed ? [d.trigram.where] : []),
    ...(shape.after ? [`${seq} > ${d.p('after')}`] : []),
    ...(shape.upTo ? [`${seq} <= ${d.p('upTo')}`] : []),
    ...(shape.didMethod ? [`e.did_method = ${d.p('didMethod')}`] : []),
    ...(shape.q ? [d.contains('e.search', d.p('q'))] : []),
    `EXISTS (SELECT 1 FROM claims c WHERE c.id = e.claim_id AND ${current(d, 'c')})`,
  ];
  return `
    SELECT p.seq, p.did, p.did_method AS "didMethod", p.listed_at_ms AS "listedAtMs", ${d.currentClaimsJson('p.did')} AS claims
    FROM (
      SELECT e.seq, e.did, e.did_method, e.listed_at_ms
      FROM ${indexed ? d.trigram.from : 'directory_entries e'}
      WHERE ${where.join('\n        AND ')}
      ORDER BY ${seq}
      LIMIT ${d.p('limit')}
    ) p
    ORDER BY p.seq`;
}

/** The statements both engines run as they are (compiled per dialect). */
export const STATEMENTS = {
  /** Inserts the challenge only while every share of the pool has room (schema/pending.ts). */
  createChallenge: (d: Dialect) => `
    INSERT INTO claim_challenges (token, did, method, purpose, created_at_ms, expires_at_ms, client)
    SELECT CAST(${d.p('token')} AS TEXT), CAST(${d.p('did')} AS TEXT), CAST(${d.p('method')} AS TEXT), CAST(${d.p('purpose')} AS TEXT),
      ${d.now}, ${d.now} + ${ms(d, 'ttlMs')}, CAST(${d.p('client')} AS TEXT)
    ${pendingGuard(d, 'claim_challenges')}
    RETURNING ${CHALLENGE_COLUMNS}`,
  /** Which share refused a challenge, and until when (read after a refusal, in its transaction). */
  pendingState: (d: Dialect) => pendingState(d, 'claim_challenges'),
  /** Counts an attempt, only while the challenge can still be used. */
  attempt: (d: Dialect) => `
    UPDATE claim_challenges SET attempts = attempts + 1
    WHERE token = ${d.p('token')} AND did = ${d.p('did')} AND used_at_ms IS NULL AND expires_at_ms > ${d.now}
      AND attempts < CAST(${d.p('max')} AS INTEGER)
    RETURNING ${CHALLENGE_COLUMNS}`,
  /** The challenge as it is now (why an attempt or a proof was refused). */
  challengeState: (d: Dialect) => `
    SELECT ${CHALLENGE_COLUMNS}, ${d.now} AS "nowMs" FROM claim_challenges WHERE token = ${d.p('token')}`,
  /** Marks the challenge used, only while unused and unexpired; what the proof needs back. */
  useChallenge: (d: Dialect) => `
    UPDATE claim_challenges SET used_at_ms = ${d.now}
    WHERE token = ${d.p('token')} AND used_at_ms IS NULL AND expires_at_ms > ${d.now}
    RETURNING did, method, purpose, ${d.now} AS "nowMs"`,
  /**
   * Lapses the DID's unlapsed claim of the method: superseded while current; one that expired
   * unswept lapses as the sweep would have lapsed it.
   */
  lapseCurrent: (d: Dialect) => `
    UPDATE claims SET lapsed_at_ms = ${d.now},
      lapse_reason = CASE WHEN expires_at_ms > ${d.now} THEN '${SUPERSEDED}' ELSE ${expiryReason(d)} END
    WHERE did = ${d.p('did')} AND method = ${d.p('method')} AND lapsed_at_ms IS NULL
    RETURNING id, CASE WHEN expires_at_ms > ${d.now} THEN 1 ELSE 0 END AS "wasCurrent"`,
  insertClaim: (d: Dialect) => `
    INSERT INTO claims (did, method, subject, token, verified_at_ms, checked_at_ms, expires_at_ms, next_check_at_ms)
    VALUES (${d.p('did')}, ${d.p('method')}, ${d.p('subject')}, ${d.p('token')}, ${d.now}, ${d.now}, ${d.now} + ${ms(d, 'lifetimeMs')},
      ${d.now} + ${ms(d, 'recheckMs')})
    RETURNING ${claimColumns('claims')}`,
  moveListing: (d: Dialect) => `UPDATE directory_entries SET claim_id = ${d.p('to')} WHERE claim_id = ${d.p('from')}`,
  /**
   * The DID's listing when the claim it is bound to is no longer current (expired, not yet
   * swept): it went with that claim, so a later proof neither revives it nor keeps its place.
   */
  dropStaleListing: (d: Dialect) => `
    DELETE FROM directory_entries
    WHERE did = ${d.p('did')} AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.id = directory_entries.claim_id AND ${current(d, 'c')})`,
  /** Lists the DID behind the claim: a new seq when absent, the same seq (and listedAt) rebound when present. */
  list: (d: Dialect) => `
    INSERT INTO directory_entries (did, did_method, search, claim_id, listed_at_ms)
    VALUES (${d.p('did')}, ${d.p('didMethod')}, ${d.p('search')}, ${d.p('claimId')}, ${d.now})
    ON CONFLICT (did) DO UPDATE SET claim_id = excluded.claim_id`,
  unlist: (d: Dialect) => `DELETE FROM directory_entries WHERE did = ${d.p('did')}`,
  listed: (d: Dialect) => `
    SELECT CASE WHEN EXISTS (SELECT 1 FROM directory_entries e JOIN claims c ON c.id = e.claim_id WHERE e.did = ${d.p('did')} AND ${current(d, 'c')})
      THEN 1 ELSE 0 END AS listed`,
  get: (d: Dialect) => `SELECT ${claimColumns('claims')} FROM claims WHERE id = ${d.p('id')}`,
  /**
   * The DID's claims, current ones and the latest `pastLimit` others, newest first, with whether
   * a listing bound to a current claim exists: one statement, one snapshot. No claim, no row —
   * and no listing either (a listing needs a current claim).
   */
  forDid: (d: Dialect) => `
    SELECT ${claimColumns('k')}, k.is_current AS "isCurrent",
      CASE WHEN EXISTS (SELECT 1 FROM directory_entries e JOIN claims c ON c.id = e.claim_id WHERE e.did = ${d.p('did')} AND ${current(d, 'c')})
        THEN 1 ELSE 0 END AS listed
    FROM (
      SELECT c.*, CASE WHEN ${current(d, 'c')} THEN 1 ELSE 0 END AS is_current,
        row_number() OVER (PARTITION BY CASE WHEN ${current(d, 'c')} THEN 1 ELSE 0 END ORDER BY c.verified_at_ms DESC, c.id DESC) AS n
      FROM claims c WHERE c.did = ${d.p('did')}
    ) k
    WHERE k.is_current = 1 OR k.n <= CAST(${d.p('pastLimit')} AS INTEGER)
    ORDER BY k.verified_at_ms DESC, k.id DESC`,
  held: (d: Dialect) => `
    UPDATE claims SET checked_at_ms = ${d.now}, expires_at_ms = ${d.now} + ${ms(d, 'lifetimeMs')}, next_check_at_ms = ${d.now} + ${ms(d, 'recheckMs')},
      check_failures = 0, last_error = NULL
    WHERE id = ${d.p('id')} AND lapsed_at_ms IS NULL`,
  unreachable: (d: Dialect) => `
    UPDATE claims SET check_failures = check_failures + 1, last_error = ${d.p('error')}, next_check_at_ms = ${d.now} + ${ms(d, 'retryMs')}
    WHERE id = ${d.p('id')} AND lapsed_at_ms IS NULL`,
  /** Lapses the claim on a definitive re-check; the caller removes its listing in the same transaction. */
  lapse: (d: Dialect) => `
    UPDATE claims SET lapsed_at_ms = ${d.now}, lapse_reason = ${d.p('reason')}
    WHERE id = ${d.p('id')} AND lapsed_at_ms IS NULL
    RETURNING id`,
  /** Expired current claims lapse (the sweep); the caller removes their listings. */
  lapseExpired: (d: Dialect, alias = '') => `lapsed_at_ms = ${d.now}, lapse_reason = ${expiryReason(d, alias)}`,
  /** Challenges expired more than a day ago (the sweep deletes them). */
  longExpired: (d: Dialect) => `expires_at_ms < ${d.now} - 86400000`,
} as const;

/** A row of STATEMENTS.forDid: the claim, whether it is current, whether the DID is listed (0/1). */
export type ForDidRow = ClaimRow & { isCurrent: number; listed: number };

export function claimsOfDid(rows: ForDidRow[]): { current: StoredClaim[]; past: StoredClaim[]; listed: boolean } {
  return {
    current: rows.filter((r) => r.isCurrent === 1).map(toClaim),
    past: rows.filter((r) => r.isCurrent !== 1).map(toClaim),
    listed: rows.some((r) => r.listed === 1),
  };
}

/** The page from rows fetched with a limit one over what was asked: that extra row means more. */
export function pageOf(rows: EntryRow[], fetched: number): DirectoryPage {
  const more = rows.length >= fetched;
  return { entries: (more ? rows.slice(0, fetched - 1) : rows).map(toEntry), more };
}
