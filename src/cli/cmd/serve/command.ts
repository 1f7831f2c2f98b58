/** `svc serve`: the HTTP daemon over the same core (its work, with fastify and the store, loads when it runs: action.ts). */
import type { Command } from 'commander';
import { completeFiles } from '../../cmdutil/completion.js';
import { ENVIRONMENT, environmentLines } from '../../cmdutil/environment.js';
import { DEFAULT_WIDTH, wrapWords } from '../../cmdutil/layout.js';
import type { ServeCommandOptions } from './options.js';
import type { CliIo } from '../../cmdutil/io.js';
import { collect } from '../../cmdutil/store-options.js';

export function registerServe(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const cmd = program
    .command('serve')
    .description('Run the HTTP daemon: /v1 resolution routes, the W3C /1.0 binding, history, diff, graph, SSE')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '8080')
    .option(
      '--db <path|url>',
      'database file, or a postgres:// URL shared by several daemons (default: $SVC_DATABASE_URL, else $XDG_STATE_HOME/svc/svc.db, shared with the CLI)',
    )
    .option('--memory', 'keep the database in memory (lost on exit; refused with --production)')
    .option('--public', 'public profile: tighter budgets per client (20/min standard, 10/min intensive)')
    .option('--production', 'production mode: a persistent database is required (a file or PostgreSQL)')
    .option(
      '--gateway-port <n>',
      'also start the loopback cookie gateway for owners on this port (commercial mode only; default: $SVC_GATEWAY_PORT, else none)',
    )
    .option('--gateway-host <address>', "the cookie gateway's address: loopback only (127.0.0.0/8, ::1, localhost)", '127.0.0.1')
    .option('--egress-allow <cidr>', 'also fetch from these non-public addresses; repeatable, adds to SVC_EGRESS_ALLOW', collect, [])
    .addHelpText(
      'after',
      `
Environment (every variable svc reads: svc help environment):
${environmentLines(ENVIRONMENT.filter((v) => v.scope === 'svc serve' || v.name === 'SVC_ADMIN_TOKEN')).join('\n')}
${everyCommandLine()}

--egress-allow / SVC_EGRESS_ALLOW refuse a range that reaches link-local space (the cloud
metadata service 169.254.169.254) without naming it: 0.0.0.0/0, 169.0.0.0/8, ::/0 and
::ffff:0:0/96 exit 2; 169.254.169.254/32 is accepted.

Every setting that weakens a default (egress allowances, NODE_EXTRA_CA_CERTS, trusted proxies,
an open delegation registry, budgets raised above their defaults, a metrics listener off
loopback) is announced at start as "svc: relaxation: …" and listed by GET /health under "relaxations".

Prometheus metrics (SVC_METRICS=on, the default): GET /metrics on this listener with
Authorization: Bearer <SVC_ADMIN_TOKEN> (direct profile only; 501 without a token set, 401 with a
wrong one), and with SVC_METRICS_LISTEN=host:port on a listener of their own without a token
("Metrics" in docs/operations.md of the svc repository).

The cookie gateway (--gateway-port; "Owner accounts and the cookie gateway" in docs/daemon.md
of the svc repository) needs the commercial mode (SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on,
SVC_COMMERCIAL_ORIGIN = the gateway's own origin) and a loopback --gateway-host; otherwise svc
serve refuses to start (exit 2) and says why.

SIGTERM and SIGINT make GET /ready answer 503 at once; requests are still served for
SVC_DRAIN_NOTICE seconds (0 by default; behind a load balancer, longer than its health check
takes to notice; the signal again skips it), then new ones are refused, those in flight drained
(SVC_DRAIN_MS) and the database closed.

Exit status: 0 stopped by SIGTERM; 130 stopped by SIGINT; 2 a bad option or setting, or a --host
that does not resolve or is not an address of this machine; 4 cannot listen (the port is in use,
or no permission to use it).

Examples:
  $ svc serve
  $ svc serve --host 0.0.0.0 --port 8080 --db /var/lib/svc/svc.db --production
  $ svc serve --public --port 0
  $ SVC_COMMERCIAL=on SVC_COMMERCIAL_ORIGIN=http://127.0.0.1:8081 svc serve --gateway-port 8081
  $ SVC_DATABASE_URL=postgres://svc@db.internal/svc svc serve --public --production   # one of several replicas`,
    )
    .action(async (options: ServeCommandOptions) => (await import('./action.js')).serveAction(io, setExit, options));
  completeFiles(cmd, '--db');
}

/** The variables every command reads, the daemon included, named from the one table (environment.ts). */
function everyCommandLine(): string {
  const names = ENVIRONMENT.filter((v) => v.scope === 'every command').map((v) => v.name);
  return wrapWords(`and ${names.join(', ')} as for every command.`, DEFAULT_WIDTH - 2)
    .map((line) => `  ${line}`)
    .join('\n');
}
