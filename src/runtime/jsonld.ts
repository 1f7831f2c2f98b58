/**
 * The opt-in JSON-LD processing (`--jsonld`, SVC_JSONLD=on; SVC_JSONLD_CONTEXTS adds the
 * operator's contexts): read from the environment and flags, and put on the Runtime as
 * `runtime.jsonld`. src/jsonld/ (and with it `jsonld` and `rdf-canonize`) is loaded by dynamic
 * import only when it is on, so a start without it reads none of it.
 */
import type { RdfCanonicaliser } from '../core/proofs/canonicaliser.js';
import type { Runtime } from '../core/runtime.js';
import { ConfigError } from './node.js';

export interface JsonLdSettings {
  enabled: boolean;
  /** SVC_JSONLD_CONTEXTS: the operator's context manifest, or null. */
  contextsFile: string | null;
}

/** SVC_JSONLD (on/off, default off) and SVC_JSONLD_CONTEXTS; `flag` (--jsonld) turns it on whatever the variable says. */
export function jsonLdSettings(env: NodeJS.ProcessEnv, flag = false): JsonLdSettings {
  const value = (env['SVC_JSONLD'] ?? '').trim().toLowerCase();
  if (!['', 'on', 'off', '1', '0', 'true', 'false'].includes(value))
    throw new ConfigError(`SVC_JSONLD must be on or off, not ${JSON.stringify(value.slice(0, 40))}`);
  const contextsFile = env['SVC_JSONLD_CONTEXTS']?.trim() || null;
  return { enabled: flag || value === 'on' || value === '1' || value === 'true', contextsFile };
}

/** The canonicaliser the settings ask for (undefined when off); a bad context manifest or file is a ConfigError. */
export async function loadRdfCanonicaliser(settings: JsonLdSettings): Promise<RdfCanonicaliser | undefined> {
  if (!settings.enabled) return undefined;
  const { createRdfCanonicaliser, readContextManifest, ContextFileError } = await import('../jsonld/index.js');
  try {
    const localContexts = settings.contextsFile === null ? [] : readContextManifest(settings.contextsFile);
    return createRdfCanonicaliser({ localContexts });
  } catch (error) {
    if (error instanceof ContextFileError) throw new ConfigError(`SVC_JSONLD_CONTEXTS: ${error.message}`);
    throw error;
  }
}

/** `runtime` with JSON-LD processing when the settings turn it on; the same Runtime otherwise. */
export async function withJsonLd(runtime: Runtime, settings: JsonLdSettings): Promise<Runtime> {
  const jsonld = await loadRdfCanonicaliser(settings);
  return jsonld === undefined ? runtime : { ...runtime, jsonld };
}
