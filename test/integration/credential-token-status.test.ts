/**
 * IETF Token Status List for SD-JWT VC end to end: SD-JWT VCs minted by @sd-jwt/sd-jwt-vc and
 * Status List Tokens built by @sd-jwt/jwt-status-list (an independent implementation), signed by
 * the did:key issuer and served by a real HTTPS host on loopback (test CA, egress allowing
 * 127.0.0.0/8 only). Nothing is mocked.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { createHeaderAndPayload, getListFromStatusListJWT, StatusList, type BitsPerStatus } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STATUS_LIST_BYTES } from '../../src/core/credentials/status.js';
import type { CredentialVerification } from '../../src/core/credentials/types.js';
import { verifyCredential } from '../../src/core/credentials/verify.js';
import type { Runtime } from '../../src/core/runtime.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { closedPort, raw } from '../support/https-server.js';
import { jwtIssuer, type JwtIssuer } from '../support/peer-issuers.js';

let host: DidWebHost;
let runtime: Runtime;
const issuer = jwtIssuer('EdDSA');
const otherKey = generateKeyPairSync('ed25519').privateKey;

beforeAll(async () => {
  host = await startDidWebHost();
  runtime = host.runtime();
});
afterAll(async () => {
  await host.close();
});

const nowS = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const edSign = (key: KeyObject) => (data: string) => sign(null, Buffer.from(data), key).toString('base64url');

function url(path: string): string {
  return `${host.server.origin}${path}`;
}

function hits(path: string): number {
  return host.server.requests.filter((r) => r === `GET ${path}`).length;
}

interface TokenOptions {
  bits?: BitsPerStatus;
  size?: number;
  set?: Record<number, number>;
  signWith?: KeyObject;
  sub?: string;
  payload?: Record<string, unknown>;
  header?: Record<string, unknown>;
  /** Replaces status_list.lst. */
  lst?: string;
}

/** A Status List Token built by the peer library for `uri`, signed (kid = the issuer's key). */
function statusToken(uri: string, options: TokenOptions = {}): string {
  const bits = options.bits ?? 1;
  const values = new Array<number>(options.size ?? 1024).fill(0);
  for (const [i, v] of Object.entries(options.set ?? {})) values[Number(i)] = v;
  const list = new StatusList(values, bits);
  const made = createHeaderAndPayload(
    list,
    { iss: issuer.did, sub: options.sub ?? uri, iat: nowS() - 60, ...options.payload },
    { alg: 'EdDSA', typ: 'statuslist+jwt', kid: issuer.kid, ...options.header },
  );
  const payload = options.lst === undefined ? made.payload : { ...made.payload, status_list: { bits, lst: options.lst } };
  // Header overrides after the library's (which always writes typ statuslist+jwt).
  const input = `${b64({ ...made.header, ...options.header })}.${b64(payload)}`;
  return `${input}.${edSign(options.signWith ?? issuer.privateKey)(input)}`;
}

/** Serves `token` at `path` and returns the URL. */
function publish(path: string, token: string | Uint8Array): string {
  host.server.route(path, raw(token, { contentType: 'application/statuslist+jwt' }));
  return url(path);
}

const hasher = (data: string | ArrayBuffer, alg: string): Uint8Array => {
  if (alg !== 'sha-256') throw new Error(`unexpected ${alg}`);
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
};

/** An SD-JWT VC by `who` whose `status` claim is `status`. */
async function credential(status: unknown, who: JwtIssuer = issuer): Promise<string> {
  const vc = new SDJwtVcInstance({
    signer: edSign(who.privateKey),
    signAlg: 'EdDSA',
    hasher,
    hashAlg: 'sha-256',
    saltGenerator: () => randomBytes(16).toString('base64url'),
  });
  const payload = { iss: who.did, vct: 'https://credentials.example/identity', iat: nowS() - 3600, given_name: 'Erika', status };
  return vc.issue(payload as never, { _sd: ['given_name'] } as never, { header: { kid: who.kid } });
}

async function verifyAt(uri: string, idx: number): Promise<CredentialVerification> {
  return verifyCredential(await credential({ status_list: { idx, uri } }), { runtime });
}

function statusCheck(result: CredentialVerification): { status: string; detail: string } {
  const check = result.checks.find((c) => c.id === 'status')!;
  return { status: check.status, detail: check.detail };
}

describe('Token Status List: the bit order of draft-ietf-oauth-status-list §4.1', () => {
  it('the peer library packs the draft examples as the draft does (1 bit: 0xB9; 2 bits: 0xC9), entry 0 in the least significant bits', () => {
    expect([...new StatusList([1, 0, 0, 1, 1, 1, 0, 1], 1).encodeStatusList()]).toEqual([0xb9]);
    expect([...new StatusList([1, 2, 0, 3], 2).encodeStatusList()]).toEqual([0xc9]);
  });

  it('svc reads the 2-bit draft example entry by entry: 1 REVOKED, 2 SUSPENDED, 0 VALID, 3 INDETERMINATE (value reported)', async () => {
    const uri = publish('/tsl/draft-2bit', statusToken(url('/tsl/draft-2bit'), { bits: 2, size: 4, set: { 0: 1, 1: 2, 2: 0, 3: 3 } }));
    const results = await Promise.all([0, 1, 2, 3].map((i) => verifyAt(uri, i)));
    expect(results.map((r) => r.status)).toEqual(['REVOKED', 'SUSPENDED', 'VALID', 'INDETERMINATE']);
    expect(results.map((r) => r.statusList[0]?.value)).toEqual([1, 2, 0, 3]);
    expect(statusCheck(results[3]!).detail).toContain('is 0x03, a status svc does not interpret');
  });
});

describe('Token Status List against a loopback HTTPS host', () => {
  it('VALID for a 0x00 entry, with the statusList entry reported', async () => {
    const path = '/tsl/valid';
    const uri = publish(path, statusToken(url(path), { set: { 5: 1 } }));
    const before = hits(path);
    const result = await verifyAt(uri, 4);
    expect(result.status, JSON.stringify(result.checks)).toBe('VALID');
    expect(hits(path) - before).toBe(1);
    expect(statusCheck(result).status).toBe('PASS');
    expect(result.statusList).toEqual([
      {
        statusType: 'TokenStatusList',
        purpose: null,
        index: 4,
        listUrl: uri,
        statusSize: 1,
        listCredentialVerified: true,
        listLengthBits: 1024,
        value: 0,
        result: 'ACTIVE',
        window: '00100000',
        windowOffset: 3,
        detail: `Index 4 of the Token Status List ${uri} is 0x00 (VALID).`,
      },
    ]);
  });

  it('REVOKED for a 0x01 entry (1-bit list)', async () => {
    const path = '/tsl/revoked';
    const uri = publish(path, statusToken(url(path), { set: { 5: 1 } }));
    const result = await verifyAt(uri, 5);
    expect(result.status).toBe('REVOKED');
    expect(statusCheck(result)).toEqual({
      status: 'FAIL',
      detail: `The credential is revoked. Index 5 of the Token Status List ${uri} is 0x01 (INVALID): revoked.`,
    });
    expect(result.statusList[0]).toMatchObject({ value: 1, result: 'REVOKED', statusSize: 1, window: '00100000', windowOffset: 2 });
  });

  it('SUSPENDED for a 0x02 entry (2-bit list)', async () => {
    const path = '/tsl/suspended';
    const uri = publish(path, statusToken(url(path), { bits: 2, set: { 9: 2 } }));
    const result = await verifyAt(uri, 9);
    expect(result.status).toBe('SUSPENDED');
    expect(result.statusList[0]).toMatchObject({ value: 2, result: 'SUSPENDED', statusSize: 2, listLengthBits: 2048 });
    expect((await verifyAt(uri, 8)).status).toBe('VALID');
  });

  it('an 8-bit list: 0x01 REVOKED, 0x02 SUSPENDED, 0x00 VALID, 0x11 INDETERMINATE', async () => {
    const path = '/tsl/bits8';
    const uri = publish(path, statusToken(url(path), { bits: 8, size: 300, set: { 1: 1, 2: 2, 299: 0x11 } }));
    const results = await Promise.all([1, 2, 3, 299].map((i) => verifyAt(uri, i)));
    expect(results.map((r) => r.status)).toEqual(['REVOKED', 'SUSPENDED', 'VALID', 'INDETERMINATE']);
    expect(results[3]!.statusList[0]).toMatchObject({ value: 0x11, result: 'INDETERMINATE', statusSize: 8 });
    // The peer library reads the same token the same way.
    const served = statusToken(uri, { bits: 8, size: 300, set: { 1: 1, 2: 2, 299: 0x11 } });
    expect([1, 2, 3, 299].map((i) => getListFromStatusListJWT(served).getStatus(i))).toEqual([1, 2, 0, 0x11]);
  });

  it('INDETERMINATE when the host is unreachable', async () => {
    const port = await closedPort();
    const result = await verifyAt(`https://localhost:${port}/tsl/none`, 0);
    expect(result.status).toBe('INDETERMINATE');
    expect(statusCheck(result).detail).toMatch(
      /^The status could not be determined\. The Token Status List https:\/\/localhost:\d+\/tsl\/none could not be retrieved: /,
    );
    expect(result.statusList[0]).toMatchObject({ result: 'INDETERMINATE', listCredentialVerified: false, value: null });
  });

  it('INDETERMINATE for a body over the download bound', async () => {
    const path = '/tsl/oversized';
    const token = statusToken(url(path));
    const uri = publish(path, token + ' '.repeat(MAX_STATUS_LIST_BYTES + 1 - token.length));
    const result = await verifyAt(uri, 0);
    expect(result.status).toBe('INDETERMINATE');
    expect(statusCheck(result).detail).toContain('could not be retrieved');
    // The same token within the bound is accepted: the size alone decides.
    const fits = publish('/tsl/oversized-fits', statusToken(url('/tsl/oversized-fits')) + ' '.repeat(1000));
    expect((await verifyAt(fits, 0)).status).toBe('VALID');
  });

  it('INDETERMINATE for a token signed by another key (never VALID)', async () => {
    const path = '/tsl/other-key';
    const uri = publish(path, statusToken(url(path), { signWith: otherKey }));
    const result = await verifyAt(uri, 0);
    expect(result.status).toBe('INDETERMINATE');
    expect(statusCheck(result).detail).toMatch(/The signature of the Token Status List .* does not verify with a key of did:key:/);
    expect(result.statusList[0]?.listCredentialVerified).toBe(false);
  });

  it("INDETERMINATE for a token whose kid names another issuer's key", async () => {
    const other = jwtIssuer('EdDSA', new Uint8Array(32).fill(99));
    const path = '/tsl/other-issuer';
    const uri = publish(path, statusToken(url(path), { signWith: other.privateKey, header: { kid: other.kid } }));
    const result = await verifyAt(uri, 0);
    expect(result.status).toBe('INDETERMINATE');
    expect(statusCheck(result).detail).toContain(`signed by a key of ${other.did}, not of the credential's issuer ${issuer.did}`);
  });

  it('INDETERMINATE for a token signed with an algorithm a credential may not use (ES384)', async () => {
    const path = '/tsl/es384';
    const uri = publish(path, statusToken(url(path), { header: { alg: 'ES384' } }));
    const result = await verifyAt(uri, 0);
    expect(result.status).toBe('INDETERMINATE');
    expect(statusCheck(result).detail).toContain('is signed with ES384; svc checks EdDSA, ES256 or ES256K signatures');
  });

  it('INDETERMINATE when sub is not the status list URI', async () => {
    const path = '/tsl/sub';
    const uri = publish(path, statusToken(url(path), { sub: url('/tsl/elsewhere') }));
    const result = await verifyAt(uri, 0);
    expect(result.status).toBe('INDETERMINATE');
    expect(statusCheck(result).detail).toContain('its "sub" is');
  });

  it('INDETERMINATE for a wrong typ and for an expired token', async () => {
    const typ = publish('/tsl/typ', statusToken(url('/tsl/typ'), { header: { typ: 'JWT' } }));
    expect(statusCheck(await verifyAt(typ, 0)).detail).toContain('its header "typ" is "JWT", not "statuslist+jwt"');
    const expired = publish('/tsl/expired', statusToken(url('/tsl/expired'), { payload: { exp: nowS() - 3600 } }));
    const result = await verifyAt(expired, 0);
    expect(result.status).toBe('INDETERMINATE');
    expect(statusCheck(result).detail).toMatch(/expired at /);
  });

  it('INDETERMINATE for an index beyond the list', async () => {
    const path = '/tsl/short';
    const uri = publish(path, statusToken(url(path), { size: 16 }));
    expect((await verifyAt(uri, 15)).status).toBe('VALID');
    const result = await verifyAt(uri, 16);
    expect(result.status).toBe('INDETERMINATE');
    expect(statusCheck(result).detail).toContain(`Index 16 is outside the 16-entry Token Status List ${uri}`);
  });

  it('INDETERMINATE for a zlib bomb (20 MiB of zeros), bounded at 16 MiB', async () => {
    const path = '/tsl/bomb';
    const lst = deflateSync(Buffer.alloc(20 * 1024 * 1024), { level: 9 }).toString('base64url');
    const uri = publish(path, statusToken(url(path), { lst }));
    const result = await verifyAt(uri, 0);
    expect(result.status).toBe('INDETERMINATE');
    expect(statusCheck(result).detail).toContain('decompresses to more than 16 MiB');
    // Not ZLIB at all (raw GZIP): also INDETERMINATE.
    const gz = publish('/tsl/not-zlib', statusToken(url('/tsl/not-zlib'), { lst: Buffer.from('1f8b0800000000000003', 'hex').toString('base64url') }));
    expect(statusCheck(await verifyAt(gz, 0)).detail).toContain('is not valid ZLIB data');
  });

  it('MALFORMED for a status_list claim without a non-negative integer idx or an https uri; nothing is fetched', async () => {
    const path = '/tsl/never';
    const uri = publish(path, statusToken(url(path)));
    const before = hits(path);
    const claims = [
      { idx: -1, uri },
      { idx: '1', uri },
      { idx: 1.5, uri },
      { idx: 1, uri: uri.replace('https:', 'http:') },
      { idx: 1 },
      { idx: 1, uri: 'tsl/never' },
      'x',
    ];
    for (const claim of claims) {
      const result = await verifyCredential(await credential({ status_list: claim }), { runtime });
      expect(result.status, JSON.stringify(claim)).toBe('MALFORMED');
      expect(statusCheck(result).detail).toMatch(/^A status entry is malformed\. The credential's (the )?"status_list"/);
    }
    expect(hits(path) - before).toBe(0);
    expect((await verifyAt(uri, 1)).status).toBe('VALID');
  });
});
