/**
 * Proofs of control and the opt-in directory over SQLite: the statements of
 * schema/claims.ts compiled with `@name` parameters and "now" a parameter read once per call.
 * Each multi-step write is one synchronous IMMEDIATE transaction within the call.
 */
import type Database from 'better-sqlite3';
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
  current,
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
import { limitOf } from '../schema/observations.js';
import { pendingRefusal, pendingValues, type PendingStateRow } from '../schema/pending.js';
import { isRowId } from '../schema/watches.js';

/** SQLite: every parameter is `@name`, and now is the parameter `@now`, read once per call. */
const SQLITE: Dialect = {
  p: (name) => `@${name}`,
  now: '@now',
  rfc3339: (ms) => `strftime('%Y-%m-%dT%H:%M:%SZ', (${ms}) / 1000, 'unixepoch')`,
  // instr() compares bytes: no LIKE wildcards, no collation.
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
  // FTS5's trigram table (schema v17) in seq order: its rowid is the listing's seq, and it walks
  // its matches in rowid order, so a page stops at its limit however many listings match.
  trigram: {
    from: 'directory_search JOIN directory_entries e ON e.seq = directory_search.rowid',
    where: 'directory_search MATCH @match',
    seq: 'directory_search.rowid',
  },
  currentClaimsJson: (did) => `(
      SELECT json_group_array(json_object('method', k.method, 'verifiedAtMs', k.verified_at_ms, 'expiresAtMs', k.expires_at_ms) ORDER BY k.method)
      FROM claims k WHERE k.did = ${did} AND ${current(SQLITE, 'k')})`,
};

/** Listings a directory search scans in seq order before it asks the trigram index for the rest of the page. */
const SCANNED = 256;

type Statement<R> = Database.Statement<[Record<string, unknown>], R>;

/** A RecordedProof refusal from the challenge as it is now (none: unknown). */
function proofRefusal(state: (ChallengeRow & { nowMs: Ms }) | undefined): RecordedProof {
  if (state === undefined) return { outcome: 'unknown' };
  return { outcome: state.usedAtMs !== null ? 'used' : 'expired' };
}

export class SqliteClaimStore implements ClaimStore {
  readonly #create: (values: Record<string, unknown>, limits: PendingLimits) => ClaimChallenge | PendingRefusal;
  readonly #attempt: (values: Record<string, unknown>) => ChallengeAttempt;
  readonly #record: (proof: NewProof, ms: { lifetimeMs: number; recheckMs: number | null }) => RecordedProof;
  readonly #get: Statement<ClaimRow>;
  readonly #forDid: (did: string, pastLimit: number) => { current: StoredClaim[]; past: StoredClaim[]; listed: boolean };
  readonly #claimDue: (limit: number, leaseMs: number) => StoredClaim[];
  readonly #recheck: (id: number, result: RecheckResult, values: Record<string, unknown>) => boolean;
  readonly #sweep: () => { lapsed: number; challengesRemoved: number };
  readonly #directory: (shape: DirectoryShape, values: Record<string, unknown>) => DirectoryPage;

  constructor(db: Database.Database) {
    const prepare = <R>(build: (d: Dialect) => string): Statement<R> => db.prepare(build(SQLITE)) as Statement<R>;
    // The database's clock, read once per call: every comparison and every stamp of the call
    // is the same instant (SQLite's 'now' is stable within one step only).
    const clock = db.prepare(`SELECT CAST(unixepoch('subsec') * 1000 AS INTEGER)`).pluck() as Database.Statement<[], number>;
    const now = () => clock.get()!;

    // IMMEDIATE throughout: what a call reads and what it writes hold the write lock together,
    // so two processes on one file never both pass a check (the limit, a challenge's single use).
    const create = prepare<ChallengeRow>(STATEMENTS.createChallenge);
    const pending = prepare<PendingStateRow>(STATEMENTS.pendingState);
    const createTx = db.transaction((values: Record<string, unknown>, limits: PendingLimits): ClaimChallenge | PendingRefusal => {
      const at = now();
      const row = create.get({ ...values, now: at });
      if (row !== undefined) return toChallenge(row);
      return pendingRefusal(pending.get({ ...values, now: at })!, limits);
    });
    this.#create = (values, limits) => createTx.immediate(values, limits);

    const attempt = prepare<ChallengeRow>(STATEMENTS.attempt);
    const state = prepare<ChallengeRow & { nowMs: number }>(STATEMENTS.challengeState);
    const attemptTx = db.transaction((values: Record<string, unknown>): ChallengeAttempt => {
      const at = now();
      const row = attempt.get({ ...values, now: at });
      if (row !== undefined) return { ok: true, challenge: toChallenge(row) };
      const found = state.get({ ...values, now: at });
      // Another DID's challenge is not this DID's to see.
      if (found === undefined || found.did !== values['did']) return { ok: false, refusal: 'unknown', challenge: null };
      return { ok: false, refusal: refusalOf(found, at), challenge: toChallenge(found) };
    });
    this.#attempt = (values) => attemptTx.immediate(values);

    const use = prepare<{ did: string; method: ClaimMethod; purpose: ClaimPurpose; nowMs: number }>(STATEMENTS.useChallenge);
    const lapseCurrent = prepare<{ id: number; wasCurrent: number }>(STATEMENTS.lapseCurrent);
    const insertClaim = prepare<ClaimRow>(STATEMENTS.insertClaim);
    const moveListing = prepare<never>(STATEMENTS.moveListing);
    const dropStale = prepare<never>(STATEMENTS.dropStaleListing);
    const list = prepare<never>(STATEMENTS.list);
    const unlist = prepare<never>(STATEMENTS.unlist);
    const listed = prepare<{ listed: number }>(STATEMENTS.listed);
    const recordTx = db.transaction((proof: NewProof, durations: { lifetimeMs: number; recheckMs: number | null }): RecordedProof => {
      const at = now();
      const challenge = use.get({ token: proof.token, now: at });
      if (challenge === undefined) return proofRefusal(state.get({ token: proof.token, now: at }));
      const { did, method, purpose } = challenge;
      const previous = lapseCurrent.get({ did, method, now: at });
      const claim = insertClaim.get({ did, method, subject: proof.subject, token: proof.token, now: at, ...durations })!;
      if (previous !== undefined && previous.wasCurrent === 1) moveListing.run({ from: previous.id, to: claim.id });
      dropStale.run({ did, now: at });
      if (purpose === 'list') list.run({ did, didMethod: didMethodOf(did), search: did.toLowerCase(), claimId: claim.id, now: at });
      else if (purpose === 'unlist') unlist.run({ did });
      return { outcome: 'recorded', claim: toClaim(claim), listed: listed.get({ did, now: at })!.listed === 1 };
    });
    this.#record = (proof, durations) => recordTx.immediate(proof, durations);

    this.#get = prepare<ClaimRow>(STATEMENTS.get);

    // DEFERRED is enough for a read: the one statement is one snapshot.
    const forDid = prepare<ForDidRow>(STATEMENTS.forDid);
    this.#forDid = (did, pastLimit) => {
      return claimsOfDid(forDid.all({ did, pastLimit, now: now() }));
    };

    // The partial index claims_due serves the scan (its WHERE is repeated here).
    const due = db
      .prepare(
        `SELECT id FROM claims
         WHERE lapsed_at_ms IS NULL AND next_check_at_ms IS NOT NULL AND next_check_at_ms <= @now AND expires_at_ms > @now
         ORDER BY next_check_at_ms, id LIMIT @limit`,
      )
      .pluck() as Database.Statement<[Record<string, unknown>], number>;
    const lease = db.prepare(`UPDATE claims SET next_check_at_ms = @now + @leaseMs WHERE id = @id RETURNING ${claimColumns('claims')}`) as Statement<ClaimRow>;
    const claimTx = db.transaction((limit: number, leaseMs: number): StoredClaim[] => {
      const at = now();
      return due.all({ now: at, limit }).map((id) => toClaim(lease.get({ id, now: at, leaseMs })!));
    });
    this.#claimDue = (limit, leaseMs) => claimTx.immediate(limit, leaseMs);

    const held = prepare<never>(STATEMENTS.held);
    const unreachable = prepare<never>(STATEMENTS.unreachable);
    const lapse = prepare<{ id: number }>(STATEMENTS.lapse);
    const unlistClaim = db.prepare(`DELETE FROM directory_entries WHERE claim_id = ?`);
    const recheckTx = db.transaction((id: number, result: RecheckResult, values: Record<string, unknown>): boolean => {
      const bound = { ...values, id, now: now() };
      if (result.kind === 'held') return held.run(bound).changes === 1;
      if (result.kind === 'unreachable') return unreachable.run(bound).changes === 1;
      if (lapse.get(bound) === undefined) return false;
      unlistClaim.run(id);
      return true;
    });
    this.#recheck = (id, result, values) => recheckTx.immediate(id, result, values);

    // The partial index claims_expiry serves the scan.
    const lapseExpired = db
      .prepare(`UPDATE claims SET ${STATEMENTS.lapseExpired(SQLITE)} WHERE lapsed_at_ms IS NULL AND expires_at_ms <= @now RETURNING id`)
      .pluck() as Database.Statement<[Record<string, unknown>], number>;
    const unlistIds = db.prepare(`DELETE FROM directory_entries WHERE claim_id IN (SELECT value FROM json_each(?))`);
    const removeChallenges = prepare<never>((d) => `DELETE FROM claim_challenges WHERE ${STATEMENTS.longExpired(d)}`);
    const sweepTx = db.transaction(() => {
      const at = now();
      const lapsed = lapseExpired.all({ now: at });
      if (lapsed.length > 0) unlistIds.run(JSON.stringify(lapsed));
      return { lapsed: lapsed.length, challengesRemoved: removeChallenges.run({ now: at }).changes };
    });
    this.#sweep = () => sweepTx.immediate();

    // One statement per shape of query (which filters are given), prepared when first asked for.
    const pages = new Map<string, Statement<EntryRow>>();
    const pageFor = (shape: DirectoryShape): Statement<EntryRow> => {
      const key = `${shape.after}${shape.didMethod}${shape.q}${shape.indexed}${shape.upTo === true}`;
      let page = pages.get(key);
      if (page === undefined) {
        page = db.prepare(directorySql(SQLITE, shape)) as Statement<EntryRow>;
        pages.set(key, page);
      }
      return page;
    };
    // A term the index can look up: the next SCANNED listings are scanned first, and the index
    // asked only for what they leave of the page. FTS5 walks a term's matches from the first
    // (a cursor deep in the order skips every match before it), so a term that matches often
    // is cheaper scanned — it fills the page within the stretch — and one that matches rarely
    // is found through the index wherever it is. One read transaction: one snapshot, one clock.
    const indexed = db.transaction((shape: DirectoryShape, values: Record<string, unknown>): EntryRow[] => {
      const at = now();
      const limit = values['limit'] as number;
      const upTo = ((values['after'] as number | null) ?? 0) + SCANNED;
      const scanned = pageFor({ ...shape, indexed: false, upTo: true }).all({ ...values, upTo, now: at });
      if (scanned.length >= limit) return scanned;
      const found = pageFor({ ...shape, after: true }).all({ ...values, after: upTo, limit: limit - scanned.length, now: at });
      return [...scanned, ...found];
    });
    this.#directory = (shape, values) => {
      const rows = shape.indexed ? indexed(shape, values) : pageFor(shape).all({ ...values, now: now() });
      return pageOf(rows, values['limit'] as number);
    };
  }

  async createChallenge(challenge: NewClaimChallenge, limits: PendingLimits): Promise<ClaimChallenge | PendingRefusal> {
    const ttlMs = secondsMs('ttlSeconds', challenge.ttlSeconds);
    const { token, did, method, purpose, client } = challenge;
    return this.#create({ token, method, purpose, ttlMs, ...pendingValues(limits, client, did) }, limits);
  }

  async attemptChallenge(did: string, token: string, maxAttempts: number): Promise<ChallengeAttempt> {
    return this.#attempt({ did, token, max: attemptsOf(maxAttempts) });
  }

  async recordProof(proof: NewProof): Promise<RecordedProof> {
    return this.#record(proof, proofArguments(proof));
  }

  async get(id: number): Promise<StoredClaim | undefined> {
    if (!isRowId(id)) return undefined;
    const row = this.#get.get({ id });
    return row === undefined ? undefined : toClaim(row);
  }

  async forDid(did: string, pastLimit: number): Promise<{ current: StoredClaim[]; past: StoredClaim[]; listed: boolean }> {
    return this.#forDid(did, limitOf(pastLimit));
  }

  async claimDue(limit: number, leaseSeconds: number): Promise<StoredClaim[]> {
    const leaseMs = secondsMs('leaseSeconds', leaseSeconds);
    const n = limitOf(limit);
    return n === 0 ? [] : this.#claimDue(n, leaseMs);
  }

  async recordRecheck(id: number, result: RecheckResult): Promise<boolean> {
    const values = recheckArguments(result);
    return isRowId(id) && this.#recheck(id, result, values);
  }

  async sweep(): Promise<{ lapsed: number; challengesRemoved: number }> {
    return this.#sweep();
  }

  async directory(query: DirectoryQuery): Promise<DirectoryPage> {
    const { shape, values } = directoryArguments(query);
    return this.#directory(shape, values);
  }
}
