/**
 * eddsa-jcs-2022 credential verification throughput (did:key issuers, no status list), three
 * ways in one interleaved run:
 *
 *  - svc: `verifyCredential()` — input reading, data model checks, the issuer's did:key resolved
 *    through the core (cached after the first credential of each issuer, as a verifier that
 *    sees many credentials of few issuers would have it), key binding, the proof, validity;
 *  - peer: @digitalbazaar/vc `verifyCredential` with the eddsa-jcs-2022 cryptosuite and an
 *    offline document loader (did:key driver + bundled contexts);
 *  - raw limit: what any verifier must do at least — JCS of the proof configuration and of the
 *    document, two SHA-256, one node:crypto Ed25519 verify with the key already imported.
 *
 * Every credential is checked VALID (svc) / verified (peer) / true (limit) before timing, and
 * each timed call checks its answer: a broken side throws instead of reporting a figure.
 */
import { createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { canonicalize } from '../src/core/canonical.js';
import { verifyCredential } from '../src/core/credentials/verify.js';
import { base58Decode } from '../src/core/encoding/base58.js';
import { createRuntime } from '../src/runtime/node.js';
import { issueEddsaJcs, peerDiVerifier, peerEd25519Issuer, unsignedCredential, type Json } from '../test/support/peer-issuers.js';
import { compareThroughput, median, type BenchRow } from './lib.js';

const ISSUERS = 16;
const PER_ISSUER = 16;

interface Prepared {
  credential: Json;
  key: KeyObject;
}

/** The raw Ed25519 public key of a did:key verification method (z6Mk… → 32 bytes). */
function didKeyPublicKey(vm: string): KeyObject {
  const multikey = vm.split('#')[1]!;
  const bytes = base58Decode(multikey.slice(1))!;
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes.subarray(2)).toString('base64url') }, format: 'jwk' });
}

/** The least work of an eddsa-jcs-2022 verification (vc-di-eddsa §3.3.2). */
function rawVerify({ credential, key }: Prepared): boolean {
  const { proof, ...document } = credential as Json & { proof: Json };
  const { proofValue, ...config } = proof;
  const hash = (value: unknown) => createHash('sha256').update(canonicalize(value)).digest();
  const data = Buffer.concat([hash(config), hash(document)]);
  return cryptoVerify(null, data, key, base58Decode((proofValue as string).slice(1))!);
}

export async function run(): Promise<BenchRow[]> {
  const pool: Prepared[] = [];
  for (let i = 0; i < ISSUERS; i++) {
    const issuer = await peerEd25519Issuer(i + 1);
    for (let j = 0; j < PER_ISSUER; j++) {
      const credential = await issueEddsaJcs(unsignedCredential(issuer.did, { id: `urn:uuid:00000000-0000-4000-8000-${String(i * PER_ISSUER + j).padStart(12, '0')}` }), issuer);
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
    { samples: 5, sampleMs: 400 },
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
