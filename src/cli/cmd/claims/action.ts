/** `svc claim`, `svc claims` and `svc directory`: their work, loaded when one runs (their options: command.ts). */
import type { ClaimChallenge, ClaimVerification, SvcClient } from '../../../client/index.js';
import { CHALLENGE_TTL, CLAIM_METHODS, DIRECTORY_LIMIT, DIRECTORY_METHODS } from '../../../core/claims/types.js';
import { signClaimPayload } from '../../../core/delegation/mint.js';
import { parseDid } from '../../../core/did/syntax.js';
import { parseJsonText } from '../../../core/encoding/json.js';
import { ProblemError } from '../../../core/problems.js';
import { ConfigError } from '../../../runtime/node.js';
import { usageError } from '../../cmdutil/errors.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { printable } from '../../../present/text.js';
import { shellWord } from '../../cmdutil/shell-word.js';
import type { DaemonOptions } from '../../cmdutil/daemon-options.js';
import { withDaemon } from '../../cmdutil/daemon.js';
import { readSource } from '../../cmdutil/source.js';
import { challengeText, claimsText, directoryText, verificationText } from './render.js';
import type { ClaimOptions } from './options.js';

const METHODS = CLAIM_METHODS;
type Method = (typeof METHODS)[number];
/** Pages `svc directory --all` follows at most (50 entries each). */
const MAX_PAGES = 200;

function methodOf(text: string | undefined): Method | undefined {
  if (text === undefined) return undefined;
  if (!(METHODS as readonly string[]).includes(text)) throw usageError(`--method must be one of ${METHODS.join(', ')}, not ${printable(text.slice(0, 32))}`);
  return text as Method;
}

/** --expires-in, within the method's maximum (the daemon's own limits, said before it is asked). */
function secondsOf(text: string | undefined, method: Method): number | undefined {
  if (text === undefined) return undefined;
  const { max } = CHALLENGE_TTL[method];
  const value = /^[0-9]{1,6}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!(value >= 1 && value <= max)) {
    throw usageError(`--expires-in must be a whole number of seconds from 1 to ${max} for the ${method} method, not ${printable(text.slice(0, 32))}`);
  }
  return value;
}

/** Whether `did` is a DID (the daemon says why not: INVALID_DID, as for every other form). */
function isDid(did: string): boolean {
  try {
    parseDid(did);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits for Enter on a terminal; false when standard input is not one (nothing to wait for) or
 * ends first (Ctrl-D): then the follow-up is printed, as without a terminal. Without the 'end'
 * listener an ended input would leave the wait pending for ever, and node would exit 13.
 */
async function enterPressed(io: CliIo): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  io.stderr.write('Press Enter once it is published (Ctrl-C to stop): ');
  const pressed = await new Promise<boolean>((resolve) => {
    const done = (value: boolean) => {
      process.stdin.off('data', onData);
      process.stdin.off('end', onEnd);
      process.stdin.pause();
      resolve(value);
    };
    const onData = () => done(true);
    const onEnd = () => done(false);
    process.stdin.on('data', onData);
    process.stdin.on('end', onEnd);
    process.stdin.resume();
  });
  if (!pressed) io.stderr.write('\n');
  return pressed;
}

/** ` --daemon <url>` when the URL came from the command line (SVC_DAEMON_URL stays in the environment). */
function daemonArgument(options: DaemonOptions): string {
  return options.daemon === undefined ? '' : ` --daemon ${printable(shellWord(options.daemon))}`;
}

export async function claimAction(io: CliIo, setExit: (code: number) => void, did: string, options: ClaimOptions): Promise<void> {
  if (options.list && options.unlist) throw usageError('--list and --unlist exclude each other');
  const purpose = options.list ? 'list' : options.unlist ? 'unlist' : undefined;
  const method = methodOf(options.method) ?? (options.key !== undefined || options.token === undefined ? 'signature' : undefined);
  if (method === 'signature' && options.key === undefined && options.token === undefined) {
    throw usageError('the signature method needs --key <file>: a private JWK of the DID', 'or choose --method well-known or --method dns');
  }
  if (options.key !== undefined && method !== undefined && method !== 'signature')
    throw usageError(`--key signs a challenge: it does not go with --method ${method}`);
  if (options.token !== undefined && options.key !== undefined) {
    throw usageError('--token submits a published (well-known or dns) challenge; svc claim --key asks for a challenge, signs and submits it in one go');
  }
  if (options.token !== undefined && (options.method !== undefined || purpose !== undefined || options.expiresIn !== undefined)) {
    throw usageError('--token submits an earlier challenge: its method and purpose were chosen when it was made');
  }
  // Ignored silently, a --kid would leave the user believing a key had been named.
  if (options.kid !== undefined && options.key === undefined) throw usageError('--kid names the key that signs: it goes with --key');
  const expiresInSeconds = method === undefined ? undefined : secondsOf(options.expiresIn, method);
  const keyText = options.key === undefined ? undefined : await readSource(options.key, 'private key file');
  const sign = (payload: string): string => {
    // Parse errors are not quoted: they could show a piece of the key.
    const parsed = parseJsonText(keyText!.trim(), 'the private key file');
    if ('error' in parsed) throw new ConfigError('the private key file is not valid JSON: it must hold one private JWK');
    try {
      return signClaimPayload({ privateJwk: parsed.value, did, payload, ...(options.kid !== undefined ? { kid: options.kid } : {}) }).jws;
    } catch (err) {
      if (err instanceof ProblemError) throw new ConfigError(err.detail);
      throw err;
    }
  };
  // A --method the DID cannot use (a did:key has no host to publish on) is said before the daemon
  // is asked, by the daemon's own rule: an option that does not apply, exit 2. A DID that is not
  // one, or of a method svc does not know, stays the daemon's to refuse (exit 4).
  if (method !== undefined && method !== 'signature' && isDid(did) && (DIRECTORY_METHODS as readonly string[]).includes(parseDid(did).method)) {
    const { methodUnavailable } = await import('../../../core/claims/challenge.js');
    let why: string | null = null;
    try {
      why = methodUnavailable(did, method);
    } catch (err) {
      if (!(err instanceof ProblemError)) throw err;
    }
    if (why !== null) throw usageError(`--method ${method}: ${why}`);
  }
  // The key is checked before the daemon is asked: a key that cannot sign wastes no challenge.
  // A DID that is not one is the daemon's to refuse (INVALID_DID, exit 4, the problem on stdout
  // with --json), as it is without --key: it refuses it before making any challenge.
  if (keyText !== undefined && isDid(did)) sign('e30');
  await withDaemon(
    io,
    options,
    setExit,
    async (client: SvcClient): Promise<{ challenge: ClaimChallenge | null; verification: ClaimVerification | null }> => {
      if (options.token !== undefined) return { challenge: null, verification: await client.verifyClaim({ did, token: options.token }) };
      const challenge = await client.createClaimChallenge({
        did,
        method: method!,
        ...(purpose ? { purpose } : {}),
        ...(expiresInSeconds ? { expiresInSeconds } : {}),
      });
      if (challenge.signature) {
        return { challenge, verification: await client.verifyClaim({ did, token: challenge.token, jws: sign(challenge.signature.payload) }) };
      }
      // Waiting for Enter makes sense only once the record or line is on screen: with --json
      // (printed at the end) or -q it is not, so the challenge is returned with its follow-up.
      const shown = !options.json && !options.quiet;
      if (shown) io.stdout.write(challengeText(challenge, did));
      if (!shown || !(await enterPressed(io))) {
        io.stderr.write(
          `svc: once it is published, verify with: svc claim ${printable(shellWord(did))} --token ${printable(challenge.token)}${daemonArgument(options)}\n`,
        );
        return { challenge, verification: null };
      }
      return { challenge, verification: await client.verifyClaim({ did, token: challenge.token }) };
    },
    (answer) => (answer.verification ? verificationText(answer.verification) : ''),
    { operator: false, exitOf: (answer) => (answer.verification === null || answer.verification.verified ? EXIT.PASS : EXIT.CHECK_FAILED) },
  );
}

export async function claimsAction(io: CliIo, setExit: (code: number) => void, did: string, options: DaemonOptions): Promise<void> {
  await withDaemon(io, options, setExit, (client) => client.listClaims(did), claimsText, {
    operator: false,
    exitOf: (list) => (list.claims.length > 0 ? EXIT.PASS : EXIT.CHECK_FAILED),
  });
}

export async function directoryAction(
  io: CliIo,
  setExit: (code: number) => void,
  q: string | undefined,
  options: DaemonOptions & { method?: string; limit?: string; cursor?: string; all?: boolean },
): Promise<void> {
  if (options.method !== undefined && !(DIRECTORY_METHODS as readonly string[]).includes(options.method)) {
    throw usageError(`--method must be one of ${DIRECTORY_METHODS.join(', ')}, not ${printable(options.method.slice(0, 32))}`);
  }
  const limit = options.limit === undefined ? undefined : /^[0-9]{1,2}$/.test(options.limit) ? Number(options.limit) : Number.NaN;
  if (limit !== undefined && !(limit >= DIRECTORY_LIMIT.min && limit <= DIRECTORY_LIMIT.max))
    throw usageError(`--limit must be a whole number from ${DIRECTORY_LIMIT.min} to ${DIRECTORY_LIMIT.max}, not ${printable(options.limit!.slice(0, 32))}`);
  if (options.all && options.cursor !== undefined) throw usageError('--all starts at the first page: it does not go with --cursor');
  const query = {
    ...(q !== undefined && q !== '' ? { q } : {}),
    ...(options.method !== undefined ? { method: options.method as (typeof DIRECTORY_METHODS)[number] } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
  await withDaemon(
    io,
    options,
    setExit,
    async (client) => {
      let page = await client.listDirectory({ ...query, ...(options.cursor !== undefined ? { cursor: options.cursor } : {}) });
      if (!options.all) return page;
      const entries = [...page.entries];
      for (let pages = 1; page.nextCursor !== null && pages < MAX_PAGES; pages += 1) {
        page = await client.listDirectory({ ...query, cursor: page.nextCursor });
        entries.push(...page.entries);
      }
      return { entries, nextCursor: page.nextCursor };
    },
    (page) => {
      if (page.nextCursor !== null && !options.quiet) {
        // The cursor belongs to its query: the next page is asked with the same q and --method
        // (else the daemon refuses it), the same --limit and the same daemon.
        const same = [
          ...(query.method !== undefined ? ['--method', query.method] : []),
          ...(query.limit !== undefined ? ['--limit', String(query.limit)] : []),
        ];
        // q goes last, after `--` when it would read as an option.
        const text = query.q === undefined ? '' : query.q.startsWith('-') ? ` -- ${shellWord(query.q)}` : ` ${shellWord(query.q)}`;
        const args = same.map((a) => ` ${a}`).join('');
        io.stderr.write(`svc: more entries: svc directory${args}${daemonArgument(options)} --cursor ${printable(page.nextCursor)}${printable(text)}\n`);
      }
      return directoryText(page);
    },
    { operator: false },
  );
}
