/**
 * Proofs of control checked in process against real parts: a loopback HTTPS host with a test CA
 * (did:web documents, the claim file), a real DNS server (TXT records) and the production
 * fetcher and resolver behind a Runtime — nothing mocked. Each refusal is checked for its code,
 * whether it is definitive (a verdict on the proof) and its one-line reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { challengeTerms, checkProof, claimPayload, recheckClaim, type ClaimMethod, type ProofCheck } from '../../src/core/claims/index.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { Runtime } from '../../src/core/runtime.js';
import type { ClaimChallenge, ClaimPurpose, StoredClaim } from '../../src/core/store.js';
import { b64url, didJwkOf } from '../support/codec.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { raw, redirect } from '../support/https-server.js';
import { problemOf } from '../support/problems.js';
import { didDocument, generateTestKey, signBytes, type TestKey } from '../support/signing.js';
import { createWebvhLog } from '../support/webvh-log.js';

let host: DidWebHost;
let dns: TestDnsServer;
let runtime: Runtime;

beforeAll(async () => {
  host = await startDidWebHost();
  dns = await startDnsServer();
  runtime = host.runtime({
    dnsServers: [dns.address],
    lookup: tableLookup({ 'metadata.test': ['169.254.169.254'], 'intranet.test': ['10.0.0.1'] }),
  });
});

afterAll(async () => {
  runtime?.net.close();
  await dns?.close();
  await host?.close();
});

let counter = 0;
function challenge(did: string, method: ClaimMethod, purpose: ClaimPurpose = 'claim'): ClaimChallenge {
  counter++;
  return {
    token: `tok${String(counter).padStart(3, '0')}`.padEnd(43, 'A'),
    did,
    method,
    purpose,
    createdAt: '2026-11-27T10:00:00Z',
    expiresAt: '2026-11-27T10:10:00Z',
    attempts: 1,
    usedAt: null,
  };
}

/** A compact JWS over the exact payload characters given (what a careful signer does). */
function signPayload(payload: string, key: TestKey, header: Record<string, unknown>): string {
  const input = `${b64url(JSON.stringify({ alg: key.alg, ...header }))}.${payload}`;
  return `${input}.${b64url(signBytes(key.alg, key.privateKey, Buffer.from(input)))}`;
}

function proves(check: ProofCheck, subject: string): void {
  expect(check).toEqual({ ok: true, subject });
}

function refused(check: ProofCheck, code: string, definitive: boolean, reason?: string | RegExp): void {
  expect(check).toMatchObject({ ok: false, code, definitive });
  if (check.ok) return;
  expect(check.reason).not.toMatch(/\n|SPEC|§/);
  if (typeof reason === 'string') expect(check.reason).toBe(reason);
  else if (reason) expect(check.reason).toMatch(reason);
}

const proofOf = (c: ClaimChallenge, jws?: string | null) => checkProof(c, { jws: jws ?? null }, { runtime });

describe('signature', () => {
  const edKey = generateTestKey('EdDSA');
  const didKey = `did:key:${edKey.multikey}`;
  const keyKid = `${didKey}#${edKey.multikey}`;

  it('did:key: a JWS of the exact payload by its key proves control; the subject is the kid', async () => {
    const c = challenge(didKey, 'signature', 'list');
    proves(await proofOf(c, signPayload(claimPayload(c), edKey, { kid: keyKid })), keyKid);
    // What the terms hand out is what is checked.
    expect(challengeTerms(c).signature?.payload).toBe(claimPayload(c));
  });

  it('did:jwk with an ES256 key', async () => {
    const key = generateTestKey('ES256');
    const did = didJwkOf(key.publicJwk);
    const c = challenge(did, 'signature');
    proves(await proofOf(c, signPayload(claimPayload(c), key, { kid: `${did}#0`, typ: 'JWT' })), `${did}#0`);
  });

  it('did:web: a key under authentication in the published document', async () => {
    const did = host.did('sig', 'web');
    const other = generateTestKey('ES256K');
    host.publish(did, didDocument(did, host.key, [{ fragment: 'k256', key: other }]));
    const c = challenge(did, 'signature');
    proves(await proofOf(c, signPayload(claimPayload(c), host.key, { kid: `${did}#key-1` })), `${did}#key-1`);
    proves(await proofOf(c, signPayload(claimPayload(c), other, { kid: `${did}#k256` })), `${did}#k256`);
  });

  it('a key listed only under assertionMethod: KEY_NOT_AUTHENTICATION, naming where it is listed', async () => {
    const did = host.did('sig', 'assertion-only');
    host.publish(did, { ...didDocument(did, host.key), authentication: [] });
    const c = challenge(did, 'signature');
    refused(
      await proofOf(c, signPayload(claimPayload(c), host.key, { kid: `${did}#key-1` })),
      'KEY_NOT_AUTHENTICATION',
      true,
      `the key ${did}#key-1 is not listed under authentication (listed only under assertionMethod)`,
    );
  });

  it('no JWS: JWS_MISSING', async () => {
    const c = challenge(didKey, 'signature');
    refused(await proofOf(c, null), 'JWS_MISSING', true);
    refused(await proofOf(c, '  '), 'JWS_MISSING', true);
  });

  it('malformed or unsupported JWS: JWS_MALFORMED / JWS_UNSUPPORTED with the parser reason', async () => {
    const c = challenge(didKey, 'signature');
    refused(await proofOf(c, 'not.a-jws'), 'JWS_MALFORMED', true, /three base64url parts/);
    refused(await proofOf(c, `${b64url('{"alg":"EdDSA","alg":"EdDSA"}')}.${claimPayload(c)}.AAAA`), 'JWS_MALFORMED', true, /duplicate/);
    refused(await proofOf(c, `${b64url(JSON.stringify({ alg: 'none', kid: keyKid }))}.${claimPayload(c)}.AAAA`), 'JWS_UNSUPPORTED', true, /"none"/);
    refused(await proofOf(c, `${b64url(JSON.stringify({ alg: 'HS256', kid: keyKid }))}.${claimPayload(c)}.AAAA`), 'JWS_UNSUPPORTED', true, /HMAC/);
  });

  it('no kid: JWS_MALFORMED (the challenge requires one)', async () => {
    const c = challenge(didKey, 'signature');
    refused(await proofOf(c, signPayload(claimPayload(c), edKey, {})), 'JWS_MALFORMED', true, /names no key \("kid"\)/);
  });

  it('another payload: PAYLOAD_MISMATCH saying how it differs', async () => {
    const c = challenge(didKey, 'signature');
    const other = challenge(didKey, 'signature');
    refused(await proofOf(c, signPayload(claimPayload(other), edKey, { kid: keyKid })), 'PAYLOAD_MISMATCH', true, /another challenge/);
    // The right statement, but not in its RFC 8785 form (JSON.stringify keeps insertion order).
    const statement = challengeTerms(c).signature!.statement;
    const reordered = b64url(JSON.stringify({ token: statement['token'], ...statement }));
    refused(await proofOf(c, signPayload(reordered, edKey, { kid: keyKid })), 'PAYLOAD_MISMATCH', true, /not in the exact form given/);
    refused(await proofOf(c, signPayload(b64url('hello'), edKey, { kid: keyKid })), 'PAYLOAD_MISMATCH', true, /not a JSON statement/);
  });

  it('a key of another DID, or a kid that is not a DID URL: SIGNER_MISMATCH', async () => {
    const c = challenge(didKey, 'signature');
    const stranger = generateTestKey('EdDSA');
    const strangerDid = `did:key:${stranger.multikey}`;
    refused(
      await proofOf(c, signPayload(claimPayload(c), stranger, { kid: `${strangerDid}#${stranger.multikey}` })),
      'SIGNER_MISMATCH',
      true,
      `the kid names a key of ${strangerDid}, not a key of ${didKey}`,
    );
    refused(
      await proofOf(c, signPayload(claimPayload(c), edKey, { kid: 'key-1' })),
      'SIGNER_MISMATCH',
      true,
      `the kid "key-1" is not a DID URL, not a key of ${didKey}`,
    );
  });

  it('a kid of the DID that is not one of its keys: KEY_NOT_FOUND', async () => {
    const c = challenge(didKey, 'signature');
    refused(
      await proofOf(c, signPayload(claimPayload(c), edKey, { kid: `${didKey}#nope` })),
      'KEY_NOT_FOUND',
      true,
      `${didKey}#nope is not a verification method in the DID document of ${didKey}`,
    );
    refused(await proofOf(c, signPayload(claimPayload(c), edKey, { kid: didKey })), 'KEY_NOT_FOUND', true, /the kid is the DID itself/);
  });

  it('a signature by another key under the right kid: SIGNATURE_INVALID', async () => {
    const c = challenge(didKey, 'signature');
    const jws = signPayload(claimPayload(c), generateTestKey('EdDSA'), { kid: keyKid });
    refused(await proofOf(c, jws), 'SIGNATURE_INVALID', true, `the EdDSA signature does not verify (key ${keyKid})`);
    // A valid signature with one byte changed.
    const good = signPayload(claimPayload(c), edKey, { kid: keyKid });
    const [h, p, s] = good.split('.') as [string, string, string];
    const bytes = Buffer.from(s, 'base64url');
    bytes[0]! ^= 1;
    refused(await proofOf(c, `${h}.${p}.${bytes.toString('base64url')}`), 'SIGNATURE_INVALID', true);
    // An ES256 token naming an Ed25519 key.
    refused(
      await proofOf(c, signPayload(claimPayload(c), generateTestKey('ES256'), { kid: keyKid })),
      'SIGNATURE_INVALID',
      true,
      /Ed25519 key, but ES256 signs with P-256/,
    );
  });

  it('a DID that does not resolve: DID_UNRESOLVED; a deactivated one: DID_DEACTIVATED', async () => {
    const missing = host.did('sig', 'missing');
    const c = challenge(missing, 'signature');
    refused(
      await proofOf(c, signPayload(claimPayload(c), host.key, { kid: `${missing}#key-1` })),
      'DID_UNRESOLVED',
      true,
      new RegExp(`^${missing} did not resolve`),
    );

    const log = createWebvhLog({ domain: `localhost%3A${host.server.port}:deactivated` });
    log.append({ params: { deactivated: true, updateKeys: [] } });
    host.server.route('/deactivated/did.jsonl', raw(log.text(), { contentType: 'text/jsonl' }));
    const d = challenge(log.did, 'signature');
    refused(
      await proofOf(d, signPayload(claimPayload(d), host.key, { kid: `${log.did}#key-1` })),
      'DID_DEACTIVATED',
      true,
      `${log.did} is deactivated; its keys prove nothing`,
    );
  });

  it('the DID is resolved afresh: a document changed behind a warm cache is what counts', async () => {
    const did = host.did('sig', 'rotating');
    const oldKey = generateTestKey('EdDSA');
    const newKey = generateTestKey('EdDSA');
    host.publish(did, didDocument(did, oldKey));
    await resolve(did, runtime); // the cache now holds the old document
    host.publish(did, didDocument(did, newKey));
    expect(runtime.cache.get(did)?.didDocument).toMatchObject({ verificationMethod: [{ publicKeyMultibase: oldKey.multikey }] });

    const c = challenge(did, 'signature');
    // The new key proves control, the old one no longer does, though the cache still lists it.
    proves(await proofOf(c, signPayload(claimPayload(c), newKey, { kid: `${did}#key-1` })), `${did}#key-1`);
    refused(await proofOf(c, signPayload(claimPayload(c), oldKey, { kid: `${did}#key-1` })), 'SIGNATURE_INVALID', true);

    // Then the key leaves authentication: the very next check sees it.
    host.publish(did, { ...didDocument(did, newKey), authentication: [] });
    refused(await proofOf(c, signPayload(claimPayload(c), newKey, { kid: `${did}#key-1` })), 'KEY_NOT_AUTHENTICATION', true);
  });

  it('a cancelled check throws instead of refusing', async () => {
    const did = host.did('sig', 'cancelled');
    host.publish(did);
    const c = challenge(did, 'signature');
    const aborted = new AbortController();
    aborted.abort();
    const jws = signPayload(claimPayload(c), host.key, { kid: `${did}#key-1` });
    expect((await problemOf(checkProof(c, { jws }, { runtime, signal: aborted.signal }))).code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe('well-known', () => {
  const FILE = '/.well-known/svc-claim.txt';
  const did = () => host.did('any', 'path');
  const url = () => `https://localhost:${host.server.port}${FILE}`;

  it('the token in the file proves control; the subject is the URL', async () => {
    const c = challenge(did(), 'well-known', 'list');
    expect(challengeTerms(c).wellKnown).toEqual({ url: url(), content: c.token });
    host.server.route(FILE, raw(`${c.token}\n`, { contentType: 'text/plain' }));
    proves(await proofOf(c), url());
  });

  it('among other lines and tokens, with CRLF and spaces around it', async () => {
    const c = challenge(did(), 'well-known');
    host.server.route(FILE, raw(`# svc claims\r\nsomeone-else-token\r\n   ${c.token}  \r\n\r\n`, { contentType: 'text/plain; charset=utf-8' }));
    proves(await proofOf(c), url());
  });

  it('after a redirect within the limit, the subject stays the published URL', async () => {
    const c = challenge(did(), 'well-known');
    host.server.route(FILE, redirect('/claims/current.txt'));
    host.server.route('/claims/current.txt', raw(c.token));
    proves(await proofOf(c), url());
  });

  it('other content: TOKEN_MISMATCH quoting the beginning, escaped', async () => {
    const c = challenge(did(), 'well-known');
    host.server.route(FILE, raw('not-the-token\nsecond line'));
    refused(await proofOf(c), 'TOKEN_MISMATCH', true, `${url()} has no line equal to the token (its first of 2 lines is "not-the-token")`);
    host.server.route(FILE, raw(`${'z'.repeat(100)}\u2028\u001b[31m`));
    refused(await proofOf(c), 'TOKEN_MISMATCH', true, `${url()} has no line equal to the token (its one line is "${'z'.repeat(60)}…")`);
    host.server.route(FILE, raw('\u001b[31m\u2028red'));
    refused(await proofOf(c), 'TOKEN_MISMATCH', true, `${url()} has no line equal to the token (its one line is "\\u001b[31m\\u2028red")`);
    host.server.route(FILE, raw('\n  \n'));
    refused(await proofOf(c), 'TOKEN_MISMATCH', true, `${url()} is empty`);
    host.server.route(FILE, raw(Buffer.from([0xff, 0xfe, 0x41])));
    refused(await proofOf(c), 'TOKEN_MISMATCH', true, `${url()} is not UTF-8 text`);
    // The token inside a longer line is not the token on a line of its own.
    host.server.route(FILE, raw(`token=${c.token}`));
    refused(await proofOf(c), 'TOKEN_MISMATCH', true);
  });

  it('404 and 410: FILE_NOT_FOUND (definitive); 500: FILE_UNAVAILABLE (no verdict)', async () => {
    const c = challenge(did(), 'well-known');
    host.server.route(FILE, raw('missing', { status: 404 }));
    refused(await proofOf(c), 'FILE_NOT_FOUND', true, `${url()} answered 404 (not found)`);
    host.server.route(FILE, raw('', { status: 410 }));
    refused(await proofOf(c), 'FILE_NOT_FOUND', true, `${url()} answered 410 (gone)`);
    host.server.route(FILE, raw(c.token, { status: 500 }));
    refused(await proofOf(c), 'FILE_UNAVAILABLE', false, `${url()} answered 500, not 200`);
  });

  it('a redirect to a blocked address: EGRESS_BLOCKED, nothing fetched there', async () => {
    const c = challenge(did(), 'well-known');
    host.server.route(FILE, redirect('https://10.0.0.1/.well-known/svc-claim.txt'));
    refused(
      await proofOf(c),
      'EGRESS_BLOCKED',
      false,
      /^svc may not fetch https:\/\/localhost:\d+\/\.well-known\/svc-claim\.txt: 10\.0\.0\.1 resolves only to non-public addresses/,
    );
    host.server.route(FILE, redirect(`https://metadata.test:${host.server.port}/latest/meta-data/`));
    refused(await proofOf(c), 'EGRESS_BLOCKED', false, /metadata\.test resolves only to non-public addresses: 169\.254\.169\.254/);
    host.server.route(FILE, redirect(`http://localhost:${host.server.port}/plain.txt`));
    refused(await proofOf(c), 'EGRESS_BLOCKED', false, /is not https/);
  });

  it('a file over 1024 bytes: FILE_TOO_LARGE', async () => {
    const c = challenge(did(), 'well-known');
    host.server.route(FILE, raw(`${c.token}\n${'x'.repeat(2000)}`));
    refused(await proofOf(c), 'FILE_TOO_LARGE', true, /^the claim file from localhost:\d+ declares 2044 bytes; the limit is 1024 bytes$/);
  });

  it('a host that does not resolve: HOST_UNREACHABLE (no verdict)', async () => {
    const c = challenge('did:web:nowhere.test', 'well-known');
    refused(
      await proofOf(c),
      'HOST_UNREACHABLE',
      false,
      'https://nowhere.test/.well-known/svc-claim.txt could not be fetched: DNS lookup of nowhere.test failed: no such host (ENOTFOUND)',
    );
  });

  it('re-checks look for the claim token again', async () => {
    const c = challenge(did(), 'well-known');
    host.server.route(FILE, raw(c.token));
    const claim = storedClaim(c, url());
    proves(await recheckClaim(claim, { runtime }), url());
    host.server.route(FILE, raw('', { status: 404 }));
    refused(await recheckClaim(claim, { runtime }), 'FILE_NOT_FOUND', true);
  });
});

describe('dns', () => {
  const DID = 'did:web:claims.example.test%3A8443:users:alice';
  const NAME = '_svc-claim.claims.example.test';

  it('the token as a TXT record proves control; the subject is the record name', async () => {
    const c = challenge(DID, 'dns', 'list');
    expect(challengeTerms(c).dns).toEqual({ name: NAME, type: 'TXT', value: c.token });
    dns.set(NAME, [c.token]);
    proves(await proofOf(c), NAME);
  });

  it('among other records, spaces around it', async () => {
    const c = challenge(DID, 'dns');
    dns.set(NAME, ['v=spf1 -all', `  ${c.token} `, 'another-token']);
    proves(await proofOf(c), NAME);
  });

  it('a record over 255 bytes, split into character-strings, is joined before comparing', async () => {
    const c = challenge('did:web:long.example.test', 'dns');
    const long = `${'p'.repeat(250)}${c.token}`;
    dns.set('_svc-claim.long.example.test', [long, c.token]);
    proves(await proofOf(c), '_svc-claim.long.example.test');
    // The token only as the tail of a split record is not the token.
    dns.set('_svc-claim.long.example.test', [long]);
    refused(await proofOf(c), 'TOKEN_MISMATCH', true);
  });

  it('no such name, or a name without TXT records: RECORD_ABSENT', async () => {
    const c = challenge('did:web:absent.example.test', 'dns');
    dns.remove('_svc-claim.absent.example.test');
    refused(await proofOf(c), 'RECORD_ABSENT', true, '_svc-claim.absent.example.test has no TXT record');
    dns.setAddress('_svc-claim.absent.example.test', '192.0.2.1');
    refused(await proofOf(c), 'RECORD_ABSENT', true, '_svc-claim.absent.example.test has no TXT record');
  });

  it('records without the token: TOKEN_MISMATCH saying how many', async () => {
    const c = challenge('did:web:wrong.example.test', 'dns');
    dns.set('_svc-claim.wrong.example.test', ['old-token']);
    refused(await proofOf(c), 'TOKEN_MISMATCH', true, '_svc-claim.wrong.example.test does not hold the token (its one TXT record is "old-token")');
    dns.set('_svc-claim.wrong.example.test', ['a', 'b', 'c']);
    refused(await proofOf(c), 'TOKEN_MISMATCH', true, '_svc-claim.wrong.example.test does not hold the token (none of its 3 TXT records is the token)');
  });

  it('a failing resolver: DNS_UNAVAILABLE (no verdict)', async () => {
    const c = challenge(DID, 'dns');
    dns.set(NAME, [c.token]);
    try {
      dns.fail('servfail');
      refused(await proofOf(c), 'DNS_UNAVAILABLE', false, `the TXT lookup of ${NAME} failed: the DNS server failed to answer (ESERVFAIL)`);
    } finally {
      dns.fail(null);
    }
  });

  it('did:webvh publishes under its host as well; re-checks find the record again', async () => {
    const did = 'did:webvh:QmNdazvnrgei4agYFMVJjYduyZSYHcYWnHEgNW7A1sMUoU:vh.example.test';
    const c = challenge(did, 'dns');
    dns.set('_svc-claim.vh.example.test', [c.token]);
    proves(await proofOf(c), '_svc-claim.vh.example.test');
    const claim = storedClaim(c, '_svc-claim.vh.example.test');
    proves(await recheckClaim(claim, { runtime }), '_svc-claim.vh.example.test');
    dns.remove('_svc-claim.vh.example.test');
    refused(await recheckClaim(claim, { runtime }), 'RECORD_ABSENT', true);
  });

  it('a DID without a host has no dns or well-known proof (the route refuses it before)', async () => {
    const c = challenge(`did:key:${generateTestKey('EdDSA').multikey}`, 'dns');
    await expect(proofOf(c)).rejects.toThrow(RangeError);
  });
});

function storedClaim(c: ClaimChallenge, subject: string): StoredClaim {
  return {
    id: 1,
    did: c.did,
    method: c.method,
    subject,
    token: c.token,
    verifiedAt: '2026-11-27T10:03:00Z',
    checkedAt: '2026-11-27T10:03:00Z',
    expiresAt: '2026-12-27T10:03:00Z',
    nextCheckAt: '2026-11-28T10:03:00Z',
    checkFailures: 0,
    lapsedAt: null,
    lastError: null,
    lapseReason: null,
  };
}
