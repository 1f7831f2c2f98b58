/**
 * did:web pieces that need no network: the DID → URL mapping (decoded exactly once, port as
 * %3A, IDNA, hostile segments refused) and the transport/origin dimensions computed from
 * TLS and domain-binding evidence, including states a real handshake never lets through.
 */
import { describe, expect, it } from 'vitest';
import type { DomainBindingStatus } from '../../src/core/linkage/types.js';
import { didWebLocation } from '../../src/core/methods/web.js';
import { evaluateDimensions, type EvaluationInput } from '../../src/core/resolve/dimensions.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { Evidence } from '../../src/core/resolve/types.js';
import { buildLimitations, buildVerdict } from '../../src/core/resolve/verdict.js';
import { ED25519_DID } from '../support/dids.js';
import { problemFrom, problemOf } from '../support/problems.js';
import { testRuntime } from '../support/runtime.js';

describe('didWebLocation', () => {
  const cases: Array<[string, string]> = [
    ['example.com', 'https://example.com/.well-known/did.json'],
    ['Example.COM', 'https://example.com/.well-known/did.json'],
    ['example.com%3A8443', 'https://example.com:8443/.well-known/did.json'],
    ['example.com%3a8443', 'https://example.com:8443/.well-known/did.json'],
    ['example.com:user:alice', 'https://example.com/user/alice/did.json'],
    ['example.com%3A3000:user:alice', 'https://example.com:3000/user/alice/did.json'],
    ['example.com:a%20b', 'https://example.com/a%20b/did.json'],
    ['example.com:%C3%A9t%C3%A9', 'https://example.com/%C3%A9t%C3%A9/did.json'],
    ['b%C3%BCcher.example', 'https://xn--bcher-kva.example/.well-known/did.json'],
    ['example.com%3A443', 'https://example.com/.well-known/did.json'],
  ];
  it.each(cases)('%s → %s', (id, url) => {
    expect(didWebLocation(id).documentUrl).toBe(url);
  });

  it('gives the origin and the DID configuration URL', () => {
    expect(didWebLocation('example.com%3A8443:u').origin).toBe('https://example.com:8443');
    expect(didWebLocation('example.com%3A8443:u').configurationUrl).toBe('https://example.com:8443/.well-known/did-configuration.json');
  });

  const refused: Array<[string, string]> = [
    ['127.0.0.1', 'IP address'],
    ['%5B%3A%3A1%5D', 'cannot have'],
    ['example.com%3A0', 'outside 1–65535'],
    ['example.com%3A65536', 'outside 1–65535'],
    ['example.com%3Aabc', 'cannot have'],
    ['user%40example.com', 'cannot have'],
    ['example.com%2Fevil', 'cannot have'],
    ['example.com%2F..%2Fetc', 'cannot have'],
    ['example.com:..', 'dot segment'],
    ['example.com:%2E%2E', 'dot segment'],
    ['example.com:a%2Fb', 'slash'],
    ['example.com:a%5Cb', 'backslash'],
    ['example.com:a%00b', 'NUL'],
    ['example.com:%E0%A4%A', 'percent-encoded'],
    ['-bad-.example', 'not a valid domain name'],
    ['exa_mple.com', 'not a valid domain name'],
    ['%3A443', 'empty'],
  ];
  it.each(refused)('refuses %s (%s)', (id, reason) => {
    const problem = problemFrom(() => didWebLocation(id));
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.detail).toContain(reason);
  });
});

describe('didWebLocation: DNS name limits (253 characters, labels of 63), counted as looked up', () => {
  const label = (char: string, length: number) => char.repeat(length);
  /** 63 + 1 + 63 + 1 + 63 + 1 + `last` characters. */
  const hostOf = (last: number) => [label('a', 63), label('b', 63), label('c', 63), label('d', last)].join('.');

  it('accepts a 253-character host (with or without the trailing dot) and 63-character labels', () => {
    expect(hostOf(61)).toHaveLength(253);
    expect(didWebLocation(hostOf(61)).host).toBe(hostOf(61));
    expect(didWebLocation(`${hostOf(61)}.`).host).toBe(`${hostOf(61)}.`);
    expect(didWebLocation(`${hostOf(61)}%3A8443:u`).origin).toBe(`https://${hostOf(61)}:8443`);
  });

  it.each([
    ['254 characters', hostOf(62), 'the host is 254 characters long; a domain name has at most 253'],
    ['254 characters and a trailing dot', `${hostOf(62)}.`, 'the host is 254 characters long'],
    ['254 characters before the %3A port', `${hostOf(62)}%3A8443`, 'the host is 254 characters long'],
    ['263 characters', `${'abcdefghi.'.repeat(26)}com`, 'the host is 263 characters long'],
    ['a 64-character label', `${label('a', 64)}.com`, 'a label of 64 characters ("aaaaaaaaaaaaaaaaaaaa…"); a DNS label has at most 63'],
    ['a 64-character label upper-cased', `${label('A', 64)}.com`, 'a label of 64 characters'],
    // IDNA: 58 characters of ü are 64 in punycode (xn--…), the name the resolver would look up.
    ['a Unicode label over 63 after IDNA', `${encodeURIComponent(label('ü', 58))}.com`, 'a label of 64 characters after IDNA conversion ("xn--'],
    // 5 × 45 ü (+ 4 dots) are 229 characters, 259 after IDNA.
    [
      'a Unicode host over 253 after IDNA',
      Array.from({ length: 5 }, () => encodeURIComponent(label('ü', 45))).join('.'),
      'the host is 259 characters long after IDNA conversion',
    ],
  ])('refuses %s: INVALID_DID', (_what, id, reason) => {
    const problem = problemFrom(() => didWebLocation(id));
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.detail).toContain(reason);
  });

  it('a host too long for DNS fails resolve() in syntax.parse, before any fetch', async () => {
    const problem = await problemOf(resolve(`did:web:${hostOf(62)}`, testRuntime()));
    expect(problem.code).toBe('INVALID_DID');
    expect(problem.trace?.map((s) => [s.stage, s.status])).toEqual([['syntax.parse', 'FAIL']]);
    expect(problem.trace?.[0]?.detail).toContain('254 characters long');
  });
});

/** Evidence of a fetched document, built from a real (did:key) resolution's document parts. */
async function webInput(patch: Partial<Evidence>, allowances: string[] = []): Promise<EvaluationInput> {
  const base = await resolve(ED25519_DID, testRuntime());
  const evidence: Evidence = {
    ...base.evidence,
    source: {
      kind: 'HTTPS',
      url: 'https://example.com/.well-known/did.json',
      httpStatus: 200,
      contentType: 'application/did+json',
      bytes: 100,
      sha256: '00'.repeat(32),
      peerAddress: '93.184.216.34',
      redirects: [],
      latencyMs: 12,
    },
    tls: {
      host: 'example.com',
      validatedBy: 'CN=Root',
      protocol: 'TLSv1.3',
      cipher: 'TLS_AES_128_GCM_SHA256',
      certificate: {
        subject: 'CN=example.com',
        issuer: 'CN=Issuing CA',
        validFrom: '2026-01-01T00:00:00Z',
        validTo: '2027-01-01T00:00:00Z',
        serialNumber: '01',
        sha256Fingerprint: 'AA',
        subjectAltNames: ['DNS:example.com'],
      },
      daysUntilExpiry: 40,
      hostnameInSan: true,
    },
    ...patch,
  };
  return { did: 'did:web:example.com', method: 'web', selfCertifying: false, deactivated: false, evidence, allowances };
}

function stateOf(input: EvaluationInput, id: string) {
  return evaluateDimensions(input).find((d) => d.id === id)!;
}

describe('did:web dimensions', () => {
  it('transport ESTABLISHED names the protocol, the pinned address and the anchor', async () => {
    const transport = stateOf(await webInput({}), 'transport');
    expect(transport.state).toBe('ESTABLISHED');
    expect(transport.statement).toContain('TLSv1.3 to example.com at 93.184.216.34');
    expect(transport.statement).toContain('chains to CN=Root');
  });

  it('transport warns of an expiry within two weeks but stays ESTABLISHED', async () => {
    const input = await webInput({});
    input.evidence.tls!.daysUntilExpiry = 3;
    const transport = stateOf(input, 'transport');
    expect(transport.state).toBe('ESTABLISHED');
    expect(transport.statement).toContain('expires in 3 days');
  });

  it('transport FAILED when the host is not in the SAN or the certificate expired', async () => {
    const notInSan = await webInput({});
    notInSan.evidence.tls!.hostnameInSan = false;
    expect(stateOf(notInSan, 'transport').state).toBe('FAILED');
    const expired = await webInput({});
    expired.evidence.tls!.daysUntilExpiry = -1;
    expect(stateOf(expired, 'transport').state).toBe('FAILED');
    expect(buildVerdict(expired, evaluateDimensions(expired)).outcome).toBe('RESOLVED_WITH_WARNINGS');
  });

  it('transport NOT_ESTABLISHED when a fetch recorded no TLS evidence', async () => {
    expect(stateOf(await webInput({ tls: null }), 'transport').state).toBe('NOT_ESTABLISHED');
  });

  const origins: Array<[DomainBindingStatus, string]> = [
    ['VERIFIED', 'ESTABLISHED'],
    ['NOT_CONFIGURED', 'NOT_ESTABLISHED'],
    ['NOT_LINKED', 'NOT_ESTABLISHED'],
    ['INVALID_PROOF', 'FAILED'],
    ['MALFORMED', 'FAILED'],
    ['UNSUPPORTED_PROOF', 'INDETERMINATE'],
    ['UNREACHABLE', 'INDETERMINATE'],
  ];
  it.each(origins)('domain binding %s → origin %s, with its reason as the statement', async (status, state) => {
    const reason = `Because ${status}.`;
    const input = await webInput({
      domainBinding: {
        status,
        origin: 'https://example.com',
        configurationUrl: 'https://example.com/.well-known/did-configuration.json',
        reason,
        credentials: [],
      },
    });
    const origin = stateOf(input, 'origin');
    expect(origin.state).toBe(state);
    expect(origin.statement).toBe(reason);
  });

  it('control and history are NOT_ESTABLISHED and say why for did:web', async () => {
    const input = await webInput({});
    expect(stateOf(input, 'control').statement).toContain('web server');
    expect(stateOf(input, 'history').statement).toContain('keeps no history');
  });

  it('limitations name the method’s trust in DNS and any operator allowance used', async () => {
    const limitations = buildLimitations(await webInput({}, ['10.0.0.0/8']));
    expect(limitations.some((l) => l.startsWith('did:web rests on DNS and the web host'))).toBe(true);
    expect(limitations.some((l) => l.includes('egress allowance 10.0.0.0/8'))).toBe(true);
    expect(buildLimitations(await webInput({})).some((l) => l.includes('egress allowance'))).toBe(false);
  });
});
