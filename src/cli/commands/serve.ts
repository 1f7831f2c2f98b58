/** `svc serve`: the HTTP daemon over the same core (fastify and the store load only here). */
import type { Command } from 'commander';
import { parseCidr } from '../../net/index.js';
import { ConfigError, createRuntime, dnsServersFromEnv, egressAllowanceEntries } from '../../runtime/node.js';
import { completeFiles } from '../completion.js';
import { ENVIRONMENT, environmentLines } from '../environment.js';
import { CLI_ERROR_CODES, CliError, usageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { collect, databaseOption } from './store-options.js';

interface ServeCommandOptions {
  host: string;
  port: string;
  db?: string;
  memory?: boolean;
  public?: boolean;
  production?: boolean;
  egressAllow: string[];
}

function port(text: string): number {
  const value = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 65535)) throw new ConfigError(`--port must be a port number 0..65535 (0 picks a free port), not ${JSON.stringify(text.slice(0, 32))}`);
  return value;
}

const LIST_PROXIES = 'list the addresses of your proxies instead (IPs or CIDRs, comma-separated, e.g. SVC_TRUST_PROXY=10.0.0.5,10.1.0.0/24)';

/**
 * SVC_TRUST_PROXY: the proxies (IPs or CIDRs, comma-separated) whose X-Forwarded-For names the
 * client; unset, empty or `false`: none, the connection's address is the client. `true`, a hop
 * count or a range of every address would believe X-Forwarded-For from anyone who connects
 * directly (any client could pick its own budget), so they are refused.
 */
export function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  const raw = (env['SVC_TRUST_PROXY'] ?? '').trim();
  if (raw === '' || raw.toLowerCase() === 'false') return [];
  if (raw.toLowerCase() === 'true' || /^[0-9]+$/.test(raw)) {
    throw new ConfigError(`SVC_TRUST_PROXY=${raw.slice(0, 16)} would let any client that connects directly forge X-Forwarded-For; ${LIST_PROXIES}`);
  }
  const proxies: string[] = [];
  for (const entry of raw.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const cidr = parseCidr(entry);
    if (typeof cidr === 'string') throw new ConfigError(`SVC_TRUST_PROXY: ${cidr}; ${LIST_PROXIES}`);
    if (cidr.prefix === 0) throw new ConfigError(`SVC_TRUST_PROXY: ${cidr.text} trusts every address, like "true"; ${LIST_PROXIES}`);
    if (!proxies.includes(cidr.text)) proxies.push(cidr.text);
  }
  return proxies;
}

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

export function registerServe(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const cmd = program
    .command('serve')
    .description('Run the HTTP daemon: /v1 resolution routes, the W3C /1.0 binding, history, diff, graph, SSE')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '8080')
    .option('--db <path|url>', 'database file, or a postgres:// URL shared by several daemons (default: $SVC_DATABASE_URL, else $XDG_STATE_HOME/svc/svc.db, shared with the CLI)')
    .option('--memory', 'keep the database in memory (lost on exit; refused with --production)')
    .option('--public', 'public profile: tighter budgets per client (20/min standard, 10/min intensive)')
    .option('--production', 'production mode: a persistent database is required (a file or PostgreSQL)')
    .option('--egress-allow <cidr>', 'also fetch from these non-public addresses; repeatable, adds to SVC_EGRESS_ALLOW', collect, [])
    .addHelpText(
      'after',
      `
Environment (every variable svc reads: svc help environment):
${environmentLines(ENVIRONMENT.filter((v) => v.scope === 'svc serve' || v.name === 'SVC_ADMIN_TOKEN')).join('\n')}
  and SVC_EGRESS_ALLOW, SVC_CACHE_TTL, SVC_CACHE_MAX_ENTRIES, SVC_PROBLEMS_BASE, SVC_LOG_LEVEL as for every command.

--egress-allow / SVC_EGRESS_ALLOW refuse a range that reaches link-local space (the cloud
metadata service 169.254.169.254) without naming it: 0.0.0.0/0, 169.0.0.0/8, ::/0 and
::ffff:0:0/96 exit 2; 169.254.169.254/32 is accepted.

Every setting that weakens a default (egress allowances, NODE_EXTRA_CA_CERTS, trusted proxies,
an open delegation registry, budgets raised above their defaults) is announced at start as
"svc: relaxation: …" and listed by GET /health under "relaxations".

SIGTERM and SIGINT drain requests in flight, then close the database.

Exit status: 0 stopped by SIGTERM; 130 stopped by SIGINT; 2 a bad option or setting, or a --host
that does not resolve or is not an address of this machine; 4 cannot listen (the port is in use,
or no permission to use it).

Examples:
  $ svc serve
  $ svc serve --host 0.0.0.0 --port 8080 --db /var/lib/svc/svc.db --production
  $ svc serve --public --port 0
  $ SVC_DATABASE_URL=postgres://svc@db.internal/svc svc serve --public --production   # one of several replicas`,
    )
    .action(async (options: ServeCommandOptions) => {
      const listenPort = port(options.port);
      if (options.memory && options.db) throw new ConfigError('--memory and --db exclude each other');
      const production = options.production === true || io.env['SVC_PRODUCTION'] === '1';
      if (options.memory && production) throw new ConfigError('production mode requires a database file; drop --memory');
      const dbPath = options.memory ? ':memory:' : databaseOption(options.db, io.env);
      const [{ serve }, { limitsFromEnv }, { operatorRelaxations }, { accessLogMode, accessLogWriter }] = await Promise.all([
        import('../../server/serve.js'),
        import('../../server/limits.js'),
        import('../../server/relaxations.js'),
        import('../../server/access-log.js'),
      ]);
      const limits = limitsFromEnv(io.env);
      const accessLog = accessLogWriter(accessLogMode(io.env, io.stderr.isTTY === true), (line) => io.stderr.write(line));
      // Every setting is read (and a bad one refused, exit 2) before anything opens or listens.
      const profile = options.public ? 'public' : 'direct';
      const proxies = trustedProxies(io.env);
      const egress = egressAllowanceEntries(io.env, options.egressAllow);
      const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
      const relaxations = operatorRelaxations({
        egress: egress.map((e) => ({ cidr: e.cidr.text, setting: e.setting })),
        extraCaCerts: io.env['NODE_EXTRA_CA_CERTS'],
        trustedProxies: proxies,
        limits,
        profile,
        dnsServers: dnsServersFromEnv(io.env),
      });
      const server = await serve(
        (storage) => {
          // The store may open after start (see StorageSlot): the Runtime reads it each time.
          Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
          return runtime;
        },
        {
          host: options.host,
          port: listenPort,
          profile,
          dbPath,
          production,
          limits,
          trustProxy: proxies,
          relaxations,
          adminToken: io.env['SVC_ADMIN_TOKEN'],
          // Access lines still pending go first, so stderr reads in the order things happened.
          announce: (line) => {
            accessLog?.flush();
            io.stderr.write(`${line}\n`);
          },
          ...(accessLog ? { accessLog } : {}),
        },
      ).catch((err: unknown) => {
        throw listenFailure(err, options.host, listenPort) ?? err;
      });
      // The CLI's own SIGINT handler exits at once; the daemon drains instead.
      process.removeAllListeners('SIGINT');
      let exitCode: number = EXIT.PASS;
      process.once('SIGTERM', () => void server.shutdown('SIGTERM'));
      process.once('SIGINT', () => {
        exitCode = EXIT.INTERRUPTED;
        void server.shutdown('SIGINT');
      });
      await server.closed;
      setExit(exitCode);
    });
  completeFiles(cmd, '--db');
}
