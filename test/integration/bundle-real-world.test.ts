/**
 * Evidence bundles of real-world artefacts (docs/evidence.md#evidence-bundles): every did:web
 * document, did:webvh log and DID configuration published in the wild (the shared fixtures'
 * real-world/ folder) is served where its DID says it lives by one loopback HTTPS host under the
 * test CA (every name resolves to 127.0.0.1, port 443 is dialled on the test port, as in
 * verify-from-files.test.ts), resolved with every exchange recorded, and written as a bundle. With
 * the host stopped, each bundle re-verifies offline: VERIFIED — whatever the artefact resolves to,
 * a document, warnings or a problem.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBundle, encodeBundle, type EvidenceBundle } from '../../src/core/bundle/format.js';
import { bundleKind } from '../../src/core/bundle/kinds.js';
import { recordingRuntime } from '../../src/core/bundle/record.js';
import { parseAnchors } from '../../src/core/bundle/tls.js';
import { makeBundle, verifyBundle } from '../../src/core/bundle/verify.js';
import { configurationUrl, didWebLocation } from '../../src/core/methods/web-location.js';
import { didWebvhLocation } from '../../src/core/webvh/location.js';
import { systemClock } from '../../src/runtime/node.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { fixtureSubdir } from '../support/fixtures.js';
import { raw } from '../support/https-server.js';
import { testRuntime } from '../support/runtime.js';
import { didDocument, generateTestKey } from '../support/signing.js';

const REAL_WORLD = fixtureSubdir('real-world');

interface Case {
  label: string;
  did: string;
  /** The DID's document or log, with the content type it is served with. */
  main: { body: Uint8Array; contentType: string };
  configuration?: Uint8Array;
}

function filesNamed(root: string, name: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === name) out.push(full);
    }
  };
  walk(root);
  return out;
}

const maybe = (file: string) => (existsSync(file) ? readFileSync(file) : undefined);

/** The first credential's origin in a DID configuration, if it names one. */
function originOf(configuration: { linked_dids?: unknown[] }): string | null {
  const first = configuration.linked_dids?.[0];
  try {
    const credential = typeof first === 'string' ? JSON.parse(Buffer.from(first.split('.')[1]!, 'base64url').toString('utf8')).vc : first;
    return new URL(credential.credentialSubject.origin).origin;
  } catch {
    return null;
  }
}

/** The DID a log is for (its first entry's SCID at its first entry's location); a placeholder when it names none (an early draft's log, a text file). */
function didOfLog(text: string): string {
  try {
    const first = JSON.parse(text.split('\n')[0]!);
    const id: unknown = first.state?.id;
    const scid: unknown = first.parameters?.scid;
    if (typeof id === 'string' && id.startsWith('did:webvh:') && typeof scid === 'string') {
      const did = `did:webvh:${scid}:${id.split(':').slice(3).join(':')}`;
      didWebvhLocation(did.slice('did:webvh:'.length));
      return did;
    }
  } catch {
    // not a did:webvh log: the placeholder below
  }
  return `did:webvh:Qm${'a'.repeat(44)}:example.com`;
}

function collect(root: string): Case[] {
  const cases: Case[] = [];
  const label = (file: string) => path.relative(root, file);
  for (const file of filesNamed(path.join(root, 'didweb'), 'did.json')) {
    const body = readFileSync(file);
    const id: unknown = JSON.parse(body.toString('utf8')).id;
    cases.push({
      label: label(file),
      did: typeof id === 'string' && id.startsWith('did:web:') ? id : 'did:web:mismatch.example',
      main: { body, contentType: 'application/did+json' },
      configuration: maybe(path.join(path.dirname(file), 'did-configuration.json')),
    });
  }
  // A DID configuration published without its DID's document: a test did:web at its origin.
  const key = generateTestKey('EdDSA');
  for (const file of filesNamed(path.join(root, 'didweb'), 'did-configuration.json')) {
    if (existsSync(path.join(path.dirname(file), 'did.json'))) continue;
    const configuration = readFileSync(file);
    const origin = originOf(JSON.parse(configuration.toString('utf8'))) ?? 'https://identity.foundation';
    const did = `did:web:${new URL(origin).hostname}`;
    cases.push({
      label: label(file),
      did,
      main: { body: Buffer.from(JSON.stringify(didDocument(did, key))), contentType: 'application/did+json' },
      configuration,
    });
  }
  for (const file of filesNamed(path.join(root, 'webvh'), 'did.jsonl')) {
    const body = readFileSync(file);
    cases.push({
      label: label(file),
      did: didOfLog(body.toString('utf8')),
      main: { body, contentType: 'text/jsonl' },
      configuration: maybe(path.join(path.dirname(file), 'did-configuration.json')),
    });
  }
  return cases;
}

/** Where a case's DID says its files live. */
function urlsOf(did: string): { main: string; witness: string | null; configuration: string } {
  const id = did.split(':').slice(2).join(':');
  if (did.startsWith('did:web:')) {
    const location = didWebLocation(id);
    return { main: location.documentUrl, witness: null, configuration: location.configurationUrl };
  }
  const location = didWebvhLocation(id);
  return { main: location.logUrl, witness: location.witnessUrl, configuration: configurationUrl(location.origin) };
}

const CASES = REAL_WORLD ? collect(REAL_WORLD) : [];
const HOSTS = [...new Set(CASES.map((c) => new URL(urlsOf(c.did).main).hostname))];
let host: DidWebHost;
const bundles = new Map<string, EvidenceBundle>();

beforeAll(async () => {
  if (CASES.length === 0) return;
  host = await startDidWebHost({ dnsNames: HOSTS });
  const runtime = host.runtime({
    lookup: tableLookup(Object.fromEntries(HOSTS.map((h) => [h, ['127.0.0.1']]))),
    connectTo: (_host, port) => (port === 443 ? host.server.port : undefined),
  });
  const notFound = raw('not found', { status: 404 });
  for (const c of CASES) {
    const urls = urlsOf(c.did);
    host.server.route(new URL(urls.main).pathname, raw(c.main.body, { contentType: c.main.contentType }));
    if (urls.witness) host.server.route(new URL(urls.witness).pathname, notFound);
    host.server.route(new URL(urls.configuration).pathname, c.configuration ? raw(c.configuration, { contentType: 'application/json' }) : notFound);
    // The work `svc resolve --bundle` does: the resolution on a recording Runtime, its result (or problem) kept.
    const command = { kind: 'resolve' as const, subject: c.did, options: {} };
    const recording = recordingRuntime(runtime);
    const result = await bundleKind('resolve')!.rerun(recording.runtime, command, new Map());
    bundles.set(c.label, decodeBundle(encodeBundle(makeBundle({ command, observedAt: recording.observedAt, recorder: recording.recorder, result }))));
  }
  await host.close();
}, 60_000);

afterAll(async () => {
  await host?.close();
});

describe.skipIf(REAL_WORLD === null)('bundles of the real-world did:web, did:webvh and DID-configuration artefacts', () => {
  it('has the artefacts this suite was written for', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(33);
    expect(CASES.filter((c) => c.did.startsWith('did:webvh:')).length).toBeGreaterThanOrEqual(5);
    expect(CASES.filter((c) => c.configuration !== undefined).length).toBeGreaterThanOrEqual(9);
  });

  for (const c of CASES) {
    it(`${c.label}: VERIFIED offline`, async () => {
      const bundle = bundles.get(c.label)!;
      expect(bundle.resources.length).toBeGreaterThan(0);
      const verified = await verifyBundle(bundle, { runtime: testRuntime(systemClock), trustAnchors: parseAnchors([host.ca.certPem]) });
      expect(verified.summary).toMatch(/^every recorded resource is intact/);
      expect(verified.outcome).toBe('VERIFIED');
    });
  }

  it('the tally: results and problems alike', () => {
    const problems = [...bundles.values()].filter((b) => 'problem' in b.result).length;
    console.info(`[bundles of real-world artefacts] ${bundles.size} bundles verified offline: ${bundles.size - problems} results, ${problems} problems`);
    expect(bundles.size).toBe(CASES.length);
  });
});
