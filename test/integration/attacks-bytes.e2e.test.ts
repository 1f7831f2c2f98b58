/**
 * Memory and CPU a hostile host can buy, bounded in bytes and work.
 *
 *   - a host serving many big documents: the in-memory resolution cache stays within its byte
 *     budget (SVC_CACHE_MAX_BYTES, default 64 MiB), least recently used entries evicted, and
 *     /v1/status reports entries, bytes and both bounds;
 *   - a did:webvh log over its entry bound (SVC_WEBVH_MAX_ENTRIES, default 1,000): a clear
 *     PAYLOAD_TOO_LARGE naming the bound and the setting, before any entry is verified; the byte
 *     bound (SVC_WEBVH_MAX_BYTES) named the same way; both settings honoured by the CLI;
 *   - every did:webvh log of the real-world fixtures resolves exactly as without the bounds.
 *
 * Real parts: a loopback HTTPS host with the test CA, one daemon for the whole file (started in
 * this process from its command line, over real HTTP), the built CLI; in-process resolutions use the production Runtime builder (createRuntime) with the
 * host's trust anchor and DNS table.
 */
import { readdirSync, readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifiedPrefixUsage } from '../../src/core/methods/webvh.js';
import { DEFAULT_CACHE_MAX_BYTES } from '../../src/core/resolve/cache.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import type { Runtime } from '../../src/core/runtime.js';
import { countLogEntries, DEFAULT_WEBVH_MAX_BYTES, DEFAULT_WEBVH_MAX_ENTRIES } from '../../src/core/webvh/limits.js';
import { createRuntime } from '../../src/runtime/node.js';
import { cleanEnv, svc } from '../support/cli.js';
import { call, expectJson, expectProblem, startInProcessDaemonFor } from '../support/daemon-client.js';
import type { DaemonHandle } from '../support/daemon.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { describeWithFixtures } from '../support/fixtures.js';
import { raw } from '../support/https-server.js';
import { configError, problemOf } from '../support/problems.js';
import { didDocument } from '../support/signing.js';
import { createWebvhLog, type WebvhTestLog } from '../support/webvh-log.js';

const DAEMON_CACHE_BYTES = 8 * 1024 * 1024;

let host: DidWebHost;
let daemon: DaemonHandle;
let caDir: string;
let caFile: string;

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: ['swcurran.github.io', 'ivir3zam.github.io', 'sandbox.ayra.network', 'example.com'] });
  // A smaller cache budget than the default keeps the flood short; the defaults are the in-process tests'.
  daemon = await startInProcessDaemonFor(host, { env: { SVC_CACHE_MAX_BYTES: String(DAEMON_CACHE_BYTES) } });
  caDir = mkdtempSync(path.join(tmpdir(), 'svc-bytes-ca-'));
  caFile = path.join(caDir, 'ca.pem');
  writeFileSync(caFile, host.ca.certPem);
}, 30_000);
afterAll(async () => {
  await daemon?.stop();
  await host?.close();
  rmSync(caDir, { recursive: true, force: true });
});

/** The production Runtime builder from `env`, trusting the test CA, loopback allowed, test DNS. */
function runtimeFrom(env: Record<string, string> = {}): Runtime {
  return createRuntime(env, {
    egressAllow: ['127.0.0.0/8'],
    net: {
      trustAnchors: [host.ca.certPem],
      lookup: tableLookup({
        'swcurran.github.io': ['127.0.0.1'],
        'ivir3zam.github.io': ['127.0.0.1'],
        'sandbox.ayra.network': ['127.0.0.1'],
        'example.com': ['127.0.0.1'],
      }),
      connectTo: (_host, port) => (port === 443 ? host.server.port : undefined),
    },
  });
}

/** A DID document of `arrays` one-element arrays: 100,000 are ~400 KiB to send and ~20 MiB of heap once parsed. */
function heavyDocument(did: string, arrays = 100_000): Record<string, unknown> {
  return { ...didDocument(did, host.key), extra: Array.from({ length: arrays }, () => [1]) };
}

/** A did:webvh log for the test host itself (`localhost:<port>`), published at /.well-known/did.jsonl. */
function localLog(): WebvhTestLog {
  return createWebvhLog({ key: host.key, domain: `localhost%3A${host.server.port}`, time: '2020-01-01T00:00:00Z' });
}

function publishLog(text: string | Buffer): void {
  host.server.route('/.well-known/did.jsonl', raw(text, { contentType: 'text/jsonl' }));
  host.server.route('/.well-known/did-witness.json', raw('not found', { status: 404 }));
}

/** A log `entries` long (all valid, signed; one day apart from 2020). */
function longLog(entries: number): WebvhTestLog {
  const log = localLog();
  while (log.entries.length < entries) log.append({});
  return log;
}

describe('a host serving many big documents', () => {
  it('keeps the in-memory cache within its byte budget, evicting least recently used entries', async () => {
    const runtime = runtimeFrom();
    const cache = runtime.cache;
    const dids = Array.from({ length: 4 }, (_, i) => host.did('heavy', String(i)));
    for (const did of dids) host.publish(did, heavyDocument(did));
    for (const did of dids) {
      const result = await resolve(did, runtime);
      expect(result.verdict.outcome).not.toBe('NOT_RESOLVED');
      const usage = cache.usage!();
      expect(usage.maxBytes).toBe(DEFAULT_CACHE_MAX_BYTES);
      expect(usage.bytes).toBeLessThanOrEqual(DEFAULT_CACHE_MAX_BYTES);
    }
    const usage = cache.usage!();
    // Each entry holds far more than its 400 KiB of text: fewer than four fit in 64 MiB.
    expect(usage.entries).toBeGreaterThan(0);
    expect(usage.entries).toBeLessThan(dids.length);
    // The newest is kept, the oldest went first.
    expect(cache.get(dids[dids.length - 1]!)).toBeDefined();
    expect(cache.get(dids[0]!)).toBeUndefined();
  }, 60_000);

  it('does not cache a resolution larger than the whole budget (it is still answered)', async () => {
    const runtime = runtimeFrom({ SVC_CACHE_MAX_BYTES: String(4 * 1024 * 1024) });
    const did = host.did('heavy', 'alone');
    host.publish(did, heavyDocument(did));
    const small = host.did('small');
    host.publish(small);
    await resolve(small, runtime);
    expect(runtime.cache.size).toBe(1);
    const result: EnrichedResolution = await resolve(did, runtime);
    expect(result.didDocument['id']).toBe(did);
    // Kept, it would have evicted everything else: it is not kept, and the small entry stays.
    expect(runtime.cache.get(did)).toBeUndefined();
    expect(runtime.cache.get(small)).toBeDefined();
    expect(runtime.cache.usage!()).toMatchObject({ entries: 1, maxBytes: 4 * 1024 * 1024 });
  }, 60_000);

  it('the daemon reports entries, bytes and both bounds in /v1/status, its bytes under the bound after a flood', async () => {
    const dids = Array.from({ length: 4 }, (_, i) => host.did('flood', String(i)));
    for (const did of dids) host.publish(did, heavyDocument(did, 15_000));
    for (const did of dids) expectJson(await call(`${daemon.url}/v1/resolve/${encodeURIComponent(did)}`), 200);
    const status = expectJson(await call(`${daemon.url}/v1/status`), 200);
    const cache = status.components.cache;
    expect(cache).toMatchObject({ status: 'ok', maxEntries: 1000, maxBytes: DAEMON_CACHE_BYTES });
    expect(cache.bytes).toBeGreaterThan(0);
    expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    expect(cache.entries).toBeLessThan(dids.length);
  }, 60_000);
});

describe('a did:webvh log above its bounds', () => {
  it(`is PAYLOAD_TOO_LARGE past ${DEFAULT_WEBVH_MAX_ENTRIES} entries, naming the bound and the setting (the daemon, defaults)`, async () => {
    const log = longLog(DEFAULT_WEBVH_MAX_ENTRIES + 1);
    publishLog(log.text());
    const problem = expectProblem(await call(`${daemon.url}/v1/resolve/${encodeURIComponent(log.did)}?noCache=true`), 413, 'PAYLOAD_TOO_LARGE');
    expect(problem.detail).toContain(`more than ${DEFAULT_WEBVH_MAX_ENTRIES} entries`);
    expect(problem.detail).toContain('SVC_WEBVH_MAX_ENTRIES');
    // The refusal is the verify stage's, before any entry was verified.
    const failed = problem.trace.find((s: { status: string }) => s.status === 'FAIL');
    expect(failed.stage).toBe('webvh.verify_log');

    // One entry fewer resolves (the bound is inclusive).
    log.entries.pop();
    publishLog(log.text());
    const result = expectJson(await call(`${daemon.url}/v1/resolve/${encodeURIComponent(log.did)}?noCache=true`), 200);
    expect(result.evidence.history.verifiedEntries).toBe(DEFAULT_WEBVH_MAX_ENTRIES);
  }, 60_000);

  it('is refused before any entry is read: a long log whose first entry is not even JSON is PAYLOAD_TOO_LARGE, not INVALID_DID_DOCUMENT', async () => {
    const log = localLog();
    publishLog(`not json\n${'{}\n'.repeat(DEFAULT_WEBVH_MAX_ENTRIES)}`);
    const problem = await problemOf(resolve(log.did, runtimeFrom(), { noCache: true }));
    expect(problem.code).toBe('PAYLOAD_TOO_LARGE');
    expect(problem.detail).toContain('SVC_WEBVH_MAX_ENTRIES');
    // The same log within the bound is read, and its first entry fails.
    publishLog(`not json\n${'{}\n'.repeat(5)}`);
    expect((await problemOf(resolve(log.did, runtimeFrom(), { noCache: true }))).code).toBe('INVALID_DID_DOCUMENT');
  });

  it('honours SVC_WEBVH_MAX_ENTRIES and SVC_WEBVH_MAX_BYTES from the environment, each named when exceeded', async () => {
    const log = longLog(3);
    publishLog(log.text());
    expect((await resolve(log.did, runtimeFrom(), { noCache: true })).evidence.history?.verifiedEntries).toBe(3);

    const entries = await problemOf(resolve(log.did, runtimeFrom({ SVC_WEBVH_MAX_ENTRIES: '2' }), { noCache: true }));
    expect(entries.code).toBe('PAYLOAD_TOO_LARGE');
    expect(entries.detail).toContain('more than 2 entries');
    expect(entries.detail).toContain('SVC_WEBVH_MAX_ENTRIES');

    const bytes = await problemOf(resolve(log.did, runtimeFrom({ SVC_WEBVH_MAX_BYTES: '1024' }), { noCache: true }));
    expect(bytes.code).toBe('PAYLOAD_TOO_LARGE');
    expect(bytes.detail).toContain('1024 bytes (SVC_WEBVH_MAX_BYTES)');
  });

  it('the verified prefixes kept to resume grown logs stay within a quarter of the cache budget', async () => {
    const log = longLog(200);
    publishLog(log.text());
    // Default budget: the prefix is kept, and a second resolution resumes from it.
    const roomy = runtimeFrom();
    await resolve(log.did, roomy);
    expect(verifiedPrefixUsage(roomy)).toMatchObject({ entries: 1, maxBytes: DEFAULT_CACHE_MAX_BYTES / 4 });
    expect(verifiedPrefixUsage(roomy).bytes).toBeGreaterThan(256 * 1024);
    roomy.cache.clear();
    expect((await resolve(log.did, roomy)).evidence.history?.reusedEntries).toBe(200);

    // A 1 MiB cache keeps at most 256 KiB of prefixes: this one is not kept, and nothing is resumed.
    const tight = runtimeFrom({ SVC_CACHE_MAX_BYTES: String(1024 * 1024) });
    await resolve(log.did, tight);
    expect(verifiedPrefixUsage(tight)).toEqual({ entries: 0, bytes: 0, maxBytes: 256 * 1024 });
    tight.cache.clear();
    expect((await resolve(log.did, tight)).evidence.history?.reusedEntries).toBe(0);
  }, 60_000);

  it('the CLI honours the same settings', async () => {
    const log = longLog(3);
    publishLog(log.text());
    const env = cleanEnv({ NODE_EXTRA_CA_CERTS: caFile, SVC_EGRESS_ALLOW: '127.0.0.0/8' });
    const ok = await svc(['resolve', log.did, '--json'], env);
    expect(ok.exitCode).toBe(0);
    const refused = await svc(['resolve', log.did, '--json'], { ...env, SVC_WEBVH_MAX_ENTRIES: '2' });
    expect(refused.exitCode).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toContain('SVC_WEBVH_MAX_ENTRIES');
    expect(`${refused.stdout}${refused.stderr}`).toContain('PAYLOAD_TOO_LARGE');
  }, 60_000);

  it('refuses bad values of the settings at start (ConfigError: the CLI exits 2)', async () => {
    for (const [name, value] of [
      ['SVC_WEBVH_MAX_ENTRIES', '0'],
      ['SVC_WEBVH_MAX_ENTRIES', 'many'],
      ['SVC_WEBVH_MAX_BYTES', '-1'],
      ['SVC_WEBVH_MAX_BYTES', '4MiB'],
      ['SVC_CACHE_MAX_BYTES', '1e9'],
    ] as const) {
      expect(configError(() => createRuntime({ [name]: value }))).toContain(name);
    }
    const run = await svc(['resolve', 'did:key:z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw', '--json'], cleanEnv({ SVC_WEBVH_MAX_ENTRIES: 'lots' }));
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('SVC_WEBVH_MAX_ENTRIES');
  });
});

/** Every did.jsonl under `dir`, recursively. */
function logsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return logsUnder(file);
    return name === 'did.jsonl' ? [file] : [];
  });
}

/** The DID a real log is for (its first entry's state.id, with the SCID of its parameters), or a did:webvh on example.com for logs that are not v1.0 entries. */
function didOfLog(text: string): { did: string; host: string; urlPath: string } {
  try {
    const first = JSON.parse(text.split('\n')[0]!);
    const segments: string[] = first.state.id.split(':').slice(3);
    const hostName = decodeURIComponent(segments[0]!);
    const urlPath = segments.length > 1 ? `/${segments.slice(1).join('/')}/did.jsonl` : '/.well-known/did.jsonl';
    return { did: `did:webvh:${first.parameters.scid}:${segments.join(':')}`, host: hostName, urlPath };
  } catch {
    return { did: 'did:webvh:QmYJbxLskQtNkRr94iBx5reuqZsKu1aQUr9EbXJ2E6hmEY:example.com', host: 'example.com', urlPath: '/.well-known/did.jsonl' };
  }
}

/** The outcome of a resolution, comparable across runtimes: the verdict and version, or the problem code. */
async function outcome(did: string, runtime: Runtime): Promise<string> {
  try {
    const result = await resolve(did, runtime, { noCache: true });
    return `${result.verdict.outcome} v${String(result.didDocumentMetadata['versionNumber'])}`;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

describeWithFixtures('real-world did:webvh logs under the default bounds', 'real-world/webvh', (dir) => {
  const logs = logsUnder(dir);

  it('every log is within both defaults and resolves exactly as it does with the bounds lifted', async () => {
    expect(logs.length).toBeGreaterThan(0);
    const bounded = runtimeFrom();
    const unbounded = runtimeFrom({ SVC_WEBVH_MAX_ENTRIES: '1000000', SVC_WEBVH_MAX_BYTES: String(1024 * 1024 * 1024) });
    const outcomes: string[] = [];
    for (const file of logs) {
      const bytes = readFileSync(file);
      expect(bytes.length).toBeLessThanOrEqual(DEFAULT_WEBVH_MAX_BYTES);
      expect(countLogEntries(bytes, DEFAULT_WEBVH_MAX_ENTRIES)).toBeLessThanOrEqual(DEFAULT_WEBVH_MAX_ENTRIES);
      const { did, urlPath } = didOfLog(bytes.toString('utf8'));
      host.server.route(urlPath, raw(bytes, { contentType: 'text/jsonl' }));
      const withBounds = await outcome(did, bounded);
      expect(withBounds, path.relative(dir, file)).not.toBe('PAYLOAD_TOO_LARGE');
      expect(withBounds, path.relative(dir, file)).toBe(await outcome(did, unbounded));
      outcomes.push(withBounds);
    }
    // The v1.0 logs published by their controllers do resolve (not only fail alike).
    expect(outcomes.some((o) => o.startsWith('RESOLVED'))).toBe(true);
  }, 60_000);
});
