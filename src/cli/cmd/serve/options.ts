/** `svc serve`'s options, as commander hands them to the action. */

export interface ServeCommandOptions {
  host: string;
  port: string;
  db?: string;
  memory?: boolean;
  public?: boolean;
  production?: boolean;
  egressAllow: string[];
  gatewayPort?: string;
  gatewayHost: string;
}
