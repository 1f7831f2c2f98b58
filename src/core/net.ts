/**
 * The core's view of the network: one `fetch` that applies the egress policy, pins the
 * connection to the checked address, records TLS evidence from that same connection and
 * enforces size and time limits. Implemented in src/net (undici + node:tls); the core only
 * sees these types, so tests can point a Runtime at loopback hosts without mocking fetch.
 */
import type { Trace } from './resolve/trace.js';

/** Stage names a fetch reports when it is given a trace. */
export interface FetchStageNames {
  dns: string;
  tls: string;
  fetch: string;
}

export const WEB_FETCH_STAGES: FetchStageNames = { dns: 'dns.resolve', tls: 'tls.handshake', fetch: 'web.fetch' };

export interface FetchRequest {
  /** An https: URL. Anything else is EGRESS_BLOCKED before any lookup. */
  url: string;
  /** What is fetched, for messages: "DID document", "DID configuration". */
  purpose: string;
  /** Largest body accepted, bytes; larger → PAYLOAD_TOO_LARGE without reading it whole. */
  maxBytes: number;
  /** The setting that chose `maxBytes` (SVC_WEBVH_MAX_BYTES), named by the PAYLOAD_TOO_LARGE problem. */
  maxBytesSetting?: string;
  /** Accept header. */
  accept?: string;
  /** HTTP method, GET by default. A redirect is followed only for GET, or for 307/308 (same method and body). */
  method?: 'GET' | 'POST' | 'DELETE';
  /**
   * Never follow a redirect: a 3xx comes back as the answer (its Location in `headers`). A
   * webhook attempt asks for this: following would send the event to a target the egress policy
   * checked only at that moment, not at registration.
   */
  noRedirects?: boolean;
  /** Further request headers (lower-case names); they never replace accept, user-agent or accept-encoding. */
  headers?: Readonly<Record<string, string>>;
  /** Request body (POST). Sent with its length; content-type comes from `headers`. */
  body?: string | Uint8Array;
  /**
   * Also fetch `http:` URLs, without TLS — but only from addresses the operator's allowance
   * admits (SVC_EGRESS_ALLOW / --egress-allow), never from a public address, and never by a
   * redirect from https. For inspecting development servers on a private network; the answer
   * then has `tls: null`. Off unless a caller asks.
   */
  allowPlainHttp?: boolean;
  /**
   * When given (with the fetch's trace), each hop reports these stages: DNS + egress check,
   * TCP + TLS handshake, HTTP exchange. Without it the fetch adds no stages of its own.
   */
  stages?: FetchStageNames;
  /** Cuts the fetch off (connection closed) when aborted; the fetch then throws `cancelledProblem()`. */
  signal?: AbortSignal;
  /**
   * This fetch's whole time limit, ms, in place of the fetcher's own (15 s) — and the wait for
   * response headers may then take all of it: a webhook attempt's 45 s. The DNS and connect
   * limits per phase stay; absent, the fetcher's limits apply unchanged.
   */
  timeLimitMs?: number;
  /**
   * Watches the body of the final response as it streams in, for a reply whose useful part may
   * arrive long before its end (an MCP server's SSE stream, which it may keep open). Called once
   * the final status and content type are known; the watcher it returns (if any) sees each chunk
   * as it arrives and returns true to stop reading: the body is then what arrived so far and the
   * connection is closed, never reused. `maxBytes` and the time limit still bound the reading;
   * when the fetch throws (time limit, connection reset), what the watcher saw is all there is.
   */
  watchBody?: (status: number, contentType: string | null) => ((chunk: Uint8Array) => boolean) | undefined;
}

export interface RedirectHop {
  from: string;
  to: string;
  status: number;
}

export interface CertificateEvidence {
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  serialNumber: string;
  /** SHA-256 of the DER certificate, colon-separated upper-case hex as OpenSSL prints it. */
  sha256Fingerprint: string;
  /** subjectAltName entries, e.g. `DNS:example.com`, `IP Address:127.0.0.1`. */
  subjectAltNames: string[];
}

/** TLS evidence of the connection that fetched the resource (`evidence.tls` of a resolution). */
export interface TlsEvidence {
  host: string;
  /** Subject of the trust anchor the chain was validated against. */
  validatedBy: string;
  /** Negotiated protocol, e.g. TLSv1.3. */
  protocol: string;
  cipher: string;
  certificate: CertificateEvidence;
  /** Whole days until the leaf certificate expires (negative once expired). */
  daysUntilExpiry: number;
  /** The host name appears in the certificate's subjectAltName (exactly or by wildcard). */
  hostnameInSan: boolean;
}

export interface FetchResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string | null;
  /** Response headers of the final hop, lower-case names, repeated values joined by ", ". */
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
  bytes: number;
  /** SHA-256 of the body bytes as received, hex. */
  sha256: string;
  /** The address the final connection was pinned to. */
  peerAddress: string;
  redirects: RedirectHop[];
  /** From the first lookup to the last body byte, milliseconds. */
  latencyMs: number;
  /** TLS evidence of the final connection; null only for a plain-http fetch (`allowPlainHttp`). */
  tls: TlsEvidence | null;
  /**
   * The certificate chain of the final connection as its handshake validated it: DER, leaf first,
   * up to the trust anchor. Absent over plain http, for a supplied resource, and from a Net that
   * does not read it. Never part of a result: an evidence bundle keeps it (core/bundle/).
   */
  tlsChain?: readonly Uint8Array[];
  /**
   * Operator allowance ranges (SVC_EGRESS_ALLOW) that admitted an address on any hop, e.g.
   * `127.0.0.0/8`; empty when every address was public.
   */
  allowances: string[];
  /**
   * Present only when no exchange took place: the bytes were supplied in place of the URL
   * (core/supplied/resources.ts) — `status` 200, `tls` null, no address, no latency.
   */
  supplied?: { source: string };
}

export interface Net {
  /**
   * Fetches one resource under the egress policy. Throws ProblemError: EGRESS_BLOCKED (non-https
   * URL or redirect, or no public/allowed address), UPSTREAM_UNAVAILABLE (DNS, TCP, TLS, time
   * limit, too many redirects, broken response), PAYLOAD_TOO_LARGE. Any HTTP status other than a
   * followed redirect is returned, not thrown.
   */
  fetch(request: FetchRequest, trace?: Trace): Promise<FetchResponse>;
  /**
   * Whether a fetch of `url` would pass the egress policy now — an https URL whose host resolves
   * to a public (or operator-allowed) address — without connecting. Throws ProblemError
   * EGRESS_BLOCKED when it would not, UPSTREAM_UNAVAILABLE when the host does not resolve.
   * `purpose` names the URL in messages ("webhook URL"). With `allowPlainHttp`, an http URL
   * passes too, as a fetch with that option would: only when its host resolves to an address the
   * operator's allowance admits, never a public one.
   */
  checkDestination(url: string, purpose: string, options?: { allowPlainHttp?: boolean }): Promise<void>;
  /**
   * The TXT records at `name` — each record's character-strings joined, in the resolver's order —
   * through the resolver the Runtime was built with (SVC_DNS_SERVERS, else the system's). A name
   * that does not exist or has no TXT record gives []; a resolver that fails, refuses or times
   * out throws ProblemError UPSTREAM_UNAVAILABLE naming the name; an aborted `signal` throws
   * `cancelledProblem()`. A TXT query goes to the resolver, never to the name's own hosts, so
   * the egress policy has no address to check.
   */
  resolveTxt(name: string, signal?: AbortSignal): Promise<string[]>;
  /** The operator's allowance besides public addresses, as CIDR strings (for /health). */
  readonly egressAllow: readonly string[];
  /** Closes connections kept for reuse (shutdown). Fetching afterwards still works. */
  close(): void;
}
