/**
 * Proofs of control and the opt-in directory over PostgreSQL, shared by every
 * daemon on the database: the statements of schema/claims.ts compiled for PostgreSQL, its row
 * mappers and argument checks. "Now" is the database's clock_timestamp() in epoch milliseconds,
 * read once per statement (a MATERIALIZED CTE: clock_timestamp() is volatile), or once per
 * transaction and carried as a parameter where several statements must agree on it.
 */
import type pg from 'pg';
import type {
  ChallengeAttempt,
  ClaimChallenge,
  ClaimStore,
  DirectoryPage,
  DirectoryQuery,
  NewClaimChallenge,
  NewProof,
  RecheckResult,
  RecordedProof,
  StoredClaim,
} from '../../core/claims/store.js';
import type { ClaimMethod, ClaimPurpose } from '../../core/claims/types.js';
import type { PendingLimits, PendingRefusal } from '../../core/pending.js';
import {
  attemptsOf,
  claimColumns,
  claimsOfDid,
  didMethodOf,
  directoryArguments,
  directorySql,
  pageOf,
  proofArguments,
  recheckArguments,
  refusalOf,
  secondsMs,
  STATEMENTS,
  toChallenge,
  toClaim,
  type ChallengeRow,
  type ClaimRow,
  type Dialect,
  type DirectoryShape,
  type EntryRow,
  type ForDidRow,
  type Ms,
} from '../schema/claims.js';
import { MAX_SECONDS } from '../schema/monitor-events.js';
import { pendingRefusal, pendingValues, type PendingStateRow } from '../schema/pending.js';
import { limitOf } from '../schema/observations.js';
import { CLOCK, inLockedTransaction, LOCK_CLASS, numberedParameters, type Compiled } from './sql.js';
import { isPgRowId } from './watches.js';

/**
 * Compiles a shared statement: `clock` reads now once in the statement (a CTE in front, so the
 * statement must not begin with WITH itself); `param` takes it as the parameter `now` (a
 * transaction's one instant).
 */
function compile(build: (d: Dialect) => string, clock: 'clock' | 'param'): Compiled {
  const { p, values } = numberedParameters();
  const dialect: Dialect = {
    p,
    // A getter: the parameter `now` is numbered only if the statement uses it.
    get now() {
      return clock === 'clock' ? '(SELECT now FROM clock)' : `CAST(${p('now')} AS BIGINT)`;
    },
    rfc3339: (ms) => `to_char(to_timestamp((${ms}) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    // strpos() finds a plain substring: no pattern characters to escape.
    contains: (haystack, needle) => `strpos(${haystack}, ${needle}) > 0`,
    // LIKE is what pg_trgm's GIN index (schema v17) serves; without the index it is a scan, as before.
    // A getter, as `now`: the parameter `like` is numbered only if the statement uses it.
    get trigram() {
      return { from: 'directory_entries e', where: `e.search LIKE ${p('like')}`, seq: 'e.seq' };
    },
    currentClaimsJson: (did) => `(
      SELECT coalesce(json_agg(json_build_object('method', k.method, 'verifiedAtMs', k.verified_at_ms, 'expiresAtMs', k.expires_at_ms) ORDER BY k.method), '[]')
      FROM claims k WHERE k.did = ${did} AND k.lapsed_at_ms IS NULL AND k.expires_at_ms > ${dialect.now})`,
  };
  const body = build(dialect);
  return { text: clock === 'clock' ? `${CLOCK} ${body}` : body, values };
}

const CREATE = compile(STATEMENTS.createChallenge, 'clock');
const PENDING = compile(STATEMENTS.pendingState, 'clock');
const ATTEMPT = compile(STATEMENTS.attempt, 'clock');
const STATE = compile(STATEMENTS.challengeState, 'clock');
const USE = compile(STATEMENTS.useChallenge, 'clock');
const LAPSE_CURRENT = compile(STATEMENTS.lapseCurrent, 'param');
const INSERT_CLAIM = compile(STATEMENTS.insertClaim, 'param');
const MOVE_LISTING = compile(STATEMENTS.moveListing, 'param');
const DROP_STALE = compile(STATEMENTS.dropStaleListing, 'param');
const LIST = compile(STATEMENTS.list, 'param');
const UNLIST = compile(STATEMENTS.unlist, 'param');
const LISTED = compile(STATEMENTS.listed, 'param');
const GET = compile(STATEMENTS.get, 'param');
const FOR_DID = compile(STATEMENTS.forDid, 'clock');
const HELD = compile(STATEMENTS.held, 'clock');
const UNREACHABLE = compile(STATEMENTS.unreachable, 'clock');

/** A definitive re-check: the claim lapses (only while not lapsed) and its listing goes, in one statement. */
const LAPSE = compile(
  (d) => `,
  lapsed AS (${STATEMENTS.lapse(d)}),
  unlisted AS (DELETE FROM directory_entries WHERE claim_id IN (SELECT id FROM lapsed))
  SELECT count(*)::int AS n FROM lapsed`,
  'clock',
);

/**
 * Claims due re-checks: current, due on the database clock, oldest due first. FOR UPDATE SKIP
 * LOCKED: a claim another checker (or a proof, a re-check being recorded) holds is skipped, not
 * waited for; one leased and committed since this statement's snapshot is re-read by PostgreSQL
 * and, no longer due, left out. RETURNING keeps no order: `dueMs` gives it back.
 */
const CLAIM_DUE = `${CLOCK},
  due AS (
    SELECT id, next_check_at_ms AS due FROM claims
    WHERE lapsed_at_ms IS NULL AND next_check_at_ms IS NOT NULL AND next_check_at_ms <= (SELECT now FROM clock)
      AND expires_at_ms > (SELECT now FROM clock)
    ORDER BY next_check_at_ms, id
    LIMIT $1
    FOR UPDATE SKIP LOCKED
  )
  UPDATE claims SET next_check_at_ms = (SELECT now FROM clock) + $2::bigint
  FROM due WHERE claims.id = due.id
  RETURNING ${claimColumns('claims')}, due.due AS "dueMs"`;

/**
 * The sweep in one statement: expired current claims lapse, their listings go, and challenges
 * expired more than a day ago are deleted. Rows another transaction holds (a proof, a re-check
 * being recorded, another daemon's sweep) are skipped, not waited for: the next sweep takes them.
 */
const SWEEP = compile(
  (d) => `,
  expired AS (
    SELECT id FROM claims WHERE lapsed_at_ms IS NULL AND expires_at_ms <= ${d.now}
    FOR UPDATE SKIP LOCKED
  ),
  lapsed AS (
    UPDATE claims SET ${STATEMENTS.lapseExpired(d, 'claims.')} FROM expired WHERE claims.id = expired.id RETURNING claims.id
  ),
  unlisted AS (DELETE FROM directory_entries WHERE claim_id IN (SELECT id FROM lapsed)),
  removed AS (
    DELETE FROM claim_challenges WHERE id IN (SELECT id FROM claim_challenges WHERE ${STATEMENTS.longExpired(d)} FOR UPDATE SKIP LOCKED)
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM lapsed)::int AS lapsed, (SELECT count(*) FROM removed)::int AS "challengesRemoved"`,
  'clock',
);

/** The second key of the lock every createChallenge() takes: one key for all, since the pool's shares count them all. */
const CREATE_LOCK_KEY = 'claim challenges';

export class PostgresClaimStore implements ClaimStore {
  readonly #pages = new Map<string, Compiled>();

  constructor(private readonly pool: pg.Pool) {}

  /**
   * Under a transaction-level advisory lock on one constant key: creators on every daemon take
   * turns, and the statement, run once the lock is held, counts every challenge created before —
   * in the pool, of the client and of the DID (schema/pending.ts). A refusal reads the shares
   * again under the same lock to name the one used up.
   */
  async createChallenge(challenge: NewClaimChallenge, limits: PendingLimits): Promise<ClaimChallenge | PendingRefusal> {
    const ttlMs = secondsMs('ttlSeconds', challenge.ttlSeconds);
    const { token, did, method, purpose, client } = challenge;
    const values = { token, method, purpose, ttlMs, ...pendingValues(limits, client, did) };
    return inLockedTransaction(this.pool, LOCK_CLASS.claimChallenges, CREATE_LOCK_KEY, async (tx) => {
      const { rows } = await tx.query<ChallengeRow>(CREATE.text, CREATE.values(values));
      if (rows[0] !== undefined) return toChallenge(rows[0]);
      const { rows: state } = await tx.query<PendingStateRow>(PENDING.text, PENDING.values(values));
      return pendingRefusal(state[0]!, limits);
    });
  }

  /**
   * The attempt is one guarded statement (concurrent attempts cannot pass maxAttempts together);
   * when it refuses, the challenge is read again to say why (see refusalOf).
   */
  async attemptChallenge(did: string, token: string, maxAttempts: number): Promise<ChallengeAttempt> {
    const max = attemptsOf(maxAttempts);
    const { rows } = await this.pool.query<ChallengeRow>(ATTEMPT.text, ATTEMPT.values({ did, token, max }));
    if (rows[0] !== undefined) return { ok: true, challenge: toChallenge(rows[0]) };
    const { rows: found } = await this.pool.query<ChallengeRow & { nowMs: Ms }>(STATE.text, STATE.values({ token }));
    const state = found[0];
    // Another DID's challenge is not this DID's to see.
    if (state === undefined || state.did !== did) return { ok: false, refusal: 'unknown', challenge: null };
    return { ok: false, refusal: refusalOf(state, state.nowMs), challenge: toChallenge(state) };
  }

  /**
   * One transaction under the advisory lock of the challenge's DID: proofs of one DID take turns
   * (the lapse of the current claim, the insert of the new one and the listing are one step for
   * each), proofs of other DIDs do not wait. The challenge's single use is the guarded UPDATE,
   * which also reads the clock that every later statement of the transaction is given.
   */
  async recordProof(proof: NewProof): Promise<RecordedProof> {
    const durations = proofArguments(proof);
    const { rows: named } = await this.pool.query<{ did: string }>('SELECT did FROM claim_challenges WHERE token = $1', [proof.token]);
    if (named[0] === undefined) return { outcome: 'unknown' };
    return inLockedTransaction(this.pool, LOCK_CLASS.claims, named[0].did, async (client): Promise<RecordedProof> => {
      const run = <R extends pg.QueryResultRow>(statement: Compiled, values: Record<string, unknown>) =>
        client.query<R>(statement.text, statement.values(values));
      const { rows: used } = await run<{ did: string; method: ClaimMethod; purpose: ClaimPurpose; nowMs: string }>(USE, { token: proof.token });
      const challenge = used[0];
      if (challenge === undefined) {
        const { rows: found } = await run<ChallengeRow & { nowMs: Ms }>(STATE, { token: proof.token });
        return found[0] === undefined ? { outcome: 'unknown' } : { outcome: found[0].usedAtMs !== null ? 'used' : 'expired' };
      }
      const { did, method, purpose, nowMs: now } = challenge;
      const { rows: previous } = await run<{ id: number; wasCurrent: number }>(LAPSE_CURRENT, { did, method, now });
      const { rows: inserted } = await run<ClaimRow>(INSERT_CLAIM, { did, method, subject: proof.subject, token: proof.token, now, ...durations });
      const claim = inserted[0]!;
      if (previous[0] !== undefined && previous[0].wasCurrent === 1) await run(MOVE_LISTING, { from: previous[0].id, to: claim.id });
      await run(DROP_STALE, { did, now });
      if (purpose === 'list') await run(LIST, { did, didMethod: didMethodOf(did), search: did.toLowerCase(), claimId: claim.id, now });
      else if (purpose === 'unlist') await run(UNLIST, { did });
      const { rows: listed } = await run<{ listed: number }>(LISTED, { did, now });
      return { outcome: 'recorded', claim: toClaim(claim), listed: listed[0]!.listed === 1 };
    });
  }

  async get(id: number): Promise<StoredClaim | undefined> {
    if (!isPgRowId(id)) return undefined;
    const { rows } = await this.pool.query<ClaimRow>(GET.text, GET.values({ id }));
    return rows[0] === undefined ? undefined : toClaim(rows[0]);
  }

  /** One statement: the claims and the listing from one snapshot. */
  async forDid(did: string, pastLimit: number): Promise<{ current: StoredClaim[]; past: StoredClaim[]; listed: boolean }> {
    const { rows } = await this.pool.query<ForDidRow>(FOR_DID.text, FOR_DID.values({ did, pastLimit: Math.min(limitOf(pastLimit), MAX_SECONDS) }));
    return claimsOfDid(rows);
  }

  async claimDue(limit: number, leaseSeconds: number): Promise<StoredClaim[]> {
    const leaseMs = secondsMs('leaseSeconds', leaseSeconds);
    const n = Math.min(limitOf(limit), MAX_SECONDS);
    if (n === 0) return [];
    const { rows } = await this.pool.query<ClaimRow & { dueMs: string }>(CLAIM_DUE, [n, leaseMs]);
    return rows.sort((a, b) => Number(a.dueMs) - Number(b.dueMs) || a.id - b.id).map(toClaim);
  }

  /** One guarded statement (the lapse and its listing together). */
  async recordRecheck(id: number, result: RecheckResult): Promise<boolean> {
    const values = { ...recheckArguments(result), id };
    if (!isPgRowId(id)) return false;
    if (result.kind === 'lapsed') {
      const { rows } = await this.pool.query<{ n: number }>(LAPSE.text, LAPSE.values(values));
      return rows[0]!.n === 1;
    }
    const statement = result.kind === 'held' ? HELD : UNREACHABLE;
    const { rowCount } = await this.pool.query(statement.text, statement.values(values));
    return rowCount === 1;
  }

  async sweep(): Promise<{ lapsed: number; challengesRemoved: number }> {
    const { rows } = await this.pool.query<{ lapsed: number; challengesRemoved: number }>(SWEEP.text, SWEEP.values({}));
    return rows[0]!;
  }

  /** One statement: the page and its DIDs' current claims from one snapshot, on one reading of the clock. */
  async directory(query: DirectoryQuery): Promise<DirectoryPage> {
    const { shape, values } = directoryArguments(query);
    const page = this.#page(shape);
    const { rows } = await this.pool.query<EntryRow>(page.text, page.values(values));
    return pageOf(rows, values['limit'] as number);
  }

  #page(shape: DirectoryShape): Compiled {
    const key = `${shape.after}${shape.didMethod}${shape.q}${shape.indexed}`;
    let page = this.#pages.get(key);
    if (page === undefined) {
      page = compile((d) => directorySql(d, shape), 'clock');
      this.#pages.set(key, page);
    }
    return page;
  }
}
