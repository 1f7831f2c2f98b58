/**
 * `svc serve` over real HTTP (started in this process from its command line; as a process only
 * where its exit code is the subject): delegation receipts and the registry.
 * Receipts are minted here with `jose` SignJWT by did:key issuers and by did:web issuers on a
 * loopback HTTPS host (test CA). The registry is exercised across restarts of the daemon (stopped,
 * started again) on one database file: a registered chain survives, a chain whose issuer key left
 * capabilityDelegation is dropped by the re-verification at start, an expired chain is never
 * used, and SVC_DELEGATION_ROOTS refuses other roots.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonHandle } from '../support/daemon.js';
import { call, expectJson, expectProblem, startDaemonFor, startInProcessDaemonFor, until } from '../support/daemon-client.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { didKeyPrincipal, mintReceipt, type Principal } from '../support/receipts.js';
import { generateTestKey, type TestKey } from '../support/signing.js';
import { tempDir } from '../support/store.js';

let host: DidWebHost;
let daemon: DaemonHandle;

beforeAll(async () => {
  host = await startDidWebHost();
  daemon = await startInProcessDaemonFor(host);
});
afterAll(async () => {
  await daemon?.stop();
  await host?.close();
});

const didKey = didKeyPrincipal;

/** A did:web document with one Ed25519 Multikey (#key-1) under the given relationships. */
function webDocument(did: string, key: TestKey, relationships: string[]): Record<string, unknown> {
  const id = `${did}#key-1`;
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [{ id, type: 'Multikey', controller: did, publicKeyMultibase: key.multikey }],
    ...Object.fromEntries(relationships.map((r) => [r, [id]])),
  };
}

/** A did:web principal on the loopback host, its key under capabilityDelegation. */
function didWeb(...segments: string[]): Principal & { key: TestKey } {
  const key = generateTestKey('EdDSA');
  const did = host.did(...segments);
  host.publish(did, webDocument(did, key, ['assertionMethod', 'capabilityDelegation']));
  return { did, kid: `${did}#key-1`, privateKey: key.privateKey, key };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const receipt = mintReceipt;

/** root → middle → agent: `*`, then `cap` at the leaf (default payments:* and search). */
async function chainTo(agent: Principal, options: { root?: Principal; cap?: string[]; exp?: number } = {}): Promise<{ chain: string[]; root: Principal }> {
  const root = options.root ?? didKey();
  const middle = didKey();
  // One clock reading for both links: minted a second apart, the leaf would outlive its parent.
  const now = nowSeconds();
  const first = await receipt(root, middle, { cap: ['*'], nbf: now - 60, exp: now + 3600 });
  const leaf = await receipt(middle, agent, { cap: options.cap ?? ['payments:*', 'search'], parent: first, nbf: now - 60, exp: options.exp ?? now + 3600 });
  return { chain: [first, leaf], root };
}

const JSON_HEADERS = { 'content-type': 'application/json' };

function post(base: string, route: string, body: unknown) {
  return call(`${base}${route}`, { method: 'POST', headers: JSON_HEADERS, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

function verifyTool(base: string, query: Record<string, string>) {
  return call(`${base}/v1/agents/verify-tool?${new URLSearchParams(query).toString()}`);
}

async function register(base: string, chain: string[], extra: Record<string, unknown> = {}): Promise<any> {
  return expectJson(await post(base, '/v1/agents/verify-delegation', { chain, register: true, ...extra }), 200);
}

describe('POST /v1/agents/verify-delegation', () => {
  it('verifies a did:key chain: VALID, not registered by default', async () => {
    const agent = didKey();
    const { chain, root } = await chainTo(agent);
    const body = expectJson(await post(daemon.url, '/v1/agents/verify-delegation', { chain }), 200);
    expect(Object.keys(body)).toEqual(['result', 'registered']);
    expect(body.registered).toBe(false);
    expect(body.result).toMatchObject({ status: 'VALID', root: root.did, leaf: agent.did, effectiveCapabilities: ['payments:*', 'search'] });
    expect(body.result.links).toHaveLength(2);
    // Not registered: verify-tool knows nothing of it.
    const answer = expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'search' }), 200);
    expect(answer).toEqual({
      agent: agent.did,
      tool: 'search',
      decision: 'DENY',
      authorized: false,
      reason: `No verified delegation is registered for the agent ${agent.did}.`,
    });
  });

  it('register: true stores a VALID chain (did:web root on the loopback host)', async () => {
    const agent = didKey();
    const root = didWeb('delegation', 'registered-root');
    const { chain } = await chainTo(agent, { root });
    const body = await register(daemon.url, chain);
    expect(body).toMatchObject({ registered: true, result: { status: 'VALID', root: root.did } });
    expect(body.registrationReason).toBeUndefined();
    const answer = expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'payments:refund' }), 200);
    expect(answer).toMatchObject({ decision: 'ALLOW', authorized: true, matchedCapability: 'payments:*', root: root.did, expires: body.result.notAfter });
  });

  it('answers the empty chain with the MALFORMED result and registers nothing', async () => {
    const body = expectJson(await post(daemon.url, '/v1/agents/verify-delegation', { chain: [], register: true }), 200);
    expect(body.registered).toBe(false);
    expect(body.result).toMatchObject({ status: 'MALFORMED', effectiveCapabilities: [], root: null, leaf: null, notAfter: null, trustedRoot: null, links: [] });
    expect(body.result.checks).toEqual([expect.objectContaining({ id: 'depth', status: 'FAIL' })]);
  });

  it('registers nothing that is not VALID, saying why (a root outside trustedRoots)', async () => {
    const agent = didKey();
    const { chain } = await chainTo(agent);
    const body = await register(daemon.url, chain, { trustedRoots: [didKey().did] });
    expect(body).toMatchObject({
      registered: false,
      registrationReason: 'Only a VALID chain is registered; this chain is INVALID.',
      result: { status: 'INVALID' },
    });
    expect(expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'search' }), 200).decision).toBe('DENY');
  });

  it('refuses badly shaped requests with 400', async () => {
    const route = '/v1/agents/verify-delegation';
    const { chain } = await chainTo(didKey());
    const cases: Array<[unknown, string, RegExp]> = [
      [{}, 'INVALID_REQUEST', /"chain" \(required\)/],
      [{ chain: chain[0] }, 'INVALID_REQUEST', /"chain" must be an array/],
      [{ chain: [chain[0], 7] }, 'INVALID_REQUEST', /"chain\[1\]" must be a string, not the integer 7/],
      [{ chain: Array.from({ length: 65 }, () => 'x') }, 'INVALID_REQUEST', /65 entries/],
      [{ chain, trustedRoots: 'did:key:z6Mk' }, 'INVALID_REQUEST', /"trustedRoots" must be an array/],
      [{ chain, trustedRoots: ['not-a-did'] }, 'INVALID_DID', /"trustedRoots\[0\]"/],
      [{ chain, trustedRoots: [`${didKey().kid}`] }, 'INVALID_DID', /"trustedRoots\[0\]".*DID URL/],
      [{ chain, register: 'yes' }, 'INVALID_REQUEST', /"register" must be true or false/],
      [{ chain, registr: true }, 'INVALID_REQUEST', /Unknown member "registr"/],
      [[chain], 'INVALID_REQUEST', /must be a JSON object/],
      ['{"chain":[],"chain":[]}', 'INVALID_REQUEST', /not acceptable JSON/],
    ];
    for (const [body, code, detail] of cases) {
      const problem = expectProblem(await post(daemon.url, route, body), 400, code);
      expect(problem.detail, JSON.stringify(body).slice(0, 80)).toMatch(detail);
    }
    // Nine receipts are still examined: the core's MALFORMED depth result.
    const nine = expectJson(await post(daemon.url, route, { chain: Array.from({ length: 9 }, () => chain[0]) }), 200);
    expect(nine.result).toMatchObject({ status: 'MALFORMED', checks: [expect.objectContaining({ id: 'depth', status: 'FAIL' })] });
  });

  it('GET is 405 with Allow: POST', async () => {
    const answer = await call(`${daemon.url}/v1/agents/verify-delegation`);
    expectProblem(answer, 405, 'METHOD_NOT_ALLOWED');
    expect(answer.header('allow')).toContain('POST');
  });
});

describe('POST /v1/agents/authorize', () => {
  it('ALLOWs a tool a leaf capability grants, DENYs one out of scope, stateless', async () => {
    const agent = didKey();
    const { chain, root } = await chainTo(agent);
    const allowed = expectJson(await post(daemon.url, '/v1/agents/authorize', { chain, tool: 'payments:refund' }), 200);
    expect(Object.keys(allowed)).toEqual(['authorization', 'chain']);
    expect(allowed.chain.status).toBe('VALID');
    expect(allowed.authorization).toMatchObject({
      agent: agent.did,
      tool: 'payments:refund',
      decision: 'ALLOW',
      authorized: true,
      matchedCapability: 'payments:*',
      root: root.did,
      expires: allowed.chain.notAfter,
    });
    expect(allowed.authorization.reason).toContain('"payments:*"');

    const scope = expectJson(await post(daemon.url, '/v1/agents/authorize', { chain, tool: 'refund' }), 200);
    expect(scope.authorization).toMatchObject({ decision: 'DENY', authorized: false });
    expect(scope.authorization.reason).toMatch(/none of its capabilities/);
    expect(scope.authorization.matchedCapability).toBeUndefined();
    // Nothing was stored.
    expect(expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'payments:refund' }), 200).decision).toBe('DENY');
  });

  it('DENYs with the chain headline when the chain is not valid', async () => {
    const { chain } = await chainTo(didKey());
    const body = expectJson(await post(daemon.url, '/v1/agents/authorize', { chain: [chain[1]], tool: 'search' }), 200);
    expect(body.chain.status).toBe('INVALID');
    expect(body.authorization).toMatchObject({ decision: 'DENY', authorized: false, reason: body.chain.headline });
    const untrusted = expectJson(await post(daemon.url, '/v1/agents/authorize', { chain, tool: 'search', trustedRoots: [didKey().did] }), 200);
    expect(untrusted.authorization).toMatchObject({ decision: 'DENY', reason: untrusted.chain.headline });
  });

  it('a missing tool, an empty one or an unknown member is 400; GET is 405', async () => {
    const { chain } = await chainTo(didKey());
    expect(expectProblem(await post(daemon.url, '/v1/agents/authorize', { chain }), 400, 'INVALID_REQUEST').detail).toMatch(/"tool" \(required\)/);
    expectProblem(await post(daemon.url, '/v1/agents/authorize', { chain, tool: '' }), 400, 'INVALID_REQUEST');
    expectProblem(await post(daemon.url, '/v1/agents/authorize', { tool: 'search' }), 400, 'INVALID_REQUEST');
    expectProblem(await post(daemon.url, '/v1/agents/authorize', { chain, tool: 'search', register: true }), 400, 'INVALID_REQUEST');
    expectProblem(await call(`${daemon.url}/v1/agents/authorize`), 405, 'METHOD_NOT_ALLOWED');
  });
});

describe('GET /v1/agents/verify-tool', () => {
  it('answers from a registered chain; without root it names the root relied on; root is honoured', async () => {
    const agent = didKey();
    const { chain, root } = await chainTo(agent);
    expect((await register(daemon.url, chain)).registered).toBe(true);

    const allowed = expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'search' }), 200);
    expect(allowed).toMatchObject({ agent: agent.did, tool: 'search', decision: 'ALLOW', authorized: true, matchedCapability: 'search', root: root.did });
    expect(allowed.reason).toContain('"search"');
    expect(allowed.reason).toContain(`this answer relies on the root ${root.did}`);
    expect(allowed.reason).toContain('No root was required');

    const rooted = expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'search', root: root.did }), 200);
    expect(rooted).toMatchObject({ decision: 'ALLOW', root: root.did });
    expect(rooted.reason).not.toContain('No root was required');

    const other = didKey().did;
    expect(expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'search', root: other }), 200)).toEqual({
      agent: agent.did,
      tool: 'search',
      decision: 'DENY',
      authorized: false,
      reason: `No verified delegation rooted in ${other} is registered for the agent ${agent.did}.`,
    });
    const scope = expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'delete' }), 200);
    expect(scope).toMatchObject({ decision: 'DENY', authorized: false });
    expect(scope.reason).toContain('"payments:*", "search"');
    // The agent's DID is compared without fragment.
    expect(expectJson(await verifyTool(daemon.url, { agent: agent.kid, tool: 'search' }), 200).decision).toBe('ALLOW');
  });

  it('refuses a missing or invalid agent, tool or root, and unknown options, with 400; POST is 405', async () => {
    const agent = didKey().did;
    expect(expectProblem(await verifyTool(daemon.url, { tool: 'search' }), 400, 'INVALID_OPTIONS').detail).toBe(
      'The query option "agent" (required) is missing; give the DID of the agent (a fragment is ignored).',
    );
    expect(expectProblem(await verifyTool(daemon.url, { agent }), 400, 'INVALID_OPTIONS').detail).toBe(
      'The query option "tool" (required) is missing; give the name of the tool.',
    );
    expect(expectProblem(await verifyTool(daemon.url, { agent, tool: '' }), 400, 'INVALID_OPTIONS').detail).toMatch(
      /^The query option "tool" must not be empty/,
    );
    expectProblem(await verifyTool(daemon.url, { agent: 'someone', tool: 'search' }), 400, 'INVALID_DID');
    expectProblem(await verifyTool(daemon.url, { agent: `${agent}/path`, tool: 'search' }), 400, 'INVALID_DID');
    expectProblem(await verifyTool(daemon.url, { agent, tool: 'search', root: 'nobody' }), 400, 'INVALID_DID');
    expectProblem(await verifyTool(daemon.url, { agent, tool: 'search', scope: 'x' }), 400, 'INVALID_OPTIONS');
    expectProblem(await call(`${daemon.url}/v1/agents/verify-tool?agent=${agent}&agent=${agent}&tool=x`), 400, 'INVALID_OPTIONS');
    expectProblem(await post(daemon.url, '/v1/agents/verify-tool', {}), 405, 'METHOD_NOT_ALLOWED');
  });
});

describe('the registry across restarts (one database file)', () => {
  it('a registered chain survives a restart; a chain whose issuer key left capabilityDelegation is dropped', async () => {
    const { dir, cleanup } = tempDir('svc-delegation-');
    const dbPath = path.join(dir, 'svc.db');
    try {
      const kept = didKey();
      const keptChain = await chainTo(kept);
      const rotated = didKey();
      const issuer = didWeb('delegation', 'rotating');
      const rotatedChain = await chainTo(rotated, { root: issuer });

      const first = await startInProcessDaemonFor(host, { dbPath });
      try {
        await until('the first re-verification', () => first.stderr().includes('delegation registry re-verified'));
        expect((await register(first.url, keptChain.chain)).registered).toBe(true);
        expect((await register(first.url, rotatedChain.chain)).registered).toBe(true);
        expect(expectJson(await verifyTool(first.url, { agent: rotated.did, tool: 'search' }), 200).decision).toBe('ALLOW');
      } finally {
        await first.stop();
      }

      // The issuer's key is still published, but no longer for capabilityDelegation.
      host.publish(issuer.did, webDocument(issuer.did, issuer.key, ['assertionMethod']));

      const second = await startInProcessDaemonFor(host, { dbPath });
      try {
        const survived = expectJson(await verifyTool(second.url, { agent: kept.did, tool: 'payments:capture' }), 200);
        expect(survived).toMatchObject({ decision: 'ALLOW', root: keptChain.root.did, matchedCapability: 'payments:*' });
        expect(expectJson(await verifyTool(second.url, { agent: rotated.did, tool: 'search' }), 200)).toEqual({
          agent: rotated.did,
          tool: 'search',
          decision: 'DENY',
          authorized: false,
          reason: `No verified delegation is registered for the agent ${rotated.did}.`,
        });
        expect(second.stderr()).toContain('delegation registry re-verified: 1 kept, 1 dropped');
        expect(second.stderr()).toMatch(/dropped: The delegation chain is invalid: receipt 1 \(signature\)/);
      } finally {
        await second.stop();
      }

      // Dropped means deleted: a third start has only the surviving chain left.
      const third = await startInProcessDaemonFor(host, { dbPath });
      try {
        await until('the third re-verification', () => third.stderr().includes('delegation registry re-verified'));
        expect(third.stderr()).toContain('delegation registry re-verified: 1 kept, 0 dropped');
      } finally {
        await third.stop();
      }
    } finally {
      cleanup();
    }
  });

  it('an expired registered chain is never used', async () => {
    const agent = didKey();
    const exp = nowSeconds() + 3;
    const { chain } = await chainTo(agent, { exp });
    const body = await register(daemon.url, chain);
    expect(body.registered).toBe(true);
    expect(expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'search' }), 200).decision).toBe('ALLOW');
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 100));
    expect(expectJson(await verifyTool(daemon.url, { agent: agent.did, tool: 'search' }), 200)).toMatchObject({
      decision: 'DENY',
      reason: `No verified delegation is registered for the agent ${agent.did}.`,
    });
  });
});

describe('SVC_DELEGATION_ROOTS', () => {
  it('registers only chains rooted in a listed DID', async () => {
    const allowedRoot = didKey();
    const other = didKey();
    const restricted = await startInProcessDaemonFor(null, { env: { SVC_DELEGATION_ROOTS: ` ${didKey().did}, ${allowedRoot.did} ` } });
    try {
      const agent = didKey();
      const refused = await register(restricted.url, (await chainTo(agent, { root: other })).chain);
      expect(refused).toMatchObject({
        registered: false,
        registrationReason: `The root ${other.did} is not among the roots this service allows to register delegations.`,
        result: { status: 'VALID' },
      });
      expect(expectJson(await verifyTool(restricted.url, { agent: agent.did, tool: 'search' }), 200).decision).toBe('DENY');

      const accepted = await register(restricted.url, (await chainTo(agent, { root: allowedRoot })).chain);
      expect(accepted.registered).toBe(true);
      expect(expectJson(await verifyTool(restricted.url, { agent: agent.did, tool: 'search' }), 200)).toMatchObject({
        decision: 'ALLOW',
        root: allowedRoot.did,
      });
    } finally {
      await restricted.stop();
    }
  });

  it('a registered chain whose root is no longer listed is dropped at the next start', async () => {
    const { dir, cleanup } = tempDir('svc-delegation-roots-');
    const dbPath = path.join(dir, 'svc.db');
    try {
      const [listed, unlisted] = [didKey(), didKey()];
      const [agent1, agent2] = [didKey(), didKey()];
      const open = await startInProcessDaemonFor(null, { dbPath });
      try {
        expect((await register(open.url, (await chainTo(agent1, { root: listed })).chain)).registered).toBe(true);
        expect((await register(open.url, (await chainTo(agent2, { root: unlisted })).chain)).registered).toBe(true);
      } finally {
        await open.stop();
      }
      const restricted = await startInProcessDaemonFor(null, { dbPath, env: { SVC_DELEGATION_ROOTS: listed.did } });
      try {
        expect(expectJson(await verifyTool(restricted.url, { agent: agent1.did, tool: 'search' }), 200).decision).toBe('ALLOW');
        expect(expectJson(await verifyTool(restricted.url, { agent: agent2.did, tool: 'search' }), 200).decision).toBe('DENY');
        expect(restricted.stderr()).toContain('delegation registry re-verified: 1 kept, 1 dropped');
      } finally {
        await restricted.stop();
      }
    } finally {
      cleanup();
    }
  });

  it('an entry that is not a DID stops the daemon at start (exit 2)', async () => {
    await expect(startDaemonFor(null, { env: { SVC_DELEGATION_ROOTS: 'did:key:z6Mk,not-a-did' } })).rejects.toThrow(/exited \(2\)[\s\S]*SVC_DELEGATION_ROOTS/);
  });
});
