/**
 * The open delegation registry (SVC_DELEGATION_ROOTS unset, the
 * default) filled for a century. 100 clients × 100 self-rooted chains with a 100-year expiry
 * took the 10,000 slots in 32 s, and every later registration answered "registry full". Each
 * case is that attack, or a part of it, against the daemon's own app (Fastify inject(), one
 * remoteAddress per client) on a SQLite file and on PostgreSQL (a database of its own):
 *
 * - a chain expiring a century ahead is verified but not registered (SVC_REGISTRATION_MAX_DAYS),
 *   and a registered chain's slot frees itself when the chain lapses;
 * - one client holds at most its share at once (SVC_REGISTRY_PER_CLIENT), whatever its quota;
 * - many clients cannot pile on one root (SVC_REGISTRY_PER_ROOT);
 * - a flood never denies another: with the registry full of flooders' long-lived self-rooted
 *   chains, a fresh client with a fresh root still registers (the oldest chain of the client
 *   holding the most gives way);
 * - a century chain stored before the lifetime existed is dropped by the re-verification at
 *   start, so an upgraded daemon does not keep the attack's slots;
 * - two daemons on one database cannot together pass a client's share.
 *
 * The daemon's clock is a test clock (receipts are minted around it, lapses are clock moves).
 * Most of each share is written by SQL as the route writes it (a client key, a self-rooted
 * chain, 365 days ahead) and its last chains go through the route, which then refuses the next:
 * 10,000 verifications would only slow the test, not change what it shows.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chainId } from '../../src/core/delegation/index.js';
import { MAX_REGISTERED_CHAINS } from '../../src/core/delegation/registry.js';
import type { Runtime } from '../../src/core/runtime.js';
import { buildApp } from '../../src/server/app.js';
import { Capacity } from '../../src/server/capacity.js';
import type { ServerContext } from '../../src/server/context.js';
import { DEFAULT_LIMITS, type ServerLimits } from '../../src/server/limits.js';
import { StorageSlot } from '../../src/server/storage.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { describePostgres } from '../support/postgres.js';
import { didKeyPrincipal, mintReceipt, type Principal } from '../support/receipts.js';
import { fixedClock, testRuntime, type TestClock } from '../support/runtime.js';

type Engine = 'SQLite' | 'PostgreSQL';

const START = '2025-03-04T05:06:07.000Z';
const NOW = Date.parse(START) / 1000;
const DAY = 86_400;

/** The schema's time text: RFC 3339 UTC, whole seconds. */
const text = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A self-rooted chain: a fresh root delegates `*` straight to the agent, valid until `exp`. */
async function selfRooted(agent: Principal, exp: number, root: Principal = didKeyPrincipal()): Promise<string[]> {
  return [await mintReceipt(root, agent, { cap: ['*'], nbf: NOW - 60, exp, now: NOW })];
}

interface Daemon {
  app: ReturnType<typeof buildApp>;
  clock: TestClock;
  storage: StorageSlot;
  close(): Promise<void>;
}

/**
 * The daemon's app over its own storage slot on `target`, as `svc serve` builds it (the direct
 * profile, the open registry). `limits` replaces defaults for one case; only the request budget
 * and the registration quota are ever raised, so that the share, not the rate, is what refuses.
 */
async function daemonOn(target: string, limits: Partial<ServerLimits> = {}, clock: TestClock = fixedClock(START)): Promise<Daemon> {
  const runtime: Runtime = testRuntime(clock);
  const storage = new StorageSlot(target, false);
  await storage.open();
  if (storage.error) throw new Error(storage.error);
  Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
  const all: ServerLimits = { ...DEFAULT_LIMITS, directPerMinute: 100_000, ...limits };
  const ctx: ServerContext = {
    runtime,
    storage,
    profile: 'direct',
    limits: all,
    capacity: new Capacity(64, 32),
    startedAt: clock.now(),
    draining: false,
    active: 0,
  };
  const app = buildApp(ctx);
  await app.ready();
  return {
    app,
    clock,
    storage,
    close: async () => {
      await app.close();
      await storage.close();
    },
  };
}

interface Registered {
  registered: boolean;
  registrationReason?: string;
  result: { status: string };
}

/** POST /v1/agents/verify-delegation with register: true from `client` (its address). */
async function register(daemon: Daemon, client: string, chain: string[]): Promise<Registered> {
  const response = await daemon.app.inject({
    method: 'POST',
    url: '/v1/agents/verify-delegation',
    remoteAddress: client,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ chain, register: true }),
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as Registered;
  expect(body.result.status).toBe('VALID');
  return body;
}

/** The numbers 1..n as rows `i`, in one statement of the engine. */
const series = (engine: Engine, n: number) =>
  engine === 'SQLite'
    ? `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n}) SELECT i FROM n`
    : `SELECT generate_series(1, ${n}) AS i`;

/**
 * `n` rows as the route writes them (a client key, a self-rooted chain), one statement: `client`
 * and `root` are SQL expressions of the row number `i` (a text `n` of it is given).
 */
function seed(
  engine: Engine,
  n: number,
  rows: { prefix: string; client: (n: string) => string; root?: (n: string) => string; expires: number; registered: number },
): string {
  const num = engine === 'SQLite' ? 'i' : 'i::text';
  const root = rows.root?.(num) ?? `'did:example:${rows.prefix}-root-' || ${num}`;
  return `INSERT INTO delegation_chains (id, chain, root_did, leaf_did, expires_at, registered_at, client)
    SELECT '${rows.prefix}-' || ${num}, '["x"]', ${root}, 'did:example:${rows.prefix}-agent-' || ${num}, '${text(rows.expires)}', '${text(rows.registered)}', ${rows.client(num)}
    FROM (${series(engine, n)}) AS filler ORDER BY i`;
}

/** Route registrations per case: the rest of a share is written by seed(). */
const THROUGH_ROUTE = 5;

function attacks(engine: Engine, describeEngine: (name: string, fn: () => void) => void, open: () => Promise<TestDatabase>): void {
  describeEngine(`the open delegation registry holds the line (${engine})`, () => {
    let db: TestDatabase;
    let daemon: Daemon | undefined;
    const count = async (where = 'TRUE') => Number((await db.sql(`SELECT count(*) AS n FROM delegation_chains WHERE ${where}`))[0]!.n);

    // One database for the file; each case starts from an empty registry.
    beforeAll(async () => {
      db = await open();
      // The schema first, so that a case may write rows before its daemon starts.
      const slot = new StorageSlot(db.target, false);
      await slot.open();
      await slot.close();
    });
    afterEach(async () => {
      await daemon?.close();
      daemon = undefined;
      await db.sql('DELETE FROM delegation_chains');
    });
    afterAll(async () => {
      await db?.done();
    });

    it('a chain expiring a century ahead is verified but not registered; one within 366 days is, and its slot frees when it lapses', async () => {
      daemon = await daemonOn(db.target);
      const century = await register(daemon, '127.0.0.2', await selfRooted(didKeyPrincipal(), NOW + 100 * 365 * DAY));
      expect(century.registered).toBe(false);
      expect(century.registrationReason).toMatch(
        /^The chain is valid until 2125-.*, more than 366 days ahead, and a registration lasts at most 366 days; the chain was verified but not registered\./,
      );
      // svc delegate's longest receipt (366 days) registers.
      expect(await register(daemon, '127.0.0.2', await selfRooted(didKeyPrincipal(), NOW + 366 * DAY))).toEqual(expect.objectContaining({ registered: true }));
      expect(await count()).toBe(1);
      // Once it lapses its slot is free: the client's share is whole again, and the row is gone
      // at the next registration (expired chains never count toward the 10,000).
      daemon.clock.advance((366 * DAY + 1) * 1000);
      const later = NOW + 366 * DAY + 1;
      expect(
        (await register(daemon, '127.0.0.2', [await mintReceipt(didKeyPrincipal(), didKeyPrincipal(), { nbf: later - 60, exp: later + DAY, now: later })]))
          .registered,
      ).toBe(true);
      expect(await count()).toBe(1);
    });

    it(`one client holds at most its share (${DEFAULT_LIMITS.registryPerClient} chains) at once, whatever its quota, each chain with a root of its own`, async () => {
      daemon = await daemonOn(db.target, { registrationsPerClient: 10_000 });
      const perClient = DEFAULT_LIMITS.registryPerClient;
      const exp = NOW + 365 * DAY;
      // Its earlier registrations, then the last few of its share through the route.
      await db.sql(seed(engine, perClient - THROUGH_ROUTE, { prefix: 'earlier', client: () => "'127.0.0.3'", expires: exp, registered: NOW - 3600 }));
      for (let i = 0; i < THROUGH_ROUTE; i++) {
        expect((await register(daemon, '127.0.0.3', await selfRooted(didKeyPrincipal(), exp - i))).registered).toBe(true);
      }
      expect(await count(`client = '127.0.0.3'`)).toBe(perClient);
      const over = await register(daemon, '127.0.0.3', await selfRooted(didKeyPrincipal(), exp));
      expect(over).toEqual(
        expect.objectContaining({
          registered: false,
          registrationReason: `This client already holds ${perClient} registered chains, its share of the registry (${perClient} at once); the chain was verified but not registered. A place frees when one of them expires.`,
        }),
      );
      expect(await count()).toBe(perClient);
      // Another client is not affected.
      expect((await register(daemon, '127.0.0.4', await selfRooted(didKeyPrincipal(), exp))).registered).toBe(true);
    });

    it(`many clients cannot pile on one root: its chains hold at most ${DEFAULT_LIMITS.registryPerRoot} registrations`, async () => {
      daemon = await daemonOn(db.target);
      const root = didKeyPrincipal();
      const perRoot = DEFAULT_LIMITS.registryPerRoot;
      const exp = NOW + 365 * DAY;
      await db.sql(
        seed(engine, perRoot - THROUGH_ROUTE, {
          prefix: 'piled',
          client: (n) => `'127.0.1.' || ${n}`,
          root: () => `'${root.did}'`,
          expires: exp,
          registered: NOW - 3600,
        }),
      );
      for (let i = 0; i < THROUGH_ROUTE; i++) {
        expect((await register(daemon, `127.0.2.${i + 1}`, await selfRooted(didKeyPrincipal(), exp, root))).registered).toBe(true);
      }
      const over = await register(daemon, '127.0.3.1', await selfRooted(didKeyPrincipal(), exp, root));
      expect(over.registered).toBe(false);
      expect(over.registrationReason).toBe(
        `Chains rooted in ${root.did} already hold ${perRoot} registrations, the share of one root (${perRoot} at once); the chain was verified but not registered. A place frees when one of them expires.`,
      );
      expect(await count(`root_did = '${root.did}'`)).toBe(perRoot);
      // The same client with another root is not affected.
      expect((await register(daemon, '127.0.3.1', await selfRooted(didKeyPrincipal(), exp))).registered).toBe(true);
    });

    it('a flood never denies another: with the registry full of 100 clients × 100 self-rooted chains of a year, a fresh client with a fresh root registers', async () => {
      daemon = await daemonOn(db.target);
      const perClient = DEFAULT_LIMITS.registryPerClient;
      const flooders = MAX_REGISTERED_CHAINS / perClient;
      const exp = NOW + 365 * DAY;
      // 99 flooders' rows and most of the last one's, registered an hour ago; the last few of the
      // last flooder through the route: the registry is then full.
      await db.sql(
        seed(engine, (flooders - 1) * perClient, {
          prefix: 'flood',
          // Rows 1..100 are 127.0.5.1's, 101..200 127.0.5.2's… (integer division on both engines).
          client: () => (engine === 'SQLite' ? `'127.0.5.' || ((i - 1) / ${perClient} + 1)` : `'127.0.5.' || ((i - 1) / ${perClient} + 1)::text`),
          expires: exp,
          registered: NOW - 3600,
        }),
      );
      await db.sql(seed(engine, perClient - THROUGH_ROUTE, { prefix: 'last', client: () => "'127.0.6.1'", expires: exp, registered: NOW - 1800 }));
      for (let n = 0; n < THROUGH_ROUTE; n++) expect((await register(daemon, '127.0.6.1', await selfRooted(didKeyPrincipal(), exp - n))).registered).toBe(true);
      expect(await count()).toBe(MAX_REGISTERED_CHAINS);
      const more = await register(daemon, '127.0.6.1', await selfRooted(didKeyPrincipal(), exp));
      expect(more.registered).toBe(false);
      expect(more.registrationReason).toMatch(/^This client already holds 100 registered chains, its share of the registry/);

      // A fresh client with a fresh root: registered. The oldest chain of a client holding the
      // most gave way; the registry still holds 10,000.
      const agent = didKeyPrincipal();
      expect(await register(daemon, '127.0.7.1', await selfRooted(agent, NOW + 30 * DAY))).toEqual(expect.objectContaining({ registered: true }));
      expect(await count()).toBe(MAX_REGISTERED_CHAINS);
      expect(await count(`leaf_did = '${agent.did}'`)).toBe(1);
      expect(await count(`client = '127.0.5.1'`)).toBe(perClient - 1);
      expect(await count(`id = 'flood-1'`)).toBe(0);
      // And again: the newcomer's next chains, and another newcomer's, while anyone holds two more.
      for (let n = 0; n < 2; n++) expect((await register(daemon, '127.0.7.1', await selfRooted(didKeyPrincipal(), NOW + 30 * DAY))).registered).toBe(true);
      expect((await register(daemon, '127.0.7.2', await selfRooted(didKeyPrincipal(), NOW + 30 * DAY))).registered).toBe(true);
      expect(await count()).toBe(MAX_REGISTERED_CHAINS);
      // A flooder that lost a chain cannot take one back from its peers: none holds two more than it.
      const back = await register(daemon, '127.0.5.1', await selfRooted(didKeyPrincipal(), exp));
      expect(back).toEqual(
        expect.objectContaining({
          registered: false,
          registrationReason: `The registry is full (${MAX_REGISTERED_CHAINS} unexpired chains) and no client holds more than this one; nothing was registered.`,
        }),
      );
    });

    it('a century chain stored before the lifetime existed loses its slot at the next start; a year chain stored beside it is kept', async () => {
      const agent = didKeyPrincipal();
      const century = await selfRooted(agent, NOW + 100 * 365 * DAY);
      const year = await selfRooted(agent, NOW + 365 * DAY);
      // As a daemon before this bound stored them: no client.
      for (const [chain, expires] of [
        [century, NOW + 100 * 365 * DAY],
        [year, NOW + 365 * DAY],
      ] as const) {
        const root = (JSON.parse(Buffer.from(chain[0]!.split('.')[1]!, 'base64url').toString()) as { iss: string }).iss;
        await db.sql(
          `INSERT INTO delegation_chains (id, chain, root_did, leaf_did, expires_at, registered_at)
           VALUES ('${chainId(chain)}', '${JSON.stringify(chain)}', '${root}', '${agent.did}', '${text(expires)}', '${text(NOW - DAY)}')`,
        );
      }
      daemon = await daemonOn(db.target);
      // verify-tool waits for the re-verification of the registry, which drops the century chain.
      const response = await daemon.app.inject({
        method: 'GET',
        url: `/v1/agents/verify-tool?${new URLSearchParams({ agent: agent.did, tool: 'search' }).toString()}`,
        remoteAddress: '127.0.0.9',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ decision: 'ALLOW', expires: text(NOW + 365 * DAY) });
      expect(await count()).toBe(1);
      expect(await count(`id = '${chainId(year)}'`)).toBe(1);
    });

    it("two daemons on one database cannot together pass a client's share", async () => {
      daemon = await daemonOn(db.target);
      const second = await daemonOn(db.target);
      try {
        const perClient = DEFAULT_LIMITS.registryPerClient;
        await db.sql(seed(engine, perClient - 1, { prefix: 'held', client: () => "'127.0.8.1'", expires: NOW + DAY, registered: NOW - 60 }));
        // One place left in the client's share; both daemons are asked for it at once, twice over.
        const chains = await Promise.all(Array.from({ length: 4 }, () => selfRooted(didKeyPrincipal(), NOW + DAY)));
        const outcomes = await Promise.all(chains.map((chain, n) => register(n % 2 === 0 ? daemon! : second, '127.0.8.1', chain)));
        expect(outcomes.filter((o) => o.registered)).toHaveLength(1);
        expect(await count(`client = '127.0.8.1'`)).toBe(perClient);
      } finally {
        await second.close();
      }
    });
  });
}

attacks('SQLite', describe, () => sqliteDatabase('svc-attacks-registry'));
attacks('PostgreSQL', describePostgres, postgresDatabase);
