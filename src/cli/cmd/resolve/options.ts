/** `svc resolve`'s options, as commander hands them to the action. */
import type { OutputOptions } from '../../cmdutil/output-options.js';

export interface ResolveCommandOptions extends OutputOptions {
  strict?: boolean;
  egressAllow: string[];
  db?: string;
  store: boolean;
  versionId?: string;
  versionTime?: string;
  versionNumber?: string;
  html?: string;
  /** --bundle <file>: the evidence bundle of the run (cmdutil/bundle.ts). */
  bundle?: string;
  /** Verify from files (cmdutil/supplied.ts). */
  document?: string;
  log?: string;
  witness?: string;
  didConfiguration?: string;
  allowNetwork?: boolean;
}
