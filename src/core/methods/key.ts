/**
 * did:key (W3C CCG did:key v0.7): the identifier is a multibase Multikey; the document is
 * expanded from it. Keys are published as Multikey; an Ed25519 key also yields the X25519
 * keyAgreement key it converts to. Relationships follow the method's test vectors: signing
 * keys get the four signing relationships, ECDH-capable keys also keyAgreement, X25519 keys
 * keyAgreement only, unknown key types none.
 */
import { base64urlEncode } from '../encoding/base64url.js';
import { multibaseEncode } from '../encoding/multibase.js';
import { checkEd25519, x25519FromEd25519Y } from '../keys/curves.js';
import type { KeyCheckMemo } from '../keys/inspect.js';
import { decodeMultikey, encodeMulticodec, keyCheckFromPoint } from '../keys/multicodec.js';
import { ProblemError } from '../problems.js';
import type { DidDocument, Relationship } from '../resolve/types.js';
import { derivedSource, type MethodDriver } from './types.js';

const SIGNING: readonly Relationship[] = ['authentication', 'assertionMethod', 'capabilityInvocation', 'capabilityDelegation'];
const MULTIKEY_CONTEXT = 'https://w3id.org/security/multikey/v1';

export const didKey: MethodDriver = {
  method: 'key',
  selfCertifying: true,
  acceptsVersionOptions: false,
  async resolve(parsed, { trace }) {
    return trace.run('document.derive', 'Expand the key into a DID document', async (stage) => {
      const segments = parsed.id.split(':');
      let multibase: string;
      if (segments.length === 1) multibase = segments[0]!;
      else if (segments.length === 2 && segments[0] === '1') multibase = segments[1]!;
      else if (segments.length === 2 && /^[1-9][0-9]*$/.test(segments[0]!)) {
        throw new ProblemError('FEATURE_NOT_SUPPORTED', `did:key version ${segments[0]} is not supported; only version 1 is.`);
      } else {
        throw new ProblemError('INVALID_DID', 'A did:key has the form did:key:z<base58btc multicodec key>.');
      }
      const decoded = decodeMultikey(multibase);
      if (typeof decoded === 'string') throw new ProblemError('INVALID_DID', `Not a valid did:key: ${decoded}.`);
      if (decoded.bytes.length === 0) throw new ProblemError('INVALID_DID', 'Not a valid did:key: it holds no key bytes.');

      const did = parsed.did;
      const primaryId = `${did}#${multibase}`;
      const methods: Array<Record<string, unknown>> = [{ id: primaryId, type: 'Multikey', controller: did, publicKeyMultibase: multibase }];
      const doc: DidDocument = { '@context': ['https://www.w3.org/ns/did/v1', MULTIKEY_CONTEXT], id: did, verificationMethod: methods };
      const use = decoded.codec?.use;
      if (use === 'sign' || use === 'sign-and-agree') for (const rel of SIGNING) doc[rel] = [primaryId];
      if (use === 'sign-and-agree' || use === 'agree') doc['keyAgreement'] = [primaryId];

      const keyChecks: KeyCheckMemo = new Map();
      if (decoded.code === 0xed) {
        // Deriving X25519 needs the decoded Ed25519 point, so the key is validated here, once;
        // crypto.validate_keys reuses the result. An invalid key gets no keyAgreement.
        const check = await checkEd25519(decoded.bytes);
        keyChecks.set(multibase, keyCheckFromPoint('Ed25519', 0xed, check));
        if (check.ok) {
          const u = await x25519FromEd25519Y(check.y);
          const x = multibaseEncode(encodeMulticodec(0xec, u));
          const agreementId = `${did}#${x}`;
          methods.push({ id: agreementId, type: 'Multikey', controller: did, publicKeyMultibase: x });
          doc['keyAgreement'] = [agreementId];
          // Valid by construction: the map preserves curve membership and point order.
          keyChecks.set(x, keyCheckFromPoint('X25519', 0xec, { ok: true, jwk: { kty: 'OKP', crv: 'X25519', x: base64urlEncode(u) } }));
        }
      }
      stage.detail = decoded.codec
        ? `${decoded.codec.name} key (multicodec 0x${decoded.code.toString(16)})`
        : `unknown multicodec 0x${decoded.code.toString(16)}`;
      return {
        document: doc,
        contentType: 'application/did',
        source: derivedSource(),
        didDocumentMetadata: {},
        keyChecks,
      };
    });
  },
};
