/**
 * The daemon in the test's own process, listening on loopback: what `svc serve` builds
 * (src/server/serve.ts) — the real buildApp over a real StorageSlot (a SQLite file or a
 * PostgreSQL database) and a production Runtime, the limits and operator/commercial settings read
 * from the same environment variables, and the cookie gateway when the commercial mode is on —
 * for route tests where the process boundary is not the subject. Requests go over real HTTP
 * (test/support/daemon-client.ts `call`, the gateway helpers), so a test reads as it did against
 * `svc serve`.
 *
 * Its background jobs (the monitoring poller, the claim re-checker, the customer monitor) are
 * built but never started on a timer: a test runs a pass when it wants one (`jobs.monitor.pass()`)
 * instead of waiting for a period to come round, and "nothing more happens" is asserted after
 * passes that did run rather than after a sleep. The schedule itself (SVC_MONITOR_PERIOD,
 * SVC_CLAIM_PERIOD, a pass at start) stays tested on real processes: daemon-monitoring "the
 * poller", cli-claims, monitoring-resilience-* and customer-monitor-resilience-*.
 *
 * `stderr()` is what the process would have written there, and more: the access log (JSON, as
 * on a pipe) and every runtime log line at debug level (the daemon's default is silent).
 */
import type { FastifyInstance } from 'fastify';
import { createRuntime } from '../../src/runtime/node.js';
import type { Logger } from '../../src/core/runtime.js';
import { accessLogWriter } from '../../src/server/access-log.js';
import { buildApp } from '../../src/server/app.js';
import { ClaimChecker } from '../../src/server/jobs/claim-checker.js';
import { serverContext, type ServerContext } from '../../src/server/context.js';
import { buildGateway } from '../../src/server/gateway.js';
import { limitsFromEnv, type Profile } from '../../src/server/limits.js';
import { CustomerMonitorPoller, MonitorPoller } from '../../src/server/jobs/poller.js';
import { reverifyRegistry } from '../../src/server/jobs/reverify-registry.js';
import { StorageSlot } from '../../src/server/storage.js';
import type { DidWebHost } from './did-web-host.js';
import { freePort } from './gateway.js';

export interface LiveDaemonOptions {
  /** The database: a SQLite file path or a postgres:// URL (its `options` may name a schema). */
  target: string;
  /** Trust this host's CA and allow loopback egress (as startDaemonFor's NODE_EXTRA_CA_CERTS and SVC_EGRESS_ALLOW). */
  host?: DidWebHost | null;
  /** The daemon's environment (SVC_ADMIN_TOKEN, SVC_COMMERCIAL, SVC_CLAIM_RECHECK_INTERVAL, SVC_DNS_SERVERS …). */
  env?: Record<string, string>;
  /** `--public`. */
  profile?: Profile;
  /** With the commercial mode on: the cookie gateway on a free loopback port (SVC_COMMERCIAL_ORIGIN is its origin unless env names one). */
  gateway?: boolean;
}

export interface LiveDaemon {
  url: string;
  /** The cookie gateway's URL (with `gateway`). */
  gatewayUrl?: string;
  /** The gateway's origin (with `gateway`). */
  origin?: string;
  ctx: ServerContext;
  app: FastifyInstance;
  /** The background jobs, run a pass at a time by the test. */
  jobs: { monitor: MonitorPoller; claims: ClaimChecker; customer: CustomerMonitorPoller };
  /** The access log and every log line so far. */
  stderr(): string;
  stop(): Promise<void>;
}

function capturingLogger(lines: string[]): Logger {
  const emit = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${JSON.stringify({ level, message, ...fields })}\n`);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

export async function startLiveDaemon(options: LiveDaemonOptions): Promise<LiveDaemon> {
  const lines: string[] = [];
  const profile = options.profile ?? 'direct';
  const gatewayPort = options.gateway ? await freePort() : undefined;
  const env: Record<string, string> = {
    SVC_RATE_LIMIT_PER_MIN: '100000',
    ...(process.env['SVC_FREEZE_RESULTS'] ? { SVC_FREEZE_RESULTS: process.env['SVC_FREEZE_RESULTS'] } : {}),
    ...(options.host ? { SVC_EGRESS_ALLOW: '127.0.0.0/8' } : {}),
    ...(gatewayPort !== undefined ? { SVC_COMMERCIAL_ORIGIN: `http://127.0.0.1:${gatewayPort}` } : {}),
    ...options.env,
  };
  const limits = limitsFromEnv(env);
  const announce = (line: string) => lines.push(`${line}\n`);
  const storage = new StorageSlot(options.target, false, {
    maxObservations: limits.maxObservations,
    maxMcpObservations: limits.maxMcpObservations,
    recordBatch: limits.recordBatch,
    warn: announce,
  });
  await storage.open();
  if (storage.store === undefined) throw new Error(`the test database did not open: ${storage.error ?? '?'}`);
  const runtime = createRuntime(env, {
    log: capturingLogger(lines),
    ...(options.host ? { net: { trustAnchors: [options.host.ca.certPem] } } : {}),
  });
  Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
  const ctx = serverContext({
    runtime,
    storage,
    profile,
    limits,
    adminToken: env['SVC_ADMIN_TOKEN'],
    commercial: { setting: env['SVC_COMMERCIAL'], origin: env['SVC_COMMERCIAL_ORIGIN'], customerMonitor: env['SVC_CUSTOMER_MONITOR'] },
  });
  const commercial = ctx.commercial;
  const accessLog = accessLogWriter('json', (text) => lines.push(text))!;
  const app = buildApp(ctx, { accessLog });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  let gateway: FastifyInstance | null = null;
  let gatewayUrl: string | undefined;
  if (gatewayPort !== undefined) {
    if (!commercial.enabled) throw new Error(`the gateway needs the commercial mode: ${commercial.reason}`);
    const bound = app.server.address() as { port: number };
    gateway = buildGateway(ctx, { host: '127.0.0.1', port: bound.port }, accessLog);
    gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: gatewayPort });
  }
  // As serve() does at every start: registered delegation chains verified again, in the background.
  const reverified = reverifyRegistry(ctx, announce);
  const jobs = { monitor: new MonitorPoller(ctx), claims: new ClaimChecker(ctx), customer: new CustomerMonitorPoller(ctx) };
  let stopped: Promise<void> | null = null;
  return {
    url,
    ...(gatewayUrl !== undefined ? { gatewayUrl, origin: commercial.enabled ? commercial.origin : '' } : {}),
    ctx,
    app,
    jobs,
    stderr: () => {
      accessLog.flush();
      return lines.join('');
    },
    stop: () =>
      (stopped ??= (async () => {
        ctx.draining = true;
        await reverified?.catch(() => undefined);
        await Promise.all([jobs.monitor.stop(), jobs.claims.stop(), jobs.customer.stop()]);
        app.server.closeAllConnections();
        gateway?.server.closeAllConnections();
        await Promise.all([app.close(), gateway?.close()]);
        await ctx.keyed?.flush().catch(() => undefined);
        await storage.close();
      })()),
  };
}

/** A postgres:// URL whose connections use `schema` (libpq's options parameter), for a daemon's --db on a pooled schema. */
export function schemaUrl(serverUrl: string, schema: string): string {
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/**
 * Runs passes of `job` until `check` holds, at most `passes` of them; fails naming `what`. Each
 * pass is awaited, so nothing is waited for beyond the work itself.
 */
export async function afterPasses(what: string, job: { pass(): Promise<unknown> }, check: () => boolean | Promise<boolean>, passes = 10): Promise<void> {
  for (let i = 0; i < passes; i++) {
    await job.pass();
    if (await check()) return;
  }
  throw new Error(`not so after ${passes} passes: ${what}`);
}
