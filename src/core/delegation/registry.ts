/**
 * The registry of verified delegation chains (docs/delegation.md#the-registry): verify-delegation's
 * `register: true` and verify-tool, over the Runtime's store.
 *
 *   registerChain            stores a VALID chain (only), optionally only for allowed roots
 *   reverifyRegisteredChains verifies every stored chain again (the daemon, at start) and drops
 *                            those that are expired or no longer VALID
 *   verifyTool               answers from registered, unexpired chains only
 *
 * Safe defaults against registry poisoning: anyone may register a
 * chain rooted in a DID they control, so an operator can list the roots allowed to register
 * (`allowedRoots`); a verify-tool answer given without `root` names the root it relied on and
 * says that any registered root was accepted. DIDs are compared without fragment. A chain that
 * could not be verified again (INDETERMINATE: an issuer that does not resolve) is dropped — it
 * no longer verifies, and the registry fails closed; only a failure of the service itself (a
 * thrown error: cancellation, capacity) keeps the chain stored, and the caller decides whether
 * to use it before it is verified (the daemon does not: see src/server/routes/delegation.ts).
 * The registry is finite and shared, so no one may fill it for others: a registration lasts at
 * most DEFAULT_REGISTRATION_MAX_DAYS, and one client and one root hold at most a share of it
 * (see MAX_REGISTERED_CHAINS and the defaults below it).
 */
import { rfc3339, type Runtime } from '../runtime.js';
import type { ChainAdmission, StoredDelegationChain } from './store.js';
import { matchCapability } from './capability.js';
import { didOf } from '../did/syntax.js';
import { chainId, readReceiptClaims } from './receipt.js';
import { NBF_SKEW_SECONDS, type Authorization, type DelegationChainResult } from './types.js';

/**
 * Unexpired chains the registry holds at most. Expired chains never count: each registration
 * deletes them first, so a slot frees itself when the chain in it lapses.
 */
export const MAX_REGISTERED_CHAINS = 10_000;

/**
 * Fair shares of the registry (docs/delegation.md#registration-quota-and-registry-shares: 100
 * clients × 100 self-rooted chains of a century once filled it for everyone). Defaults of the
 * daemon's settings (src/server/limits.ts):
 *
 *   DEFAULT_CHAINS_PER_CLIENT        unexpired chains one client holds at once (1 %)
 *   DEFAULT_CHAINS_PER_ROOT          unexpired chains of one root that clients hold at once (1 %):
 *                                    many clients cannot pile on one root, and a client minting
 *                                    many self-rooted DIDs is still bounded by its own share
 *   DEFAULT_REGISTRATION_MAX_DAYS    the furthest expiry a registered chain may have, in days
 *                                    ahead: what `svc delegate` mints at most (MAX_RECEIPT_TTL_SECONDS)
 *
 * And when the registry is full, a new chain displaces the oldest registration of the client
 * holding the most, if it holds at least two more than the registering client (see
 * DelegationChainStore.registerWithin): a flood never denies another client its first chains.
 * The operator's own registrations (no client: the CLI) count toward the total only, and are
 * never displaced.
 */
export const DEFAULT_CHAINS_PER_CLIENT = 100;
export const DEFAULT_CHAINS_PER_ROOT = 100;
export const DEFAULT_REGISTRATION_MAX_DAYS = 366;

/** How much of the registry one registration may take (RegisterOptions.limits). */
export interface RegistryLimits {
  /** Unexpired chains one client may hold at once. */
  chainsPerClient: number;
  /** Unexpired chains rooted in one DID that clients may hold at once. */
  chainsPerRoot: number;
  /** A chain expiring more than this many days ahead (plus the receipts' 60 s of skew) is not registered. */
  maxDays: number;
}

export const DEFAULT_REGISTRY_LIMITS: Readonly<RegistryLimits> = {
  chainsPerClient: DEFAULT_CHAINS_PER_CLIENT,
  chainsPerRoot: DEFAULT_CHAINS_PER_ROOT,
  maxDays: DEFAULT_REGISTRATION_MAX_DAYS,
};

/** How many stored chains are re-verified at once. */
const REVERIFY_CONCURRENCY = 4;

export interface Registration {
  registered: boolean;
  /** Why the chain was not registered; null when it was. */
  reason: string | null;
}

export interface RegisterOptions {
  /**
   * Asked once a new chain is about to be stored (VALID, root allowed, store open, within the
   * lifetime and the shares; not for a chain already registered and unexpired, whose
   * registration is only refreshed): null lets it through, a string is the reason it is refused
   * (the daemon's per-client quota, which several daemons on one database read from it).
   */
  admit?: () => string | null | Promise<string | null>;
  /**
   * Who registers (the daemon: clientKey of the request's address). Absent: the operator's own
   * registration (the CLI on its database), bounded by the total and the lifetime only.
   */
  client?: string;
  /** The shares and the lifetime; DEFAULT_REGISTRY_LIMITS for what is not given. */
  limits?: Partial<RegistryLimits>;
}

/**
 * The registration in flight per store (its tail). The store decides each registration in one
 * transaction (registerWithin), which holds across processes; a registration with a quota to
 * charge is a dry run, the quota, then the registration, and running those one after another per
 * store keeps two registrations of one process from charging against the same decision.
 */
const REGISTERING = new WeakMap<object, Promise<unknown>>();

function oneAtATime<T>(key: object, work: () => Promise<T>): Promise<T> {
  const run = (REGISTERING.get(key) ?? Promise.resolve()).then(work);
  REGISTERING.set(
    key,
    run.then(
      () => undefined,
      () => undefined,
    ),
  );
  return run;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The DID without fragment (query and path too), or the text itself when it is not a DID URL. */
function plain(did: string): string {
  return didOf(did) ?? did;
}

/**
 * Whether a chain expiring at `expiresAt` (RFC 3339) outlives the longest registration from
 * `now`. A chain of a century would hold its slot for a century: a registration lasts at most
 * `maxDays` (svc's own minter never makes a longer receipt), with the receipts' 60 s of skew.
 */
function beyondLifetime(expiresAt: string, now: Date, maxDays: number): boolean {
  return !(Date.parse(expiresAt) <= now.getTime() + (maxDays * 86_400 + NBF_SKEW_SECONDS) * 1000);
}

/** "366 days" or "1 day". */
function days(n: number): string {
  return `${n} day${n === 1 ? '' : 's'}`;
}

/**
 * Stores a VALID chain in the registry. Never throws: a result that is not VALID, a root the
 * operator does not allow (`allowedRoots` non-null and not listing it), no open store, a chain
 * expiring beyond the registration lifetime, a client or root past its share, a full registry
 * with nobody holding more than this client, a refusal of `options.admit` or a store failure each
 * resolve to `registered: false` with the reason. The shares hold across processes (one
 * transaction of the store, see registerWithin); registrations in one store also run one at a
 * time here (see REGISTERING), so a dry run and its registration are not interleaved with another.
 */
export async function registerChain(
  runtime: Runtime,
  chain: readonly string[],
  result: DelegationChainResult,
  allowedRoots: readonly string[] | null,
  options: RegisterOptions = {},
): Promise<Registration> {
  if (result.status !== 'VALID') return { registered: false, reason: `Only a VALID chain is registered; this chain is ${result.status}.` };
  if (result.root === null || result.leaf === null || result.notAfter === null) {
    return { registered: false, reason: 'The chain result names no root, leaf or expiry; nothing was registered.' };
  }
  const rootDid = plain(result.root);
  const leafDid = plain(result.leaf);
  if (allowedRoots !== null && !allowedRoots.map(plain).includes(rootDid)) {
    return { registered: false, reason: `The root ${rootDid} is not among the roots this service allows to register delegations.` };
  }
  const store = runtime.store;
  if (!store) return { registered: false, reason: 'No database is open, so the chain could not be registered.' };
  const limits = { ...DEFAULT_REGISTRY_LIMITS, ...options.limits };
  const notAfter = result.notAfter;
  if (beyondLifetime(notAfter, runtime.clock.now(), limits.maxDays)) {
    return {
      registered: false,
      reason: `The chain is valid until ${notAfter}, more than ${days(limits.maxDays)} ahead, and a registration lasts at most ${days(limits.maxDays)}; the chain was verified but not registered. Register a chain that expires sooner.`,
    };
  }
  const id = chainId(chain);
  const client = options.client ?? null;
  const shares = { total: MAX_REGISTERED_CHAINS, perClient: limits.chainsPerClient, perRoot: limits.chainsPerRoot };
  return oneAtATime(store, async (): Promise<Registration> => {
    const now = rfc3339(runtime.clock.now());
    const record = { id, chain: [...chain], rootDid, leafDid, expiresAt: notAfter, registeredAt: now, client };
    let admission: ChainAdmission;
    try {
      const chains = store.delegationChains;
      if (options.admit) {
        // The quota is charged only for a chain that would be stored: the same decision first,
        // rolled back, then the quota, then the registration (which decides again).
        const trial = await chains.registerWithin(record, shares, now, { dryRun: true });
        if (trial.outcome !== 'stored') return refusal(trial, rootDid, limits, client !== null);
        const refused = trial.refreshed ? null : await options.admit();
        if (refused !== null) return { registered: false, reason: refused };
      }
      admission = await chains.registerWithin(record, shares, now);
    } catch (err) {
      runtime.log.error('registering a delegation chain failed', { id, error: messageOf(err) });
      return { registered: false, reason: 'The database refused the registration; nothing was registered.' };
    }
    if (admission.outcome !== 'stored') return refusal(admission, rootDid, limits, client !== null);
    if (admission.displaced) {
      const { id: gone, client: holder, rootDid: itsRoot, leafDid: itsLeaf } = admission.displaced;
      runtime.log.info('registered delegation chain displaced (the registry is full; its client held the most)', {
        id: gone,
        client: holder,
        root: itsRoot,
        leaf: itsLeaf,
      });
    }
    runtime.log.info('delegation chain registered', { id, root: rootDid, leaf: leafDid, expiresAt: notAfter, ...(client === null ? {} : { client }) });
    return { registered: true, reason: null };
  });
}

/** The reason of a refused admission. */
function refusal(admission: Exclude<ChainAdmission, { outcome: 'stored' }>, rootDid: string, limits: RegistryLimits, byClient: boolean): Registration {
  switch (admission.outcome) {
    case 'client-share':
      return {
        registered: false,
        reason: `This client already holds ${admission.held} registered chains, its share of the registry (${limits.chainsPerClient} at once); the chain was verified but not registered. A place frees when one of them expires.`,
      };
    case 'root-share':
      return {
        registered: false,
        reason: `Chains rooted in ${rootDid} already hold ${admission.held} registrations, the share of one root (${limits.chainsPerRoot} at once); the chain was verified but not registered. A place frees when one of them expires.`,
      };
    case 'full':
      return {
        registered: false,
        reason: `The registry is full (${MAX_REGISTERED_CHAINS} unexpired chains)${byClient ? ' and no client holds more than this one' : ''}; nothing was registered.`,
      };
  }
}

export interface Reverification {
  /** Chains verified VALID again and kept. */
  kept: number;
  /** Chains removed: expired, or no longer VALID (the reason is the chain headline). */
  dropped: Array<{ id: string; reason: string }>;
  /** Chains kept in the store because the verification itself failed (a thrown error); not verified. */
  failed: Array<{ id: string; reason: string }>;
}

/**
 * Verifies every stored chain again: a chain that no longer verifies is dropped.
 * `verify` runs the chain rules — the daemon passes its own key source and, when the operator
 * restricts registrable roots, those roots as trusted roots. A chain already expired is dropped
 * without verification, and so is one expiring beyond `maxDays` ahead (the registration
 * lifetime now in force: chains registered before it, or under a longer one, do not keep a slot
 * for longer than a new registration could); a result other than VALID (INDETERMINATE included)
 * drops it; a thrown error keeps it, listed in `failed`. No store: nothing to do.
 */
export async function reverifyRegisteredChains(
  runtime: Runtime,
  verify: (chain: string[]) => Promise<DelegationChainResult>,
  options: { maxDays?: number } = {},
): Promise<Reverification> {
  const outcome: Reverification = { kept: 0, dropped: [], failed: [] };
  const store = runtime.store;
  if (!store) return outcome;
  const chains = store.delegationChains;
  const pending = await chains.all();
  const drop = async (record: StoredDelegationChain, reason: string): Promise<void> => {
    await chains.remove(record.id);
    outcome.dropped.push({ id: record.id, reason });
    runtime.log.info('registered delegation chain dropped', { id: record.id, root: record.rootDid, leaf: record.leafDid, reason });
  };
  const one = async (record: StoredDelegationChain): Promise<void> => {
    const now = rfc3339(runtime.clock.now());
    if (record.expiresAt <= now) return drop(record, `The chain expired at ${record.expiresAt}.`);
    if (options.maxDays !== undefined && beyondLifetime(record.expiresAt, runtime.clock.now(), options.maxDays)) {
      return drop(record, `The chain is valid until ${record.expiresAt}, more than ${days(options.maxDays)} ahead, the longest registration.`);
    }
    let result: DelegationChainResult;
    try {
      result = await verify(record.chain);
    } catch (err) {
      outcome.failed.push({ id: record.id, reason: messageOf(err) });
      runtime.log.warn('a registered delegation chain could not be verified again; it is kept but unverified', { id: record.id, error: messageOf(err) });
      return;
    }
    if (result.status !== 'VALID') return drop(record, result.headline);
    if (result.notAfter !== null && result.notAfter !== record.expiresAt) {
      await chains.register({ ...record, expiresAt: result.notAfter });
    }
    outcome.kept += 1;
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pending.length) await one(pending[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(REVERIFY_CONCURRENCY, pending.length) }, worker));
  return outcome;
}

export interface ToolQuery {
  agent: string;
  tool: string;
  /** Only chains rooted in this DID (compared without fragment). */
  root?: string;
}

export interface VerifyToolOptions {
  /** Ids of stored chains not to answer from (the daemon: chains not verified since it started). */
  exclude?: ReadonlySet<string>;
}

function deny(agent: string, tool: string, reason: string): Authorization {
  return { agent, tool, decision: 'DENY', authorized: false, reason };
}

function listed(items: readonly string[], max = 12): string {
  const shown = items.slice(0, max).map((c) => JSON.stringify(c));
  return items.length > max ? `${shown.join(', ')} and ${items.length - max} more` : shown.join(', ');
}

/**
 * Whether the registry allows `agent` to call `tool`, at `now`. Only registered
 * chains are used whose leaf is the agent, that are unexpired (the chain's earliest expiry),
 * whose leaf receipt is in force (nbf, with 60 s of skew) and — with `root` — whose root is
 * that DID. Newest registration first, the first chain whose leaf capabilities grant the tool
 * gives ALLOW. Never rejects: a missing or failing store answers DENY.
 */
export async function verifyTool(runtime: Runtime, query: ToolQuery, now: Date, options: VerifyToolOptions = {}): Promise<Authorization> {
  const { agent, tool } = query;
  const store = runtime.store;
  if (!store) return deny(agent, tool, 'The delegation registry is unavailable (no database is open), so no registered delegation can be used.');
  const agentDid = plain(agent);
  const rootDid = query.root === undefined ? null : plain(query.root);
  const nowText = rfc3339(now);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  let records: StoredDelegationChain[];
  try {
    // Awaited inside the try: a rejected read is caught here and answers DENY.
    records = await store.delegationChains.forAgent(agentDid, nowText);
  } catch (err) {
    runtime.log.error('reading the delegation registry failed', { agent: agentDid, error: messageOf(err) });
    return deny(agent, tool, 'The delegation registry could not be read, so no registered delegation can be used.');
  }
  const none = `No verified delegation is registered for the agent ${agentDid}.`;
  records = records.filter((r) => !options.exclude?.has(r.id));
  if (records.length === 0) return deny(agent, tool, none);
  if (rootDid !== null) {
    records = records.filter((r) => r.rootDid === rootDid);
    if (records.length === 0) return deny(agent, tool, `No verified delegation rooted in ${rootDid} is registered for the agent ${agentDid}.`);
  }

  const inForce: Array<{ record: StoredDelegationChain; cap: string[] }> = [];
  let notYet: number | null = null;
  for (const record of records) {
    const leaf = record.chain.length > 0 ? readReceiptClaims(record.chain[record.chain.length - 1]!) : null;
    if (leaf === null || plain(leaf.aud) !== agentDid) continue;
    if (nowSeconds < leaf.nbf - NBF_SKEW_SECONDS) {
      notYet = notYet === null ? leaf.nbf : Math.min(notYet, leaf.nbf);
      continue;
    }
    inForce.push({ record, cap: leaf.cap });
  }
  if (inForce.length === 0) {
    const when = notYet === null ? '.' : `; the registered ones take effect at ${rfc3339(new Date(notYet * 1000))} at the earliest.`;
    const scope = rootDid === null ? '' : ` rooted in ${rootDid}`;
    return deny(agent, tool, `No verified delegation${scope} in force is registered for the agent ${agentDid}${when}`);
  }

  for (const { record, cap } of inForce) {
    const matched = matchCapability(cap, tool);
    if (matched === null) continue;
    const granted = `${record.rootDid} delegated ${JSON.stringify(matched)} to ${agentDid}, which grants the tool ${JSON.stringify(tool)} until ${record.expiresAt} (a registered chain)`;
    const reason =
      rootDid === null
        ? `${granted}. No root was required, so any registered root was accepted; this answer relies on the root ${record.rootDid}.`
        : `${granted}; ${record.rootDid} is the required root.`;
    return {
      agent,
      tool,
      decision: 'ALLOW',
      authorized: true,
      reason,
      matchedCapability: matched,
      root: record.rootDid,
      expires: record.expiresAt,
    };
  }
  const capabilities = [...new Set(inForce.flatMap((c) => c.cap))];
  const scope = rootDid === null ? '' : ` rooted in ${rootDid}`;
  return deny(
    agent,
    tool,
    `Verified delegations${scope} are registered for the agent ${agentDid}, but none of their capabilities (${listed(capabilities)}) grants the tool ${JSON.stringify(tool)}.`,
  );
}
