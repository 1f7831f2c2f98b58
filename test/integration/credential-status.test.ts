/**
 * Credential status end to end (docs/credentials.md#status-lists): status list credentials made by
 * peer libraries (@digitalbazaar/vc-bitstring-status-list + eddsa-jcs-2022, jose for a vc+jwt list)
 * are served by a real HTTPS host on loopback, fetched under the production egress policy (allowing
 * 127.0.0.0/8 only) and verified by svc's own credential verifier. Nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/encoding/json.js';
import type { Runtime } from '../../src/core/runtime.js';
import {
  checkCredentialStatus,
  MAX_STATUS_LIST_BYTES,
  MIN_STATUS_LIST_ENTRIES,
  type StatusCheckContext,
  type StatusCheckResult,
} from '../../src/core/credentials/status.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { json, raw, startHttpsServer } from '../support/https-server.js';
import {
  gzipBombEncodedList,
  issueEddsaJcs,
  issueVcJwt,
  jwtIssuer,
  peerEd25519Issuer,
  peerListStatus,
  peerVerifyDi,
  statusEntry,
  statusListCredential,
  unsignedCredential,
  type Json,
  type PeerIssuer,
  type StatusListOptions,
} from '../support/peer-issuers.js';

let host: DidWebHost;
let runtime: Runtime;
let issuer: PeerIssuer;
let otherIssuer: PeerIssuer;

beforeAll(async () => {
  host = await startDidWebHost();
  runtime = host.runtime();
  issuer = await peerEd25519Issuer(1);
  otherIssuer = await peerEd25519Issuer(2);
});
afterAll(async () => {
  await host.close();
});

function context(signal?: AbortSignal): StatusCheckContext {
  return {
    runtime,
    ...(signal ? { signal } : {}),
    verifyList: (list, s) => verifyCredential(list, { runtime, checkStatus: false, ...(s ? { signal: s } : {}) }),
  };
}

function url(path: string): string {
  return `${host.server.origin}${path}`;
}

/** Requests the host has seen for `path`. */
function hits(path: string): number {
  return host.server.requests.filter((r) => r === `GET ${path}`).length;
}

/** Serves a signed list for `issuer` at `path` (options override) and returns its URL. */
async function publishList(path: string, options: Partial<StatusListOptions> = {}): Promise<string> {
  const listUrl = url(path);
  host.server.route(path, json(await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', ...options })));
  return listUrl;
}

function check(credentialStatus: unknown, credentialIssuer: string | null = issuer.did, signal?: AbortSignal): Promise<StatusCheckResult> {
  const credential = unsignedCredential(issuer.did, { credentialStatus }) as JsonObject;
  return checkCredentialStatus(credential, credentialIssuer, context(signal));
}

describe('credential status against a loopback status list host', () => {
  it('SKIP when the credential has no credentialStatus', async () => {
    const result = await checkCredentialStatus(unsignedCredential(issuer.did) as JsonObject, issuer.did, context());
    expect(result).toEqual({ status: 'SKIP', detail: 'The credential has no credentialStatus.', implies: null, entries: [] });
  });

  it('PASS for an entry whose bit is 0, with the byte window reported', async () => {
    const listUrl = await publishList('/lists/active', { set: [42] });
    const result = await check(statusEntry(listUrl, 41));
    expect(result.status).toBe('PASS');
    expect(result.implies).toBeNull();
    expect(result.entries).toEqual([
      {
        statusType: 'BitstringStatusListEntry',
        purpose: 'revocation',
        index: 41,
        listUrl,
        statusSize: 1,
        listCredentialVerified: true,
        listLengthBits: MIN_STATUS_LIST_ENTRIES,
        value: 0,
        result: 'ACTIVE',
        window: '00100000',
        windowOffset: 1,
        detail: `Index 41 of the revocation list ${listUrl} is 0: not revoked.`,
      },
    ]);
    expect(result.detail).toBe(`The status entry is active. Index 41 of the revocation list ${listUrl} is 0: not revoked.`);
  });

  it('FAIL / REVOKED for a set revocation bit (bit 0 = most significant bit of byte 0)', async () => {
    const listUrl = await publishList('/lists/revoked', { set: [42] });
    // The peer library agrees on what bit 42 is.
    const served = (await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', set: [42], sign: false }))['credentialSubject'] as Json;
    expect(await peerListStatus(served['encodedList'] as string, 42)).toBe(true);

    const result = await check(statusEntry(listUrl, 42));
    expect(result).toMatchObject({ status: 'FAIL', implies: 'REVOKED' });
    expect(result.entries[0]).toMatchObject({ index: 42, value: 1, result: 'REVOKED', window: '00100000', windowOffset: 2, listCredentialVerified: true });
    expect(result.detail).toBe(`The credential is revoked. Index 42 of the revocation list ${listUrl} is 1: revoked.`);
  });

  it('FAIL / SUSPENDED for a set bit of a suspension list', async () => {
    const listUrl = await publishList('/lists/suspension', { purpose: 'suspension', set: [0] });
    const result = await check(statusEntry(listUrl, 0, 'suspension'));
    expect(result).toMatchObject({ status: 'FAIL', implies: 'SUSPENDED' });
    expect(result.entries[0]).toMatchObject({ purpose: 'suspension', index: 0, value: 1, result: 'SUSPENDED', window: '10000000', windowOffset: 0 });
  });

  it('one list with both purposes serves two entries with one fetch; the most severe decides', async () => {
    const path = '/lists/both';
    const listUrl = await publishList(path, { purpose: ['revocation', 'suspension'], set: [131071] });
    const before = hits(path);
    const result = await check([statusEntry(listUrl, 5), statusEntry(listUrl, 131071, 'suspension')]);
    expect(hits(path) - before).toBe(1);
    expect(result).toMatchObject({ status: 'FAIL', implies: 'SUSPENDED' });
    expect(result.entries.map((e) => e.result)).toEqual(['ACTIVE', 'SUSPENDED']);
    expect(result.entries[1]).toMatchObject({ window: '00000001', windowOffset: 7 });
    expect(result.detail).toMatch(/^The credential is suspended \(entry 2 of 2 decides\)\. Index 131071 /);
  });

  it('INDETERMINATE for a list shorter than 131072 entries (STATUS_LIST_LENGTH_ERROR)', async () => {
    // 131071 entries cannot be expressed in whole bytes: 16383 bytes (131064 entries) is the
    // largest byte-aligned list under the minimum.
    const listUrl = await publishList('/lists/short', { length: MIN_STATUS_LIST_ENTRIES - 8 });
    const result = await check(statusEntry(listUrl, 3));
    expect(result).toMatchObject({ status: 'INDETERMINATE', implies: 'INDETERMINATE' });
    expect(result.entries[0]).toMatchObject({ result: 'INDETERMINATE', listCredentialVerified: true, listLengthBits: 131064, value: null, window: null });
    expect(result.entries[0]!.detail).toContain('STATUS_LIST_LENGTH_ERROR');
  });

  it('INDETERMINATE for an index outside the list (RANGE_ERROR)', async () => {
    const listUrl = await publishList('/lists/range');
    const result = await check(statusEntry(listUrl, MIN_STATUS_LIST_ENTRIES));
    expect(result).toMatchObject({ status: 'INDETERMINATE', implies: 'INDETERMINATE' });
    expect(result.entries[0]).toMatchObject({ index: 131072, listLengthBits: 131072, value: null, result: 'INDETERMINATE' });
    expect(result.entries[0]!.detail).toContain('RANGE_ERROR');
  });

  it('INDETERMINATE for a valid list issued by another issuer (service policy)', async () => {
    const path = '/lists/other-issuer';
    host.server.route(path, json(await statusListCredential({ issuer: otherIssuer, id: url(path), purpose: 'revocation' })));
    const result = await check(statusEntry(url(path), 1));
    expect(result).toMatchObject({ status: 'INDETERMINATE', implies: 'INDETERMINATE' });
    expect(result.entries[0]).toMatchObject({ listCredentialVerified: true, value: null, result: 'INDETERMINATE' });
    expect(result.entries[0]!.detail).toContain(`issued by ${otherIssuer.did}, not by the credential's issuer ${issuer.did}`);
  });

  it('INDETERMINATE when the credential issuer is unknown', async () => {
    const listUrl = await publishList('/lists/unknown-issuer');
    const result = await check(statusEntry(listUrl, 1), null);
    expect(result.implies).toBe('INDETERMINATE');
    expect(result.entries[0]!.detail).toContain('no issuer');
  });

  it('INDETERMINATE for a gzip bomb, with memory bounded by the 16 MiB limit', async () => {
    // 512 MiB of zeros: ~700 KB of encodedList, so the list itself stays under the 1 MiB download limit.
    const encodedList = await gzipBombEncodedList(512 * 1024 * 1024);
    const listUrl = await publishList('/lists/bomb', { encodedList });
    const usage = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.external;
    };
    const before = usage();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, usage())), 1);
    let result: StatusCheckResult;
    try {
      result = await check(statusEntry(listUrl, 1));
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, usage());
    expect(result).toMatchObject({ status: 'INDETERMINATE', implies: 'INDETERMINATE' });
    expect(result.entries[0]).toMatchObject({ listCredentialVerified: true, listLengthBits: null, result: 'INDETERMINATE' });
    expect(result.entries[0]!.detail).toBe(`The encodedList of ${listUrl} decompresses to more than 16 MiB.`);
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('INDETERMINATE for an unreachable list (connection refused)', async () => {
    const server = await startHttpsServer({ cert: host.leaf, ca: host.ca });
    const closedUrl = `${server.origin}/lists/gone`;
    await server.close();
    const result = await check(statusEntry(closedUrl, 1));
    expect(result).toMatchObject({ status: 'INDETERMINATE', implies: 'INDETERMINATE' });
    expect(result.entries[0]).toMatchObject({ listUrl: closedUrl, listCredentialVerified: false, result: 'INDETERMINATE' });
    expect(result.entries[0]!.detail).toContain('could not be retrieved');
  });

  it('INDETERMINATE for a list that answers 404', async () => {
    const result = await check(statusEntry(url('/lists/missing'), 1));
    expect(result.implies).toBe('INDETERMINATE');
    expect(result.entries[0]!.detail).toContain('answered HTTP 404');
  });

  it('INDETERMINATE for a list outside the public egress policy (no loopback allowance)', async () => {
    // Trusts the host's CA, but without the 127.0.0.0/8 allowance: the production policy.
    const strict = host.runtime({ allow: [] });
    const credential = unsignedCredential(issuer.did, { credentialStatus: statusEntry(await publishList('/lists/egress'), 1) }) as JsonObject;
    const result = await checkCredentialStatus(credential, issuer.did, { ...context(), runtime: strict });
    expect(result.implies).toBe('INDETERMINATE');
    expect(result.entries[0]!.detail).toContain('could not be retrieved');
  });

  it('INDETERMINATE for a list over 1 MiB', async () => {
    const listUrl = await publishList('/lists/huge', { extra: { padding: 'x'.repeat(MAX_STATUS_LIST_BYTES) } });
    const result = await check(statusEntry(listUrl, 1));
    expect(result.implies).toBe('INDETERMINATE');
    expect(result.entries[0]).toMatchObject({ listCredentialVerified: false, result: 'INDETERMINATE' });
    expect(result.entries[0]!.detail).toContain('could not be retrieved');
  });

  it('MALFORMED for a statusListIndex that is not a base-10 string ("12abc", a number), with nothing fetched', async () => {
    const path = '/lists/malformed-index';
    const listUrl = await publishList(path);
    const before = hits(path);
    for (const index of ['12abc', 12, '012', '-1', '']) {
      const result = await check({ ...statusEntry(listUrl, 0), statusListIndex: index });
      expect(result, String(index)).toMatchObject({ status: 'FAIL', implies: 'MALFORMED' });
      expect(result.entries[0]).toMatchObject({ statusType: 'BitstringStatusListEntry', index: null, listCredentialVerified: false, result: 'INDETERMINATE' });
    }
    expect(hits(path)).toBe(before);
  });

  it('MALFORMED for missing members and bad statusSize shapes; a non-object entry', async () => {
    const listUrl = url('/lists/never');
    const cases: unknown[] = [
      { type: 'BitstringStatusListEntry', statusListIndex: '1', statusListCredential: listUrl },
      { type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '1' },
      { type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '1', statusListCredential: 'not a url' },
      statusEntry(listUrl, 1, 'revocation', { statusSize: 0 }),
      statusEntry(listUrl, 1, 'revocation', { statusSize: '1' }),
      statusEntry(listUrl, 1, 'revocation', { statusSize: 1.5 }),
      { statusPurpose: 'revocation', statusListIndex: '1', statusListCredential: listUrl },
      'https://example.com/status/1',
    ];
    for (const entry of cases) {
      const result = await check(entry);
      expect(result.implies, JSON.stringify(entry)).toBe('MALFORMED');
      expect(result.status).toBe('FAIL');
    }
  });

  it('UNSUPPORTED for statusSize 2, another purpose and another entry type', async () => {
    const listUrl = url('/lists/never');
    const size = await check(statusEntry(listUrl, 1, 'revocation', { statusSize: 2 }));
    expect(size).toMatchObject({ status: 'UNSUPPORTED', implies: 'UNSUPPORTED' });
    expect(size.entries[0]).toMatchObject({ statusSize: 2, index: 1, result: 'UNSUPPORTED' });
    const purpose = await check(statusEntry(listUrl, 1, 'message'));
    expect(purpose).toMatchObject({ status: 'UNSUPPORTED', implies: 'UNSUPPORTED' });
    const type = await check({ id: `${listUrl}#1`, type: 'RevocationList2020Status', revocationListIndex: '1', revocationListCredential: listUrl });
    expect(type).toMatchObject({ status: 'UNSUPPORTED', implies: 'UNSUPPORTED' });
    expect(type.entries[0]).toMatchObject({ statusType: 'RevocationList2020Status', result: 'UNSUPPORTED' });
  });

  it('MALFORMED outranks UNSUPPORTED, which outranks REVOKED', async () => {
    const listUrl = await publishList('/lists/precedence', { set: [9] });
    const revokedAndUnsupported = await check([statusEntry(listUrl, 9), statusEntry(listUrl, 1, 'revocation', { statusSize: 2 })]);
    expect(revokedAndUnsupported).toMatchObject({ status: 'UNSUPPORTED', implies: 'UNSUPPORTED' });
    expect(revokedAndUnsupported.entries.map((e) => e.result)).toEqual(['REVOKED', 'UNSUPPORTED']);
    const all = await check([statusEntry(listUrl, 9), statusEntry(listUrl, 1, 'revocation', { statusSize: 2 }), statusEntry(listUrl, 'x')]);
    expect(all).toMatchObject({ status: 'FAIL', implies: 'MALFORMED' });
    expect(all.detail).toMatch(/^A status entry is malformed \(entry 3 of 3 decides\)\. /);
  });

  it('INDETERMINATE for more than 8 entries, nothing fetched and nothing truncated', async () => {
    const path = '/lists/nine';
    const listUrl = await publishList(path);
    const before = hits(path);
    const result = await check(Array.from({ length: 9 }, (_, i) => statusEntry(listUrl, i)));
    expect(result).toEqual({
      status: 'INDETERMINATE',
      implies: 'INDETERMINATE',
      entries: [],
      detail: 'The credential has 9 status entries, more than the 8 svc checks; none was checked, so its status is unknown.',
    });
    expect(hits(path)).toBe(before);
    // Exactly 8 are checked (one fetch for the shared list).
    const eight = await check(Array.from({ length: 8 }, (_, i) => statusEntry(listUrl, i)));
    expect(eight.status).toBe('PASS');
    expect(eight.entries).toHaveLength(8);
    expect(hits(path)).toBe(before + 1);
  });

  it('INDETERMINATE when the entry purpose is not among the list purposes (exact, case-sensitive)', async () => {
    const listUrl = await publishList('/lists/purpose-mismatch', { purpose: 'revocation' });
    const result = await check(statusEntry(listUrl, 1, 'suspension'));
    expect(result.implies).toBe('INDETERMINATE');
    expect(result.entries[0]).toMatchObject({ listCredentialVerified: true, result: 'INDETERMINATE' });
    expect(result.entries[0]!.detail).toContain('it is for "revocation", not "suspension"');

    const capitalised = await publishList('/lists/purpose-case', { purpose: 'Revocation' });
    const caseResult = await check(statusEntry(capitalised, 1));
    expect(caseResult.implies).toBe('INDETERMINATE');
    expect(caseResult.entries[0]!.detail).toContain('case-sensitively');
  });

  it('a StatusList2021Entry against a StatusList2021Credential with a standard-base64 encodedList', async () => {
    const path = '/lists/sl2021';
    const listUrl = url(path);
    const list = await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', kind: 'statuslist2021', set: [42], alphabet: 'base64' });
    const encoded = (list['credentialSubject'] as Json)['encodedList'] as string;
    expect(encoded).toMatch(/[+/]/); // the standard alphabet, not base64url
    expect(encoded.startsWith('u')).toBe(false);
    expect(await peerVerifyDi(list)).toBe(true);
    host.server.route(path, json(list));
    const entry = (index: number) => ({ ...statusEntry(listUrl, index), type: 'StatusList2021Entry' });
    const revoked = await check(entry(42));
    expect(revoked).toMatchObject({ status: 'FAIL', implies: 'REVOKED' });
    expect(revoked.entries[0]).toMatchObject({ statusType: 'StatusList2021Entry', value: 1, listLengthBits: 131072, listCredentialVerified: true });
    expect((await check(entry(43))).status).toBe('PASS');
  });

  it('a StatusList2021 list in base64url with a u prefix is read too', async () => {
    const path = '/lists/sl2021-u';
    const listUrl = url(path);
    const bits = await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', set: [3], sign: false });
    const encodedList = (bits['credentialSubject'] as Json)['encodedList'] as string;
    host.server.route(path, json(await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', kind: 'statuslist2021', encodedList })));
    const result = await check({ ...statusEntry(listUrl, 3), type: 'StatusList2021Entry' });
    expect(result).toMatchObject({ status: 'FAIL', implies: 'REVOKED' });
  });

  it('INDETERMINATE for a Bitstring encodedList without the u prefix or not GZIP, and for a list of the wrong type', async () => {
    const bits = await statusListCredential({ issuer, id: url('/x'), purpose: 'revocation', sign: false });
    const encodedList = ((bits['credentialSubject'] as Json)['encodedList'] as string).slice(1);
    const noPrefix = await publishList('/lists/no-prefix', { encodedList });
    const result = await check(statusEntry(noPrefix, 1));
    expect(result.implies).toBe('INDETERMINATE');
    expect(result.entries[0]!.detail).toContain('is not multibase base64url');

    const notGzip = await publishList('/lists/not-gzip', { encodedList: `u${Buffer.from('not gzip at all').toString('base64url')}` });
    const gzipResult = await check(statusEntry(notGzip, 1));
    expect(gzipResult.implies).toBe('INDETERMINATE');
    expect(gzipResult.entries[0]!.detail).toBe(`The encodedList of ${notGzip} is not valid GZIP data.`);

    const sl2021 = await publishList('/lists/wrong-type', { kind: 'statuslist2021' });
    const wrongType = await check(statusEntry(sl2021, 1));
    expect(wrongType.implies).toBe('INDETERMINATE');
    expect(wrongType.entries[0]!.detail).toContain('it is not a BitstringStatusListCredential');
  });

  it('INDETERMINATE for a list with a bad signature', async () => {
    const path = '/lists/bad-signature';
    const listUrl = url(path);
    const signed = await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', set: [1] });
    // Clear bit 1 after signing: the attacker's "not revoked" list.
    const cleared = await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', sign: false });
    const forged = {
      ...signed,
      credentialSubject: { ...(signed['credentialSubject'] as Json), encodedList: (cleared['credentialSubject'] as Json)['encodedList'] },
    };
    expect(await peerVerifyDi(forged)).toBe(false);
    host.server.route(path, json(forged));
    const result = await check(statusEntry(listUrl, 1));
    expect(result).toMatchObject({ status: 'INDETERMINATE', implies: 'INDETERMINATE' });
    expect(result.entries[0]).toMatchObject({ listCredentialVerified: false, value: null, result: 'INDETERMINATE' });
    expect(result.entries[0]!.detail).toContain('did not verify (INVALID)');
  });

  it('INDETERMINATE for an unsigned list and for an expired list', async () => {
    const unsigned = await publishList('/lists/unsigned', { sign: false });
    const a = await check(statusEntry(unsigned, 1));
    expect(a.implies).toBe('INDETERMINATE');
    expect(a.entries[0]!.listCredentialVerified).toBe(false);

    const expired = await publishList('/lists/expired', { validUntil: '2025-06-01T00:00:00Z' });
    const b = await check(statusEntry(expired, 1));
    expect(b.implies).toBe('INDETERMINATE');
    expect(b.entries[0]!.detail).toContain('did not verify (EXPIRED)');
  });

  it('INDETERMINATE for a list with a duplicate member', async () => {
    const path = '/lists/duplicate';
    const listUrl = url(path);
    const list = await statusListCredential({ issuer, id: listUrl, purpose: 'revocation' });
    const text = JSON.stringify(list).replace('"statusPurpose":"revocation"', '"statusPurpose":"suspension","statusPurpose":"revocation"');
    expect(text).toContain('"statusPurpose":"suspension","statusPurpose":"revocation"');
    host.server.route(path, raw(text, { contentType: 'application/vc+ld+json' }));
    const result = await check(statusEntry(listUrl, 1));
    expect(result).toMatchObject({ status: 'INDETERMINATE', implies: 'INDETERMINATE' });
    expect(result.entries[0]).toMatchObject({ listCredentialVerified: false, result: 'INDETERMINATE' });
    expect(result.entries[0]!.detail).toMatch(/is malformed: .*duplicate member "statusPurpose"/);
  });

  it('a status list served as a vc+jwt (jose, EdDSA) is verified and read', async () => {
    const jwtSigner = jwtIssuer('EdDSA');
    const path = '/lists/jwt';
    const listUrl = url(path);
    const body = await statusListCredential({ issuer, id: listUrl, purpose: 'revocation', set: [7], sign: false, extra: { issuer: jwtSigner.did } });
    host.server.route(path, raw(await issueVcJwt(body, jwtSigner), { contentType: 'application/vc+jwt' }));
    const credential = unsignedCredential(jwtSigner.did, { credentialStatus: statusEntry(listUrl, 7) }) as JsonObject;
    const result = await checkCredentialStatus(credential, jwtSigner.did, context());
    expect(result).toMatchObject({ status: 'FAIL', implies: 'REVOKED' });
    expect(result.entries[0]).toMatchObject({ listCredentialVerified: true, value: 1 });
  });

  it('rethrows when the caller aborts', async () => {
    const listUrl = await publishList('/lists/aborted');
    const controller = new AbortController();
    controller.abort();
    await expect(check(statusEntry(listUrl, 1), issuer.did, controller.signal)).rejects.toMatchObject({ name: 'ProblemError' });
  });

  it('verifyCredential end to end: a peer-signed credential whose bit is set comes out REVOKED', async () => {
    const listUrl = await publishList('/lists/e2e', { set: [5] });
    const revoked = await issueEddsaJcs(unsignedCredential(issuer.did, { credentialStatus: statusEntry(listUrl, 5) }), issuer);
    const active = await issueEddsaJcs(unsignedCredential(issuer.did, { credentialStatus: statusEntry(listUrl, 6) }), issuer);
    const r = await verifyCredential(revoked, { runtime });
    expect(r.status).toBe('REVOKED');
    expect(r.checks.find((c) => c.id === 'status')).toMatchObject({ status: 'FAIL' });
    expect(r.statusList[0]).toMatchObject({ result: 'REVOKED', listCredentialVerified: true });
    const a = await verifyCredential(active, { runtime });
    expect(a.status).toBe('VALID');
    expect(a.statusList[0]).toMatchObject({ result: 'ACTIVE' });
  });
});
