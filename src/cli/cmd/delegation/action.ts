/** `svc delegate`, `svc verify-delegation`, `svc authorize` and `svc verify-tool`: their work, loaded when one runs (their options: options.ts, registered by command.ts). */
import { stat } from 'node:fs/promises';
import { didKeySource } from '../../../core/credentials/keys.js';
import { authorize, verifyDelegationChain, type Authorization, type DelegationChainResult } from '../../../core/delegation/index.js';
import { MAX_RECEIPT_TTL_SECONDS, mintReceipt } from '../../../core/delegation/mint.js';
import { registerChain, verifyTool, type Registration } from '../../../core/delegation/registry.js';
import { didOf, parseDid, parseDidUrl } from '../../../core/did/syntax.js';
import { parseJsonText } from '../../../core/encoding/json.js';
import { ProblemError } from '../../../core/problems.js';
import { rfc3339, type Runtime } from '../../../core/runtime.js';
import { sentence } from '../../../core/text.js';
import { databaseLocation, type Database } from '../../../store/database.js';
import { ConfigError, createRuntime } from '../../../runtime/node.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { databaseOption, openForReading } from '../../cmdutil/database.js';
import { authorizationText, delegationChainText } from './render.js';
import { printable } from '../../../present/text.js';
import { emitReport, type OutputOptions } from '../../cmdutil/emit.js';
import { registrationText, verifyToolText, type RegistryNote, type SetAside } from './render-registry.js';
import { optionProblem, readSource } from '../../cmdutil/source.js';
import type { DelegateOptions, ChainCommandOptions } from './options.js';

export function exitForChain(result: DelegationChainResult): number {
  if (result.status === 'VALID') return EXIT.PASS;
  return result.status === 'INDETERMINATE' ? EXIT.INDETERMINATE : EXIT.CHECK_FAILED;
}

export function exitForAuthorization(authorization: Authorization, chain: DelegationChainResult): number {
  if (authorization.decision === 'ALLOW') return EXIT.PASS;
  return chain.status === 'INDETERMINATE' ? EXIT.INDETERMINATE : EXIT.CHECK_FAILED;
}

const TTL_UNITS: Readonly<Record<string, number>> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/** `--ttl`: 30s, 15m, 1h, 7d or plain seconds; 1 s to 366 days. */
export function parseTtl(text: string): number {
  const m = /^([0-9]{1,9})([smhd]?)$/.exec(text.trim());
  if (!m) throw new ConfigError(`--ttl must be a duration such as 30s, 15m, 1h, 7d or a number of seconds, not ${printable(text.slice(0, 32))}`);
  const seconds = Number(m[1]) * TTL_UNITS[m[2]!]!;
  if (seconds <= 0) throw new ConfigError('--ttl must be longer than zero');
  if (seconds > MAX_RECEIPT_TTL_SECONDS) throw new ConfigError(`--ttl must be at most 366d (${MAX_RECEIPT_TTL_SECONDS} seconds)`);
  return seconds;
}

/**
 * The receipts of a chain file: a JSON array of compact receipts (root first), the request body
 * of POST /v1/agents/verify-delegation ({"chain": […]}), or plain text with one receipt per line
 * (blank lines ignored). JSON is returned as found: the core reports a non-string entry.
 */
export function parseChainText(text: string, what: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const parsed = parseJsonText(trimmed, what);
    if ('error' in parsed) throw new ProblemError('INVALID_REQUEST', sentence(parsed.error));
    const value = parsed.value;
    if (Array.isArray(value)) return value;
    if (value !== null && typeof value === 'object' && Array.isArray((value as Record<string, unknown>)['chain'])) {
      return (value as Record<string, unknown>)['chain'];
    }
    throw new ProblemError('INVALID_REQUEST', `The ${what} holds JSON that is neither an array of receipts nor an object with a "chain" array.`);
  }
  return trimmed
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

function trustedRoots(values: string[]): string[] | undefined {
  if (values.length === 0) return undefined;
  for (const value of values) {
    try {
      parseDid(value);
    } catch (err) {
      throw new ConfigError(
        `--trusted-root must be a bare DID: ${printable(value.slice(0, 80))} is not (${err instanceof ProblemError ? err.detail : 'invalid'})`,
      );
    }
  }
  return values;
}

/**
 * What a gate without trusted roots prints on stderr
 * (docs/delegation.md#trusted-roots-the-gates-fail-closed): anyone can mint a chain rooted in a DID
 * of their own, so a VALID chain or an ALLOW without one exits 3, never 0.
 */
export const NO_TRUSTED_ROOT = 'needs attention: no trusted root was given; pass --trusted-root <did> or --any-root';

/** Why `verify-delegation --register` registered nothing when no root was trusted. */
const NOT_REGISTERED_WITHOUT_ROOT =
  'No trusted root was given (--trusted-root or SVC_DELEGATION_ROOTS), so nothing was registered; pass --any-root to register a chain of any root.';

/** The roots a chain is verified against, and whether the caller gave none. */
export interface TrustChoice {
  /** undefined: any root (--any-root, or none given). */
  roots: string[] | undefined;
  /** No --trusted-root, no SVC_DELEGATION_ROOTS and no --any-root: the gate cannot pass. */
  missing: boolean;
}

/**
 * The trusted roots of `authorize` and `verify-delegation`, first found: --trusted-root (repeatable),
 * --any-root (the caller accepts any root, and says so), SVC_DELEGATION_ROOTS (the operator's
 * roots, read as the daemon reads them). None of them: `missing`, the run exits 3 where it would
 * have passed. --any-root beside --trusted-root is a usage error.
 */
export async function chooseTrustedRoots(options: { trustedRoot: string[]; anyRoot?: boolean }, env: NodeJS.ProcessEnv): Promise<TrustChoice> {
  const given = trustedRoots(options.trustedRoot);
  if (given && options.anyRoot) throw new ConfigError('--any-root and --trusted-root exclude each other: name the trusted roots, or accept any root');
  if (given) return { roots: given, missing: false };
  if (options.anyRoot) return { roots: undefined, missing: false };
  const operator = await delegationRoots(env);
  return operator ? { roots: operator, missing: false } : { roots: undefined, missing: true };
}

/** A gate without trusted roots: what would pass needs attention (3); a failure or an INDETERMINATE stays as it is. */
export function exitWithoutRoot(exitCode: number, trust: TrustChoice): number {
  return trust.missing && exitCode === EXIT.PASS ? EXIT.INDETERMINATE : exitCode;
}

const trustNotes = (trust: TrustChoice): string[] => (trust.missing ? [NO_TRUSTED_ROOT] : []);

/** A private key file that group or others can read: warned about (as ssh does), then used. */
async function warnIfExposed(io: CliIo, file: string): Promise<void> {
  if (file === '-' || process.platform === 'win32') return;
  try {
    const mode = (await stat(file)).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      io.stderr.write(
        `svc: warning: the private key file ${printable(file)} is readable by group or others (mode ${mode.toString(8).padStart(4, '0')}); ` +
          `restrict it with: chmod 600 ${printable(file)}\n`,
      );
    }
  } catch {
    // readSource reports an unreadable file.
  }
}

/** Longest tool name accepted, as the daemon's verify-tool. */
const MAX_TOOL_LENGTH = 1024;

/**
 * An --agent or --root: a bare DID, or a DID URL whose fragment is ignored (registered chains are
 * compared without fragment), as GET /v1/agents/verify-tool reads its query; a usage error otherwise.
 */
function registryDid(flag: '--agent' | '--root', value: string): string {
  let parsed;
  try {
    parsed = parseDidUrl(value);
  } catch (err) {
    throw new ConfigError(`${flag} must be a DID: ${printable(value.slice(0, 80))} is not (${err instanceof ProblemError ? err.detail : 'invalid'})`);
  }
  if (parsed.path !== '' || parsed.query !== null)
    throw new ConfigError(`${flag} must be a DID, not a DID URL with a path or query: ${printable(value.slice(0, 80))}`);
  return value;
}

/**
 * SVC_DELEGATION_ROOTS, read as the daemon reads it (null: any root). The CLI registry follows
 * the daemon's rules: only chains of these roots are registered, and registered chains are
 * verified again against them.
 */
async function delegationRoots(env: NodeJS.ProcessEnv): Promise<string[] | null> {
  const { delegationRootsFromEnv } = await import('../../../runtime/delegation-settings.js');
  return delegationRootsFromEnv(env);
}

/**
 * SVC_REGISTRATION_MAX_DAYS, read as the daemon reads it: the CLI's registrations (the
 * operator's own, bounded by no per-client or per-root share) last no longer than the daemon's.
 */
async function registrationMaxDays(env: NodeJS.ProcessEnv): Promise<number> {
  const { registrationMaxDaysFromEnv } = await import('../../../runtime/delegation-settings.js');
  return registrationMaxDaysFromEnv(env);
}

/** The DID without fragment, as the registry stores roots and agents. */
function plainDid(did: string): string {
  return didOf(did) ?? did;
}

function messageOf(err: unknown): string {
  return err instanceof ProblemError ? err.detail : err instanceof Error ? err.message.split('\n')[0]! : String(err);
}

/**
 * Registers a chain in the local registry (the same core as the daemon's `register: true`). The
 * database is opened (and created) only for a VALID chain whose root may register; otherwise
 * registerChain gives the reason without one.
 */
async function registerLocally(
  runtime: Runtime,
  database: string,
  chain: unknown,
  result: DelegationChainResult,
  allowedRoots: readonly string[] | null,
  maxDays: number,
): Promise<Registration> {
  const options = { limits: { maxDays } };
  const receipts = Array.isArray(chain) && chain.every((r): r is string => typeof r === 'string') ? chain : [];
  const rootAllowed = result.root !== null && (allowedRoots === null || allowedRoots.map(plainDid).includes(plainDid(result.root)));
  if (result.status !== 'VALID' || !rootAllowed) return await registerChain(runtime, receipts, result, allowedRoots, options);
  let store: Database;
  const { openDatabase } = await import('../../../store/database.js');
  try {
    store = await openDatabase({ target: database });
  } catch (err) {
    return {
      registered: false,
      reason: `The database ${printable(databaseLocation(database))} could not be opened (${printable(messageOf(err))}); nothing was registered.`,
    };
  }
  try {
    runtime.store = store;
    // Awaited: the finally must not close the store while the registration is under way.
    return await registerChain(runtime, receipts, result, allowedRoots, options);
  } finally {
    runtime.store = undefined;
    await store.close();
  }
}

/** 0 registered; otherwise the chain's own exit code, or 1 for a VALID chain that was not registered. */
function exitForRegistration(result: DelegationChainResult, registration: Registration): number {
  if (result.status !== 'VALID') return exitForChain(result);
  return registration.registered ? EXIT.PASS : EXIT.CHECK_FAILED;
}

export async function delegateAction(io: CliIo, setExit: (code: number) => void, options: DelegateOptions): Promise<void> {
  if (options.key === '-' && options.parent === '-') throw new ConfigError('--key and --parent cannot both read standard input');
  const ttlSeconds = parseTtl(options.ttl);
  if (options.kid !== undefined && options.kid === '') throw new ConfigError('--kid must not be empty');
  if (options.jti !== undefined && options.jti === '') throw new ConfigError('--jti must not be empty');
  await warnIfExposed(io, options.key);
  const keyText = await readSource(options.key, 'private key file');
  const parentText = options.parent === undefined ? undefined : await readSource(options.parent, 'parent receipt');
  const runtime = createRuntime(io.env);
  const mint = () => {
    // Parse errors are not quoted: they could show a piece of the key.
    const parsedKey = parseJsonText(keyText.trim(), 'the private key file');
    if ('error' in parsedKey) throw new ProblemError('INVALID_REQUEST', 'The private key file is not valid JSON: it must hold one private JWK.');
    let parent: string | undefined;
    if (parentText !== undefined) {
      const chain = parseChainText(parentText, 'parent receipt file');
      const last = Array.isArray(chain) ? chain[chain.length - 1] : undefined;
      if (typeof last !== 'string') throw new ProblemError('INVALID_REQUEST', 'The parent receipt file holds no receipt.');
      parent = last;
    }
    return mintReceipt({
      privateJwk: parsedKey.value,
      iss: options.iss,
      aud: options.aud,
      cap: options.cap,
      ttlSeconds,
      now: runtime.clock.now(),
      ...(options.kid !== undefined ? { kid: options.kid } : {}),
      ...(parent !== undefined ? { parent } : {}),
      ...(options.jti !== undefined ? { jti: options.jti } : {}),
    });
  };
  await emitReport(
    io,
    { json: options.json === true, ...(options.color === false ? { color: false } : {}) },
    runtime,
    async () => {
      // Everything svc delegate reads is an option's value: a key, DIDs, capabilities or a parent
      // receipt it cannot mint with is INVALID_OPTIONS, exit 2 (exitForProblem).
      let value: ReturnType<typeof mintReceipt>;
      try {
        value = mint();
      } catch (err) {
        throw optionProblem(err);
      }
      return { value, exitCode: EXIT.PASS, text: () => `${value.receipt}\n` };
    },
    setExit,
  );
}

export async function verifyDelegationAction(
  io: CliIo,
  setExit: (code: number) => void,
  file: string,
  options: ChainCommandOptions & { register?: boolean; db?: string },
): Promise<void> {
  const trust = await chooseTrustedRoots(options, io.env);
  const roots = trust.roots;
  const allowedRoots = options.register ? await delegationRoots(io.env) : null;
  const maxDays = options.register ? await registrationMaxDays(io.env) : 0;
  // A SVC_DATABASE_URL svc cannot use is refused before anything runs (exit 2).
  const database = options.register ? databaseOption(options.db, io.env) : '';
  const text = await readSource(file, 'delegation chain');
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  // The value is the chain result, or with --register the daemon's {result, registered, …} body.
  await emitReport<unknown>(
    io,
    options,
    runtime,
    async (hooks) => {
      const chain = parseChainText(text, 'delegation chain file');
      const value = await verifyDelegationChain(chain, {
        runtime,
        keySource: didKeySource(runtime, undefined, hooks),
        ...(roots ? { trustedRoots: roots } : {}),
      });
      const notes = trustNotes(trust);
      if (!options.register)
        return { value, exitCode: exitWithoutRoot(exitForChain(value), trust), text: (style, width) => delegationChainText(value, style, width), notes };
      // Without a trusted root nothing is registered: verify-tool would later ALLOW from a chain anyone could mint.
      const registration: Registration = trust.missing
        ? { registered: false, reason: NOT_REGISTERED_WITHOUT_ROOT }
        : await registerLocally(runtime, database, chain, value, allowedRoots, maxDays);
      // The daemon's response body: why a requested registration did not happen, when it did not.
      const body = registration.registered
        ? { result: value, registered: true }
        : { result: value, registered: false, registrationReason: registration.reason };
      return {
        value: body,
        exitCode: trust.missing ? exitWithoutRoot(exitForChain(value), trust) : exitForRegistration(value, registration),
        text: (style, width) =>
          `${delegationChainText(value, style, width)}\n${registrationText(registration.registered, registration.reason, databaseLocation(database), style, width)}`,
        notes,
      };
    },
    setExit,
  );
}

export async function authorizeAction(
  io: CliIo,
  setExit: (code: number) => void,
  options: ChainCommandOptions & { chain: string; tool: string },
): Promise<void> {
  if (options.tool.trim() === '') throw new ConfigError('--tool must not be empty');
  const trust = await chooseTrustedRoots(options, io.env);
  const roots = trust.roots;
  const text = await readSource(options.chain, 'delegation chain');
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      const chainInput = parseChainText(text, 'delegation chain file');
      const chain = await verifyDelegationChain(chainInput, {
        runtime,
        keySource: didKeySource(runtime, undefined, hooks),
        ...(roots ? { trustedRoots: roots } : {}),
      });
      const authorization = authorize(chain, options.tool);
      return {
        value: { authorization, chain },
        exitCode: exitWithoutRoot(exitForAuthorization(authorization, chain), trust),
        text: (style, width) => authorizationText(authorization, chain, style, width),
        notes: trustNotes(trust),
      };
    },
    setExit,
  );
}

/** The note of `verify-tool` without a root: its flags are --root and --any-root. */
export const NO_ROOT_FOR_TOOL = 'needs attention: no trusted root was given; pass --root <did> (or set SVC_DELEGATION_ROOTS) or --any-root';

export async function verifyToolAction(
  io: CliIo,
  setExit: (code: number) => void,
  options: OutputOptions & { agent: string; tool: string; root?: string; anyRoot?: boolean; db?: string; egressAllow: string[] },
): Promise<void> {
  if (options.tool === '') throw new ConfigError('--tool must not be empty');
  if (options.tool.length > MAX_TOOL_LENGTH) throw new ConfigError(`--tool is longer than ${MAX_TOOL_LENGTH} characters`);
  if (options.root !== undefined && options.anyRoot)
    throw new ConfigError('--any-root and --root exclude each other: name the root, or accept any registered root');
  const agent = registryDid('--agent', options.agent);
  const root = options.root === undefined ? undefined : registryDid('--root', options.root);
  const reverifyRoots = await delegationRoots(io.env);
  // A registry may hold chains registered with --any-root: an ALLOW that no root vouches for
  // (no --root, no SVC_DELEGATION_ROOTS, no --any-root) needs attention, as authorize's does.
  const rootMissing = root === undefined && !reverifyRoots && !options.anyRoot;
  const database = databaseOption(options.db, io.env);
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      let store: Database;
      try {
        store = await openForReading(database);
      } catch (err) {
        if (err instanceof Error && err.name === 'StoreError') throw new ProblemError('SERVICE_UNAVAILABLE', sentence(err.message));
        throw err;
      }
      try {
        runtime.store = store;
        const now = runtime.clock.now();
        // The daemon answers only from chains verified since it started; a CLI run starts now, so
        // the agent's chains are verified again before the registry answers (verifyTool then
        // checks expiry and the leaf's window itself). A chain that does not verify is set aside.
        let candidates: Awaited<ReturnType<Database['delegationChains']['forAgent']>> = [];
        try {
          candidates = await store.delegationChains.forAgent(plainDid(agent), rfc3339(now));
        } catch {
          // verifyTool reads the registry too, and answers DENY with the reason.
        }
        if (root !== undefined) candidates = candidates.filter((c) => c.rootDid === plainDid(root));
        const keySource = didKeySource(runtime, undefined, hooks);
        const setAside: SetAside[] = [];
        for (const record of candidates) {
          try {
            const result = await verifyDelegationChain(record.chain, { runtime, keySource, now, ...(reverifyRoots ? { trustedRoots: reverifyRoots } : {}) });
            if (result.status !== 'VALID') setAside.push({ id: record.id, status: result.status, reason: result.headline });
          } catch (err) {
            setAside.push({ id: record.id, status: 'ERROR', reason: `it could not be verified again: ${messageOf(err)}` });
          }
        }
        const query = root === undefined ? { agent, tool: options.tool } : { agent, tool: options.tool, root };
        const value = await verifyTool(runtime, query, now, { exclude: new Set(setAside.map((c) => c.id)) });
        const note: RegistryNote = { database: databaseLocation(database), checked: candidates.length, setAside };
        const exitCode = value.decision === 'ALLOW' ? (rootMissing ? EXIT.INDETERMINATE : EXIT.PASS) : EXIT.CHECK_FAILED;
        return {
          value,
          exitCode,
          text: (style, width) => verifyToolText(value, note, style, width),
          notes: rootMissing ? [NO_ROOT_FOR_TOOL] : [],
        };
      } finally {
        runtime.store = undefined;
        await store.close();
      }
    },
    setExit,
  );
}
