/** The options of `svc inspect-mcp` and `svc inspect-a2a`, as commander hands them to their actions. */
import type { OutputOptions } from '../../cmdutil/output-options.js';

export interface InspectOptions extends OutputOptions {
  strict?: boolean;
  /** --allow-warn, as given (each value may list several ids). */
  allowWarn?: string[];
  egressAllow: string[];
  /** --bundle <file>: the evidence bundle of the run (cmdutil/bundle.ts). */
  bundle?: string;
  /** --baseline <file>: compare with the approved baseline (docs/agents.md#approved-baselines) instead of the last observation. */
  baseline?: string;
}

export interface InspectMcpOptions extends InspectOptions {
  db?: string;
  store: boolean;
  /** --html <file>: also write the inspection (or its problem) as one self-contained page. */
  html?: string;
  stdio?: boolean;
  config?: string;
  runStdio?: boolean;
  /** --env names passed to stdio servers. */
  env?: string[];
  /** --from-file: a saved listing instead of a server (src/core/mcp/saved.ts). */
  fromFile?: string;
}

export interface InspectA2aOptions extends InspectOptions {
  /** Verify from files: the card, inspected as the one at the URL (cmdutil/supplied.ts). */
  fromFile?: string;
  allowNetwork?: boolean;
}
