/**
 * `svc serve`: builds the Runtime and the store, listens, and shuts down gracefully — on SIGTERM
 * or SIGINT /ready answers 503 at once while requests are still served for the notice period
 * (SVC_DRAIN_NOTICE: the time a load balancer needs to take the daemon out of rotation); then it
 * stops taking requests (503 SERVICE_UNAVAILABLE), lets those in flight finish for up to the drain
 * time, ends the live streams still open with a final frame, closes the remaining connections
 * and then the database.
 */
import type { Runtime } from '../core/runtime.js';
import type { Signer } from '../core/signing/index.js';
import { buildApp, type AppOptions } from './app.js';
import { serverContext } from './context.js';
import type { Profile, ServerLimits } from './limits.js';
import { AccountSweeper } from './jobs/account-sweeper.js';
import type { CommercialAccess } from './commercial.js';
import { buildGateway, gatewayRefusal } from './gateway.js';
import { upstreamHost } from './gateway/forward.js';
import { ClaimChecker } from './jobs/claim-checker.js';
import { CustomerMonitorPoller, MonitorPoller } from './jobs/poller.js';
import { relaxationLine, type Relaxation } from './relaxations.js';
import { reverifyRegistry } from './jobs/reverify-registry.js';
import { listenMetrics, type MetricsListener } from './metrics-listener.js';
import { StorageSlot } from './storage.js';
import type { DaemonMetrics, MetricsListen, ServerTelemetry } from './telemetry.js';

export interface ServeOptions {
  host: string;
  port: number;
  profile: Profile;
  /** Database file, ':memory:' (refused in production mode), or a `postgres://` URL. */
  dbPath: string;
  production: boolean;
  limits: ServerLimits;
  /** Proxies (IPs / CIDRs) whose X-Forwarded-For names the client (SVC_TRUST_PROXY); none: ignored. */
  trustProxy?: readonly string[];
  /** Settings that weaken a default: one start-up line each, and listed by /health. */
  relaxations?: readonly Relaxation[];
  /** One line per event (listening, draining, closed) for the operator. */
  announce: (line: string) => void;
  /** SVC_ADMIN_TOKEN: enables the operator monitoring routes (24 characters at least, direct profile). */
  adminToken?: string;
  /** SVC_COMMERCIAL and SVC_COMMERCIAL_ORIGIN: the opt-in commercial mode (src/server/commercial.ts); SVC_CUSTOMER_MONITOR: off stops its worker here. */
  commercial?: { setting: string | undefined; origin: string | undefined; customerMonitor?: string | undefined };
  /** The loopback cookie gateway (`--gateway-port`): a second listener, commercial mode only. */
  gateway?: { host: string; port: number };
  /** The access log (one entry per request); none: no access log. */
  accessLog?: AppOptions['accessLog'];
  /** SVC_SIGNING_KEY's signer (signing.ts readSigningKey): results are signed when asked; none: never. */
  signer?: Signer;
  /** The operator's metrics and traces (telemetry.ts), the same object the Runtime carries; none: nothing is measured. */
  telemetry?: ServerTelemetry;
  /** SVC_METRICS on: the metrics of `telemetry` that GET /metrics exposes; none: /metrics answers 404. */
  metrics?: DaemonMetrics;
  /** SVC_METRICS_LISTEN: a listener of its own serving GET /metrics without a token. */
  metricsListen?: MetricsListen;
}

/** The SVC_METRICS_LISTEN listener could not listen: `cause` is the listen error. */
export class MetricsListenFailed extends Error {
  override readonly name = 'MetricsListenFailed';
  constructor(
    override readonly cause: unknown,
    readonly host: string,
    readonly port: number,
  ) {
    super(`the metrics listener could not listen on ${host}:${port}`);
  }
}

/** `--gateway-host` is not loopback, or the commercial mode is off: svc serve refuses to start (a usage error). */
export class GatewayRefused extends Error {
  override readonly name = 'GatewayRefused';
}

/** The cookie gateway could not listen (its port in use …): `cause` is the listen error. */
export class GatewayListenFailed extends Error {
  override readonly name = 'GatewayListenFailed';
  constructor(
    override readonly cause: unknown,
    readonly host: string,
    readonly port: number,
  ) {
    super(`the cookie gateway could not listen on ${host}:${port}`);
  }
}

export interface RunningServer {
  url: string;
  /** The cookie gateway's URL, when one listens. */
  gatewayUrl?: string;
  /** Resolves once the server has shut down and the database is closed. */
  closed: Promise<void>;
  /** The commercial mode of this start (with its bridge secret, for an in-process cookie gateway). */
  commercial: CommercialAccess;
  /** Starts the shutdown; called again during the notice period, it ends the notice at once. */
  shutdown(reason: string): Promise<void>;
  /** Whether the shutdown is in its notice period (still serving, /ready 503). */
  inNotice(): boolean;
}

export async function serve(runtimeFor: (storage: StorageSlot) => Runtime, options: ServeOptions): Promise<RunningServer> {
  const storage = new StorageSlot(
    options.dbPath,
    options.production,
    {
      maxObservations: options.limits.maxObservations,
      maxMcpObservations: options.limits.maxMcpObservations,
      recordBatch: options.limits.recordBatch,
      recordThread: options.limits.recordThread,
      warn: options.announce,
    },
    options.telemetry,
  );
  // The first attempt is awaited (a PostgreSQL server answers or refuses within seconds); a
  // database that cannot be opened yet does not stop the start.
  await storage.open();
  const runtime = runtimeFor(storage);
  const ctx = serverContext({
    runtime,
    storage,
    profile: options.profile,
    limits: options.limits,
    relaxations: options.relaxations ?? [],
    adminToken: options.adminToken,
    ...(options.commercial ? { commercial: options.commercial } : {}),
    ...(options.signer ? { signer: options.signer } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  // The pool gauges are read at each scrape, from whatever pool the slot holds then.
  options.metrics?.watchPool(() => storage.pool);
  const refusal = options.gateway ? gatewayRefusal(options.gateway.host, ctx) : null;
  if (refusal !== null) {
    await storage.close().catch(() => undefined);
    throw new GatewayRefused(refusal);
  }
  const app = buildApp(ctx, { trustProxy: options.trustProxy, ...(options.accessLog ? { accessLog: options.accessLog } : {}) });
  if (storage.error) options.announce(`svc: warning: the database is unavailable (${storage.error}); /ready answers 503 until it can be opened`);
  for (const relaxation of ctx.relaxations ?? []) options.announce(relaxationLine(relaxation));
  const url = await app.listen({ host: options.host, port: options.port });
  options.announce(`svc: listening on ${url} (${options.profile} profile; database ${storage.location})`);
  // Who signs the results asked for with signed=true (a public key id, never the key).
  if (ctx.signer) options.announce(`svc: signing results asked for with signed=true as ${ctx.signer.identity.kid} (${ctx.signer.identity.alg})`);
  // The gateway reaches the daemon's own listener over loopback (an unspecified bind address
  // — 0.0.0.0, :: — is reached at 127.0.0.1 / ::1).
  const bound = app.server.address();
  const gateway =
    options.gateway && bound !== null && typeof bound === 'object'
      ? buildGateway(ctx, { host: upstreamHost(bound.address), port: bound.port }, options.accessLog)
      : null;
  let gatewayUrl: string | undefined;
  if (gateway && options.gateway) {
    try {
      gatewayUrl = await gateway.listen({ host: options.gateway.host, port: options.gateway.port });
    } catch (err) {
      await app.close().catch(() => undefined);
      await storage.close().catch(() => undefined);
      throw new GatewayListenFailed(err, options.gateway.host, options.gateway.port);
    }
    options.announce(`svc: cookie gateway on ${gatewayUrl} (owner sign-in; origin ${ctx.commercial?.enabled ? ctx.commercial.origin : '-'})`);
  }
  let metricsListener: MetricsListener | null = null;
  if (options.metrics && options.metricsListen) {
    const { host, port } = options.metricsListen;
    try {
      metricsListener = await listenMetrics(options.metrics, host, port);
    } catch (err) {
      await Promise.all([app.close(), ...(gateway ? [gateway.close()] : [])]).catch(() => undefined);
      await storage.close().catch(() => undefined);
      throw new MetricsListenFailed(err, host, port);
    }
    options.announce(`svc: metrics on ${metricsListener.url} (SVC_METRICS_LISTEN: GET /metrics without a token)`);
  }
  // Why the operator routes answer 501 — never the token itself.
  if (ctx.operator && !ctx.operator.enabled) options.announce(`svc: operator monitoring is off (${ctx.operator.reason}); the /v1/monitoring routes answer 501`);
  // Said only when the operator asked for the commercial mode and did not get it (never a secret).
  if (options.commercial?.setting && ctx.commercial && !ctx.commercial.enabled) options.announce(`svc: the commercial mode is off (${ctx.commercial.reason})`);
  // The monitoring poller runs where the operator routes do (SVC_ADMIN_TOKEN, direct profile).
  const poller = ctx.operator?.enabled ? new MonitorPoller(ctx) : null;
  poller?.start();
  // Claims are public: their re-checks run on every daemon with a database (leased per claim).
  const claimChecker = new ClaimChecker(ctx);
  claimChecker.start();
  // Expired owner sessions and sign-in challenges are swept where the commercial mode is on.
  const sweeper = ctx.commercial.enabled ? new AccountSweeper(ctx) : null;
  sweeper?.start();
  // Project watches are checked and their deliveries sent by every daemon where the mode is on
  // (unless SVC_CUSTOMER_MONITOR=off), the work shared through the database's leases.
  const customerPoller = ctx.customerWorker ? new CustomerMonitorPoller(ctx) : null;
  customerPoller?.start();
  const workerSetting = options.commercial?.customerMonitor;
  if (workerSetting !== undefined && !['', 'on', 'off'].includes(workerSetting)) {
    options.announce(`svc: SVC_CUSTOMER_MONITOR is "${workerSetting.slice(0, 20)}"; it takes on or off: the customer monitor worker runs`);
  }
  if (ctx.commercial.enabled && !ctx.customerWorker)
    options.announce('svc: the customer monitor worker is off here (SVC_CUSTOMER_MONITOR=off): project watches are not checked by this daemon');
  // Registered delegation chains are verified again at every start, in the background
  // (/health and the other routes answer meanwhile; verify-tool waits for it).
  void reverifyRegistry(ctx, options.announce);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let shuttingDown: Promise<void> | null = null;
  // Ends the notice period early (a second signal); null outside it.
  let endNotice: (() => void) | null = null;
  const closeAll = () => {
    app.server.closeAllConnections();
    gateway?.server.closeAllConnections();
  };
  const shutdown = (reason: string): Promise<void> => {
    if (endNotice !== null) {
      options.announce(`svc: ${reason} again: the notice period is cut short`);
      endNotice();
    }
    shuttingDown ??= (async () => {
      ctx.stopping = true;
      // The notice period: /ready answers 503 from now on, so the load balancer's health check
      // takes this daemon out of rotation, while every other request is still served as before —
      // a request the balancer sends here meanwhile is answered, not refused.
      const noticeMs = options.limits.drainNoticeMs;
      if (noticeMs > 0) {
        options.announce(`svc: ${reason}: not ready (/ready answers 503); still serving for the ${noticeMs / 1000} s notice period (${reason} again skips it)`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, noticeMs);
          endNotice = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        endNotice = null;
      }
      ctx.draining = true;
      options.announce(`svc: ${reason}: draining requests in flight (up to ${options.limits.drainMs} ms); new requests are refused (503)`);
      // Once no request is in flight, every remaining connection is closed at once: waiting on
      // idle keep-alive sockets (or a client's spare connection that never sends a request)
      // would hold the shutdown for no one. Past the drain time, everything is closed anyway —
      // a live stream still open first ends with its final frames (sse.ts), which are given a
      // moment to be written.
      let flush: NodeJS.Timeout | undefined;
      const force = setTimeout(() => {
        const streams = [...(ctx.streams ?? [])];
        for (const end of streams) end();
        if (streams.length > 0)
          options.announce(`svc: live streams still open, ended with a final error frame (SERVICE_UNAVAILABLE: retry): ${streams.length}`);
        flush = setTimeout(closeAll, streams.length > 0 ? 250 : 0);
      }, options.limits.drainMs);
      const idle = setInterval(() => {
        if (ctx.active === 0) closeAll();
      }, 25);
      try {
        // A check or re-check in flight finishes (its write is one transaction) or is left behind at the drain time.
        const background = [
          claimChecker.stop(),
          ...(poller ? [poller.stop()] : []),
          ...(sweeper ? [sweeper.stop()] : []),
          ...(customerPoller ? [customerPoller.stop()] : []),
        ];
        await Promise.race([Promise.all(background), new Promise((resolve) => setTimeout(resolve, options.limits.drainMs).unref())]);
        await Promise.all([app.close(), ...(gateway ? [gateway.close()] : []), ...(metricsListener ? [metricsListener.close()] : [])]);
        // Usage increments still gathered in memory are written before the database closes.
        await ctx.keyed?.flush().catch(() => undefined);
      } finally {
        clearTimeout(force);
        clearTimeout(flush);
        clearInterval(idle);
        await storage.close().catch(() => undefined);
        // Spans still queued for the collector are sent (within the tracer's own short limit).
        await options.telemetry?.close?.().catch(() => undefined);
        options.announce('svc: stopped; database closed');
        resolveClosed();
      }
    })();
    return shuttingDown;
  };
  return { url, ...(gatewayUrl !== undefined ? { gatewayUrl } : {}), closed, shutdown, inNotice: () => endNotice !== null, commercial: ctx.commercial };
}
