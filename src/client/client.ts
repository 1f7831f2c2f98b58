/**
 * SvcClient: one method per operationId of openapi.json, over fetch (injectable), typed from the
 * generated types (./openapi.ts). Self-contained: no node: import and nothing from the rest of
 * svc, so it runs in Node ≥ 20 and in browsers alike.
 *
 * Every answer is read whole; a documented success is returned, anything else is a SvcError:
 * the problem the daemon answered (its code, status, detail, trace, and the Retry-After header
 * of that response as `retryAfter`), CLIENT_NETWORK_ERROR when no answer came, or
 * CLIENT_BAD_RESPONSE when the answer is not what the document says.
 */
import { SvcError, isProblem } from './errors.js';
import type {
  A2aInspection,
  Authorization,
  AuthorizeRequest,
  AuthorizeResponse,
  ClaimChallenge,
  ClaimChallengeRequest,
  ClaimList,
  ClaimProofRequest,
  ClaimVerification,
  CredentialVerification,
  DelegationVerification,
  DereferencingResult,
  DirectoryPage,
  EnrichedResolution,
  EvidenceBundle,
  FastDidVerdict,
  GraphResponse,
  Health,
  JwsVerification,
  McpInspection,
  MonitorEventList,
  MonitoringStatus,
  ObservationHistory,
  PolicyDecision,
  PolicyEvaluateRequest,
  PresentationVerification,
  Problem,
  Ready,
  Relationship,
  RetentionPreview,
  SemanticDiff,
  ServiceStatus,
  TraceStage,
  VcApiVerificationResult,
  VcApiVerifyOptions,
  VcApiVerifyPresentationOptions,
  VerifyDelegationRequest,
  DeliveryAttemptList,
  WatchCheck,
  WatchCreated,
  WatchWebhook,
  WatchList,
  WatchRequest,
  ProjectWatchRequest,
  PeriodClosed,
  PlanList,
  PlanRequest,
  PlanSaved,
  ProjectCreated,
  ProjectUsage,
  SubscriptionSaved,
  TenantBilling,
  TenantCreated,
  TenantList,
  TenantOwners,
  TenantRequest,
  operations,
} from './openapi.js';
import { parseRetryAfter, retryOptions, withRetry, type RetryOptions } from './retry.js';
import { verifyBundleSignature, verifyResultSignature, type ResultSignature, type VerifyResultOptions } from './signature.js';
import { parseSse } from './sse.js';

/** The fetch the client calls (globalThis.fetch by default; inject one to count, log or proxy). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface SvcClientOptions {
  /** The daemon's origin, with a path prefix if it is served under one (e.g. `http://127.0.0.1:8080`). */
  baseUrl: string | URL;
  /** Default: globalThis.fetch. */
  fetch?: FetchLike;
  /** Headers sent with every request (a call's own headers win). */
  headers?: Record<string, string>;
  /** Time limit of each try in ms, reading the whole answer included (a stream: to its end); exceeded → CLIENT_NETWORK_ERROR. */
  timeoutMs?: number;
  /** Retry 429 and 503 CAPACITY_EXHAUSTED / SERVICE_UNAVAILABLE (default: no retry). */
  retry?: RetryOptions;
  /**
   * The operator token of the daemon (its SVC_ADMIN_TOKEN), sent as `Authorization: Bearer <token>`
   * on the monitoring calls only (createWatch, listWatches, checkWatch, deleteWatch, enableWatchWebhook, listEventAttempts,
   * listMonitorEvents, monitoringStatus, monitoringRetentionPreview, replayMonitorEvent, replayWatch) and metrics, never on the public routes.
   * It appears in no error message.
   */
  adminToken?: string;
  /**
   * A project API key (`svck_…`, commercial mode), sent as `Authorization: Bearer <key>` on the
   * public calls only (never on the operator calls): the daemon then charges the project's budget
   * and counts its usage. An unknown, revoked or rotated key is UNAUTHORIZED (401), never anonymous.
   */
  projectKey?: string;
  /**
   * Owner sessions (a client whose baseUrl is the loopback cookie gateway, `svc serve
   * --gateway-port`): the value of the `svc_session` cookie signIn returned, sent as
   * `Cookie: svc_session=<value>` on the owner-session calls only. It appears in no error message.
   */
  sessionCookie?: string;
  /** The gateway's configured origin, sent as `Origin` on the owner-session calls (writes need it); default: the baseUrl's origin. */
  origin?: string;
}

/** POST /sign-in/challenge's answer: the token and the exact statement to sign as a compact JWS. */
export interface SignInChallenge {
  challenge: string;
  /** Canonical JSON `{"aud":"svc-sign-in","did":…,"nonce":…,"origin":…}`: the JWS payload is its UTF-8 bytes. */
  statement: string;
  expiresAt: string;
}

/** A project of the owner (GET /v1/session/projects, the session, a sign-in). */
export interface OwnerProject {
  id: string;
  tenantId: string;
  name: string;
  createdAt: string;
}

/** GET /session's answer. */
export interface OwnerSessionInfo {
  subject: string;
  projects: OwnerProject[];
  /** The idle expiry (each use moves it on). */
  expiresAt: string;
  absoluteExpiresAt: string;
}

/** POST /sign-in's answer, with the session cookie's value from Set-Cookie (keep it secret). */
export interface SignedIn extends OwnerSessionInfo {
  sessionCookie: string;
}

/** GET /v1/directory's query. */
export interface DirectoryOptions extends RequestOptions {
  /** Entries whose DID contains this text, case-insensitively (at most 100 characters). */
  q?: string;
  /** The DID method: web, key, jwk or webvh. */
  method?: 'web' | 'key' | 'jwk' | 'webvh';
  /** 1 to 50 (default 20). */
  limit?: number;
  /** The previous page's nextCursor. */
  cursor?: string;
}

/** Options every call takes. */
export interface RequestOptions {
  /** Aborts the call; the signal's reason is thrown as is (not a SvcError). */
  signal?: AbortSignal;
  /** Headers for this call only. */
  headers?: Record<string, string>;
}

export interface ResolveOptions extends RequestOptions {
  /** Bypass and refresh the daemon's resolution cache. */
  noCache?: boolean;
  /** did:webvh: the version with this versionId. */
  versionId?: string;
  /** did:webvh: the version in force at this RFC 3339 time. */
  versionTime?: string;
  /** did:webvh: the version with this number. */
  versionNumber?: number | string;
}

/**
 * Asks for a signed result (docs/daemon.md#signed-results) and verifies it: the call returns
 * `{result, signature, jws}` instead of the result alone. Pin `expectedSigner` (the DID /health
 * names as signer) to accept only the svc instance you trust.
 */
export interface SignedOptions extends VerifyResultOptions {
  signed: true;
}

/**
 * A signed result: the result as the daemon answered it, the check of its signature (only
 * `signature.verified` means the result is the signer's), and the `svc-signature` header as
 * received (null when there was none), to keep beside the result and verify again later with
 * verifyResultSignature.
 */
export interface Signed<T> {
  result: T;
  signature: ResultSignature;
  jws: string | null;
}

/**
 * An evidence bundle as the daemon served it (docs/evidence.md#evidence-bundles): the bundle, its
 * bytes exactly as received (what to store and hand to `svc verify-bundle`), and the check of its
 * signature — null when the bundle is unsigned (a daemon without a signing key); only
 * `signature.verified` means the bundle is the signer's.
 */
export interface FetchedBundle {
  bundle: EvidenceBundle;
  bytes: Uint8Array;
  signature: ResultSignature | null;
}

/** The media type of an evidence bundle. */
const BUNDLE_MEDIA_TYPE = 'application/vnd.svc.evidence-bundle+json';

export interface NoCacheOptions extends RequestOptions {
  noCache?: boolean;
}

export interface DiffOptions extends RequestOptions {
  /** The older document hash (or a unique prefix of 8+ hex digits). */
  from?: string;
  /** The newer document hash (or a unique prefix of 8+ hex digits). */
  to?: string;
}

export interface VerifyCredentialOptions extends RequestOptions {
  /** The audience you identify as: a JWT credential (an SD-JWT VC: its KB-JWT) must name it in `aud`. */
  expectedAudience?: string;
  /** The nonce you chose for this exchange: an SD-JWT VC's KB-JWT must carry it in `nonce`. */
  expectedNonce?: string;
  /**
   * Whose credentials you accept (DIDs, `did:web:*.example.com`, `did:web:example.com:*`): the
   * result then carries `issuerTrust` beside an unchanged `status`; an empty list is INDETERMINATE.
   */
  trustedIssuers?: readonly string[];
  /**
   * JSON-LD processing for this request: true requires it (INVALID_OPTIONS on a daemon without
   * SVC_JSONLD=on), false turns it off; absent, the daemon's setting.
   */
  jsonld?: boolean;
}

/** The verifier's side of POST /v1/presentations/verify: each member given is a constraint, an absent one none. */
export interface VerifyPresentationOptions extends RequestOptions {
  /** The challenge you gave the holder: the proof's challenge (a JWT's nonce) must equal it; given but missing is INVALID. */
  challenge?: string;
  /** Your domain: the proof's domain (a JWT's aud) must be or include it; given but missing is INVALID. */
  domain?: string;
  /** Passed to each credential: the audience a JWT credential (an SD-JWT VC's KB-JWT) must name. */
  expectedAudience?: string;
  /** Passed to each SD-JWT VC: the nonce its KB-JWT must carry. */
  expectedNonce?: string;
  /** The issuers you trust: each credential's `issuerTrust` says whether its issuer is one of them. */
  trustedIssuers?: readonly string[];
  /** A credential not about the holder makes the presentation INVALID (otherwise a WARN). */
  requireHolderBinding?: boolean;
}

export interface VerifyPresentationVcApiOptions extends RequestOptions {
  /** VC-API's verifier options: `challenge` and `domain` (applied), `checks` (svc runs all of its checks whatever it names). */
  vcApiOptions?: VcApiVerifyPresentationOptions;
}

export interface VerifyCredentialVcApiOptions extends RequestOptions {
  /** VC-API's verifier options (`{checks: ["proof"]}`); svc runs all of its checks whatever `checks` names. */
  vcApiOptions?: VcApiVerifyOptions;
}

export interface FastVerifyJwsOptions extends RequestOptions {
  /** The relationship the key must be in (default: assertionMethod, then authentication). */
  relationship?: Relationship;
}

/** The query of GET /v1/agents/verify-tool. */
export interface VerifyToolQuery {
  agent: string;
  tool: string;
  /** Require this delegation root. */
  root?: string;
}

/**
 * The body of authorizeOrDeny: POST /v1/agents/authorize's, with the trusted roots required — or
 * `anyRoot: true`, to accept a chain rooted in any DID on purpose (anyone can mint one rooted in a
 * DID of their own). `anyRoot` is the client's own and is never sent.
 */
export type AuthorizeOrDenyRequest = Omit<AuthorizeRequest, 'trustedRoots'> &
  ({ trustedRoots: string[]; anyRoot?: false } | { anyRoot: true; trustedRoots?: never });

/**
 * The query of verifyToolOrDeny: GET /v1/agents/verify-tool's, with the delegation `root` required
 * — or `anyRoot: true`, to accept a registered chain of any root on purpose (never sent).
 */
export type VerifyToolOrDenyQuery = Omit<VerifyToolQuery, 'root'> & ({ root: string; anyRoot?: false } | { anyRoot: true; root?: never });

export interface ResolveW3cOptions extends ResolveOptions {
  /** The media types asked for (the Accept header; `application/did-resolution` for the whole result). */
  accept?: string;
}

/** The body of POST /1.0/identifiers/{did}: the resolution options, and `accept` in place of the Accept header. */
export interface ResolveW3cBody {
  accept?: string;
  noCache?: boolean | string;
  versionId?: string;
  versionTime?: string;
  versionNumber?: number | string;
}

export interface MonitorEventsOptions extends RequestOptions {
  /** Only the events of this watch (its id, digits; a removed watch's events included). */
  watchId?: string;
}

export interface DossierPageOptions extends RequestOptions {
  noCache?: boolean;
  /** The older observation the time machine compares: a document hash or a unique prefix of 8+ hex characters. */
  from?: string;
  /** The newer observation the time machine compares. */
  to?: string;
}

/** Pages as HTML; problems as data (problem+json), not as problem pages. */
const PAGE_ACCEPT = 'text/html, application/problem+json';

/**
 * What /1.0/identifiers answers: the DID document, the resolution result, or (for a DID URL) the
 * dereferencing result or its content stream; for a service endpoint asked for as
 * application/did-url-dereferencing or text/uri-list, the 303 with its Location (not followed).
 */
export type W3cBody = operations['resolveW3c']['responses'][200]['content'][keyof operations['resolveW3c']['responses'][200]['content']] | W3cRedirect;

/** A 303 of the W3C binding: the service endpoint a DID URL selected. The client does not follow it. */
export interface W3cRedirect {
  status: 303;
  location: string;
}

/** One frame of GET /v1/stream/{did}: stages, then one result or one error, then done. */
export type StreamFrame =
  | { event: 'stage'; data: TraceStage }
  | { event: 'result'; data: EnrichedResolution }
  | { event: 'error'; data: Problem }
  | { event: 'done'; data: Record<string, never> };

/** The answer of authorizeOrDeny / verifyToolOrDeny: never thrown, DENY unless the daemon said ALLOW. */
export interface DenyDecision {
  decision: 'ALLOW' | 'DENY';
  authorized: boolean;
  reason: string;
  /** The daemon's Authorization, when it answered one. */
  authorization?: Authorization;
  /** Why there is no decision of the daemon's (network, problem, unexpected answer). */
  error?: SvcError;
}

/** The JSON body of an operation's 200 answer (never for an operation without one). */
type JsonOk<K extends keyof operations> = operations[K]['responses'] extends { 200: { content: { 'application/json': infer T } } } ? T : never;
/** The JSON body of an operation's 201 answer. */
type JsonCreated<K extends keyof operations> = operations[K]['responses'] extends { 201: { content: { 'application/json': infer T } } } ? T : never;
/** The JSON body of a 202 answer of operation K. */
type JsonAccepted<K extends keyof operations> = operations[K]['responses'] extends { 202: { content: { 'application/json': infer T } } } ? T : never;

/** What an operator token may hold: visible ASCII, as the daemon reads `Authorization: Bearer <token>`. */
const TOKEN_SYNTAX = /^[\x21-\x7e]+$/;

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  accept?: string | undefined;
  options?: RequestOptions | undefined;
  /** Statuses whose body is the result (200, and 410 for a deactivated DID). */
  ok?: readonly number[];
  /** An operator route: the client's adminToken goes along as `Authorization: Bearer`. */
  operator?: boolean;
  /** An owner-session call: the client's sessionCookie and origin go along. */
  session?: boolean;
}

interface Exchange {
  res: Response;
  /** Turns an error of reading the body into the error the caller sees. */
  failure(error: unknown): unknown;
}

const SSE_EVENTS = new Set(['stage', 'result', 'error', 'done']);

/** The path of an owner's project (one encoded segment). */
const projectPath = (project: string): string => `/v1/session/projects/${encodeURIComponent(project)}`;

export class SvcClient {
  readonly baseUrl: string;
  readonly #options: SvcClientOptions;
  readonly #fetch: FetchLike;
  readonly #retry: RetryOptions | undefined;

  constructor(options: SvcClientOptions) {
    const base = String(options.baseUrl).replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]/i.test(base)) throw new TypeError(`baseUrl must be an http(s) URL, not "${String(options.baseUrl)}"`);
    if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
      throw new RangeError(`timeoutMs must be a positive number, not ${options.timeoutMs}`);
    }
    if (options.retry !== undefined) retryOptions(options.retry); // validate now, not on the first failure
    // Checked here, so that no later failure (a header the fetch refuses) can quote the token.
    if (options.adminToken !== undefined && (typeof options.adminToken !== 'string' || !TOKEN_SYNTAX.test(options.adminToken))) {
      throw new TypeError('adminToken must be a non-empty string of visible ASCII characters (no spaces)');
    }
    if (options.projectKey !== undefined && (typeof options.projectKey !== 'string' || !TOKEN_SYNTAX.test(options.projectKey))) {
      throw new TypeError('projectKey must be a non-empty string of visible ASCII characters (no spaces)');
    }
    if (options.sessionCookie !== undefined && (typeof options.sessionCookie !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(options.sessionCookie))) {
      throw new TypeError('sessionCookie must be the 43 base64url characters of the svc_session cookie');
    }
    if (options.origin !== undefined && !/^https?:\/\/[^/\s]+$/i.test(options.origin)) throw new TypeError('origin must be an origin: scheme://host[:port]');
    this.baseUrl = base;
    this.#options = { ...options };
    this.#retry = options.retry;
    if (options.fetch === undefined && typeof globalThis.fetch !== 'function') throw new TypeError('no global fetch here: pass options.fetch');
    // globalThis.fetch is called as a plain function: a browser's throws "Illegal invocation" when called as a method of another object.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** A client like this one that retries per `retry` (default options when omitted). */
  withRetry(retry: RetryOptions = {}): SvcClient {
    return new SvcClient({ ...this.#options, retry });
  }

  // ---- probes ----------------------------------------------------------------------------

  /** GET /health: liveness and what this service implements. */
  health(options?: RequestOptions): Promise<Health> {
    return this.#json({ method: 'GET', path: '/health', options });
  }

  /** GET /ready: a 503 NOT_READY is a SvcError like any other. */
  ready(options?: RequestOptions): Promise<Ready> {
    return this.#json({ method: 'GET', path: '/ready', options });
  }

  /** GET /v1/status (standard budget). */
  status(options?: RequestOptions): Promise<ServiceStatus> {
    return this.#json({ method: 'GET', path: '/v1/status', options });
  }

  // ---- resolution ------------------------------------------------------------------------

  /**
   * GET /v1/resolve/{did}. A deactivated DID (410) is returned, not thrown. With `signed: true`,
   * the signed result and the check of its signature (SignedOptions).
   */
  resolve(did: string, options: ResolveOptions & SignedOptions): Promise<Signed<EnrichedResolution>>;
  resolve(did: string, options?: ResolveOptions & { signed?: false }): Promise<EnrichedResolution>;
  resolve(did: string, options: ResolveOptions & { signed?: boolean } = {}): Promise<EnrichedResolution | Signed<EnrichedResolution>> {
    return this.#maybeSigned<JsonOk<'resolve'>>(
      { method: 'GET', path: `/v1/resolve/${encodeURIComponent(did)}`, query: versionQuery(options), options, ok: [200, 410] },
      options,
    );
  }

  /**
   * GET /v1/resolve/{did}?bundle=true: the evidence bundle of a fresh resolution, its bytes, and
   * the check of its embedded signature (verifyBundleSignature; the signer's key resolved by the
   * client, never asked of the daemon; null when unsigned). Pin `expectedSigner` (the DID /health
   * names as signer) to accept only the svc instance you trust. A deactivated DID (410) is a
   * bundle too.
   */
  async resolveBundle(did: string, options: ResolveOptions & VerifyResultOptions = {}): Promise<FetchedBundle> {
    const call: Call = {
      method: 'GET',
      path: `/v1/resolve/${encodeURIComponent(did)}`,
      query: { ...versionQuery(options), bundle: true },
      accept: `${BUNDLE_MEDIA_TYPE}, application/problem+json`,
      options,
    };
    const { bundle, bytes } = await this.#retrying(async () => {
      const exchange = await this.#exchange(call);
      const { res } = exchange;
      let raw: Uint8Array;
      try {
        raw = new Uint8Array(await res.arrayBuffer());
      } catch (error) {
        throw exchange.failure(error);
      }
      const what = `GET ${call.path}?bundle=true`;
      if (res.status !== 200 && res.status !== 410) throw errorOf(res, new TextDecoder().decode(raw), what);
      const media = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (media !== BUNDLE_MEDIA_TYPE)
        throw SvcError.badResponse(res.status, `${what} answered ${media || 'no content type'}, not ${BUNDLE_MEDIA_TYPE}`, retryAfterOf(res));
      let parsed: unknown;
      try {
        parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
      } catch (error) {
        throw SvcError.badResponse(res.status, `${what} answered a bundle that is not UTF-8 JSON`, retryAfterOf(res), error);
      }
      if (!isObject(parsed) || parsed['format'] !== 'svc-evidence-bundle')
        throw SvcError.badResponse(res.status, `${what} answered JSON that is not an evidence bundle`, retryAfterOf(res));
      return { bundle: parsed as unknown as EvidenceBundle, bytes: raw };
    });
    const verify: VerifyResultOptions = {
      ...(options.expectedSigner !== undefined ? { expectedSigner: options.expectedSigner } : {}),
      ...(options.resolveKey !== undefined ? { resolveKey: options.resolveKey } : {}),
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    };
    return { bundle, bytes, signature: await verifyBundleSignature(bundle, verify) };
  }

  /**
   * GET /v1/stream/{did}: the frames as they arrive (stage…, result or error, done). A problem
   * answered before the stream starts (400, 429, 503) is thrown as SvcError by the first
   * `next()`; a retry configured on the client applies to that opening request only.
   */
  async *stream(did: string, options: NoCacheOptions = {}): AsyncGenerator<StreamFrame, void, undefined> {
    const call: Call = {
      method: 'GET',
      path: `/v1/stream/${encodeURIComponent(did)}`,
      query: { noCache: options.noCache },
      accept: 'text/event-stream',
      options,
    };
    const { res, failure } = await this.#retrying(async () => {
      const exchange = await this.#exchange(call);
      const { res } = exchange;
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (res.status === 200 && type === 'text/event-stream' && res.body !== null) return exchange;
      const text = await readText(exchange);
      if (res.status === 200)
        throw SvcError.badResponse(200, `${call.method} ${call.path} answered 200 with ${type || 'no content type'}, not an event stream`, retryAfterOf(res));
      throw errorOf(res, text, `${call.method} ${call.path}`);
    });
    let sawDone = false;
    try {
      for await (const event of parseSse(res.body!)) {
        if (!SSE_EVENTS.has(event.event)) continue; // an event this client does not know: skipped
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch (error) {
          throw SvcError.badResponse(200, `the stream's ${event.event} frame does not hold JSON`, undefined, error);
        }
        if (!isObject(data) || (event.event === 'error' && !isProblem(data))) {
          throw SvcError.badResponse(200, `the stream's ${event.event} frame does not hold the documented object`);
        }
        yield { event: event.event, data } as StreamFrame;
        if (event.event === 'done') {
          sawDone = true;
          return;
        }
      }
    } catch (error) {
      if (error instanceof SvcError) throw error;
      throw failure(error);
    }
    if (!sawDone) throw SvcError.badResponse(200, 'the stream ended before its done frame');
  }

  /** GET /v1/dereference/{didUrl}: the DID URL is percent-encoded whole (`#` included). */
  dereference(didUrl: string, options?: RequestOptions): Promise<DereferencingResult> {
    return this.#json({ method: 'GET', path: `/v1/dereference/${encodeURIComponent(didUrl)}`, options });
  }

  /** GET /v1/fast-verify/did/{did}. */
  fastVerifyDid(did: string, options: NoCacheOptions = {}): Promise<FastDidVerdict> {
    return this.#json({ method: 'GET', path: `/v1/fast-verify/did/${encodeURIComponent(did)}`, query: { noCache: options.noCache }, options });
  }

  /** GET /v1/graph/{did}. */
  graph(did: string, options: NoCacheOptions = {}): Promise<GraphResponse> {
    return this.#json({ method: 'GET', path: `/v1/graph/${encodeURIComponent(did)}`, query: { noCache: options.noCache }, options });
  }

  /** GET /v1/history/{did}: the daemon's observations, newest first. */
  history(did: string, options?: RequestOptions): Promise<ObservationHistory> {
    return this.#json({ method: 'GET', path: `/v1/history/${encodeURIComponent(did)}`, options });
  }

  /**
   * GET /v1/kept-log/{did}: the did:webvh log the daemon kept (JSON Lines, each line as the host
   * published it), to verify again after the host deleted or rewrote it; NOT_FOUND (404) when none is kept.
   */
  keptLog(did: string, options?: RequestOptions): Promise<string> {
    return this.#text({ method: 'GET', path: `/v1/kept-log/${encodeURIComponent(did)}`, accept: 'application/jsonl, application/problem+json', options });
  }

  /** GET /v1/diff/{did}: the latest two distinct documents, or `from`/`to`; NOT_FOUND (404) with fewer than two. */
  diff(did: string, options: DiffOptions = {}): Promise<SemanticDiff> {
    return this.#json({ method: 'GET', path: `/v1/diff/${encodeURIComponent(did)}`, query: { from: options.from, to: options.to }, options });
  }

  // ---- verification ----------------------------------------------------------------------

  /**
   * POST /v1/credentials/verify: an object, its JSON text, or a compact JWT. A failed check is a
   * result. With `signed: true`, the signed verification and the check of its signature.
   */
  verifyCredential(credential: Record<string, unknown> | string, options: VerifyCredentialOptions & SignedOptions): Promise<Signed<CredentialVerification>>;
  verifyCredential(credential: Record<string, unknown> | string, options?: VerifyCredentialOptions & { signed?: false }): Promise<CredentialVerification>;
  verifyCredential(
    credential: Record<string, unknown> | string,
    options: VerifyCredentialOptions & { signed?: boolean } = {},
  ): Promise<CredentialVerification | Signed<CredentialVerification>> {
    const body = {
      credential,
      ...(options.expectedAudience !== undefined ? { expectedAudience: options.expectedAudience } : {}),
      ...(options.expectedNonce !== undefined ? { expectedNonce: options.expectedNonce } : {}),
      ...(options.trustedIssuers !== undefined ? { trustedIssuers: [...options.trustedIssuers] } : {}),
      ...(options.jsonld !== undefined ? { jsonld: options.jsonld } : {}),
    };
    return this.#maybeSigned<JsonOk<'verifyCredential'>>({ method: 'POST', path: '/v1/credentials/verify', body, options }, options);
  }

  /**
   * POST /credentials/verify (the W3C VC-API binding): a credential object or an
   * EnvelopedVerifiableCredential. The VerificationResult is returned whether verified (200) or
   * not (400 with `verified: false`, the reasons in `errors`); a request the daemon refuses
   * (problem+json) is a SvcError.
   */
  verifyCredentialVcApi(verifiableCredential: Record<string, unknown>, options: VerifyCredentialVcApiOptions = {}): Promise<VcApiVerificationResult> {
    const body = { verifiableCredential, ...(options.vcApiOptions !== undefined ? { options: options.vcApiOptions } : {}) };
    return this.#json<VcApiVerificationResult>({ method: 'POST', path: '/credentials/verify', body, options, ok: [200, 400] }).then((result) => {
      // A 400 is a result only when it is one; a refused request is a problem.
      if (typeof (result as { verified?: unknown }).verified === 'boolean') return result;
      throw isProblem(result)
        ? SvcError.fromProblem(result, 400)
        : SvcError.badResponse(400, 'POST /credentials/verify answered 400 without a result or a problem');
    });
  }

  /**
   * POST /v1/presentations/verify: a presentation object, its JSON text, or a compact JWT (vp+jwt,
   * VC-JWT 1.1). A failed check is a result. With `signed: true`, the signed verification and the
   * check of its signature.
   */
  verifyPresentation(
    presentation: Record<string, unknown> | string,
    options: VerifyPresentationOptions & SignedOptions,
  ): Promise<Signed<PresentationVerification>>;
  verifyPresentation(
    presentation: Record<string, unknown> | string,
    options?: VerifyPresentationOptions & { signed?: false },
  ): Promise<PresentationVerification>;
  verifyPresentation(
    presentation: Record<string, unknown> | string,
    options: VerifyPresentationOptions & { signed?: boolean } = {},
  ): Promise<PresentationVerification | Signed<PresentationVerification>> {
    const { challenge, domain, expectedAudience, expectedNonce, trustedIssuers, requireHolderBinding } = options;
    const body = {
      presentation,
      ...(challenge !== undefined ? { challenge } : {}),
      ...(domain !== undefined ? { domain } : {}),
      ...(expectedAudience !== undefined ? { expectedAudience } : {}),
      ...(expectedNonce !== undefined ? { expectedNonce } : {}),
      ...(trustedIssuers !== undefined ? { trustedIssuers: [...trustedIssuers] } : {}),
      ...(requireHolderBinding !== undefined ? { requireHolderBinding } : {}),
    };
    return this.#maybeSigned<JsonOk<'verifyPresentation'>>({ method: 'POST', path: '/v1/presentations/verify', body, options }, options);
  }

  /**
   * POST /presentations/verify (the W3C VC-API binding): a presentation object or an
   * EnvelopedVerifiablePresentation (`id`: `data:application/vp+jwt,<JWT>`). The
   * VerificationResult is returned whether verified (200) or not (400 with `verified: false`, the
   * reasons in `errors`); a request the daemon refuses (problem+json) is a SvcError.
   */
  verifyPresentationVcApi(verifiablePresentation: Record<string, unknown>, options: VerifyPresentationVcApiOptions = {}): Promise<VcApiVerificationResult> {
    const body = { verifiablePresentation, ...(options.vcApiOptions !== undefined ? { options: options.vcApiOptions } : {}) };
    return this.#json<VcApiVerificationResult>({ method: 'POST', path: '/presentations/verify', body, options, ok: [200, 400] }).then((result) => {
      if (typeof (result as { verified?: unknown }).verified === 'boolean') return result;
      throw isProblem(result)
        ? SvcError.fromProblem(result, 400)
        : SvcError.badResponse(400, 'POST /presentations/verify answered 400 without a result or a problem');
    });
  }

  /** POST /v1/fast-verify/jws. */
  fastVerifyJws(jws: string, options: FastVerifyJwsOptions = {}): Promise<JwsVerification> {
    const body = { jws, ...(options.relationship !== undefined ? { relationship: options.relationship } : {}) };
    return this.#json<JsonOk<'fastVerifyJws'>>({ method: 'POST', path: '/v1/fast-verify/jws', body, options });
  }

  /** POST /v1/policies/evaluate. */
  evaluatePolicy(body: PolicyEvaluateRequest, options?: RequestOptions): Promise<PolicyDecision> {
    return this.#json<JsonOk<'evaluatePolicy'>>({ method: 'POST', path: '/v1/policies/evaluate', body, options });
  }

  // ---- agents ----------------------------------------------------------------------------

  /** POST /v1/agents/verify-delegation (`register: true` stores a VALID chain for verifyTool). */
  verifyDelegation(body: VerifyDelegationRequest, options?: RequestOptions): Promise<DelegationVerification> {
    return this.#json<JsonOk<'verifyDelegation'>>({ method: 'POST', path: '/v1/agents/verify-delegation', body, options });
  }

  /** POST /v1/agents/authorize. Prefer authorizeOrDeny where an error must mean DENY (rule 4). */
  authorize(body: AuthorizeRequest, options?: RequestOptions): Promise<AuthorizeResponse> {
    return this.#json<JsonOk<'authorize'>>({ method: 'POST', path: '/v1/agents/authorize', body, options });
  }

  /** GET /v1/agents/verify-tool. Prefer verifyToolOrDeny where an error must mean DENY (rule 4). */
  verifyTool(query: VerifyToolQuery, options?: RequestOptions): Promise<Authorization> {
    return this.#json<JsonOk<'verifyTool'>>({
      method: 'GET',
      path: '/v1/agents/verify-tool',
      query: { agent: query.agent, tool: query.tool, root: query.root },
      options,
    });
  }

  /**
   * authorize, never throwing for an answer: ALLOW only for a 200 whose authorization is ALLOW and
   * authorized; anything else DENY. `trustedRoots` (one or more DIDs) or `anyRoot: true` is
   * required: without either it rejects with a TypeError before any request (fail closed).
   */
  async authorizeOrDeny(body: AuthorizeOrDenyRequest, options?: RequestOptions): Promise<DenyDecision> {
    const { anyRoot, ...request } = body as AuthorizeRequest & { anyRoot?: unknown };
    requireRoots('authorizeOrDeny', 'trustedRoots', request.trustedRoots, anyRoot);
    try {
      const answer: unknown = await this.authorize(request, options);
      return decide(isObject(answer) ? answer['authorization'] : undefined);
    } catch (error) {
      return deny(error);
    }
  }

  /**
   * verifyTool, never throwing for an answer: ALLOW only for a 200 Authorization that is ALLOW and
   * authorized; anything else DENY. `root` or `anyRoot: true` is required: without either it
   * rejects with a TypeError before any request (fail closed).
   */
  async verifyToolOrDeny(query: VerifyToolOrDenyQuery, options?: RequestOptions): Promise<DenyDecision> {
    const { anyRoot, ...rest } = query as VerifyToolQuery & { anyRoot?: unknown };
    requireRoots('verifyToolOrDeny', 'root', rest.root, anyRoot);
    try {
      return decide(await this.verifyTool(rest, options));
    } catch (error) {
      return deny(error);
    }
  }

  // ---- inspection ------------------------------------------------------------------------

  /**
   * GET /v1/mcp/inspect: tools, and the prompts, resources and resource templates the server
   * declares, with risk signals and drift. AUTH_REQUIRED is a result; an endpoint that fails,
   * times out or does not answer as an MCP server throws SvcError UPSTREAM_UNAVAILABLE (502, the
   * detail names what was found), a 404 NOT_FOUND, never a DID code.
   */
  inspectMcp(endpoint: string, options: RequestOptions & SignedOptions): Promise<Signed<McpInspection>>;
  inspectMcp(endpoint: string, options?: RequestOptions & { signed?: false }): Promise<McpInspection>;
  inspectMcp(endpoint: string, options: RequestOptions & { signed?: boolean } = {}): Promise<McpInspection | Signed<McpInspection>> {
    return this.#maybeSigned<JsonOk<'inspectMcp'>>({ method: 'GET', path: '/v1/mcp/inspect', query: { endpoint }, options }, options);
  }

  /**
   * POST /v1/mcp/inspect: as inspectMcp, compared with an approved baseline (the JSON of a file
   * `svc mcp approve` wrote) instead of the last stored inventory: `drift.baseline` is set and the
   * drift check is FAIL on any difference (a 200 result). A baseline the daemon cannot use (or
   * with no entry approved from this endpoint) throws SvcError INVALID_REQUEST.
   */
  inspectMcpWithBaseline(endpoint: string, baseline: Record<string, unknown>, options?: RequestOptions): Promise<McpInspection> {
    return this.#json<JsonOk<'inspectMcpWithBaseline'>>({ method: 'POST', path: '/v1/mcp/inspect', body: { endpoint, baseline }, options });
  }

  /** GET /v1/a2a/inspect: an agent origin or a card URL. With `signed: true`, the signed inspection and the check of its signature. */
  inspectA2a(url: string, options: RequestOptions & SignedOptions): Promise<Signed<A2aInspection>>;
  inspectA2a(url: string, options?: RequestOptions & { signed?: false }): Promise<A2aInspection>;
  inspectA2a(url: string, options: RequestOptions & { signed?: boolean } = {}): Promise<A2aInspection | Signed<A2aInspection>> {
    return this.#maybeSigned<JsonOk<'inspectA2a'>>({ method: 'GET', path: '/v1/a2a/inspect', query: { url }, options }, options);
  }

  /**
   * POST /v1/a2a/inspect: as inspectA2a, the card compared with an approved baseline (the JSON of a
   * file `svc a2a approve` wrote): `baseline` is set and the `drift` check is FAIL on any difference.
   */
  inspectA2aWithBaseline(url: string, baseline: Record<string, unknown>, options?: RequestOptions): Promise<A2aInspection> {
    return this.#json<JsonOk<'inspectA2aWithBaseline'>>({ method: 'POST', path: '/v1/a2a/inspect', body: { url, baseline }, options });
  }

  // ---- W3C DID Resolution binding --------------------------------------------------------

  /**
   * GET /1.0/identifiers/{did}: the parsed body — the DID document (default), the resolution
   * result (`accept: 'application/did-resolution'`), or the dereferencing result of a DID URL.
   * A deactivated DID (410) is returned; an error is thrown as SvcError with the problem the
   * daemon embedded in didResolutionMetadata.error (or its problem+json).
   */
  resolveW3c(did: string, options: ResolveW3cOptions = {}): Promise<W3cBody> {
    return this.#json({
      method: 'GET',
      path: `/1.0/identifiers/${encodeURIComponent(did)}`,
      query: versionQuery(options),
      accept: options.accept,
      options,
      ok: [200, 303, 410],
    });
  }

  /** POST /1.0/identifiers/{did}: the options (and `accept`) in the body; answers as resolveW3c. */
  resolveW3cPost(did: string, body: ResolveW3cBody = {}, options?: RequestOptions): Promise<W3cBody> {
    return this.#json({ method: 'POST', path: `/1.0/identifiers/${encodeURIComponent(did)}`, body, options, ok: [200, 303, 410] });
  }

  // ---- web dossier ------------------------------------------------------------------------

  /** GET /: the front page, as HTML. */
  homePage(options?: RequestOptions): Promise<string> {
    return this.#text({ method: 'GET', path: '/', accept: PAGE_ACCEPT, options });
  }

  /**
   * GET /d/{did}: the dossier of a DID as an HTML page (its data is `resolve`'s result); `from`
   * and `to` pick the observations the time machine compares. A deactivated DID (410) is a page too.
   */
  dossierPage(did: string, options: DossierPageOptions = {}): Promise<string> {
    const query = { noCache: options.noCache, from: options.from, to: options.to };
    return this.#text({ method: 'GET', path: `/d/${encodeURIComponent(did)}`, query, accept: PAGE_ACCEPT, options, ok: [200, 410] });
  }

  /**
   * GET /mcp?endpoint=…: the web view of an MCP inspection as an HTML page (its data is
   * `inspectMcp`'s result, and it counts as an inspection for drift); without `endpoint`, the page
   * with the form. Problems are SvcError, as for `inspectMcp`.
   */
  mcpInspectionPage(endpoint?: string, options?: RequestOptions): Promise<string> {
    return this.#text({ method: 'GET', path: '/mcp', query: { endpoint }, accept: PAGE_ACCEPT, options });
  }

  /** GET /assets/{name}: a stylesheet, script or the icon (SVG) of the pages, by the name they link it with. */
  webAsset(name: string, options?: RequestOptions): Promise<string> {
    return this.#text({
      method: 'GET',
      path: `/assets/${encodeURIComponent(name)}`,
      accept: 'text/css, text/javascript, image/svg+xml, application/problem+json',
      options,
    });
  }

  /**
   * GET /metrics: the daemon's Prometheus metrics, as the text exposition format. Operator only
   * (the client's adminToken), direct profile; NOT_FOUND (404) when the daemon's metrics are off.
   */
  metrics(options?: RequestOptions): Promise<string> {
    return this.#text({ method: 'GET', path: '/metrics', accept: 'text/plain, application/problem+json', options, operator: true });
  }

  /** GET /openapi.json: the OpenAPI 3.1 document the daemon serves. */
  openApi(options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#json({ method: 'GET', path: '/openapi.json', options });
  }

  // ---- operator monitoring (adminToken) --------------------------------------------------

  /**
   * POST /v1/monitoring/watches: watch a DID; its changes are posted to `webhookUrl` (https, an
   * address the daemon's egress policy allows). The answer holds the watch and its signing
   * secret (`whsec_…`), shown this once. Operator only: without the client's adminToken
   * UNAUTHORIZED (401); MONITORING_DISABLED (501) when the daemon has no operator token.
   */
  createWatch(body: WatchRequest, options?: RequestOptions): Promise<WatchCreated> {
    return this.#json<JsonCreated<'createWatch'>>({ method: 'POST', path: '/v1/monitoring/watches', body, options, ok: [201], operator: true });
  }

  /** GET /v1/monitoring/watches: the active watches, oldest first (webhook URLs redacted, no secret). Operator only. */
  listWatches(options?: RequestOptions): Promise<WatchList> {
    return this.#json<JsonOk<'listWatches'>>({ method: 'GET', path: '/v1/monitoring/watches', options, operator: true });
  }

  /** DELETE /v1/monitoring/watches/{id}: stop a watch (its queued events are cancelled); NOT_FOUND (404) when no active watch has this id. Operator only. */
  deleteWatch(id: string, options?: RequestOptions): Promise<void> {
    return this.#empty({ method: 'DELETE', path: `/v1/monitoring/watches/${encodeURIComponent(id)}`, options, ok: [204], operator: true });
  }

  /**
   * POST /v1/monitoring/watches/{id}/check: check the watch now, as the poller does →
   * `{eventId, changed, delivery}` (the first check of a watch only sets its baseline). Operator only.
   */
  checkWatch(id: string, options?: RequestOptions): Promise<WatchCheck> {
    return this.#json<JsonOk<'checkWatch'>>({ method: 'POST', path: `/v1/monitoring/watches/${encodeURIComponent(id)}/check`, options, operator: true });
  }

  /**
   * POST /v1/monitoring/watches/{id}/webhook: enable the watch's webhook again after a receiver
   * answered 410 Gone (`watch.webhookDisabled` says when and why), optionally at a new
   * `webhookUrl` (egress-checked as at registration) → `{watch}`. Events from the next check on
   * are delivered; NOT_FOUND (404) when no active watch has this id. Operator only.
   */
  enableWatchWebhook(id: string, body: { webhookUrl?: string } = {}, options?: RequestOptions): Promise<WatchWebhook> {
    return this.#json<JsonOk<'enableWatchWebhook'>>({
      method: 'POST',
      path: `/v1/monitoring/watches/${encodeURIComponent(id)}/webhook`,
      body,
      options,
      operator: true,
    });
  }

  /**
   * GET /v1/monitoring/events/{id}/attempts: every delivery attempt of the event (`evt_<n>`),
   * oldest first, with the receiver's status, the decision and a one-line detail →
   * `{eventId, attempts}`; NOT_FOUND (404) for an unknown event. Operator only.
   */
  listEventAttempts(eventId: string, options?: RequestOptions): Promise<DeliveryAttemptList> {
    return this.#json<JsonOk<'listEventAttempts'>>({
      method: 'GET',
      path: `/v1/monitoring/events/${encodeURIComponent(eventId)}/attempts`,
      options,
      operator: true,
    });
  }

  /** GET /v1/monitoring/events: the monitor events and their delivery state, newest first; `watchId` narrows them to one watch. Operator only. */
  listMonitorEvents(options: MonitorEventsOptions = {}): Promise<MonitorEventList> {
    return this.#json<JsonOk<'listMonitorEvents'>>({
      method: 'GET',
      path: '/v1/monitoring/events',
      query: { watchId: options.watchId },
      options,
      operator: true,
    });
  }

  /** GET /v1/monitoring/status: the gauges of the monitoring tables (counts and limits). Operator only. */
  monitoringStatus(options?: RequestOptions): Promise<MonitoringStatus> {
    return this.#json<JsonOk<'monitoringStatus'>>({ method: 'GET', path: '/v1/monitoring/status', options, operator: true });
  }

  /**
   * GET /v1/monitoring/retention-preview: how many observations, MCP observations and settled
   * monitor events a cleanup could remove strictly before `before` (RFC 3339 with seconds and an
   * offset), with the rules that keep rows. Read only: nothing is deleted. Operator only.
   */
  monitoringRetentionPreview(before: string, options?: RequestOptions): Promise<RetentionPreview> {
    return this.#json<JsonOk<'monitoringRetentionPreview'>>({
      method: 'GET',
      path: '/v1/monitoring/retention-preview',
      query: { before },
      options,
      operator: true,
    });
  }

  /** The same call as monitoringRetentionPreview. */
  retentionPreview(before: string, options?: RequestOptions): Promise<RetentionPreview> {
    return this.monitoringRetentionPreview(before, options);
  }

  /**
   * POST /v1/monitoring/events/{id}/replay: a new delivery of a DEAD_LETTER or CANCELLED event
   * (`evt_<n>`; same id and bytes, five fresh attempts) → 202 `{event}`. CONFLICT (409) when the
   * event is still on its way or delivered, its watch was removed, or the watch's webhook is
   * disabled; NOT_FOUND (404). svc never replays by itself. Operator only.
   */
  replayMonitorEvent(id: string, options?: RequestOptions): Promise<JsonAccepted<'replayMonitorEvent'>> {
    return this.#json<JsonAccepted<'replayMonitorEvent'>>({
      method: 'POST',
      path: `/v1/monitoring/events/${encodeURIComponent(id)}/replay`,
      options,
      ok: [202],
      operator: true,
    });
  }

  /**
   * POST /v1/monitoring/watches/{id}/replay: replays every DEAD_LETTER event of the watch created
   * at or after `since` (RFC 3339 with seconds and an offset) → 202 `{replayed, count}`. Operator only.
   */
  replayWatch(id: string, since: string, options?: RequestOptions): Promise<JsonAccepted<'replayWatch'>> {
    return this.#json<JsonAccepted<'replayWatch'>>({
      method: 'POST',
      path: `/v1/monitoring/watches/${encodeURIComponent(id)}/replay`,
      body: { since },
      options,
      ok: [202],
      operator: true,
    });
  }

  // ---- commercial control (adminToken; the daemon's commercial mode) ----------------------

  /**
   * POST /v1/commercial/tenants: a tenant with its first owner (a DID). Operator only:
   * UNAUTHORIZED (401) without the adminToken; COMMERCIAL_DISABLED (501) when the mode is off.
   */
  createTenant(body: TenantRequest, options?: RequestOptions): Promise<TenantCreated> {
    return this.#json<JsonCreated<'createTenant'>>({ method: 'POST', path: '/v1/commercial/tenants', body, options, ok: [201], operator: true });
  }

  /** GET /v1/commercial/tenants: every tenant with its owners and projects, oldest first. Operator only. */
  listTenants(options?: RequestOptions): Promise<TenantList> {
    return this.#json<JsonOk<'listTenants'>>({ method: 'GET', path: '/v1/commercial/tenants', options, operator: true });
  }

  /** POST /v1/commercial/tenants/{tenant}/projects: a project of the tenant (NOT_FOUND: no such tenant; INVALID_REQUEST: the name is taken). Operator only. */
  createProject(tenantId: string, name: string, options?: RequestOptions): Promise<ProjectCreated> {
    return this.#json<JsonCreated<'createProject'>>({
      method: 'POST',
      path: `/v1/commercial/tenants/${encodeURIComponent(tenantId)}/projects`,
      body: { name },
      options,
      ok: [201],
      operator: true,
    });
  }

  /** POST /v1/commercial/tenants/{tenant}/owners: attach a DID as an owner (idempotent) → the owners. Operator only. */
  attachOwner(tenantId: string, subject: string, options?: RequestOptions): Promise<TenantOwners> {
    return this.#json<JsonOk<'attachOwner'>>({
      method: 'POST',
      path: `/v1/commercial/tenants/${encodeURIComponent(tenantId)}/owners`,
      body: { subject },
      options,
      operator: true,
    });
  }

  /** DELETE /v1/commercial/tenants/{tenant}/owners/{subject}: detach an owner (NOT_FOUND when it is not one). Operator only. */
  removeOwner(tenantId: string, subject: string, options?: RequestOptions): Promise<void> {
    return this.#empty({
      method: 'DELETE',
      path: `/v1/commercial/tenants/${encodeURIComponent(tenantId)}/owners/${encodeURIComponent(subject)}`,
      options,
      ok: [204],
      operator: true,
    });
  }

  /** GET /v1/commercial/projects/{project}/usage: the project's usage counters by month. Operator only. */
  projectUsage(projectId: string, options?: RequestOptions): Promise<ProjectUsage> {
    return this.#json<JsonOk<'projectUsage'>>({
      method: 'GET',
      path: `/v1/commercial/projects/${encodeURIComponent(projectId)}/usage`,
      options,
      operator: true,
    });
  }

  /** GET /v1/commercial/plans: the mock-billing plans. Operator only. */
  listPlans(options?: RequestOptions): Promise<PlanList> {
    return this.#json<JsonOk<'listPlans'>>({ method: 'GET', path: '/v1/commercial/plans', options, operator: true });
  }

  /** POST /v1/commercial/plans: creates or replaces a plan (by id). Operator only. */
  savePlan(body: PlanRequest, options?: RequestOptions): Promise<PlanSaved> {
    return this.#json<JsonOk<'savePlan'>>({ method: 'POST', path: '/v1/commercial/plans', body, options, operator: true });
  }

  /** POST /v1/commercial/tenants/{tenant}/subscription: subscribes the tenant to an active plan. Operator only. */
  subscribeTenant(tenantId: string, plan: string, options?: RequestOptions): Promise<SubscriptionSaved> {
    return this.#json<JsonOk<'subscribeTenant'>>({
      method: 'POST',
      path: `/v1/commercial/tenants/${encodeURIComponent(tenantId)}/subscription`,
      body: { plan },
      options,
      operator: true,
    });
  }

  /** POST /v1/commercial/tenants/{tenant}/close-period: closes a month (YYYY-MM) into an OPEN invoice and its CHARGE (nothing is collected). Operator only. */
  closePeriod(tenantId: string, period: string, options?: RequestOptions): Promise<PeriodClosed> {
    return this.#json<JsonCreated<'closePeriod'>>({
      method: 'POST',
      path: `/v1/commercial/tenants/${encodeURIComponent(tenantId)}/close-period`,
      body: { period },
      options,
      ok: [201],
      operator: true,
    });
  }

  /** GET /v1/commercial/tenants/{tenant}/billing: the subscription, plan, invoices and ledger. Operator only. */
  tenantBilling(tenantId: string, options?: RequestOptions): Promise<TenantBilling> {
    return this.#json<JsonOk<'tenantBilling'>>({
      method: 'GET',
      path: `/v1/commercial/tenants/${encodeURIComponent(tenantId)}/billing`,
      options,
      operator: true,
    });
  }

  // ---- proofs of control and the directory -----------------------------------------------

  /**
   * POST /v1/claims/challenges: a challenge to prove control of a DID by `signature` (a compact
   * JWS over `signature.payload` by a key under authentication), `well-known` (the token at
   * `wellKnown.url`) or `dns` (the token in a TXT record `dns.name`); purpose `list` also opts in
   * to the directory, `unlist` opts out. 201.
   */
  createClaimChallenge(body: ClaimChallengeRequest, options?: RequestOptions): Promise<ClaimChallenge> {
    return this.#json<JsonCreated<'createClaimChallenge'>>({ method: 'POST', path: '/v1/claims/challenges', body, options, ok: [201] });
  }

  /** POST /v1/claims/verify: submit a challenge's proof. A refused proof is a 200 with `verified: false` and a `refusal`, not an error. */
  verifyClaim(body: ClaimProofRequest, options?: RequestOptions): Promise<ClaimVerification> {
    return this.#json<JsonOk<'verifyClaim'>>({ method: 'POST', path: '/v1/claims/verify', body, options });
  }

  /** GET /v1/claims/{did}: the current claims (what each proves and does not), the latest lapsed ones, and whether the DID is listed. */
  listClaims(did: string, options?: RequestOptions): Promise<ClaimList> {
    return this.#json<JsonOk<'listClaims'>>({ method: 'GET', path: `/v1/claims/${encodeURIComponent(did)}`, options });
  }

  /** GET /v1/directory: one page of opted-in identifiers; pass `nextCursor` back (with the same q and method) for the next. */
  listDirectory(query: DirectoryOptions = {}): Promise<DirectoryPage> {
    return this.#json<JsonOk<'listDirectory'>>({
      method: 'GET',
      path: '/v1/directory',
      query: { q: query.q, method: query.method, limit: query.limit === undefined ? undefined : String(query.limit), cursor: query.cursor },
      options: query,
    });
  }

  // ---- owner sessions (baseUrl: the loopback cookie gateway) ------------------------------

  /** POST /sign-in/challenge: a challenge for `did` and the exact statement to sign (5 minutes, used once). */
  signInChallenge(did: string, options?: RequestOptions): Promise<SignInChallenge> {
    return this.#json<SignInChallenge>({ method: 'POST', path: '/sign-in/challenge', body: { did }, options, ok: [201], session: true });
  }

  /**
   * POST /sign-in: the compact JWS of the challenge's statement by a key the DID lists under
   * authentication → the owner, its projects and the session cookie's value (from Set-Cookie;
   * pass it as `sessionCookie` to a new client). Never retried: the challenge is used up.
   */
  async signIn(body: { did: string; challenge: string; jws: string }, options?: RequestOptions): Promise<SignedIn> {
    const call: Call = { method: 'POST', path: '/sign-in', body, options, session: true };
    const exchange = await this.#exchange(call);
    const text = await readText(exchange);
    const { res } = exchange;
    if (res.status !== 200) throw errorOf(res, text, 'POST /sign-in');
    const cookie = /^svc_session=([A-Za-z0-9_-]{43});/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    let info: unknown;
    try {
      info = JSON.parse(text);
    } catch (error) {
      throw SvcError.badResponse(200, 'POST /sign-in answered a body that is not JSON', undefined, error);
    }
    if (cookie === undefined || !isObject(info)) throw SvcError.badResponse(200, 'POST /sign-in answered no session cookie (is baseUrl the cookie gateway?)');
    return { ...(info as unknown as OwnerSessionInfo), sessionCookie: cookie };
  }

  /** POST /sign-out: ends the session (its cookie is cleared). */
  signOut(options?: RequestOptions): Promise<void> {
    return this.#empty({ method: 'POST', path: '/sign-out', options, ok: [204], session: true });
  }

  /** GET /session: the owner, its projects and the expiries; UNAUTHORIZED (401) without a live session. */
  session(options?: RequestOptions): Promise<OwnerSessionInfo> {
    return this.#json<OwnerSessionInfo>({ method: 'GET', path: '/session', options, session: true });
  }

  /** GET /v1/session/projects: the session owner's projects (through the gateway). */
  listOwnerProjects(options?: RequestOptions): Promise<JsonOk<'listOwnerProjects'>> {
    return this.#json<JsonOk<'listOwnerProjects'>>({ method: 'GET', path: '/v1/session/projects', options, session: true });
  }

  /** GET /v1/session/projects/{project}/keys: the project's keys (metadata, never a secret). */
  listProjectKeys(project: string, options?: RequestOptions): Promise<JsonOk<'sessionListKeys'>> {
    return this.#json<JsonOk<'sessionListKeys'>>({ method: 'GET', path: `/v1/session/projects/${encodeURIComponent(project)}/keys`, options, session: true });
  }

  /** POST /v1/session/projects/{project}/keys: issues a key; its secret is in this answer only. KEY_CAPACITY_EXHAUSTED (429) at the cap. */
  issueProjectKey(project: string, body: { label?: string } = {}, options?: RequestOptions): Promise<JsonCreated<'sessionIssueKey'>> {
    return this.#json<JsonCreated<'sessionIssueKey'>>({
      method: 'POST',
      path: `/v1/session/projects/${encodeURIComponent(project)}/keys`,
      body,
      options,
      ok: [201],
      session: true,
    });
  }

  /** DELETE /v1/session/projects/{project}/keys/{key}: revokes the key. */
  async revokeProjectKey(project: string, key: string, options?: RequestOptions): Promise<void> {
    const path = `/v1/session/projects/${encodeURIComponent(project)}/keys/${encodeURIComponent(key)}`;
    return this.#retrying(async () => {
      const exchange = await this.#exchange({ method: 'DELETE', path, options, session: true });
      const text = await readText(exchange);
      if (exchange.res.status === 204) return undefined;
      throw errorOf(exchange.res, text, `DELETE ${path}`);
    });
  }

  /** POST /v1/session/projects/{project}/keys/{key}/rotate: atomic rotation; the new secret is in this answer only. */
  rotateProjectKey(project: string, key: string, options?: RequestOptions): Promise<JsonCreated<'sessionRotateKey'>> {
    const path = `/v1/session/projects/${encodeURIComponent(project)}/keys/${encodeURIComponent(key)}/rotate`;
    return this.#json<JsonCreated<'sessionRotateKey'>>({ method: 'POST', path, body: {}, options, ok: [201], session: true });
  }

  /** GET /v1/session/projects/{project}/watches: the project's watches and whether the daemon runs the automatic worker. */
  listProjectWatches(project: string, options?: RequestOptions): Promise<JsonOk<'sessionListWatches'>> {
    return this.#json<JsonOk<'sessionListWatches'>>({ method: 'GET', path: `${projectPath(project)}/watches`, options, session: true });
  }

  /** POST /v1/session/projects/{project}/watches: watches a did:key, did:jwk or did:web (201; 200 when the project already watches it). */
  addProjectWatch(project: string, subject: string | ProjectWatchRequest, options?: RequestOptions): Promise<JsonCreated<'sessionCreateWatch'>> {
    return this.#json<JsonCreated<'sessionCreateWatch'>>({
      method: 'POST',
      path: `${projectPath(project)}/watches`,
      // A string is a DID; an object names the subject itself ({mcpEndpoint} or {a2aCard}, with an optional baseline).
      body: typeof subject === 'string' ? { did: subject } : subject,
      options,
      ok: [200, 201],
      session: true,
    });
  }

  /** DELETE /v1/session/projects/{project}/watches/{watch}: stops watching; queued deliveries are cancelled. */
  removeProjectWatch(project: string, watch: string, options?: RequestOptions): Promise<void> {
    return this.#empty({ method: 'DELETE', path: `${projectPath(project)}/watches/${encodeURIComponent(watch)}`, options, session: true });
  }

  /** GET …/watches/{watch}/events: every event of the last 30 days; MONITOR_REPORT_CAPACITY (409) above 200 — page them instead. */
  listWatchEvents(project: string, watch: string, options?: RequestOptions): Promise<JsonOk<'sessionListEvents'>> {
    return this.#json<JsonOk<'sessionListEvents'>>({
      method: 'GET',
      path: `${projectPath(project)}/watches/${encodeURIComponent(watch)}/events`,
      options,
      session: true,
    });
  }

  /** POST …/watches/{watch}/event-page: one page from a snapshot; pass `next` back (with a limit) for the following one. */
  watchEventPage(
    project: string,
    watch: string,
    body: { limit: number; asOf?: string; snapshotEventId?: string; beforeEventId?: string },
    options?: RequestOptions,
  ): Promise<JsonOk<'sessionEventPage'>> {
    return this.#json<JsonOk<'sessionEventPage'>>({
      method: 'POST',
      path: `${projectPath(project)}/watches/${encodeURIComponent(watch)}/event-page`,
      body,
      options,
      session: true,
    });
  }

  /** POST …/watches/{watch}/report: the complete 30-day report, or MONITOR_REPORT_CAPACITY (409); never partial. */
  watchReport(project: string, watch: string, options?: RequestOptions): Promise<JsonOk<'sessionWatchReport'>> {
    return this.#json<JsonOk<'sessionWatchReport'>>({
      method: 'POST',
      path: `${projectPath(project)}/watches/${encodeURIComponent(watch)}/report`,
      body: {},
      options,
      session: true,
    });
  }

  /** GET /v1/session/projects/{project}/webhook: the active configuration (never its secret) and whether the worker runs. */
  getProjectWebhook(project: string, options?: RequestOptions): Promise<JsonOk<'sessionGetWebhook'>> {
    return this.#json<JsonOk<'sessionGetWebhook'>>({ method: 'GET', path: `${projectPath(project)}/webhook`, options, session: true });
  }

  /** POST /v1/session/projects/{project}/webhook: sets (or replaces) the webhook; its signing secret is in this answer only. */
  setProjectWebhook(project: string, url: string, options?: RequestOptions): Promise<JsonCreated<'sessionSetWebhook'>> {
    return this.#json<JsonCreated<'sessionSetWebhook'>>({
      method: 'POST',
      path: `${projectPath(project)}/webhook`,
      body: { url },
      options,
      ok: [201],
      session: true,
    });
  }

  /** DELETE /v1/session/projects/{project}/webhook: disables it and cancels queued deliveries (idempotent). */
  disableProjectWebhook(project: string, options?: RequestOptions): Promise<void> {
    return this.#empty({ method: 'DELETE', path: `${projectPath(project)}/webhook`, options, session: true });
  }

  /** GET /v1/session/projects/{project}/webhook-deliveries: the newest 100 deliveries' metadata. */
  listWebhookDeliveries(project: string, options?: RequestOptions): Promise<JsonOk<'sessionListDeliveries'>> {
    return this.#json<JsonOk<'sessionListDeliveries'>>({ method: 'GET', path: `${projectPath(project)}/webhook-deliveries`, options, session: true });
  }

  /**
   * POST …/webhook-deliveries/{delivery}/replay: a DEAD_LETTER or CANCELLED delivery replayed to
   * the project's active webhook → 202 `{delivery}`; CONFLICT (409) names why not.
   */
  replayWebhookDelivery(project: string, delivery: string, options?: RequestOptions): Promise<JsonAccepted<'sessionReplayDelivery'>> {
    return this.#json<JsonAccepted<'sessionReplayDelivery'>>({
      method: 'POST',
      path: `${projectPath(project)}/webhook-deliveries/${encodeURIComponent(delivery)}/replay`,
      body: {},
      options,
      ok: [202],
      session: true,
    });
  }

  /** POST …/watches/{watch}/replay: the watch's dead letters since `since`, replayed to the active webhook → 202 `{replayed, count}`. */
  replayProjectWatch(project: string, watch: string, since: string, options?: RequestOptions): Promise<JsonAccepted<'sessionReplayWatch'>> {
    return this.#json<JsonAccepted<'sessionReplayWatch'>>({
      method: 'POST',
      path: `${projectPath(project)}/watches/${encodeURIComponent(watch)}/replay`,
      body: { since },
      options,
      ok: [202],
      session: true,
    });
  }

  /** GET /v1/session/scheduled-usage: per project, the monitor allowance, attempts used and skipped, the next due check. */
  scheduledUsage(options?: RequestOptions): Promise<JsonOk<'sessionScheduledUsage'>> {
    return this.#json<JsonOk<'sessionScheduledUsage'>>({ method: 'GET', path: '/v1/session/scheduled-usage', options, session: true });
  }

  // ---- transport -------------------------------------------------------------------------

  #retrying<T>(fn: () => Promise<T>): Promise<T> {
    return this.#retry === undefined ? fn() : withRetry(fn, this.#retry);
  }

  /**
   * The call as it is, or with `signed=true` in its query: then the answer's svc-signature is
   * checked over the body (the signer's key resolved by the client, never asked of the daemon).
   */
  #maybeSigned<T>(call: Call, options: { signed?: boolean } & VerifyResultOptions): Promise<T | Signed<T>> {
    if (options.signed !== true) return this.#json<T>(call);
    return this.#answer<T>({ ...call, query: { ...call.query, signed: true } }).then(async ({ body, res }) => {
      const jws = res.headers.get('svc-signature');
      const verify: VerifyResultOptions = {
        ...(options.expectedSigner !== undefined ? { expectedSigner: options.expectedSigner } : {}),
        ...(options.resolveKey !== undefined ? { resolveKey: options.resolveKey } : {}),
        ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
      };
      return { result: body, signature: await verifyResultSignature(body, jws, verify), jws };
    });
  }

  /** One call: the JSON object of a documented success, else a SvcError (retried per `retry`). */
  #json<T>(call: Call): Promise<T> {
    return this.#answer<T>(call).then(({ body }) => body);
  }

  /** One call: the JSON object of a documented success and its response, else a SvcError (retried per `retry`). */
  #answer<T>(call: Call): Promise<{ body: T; res: Response }> {
    return this.#retrying(async () => {
      const exchange = await this.#exchange(call);
      const text = await readText(exchange);
      const { res } = exchange;
      if (res.status === 303 && call.ok?.includes(303)) {
        // A redirect is a result, never followed: the client fetches nothing a DID document names.
        const location = res.headers.get('location');
        if (location === null) throw SvcError.badResponse(303, `${call.method} ${call.path} answered 303 without a Location`, retryAfterOf(res));
        return { body: { status: 303, location } as T, res };
      }
      if ((call.ok ?? [200]).includes(res.status)) {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch (error) {
          throw SvcError.badResponse(res.status, `${call.method} ${call.path} answered ${res.status} with a body that is not JSON`, retryAfterOf(res), error);
        }
        if (!isObject(body))
          throw SvcError.badResponse(res.status, `${call.method} ${call.path} answered ${res.status} with JSON that is not an object`, retryAfterOf(res));
        return { body: body as T, res };
      }
      throw errorOf(res, text, `${call.method} ${call.path}`);
    });
  }

  /** One call whose documented success has no body (204): undefined, else a SvcError. */
  #empty(call: Call): Promise<void> {
    return this.#retrying(async () => {
      const exchange = await this.#exchange(call);
      const text = await readText(exchange);
      if ((call.ok ?? [204]).includes(exchange.res.status)) return undefined;
      throw errorOf(exchange.res, text, `${call.method} ${call.path}`);
    });
  }

  /** One call whose documented success is text (the pages): the body, else a SvcError. */
  #text(call: Call): Promise<string> {
    return this.#retrying(async () => {
      const exchange = await this.#exchange(call);
      const text = await readText(exchange);
      if ((call.ok ?? [200]).includes(exchange.res.status)) return text;
      throw errorOf(exchange.res, text, `${call.method} ${call.path}`);
    });
  }

  /** The owner-session headers: the cookie (when the client has one) and the gateway origin. */
  #sessionHeaders(): Record<string, string> {
    const cookie = this.#options.sessionCookie;
    return { origin: this.#options.origin ?? new URL(this.baseUrl).origin, ...(cookie !== undefined ? { cookie: `svc_session=${cookie}` } : {}) };
  }

  /** Sends the request; a failure to get an answer is CLIENT_NETWORK_ERROR (a caller's abort: its reason). */
  async #exchange(call: Call): Promise<Exchange> {
    const url = this.baseUrl + call.path + queryString(call.query);
    // The operator token goes to the operator routes only (the public API is anonymous); a call's own headers still win.
    // The project key goes to the public routes only.
    const token = call.operator === true ? this.#options.adminToken : this.#options.projectKey;
    const headers: Record<string, string> = {
      accept: call.accept ?? 'application/json',
      ...lower(this.#options.headers),
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      ...(call.session === true ? this.#sessionHeaders() : {}),
      ...lower(call.options?.headers),
    };
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    const callerSignal = call.options?.signal;
    const timeout = this.#options.timeoutMs !== undefined ? AbortSignal.timeout(this.#options.timeoutMs) : undefined;
    const signal = anySignal([callerSignal, timeout]);
    const failure = (error: unknown): unknown => {
      if (callerSignal?.aborted) return callerSignal.reason;
      if (timeout?.aborted) return SvcError.network(`${call.method} ${call.path}: no complete answer within ${this.#options.timeoutMs} ms`, error);
      return SvcError.network(`${call.method} ${url}: ${messageOf(error)}`, error);
    };
    try {
      // redirect 'manual': svc's routes never redirect to another of its routes; a 303 (a service endpoint) is a result.
      const res = await this.#fetch(url, {
        method: call.method,
        headers,
        redirect: 'manual',
        ...(body !== undefined ? { body } : {}),
        ...(signal !== undefined ? { signal } : {}),
      });
      return { res, failure };
    } catch (error) {
      throw failure(error);
    }
  }
}

async function readText({ res, failure }: Exchange): Promise<string> {
  try {
    return await res.text();
  } catch (error) {
    throw failure(error);
  }
}

function retryAfterOf(res: Response): number | undefined {
  return parseRetryAfter(res.headers.get('retry-after'));
}

/** The SvcError of an answer that is not a success: its problem (problem+json, or embedded by /1.0), else CLIENT_BAD_RESPONSE. */
function errorOf(res: Response, text: string, what: string): SvcError {
  const retryAfter = retryAfterOf(res);
  const requestId = res.headers.get('x-request-id');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (isProblem(body)) return SvcError.fromProblem(body, res.status, retryAfter, requestId);
  const embedded = isObject(body) && isObject(body['didResolutionMetadata']) ? body['didResolutionMetadata']['error'] : undefined;
  if (isProblem(embedded)) return SvcError.fromProblem(embedded, res.status, retryAfter, requestId);
  return SvcError.badResponse(res.status, `${what} answered ${res.status} without a problem`, retryAfter, undefined, requestId);
}

function decide(authorization: unknown): DenyDecision {
  if (
    !isObject(authorization) ||
    (authorization['decision'] !== 'ALLOW' && authorization['decision'] !== 'DENY') ||
    typeof authorization['authorized'] !== 'boolean' ||
    typeof authorization['reason'] !== 'string'
  ) {
    return deny(SvcError.badResponse(200, 'the answer holds no authorization of the documented shape'));
  }
  const auth = authorization as unknown as Authorization;
  if (auth.decision === 'ALLOW' && auth.authorized === true) return { decision: 'ALLOW', authorized: true, reason: auth.reason, authorization: auth };
  if (auth.decision === 'DENY' && auth.authorized === false) return { decision: 'DENY', authorized: false, reason: auth.reason, authorization: auth };
  return deny(SvcError.badResponse(200, `the authorization contradicts itself (decision ${auth.decision}, authorized ${String(auth.authorized)})`));
}

/**
 * The DENY helpers fail closed on missing trust: `roots` (a non-empty list of DIDs, or one DID) or
 * `anyRoot === true`, not both; anything else is a TypeError (the caller's mistake, thrown before
 * any request, never an ALLOW).
 */
function requireRoots(helper: string, member: 'trustedRoots' | 'root', roots: unknown, anyRoot: unknown): void {
  const given = Array.isArray(roots) ? roots.length > 0 : roots !== undefined && roots !== null && roots !== '';
  if (anyRoot !== undefined && anyRoot !== true && anyRoot !== false) throw new TypeError(`${helper}: anyRoot must be true or false`);
  if (anyRoot === true && given) throw new TypeError(`${helper}: anyRoot and ${member} exclude each other: name the trusted roots, or accept any root`);
  if (anyRoot !== true && !given) {
    throw new TypeError(
      `${helper}: no trusted root was given; pass ${member} (${member === 'root' ? 'a DID' : 'one or more DIDs'}) or anyRoot: true — without one, any chain is accepted, even one the agent minted itself`,
    );
  }
}

function deny(error: unknown): DenyDecision {
  const err = error instanceof SvcError ? error : SvcError.network(`no decision: ${messageOf(error)}`, error);
  return { decision: 'DENY', authorized: false, reason: `${err.code}: ${err.detail}`, error: err };
}

function versionQuery(options: ResolveOptions): Call['query'] {
  return { noCache: options.noCache, versionId: options.versionId, versionTime: options.versionTime, versionNumber: options.versionNumber };
}

/** `?a=1&b=2` of the defined values (percent-encoded, a space as %20), '' when none. */
function queryString(query: Call['query']): string {
  if (query === undefined) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}

function anySignal(signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length <= 1) return present[0];
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(present);
  // Older browsers: one controller aborted by whichever comes first.
  const controller = new AbortController();
  for (const s of present) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message !== '' ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
