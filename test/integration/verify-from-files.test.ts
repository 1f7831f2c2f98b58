/**
 * Verify from files (docs/credentials.md#verify-from-files): every did:web, did:webvh and
 * DID-configuration vector of the shared fixtures — the didwebvh test suite, the python resolver
 * suite, the didwebvh-py sample, the DIF example configuration and every real-world artefact of
 * those kinds — is resolved twice: served by a real HTTPS host on loopback (the test CA; every host
 * of the vectors resolves to 127.0.0.1 and port 443 is dialled on the test port), and supplied from
 * its files through `withSuppliedResources` with the network off. The two answers must agree: the
 * same problem code, or the same document, metadata, evidence and dimensions — except what rests on
 * the fetch, which says why: transport NOT_ESTABLISHED ("supplied from the file …, not fetched"),
 * and the origin binding of a DID whose configuration was not supplied (NOT_ESTABLISHED,
 * domainBinding null, where the host answered 404: NOT_CONFIGURED, NOT_ESTABLISHED too). A
 * did:webvh log that needs witnessing without a witness file is EGRESS_BLOCKED from files (not
 * supplied, not fetched), where the host's 404 meant "no approvals": fail closed, asserted as such.
 *
 * Credentials and agent cards from files run against the same host once each.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectA2a } from '../../src/core/a2a/inspect.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { configurationUrl, didWebLocation } from '../../src/core/methods/web-location.js';
import { ProblemError } from '../../src/core/problems.js';
import { resolve, type ResolveOptions } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import type { Runtime } from '../../src/core/runtime.js';
import { supplyResource, type SuppliedInput } from '../../src/core/supplied/inputs.js';
import { NotSuppliedProblem, withSuppliedResources, type SuppliedResource } from '../../src/core/supplied/resources.js';
import { didWebvhLocation } from '../../src/core/webvh/location.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { sharedFixturesDir } from '../support/fixtures.js';
import { raw } from '../support/https-server.js';
import { fixedClock, type TestNetOptions } from '../support/runtime.js';
import { statusEntry, statusListCredential, unsignedCredential } from '../support/peer-issuers.js';
import { didDocument, generateTestKey, signEddsaJcs2022 } from '../support/signing.js';

const FIXTURES = sharedFixturesDir();
const PLACEHOLDER_SCID = `Qm${'a'.repeat(44)}`;

/** One resolution to make both ways: the DID, its files (bytes and the name results use), options. */
interface Case {
  label: string;
  did: string;
  document?: Bytes;
  log?: Bytes;
  witness?: Bytes;
  configuration?: Bytes;
  options?: ResolveOptions;
}

interface Bytes {
  body: Uint8Array;
  source: string;
}

function bytesOf(file: string): Bytes {
  return { body: readFileSync(file), source: path.relative(FIXTURES ?? '.', file) };
}

function maybe(file: string): Bytes | undefined {
  return existsSync(file) ? bytesOf(file) : undefined;
}

function isDid(text: unknown, method: string): text is string {
  return typeof text === 'string' && text.startsWith(`did:${method}:`);
}

/** The DID a log is for (its first entry's SCID at its first entry's location), or a placeholder did:webvh when the log names none. */
function didOfLog(text: string): string {
  try {
    const first = JSON.parse(text.split('\n')[0]!);
    const id: unknown = first.state?.id;
    const scid: unknown = first.parameters?.scid;
    if (isDid(id, 'webvh') && typeof scid === 'string') {
      const did = `did:webvh:${scid}:${id.split(':').slice(3).join(':')}`;
      didWebvhLocation(did.slice('did:webvh:'.length));
      return did;
    }
  } catch {
    // not a did:webvh log: the placeholder below
  }
  return `did:webvh:${PLACEHOLDER_SCID}:example.com`;
}

/** Every file below `root` whose name passes `test`, in a stable order. */
function filesBelow(root: string, test: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (test(entry)) out.push(full);
    }
  };
  walk(root);
  return out.sort();
}

/** Every folder below `root` holding `name`. */
function foldersWith(root: string, name: string): string[] {
  return filesBelow(root, (entry) => entry === name).map((file) => path.dirname(file));
}

/** The cases: every did:web, did:webvh and DID-configuration vector. */
function collectCases(root: string): Case[] {
  const cases: Case[] = [];
  // did:webvh: every log, its latest version, each version a committed result was made for, and the python resolver suite's queries.
  for (const dir of foldersWith(root, 'did.jsonl')) {
    const log = bytesOf(path.join(dir, 'did.jsonl'));
    const files = { log, witness: maybe(path.join(dir, 'did-witness.json')), configuration: maybe(path.join(dir, 'did-configuration.json')) };
    const results = readdirSync(dir).filter((f) => /^resolutionResult(\.\d+)?\.json$/.test(f));
    const expectedId = (file: string) => {
      const id: unknown = JSON.parse(readFileSync(path.join(dir, file), 'utf8'))?.didDocument?.id;
      return isDid(id, 'webvh') ? id : null;
    };
    const latest = results.includes('resolutionResult.json') ? expectedId('resolutionResult.json') : null;
    cases.push({ label: log.source, did: latest ?? didOfLog(Buffer.from(log.body).toString('utf8')), ...files });
    for (const file of results) {
      const n = /resolutionResult\.(\d+)\.json$/.exec(file)?.[1];
      if (n)
        cases.push({
          label: `${log.source} versionNumber ${n}`,
          did: expectedId(file) ?? didOfLog(Buffer.from(log.body).toString('utf8')),
          ...files,
          options: { versionNumber: Number(n) },
        });
    }
  }
  const suite = path.join(root, 'didwebvh-test-suite/implementations/python/test-suite');
  if (existsSync(path.join(suite, 'resolver-suite.json'))) {
    for (const c of JSON.parse(readFileSync(path.join(suite, 'resolver-suite.json'), 'utf8')) as Array<Record<string, string>>) {
      const dir = path.join(suite, 'logs', c['log']!);
      const [did, query = ''] = c['did_url']!.split('?') as [string, string?];
      const params = new URLSearchParams(query);
      const options: ResolveOptions = {};
      if (params.has('versionId')) options.versionId = params.get('versionId')!;
      if (params.has('versionTime')) options.versionTime = params.get('versionTime')!;
      if (params.has('versionNumber')) options.versionNumber = Number(params.get('versionNumber'));
      cases.push({
        label: `resolver-suite ${c['log']} ${query || 'latest'}`,
        did,
        log: bytesOf(path.join(dir, 'did.jsonl')),
        witness: maybe(path.join(dir, 'did-witness.json')),
        options,
      });
    }
  }
  // did:web: every real-world did.json (a document for another DID is resolved as did:web:mismatch.example), with its configuration when published beside it.
  const web = path.join(root, 'real-world/didweb');
  for (const dir of foldersWith(web, 'did.json')) {
    const document = bytesOf(path.join(dir, 'did.json'));
    const id: unknown = JSON.parse(Buffer.from(document.body).toString('utf8')).id;
    cases.push({
      label: document.source,
      did: isDid(id, 'web') ? id : 'did:web:mismatch.example',
      document,
      configuration: maybe(path.join(dir, 'did-configuration.json')),
    });
  }
  // DID configurations published without their DID's document: a test did:web at the configuration's origin.
  const key = generateTestKey('EdDSA');
  const standalone = [
    ...foldersWith(web, 'did-configuration.json')
      .filter((dir) => !existsSync(path.join(dir, 'did.json')))
      .map((dir) => path.join(dir, 'did-configuration.json')),
    path.join(root, 'did-configuration/dif-example-did-configuration.json'),
  ];
  for (const file of standalone) {
    const configuration = bytesOf(file);
    const origin = originOf(JSON.parse(Buffer.from(configuration.body).toString('utf8'))) ?? 'https://identity.foundation';
    const did = `did:web:${new URL(origin).hostname}`;
    cases.push({
      label: configuration.source,
      did,
      document: { body: Buffer.from(JSON.stringify(didDocument(did, key))), source: 'test-document.json' },
      configuration,
    });
  }
  return cases;
}

/** The origin a configuration's first credential names (JWT or embedded), if any. */
function originOf(configuration: { linked_dids?: unknown[] }): string | null {
  const first = configuration.linked_dids?.[0];
  try {
    const credential = typeof first === 'string' ? JSON.parse(Buffer.from(first.split('.')[1]!, 'base64url').toString('utf8')).vc : first;
    const origin: unknown = credential?.credentialSubject?.origin;
    return typeof origin === 'string' ? new URL(origin).origin : null;
  } catch {
    return null;
  }
}

/** Every host the cases name (the test certificate and DNS cover them all). */
function hostsOf(cases: Case[]): string[] {
  const hosts = new Set(['example.com', 'example.org', 'newdomain.example.com', 'domain.example', 'issuer.example', 'agent.example']);
  for (const c of cases) {
    try {
      const id = c.did.split(':').slice(2).join(':');
      hosts.add(c.did.startsWith('did:web:') ? didWebLocation(id).host : didWebvhLocation(id).host);
    } catch {
      // an invalid DID: refused before any fetch, both ways
    }
  }
  return [...hosts];
}

const CASES = FIXTURES ? collectCases(FIXTURES) : [];
const HOSTS = hostsOf(CASES);

let host: DidWebHost;
let runtime: Runtime;

/** One instant for every check of both ways (validity periods, expiry, "in the future"), so no second boundary divides them. */
const clock = fixedClock(new Date().toISOString());

/** The host's Runtime (the test CA, every vector host on loopback) on the frozen clock. */
function hostRuntime(net: TestNetOptions = {}): Runtime {
  return {
    ...host.runtime({
      lookup: tableLookup(Object.fromEntries(HOSTS.map((h) => [h, ['127.0.0.1']]))),
      connectTo: (_host, port) => (port === 443 ? host.server.port : undefined),
      ...net,
    }),
    clock,
  };
}

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: HOSTS });
  runtime = hostRuntime();
});
afterAll(async () => {
  await host.close();
});

const notFound = raw('not found', { status: 404 });

function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** The URLs a case's files stand in for (throws INVALID_DID for an identifier no host could serve). */
function urlsOf(c: Case): { main: string; witness: string | null; configuration: string } {
  const id = c.did.split(':').slice(2).join(':');
  if (c.did.startsWith('did:web:')) {
    const location = didWebLocation(id);
    return { main: location.documentUrl, witness: null, configuration: location.configurationUrl };
  }
  const location = didWebvhLocation(id);
  return { main: location.logUrl, witness: location.witnessUrl, configuration: configurationUrl(location.origin) };
}

/** Serves the case's files where its DID says they live (404 for those it lacks), then resolves over HTTPS. */
async function served(c: Case): Promise<EnrichedResolution | ProblemError> {
  try {
    const urls = urlsOf(c);
    const main = c.document ?? c.log!;
    host.server.route(pathOf(urls.main), raw(main.body, { contentType: c.document ? 'application/did+json' : 'text/jsonl' }));
    if (urls.witness) host.server.route(pathOf(urls.witness), c.witness ? raw(c.witness.body, { contentType: 'application/json' }) : notFound);
    host.server.route(pathOf(urls.configuration), c.configuration ? raw(c.configuration.body, { contentType: 'application/json' }) : notFound);
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
  }
  return resolve(c.did, runtime, { noCache: true, ...c.options }).catch(asProblem);
}

/** The case's files supplied, the network off; the input check's problem, or the resolution's. */
async function fromFiles(c: Case): Promise<EnrichedResolution | ProblemError> {
  const inputs: SuppliedInput[] = [];
  const add = (kind: SuppliedInput['kind'], bytes: Bytes | undefined) => bytes && inputs.push({ kind, target: c.did, ...bytes });
  add('didDocument', c.document);
  add('didLog', c.log);
  add('witnessFile', c.witness);
  add('didConfiguration', c.configuration);
  let resources: SuppliedResource[];
  try {
    resources = inputs.map((input) => supplyResource(input));
  } catch (err) {
    return asProblem(err);
  }
  return resolve(c.did, withSuppliedResources(runtime, resources), c.options).catch(asProblem);
}

function asProblem(err: unknown): ProblemError {
  if (err instanceof ProblemError) return err;
  throw err;
}

function states(result: EnrichedResolution): Record<string, string> {
  return Object.fromEntries(result.dimensions.map((d) => [d.id, d.state]));
}

function dimension(result: EnrichedResolution, id: string) {
  return result.dimensions.find((d) => d.id === id)!;
}

/** The history as verified: the same both ways but for what the witness file's fetch added (its HTTP status) and a reused prefix. */
function historyOf(result: EnrichedResolution) {
  const history = result.evidence.history;
  if (!history) return null;
  return { ...history, reusedEntries: 0, witness: { ...history.witness, httpStatus: null } };
}

/** What the comparison found, for the summary test. */
const tally = { results: 0, problems: 0, witnessWithheld: 0, realWorldResults: 0, realWorldProblems: 0 };

function expectSameAnswer(c: Case, viaHost: EnrichedResolution | ProblemError, viaFiles: EnrichedResolution | ProblemError): void {
  if (viaHost instanceof ProblemError) {
    if (viaFiles instanceof NotSuppliedProblem && c.witness === undefined && viaFiles.url === urlsOf(c).witness) {
      // The log needs witness approvals and no witness file was supplied: not fetched, so no answer (fail closed).
      tally.witnessWithheld++;
      return;
    }
    expect(viaFiles, `${c.label}: served ${viaHost.code}: ${viaHost.detail}`).toBeInstanceOf(ProblemError);
    expect((viaFiles as ProblemError).code, `${c.label}: ${(viaFiles as ProblemError).detail}`).toBe(viaHost.code);
    tally.problems++;
    if (c.label.startsWith('real-world/')) tally.realWorldProblems++;
    return;
  }
  if (viaFiles instanceof NotSuppliedProblem && c.witness === undefined) {
    expect(viaFiles.url).toBe(urlsOf(c).witness);
    expect(viaHost.evidence.history!.witness.status).toBe('NOT_PUBLISHED');
    tally.witnessWithheld++;
    return;
  }
  if (viaFiles instanceof ProblemError) throw new Error(`${c.label}: served a result, from files ${viaFiles.code}: ${viaFiles.detail}`);
  tally.results++;
  if (c.label.startsWith('real-world/')) tally.realWorldResults++;
  expect(viaFiles.didDocument).toEqual(viaHost.didDocument);
  expect(viaFiles.didDocumentMetadata).toEqual(viaHost.didDocumentMetadata);
  expect(viaFiles.verdict.outcome).toBe(viaHost.verdict.outcome);
  expect(viaFiles.evidence.document).toEqual(viaHost.evidence.document);
  expect(viaFiles.evidence.keys).toEqual(viaHost.evidence.keys);
  expect(viaFiles.evidence.services).toEqual(viaHost.evidence.services);
  expect(historyOf(viaFiles)).toEqual(historyOf(viaHost));
  const { transport: servedTransport, ...servedRest } = states(viaHost);
  const { transport: fileTransport, ...fileRest } = states(viaFiles);
  expect(fileRest).toEqual(servedRest);
  // The fetch-bound dimension says why it is not established; nothing was fetched.
  expect(servedTransport).toBe('ESTABLISHED');
  expect(fileTransport).toBe('NOT_ESTABLISHED');
  expect(dimension(viaFiles, 'transport').statement).toMatch(
    /^Not established: the DID (document|log) was supplied from the file .+, not fetched from .+; svc saw no TLS connection\.$/,
  );
  expect(viaFiles.evidence.tls).toBeNull();
  expect(viaFiles.evidence.source).toMatchObject({
    kind: 'HTTPS',
    url: viaHost.evidence.source.url,
    httpStatus: null,
    peerAddress: null,
    latencyMs: null,
    sha256: viaHost.evidence.source.sha256,
  });
  const stages = viaFiles.trace.map((s) => s.stage);
  expect(stages).toContain('supplied.read');
  expect(stages).not.toContain('dns.resolve');
  expect(stages).not.toContain('tls.handshake');
  expect(
    viaFiles.limitations.some((l) => l.startsWith(`The file ${(c.document ?? c.log)!.source} stood in for the DID ${c.document ? 'document' : 'log'} at`)),
  ).toBe(true);
  if (c.configuration) {
    expect(viaFiles.evidence.domainBinding).toEqual(viaHost.evidence.domainBinding);
    expect(dimension(viaFiles, 'origin').statement).toBe(
      `${dimension(viaHost, 'origin').statement} The DID configuration was supplied from the file ${c.configuration.source}, not fetched from ${viaHost.evidence.domainBinding!.origin}.`,
    );
  } else {
    // The host answered 404 (NOT_CONFIGURED); from files nothing was checked, and the dimension says why.
    expect(viaHost.evidence.domainBinding!.status).toBe('NOT_CONFIGURED');
    expect(viaFiles.evidence.domainBinding).toBeNull();
    expect(dimension(viaFiles, 'origin').statement).toMatch(
      /^Not established: the DID configuration \(.+\) was not supplied from a file, and nothing is fetched when verifying from files\.$/,
    );
    expect(viaFiles.limitations.some((l) => l.startsWith('Nothing stood in for the DID configuration at '))).toBe(true);
  }
  expect(viaFiles.graph.edges.filter((e) => e.relation === 'serves').map((e) => e.state)).toEqual(['DECLARED']);
}

describe.skipIf(FIXTURES === null)('every did:web, did:webvh and DID-configuration vector: from files as served', () => {
  it('has the vectors this suite was written for', () => {
    const web = CASES.filter((c) => c.did.startsWith('did:web:'));
    const real = CASES.filter((c) => c.label.startsWith('real-world/'));
    expect(web.length).toBeGreaterThanOrEqual(25);
    expect(real.length).toBeGreaterThanOrEqual(30);
    expect(CASES.length).toBeGreaterThanOrEqual(150);
  });

  for (const c of CASES) {
    it(c.label, async () => {
      expectSameAnswer(c, await served(c), await fromFiles(c));
    });
  }

  it('the tally: results, problems, logs that need a withheld witness file', () => {
    expect(tally.results + tally.problems + tally.witnessWithheld).toBe(CASES.length);
    expect(tally.results).toBeGreaterThan(100);
    console.info(
      `[verify from files] ${CASES.length} cases: ${tally.results} results and ${tally.problems} problems agree (real-world: ${tally.realWorldResults} results, ${tally.realWorldProblems} problems); ${tally.witnessWithheld} need a witness file that was not supplied`,
    );
  });
});

describe('the rule for what was not supplied', () => {
  const did = 'did:web:issuer.example';
  const key = generateTestKey('EdDSA');
  const document = { kind: 'didDocument' as const, target: did, body: Buffer.from(JSON.stringify(didDocument(did, key))), source: 'did.json' };

  it('nothing is fetched: the host sees no request, the configuration is not established', async () => {
    const before = host.server.requests.length;
    const result = await resolve(did, withSuppliedResources(runtime, [supplyResource(document)]));
    expect(host.server.requests.length).toBe(before);
    expect(result.trace.find((s) => s.stage === 'linkage.fetch')).toMatchObject({ status: 'SKIP' });
    expect(dimension(result, 'origin').state).toBe('NOT_ESTABLISHED');
  });

  it('--allow-network: what was not supplied is fetched (the configuration), what was supplied never is', async () => {
    host.server.route('/.well-known/did-configuration.json', notFound);
    host.server.route('/.well-known/did.json', raw('{"id":"did:web:someone-else.example"}', { contentType: 'application/json' }));
    const before = host.server.requests.length;
    const result = await resolve(did, withSuppliedResources(runtime, [supplyResource(document)], { allowNetwork: true }));
    expect(host.server.requests.slice(before)).toEqual(['GET /.well-known/did-configuration.json']);
    expect(result.evidence.domainBinding!.status).toBe('NOT_CONFIGURED');
    expect(dimension(result, 'transport').state).toBe('NOT_ESTABLISHED');
  });

  it('the DID document itself not supplied: EGRESS_BLOCKED naming the URL, nothing fetched', async () => {
    const configuration = { kind: 'didConfiguration' as const, target: did, body: Buffer.from('{"linked_dids":[]}'), source: 'config.json' };
    const err = await resolve(did, withSuppliedResources(runtime, [supplyResource(configuration)])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotSuppliedProblem);
    expect((err as ProblemError).code).toBe('EGRESS_BLOCKED');
    expect((err as ProblemError).detail).toBe(
      'Nothing was supplied for the DID document at https://issuer.example/.well-known/did.json, and svc fetches nothing when it verifies from files unless the network is allowed (--allow-network).',
    );
  });

  it("a file's result never reaches the caller's cache, nor the caller's cached result the file's resolution", async () => {
    const shared = hostRuntime();
    const fromFile = withSuppliedResources(shared, [supplyResource(document)]);
    await resolve(did, fromFile);
    expect(shared.cache.size).toBe(0);
    expect(fromFile.store).toBeUndefined();
  });
});

describe('bad input: one reason naming the file', () => {
  const did = 'did:web:issuer.example';
  const problem = (input: SuppliedInput) => {
    try {
      supplyResource(input);
    } catch (err) {
      return asProblem(err);
    }
    throw new Error('expected a problem');
  };

  it('not JSON, another DID, the wrong kind, too large', () => {
    expect(problem({ kind: 'didDocument', target: did, body: Buffer.from('<html>'), source: 'did.json' })).toMatchObject({
      code: 'INVALID_DID_DOCUMENT',
      detail: 'The document at did.json is not valid JSON (unexpected character at offset 0).',
    });
    expect(problem({ kind: 'didDocument', target: did, body: Buffer.from('{"id":"did:web:other.example"}'), source: 'did.json' })).toMatchObject({
      code: 'INVALID_DID_DOCUMENT',
      detail: 'did.json is the document of did:web:other.example, not of did:web:issuer.example.',
    });
    expect(problem({ kind: 'didDocument', target: `did:webvh:${PLACEHOLDER_SCID}:example.com`, body: Buffer.from('{}'), source: 'did.json' })).toMatchObject({
      code: 'INVALID_OPTIONS',
      detail: `did.json is supplied as a DID document, which only a did:web has; did:webvh:${PLACEHOLDER_SCID}:example.com is a did:webvh; a did:webvh is supplied as its log.`,
    });
    expect(problem({ kind: 'didDocument', target: did, body: new Uint8Array(512 * 1024 + 1), source: 'big.json' })).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'The DID document supplied from big.json is 524289 bytes; the limit is 524288 bytes.',
    });
    expect(
      problem({
        kind: 'didLog',
        target: `did:webvh:${PLACEHOLDER_SCID}:example.com`,
        body: Buffer.from('{"parameters":{"scid":"QmOther"}}\n'),
        source: 'did.jsonl',
      }),
    ).toMatchObject({
      code: 'INVALID_DID_DOCUMENT',
      detail: `did.jsonl is the log of the SCID QmOther, not of did:webvh:${PLACEHOLDER_SCID}:example.com (SCID ${PLACEHOLDER_SCID}).`,
    });
    expect(problem({ kind: 'didConfiguration', target: did, body: Buffer.from('[]'), source: 'config.json' })).toMatchObject({
      code: 'INVALID_REQUEST',
      detail: 'config.json is not a DID configuration: it is JSON an array, not an object.',
    });
  });

  it('two files for one URL', () => {
    const body = Buffer.from(JSON.stringify({ id: did }));
    const resources = [
      supplyResource({ kind: 'didDocument', target: did, body, source: 'a.json' }),
      supplyResource({ kind: 'didDocument', target: did, body, source: 'b.json' }),
    ];
    expect(() => withSuppliedResources(runtime, resources)).toThrow(
      'Both a.json and b.json are supplied for https://issuer.example/.well-known/did.json; give one file per resource.',
    );
  });
});

describe('a credential from files: the issuer document and the status list', () => {
  const did = 'did:web:issuer.example';
  const vm = `${did}#key-1`;
  const listUrl = 'https://issuer.example/status/1';
  const key = generateTestKey('EdDSA');
  let credential: Record<string, unknown>;
  let documentBytes: Uint8Array;
  let listBytes: Uint8Array;

  beforeAll(async () => {
    documentBytes = Buffer.from(JSON.stringify(didDocument(did, key)));
    const list = await statusListCredential({ issuer: { did } as never, id: listUrl, purpose: 'revocation', set: [7], sign: false });
    listBytes = Buffer.from(JSON.stringify(signEddsaJcs2022(list, key, vm)));
    credential = signEddsaJcs2022(unsignedCredential(did, { credentialStatus: statusEntry(listUrl, 7) }), key, vm);
  });

  function supplied(withList: boolean): Runtime {
    return withSuppliedResources(runtime, [
      supplyResource({ kind: 'didDocument', target: did, body: documentBytes, source: 'issuer-did.json' }),
      ...(withList ? [supplyResource({ kind: 'statusList', target: listUrl, body: listBytes, source: 'status-1.json' })] : []),
    ]);
  }

  it('REVOKED from files exactly as when served, and the limitations name both files', async () => {
    host.server.route('/.well-known/did.json', raw(documentBytes, { contentType: 'application/did+json' }));
    host.server.route('/.well-known/did-configuration.json', notFound);
    host.server.route('/status/1', raw(listBytes, { contentType: 'application/vc+ld+json' }));
    const viaHost = await verifyCredential(credential, { runtime: hostRuntime() });
    const viaFiles = await verifyCredential(credential, { runtime: supplied(true) });
    expect(viaHost.status).toBe('REVOKED');
    expect(viaFiles.status).toBe('REVOKED');
    expect(viaFiles.checks).toEqual(viaHost.checks);
    expect(viaFiles.statusList).toEqual(viaHost.statusList);
    expect(viaFiles.limitations.slice(0, viaHost.limitations.length)).toEqual(viaHost.limitations);
    // In the order the work asked for them; the issuer's DID configuration was asked for by its resolution.
    expect(viaFiles.limitations.slice(viaHost.limitations.length)).toEqual([
      'Nothing stood in for the DID configuration at https://issuer.example/.well-known/did-configuration.json, and it was not fetched (verifying from files without the network): what it would show is not part of this result.',
      'The file issuer-did.json stood in for the DID document at https://issuer.example/.well-known/did.json: it was not fetched, so svc did not see that the host serves it, nor over which connection.',
      'The file status-1.json stood in for the status list credential at https://issuer.example/status/1: it was not fetched, so svc did not see that the host serves it, nor over which connection.',
    ]);
  });

  it('the status list not supplied: status INDETERMINATE (never active), and the limitation says so', async () => {
    const result = await verifyCredential(credential, { runtime: supplied(false) });
    expect(result.status).toBe('INDETERMINATE');
    expect(result.checks.find((c) => c.id === 'status')).toMatchObject({ status: 'INDETERMINATE' });
    expect(result.limitations).toContain(
      'Nothing stood in for the status list credential at https://issuer.example/status/1, and it was not fetched (verifying from files without the network): what it would show is not part of this result.',
    );
  });
});

describe.skipIf(FIXTURES === null)('real-world agent cards from files, as served', () => {
  const files = FIXTURES ? filesBelow(path.join(FIXTURES, 'real-world/a2a'), (name) => name.endsWith('.json')) : [];

  it('has the cards', () => {
    expect(files.length).toBeGreaterThanOrEqual(13);
  });

  for (const file of files) {
    it(path.relative(FIXTURES!, file), async () => {
      const body = readFileSync(file);
      const url = 'https://agent.example';
      host.server.route('/.well-known/agent-card.json', raw(body, { contentType: 'application/json' }));
      const a2aRuntime = hostRuntime();
      const viaHost = await inspectA2a(url, { runtime: a2aRuntime }).catch(asProblem);
      let viaFiles;
      try {
        viaFiles = await inspectA2a(url, {
          runtime: withSuppliedResources(a2aRuntime, [supplyResource({ kind: 'agentCard', target: url, body, source: 'card.json' })]),
        });
      } catch (err) {
        viaFiles = asProblem(err);
      }
      if (viaHost instanceof ProblemError) {
        expect((viaFiles as ProblemError).code).toBe(viaHost.code);
        return;
      }
      if (viaFiles instanceof ProblemError) throw viaFiles;
      expect(viaFiles.card).toEqual(viaHost.card);
      expect(viaFiles.cardSha256).toBe(viaHost.cardSha256);
      expect(viaFiles.httpStatus).toBe(0);
      expect(viaFiles.tls).toBeNull();
      // svc asks a host for A2A-Version 1.0; of a file it asks nothing, and the version check does not say it did.
      const byId = (checks: typeof viaHost.checks) =>
        Object.fromEntries(
          checks
            .filter((c) => c.id !== 'fetch' && c.id !== 'signature')
            .map((c) => [c.id, { ...c, detail: c.detail.replace(', although svc asked for A2A-Version 1.0', '') }]),
        );
      expect(byId(viaFiles.checks)).toEqual(byId(viaHost.checks));
      expect(viaFiles.checks.find((c) => c.id === 'fetch')).toMatchObject({
        status: 'SKIP',
        detail: expect.stringContaining('supplied from the file card.json'),
      });
      // Signatures: a key that is not a did:key is fetched when served and not supplied from files; the statuses agree where it is not.
      expect(viaFiles.signatures.map((s) => s.status === 'VALID')).toEqual(
        viaHost.signatures.map((s) => s.status === 'VALID' && s.kid?.startsWith('did:key:') === true),
      );
    });
  }
});
