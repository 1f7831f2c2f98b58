/** `svc claim`'s options, as commander hands them to the action (`svc claims` and `svc directory` take the daemon's). */
import type { DaemonOptions } from '../../cmdutil/daemon-options.js';

export interface ClaimOptions extends DaemonOptions {
  key?: string;
  kid?: string;
  method?: string;
  token?: string;
  list?: boolean;
  unlist?: boolean;
  expiresIn?: string;
}
