/** The options of `svc sign-credential` and `svc sign-presentation`, as commander hands them to their actions. */
import type { SignedCredentialFormat, SignedPresentationFormat } from '../../../core/issue/types.js';

export interface SignCredentialCommandOptions {
  key: string;
  format: SignedCredentialFormat;
  issuer?: string;
  kid?: string;
  disclose: string[];
  holderKey?: string;
  out?: string;
}

export interface SignPresentationCommandOptions {
  key: string;
  format?: SignedPresentationFormat;
  holder?: string;
  kid?: string;
  challenge?: string;
  domain?: string;
  out?: string;
}
