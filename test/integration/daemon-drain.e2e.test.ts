/**
 * The shutdown as a load balancer sees it (docs/operations.md#rolling-restarts), on a real
 * `svc serve` process: after SIGTERM, /ready answers 503 NOT_READY (draining) at once while every
 * other request is still served through the notice period (SVC_DRAIN_NOTICE); a second SIGTERM
 * ends the notice; then new requests are refused, and a live stream still open when the drain
 * time runs out ends with an `error` frame (503 SERVICE_UNAVAILABLE, retry) and `done`, never a
 * cut connection; each phase is announced on stderr; the process exits 0.
 */
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseSse, type Daemon } from '../support/daemon.js';
import { call, expectJson, expectProblem, startDaemonFor, until } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { ED25519_DID } from '../support/dids.js';
import { json } from '../support/https-server.js';
import { didConfiguration, linkageCredentialDi } from '../support/signing.js';

let host: DidWebHost;
let daemon: Daemon | undefined;
beforeAll(async () => {
  host = await startDidWebHost();
});
afterAll(async () => {
  await daemon?.stop('SIGKILL');
  await host?.close();
});

/** The whole body of a GET, read until the server ends it (or the connection breaks: then `error`). */
function readAll(url: string): Promise<{ status: number; text: string; error?: string }> {
  return new Promise((resolve) => {
    let text = '';
    const request = http.get(url, { agent: false }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', (err) => resolve({ status: response.statusCode ?? 0, text, error: err.message }));
    });
    request.on('error', (err) => resolve({ status: 0, text, error: err.message }));
  });
}

it('SIGTERM: /ready 503 at once, still serving through the notice; a second SIGTERM ends it; an open stream ends with its final frames', async () => {
  // A did:web whose document request never gets an answer: its stream stays open until the drain ends it.
  const did = host.did('hang', 'drain');
  let requested = 0;
  host.server.route('/hang/drain/did.json', () => {
    requested++;
  });
  host.server.route('/.well-known/did-configuration.json', json(didConfiguration(linkageCredentialDi(did, host.server.origin, host.key, `${did}#key-1`))));
  // The longest notice: only the second SIGTERM ends it.
  const started = await startDaemonFor(host, { env: { SVC_DRAIN_NOTICE: '300', SVC_DRAIN_MS: '500' } });
  daemon = started;
  const stream = readAll(`${started.url}/v1/stream/${did}?noCache=true`);
  await until('the host to receive the document request', () => requested === 1);

  started.child.kill('SIGTERM');
  await until('the notice to be announced', () => started.stderr().includes('not ready (/ready answers 503)'));
  const ready = await call(`${started.url}/ready`);
  expect(expectProblem(ready, 503, 'NOT_READY').detail).toContain('draining');
  expect(ready.header('retry-after')).toMatch(/^[1-9][0-9]*$/);
  // Everything else is served as before, on a connection kept alive.
  expect(expectJson(await call(`${started.url}/health`), 200).status).toBe('ok');
  const resolved = await call(`${started.url}/v1/resolve/${ED25519_DID}`);
  expect(expectJson(resolved, 200).didDocument.id).toBe(ED25519_DID);
  expect(resolved.header('connection')).not.toBe('close');
  expect(expectJson(await call(`${started.url}/v1/status`), 200)).toMatchObject({ status: 'degraded', components: { resolution: { status: 'draining' } } });

  started.child.kill('SIGTERM');
  const ended = await stream;
  expect(ended.error).toBeUndefined();
  expect(ended.status).toBe(200);
  const frames = parseSse(ended.text);
  expect(frames.slice(-2).map((f) => f.event)).toEqual(['error', 'done']);
  expect(frames.at(-2)!.data).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: 5 });
  expect((frames.at(-2)!.data as { detail: string }).detail).toMatch(/restarting.*retry/);

  expect(await started.exited).toBe(0);
  const phases = [
    'svc: SIGTERM: not ready (/ready answers 503); still serving for the 300 s notice period',
    'svc: SIGTERM again: the notice period is cut short',
    'svc: SIGTERM: draining requests in flight (up to 500 ms); new requests are refused (503)',
    'svc: live streams still open, ended with a final error frame (SERVICE_UNAVAILABLE: retry): 1',
    'svc: stopped; database closed',
  ];
  const at = phases.map((phase) => started.stderr().indexOf(phase));
  expect(at.every((i) => i >= 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
});
