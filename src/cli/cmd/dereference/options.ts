/** `svc dereference`'s options, as commander hands them to the action. */
import type { OutputOptions } from '../../cmdutil/output-options.js';

export interface DereferenceCommandOptions extends OutputOptions {
  egressAllow: string[];
}
