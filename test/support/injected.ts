/**
 * The daemon's app in process, for tests where the process boundary is not the subject: the real
 * buildApp over a real StorageSlot (a SQLite file or a PostgreSQL database), the operator routes
 * and the commercial mode on, answered through Fastify's inject(). Session-core requests carry
 * this start's bridge secret and a subject, as the cookie gateway's forwarding sets them.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Net } from '../../src/core/net.js';
import type { Clock } from '../../src/core/runtime.js';
import type { AccountStore, RuntimeStore } from '../../src/core/store.js';
import { createRuntime, type RuntimeOverrides } from '../../src/runtime/node.js';
import type { Signer } from '../../src/core/signing/index.js';
import { buildApp, type AppOptions } from '../../src/server/app.js';
import { BRIDGE_HEADER, SUBJECT_HEADER } from '../../src/server/commercial.js';
import { serverContext, type ServerContext } from '../../src/server/context.js';
import { DEFAULT_LIMITS, type Profile, type ServerLimits } from '../../src/server/limits.js';
import { StorageSlot } from '../../src/server/storage.js';
import type { DaemonMetrics, ServerTelemetry } from '../../src/server/telemetry.js';

export const INJECTED_ADMIN_TOKEN = 'injected-test-operator-token-0123456789';

export interface InjectedApp {
  app: FastifyInstance;
  ctx: ServerContext;
  store: RuntimeStore;
  accounts: AccountStore;
  /** A request as the operator (Bearer token). */
  operator: (method: string, url: string, body?: unknown) => Promise<LightMyRequestResponse>;
  /** A session-core request for `subject`, as the gateway forwards it (bridge secret + subject). */
  session: (subject: string, method: string, url: string, body?: unknown) => Promise<LightMyRequestResponse>;
  /** A request with no credentials (public routes). */
  anonymous: (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
}

export interface InjectedOptions {
  profile?: Profile;
  clock?: Clock;
  /** Budgets generous enough that a test's own requests are never 429 (unless it sets them). */
  limits?: Partial<ServerLimits>;
  /**
   * The Net outbound work goes through, instead of the production one: e.g. a test host's
   * (`host.runtime().net`: its CA trusted, loopback allowed) for routes that fetch.
   */
  net?: Net;
  /** Or the production Net with the fetcher's seams relaxed (a DNS table, trust anchors) and --egress-allow. */
  netOverrides?: RuntimeOverrides['net'];
  egressAllow?: readonly string[];
  /** The daemon's signing key (SVC_SIGNING_KEY's signer): signed=true answers are signed with it. */
  signer?: Signer;
  /** Where the access log goes (one entry per request); none: no access log. */
  accessLog?: AppOptions['accessLog'];
  /** The daemon's telemetry (metrics, traces), for the Runtime, its fetcher, the store and requests. */
  telemetry?: ServerTelemetry;
  /** The metrics GET /metrics exposes (src/server/metrics.ts: the same object as `telemetry`, or a part of it). */
  metrics?: DaemonMetrics;
}

/** buildApp over the database at `target` (a SQLite file path or a postgres:// URL). */
export async function injectedApp(target: string, options: InjectedOptions = {}): Promise<InjectedApp> {
  const profile = options.profile ?? 'direct';
  const limits: ServerLimits = {
    ...DEFAULT_LIMITS,
    directPerMinute: 1_000_000,
    standardPerMinute: 1_000_000,
    intensivePerMinute: 1_000_000,
    ...options.limits,
  };
  const storage = new StorageSlot(target, false, undefined, options.telemetry);
  await storage.open();
  if (storage.store === undefined) throw new Error(`the test database did not open: ${storage.error ?? '?'}`);
  const created = createRuntime(
    {},
    {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.netOverrides ? { net: options.netOverrides } : {}),
      ...(options.egressAllow ? { egressAllow: options.egressAllow } : {}),
      ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    },
  );
  const runtime = options.net ? { ...created, net: options.net } : created;
  Object.defineProperty(runtime, 'store', { get: () => storage.store, enumerable: true });
  const ctx = serverContext({
    runtime,
    storage,
    profile,
    limits,
    adminToken: INJECTED_ADMIN_TOKEN,
    commercial: { setting: 'on', origin: 'http://127.0.0.1:1', customerMonitor: 'off' },
    ...(options.signer ? { signer: options.signer } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  options.metrics?.watchPool(() => storage.pool);
  const commercial = ctx.commercial;
  const app = buildApp(ctx, options.accessLog ? { accessLog: options.accessLog } : {});
  await app.ready();
  const bridge = commercial.enabled ? commercial.bridgeSecret : '';
  const request = (method: string, url: string, body: unknown, headers: Record<string, string>) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: { host: '127.0.0.1', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
  return {
    app,
    ctx,
    store: storage.store,
    accounts: storage.store.accounts,
    operator: (method, url, body) => request(method, url, body, { authorization: `Bearer ${INJECTED_ADMIN_TOKEN}` }),
    session: (subject, method, url, body) => request(method, url, body, { [BRIDGE_HEADER]: bridge, [SUBJECT_HEADER]: subject }),
    anonymous: (method, url, body, headers = {}) => request(method, url, body, headers),
    close: async () => {
      await app.close();
      await ctx.keyed?.flush().catch(() => undefined);
      await storage.close();
    },
  };
}
