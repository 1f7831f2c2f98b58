/**
 * `svc delegate`, `svc verify-delegation` and `svc authorize`: delegation receipts (SPEC §2.13,
 * §4.12–4.13, service-defined and experimental) minted and checked from the command line.
 *
 *   delegate            signs one receipt with a private JWK; prints it (one line) or --json
 *   verify-delegation   the DelegationChainResult: 0 VALID, 1 INVALID/MALFORMED, 3 INDETERMINATE
 *   authorize           ALLOW/DENY for one tool: 0 ALLOW, 1 DENY, 3 DENY on an INDETERMINATE chain
 *
 * Every command: 4 no answer (a problem), 2 usage or an unreadable file. The private key is never
 * printed, logged or quoted in a message.
 */
import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { authorize, verifyDelegationChain, type Authorization, type DelegationChainResult } from '../../core/delegation/index.js';
import { MAX_RECEIPT_TTL_SECONDS, mintReceipt } from '../../core/delegation/mint.js';
import { parseDid } from '../../core/did/syntax.js';
import { parseJsonText } from '../../core/encoding/json.js';
import { ProblemError } from '../../core/problems.js';
import { sentence } from '../../core/text.js';
import { ConfigError, createRuntime } from '../../runtime/node.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { authorizationText, delegationChainText } from '../output/delegation.js';
import { printable } from '../output/dossier.js';
import { addOutputOptions, emitReport, type OutputOptions } from '../output/emit.js';
import { collect } from './store-options.js';
import { readSource } from './verify.js';

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
      throw new ConfigError(`--trusted-root must be a bare DID: ${printable(value.slice(0, 80))} is not (${err instanceof ProblemError ? err.detail : 'invalid'})`);
    }
  }
  return values;
}

function egressOption(cmd: Command): Command {
  return cmd.option(
    '--egress-allow <cidr>',
    'also fetch from these non-public addresses (issuer DID hosts); repeatable, adds to SVC_EGRESS_ALLOW',
    collect,
    [],
  );
}

function trustedRootOption(cmd: Command): Command {
  return cmd.option('--trusted-root <did>', 'require the chain to start at this DID; repeatable (any listed root will do)', collect, []);
}

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

interface DelegateOptions {
  key: string;
  iss: string;
  aud: string;
  cap: string[];
  kid?: string;
  ttl: string;
  parent?: string;
  jti?: string;
  json?: boolean;
  color?: boolean;
}

interface ChainCommandOptions extends OutputOptions {
  egressAllow: string[];
  trustedRoot: string[];
}

export function registerDelegation(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const delegate = program
    .command('delegate')
    .description('Mint a delegation receipt (service-defined, experimental): the issuer grants capabilities to the audience')
    .requiredOption('--key <file>', "the issuer's private JWK (Ed25519, P-256 or secp256k1) as a JSON file, or - for standard input")
    .requiredOption('--iss <did>', 'the delegating DID (the issuer); the key must be its capabilityDelegation key')
    .requiredOption('--aud <did>', 'the DID receiving the capabilities (the delegate)')
    .requiredOption('--cap <capability...>', 'capabilities granted: "*", "label:*", "label:tool" or "tool"; 1 to 64')
    .option('--kid <didurl>', 'the signing key <iss>#<key>; derived for did:key and did:jwk issuers, required otherwise')
    .option('--ttl <duration>', 'lifetime: 30s, 15m, 1h, 7d or seconds; at most 366d', '1h')
    .option('--parent <file>', 'the receipt this one re-delegates (a receipt file, or a chain file: its last receipt), or -')
    .option('--jti <id>', 'the receipt id (default: a random UUID)')
    .option('--json', 'print {receipt, digest, header, payload} as JSON instead of the bare receipt')
    .option('--no-color', 'never colour the output (NO_COLOR is honoured too)');
  delegate.addHelpText(
    'after',
    `
The receipt (a compact JWS, typ svc-delegation+jwt) is printed on one line. Each receipt is valid
from now for --ttl; a child receipt (--parent) must be issued by the parent's audience, end no later
than the parent and grant only what the parent grants. The key is never printed; a key file that
group or others can read is warned about.

Exit status: 0 minted; 4 refused (a public key, a key that is not the issuer's, a child outliving
its parent …); 2 usage or unreadable file.

Examples:
  $ svc delegate --key alice.jwk --iss did:key:z6MkAlice… --aud did:key:z6MkBob… --cap 'payments:*' --ttl 1d > root.jwt
  $ svc delegate --key bob.jwk --iss did:key:z6MkBob… --aud did:key:z6MkAgent… --cap payments:charge --ttl 1h --parent root.jwt > leaf.jwt
  $ cat root.jwt leaf.jwt > chain.txt && svc verify-delegation chain.txt`,
  );
  delegate.action(async (options: DelegateOptions) => {
    if (options.key === '-' && options.parent === '-') throw new ConfigError('--key and --parent cannot both read standard input');
    const ttlSeconds = parseTtl(options.ttl);
    if (options.kid !== undefined && options.kid === '') throw new ConfigError('--kid must not be empty');
    if (options.jti !== undefined && options.jti === '') throw new ConfigError('--jti must not be empty');
    await warnIfExposed(io, options.key);
    const keyText = await readSource(options.key, 'private key file');
    const parentText = options.parent === undefined ? undefined : await readSource(options.parent, 'parent receipt');
    const runtime = createRuntime(io.env);
    await emitReport(
      io,
      { json: options.json === true, ...(options.color === false ? { color: false } : {}) },
      runtime,
      async () => {
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
        const value = mintReceipt({
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
        return { value, exitCode: EXIT.PASS, text: () => `${value.receipt}\n` };
      },
      setExit,
    );
  });

  const verify = program
    .command('verify-delegation')
    .description('Verify a delegation chain (service-defined receipts, root first): signatures, chaining, windows, capabilities')
    .argument('<chain>', 'the chain: a JSON array of compact receipts, or one receipt per line; - for standard input');
  trustedRootOption(verify);
  egressOption(verify);
  addOutputOptions(verify);
  verify.addHelpText(
    'after',
    `
Each receipt must be signed by a key in its issuer's capabilityDelegation, be issued by the previous
receipt's audience, name the previous receipt's digest in "prf", stay inside the parent's window and
capabilities, and be valid now (60 s skew on nbf). At most 8 receipts; no principal twice.

Exit status: 0 VALID; 1 INVALID or MALFORMED; 3 INDETERMINATE (an issuer DID did not resolve);
4 no answer; 2 usage or unreadable file.

Examples:
  $ svc verify-delegation chain.txt
  $ svc verify-delegation chain.json --trusted-root did:web:example.com --json`,
  );
  verify.action(async (file: string, options: ChainCommandOptions) => {
    const roots = trustedRoots(options.trustedRoot);
    const text = await readSource(file, 'delegation chain');
    const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
    await emitReport(io, options, runtime, async () => {
      const chain = parseChainText(text, 'delegation chain file');
      const value = await verifyDelegationChain(chain, { runtime, ...(roots ? { trustedRoots: roots } : {}) });
      return { value, exitCode: exitForChain(value), text: (style) => delegationChainText(value, style) };
    }, setExit);
  });

  const authorizeCmd = program
    .command('authorize')
    .description('Decide whether a delegation chain allows its leaf agent to call a tool (stateless; ALLOW or DENY with the reason)')
    .requiredOption('--chain <file>', 'the chain: a JSON array of compact receipts, or one receipt per line; - for standard input')
    .requiredOption('--tool <name>', 'the tool the agent wants to call, e.g. payments:charge');
  trustedRootOption(authorizeCmd);
  egressOption(authorizeCmd);
  addOutputOptions(authorizeCmd);
  authorizeCmd.addHelpText(
    'after',
    `
ALLOW when the chain is VALID and a capability of its leaf grants the tool ("*", "label:*" for tools
named label:…, or the tool's name; case-insensitive). The chain is a bearer artefact: ALLOW does not
show that the caller is the agent. --json prints {authorization, chain}.

Exit status: 0 ALLOW; 1 DENY; 3 DENY because the chain is INDETERMINATE; 4 no answer; 2 usage or
unreadable file.

Examples:
  $ svc authorize --chain chain.txt --tool payments:charge
  $ svc authorize --chain - --tool refund --trusted-root did:web:example.com --json < chain.json`,
  );
  authorizeCmd.action(async (options: ChainCommandOptions & { chain: string; tool: string }) => {
    if (options.tool.trim() === '') throw new ConfigError('--tool must not be empty');
    const roots = trustedRoots(options.trustedRoot);
    const text = await readSource(options.chain, 'delegation chain');
    const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
    await emitReport(io, options, runtime, async () => {
      const chainInput = parseChainText(text, 'delegation chain file');
      const chain = await verifyDelegationChain(chainInput, { runtime, ...(roots ? { trustedRoots: roots } : {}) });
      const authorization = authorize(chain, options.tool);
      return {
        value: { authorization, chain },
        exitCode: exitForAuthorization(authorization, chain),
        text: (style) => authorizationText(authorization, chain, style),
      };
    }, setExit);
  });
}
