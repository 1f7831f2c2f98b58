/**
 * One error class and one table (docs/reference/problems.md is generated from it). Nothing else
 * decides a status code.
 *
 * A ProblemError means *no answer could be produced*. A failed check is a result, never a
 * ProblemError.
 */
import type { TraceStage } from './resolve/stages.js';
import { sentence, truncate } from './text.js';

/** W3C DID namespace: the base of the type URI of W3C-defined codes. */
export const W3C_DID_NAMESPACE = 'https://www.w3.org/ns/did';
/** Default base of service-specific problem type URIs; operators may set their own. */
export const DEFAULT_PROBLEMS_BASE = 'urn:svc:problems';

interface ProblemSpec {
  readonly title: string;
  readonly w3c: boolean;
  /** Status on the native /v1 routes. */
  readonly status: number;
  /** Status on the W3C /1.0 binding; null where the code has no /1.0 use. */
  readonly w3cStatus: number | null;
}

export const PROBLEMS = {
  INVALID_DID: { title: 'Invalid DID', w3c: true, status: 400, w3cStatus: 400 },
  INVALID_DID_URL: { title: 'Invalid DID URL', w3c: true, status: 400, w3cStatus: 400 },
  INVALID_OPTIONS: { title: 'Invalid options', w3c: true, status: 400, w3cStatus: 400 },
  NOT_FOUND: { title: 'Not found', w3c: true, status: 404, w3cStatus: 404 },
  REPRESENTATION_NOT_SUPPORTED: { title: 'Representation not supported', w3c: true, status: 406, w3cStatus: 406 },
  METHOD_NOT_SUPPORTED: { title: 'DID method not supported', w3c: true, status: 501, w3cStatus: 501 },
  FEATURE_NOT_SUPPORTED: { title: 'Feature not supported', w3c: true, status: 501, w3cStatus: 501 },
  INVALID_DID_DOCUMENT: { title: 'Invalid DID document', w3c: true, status: 422, w3cStatus: 500 },
  INTERNAL_ERROR: { title: 'Internal error', w3c: true, status: 500, w3cStatus: 500 },
  EGRESS_BLOCKED: { title: 'Egress blocked', w3c: false, status: 403, w3cStatus: 500 },
  UPSTREAM_UNAVAILABLE: { title: 'Upstream unavailable', w3c: false, status: 502, w3cStatus: 500 },
  INVALID_REQUEST: { title: 'Invalid request', w3c: false, status: 400, w3cStatus: null },
  PAYLOAD_TOO_LARGE: { title: 'Payload too large', w3c: false, status: 413, w3cStatus: null },
  UNAUTHORIZED: { title: 'Unauthorized', w3c: false, status: 401, w3cStatus: null },
  RATE_LIMITED: { title: 'Rate limited', w3c: false, status: 429, w3cStatus: 429 },
  METHOD_NOT_ALLOWED: { title: 'Method not allowed', w3c: false, status: 405, w3cStatus: null },
  CAPACITY_EXHAUSTED: { title: 'Capacity exhausted', w3c: false, status: 503, w3cStatus: 503 },
  SERVICE_UNAVAILABLE: { title: 'Service unavailable', w3c: false, status: 503, w3cStatus: 503 },
  NOT_READY: { title: 'Not ready', w3c: false, status: 503, w3cStatus: null },
  KEY_CAPACITY_EXHAUSTED: { title: 'Key capacity exhausted', w3c: false, status: 429, w3cStatus: null },
  MONITOR_REPORT_CAPACITY: { title: 'Monitor report capacity exceeded', w3c: false, status: 409, w3cStatus: null },
  // The operator routes answer 501 when monitoring is not configured; the code is svc's own.
  MONITORING_DISABLED: { title: 'Monitoring not enabled', w3c: false, status: 501, w3cStatus: null },
  // The commercial routes with the mode off: 501 like MONITORING_DISABLED; svc's own code.
  COMMERCIAL_DISABLED: { title: 'Commercial mode not enabled', w3c: false, status: 501, w3cStatus: null },
  // The cookie gateway refuses a write without the configured Origin, and a sign-in by a DID that owns no project: svc's own code.
  FORBIDDEN: { title: 'Forbidden', w3c: false, status: 403, w3cStatus: null },
  // The 501st watch is refused with a 429, like KEY_CAPACITY_EXHAUSTED for keys; svc's own code.
  WATCH_CAPACITY_EXHAUSTED: { title: 'Watch capacity exhausted', w3c: false, status: 429, w3cStatus: null },
  // A request running over the time limit (45 s) ends with 408; the code is svc's own.
  REQUEST_TIMEOUT: { title: 'Request timeout', w3c: false, status: 408, w3cStatus: null },
  INVALID_BUNDLE: { title: 'Invalid evidence bundle', w3c: false, status: 422, w3cStatus: null },
  // A replay of an event that is not dead-lettered or cancelled, or to a webhook that is disabled: svc's own code.
  CONFLICT: { title: 'Conflict', w3c: false, status: 409, w3cStatus: null },
} as const satisfies Record<string, ProblemSpec>;

export type ProblemCode = keyof typeof PROBLEMS;

export function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === 'string' && Object.hasOwn(PROBLEMS, value);
}

/** RFC 9457 problem object as served. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  trace?: TraceStage[];
  retryAfter?: number;
  /** The daemon's id of the request answered (set by the server, not by the core). */
  requestId?: string;
}

export interface ProblemOptions {
  trace?: TraceStage[];
  retryAfter?: number;
  cause?: unknown;
  /** What would fix it, when the thrower knows (PROBLEM_HINTS words it). */
  hint?: ProblemHint;
}

/** The one error class of svc: a stable `code` callers switch on, plus a human `detail`. */
export class ProblemError extends Error {
  readonly code: ProblemCode;
  /** What went wrong, without the hint (the trace's failing stage carries this). */
  readonly detail: string;
  trace?: TraceStage[];
  readonly retryAfter?: number;
  /** What would fix it; set by the thrower, or later by a caller that knows better (a did:web's colon port). */
  hint?: ProblemHint;

  constructor(code: ProblemCode, detail: string, options: ProblemOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProblemError';
    this.code = code;
    this.detail = detail;
    if (options.trace) this.trace = options.trace;
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
    if (options.hint) this.hint = options.hint;
  }

  get status(): number {
    return PROBLEMS[this.code].status;
  }

  /** Status on the W3C `/1.0` binding (docs/reference/problems.md lists both). */
  get w3cStatus(): number | null {
    return PROBLEMS[this.code].w3cStatus;
  }

  toProblem(problemsBase: string = DEFAULT_PROBLEMS_BASE): Problem {
    return toProblem(this, problemsBase);
  }
}

export function problemType(code: ProblemCode, problemsBase: string = DEFAULT_PROBLEMS_BASE): string {
  return `${PROBLEMS[code].w3c ? W3C_DID_NAMESPACE : problemsBase}#${code}`;
}

export function toProblem(err: ProblemError, problemsBase: string = DEFAULT_PROBLEMS_BASE): Problem {
  const spec = PROBLEMS[err.code];
  const problem: Problem = {
    type: problemType(err.code, problemsBase),
    title: spec.title,
    status: spec.status,
    // The hint, where there is one, ends the detail: an API client reads the fix where a person would.
    detail: err.hint ? `${err.detail} ${hintSentence(err.hint)}` : err.detail,
    code: err.code,
  };
  if (err.trace) problem.trace = err.trace;
  if (err.retryAfter !== undefined) problem.retryAfter = err.retryAfter;
  return problem;
}

/**
 * The problem of work abandoned because nobody waits for its answer any more (a client that
 * disconnected, a request past its time limit). The caller that aborted decides what, if
 * anything, the client sees; this detail only reaches logs and traces.
 */
export function cancelledProblem(): ProblemError {
  return new ProblemError('SERVICE_UNAVAILABLE', 'The work was cancelled before an answer was produced.');
}

/**
 * Turn anything thrown into a ProblemError. Unknown errors become INTERNAL_ERROR with a
 * generic detail: their messages may carry attacker-controlled text and are never classified.
 */
export function asProblemError(err: unknown): ProblemError {
  if (err instanceof ProblemError) return err;
  return new ProblemError('INTERNAL_ERROR', 'An internal error prevented an answer.', { cause: err });
}

/**
 * What each code means and what to do about it, in plain words (the handling column of the
 * error table): the web dossier's problem pages read it, so a person who hit a problem learns
 * whether to fix the request, wait or give up — and that no answer is a verdict about the DID.
 */
export const PROBLEM_GUIDE: Readonly<Record<ProblemCode, { meaning: string; handling: string }>> = {
  INVALID_DID: {
    meaning: 'The text is not valid DID syntax.',
    handling: 'Check that it reads did:<method>:<id>, e.g. did:web:example.com; a port in a did:web is written %3A.',
  },
  INVALID_DID_URL: { meaning: 'The DID URL is malformed.', handling: 'Check the DID URL; write a # as %23.' },
  INVALID_OPTIONS: {
    meaning: 'An option of the request is unknown or has a value it cannot take.',
    handling: 'Check the options; the same request fails again as it is.',
  },
  NOT_FOUND: {
    meaning: 'The document or resource is absent (for did:web, /.well-known/did.json or the path’s did.json over HTTPS).',
    handling: 'Check the identifier and that its host publishes the document.',
  },
  REPRESENTATION_NOT_SUPPORTED: { meaning: 'The representation asked for in Accept is not offered.', handling: 'Ask for text/html or application/json.' },
  METHOD_NOT_SUPPORTED: {
    meaning: 'The DID method is not one svc resolves (did:key, did:jwk, did:web, did:webvh).',
    handling: 'Use a supported method; this is no verdict about the identifier.',
  },
  FEATURE_NOT_SUPPORTED: {
    meaning:
      'The request uses a feature svc does not support, such as a DID URL path, or a did:webvh log follows a version of its specification svc does not implement (the detail names it; svc implements did:webvh:0.5 and 1.0): no verdict about the identifier.',
    handling: 'Leave the feature out of the request; for a did:webvh version, resolve it with a resolver that implements that version.',
  },
  INVALID_DID_DOCUMENT: {
    meaning: 'The document was fetched but is not a valid DID document (not JSON, or its id is another DID).',
    handling: 'The identifier’s host must publish a valid document; retrying does not help until it does.',
  },
  INTERNAL_ERROR: { meaning: 'svc failed to produce an answer.', handling: 'Retry later; if it persists, report it to the operator.' },
  EGRESS_BLOCKED: {
    meaning: 'The identifier’s host resolves to a non-public address, which svc does not contact.',
    handling: 'Not retryable; an operator may allow private ranges explicitly.',
  },
  UPSTREAM_UNAVAILABLE: {
    meaning:
      'The identifier’s own host, or the MCP or A2A server inspected, failed, timed out (DNS, TLS or HTTP) or did not answer as its protocol requires; this is no verdict about the identifier.',
    handling: 'Retry later.',
  },
  INVALID_REQUEST: { meaning: 'The request or its body is invalid.', handling: 'Fix the request; the same request fails again.' },
  PAYLOAD_TOO_LARGE: { meaning: 'A body or a fetched resource is larger than its limit.', handling: 'Send or publish less.' },
  UNAUTHORIZED: { meaning: 'The request lacks valid credentials.', handling: 'Authenticate, then retry.' },
  MONITORING_DISABLED: {
    meaning: 'Operator monitoring is not enabled on this daemon: it needs the direct profile and SVC_ADMIN_TOKEN of at least 24 characters.',
    handling: 'Not retryable; the operator enables it and restarts the daemon.',
  },
  COMMERCIAL_DISABLED: {
    meaning:
      'The opt-in commercial mode (owner accounts, project keys) is not enabled on this daemon: it needs the direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on and SVC_COMMERCIAL_ORIGIN.',
    handling: 'Not retryable; the operator enables it and restarts the daemon.',
  },
  FORBIDDEN: {
    meaning:
      'The request is understood but not allowed: a write through the cookie gateway without its configured Origin, or a sign-in by a DID that owns no project.',
    handling: 'Not retryable as it is; send the request from the gateway origin, or ask the operator to attach the DID as an owner.',
  },
  WATCH_CAPACITY_EXHAUSTED: { meaning: 'The daemon holds as many watches as it keeps (500).', handling: 'Delete a watch, then register again.' },
  RATE_LIMITED: { meaning: 'Your budget of requests is used up for now.', handling: 'Wait for the time given in Retry-After, then retry.' },
  METHOD_NOT_ALLOWED: { meaning: 'This address does not take that HTTP method.', handling: 'Use the method listed in Allow.' },
  CAPACITY_EXHAUSTED: {
    meaning: 'The whole service is busy; your own budget is not the cause.',
    handling: 'Retry after Retry-After, with backoff and jitter.',
  },
  SERVICE_UNAVAILABLE: { meaning: 'The service is briefly unavailable, e.g. restarting.', handling: 'Retry shortly.' },
  NOT_READY: { meaning: 'The daemon is not ready to serve everything yet.', handling: 'See /ready for the reason; retry later.' },
  KEY_CAPACITY_EXHAUSTED: { meaning: 'No more keys can be issued for now.', handling: 'Revoke unused keys, then retry.' },
  MONITOR_REPORT_CAPACITY: { meaning: 'The report would be larger than its limit.', handling: 'Ask for a narrower report.' },
  REQUEST_TIMEOUT: { meaning: 'The request ran past its time limit; no answer was produced.', handling: 'Retry later; the host may be slow.' },
  CONFLICT: {
    meaning: 'The resource is not in a state that allows this action (an event still being delivered cannot be replayed; a disabled webhook takes no replay).',
    handling: 'Not retryable as it is; the detail names the state and what to change first.',
  },
  INVALID_BUNDLE: {
    meaning: 'The file is not an evidence bundle svc can read: not its format, damaged, or written by a newer svc.',
    handling: 'Check that the file is a whole svc evidence bundle; one from a newer svc needs that version to verify it.',
  },
};

/**
 * Hints that name the fix, for the problems where svc knows it
 * (docs/cli.md#hints-that-name-the-fix): the thrower records which case it is and its particulars
 * (ProblemHint, no text), and this table words it once — the terminal's `hint:` line, the web
 * problem page's "What to do" and the end of the problem's `detail` all read it here. Where a
 * problem has no hint, PROBLEM_GUIDE's handling stands.
 */
export type ProblemHint =
  /** EGRESS_BLOCKED by an address an operator may allow (loopback, private, unique local, CGNAT): the exact CIDR. */
  | { kind: 'egress-allow'; cidr: string }
  /** A TLS chain that ends in an authority Node does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE …). */
  | { kind: 'extra-ca' }
  /** DNS has no such host (ENOTFOUND): not something a retry fixes. */
  | { kind: 'host-name'; host: string }
  /** A did:web or did:webvh whose first path segment looks like a port written with a colon: the %3A form. */
  | { kind: 'did-web-port'; method: string; port: string; suggested: string }
  /** An MCP endpoint URL that reached something other than an MCP server (404, a page, another API). */
  | { kind: 'mcp-endpoint' };

type HintWording = { readonly [K in ProblemHint['kind']]: (hint: Extract<ProblemHint, { kind: K }>) => string };

/** Each hint as a clause (lower case, no final period): the terminal's `hint:` line. */
export const PROBLEM_HINTS: HintWording = {
  'egress-allow': ({ cidr }) =>
    `to fetch from it, allow this one address with --egress-allow ${cidr} (or SVC_EGRESS_ALLOW=${cidr}) — an operator relaxation of the egress policy, which blocks non-public addresses by default`,
  'extra-ca': () =>
    "if you trust the authority that issued the host's certificate, give its PEM file to Node as NODE_EXTRA_CA_CERTS=<file> (read when svc starts); svc never turns certificate checks off",
  'host-name': ({ host }) => `check the host name ${truncate(host, 120)}: DNS knows no such host, so retrying will not help until it exists`,
  'did-web-port': ({ method, port, suggested }) =>
    `a port in a did:${method} is written %3A, not with a colon: if ${port} is a port, the DID is ${truncate(suggested, 200)}`,
  'mcp-endpoint': () =>
    "check the endpoint URL: something answered there, but not an MCP server — a Streamable HTTP endpoint is the server's MCP path (often /mcp), not its home page or API; retrying will not help",
};

/**
 * The problems each hint comes with, as its throwers give it (src/net/fetch.ts: egress-allow,
 * host-name, extra-ca; src/core/methods/web-fetch.ts: did-web-port on any of HINTED;
 * src/core/mcp/client.ts: mcp-endpoint). docs/reference/problems.md lists the hints by code from it.
 */
export const PROBLEM_HINT_CODES: { readonly [K in ProblemHint['kind']]: readonly ProblemCode[] } = {
  'egress-allow': ['EGRESS_BLOCKED'],
  'extra-ca': ['UPSTREAM_UNAVAILABLE'],
  'host-name': ['UPSTREAM_UNAVAILABLE'],
  'did-web-port': ['EGRESS_BLOCKED', 'UPSTREAM_UNAVAILABLE', 'NOT_FOUND'],
  'mcp-endpoint': ['NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
};

/** The hint as the terminal's `hint:` line says it. */
export function hintText(hint: ProblemHint): string {
  return (PROBLEM_HINTS[hint.kind] as (h: ProblemHint) => string)(hint);
}

/** The hint as a sentence: the web problem page's "What to do" and the end of the problem's detail. */
export function hintSentence(hint: ProblemHint): string {
  return sentence(hintText(hint));
}
