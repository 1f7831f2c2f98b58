/** A server a command starts (svc serve, svc webhook listen) that cannot listen, as the CLI reports it. */
import { CLI_ERROR_CODES, CliError, usageError } from './errors.js';
import { EXIT } from './exit-codes.js';

/**
 * Why the daemon could not listen, in the one error style: a --host that does not resolve or is
 * not this machine's is a usage error (exit 2); a busy or forbidden port, exit 4. null: another
 * failure (reported as an internal error).
 */
export function listenFailure(err: unknown, host: string, port: number): CliError | null {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const failed = (reason: string, hint: string) => new CliError(CLI_ERROR_CODES.LISTEN_FAILED, `cannot listen on ${where}: ${reason}`, EXIT.NO_ANSWER, hint);
  switch ((err as NodeJS.ErrnoException | null)?.code) {
    case 'EADDRINUSE':
      return failed('the port is in use', 'stop what holds it, or choose another --port (0 picks a free one)');
    case 'EACCES':
      return failed('permission denied (ports below 1024 usually need privileges)', 'choose a --port of 1024 or above');
    case 'EAI_AGAIN':
      return failed(`the host name ${host} could not be resolved just now (a temporary DNS failure)`, 'try again, or give --host an IP address');
    case 'EADDRNOTAVAIL':
      return usageError(`cannot listen on ${where}: the address is not one of this machine's`);
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return usageError(`cannot listen on ${where}: the host name ${host} does not resolve`);
    default:
      return null;
  }
}
