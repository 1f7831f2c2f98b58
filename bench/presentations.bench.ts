/**
 * Presentation verification throughput: a Data Integrity presentation (eddsa-jcs-2022,
 * proofPurpose `authentication`, challenge and domain) by an Ed25519 did:key holder, carrying 1,
 * 10 or 100 eddsa-jcs-2022 credentials about the holder by 16 Ed25519 did:key issuers, all made
 * by @digitalbazaar/vc (test/support/peer-presentations.ts). Two sides, interleaved, per size:
 *
 *  - svc: `verifyPresentation()` with `challenge` and `domain` — strict reading, the presentation
 *    structure, the holder's did:key resolved through the core, its `authentication` binding, the
 *    proof, challenge and domain, then every credential through `verifyCredential` (structure,
 *    issuer did:key resolved through the core — cached after the first credential of each issuer,
 *    as in credentials.bench.ts — key binding, proof, validity) and its holder binding;
 *  - peer: @digitalbazaar/vc `verify` with the eddsa-jcs-2022 verify cryptosuite, the same
 *    offline document loader (bundled contexts, did:key documents by did-method-key), `challenge`
 *    and `domain`: every credential (`verifyCredential`) and the presentation proof
 *    (AuthenticationProofPurpose). Status is not checked by either side (no credentialStatus);
 *  - raw limit: what any verifier must do at least — for the presentation and each credential,
 *    JCS of the proof configuration and of the document, two SHA-256 and one node:crypto Ed25519
 *    verify with the key already imported (as in credentials.bench.ts), nothing else.
 *
 * The 3× goal over the peer cannot hold where the raw limit itself is less than 3× the peer (the
 * note gives that ratio): svc would then have to be faster than the least work of any verifier.
 *
 * Each size has a pool of distinct presentations (distinct credentials, so no result can be
 * reused across calls); every presentation is checked on both sides before timing — svc VALID
 * with every credential VALID and bound, the peer verified with every credential verified — and
 * both sides must refuse one with a credential changed by one byte. Each timed call checks its
 * answer: a broken side throws instead of reporting a figure.
 */
import { createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { canonicalize } from '../src/core/canonical.js';
import { base58Decode } from '../src/core/encoding/base58.js';
import { verifyPresentation } from '../src/core/presentations/verify.js';
import { createRuntime } from '../src/runtime/node.js';
import { issueEddsaJcs, peerEd25519Issuer, unsignedCredential, type Json, type PeerIssuer } from '../test/support/peer-issuers.js';
import { CHALLENGE, DOMAIN, peerHolder, peerVerifyDiPresentation, signDiPresentation, unsignedPresentation } from '../test/support/peer-presentations.js';
import { compareThroughput, median, type BenchRow } from './lib.js';

const ISSUERS = 16;
const SIZES = [1, 10, 100] as const;
/** Presentations per size: enough distinct inputs that nothing is verified twice in a row. */
const POOL: Record<(typeof SIZES)[number], number> = { 1: 64, 10: 16, 100: 4 };
const SAMPLING = { samples: 5, sampleMs: 600 } as const;

const credentialId = (k: number) => `urn:uuid:00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;

/** Keys of the did:key verification methods, imported once (the raw limit's keys are free). */
const KEYS = new Map<string, KeyObject>();

function ed25519Key(vm: string): KeyObject {
  let key = KEYS.get(vm);
  if (key === undefined) {
    const bytes = base58Decode(vm.split('#')[1]!.slice(1))!;
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes.subarray(2)).toString('base64url') }, format: 'jwk' });
    KEYS.set(vm, key);
  }
  return key;
}

/** The least work of one eddsa-jcs-2022 proof (vc-di-eddsa, "Verify Proof (eddsa-jcs-2022)"). */
function rawProof(secured: Json): boolean {
  const { proof, ...document } = secured as Json & { proof: Json };
  const { proofValue, ...config } = proof;
  const hash = (value: unknown) => createHash('sha256').update(canonicalize(value)).digest();
  return cryptoVerify(
    null,
    Buffer.concat([hash(config), hash(document)]),
    ed25519Key(String(proof['verificationMethod'])),
    base58Decode(String(proofValue).slice(1))!,
  );
}

/** The raw limit of a presentation: every credential's proof and the presentation's. */
function rawPresentation(presentation: Json): boolean {
  return (presentation['verifiableCredential'] as Json[]).every(rawProof) && rawProof(presentation);
}

async function pool(size: number, count: number, issuers: PeerIssuer[], next: { k: number }): Promise<Json[]> {
  const holder = await peerHolder(90);
  const presentations: Json[] = [];
  for (let p = 0; p < count; p++) {
    const credentials: Json[] = [];
    for (let c = 0; c < size; c++) {
      const k = next.k++;
      const issuer = issuers[k % issuers.length]!;
      credentials.push(
        await issueEddsaJcs(unsignedCredential(issuer.did, { id: credentialId(k), credentialSubject: { id: holder.did, name: `Alice ${k}` } }), issuer),
      );
    }
    presentations.push(
      await signDiPresentation(
        unsignedPresentation(holder.did, credentials, { id: `urn:uuid:7a1e0c52-0000-4000-8000-${String(p).padStart(12, '0')}` }),
        holder,
      ),
    );
  }
  return presentations;
}

export async function run(): Promise<BenchRow[]> {
  const issuers: PeerIssuer[] = [];
  for (let i = 0; i < ISSUERS; i++) issuers.push(await peerEd25519Issuer(i + 1));
  const runtime = createRuntime({});
  const options = { runtime, challenge: CHALLENGE, domain: DOMAIN };
  const svcVerify = async (presentation: Json, size: number): Promise<void> => {
    const result = await verifyPresentation(presentation, options);
    if (result.status !== 'VALID') throw new Error(`svc: ${result.status}: ${result.headline}`);
    if (result.credentials.length !== size || result.credentials.some((c) => c.verification.status !== 'VALID' || c.holderBinding !== 'BOUND'))
      throw new Error('svc: not every credential verified and bound');
  };
  const peerVerify = async (presentation: Json, size: number): Promise<void> => {
    const result = await peerVerifyDiPresentation(presentation);
    if (!result.verified || result.presentationVerified !== true || result.credentialsVerified.length !== size || !result.credentialsVerified.every(Boolean))
      throw new Error('peer: not verified');
  };

  const rows: BenchRow[] = [];
  const next = { k: 0 };
  for (const size of SIZES) {
    const presentations = await pool(size, POOL[size], issuers, next);
    for (const presentation of presentations) {
      await svcVerify(presentation, size);
      await peerVerify(presentation, size);
      if (!rawPresentation(presentation)) throw new Error('raw limit: a presentation did not verify');
    }
    // Both must refuse a presentation whose last credential was changed by one byte.
    const tampered = structuredClone(presentations[0]!);
    const last = (tampered['verifiableCredential'] as Json[]).at(-1)!;
    (last['credentialSubject'] as Json)['name'] = 'Alicf';
    if ((await verifyPresentation(tampered, options)).status === 'VALID') throw new Error('svc: a tampered credential verified');
    if ((await peerVerifyDiPresentation(tampered)).verified) throw new Error('peer: a tampered credential verified');
    if (rawPresentation(tampered)) throw new Error('raw limit: a tampered credential verified');

    const n = presentations.length;
    const [svc, peer, raw] = await compareThroughput(
      [
        (i) => svcVerify(presentations[i % n]!, size),
        (i) => peerVerify(presentations[i % n]!, size),
        (i) => {
          if (!rawPresentation(presentations[i % n]!)) throw new Error('raw limit: not verified');
        },
      ],
      size === 100 ? { ...SAMPLING, sampleMs: 1500 } : SAMPLING,
    );
    const operation = `verify Data Integrity presentation, ${size} eddsa-jcs-2022 credential${size === 1 ? '' : 's'} (did:key holder and issuers, challenge + domain)`;
    rows.push(
      {
        operation,
        unit: 'ops/s',
        svc: median(svc!),
        peer: '@digitalbazaar/vc verify + eddsa-jcs-2022-cryptosuite',
        peerValue: median(peer!),
        goal: { op: '>=', ratio: 3 },
        status: 'ok',
        note: `${n} distinct presentations, ${ISSUERS} issuers; the raw limit is ${(median(raw!) / median(peer!)).toFixed(2)}× the peer`,
        samples: { svc: svc!, peer: peer! },
      },
      {
        operation,
        unit: 'ops/s',
        svc: median(svc!),
        peer: `raw limit: ${size + 1} × (JCS + SHA-256 + node:crypto Ed25519 verify)`,
        peerValue: median(raw!),
        goal: { op: '>=', ratio: 0.8 },
        status: 'ok',
        samples: { svc: svc!, peer: raw! },
      },
    );
  }
  return rows;
}
