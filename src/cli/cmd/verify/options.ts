/** The options of `svc verify-credential`, `svc verify-presentation`, `svc verify-jws` and `svc evaluate-policy`, as commander hands them to their actions. */
import type { OutputOptions } from '../../cmdutil/output-options.js';

export interface VerifyCommandOptions extends OutputOptions {
  egressAllow: string[];
}

export interface VerifyCredentialCommandOptions extends VerifyCommandOptions {
  audience?: string;
  /** --nonce: the nonce an SD-JWT VC's KB-JWT must carry. */
  nonce?: string;
  /** Verify from files: `<did> <file>` and `<url> <file>` pairs, flattened (cmdutil/supplied.ts). */
  issuerDocument?: string[];
  statusList?: string[];
  allowNetwork?: boolean;
  /** --bundle <file>: the evidence bundle of the run (cmdutil/bundle.ts). */
  bundle?: string;
  /** --trusted-issuer <did> (repeatable): whose credentials are accepted; none given, no trust decision. */
  trustedIssuer?: string[];
  /** --jsonld: verify RDF-canonicalised proofs too (runtime/jsonld.ts). */
  jsonld?: boolean;
}

export interface VerifyPresentationCommandOptions extends VerifyCommandOptions {
  challenge?: string;
  domain?: string;
  /** --audience: passed to each embedded credential (a JWT's aud, an SD-JWT VC's KB-JWT aud). */
  audience?: string;
  /** --nonce: passed to each embedded SD-JWT VC (its KB-JWT nonce). */
  nonce?: string;
  /** --trusted-issuer, repeatable. */
  trustedIssuer: string[];
  requireHolderBinding?: boolean;
  /** --jsonld, as for verify-credential. */
  jsonld?: boolean;
}
