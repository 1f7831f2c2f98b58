/**
 * Verify from files: what one supplied file stands in for, checked before anything runs. Each
 * kind maps its target (a DID, or a URL) to the URL svc would fetch — did:web → its did.json,
 * did:webvh → its did.jsonl and did-witness.json, a DID's origin → its
 * /.well-known/did-configuration.json, an agent origin → its agent-card.json — and refuses, with
 * a one-line reason naming the file, what could never stand in for it:
 *
 *   INVALID_OPTIONS       the kind does not fit the target (a DID document for a did:webvh, a
 *                         status list URL that is not https)
 *   PAYLOAD_TOO_LARGE     over the limit svc reads of that resource when it fetches it
 *   INVALID_DID_DOCUMENT  a document that is not a JSON object or is another DID's; a log that
 *                         is not JSON Lines text or is another DID's (its SCID); an agent card that
 *                         is not a JSON object — the code a fetched one gets
 *   INVALID_REQUEST       a witness file or DID configuration that is not JSON
 *
 * Nothing more is checked here: whatever the verification finds in the content is its result,
 * exactly as for a fetched resource (resources.ts injects the bytes at the fetch layer).
 */
import { A2A_CARD_MAX_BYTES } from '../a2a/types.js';
import { cardTarget } from '../a2a/fetch.js';
import { MAX_STATUS_LIST_BYTES } from '../credentials/status.js';
import { parseDid } from '../did/syntax.js';
import { decodeJsonText, isJsonObject, parseJsonBytes, parseJsonText, type JsonValue } from '../encoding/json.js';
import { DID_CONFIGURATION_MAX_BYTES } from '../linkage/check.js';
import { DID_DOCUMENT_MAX_BYTES, parseDocumentBytes } from '../methods/web.js';
import { didWebLocation, configurationUrl } from '../methods/web-location.js';
import { DID_WITNESS_MAX_BYTES } from '../methods/webvh.js';
import { unsupportedMethod } from '../webvh/parameters.js';
import { ProblemError } from '../problems.js';
import type { RuntimeConfig } from '../runtime.js';
import { clause, sentence } from '../text.js';
import { DEFAULT_WEBVH_MAX_BYTES, DEFAULT_WEBVH_MAX_ENTRIES, requireLogWithinEntries } from '../webvh/limits.js';
import { didWebvhLocation } from '../webvh/location.js';
import type { SuppliedResource } from './resources.js';

export const SUPPLIED_KINDS = ['didDocument', 'didLog', 'witnessFile', 'didConfiguration', 'statusList', 'agentCard'] as const;
export type SuppliedKind = (typeof SUPPLIED_KINDS)[number];

export interface SuppliedInput {
  kind: SuppliedKind;
  /**
   * What the file is for: the DID (didDocument: a did:web; didLog, witnessFile: a did:webvh;
   * didConfiguration: either), or a URL (statusList: the status list credential's URL;
   * agentCard: the agent's origin or its card's URL).
   */
  target: string;
  body: Uint8Array;
  /** Where the bytes came from, as results name it (a file name as given). */
  source: string;
}

type Limits = Pick<RuntimeConfig, 'webvhMaxBytes' | 'webvhMaxEntries'>;

/** What each kind is called, and the most svc reads of it (the limit of its fetch). */
const KINDS: Readonly<Record<SuppliedKind, { purpose: string; maxBytes: (config: Limits) => number; setting?: string }>> = {
  didDocument: { purpose: 'DID document', maxBytes: () => DID_DOCUMENT_MAX_BYTES },
  didLog: { purpose: 'DID log', maxBytes: (c) => c.webvhMaxBytes ?? DEFAULT_WEBVH_MAX_BYTES, setting: 'SVC_WEBVH_MAX_BYTES' },
  witnessFile: { purpose: 'witness file', maxBytes: () => DID_WITNESS_MAX_BYTES },
  didConfiguration: { purpose: 'DID configuration', maxBytes: () => DID_CONFIGURATION_MAX_BYTES },
  statusList: { purpose: 'status list', maxBytes: () => MAX_STATUS_LIST_BYTES },
  agentCard: { purpose: 'agent card', maxBytes: () => A2A_CARD_MAX_BYTES },
};

/** The most svc reads of a `kind` (a file larger than this can never stand in for it), and the setting that decides it. */
export function suppliedLimit(kind: SuppliedKind, config: Limits = {}): { maxBytes: number; setting: string | null; purpose: string } {
  const spec = KINDS[kind];
  return { maxBytes: spec.maxBytes(config), setting: spec.setting ?? null, purpose: spec.purpose };
}

/** PAYLOAD_TOO_LARGE for a file of `size` bytes over the limit of its kind (the fetch's own wording). */
export function suppliedTooLarge(kind: SuppliedKind, source: string, size: number, config: Limits = {}): ProblemError {
  const { maxBytes, setting, purpose } = suppliedLimit(kind, config);
  return new ProblemError(
    'PAYLOAD_TOO_LARGE',
    `The ${purpose} supplied from ${source} is ${size} bytes; the limit is ${maxBytes} bytes${setting ? ` (${setting})` : ''}.`,
  );
}

function methodOf(did: string, kind: SuppliedKind, source: string, allowed: readonly string[]): string {
  const parsed = parseDid(did);
  if (!allowed.includes(parsed.method)) {
    const instead =
      parsed.method === 'webvh' && kind === 'didDocument'
        ? '; a did:webvh is supplied as its log'
        : parsed.method === 'web' && kind === 'didLog'
          ? '; a did:web is supplied as its did.json'
          : '';
    const stands = allowed.map((m) => `did:${m}`).join(' or ');
    throw new ProblemError(
      'INVALID_OPTIONS',
      `${source} is supplied as a ${KINDS[kind].purpose}, which only a ${stands} has; ${did} is a did:${parsed.method}${instead}.`,
    );
  }
  return parsed.method;
}

function jsonOf(input: SuppliedInput, code: 'INVALID_DID_DOCUMENT' | 'INVALID_REQUEST'): JsonValue {
  const parsed = parseJsonBytes(input.body, input.source);
  if ('error' in parsed) throw new ProblemError(code, sentence(parsed.error));
  return parsed.value;
}

function requireObject(value: JsonValue, input: SuppliedInput, code: 'INVALID_DID_DOCUMENT' | 'INVALID_REQUEST'): void {
  if (!isJsonObject(value)) {
    throw new ProblemError(
      code,
      `${input.source} is not a ${KINDS[input.kind].purpose}: it is JSON ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}, not an object.`,
    );
  }
}

function httpsUrl(text: string, input: SuppliedInput): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProblemError('INVALID_OPTIONS', `The URL ${text.slice(0, 200)} given for ${input.source} is not an absolute URL.`);
  }
  if (url.protocol !== 'https:')
    throw new ProblemError('INVALID_OPTIONS', `The URL ${url.href.slice(0, 200)} given for ${input.source} is not https; svc fetches over HTTPS only.`);
  return url;
}

/** The first line of a did:webvh log: a JSON object whose parameters name the DID's SCID. */
function checkLogHead(text: string, scid: string, did: string, source: string): void {
  const end = text.indexOf('\n');
  const first = (end < 0 ? text : text.slice(0, end)).trim();
  const parsed = parseJsonText(first, `the first line of ${source}`);
  if ('error' in parsed) throw new ProblemError('INVALID_DID_DOCUMENT', `${source} is not a did:webvh log: ${clause(parsed.error)}.`);
  const entry = parsed.value;
  const parameters = isJsonObject(entry) ? entry['parameters'] : undefined;
  // A log of a specification version svc does not implement (a did:tdw log of JSON arrays too)
  // is no answer, as when it is served: not an invalid log.
  const named = Array.isArray(entry)
    ? entry.map((item) => (isJsonObject(item) && typeof item['method'] === 'string' ? item['method'] : null)).find((m) => m !== null)
    : unsupportedMethod(isJsonObject(parameters) ? parameters['method'] : undefined);
  if (typeof named === 'string') {
    throw new ProblemError(
      'FEATURE_NOT_SUPPORTED',
      `${source} follows ${named.slice(0, 60)}, a version of the did:webvh specification svc does not implement (it implements did:webvh:0.5 and did:webvh:1.0); nothing was found wrong with the log.`,
    );
  }
  const stated = isJsonObject(parameters) ? parameters['scid'] : undefined;
  if (typeof stated !== 'string')
    throw new ProblemError('INVALID_DID_DOCUMENT', `${source} is not a did:webvh log: its first entry states no parameters.scid.`);
  if (stated !== scid) throw new ProblemError('INVALID_DID_DOCUMENT', `${source} is the log of the SCID ${stated.slice(0, 60)}, not of ${did} (SCID ${scid}).`);
}

/**
 * The resource `input` supplies: the URL svc would fetch, its media type, and the bytes — or a
 * ProblemError naming the file (see the module comment). `config` gives the did:webvh log
 * bounds (SVC_WEBVH_MAX_BYTES / SVC_WEBVH_MAX_ENTRIES); defaults otherwise.
 */
export function supplyResource(input: SuppliedInput, config: Limits = {}): SuppliedResource {
  const { kind, target, body, source } = input;
  const { maxBytes, purpose } = suppliedLimit(kind, config);
  if (body.length > maxBytes) throw suppliedTooLarge(kind, source, body.length, config);
  const resource = (url: string, mediaType: string): SuppliedResource => ({ url, body, mediaType, source, purpose });

  switch (kind) {
    case 'didDocument': {
      methodOf(target, kind, source, ['web']);
      const location = didWebLocation(parseDid(target).id);
      const document = parseDocumentBytes(body, source);
      if (document.id !== target)
        throw new ProblemError('INVALID_DID_DOCUMENT', `${source} is the document of ${document.id.slice(0, 200)}, not of ${target}.`);
      return resource(location.documentUrl, 'application/did+json');
    }
    case 'didLog': {
      methodOf(target, kind, source, ['webvh']);
      const location = didWebvhLocation(parseDid(target).id);
      requireLogWithinEntries(body, config.webvhMaxEntries ?? DEFAULT_WEBVH_MAX_ENTRIES, source);
      const text = decodeJsonText(body, source);
      if (typeof text !== 'string') throw new ProblemError('INVALID_DID_DOCUMENT', sentence(text.error));
      checkLogHead(text, location.scid, target, source);
      return resource(location.logUrl, 'text/jsonl');
    }
    case 'witnessFile': {
      methodOf(target, kind, source, ['webvh']);
      const location = didWebvhLocation(parseDid(target).id);
      jsonOf(input, 'INVALID_REQUEST');
      return resource(location.witnessUrl, 'application/json');
    }
    case 'didConfiguration': {
      const method = methodOf(target, kind, source, ['web', 'webvh']);
      const id = parseDid(target).id;
      const origin = method === 'web' ? didWebLocation(id).origin : didWebvhLocation(id).origin;
      requireObject(jsonOf(input, 'INVALID_REQUEST'), input, 'INVALID_REQUEST');
      return resource(configurationUrl(origin), 'application/json');
    }
    case 'statusList': {
      const url = httpsUrl(target, input);
      url.hash = '';
      const first = body.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
      return resource(url.href, first === 0x7b ? 'application/json' : 'application/jwt');
    }
    case 'agentCard': {
      httpsUrl(target, input);
      requireObject(jsonOf(input, 'INVALID_DID_DOCUMENT'), input, 'INVALID_DID_DOCUMENT');
      return resource(cardTarget(target).url.href, 'application/json');
    }
  }
}

/**
 * The agent URL of a card given without one: the origin of its first interface (A2A 1.0
 * `supportedInterfaces[0].url`, or 0.3 `url`), whose well-known card it is taken to be; null
 * when the card names no https interface. A card cannot vouch for its own location: the result
 * says the URL came from the card.
 */
export function agentUrlOfCard(body: Uint8Array): string | null {
  const parsed = parseJsonBytes(body, 'the agent card');
  if ('error' in parsed || !isJsonObject(parsed.value)) return null;
  const card = parsed.value;
  const interfaces = card['supportedInterfaces'];
  const candidates: unknown[] = [];
  if (Array.isArray(interfaces)) for (const i of interfaces) if (isJsonObject(i)) candidates.push(i['url']);
  candidates.push(card['url']);
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'https:') return url.origin;
    } catch {
      // not a URL: the next one
    }
  }
  return null;
}
