/** What the PostgreSQL repositories share: transactions, advisory lock classes, limits. */
import type pg from 'pg';

/**
 * The first key of the two-key advisory locks each repository takes on its own key (a DID, an
 * endpoint); the second key is hashtext() of it. Watches lock one constant key: the limit is on
 * all of them; so do checks that insert monitor events (the event capacity is on all of them),
 * and challenge creation (the challenge limit). Proofs lock their DID.
 * Distinct from the migration lock (one 64-bit key).
 */
export const LOCK_CLASS = {
  observations: 0x73760001,
  mcpObservations: 0x73760002,
  watches: 0x73760003,
  monitorEvents: 0x73760004,
  claimChallenges: 0x73760005,
  claims: 0x73760006,
  signInChallenges: 0x73760007,
  /** A project's scheduled attempts: claimers of its due watches count its allowance one at a time. */
  customerAttempts: 0x73760008,
  /** The delegation registry: registrations on every daemon take turns (its shares count all chains). */
  delegationChains: 0x73760009,
  /** A DID's kept did:webvh log: appends by several daemons take turns. */
  keptLogs: 0x7376000a,
} as const;

/** Runs `work` in one transaction on `client`: committed when it resolves, rolled back when it throws. */
export async function transaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** `transaction` on a connection of the pool, released afterwards. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await transaction(client, () => work(client));
  } finally {
    client.release();
  }
}

/**
 * `work` in one transaction that first holds the transaction-level advisory lock (`lockClass`,
 * hashtext(`key`)): recorders of one key serialise, recorders of others do not wait. BEGIN and
 * the lock go to the server in one round trip (a simple query of two statements; the key is
 * sent as an escaped literal, since a simple query of several statements takes no parameters).
 */
export async function inLockedTransaction<T>(pool: pg.Pool, lockClass: number, key: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${Math.trunc(lockClass)}, hashtext(${client.escapeLiteral(key)}))`);
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}

/**
 * The transaction-level advisory locks of every key (`lockClass`, hashtext(key)) in one
 * statement, taken in ascending order of the lock's key: two transactions locking overlapping
 * sets of keys (two daemons' group commits) take their common locks in the same order, so they
 * queue, never deadlock. hashtext() collisions name one lock, which a transaction holds once.
 * The keys are escaped literals: the statement goes in a simple query of several statements,
 * which takes no parameters.
 */
export function lockStatement(client: pg.PoolClient, lockClass: number, keys: readonly string[]): string {
  const literals = [...new Set(keys)].map((k) => client.escapeLiteral(k)).join(', ');
  return locksOf(lockClass, `ARRAY[${literals}]::text[]`);
}

/** lockStatement's text for the keys of `keys`, an expression of type text[] (a parameter of a prepared statement, or literals). */
export function locksOf(lockClass: number, keys: string): string {
  // The sort is the subquery's, below the aggregate that calls the lock function: rows reach it sorted.
  return `SELECT count(pg_advisory_xact_lock(${Math.trunc(lockClass)}, h)) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(${keys}) AS k ORDER BY h) AS keys`;
}

/** A value as an SQL literal (for the simple queries of a group commit). */
export function sqlLiteral(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('a number written to the database must be finite');
    return String(value);
  }
  return quote(value);
}

/**
 * `value` as a string literal, as pg's escapeLiteral writes it (quotes doubled; with a backslash,
 * an E'' literal with backslashes doubled), by two regular-expression passes instead of its
 * character-by-character loop: the documents of a group commit are kilobytes each.
 */
export function quote(value: string): string {
  const quoted = `'${value.replace(/'/g, "''")}'`;
  return value.includes('\\') ? ` E${quoted.replace(/\\/g, '\\\\')}` : quoted;
}

/** An array of values as an SQL literal of `type`[]. */
export function sqlArray(values: ReadonlyArray<string | number | null>, type: string): string {
  return `ARRAY[${values.map(sqlLiteral).join(', ')}]::${type}[]`;
}

/** `text` with its parameters `$1`, `$2`… replaced by `values` as literals (a statement for a simple query of several). */
export function withLiterals(text: string, values: ReadonlyArray<string | number | null>): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => sqlLiteral(values[Number(n) - 1] ?? null));
}

/** Most records one group commit writes (SVC_RECORD_BATCH's default, on both engines). */
export const GROUP_COMMIT_BATCH = 64;

/**
 * One group commit's transaction, as its `write` sees it: either `begin()` (BEGIN and the locks,
 * with the first statement in the same round trip; the group commit sends COMMIT after `write`),
 * or `once()`: the locks and every statement in one simple query — one implicit transaction,
 * committed by the server before it answers, rolled back whole when a statement fails.
 */
export interface GroupTransaction {
  readonly client: pg.PoolClient;
  begin<T extends pg.QueryResultRow>(first?: string): Promise<pg.QueryResult<T>>;
  once(statements: readonly string[]): Promise<pg.QueryResult[]>;
}

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** The results of a simple query: one per statement (pg answers one result, not an array, for one statement). */
function resultsOf(result: pg.QueryResult | pg.QueryResult[]): pg.QueryResult[] {
  return Array.isArray(result) ? result : [result];
}

/**
 * A group commit: the records submitted while the event loop is busy (every resolution that
 * finishes in one turn) are written by one transaction at the end of the turn, at most `batch`
 * of them, holding the advisory locks of all their keys (lockStatement) before `write` runs them
 * in submission order. A turn's batch does not wait for an earlier one still in flight (a
 * connection each): a single writer would add every batch's round trips to the next one's wait,
 * and the locks already order two batches that share a key. A store may bound the batches in
 * flight (`inFlight`): the records of the turns while every slot is busy then go as one batch.
 *
 * Each record's promise settles only after the COMMIT that holds it has been acknowledged by
 * the server, so whatever a caller has acknowledged is durable as before; a crash before it
 * loses only records nobody was told of. When the transaction fails it is rolled back as a
 * whole and every record of it is rejected: none is half-written, none acknowledged.
 */
export class GroupCommit<I, R> {
  #pending: Pending<I, R>[] = [];
  #scheduled = false;
  /** Batches written now (each on a connection of its own). */
  #writing = 0;
  #idle: Array<() => void> = [];

  constructor(
    private readonly pool: pg.Pool,
    /** null: the records take no advisory lock (their statements lock what they write). */
    private readonly lockClass: number | null,
    private readonly keyOf: (item: I) => string,
    private readonly write: (tx: GroupTransaction, items: I[]) => Promise<R[]>,
    /** Called with the results after the commit, or with nothing after a rollback (before the promises settle). */
    private readonly settled: (results: R[] | null) => void = () => undefined,
    private readonly batch = GROUP_COMMIT_BATCH,
    /** The statement that takes the locks of a batch's keys, instead of lockStatement's (a store's prepared one). */
    private readonly locking?: (keys: readonly string[]) => string,
    /**
     * Most batches written at once (default: no limit, a connection each). With a limit, the
     * records submitted while every slot is busy wait for the first to free and go as one
     * batch (up to `batch`): fewer, larger transactions — fewer commits — under load.
     */
    private readonly inFlight = Number.POSITIVE_INFINITY,
  ) {}

  /** Resolves when nothing is pending or being written (every record submitted so far has settled). */
  drain(): Promise<void> {
    if (this.#quiet()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #quiet(): boolean {
    return this.#writing === 0 && !this.#scheduled && this.#pending.length === 0;
  }

  #schedule(): void {
    if (this.#scheduled || this.#pending.length === 0 || this.#writing >= this.inFlight) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    const group = this.#pending.splice(0, this.batch);
    this.#writing += 1;
    // More than a batch this turn: the rest goes at the next turn, on another connection.
    this.#schedule();
    let results: R[] | null = null;
    let failure: unknown;
    try {
      results = await this.#transaction(group.map((p) => p.item));
    } catch (error) {
      failure = error;
    }
    this.#writing -= 1;
    try {
      this.settled(results);
    } finally {
      if (results === null) for (const p of group) p.reject(failure);
      else group.forEach((p, i) => p.resolve(results[i]!));
      // The records that waited for a free slot.
      this.#schedule();
      if (this.#quiet()) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  async #transaction(items: I[]): Promise<R[]> {
    const client = await this.pool.connect();
    const keys = items.map(this.keyOf);
    const locks = this.lockClass === null ? null : this.locking !== undefined ? this.locking(keys) : lockStatement(client, this.lockClass, keys);
    let open = false;
    let broken: Error | undefined;
    const tx: GroupTransaction = {
      client,
      begin: async <T extends pg.QueryResultRow>(first?: string) => {
        open = true;
        const answer = resultsOf(await client.query(['BEGIN', ...(locks === null ? [] : [locks]), ...(first === undefined ? [] : [first])].join('; ')));
        return answer[answer.length - 1] as pg.QueryResult<T>;
      },
      once: async (statements) => resultsOf(await client.query([...(locks === null ? [] : [locks]), ...statements].join(';\n'))).slice(locks === null ? 0 : 1),
    };
    try {
      try {
        const results = await this.write(tx, items);
        if (open) await client.query('COMMIT');
        return results;
      } catch (error) {
        if (open)
          await client.query('ROLLBACK').catch((rollback: unknown) => {
            // A connection that cannot roll back is not given back to the pool.
            broken = rollback instanceof Error ? rollback : new Error(String(rollback));
          });
        throw error;
      }
    } finally {
      client.release(broken);
    }
  }
}

/**
 * Round k of `items`: the k-th item of each key, in order. Items of one key keep their order
 * across rounds; within a round every key appears once, so a round can be one multi-row
 * statement whose rows do not depend on one another.
 */
export function rounds<I>(items: readonly I[], keyOf: (item: I) => string): Array<Array<{ item: I; index: number }>> {
  const seen = new Map<string, number>();
  const out: Array<Array<{ item: I; index: number }>> = [];
  items.forEach((item, index) => {
    const key = keyOf(item);
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    (out[k] ??= []).push({ item, index });
  });
  return out;
}

/** Now on the database clock, in epoch milliseconds. */
export const NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';
/** A CTE in front of a statement that reads now once for the whole statement (as `(SELECT now FROM clock)`). */
export const CLOCK = `WITH clock AS MATERIALIZED (SELECT ${NOW_MS} AS now)`;

/** A statement written once for both engines, compiled: its text and its named parameters in order. */
export interface Compiled {
  text: string;
  values(named: Record<string, unknown>): unknown[];
}

/** Named parameters numbered `$1`, `$2`… in the order of first use, and the values in that order. */
export function numberedParameters(): { p(name: string): string; values(named: Record<string, unknown>): unknown[] } {
  const names: string[] = [];
  return {
    p: (name) => {
      let i = names.indexOf(name);
      if (i < 0) i = names.push(name) - 1;
      return `$${i + 1}`;
    },
    values: (named) => names.map((n) => named[n] ?? null),
  };
}
