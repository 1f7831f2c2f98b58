/**
 * The TypeScript client (src/client) against real daemons (test/support/client-scenario.ts): a
 * direct `svc serve`, a `--public` one for the rate limits, a loopback did:web host, an MCP
 * server, a signed A2A card. Nothing of svc is mocked; the only wrapper is a fetch that counts
 * calls and holds every non-stream answer the client receives to openapi.json (the contract of
 * test/support/daemon-client.ts).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient, SvcError, verifyResultSignature, type FetchLike, type StreamFrame } from '../../src/client/index.js';
import { signingKeyResolver } from '../../src/core/signing/index.js';
import { systemClock } from '../../src/runtime/node.js';
import { tableLookup } from '../support/did-web-host.js';
import { testRuntime } from '../support/runtime.js';
import { generateTestKey } from '../support/signing.js';
import { repoRoot } from '../support/cli.js';
import { startClientScenario, type ClientScenario } from '../support/client-scenario.js';
import { checkContract } from '../support/daemon-client.js';

let s: ClientScenario;
let client: SvcClient;

beforeAll(async () => {
  s = await startClientScenario();
  client = new SvcClient({ baseUrl: s.daemonUrl, fetch: contractFetch().fetch });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/**
 * The real fetch, counting calls, recording each answer's Retry-After, and holding every answer
 * (streams excepted) to openapi.json. `rewrite` may change the URL before it is sent.
 */
function contractFetch(rewrite?: (url: string) => string): { fetch: FetchLike; readonly calls: number; retryAfter: Array<string | null> } {
  let calls = 0;
  const retryAfter: Array<string | null> = [];
  const fetchFn: FetchLike = async (input, init) => {
    calls++;
    const url = rewrite ? rewrite(input) : input;
    const res = await fetch(url, init);
    retryAfter.push(res.headers.get('retry-after'));
    if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const text = await res.clone().text();
      checkContract(init.method ?? 'GET', url, { status: res.status, header: (name) => res.headers.get(name) ?? '', text });
    }
    return res;
  };
  return {
    fetch: fetchFn,
    get calls() {
      return calls;
    },
    retryAfter,
  };
}

/** The SvcError a promise rejects with (fails when it resolves or rejects with something else). */
async function svcError(promise: Promise<unknown>): Promise<SvcError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a SvcError, got ${JSON.stringify(outcome.value).slice(0, 200)}`);
  expect(outcome.error).toBeInstanceOf(SvcError);
  return outcome.error as SvcError;
}

async function frames(iterable: AsyncIterable<StreamFrame>): Promise<StreamFrame[]> {
  const out: StreamFrame[] = [];
  for await (const frame of iterable) out.push(frame);
  return out;
}

describe('SvcClient against a real daemon', () => {
  it('has a method for every operationId of openapi.json', () => {
    const doc = JSON.parse(readFileSync(path.join(repoRoot, 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(ids.length).toBeGreaterThanOrEqual(21);
    for (const id of ids) {
      expect(typeof id, 'every operation has an operationId').toBe('string');
      // The session core (session*) is reached only through the in-process cookie gateway.
      if (id!.startsWith('session')) continue;
      expect(typeof (SvcClient.prototype as unknown as Record<string, unknown>)[id!], `SvcClient.${id}`).toBe('function');
    }
  });

  it('probes: health, ready, status, and openApi (the committed document)', async () => {
    expect(await client.health()).toMatchObject({ status: 'ok', profile: 'direct' });
    expect(await client.ready()).toMatchObject({ ready: true, schema: 'current' });
    expect(await client.status()).toMatchObject({ status: 'ok', profile: 'direct' });
    expect(await client.openApi()).toEqual(JSON.parse(readFileSync(path.join(repoRoot, 'openapi.json'), 'utf8')));
  });

  it('pages: homePage, dossierPage (problems as SvcError, not pages) and webAsset', async () => {
    expect(await client.homePage()).toContain('role="search"');
    const page = await client.dossierPage(s.didWeb, { noCache: true });
    expect(page).toContain('id="level-4"');
    const stylesheet = /<link rel="stylesheet" href="\/assets\/([^"]+)"/.exec(page)![1]!;
    expect(await client.webAsset(stylesheet)).toContain('--good');
    expect((await svcError(client.dossierPage('did:example:123'))).code).toBe('METHOD_NOT_SUPPORTED');
    expect((await svcError(client.webAsset('dossier.0000000000000000.css'))).code).toBe('NOT_FOUND');
  });

  it('resolve: a did:key and a did:web', async () => {
    const key = await client.resolve(s.didKey);
    expect(key).toMatchObject({ did: s.didKey, method: 'key', verdict: { outcome: 'RESOLVED' } });
    const web = await client.resolve(s.didWeb, { noCache: true });
    expect(web).toMatchObject({ did: s.didWeb, method: 'web', cached: false });
    expect(web.didDocument?.id).toBe(s.didWeb);
    expect(web.trace.map((stage) => stage.stage)).toContain('web.fetch');
  });

  it('fast-verify, dereference (the DID URL encoded whole), graph', async () => {
    expect(await client.fastVerifyDid(s.didKey)).toMatchObject({ did: s.didKey, resolved: true, outcome: 'RESOLVED' });
    const deref = await client.dereference(s.didKeyVerificationMethod);
    expect(deref.contentStream).toMatchObject({ id: s.didKeyVerificationMethod });
    const graph = await client.graph(s.didWeb);
    expect(graph.did).toBe(s.didWeb);
    expect(graph.nodes.length).toBeGreaterThan(0);
  });

  it('credentials: the object and the vc+jwt are VALID', async () => {
    expect(await client.verifyCredential(s.credential)).toMatchObject({ status: 'VALID', valid: true });
    const jwt = await client.verifyCredential(s.credentialJwt);
    expect(jwt).toMatchObject({ status: 'VALID', valid: true });
    // A failed check is a result, never a SvcError.
    const tampered = { ...s.credential, credentialSubject: { id: 'did:example:mallory', name: 'Mallory' } };
    expect((await client.verifyCredential(tampered)).status).toBe('INVALID');
  });

  it('credentials with trustedIssuers: issuerTrust beside an unchanged status; a bad entry is a SvcError', async () => {
    const listed = await client.verifyCredential(s.credential, { trustedIssuers: [s.didKey] });
    expect(listed).toMatchObject({ status: 'VALID', issuerTrust: { status: 'PASS', matched: s.didKey } });
    const unlisted = await client.verifyCredential(s.credential, { trustedIssuers: ['did:web:*.example.com'] });
    expect(unlisted).toMatchObject({ status: 'VALID', valid: true, issuerTrust: { status: 'FAIL', issuer: s.didKey } });
    const refused = await svcError(client.verifyCredential(s.credential, { trustedIssuers: ['did:key:*'] }));
    expect(refused).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    expect(refused.detail).toContain('did:key:*');
  });

  it('verifyCredentialVcApi (POST /credentials/verify): verified → the result; not verified → the 400 result; a refused request → SvcError', async () => {
    const ok = await client.verifyCredentialVcApi(s.credential, { vcApiOptions: { checks: ['proof'] } });
    expect(ok).toMatchObject({ verified: true, errors: [] });
    expect(ok.checks).toContain('proof');
    const enveloped = await client.verifyCredentialVcApi({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: 'EnvelopedVerifiableCredential',
      id: `data:application/vc+jwt,${s.credentialJwt}`,
    });
    expect(enveloped.verified).toBe(true);
    const tampered = { ...s.credential, credentialSubject: { id: 'did:example:mallory', name: 'Mallory' } };
    const failed = await client.verifyCredentialVcApi(tampered);
    expect(failed.verified).toBe(false);
    expect(failed.errors.some((e) => e.type.endsWith('#credential-check:proof'))).toBe(true);
    const refused = await svcError(client.verifyCredentialVcApi(s.credential, { vcApiOptions: { checks: ['schema'] } }));
    expect({ code: refused.code, status: refused.status }).toEqual({ code: 'INVALID_OPTIONS', status: 400 });
    const notAnObject = await svcError(client.verifyCredentialVcApi(s.credentialJwt as unknown as Record<string, unknown>));
    expect({ code: notAnObject.code, status: notAnObject.status }).toEqual({ code: 'INVALID_REQUEST', status: 400 });
  });

  it('verifyPresentation: the object and the vp+jwt VALID with their challenge and domain; another challenge a result (INVALID), never a SvcError', async () => {
    const { object, jwt, holder, challenge, domain } = s.presentation;
    const result = await client.verifyPresentation(object, { challenge, domain });
    expect(result).toMatchObject({ status: 'VALID', valid: true, format: 'DATA_INTEGRITY', holder, challenge, domain: [domain] });
    expect(result.credentials.map((c) => [c.form, c.holderBinding, c.verification.status])).toEqual([['OBJECT', 'BOUND', 'VALID']]);
    expect(await client.verifyPresentation(jwt, { challenge, domain })).toMatchObject({ status: 'VALID', format: 'VC_JOSE_COSE' });
    // Every option reaches the daemon: the nonce and audience are for SD-JWT VCs (none here), the trusted issuers for each credential.
    const all = await client.verifyPresentation(object, {
      challenge,
      domain,
      expectedAudience: 'did:web:verifier.example',
      expectedNonce: 'n-1',
      trustedIssuers: [s.didKey],
      requireHolderBinding: true,
    });
    expect(all.status).toBe('VALID');
    expect(all.credentials[0]!.verification.issuerTrust).toMatchObject({ status: 'PASS', matched: s.didKey });
    const replayed = await client.verifyPresentation(object, { challenge: 'another-challenge', domain });
    expect(replayed.status).toBe('INVALID');
    expect(replayed.checks.find((c) => c.id === 'challenge')?.status).toBe('FAIL');
    const refused = await svcError(client.verifyPresentation(object, { challenge: '' }));
    expect({ code: refused.code, status: refused.status }).toEqual({ code: 'INVALID_REQUEST', status: 400 });
  });

  it('verifyPresentationVcApi (POST /presentations/verify): verified → the result; not verified → the 400 result; a refused request → SvcError', async () => {
    const { object, jwt, challenge, domain } = s.presentation;
    const ok = await client.verifyPresentationVcApi(object, { vcApiOptions: { challenge, domain } });
    expect(ok).toMatchObject({ verified: true, errors: [] });
    expect(ok.checks).toEqual(expect.arrayContaining(['proof', 'challenge', 'domain']));
    const enveloped = await client.verifyPresentationVcApi(
      { '@context': ['https://www.w3.org/ns/credentials/v2'], type: 'EnvelopedVerifiablePresentation', id: `data:application/vp+jwt,${jwt}` },
      { vcApiOptions: { challenge, domain } },
    );
    expect(enveloped.verified).toBe(true);
    const failed = await client.verifyPresentationVcApi(object, { vcApiOptions: { challenge: 'another-challenge', domain } });
    expect(failed.verified).toBe(false);
    expect(failed.errors.some((e) => e.type.endsWith('#presentation-check:challenge'))).toBe(true);
    const refused = await svcError(client.verifyPresentationVcApi(object, { vcApiOptions: { checks: ['schema'] } }));
    expect({ code: refused.code, status: refused.status }).toEqual({ code: 'INVALID_OPTIONS', status: 400 });
  });

  it('policies and JWS', async () => {
    const decision = await client.evaluatePolicy({ did: s.didKey, policy: s.policy });
    expect(decision.evaluation).toMatchObject({ did: s.didKey, status: 'PASS' });
    expect(await client.fastVerifyJws(s.jws)).toMatchObject({ status: 'VALID', valid: true });
    expect(await client.fastVerifyJws(s.jws, { relationship: 'assertionMethod' })).toMatchObject({ status: 'VALID', relationship: 'assertionMethod' });
  });

  it('delegation: verify-delegation with register, then verify-tool ALLOW for the allowed tool and DENY for the denied one', async () => {
    const { chain, agent, root, allowedTool, deniedTool } = s.delegation;
    const verified = await client.verifyDelegation({ chain, register: true });
    expect(verified).toMatchObject({ registered: true, result: { status: 'VALID', root, leaf: agent } });

    expect(await client.verifyTool({ agent, tool: allowedTool })).toMatchObject({ decision: 'ALLOW', authorized: true, root });
    expect(await client.verifyTool({ agent, tool: deniedTool })).toMatchObject({ decision: 'DENY', authorized: false });

    const allow = await client.verifyToolOrDeny({ agent, tool: allowedTool, root });
    expect(allow).toMatchObject({ decision: 'ALLOW', authorized: true, authorization: { decision: 'ALLOW' } });
    expect(allow.error).toBeUndefined();
    const denied = await client.verifyToolOrDeny({ agent, tool: deniedTool, root });
    expect(denied).toMatchObject({ decision: 'DENY', authorized: false, authorization: { decision: 'DENY' } });
    expect(denied.error).toBeUndefined();
    // A query the daemon refuses (400) is DENY with the problem, never thrown.
    const refused = await client.verifyToolOrDeny({ agent: 'not-a-did', tool: allowedTool, root });
    expect(refused).toMatchObject({ decision: 'DENY', authorized: false });
    expect(refused.error).toBeInstanceOf(SvcError);
    expect(refused.error!.status).toBe(400);
    expect(refused.reason).toContain(refused.error!.code);
  });

  it('authorize: ALLOW; authorizeOrDeny against an unreachable daemon is DENY (CLIENT_NETWORK_ERROR), never a throw', async () => {
    const { chain, root, allowedTool, deniedTool } = s.delegation;
    const answer = await client.authorize({ chain, tool: allowedTool, trustedRoots: [root] });
    expect(answer.authorization).toMatchObject({ decision: 'ALLOW', authorized: true, matchedCapability: 'payments:*' });
    expect(answer.chain.status).toBe('VALID');
    expect(await client.authorizeOrDeny({ chain, tool: allowedTool, trustedRoots: [root] })).toMatchObject({ decision: 'ALLOW', authorized: true });
    expect(await client.authorizeOrDeny({ chain, tool: deniedTool, trustedRoots: [root] })).toMatchObject({ decision: 'DENY', authorized: false });

    const nowhere = new SvcClient({ baseUrl: s.unreachableUrl });
    const denied = await nowhere.authorizeOrDeny({ chain, tool: allowedTool, trustedRoots: [root] });
    expect(denied).toMatchObject({ decision: 'DENY', authorized: false });
    expect(denied.authorization).toBeUndefined();
    expect(denied.error).toBeInstanceOf(SvcError);
    expect(denied.error).toMatchObject({ code: 'CLIENT_NETWORK_ERROR', status: 0 });
    expect(denied.error!.cause).toBeDefined();
    expect(denied.reason).toMatch(/^CLIENT_NETWORK_ERROR: /);
    // The plain call throws the same error.
    expect(await svcError(nowhere.authorize({ chain, tool: allowedTool }))).toMatchObject({ code: 'CLIENT_NETWORK_ERROR', status: 0 });
  });

  it('authorize: a malformed chain gets the daemon answer (a MALFORMED chain, DENY), not an error', async () => {
    const answer = await client.authorize({ chain: ['not.a.receipt'], tool: s.delegation.allowedTool });
    expect(answer.chain.status).toBe('MALFORMED');
    expect(answer.authorization).toMatchObject({ decision: 'DENY', authorized: false });
    const decision = await client.authorizeOrDeny({ chain: ['not.a.receipt'], tool: s.delegation.allowedTool, trustedRoots: [s.delegation.root] });
    expect(decision).toMatchObject({ decision: 'DENY', authorized: false, reason: answer.authorization.reason });
    expect(decision.error).toBeUndefined();
    // A body the daemon refuses (no tool: 400) is DENY with the problem.
    const refused = await client.authorizeOrDeny({ chain: s.delegation.chain, tool: '', trustedRoots: [s.delegation.root] });
    expect(refused).toMatchObject({ decision: 'DENY', authorized: false, error: { code: 'INVALID_REQUEST', status: 400 } });
  });

  it('the DENY helpers fail closed on missing trust: a TypeError before any request unless trustedRoots / root or anyRoot: true', async () => {
    const { chain, agent, root, allowedTool } = s.delegation;
    let requests = 0;
    const counting = new SvcClient({ baseUrl: s.daemonUrl, fetch: (input, init) => ((requests += 1), fetch(input, init)) });
    const misuse = async (call: () => Promise<unknown>, pattern: RegExp) => {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(pattern);
    };
    // Each of these is also a compile error (the @ts-expect-error lines): the roots are required by type.
    await misuse(
      // @ts-expect-error no trustedRoots and no anyRoot
      () => counting.authorizeOrDeny({ chain, tool: allowedTool }),
      /^authorizeOrDeny: no trusted root was given; pass trustedRoots \(one or more DIDs\) or anyRoot: true/,
    );
    await misuse(() => counting.authorizeOrDeny({ chain, tool: allowedTool, trustedRoots: [] }), /no trusted root was given/);
    // @ts-expect-error anyRoot must be true
    await misuse(() => counting.authorizeOrDeny({ chain, tool: allowedTool, anyRoot: false }), /no trusted root was given/);
    // @ts-expect-error trusted roots and anyRoot exclude each other
    await misuse(() => counting.authorizeOrDeny({ chain, tool: allowedTool, trustedRoots: [root], anyRoot: true }), /exclude each other/);
    await misuse(
      // @ts-expect-error no root and no anyRoot
      () => counting.verifyToolOrDeny({ agent, tool: allowedTool }),
      /^verifyToolOrDeny: no trusted root was given; pass root \(a DID\) or anyRoot: true/,
    );
    expect(requests).toBe(0);

    // anyRoot: true on purpose: the daemon is asked without trustedRoots (anyRoot is not sent) and answers.
    const any = await counting.authorizeOrDeny({ chain, tool: allowedTool, anyRoot: true });
    expect(any).toMatchObject({ decision: 'ALLOW', authorized: true, authorization: { root } });
    expect(any.authorization).toBeDefined();
    await client.verifyDelegation({ chain, trustedRoots: [root], register: true });
    expect(await counting.verifyToolOrDeny({ agent, tool: allowedTool, anyRoot: true })).toMatchObject({ decision: 'ALLOW', authorized: true });
    expect(requests).toBe(2);
  });

  it('MCP and A2A inspection', async () => {
    const mcp = await client.inspectMcp(s.mcpEndpoint);
    expect(mcp.endpoint).toBe(s.mcpEndpoint);
    expect(mcp.tools.length).toBeGreaterThan(0);
    // The web view of the same inspection, and its form; a problem is an SvcError, not a page.
    expect(await client.mcpInspectionPage(s.mcpEndpoint)).toContain(`data-endpoint="${s.mcpEndpoint}" data-status="INSPECTED"`);
    expect(await client.mcpInspectionPage()).toContain('action="/mcp"');
    expect((await svcError(client.mcpInspectionPage('not a url'))).code).toBe('INVALID_REQUEST');
    const a2a = await client.inspectA2a(s.a2aUrl);
    expect(a2a.cardUrl.startsWith(s.a2aUrl)).toBe(true);
    expect(a2a.signatures.map((sig) => sig.status)).toEqual(['VALID']);
  });

  it('history and diff: two fresh resolutions of the did:web; diff is a SemanticDiff or NOT_FOUND (one distinct document)', async () => {
    await client.resolve(s.didWeb, { noCache: true });
    await client.resolve(s.didWeb, { noCache: true });
    const history = await client.history(s.didWeb);
    expect(history.did).toBe(s.didWeb);
    expect(history.count).toBeGreaterThanOrEqual(1);
    expect(history.history[0]).toMatchObject({ did: s.didWeb });
    const diff = await client.diff(s.didWeb).catch((error: unknown) => error);
    if (diff instanceof SvcError) {
      expect(diff).toMatchObject({ code: 'NOT_FOUND', status: 404 });
      expect(diff.problem).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    } else {
      expect(diff).toMatchObject({ did: s.didWeb });
    }
    // An option the daemon refuses is its 400, not NOT_FOUND.
    expect(await svcError(client.diff(s.didWeb, { from: 'xyz' }))).toMatchObject({ code: 'INVALID_OPTIONS', status: 400 });
  });

  it('resolveW3c of a service DID URL: the 303 is a result, never followed (the client fetches nothing a DID document names)', async () => {
    let followed = 0;
    const counting = new SvcClient({
      baseUrl: s.daemonUrl,
      fetch: async (input, init) => {
        if (!input.startsWith(s.daemonUrl)) followed++;
        return contractFetch().fetch(input, init);
      },
    });
    for (const accept of ['application/did-url-dereferencing', 'text/uri-list']) {
      expect(await counting.resolveW3c(s.didWebService, { accept })).toEqual({ status: 303, location: s.serviceEndpoint });
    }
    expect(await counting.resolveW3cPost(s.didWebService, { accept: 'application/did-url-dereferencing' })).toEqual({
      status: 303,
      location: s.serviceEndpoint,
    });
    expect(followed).toBe(0);
    // Without Accept, svc's own shape: the full dereferencing result.
    expect(await counting.resolveW3c(s.didWebService)).toMatchObject({
      dereferencingMetadata: { contentType: 'text/uri-list' },
      contentStream: s.serviceEndpoint,
    });
  });

  it('resolveW3c: the DID document, the resolution result with accept, and an invalid DID as SvcError INVALID_DID (400, the embedded problem)', async () => {
    const document = await client.resolveW3c(s.didKey);
    expect(document).toMatchObject({ id: s.didKey });
    const result = await client.resolveW3c(s.didWeb, { accept: 'application/did-resolution', noCache: true });
    expect(result).toMatchObject({ didDocument: { id: s.didWeb }, didResolutionMetadata: { contentType: 'application/did' } });
    const posted = await client.resolveW3cPost(s.didKey, { accept: 'application/did-resolution' });
    expect(posted).toMatchObject({ didDocument: { id: s.didKey } });
    expect(await client.resolveW3cPost(s.didKey)).toMatchObject({ id: s.didKey });

    const invalid = await svcError(client.resolveW3c('not-a-did'));
    expect(invalid).toMatchObject({ code: 'INVALID_DID', status: 400 });
    expect(invalid.problem).toMatchObject({ code: 'INVALID_DID', status: 400 });
    expect(invalid.type).toBe('https://www.w3.org/ns/did#INVALID_DID');
    const unacceptable = await svcError(client.resolveW3c(s.didKey, { accept: 'text/html' }));
    expect(unacceptable).toMatchObject({ code: 'REPRESENTATION_NOT_SUPPORTED', status: 406 });
  });

  it('a problem surfaces as SvcError: an unsupported method is 501 METHOD_NOT_SUPPORTED with its trace', async () => {
    const error = await svcError(client.resolve('did:foo:bar'));
    expect(error).toMatchObject({ code: 'METHOD_NOT_SUPPORTED', status: 501, name: 'SvcError' });
    expect(error.detail).not.toBe('');
    expect(error.title).not.toBe('');
    expect(error.type).toMatch(/#METHOD_NOT_SUPPORTED$/);
    expect(error.problem).toMatchObject({ code: 'METHOD_NOT_SUPPORTED', status: 501, detail: error.detail });
    expect(error.trace?.map((stage) => [stage.stage, stage.status])).toEqual([['syntax.parse', 'FAIL']]);
    expect(error.retryAfter).toBeUndefined();
  });

  it('stream: stage frames, then exactly one result, then done', async () => {
    const all = await frames(client.stream(s.didWeb, { noCache: true }));
    const events = all.map((f) => f.event);
    const stages = events.filter((e) => e === 'stage').length;
    expect(stages).toBeGreaterThan(0);
    expect(events).toEqual([...Array<string>(stages).fill('stage'), 'result', 'done']);
    const result = all[stages]!;
    if (result.event !== 'result') throw new Error('no result');
    expect(result.data.did).toBe(s.didWeb);
    expect(all.slice(0, stages).map((f) => f.data)).toEqual(result.data.trace);
    expect(all.at(-1)!.data).toEqual({});
  });

  it('stream: a DID that fails gives its stages, then error (the problem), then done', async () => {
    const all = await frames(client.stream('did:foo:bar'));
    expect(all.map((f) => f.event)).toEqual(['stage', 'error', 'done']);
    expect(all[1]!.data).toMatchObject({ code: 'METHOD_NOT_SUPPORTED', status: 501 });
  });

  it('stream: a problem answered before the stream starts is thrown by the first next() (400 INVALID_OPTIONS)', async () => {
    // An option the daemon does not take on this route, added to the URL on the way out.
    const counting = contractFetch((url) => `${url}?versionId=1`);
    const stream = new SvcClient({ baseUrl: s.daemonUrl, fetch: counting.fetch }).stream(s.didKey);
    const error = await svcError(stream.next());
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS', status: 400 });
    expect(counting.calls).toBe(1);
  });

  it('per-call signal: an aborted call rejects with the caller’s reason', async () => {
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(client.resolve(s.didKey, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('timeoutMs: no complete answer in time is CLIENT_NETWORK_ERROR', async () => {
    // The daemon answers, but the injected fetch is slower than the client's time limit.
    const slow: FetchLike = (input, init) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(fetch(input, init)), 2_000);
        init.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(init.signal!.reason);
        });
      });
    const error = await svcError(new SvcClient({ baseUrl: s.daemonUrl, fetch: slow, timeoutMs: 100 }).health());
    expect(error).toMatchObject({ code: 'CLIENT_NETWORK_ERROR', status: 0 });
  });

  it('a 200 that is not JSON, and an error status without a problem, are CLIENT_BAD_RESPONSE', async () => {
    // Not svc: a server (say, a misconfigured proxy) answering HTML and a bare 502.
    const server = http.createServer((req, res) => {
      if (req.url === '/health') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
      else res.writeHead(502, { 'content-type': 'text/plain', 'retry-after': '4' }).end('Bad Gateway');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const notSvc = new SvcClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      const html = await svcError(notSvc.health());
      expect(html).toMatchObject({ code: 'CLIENT_BAD_RESPONSE', status: 200, problem: undefined });
      const gateway = await svcError(notSvc.ready());
      expect(gateway).toMatchObject({ code: 'CLIENT_BAD_RESPONSE', status: 502, retryAfter: 4, problem: undefined });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the retry helper never retries a 400: one fetch', async () => {
    const counting = contractFetch();
    const waits: number[] = [];
    const retrying = new SvcClient({ baseUrl: s.daemonUrl, fetch: counting.fetch, retry: { attempts: 5, sleep: async (ms) => void waits.push(ms) } });
    const error = await svcError(retrying.resolve('not-a-did'));
    expect(error).toMatchObject({ code: 'INVALID_DID', status: 400 });
    expect(counting.calls).toBe(1);
    expect(waits).toEqual([]);
  });
});

describe('SvcClient monitoring calls (the operator token) against real daemons', () => {
  /** A webhook URL the egress policy of the scenario's daemons lets through (127.0.0.0/8); nothing listens there. */
  const HOOK = 'https://127.0.0.1:9/hook';

  /** contractFetch, also recording the Authorization header of every request (null when absent). */
  function authorizationFetch(): { fetch: FetchLike; authorization: Array<{ path: string; value: string | null }> } {
    const inner = contractFetch();
    const authorization: Array<{ path: string; value: string | null }> = [];
    return {
      authorization,
      fetch: (input, init) => {
        authorization.push({ path: new URL(input).pathname, value: new Headers(init.headers).get('authorization') });
        return inner.fetch(input, init);
      },
    };
  }

  it('createWatch, listWatches, listMonitorEvents, checkWatch, monitoringStatus, deleteWatch (a second delete: NOT_FOUND 404)', async () => {
    const recorded = authorizationFetch();
    const operator = new SvcClient({ baseUrl: s.monitoringUrl, fetch: recorded.fetch, adminToken: s.adminToken });

    const created = await operator.createWatch({ did: s.didKey, webhookUrl: HOOK, intervalSeconds: 300 });
    expect(created.secret.startsWith('whsec_')).toBe(true);
    expect(created.note).not.toBe('');
    expect(created.watch).toMatchObject({ did: s.didKey, webhook: HOOK, intervalSeconds: 300, active: true });
    expect(created.watch.id).toMatch(/^[0-9]+$/);
    const id = created.watch.id;

    const listed = await operator.listWatches();
    expect(listed.watches.map((w) => w.id)).toContain(id);
    expect(listed.watches.find((w) => w.id === id)).toMatchObject({ did: s.didKey, webhook: HOOK, intervalSeconds: 300 });
    // The secret is shown once, at creation: never in a listing.
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    for (const watch of listed.watches) expect(Object.keys(watch)).not.toContain('secret');

    expect(await operator.listMonitorEvents({ watchId: id })).toEqual({ events: [] });
    expect(Array.isArray((await operator.listMonitorEvents()).events)).toBe(true);
    // A did:key never changes: a check finds nothing to report.
    expect(await operator.checkWatch(id)).toEqual({ eventId: null, changed: false, delivery: 'none' });

    const status = await operator.monitoringStatus();
    expect(status.watches).toBe(listed.watches.length);
    expect(status.watches).toBeGreaterThanOrEqual(1);
    expect(status.watchLimit).toBeGreaterThanOrEqual(status.watches);

    // Read only: counts at the cutoff normalised to UTC (a fraction rounds up to the next second).
    const preview = await operator.monitoringRetentionPreview('2030-01-01T02:00:00.5+02:00');
    expect(preview).toMatchObject({ dryRun: true, cutoff: '2030-01-01T00:00:01Z' });
    for (const n of Object.values(preview.candidateCounts)) expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
    expect(preview.preservationRules.length).toBeGreaterThan(0);
    expect(await svcError(operator.retentionPreview('yesterday'))).toMatchObject({ code: 'INVALID_OPTIONS', status: 400 });

    expect(await operator.deleteWatch(id)).toBeUndefined();
    expect((await operator.listWatches()).watches.map((w) => w.id)).not.toContain(id);
    expect(await svcError(operator.deleteWatch(id))).toMatchObject({ code: 'NOT_FOUND', status: 404 });

    // The token went with every monitoring call, and with nothing else.
    await operator.health();
    await operator.resolve(s.didKey);
    for (const { path: route, value } of recorded.authorization) {
      expect(value, route).toBe(route.startsWith('/v1/monitoring/') ? `Bearer ${s.adminToken}` : null);
    }
    expect(recorded.authorization.filter((r) => r.value !== null).length).toBe(11);
  });

  it('a client without the token: UNAUTHORIZED (401) on every monitoring call', async () => {
    const anonymous = new SvcClient({ baseUrl: s.monitoringUrl, fetch: contractFetch().fetch });
    const calls: Array<Promise<unknown>> = [
      anonymous.createWatch({ did: s.didKey, webhookUrl: HOOK }),
      anonymous.listWatches(),
      anonymous.checkWatch('1'),
      anonymous.deleteWatch('1'),
      anonymous.listMonitorEvents(),
      anonymous.monitoringStatus(),
      anonymous.monitoringRetentionPreview('2030-01-01T00:00:00Z'),
    ];
    // Every call is read as it settles (one that fails before its turn is not an unhandled rejection).
    const errors = calls.map((call) => svcError(call));
    for (const error of errors) expect(await error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    // A wrong token is no better.
    const wrong = new SvcClient({ baseUrl: s.monitoringUrl, fetch: contractFetch().fetch, adminToken: `${s.adminToken}x` });
    expect(await svcError(wrong.listWatches())).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('a daemon without SVC_ADMIN_TOKEN: MONITORING_DISABLED (501), with the token or without', async () => {
    for (const adminToken of [s.adminToken, undefined]) {
      const c = new SvcClient({ baseUrl: s.daemonUrl, fetch: contractFetch().fetch, ...(adminToken !== undefined ? { adminToken } : {}) });
      expect(await svcError(c.monitoringStatus())).toMatchObject({ code: 'MONITORING_DISABLED', status: 501 });
      expect(await svcError(c.createWatch({ did: s.didKey, webhookUrl: HOOK }))).toMatchObject({ code: 'MONITORING_DISABLED', status: 501 });
      expect(await svcError(c.deleteWatch('1'))).toMatchObject({ code: 'MONITORING_DISABLED', status: 501 });
    }
  });

  it('the token is in no error: a network failure does not quote it, and a token that cannot be sent is refused without quoting it', async () => {
    const nowhere = new SvcClient({ baseUrl: s.unreachableUrl, adminToken: s.adminToken });
    const error = await svcError(nowhere.listWatches());
    expect(error).toMatchObject({ code: 'CLIENT_NETWORK_ERROR', status: 0 });
    expect(`${error.message} ${error.detail} ${String(error.cause)}`).not.toContain(s.adminToken);
    for (const bad of ['', 'two words', `${s.adminToken}\r\nX-Injected: 1`]) {
      let thrown: unknown;
      try {
        new SvcClient({ baseUrl: s.monitoringUrl, adminToken: bad });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      if (bad !== '') expect((thrown as TypeError).message).not.toContain(bad);
    }
  });
});

describe('signed results (docs/daemon.md#signed-results): asked for and verified by the client', () => {
  /** svc's own resolver, trusting the loopback host as the daemons do: the did:web signer's key is found through it. */
  const coreResolver = () =>
    signingKeyResolver(testRuntime(systemClock, { allow: ['127.0.0.0/8'], trustAnchors: [readFileSync(s.caFile, 'utf8')], lookup: tableLookup() }));

  it('resolve and verifyCredential, signed by the did:key daemon: VALID (the key decoded by the client, or found through svc’s core resolver)', async () => {
    const resolved = await client.resolve(s.didKey, { signed: true, expectedSigner: s.signer.did });
    expect(resolved.result.did).toBe(s.didKey);
    expect(resolved.signature).toMatchObject({ verified: true, reason: 'VALID', signer: s.signer });
    expect(resolved.jws).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/);
    const viaCore = await client.resolve(s.didKey, { signed: true, resolveKey: signingKeyResolver(testRuntime()) });
    expect(viaCore.signature.reason).toBe('VALID');
    const verified = await client.verifyCredential(s.credential, { signed: true, expectedSigner: s.signer.did });
    expect(verified.result.status).toBe('VALID');
    expect(verified.signature.reason).toBe('VALID');
    const { object, challenge, domain } = s.presentation;
    const presented = await client.verifyPresentation(object, { challenge, domain, signed: true, expectedSigner: s.signer.did });
    expect(presented.result.status).toBe('VALID');
    expect(presented.signature).toMatchObject({ verified: true, reason: 'VALID', signer: s.signer });
    // Unsigned calls are unchanged: the result itself.
    expect((await client.resolve(s.didKey)).did).toBe(s.didKey);
  });

  it('inspectMcp and inspectA2a, signed by the did:web daemon (P-256): VALID through svc’s resolver of the did:web', async () => {
    const web = new SvcClient({ baseUrl: s.monitoringUrl, fetch: contractFetch().fetch });
    const options = { signed: true, expectedSigner: s.webSigner.did, resolveKey: coreResolver() } as const;
    const mcp = await web.inspectMcp(s.mcpEndpoint, options);
    expect(mcp.result.endpoint).toBe(s.mcpEndpoint);
    expect(mcp.signature).toMatchObject({ verified: true, reason: 'VALID', signer: s.webSigner });
    const a2a = await web.inspectA2a(s.a2aUrl, options);
    expect(a2a.signature).toMatchObject({ verified: true, reason: 'VALID', signer: s.webSigner });
  });

  it('an edited result is EDITED; another signer than the one pinned, or another key under the kid, is WRONG_KEY', async () => {
    const { result, jws } = await client.resolve(s.didKey, { signed: true });
    const edited = { ...result, verdict: { ...result.verdict, outcome: 'DEACTIVATED' } };
    expect(await verifyResultSignature(edited, jws)).toMatchObject({ verified: false, reason: 'EDITED' });
    expect(await verifyResultSignature(result, jws, { expectedSigner: s.webSigner.did })).toMatchObject({ verified: false, reason: 'WRONG_KEY' });
    const otherKey = generateTestKey('EdDSA').publicJwk;
    expect(await verifyResultSignature(result, jws, { resolveKey: async () => otherKey })).toMatchObject({ verified: false, reason: 'WRONG_KEY' });
    expect(await verifyResultSignature(result, jws)).toMatchObject({ verified: true, reason: 'VALID' });
  });

  it('a daemon without a signing key: SvcError INVALID_OPTIONS (400) naming SVC_SIGNING_KEY, never an unsigned result', async () => {
    const unsigned = new SvcClient({ baseUrl: s.publicUrl, fetch: contractFetch().fetch });
    const error = await svcError(unsigned.resolve(s.didKey, { signed: true }));
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS', status: 400 });
    expect(error.detail).toContain('SVC_SIGNING_KEY');
  });
});

describe('SvcClient against the public daemon (rate limits)', () => {
  /** status() until the standard budget is used up; the 429's SvcError. */
  async function exhaust(c: SvcClient): Promise<SvcError> {
    for (let i = 0; i < 40; i++) {
      try {
        await c.status();
      } catch (error) {
        if (error instanceof SvcError && error.status === 429) return error;
        throw error;
      }
    }
    throw new Error('no 429 after 40 calls of a 20/min budget');
  }

  it('a 429 surfaces RATE_LIMITED with retryAfter, an integer ≥ 1 from the Retry-After header', async () => {
    const error = await exhaust(new SvcClient({ baseUrl: s.publicUrl, fetch: contractFetch().fetch }));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number.isInteger(error.retryAfter)).toBe(true);
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('the retry helper waits the Retry-After it was given, then succeeds', async () => {
    const plain = new SvcClient({ baseUrl: s.publicUrl });
    const first = await exhaust(plain);
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      await new Promise((resolve) => setTimeout(resolve, ms));
    };
    expect(first.retryAfter).toBeGreaterThanOrEqual(1);
    const counting = contractFetch();
    const retrying = new SvcClient({ baseUrl: s.publicUrl, fetch: counting.fetch }).withRetry({ attempts: 4, sleep });
    const started = Date.now();
    const status = await retrying.status();
    expect(status).toMatchObject({ status: 'ok', profile: 'public' });
    // The first try met the used-up budget (429 with Retry-After); the client waited at least
    // that long before the next, and the last try succeeded.
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(counting.calls).toBe(waits.length + 1);
    const givenSeconds = Number(counting.retryAfter[0]);
    expect(Number.isInteger(givenSeconds) && givenSeconds >= 1).toBe(true);
    expect(waits[0]).toBeGreaterThanOrEqual(givenSeconds * 1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waits[0]!);
  }, 60_000);
});
