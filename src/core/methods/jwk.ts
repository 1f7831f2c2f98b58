/**
 * did:jwk (quartzjer/did-jwk): the identifier is base64url(UTF-8 JSON of a public JWK); the
 * document has one method `#0`. `use: sig` drops keyAgreement, `use: enc` keeps only
 * keyAgreement. A JWK with private members is rejected, as the method requires.
 */
import { base64urlDecode } from '../encoding/base64url.js';
import { isJsonObject, parseJsonStrict, StrictJsonError } from '../encoding/json.js';
import { privateJwkMembers } from '../keys/jwk.js';
import { ProblemError } from '../problems.js';
import type { DidDocument, Relationship } from '../resolve/types.js';
import { derivedSource, type MethodDriver } from './types.js';

const SIGNING: readonly Relationship[] = ['assertionMethod', 'authentication', 'capabilityInvocation', 'capabilityDelegation'];

export const didJwk: MethodDriver = {
  method: 'jwk',
  selfCertifying: true,
  acceptsVersionOptions: false,
  async resolve(parsed, { trace }) {
    return trace.run('document.derive', 'Decode the JWK into a DID document', (stage) => {
      const bytes = base64urlDecode(parsed.id);
      if (!bytes) throw new ProblemError('INVALID_DID', 'Not a valid did:jwk: the identifier is not canonical unpadded base64url.');
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw new ProblemError('INVALID_DID', 'Not a valid did:jwk: the decoded JWK is not UTF-8.');
      }
      let jwk;
      try {
        jwk = parseJsonStrict(text, { maxDepth: 8 });
      } catch (err) {
        // A duplicate member or a lone surrogate (not I-JSON, no RFC 8785 form) is named precisely.
        const precise = err instanceof StrictJsonError && (err.kind === 'duplicate-member' || err.kind === 'lone-surrogate');
        const reason = precise ? err.message : 'it is not valid JSON';
        throw new ProblemError('INVALID_DID', `Not a valid did:jwk: the decoded JWK is malformed (${reason}).`);
      }
      if (!isJsonObject(jwk)) throw new ProblemError('INVALID_DID', 'Not a valid did:jwk: the decoded JWK is not a JSON object.');
      if (typeof jwk['kty'] !== 'string') throw new ProblemError('INVALID_DID', 'Not a valid did:jwk: the JWK has no "kty" member.');
      const secret = privateJwkMembers(jwk);
      if (secret.length > 0) {
        throw new ProblemError(
          'INVALID_DID',
          `Refusing did:jwk: the JWK carries private key material (${secret.map((m) => `"${m}"`).join(', ')}); a did:jwk must hold a public key only.`,
        );
      }
      const use = jwk['use'];
      if (use !== undefined && use !== 'sig' && use !== 'enc') {
        throw new ProblemError('INVALID_DID', 'Not a valid did:jwk: "use" must be "sig" or "enc" when present.');
      }
      const did = parsed.did;
      const vmId = `${did}#0`;
      const doc: DidDocument = {
        '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
        id: did,
        verificationMethod: [{ id: vmId, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk }],
      };
      if (use !== 'enc') for (const rel of SIGNING) doc[rel] = [vmId];
      if (use !== 'sig') doc['keyAgreement'] = [vmId];
      stage.detail = `${jwk['kty']}${typeof jwk['crv'] === 'string' ? ` ${jwk['crv']}` : ''} JWK${use ? `, use ${use}` : ''}`;
      return { document: doc, contentType: 'application/did', source: derivedSource(), didDocumentMetadata: {} };
    });
  },
};
