/**
 * The schema history (docs/history.md#the-schema), one numbered migration per version, written once
 * in SQLite's dialect and translated for PostgreSQL (postgres/dialect.ts) — unless the two engines
 * must do it differently (a CHECK changed: SQLite rebuilds the table), when a migration carries
 * PostgreSQL's own script beside it. Each engine runs a
 * migration in one transaction together with the version it reaches (sqlite/migrate.ts: IMMEDIATE,
 * with `PRAGMA user_version = N`; postgres/index.ts: under an advisory lock), so a crash or a
 * failing statement mid-migration leaves the database at the previous version, and two processes
 * opening the same database migrate it once. Migrations are append-only: a released one is never
 * edited, a correction is a new version.
 *
 * Conventions: STRICT tables; timestamps are RFC 3339 UTC text (second precision), which sorts
 * chronologically — except times judged on the database's clock (expiry, due checks), which are
 * `<name>_ms INTEGER`, epoch milliseconds (BIGINT on PostgreSQL); JSON is text checked by json_valid; booleans are 0/1; enumerations of the
 * results are CHECK constraints; ids that leave the service (observation ids, `evt_<n>`) are
 * AUTOINCREMENT so that a deleted row's id is never handed out again.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** SQL run as one script inside the migration's transaction (SQLite's dialect; translated for PostgreSQL). */
  readonly up: string;
  /** PostgreSQL's own script (translated as `up` is), when `up` cannot say it (a constraint replaced in place). */
  readonly postgres?: string;
  /**
   * SQLite: `up` rebuilds a table that others reference, so it runs with foreign keys off (set
   * outside the transaction, restored after) and PRAGMA foreign_key_check must find nothing
   * before it commits.
   */
  readonly rebuildsTables?: boolean;
}

const DOMAIN_BINDING_STATUS = `'VERIFIED', 'NOT_CONFIGURED', 'NOT_LINKED', 'INVALID_PROOF', 'UNSUPPORTED_PROOF', 'UNREACHABLE', 'MALFORMED'`;
const DELIVERY_STATUS = `'PENDING', 'DELIVERING', 'RETRY', 'DELIVERED', 'DEAD_LETTER', 'CANCELLED'`;
const CLAIM_METHOD = `'signature', 'well-known', 'dns'`;
/** The monitor event types of version 15 on (version 2's five and identity.history.rewritten). */
const MONITOR_EVENT_TYPES = `'identity.document.changed', 'identity.domain_binding.changed', 'identity.deactivated',
          'identity.resolution.failed', 'identity.resolution.recovered', 'identity.history.rewritten'`;
/** The monitor event types of version 16 on: version 15's, and those of MCP, A2A and TLS watches. */
const MONITOR_EVENT_TYPES_V16 = `${MONITOR_EVENT_TYPES},
          'mcp.inventory.changed', 'mcp.inspection.failed', 'mcp.inspection.recovered',
          'a2a.card.changed', 'a2a.inspection.failed', 'a2a.inspection.recovered',
          'tls.certificate.expiring', 'tls.certificate.changed'`;
/** What a delivery attempt decided (delivery_attempts.decision, version 16 on). */
const ATTEMPT_DECISION = `'DELIVERED', 'RETRY', 'DEAD_LETTER', 'WEBHOOK_DISABLED', 'CANCELLED'`;

/** Version 16's added columns, alike on both engines. */
const V16_COLUMNS = `
      ALTER TABLE watches ADD COLUMN kind TEXT NOT NULL DEFAULT 'did' CHECK (kind IN ('did', 'mcp', 'a2a'));
      ALTER TABLE watches ADD COLUMN webhook_disabled_at TEXT;
      ALTER TABLE watches ADD COLUMN webhook_disabled_reason TEXT;

      ALTER TABLE monitor_baselines ADD COLUMN tls_leaf_sha256 TEXT;
      ALTER TABLE monitor_baselines ADD COLUMN tls_not_after TEXT;
      ALTER TABLE monitor_baselines ADD COLUMN tls_announced_days INTEGER CHECK (tls_announced_days >= 0);

      ALTER TABLE customer_webhooks ADD COLUMN disabled_reason TEXT;
      ALTER TABLE customer_webhook_deliveries ADD COLUMN replays INTEGER NOT NULL DEFAULT 0 CHECK (replays >= 0);
`;
/** Version 17 on SQLite: the directory's trigram index and the triggers that keep it in step. */
const V17_DIRECTORY_SEARCH = `
      CREATE VIRTUAL TABLE directory_search USING fts5(
        search, content = 'directory_entries', content_rowid = 'seq', tokenize = 'trigram case_sensitive 1'
      );
      INSERT INTO directory_search (directory_search) VALUES ('rebuild');
      CREATE TRIGGER directory_search_insert AFTER INSERT ON directory_entries BEGIN
        INSERT INTO directory_search (rowid, search) VALUES (new.seq, new.search);
      END;
      CREATE TRIGGER directory_search_delete AFTER DELETE ON directory_entries BEGIN
        INSERT INTO directory_search (directory_search, rowid, search) VALUES ('delete', old.seq, old.search);
      END;
      CREATE TRIGGER directory_search_update AFTER UPDATE OF seq, search ON directory_entries BEGIN
        INSERT INTO directory_search (directory_search, rowid, search) VALUES ('delete', old.seq, old.search);
        INSERT INTO directory_search (rowid, search) VALUES (new.seq, new.search);
      END;
`;

/**
 * Version 17 on PostgreSQL: pg_trgm where it is installed (in whatever schema), else made — in
 * public when the role may (every schema of the database then shares it), else in the current
 * one. A role that may do neither gets no index (a caught error: the migration still succeeds)
 * and the directory scans as before; the same statements give the same results either way.
 * fastupdate off: with it, new listings wait in a pending list that every search reads through
 * until a vacuum (measured: 13 ms instead of 1 ms for a rare term after 100,000 listings); a
 * listing is a rare write, and it pays for its own index entries at once.
 */
const V17_DIRECTORY_TRGM = `
      DO $$
      DECLARE s name;
      BEGIN
        SELECT n.nspname INTO s FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'pg_trgm';
        IF s IS NULL THEN
          BEGIN
            CREATE EXTENSION pg_trgm SCHEMA public;
          EXCEPTION WHEN OTHERS THEN
            BEGIN
              CREATE EXTENSION pg_trgm;
            EXCEPTION WHEN OTHERS THEN
              NULL;
            END;
          END;
          SELECT n.nspname INTO s FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'pg_trgm';
        END IF;
        IF s IS NOT NULL THEN
          EXECUTE format('CREATE INDEX directory_entries_search_trgm ON directory_entries USING gin (search %I.gin_trgm_ops) WITH (fastupdate = off)', s);
        END IF;
      END $$;
`;

/** monitor_events' replay count (version 16). */
const V16_REPLAYS = 'replays INTEGER NOT NULL DEFAULT 0 CHECK (replays >= 0)';
/**
 * One row per delivery attempt (version 16): an operator event's (event_id) or a customer
 * delivery's (delivery_id), numbered within its replay (0: the first delivery).
 */
const V16_ATTEMPTS = `
      CREATE TABLE delivery_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id INTEGER REFERENCES monitor_events (id),
        delivery_id TEXT REFERENCES customer_webhook_deliveries (id),
        replay INTEGER NOT NULL DEFAULT 0 CHECK (replay >= 0),
        attempt INTEGER NOT NULL CHECK (attempt >= 1),
        attempted_at TEXT NOT NULL,
        response_status INTEGER,
        decision TEXT NOT NULL CHECK (decision IN (${ATTEMPT_DECISION})),
        detail TEXT NOT NULL,
        next_attempt_at TEXT,
        CHECK ((event_id IS NULL) <> (delivery_id IS NULL))
      ) STRICT;
      CREATE INDEX delivery_attempts_event ON delivery_attempts (event_id, id) WHERE event_id IS NOT NULL;
      CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, id) WHERE delivery_id IS NOT NULL;
`;

/**
 * SQLite: monitor_events rebuilt to change its event types' CHECK (SQLite cannot change a CHECK in
 * place): the same columns in the same order (and `extraColumn`, a column definition with its
 * leading comma, after them), its rows copied with their ids, its AUTOINCREMENT counter carried
 * over (an id once handed out is never handed out again), its indexes recreated.
 * customer_webhook_deliveries names it by table name, so its rows reference the rebuilt table.
 */
const rebuildMonitorEvents = (suffix: string, types: string, extraColumn = ''): string => `
      CREATE TABLE monitor_events_${suffix} (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        watch_id INTEGER NOT NULL REFERENCES watches (id),
        did TEXT NOT NULL,
        event_type TEXT NOT NULL CHECK (event_type IN (
          ${types})),
        data TEXT NOT NULL CHECK (json_valid(data)),
        created_at TEXT NOT NULL,
        delivery_status TEXT NOT NULL DEFAULT 'PENDING' CHECK (delivery_status IN (${DELIVERY_STATUS})),
        attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at TEXT,
        last_attempt_at TEXT,
        last_error TEXT,
        watch_revision INTEGER,
        lease_expires_at TEXT,
        baseline_id INTEGER REFERENCES monitor_baselines (id),
        previous_baseline_id INTEGER REFERENCES monitor_baselines (id)${extraColumn}
      ) STRICT;
      INSERT INTO monitor_events_${suffix} (id, watch_id, did, event_type, data, created_at, delivery_status, attempts, next_attempt_at,
          last_attempt_at, last_error, watch_revision, lease_expires_at, baseline_id, previous_baseline_id)
        SELECT id, watch_id, did, event_type, data, created_at, delivery_status, attempts, next_attempt_at,
          last_attempt_at, last_error, watch_revision, lease_expires_at, baseline_id, previous_baseline_id
        FROM monitor_events ORDER BY id;
      DELETE FROM sqlite_sequence WHERE name = 'monitor_events_${suffix}';
      INSERT INTO sqlite_sequence (name, seq) SELECT 'monitor_events_${suffix}', seq FROM sqlite_sequence WHERE name = 'monitor_events';
      DROP TABLE monitor_events;
      ALTER TABLE monitor_events_${suffix} RENAME TO monitor_events;
      CREATE INDEX monitor_events_due ON monitor_events (delivery_status, next_attempt_at);
      CREATE INDEX monitor_events_watch ON monitor_events (watch_id, id);
      CREATE UNIQUE INDEX monitor_events_watch_revision
        ON monitor_events (watch_id, watch_revision, event_type) WHERE watch_revision IS NOT NULL;
      CREATE INDEX monitor_events_lease ON monitor_events (lease_expires_at) WHERE delivery_status = 'DELIVERING';
      CREATE INDEX monitor_events_baseline ON monitor_events (baseline_id) WHERE baseline_id IS NOT NULL;
    `;

/** PostgreSQL: the event types' CHECK replaced in place (whatever name it was given), keeping rows, ids and the identity sequence as they are. */
const replaceEventTypeCheck = (types: string): string => `
      DO $$
      DECLARE c record;
      BEGIN
        FOR c IN
          SELECT con.conname
          FROM pg_constraint con
          JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
          WHERE con.conrelid = to_regclass('monitor_events') AND con.contype = 'c' AND cardinality(con.conkey) = 1
            AND a.attname = 'event_type'
        LOOP
          EXECUTE format('ALTER TABLE monitor_events DROP CONSTRAINT %I', c.conname);
        END LOOP;
      END $$;
      ALTER TABLE monitor_events ADD CONSTRAINT monitor_events_event_type_check CHECK (event_type IN (
          ${types}));
    `;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'observations and resolution cache',
    up: `
      -- Observation history: one row per distinct snapshot of a DID, coalesced
      -- while the document hash and domain binding status stay the same.
      CREATE TABLE observations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        did TEXT NOT NULL,
        document_hash TEXT NOT NULL,
        document TEXT NOT NULL CHECK (json_valid(document)),
        observed_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        seen_count INTEGER NOT NULL DEFAULT 1 CHECK (seen_count >= 1),
        latency_ms REAL CHECK (latency_ms >= 0),
        resolver_version TEXT NOT NULL,
        domain_binding_status TEXT CHECK (domain_binding_status IN (${DOMAIN_BINDING_STATUS})),
        summary TEXT NOT NULL
      ) STRICT;
      CREATE INDEX observations_did_observed ON observations (did, observed_at, id);
      CREATE INDEX observations_did_hash ON observations (did, document_hash);

      -- Persistent second tier of the resolution cache (the daemon's). Expiry is compared on
      -- every read, so it is a number (Unix milliseconds), not text.
      CREATE TABLE resolution_cache (
        key TEXT PRIMARY KEY,
        did TEXT NOT NULL,
        body TEXT NOT NULL,
        expires_at_ms INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX resolution_cache_expires ON resolution_cache (expires_at_ms);
      CREATE INDEX resolution_cache_did ON resolution_cache (did);
    `,
  },
  {
    version: 2,
    name: 'mcp observations, delegation chains, claims, directory, monitoring',
    up: `
      -- MCP tool inventories, coalesced like DID observations; body holds the
      -- per-tool fingerprints that drift is computed from.
      CREATE TABLE mcp_observations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        endpoint TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        body TEXT NOT NULL CHECK (json_valid(body)),
        negotiated_version TEXT,
        observed_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        seen_count INTEGER NOT NULL DEFAULT 1 CHECK (seen_count >= 1)
      ) STRICT;
      CREATE INDEX mcp_observations_endpoint ON mcp_observations (endpoint, observed_at, id);

      -- Registered delegation chains: the receipts themselves, so that a restart can
      -- verify them again; the id is the digest of the chain.
      CREATE TABLE delegation_chains (
        id TEXT PRIMARY KEY,
        chain TEXT NOT NULL CHECK (json_valid(chain) AND json_type(chain) = 'array'),
        root_did TEXT NOT NULL,
        leaf_did TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        registered_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX delegation_chains_leaf ON delegation_chains (leaf_did, expires_at);

      -- Proofs that a controller demonstrated control of a DID.
      CREATE TABLE claims (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        did TEXT NOT NULL,
        method TEXT NOT NULL,
        challenge TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'PROVED', 'EXPIRED', 'REVOKED')),
        verification_method TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        proved_at TEXT,
        CHECK (status <> 'PROVED' OR proved_at IS NOT NULL)
      ) STRICT;
      CREATE INDEX claims_did ON claims (did, status, expires_at);

      -- Opt-in directory: a listing names the claim that proved control.
      CREATE TABLE directory_entries (
        did TEXT PRIMARY KEY,
        method TEXT NOT NULL,
        label TEXT NOT NULL,
        description TEXT,
        claim_id INTEGER NOT NULL REFERENCES claims (id),
        listed_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX directory_entries_method ON directory_entries (method, did);

      -- Operator monitoring. The secret signs webhooks (HMAC), so
      -- it is kept as is; it is shown once and never listed.
      CREATE TABLE watches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        did TEXT NOT NULL,
        webhook_url TEXT NOT NULL,
        secret TEXT NOT NULL,
        interval_seconds INTEGER NOT NULL CHECK (interval_seconds BETWEEN 60 AND 86400),
        created_at TEXT NOT NULL,
        last_hash TEXT,
        last_status TEXT,
        last_checked_at TEXT,
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))
      ) STRICT;
      CREATE INDEX watches_active ON watches (active, last_checked_at);

      -- Events outlive their watch (a deleted watch's queued events become CANCELLED), so the
      -- foreign key has no cascade.
      CREATE TABLE monitor_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        watch_id INTEGER NOT NULL REFERENCES watches (id),
        did TEXT NOT NULL,
        event_type TEXT NOT NULL CHECK (event_type IN (
          'identity.document.changed', 'identity.domain_binding.changed', 'identity.deactivated',
          'identity.resolution.failed', 'identity.resolution.recovered')),
        data TEXT NOT NULL CHECK (json_valid(data)),
        created_at TEXT NOT NULL,
        delivery_status TEXT NOT NULL DEFAULT 'PENDING' CHECK (delivery_status IN (${DELIVERY_STATUS})),
        attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at TEXT,
        last_attempt_at TEXT,
        last_error TEXT
      ) STRICT;
      CREATE INDEX monitor_events_due ON monitor_events (delivery_status, next_attempt_at);
      CREATE INDEX monitor_events_watch ON monitor_events (watch_id, id);
    `,
  },
  {
    version: 3,
    name: 'monitor revisions, delivery leases, fingerprint profiles',
    up: `
      -- A check updates its watch only WHERE revision = the revision it read, and stamps its
      -- events with it; the unique index makes a duplicate from a stale check impossible.
      ALTER TABLE watches ADD COLUMN revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0);
      ALTER TABLE monitor_events ADD COLUMN watch_revision INTEGER;
      CREATE UNIQUE INDEX monitor_events_watch_revision
        ON monitor_events (watch_id, watch_revision, event_type) WHERE watch_revision IS NOT NULL;

      -- A DELIVERING event carries a recovery lease (120 s); an expired lease is reclaimed.
      ALTER TABLE monitor_events ADD COLUMN lease_expires_at TEXT;
      CREATE INDEX monitor_events_lease ON monitor_events (lease_expires_at) WHERE delivery_status = 'DELIVERING';

      -- Fingerprint profile (rfc8785-binary64-v1). Rows from before stay NULL: historical evidence
      -- without a profile is not relabelled.
      ALTER TABLE observations ADD COLUMN fingerprint_profile TEXT;
      ALTER TABLE mcp_observations ADD COLUMN fingerprint_profile TEXT;
    `,
  },
  {
    version: 4,
    name: 'tenants, projects, api keys, usage',
    up: `
      CREATE TABLE tenants (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        owner_subject TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX tenants_owner ON tenants (owner_subject);

      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants (id),
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (tenant_id, name)
      ) STRICT;

      -- Only a digest of a key is stored; the raw key is shown once at issue. The prefix lets
      -- an owner tell keys apart; metadata routes return neither digest nor secret.
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects (id),
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        label TEXT,
        status TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'ROTATED', 'REVOKED')),
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT,
        replaces_key_id TEXT REFERENCES api_keys (id),
        CHECK (status = 'ACTIVE' OR revoked_at IS NOT NULL)
      ) STRICT;
      CREATE INDEX api_keys_project ON api_keys (project_id, status);

      -- Counters per project, metric and period (e.g. '2025-03' or '2025-03-04').
      CREATE TABLE usage_counters (
        project_id TEXT NOT NULL REFERENCES projects (id),
        metric TEXT NOT NULL,
        period TEXT NOT NULL,
        count INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0),
        PRIMARY KEY (project_id, metric, period)
      ) STRICT, WITHOUT ROWID;

      -- Customer watches belong to a project; operator watches have none.
      ALTER TABLE watches ADD COLUMN project_id TEXT REFERENCES projects (id);
      CREATE INDEX watches_project ON watches (project_id) WHERE project_id IS NOT NULL;
    `,
  },
  {
    version: 5,
    name: 'mock billing',
    up: `
      -- Mock billing: plans, subscriptions, invoices and a ledger in minor currency units; no
      -- payment provider is involved.
      CREATE TABLE plans (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        currency TEXT NOT NULL CHECK (length(currency) = 3),
        monthly_price_minor INTEGER NOT NULL CHECK (monthly_price_minor >= 0),
        included_requests INTEGER NOT NULL CHECK (included_requests >= 0),
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE subscriptions (
        tenant_id TEXT PRIMARY KEY REFERENCES tenants (id),
        plan_id TEXT NOT NULL REFERENCES plans (id),
        started_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE invoices (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants (id),
        period_start TEXT NOT NULL,
        period_end TEXT NOT NULL,
        currency TEXT NOT NULL CHECK (length(currency) = 3),
        total_minor INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'OPEN', 'PAID', 'VOID')),
        created_at TEXT NOT NULL,
        UNIQUE (tenant_id, period_start),
        CHECK (period_start < period_end)
      ) STRICT;

      CREATE TABLE ledger_entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id TEXT NOT NULL REFERENCES tenants (id),
        invoice_id TEXT REFERENCES invoices (id),
        kind TEXT NOT NULL CHECK (kind IN ('CHARGE', 'CREDIT', 'PAYMENT', 'ADJUSTMENT')),
        amount_minor INTEGER NOT NULL,
        description TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX ledger_entries_tenant ON ledger_entries (tenant_id, created_at);
      CREATE INDEX ledger_entries_invoice ON ledger_entries (invoice_id) WHERE invoice_id IS NOT NULL;
    `,
  },
  {
    version: 6,
    name: 'scheduler',
    up: `
      -- Named periodic jobs. A runner claims a due job by setting a lease; an expired lease
      -- means its runner died and the job may be claimed again.
      CREATE TABLE scheduled_jobs (
        name TEXT PRIMARY KEY,
        due_at TEXT NOT NULL,
        interval_seconds INTEGER NOT NULL CHECK (interval_seconds > 0),
        lease_owner TEXT,
        lease_expires_at TEXT,
        last_started_at TEXT,
        last_finished_at TEXT,
        last_outcome TEXT CHECK (last_outcome IN ('OK', 'FAILED')),
        last_error TEXT,
        CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL))
      ) STRICT;
      CREATE INDEX scheduled_jobs_due ON scheduled_jobs (due_at);

      -- Scheduled work done for a project (customer monitor checks), counted over a rolling
      -- 30 days against the attempt allowance (18,000); failures count too.
      CREATE TABLE scheduled_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id TEXT NOT NULL REFERENCES projects (id),
        job TEXT NOT NULL,
        attempted_at TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('OK', 'FAILED'))
      ) STRICT;
      CREATE INDEX scheduled_attempts_project ON scheduled_attempts (project_id, attempted_at);
    `,
  },
  {
    version: 7,
    name: 'monitor baselines',
    up: `
      -- What a watch check saw, one row per watch revision, written in the transaction that
      -- inserts the check's events; an event names the baselines it was computed between.
      CREATE TABLE monitor_baselines (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        watch_id INTEGER NOT NULL REFERENCES watches (id),
        revision INTEGER NOT NULL CHECK (revision >= 0),
        status TEXT NOT NULL CHECK (status IN ('RESOLVED', 'DEACTIVATED', 'FAILED')),
        document_hash TEXT,
        fingerprint_profile TEXT,
        domain_binding_status TEXT CHECK (domain_binding_status IN (${DOMAIN_BINDING_STATUS})),
        document TEXT CHECK (json_valid(document)),
        problem TEXT CHECK (json_valid(problem)),
        checked_at TEXT NOT NULL,
        UNIQUE (watch_id, revision),
        CHECK (status = 'FAILED' OR document_hash IS NOT NULL)
      ) STRICT;

      ALTER TABLE monitor_events ADD COLUMN baseline_id INTEGER REFERENCES monitor_baselines (id);
      ALTER TABLE monitor_events ADD COLUMN previous_baseline_id INTEGER REFERENCES monitor_baselines (id);
      CREATE INDEX monitor_events_baseline ON monitor_events (baseline_id) WHERE baseline_id IS NOT NULL;
    `,
  },
  {
    version: 8,
    name: 'customer webhooks',
    up: `
      -- One active webhook per project; a disabled one is kept so that its deliveries still
      -- name the configuration (and secret) they were signed with.
      CREATE TABLE customer_webhooks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id TEXT NOT NULL REFERENCES projects (id),
        url TEXT NOT NULL,
        secret TEXT NOT NULL,
        created_at TEXT NOT NULL,
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        disabled_at TEXT,
        CHECK (active = 1 OR disabled_at IS NOT NULL)
      ) STRICT;
      CREATE UNIQUE INDEX customer_webhooks_active ON customer_webhooks (project_id) WHERE active = 1;

      -- Customer webhooks: retries send the same bytes, id and signature, so all three are stored.
      CREATE TABLE customer_webhook_deliveries (
        id TEXT PRIMARY KEY,
        webhook_id INTEGER NOT NULL REFERENCES customer_webhooks (id),
        project_id TEXT NOT NULL REFERENCES projects (id),
        monitor_event_id INTEGER REFERENCES monitor_events (id),
        event_type TEXT NOT NULL,
        body TEXT NOT NULL,
        signature TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN (${DELIVERY_STATUS})),
        attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
        next_attempt_at TEXT,
        lease_expires_at TEXT,
        last_attempt_at TEXT,
        last_response_status INTEGER,
        delivered_at TEXT,
        UNIQUE (webhook_id, monitor_event_id)
      ) STRICT;
      CREATE INDEX customer_webhook_deliveries_due ON customer_webhook_deliveries (status, next_attempt_at);
      CREATE INDEX customer_webhook_deliveries_project ON customer_webhook_deliveries (project_id, created_at);
    `,
  },
  {
    version: 9,
    name: 'claims and directory',
    up: `
      -- Version 2's claims and directory_entries were never written (no build stored a row in
      -- them); they give way to the design of proofs of control below. The listing goes first:
      -- it references the claim.
      DROP TABLE directory_entries;
      DROP TABLE claims;

      -- One proof attempt's terms: single use, a limited number of attempts.
      -- Times here are epoch milliseconds on the database's clock (expiry is compared on every
      -- use); they leave the store as RFC 3339 text.
      CREATE TABLE claim_challenges (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        token TEXT NOT NULL UNIQUE,
        did TEXT NOT NULL,
        method TEXT NOT NULL CHECK (method IN (${CLAIM_METHOD})),
        purpose TEXT NOT NULL CHECK (purpose IN ('claim', 'list', 'unlist')),
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        used_at_ms INTEGER,
        CHECK (expires_at_ms > created_at_ms)
      ) STRICT;
      -- The limit counts unused, unexpired challenges (covered: no table read); the sweep
      -- deletes long-expired ones.
      CREATE INDEX claim_challenges_expires ON claim_challenges (expires_at_ms, used_at_ms);

      -- Proofs of control. A claim is current while not lapsed and unexpired;
      -- lapsed claims are kept (a DID's page shows the latest with their reason).
      CREATE TABLE claims (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        did TEXT NOT NULL,
        method TEXT NOT NULL CHECK (method IN (${CLAIM_METHOD})),
        subject TEXT NOT NULL,
        token TEXT NOT NULL,
        verified_at_ms INTEGER NOT NULL,
        checked_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        next_check_at_ms INTEGER,
        check_failures INTEGER NOT NULL DEFAULT 0 CHECK (check_failures >= 0),
        last_error TEXT,
        lapsed_at_ms INTEGER,
        lapse_reason TEXT,
        CHECK ((lapsed_at_ms IS NULL) = (lapse_reason IS NULL))
      ) STRICT;
      -- At most one unlapsed claim per DID and method: a newer proof lapses the older first.
      CREATE UNIQUE INDEX claims_current ON claims (did, method) WHERE lapsed_at_ms IS NULL;
      CREATE INDEX claims_due ON claims (next_check_at_ms) WHERE lapsed_at_ms IS NULL AND next_check_at_ms IS NOT NULL;
      CREATE INDEX claims_expiry ON claims (expires_at_ms) WHERE lapsed_at_ms IS NULL;
      CREATE INDEX claims_did ON claims (did, verified_at_ms);

      -- The opt-in directory: one listing per DID, bound to the claim behind it.
      -- seq is the stable order and the keyset cursor (AUTOINCREMENT: never handed out again);
      -- search is the DID in lower case, for case-insensitive substring queries.
      CREATE TABLE directory_entries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        did TEXT NOT NULL UNIQUE,
        did_method TEXT NOT NULL,
        search TEXT NOT NULL,
        claim_id INTEGER NOT NULL REFERENCES claims (id),
        listed_at_ms INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX directory_entries_method ON directory_entries (did_method, seq);
      CREATE INDEX directory_entries_claim ON directory_entries (claim_id);
    `,
  },
  {
    version: 10,
    name: 'owner accounts',
    up: `
      -- The subjects (DIDs) that own a tenant, and through it every project of it. The founding
      -- owner (tenants.owner_subject) is attached when the tenant is created.
      CREATE TABLE tenant_owners (
        tenant_id TEXT NOT NULL REFERENCES tenants (id),
        subject TEXT NOT NULL,
        added_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, subject)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX tenant_owners_subject ON tenant_owners (subject);

      -- Owner sessions of the cookie gateway: only a digest of the random session id is kept.
      -- Times are epoch milliseconds on the database's clock; a touch moves expires_at_ms to
      -- now + idle_ms, never past absolute_expires_at_ms.
      CREATE TABLE owner_sessions (
        id_digest TEXT PRIMARY KEY,
        subject TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        last_seen_at_ms INTEGER NOT NULL,
        idle_ms INTEGER NOT NULL CHECK (idle_ms > 0),
        expires_at_ms INTEGER NOT NULL,
        absolute_expires_at_ms INTEGER NOT NULL,
        revoked_at_ms INTEGER,
        CHECK (expires_at_ms <= absolute_expires_at_ms)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX owner_sessions_subject ON owner_sessions (subject);
      CREATE INDEX owner_sessions_expires ON owner_sessions (expires_at_ms);

      -- Sign-in challenges: a digest of the random token, single use, bounded in number (the
      -- limit counts unused, unexpired ones; covered by the index).
      CREATE TABLE sign_in_challenges (
        token_digest TEXT PRIMARY KEY,
        did TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        used_at_ms INTEGER,
        CHECK (expires_at_ms > created_at_ms)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX sign_in_challenges_expires ON sign_in_challenges (expires_at_ms, used_at_ms);

      -- Keys by digest are found through the UNIQUE index of key_hash (version 4).
    `,
  },
  {
    version: 11,
    name: 'customer monitor skips',
    up: `
      -- Due checks of a project's watches that were not run because the project had used its
      -- scheduled attempt allowance over the rolling 30 days: counted and shown to the
      -- owner, never charged as attempts.
      CREATE TABLE scheduled_skips (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id TEXT NOT NULL REFERENCES projects (id),
        job TEXT NOT NULL,
        skipped_at TEXT NOT NULL,
        reason TEXT NOT NULL
      ) STRICT;
      CREATE INDEX scheduled_skips_project ON scheduled_skips (project_id, skipped_at);

      -- A removed watch's queued deliveries are cancelled through its events.
      CREATE INDEX customer_webhook_deliveries_event ON customer_webhook_deliveries (monitor_event_id);
      -- A replaced or disabled webhook's queued deliveries are cancelled by webhook.
      CREATE INDEX customer_webhook_deliveries_webhook ON customer_webhook_deliveries (webhook_id, status);
    `,
  },
  {
    version: 12,
    name: 'fair shares of pending challenges',
    up: `
      -- Who asked for each challenge (the client key of the request: an address, IPv6 by /64),
      -- so that one client's pending challenges are counted against its own share, and a DID's
      -- against its share (store/pending.ts). Challenges made before this version have none:
      -- they count in the pool and their DID's share only. Rows go with the sweep, a day after
      -- they expire.
      ALTER TABLE claim_challenges ADD COLUMN client TEXT;
      ALTER TABLE sign_in_challenges ADD COLUMN client TEXT;
      -- The shares count pending challenges of one client or one DID.
      CREATE INDEX claim_challenges_client ON claim_challenges (client, expires_at_ms) WHERE used_at_ms IS NULL;
      CREATE INDEX claim_challenges_did ON claim_challenges (did, expires_at_ms) WHERE used_at_ms IS NULL;
      CREATE INDEX sign_in_challenges_client ON sign_in_challenges (client, expires_at_ms) WHERE used_at_ms IS NULL;
      CREATE INDEX sign_in_challenges_did ON sign_in_challenges (did, expires_at_ms) WHERE used_at_ms IS NULL;
    `,
  },
  {
    version: 13,
    name: 'delegation registry shares',
    up: `
      -- Who registered a delegation chain (the daemon's client key; NULL: the operator's own,
      -- svc verify-delegation --register on the database), so that the registry can bound what
      -- one client and one root hold at once (src/core/delegation/registry.ts). Chains stored
      -- before this version name no client and count as the operator's.
      ALTER TABLE delegation_chains ADD COLUMN client TEXT;
      CREATE INDEX delegation_chains_client ON delegation_chains (client, registered_at);
      CREATE INDEX delegation_chains_root ON delegation_chains (root_did);
      CREATE INDEX delegation_chains_expires ON delegation_chains (expires_at);
    `,
  },
  {
    version: 14,
    name: 'kept did:webvh logs',
    up: `
      -- Kept did:webvh logs (core/webvh/kept-log.ts): one row per DID whose log svc verified,
      -- with the witness file verified with it and the first rewrite seen (JSON, or NULL).
      CREATE TABLE webvh_kept_logs (
        did TEXT PRIMARY KEY,
        scid TEXT NOT NULL,
        entries INTEGER NOT NULL DEFAULT 0 CHECK (entries >= 0),
        bytes INTEGER NOT NULL DEFAULT 0 CHECK (bytes >= 0),
        witness TEXT CHECK (json_valid(witness)),
        first_kept_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        rewrite TEXT CHECK (json_valid(rewrite))
      ) STRICT;
      -- Its verified entries, each once per DID and position (versionNumber), never overwritten:
      -- the line as published, the SHA-256 of its text and of its RFC 8785 form.
      CREATE TABLE webvh_kept_entries (
        did TEXT NOT NULL,
        version_number INTEGER NOT NULL CHECK (version_number >= 1),
        version_id TEXT NOT NULL,
        version_time TEXT NOT NULL,
        entry_hash TEXT NOT NULL,
        line_sha256 TEXT NOT NULL,
        line TEXT NOT NULL,
        PRIMARY KEY (did, version_number)
      ) STRICT;
    `,
  },
  {
    version: 15,
    name: 'monitor event identity.history.rewritten',
    rebuildsTables: true,
    // SQLite cannot change a CHECK in place: the table is rebuilt with the same columns in the
    // same order, its rows copied with their ids, its AUTOINCREMENT counter carried over (an id
    // once handed out is never handed out again), its indexes recreated. customer_webhook_deliveries
    // names it by table name, so its rows reference the rebuilt table.
    up: rebuildMonitorEvents('v15', MONITOR_EVENT_TYPES),
    // PostgreSQL replaces the column's CHECK in place (whatever name it was given), keeping rows,
    // ids and the identity sequence as they are.
    postgres: replaceEventTypeCheck(MONITOR_EVENT_TYPES),
  },
  {
    version: 16,
    name: 'MCP, A2A and TLS watches; receiver answers, attempt records and replays',
    rebuildsTables: true,
    // What a watch watches: a DID (`did` holds it), an MCP endpoint or an A2A card (`did` holds
    // the URL). A webhook a receiver turned off (410 Gone) is disabled on the watch, which stays.
    // A baseline keeps the leaf certificate the check saw and the smallest expiry threshold (days)
    // already announced for it. monitor_events is rebuilt as in version 15 (the event types'
    // CHECK) with one more column: how often the event was replayed. Every delivery attempt,
    // operator or customer, leaves a row saying what it decided and why.
    up: `${V16_COLUMNS}${rebuildMonitorEvents('v16', MONITOR_EVENT_TYPES_V16, V16_REPLAYS.replace(/^/, ',\n        '))}${V16_ATTEMPTS}`,
    // PostgreSQL adds the columns and the table as SQLite does (translated: postgres/dialect.ts),
    // and replaces the event types' CHECK in place.
    postgres: `${V16_COLUMNS}
      ALTER TABLE monitor_events ADD COLUMN ${V16_REPLAYS};${replaceEventTypeCheck(MONITOR_EVENT_TYPES_V16)}${V16_ATTEMPTS}`,
  },
  {
    version: 17,
    name: 'directory search through a trigram index',
    // The directory's free text is a substring of the listing's `search` (its DID in lower case);
    // a rare term no longer walks every listing. SQLite keeps an FTS5 trigram index over `search`
    // (external content: the text is the listing's own, indexed by seq), case-sensitive as the
    // comparison is, kept in step by triggers in each write's own transaction and filled here
    // from the listings already there.
    up: V17_DIRECTORY_SEARCH,
    // PostgreSQL: a GIN index of pg_trgm's trigrams, when the extension is there or may be made
    // (docs/daemon.md#proofs-of-control-and-the-directory); else none, and search scans as before.
    postgres: V17_DIRECTORY_TRGM,
  },
];

/** The version this build writes and reads (docs/history.md#the-schema states it). */
export const SCHEMA_VERSION = 17;

export function futureSchemaMessage(found: number): string {
  return `the database has schema version ${found}, newer than version ${SCHEMA_VERSION} of this build; it was left untouched (upgrade svc to use it)`;
}
