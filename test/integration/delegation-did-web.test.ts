/**
 * Delegation receipts by a did:web issuer on a real loopback HTTPS host (test CA): minted with
 * `jose`, the issuer's key found through svc's did:web resolution. The key must be listed under
 * capabilityDelegation; assertionMethod alone is not enough.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelegationChain } from '../../src/core/delegation/index.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { generateTestKey } from '../support/signing.js';

let host: DidWebHost;
beforeAll(async () => {
  host = await startDidWebHost();
});
afterAll(async () => {
  await host?.close();
});

function document(did: string, relationships: string[]): Record<string, unknown> {
  const id = `${did}#key-1`;
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
    id: did,
    verificationMethod: [{ id, type: 'Multikey', controller: did, publicKeyMultibase: host.key.multikey }],
    ...Object.fromEntries(relationships.map((r) => [r, [id]])),
  };
}

async function receiptFrom(did: string): Promise<string> {
  const agent = generateTestKey('EdDSA');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: did, aud: `did:key:${agent.multikey!}`, cap: ['search', 'payments:*'], nbf: now - 60, exp: now + 600 })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'svc-delegation+jwt', kid: `${did}#key-1` })
    .sign(host.key.privateKey);
}

describe('did:web delegators', () => {
  it('a key under capabilityDelegation: VALID', async () => {
    const did = host.did('delegators', 'ok');
    host.publish(did, document(did, ['assertionMethod', 'capabilityDelegation']));
    const result = await verifyDelegationChain([await receiptFrom(did)], { runtime: host.runtime() });
    expect(result.status, result.headline).toBe('VALID');
    expect(result.links[0]).toMatchObject({ issuer: did, signatureValid: true, issuerHeadline: expect.any(String) });
  });

  it('a key only under assertionMethod: INVALID, the signature check says why', async () => {
    const did = host.did('delegators', 'assert-only');
    host.publish(did, document(did, ['assertionMethod']));
    const result = await verifyDelegationChain([await receiptFrom(did)], { runtime: host.runtime() });
    expect(result.status).toBe('INVALID');
    expect(result.links[0]!.checks.find((c) => c.id === 'signature')).toMatchObject({
      status: 'FAIL',
      detail: expect.stringContaining('not authorised for capabilityDelegation (only assertionMethod)'),
    });
  });

  it('a host that answers 404 for the document: INDETERMINATE', async () => {
    const did = host.did('delegators', 'missing');
    const result = await verifyDelegationChain([await receiptFrom(did)], { runtime: host.runtime() });
    expect(result.status).toBe('INDETERMINATE');
  });
});
