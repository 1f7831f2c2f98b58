/**
 * Delegation chain verification: an 8-link chain of did:key issuers (the longest svc accepts),
 * chains/s. svc's `verifyDelegationChain()` — strict parsing of every receipt, each issuer's
 * did:key resolved through the core (cached after the first chain, as a gateway that sees the
 * same agents again would have it), capabilityDelegation binding, signatures, rules 3–8 — next
 * to `jose` `compactVerify` of the same eight receipts with the keys already imported (the
 * signatures alone: what any verifier must at least do). Informational: the issue sets no goal.
 */
import { createHash, generateKeyPairSync, createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT, compactVerify } from 'jose';
import { verifyDelegationChain } from '../src/core/delegation/index.js';
import { base58Encode } from '../src/core/encoding/base58.js';
import { createRuntime } from '../src/runtime/node.js';
import { compareThroughput, median, type BenchRow } from './lib.js';

const LINKS = 8;
const CHAINS = 16;

interface Party {
  did: string;
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

function party(): Party {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const x = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  const multikey = `z${base58Encode(new Uint8Array([0xed, 0x01, ...x]))}`;
  const did = `did:key:${multikey}`;
  return { did, kid: `${did}#${multikey}`, privateKey, publicKey: createPublicKey(privateKey) };
}

async function chainOf(parties: Party[], now: number): Promise<string[]> {
  const chain: string[] = [];
  for (let i = 0; i < LINKS; i++) {
    const parent = chain[i - 1];
    const payload = {
      iss: parties[i]!.did,
      aud: parties[i + 1]!.did,
      cap: i === 0 ? ['*'] : ['payments:*'],
      nbf: now - 600 + i,
      exp: now + 3600 - i,
      ...(parent ? { prf: createHash('sha256').update(parent).digest('hex') } : {}),
    };
    chain.push(await new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', typ: 'svc-delegation+jwt', kid: parties[i]!.kid }).sign(parties[i]!.privateKey));
  }
  return chain;
}

export async function run(): Promise<BenchRow[]> {
  const now = Math.floor(Date.now() / 1000);
  const pool: Array<{ chain: string[]; keys: KeyObject[] }> = [];
  for (let c = 0; c < CHAINS; c++) {
    const parties = Array.from({ length: LINKS + 1 }, party);
    pool.push({ chain: await chainOf(parties, now), keys: parties.slice(0, LINKS).map((p) => p.publicKey) });
  }
  const runtime = createRuntime({});
  for (const { chain } of pool) {
    const result = await verifyDelegationChain(chain, { runtime });
    if (result.status !== 'VALID') throw new Error(`svc: ${result.status}: ${result.headline}`);
  }
  const n = pool.length;
  const [svc, raw] = await compareThroughput(
    [
      async (i) => {
        if ((await verifyDelegationChain(pool[i % n]!.chain, { runtime })).status !== 'VALID') throw new Error('svc: not VALID');
      },
      async (i) => {
        const { chain, keys } = pool[i % n]!;
        for (let k = 0; k < LINKS; k++) await compactVerify(chain[k]!, keys[k]!);
      },
    ],
    { samples: 5, sampleMs: 400 },
  );
  return [
    {
      operation: `verify an ${LINKS}-link delegation chain (did:key issuers)`,
      unit: 'ops/s',
      svc: median(svc!),
      peer: `jose compactVerify ×${LINKS}, keys pre-imported (signatures only)`,
      peerValue: median(raw!),
      goal: null,
      status: 'ok',
      note: 'chains per second',
      samples: { svc: svc!, peer: raw! },
    },
  ];
}
