/** `svc serve`'s work, loaded when it runs (its options: options.ts, registered by command.ts): fastify and the store load only here. */
import { familyShares, parseCidr, type Cidr } from '../../../net/index.js';
import {
  ConfigError,
  createRuntime,
  dnsServersFromEnv,
  egressAllowanceEntries,
  logLevelFromEnv,
  stderrLogger,
  type RuntimeOverrides,
} from '../../../runtime/node.js';
import type { RunningServer } from '../../../server/serve.js';
import { usageError } from '../../cmdutil/errors.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { databaseOption } from '../../cmdutil/database.js';
import { listenFailure } from '../../cmdutil/listen.js';
import type { ServeCommandOptions } from './options.js';

function port(text: string): number {
  const value = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 65535))
    throw new ConfigError(`--port must be a port number 0..65535 (0 picks a free port), not ${JSON.stringify(text.slice(0, 32))}`);
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
  const cidrs: Cidr[] = [];
  for (const entry of raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const cidr = parseCidr(entry);
    if (typeof cidr === 'string') throw new ConfigError(`SVC_TRUST_PROXY: ${cidr}; ${LIST_PROXIES}`);
    if (cidr.prefix === 0) throw new ConfigError(`SVC_TRUST_PROXY: ${cidr.text} trusts every address, like "true"; ${LIST_PROXIES}`);
    if (!proxies.includes(cidr.text)) proxies.push(cidr.text);
    cidrs.push(cidr);
  }
  // Split into pieces, a range of every address is as bad as 0.0.0.0/0: refuse any set whose
  // union covers MAX_PROXY_SHARE of a family or more (a /4 of IPv4 or of IPv6, or larger).
  const shares = familyShares(cidrs);
  for (const [family, share] of [
    ['IPv4', shares.ipv4],
    ['IPv6', shares.ipv6],
  ] as const) {
    if (share >= MAX_PROXY_SHARE) {
      const what = share >= 1 ? 'all' : `${formatShare(share)}`;
      throw new ConfigError(
        `SVC_TRUST_PROXY: together the ranges cover ${what} of ${family} (at most 1/16 may be trusted), so nearly any client could forge X-Forwarded-For; ${LIST_PROXIES}`,
      );
    }
  }
  return proxies;
}

/** The share of an address family the trusted proxies may cover together: less than 1/16 (a /4). */
export const MAX_PROXY_SHARE = 1 / 16;

function formatShare(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

/**
 * SVC_ADMIN_TOKEN, checked before anything opens: a token that could never be presented (a space,
 * a control character, non-ASCII) is refused; a guessable one (one character repeated, a short
 * pattern, common words) is refused unless SVC_ALLOW_WEAK_ADMIN_TOKEN=1 says the operator means
 * it — then it is a relaxation, announced and listed by /health. Returns why it is weak when
 * allowed so, else null. A token shorter than 24 characters leaves the routes disabled, as before.
 */
export function adminTokenCheck(
  env: NodeJS.ProcessEnv,
  operator: Pick<typeof import('../../../server/operator.js'), 'unusableAdminToken' | 'weakAdminToken' | 'MIN_ADMIN_TOKEN_LENGTH'>,
): string | null {
  const token = env['SVC_ADMIN_TOKEN'];
  const unusable = operator.unusableAdminToken(token);
  if (unusable !== null) throw new ConfigError(unusable);
  if (token === undefined || token.length < operator.MIN_ADMIN_TOKEN_LENGTH) return null;
  const weak = operator.weakAdminToken(token);
  if (weak === null) return null;
  const allow = (env['SVC_ALLOW_WEAK_ADMIN_TOKEN'] ?? '').trim();
  if (allow === '1') return weak;
  if (allow !== '' && allow !== '0') throw new ConfigError(`SVC_ALLOW_WEAK_ADMIN_TOKEN must be 1 or 0, not ${JSON.stringify(allow.slice(0, 16))}`);
  throw new ConfigError(
    `SVC_ADMIN_TOKEN is guessable: ${weak}; make one with: openssl rand -hex 32 (or set SVC_ALLOW_WEAK_ADMIN_TOKEN=1 to accept it, announced as a relaxation)`,
  );
}

/** --gateway-port, else SVC_GATEWAY_PORT; undefined: no gateway. */
function gatewayPort(option: string | undefined, env: NodeJS.ProcessEnv): number | undefined {
  const text = option ?? (env['SVC_GATEWAY_PORT']?.trim() || undefined);
  if (text === undefined) return undefined;
  const value = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 65535)) {
    throw new ConfigError(
      `${option !== undefined ? '--gateway-port' : 'SVC_GATEWAY_PORT'} must be a port number 0..65535, not ${JSON.stringify(text.slice(0, 32))}`,
    );
  }
  return value;
}

export async function serveAction(io: CliIo, setExit: (code: number) => void, options: ServeCommandOptions): Promise<void> {
  const server = await startServer(io, options);
  // The CLI's own SIGINT handler exits at once; the daemon drains instead.
  process.removeAllListeners('SIGINT');
  let exitCode: number = EXIT.PASS;
  // The first SIGTERM or SIGINT starts the shutdown; a second one during the notice period ends
  // it early; one more once the drain has begun stops the process at once (the signal's own action).
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGINT') exitCode = EXIT.INTERRUPTED;
    if (signalled && !server.inNotice()) {
      process.removeListener('SIGTERM', onSignal);
      process.removeListener('SIGINT', onSignal);
      process.kill(process.pid, signal);
      return;
    }
    signalled = true;
    void server.shutdown(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await server.closed;
  setExit(exitCode);
}

/**
 * What a process must supply that `io.env` cannot: Node reads NODE_EXTRA_CA_CERTS once, when the
 * process starts, so a daemon started inside another process (test/support/daemon.ts) passes the
 * trust anchors its environment names here. A `svc serve` process passes nothing.
 */
export interface ServeSeams {
  net?: RuntimeOverrides['net'];
}

/**
 * Everything of `svc serve` up to a listening daemon: every setting read (a bad one refused)
 * before anything opens, then the store, the app and the listener. The process shell (signals,
 * exit code) is serveAction's; the runtime's diagnostics and the announcements go to io.stderr.
 */
export async function startServer(io: CliIo, options: ServeCommandOptions, seams: ServeSeams = {}): Promise<RunningServer> {
  const listenPort = port(options.port);
  const gatewayListen = gatewayPort(options.gatewayPort, io.env);
  if (options.memory && options.db) throw new ConfigError('--memory and --db exclude each other');
  const production = options.production === true || io.env['SVC_PRODUCTION'] === '1';
  if (options.memory && production) throw new ConfigError('production mode requires a database file; drop --memory');
  const dbPath = options.memory ? ':memory:' : databaseOption(options.db, io.env);
  const [
    { serve, GatewayRefused, GatewayListenFailed, MetricsListenFailed },
    { limitsFromEnv },
    { operatorRelaxations },
    { accessLogMode, accessLogWriter },
    operator,
    { readSigningKey },
    { daemonTelemetry },
  ] = await Promise.all([
    import('../../../server/serve.js'),
    import('../../../server/limits.js'),
    import('../../../server/relaxations.js'),
    import('../../../server/access-log.js'),
    import('../../../server/operator.js'),
    import('../../../server/signing.js'),
    import('../../../server/telemetry.js'),
  ]);
  const limits = limitsFromEnv(io.env);
  const accessLog = accessLogWriter(accessLogMode(io.env, io.stderr.isTTY === true), (line) => io.stderr.write(line));
  // Every setting is read (and a bad one refused, exit 2) before anything opens or listens.
  const profile = options.public ? 'public' : 'direct';
  const proxies = trustedProxies(io.env);
  const weakToken = adminTokenCheck(io.env, operator);
  const signer = await readSigningKey(io.env);
  const egress = egressAllowanceEntries(io.env, options.egressAllow);
  const level = logLevelFromEnv(io.env);
  const { telemetry, metrics, metricsListen } = await daemonTelemetry(io.env, (line) => io.stderr.write(`${line}\n`));
  const runtime = createRuntime(io.env, {
    ...(telemetry ? { telemetry } : {}),
    egressAllow: options.egressAllow,
    ...(level !== null ? { log: stderrLogger(level, (line) => io.stderr.write(line)) } : {}),
    ...(seams.net ? { net: seams.net } : {}),
  });
  // SVC_JSONLD=on: src/jsonld/ is loaded now (a bad SVC_JSONLD_CONTEXTS refused, exit 2), and only then.
  const { jsonLdSettings, loadRdfCanonicaliser } = await import('../../../runtime/jsonld.js');
  const jsonld = await loadRdfCanonicaliser(jsonLdSettings(io.env));
  if (jsonld) runtime.jsonld = jsonld;
  const relaxations = operatorRelaxations({
    egress: egress.map((e) => ({ cidr: e.cidr.text, setting: e.setting })),
    extraCaCerts: io.env['NODE_EXTRA_CA_CERTS'],
    trustedProxies: proxies,
    limits,
    profile,
    dnsServers: dnsServersFromEnv(io.env),
    weakAdminToken: weakToken,
    ...(metricsListen ? { metricsListen } : {}),
    ...(jsonld ? { jsonld: jsonld.description } : {}),
    work: { cacheMaxBytes: runtime.cache.usage?.().maxBytes, webvhMaxEntries: runtime.config.webvhMaxEntries, webvhMaxBytes: runtime.config.webvhMaxBytes },
  });
  return serve(
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
      commercial: { setting: io.env['SVC_COMMERCIAL'], origin: io.env['SVC_COMMERCIAL_ORIGIN'], customerMonitor: io.env['SVC_CUSTOMER_MONITOR'] },
      ...(gatewayListen !== undefined ? { gateway: { host: options.gatewayHost, port: gatewayListen } } : {}),
      // Access lines still pending go first, so stderr reads in the order things happened.
      announce: (line) => {
        accessLog?.flush();
        io.stderr.write(`${line}\n`);
      },
      ...(accessLog ? { accessLog } : {}),
      ...(signer ? { signer } : {}),
      ...(telemetry ? { telemetry } : {}),
      ...(metrics ? { metrics } : {}),
      ...(metricsListen ? { metricsListen } : {}),
    },
  ).catch((err: unknown) => {
    if (err instanceof GatewayRefused) throw usageError(`cannot start the cookie gateway: ${err.message}`);
    if (err instanceof MetricsListenFailed) throw listenFailure(err.cause, err.host, err.port) ?? err.cause;
    if (err instanceof GatewayListenFailed) throw listenFailure(err.cause, err.host, err.port) ?? err.cause;
    throw listenFailure(err, options.host, listenPort) ?? err;
  });
}
