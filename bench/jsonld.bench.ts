/**
 * RDF-canonicalised credential verification (JSON-LD processing on), one did:key issuer, no
 * status list, the issuer's resolution cached after the first credential.
 *
 * eddsa-rdfc-2022, in one interleaved run:
 *
 *  - svc: `verifyCredential()` of the library entry with `runtime.jsonld` (the pinned context
 *    set, src/jsonld/) — input reading, data model checks, the issuer's did:key, key binding,
 *    RDFC-1.0 of the proof options and of the credential, the Ed25519 signature, validity;
 *  - peer: @digitalbazaar/vc `verifyCredential` with the eddsa-rdfc-2022 cryptosuite and its own
 *    document loader serving the same pinned contexts (svc's PINNED_CONTEXTS) and did:key
 *    documents, offline;
 *  - svc's eddsa-jcs-2022 of an equivalent credential (same members, same issuer key form),
 *    informational: what RDF canonicalisation costs next to JCS.
 *
 * Every credential is checked VALID (svc) / verified (peer) before timing, and each timed call
 * checks its answer: a broken side throws instead of reporting a figure.
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { driver as didKeyDriver } from '@digitalbazaar/did-method-key';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import * as eddsaRdfc from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import type { DocumentLoader } from 'peer-libs/types';
import { verifyCredential } from '../src/index.js';
import { createRdfCanonicaliser } from '../src/jsonld/index.js';
import { PINNED_CONTEXTS } from '../src/jsonld/contexts.js';
import { createRuntime } from '../src/runtime/node.js';
import { issueEddsaJcs, peerEd25519Issuer, unsignedCredential, type Json } from '../test/support/peer-issuers.js';
import { rdfcIssuer } from '../test/support/peer-rdfc.js';
import { compareThroughput, median, type BenchRow } from './lib.js';

const CREDENTIALS = 64;
const SAMPLING = { samples: 7, sampleMs: 400 } as const;

const credentialId = (k: number) => `urn:uuid:00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;

const didKey = didKeyDriver();
didKey.use({ multibaseMultikeyHeader: 'z6Mk', fromMultibase: Ed25519Multikey.from });
const pinned = new Map<string, unknown>(PINNED_CONTEXTS.map((c) => [c.url, c.document]));

/** The peer's loader: svc's pinned contexts and did:key documents, nothing fetched. */
const pinnedLoader: DocumentLoader = async (url) => {
  if (pinned.has(url)) return { contextUrl: null, documentUrl: url, document: pinned.get(url) };
  if (url.startsWith('did:key:')) return { contextUrl: null, documentUrl: url, document: await didKey.get({ url }) };
  throw new Error(`offline document loader: refusing ${url}`);
};

const peerSuite = new DataIntegrityProof({ cryptosuite: eddsaRdfc.cryptosuite });

async function peerVerify(credential: Json): Promise<boolean> {
  const result = await vc.verifyCredential({
    credential,
    suite: peerSuite,
    documentLoader: pinnedLoader,
    checkStatus: async () => ({ verified: true }),
  });
  return result.verified;
}

export async function run(): Promise<BenchRow[]> {
  const rdfc = await rdfcIssuer('eddsa-rdfc-2022');
  const jcs = await peerEd25519Issuer(7);
  const rdfcPool: Json[] = [];
  const jcsPool: Json[] = [];
  for (let k = 0; k < CREDENTIALS; k++) {
    rdfcPool.push(await rdfc.sign(unsignedCredential(rdfc.did, { id: credentialId(k) })));
    jcsPool.push(await issueEddsaJcs(unsignedCredential(jcs.did, { id: credentialId(k) }), jcs));
  }
  const runtime = { ...createRuntime({}), jsonld: createRdfCanonicaliser() };
  for (const [i, credential] of rdfcPool.entries()) {
    const result = await verifyCredential(credential, { runtime });
    if (result.status !== 'VALID') throw new Error(`svc rdfc: ${result.status}: ${result.headline}`);
    if (!(await peerVerify(credential))) throw new Error('peer: a credential did not verify');
    const plain = await verifyCredential(jcsPool[i]!, { runtime });
    if (plain.status !== 'VALID') throw new Error(`svc jcs: ${plain.status}: ${plain.headline}`);
  }
  const n = CREDENTIALS;
  const [svc, peer, svcJcs] = await compareThroughput(
    [
      async (i) => {
        if ((await verifyCredential(rdfcPool[i % n]!, { runtime })).status !== 'VALID') throw new Error('svc: not VALID');
      },
      async (i) => {
        if (!(await peerVerify(rdfcPool[i % n]!))) throw new Error('peer: not verified');
      },
      async (i) => {
        if ((await verifyCredential(jcsPool[i % n]!, { runtime })).status !== 'VALID') throw new Error('svc jcs: not VALID');
      },
    ],
    SAMPLING,
  );
  const operation = 'verify eddsa-rdfc-2022 credential (JSON-LD on, did:key issuer, no status)';
  return [
    {
      operation,
      unit: 'ops/s',
      svc: median(svc!),
      peer: '@digitalbazaar/vc + eddsa-rdfc-2022-cryptosuite (same pinned contexts)',
      peerValue: median(peer!),
      goal: { op: '>=', ratio: 1.5 },
      status: 'ok',
      samples: { svc: svc!, peer: peer! },
    },
    {
      operation,
      unit: 'ops/s',
      svc: median(svc!),
      peer: "svc's eddsa-jcs-2022 of an equivalent credential (the cost of RDF)",
      peerValue: median(svcJcs!),
      goal: null,
      status: 'ok',
      samples: { svc: svc!, peer: svcJcs! },
    },
  ];
}
