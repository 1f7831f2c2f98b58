/**
 * The daemon's lifecycle over real HTTP: readiness when the database is a
 * future schema or cannot be created, memory mode, configuration errors (exit 2, one usage error),
 * SIGTERM draining requests in flight, and a restart after SIGKILL on the same database.
 * What only a process shows (exit codes, signals, kill -9) runs `svc serve` as a process; the
 * readiness of an unusable database and memory mode, the daemon started in this process.
 * Limits: daemon-limits.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore, SCHEMA_VERSION } from '../../src/store/index.js';
import { cleanEnv, parseCliError, svc, type CliErrorBlock } from '../support/cli.js';
import { startDaemon, startInProcessDaemon, warmInProcessDaemon, type DaemonHandle, type DaemonOptions } from '../support/daemon.js';
import { call, expectJson, expectProblem, startDaemonFor, until, type Answer } from '../support/daemon-client.js';
import { documentPath, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { ED25519_DID } from '../support/dids.js';
import { json } from '../support/https-server.js';
import { didDocument, generateTestKey } from '../support/signing.js';
import { tempDir } from '../support/store.js';

const freshDidKey = () => `did:key:${generateTestKey('EdDSA').multikey}`;

let daemons: DaemonHandle[] = [];
let cleanups: Array<() => void> = [];
async function daemonWith(options: DaemonOptions = {}) {
  const daemon = await startDaemon(options);
  daemons.push(daemon);
  return daemon;
}
/** The same daemon in this process (startInProcessDaemon), where no process is looked at. */
async function daemonInProcess(options: DaemonOptions = {}) {
  const daemon = await startInProcessDaemon(options);
  daemons.push(daemon);
  return daemon;
}
function scratch(): string {
  const { dir, cleanup } = tempDir('svc-daemon-life-');
  cleanups.push(cleanup);
  return dir;
}
beforeAll(warmInProcessDaemon);
afterEach(async () => {
  await Promise.all(daemons.map((d) => d.stop('SIGKILL')));
  daemons = [];
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function integrityOf(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

function expectNotReady(answer: Answer): Record<string, any> {
  const problem = expectProblem(answer, 503, 'NOT_READY');
  expect(answer.header('retry-after')).toBe('5');
  return problem;
}

/** One usage error on stderr (no failing stage, the hint given), nothing else, no stack trace. */
function expectUsageError(stderr: string, hint: string): CliErrorBlock {
  const error = parseCliError(stderr);
  expect(error).toMatchObject({ code: 'USAGE_ERROR', failedAt: [], stageDetails: [], hint });
  return error;
}

describe('/ready and the database', () => {
  it(`a database of a future schema (user_version ${SCHEMA_VERSION + 1}): the daemon starts, /health 200, /ready 503 NOT_READY with Retry-After: 5; the file is left byte-identical`, async () => {
    const file = path.join(scratch(), 'svc.db');
    openStore({ path: file }).close();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = readFileSync(file);

    const daemon = await daemonWith({ dbPath: file });
    expect(daemon.stderr()).toMatch(
      new RegExp(`svc: warning: the database is unavailable \\(.*schema version ${SCHEMA_VERSION + 1}, newer than version ${SCHEMA_VERSION}`),
    );
    expectJson(await call(`${daemon.url}/health`), 200);
    for (let i = 0; i < 3; i++) {
      const problem = expectNotReady(await call(`${daemon.url}/ready`));
      expect(problem.detail).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    }
    const status = expectJson(await call(`${daemon.url}/v1/status`), 200);
    expect(status.status).toBe('degraded');
    expect(status.components.storage.status).toBe('unavailable');
    // Resolution does not need the database.
    expectJson(await call(`${daemon.url}/v1/resolve/${freshDidKey()}`), 200);
    expectProblem(await call(`${daemon.url}/v1/history/${ED25519_DID}`), 503, 'SERVICE_UNAVAILABLE');

    expect(await daemon.stop('SIGTERM')).toBe(0);
    expect(readFileSync(file).equals(before)).toBe(true);
    const after = new Database(file, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    after.close();
  });

  it('a --db inside a directory that cannot be created: starts, /ready 503, history 503 (never an empty history), resolution still 200', async () => {
    const daemon = await daemonInProcess({
      dbPath: (dir) => {
        writeFileSync(path.join(dir, 'a-file'), 'not a directory');
        return path.join(dir, 'a-file', 'sub', 'svc.db');
      },
    });
    expect(daemon.stderr()).toContain('svc: warning: the database is unavailable');
    expectJson(await call(`${daemon.url}/health`), 200);
    const problem = expectNotReady(await call(`${daemon.url}/ready`));
    expect(problem.detail).toContain('cannot create the directory');

    const did = freshDidKey();
    expect(expectJson(await call(`${daemon.url}/v1/resolve/${did}`), 200).did).toBe(did);
    const history = await call(`${daemon.url}/v1/history/${did}`);
    const unavailable = expectProblem(history, 503, 'SERVICE_UNAVAILABLE');
    expect(unavailable.type).toBe('urn:svc:problems#SERVICE_UNAVAILABLE');
    expect(history.header('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expectProblem(await call(`${daemon.url}/v1/diff/${did}`), 503, 'SERVICE_UNAVAILABLE');
    expect(daemon.stderr()).not.toContain('request failed');
  });

  it('--memory: /ready {ready: true, storage: "memory", schema: "current"}', async () => {
    const daemon = await daemonInProcess({ noDb: true, args: ['--memory'] });
    expect(expectJson(await call(`${daemon.url}/ready`), 200)).toEqual({ ready: true, storage: 'memory', schema: 'current' });
    const did = freshDidKey();
    expectJson(await call(`${daemon.url}/v1/resolve/${did}`), 200);
    expect(expectJson(await call(`${daemon.url}/v1/history/${did}`), 200)).toMatchObject({ did, count: 1 });
  });
});

describe('configuration errors: exit 2, one usage error on stderr', () => {
  it('--memory --production', async () => {
    const run = await svc(['serve', '--port', '0', '--memory', '--production'], cleanEnv());
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(expectUsageError(run.stderr, "see 'svc serve --help'").detail).toContain('production mode requires a database file');
  });

  it.each([
    ['SVC_RATE_LIMIT_PER_MIN', 'abc'],
    ['SVC_RATE_LIMIT_PER_MIN', '0'],
    ['SVC_REQUEST_TIMEOUT_MS', '99'],
    ['SVC_MAX_CONCURRENCY', '1.5'],
    ['SVC_DRAIN_MS', '-1'],
    ['SVC_DRAIN_NOTICE', '301'],
  ])('%s=%s', async (name, value) => {
    const run = await svc(['serve', '--port', '0', '--memory'], cleanEnv({ [name]: value }));
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(expectUsageError(run.stderr, "see 'svc help environment'").detail).toContain(`${name} must be a whole number`);
  });
});

describe('SIGTERM drains, SIGKILL loses nothing committed', () => {
  let host: DidWebHost;
  beforeAll(async () => {
    host = await startDidWebHost();
  });
  afterAll(async () => {
    await host?.close();
  });

  it('a request in flight completes 200, a later one is refused, the process exits 0 and closes a sound database', async () => {
    const did = host.did('slow-drain');
    const document = didDocument(did, host.key);
    const answer = json(document, { contentType: 'application/did+json' });
    host.server.route(documentPath(did), (req, res) => {
      setTimeout(() => answer(req, res), 800);
    });
    const dir = scratch();
    const file = path.join(dir, 'svc.db');
    const daemon = await startDaemonFor(host, { dbPath: file, env: { SVC_DRAIN_MS: '20000' } });
    daemons.push(daemon);

    const inFlight = call(`${daemon.url}/v1/resolve/${did}?noCache=true`);
    await until('the host to receive the document request', () => host.server.requests.some((r) => r.startsWith('GET /slow-drain/did.json')));
    daemon.child.kill('SIGTERM');
    await until('the daemon to start draining', () => daemon.stderr().includes('SIGTERM: draining requests in flight'));

    // A new request after SIGTERM: refused at the socket once the listener is closed, or (in
    // the instant before) answered 503 SERVICE_UNAVAILABLE — nothing else.
    const late = await rawGet(`${daemon.url}/v1/resolve/${ED25519_DID}`);
    if ('error' in late) {
      // Refused at the socket: no listener (ECONNREFUSED), or one closing as the connection arrived (ECONNRESET).
      expect(['ECONNREFUSED', 'ECONNRESET']).toContain(late.error);
    } else {
      expect(late.status).toBe(503);
      expect(late.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
      expect(JSON.parse(late.body)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(late.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    }

    const finished = await inFlight;
    const done = expectJson(finished, 200);
    expect(done).toMatchObject({ did, cached: false });
    expect(done.didDocument.id).toBe(did);
    // Its connection is not kept alive: an idle kept-alive socket would hold the shutdown open.
    expect(finished.header('connection')).toBe('close');

    expect(await daemon.exited).toBe(0);
    expect(daemon.stderr()).toMatch(/svc: stopped; database closed\n$/);
    expect(integrityOf(file)).toBe('ok');
    // The drained request was recorded before the database closed.
    const store = openStore({ path: file });
    try {
      expect(await store.observations.count(did)).toBe(1);
    } finally {
      store.close();
    }
  });

  it('after SIGKILL a new daemon on the same database is ready and still has the history', async () => {
    const file = path.join(scratch(), 'svc.db');
    const first = await daemonWith({ dbPath: file });
    const dids = [freshDidKey(), freshDidKey(), freshDidKey()];
    const hashes = new Map<string, string>();
    for (const did of dids) {
      const result = expectJson(await call(`${first.url}/v1/resolve/${did}`), 200);
      hashes.set(did, result.evidence.document.jcsSha256);
    }
    // Unchanged, a second observation coalesces into the first row.
    expectJson(await call(`${first.url}/v1/resolve/${dids[0]}?noCache=true`), 200);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(first.stderr()).not.toContain('database closed');

    const second = await daemonWith({ dbPath: file });
    expect(expectJson(await call(`${second.url}/ready`), 200)).toEqual({ ready: true, storage: 'file', schema: 'current' });
    for (const did of dids) {
      const history = expectJson(await call(`${second.url}/v1/history/${did}`), 200);
      expect(history).toMatchObject({ did, count: 1 });
      expect(history.history).toEqual([expect.objectContaining({ did, documentHash: hashes.get(did), seenCount: did === dids[0] ? 2 : 1 })]);
    }
    expect(await second.stop('SIGTERM')).toBe(0);
    expect(integrityOf(file)).toBe('ok');
  });
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One GET on a new connection of its own (no pooled keep-alive socket), or the socket error. */
function rawGet(url: string): Promise<RawAnswer | { error: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}
