/**
 * Presentation verification results (`PresentationVerification` in openapi.json): a verifiable
 * presentation's own checks, and each credential it carries verified by the credential verifier
 * (docs/credentials.md). The statuses, formats and precedence are the
 * credentials' (credentials/types.ts), so one word means one thing in both results.
 */
import type { KeySource } from '../credentials/keys.js';
import type { StageHooks } from '../resolve/trace.js';
import type { Runtime } from '../runtime.js';
import type {
  CheckStatus,
  CredentialFormat,
  CredentialStatus,
  CredentialVerification,
  DataModel,
  IssuerResolutionSummary,
  ProofSummary,
} from '../credentials/types.js';

/** The checks of a presentation, in the order they are reported. */
export const PRESENTATION_CHECK_IDS = ['structure', 'holder', 'proof', 'validity', 'challenge', 'domain', 'credentials', 'holderBinding'] as const;
export type PresentationCheckId = (typeof PRESENTATION_CHECK_IDS)[number];

export interface PresentationCheck {
  id: PresentationCheckId;
  label: string;
  status: CheckStatus;
  detail: string;
}

/** How a credential sits in the presentation's `verifiableCredential`. */
export const EMBEDDED_FORMS = ['OBJECT', 'ENVELOPED', 'JWT', 'SD_JWT'] as const;
export type EmbeddedForm = (typeof EMBEDDED_FORMS)[number];

/**
 * Whether a credential is about the holder: BOUND (a subject id is the holder, or an SD-JWT VC's
 * key binding is by the key that signed the presentation), NOT_BOUND (its subjects are someone
 * else), NO_SUBJECT_ID (a bearer credential: nothing names whom it is about), UNKNOWN (the
 * credential could not be read far enough, or the presentation names no holder).
 */
export const HOLDER_BINDINGS = ['BOUND', 'NOT_BOUND', 'NO_SUBJECT_ID', 'UNKNOWN'] as const;
export type HolderBinding = (typeof HOLDER_BINDINGS)[number];

/** One credential of the presentation, as verified. */
export interface EmbeddedCredential {
  /** Position in `verifiableCredential` (0-based; a single credential is 0). */
  index: number;
  form: EmbeddedForm;
  holderBinding: HolderBinding;
  holderBindingDetail: string;
  verification: CredentialVerification;
}

export interface PresentationVerification {
  /** The most severe status of the presentation's own checks and its credentials' (STATUS_PRECEDENCE); only VALID means accepted. */
  status: CredentialStatus;
  headline: string;
  /** How the presentation is secured: DATA_INTEGRITY, VC_JOSE_COSE (vp+jwt), VC_JWT_1_1 (the `vp` claim), UNKNOWN. */
  format: CredentialFormat;
  dataModel: DataModel;
  id: string | null;
  holder: string | null;
  types: string[];
  /** The challenge the proof is bound to (Data Integrity `challenge`, JWT `nonce`), as found; null when it states none. */
  challenge: string | null;
  /** The domains the proof is bound to (Data Integrity `domain`, JWT `aud`), as found; null when it states none. */
  domain: string[] | null;
  checks: PresentationCheck[];
  proof: ProofSummary | null;
  /** The resolution of the holder's DID (the key that signed the presentation). */
  holderResolution: IssuerResolutionSummary | null;
  credentials: EmbeddedCredential[];
  limitations: string[];
  valid: boolean;
  errors: string[];
}

/** Most credentials one presentation may carry; more is MALFORMED, none verified. */
export const MAX_PRESENTED_CREDENTIALS = 256;

/** What verifyPresentation (presentations/verify.ts) is asked; every member but `runtime` is optional. */
export interface VerifyPresentationOptions {
  runtime: Runtime;
  /** Where keys are found; default: DIDs resolved through the core with `runtime`. */
  keySource?: KeySource;
  /** The challenge the verifier chose: the proof's `challenge` (a JWT's `nonce`) must equal it. */
  challenge?: string;
  /** The verifier's domain: the proof's `domain` (a JWT's `aud`) must be or include it. */
  domain?: string;
  /** Passed to each embedded SD-JWT VC: the audience its KB-JWT must name. */
  expectedAudience?: string;
  /** Passed to each embedded SD-JWT VC: the nonce its KB-JWT must carry. */
  expectedNonce?: string;
  /** Passed to each embedded credential: the issuers the verifier trusts (policy/trusted-issuers.ts). */
  trustedIssuers?: readonly string[];
  /** A credential not bound to the holder makes the presentation INVALID (otherwise it is reported, WARN). */
  requireHolderBinding?: boolean;
  signal?: AbortSignal;
  hooks?: StageHooks;
}
