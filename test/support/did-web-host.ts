/**
 * A did:web host for tests: a throw-away CA, a real HTTPS server on 127.0.0.1 with a
 * certificate for `localhost` (and any extra names), and Runtimes whose trust and egress
 * allowance include it — the production policy otherwise. No fetch is mocked.
 */
import { systemClock } from '../../src/runtime/node.js';
import type { Clock, Runtime } from '../../src/core/runtime.js';
import type { ResolvedAddress } from '../../src/net/index.js';
import { createTestCa, type CertifiedKey, type TestCa } from './pki.js';
import { json, startHttpsServer, type Handler, type TestHttpsServer } from './https-server.js';
import { testRuntime, type TestNetOptions } from './runtime.js';
import { didDocument, generateTestKey, type TestKey } from './signing.js';

export interface DidWebHost {
  ca: TestCa;
  /** The certificate the server presents. */
  leaf: CertifiedKey;
  server: TestHttpsServer;
  /** `did:web:localhost%3A<port>[:path…]`. */
  did(...path: string[]): string;
  /** Serves a DID document for `did` (made with `key` unless given) at its did.json path. */
  publish(did: string, document?: Record<string, unknown>): Record<string, unknown>;
  /** A Runtime trusting the CA, allowing 127.0.0.0/8, with a DNS table; options override; the system clock unless given. */
  runtime(options?: TestNetOptions, clock?: Clock): Runtime;
  key: TestKey;
  close(): Promise<void>;
}

/** DNS of the tests: `localhost` and any name in `table`; anything else does not exist. */
export function tableLookup(table: Record<string, string[]> = {}) {
  const all: Record<string, string[]> = { localhost: ['127.0.0.1'], ...table };
  return async (host: string): Promise<ResolvedAddress[]> => {
    const addresses = all[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** did.json path of a did:web on the test host. */
export function documentPath(did: string): string {
  const segments = did.split(':').slice(3);
  return segments.length === 0 ? '/.well-known/did.json' : `/${segments.map((s) => encodeURIComponent(decodeURIComponent(s))).join('/')}/did.json`;
}

/**
 * Days of validity of a monitored host's leaf (`leafDays`): beyond every default expiry threshold
 * of monitoring (SVC_TLS_EXPIRY_DAYS, 30 at most), so a watch of the host sends no
 * tls.certificate.expiring and a test sees only the events it causes. The default leaf (10 days)
 * would be announced at 14 days on a watch's first check.
 */
export const FAR_FROM_EXPIRY_DAYS = 90;

const DAY_MS = 86_400_000;

export async function startDidWebHost(options: { dnsNames?: string[]; ca?: TestCa; keepAliveTimeoutMs?: number; leafDays?: number } = {}): Promise<DidWebHost> {
  const { leafDays } = options;
  // A CA of its own outlives the leaf (30 days by default, as createTestCa makes it).
  const ca = options.ca ?? (leafDays === undefined ? createTestCa() : createTestCa(undefined, { notAfter: new Date(Date.now() + (leafDays + 30) * DAY_MS) }));
  const leaf = ca.issue({
    dnsNames: ['localhost', ...(options.dnsNames ?? [])],
    ipAddresses: ['127.0.0.1'],
    ...(leafDays !== undefined ? { notAfter: new Date(Date.now() + leafDays * DAY_MS) } : {}),
  });
  const server = await startHttpsServer({
    cert: leaf,
    ca,
    ...(options.keepAliveTimeoutMs !== undefined ? { keepAliveTimeoutMs: options.keepAliveTimeoutMs } : {}),
  });
  const key = generateTestKey('EdDSA');
  return {
    ca,
    leaf,
    server,
    key,
    did: (...path) => ['did:web', `localhost%3A${server.port}`, ...path].join(':'),
    publish(did, document = didDocument(did, key)) {
      server.route(documentPath(did), json(document, { contentType: 'application/did+json' }));
      return document;
    },
    runtime: (net = {}, clock = systemClock) => testRuntime(clock, { allow: ['127.0.0.0/8'], trustAnchors: [ca.certPem], lookup: tableLookup(), ...net }),
    close: () => server.close(),
  };
}

export type { Handler };
