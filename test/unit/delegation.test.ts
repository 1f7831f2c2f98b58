/**
 * Delegation chains: receipts minted with an independent library (`jose`
 * SignJWT) by did:key issuers, resolved by svc's core. Each of rules 1–9 is broken alone by one
 * chain, which must fail with that rule's check id; the other checks of that chain pass.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  authorize,
  capabilityCovered,
  grants,
  validateCapability,
  verifyDelegationChain,
  type DelegationChainResult,
} from '../../src/core/delegation/index.js';
import { fixedClock, testRuntime } from '../support/runtime.js';
import { generateTestKey, type TestKey } from '../support/signing.js';
import { jwtIssuer, type JwtIssuer } from '../support/peer-issuers.js';

const NOW = Date.parse('2025-03-04T05:06:07Z') / 1000;
const runtime = () => testRuntime(fixedClock('2025-03-04T05:06:07Z'));

interface Principal {
  did: string;
  kid: string;
  privateKey: KeyObject;
  alg: 'EdDSA' | 'ES256' | 'ES256K';
}

function principal(key: TestKey = generateTestKey('EdDSA')): Principal {
  const did = `did:key:${key.multikey!}`;
  return { did, kid: `${did}#${key.multikey!}`, privateKey: key.privateKey, alg: 'EdDSA' };
}

function fromJwtIssuer(issuer: JwtIssuer): Principal {
  return { did: issuer.did, kid: issuer.kid, privateKey: issuer.privateKey, alg: issuer.alg };
}

const digest = (compact: string) => createHash('sha256').update(compact).digest('hex');

interface ReceiptOptions {
  cap?: string[];
  nbf?: number;
  exp?: number;
  parent?: string | null;
  prf?: string;
  kid?: string;
  signer?: KeyObject;
  payload?: Record<string, unknown>;
  header?: Record<string, unknown>;
}

/** A receipt from `iss` to `aud` minted with jose. */
async function receipt(iss: Principal, aud: Principal, options: ReceiptOptions = {}): Promise<string> {
  const payload: Record<string, unknown> = {
    iss: iss.did,
    aud: aud.did,
    cap: options.cap ?? ['*'],
    nbf: options.nbf ?? NOW - 600,
    exp: options.exp ?? NOW + 3600,
    jti: `urn:uuid:${crypto.randomUUID()}`,
    ...(options.prf !== undefined ? { prf: options.prf } : options.parent ? { prf: digest(options.parent) } : {}),
    ...options.payload,
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: iss.alg, typ: 'svc-delegation+jwt', kid: options.kid ?? iss.kid, ...options.header })
    .sign(options.signer ?? iss.privateKey);
}

/** A → B → C, each link narrowing: * then payments:* then payments:refund. */
async function validChain(): Promise<{ chain: string[]; a: Principal; b: Principal; c: Principal }> {
  const [a, b, c] = [principal(), principal(), principal()];
  const root = await receipt(a, b, { cap: ['*'] });
  const leaf = await receipt(b, c, { cap: ['payments:*', 'search'], parent: root, nbf: NOW - 300, exp: NOW + 1800 });
  return { chain: [root, leaf], a, b, c };
}

function failing(result: DelegationChainResult): string[] {
  return [
    ...result.checks.filter((c) => c.status === 'FAIL').map((c) => c.id),
    ...result.links.flatMap((l) => l.checks.filter((c) => c.status === 'FAIL').map((c) => `${l.index}:${c.id}`)),
  ];
}

describe('capabilities', () => {
  it('grants as docs/delegation.md#capabilities says, case-insensitively; labels do not partition tools', () => {
    expect(grants('*', 'anything')).toBe(true);
    expect(grants('payments:*', 'payments:refund')).toBe(true);
    expect(grants('Payments:*', 'PAYMENTS:Refund')).toBe(true);
    expect(grants('payments:*', 'refund')).toBe(false);
    expect(grants('payments:*', 'paymentsX:refund')).toBe(false);
    expect(grants('payments:refund', 'payments:refund')).toBe(true);
    expect(grants('refund', 'refund')).toBe(true);
    expect(grants('refund', 'payments:refund')).toBe(false);
  });

  it('covers a child only when every tool it grants is granted by the parent', () => {
    expect(capabilityCovered(['*'], '*')).toBe(true);
    expect(capabilityCovered(['payments:*'], '*')).toBe(false);
    expect(capabilityCovered(['payments:*'], 'payments:refund')).toBe(true);
    expect(capabilityCovered(['payments:*'], 'payments:eu:*')).toBe(true);
    expect(capabilityCovered(['payments:refund'], 'payments:*')).toBe(false);
    expect(capabilityCovered(['search'], 'SEARCH')).toBe(true);
  });

  it('refuses malformed capability strings', () => {
    for (const bad of ['', ' ', 'a b', 'pay*', 'a:*:b', ':*', 'a::b', 'a:', '*:a', 'x'.repeat(257), 'tab\there']) {
      expect(validateCapability(bad), JSON.stringify(bad)).not.toBeNull();
    }
    for (const good of ['*', 'a:*', 'a:b', 'a:b:*', 'search', 'payments:refund']) expect(validateCapability(good)).toBeNull();
  });
});

describe('verifyDelegationChain', () => {
  it("a valid chain: every check passes, effective capabilities are the leaf's", async () => {
    const { chain, a, c } = await validChain();
    const result = await verifyDelegationChain(chain, { runtime: runtime() });
    expect(result.status, result.headline).toBe('VALID');
    expect(failing(result)).toEqual([]);
    expect(result).toMatchObject({
      root: a.did,
      leaf: c.did,
      effectiveCapabilities: ['payments:*', 'search'],
      notAfter: new Date((NOW + 1800) * 1000).toISOString().replace(/\.000Z$/, 'Z'),
      trustedRoot: null,
      format: expect.stringContaining('experimental'),
    });
    expect(result.links.map((l) => l.status)).toEqual(['VALID', 'VALID']);
    expect(result.links[1]).toMatchObject({ index: 1, issuer: chain && result.links[0]!.audience, signatureValid: true, digest: digest(chain[1]!) });
    expect(result.limitations.join(' ')).toContain('bearer');
    expect(result.checks.find((c) => c.id === 'trustedRoot')!.status).toBe('SKIP');
  });

  it('rule 1: an empty chain gives the exact MALFORMED result; 9 receipts are MALFORMED with a failing depth check', async () => {
    const empty = await verifyDelegationChain([], { runtime: runtime() });
    expect(empty).toEqual({
      status: 'MALFORMED',
      headline: expect.stringMatching(/^The delegation chain is malformed: .+\.$/),
      format: expect.any(String),
      root: null,
      leaf: null,
      effectiveCapabilities: [],
      notAfter: null,
      trustedRoot: null,
      links: [],
      checks: [{ id: 'depth', label: expect.any(String), status: 'FAIL', detail: expect.stringContaining('empty') }],
      limitations: expect.any(Array),
    });
    const people = Array.from({ length: 10 }, () => principal());
    const nine: string[] = [];
    for (let i = 0; i < 9; i++) nine.push(await receipt(people[i]!, people[i + 1]!, { parent: nine[i - 1] ?? null }));
    const result = await verifyDelegationChain(nine, { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(failing(result)).toEqual(['depth']);
    // Eight is the limit, and is fine.
    expect((await verifyDelegationChain(nine.slice(0, 8), { runtime: runtime() })).status).toBe('VALID');
  });

  it('rule 2: a receipt signed by another key than the kid names fails `signature` only', async () => {
    const { chain, b, c } = await validChain();
    const forged = await receipt(b, c, {
      cap: ['payments:*'],
      parent: chain[0]!,
      nbf: NOW - 300,
      exp: NOW + 1800,
      signer: generateTestKey('EdDSA').privateKey,
    });
    const result = await verifyDelegationChain([chain[0]!, forged], { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(failing(result)).toEqual(['1:signature']);
    expect(result.links[1]!.signatureValid).toBe(false);
  });

  it('rule 3: a link not issued by the previous delegate fails `chaining` only', async () => {
    const [a, b, x, c] = [principal(), principal(), principal(), principal()];
    const root = await receipt(a, b);
    const stray = await receipt(x, c, { parent: root });
    const result = await verifyDelegationChain([root, stray], { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(failing(result)).toEqual(['1:chaining']);
  });

  it('rule 4: a wrong or missing prf, or a prf on the root, fails `prf` only', async () => {
    const { chain, b, c } = await validChain();
    const wrong = await receipt(b, c, { cap: ['payments:*'], prf: 'ab'.repeat(32), nbf: NOW - 300, exp: NOW + 1800 });
    expect(failing(await verifyDelegationChain([chain[0]!, wrong], { runtime: runtime() }))).toEqual(['1:prf']);
    const missing = await receipt(b, c, { cap: ['payments:*'], nbf: NOW - 300, exp: NOW + 1800 });
    expect(failing(await verifyDelegationChain([chain[0]!, missing], { runtime: runtime() }))).toEqual(['1:prf']);
    const [a, d] = [principal(), principal()];
    const rootWithPrf = await receipt(a, d, { prf: 'cd'.repeat(32) });
    expect(failing(await verifyDelegationChain([rootWithPrf], { runtime: runtime() }))).toEqual(['0:prf']);
  });

  it('rule 5: a child outliving its parent (or starting before it) fails `window` only', async () => {
    const [a, b, c] = [principal(), principal(), principal()];
    const root = await receipt(a, b, { exp: NOW + 600 });
    const outliving = await receipt(b, c, { parent: root, exp: NOW + 3600 });
    const result = await verifyDelegationChain([root, outliving], { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(failing(result)).toEqual(['1:window']);
    expect(result.headline).toContain('outlives its parent');
    const early = await receipt(b, c, { parent: root, nbf: NOW - 7200, exp: NOW + 300 });
    expect(failing(await verifyDelegationChain([root, early], { runtime: runtime() }))).toEqual(['1:window']);
  });

  it('rule 6: a capability the parent does not cover fails `capabilities` only; payments:* does not grant refund', async () => {
    const [a, b, c] = [principal(), principal(), principal()];
    const root = await receipt(a, b, { cap: ['payments:*'] });
    const widened = await receipt(b, c, { parent: root, cap: ['payments:refund', 'refund'] });
    const result = await verifyDelegationChain([root, widened], { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(failing(result)).toEqual(['1:capabilities']);
    expect(result.links[1]!.checks.find((c) => c.id === 'capabilities')!.detail).toContain('refund is not covered');
  });

  it('rule 7: an expired leaf, or one not yet valid beyond 60 s of skew, fails `validity` only', async () => {
    const [a, b] = [principal(), principal()];
    const expired = await receipt(a, b, { nbf: NOW - 7200, exp: NOW - 1 });
    expect(failing(await verifyDelegationChain([expired], { runtime: runtime() }))).toEqual(['0:validity']);
    const future = await receipt(a, b, { nbf: NOW + 61, exp: NOW + 3600 });
    expect(failing(await verifyDelegationChain([future], { runtime: runtime() }))).toEqual(['0:validity']);
    const skewed = await receipt(a, b, { nbf: NOW + 59, exp: NOW + 3600 });
    expect((await verifyDelegationChain([skewed], { runtime: runtime() })).status).toBe('VALID');
  });

  it('rule 8: A → B → A is INVALID with a failing `cycle` check only', async () => {
    const [a, b] = [principal(), principal()];
    const root = await receipt(a, b);
    const back = await receipt(b, a, { parent: root });
    const result = await verifyDelegationChain([root, back], { runtime: runtime() });
    expect(result.status).toBe('INVALID');
    expect(failing(result)).toEqual(['1:cycle']);
    const self = await receipt(a, a);
    expect(failing(await verifyDelegationChain([self], { runtime: runtime() }))).toEqual(['0:cycle']);
  });

  it('rule 9: a root outside trustedRoots is INVALID with a failing `trustedRoot` check; inside, it is named', async () => {
    const { chain, a } = await validChain();
    const other = principal();
    const refused = await verifyDelegationChain(chain, { runtime: runtime(), trustedRoots: [other.did] });
    expect(refused.status).toBe('INVALID');
    expect(failing(refused)).toEqual(['trustedRoot']);
    expect(refused.effectiveCapabilities).toEqual([]);
    const accepted = await verifyDelegationChain(chain, { runtime: runtime(), trustedRoots: [other.did, `${a.did}#ignored-fragment`] });
    expect(accepted).toMatchObject({ status: 'VALID', trustedRoot: a.did });
  });

  it('an issuer DID that does not resolve is INDETERMINATE', async () => {
    const b = principal();
    const ghost: Principal = {
      did: 'did:web:ghost.invalid',
      kid: 'did:web:ghost.invalid#key-1',
      privateKey: generateTestKey('EdDSA').privateKey,
      alg: 'EdDSA',
    };
    const result = await verifyDelegationChain([await receipt(ghost, b)], { runtime: runtime() });
    expect(result.status).toBe('INDETERMINATE');
    expect(result.links[0]!.checks.find((c) => c.id === 'signature')!.status).toBe('INDETERMINATE');
    expect(result.links[0]!.issuerHeadline).toContain('did:web:ghost.invalid');
  });

  it('ES256 and ES256K receipts (P-256 and secp256k1 did:keys) verify', async () => {
    for (const alg of ['ES256', 'ES256K'] as const) {
      const issuer = fromJwtIssuer(jwtIssuer(alg));
      const token =
        alg === 'ES256'
          ? await receipt(issuer, principal())
          : await import('../support/peer-issuers.js').then(async ({ issueVcJwt }) =>
              issueVcJwt({ iss: issuer.did, aud: principal().did, cap: ['*'], nbf: NOW - 60, exp: NOW + 600 }, jwtIssuer('ES256K'), {
                typ: 'svc-delegation+jwt',
              }),
            );
      const result = await verifyDelegationChain([token], { runtime: runtime() });
      expect(result.status, `${alg}: ${result.headline}`).toBe('VALID');
      expect(result.links[0]!.alg).toBe(alg);
    }
  });

  it('malformed receipts make the chain MALFORMED without resolving anything', async () => {
    const [a, b] = [principal(), principal()];
    const cases: Array<[string, Promise<string> | string]> = [
      ['wrong typ', receipt(a, b, { header: { typ: 'JWT' } })],
      ['no cap', receipt(a, b, { payload: { cap: [] } })],
      ['65 caps', receipt(a, b, { payload: { cap: Array.from({ length: 65 }, (_, i) => `t${i}`) } })],
      ['bad cap', receipt(a, b, { cap: ['pay*'] })],
      ['exp before nbf', receipt(a, b, { nbf: NOW, exp: NOW - 10 })],
      ['float exp', receipt(a, b, { exp: NOW + 0.5 })],
      ['string nbf', receipt(a, b, { payload: { nbf: '2025-01-01' } })],
      ['kid of another DID', receipt(a, b, { kid: b.kid })],
      ['aud not a DID', receipt(a, b, { payload: { aud: 'https://agent.example' } })],
      ['uppercase prf', receipt(a, b, { prf: 'AB'.repeat(32) })],
      ['not a JWS', 'hello'],
    ];
    for (const [label, token] of cases) {
      const result = await verifyDelegationChain([await token], { runtime: runtime() });
      expect(result.status, label).toBe('MALFORMED');
      expect(result.links[0]!.checks.find((c) => c.id === 'receipt')!.status, label).toBe('FAIL');
      expect(result.links[0]!.checks.find((c) => c.id === 'signature')!.status, label).toBe('SKIP');
    }
  });

  it('a duplicate iss in the payload is MALFORMED (decoded parts are scanned before use)', async () => {
    const a = principal();
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    const input = `${b64(JSON.stringify({ alg: 'EdDSA', typ: 'svc-delegation+jwt', kid: a.kid }))}.${b64(`{"iss":"${a.did}","iss":"${principal().did}","aud":"${principal().did}","cap":["*"],"nbf":${NOW},"exp":${NOW + 60}}`)}`;
    const { sign } = await import('node:crypto');
    const token = `${input}.${b64url(sign(null, Buffer.from(input), a.privateKey))}`;
    const result = await verifyDelegationChain([token], { runtime: runtime() });
    expect(result.status).toBe('MALFORMED');
    expect(result.headline).toContain('duplicate member "iss"');
  });
});

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

describe('authorize', () => {
  it('ALLOW names the matching capability, the root and the expiry; DENY for scope and for an invalid chain', async () => {
    const { chain, a, c } = await validChain();
    const result = await verifyDelegationChain(chain, { runtime: runtime() });
    const allow = authorize(result, 'payments:refund');
    expect(allow).toEqual({
      agent: c.did,
      tool: 'payments:refund',
      decision: 'ALLOW',
      authorized: true,
      reason: expect.stringContaining('"payments:*"'),
      matchedCapability: 'payments:*',
      root: a.did,
      expires: result.notAfter,
    });
    const scope = authorize(result, 'refund');
    expect(scope).toMatchObject({ decision: 'DENY', authorized: false, reason: expect.stringContaining('none of its capabilities') });
    expect(scope).not.toHaveProperty('matchedCapability');
    const invalid = await verifyDelegationChain([chain[1]!], { runtime: runtime() });
    expect(authorize(invalid, 'search')).toEqual({ agent: invalid.leaf, tool: 'search', decision: 'DENY', authorized: false, reason: invalid.headline });
  });

  it('* grants everything', async () => {
    const [a, b] = [principal(), principal()];
    const result = await verifyDelegationChain([await receipt(a, b, { cap: ['*'] })], { runtime: runtime() });
    for (const tool of ['refund', 'payments:refund', 'shell:exec']) expect(authorize(result, tool).decision).toBe('ALLOW');
  });
});
