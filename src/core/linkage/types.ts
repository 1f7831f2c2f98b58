/** Domain binding evidence (`evidence.domainBinding`): DIF Well Known DID Configuration. */

export const DOMAIN_BINDING_STATUSES = ['VERIFIED', 'NOT_CONFIGURED', 'NOT_LINKED', 'INVALID_PROOF', 'UNSUPPORTED_PROOF', 'UNREACHABLE', 'MALFORMED'] as const;
export type DomainBindingStatus = (typeof DOMAIN_BINDING_STATUSES)[number];

/** Status of one entry of `linked_dids`. */
export type LinkageCredentialStatus = Exclude<DomainBindingStatus, 'NOT_CONFIGURED' | 'UNREACHABLE'>;

export const LINKAGE_CREDENTIAL_FORMATS = ['JWT', 'DATA_INTEGRITY', 'UNKNOWN'] as const;
export type LinkageCredentialFormat = (typeof LINKAGE_CREDENTIAL_FORMATS)[number];

export interface LinkageCredentialEvidence {
  /** Position in `linked_dids`. */
  index: number;
  format: LinkageCredentialFormat;
  status: LinkageCredentialStatus;
  /** One plain sentence, always present; for VERIFIED it says what was verified. */
  reason: string;
  issuer: string | null;
  subject: string | null;
  /** `credentialSubject.origin` as the credential states it. */
  origin: string | null;
  /** `EdDSA`, `ES256` … for a JWT; the cryptosuite or proof type otherwise (`eddsa-jcs-2022`, `Ed25519Signature2018`). */
  proof: string | null;
  /** Absolute DID URL of the key named by `kid` / `proof.verificationMethod`. */
  verificationMethod: string | null;
  /** RFC 3339, UTC. */
  validFrom: string | null;
  validUntil: string | null;
}

export interface DomainBindingEvidence {
  status: DomainBindingStatus;
  origin: string;
  configurationUrl: string;
  /** One sentence explaining the overall status. */
  reason: string;
  credentials: LinkageCredentialEvidence[];
}

export interface LinkageInput {
  did: string;
  document: Record<string, unknown> & { id: string };
  /** The origin the configuration was fetched from, e.g. `https://example.com`, `https://localhost:8443`. */
  origin: string;
  configurationUrl: string;
  /** The response body, as fetched. */
  body: Uint8Array;
  now: Date;
}

/** The `@context` of a DID Configuration resource. */
export const DID_CONFIGURATION_CONTEXT = 'https://identity.foundation/.well-known/did-configuration/v1';

/** Most `linked_dids` entries svc evaluates; a longer list makes the resource MALFORMED. */
export const MAX_LINKED_DIDS = 100;
