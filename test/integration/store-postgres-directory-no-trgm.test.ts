/**
 * Directory search on a PostgreSQL database without pg_trgm: a database of its own whose
 * daemon role may not create extensions (no CREATE on the database), so the migration makes no
 * trigram index and every search is the plain scan. The same listings on a schema with the index
 * give the same pages for every term — short, long, LIKE's pattern characters, upper case,
 * non-ASCII, quotes — and both equal the substring scan done here.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/index.js';
import { adminQuery, createDatabase } from '../support/pg-admin.js';
import { describePostgres, freshSchema, postgresUrl } from '../support/postgres.js';

/** The listed DIDs (the directory keeps `search` as the DID in lower case). */
const DIDS = [
  ...Array.from({ length: 120 }, (_, i) => `did:web:Host-${i}.example`),
  'did:web:bücher.example',
  'did:web:ÄÖÜ-straße.example',
  'did:web:100%25_off.example',
  'did:web:back\\slash.example',
  "did:web:quote'd.example",
  'did:key:z6MkTrigramKeyAAAA',
  'did:key:z6MkTrigramKeyBBBB',
];

/** Inserts a current claim and a listing per DID, in the order of DIDS. */
async function list(store: PostgresStore): Promise<void> {
  await store.pool.query(
    `INSERT INTO claims (did, method, subject, token, verified_at_ms, checked_at_ms, expires_at_ms)
       SELECT d, 'signature', d || '#key-1', 'token-' || i, n, n, n + 86400000
       FROM unnest($1::text[]) WITH ORDINALITY AS u(d, i), (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS n) AS now
       ORDER BY i`,
    [DIDS],
  );
  await store.pool.query(`INSERT INTO directory_entries (did, did_method, search, claim_id, listed_at_ms)
    SELECT did, split_part(did, ':', 2), lower(did), id, verified_at_ms FROM claims ORDER BY id`);
}

/** Every page of the directory for `q` (and a method), walked with the cursor, `limit` at a time. */
async function walk(store: PostgresStore, q: string, didMethod: string | null, limit: number): Promise<string[]> {
  const found: string[] = [];
  let after: number | null = null;
  for (;;) {
    const page = await store.claims.directory({ q, didMethod, limit, after });
    found.push(...page.entries.map((e) => e.did));
    if (!page.more) return found;
    after = page.entries.at(-1)!.seq;
  }
}

describePostgres('PostgreSQL directory search without pg_trgm', () => {
  const role = `svc_notrgm_${randomBytes(5).toString('hex')}`;
  let database: Awaited<ReturnType<typeof createDatabase>> | undefined;
  let plain: PostgresStore | undefined;
  let indexed: PostgresStore | undefined;
  const schema = freshSchema();

  beforeAll(async () => {
    database = await createDatabase(postgresUrl, 'svc_notrgm');
    // The role may create tables in the public schema and nothing more: CREATE EXTENSION (even of
    // a trusted extension such as pg_trgm) needs CREATE on the database, which it does not have.
    await adminQuery(postgresUrl, `CREATE ROLE ${role} LOGIN`);
    await adminQuery(database.url, `REVOKE CREATE ON DATABASE ${database.name} FROM PUBLIC; GRANT CREATE ON SCHEMA public TO ${role}`);
    const url = new URL(database.url);
    url.username = role;
    plain = await openPostgresStore({ url: url.toString() });
    indexed = await openPostgresStore({ url: postgresUrl, schema: schema.schema });
    await list(plain);
    await list(indexed);
  });

  afterAll(async () => {
    await plain?.close();
    await indexed?.close();
    await schema.drop();
    // The database first: the role owns its tables.
    await database?.drop();
    await adminQuery(postgresUrl, `DROP ROLE IF EXISTS ${role}`);
  });

  it('the migration made no trigram index there (and the extension is absent), while the other schema has one', async () => {
    const index = async (store: PostgresStore) =>
      (await store.pool.query(`SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'directory_entries_search_trgm'`)).rowCount;
    expect(await index(plain!)).toBe(0);
    expect((await plain!.pool.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`)).rowCount).toBe(0);
    expect(await index(indexed!)).toBe(1);
  });

  it('every term finds the same listings, page after page, as the indexed search and as a substring scan', async () => {
    const terms = [
      'host-1',
      'HOST-11',
      'ost',
      'st-',
      'bücher',
      'STRASSE',
      'straße',
      'äöü',
      '100%',
      '%25_',
      '_off',
      '\\slash',
      "quote'd",
      'z6mk',
      'trigramkey',
      'nothing-like-it',
      'e',
      '.example',
      'did:',
    ];
    const scan = (q: string, didMethod: string | null) =>
      DIDS.filter((d) => d.toLowerCase().includes(q.toLowerCase()) && (didMethod === null || d.startsWith(`did:${didMethod}:`)));
    for (const [i, q] of terms.entries()) {
      const didMethod = i % 4 === 3 ? 'key' : null;
      const limit = 1 + (i % 9) * 5;
      const expected = scan(q, didMethod);
      expect(await walk(plain!, q, didMethod, limit), `q ${JSON.stringify(q)}`).toEqual(expected);
      expect(await walk(indexed!, q, didMethod, limit), `q ${JSON.stringify(q)} (indexed)`).toEqual(expected);
    }
  });
});
