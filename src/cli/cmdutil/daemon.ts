/**
 * How a command calls a running daemon (svc monitor, svc owner's operator subcommands, svc claim,
 * svc claims, svc directory): its URL (--daemon, SVC_DAEMON_URL), the operator token, one call
 * through the TypeScript client (loaded only then) with its answer printed, and a failure as the
 * CLI reports it. Loaded by the actions only.
 */
import type { SvcClient } from '../../client/index.js';
import { printable } from '../../present/text.js';
import { ConfigError } from '../../runtime/node.js';
import { DEFAULT_DAEMON_URL, type DaemonOptions } from './daemon-options.js';
import { CLI_ERROR_CODES, CliError, helpHint, runningCommand, usageError } from './errors.js';
import { EXIT, exitForProblem } from './exit-codes.js';
import type { CliIo } from './io.js';
import { writeReport } from './paging.js';

/** Time limit of one call to the daemon (a check resolves the DID afresh). */
const CALL_TIMEOUT_MS = 60_000;

const TOKEN_HINT = "export SVC_ADMIN_TOKEN=<the daemon's operator token> (never on the command line: arguments show in ps)";

/** --daemon, else SVC_DAEMON_URL, else the default; an http(s) URL or a usage error. */
export function daemonUrl(option: string | undefined, env: NodeJS.ProcessEnv): string {
  const fromEnv = env['SVC_DAEMON_URL']?.trim() || undefined;
  const value = option ?? fromEnv ?? DEFAULT_DAEMON_URL;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
    const what = `an http(s) URL of the daemon without credentials, such as ${DEFAULT_DAEMON_URL}, not ${printable(value.slice(0, 80))}`;
    if (option !== undefined) throw usageError(`--daemon must be ${what}`);
    throw new ConfigError(`SVC_DAEMON_URL must be ${what}`);
  }
  return value.replace(/\/+$/, '');
}

function adminToken(env: NodeJS.ProcessEnv): string {
  const token = env['SVC_ADMIN_TOKEN'] ?? '';
  if (token === '') throw usageError("no operator token: svc reads it from SVC_ADMIN_TOKEN (the daemon's own)", TOKEN_HINT);
  // The client refuses such a token too; said here without quoting it.
  if (!/^[\x21-\x7e]+$/.test(token)) throw usageError('SVC_ADMIN_TOKEN must be visible ASCII characters without spaces', TOKEN_HINT);
  return token;
}

/** The daemon's failure as the CLI reports it: exit 4 (2 for INVALID_OPTIONS: exitForProblem), the problem on stdout with --json. */
export async function daemonFailure(io: CliIo, err: unknown, base: string, json: boolean): Promise<never> {
  const { SvcError, CLIENT_NETWORK_ERROR } = await import('../../client/index.js');
  if (!(err instanceof SvcError)) throw err;
  if (err.code === CLIENT_NETWORK_ERROR) {
    throw new CliError(
      CLI_ERROR_CODES.DAEMON_UNREACHABLE,
      `cannot reach the daemon at ${base}: ${err.detail}`,
      EXIT.NO_ANSWER,
      'is svc serve running there? --daemon or SVC_DAEMON_URL name another',
    );
  }
  if (json && err.problem) io.stdout.write(`${JSON.stringify(err.problem, null, 2)}\n`);
  const hint =
    err.code === 'UNAUTHORIZED'
      ? "SVC_ADMIN_TOKEN must be the daemon's own operator token"
      : err.code === 'MONITORING_DISABLED'
        ? 'start the daemon with SVC_ADMIN_TOKEN set (24 characters at least)'
        : err.code === 'COMMERCIAL_DISABLED'
          ? 'start the daemon with SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on and SVC_COMMERCIAL_ORIGIN set (svc serve says why the mode is off)'
          : helpHint(runningCommand(io));
  throw new CliError(err.code, err.detail || err.title || `the daemon answered ${err.status}`, exitForProblem(err.code), hint);
}

/**
 * Runs one call against the daemon and prints its answer (the JSON, or `text`); the exit code is
 * `exitOf(value)` (0 by default). `operator`: the call needs SVC_ADMIN_TOKEN (the monitoring
 * routes); the public routes (claims, directory) are called without it.
 */
export async function withDaemon<T>(
  io: CliIo,
  options: DaemonOptions,
  setExit: (code: number) => void,
  call: (client: SvcClient) => Promise<T>,
  text: (value: T) => string,
  { operator = true, exitOf = () => EXIT.PASS }: { operator?: boolean; exitOf?: (value: T) => number } = {},
): Promise<void> {
  const base = daemonUrl(options.daemon, io.env);
  const token = operator ? adminToken(io.env) : undefined;
  const { SvcClient } = await import('../../client/index.js');
  const client = new SvcClient({ baseUrl: base, ...(token === undefined ? {} : { adminToken: token }), timeoutMs: CALL_TIMEOUT_MS });
  let value: T;
  try {
    value = await call(client);
  } catch (err) {
    return daemonFailure(io, err, base, options.json === true);
  }
  if (options.json) io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else if (!options.quiet) await writeReport(io, text(value), options);
  setExit(exitOf(value));
}
