/**
 * The keys of svc.config.json, in one table beside the environment table (environment.ts): each
 * key sets exactly one variable of it, as the lowest layer (a file value < the environment < a
 * flag). The file only writes variables; every command keeps reading its settings from the
 * environment as before, so a variable another change adds needs one row here and nothing else.
 * A variable of the environment table that no key sets is in ENVIRONMENT_ONLY, with the reason
 * (test/integration/config-file.test.ts holds both tables to the environment table).
 *
 * Secrets never go in the file, which teams commit: a key that would hold one is refused
 * (REFUSED_KEYS, SECRET_NAME); a secret may be named by a file path (`admin.tokenFile`) whose
 * mode must keep group and others out.
 */

export type ConfigKind =
  | { type: 'string' }
  | { type: 'integer'; minimum: number }
  | { type: 'integers' }
  | { type: 'list' }
  | { type: 'boolean'; on: string; off: string }
  | { type: 'enum'; values: readonly string[] }
  /** A file path, relative to the config file's folder; the variable holds the absolute path. `private`: mode 0600 or stricter. */
  | { type: 'path'; private?: true }
  /** A file path as above, of a file of mode 0600 or stricter; the variable holds its content (trimmed). */
  | { type: 'secret-file' };

export interface ConfigKey {
  /** `section.name`, as written in the file. */
  key: string;
  /** The environment variable it sets (environment.ts has what it does and its default). */
  variable: string;
  kind: ConfigKind;
  /** The flag that overrides it, where one does (`svc config show` takes it too). */
  flag?: string;
  /** The variable holds a secret: `svc config show` says only `set (redacted)`. */
  secret?: true;
}

const whole = (minimum = 0): ConfigKind => ({ type: 'integer', minimum });
const list: ConfigKind = { type: 'list' };
const text: ConfigKind = { type: 'string' };
const onOff: ConfigKind = { type: 'boolean', on: 'on', off: 'off' };
const oneZero: ConfigKind = { type: 'boolean', on: '1', off: '0' };

export const CONFIG_KEYS: readonly ConfigKey[] = [
  { key: 'egress.allow', variable: 'SVC_EGRESS_ALLOW', kind: list, flag: '--egress-allow' },
  { key: 'dns.servers', variable: 'SVC_DNS_SERVERS', kind: list },
  { key: 'cache.ttl', variable: 'SVC_CACHE_TTL', kind: whole() },
  { key: 'cache.maxEntries', variable: 'SVC_CACHE_MAX_ENTRIES', kind: whole() },
  { key: 'cache.maxBytes', variable: 'SVC_CACHE_MAX_BYTES', kind: whole() },
  { key: 'webvh.maxEntries', variable: 'SVC_WEBVH_MAX_ENTRIES', kind: whole(1) },
  { key: 'webvh.maxBytes', variable: 'SVC_WEBVH_MAX_BYTES', kind: whole(1) },
  { key: 'problems.base', variable: 'SVC_PROBLEMS_BASE', kind: text },
  { key: 'log.level', variable: 'SVC_LOG_LEVEL', kind: { type: 'enum', values: ['debug', 'info', 'warn', 'error'] } },
  { key: 'database.url', variable: 'SVC_DATABASE_URL', kind: text, flag: '--db' },
  { key: 'daemon.url', variable: 'SVC_DAEMON_URL', kind: text, flag: '--daemon' },
  { key: 'server.production', variable: 'SVC_PRODUCTION', kind: oneZero },
  { key: 'server.rateLimitPerMinute', variable: 'SVC_RATE_LIMIT_PER_MIN', kind: whole(1) },
  { key: 'server.requestTimeoutMs', variable: 'SVC_REQUEST_TIMEOUT_MS', kind: whole(1) },
  { key: 'server.maxConcurrency', variable: 'SVC_MAX_CONCURRENCY', kind: whole(1) },
  { key: 'server.maxConcurrencyPerClient', variable: 'SVC_MAX_CONCURRENCY_PER_CLIENT', kind: whole(1) },
  { key: 'server.drainMs', variable: 'SVC_DRAIN_MS', kind: whole() },
  { key: 'server.drainNotice', variable: 'SVC_DRAIN_NOTICE', kind: whole() },
  { key: 'server.accessLog', variable: 'SVC_ACCESS_LOG', kind: { type: 'enum', values: ['json', 'text', 'off'] } },
  { key: 'server.trustProxy', variable: 'SVC_TRUST_PROXY', kind: list },
  { key: 'server.maxObservations', variable: 'SVC_MAX_OBSERVATIONS', kind: whole(1) },
  { key: 'server.maxMcpObservations', variable: 'SVC_MAX_MCP_OBSERVATIONS', kind: whole(1) },
  { key: 'server.recordBatch', variable: 'SVC_RECORD_BATCH', kind: whole(1) },
  { key: 'server.recordThread', variable: 'SVC_RECORD_THREAD', kind: onOff },
  { key: 'credentials.trustedIssuers', variable: 'SVC_TRUSTED_ISSUERS', kind: list, flag: '--trusted-issuer' },
  { key: 'credentials.jsonld', variable: 'SVC_JSONLD', kind: onOff, flag: '--jsonld' },
  { key: 'credentials.jsonldContexts', variable: 'SVC_JSONLD_CONTEXTS', kind: { type: 'path' } },
  { key: 'delegation.roots', variable: 'SVC_DELEGATION_ROOTS', kind: list },
  { key: 'delegation.registrationsPerClient', variable: 'SVC_REGISTRATIONS_PER_CLIENT', kind: whole() },
  { key: 'delegation.registryPerClient', variable: 'SVC_REGISTRY_PER_CLIENT', kind: whole(1) },
  { key: 'delegation.registryPerRoot', variable: 'SVC_REGISTRY_PER_ROOT', kind: whole(1) },
  { key: 'delegation.registrationMaxDays', variable: 'SVC_REGISTRATION_MAX_DAYS', kind: whole(1) },
  { key: 'monitoring.period', variable: 'SVC_MONITOR_PERIOD', kind: whole(1) },
  { key: 'monitoring.tlsExpiryDays', variable: 'SVC_TLS_EXPIRY_DAYS', kind: { type: 'integers' } },
  { key: 'claims.period', variable: 'SVC_CLAIM_PERIOD', kind: whole(1) },
  { key: 'claims.recheckInterval', variable: 'SVC_CLAIM_RECHECK_INTERVAL', kind: whole(1) },
  { key: 'claims.pendingPerClient', variable: 'SVC_CLAIM_PENDING_PER_CLIENT', kind: whole(1) },
  { key: 'claims.pendingPerDid', variable: 'SVC_CLAIM_PENDING_PER_DID', kind: whole(1) },
  { key: 'gateway.port', variable: 'SVC_GATEWAY_PORT', kind: whole(), flag: '--gateway-port' },
  { key: 'gateway.rateLimitPerMinute', variable: 'SVC_GATEWAY_RATE_LIMIT_PER_MIN', kind: whole(1) },
  { key: 'gateway.signInPendingPerClient', variable: 'SVC_SIGN_IN_PENDING_PER_CLIENT', kind: whole(1) },
  { key: 'gateway.signInPendingPerDid', variable: 'SVC_SIGN_IN_PENDING_PER_DID', kind: whole(1) },
  { key: 'commercial.enabled', variable: 'SVC_COMMERCIAL', kind: onOff },
  { key: 'commercial.origin', variable: 'SVC_COMMERCIAL_ORIGIN', kind: text },
  { key: 'commercial.customerMonitor', variable: 'SVC_CUSTOMER_MONITOR', kind: onOff },
  { key: 'metrics.enabled', variable: 'SVC_METRICS', kind: onOff },
  { key: 'metrics.listen', variable: 'SVC_METRICS_LISTEN', kind: text },
  { key: 'tracing.endpoint', variable: 'SVC_OTEL_ENDPOINT', kind: text },
  { key: 'tracing.serviceName', variable: 'SVC_OTEL_SERVICE_NAME', kind: text },
  { key: 'signing.keyFile', variable: 'SVC_SIGNING_KEY', kind: { type: 'path', private: true } },
  { key: 'signing.did', variable: 'SVC_SIGNING_DID', kind: text },
  { key: 'admin.tokenFile', variable: 'SVC_ADMIN_TOKEN', kind: { type: 'secret-file' }, secret: true },
  { key: 'admin.allowWeakToken', variable: 'SVC_ALLOW_WEAK_ADMIN_TOKEN', kind: oneZero },
  { key: 'webhook.secretFile', variable: 'SVC_WEBHOOK_SECRET', kind: { type: 'secret-file' }, secret: true },
];

/** Variables of the environment table no key sets, and why: the file is not the place for them. */
export const ENVIRONMENT_ONLY: Readonly<Record<string, string>> = {
  SVC_CONFIG: 'it names the file',
  XDG_CONFIG_HOME: 'it says where the file is',
  SVC_FREEZE_RESULTS: 'a development switch',
  SVC_DEBUG: 'a development switch',
  XDG_STATE_HOME: 'a location of the user, not a setting of svc',
  HOME: 'a location of the user, not a setting of svc',
  NODE_EXTRA_CA_CERTS: 'Node.js reads it when the process starts, before svc reads any file',
  NO_COLOR: "the user's terminal",
  FORCE_COLOR: "the user's terminal",
  COLUMNS: "the user's terminal",
  TERM: "the user's terminal",
  SVC_PAGER: "the user's terminal",
  PAGER: "the user's terminal",
};

/** Keys a file might hold that it must not, each with the one-line reason and what to do instead. */
export const REFUSED_KEYS: Readonly<Record<string, string>> = {
  'admin.token': 'is a secret: set SVC_ADMIN_TOKEN in the environment, or admin.tokenFile to a file of mode 0600',
  'signing.key': 'is a private key: give its file as signing.keyFile (mode 0600)',
  'signing.privateKey': 'is a private key: give its file as signing.keyFile (mode 0600)',
  'webhook.secret': 'is a secret: set SVC_WEBHOOK_SECRET in the environment, or webhook.secretFile to a file of mode 0600',
  'tls.extraCaCerts': 'cannot be set from a file: Node.js reads NODE_EXTRA_CA_CERTS when the process starts; set it in the environment',
};

/** A key named like a secret (token, secret, password, private key, project or API key): refused, never merely unknown. */
export const SECRET_NAME = /(token|secret|password|passphrase|private|credential|(^|[a-z])key)$/i;

/** The file's sections, in the table's order. */
export function configSections(): string[] {
  return [...new Set(CONFIG_KEYS.map((k) => k.key.split('.')[0]!))];
}
