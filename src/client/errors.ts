/**
 * The one error class of the client (docs/clients.md#errors): a problem the daemon answered, or a
 * client-side failure with a client code (CLIENT_NETWORK_ERROR, CLIENT_BAD_RESPONSE; never one of
 * the daemon's codes). Logic uses `code`, never `title` or `detail`.
 */
import type { Problem, TraceStage } from './openapi.js';

/** The daemon could not be reached (refused, DNS, reset, the client's own timeoutMs). Status 0. */
export const CLIENT_NETWORK_ERROR = 'CLIENT_NETWORK_ERROR';
/** An answer that is not what openapi.json says (an error without a problem body, a 200 that is not JSON). */
export const CLIENT_BAD_RESPONSE = 'CLIENT_BAD_RESPONSE';

export type ClientErrorCode = typeof CLIENT_NETWORK_ERROR | typeof CLIENT_BAD_RESPONSE;

export class SvcError extends Error {
  /** The problem object as received; undefined for a client-side failure (nothing was received). */
  readonly problem: Problem | undefined;
  /** The problem's code (use it in logic), or a client code. */
  readonly code: string;
  /** The problem's status; the HTTP status for CLIENT_BAD_RESPONSE; 0 when no HTTP answer came. */
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  /** The stages up to the failing one, when the daemon attached them (resolve, SSE error frames). */
  readonly trace: TraceStage[] | undefined;
  /** Whole seconds from the response's Retry-After header; undefined when absent or unreadable. */
  readonly retryAfter: number | undefined;
  /**
   * The daemon's id of the request (the problem's `requestId`, else the X-Request-Id header);
   * undefined when no answer came. Quote it when reporting a problem: the operator finds the
   * request's access-log line by it.
   */
  readonly requestId: string | undefined;

  constructor(init: {
    code: string;
    status: number;
    title: string;
    detail: string;
    type: string;
    problem?: Problem | undefined;
    trace?: TraceStage[] | undefined;
    retryAfter?: number | undefined;
    requestId?: string | undefined;
    cause?: unknown;
  }) {
    super(`${init.code}: ${init.detail}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'SvcError';
    this.problem = init.problem;
    this.code = init.code;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.type = init.type;
    this.trace = init.trace;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
  }

  /** The error of a problem the daemon answered (`status` of the problem, else of the response). */
  static fromProblem(problem: Problem, httpStatus: number, retryAfter?: number, requestIdHeader?: string | null): SvcError {
    return new SvcError({
      code: problem.code,
      status: Number.isInteger(problem.status) ? problem.status : httpStatus,
      title: typeof problem.title === 'string' ? problem.title : '',
      detail: typeof problem.detail === 'string' ? problem.detail : '',
      type: typeof problem.type === 'string' ? problem.type : 'about:blank',
      problem,
      trace: Array.isArray(problem.trace) ? problem.trace : undefined,
      retryAfter,
      requestId: typeof problem.requestId === 'string' ? problem.requestId : (requestIdHeader ?? undefined),
    });
  }

  /** CLIENT_NETWORK_ERROR: no HTTP answer (status 0); the original error as `cause`. */
  static network(detail: string, cause: unknown): SvcError {
    return new SvcError({ code: CLIENT_NETWORK_ERROR, status: 0, title: 'The daemon could not be reached', detail, type: 'about:blank', cause });
  }

  /** CLIENT_BAD_RESPONSE: an answer that is not what the document says. */
  static badResponse(status: number, detail: string, retryAfter?: number, cause?: unknown, requestIdHeader?: string | null): SvcError {
    const requestId = requestIdHeader ?? undefined;
    return new SvcError({
      code: CLIENT_BAD_RESPONSE,
      status,
      title: 'Unexpected answer from the daemon',
      detail,
      type: 'about:blank',
      retryAfter,
      requestId,
      cause,
    });
  }
}

/** A problem object: at least a string `code` and an integer `status` (the rest is read leniently). */
export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return typeof v['code'] === 'string' && v['code'] !== '' && Number.isInteger(v['status']);
}
