/** The options of `svc history` and `svc diff`, as commander hands them to their actions. */
import type { OutputOptions } from '../../cmdutil/output-options.js';

export interface StoreCommandOptions extends OutputOptions {
  db?: string;
}
