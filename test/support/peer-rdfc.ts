/**
 * RDF-canonicalised credentials made during the test run by Digital Bazaar's stack, for svc's
 * opt-in JSON-LD verification: eddsa-rdfc-2022 (Ed25519) and ecdsa-rdfc-2019 (P-256, P-384)
 * DataIntegrityProofs, and the legacy Ed25519Signature2020 suite, each issued by a did:key and
 * signed through @digitalbazaar/vc. The same stack verifies them side by side (peerVerifyRdfc),
 * with an offline document loader: the contexts of Digital Bazaar's own context packages, svc's
 * pinned Open Badges and CLR contexts (no other source is installed), and did:key documents.
 */
import * as credentialsContext from '@digitalbazaar/credentials-context';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import { driver as didKeyDriver } from '@digitalbazaar/did-method-key';
import * as ecdsaRdfc from '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite';
import * as EcdsaMultikey from '@digitalbazaar/ecdsa-multikey';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { Ed25519Signature2020, suiteContext as ed25519Context2020 } from '@digitalbazaar/ed25519-signature-2020';
import { Ed25519VerificationKey2020 } from '@digitalbazaar/ed25519-verification-key-2020';
import * as eddsaRdfc from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import jsigs from 'jsonld-signatures';
import type { DocumentLoader, MultikeyKeyPair } from 'peer-libs/types';
import { PINNED_CONTEXTS } from '../../src/jsonld/contexts.js';
import { DEFAULT_CREATED, type Json } from './peer-issuers.js';

const didKey = didKeyDriver();
didKey.use({ multibaseMultikeyHeader: 'z6Mk', fromMultibase: Ed25519Multikey.from });
didKey.use({ multibaseMultikeyHeader: 'zDna', fromMultibase: EcdsaMultikey.from });
didKey.use({ multibaseMultikeyHeader: 'z82L', fromMultibase: EcdsaMultikey.from });

/** Digital Bazaar's packaged contexts first; svc's pinned files only for what no package here ships (Open Badges, CLR, StatusList2021). */
const peerContexts = new Map<string, unknown>([
  ...PINNED_CONTEXTS.map((c) => [c.url, c.document] as [string, unknown]),
  ...credentialsContext.contexts,
  ...dataIntegrityContext.contexts,
  [ed25519Context2020.CONTEXT_URL, ed25519Context2020.CONTEXT],
]);

/** The loader, with `extra` contexts served first. */
const loaderWith =
  (extra: Record<string, unknown> = {}): DocumentLoader =>
  async (url) =>
    url in extra ? { contextUrl: null, documentUrl: url, document: extra[url] } : rdfcDocumentLoader(url);

export const rdfcDocumentLoader: DocumentLoader = async (url) => {
  if (peerContexts.has(url)) return { contextUrl: null, documentUrl: url, document: peerContexts.get(url) };
  if (url.startsWith('did:key:')) return { contextUrl: null, documentUrl: url, document: await didKey.get({ url }) };
  throw new Error(`offline document loader: refusing ${url}`);
};

export type RdfcSuite = 'eddsa-rdfc-2022' | 'ecdsa-rdfc-2019' | 'Ed25519Signature2020';

export interface RdfcIssuer {
  did: string;
  verificationMethod: string;
  suite: RdfcSuite;
  /** Signs through @digitalbazaar/vc; `contexts` are served to the signer besides the usual ones. */
  sign(credential: Json, created?: string, contexts?: Record<string, unknown>): Promise<Json>;
}

async function bind(keyPair: MultikeyKeyPair): Promise<{ did: string; id: string }> {
  const { didDocument, methodFor } = await didKey.fromKeyPair({ verificationKeyPair: keyPair });
  keyPair.id = methodFor({ purpose: 'assertionMethod' }).id;
  keyPair.controller = didDocument.id;
  return { did: didDocument.id, id: keyPair.id };
}

/** An issuer of `suite`: Ed25519 from a fixed seed, or a fresh P-256 / P-384 key for ecdsa-rdfc-2019. */
export async function rdfcIssuer(suite: RdfcSuite, curve: 'P-256' | 'P-384' = 'P-256'): Promise<RdfcIssuer> {
  const seed = new Uint8Array(32).fill(7);
  if (suite === 'Ed25519Signature2020') {
    const multikey = await Ed25519Multikey.generate({ seed });
    const { did, id } = await bind(multikey);
    const key = await Ed25519VerificationKey2020.generate({ seed, id, controller: did });
    return {
      did,
      verificationMethod: id,
      suite,
      sign: (credential, created = DEFAULT_CREATED, contexts = {}) =>
        vc.issue({
          credential: structuredClone(credential),
          suite: new Ed25519Signature2020({ key, date: created }) as unknown as DataIntegrityProof,
          documentLoader: loaderWith(contexts),
        }),
    };
  }
  const keyPair = suite === 'eddsa-rdfc-2022' ? await Ed25519Multikey.generate({ seed }) : await EcdsaMultikey.generate({ curve });
  const { did, id } = await bind(keyPair);
  return {
    did,
    verificationMethod: id,
    suite,
    sign: (credential, created = DEFAULT_CREATED, contexts = {}) =>
      vc.issue({
        credential: structuredClone(credential),
        suite: new DataIntegrityProof({
          signer: keyPair.signer(),
          date: created,
          cryptosuite: suite === 'eddsa-rdfc-2022' ? eddsaRdfc.cryptosuite : ecdsaRdfc.cryptosuite,
        }),
        documentLoader: loaderWith(contexts),
      }),
  };
}

const verifySuites = [
  new DataIntegrityProof({ cryptosuite: eddsaRdfc.cryptosuite }),
  new DataIntegrityProof({ cryptosuite: ecdsaRdfc.cryptosuite }),
  new Ed25519Signature2020() as unknown as DataIntegrityProof,
];

/** True when @digitalbazaar/vc verifies the credential (proof, issuer, dates), offline; status is not checked. */
export async function peerVerifyRdfc(credential: Json): Promise<boolean> {
  const result = await vc.verifyCredential({
    credential: structuredClone(credential),
    suite: verifySuites,
    documentLoader: rdfcDocumentLoader,
    checkStatus: async () => ({ verified: true }),
  });
  return result.verified;
}

/**
 * True when Digital Bazaar's stack verifies the proof of `document` (jsonld-signatures with the
 * RDFC suites; assertionMethod) with the Ed25519 key `publicKeyMultibase` (`z6Mk…`) as the
 * verification method named in the proof, under `controller`: the proof alone, no issuer binding
 * and no dates — for real credentials whose issuer's key can be read from its reference only.
 */
export async function peerVerifyRdfcProof(document: Json, publicKeyMultibase: string, controller: string): Promise<boolean> {
  const proof = (Array.isArray(document['proof']) ? document['proof'][0] : document['proof']) as Json;
  const id = String(proof['verificationMethod']);
  const method = { '@context': 'https://w3id.org/security/multikey/v1', id, type: 'Multikey', controller, publicKeyMultibase };
  const loader: DocumentLoader = async (url) => (url === id ? { contextUrl: null, documentUrl: url, document: method } : rdfcDocumentLoader(url));
  const purpose = new jsigs.purposes.AssertionProofPurpose({
    controller: { '@context': 'https://www.w3.org/ns/did/v1', id: controller, assertionMethod: [id] },
  });
  const result = await jsigs.verify(structuredClone(document), { suite: verifySuites, purpose, documentLoader: loader });
  return result.verified;
}
