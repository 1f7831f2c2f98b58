/**
 * JSON-LD processing for the opt-in verification of RDF-canonicalised credentials
 * (eddsa-rdfc-2022, ecdsa-rdfc-2019, Ed25519Signature2020): the only place svc imports `jsonld`
 * and `rdf-canonize`. Reached by dynamic import only (loadRdfCanonicaliser), from the runtime
 * and the shells, so a start without `--jsonld` or SVC_JSONLD=on never loads it.
 */
export {
  ContextFileError,
  createRdfCanonicaliser,
  readContextManifest,
  readLocalContexts,
  type CanonicaliserOptions,
  type LocalContext,
} from './canonicaliser.js';
export { PINNED_CONTEXTS, type PinnedContext } from './contexts.js';
