/** `svc webhook listen`'s options, as commander hands them to the action. */

export interface ListenOptions {
  host: string;
  port: string;
  secret?: string;
  /** Absent: 300 s, or 1800 s with --customer. */
  tolerance?: string;
  json?: boolean;
  /** Customer webhooks (owner projects): X-SVC-Event-ID and X-SVC-Signature: t=…,v1=…. */
  customer?: boolean;
  /** HTTPS with a throw-away self-signed certificate (tls.ts), as the daemon delivers. */
  tls?: boolean;
}
