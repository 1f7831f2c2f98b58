/**
 * did:webvh DID → HTTPS URLs (v1.0 "DID-to-HTTPS transformation"), and the five negative
 * test-suite vectors that consist of a DID string alone (path traversal, percent-encoded IP
 * host, percent-encoded `..`, lowercase `%3a` port on an IP, fragment leaking into the domain).
 */
import { describe, expect, it } from 'vitest';
import { didWebvhLocation } from '../../src/core/webvh/location.js';
import { problemFrom } from '../support/problems.js';

const SCID = 'QmNdazvnrgei4agYFMVJjYduyZSYHcYWnHEgNW7A1sMUoU';
/** The placeholder SCID of the test suite's DID-string vectors (not base58: '0'). */
const SUITE_SCID = 'Qm0000000000000000000000000000000000000000000000';

const refusal = (id: string) => problemFrom(() => didWebvhLocation(id));

describe('didWebvhLocation', () => {
  const cases: Array<[string, string, string]> = [
    [`${SCID}:example.com`, 'https://example.com/.well-known/did.jsonl', 'https://example.com/.well-known/did-witness.json'],
    [`${SCID}:example.com:dids:issuer`, 'https://example.com/dids/issuer/did.jsonl', 'https://example.com/dids/issuer/did-witness.json'],
    [`${SCID}:example.com%3A3000:dids:issuer`, 'https://example.com:3000/dids/issuer/did.jsonl', 'https://example.com:3000/dids/issuer/did-witness.json'],
    [
      `${SCID}:jp%E7%B4%8D%E8%B1%86.%E4%BE%8B.jp:%E7%94%A8%E6%88%B7`,
      'https://xn--jp-cd2fp15c.xn--fsq.jp/%E7%94%A8%E6%88%B7/did.jsonl',
      'https://xn--jp-cd2fp15c.xn--fsq.jp/%E7%94%A8%E6%88%B7/did-witness.json',
    ],
  ];
  it.each(cases)('%s', (id, log, witness) => {
    const location = didWebvhLocation(id);
    expect(location.scid).toBe(SCID);
    expect(location.logUrl).toBe(log);
    expect(location.witnessUrl).toBe(witness);
  });

  const negatives: Array<[string, string]> = [
    [`${SUITE_SCID}:example.com:..:..:admin`, 'dot segment'],
    [`${SUITE_SCID}:127%2E0%2E0%2E1`, 'IP address'],
    [`${SUITE_SCID}:127%2e0%2e0%2e1`, 'IP address'],
    [`${SUITE_SCID}:example.com:%2E%2E:admin`, 'dot segment'],
    [`${SUITE_SCID}:example.com:%2e%2e:admin`, 'dot segment'],
    [`${SUITE_SCID}:example.com:a%2Fb`, 'slash'],
    [`${SUITE_SCID}:127.0.0.1%3a8080`, 'IP address'],
    [`${SUITE_SCID}:127.0.0.1#x`, 'cannot have'],
  ];
  it.each(negatives)('refuses the test-suite DID %s for its location (%s)', (id, reason) => {
    const problem = refusal(id);
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.detail).toContain(reason);
  });

  it('refuses a bad SCID, a missing domain, and forms a URL parser turns into an address', () => {
    expect(refusal(`${SUITE_SCID}:example.com`).detail).toContain('46 base58btc');
    expect(refusal(`${SCID.slice(1)}:example.com`).detail).toContain('46 base58btc');
    expect(refusal(SCID).detail).toContain('a domain must follow the SCID');
    expect(refusal(`${SCID}:0x7f.1`).detail).toContain('IP address');
    expect(refusal(`${SCID}:example.com: padded `).detail).toContain('whitespace');
  });

  it('applies the DNS limits of did:web: a host over 253 characters or a label over 63 is INVALID_DID', () => {
    const long = ['a', 'b', 'c', 'd'].map((c) => c.repeat(63)).join('.');
    expect(long).toHaveLength(255);
    expect(refusal(`${SCID}:${long}:dids`)).toMatchObject({
      code: 'INVALID_DID',
      detail: expect.stringContaining('did:webvh: the host is 255 characters long'),
    });
    expect(refusal(`${SCID}:${'x'.repeat(64)}.example`).detail).toContain('a label of 64 characters');
    expect(didWebvhLocation(`${SCID}:${long.slice(2)}`).host).toHaveLength(253);
  });
});
