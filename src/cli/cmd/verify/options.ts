/** The options of `svc verify-credential`, `svc verify-jws` and `svc evaluate-policy`, as commander hands them to their actions. */
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
}
