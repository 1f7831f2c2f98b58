/**
 * `svc owner`'s options, as commander hands them to the actions: the operator's subcommands take
 * the daemon's (cmdutil/daemon-options.ts), the owner's own these.
 */

/** The options of the owner's own subcommands: where the gateway is, the Origin writes carry, the output. */
export interface GatewayOptions {
  gateway?: string;
  origin?: string;
  json?: boolean;
  quiet?: boolean;
  /** false with --no-pager. */
  pager?: boolean;
}
