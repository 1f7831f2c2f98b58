/**
 * Several daemons on one PostgreSQL database, as operators run them behind a load balancer:
 * real `svc serve` processes on loopback, a real PostgreSQL server (a database of each test's
 * own on the machine's server, or a private server the test can stop and start). What one
 * replica registers or records, the other uses; the public budgets hold per client across
 * replicas; concurrent starts migrate once; a replica killed mid-burst loses no acknowledged
 * write; a database that goes away makes the daemon unready and 503, never a crash, and it
 * recovers when the database returns.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/schema/migrations.js';
import type { Daemon } from '../support/daemon.js';
import { call, expectJson, expectProblem, startDaemonFor, until, type Answer } from '../support/daemon-client.js';
import { documentPath, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { describePostgres, freshDatabase, startPrivatePostgres, type PrivatePostgres } from '../support/postgres.js';
import { didKeyPrincipal, mintReceipt } from '../support/receipts.js';
import { didDocument, generateTestKey } from '../support/signing.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const post = (base: string, route: string, body: unknown) => call(`${base}${route}`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });

/** Runs `sql` on the database at `url` and returns its rows. */
async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const daemons: Daemon[] = [];
/** A daemon on `url`, stopped after the file. */
async function replica(url: string, host: DidWebHost | null, args: string[] = [], env: Record<string, string> = {}): Promise<Daemon> {
  const daemon = await startDaemonFor(host, { noDb: true, args: ['--db', url, ...args], env });
  daemons.push(daemon);
  return daemon;
}
afterAll(async () => {
  await Promise.all(daemons.map((d) => d.stop().catch(() => undefined)));
});

/** A did:key of a fresh Ed25519 key (resolves offline). */
function freshDidKey(): string {
  return `did:key:${generateTestKey('EdDSA').multikey}`;
}

describePostgres('two daemons on one PostgreSQL database', () => {
  let host: DidWebHost;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let a: Daemon;
  let b: Daemon;

  beforeAll(async () => {
    host = await startDidWebHost();
    database = await freshDatabase();
    [a, b] = await Promise.all([replica(database.url, host), replica(database.url, host)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await host?.close();
    await database?.drop();
  });

  it('both are ready on the postgres backend and say where (without a password)', async () => {
    for (const daemon of [a, b]) {
      expect(expectJson(await call(`${daemon.url}/ready`), 200)).toEqual({ ready: true, storage: 'postgres', schema: 'current' });
      expect(daemon.stderr()).toContain(`database ${database.url}`);
    }
    const status = expectJson(await call(`${b.url}/v1/status`), 200);
    expect(status.components.storage).toMatchObject({ status: 'ok', storage: 'postgres', schemaVersion: SCHEMA_VERSION });
  });

  it('a chain registered through A is used by verify-tool on B', async () => {
    const root = didKeyPrincipal();
    const agent = didKeyPrincipal();
    const now = Math.floor(Date.now() / 1000);
    const chain = [await mintReceipt(root, agent, { cap: ['search'], nbf: now - 60, exp: now + 3600 })];
    const tool = (base: string) => call(`${base}/v1/agents/verify-tool?${new URLSearchParams({ agent: agent.did, tool: 'search' }).toString()}`);
    expect(expectJson(await tool(b.url), 200)).toMatchObject({ decision: 'DENY' });
    expect(expectJson(await post(a.url, '/v1/agents/verify-delegation', { chain, register: true }), 200)).toMatchObject({ registered: true });
    expect(expectJson(await tool(b.url), 200)).toMatchObject({ decision: 'ALLOW', authorized: true });
  });

  it('the same did:web resolved by both at once: one history row, seen twice', async () => {
    const did = host.did('replicas', 'same');
    const key = generateTestKey('EdDSA');
    host.publish(did, {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: did,
      verificationMethod: [{ id: `${did}#key-1`, type: 'Multikey', controller: did, publicKeyMultibase: key.multikey }],
      assertionMethod: [`${did}#key-1`],
    });
    const path = `/v1/resolve/${encodeURIComponent(did)}?noCache=true`;
    const answers = await Promise.all([call(`${a.url}${path}`), call(`${b.url}${path}`)]);
    for (const answer of answers) expectJson(answer, 200);
    const history = expectJson(await call(`${b.url}/v1/history/${encodeURIComponent(did)}`), 200);
    expect(history.history).toHaveLength(1);
    expect(history.history[0].seenCount).toBe(2);
    const rows = await query<{ n: number }>(database.url, 'SELECT count(*)::int AS n FROM observations WHERE did = $1', [did]);
    expect(rows[0]!.n).toBe(1);
  });

  /** Publishes a did:web whose document the host serves after `delayMs`, counting the fetches (status 404: absent). */
  function slowDid(name: string, delayMs: number, status = 200): { did: string; fetches: () => number } {
    const did = host.did('replicas', name);
    const document = JSON.stringify(didDocument(did, generateTestKey('EdDSA')));
    let fetches = 0;
    host.server.route(documentPath(did), (_req, res) => {
      fetches += 1;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': status === 200 ? 'application/did+json' : 'text/plain' });
        res.end(status === 200 ? document : 'absent');
      }, delayMs);
    });
    return { did, fetches: () => fetches };
  }

  it('one replica resolves a DID at a time: the other waits for its result and reuses it (the host is asked once)', async () => {
    const { did, fetches } = slowDid('single-flight', 300);
    const path = `/v1/resolve/${encodeURIComponent(did)}`;
    const [fromA, fromB] = await Promise.all([call(`${a.url}${path}`), call(`${b.url}${path}`)]);
    const bodies = [expectJson(fromA, 200), expectJson(fromB, 200)];
    expect(fetches()).toBe(1);
    // One of them resolved, the other was served the shared result.
    expect(bodies.map((body) => body.cached).sort()).toEqual([false, true]);
    expect(bodies[0].didDocument).toEqual(bodies[1].didDocument);
    // Later requests on either replica: cached, still one fetch.
    expect(expectJson(await call(`${b.url}${path}`), 200).cached).toBe(true);
    expect(expectJson(await call(`${a.url}${path}`), 200).cached).toBe(true);
    expect(fetches()).toBe(1);
  });

  it('errors are never shared: each replica that asks meets the failure itself', async () => {
    const { did, fetches } = slowDid('absent', 200, 404);
    const path = `/v1/resolve/${encodeURIComponent(did)}`;
    const answers = await Promise.all([call(`${a.url}${path}`), call(`${b.url}${path}`)]);
    for (const answer of answers) expectProblem(answer, 404, 'NOT_FOUND');
    expect(fetches()).toBe(2);
    expectProblem(await call(`${b.url}${path}`), 404, 'NOT_FOUND');
    expect(fetches()).toBe(3);
  });

  it('kill -9 of A during a burst of writes: B answers throughout, A comes back ready, no acknowledged row is lost', async () => {
    const acknowledged: string[] = [];
    let stop = false;
    // A burst of recorded resolutions through A (each a new DID, so each acknowledged answer is a row).
    const burst = (async () => {
      while (!stop) {
        const did = freshDidKey();
        const answer = await call(`${a.url}/v1/resolve/${encodeURIComponent(did)}`).catch(() => null);
        if (answer?.status === 200) acknowledged.push(did);
        else if (answer === null) return;
      }
    })();
    await until('A acknowledged some writes', () => acknowledged.length >= 20, 20_000);
    a.child.kill('SIGKILL');
    stop = true;
    await burst;
    expect(await a.exited).toBe('SIGKILL');
    // B keeps answering, reads and writes.
    expectJson(await call(`${b.url}/ready`), 200);
    expectJson(await call(`${b.url}/v1/resolve/${encodeURIComponent(freshDidKey())}`), 200);
    // Every acknowledged write is there.
    const rows = await query<{ did: string }>(database.url, 'SELECT did FROM observations WHERE did = ANY($1)', [acknowledged]);
    expect(new Set(rows.map((r) => r.did))).toEqual(new Set(acknowledged));
    // A restarts on the same database and is ready.
    a = await replica(database.url, host);
    expect(expectJson(await call(`${a.url}/ready`), 200)).toEqual({ ready: true, storage: 'postgres', schema: 'current' });
    const last = acknowledged.at(-1)!;
    expect(expectJson(await call(`${a.url}/v1/history/${encodeURIComponent(last)}`), 200).history).toHaveLength(1);
  }, 60_000);
});

describePostgres('several daemons starting together on an empty database', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  afterAll(async () => {
    await database?.drop();
  });

  it('migrate it once to the current schema version, and both are ready', async () => {
    database = await freshDatabase();
    const started = await Promise.all([replica(database.url, null), replica(database.url, null), replica(database.url, null)]);
    for (const daemon of started) {
      expect(expectJson(await call(`${daemon.url}/ready`), 200)).toEqual({ ready: true, storage: 'postgres', schema: 'current' });
      expect(daemon.stderr()).not.toMatch(/warning|error/i);
    }
    expect(await query(database.url, 'SELECT id, version FROM svc_schema_version')).toEqual([{ id: 1, version: SCHEMA_VERSION }]);
    await Promise.all(started.map((d) => d.stop()));
  }, 60_000);
});

describePostgres('the public budgets across replicas', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let a: Daemon;
  let b: Daemon;
  beforeAll(async () => {
    database = await freshDatabase();
    const env = { SVC_REGISTRATIONS_PER_CLIENT: '2' };
    [a, b] = await Promise.all([replica(database.url, null, ['--public'], env), replica(database.url, null, ['--public'], env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it('the 21st standard request of one client, alternating between A and B, is refused with Retry-After', async () => {
    const did = freshDidKey();
    // One budget of 20 for both replicas, a token back every 3 s: the 21st request is refused —
    // or, on a machine so loaded that the loop outlasts a refill, the one after each token that
    // came back. Two budgets (one per replica) would admit 40.
    const started = performance.now();
    let admitted = 0;
    let refused: Answer | undefined;
    for (let i = 0; i < 40 && refused === undefined; i++) {
      const answer = await call(`${(i % 2 === 0 ? a : b).url}/v1/resolve/${encodeURIComponent(did)}`);
      if (answer.status === 429) refused = answer;
      else {
        expectJson(answer, 200);
        admitted += 1;
      }
    }
    const refills = Math.floor((performance.now() - started) / 3000);
    expect(refused, 'a request was refused').toBeDefined();
    expect(admitted).toBeGreaterThanOrEqual(20);
    expect(admitted).toBeLessThanOrEqual(20 + refills);
    // The refusal itself is the problem with its Retry-After (a request sent after it may find a
    // token already back: one returns every 3 s, whenever the loop ended).
    expectProblem(refused!, 429, 'RATE_LIMITED');
    // One token is back after 60 s / 20 = 3 s at most.
    const retryAfter = Number(refused!.header('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
  });
});

describePostgres('the registration quota across replicas', () => {
  it('SVC_REGISTRATIONS_PER_CLIENT=2 on both: the third new chain of one client, alternating, is not registered', async () => {
    const database = await freshDatabase();
    try {
      const env = { SVC_REGISTRATIONS_PER_CLIENT: '2' };
      const [a, b] = await Promise.all([replica(database.url, null, [], env), replica(database.url, null, [], env)]);
      const now = Math.floor(Date.now() / 1000);
      const outcomes: any[] = [];
      for (let i = 0; i < 3; i++) {
        const chain = [await mintReceipt(didKeyPrincipal(), didKeyPrincipal(), { cap: ['search'], nbf: now - 60, exp: now + 3600 })];
        outcomes.push(expectJson(await post(i % 2 === 0 ? a.url : b.url, '/v1/agents/verify-delegation', { chain, register: true }), 200));
      }
      expect(outcomes.map((o) => o.registered)).toEqual([true, true, false]);
      expect(outcomes[2].registrationReason).toMatch(/registration quota \(2 new chains per 24 h\) is used up/);
      expect(await query(database.url, 'SELECT count(*)::int AS n FROM delegation_chains')).toEqual([{ n: 2 }]);
      await Promise.all([a.stop(), b.stop()]);
    } finally {
      await database.drop();
    }
  }, 60_000);
});

describePostgres('the database goes away under a running daemon', () => {
  let server: PrivatePostgres;
  let daemon: Daemon;
  beforeAll(async () => {
    server = await startPrivatePostgres();
    daemon = await replica(server.url, null);
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
    await server?.destroy();
  });

  it('/ready 503 NOT_READY and storage requests 503 while it is down; the daemon stays up and recovers', async () => {
    const did = freshDidKey();
    expectJson(await call(`${daemon.url}/v1/resolve/${encodeURIComponent(did)}`), 200);
    expect(expectJson(await call(`${daemon.url}/v1/history/${encodeURIComponent(did)}`), 200).history).toHaveLength(1);

    await server.stop();
    const ready = expectProblem(await call(`${daemon.url}/ready`), 503, 'NOT_READY');
    expect(ready.detail).toMatch(/database/);
    const history = await call(`${daemon.url}/v1/history/${encodeURIComponent(did)}`);
    expectProblem(history, 503, 'SERVICE_UNAVAILABLE');
    expect(history.header('retry-after')).toBe('5');
    // Resolution needs no database: answered, its recording lost with a log line, not the answer.
    expectJson(await call(`${daemon.url}/v1/resolve/${encodeURIComponent(freshDidKey())}`), 200);
    expectJson(await call(`${daemon.url}/health`), 200);
    expect(daemon.child.exitCode).toBeNull();

    await server.start();
    await until('the daemon is ready again', async () => (await call(`${daemon.url}/ready`)).status === 200, 20_000);
    expect(expectJson(await call(`${daemon.url}/v1/history/${encodeURIComponent(did)}`), 200).history).toHaveLength(1);
    expect(daemon.stderr()).not.toMatch(/password|at .*\.js:\d+/);
  }, 60_000);

  it('a daemon started while the database is down starts, is not ready, and becomes ready when it comes up', async () => {
    await server.stop();
    const late = await replica(server.url, null);
    expect(late.stderr()).toMatch(/the database is unavailable/);
    expectProblem(await call(`${late.url}/ready`), 503, 'NOT_READY');
    await server.start();
    await until('the late daemon is ready', async () => (await call(`${late.url}/ready`)).status === 200, 20_000);
    await late.stop();
  }, 60_000);
});
