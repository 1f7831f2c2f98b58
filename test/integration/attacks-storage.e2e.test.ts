/**
 * Storage bounds on both engines (docs/operations.md#bounded-history), attacked as a hostile client
 * would: `svc serve --public` (started in this process from its command line; as two processes
 * where two daemons share one database), its database a SQLite file or a PostgreSQL database,
 * SVC_MAX_OBSERVATIONS small, and an attacker who hosts many distinct did:web documents (real HTTPS
 * on loopback, a test CA) and has the daemon resolve each once, from several clients (the public
 * budget is per client). The observation table never holds more rows than the ceiling — checked
 * while the flood runs, not only after it — and /v1/status says what was evicted. On PostgreSQL the
 * same holds with two daemons on one database flooded at once.
 *
 * Before this change the ceiling applied on SQLite only: the same flood on PostgreSQL stored
 * every document (2,000 rows over a ceiling of 500 in the report).
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describe } from 'vitest';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { warmInProcessDaemon, type DaemonHandle } from '../support/daemon.js';
import { call, expectJson, startDaemonFor, startInProcessDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { describePostgres } from '../support/postgres.js';
import { didDocument } from '../support/signing.js';

const CEILING = 20;
/** Distinct attacker-hosted documents: three times the ceiling. */
const DOCUMENTS = 60;
/** The public profile's standard budget is 20 requests a minute per client. */
const PER_CLIENT = 15;

let host: DidWebHost;
beforeAll(async () => {
  host = await startDidWebHost();
  await warmInProcessDaemon();
});
afterAll(async () => {
  await host?.close();
});

let daemons: DaemonHandle[] = [];
let databases: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  daemons = [];
  for (const d of databases) await d.done();
  databases = [];
});

/** A public daemon behind a trusted proxy (so that the flood can come from many clients), with a small ceiling. */
async function publicDaemon(db: TestDatabase, start: typeof startDaemonFor | typeof startInProcessDaemonFor = startInProcessDaemonFor): Promise<DaemonHandle> {
  const daemon = await start(host, {
    env: { SVC_MAX_OBSERVATIONS: String(CEILING), SVC_TRUST_PROXY: '127.0.0.1' },
    args: ['--public'],
    dbPath: db.target,
  });
  daemons.push(daemon);
  expectJson(await call(`${daemon.url}/ready`), 200);
  return daemon;
}

/** `count` attacker documents of ~12 KiB each, published on the test host. */
function attackerDocuments(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const did = host.did('attacker', `${prefix}${i}`);
    host.publish(did, { ...didDocument(did, host.key), padding: `${i}`.padEnd(12 * 1024, 'x') });
    return did;
  });
}

const clientOf = (i: number, lane = 0) => `203.0.${113 + lane}.${Math.floor(i / PER_CLIENT) + 1}`;

async function rowCount(db: TestDatabase): Promise<number> {
  return Number((await db.sql('SELECT count(*) AS n FROM observations'))[0]!['n']);
}

/**
 * Resolves every DID through `daemonOf(i)`, eight at a time, while the row count is sampled;
 * returns the largest count seen and the count at the end.
 */
async function flood(db: TestDatabase, dids: string[], daemonOf: (i: number) => DaemonHandle, lane = 0): Promise<{ most: number; last: number }> {
  let most = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      most = Math.max(most, await rowCount(db));
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < dids.length) {
          const i = next++;
          const answer = await call(`${daemonOf(i).url}/v1/resolve/${dids[i]}`, { headers: { 'x-forwarded-for': clientOf(i, lane) } });
          expect(answer.status, answer.text.slice(0, 300)).toBe(200);
        }
      }),
    );
  } finally {
    done = true;
    await sampler;
  }
  const last = await rowCount(db);
  return { most: Math.max(most, last), last };
}

const ENGINES: Array<{ name: string; describe: (name: string, fn: () => void) => void; open: () => Promise<TestDatabase> }> = [
  { name: 'SQLite', describe, open: () => sqliteDatabase('svc-attacks-storage') },
  { name: 'PostgreSQL', describe: describePostgres, open: postgresDatabase },
];

for (const engine of ENGINES) {
  engine.describe(`attack: many attacker-hosted did:web documents against SVC_MAX_OBSERVATIONS (${engine.name})`, () => {
    it(`the public profile stores at most ${CEILING} of ${DOCUMENTS} documents, one-off rows evicted oldest first`, async () => {
      const db = await engine.open();
      databases.push(db);
      const daemon = await publicDaemon(db);
      const dids = attackerDocuments(`${engine.name.toLowerCase()}-`, DOCUMENTS);

      const { most, last } = await flood(db, dids, () => daemon);
      expect(most).toBeLessThanOrEqual(CEILING);
      expect(last).toBe(CEILING);

      const status = expectJson(await call(`${daemon.url}/v1/status`, { headers: { 'x-forwarded-for': '198.51.100.1' } }), 200);
      expect(status.components.storage.observations).toEqual({ stored: CEILING, ceiling: CEILING, evicted: DOCUMENTS - CEILING, refused: 0 });
      // The answers were never affected; what is kept is a full ceiling of the flood's rows.
      const kept = await db.sql('SELECT DISTINCT did FROM observations');
      expect(kept).toHaveLength(CEILING);
      for (const row of kept) expect(dids).toContain(row['did']);
    }, 120_000);
  });
}

describePostgres('attack: the same flood through two daemons on one PostgreSQL database', () => {
  it(`two public daemons sharing the database store at most ${CEILING} rows between them`, async () => {
    const db = await postgresDatabase();
    databases.push(db);
    const [a, b] = await Promise.all([publicDaemon(db, startDaemonFor), publicDaemon(db, startDaemonFor)]);
    const dids = attackerDocuments('two-daemons-', DOCUMENTS);

    // Alternating daemons, so that both record at once all the time.
    const { most, last } = await flood(db, dids, (i) => (i % 2 === 0 ? a : b), 1);
    expect(most).toBeLessThanOrEqual(CEILING);
    expect(last).toBe(CEILING);

    const statuses = await Promise.all(
      [a, b].map(
        async (d) => expectJson(await call(`${d.url}/v1/status`, { headers: { 'x-forwarded-for': '198.51.100.2' } }), 200).components.storage.observations,
      ),
    );
    for (const s of statuses) expect(s).toMatchObject({ stored: CEILING, ceiling: CEILING, refused: 0 });
    expect(statuses[0].evicted + statuses[1].evicted).toBe(DOCUMENTS - CEILING);
  }, 120_000);
});
