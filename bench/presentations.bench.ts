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
 *    (AuthenticationProofPurpose). Status is not checked by either side (no credentialStatus).
 *
 * Each size has a pool of distinct presentations (distinct credentials, so no result can be
 * reused across calls); every presentation is checked on both sides before timing — svc VALID
 * with every credential VALID and bound, the peer verified with every credential verified — and
 * both sides must refuse one with a credential changed by one byte. Each timed call checks its
 * answer: a broken side throws instead of reporting a figure.
 */
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
    }
    // Both must refuse a presentation whose last credential was changed by one byte.
    const tampered = structuredClone(presentations[0]!);
    const last = (tampered['verifiableCredential'] as Json[]).at(-1)!;
    (last['credentialSubject'] as Json)['name'] = 'Alicf';
    if ((await verifyPresentation(tampered, options)).status === 'VALID') throw new Error('svc: a tampered credential verified');
    if ((await peerVerifyDiPresentation(tampered)).verified) throw new Error('peer: a tampered credential verified');

    const n = presentations.length;
    const [svc, peer] = await compareThroughput(
      [(i) => svcVerify(presentations[i % n]!, size), (i) => peerVerify(presentations[i % n]!, size)],
      size === 100 ? { ...SAMPLING, sampleMs: 1500 } : SAMPLING,
    );
    rows.push({
      operation: `verify Data Integrity presentation, ${size} eddsa-jcs-2022 credential${size === 1 ? '' : 's'} (did:key holder and issuers, challenge + domain)`,
      unit: 'ops/s',
      svc: median(svc!),
      peer: '@digitalbazaar/vc verify + eddsa-jcs-2022-cryptosuite',
      peerValue: median(peer!),
      goal: { op: '>=', ratio: 3 },
      status: 'ok',
      note: `${n} distinct presentations, ${ISSUERS} issuers`,
      samples: { svc: svc!, peer: peer! },
    });
  }
  return rows;
}
