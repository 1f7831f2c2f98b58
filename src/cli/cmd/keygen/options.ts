/** `svc keygen`'s options, as commander hands them to the action. */
import type { KeygenCurve } from '../../../core/keys/generate.js';
import type { OutputOptions } from '../../cmdutil/output-options.js';

export interface KeygenOptions extends OutputOptions {
  curve: KeygenCurve;
  out: string;
}
