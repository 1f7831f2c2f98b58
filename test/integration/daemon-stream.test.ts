/**
 * `svc serve` over real HTTP: the live resolution stream — frames in order,
 * errors as frames, and a client that disconnects mid-stream leaving no work behind: the
 * resolution is aborted, its outbound connection to the DID's host closed, its capacity slot
 * given back.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSse, type DaemonHandle } from '../support/daemon.js';
import { call, expectCommonHeaders, expectJson, expectProblem, startInProcessDaemonFor, until } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json } from '../support/https-server.js';
import { didConfiguration, generateTestKey, linkageCredentialDi } from '../support/signing.js';

const EVENT_STREAM = 'text/event-stream; charset=utf-8';

let host: DidWebHost;
let daemon: DaemonHandle;

beforeAll(async () => {
  host = await startDidWebHost();
  // A short drain: right after a client aborts, undici opens a fresh connection that sends no
  // request, which Node does not count as idle, so SIGTERM would wait for it the whole drain time.
  daemon = await startInProcessDaemonFor(host, { env: { SVC_DRAIN_MS: '500' } });
});
afterAll(async () => {
  await daemon?.stop();
  await host?.close();
});

const get = (path: string, init?: RequestInit) => call(`${daemon.url}${path}`, init);

type Frame = { event: string; data: any };

/**
 * A did:web on the test host whose document request never gets an answer: only the client (the
 * daemon) can end it. Its DID configuration answers at once, so only the document fetch hangs.
 */
function hangingDid(name: string): { did: string; readonly requested: number; readonly closed: number } {
  const did = host.did('hang', name);
  let requested = 0;
  let closed = 0;
  host.server.route(`/hang/${name}/did.json`, (_req, res) => {
    requested++;
    res.on('close', () => closed++);
  });
  host.server.route('/.well-known/did-configuration.json', json(didConfiguration(linkageCredentialDi(did, host.server.origin, host.key, `${did}#key-1`))));
  return {
    did,
    get requested() {
      return requested;
    },
    get closed() {
      return closed;
    },
  };
}

/**
 * Sends a request that will hang on `hanging`, waits until the daemon is fetching, disconnects,
 * and checks that the fetch is cut off and the capacity slot given back.
 */
async function disconnectWhileFetching(hanging: ReturnType<typeof hangingDid>, path: string, init: RequestInit = {}): Promise<void> {
  const abort = new AbortController();
  const pending = fetch(`${daemon.url}${path}`, { ...init, signal: abort.signal }).then(
    () => 'answered',
    () => 'aborted',
  );
  await until('the host to receive the document request', () => hanging.requested === 1);
  expect(expectJson(await get('/v1/status'), 200).components.resolution.inFlight).toBe(1);
  abort.abort();
  expect(await pending).toBe('aborted');
  await until('the host to see the document request closed', () => hanging.closed === 1);
  await until('no resolution in flight', async () => expectJson(await get('/v1/status'), 200).components.resolution.inFlight === 0);
}

/** Reads a whole stream; checks the status, content type and the common headers. */
async function stream(path: string): Promise<Frame[]> {
  const answer = await get(path);
  expect({ status: answer.status, contentType: answer.header('content-type') }, answer.text.slice(0, 300)).toEqual({ status: 200, contentType: EVENT_STREAM });
  expectCommonHeaders(answer);
  expect(answer.header('cache-control')).toBe('no-cache, no-transform');
  return parseSse(answer.text) as Frame[];
}

/** The stream's order: stage*, then exactly one result or error, then done {} last. */
function expectOrder(frames: Frame[], outcome: 'result' | 'error'): { stages: Frame[]; last: Frame } {
  const events = frames.map((f) => f.event);
  const stageCount = events.filter((e) => e === 'stage').length;
  expect(events).toEqual([...Array(stageCount).fill('stage'), outcome, 'done']);
  expect(frames.at(-1)!.data).toEqual({});
  return { stages: frames.slice(0, stageCount), last: frames[stageCount]! };
}

describe('GET /v1/stream/{did}', () => {
  it('did:key: stage frames in trace order, one result, then done', async () => {
    const did = `did:key:${generateTestKey().multikey}`;
    const frames = await stream(`/v1/stream/${did}?noCache=true`);
    const { stages, last } = expectOrder(frames, 'result');
    const result = last.data;
    expect(result).toMatchObject({ did, method: 'key', cached: false, verdict: { outcome: 'RESOLVED' } });
    expect(stages.map((f) => f.data)).toEqual(result.trace);
    expect(stages.map((f) => f.data.stage)).toEqual(['syntax.parse', 'document.derive', 'document.inspect', 'crypto.validate_keys', 'evidence.evaluate']);
    for (const { data } of stages) expect(Object.keys(data)).toEqual(['stage', 'label', 'status', 'startedUs', 'durationUs', 'detail']);
  });

  it('did:web: the fetch and linkage stages stream in trace order', async () => {
    const did = host.did('stream', 'web');
    host.publish(did);
    const frames = await stream(`/v1/stream/${encodeURIComponent(did)}?noCache=true`);
    const { stages, last } = expectOrder(frames, 'result');
    expect(last.data.did).toBe(did);
    expect(stages.map((f) => f.data.stage)).toEqual(last.data.trace.map((s: { stage: string }) => s.stage));
    expect(stages.map((f) => f.data.stage)).toEqual(
      expect.arrayContaining(['syntax.parse', 'dns.resolve', 'tls.handshake', 'web.fetch', 'document.parse', 'linkage.fetch', 'crypto.validate_keys']),
    );
  });

  it('a cache hit streams no stages: result (cached) and done', async () => {
    const did = `did:key:${generateTestKey().multikey}`;
    expectJson(await get(`/v1/resolve/${did}`), 200);
    const frames = await stream(`/v1/stream/${did}`);
    const { stages, last } = expectOrder(frames, 'result');
    expect(stages).toEqual([]);
    expect(last.data.cached).toBe(true);
  });

  it('an invalid DID: stage syntax.parse FAIL, then error (the problem with its trace), then done', async () => {
    const frames = await stream('/v1/stream/not-a-did');
    const { stages, last } = expectOrder(frames, 'error');
    expect(stages.map((f) => [f.data.stage, f.data.status])).toEqual([['syntax.parse', 'FAIL']]);
    expect(last.data).toMatchObject({ type: 'https://www.w3.org/ns/did#INVALID_DID', status: 400, code: 'INVALID_DID' });
    expect(last.data.trace).toEqual(stages.map((f) => f.data));
  });

  it('a did:web whose host answers 404: its fetch stages, then error NOT_FOUND', async () => {
    const frames = await stream(`/v1/stream/${host.did('stream', 'absent')}?noCache=true`);
    const { stages, last } = expectOrder(frames, 'error');
    expect(last.data).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(stages.at(-1)!.data).toMatchObject({ stage: 'web.fetch', status: 'FAIL' });
    expect(last.data.trace).toEqual(stages.map((f) => f.data));
  });

  it('options are checked before the stream commits: unknown option → 400 problem+json', async () => {
    expectProblem(await get(`/v1/stream/did:key:${generateTestKey().multikey}?versionId=1`), 400, 'INVALID_OPTIONS');
  });

  it('a client disconnecting mid-stream leaves no work running', async () => {
    const hanging = hangingDid('stream');
    const { did } = hanging;

    let received = '';
    const request = http.get(`${daemon.url}/v1/stream/${did}?noCache=true`);
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(EVENT_STREAM);
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      received += chunk;
    });
    response.on('error', () => {});
    request.on('error', () => {});

    await until('the tls.handshake stage frame', () => received.includes('"stage":"tls.handshake"'));
    await until('the host to receive the document request', () => hanging.requested === 1);
    const busy = expectJson(await get('/v1/status'), 200);
    expect(busy.components.resolution.inFlight).toBe(1);
    const stages = (parseSse(received) as Frame[]).map((f) => [f.event, f.data.stage]);
    expect(stages.slice(0, 3)).toEqual([
      ['stage', 'syntax.parse'],
      ['stage', 'dns.resolve'],
      ['stage', 'tls.handshake'],
    ]);
    expect(hanging.closed).toBe(0);

    request.destroy();

    await until('the host to see the document request closed', () => hanging.closed === 1);
    await until('no resolution in flight', async () => expectJson(await get('/v1/status'), 200).components.resolution.inFlight === 0);
    expect(hanging.requested).toBe(1);
    // The daemon is well and resolves the next request.
    expect(expectJson(await get(`/v1/resolve/did:key:${generateTestKey().multikey}`), 200).cached).toBe(false);
  });
});

describe('a client that goes away takes its work with it', () => {
  it('GET /v1/resolve', async () => {
    const hanging = hangingDid('resolve');
    await disconnectWhileFetching(hanging, `/v1/resolve/${hanging.did}?noCache=true`);
  });

  it('POST /1.0/identifiers with a body', async () => {
    const hanging = hangingDid('post');
    await disconnectWhileFetching(hanging, `/1.0/identifiers/${hanging.did}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ noCache: true }),
    });
  });
});
