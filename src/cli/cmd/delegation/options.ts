/** The options of `svc delegate`, `svc verify-delegation`, `svc authorize` and `svc verify-tool`, as commander hands them to their actions. */
import type { OutputOptions } from '../../cmdutil/output-options.js';

export interface DelegateOptions {
  key: string;
  iss: string;
  aud: string;
  cap: string[];
  kid?: string;
  ttl: string;
  parent?: string;
  jti?: string;
  json?: boolean;
  color?: boolean;
}

export interface ChainCommandOptions extends OutputOptions {
  egressAllow: string[];
  trustedRoot: string[];
  /** --any-root: no trusted root, on purpose. */
  anyRoot?: boolean;
}
