/** `svc graph`'s options, as commander hands them to the action. */
import type { OutputOptions } from '../../cmdutil/output-options.js';

export interface GraphCommandOptions extends OutputOptions {
  strict?: boolean;
  egressAllow: string[];
}
