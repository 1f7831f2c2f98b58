/**
 * Hostile JSON end to end: content that is not I-JSON — a lone surrogate above all,
 * which RFC 8785 cannot serialise — answered with the problem or result it deserves by the built
 * daemon and CLI, never 500 INTERNAL_ERROR (exit 4 with a stack). Real loopback HTTPS hosts of a
 * throw-away CA serve the documents, logs, cards and MCP replies; nothing is mocked.
 *
 *   did:jwk with "\ud800" in a member   /v1 400 INVALID_DID, /1.0 400, `svc resolve` exit 4
 *   did.json with "\ud800"              /v1 422 INVALID_DID_DOCUMENT, /1.0 500, exit 4
 *   did.jsonl entry with "\ud800"       /v1 422 INVALID_DID_DOCUMENT, exit 4
 *   A2A card with "\ud800"              /v1 422 INVALID_DID_DOCUMENT ("no agent card"), exit 4
 *   MCP tools/list with "\ud800"        /v1 422 INVALID_DID_DOCUMENT (not an MCP answer), exit 4
 *
 * Then a batch of hostile bodies (fast-check samples of ../property/support/hostile.ts) for the
 * POST routes and hostile identifiers for /v1/resolve and /1.0/identifiers: no 500, a problem
 * with a known code or a result, no stack trace in any body, and /health still 200 afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProblemCode } from '../../src/core/problems.js';
import { b64url } from '../support/codec.js';
import { assertBuilt, cleanEnv, parseCliError, svc } from '../support/cli.js';
import type { Daemon } from '../support/daemon.js';
import { call, expectJson, expectProblem, startDaemonFor, type Answer } from '../support/daemon-client.js';
import { documentPath, startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { raw } from '../support/https-server.js';
import { agentCard } from '../support/a2a-agent.js';
import { didDocument, generateTestKey, signBytes, signEddsaJcs2022 } from '../support/signing.js';
import { createWebvhLog } from '../support/webvh-log.js';
import { hostileJson, wtf8 } from '../property/support/hostile.js';

let host: DidWebHost;
let daemon: Daemon;
let dir: string;
let caFile: string;

beforeAll(async () => {
  assertBuilt();
  host = await startDidWebHost();
  dir = mkdtempSync(path.join(tmpdir(), 'svc-hostile-json-'));
  caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, host.ca.certPem);
  daemon = await startDaemonFor(host);
}, 30_000);

afterAll(async () => {
  await daemon?.stop();
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => svc(args, cleanEnv({ NODE_EXTRA_CA_CERTS: caFile, SVC_EGRESS_ALLOW: '127.0.0.0/8', NO_COLOR: '1' }));
const get = (route: string) => call(`${daemon.url}${route}`);

/** Text of a stack frame or a source location: never in an answer. */
const STACK = /\n\s+at \S|node:internal|file:\/\/\/|\([^()\s]*:\d+:\d+\)|\.[cm]?[jt]sx?:\d+:\d+/;

/**
 * A CLI run of `command` that failed with a problem: exit 4, nothing on stdout, one error block
 * on stderr (`svc: CODE: detail` with the detail a sentence on one line, at most the failed
 * stages, the command's --help as the hint), no stack. Returns the detail.
 */
function expectCliProblem(run: { exitCode: number; stderr: string; stdout: string }, command: string, code: string): string {
  expect({ exitCode: run.exitCode, stdout: run.stdout }, run.stderr).toEqual({ exitCode: 4, stdout: '' });
  const error = parseCliError(run.stderr);
  expect(error).toMatchObject({ code, detail: expect.stringMatching(/.\.$/), stageDetails: [], hint: `see 'svc ${command} --help'` });
  expect(run.stderr).not.toMatch(STACK);
  expect(run.stderr).not.toContain('INTERNAL_ERROR');
  return error.detail;
}

/** A lone surrogate as JSON writes it: the six characters \ud800. */
const LONE = '"\\ud800"';

describe('a lone surrogate on each surface: its precise problem, never 500', () => {
  const jwkDid = `did:jwk:${b64url(`{"kty":"OKP","crv":"Ed25519","x":${LONE}}`)}`;

  it('did:jwk with "\\ud800" in a member: /v1 400 INVALID_DID, /1.0 400, svc resolve exit 4 with a one-line reason', async () => {
    const problem = expectProblem(await get(`/v1/resolve/${jwkDid}`), 400, 'INVALID_DID');
    expect(problem.detail).toBe('Not a valid did:jwk: the decoded JWK is malformed (lone surrogate \\ud800 in a string).');
    const w3c = expectJson(await get(`/1.0/identifiers/${jwkDid}`), 400, 'application/did-resolution');
    expect(w3c.didResolutionMetadata.error).toMatchObject({ code: 'INVALID_DID', status: 400 });

    const detail = expectCliProblem(await cli(['resolve', jwkDid]), 'resolve', 'INVALID_DID');
    expect(detail).toContain('lone surrogate \\ud800');
  });

  it('a did:web whose did.json holds "\\ud800": /v1 422 INVALID_DID_DOCUMENT, /1.0 500 embedded, exit 4', async () => {
    const did = host.did('surrogate');
    const text = JSON.stringify(didDocument(did, host.key)).replace('"id":', `"alsoKnownAs":[${LONE}],"id":`);
    host.server.route(documentPath(did), raw(text, { contentType: 'application/did+json' }));

    const problem = expectProblem(await get(`/v1/resolve/${did}?noCache=true`), 422, 'INVALID_DID_DOCUMENT');
    expect(problem.detail).toMatch(/is not I-JSON: it has a lone surrogate \\ud800 in a string \(at offset \d+\), which RFC 7493 forbids\.$/);
    const w3c = expectJson(await get(`/1.0/identifiers/${did}?noCache=true`), 500, 'application/did-resolution');
    expect(w3c.didResolutionMetadata.error).toMatchObject({ code: 'INVALID_DID_DOCUMENT', status: 500 });

    expectCliProblem(await cli(['resolve', did]), 'resolve', 'INVALID_DID_DOCUMENT');
  });

  it('a did:webvh whose did.jsonl entry holds "\\ud800": /v1 422 INVALID_DID_DOCUMENT naming the entry, exit 4', async () => {
    const log = createWebvhLog({ domain: `localhost%3A${host.server.port}` });
    const line = JSON.stringify(log.entries[0]).replace('"state":{', `"state":{"alsoKnownAs":[${LONE}],`);
    host.server.route('/.well-known/did.jsonl', raw(`${line}\n`, { contentType: 'text/jsonl' }));

    const problem = expectProblem(await get(`/v1/resolve/${log.did}?noCache=true`), 422, 'INVALID_DID_DOCUMENT');
    expect(problem.detail).toContain('lone surrogate \\ud800');
    expectCliProblem(await cli(['resolve', log.did]), 'resolve', 'INVALID_DID_DOCUMENT');
  });

  it('an A2A card holding "\\ud800": /v1 422 INVALID_DID_DOCUMENT (no agent card), exit 4', async () => {
    const url = `${host.server.origin}/surrogate/agent-card.json`;
    const text = JSON.stringify(agentCard(host.server.origin)).replace('"description":"Finds recipes and plans meals."', `"description":${LONE}`);
    host.server.route('/surrogate/agent-card.json', raw(text, { contentType: 'application/json' }));

    const problem = expectProblem(await get(`/v1/a2a/inspect?url=${encodeURIComponent(url)}`), 422, 'INVALID_DID_DOCUMENT');
    expect(problem.detail).toContain('is no agent card: the agent card is not I-JSON');
    expectCliProblem(await cli(['inspect-a2a', url]), 'inspect-a2a', 'INVALID_DID_DOCUMENT');
  });

  it('an MCP server whose tools/list reply holds "\\ud800": /v1 502 UPSTREAM_UNAVAILABLE (an answer that is not MCP; an endpoint has no DID document), exit 4', async () => {
    const endpoint = `${host.server.origin}/surrogate/mcp`;
    host.server.route('/surrogate/mcp', (req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const { id, method } = JSON.parse(body) as { id?: number; method?: string };
        const reply =
          method === 'server/discover'
            ? JSON.stringify({ jsonrpc: '2.0', id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } })
            : `{"jsonrpc":"2.0","id":${id},"result":{"tools":[{"name":${LONE},"inputSchema":{"type":"object"}}]}}`;
        res.writeHead(200, { 'content-type': 'application/json' }).end(reply);
      });
    });

    const problem = expectProblem(await get(`/v1/mcp/inspect?endpoint=${encodeURIComponent(endpoint)}`), 502, 'UPSTREAM_UNAVAILABLE');
    expect(problem.detail).toContain('lone surrogate \\ud800');
    expectCliProblem(await cli(['inspect-mcp', endpoint, '--no-store']), 'inspect-mcp', 'UPSTREAM_UNAVAILABLE');
  });
});

describe('a batch of hostile bodies and identifiers against the daemon', () => {
  const key = generateTestKey('EdDSA');
  const did = `did:key:${key.multikey!}`;
  const kid = `${did}#${key.multikey!}`;
  const now = Math.floor(Date.now() / 1000);
  const credential = signEddsaJcs2022(
    {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential'],
      issuer: did,
      validFrom: '2025-01-01T00:00:00Z',
      credentialSubject: { id: 'did:example:alice', name: 'Alice' },
    },
    key,
    kid,
  );
  const sign = (header: string, payload: string) => {
    const input = `${b64url(wtf8(header))}.${b64url(wtf8(payload))}`;
    return `${input}.${b64url(signBytes('EdDSA', key.privateKey, Buffer.from(input)))}`;
  };
  const receiptHeader = JSON.stringify({ alg: 'EdDSA', typ: 'svc-delegation+jwt', kid });
  const receiptPayload = { iss: did, aud: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', cap: ['*'], nbf: now - 600, exp: now + 3600 };
  const policy = { name: 'gate', rules: { didResolution: 'required', allowedMethods: ['key'], minKeyBits: 256 } };

  /** `n` hostile texts made from `base` (a fixed seed: the same batch every run). */
  const sample = (base: unknown, n: number, seed: number) => fc.sample(hostileJson(base), { numRuns: n, seed }).map((c) => c.text);

  const N = 12;
  const bodies: Array<{ route: string; body: Buffer }> = [
    ...sample(credential, N, 1).map((text) => ({ route: '/v1/credentials/verify', body: wtf8(text) })),
    ...sample({ credential }, N, 2).map((text) => ({ route: '/v1/credentials/verify', body: wtf8(text) })),
    ...sample(credential, N, 3).map((text) => ({ route: '/v1/credentials/verify', body: Buffer.from(JSON.stringify({ credential: text })) })),
    ...sample({ alg: 'EdDSA', typ: 'vc+jwt', kid }, N, 4).map((h) => ({
      route: '/v1/credentials/verify',
      body: Buffer.from(JSON.stringify({ credential: sign(h, JSON.stringify({ ...credential, iss: did })) })),
    })),
    ...sample({ alg: 'EdDSA', kid }, N, 5).map((h) => ({
      route: '/v1/fast-verify/jws',
      body: Buffer.from(JSON.stringify({ jws: sign(h, '{"hello":"world"}') })),
    })),
    ...sample({ hello: 'world', n: [1, 2] }, N, 6).map((p) => ({
      route: '/v1/fast-verify/jws',
      body: Buffer.from(JSON.stringify({ jws: sign(JSON.stringify({ alg: 'EdDSA', kid }), p) })),
    })),
    ...sample({ did, policy }, N, 7).map((text) => ({ route: '/v1/policies/evaluate', body: wtf8(text) })),
    ...sample(credential, N, 8).map((text) => ({ route: '/v1/policies/evaluate', body: Buffer.from(JSON.stringify({ did, policy, credential: text })) })),
    ...sample(receiptPayload, N, 9).map((p) => ({
      route: '/v1/agents/verify-delegation',
      body: Buffer.from(JSON.stringify({ chain: [sign(receiptHeader, p)] })),
    })),
    ...sample({ chain: [sign(receiptHeader, JSON.stringify(receiptPayload))], trustedRoots: [did] }, N, 10).map((text) => ({
      route: '/v1/agents/verify-delegation',
      body: wtf8(text),
    })),
  ];
  const jwk = { kty: 'OKP', crv: 'Ed25519', x: key.publicJwk.x };
  const identifiers = [
    ...sample(jwk, N, 11).map((text) => `did:jwk:${b64url(wtf8(text))}`),
    'did:web:%ED%A0%80.example',
    'did:web:example.com:%ED%A0%80',
    'did:web:exa%00mple.com',
    `did:key:z${'\u{1F600}'}`,
    'did:key:z%ED%A0%80',
    `did:webvh:${'Q'.repeat(46)}:%ED%A0%80`,
  ];

  /** No 500, a problem with a known code (never INTERNAL_ERROR) or a 2xx result, no stack text. */
  function expectAnswer(answer: Answer, where: string, allow500 = false): void {
    const label = `${where} → ${answer.status} ${answer.text.slice(0, 300)}`;
    expect(answer.text, label).not.toMatch(STACK);
    expect(answer.text, label).not.toContain('INTERNAL_ERROR');
    if (!allow500) expect(answer.status, label).not.toBe(500);
    if (answer.status >= 400) {
      const body = answer.json();
      const code = body.code ?? body.didResolutionMetadata?.error?.code;
      expect(isProblemCode(code), label).toBe(true);
    }
  }

  it('POST routes, /v1/resolve and /1.0/identifiers: answered without 500 or a stack; /health stays 200', async () => {
    for (const { route, body } of bodies) {
      const answer = await call(`${daemon.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expectAnswer(answer, `POST ${route} ${body.toString('utf8').slice(0, 120)}`);
    }
    for (const id of identifiers) {
      const encoded = encodeURIComponent(id);
      expectAnswer(await get(`/v1/resolve/${encoded}`), `/v1/resolve/${id.slice(0, 120)}`);
      // /1.0 answers INVALID_DID_DOCUMENT with 500; the code says which problem it is.
      expectAnswer(await get(`/1.0/identifiers/${encoded}`), `/1.0/identifiers/${id.slice(0, 120)}`, true);
    }
    expectJson(await get('/health'), 200);
    expect(daemon.stderr()).not.toContain('request failed');
  }, 120_000);
});
