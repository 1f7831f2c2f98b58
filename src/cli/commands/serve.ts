/** `svc serve`: the HTTP daemon over the same core (fastify and the store load only here). */
import type { Command } from 'commander';
import { ConfigError, createRuntime } from '../../runtime/node.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { collect, storePathOption } from './store-options.js';

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

/** SVC_TRUST_PROXY: "true", a hop count, or a comma-separated list of proxy addresses/CIDRs. */
function trustProxy(env: NodeJS.ProcessEnv): boolean | number | string[] {
  const raw = env['SVC_TRUST_PROXY'];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^[0-9]{1,2}$/.test(raw)) return Number(raw);
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

export function registerServe(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('serve')
    .description('Run the HTTP daemon: /v1 resolution routes, the W3C /1.0 binding, history, diff, graph, SSE')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '8080')
    .option('--db <path>', 'database file (default: $XDG_STATE_HOME/svc/svc.db, shared with the CLI)')
    .option('--memory', 'keep the database in memory (lost on exit; refused with --production)')
    .option('--public', 'public profile: the SPEC budgets (20/min standard, 10/min intensive) per client')
    .option('--production', 'production mode: a database file is required')
    .option('--egress-allow <cidr>', 'also fetch from these non-public addresses; repeatable, adds to SVC_EGRESS_ALLOW', collect, [])
    .addHelpText(
      'after',
      `
Environment:
  SVC_RATE_LIMIT_PER_MIN   direct profile: requests per minute per client (default 120)
  SVC_REQUEST_TIMEOUT_MS   whole-request time limit, 408 after it (default 45000)
  SVC_MAX_CONCURRENCY      resolutions fetching at once; 503 CAPACITY_EXHAUSTED past it (default 64)
  SVC_DRAIN_MS             how long SIGTERM waits for requests in flight (default 10000)
  SVC_TRUST_PROXY          true, a hop count or proxy addresses whose X-Forwarded-For names the client
  SVC_DELEGATION_ROOTS     DIDs (comma-separated) whose delegation chains may be registered; unset: any root
  SVC_CACHE_TTL, SVC_EGRESS_ALLOW, SVC_PROBLEMS_BASE, SVC_LOG_LEVEL as for every command

SIGTERM and SIGINT drain requests in flight, then close the database.

Examples:
  $ svc serve
  $ svc serve --host 0.0.0.0 --port 8080 --db /var/lib/svc/svc.db --production
  $ svc serve --public --port 0`,
    )
    .action(async (options: ServeCommandOptions) => {
      const listenPort = port(options.port);
      if (options.memory && options.db) throw new ConfigError('--memory and --db exclude each other');
      const production = options.production === true || io.env['SVC_PRODUCTION'] === '1';
      if (options.memory && production) throw new ConfigError('production mode requires a database file; drop --memory');
      const dbPath = options.memory ? ':memory:' : storePathOption(options.db, io.env);
      const [{ serve }, { limitsFromEnv }] = await Promise.all([import('../../server/serve.js'), import('../../server/limits.js')]);
      const limits = limitsFromEnv(io.env);
      const server = await serve(
        (storage) => {
          const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
          // The store may open after start (see StorageSlot): the Runtime reads it each time.
          Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
          return runtime;
        },
        {
          host: options.host,
          port: listenPort,
          profile: options.public ? 'public' : 'direct',
          dbPath,
          production,
          limits,
          trustProxy: trustProxy(io.env),
          announce: (line) => io.stderr.write(`${line}\n`),
        },
      );
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
}
