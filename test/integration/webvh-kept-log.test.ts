/**
 * Kept did:webvh logs end to end over a real loopback HTTPS host, on both engines: a 5-entry
 * log is verified and kept; the host replaces entry 3 (re-signed, valid on its own) and the
 * history dimension FAILS naming version 3 and both entry hashes, while the kept log still reads
 * back as first published; a log that merely grows is no rewrite; a removed or reordered entry
 * is; a reformatted line is not. Hostile: a kept log at its bound, a rewritten log of 10,000
 * entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import type { Runtime } from '../../src/core/runtime.js';
import { withSuppliedResources } from '../../src/core/supplied/resources.js';
import { KEPT_LOG_MAX_ENTRIES, keptLogText } from '../../src/core/webvh/kept-log.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { postgresDatabase, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { injectedApp } from '../support/injected.js';
import { describePostgres } from '../support/postgres.js';
import { generateTestKey, type TestKey } from '../support/signing.js';
import { createWebvhLog, type WebvhTestLog } from '../support/webvh-log.js';

let host: DidWebHost;

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: ['example.com'] });
});
afterAll(async () => {
  await host.close();
});

function publish(text: string): void {
  host.server.route('/.well-known/did.jsonl', raw(text, { contentType: 'text/jsonl' }));
  host.server.route('/.well-known/did-witness.json', raw('not found', { status: 404 }));
}

function runtimeWith(store: Database | undefined, maxEntries?: number): Runtime {
  const runtime = host.runtime({
    lookup: tableLookup({ 'example.com': ['127.0.0.1'] }),
    connectTo: (_h, port) => (port === 443 ? host.server.port : undefined),
  });
  return {
    ...runtime,
    ...(store ? { store } : {}),
    config: { ...runtime.config, ...(maxEntries !== undefined ? { webvhMaxEntries: maxEntries, webvhMaxBytes: 64 * 1024 * 1024 } : {}) },
  };
}

function dimension(result: EnrichedResolution, id: string) {
  return result.dimensions.find((d) => d.id === id)!;
}

/** A log of `n` entries by `key`; entry `variant` (when given) carries another document. */
function logOf(key: TestKey, n: number, variant?: number): WebvhTestLog {
  const log = createWebvhLog({ key });
  for (let i = 2; i <= n; i++) {
    const aka = i === variant ? `https://example.com/rewritten-${i}` : `https://example.com/v${i}`;
    log.append({ state: (d) => ({ ...d, alsoKnownAs: [aka] }) });
  }
  return log;
}

function engineSuite(open: () => Promise<TestDatabase>): void {
  let database: TestDatabase;
  let store: Database;

  beforeAll(async () => {
    database = await open();
    store = await openDatabase({ target: database.target });
  });
  afterAll(async () => {
    await store?.close();
    await database?.done();
  });

  it('a rewritten entry 3 FAILS history, naming version 3 and both entry hashes; the kept log stays the original', async () => {
    const key = generateTestKey('EdDSA');
    const original = logOf(key, 5);
    publish(original.text());
    const first = await resolve(original.did, runtimeWith(store), { noCache: true });
    expect(first.evidence.history?.keptLog).toMatchObject({ status: 'FIRST_KEPT', keptEntries: 0, appendedEntries: 5, rewrite: null });
    expect(dimension(first, 'history').state).toBe('ESTABLISHED');
    expect(first.trace.find((s) => s.stage === 'webvh.compare_kept_log')?.status).toBe('PASS');

    // Unchanged: nothing stored again.
    const again = await resolve(original.did, runtimeWith(store), { noCache: true });
    expect(again.evidence.history?.keptLog).toMatchObject({ status: 'UNCHANGED', keptEntries: 5, appendedEntries: 0 });

    const rewritten = logOf(key, 5, 3);
    expect(rewritten.did).toBe(original.did);
    expect(rewritten.entries[1]).toEqual(original.entries[1]);
    publish(rewritten.text());
    const result = await resolve(original.did, runtimeWith(store), { noCache: true });
    // Valid on its own: the chain and the proofs verify.
    expect(result.evidence.history?.failure).toBeNull();
    expect(dimension(result, 'integrity').state).toBe('SELF_CERTIFYING');
    const kept = result.evidence.history!.keptLog!;
    expect(kept.status).toBe('REWRITTEN');
    expect(kept.rewrite).toMatchObject({
      versionNumber: 3,
      kind: 'CHANGED',
      kept: { versionId: original.entries[2]!['versionId'], versionTime: original.entries[2]!['versionTime'] },
      served: { versionId: rewritten.entries[2]!['versionId'], versionTime: rewritten.entries[2]!['versionTime'] },
    });
    expect(kept.rewrite!.kept.entryHash).not.toBe(kept.rewrite!.served!.entryHash);
    const history = dimension(result, 'history');
    expect(history.state).toBe('FAILED');
    expect(history.statement).toContain('rewritten at version 3');
    expect(history.statement).toContain(original.entries[2]!['versionId']);
    expect(history.statement).toContain(rewritten.entries[2]!['versionId']);
    expect(history.statement).toContain(kept.rewrite!.kept.entryHash.slice(0, 16));
    expect(history.statement).toContain(kept.rewrite!.served!.entryHash.slice(0, 16));
    expect(result.verdict.outcome).toBe('RESOLVED_WITH_WARNINGS');
    expect(result.verdict.headline).toContain('the log was rewritten at version 3');
    expect(result.trace.find((s) => s.stage === 'webvh.compare_kept_log')?.status).toBe('FAIL');

    // The kept log is the original, as published, and the rewrite stays recorded.
    const text = await store.keptLogs.text(original.did);
    expect(text!.lines.join('\n') + '\n').toBe(original.text());
    expect((await store.keptLogs.get(original.did))!.rewrite).toMatchObject({ versionNumber: 3 });

    // The daemon serves the kept log, watcher-style, and it verifies again from the file alone.
    const daemon = await injectedApp(database.target);
    try {
      const served = await daemon.anonymous('GET', `/v1/kept-log/${encodeURIComponent(original.did)}`);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toMatch(/^application\/jsonl/);
      expect(served.body).toBe(original.text());
      const none = await daemon.anonymous('GET', `/v1/kept-log/${encodeURIComponent(logOf(generateTestKey('EdDSA'), 1).did)}`);
      expect(none.statusCode).toBe(404);
      expect(none.json()).toMatchObject({ code: 'NOT_FOUND' });
      const web = await daemon.anonymous('GET', '/v1/kept-log/did:web:example.com');
      expect(web.statusCode).toBe(400);
    } finally {
      await daemon.close();
    }
    const supplied = withSuppliedResources(runtimeWith(undefined), [
      {
        url: 'https://example.com/.well-known/did.jsonl',
        body: new TextEncoder().encode(await keptLogText(original.did, { store })),
        mediaType: 'text/jsonl',
        source: 'kept.jsonl',
        purpose: 'DID log',
      },
    ]);
    const reverified = await resolve(original.did, supplied, { noCache: true });
    expect(dimension(reverified, 'history').state).toBe('ESTABLISHED');
    expect(reverified.didDocumentMetadata['versionId']).toBe(original.entries[4]!['versionId']);

    // Seen again: still FAILED, first seen when it was.
    const later = await resolve(original.did, runtimeWith(store), { noCache: true });
    expect(later.evidence.history!.keptLog!.rewrite!.detectedAt).toBe(kept.rewrite!.detectedAt);
    expect(dimension(later, 'history').state).toBe('FAILED');
    // A rewrite is never served from the cache.
    const cachedRuntime = runtimeWith(store);
    await resolve(original.did, cachedRuntime);
    expect((await resolve(original.did, cachedRuntime)).cached).toBe(false);
  });

  it('the repository: entries stored once per position, never overwritten; a new DID refused at the bound on logs', async () => {
    const entry = (n: number, line: string) => ({
      versionNumber: n,
      versionId: `${n}-Qm${n}`,
      versionTime: '2024-01-01T00:00:00Z',
      entryHash: 'a'.repeat(64),
      lineSha256: 'b'.repeat(64),
      line,
    });
    const at = '2025-01-01T00:00:00Z';
    const did = 'did:webvh:QmRepositoryTest:example.com';
    const maxLogs = 1_000_000;
    expect(
      await store.keptLogs.append({ did, scid: 'QmRepositoryTest', after: 0, entries: [entry(1, '{"a":1}'), entry(2, '{"a":2}')], witness: null, at, maxLogs }),
    ).toBe(2);
    // A stale caller (it saw no entries kept) writes nothing.
    expect(await store.keptLogs.append({ did, scid: 'QmRepositoryTest', after: 0, entries: [entry(1, '{"x":1}')], witness: null, at, maxLogs })).toBe(0);
    expect(await store.keptLogs.append({ did, scid: 'QmRepositoryTest', after: 2, entries: [entry(3, '{"a":3}')], witness: '[]', at, maxLogs })).toBe(1);
    expect(await store.keptLogs.text(did)).toEqual({ lines: ['{"a":1}', '{"a":2}', '{"a":3}'], witness: '[]' });
    expect(await store.keptLogs.get(did)).toMatchObject({ bytes: 21, entries: [{ versionNumber: 1 }, { versionNumber: 2 }, { versionNumber: 3 }] });
    // At the bound on logs: a DID not kept yet is refused, a kept one still grows.
    const count = Number((await database.sql('SELECT count(*) AS n FROM webvh_kept_logs'))[0]!['n']);
    expect(
      await store.keptLogs.append({
        did: 'did:webvh:QmOther:example.com',
        scid: 'QmOther',
        after: 0,
        entries: [entry(1, '{}')],
        witness: null,
        at,
        maxLogs: count,
      }),
    ).toBeNull();
    expect(await store.keptLogs.get('did:webvh:QmOther:example.com')).toBeUndefined();
    expect(await store.keptLogs.append({ did, scid: 'QmRepositoryTest', after: 3, entries: [entry(4, '{"a":4}')], witness: null, at, maxLogs: count })).toBe(1);
  });

  it('the daemon keeps the logs it resolves and serves them back', async () => {
    const log = logOf(generateTestKey('EdDSA'), 3);
    publish(log.text());
    const daemon = await injectedApp(database.target, { net: runtimeWith(undefined).net });
    try {
      const resolved = await daemon.anonymous('GET', `/v1/resolve/${encodeURIComponent(log.did)}?noCache=true`);
      expect(resolved.statusCode).toBe(200);
      expect(resolved.json().evidence.history.keptLog).toMatchObject({ status: 'FIRST_KEPT', appendedEntries: 3 });
      const kept = await daemon.anonymous('GET', `/v1/kept-log/${encodeURIComponent(log.did)}`);
      expect(kept.body).toBe(log.text());
    } finally {
      await daemon.close();
    }
  });

  it('a log that grows by entry 6 is no rewrite: the new entry is kept', async () => {
    const key = generateTestKey('EdDSA');
    const log = logOf(key, 5);
    publish(log.text());
    await resolve(log.did, runtimeWith(store), { noCache: true });
    log.append({ state: (d) => ({ ...d, alsoKnownAs: ['https://example.com/v6'] }) });
    publish(log.text());
    const result = await resolve(log.did, runtimeWith(store), { noCache: true });
    expect(result.evidence.history?.keptLog).toMatchObject({ status: 'EXTENDED', keptEntries: 5, appendedEntries: 1, rewrite: null });
    expect(dimension(result, 'history').state).toBe('ESTABLISHED');
    expect((await store.keptLogs.text(log.did))!.lines).toHaveLength(6);
  });

  it('a removed entry and reordered entries are rewrites; a reformatted line is not', async () => {
    const key = generateTestKey('EdDSA');
    const log = logOf(key, 5);
    publish(log.text());
    await resolve(log.did, runtimeWith(store), { noCache: true });

    // Reformatted (whitespace): the same entries.
    publish(log.entries.map((e) => JSON.stringify(e, null, 1).replaceAll('\n', '')).join('\n') + '\n');
    const reformatted = await resolve(log.did, runtimeWith(store), { noCache: true });
    expect(reformatted.evidence.history?.keptLog?.status).toBe('UNCHANGED');

    // The last entry withdrawn.
    publish(
      log.entries
        .slice(0, 4)
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
    );
    const removed = await resolve(log.did, runtimeWith(store), { noCache: true });
    expect(removed.evidence.history?.keptLog?.rewrite).toMatchObject({ versionNumber: 5, kind: 'REMOVED', served: null });
    expect(dimension(removed, 'history').statement).toContain('a log of 4 entries, without it');

    // Entries 2 and 3 swapped: the log no longer verifies past entry 1, and diverges at 2.
    const swapped = [log.entries[0], log.entries[2], log.entries[1], log.entries[3], log.entries[4]];
    publish(swapped.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const reordered = await resolve(log.did, runtimeWith(store), { noCache: true, versionNumber: 1 });
    expect(reordered.evidence.history?.keptLog?.rewrite).toMatchObject({ versionNumber: 2, kind: 'CHANGED' });
    expect(reordered.evidence.history!.keptLog!.rewrite!.served!.versionId).toBe(log.entries[2]!['versionId']);
  });
}

describe('kept did:webvh logs on SQLite', () => engineSuite(() => sqliteDatabase('svc-kept-log')));
describePostgres('kept did:webvh logs on PostgreSQL', () => engineSuite(postgresDatabase));

describe('kept did:webvh logs: without a store, and hostile logs', () => {
  it('without a store nothing is compared, and the limitations say so', async () => {
    const log = logOf(generateTestKey('EdDSA'), 2);
    publish(log.text());
    const result = await resolve(log.did, runtimeWith(undefined), { noCache: true });
    expect(result.evidence.history?.keptLog).toBeUndefined();
    expect(result.trace.some((s) => s.stage === 'webvh.compare_kept_log')).toBe(false);
    expect(result.limitations.join(' ')).toContain('No store: the log was not compared');
  });

  it('a log of 10,000 entries: 1,000 kept (the bound), a rewrite within them named, one past them unseen and said so', async () => {
    const database = await sqliteDatabase('svc-kept-hostile');
    const store = await openDatabase({ target: database.target });
    try {
      const key = generateTestKey('EdDSA');
      const log = createWebvhLog({ key });
      for (let i = 2; i <= 10_000; i++) log.append({ time: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString().replace('.000Z', 'Z') });
      const text = log.text();
      publish(text);
      const first = await resolve(log.did, runtimeWith(store, 10_000), { noCache: true });
      expect(first.evidence.history?.keptLog).toMatchObject({ status: 'FIRST_KEPT', appendedEntries: KEPT_LOG_MAX_ENTRIES, atBound: true });
      expect(first.limitations.join(' ')).toContain('The kept log is at its bound');
      const kept = await store.keptLogs.get(log.did);
      expect(kept!.entries).toHaveLength(KEPT_LOG_MAX_ENTRIES);

      // At the bound: nothing more is kept.
      const atBound = await resolve(log.did, runtimeWith(store, 10_000), { noCache: true });
      expect(atBound.evidence.history?.keptLog).toMatchObject({ status: 'UNCHANGED', appendedEntries: 0, atBound: true });

      const lines = text.split('\n');
      // Entry 9,000 changed: past the bound, not compared.
      const past = [...lines];
      past[8999] = past[8999]!.replace('"versionTime":"', '"versionTime": "');
      past[8999] = past[8999]!.replace('"proofValue":"z', '"proofValue":"z1');
      publish(past.join('\n'));
      const unseen = await resolve(log.did, runtimeWith(store, 10_000), { noCache: true, versionNumber: 1 });
      expect(unseen.evidence.history?.keptLog?.status).toBe('UNCHANGED');

      // Entry 700 changed in a log of 10,000: named precisely.
      const within = [...lines];
      within[699] = within[699]!.replace('"proofValue":"z', '"proofValue":"z1');
      publish(within.join('\n'));
      const rewritten = await resolve(log.did, runtimeWith(store, 10_000), { noCache: true, versionNumber: 1 });
      expect(rewritten.evidence.history?.keptLog?.rewrite).toMatchObject({
        versionNumber: 700,
        kind: 'CHANGED',
        kept: { versionId: log.entries[699]!['versionId'] },
      });
      expect(dimension(rewritten, 'history').state).toBe('FAILED');
      expect((await store.keptLogs.get(log.did))!.entries).toHaveLength(KEPT_LOG_MAX_ENTRIES);
    } finally {
      await store.close();
      await database.done();
    }
  }, 120_000);
});
