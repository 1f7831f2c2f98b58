/**
 * Credential verification throughput (did:key issuers, no status list).
 *
 * eddsa-jcs-2022, three ways in one interleaved run:
 *
 *  - svc: `verifyCredential()` — input reading, data model checks, the issuer's did:key resolved
 *    through the core (cached after the first credential of each issuer, as a verifier that
 *    sees many credentials of few issuers would have it), key binding, the proof, validity;
 *  - peer: @digitalbazaar/vc `verifyCredential` with the eddsa-jcs-2022 cryptosuite and an
 *    offline document loader (did:key driver + bundled contexts);
 *  - raw limit: what any verifier must do at least — JCS of the proof configuration and of the
 *    document, two SHA-256, one node:crypto Ed25519 verify with the key already imported.
 *
 * ecdsa-jcs-2019 (P-256), vc+jwt (EdDSA, ES256) and VC-JWT 1.1 (EdDSA): svc's
 * `verifyCredential()` next to its raw limit in one interleaved run each — for ecdsa-jcs-2019
 * the same JCS + two SHA-256 + one node:crypto ECDSA P-256 verify (SHA-256, raw r‖s); for the
 * JWTs one node:crypto verify of the signing input `header.payload` (bytes prepared once) with
 * the key already imported.
 *
 * Every credential is checked VALID (svc) / verified (peer) / true (limit) before timing, and
 * each timed call checks its answer: a broken side throws instead of reporting a figure.
 */
import { createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { canonicalize } from '../src/core/canonical.js';
import { verifyCredential } from '../src/core/credentials/verify.js';
import { base58Decode } from '../src/core/encoding/base58.js';
import { createRuntime } from '../src/runtime/node.js';
import {
  issueEcdsaJcs,
  issueEddsaJcs,
  issueVcJwt,
  issueVcJwt11,
  jwtIssuer,
  peerDiVerifier,
  peerEd25519Issuer,
  peerP256Issuer,
  unsignedCredential,
  unsignedCredential11,
  type Json,
  type JwtAlg,
} from '../test/support/peer-issuers.js';
import { compareThroughput, median, type BenchRow } from './lib.js';

const ISSUERS = 16;
const PER_ISSUER = 16;

interface Prepared {
  credential: Json;
  key: KeyObject;
}

/** The public key of a did:key verification method: Ed25519 (z6Mk…, 32 bytes) or compressed P-256 (zDn…). */
function didKeyPublicKey(vm: string): KeyObject {
  const multikey = vm.split('#')[1]!;
  const bytes = base58Decode(multikey.slice(1))!;
  if (bytes[0] === 0xed)
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes.subarray(2)).toString('base64url') }, format: 'jwk' });
  // 0x1200 (p256-pub) is the varint 0x80 0x24; SPKI of a compressed point.
  const spki = Buffer.concat([Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex'), bytes.subarray(2)]);
  return createPublicKey({ key: spki, format: 'der', type: 'spki' });
}

/** The least work of an eddsa-jcs-2022 (vc-di-eddsa §3.3.2) or ecdsa-jcs-2019 (vc-di-ecdsa §3.3) verification. */
function rawVerify({ credential, key }: Prepared): boolean {
  const { proof, ...document } = credential as Json & { proof: Json };
  const { proofValue, ...config } = proof;
  const hash = (value: unknown) => createHash('sha256').update(canonicalize(value)).digest();
  const data = Buffer.concat([hash(config), hash(document)]);
  const signature = base58Decode((proofValue as string).slice(1))!;
  if (key.asymmetricKeyType === 'ed25519') return cryptoVerify(null, data, key, signature);
  return cryptoVerify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
}

interface PreparedJwt {
  jwt: string;
  /** ASCII of `header.payload`, what was signed. */
  signingInput: Buffer;
  signature: Buffer;
  key: KeyObject;
}

function prepareJwt(jwt: string, key: KeyObject): PreparedJwt {
  const dot = jwt.lastIndexOf('.');
  return { jwt, signingInput: Buffer.from(jwt.slice(0, dot), 'ascii'), signature: Buffer.from(jwt.slice(dot + 1), 'base64url'), key };
}

/** The least work of a JOSE verification: one signature over the signing input, key imported. */
function rawVerifyJwt({ signingInput, signature, key }: PreparedJwt): boolean {
  if (key.asymmetricKeyType === 'ed25519') return cryptoVerify(null, signingInput, key, signature);
  return cryptoVerify('sha256', signingInput, { key, dsaEncoding: 'ieee-p1363' }, signature);
}

const SAMPLING = { samples: 5, sampleMs: 400 } as const;

/** svc's verifyCredential against the raw limit over one pool, interleaved: one goal row (≥ 0.8×). */
async function againstLimit<T>(
  operation: string,
  limitName: string,
  pool: readonly T[],
  input: (item: T) => unknown,
  limit: (item: T) => boolean,
): Promise<BenchRow> {
  const runtime = createRuntime({});
  for (const item of pool) {
    const result = await verifyCredential(input(item), { runtime });
    if (result.status !== 'VALID') throw new Error(`svc: ${operation}: ${result.status}: ${result.headline}`);
    if (!limit(item)) throw new Error(`raw limit: ${operation}: a credential did not verify`);
  }
  const n = pool.length;
  const [svc, raw] = await compareThroughput(
    [
      async (i) => {
        if ((await verifyCredential(input(pool[i % n]!), { runtime })).status !== 'VALID') throw new Error('svc: not VALID');
      },
      (i) => {
        if (!limit(pool[i % n]!)) throw new Error('raw limit: not verified');
      },
    ],
    SAMPLING,
  );
  return {
    operation,
    unit: 'ops/s',
    svc: median(svc!),
    peer: limitName,
    peerValue: median(raw!),
    goal: { op: '>=', ratio: 0.8 },
    status: 'ok',
    samples: { svc: svc!, peer: raw! },
  };
}

const credentialId = (k: number) => `urn:uuid:00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;

/** ISSUERS × PER_ISSUER ecdsa-jcs-2019 credentials by fresh P-256 did:key issuers. */
async function ecdsaPool(): Promise<Prepared[]> {
  const pool: Prepared[] = [];
  for (let i = 0; i < ISSUERS; i++) {
    const issuer = await peerP256Issuer();
    for (let j = 0; j < PER_ISSUER; j++) {
      const credential = await issueEcdsaJcs(unsignedCredential(issuer.did, { id: credentialId(i * PER_ISSUER + j) }), issuer);
      pool.push({ credential, key: didKeyPublicKey(issuer.verificationMethod) });
    }
  }
  return pool;
}

/** ISSUERS × PER_ISSUER JWT credentials by distinct did:key issuers: vc+jwt, or VC-JWT 1.1 (EdDSA). */
async function jwtPool(alg: JwtAlg, form: 'vc+jwt' | '1.1'): Promise<PreparedJwt[]> {
  const pool: PreparedJwt[] = [];
  for (let i = 0; i < ISSUERS; i++) {
    const issuer = jwtIssuer(alg, new Uint8Array(32).fill(i + 1));
    for (let j = 0; j < PER_ISSUER; j++) {
      const id = credentialId(i * PER_ISSUER + j);
      const jwt =
        form === 'vc+jwt'
          ? await issueVcJwt(unsignedCredential(issuer.did, { id }), issuer)
          : await issueVcJwt11(unsignedCredential11(), issuer, { jti: id, sub: 'did:example:subject' });
      pool.push(prepareJwt(jwt, issuer.publicKey));
    }
  }
  return pool;
}

async function eddsaRows(): Promise<BenchRow[]> {
  const pool: Prepared[] = [];
  for (let i = 0; i < ISSUERS; i++) {
    const issuer = await peerEd25519Issuer(i + 1);
    for (let j = 0; j < PER_ISSUER; j++) {
      const credential = await issueEddsaJcs(unsignedCredential(issuer.did, { id: credentialId(i * PER_ISSUER + j) }), issuer);
      pool.push({ credential, key: didKeyPublicKey(issuer.verificationMethod) });
    }
  }
  const runtime = createRuntime({});
  const peer = peerDiVerifier();
  for (const item of pool) {
    const result = await verifyCredential(item.credential, { runtime });
    if (result.status !== 'VALID') throw new Error(`svc: ${result.status}: ${result.headline}`);
    if (!(await peer.verify(item.credential))) throw new Error('peer: a credential did not verify');
    if (!rawVerify(item)) throw new Error('raw limit: a credential did not verify');
  }
  const n = pool.length;
  const [svc, other, limit] = await compareThroughput(
    [
      async (i) => {
        if ((await verifyCredential(pool[i % n]!.credential, { runtime })).status !== 'VALID') throw new Error('svc: not VALID');
      },
      async (i) => {
        if (!(await peer.verify(pool[i % n]!.credential))) throw new Error('peer: not verified');
      },
      (i) => {
        if (!rawVerify(pool[i % n]!)) throw new Error('raw limit: not verified');
      },
    ],
    SAMPLING,
  );
  const operation = 'verify eddsa-jcs-2022 credential (did:key issuer, no status)';
  return [
    {
      operation,
      unit: 'ops/s',
      svc: median(svc!),
      peer: '@digitalbazaar/vc + eddsa-jcs-2022-cryptosuite',
      peerValue: median(other!),
      goal: { op: '>=', ratio: 3 },
      status: 'ok',
      samples: { svc: svc!, peer: other! },
    },
    {
      operation,
      unit: 'ops/s',
      svc: median(svc!),
      peer: 'raw limit: JCS + SHA-256 + node:crypto Ed25519 verify',
      peerValue: median(limit!),
      goal: { op: '>=', ratio: 0.8 },
      status: 'ok',
      samples: { svc: svc!, peer: limit! },
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const rows = await eddsaRows();
  const ecdsa = await ecdsaPool();
  rows.push(
    await againstLimit(
      'verify ecdsa-jcs-2019 credential (P-256 did:key issuer, no status)',
      'raw limit: JCS + SHA-256 + node:crypto ECDSA P-256 verify',
      ecdsa,
      (item) => item.credential,
      rawVerify,
    ),
  );
  const jwtRows: Array<[JwtAlg, 'vc+jwt' | '1.1', string]> = [
    ['EdDSA', 'vc+jwt', 'verify vc+jwt EdDSA credential (did:key issuer, no status)'],
    ['ES256', 'vc+jwt', 'verify vc+jwt ES256 credential (P-256 did:key issuer, no status)'],
    ['EdDSA', '1.1', 'verify VC-JWT 1.1 EdDSA credential (did:key issuer, no kid, no status)'],
  ];
  for (const [alg, form, operation] of jwtRows) {
    const pool = await jwtPool(alg, form);
    rows.push(
      await againstLimit(
        operation,
        `raw limit: node:crypto ${alg === 'EdDSA' ? 'Ed25519' : 'ECDSA P-256'} verify of the signing input`,
        pool,
        (item) => item.jwt,
        rawVerifyJwt,
      ),
    );
  }
  return rows;
}
