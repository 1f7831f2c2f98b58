/**
 * SD-JWT VC verification throughput: a presentation with 5 disclosures (all presented)
 * and a KB-JWT, EdDSA did:key issuers and holders (the holder key in `cnf.jwk`), minted by
 * @sd-jwt/sd-jwt-vc with node:crypto signers; a pool of 16 issuers × 16 credentials. Three sides
 * in one interleaved run:
 *
 *  - svc: `verifyCredential()` with `expectedAudience` — the SD-JWT split and parsed strictly, the
 *    issuer's did:key resolved through the core (cached after the first credential of each
 *    issuer, as in credentials.bench.ts), key binding, the issuer JWT's signature, every
 *    disclosure hashed and matched, the KB-JWT (typ, sd_hash, iat, aud, signature by `cnf`),
 *    validity;
 *  - peer: @sd-jwt/sd-jwt-vc `SDJwtVcInstance.verify` — one instance per issuer whose verifier is
 *    a node:crypto Ed25519 verify with that issuer's key (imported once), whose kbVerifier imports
 *    `cnf.jwk` of the payload and verifies with node:crypto, hasher node:crypto SHA-256; with
 *    `keyBindingNonce` (so it checks the KB-JWT) and `requiredClaimKeys` of the five claims. It
 *    resolves no DID: the issuer key is handed to it;
 *  - raw limit: two node:crypto Ed25519 verifies, the issuer JWT and the KB-JWT, over signing
 *    inputs prepared once with keys imported once — no parsing, hashing or claim checks.
 *
 * Every presentation is checked before timing — VALID with the 5 claims disclosed and the key
 * binding shown (svc), verified with a KB-JWT (peer, which must also refuse a presentation whose
 * KB-JWT signature is broken), true (limit) — and each timed call checks its answer: a broken
 * side throws instead of reporting a figure.
 */
import { createHash, createPublicKey, randomBytes, sign, verify as cryptoVerify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { verifyCredential } from '../src/core/credentials/verify.js';
import { createRuntime } from '../src/runtime/node.js';
import { jwtIssuer, type JwtIssuer } from '../test/support/peer-issuers.js';
import { compareThroughput, median, type BenchRow } from './lib.js';

const ISSUERS = 16;
const PER_ISSUER = 16;
const AUDIENCE = 'https://verifier.example';
const NONCE = 'bench-nonce-6tZ3qv';
const VCT = 'https://credentials.example/identity';
const CLAIMS = ['given_name', 'family_name', 'birthdate', 'nationality', 'email'] as const;

const sha256 = (data: string | ArrayBuffer, alg: string): Uint8Array => {
  if (alg !== 'sha-256') throw new Error(`unexpected hash ${alg}`);
  return new Uint8Array(
    createHash('sha256')
      .update(typeof data === 'string' ? data : Buffer.from(data))
      .digest(),
  );
};

const edSigner = (key: KeyObject) => (data: string) => sign(null, Buffer.from(data), key).toString('base64url');
const edVerify = (key: KeyObject, data: string, signature: string) => cryptoVerify(null, Buffer.from(data), key, Buffer.from(signature, 'base64url'));

interface Item {
  presentation: string;
  /** The peer instance of this presentation's issuer. */
  peer: SDJwtVcInstance;
  /** Raw limit inputs: ASCII signing inputs and signatures of the issuer JWT and the KB-JWT. */
  issuerInput: Buffer;
  issuerSignature: Buffer;
  issuerKey: KeyObject;
  kbInput: Buffer;
  kbSignature: Buffer;
  holderKey: KeyObject;
}

function splitJws(jws: string): [Buffer, Buffer] {
  const dot = jws.lastIndexOf('.');
  return [Buffer.from(jws.slice(0, dot), 'ascii'), Buffer.from(jws.slice(dot + 1), 'base64url')];
}

/** The peer library for one issuer: signs with its key, verifies with its public key, KB-JWTs with `cnf.jwk`. */
function instance(issuer: JwtIssuer, holder?: JwtIssuer): SDJwtVcInstance {
  return new SDJwtVcInstance({
    signer: edSigner(issuer.privateKey),
    signAlg: 'EdDSA',
    verifier: (data, signature) => edVerify(issuer.publicKey, data, signature),
    kbVerifier: (data, signature, payload) => {
      const jwk = (payload['cnf'] as { jwk?: JsonWebKey } | undefined)?.jwk;
      if (jwk === undefined) return false;
      return edVerify(createPublicKey({ key: jwk, format: 'jwk' }), data, signature);
    },
    hasher: sha256,
    hashAlg: 'sha-256',
    saltGenerator: () => randomBytes(16).toString('base64url'),
    ...(holder === undefined ? {} : { kbSigner: edSigner(holder.privateKey), kbSignAlg: 'EdDSA' }),
  });
}

async function pool(): Promise<Item[]> {
  const items: Item[] = [];
  const now = Math.floor(Date.now() / 1000);
  for (let i = 0; i < ISSUERS; i++) {
    const issuer = jwtIssuer('EdDSA', new Uint8Array(32).fill(i + 1));
    const peer = instance(issuer);
    for (let j = 0; j < PER_ISSUER; j++) {
      const holder = jwtIssuer('EdDSA', new Uint8Array(32).fill(64 + ((i * PER_ISSUER + j) % 128)));
      const minter = instance(issuer, holder);
      const payload = {
        iss: issuer.did,
        vct: VCT,
        iat: now - 3600,
        sub: holder.did,
        cnf: { jwk: holder.publicKey.export({ format: 'jwk' }) },
        given_name: 'Erika',
        family_name: 'Mustermann',
        birthdate: '1963-08-12',
        nationality: 'DE',
        email: `erika.${i}.${j}@example.com`,
      };
      const issued = await minter.issue(payload as never, { _sd: [...CLAIMS] } as never, { header: { kid: issuer.kid } });
      const presentation = await minter.present(issued, undefined, { kb: { payload: { iat: now, aud: AUDIENCE, nonce: NONCE } as never } });
      const parts = presentation.split('~');
      if (parts.length !== CLAIMS.length + 2) throw new Error(`mint: ${parts.length - 2} disclosures presented, not ${CLAIMS.length}`);
      const [issuerInput, issuerSignature] = splitJws(parts[0]!);
      const [kbInput, kbSignature] = splitJws(parts[parts.length - 1]!);
      items.push({ presentation, peer, issuerInput, issuerSignature, issuerKey: issuer.publicKey, kbInput, kbSignature, holderKey: holder.publicKey });
    }
  }
  return items;
}

const PEER_OPTIONS = { keyBindingNonce: NONCE, requiredClaimKeys: [...CLAIMS] };

function rawLimit(item: Item): boolean {
  return cryptoVerify(null, item.issuerInput, item.issuerKey, item.issuerSignature) && cryptoVerify(null, item.kbInput, item.holderKey, item.kbSignature);
}

const SAMPLING = { samples: 5, sampleMs: 400 } as const;

export async function run(): Promise<BenchRow[]> {
  const items = await pool();
  const runtime = createRuntime({});
  const options = { runtime, expectedAudience: AUDIENCE };
  for (const item of items) {
    const result = await verifyCredential(item.presentation, options);
    if (result.status !== 'VALID') throw new Error(`svc: ${result.status}: ${result.headline}`);
    if (result.disclosures?.disclosed.length !== CLAIMS.length || result.disclosures.keyBinding === null)
      throw new Error('svc: not every disclosure, or no key binding, reported');
    const verified = await item.peer.verify(item.presentation, PEER_OPTIONS);
    if (verified.kb === undefined || verified.payload['email'] === undefined) throw new Error('peer: the KB-JWT was not checked, or a claim is missing');
    if (!rawLimit(item)) throw new Error('raw limit: a presentation did not verify');
  }
  // The peer must check the KB-JWT signature: a presentation whose KB-JWT signature is another one's is refused.
  const [a, b] = [items[0]!.presentation, items[1]!.presentation];
  const swapped = `${a.slice(0, a.lastIndexOf('.'))}${b.slice(b.lastIndexOf('.'))}`;
  if (
    await items[0]!.peer.verify(swapped, PEER_OPTIONS).then(
      () => true,
      () => false,
    )
  )
    throw new Error('peer: a KB-JWT with a wrong signature verified');
  if ((await verifyCredential(swapped, options)).status === 'VALID') throw new Error('svc: a KB-JWT with a wrong signature verified');

  const n = items.length;
  const [svc, peer, limit] = await compareThroughput(
    [
      async (i) => {
        if ((await verifyCredential(items[i % n]!.presentation, options)).status !== 'VALID') throw new Error('svc: not VALID');
      },
      async (i) => {
        const item = items[i % n]!;
        if ((await item.peer.verify(item.presentation, PEER_OPTIONS)).kb === undefined) throw new Error('peer: no KB-JWT verified');
      },
      (i) => {
        if (!rawLimit(items[i % n]!)) throw new Error('raw limit: not verified');
      },
    ],
    SAMPLING,
  );
  const operation = 'verify SD-JWT VC, 5 disclosures + KB-JWT (EdDSA did:key issuer, no status)';
  return [
    {
      operation,
      unit: 'ops/s',
      svc: median(svc!),
      peer: '@sd-jwt/sd-jwt-vc SDJwtVcInstance.verify (node:crypto)',
      peerValue: median(peer!),
      goal: { op: '>=', ratio: 1.0 },
      status: 'ok',
      samples: { svc: svc!, peer: peer! },
    },
    {
      operation,
      unit: 'ops/s',
      svc: median(svc!),
      peer: 'raw limit: 2 node:crypto Ed25519 verifies (issuer JWT, KB-JWT)',
      peerValue: median(limit!),
      goal: { op: '>=', ratio: 0.6 },
      status: 'ok',
      samples: { svc: svc!, peer: limit! },
    },
  ];
}
