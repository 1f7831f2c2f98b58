/** The options of `svc config show` and `svc config path`. */
export interface ConfigShowOptions {
  json?: boolean;
  /** The flags that override a setting, as the commands that take them read them (the origin `flag --x`). */
  egressAllow?: string[];
  db?: string;
  daemon?: string;
  gatewayPort?: string;
}

export interface ConfigPathOptions {
  json?: boolean;
}
