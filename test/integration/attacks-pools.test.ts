/**
 * Fair shares of every finite pool (docs/operations.md#fair-shares), attacked as a hostile client
 * would, on a SQLite file and on PostgreSQL. The real daemon app and the real cookie gateway run in
 * process (Fastify inject(), a remote address per client) over a real database; the pools are
 * filled to their edge through SQL where a flood would take hours, as rows from before this build
 * would be (no client recorded).
 *
 * Attacks that held before (each case failed on the build before the shares):
 *   - one public-profile client takes the last free claim challenges, so the next client gets 503;
 *   - one loopback client takes the last free sign-in challenges, so the real owner cannot sign in;
 *   - no budget on the gateway's routes: a client's requests are never refused.
 * And the second-client cases: a DID's share never shuts out its controller, and concurrent
 * creators of one client or one DID never pass a share together (two connections, as two daemons).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_LIMIT } from '../../src/core/claims/types.js';
import { SIGN_IN_CHALLENGE_LIMIT, type ClaimChallenge, type PendingRefusal, type RuntimeStore } from '../../src/core/store.js';
import { buildApp } from '../../src/server/app.js';
import { Capacity } from '../../src/server/capacity.js';
import { commercialAccess } from '../../src/server/commercial.js';
import type { ServerContext } from '../../src/server/context.js';
import { buildGateway } from '../../src/server/gateway.js';
import { DEFAULT_LIMITS, type Profile, type ServerLimits } from '../../src/server/limits.js';
import { operatorAccess } from '../../src/server/operator.js';
import { StorageSlot } from '../../src/server/storage.js';
import { openDatabase } from '../../src/store/database.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { didKeyPrincipal, signStatement } from '../support/gateway.js';
import { describePostgres } from '../support/postgres.js';
import { fixedClock, testRuntime, type TestClock } from '../support/runtime.js';

const ORIGIN = 'http://127.0.0.1:7001';
const DAY_MS = 86_400_000;

/** Fairness of claim challenges, tested within the public intensive budget (10/min) so that no clock has to move: shares of 4 and 2. */
const CLAIM_SHARES = { claimChallengesPerClient: 4, claimChallengesPerDid: 2 } as const;

interface InProcess {
  ctx: ServerContext;
  clock: TestClock;
  app: FastifyInstance;
  /** The cookie gateway (commercial mode, direct profile only). */
  gateway: FastifyInstance | null;
  store: RuntimeStore;
  close(): Promise<void>;
}

/** The daemon's app (and on the direct profile its cookie gateway) over the database at `target`, as `svc serve` builds them. */
async function inProcess(target: string, profile: Profile, limits: Partial<ServerLimits> = {}): Promise<InProcess> {
  const all: ServerLimits = { ...DEFAULT_LIMITS, ...limits };
  const storage = new StorageSlot(target, false);
  await storage.open();
  if (!storage.store) throw new Error(`the database did not open: ${storage.error}`);
  const clock = fixedClock();
  const runtime = testRuntime(clock);
  Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
  const ctx: ServerContext = {
    runtime,
    storage,
    profile,
    limits: all,
    capacity: new Capacity(all.maxConcurrency, all.maxConcurrencyPerClient),
    startedAt: clock.now(),
    draining: false,
    active: 0,
    relaxations: [],
    operator: operatorAccess(randomBytes(24).toString('base64url'), profile),
  };
  ctx.commercial = commercialAccess(profile === 'direct' ? 'on' : undefined, ORIGIN, ctx.operator!, profile);
  const app = buildApp(ctx, { nowMs: () => clock.now().getTime() });
  // The gateway's own routes never reach the daemon's listener: nothing listens upstream.
  const gateway = ctx.commercial.enabled ? buildGateway(ctx, { host: '127.0.0.1', port: 9 }) : null;
  await app.ready();
  await gateway?.ready();
  return {
    ctx,
    clock,
    app,
    gateway,
    store: storage.store,
    close: async () => {
      await app.close();
      await gateway?.close();
      await storage.close();
    },
  };
}

function post(app: FastifyInstance, url: string, body: unknown, client: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const options: InjectOptions = {
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
    remoteAddress: client,
  };
  return app.inject(options);
}

/** A problem answer: its status, code, Retry-After and detail. */
function problemOf(res: LightMyRequestResponse): { status: number; code: string; retryAfter: number | null; detail: string } {
  const body = res.json() as { code: string; detail: string };
  const retry = res.headers['retry-after'];
  return { status: res.statusCode, code: body.code, retryAfter: retry === undefined ? null : Number(retry), detail: body.detail };
}

/** The database clock as SQL, per engine. */
const nowSql = (engine: string) =>
  engine === 'SQLite' ? `CAST(unixepoch('subsec') * 1000 AS INTEGER)` : `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/**
 * `count` pending challenges of unknown clients (rows as an earlier build wrote them: no client
 * column named), each for a DID of its own, expiring in `ttlMs`.
 */
function fillSql(engine: string, table: 'claim_challenges' | 'sign_in_challenges', count: number, ttlMs: number): string {
  const now = nowSql(engine);
  const [columns, values] =
    table === 'claim_challenges'
      ? [
          `token, did, method, purpose, created_at_ms, expires_at_ms`,
          `'fill-' || i, 'did:web:fill' || i || '.example', 'well-known', 'claim', ${now}, ${now} + ${ttlMs}`,
        ]
      : [`token_digest, did, created_at_ms, expires_at_ms`, `'fill-' || i, 'did:web:fill' || i || '.example', ${now}, ${now} + ${ttlMs}`];
  return engine === 'SQLite'
    ? `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count}) INSERT INTO ${table} (${columns}) SELECT ${values} FROM n`
    : `INSERT INTO ${table} (${columns}) SELECT ${values} FROM generate_series(1, ${count}) AS i`;
}

const ENGINES: Array<[string, (name: string, fn: () => void) => void, () => Promise<TestDatabase>]> = [
  ['SQLite', describe, () => sqliteDatabase('svc-attacks-pools')],
  ['PostgreSQL', describePostgres, postgresDatabase],
];

for (const [engine, describeEngine, database] of ENGINES) {
  describeEngine(`fair shares of the finite pools on ${engine}`, () => {
    let db: TestDatabase;
    let open: InProcess[] = [];
    beforeAll(async () => {
      db = await database();
    });
    afterEach(async () => {
      for (const o of open) await o.close();
      open = [];
      await db.sql('DELETE FROM claim_challenges');
      await db.sql('DELETE FROM sign_in_challenges');
    });
    afterAll(async () => {
      await db?.done();
    });
    const start = async (profile: Profile, limits: Partial<ServerLimits> = {}) => {
      const o = await inProcess(db.target, profile, limits);
      open.push(o);
      return o;
    };

    // ------------------------------------------------------------------ claim challenges

    const challenge = (app: FastifyInstance, did: string, client: string) =>
      post(app, '/v1/claims/challenges', { did, method: 'well-known', expiresInSeconds: 86_400 }, client);

    it('attack: one public-profile client floods 24-hour claim challenges at the edge of the pool → it is refused at its share (429, Retry-After ~ a day); the next client still gets one', async () => {
      const { app } = await start('public', CLAIM_SHARES);
      const { claimChallengesPerClient: share } = CLAIM_SHARES;
      // The pool one share and one challenge short of full: what an earlier flood left.
      await db.sql(fillSql(engine, 'claim_challenges', CHALLENGE_LIMIT - share - 1, DAY_MS));
      const attacker = '203.0.113.66';
      const answers: number[] = [];
      for (let i = 0; i < share + 2; i++) answers.push((await challenge(app, `did:web:flood${i}.example`, attacker)).statusCode);
      expect(answers).toEqual([...Array(share).fill(201), 429, 429]);
      const refused = problemOf(await challenge(app, 'did:web:flood-more.example', attacker));
      expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(refused.detail).toMatch(new RegExp(`client's share of ${share} pending claim challenges is used up \\(SVC_CLAIM_PENDING_PER_CLIENT\\)`));
      expect(refused.retryAfter).toBeGreaterThan(86_000);
      expect(refused.retryAfter).toBeLessThanOrEqual(86_400);

      // Before the shares, the attacker held these slots too and a fresh client got 503.
      const other = await challenge(app, 'did:web:honest.example', '198.51.100.7');
      expect(other.statusCode, other.body).toBe(201);
      // The pool is now full: the next one is the service's capacity, 503 with a short Retry-After.
      const full = problemOf(await challenge(app, 'did:web:late.example', '198.51.100.8'));
      expect(full).toMatchObject({ status: 503, code: 'CAPACITY_EXHAUSTED' });
      expect(full.retryAfter).toBeGreaterThanOrEqual(1);
      expect(full.retryAfter).toBeLessThanOrEqual(60);
    });

    it("second client: a DID's share refuses only a client that already holds one of its challenges — the DID's controller, holding none, still gets one", async () => {
      const { app } = await start('public', CLAIM_SHARES);
      const victim = 'did:web:victim.example';
      // Another address than the other cases': on PostgreSQL the public budgets are the database's, kept across cases.
      const attacker = '203.0.113.67';
      expect((await challenge(app, victim, attacker)).statusCode).toBe(201);
      expect((await challenge(app, victim, attacker)).statusCode).toBe(201);
      const refused = problemOf(await challenge(app, victim, attacker));
      expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(refused.detail).toContain("DID's share of 2 pending claim challenges is used up (SVC_CLAIM_PENDING_PER_DID)");
      expect(refused.detail).toContain(victim);
      // Other DIDs are still open to the attacker (its own share has room) …
      expect((await challenge(app, 'did:web:elsewhere.example', attacker)).statusCode).toBe(201);
      // … and the DID to its controller and to anyone else who holds none of its challenges.
      const controller = await challenge(app, victim, '198.51.100.7');
      expect(controller.statusCode, controller.body).toBe(201);
      expect((await challenge(app, victim, '2001:db8:1::7')).statusCode).toBe(201);
      // A client behind the same /64 is the same client.
      expect((await challenge(app, victim, '2001:db8:1::8')).statusCode).toBe(429);
    });

    it('concurrent creators of one client, or of one DID, on two connections never pass its share together', async () => {
      const first = await openDatabase({ target: db.target });
      const second = await openDatabase({ target: db.target });
      try {
        const limits = { total: CHALLENGE_LIMIT, perClient: 5, perDid: 3 };
        const create = (n: number, did: string, client: string) =>
          (n % 2 === 0 ? first : second).claims.createChallenge(
            { token: randomBytes(32).toString('base64url'), did, method: 'dns', purpose: 'claim', ttlSeconds: 600, client },
            limits,
          );
        const isRefusal = (r: ClaimChallenge | PendingRefusal): r is PendingRefusal => 'refused' in r;
        const byClient = await Promise.all(Array.from({ length: 16 }, (_, i) => create(i, `did:web:c${i}.example`, '203.0.113.1')));
        expect(byClient.filter((r) => !isRefusal(r))).toHaveLength(5);
        expect(new Set(byClient.filter(isRefusal).map((r) => r.refused))).toEqual(new Set(['client']));
        // One DID, each creator a client of its own holding none of its challenges: all are
        // admitted, the DID's share past full (a DID's share never shuts out such a client) …
        const byDid = await Promise.all(Array.from({ length: 8 }, (_, i) => create(i, 'did:web:one.example', `198.51.100.${i + 1}`)));
        expect(byDid.filter((r) => !isRefusal(r))).toHaveLength(8);
        // … but none of them may add a second one while the share is full, however many ask at once.
        const again = await Promise.all(Array.from({ length: 6 }, (_, i) => create(i, 'did:web:one.example', '198.51.100.1')));
        expect(again.filter((r) => !isRefusal(r))).toHaveLength(0);
        expect(new Set(again.filter(isRefusal).map((r) => r.refused))).toEqual(new Set(['did']));
      } finally {
        await first.close();
        await second.close();
      }
    });

    // ------------------------------------------------------------------ sign-in challenges

    it('attack: one loopback client floods sign-in challenges at the edge of the pool → refused at its share (429); the real owner, from another address, still signs in', async () => {
      const { gateway, store } = await start('direct');
      const owner = didKeyPrincipal();
      await ownerOf(store, owner.did);
      const share = DEFAULT_LIMITS.signInChallengesPerClient;
      await db.sql(fillSql(engine, 'sign_in_challenges', SIGN_IN_CHALLENGE_LIMIT - share - 1, 300_000));
      const attacker = '127.0.0.1';
      const answers: number[] = [];
      // The attacker asks for the owner's DID too (up to the DID's share) and then for any DID.
      for (let i = 0; i < share + 2; i++) {
        const did = i < DEFAULT_LIMITS.signInChallengesPerDid ? owner.did : didKeyPrincipal().did;
        answers.push((await post(gateway!, '/sign-in/challenge', { did }, attacker)).statusCode);
      }
      expect(answers).toEqual([...Array(share).fill(201), 429, 429]);
      const refused = problemOf(await post(gateway!, '/sign-in/challenge', { did: owner.did }, attacker));
      expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(refused.detail).toMatch(/client's share of 10 pending sign-in challenges is used up \(SVC_SIGN_IN_PENDING_PER_CLIENT\)/);
      expect(refused.retryAfter).toBeGreaterThan(250);
      expect(refused.retryAfter).toBeLessThanOrEqual(300);

      // Before the shares, the pool was full now and the owner got 503.
      const session = await signIn(gateway!, owner, '127.0.0.2');
      expect(session.statusCode, session.body).toBe(200);
      expect(session.headers['set-cookie']).toMatch(/^svc_session=/);
    });

    it("second client: the attacker holding the owner DID's share of sign-in challenges does not keep the owner out", async () => {
      const { gateway, store } = await start('direct');
      const owner = didKeyPrincipal();
      await ownerOf(store, owner.did);
      const attacker = '127.0.0.1';
      for (let i = 0; i < DEFAULT_LIMITS.signInChallengesPerDid; i++)
        expect((await post(gateway!, '/sign-in/challenge', { did: owner.did }, attacker)).statusCode).toBe(201);
      const refused = problemOf(await post(gateway!, '/sign-in/challenge', { did: owner.did }, attacker));
      expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(refused.detail).toContain("DID's share of 3 pending sign-in challenges is used up (SVC_SIGN_IN_PENDING_PER_DID)");
      const session = await signIn(gateway!, owner, '127.0.0.2');
      expect(session.statusCode, session.body).toBe(200);
    });

    // ------------------------------------------------------------------ the gateway's budget

    it('attack: no budget on gateway routes → past its budget a client gets 429 RATE_LIMITED with Retry-After on every gateway route; another client is unaffected; the bucket refills', async () => {
      const { gateway, clock } = await start('direct');
      const budget = DEFAULT_LIMITS.gatewayPerMinute;
      const flood = '127.0.0.1';
      const statuses: number[] = [];
      for (let i = 0; i < budget; i++) statuses.push((await gateway!.inject({ method: 'GET', url: '/session', remoteAddress: flood })).statusCode);
      // Unsigned: 401 each time, but each one answered and counted.
      expect(new Set(statuses)).toEqual(new Set([401]));
      for (const request of [
        { method: 'GET' as const, url: '/session' },
        { method: 'GET' as const, url: '/' },
        { method: 'POST' as const, url: '/sign-in/challenge', payload: '{"did":"did:web:x.example"}', headers: { 'content-type': 'application/json' } },
        { method: 'POST' as const, url: '/sign-in', payload: '{}', headers: { 'content-type': 'application/json' } },
        { method: 'GET' as const, url: '/v1/session/projects' },
        { method: 'GET' as const, url: '/nowhere' },
      ]) {
        const answer = problemOf(await gateway!.inject({ ...request, remoteAddress: flood }));
        expect(answer, request.url).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
        expect(answer.detail).toContain(`the gateway's budget of ${budget} requests per minute is used up`);
        expect(answer.retryAfter).toBeGreaterThanOrEqual(1);
      }
      expect((await gateway!.inject({ method: 'GET', url: '/session', remoteAddress: '127.0.0.2' })).statusCode).toBe(401);
      // A token comes back after 60/budget seconds (refilled continuously).
      clock.advance(Math.ceil(60_000 / budget));
      expect((await gateway!.inject({ method: 'GET', url: '/session', remoteAddress: flood })).statusCode).toBe(401);
      expect((await gateway!.inject({ method: 'GET', url: '/session', remoteAddress: flood })).statusCode).toBe(429);
    });
  });
}

/** A tenant owned by `did` with one project (an owner with nothing to sign in to is refused 403). */
async function ownerOf(store: RuntimeStore, did: string): Promise<void> {
  const tenant = await store.accounts.createTenant({ name: `t-${did.slice(-8)}`, owner: did });
  await store.accounts.createProject(tenant.id, { name: 'site' });
}

/** The owner's sign-in at the gateway from `client`: challenge, signature of its statement, sign-in. */
async function signIn(gateway: FastifyInstance, owner: ReturnType<typeof didKeyPrincipal>, client: string): Promise<LightMyRequestResponse> {
  const asked = await post(gateway, '/sign-in/challenge', { did: owner.did }, client, { origin: ORIGIN });
  expect(asked.statusCode, asked.body).toBe(201);
  const { challenge, statement } = asked.json() as { challenge: string; statement: string };
  return post(gateway, '/sign-in', { did: owner.did, challenge, jws: signStatement(owner, statement) }, client, { origin: ORIGIN });
}
