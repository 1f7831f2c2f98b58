/**
 * The delegation registry (docs/delegation.md#the-registry: `register: true`, verify-tool) over a
 * real SQLite file: receipts minted with `jose` SignJWT by did:key issuers, verified by svc's core,
 * registered, looked up, re-verified and dropped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chainId, verifyDelegationChain, type DelegationChainResult } from '../../src/core/delegation/index.js';
import { MAX_REGISTERED_CHAINS, registerChain, reverifyRegisteredChains, verifyTool } from '../../src/core/delegation/registry.js';
import type { Runtime } from '../../src/core/runtime.js';
import type { DelegationChainStore } from '../../src/core/store.js';
import { openStore } from '../../src/store/index.js';
import { fixedClock, testRuntime, type TestClock } from '../support/runtime.js';
import { didKeyPrincipal, mintReceipt, type Principal, type ReceiptOptions } from '../support/receipts.js';
import { tempStore, type TempStore } from '../support/store.js';

const START = '2025-03-04T05:06:07Z';
const NOW = Date.parse(START) / 1000;

const principal = didKeyPrincipal;

/** A receipt valid around the fixed clock (NOW): from ten minutes before to an hour after. */
const receipt = (iss: Principal, aud: Principal, options: ReceiptOptions = {}): Promise<string> =>
  mintReceipt(iss, aud, { nbf: NOW - 600, exp: NOW + 3600, ...options });

/** root → middle → agent, narrowing to `cap` at the leaf. */
async function chainTo(
  agent: Principal,
  options: { root?: Principal; cap?: string[]; nbf?: number; exp?: number } = {},
): Promise<{ chain: string[]; root: Principal }> {
  const root = options.root ?? principal();
  const middle = principal();
  const first = await receipt(root, middle, { cap: ['*'], nbf: NOW - 3600, exp: NOW + 7200 });
  const leaf = await receipt(middle, agent, {
    cap: options.cap ?? ['payments:*', 'search'],
    parent: first,
    nbf: options.nbf ?? NOW - 600,
    exp: options.exp ?? NOW + 3600,
  });
  return { chain: [first, leaf], root };
}

let opened: TempStore[] = [];
afterEach(() => {
  for (const t of opened) t.cleanup();
  opened = [];
});

function setup(): { runtime: Runtime & { store: NonNullable<Runtime['store']> }; clock: TestClock; temp: TempStore } {
  const temp = tempStore();
  opened.push(temp);
  const clock = fixedClock(`${START.slice(0, -1)}.000Z`);
  return { runtime: { ...testRuntime(clock), store: temp.store }, clock, temp };
}

const verify = (runtime: Runtime) => (chain: string[]) => verifyDelegationChain(chain, { runtime });

async function registered(runtime: Runtime, chain: string[], allowedRoots: readonly string[] | null = null): Promise<DelegationChainResult> {
  const result = await verifyDelegationChain(chain, { runtime });
  expect(result.status, result.headline).toBe('VALID');
  expect(await registerChain(runtime, chain, result, allowedRoots)).toEqual({ registered: true, reason: null });
  return result;
}

const at = (seconds: number) => new Date(seconds * 1000);

describe('registerChain', () => {
  it('stores a VALID chain under its chain id with root, leaf, expiry and registration time', async () => {
    const { runtime } = setup();
    const agent = principal();
    const { chain, root } = await chainTo(agent);
    const result = await registered(runtime, chain);
    expect(await runtime.store.delegationChains.all()).toEqual([
      { id: chainId(chain), chain, rootDid: root.did, leafDid: agent.did, expiresAt: result.notAfter, registeredAt: START, client: null },
    ]);
    expect(result.notAfter).toBe('2025-03-04T06:06:07Z');
  });

  it('registers nothing but a VALID chain', async () => {
    const { runtime } = setup();
    const { chain } = await chainTo(principal());
    const broken = [chain[0]!, `${chain[1]!.slice(0, -4)}AAAA`];
    const result = await verifyDelegationChain(broken, { runtime });
    expect(result.status).not.toBe('VALID');
    expect(await registerChain(runtime, broken, result, null)).toEqual({
      registered: false,
      reason: `Only a VALID chain is registered; this chain is ${result.status}.`,
    });
    const empty = await verifyDelegationChain([], { runtime });
    expect((await registerChain(runtime, [], empty, null)).registered).toBe(false);
    expect(await runtime.store.delegationChains.count()).toBe(0);
  });

  it('refuses a root the operator does not allow, and accepts a listed one (fragment ignored)', async () => {
    const { runtime } = setup();
    const agent = principal();
    const { chain, root } = await chainTo(agent);
    const result = await verifyDelegationChain(chain, { runtime });
    const other = principal();
    expect(await registerChain(runtime, chain, result, [other.did])).toEqual({
      registered: false,
      reason: `The root ${root.did} is not among the roots this service allows to register delegations.`,
    });
    expect(await registerChain(runtime, chain, result, [])).toMatchObject({ registered: false });
    expect(await runtime.store.delegationChains.count()).toBe(0);
    expect(await registerChain(runtime, chain, result, [other.did, root.kid])).toEqual({ registered: true, reason: null });
    expect(await runtime.store.delegationChains.count()).toBe(1);
  });

  it('says so when there is no store', async () => {
    const runtime = testRuntime(fixedClock(`${START.slice(0, -1)}.000Z`));
    const { chain } = await chainTo(principal());
    const result = await verifyDelegationChain(chain, { runtime });
    expect(await registerChain(runtime, chain, result, null)).toEqual({
      registered: false,
      reason: 'No database is open, so the chain could not be registered.',
    });
  });

  it('registering the same chain again keeps one row and refreshes its registration time', async () => {
    const { runtime, clock } = setup();
    const { chain } = await chainTo(principal());
    await registered(runtime, chain);
    clock.advance(5_000);
    await registered(runtime, chain);
    const rows = await runtime.store.delegationChains.all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.registeredAt).toBe('2025-03-04T05:06:12Z');
  });

  it('bounds the registry: when full of unexpired chains a new chain is refused, expired ones are purged first', async () => {
    const { runtime, temp } = setup();
    const agent = principal();
    // The filler goes straight into SQLite, in one synchronous transaction: the store's own
    // register() is asynchronous, and 10 000 separate commits would be slow.
    const upsert = temp.store.db.prepare(
      `INSERT INTO delegation_chains (id, chain, root_did, leaf_did, expires_at, registered_at) VALUES (?, '["x"]', 'did:example:r', 'did:example:l', ?, ?)
       ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at, registered_at = excluded.registered_at`,
    );
    const insert = temp.store.db.transaction((expiresAt: string) => {
      for (let i = 0; i < MAX_REGISTERED_CHAINS; i++) upsert.run(`filler-${i}`, expiresAt, START);
    });
    insert('2099-01-01T00:00:00Z');
    const { chain } = await chainTo(agent);
    const result = await verifyDelegationChain(chain, { runtime });
    expect(await registerChain(runtime, chain, result, null)).toEqual({
      registered: false,
      reason: `The registry is full (${MAX_REGISTERED_CHAINS} unexpired chains); nothing was registered.`,
    });
    insert('2000-01-01T00:00:00Z'); // the same ids, now expired
    expect(await registerChain(runtime, chain, result, null)).toEqual({ registered: true, reason: null });
    expect(await runtime.store.delegationChains.count()).toBe(1);
  });

  it("asks `admit` (the daemon's per-client quota) only for a new chain about to be stored", async () => {
    const { runtime } = setup();
    const asked: string[] = [];
    let refuse = false;
    const admit = () => {
      asked.push('asked');
      return refuse ? 'Quota used up.' : null;
    };
    const { chain } = await chainTo(principal());
    const result = await verifyDelegationChain(chain, { runtime });
    // Refusals that come first are not charged: not VALID, root not allowed, no store.
    const broken = [chain[0]!, `${chain[1]!.slice(0, -4)}AAAA`];
    await registerChain(runtime, broken, await verifyDelegationChain(broken, { runtime }), null, { admit });
    await registerChain(runtime, chain, result, [principal().did], { admit });
    await registerChain(testRuntime(), chain, result, null, { admit });
    expect(asked).toHaveLength(0);
    expect(await registerChain(runtime, chain, result, null, { admit })).toEqual({ registered: true, reason: null });
    expect(asked).toHaveLength(1);
    // The same chain again is a refresh: not charged, even with the quota used up.
    refuse = true;
    expect(await registerChain(runtime, chain, result, null, { admit })).toEqual({ registered: true, reason: null });
    expect(asked).toHaveLength(1);
    const next = await chainTo(principal());
    const nextResult = await verifyDelegationChain(next.chain, { runtime });
    expect(await registerChain(runtime, next.chain, nextResult, null, { admit })).toEqual({ registered: false, reason: 'Quota used up.' });
    expect(asked).toHaveLength(2);
    expect(await runtime.store.delegationChains.count()).toBe(1);
  });
});

describe('registerChain: the registry is shared fairly', () => {
  it('registers a chain expiring up to 366 days (and the 60 s of skew) ahead, and no further; maxDays changes it', async () => {
    const { runtime } = setup();
    const single = async (exp: number) => {
      const chain = [await receipt(principal(), principal(), { exp })];
      return { chain, result: await verifyDelegationChain(chain, { runtime }) };
    };
    const edge = await single(NOW + 366 * 86_400 + 60);
    expect(await registerChain(runtime, edge.chain, edge.result, null)).toEqual({ registered: true, reason: null });
    const beyond = await single(NOW + 366 * 86_400 + 61);
    expect(beyond.result.status).toBe('VALID');
    expect(await registerChain(runtime, beyond.chain, beyond.result, null)).toEqual({
      registered: false,
      reason: `The chain is valid until ${beyond.result.notAfter}, more than 366 days ahead, and a registration lasts at most 366 days; the chain was verified but not registered. Register a chain that expires sooner.`,
    });
    const month = await single(NOW + 31 * 86_400);
    expect((await registerChain(runtime, month.chain, month.result, null, { limits: { maxDays: 30 } })).reason).toMatch(/more than 30 days ahead/);
    expect(await runtime.store.delegationChains.count()).toBe(1);
  });

  it("a client's and a root's share refuse before the quota is charged; the operator's own registrations have no share", async () => {
    const { runtime } = setup();
    let charged = 0;
    const admit = () => {
      charged += 1;
      return null;
    };
    const limits = { chainsPerClient: 2, chainsPerRoot: 3 };
    const root = principal();
    const chainOf = async (from = root) => {
      const chain = [await receipt(from, principal())];
      return { chain, result: await verifyDelegationChain(chain, { runtime }) };
    };
    const as = async (client: string | undefined, from?: Principal) => {
      const { chain, result } = await chainOf(from);
      return registerChain(runtime, chain, result, null, { admit, limits, ...(client === undefined ? {} : { client }) });
    };
    expect((await as('a')).registered).toBe(true);
    expect((await as('a')).registered).toBe(true);
    expect(await as('a')).toEqual({
      registered: false,
      reason:
        'This client already holds 2 registered chains, its share of the registry (2 at once); the chain was verified but not registered. A place frees when one of them expires.',
    });
    expect((await as('b')).registered).toBe(true);
    expect((await as('c')).reason).toBe(
      `Chains rooted in ${root.did} already hold 3 registrations, the share of one root (3 at once); the chain was verified but not registered. A place frees when one of them expires.`,
    );
    expect(charged).toBe(3);
    // The operator's own (no client): no share of a client or a root.
    for (let i = 0; i < 3; i++) expect((await as(undefined)).registered).toBe(true);
    const rows = await runtime.store.delegationChains.all();
    expect(rows.map((r) => r.client ?? 'operator').sort()).toEqual(['a', 'a', 'b', 'operator', 'operator', 'operator']);
  });
});

describe('an asynchronous store', () => {
  /** A delegation store every method of which rejects, as a lost database connection would. */
  function failingRuntime(): Runtime {
    const { runtime } = setup();
    const down = (): Promise<never> => Promise.reject(new Error('connection lost'));
    const delegationChains: DelegationChainStore = {
      register: down,
      forAgent: down,
      all: down,
      count: down,
      remove: down,
      removeExpired: down,
      registerWithin: down,
    };
    const { observations, mcpObservations, watches, monitorEvents, claims, accounts, customerMonitor, keptLogs } = runtime.store;
    return {
      ...runtime,
      store: { storage: 'file', observations, mcpObservations, delegationChains, watches, monitorEvents, claims, accounts, customerMonitor, keptLogs },
    };
  }

  it('a rejecting store is a refusal to register and a DENY, never a rejection', async () => {
    const runtime = failingRuntime();
    const agent = principal();
    const { chain } = await chainTo(agent);
    const result = await verifyDelegationChain(chain, { runtime });
    expect(await registerChain(runtime, chain, result, null)).toEqual({
      registered: false,
      reason: 'The database refused the registration; nothing was registered.',
    });
    expect(await verifyTool(runtime, { agent: agent.did, tool: 'search' }, at(NOW))).toMatchObject({
      decision: 'DENY',
      reason: 'The delegation registry could not be read, so no registered delegation can be used.',
    });
  });

  it('registrations in flight at once are taken one at a time, so the bound holds', async () => {
    const { runtime, temp } = setup();
    const upsert = temp.store.db.prepare(
      `INSERT INTO delegation_chains (id, chain, root_did, leaf_did, expires_at, registered_at) VALUES (?, '["x"]', 'did:example:r', 'did:example:l', '2099-01-01T00:00:00Z', ?)`,
    );
    temp.store.db.transaction(() => {
      for (let i = 0; i < MAX_REGISTERED_CHAINS - 1; i++) upsert.run(`filler-${i}`, START);
    })();
    // One place left: both read the count before either writes unless they are serialised.
    const [a, b] = await Promise.all([chainTo(principal()), chainTo(principal())]);
    const [resultA, resultB] = await Promise.all([verifyDelegationChain(a.chain, { runtime }), verifyDelegationChain(b.chain, { runtime })]);
    const outcomes = await Promise.all([registerChain(runtime, a.chain, resultA, null), registerChain(runtime, b.chain, resultB, null)]);
    expect(outcomes.map((o) => o.registered)).toEqual([true, false]);
    expect(outcomes[1]!.reason).toBe(`The registry is full (${MAX_REGISTERED_CHAINS} unexpired chains); nothing was registered.`);
    expect(await runtime.store.delegationChains.count()).toBe(MAX_REGISTERED_CHAINS);
  });
});

describe('the store', () => {
  it('forAgent lists unexpired chains of the leaf, newest first; remove deletes; a reopened file keeps them', async () => {
    const { runtime, temp } = setup();
    const chains = runtime.store.delegationChains;
    const base = { chain: ['a', 'b'], rootDid: 'did:example:root', leafDid: 'did:example:agent' };
    await chains.register({ ...base, id: 'one', expiresAt: '2025-03-04T06:00:00Z', registeredAt: '2025-03-04T05:00:00Z' });
    await chains.register({ ...base, id: 'two', expiresAt: '2025-03-04T07:00:00Z', registeredAt: '2025-03-04T05:00:01Z' });
    await chains.register({ ...base, id: 'old', expiresAt: '2025-03-04T05:00:00Z', registeredAt: '2025-03-04T05:00:02Z' });
    await chains.register({ ...base, id: 'other', leafDid: 'did:example:else', expiresAt: '2025-03-04T07:00:00Z', registeredAt: '2025-03-04T05:00:03Z' });
    expect((await chains.forAgent('did:example:agent', '2025-03-04T05:30:00Z')).map((c) => c.id)).toEqual(['two', 'one']);
    expect((await chains.forAgent('did:example:agent', '2025-03-04T06:00:00Z')).map((c) => c.id)).toEqual(['two']);
    expect((await chains.all()).map((c) => c.id)).toEqual(['other', 'old', 'two', 'one']);
    expect((await chains.all())[0]!.chain).toEqual(['a', 'b']);
    await chains.remove('two');
    await chains.remove('absent');
    expect(await chains.count()).toBe(3);
    expect(await chains.removeExpired('2025-03-04T06:00:00Z')).toBe(2);
    temp.store.close();
    const again = openStore({ path: temp.path });
    try {
      expect((await again.delegationChains.all()).map((c) => c.id)).toEqual(['other']);
    } finally {
      again.close();
    }
  });
});

describe('verifyTool', () => {
  it('ALLOWs from a registered chain whose leaf capability grants the tool, naming the capability and the root relied on', async () => {
    const { runtime } = setup();
    const agent = principal();
    const { chain, root } = await chainTo(agent);
    const result = await registered(runtime, chain);
    const answer = await verifyTool(runtime, { agent: agent.did, tool: 'payments:refund' }, at(NOW));
    expect(answer).toEqual({
      agent: agent.did,
      tool: 'payments:refund',
      decision: 'ALLOW',
      authorized: true,
      reason: `${root.did} delegated "payments:*" to ${agent.did}, which grants the tool "payments:refund" until ${result.notAfter} (a registered chain). No root was required, so any registered root was accepted; this answer relies on the root ${root.did}.`,
      matchedCapability: 'payments:*',
      root: root.did,
      expires: result.notAfter,
    });
    // Case-insensitive, and the agent's DID is compared without fragment.
    expect(await verifyTool(runtime, { agent: agent.kid, tool: 'SEARCH' }, at(NOW))).toMatchObject({
      decision: 'ALLOW',
      matchedCapability: 'search',
      agent: agent.kid,
    });
  });

  it('DENYs with the stated reason when nothing is registered for the agent', async () => {
    const { runtime } = setup();
    const agent = principal();
    await registered(runtime, (await chainTo(principal())).chain);
    expect(await verifyTool(runtime, { agent: agent.did, tool: 'search' }, at(NOW))).toEqual({
      agent: agent.did,
      tool: 'search',
      decision: 'DENY',
      authorized: false,
      reason: `No verified delegation is registered for the agent ${agent.did}.`,
    });
  });

  it('honours root: only chains of that root are used', async () => {
    const { runtime } = setup();
    const agent = principal();
    const { chain, root } = await chainTo(agent);
    await registered(runtime, chain);
    const other = principal();
    expect(await verifyTool(runtime, { agent: agent.did, tool: 'search', root: other.did }, at(NOW))).toEqual({
      agent: agent.did,
      tool: 'search',
      decision: 'DENY',
      authorized: false,
      reason: `No verified delegation rooted in ${other.did} is registered for the agent ${agent.did}.`,
    });
    const allowed = await verifyTool(runtime, { agent: agent.did, tool: 'search', root: root.kid }, at(NOW));
    expect(allowed).toMatchObject({ decision: 'ALLOW', root: root.did, matchedCapability: 'search' });
    expect(allowed.reason).toContain(`${root.did} is the required root`);
  });

  it('picks, among several roots, the chain that grants the tool', async () => {
    const { runtime } = setup();
    const agent = principal();
    const narrow = await chainTo(agent, { cap: ['search'] });
    const wide = await chainTo(agent, { cap: ['payments:*'] });
    await registered(runtime, wide.chain);
    await registered(runtime, narrow.chain);
    expect(await verifyTool(runtime, { agent: agent.did, tool: 'payments:refund' }, at(NOW))).toMatchObject({ decision: 'ALLOW', root: wide.root.did });
    expect(await verifyTool(runtime, { agent: agent.did, tool: 'search' }, at(NOW))).toMatchObject({ decision: 'ALLOW', root: narrow.root.did });
  });

  it('DENYs a tool no registered capability grants, naming the capabilities', async () => {
    const { runtime } = setup();
    const agent = principal();
    await registered(runtime, (await chainTo(agent)).chain);
    expect(await verifyTool(runtime, { agent: agent.did, tool: 'refund' }, at(NOW))).toEqual({
      agent: agent.did,
      tool: 'refund',
      decision: 'DENY',
      authorized: false,
      reason: `Verified delegations are registered for the agent ${agent.did}, but none of their capabilities ("payments:*", "search") grants the tool "refund".`,
    });
  });

  it('never uses an expired chain', async () => {
    const { runtime } = setup();
    const agent = principal();
    const { chain } = await chainTo(agent, { exp: NOW + 60 });
    await registered(runtime, chain);
    expect((await verifyTool(runtime, { agent: agent.did, tool: 'search' }, at(NOW + 59))).decision).toBe('ALLOW');
    expect(await verifyTool(runtime, { agent: agent.did, tool: 'search' }, at(NOW + 60))).toMatchObject({
      decision: 'DENY',
      reason: `No verified delegation is registered for the agent ${agent.did}.`,
    });
  });

  it('waits for the leaf nbf, with 60 s of skew', async () => {
    const { runtime } = setup();
    const agent = principal();
    // Registered while already valid (nbf within the skew), then looked up at earlier instants.
    const { chain } = await chainTo(agent, { nbf: NOW + 30 });
    await registered(runtime, chain);
    expect((await verifyTool(runtime, { agent: agent.did, tool: 'search' }, at(NOW - 30))).decision).toBe('ALLOW');
    expect(await verifyTool(runtime, { agent: agent.did, tool: 'search' }, at(NOW - 31))).toMatchObject({
      decision: 'DENY',
      reason: `No verified delegation in force is registered for the agent ${agent.did}; the registered ones take effect at 2025-03-04T05:06:37Z at the earliest.`,
    });
  });

  it('skips excluded chains, and DENYs without a store', async () => {
    const { runtime } = setup();
    const agent = principal();
    const { chain } = await chainTo(agent);
    await registered(runtime, chain);
    expect((await verifyTool(runtime, { agent: agent.did, tool: 'search' }, at(NOW), { exclude: new Set([chainId(chain)]) })).decision).toBe('DENY');
    const bare = testRuntime();
    expect(await verifyTool(bare, { agent: agent.did, tool: 'search' }, at(NOW))).toEqual({
      agent: agent.did,
      tool: 'search',
      decision: 'DENY',
      authorized: false,
      reason: 'The delegation registry is unavailable (no database is open), so no registered delegation can be used.',
    });
  });
});

describe('reverifyRegisteredChains', () => {
  it('keeps chains that verify, drops those that no longer do or have expired, keeps but reports a failed verification', async () => {
    const { runtime, clock } = setup();
    const agent = principal();
    const good = await chainTo(agent);
    const shortLived = await chainTo(agent, { exp: NOW + 10 });
    const flaky = await chainTo(agent, { cap: ['flaky'] });
    const revoked = await chainTo(agent, { cap: ['revoked'] });
    for (const c of [good, shortLived, flaky, revoked]) await registered(runtime, c.chain);
    clock.advance(20_000);

    const seen: string[] = [];
    const outcome = await reverifyRegisteredChains(runtime, async (chain) => {
      const id = chainId(chain);
      seen.push(id);
      if (id === chainId(flaky.chain)) throw new Error('CAPACITY_EXHAUSTED');
      const result = await verify(runtime)(chain);
      return id === chainId(revoked.chain) ? { ...result, status: 'INDETERMINATE', headline: 'The issuer did not resolve.' } : result;
    });
    expect(outcome.kept).toBe(1);
    expect(outcome.dropped).toEqual(
      expect.arrayContaining([
        { id: chainId(shortLived.chain), reason: `The chain expired at 2025-03-04T05:06:17Z.` },
        { id: chainId(revoked.chain), reason: 'The issuer did not resolve.' },
      ]),
    );
    expect(outcome.dropped).toHaveLength(2);
    expect(outcome.failed).toEqual([{ id: chainId(flaky.chain), reason: 'CAPACITY_EXHAUSTED' }]);
    expect(seen).not.toContain(chainId(shortLived.chain));
    expect((await runtime.store.delegationChains.all()).map((c) => c.id).sort()).toEqual([chainId(good.chain), chainId(flaky.chain)].sort());
  });

  it('drops a chain whose verification now fails (an INVALID result)', async () => {
    const { runtime } = setup();
    const agent = principal();
    const { chain } = await chainTo(agent);
    await registered(runtime, chain);
    const outcome = await reverifyRegisteredChains(runtime, (c) => verifyDelegationChain(c, { runtime, trustedRoots: [principal().did] }));
    expect(outcome.kept).toBe(0);
    expect(outcome.dropped).toHaveLength(1);
    expect(outcome.dropped[0]!.reason).toMatch(/^The delegation chain is invalid/);
    expect(await runtime.store.delegationChains.count()).toBe(0);
    expect((await verifyTool(runtime, { agent: agent.did, tool: 'search' }, at(NOW))).decision).toBe('DENY');
  });

  it('drops a chain expiring beyond the registration lifetime in force (one stored before it, or under a longer one)', async () => {
    const { runtime } = setup();
    const agent = principal();
    const century = [await receipt(principal(), agent, { exp: NOW + 100 * 365 * 86_400 })];
    const result = await verifyDelegationChain(century, { runtime });
    expect(result.status).toBe('VALID');
    await runtime.store.delegationChains.register({
      id: chainId(century),
      chain: century,
      rootDid: result.root!,
      leafDid: agent.did,
      expiresAt: result.notAfter!,
      registeredAt: START,
    });
    const { chain: year } = await chainTo(agent);
    await registered(runtime, year);
    const outcome = await reverifyRegisteredChains(runtime, verify(runtime), { maxDays: 366 });
    expect(outcome.kept).toBe(1);
    expect(outcome.dropped).toEqual([
      { id: chainId(century), reason: `The chain is valid until ${result.notAfter}, more than 366 days ahead, the longest registration.` },
    ]);
    expect((await runtime.store.delegationChains.all()).map((c) => c.id)).toEqual([chainId(year)]);
  });

  it('does nothing without a store', async () => {
    expect(await reverifyRegisteredChains(testRuntime(), async () => Promise.reject(new Error('not called')))).toEqual({ kept: 0, dropped: [], failed: [] });
  });
});
