/**
 * Minimal typings for the untyped peer libraries used by test/support/peer-issuers.ts (Digital
 * Bazaar's Data Integrity stack). Only what the tests call is declared; shapes follow the
 * libraries' JSDoc at the installed versions (see package.json devDependencies).
 */

/** Shapes shared by the modules below (a types-only module; nothing imports it at run time). */
declare module 'peer-libs/types' {
  export type JsonLdDocument = Record<string, unknown>;
  export interface RemoteDocument {
    contextUrl: string | null;
    documentUrl: string;
    document: unknown;
  }
  export type DocumentLoader = (url: string) => Promise<RemoteDocument>;
  export interface MultikeySigner {
    id?: string;
    algorithm: string;
    sign(options: { data: Uint8Array }): Promise<Uint8Array>;
  }
  /** A Multikey key pair of ed25519-multikey / ecdsa-multikey. */
  export interface MultikeyKeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    secretKeyMultibase?: string;
    signer(): MultikeySigner;
    export(options?: { publicKey?: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<Record<string, unknown>>;
  }
  export interface Cryptosuite {
    name: string;
    requiredAlgorithm?: string | string[];
  }
}

declare module '@digitalbazaar/ed25519-multikey' {
  import type { MultikeyKeyPair } from 'peer-libs/types';
  export function generate(options?: { id?: string; controller?: string; seed?: Uint8Array }): Promise<MultikeyKeyPair>;
  export function from(key: Record<string, unknown>): Promise<MultikeyKeyPair>;
}

declare module '@digitalbazaar/ecdsa-multikey' {
  import type { MultikeyKeyPair } from 'peer-libs/types';
  export function generate(options: { curve: 'P-256' | 'P-384' | 'P-521'; id?: string; controller?: string }): Promise<MultikeyKeyPair>;
  export function from(key: Record<string, unknown>): Promise<MultikeyKeyPair>;
}

declare module '@digitalbazaar/did-method-key' {
  import type { MultikeyKeyPair } from 'peer-libs/types';
  export interface DidKeyDriver {
    use(options: { multibaseMultikeyHeader: string; fromMultibase: (key: Record<string, unknown>) => Promise<MultikeyKeyPair> }): void;
    fromKeyPair(options: { verificationKeyPair: MultikeyKeyPair }): Promise<{
      didDocument: { id: string } & Record<string, unknown>;
      methodFor(options: { purpose: string }): { id: string } & Record<string, unknown>;
    }>;
    get(options: { did?: string; url?: string }): Promise<Record<string, unknown>>;
  }
  export function driver(): DidKeyDriver;
}

declare module '@digitalbazaar/data-integrity' {
  import type { Cryptosuite, MultikeySigner } from 'peer-libs/types';
  export class DataIntegrityProof {
    constructor(options: { signer?: MultikeySigner; date?: string | Date | null; cryptosuite: Cryptosuite; legacyContext?: boolean });
    /** Members copied into every proof this suite creates (e.g. `expires`) before it is signed. */
    proof?: Record<string, unknown>;
  }
}

declare module '@digitalbazaar/eddsa-jcs-2022-cryptosuite' {
  import type { Cryptosuite } from 'peer-libs/types';
  export function createSignCryptosuite(): Cryptosuite;
  export function createVerifyCryptosuite(): Cryptosuite;
}

declare module '@digitalbazaar/ecdsa-jcs-2019-cryptosuite' {
  import type { Cryptosuite } from 'peer-libs/types';
  export function createSignCryptosuite(): Cryptosuite;
  export function createVerifyCryptosuite(): Cryptosuite;
}

declare module '@digitalbazaar/vc' {
  import type { DataIntegrityProof } from '@digitalbazaar/data-integrity';
  import type { DocumentLoader, JsonLdDocument } from 'peer-libs/types';
  export function issue(options: {
    credential: JsonLdDocument;
    suite: DataIntegrityProof;
    documentLoader: DocumentLoader;
    now?: string | Date;
  }): Promise<JsonLdDocument>;
  export function verifyCredential(options: {
    credential: JsonLdDocument;
    suite: DataIntegrityProof | DataIntegrityProof[];
    documentLoader: DocumentLoader;
    checkStatus?: (options: unknown) => Promise<{ verified: boolean }>;
    now?: string | Date;
  }): Promise<{ verified: boolean; error?: unknown; results?: unknown[] }>;
  /** Signs a presentation with an AuthenticationProofPurpose bound to `challenge` and `domain`. */
  export function signPresentation(options: {
    presentation: JsonLdDocument;
    suite: DataIntegrityProof;
    documentLoader: DocumentLoader;
    /** Required unless `purpose` is given. */
    challenge?: string;
    domain?: string;
    /** A proof purpose of the caller's instead of the AuthenticationProofPurpose made from challenge and domain. */
    purpose?: unknown;
  }): Promise<JsonLdDocument>;
  /** Verifies a presentation: every credential in `verifiableCredential`, then the presentation proof. */
  export function verify(options: {
    presentation: JsonLdDocument;
    suite: DataIntegrityProof | DataIntegrityProof[];
    documentLoader: DocumentLoader;
    challenge?: string;
    domain?: string;
    checkStatus?: (options: unknown) => Promise<{ verified: boolean }>;
    now?: string | Date;
    unsignedPresentation?: boolean;
  }): Promise<{
    verified: boolean;
    error?: unknown;
    presentationResult?: { verified: boolean; error?: unknown };
    credentialResults?: Array<{ verified: boolean; error?: unknown; credentialId?: string }>;
  }>;
}

declare module '@digitalbazaar/credentials-context' {
  export const contexts: Map<string, unknown>;
  export const named: Map<string, { id: string; context: unknown }>;
}

declare module '@digitalbazaar/data-integrity-context' {
  const dataIntegrityContext: { contexts: Map<string, unknown> };
  export default dataIntegrityContext;
}

declare module 'jsonld-signatures' {
  import type { DataIntegrityProof } from '@digitalbazaar/data-integrity';
  import type { DocumentLoader, JsonLdDocument } from 'peer-libs/types';
  class AssertionProofPurpose {
    constructor(options?: Record<string, unknown>);
  }
  /** A proof purpose by `term` (e.g. `authentication`) with no challenge of its own. */
  class ControllerProofPurpose {
    constructor(options: { term: string; domain?: string; controller?: Record<string, unknown>; [name: string]: unknown });
  }
  const jsigs: {
    sign(
      document: JsonLdDocument,
      options: { suite: DataIntegrityProof; purpose: AssertionProofPurpose | ControllerProofPurpose; documentLoader: DocumentLoader },
    ): Promise<JsonLdDocument>;
    verify(
      document: JsonLdDocument,
      options: { suite: DataIntegrityProof | DataIntegrityProof[]; purpose: AssertionProofPurpose | ControllerProofPurpose; documentLoader: DocumentLoader },
    ): Promise<{ verified: boolean; error?: unknown; results?: unknown[] }>;
    purposes: { AssertionProofPurpose: typeof AssertionProofPurpose; ControllerProofPurpose: typeof ControllerProofPurpose };
  };
  export default jsigs;
}

declare module '@digitalbazaar/vc-bitstring-status-list' {
  export interface BitstringStatusList {
    readonly length: number;
    setStatus(index: number, status: boolean): void;
    getStatus(index: number): boolean;
    encode(): Promise<string>;
  }
  export function createList(options: { length: number }): Promise<BitstringStatusList>;
  export function decodeList(options: { encodedList: string }): Promise<BitstringStatusList>;
  export function createCredential(options: {
    id: string;
    list: BitstringStatusList;
    statusPurpose: string;
    context?: string[];
  }): Promise<Record<string, unknown>>;
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  import type { Cryptosuite } from 'peer-libs/types';
  export const cryptosuite: Cryptosuite;
}

declare module '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite' {
  import type { Cryptosuite } from 'peer-libs/types';
  export const cryptosuite: Cryptosuite;
}

declare module '@digitalbazaar/ed25519-verification-key-2020' {
  import type { MultikeySigner } from 'peer-libs/types';
  export class Ed25519VerificationKey2020 {
    static generate(options?: { seed?: Uint8Array; id?: string; controller?: string }): Promise<Ed25519VerificationKey2020>;
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    fingerprint(): string;
    signer(): MultikeySigner;
  }
}

declare module '@digitalbazaar/ed25519-signature-2020' {
  import type { Ed25519VerificationKey2020 } from '@digitalbazaar/ed25519-verification-key-2020';
  export class Ed25519Signature2020 {
    constructor(options?: { key?: Ed25519VerificationKey2020; date?: string | Date | null });
  }
  export const suiteContext: { CONTEXT_URL: string; CONTEXT: unknown };
}
