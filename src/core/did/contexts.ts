/** JSON-LD contexts svc recognises, and which context defines each verification method type. */
export const DID_CONTEXTS = ['https://www.w3.org/ns/did/v1', 'https://www.w3.org/ns/did/v1.1', 'https://w3id.org/did/v1'] as const;

export const KNOWN_CONTEXTS: ReadonlySet<string> = new Set([
  ...DID_CONTEXTS,
  'https://www.w3.org/ns/cid/v1',
  'https://w3id.org/security/v1',
  'https://w3id.org/security/v2',
  'https://w3id.org/security/multikey/v1',
  'https://w3id.org/security/jwk/v1',
  'https://w3id.org/security/data-integrity/v1',
  'https://w3id.org/security/data-integrity/v2',
  'https://w3id.org/security/suites/jws-2020/v1',
  'https://w3id.org/security/suites/ed25519-2018/v1',
  'https://w3id.org/security/suites/ed25519-2020/v1',
  'https://w3id.org/security/suites/x25519-2019/v1',
  'https://w3id.org/security/suites/x25519-2020/v1',
  'https://w3id.org/security/suites/secp256k1-2019/v1',
  'https://w3id.org/security/suites/secp256k1recovery-2020/v2',
  'https://identity.foundation/.well-known/did-configuration/v1',
  'https://identity.foundation/linked-vp/contexts/v1',
]);

/** Contexts that define a verification method type; declaring any one of them suffices. */
export const TYPE_CONTEXTS: Readonly<Record<string, readonly string[]>> = {
  Multikey: [
    'https://w3id.org/security/multikey/v1',
    'https://www.w3.org/ns/did/v1.1',
    'https://www.w3.org/ns/cid/v1',
    'https://w3id.org/security/data-integrity/v2',
  ],
  JsonWebKey: ['https://www.w3.org/ns/did/v1.1', 'https://www.w3.org/ns/cid/v1', 'https://w3id.org/security/jwk/v1'],
  JsonWebKey2020: ['https://w3id.org/security/suites/jws-2020/v1'],
  Ed25519VerificationKey2018: ['https://w3id.org/security/suites/ed25519-2018/v1', 'https://w3id.org/security/v2'],
  Ed25519VerificationKey2020: ['https://w3id.org/security/suites/ed25519-2020/v1'],
  X25519KeyAgreementKey2019: ['https://w3id.org/security/suites/x25519-2019/v1'],
  X25519KeyAgreementKey2020: ['https://w3id.org/security/suites/x25519-2020/v1'],
  EcdsaSecp256k1VerificationKey2019: ['https://w3id.org/security/suites/secp256k1-2019/v1', 'https://w3id.org/security/v2'],
};
