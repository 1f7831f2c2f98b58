/**
 * The RdfCanonicaliser of the core (core/proofs/canonicaliser.ts) over Digital Bazaar's `jsonld`
 * and `rdf-canonize`: JSON-LD to RDF in safe mode (a term no context defines is an error, never
 * dropped), then RDFC-1.0 to canonical N-Quads — as their eddsa-rdfc-2022 and ecdsa-rdfc-2019
 * cryptosuites do (base null, rdfDirection i18n-datatype). Contexts come from the pinned set
 * (contexts.ts) and the operator's own files, checked against their SHA-256; any other URL is
 * refused by the document loader, which never reaches the network. Loaded only by dynamic import
 * (loadRdfCanonicaliser in index.ts) when the operator opted in.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import jsonld from 'jsonld';
import * as rdfCanonize from 'rdf-canonize';
import {
  DEFAULT_RDFC_BOUNDS,
  RDFC_BOUND_NAMES,
  type RdfCanonicaliser,
  type RdfcBounds,
  type RdfcFailure,
  type RdfcResult,
} from '../core/proofs/canonicaliser.js';
import { PINNED_CONTEXTS } from './contexts.js';

/** A context the operator adds from a local file: used only when the file's SHA-256 is the one given. */
export interface LocalContext {
  url: string;
  path: string;
  sha256: string;
}

export class ContextFileError extends Error {}

/** What a JSON-LD document loader answers. */
interface RemoteDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
  tag: 'static';
}

export interface CanonicaliserOptions {
  /** More contexts, from the operator's files. */
  localContexts?: readonly LocalContext[];
  /** The default bounds of each canonicalisation (DEFAULT_RDFC_BOUNDS otherwise). */
  bounds?: Partial<RdfcBounds>;
  /** Called with each URL the document loader is asked for (tests count them). */
  onLoad?: (url: string) => void;
}

/** jsonld's internal context resolver: passed our own so no context is shared with other users of the package in the process. */
type ContextResolverClass = new (options: { sharedCache: { get(key: string): unknown; set(key: string, value: unknown): void } }) => unknown;
const requireHere = createRequire(import.meta.url);

/** A shared cache of resolved contexts that forgets everything past a few hundred entries (inline contexts are keyed by their text). */
class BoundedCache {
  readonly #map = new Map<string, unknown>();
  get(key: string): unknown {
    return this.#map.get(key);
  }
  set(key: string, value: unknown): void {
    if (this.#map.size >= 256) this.#map.clear();
    this.#map.set(key, value);
  }
}

/** Reads the operator's context files, each checked against its expected SHA-256. Throws ContextFileError naming the file. */
export function readLocalContexts(contexts: readonly LocalContext[]): Map<string, unknown> {
  const documents = new Map<string, unknown>();
  for (const { url, path, sha256 } of contexts) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw new ContextFileError(`the context file ${path} for ${url} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    const digest = createHash('sha256').update(bytes).digest('hex');
    if (digest !== sha256.toLowerCase()) throw new ContextFileError(`the context file ${path} for ${url} has SHA-256 ${digest}, not the expected ${sha256}`);
    try {
      documents.set(url, JSON.parse(bytes.toString('utf8')));
    } catch {
      throw new ContextFileError(`the context file ${path} for ${url} is not JSON`);
    }
  }
  return documents;
}

/**
 * The operator's context manifest (SVC_JSONLD_CONTEXTS): a JSON object from each context URL to
 * `{"path": "…", "sha256": "…"}`, paths relative to the manifest's folder. Throws ContextFileError.
 */
export function readContextManifest(path: string): LocalContext[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ContextFileError(`the JSON-LD context manifest ${path} ${code ? `cannot be read: ${code}` : 'is not JSON'}`);
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest))
    throw new ContextFileError(`the JSON-LD context manifest ${path} is not a JSON object of context URLs`);
  const contexts: LocalContext[] = [];
  for (const [url, entry] of Object.entries(manifest)) {
    const e = entry as { path?: unknown; sha256?: unknown } | null;
    if (!/^https?:\/\/\S+$/.test(url))
      throw new ContextFileError(`the JSON-LD context manifest ${path}: ${JSON.stringify(url.slice(0, 80))} is not an http(s) URL`);
    if (typeof e?.path !== 'string' || typeof e.sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(e.sha256))
      throw new ContextFileError(`the JSON-LD context manifest ${path}: ${url} needs a "path" and a hex "sha256"`);
    contexts.push({ url, path: resolve(dirname(path), e.path), sha256: e.sha256 });
  }
  return contexts;
}

/** Nesting of objects and arrays, stopping as soon as it passes `limit`. */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

class Refused extends Error {
  constructor(readonly url: string) {
    super(`the context ${url} is not pinned`);
  }
}

interface JsonLdErrorShape {
  name?: string;
  message?: string;
  details?: { code?: string; url?: string; cause?: unknown; event?: { code?: string; details?: Record<string, unknown> } };
}

/** The failure a jsonld or rdf-canonize error stands for. */
function failureOf(error: unknown, refused: string | null): RdfcFailure {
  if (refused !== null) return { kind: 'UNPINNED_CONTEXT', url: refused };
  const e = (error ?? {}) as JsonLdErrorShape;
  if (e.details?.cause instanceof Refused) return { kind: 'UNPINNED_CONTEXT', url: e.details.cause.url };
  const event = e.details?.event;
  if (e.name === 'jsonld.ValidationError' && event) {
    const details = event.details ?? {};
    const term = details['property'] ?? details['type'] ?? details['term'] ?? details['value'];
    if (typeof term === 'string') return { kind: 'UNDEFINED_TERM', term };
    return { kind: 'INVALID', reason: `${event.code ?? 'safe mode'}${details['id'] !== undefined ? ` (${JSON.stringify(details['id'])})` : ''}` };
  }
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (/maximum deep iterations|work factor/i.test(message)) return { kind: 'BOUND_EXCEEDED', bound: RDFC_BOUND_NAMES.work, limit: null };
  if (e.name === 'AbortError' || /abort/i.test(message)) return { kind: 'BOUND_EXCEEDED', bound: RDFC_BOUND_NAMES.maxMilliseconds, limit: null };
  const code = e.details?.code;
  return { kind: 'INVALID', reason: `${code ?? e.name ?? 'error'}: ${message.split('\n')[0]!.slice(0, 200)}` };
}

/** Builds the canonicaliser over the pinned set and the operator's contexts (read and checked now). */
export function createRdfCanonicaliser(options: CanonicaliserOptions = {}): RdfCanonicaliser {
  const documents = new Map<string, unknown>(PINNED_CONTEXTS.map((c) => [c.url, c.document]));
  for (const [url, document] of readLocalContexts(options.localContexts ?? [])) documents.set(url, document);
  const defaults: RdfcBounds = { ...DEFAULT_RDFC_BOUNDS, ...options.bounds };
  const ContextResolver = requireHere('jsonld/lib/ContextResolver.js') as ContextResolverClass;
  const sharedCache = new BoundedCache();
  const local = options.localContexts?.length ?? 0;
  const description = `RDFC-1.0 with svc's pinned JSON-LD context set (${PINNED_CONTEXTS.length} contexts${local > 0 ? `, ${local} added by the operator` : ''})`;

  const canonicalise = async (document: Record<string, unknown>, override?: Partial<RdfcBounds>): Promise<RdfcResult> => {
    const bounds: RdfcBounds = { ...defaults, ...override };
    const fail = (failure: RdfcFailure): RdfcResult => ({ ok: false, failure });
    let text: string;
    try {
      text = JSON.stringify(document);
    } catch {
      return fail({ kind: 'INVALID', reason: 'the document has no JSON form' });
    }
    if (Buffer.byteLength(text, 'utf8') > bounds.maxInputBytes)
      return fail({ kind: 'BOUND_EXCEEDED', bound: RDFC_BOUND_NAMES.maxInputBytes, limit: bounds.maxInputBytes });
    if (depthExceeds(document, bounds.maxDepth)) return fail({ kind: 'BOUND_EXCEEDED', bound: RDFC_BOUND_NAMES.maxDepth, limit: bounds.maxDepth });
    let refused: string | null = null;
    const documentLoader = async (url: string): Promise<RemoteDocument> => {
      options.onLoad?.(url);
      const found = documents.get(url);
      if (found === undefined) {
        refused ??= url;
        throw new Refused(url);
      }
      // tag 'static': the resolved context is kept in this canonicaliser's own cache (its set never changes).
      return { contextUrl: null, documentUrl: url, document: structuredClone(found), tag: 'static' };
    };
    const signal = AbortSignal.timeout(bounds.maxMilliseconds);
    const started = performance.now();
    try {
      const dataset = (await jsonld.toRDF(structuredClone(document), {
        documentLoader,
        safe: true,
        base: null,
        rdfDirection: 'i18n-datatype',
        produceGeneralizedRdf: false,
        contextResolver: new ContextResolver({ sharedCache }),
      })) as unknown[];
      if (performance.now() - started > bounds.maxMilliseconds)
        return fail({ kind: 'BOUND_EXCEEDED', bound: RDFC_BOUND_NAMES.maxMilliseconds, limit: bounds.maxMilliseconds });
      if (dataset.length > bounds.maxQuads) return fail({ kind: 'BOUND_EXCEEDED', bound: RDFC_BOUND_NAMES.maxQuads, limit: bounds.maxQuads });
      const nquads = (await rdfCanonize.canonize(dataset, {
        algorithm: 'RDFC-1.0',
        format: 'application/n-quads',
        maxWorkFactor: 1,
        signal,
      })) as string;
      return { ok: true, nquads };
    } catch (error) {
      const failure = failureOf(error, refused);
      if (failure.kind === 'BOUND_EXCEEDED' && failure.limit === null)
        return fail({ ...failure, limit: failure.bound === RDFC_BOUND_NAMES.maxMilliseconds ? bounds.maxMilliseconds : null });
      return fail(failure);
    }
  };

  return { description, contexts: [...documents.keys()], canonicalise };
}
