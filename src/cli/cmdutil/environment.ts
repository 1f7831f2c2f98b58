/**
 * Every environment variable svc reads, in one table: `svc help environment`, the ENVIRONMENT
 * section of the man page and the list in `svc serve --help` are printed from it, and a test
 * checks that every SVC_ name in src/ is here (so the documentation cannot drift).
 */
import { DEFAULT_WIDTH, MIN_TEXT_WIDTH, wrapWords } from './layout.js';

export type EnvironmentScope = 'every command' | 'svc serve' | 'svc monitor' | 'output';

export interface EnvironmentVariable {
  name: string;
  scope: EnvironmentScope;
  /** What it does, one line. */
  description: string;
  /** What applies when it is unset or empty. */
  default: string;
}

export const ENVIRONMENT: readonly EnvironmentVariable[] = [
  {
    name: 'SVC_EGRESS_ALLOW',
    scope: 'every command',
    description: 'non-public addresses (IPs or CIDRs, comma-separated) svc may also fetch from; --egress-allow adds to it',
    default: 'none: public addresses only',
  },
  {
    name: 'SVC_DNS_SERVERS',
    scope: 'every command',
    description: 'DNS servers svc asks for TXT records of DNS claims (ip or ip:port, [ipv6]:port; comma-separated)',
    default: "the system's resolver",
  },
  {
    name: 'SVC_TRUSTED_ISSUERS',
    scope: 'every command',
    description: 'verify-credential and verify-presentation: the trusted issuers (comma-separated), as --trusted-issuer, which replaces it',
    default: 'unset: no trust decision',
  },
  {
    name: 'SVC_JSONLD',
    scope: 'every command',
    description: 'on: also verify rdfc and Ed25519Signature2020 proofs (RDFC-1.0, pinned contexts, never fetched) and RS256/PS256 JWTs, as --jsonld',
    default: 'off: UNSUPPORTED',
  },
  {
    name: 'SVC_JSONLD_CONTEXTS',
    scope: 'every command',
    description: 'with SVC_JSONLD: a JSON file of more contexts, {"<url>": {"path": …, "sha256": …}}; a file whose digest differs is refused',
    default: 'unset: the pinned ones only',
  },
  { name: 'SVC_CACHE_TTL', scope: 'every command', description: 'seconds a resolution stays cached; 0 turns the cache off', default: '3600' },
  { name: 'SVC_CACHE_MAX_ENTRIES', scope: 'every command', description: 'most resolutions kept in the cache', default: '1000' },
  {
    name: 'SVC_CACHE_MAX_BYTES',
    scope: 'every command',
    description: 'most bytes of resolutions the in-memory cache holds, by its estimate; 0 turns the cache off',
    default: '67108864 (64 MiB)',
  },
  {
    name: 'SVC_WEBVH_MAX_ENTRIES',
    scope: 'every command',
    description: 'most entries of a did:webvh log svc verifies; a longer one is PAYLOAD_TOO_LARGE',
    default: '1000',
  },
  {
    name: 'SVC_WEBVH_MAX_BYTES',
    scope: 'every command',
    description: 'largest did:webvh log svc reads, bytes; a larger one is PAYLOAD_TOO_LARGE',
    default: '4194304 (4 MiB)',
  },
  { name: 'SVC_PROBLEMS_BASE', scope: 'every command', description: "base URI of the type of svc's own problems", default: 'urn:svc:problems' },
  {
    name: 'SVC_LOG_LEVEL',
    scope: 'every command',
    description: 'diagnostics on stderr, one JSON line each: debug, info, warn or error',
    default: 'none: silent',
  },
  {
    name: 'SVC_FREEZE_RESULTS',
    scope: 'every command',
    description: 'any non-empty value: a resolution is frozen when cached, not on its first hit (a change to it fails at once)',
    default: 'unset',
  },
  { name: 'SVC_DEBUG', scope: 'every command', description: 'any non-empty value: an internal error also prints its stack trace', default: 'unset' },
  {
    name: 'XDG_STATE_HOME',
    scope: 'every command',
    description: 'the database is $XDG_STATE_HOME/svc/svc.db, shared by the commands and the daemon (--db overrides)',
    default: '$HOME/.local/state',
  },
  {
    name: 'SVC_DATABASE_URL',
    scope: 'every command',
    description: 'a postgres:// URL: store in PostgreSQL, shared by several daemons (--db overrides)',
    default: 'unset: the SQLite file',
  },
  {
    name: 'SVC_CONFIG',
    scope: 'every command',
    description: 'the svc.config.json to read (--config overrides); missing: exit 2',
    default: '$XDG_CONFIG_HOME/svc/config.json, else ./svc.config.json',
  },
  {
    name: 'XDG_CONFIG_HOME',
    scope: 'every command',
    description: 'svc reads $XDG_CONFIG_HOME/svc/config.json unless --config or SVC_CONFIG names a file',
    default: '$HOME/.config',
  },
  { name: 'HOME', scope: 'every command', description: 'home directory, for the default database path', default: "the user's home directory" },
  {
    name: 'NODE_EXTRA_CA_CERTS',
    scope: 'every command',
    description: "a PEM file of certificate authorities trusted for HTTPS besides Node.js's own (read by Node.js at start)",
    default: "Node.js's CA store only",
  },
  { name: 'NO_COLOR', scope: 'output', description: 'any non-empty value: never colour (as --no-color)', default: 'unset' },
  {
    name: 'FORCE_COLOR',
    scope: 'output',
    description: 'colour even when not writing to a terminal: 1, 2 or 3 (16, 256 or 16M colours); 0 or false: never',
    default: 'unset',
  },
  { name: 'COLUMNS', scope: 'output', description: 'the width reports wrap to when standard output is not a terminal (40 at least)', default: '80' },
  {
    name: 'TERM',
    scope: 'output',
    description: 'dumb: no colour and the plain-text report instead of the terminal dossier',
    default: 'as set by the terminal',
  },
  {
    name: 'SVC_PAGER',
    scope: 'output',
    description: 'the pager of a report taller than the terminal: a program and its arguments (no shell); cat: none; never for --json or a pipe',
    default: '$PAGER, else less -FRX',
  },
  {
    name: 'PAGER',
    scope: 'output',
    description: 'the pager when SVC_PAGER is unset (as git and man read it); a bare less gets LESS=FRX unless LESS is set',
    default: 'less -FRX',
  },
  {
    name: 'SVC_PRODUCTION',
    scope: 'svc serve',
    description: '1: production mode, as --production (a persistent database: a file or PostgreSQL)',
    default: 'unset',
  },
  { name: 'SVC_RATE_LIMIT_PER_MIN', scope: 'svc serve', description: 'direct profile: requests per minute per client', default: '120' },
  { name: 'SVC_REQUEST_TIMEOUT_MS', scope: 'svc serve', description: 'whole-request time limit in milliseconds; 408 after it', default: '45000' },
  { name: 'SVC_MAX_CONCURRENCY', scope: 'svc serve', description: 'requests doing outbound work at once; 503 CAPACITY_EXHAUSTED past it', default: '64' },
  {
    name: 'SVC_MAX_CONCURRENCY_PER_CLIENT',
    scope: 'svc serve',
    description: 'of those, the most one client may hold',
    default: 'half of SVC_MAX_CONCURRENCY, rounded up',
  },
  { name: 'SVC_DRAIN_MS', scope: 'svc serve', description: 'how long SIGTERM waits for requests in flight, in milliseconds', default: '10000' },
  {
    name: 'SVC_DRAIN_NOTICE',
    scope: 'svc serve',
    description:
      "seconds SIGTERM keeps serving while /ready answers 503, before the drain (0..300); behind a load balancer, more than its health check's inter × fall",
    default: '0',
  },
  {
    name: 'SVC_ACCESS_LOG',
    scope: 'svc serve',
    description: 'one line per request on stderr, with its request id (X-Request-Id): json, text or off',
    default: 'json, or text when stderr is a terminal',
  },
  {
    name: 'SVC_METRICS',
    scope: 'svc serve',
    description: 'Prometheus metrics: on, or off (nothing measured); GET /metrics needs SVC_ADMIN_TOKEN, direct profile',
    default: 'on',
  },
  {
    name: 'SVC_METRICS_LISTEN',
    scope: 'svc serve',
    description: 'host:port of a listener serving only GET /metrics, without a token; off loopback, a relaxation',
    default: 'unset: no such listener',
  },
  {
    name: 'SVC_OTEL_ENDPOINT',
    scope: 'svc serve',
    description: 'OpenTelemetry traces of each request to this collector (OTLP/HTTP JSON): its base URL (+ /v1/traces) or a …/v1/traces URL',
    default: 'none: no traces',
  },
  {
    name: 'SVC_OTEL_SERVICE_NAME',
    scope: 'svc serve',
    description: "the traces' service.name (1 to 64 letters, digits, . _ - /)",
    default: 'svc',
  },
  {
    name: 'SVC_TRUST_PROXY',
    scope: 'svc serve',
    description: 'proxies (IPs/CIDRs, comma-separated) whose X-Forwarded-For names the client; true, hop counts, 1/16 of a family: refused',
    default: 'none: the connection is the client',
  },
  {
    name: 'SVC_DELEGATION_ROOTS',
    scope: 'svc serve',
    description: 'DIDs (comma-separated) whose delegation chains may be registered; the trusted roots of authorize and verify-delegation',
    default: 'any root; the CLI gates: none',
  },
  {
    name: 'SVC_REGISTRATIONS_PER_CLIENT',
    scope: 'svc serve',
    description: 'new delegation chains one client may register per 24 h; past it a chain is verified but not registered',
    default: '100',
  },
  {
    name: 'SVC_REGISTRY_PER_CLIENT',
    scope: 'svc serve',
    description: 'unexpired delegation chains one client may hold in the registry at once (1..10000); past it a chain is verified but not registered',
    default: '100 (1% of the 10000)',
  },
  {
    name: 'SVC_REGISTRY_PER_ROOT',
    scope: 'svc serve',
    description: 'unexpired delegation chains rooted in one DID that clients may hold in the registry at once (1..10000)',
    default: '100 (1% of the 10000)',
  },
  {
    name: 'SVC_REGISTRATION_MAX_DAYS',
    scope: 'svc serve',
    description:
      'days ahead a chain may expire and still be registered (1..3660; also read by verify-delegation --register); a later one is verified but not registered',
    default: '366',
  },
  {
    name: 'SVC_MAX_OBSERVATIONS',
    scope: 'svc serve',
    description: 'most stored observations (SQLite or PostgreSQL, across all daemons on it); at the ceiling one-off rows are evicted, else new ones refused',
    default: '100000',
  },
  { name: 'SVC_MONITOR_PERIOD', scope: 'svc serve', description: 'seconds between two passes of the monitoring poller (1..3600)', default: '30' },
  {
    name: 'SVC_TLS_EXPIRY_DAYS',
    scope: 'svc serve',
    description: "days before a watched certificate's expiry when tls.certificate.expiring is sent, once each (1 to 5 distinct days 1..365, comma-separated)",
    default: '30,14,3',
  },
  { name: 'SVC_CLAIM_PERIOD', scope: 'svc serve', description: 'seconds between two passes of the claim re-checker (1..3600)', default: '60' },
  {
    name: 'SVC_CLAIM_RECHECK_INTERVAL',
    scope: 'svc serve',
    description: 'seconds between re-checks of a well-known or DNS claim (1..2592000); a claim holds 7 intervals after its last success',
    default: '86400',
  },
  {
    name: 'SVC_CLAIM_PENDING_PER_CLIENT',
    scope: 'svc serve',
    description: 'pending claim challenges one client may hold (1..10000); past it 429 until one is used or expires',
    default: '20',
  },
  {
    name: 'SVC_CLAIM_PENDING_PER_DID',
    scope: 'svc serve',
    description: 'pending claim challenges of one DID (1..10000), unless the client asking holds none of them',
    default: '10',
  },
  {
    name: 'SVC_SIGN_IN_PENDING_PER_CLIENT',
    scope: 'svc serve',
    description: 'pending sign-in challenges one client of the cookie gateway may hold (1..10000)',
    default: '10',
  },
  {
    name: 'SVC_SIGN_IN_PENDING_PER_DID',
    scope: 'svc serve',
    description: 'pending sign-in challenges of one DID (1..10000), unless the client asking holds none of them',
    default: '3',
  },
  {
    name: 'SVC_GATEWAY_RATE_LIMIT_PER_MIN',
    scope: 'svc serve',
    description: 'requests per minute per client on the cookie gateway, all its routes (token bucket; 429 with Retry-After)',
    default: '120',
  },
  { name: 'SVC_MAX_MCP_OBSERVATIONS', scope: 'svc serve', description: 'most stored MCP inventories, the same way', default: '1000' },
  {
    name: 'SVC_RECORD_BATCH',
    scope: 'svc serve',
    description:
      'most observations written by one transaction, SQLite or PostgreSQL (1..1000); the records of a busy moment commit together, 1 commits each alone',
    default: '64',
  },
  {
    name: 'SVC_RECORD_THREAD',
    scope: 'svc serve',
    description: 'on: SQLite observations are written by a worker thread of their own, off the event loop (worth it with a spare core)',
    default: 'off',
  },
  {
    name: 'SVC_SIGNING_KEY',
    scope: 'svc serve',
    description: 'a private JWK file (Ed25519 or P-256) to sign results asked for with signed=true; refused when open to group or others',
    default: 'unset: nothing is signed',
  },
  {
    name: 'SVC_SIGNING_DID',
    scope: 'svc serve',
    description: 'a did:web (or did:web#key URL) to sign as, whose document you host with the key under assertionMethod',
    default: 'the did:key of the SVC_SIGNING_KEY key',
  },
  {
    name: 'SVC_ADMIN_TOKEN',
    scope: 'svc monitor',
    description: 'operator token (24+ printable ASCII, no spaces, not guessable): enables /v1/monitoring; svc monitor sends it',
    default: 'unset: monitoring off, svc monitor exits 2',
  },
  {
    name: 'SVC_ALLOW_WEAK_ADMIN_TOKEN',
    scope: 'svc serve',
    description: '1: accept a guessable SVC_ADMIN_TOKEN (a repeated character or pattern, common words), announced as a relaxation',
    default: '0: such a token is refused (exit 2)',
  },
  {
    name: 'SVC_COMMERCIAL',
    scope: 'svc serve',
    description: 'on: owner accounts and project keys (needs SVC_ADMIN_TOKEN and SVC_COMMERCIAL_ORIGIN)',
    default: 'off: those routes answer 501',
  },
  {
    name: 'SVC_COMMERCIAL_ORIGIN',
    scope: 'svc serve',
    description: 'the cookie gateway origin owners use (e.g. http://127.0.0.1:8081); writes must carry it',
    default: 'unset: commercial mode off',
  },
  {
    name: 'SVC_CUSTOMER_MONITOR',
    scope: 'svc serve',
    description: 'off: this daemon does not run the customer monitor worker (hourly project watch checks, customer webhook deliveries)',
    default: 'on where the commercial mode is on',
  },
  {
    name: 'SVC_GATEWAY_PORT',
    scope: 'svc serve',
    description: "the loopback cookie gateway's port (--gateway-port overrides); commercial mode only",
    default: 'unset: no gateway',
  },
  {
    name: 'SVC_DAEMON_URL',
    scope: 'svc monitor',
    description: 'the daemon svc monitor, svc claim, svc claims and svc directory talk to (--daemon overrides)',
    default: 'http://127.0.0.1:8080',
  },
  {
    name: 'SVC_WEBHOOK_SECRET',
    scope: 'svc monitor',
    description: 'the secret svc webhook listen verifies deliveries with, as svc monitor watch add printed it (--secret overrides)',
    default: 'unset: --secret is required',
  },
];

/** Each scope's title, in the order `svc help environment` and docs/reference/environment.md list them. */
export const SCOPE_TITLES: Readonly<Record<EnvironmentScope, string>> = {
  'every command': 'Every command',
  output: 'Output (colour, layout and paging)',
  'svc serve': 'svc serve (the daemon)',
  'svc monitor': 'svc serve, svc monitor and svc webhook (operator monitoring)',
};

/**
 * `NAME  description (default: …)`, the names aligned alike wherever a part of the table is shown,
 * the text wrapped under itself to `width` columns (layout.ts: a word is never split).
 */
export function environmentLines(variables: readonly EnvironmentVariable[], indent = '  ', width = DEFAULT_WIDTH): string[] {
  const column = indent.length + Math.max(...ENVIRONMENT.map((v) => v.name.length)) + 2;
  return variables.flatMap((v) =>
    wrapWords(`${v.description} (default: ${v.default})`, Math.max(MIN_TEXT_WIDTH, width - column)).map((line, i) =>
      i === 0 ? `${indent}${v.name}`.padEnd(column) + line : ' '.repeat(column) + line,
    ),
  );
}

/** How every variable is read (`svc help environment`, docs/reference/environment.md). */
export const ENVIRONMENT_RULE = 'An empty value counts as unset; a value svc cannot use is refused before anything runs (exit 2).';

/** `svc help environment`. */
export function environmentHelp(width = DEFAULT_WIDTH): string {
  const sections = (Object.keys(SCOPE_TITLES) as EnvironmentScope[]).map((scope) =>
    [
      `${SCOPE_TITLES[scope]}:`,
      ...environmentLines(
        ENVIRONMENT.filter((v) => v.scope === scope),
        '  ',
        width,
      ),
    ].join('\n'),
  );
  const intro = wrapWords(`Environment variables svc reads. ${ENVIRONMENT_RULE}`, Math.max(MIN_TEXT_WIDTH, width));
  return `${intro.join('\n')}

${sections.join('\n\n')}
`;
}
