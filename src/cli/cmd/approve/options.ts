/** The options of `svc mcp approve` and `svc a2a approve`, as commander hands them to their actions. */
import type { OutputOptions } from '../../cmdutil/output-options.js';

interface ApproveOptions extends OutputOptions {
  /** The baseline file to write. */
  baseline: string;
  /** Approve without asking. */
  yes?: boolean;
  egressAllow: string[];
}

export interface ApproveMcpOptions extends ApproveOptions {
  stdio?: boolean;
  config?: string;
  runStdio?: boolean;
  env?: string[];
  fromFile?: string;
}

export interface ApproveA2aOptions extends ApproveOptions {
  fromFile?: string;
  allowNetwork?: boolean;
}
