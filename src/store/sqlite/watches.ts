/**
 * Operator watches over SQLite: the `watches` table of schema v2 (revision
 * since v3). Only operator watches are this repository's: rows with a project (customer
 * watches, schema v4) are neither listed, counted, nor removed here, so the operator's routes
 * never reach a customer's watch. The signing secret is written and never selected: no Watch
 * read from here can carry it. The methods are async because the interface is; add(),
 * remove(), claimDue() and recordCheck() are each one synchronous IMMEDIATE transaction within
 * the call. "Due" and "checked now" come from the database's clock.
 */
import type Database from 'better-sqlite3';
import type { NewWatch, RecordCheck, RecordedCheck, Watch, WatchCheckInput, WatchStore } from '../../core/monitoring/store.js';
import { OPERATOR_EVENT } from '../schema/monitor-events.js';
import { limitOf } from '../schema/observations.js';
import {
  CHECK_INPUT,
  isRevision,
  isRowId,
  OPERATOR_ACTIVE,
  QUEUED,
  serialisedData,
  storedOutcome,
  toCheckInput,
  toWatch,
  type CheckInputRow,
  watchMembers,
  type WatchRow,
} from '../schema/watches.js';

/** The Watch members, aliased; deliberately without `secret`. */
const COLUMNS = watchMembers();

export class SqliteWatchStore implements WatchStore {
  readonly #countActive: Database.Statement<[], number>;
  readonly #insert: Database.Statement<[string, string, string, string, number, string], WatchRow>;
  readonly #list: Database.Statement<[], WatchRow>;
  readonly #get: Database.Statement<[number], WatchRow>;
  readonly #deactivate: Database.Statement<[number]>;
  readonly #cancelQueued: Database.Statement<[number]>;
  readonly #add: (watch: NewWatch, limit: number) => Watch | 'full';
  readonly #remove: (id: number) => boolean;
  readonly #checkInput: Database.Statement<[number], CheckInputRow>;
  readonly #enable: Database.Statement<[string | null, number], WatchRow>;
  readonly #claim: (limit: number) => WatchCheckInput[];
  readonly #record: (check: RecordCheck, data: readonly string[]) => RecordedCheck;

  constructor(db: Database.Database) {
    this.#countActive = db.prepare(`SELECT count(*) FROM watches WHERE ${OPERATOR_ACTIVE}`).pluck() as Database.Statement<[], number>;
    this.#insert = db.prepare(
      `INSERT INTO watches (kind, did, webhook_url, secret, interval_seconds, created_at, active, revision)
       VALUES (?, ?, ?, ?, ?, ?, 1, 0) RETURNING ${COLUMNS}`,
    );
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM watches WHERE ${OPERATOR_ACTIVE} ORDER BY id`);
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM watches WHERE id = ? AND ${OPERATOR_ACTIVE}`);
    // The revision moves too: a check that read the watch before its removal updates it only
    // WHERE revision is still what it read, so it can no longer write (nor queue events).
    this.#deactivate = db.prepare(`UPDATE watches SET active = 0, revision = revision + 1 WHERE id = ? AND ${OPERATOR_ACTIVE}`);
    // DELIVERING events are left alone: a deliverer holds them, and finishes or lets the lease lapse.
    this.#cancelQueued = db.prepare(`UPDATE monitor_events SET delivery_status = 'CANCELLED' WHERE watch_id = ? AND delivery_status IN ${QUEUED}`);

    // An uploaded baseline: the watch's revision 0, what its first check compares with.
    const insertFirstBaseline = db.prepare<[number, string, string | null, string | null, string | null, string | null, string | null, string]>(
      `INSERT INTO monitor_baselines (watch_id, revision, status, document_hash, fingerprint_profile, domain_binding_status, document, problem, checked_at)
       VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // IMMEDIATE: the count and the insert hold the write lock together, so two processes on one
    // file cannot both see room for the last watch (a deferred transaction would also risk
    // SQLITE_BUSY_SNAPSHOT on upgrading its read to a write, which busy_timeout does not retry).
    const add = db.transaction((w: NewWatch, limit: number): Watch | 'full' => {
      // Written as "not below" so that a limit that is not a number refuses rather than admits.
      if (!(this.#countActive.get()! < limit)) return 'full';
      const added = toWatch(this.#insert.get(w.kind ?? 'did', w.did, w.webhookUrl, w.secret, w.intervalSeconds, w.createdAt)!);
      if (w.baseline !== undefined) {
        const o = w.baseline;
        const stored = storedOutcome(o);
        insertFirstBaseline.run(added.id, o.status, o.documentHash, o.fingerprintProfile, o.domainBindingStatus, stored.document, stored.problem, o.checkedAt);
      }
      return added;
    });
    this.#add = (watch, limit) => add.immediate(watch, limit);
    const remove = db.transaction((id: number): boolean => {
      if (this.#deactivate.run(id).changes === 0) return false;
      this.#cancelQueued.run(id);
      return true;
    });
    this.#remove = (id) => remove.immediate(id);

    this.#enable = db.prepare(
      `UPDATE watches SET webhook_disabled_at = NULL, webhook_disabled_reason = NULL, webhook_url = coalesce(?, webhook_url)
       WHERE id = ? AND ${OPERATOR_ACTIVE} RETURNING ${COLUMNS}`,
    );

    this.#checkInput = db.prepare(`${CHECK_INPUT} AND w.id = ?`);
    // The database's clock, read once per claim: "due" and "checked now" are the same instant.
    const now = db.prepare(`SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now')`).pluck() as Database.Statement<[], string>;
    // Due: never checked, or last checked at least interval_seconds before now (both RFC 3339
    // UTC at second precision, so compared as text). Never checked first, then the oldest check.
    const due = db
      .prepare(
        `SELECT id FROM watches
         WHERE ${OPERATOR_ACTIVE}
           AND (last_checked_at IS NULL
             OR strftime('%Y-%m-%dT%H:%M:%SZ', last_checked_at, '+' || interval_seconds || ' seconds') <= :now)
         ORDER BY last_checked_at NULLS FIRST, id
         LIMIT :limit`,
      )
      .pluck() as Database.Statement<[{ now: string; limit: number }], number>;
    const markChecked = db.prepare<[string, number]>(`UPDATE watches SET last_checked_at = ? WHERE id = ?`);
    // IMMEDIATE: the selection and the marks hold the write lock together, so two processes on
    // one file never claim the same watch.
    const claim = db.transaction((limit: number): WatchCheckInput[] => {
      const at = now.get()!;
      return due.all({ now: at, limit }).map((id) => {
        markChecked.run(at, id);
        return toCheckInput(this.#checkInput.get(id)!);
      });
    });
    this.#claim = (limit) => claim.immediate(limit);

    const current = db.prepare(`SELECT did FROM watches WHERE id = ? AND revision = ? AND ${OPERATOR_ACTIVE}`).pluck() as Database.Statement<
      [number, number],
      string
    >;
    const countEvents = db.prepare(`SELECT count(*) FROM monitor_events WHERE ${OPERATOR_EVENT}`).pluck() as Database.Statement<[], number>;
    const baselineId = db.prepare('SELECT id FROM monitor_baselines WHERE watch_id = ? AND revision = ?').pluck() as Database.Statement<
      [number, number],
      number
    >;
    const insertBaseline = db
      .prepare(
        `INSERT INTO monitor_baselines (watch_id, revision, status, document_hash, fingerprint_profile, domain_binding_status, document, problem, checked_at,
           tls_leaf_sha256, tls_not_after, tls_announced_days)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .pluck() as Database.Statement<
      [number, number, string, string | null, string | null, string | null, string | null, string | null, string, string | null, string | null, number | null],
      number
    >;
    // PENDING, or CANCELLED while the watch's webhook is disabled (a receiver answered 410 Gone).
    const insertEvent = db
      .prepare(
        `INSERT INTO monitor_events (watch_id, did, event_type, data, created_at, delivery_status, attempts, next_attempt_at,
           watch_revision, baseline_id, previous_baseline_id)
         SELECT w.id, ?, ?, ?, ?, CASE WHEN w.webhook_disabled_at IS NULL THEN 'PENDING' ELSE 'CANCELLED' END, 0, NULL, ?, ?, ?
         FROM watches w WHERE w.id = ? RETURNING id`,
      )
      .pluck() as Database.Statement<[string, string, string, string, number, number, number | null, number], number>;
    // Guarded as on PostgreSQL, though the IMMEDIATE transaction already excludes a concurrent check.
    const advance = db.prepare<{ id: number; revision: number; status: string; hash: string | null; checkedAt: string }>(
      `UPDATE watches SET revision = revision + 1,
         last_hash = CASE WHEN :status = 'FAILED' THEN last_hash ELSE :hash END,
         last_status = :status, last_checked_at = :checkedAt
       WHERE id = :id AND revision = :revision AND ${OPERATOR_ACTIVE}`,
    );
    const record = db.transaction((c: RecordCheck, data: readonly string[]): RecordedCheck => {
      const did = current.get(c.watchId, c.revision);
      if (did === undefined) return { outcome: 'stale' };
      // A check that adds no event cannot pass the limit (and is not held back by it).
      if (data.length > 0 && !(countEvents.get()! + data.length <= c.maxEvents)) return { outcome: 'event-capacity' };
      const previousId = baselineId.get(c.watchId, c.revision) ?? null;
      const o = c.outcome;
      const next = c.revision + 1;
      const stored = storedOutcome(o);
      const id = insertBaseline.get(
        c.watchId,
        next,
        o.status,
        o.documentHash,
        o.fingerprintProfile,
        o.domainBindingStatus,
        stored.document,
        stored.problem,
        o.checkedAt,
        stored.tlsLeaf,
        stored.tlsNotAfter,
        stored.tlsAnnounced,
      )!;
      const eventIds = c.events.map((e, i) => insertEvent.get(did, e.type, data[i]!, o.checkedAt, next, id, previousId, c.watchId)!);
      if (advance.run({ id: c.watchId, revision: c.revision, status: o.status, hash: o.documentHash, checkedAt: o.checkedAt }).changes !== 1) {
        throw new Error('the watch changed inside the transaction');
      }
      return { outcome: 'recorded', revision: next, eventIds };
    });
    this.#record = (check, data) => record.immediate(check, data);
  }

  async add(watch: NewWatch, limit: number): Promise<Watch | 'full'> {
    return this.#add(watch, limit);
  }

  async list(): Promise<Watch[]> {
    return this.#list.all().map(toWatch);
  }

  async get(id: number): Promise<Watch | undefined> {
    if (!isRowId(id)) return undefined;
    const row = this.#get.get(id);
    return row === undefined ? undefined : toWatch(row);
  }

  async remove(id: number): Promise<boolean> {
    return isRowId(id) && this.#remove(id);
  }

  async enableWebhook(id: number, webhookUrl?: string): Promise<Watch | undefined> {
    if (!isRowId(id)) return undefined;
    const row = this.#enable.get(webhookUrl ?? null, id);
    return row === undefined ? undefined : toWatch(row);
  }

  async count(): Promise<number> {
    return this.#countActive.get() ?? 0;
  }

  async claimDue(limit: number): Promise<WatchCheckInput[]> {
    const n = limitOf(limit);
    return n === 0 ? [] : this.#claim(n);
  }

  async forCheck(id: number): Promise<WatchCheckInput | undefined> {
    if (!isRowId(id)) return undefined;
    const row = this.#checkInput.get(id);
    return row === undefined ? undefined : toCheckInput(row);
  }

  /** One IMMEDIATE transaction: the guard, the capacity, the baseline, the events, the watch. */
  async recordCheck(check: RecordCheck): Promise<RecordedCheck> {
    const data = serialisedData(check.events, check.maxPayloadBytes);
    if (data === undefined) return { outcome: 'payload-too-large' };
    if (!isRowId(check.watchId) || !isRevision(check.revision)) return { outcome: 'stale' };
    return this.#record(check, data);
  }
}
