/**
 * Fetching an agent card through the Runtime's fetcher, which applies the egress
 * policy (https only, public addresses, at most 2 redirects, the size cap).
 *
 * - An origin (`https://agent.example`, path `/`) means its well-known card:
 *   `/.well-known/agent-card.json`, and when that answers 404 or 410, the legacy
 *   `/.well-known/agent.json` of A2A ≤ 0.2. Any other URL is taken as the card's own URL and
 *   fetched alone.
 * - Every request says `A2A-Version: 1.0`: an SDK with 0.3 compatibility answers a request
 *   without it with a 0.3-shaped card.
 * - No card (404/410 at every path tried, or any other 4xx) is NOT_FOUND; a 5xx is
 *   UPSTREAM_UNAVAILABLE; a body that is not a strict JSON object (not UTF-8, not JSON, a
 *   duplicate member, an array) is INVALID_DID_DOCUMENT. PAYLOAD_TOO_LARGE,
 *   EGRESS_BLOCKED and UPSTREAM_UNAVAILABLE from the fetcher pass through unchanged.
 */
import { isJsonObject, parseJsonBytes, type JsonObject } from '../encoding/json.js';
import type { FetchResponse } from '../net.js';
import { ProblemError } from '../problems.js';
import { StageReporter, type StageHooks } from '../resolve/trace.js';
import type { Runtime } from '../runtime.js';
import { describeResponse } from '../supplied/resources.js';
import { clause } from '../text.js';
import { A2A_CARD_MAX_BYTES, A2A_CARD_PATH, A2A_LEGACY_CARD_PATH, A2A_REQUESTED_VERSION, A2A_VERSION_HEADER } from './types.js';

export interface FetchedCard {
  /** The first URL requested (the well-known card of an origin, or the card URL given). */
  requestedUrl: string;
  /** True when the card came from the legacy `/.well-known/agent.json`. */
  legacy: boolean;
  /** The status that made svc try the legacy path (404 or 410), when it did. */
  currentPathStatus: number | null;
  response: FetchResponse;
  card: JsonObject;
}

/** Longest reason kept in a problem detail (a duplicate member's name is the card's text). */
const MAX_REASON = 200;

function shorten(text: string): string {
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}…` : text;
}

/** The URL svc fetches first, and whether it is an origin (so the legacy path may follow). */
export function cardTarget(input: string): { url: URL; origin: boolean } {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ProblemError('INVALID_REQUEST', 'The agent URL is not an absolute URL (expected e.g. https://agent.example).');
  }
  url.hash = '';
  if (url.pathname === '/' || url.pathname === '') {
    return { url: new URL(A2A_CARD_PATH, url.origin === 'null' ? url : url.origin), origin: true };
  }
  return { url, origin: false };
}

/** One GET of a card, an `a2a.fetch_card` stage for the caller's hooks (the CLI's progress). */
async function get(runtime: Runtime, url: string, signal?: AbortSignal, hooks?: StageHooks): Promise<FetchResponse> {
  return new StageReporter(runtime.clock, hooks, runtime.telemetry).run('a2a.fetch_card', `GET ${url}`, async (stage) => {
    const response = await runtime.net.fetch({
      url,
      purpose: 'agent card',
      maxBytes: A2A_CARD_MAX_BYTES,
      accept: 'application/json',
      headers: { [A2A_VERSION_HEADER]: A2A_REQUESTED_VERSION },
      ...(signal ? { signal } : {}),
    });
    stage.status = response.status >= 200 && response.status <= 299 ? 'PASS' : 'FAIL';
    stage.detail = describeResponse(response);
    return response;
  });
}

const isGone = (status: number) => status === 404 || status === 410;

function statusProblem(url: string, status: number, legacy: { url: string; status: number } | null): ProblemError {
  if (status >= 500) {
    return new ProblemError('UPSTREAM_UNAVAILABLE', `The agent's host answered HTTP ${status} for ${legacy?.url ?? url}.`);
  }
  const tried = legacy ? `${url} or at the legacy ${legacy.url} (HTTP ${legacy.status})` : url;
  return new ProblemError('NOT_FOUND', `No agent card at ${tried}${legacy ? '' : ` (HTTP ${status})`}.`);
}

/** Fetches and parses the card; every failure is a ProblemError (see the module comment). */
export async function fetchAgentCard(input: string, runtime: Runtime, signal?: AbortSignal, hooks?: StageHooks): Promise<FetchedCard> {
  const target = cardTarget(input);
  const requestedUrl = target.url.href;
  let response = await get(runtime, requestedUrl, signal, hooks);
  let legacy = false;
  let currentPathStatus: number | null = null;
  if (target.origin && isGone(response.status)) {
    currentPathStatus = response.status;
    const legacyUrl = new URL(A2A_LEGACY_CARD_PATH, target.url).href;
    response = await get(runtime, legacyUrl, signal, hooks);
    legacy = true;
    if (response.status < 200 || response.status > 299) {
      const problem =
        response.status >= 500
          ? statusProblem(legacyUrl, response.status, null)
          : statusProblem(requestedUrl, currentPathStatus, { url: legacyUrl, status: response.status });
      throw problem;
    }
  } else if (response.status < 200 || response.status > 299) {
    throw statusProblem(requestedUrl, response.status, null);
  }

  const parsed = parseJsonBytes(response.body, 'the agent card');
  if ('error' in parsed) {
    throw new ProblemError('INVALID_DID_DOCUMENT', `The resource at ${response.url} is no agent card: ${shorten(clause(parsed.error))}.`);
  }
  if (!isJsonObject(parsed.value)) {
    const kind = Array.isArray(parsed.value) ? 'an array' : parsed.value === null ? 'null' : `a ${typeof parsed.value}`;
    throw new ProblemError('INVALID_DID_DOCUMENT', `The resource at ${response.url} is no agent card: it is JSON ${kind}, not an object.`);
  }
  return { requestedUrl, legacy, currentPathStatus, response, card: parsed.value };
}
