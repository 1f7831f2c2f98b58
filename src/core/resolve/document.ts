/**
 * Reads what a DID document declares, for every method alike: contexts, verification methods
 * and the relationships that authorise them, services, its canonical hash, and the warnings a
 * careful reader would raise. Key material is validated separately (crypto.validate_keys).
 */
import { CanonicalizationError, HASH_PROFILE, jcsSha256 } from '../canonical.js';
import { KNOWN_CONTEXTS, DID_CONTEXTS, TYPE_CONTEXTS } from '../did/contexts.js';
import { parseDidUrl } from '../did/syntax.js';
import { ProblemError } from '../problems.js';
import { RELATIONSHIPS, type ContextEvidence, type DidDocument, type DocumentEvidence, type Relationship, type ServiceEvidence } from './types.js';

/** Most verification methods svc validates in one document; the rest are reported unvalidated. */
export const MAX_VERIFICATION_METHODS = 100;

export interface DeclaredMethod {
  /** Absolute DID URL of the method. */
  id: string;
  value: Record<string, unknown>;
  relationships: Relationship[];
}

export interface DocumentReading {
  evidence: DocumentEvidence;
  methods: DeclaredMethod[];
  services: ServiceEvidence[];
}

/**
 * The RFC 8785 hash of the document. A parsed document always has one (the strict parser reads
 * I-JSON only); one that does not is content svc cannot fingerprint, never an internal error.
 */
function documentHash(doc: DidDocument): string {
  try {
    return jcsSha256(doc);
  } catch (err) {
    if (err instanceof CanonicalizationError) throw new ProblemError('INVALID_DID_DOCUMENT', `The DID document has no RFC 8785 form: ${err.reason}.`);
    throw err;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves a method or service id against the document's DID (DID Core allows `#frag`). */
function absolute(id: string, did: string): string {
  return id.startsWith('#') ? `${did}${id}` : id;
}

function readContexts(doc: DidDocument, warnings: string[]): ContextEvidence[] {
  const raw = doc['@context'];
  if (raw === undefined) return [];
  const entries = Array.isArray(raw) ? raw : [raw];
  const contexts: ContextEvidence[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') contexts.push({ uri: entry, known: KNOWN_CONTEXTS.has(entry) });
    else if (isObject(entry)) {
      contexts.push({ uri: '(embedded context)', known: false });
      warnings.push('The @context embeds a JSON-LD context object; its terms were not checked.');
    } else warnings.push('The @context holds an entry that is neither a URI nor a context object.');
  }
  const first = entries[0];
  if (typeof first !== 'string' || !(DID_CONTEXTS as readonly string[]).includes(first)) {
    warnings.push('The first @context is not the DID Core context (https://www.w3.org/ns/did/v1).');
  }
  return contexts;
}

/**
 * Reads the document. Throws INVALID_DID_DOCUMENT only when it is not a DID document at all
 * (no string `id`); everything else a reader would object to becomes a warning.
 */
export function readDocument(did: string, doc: DidDocument): DocumentReading {
  if (!isObject(doc) || typeof doc.id !== 'string') {
    throw new ProblemError('INVALID_DID_DOCUMENT', 'The DID document has no string "id".');
  }
  const warnings: string[] = [];
  const contexts = readContexts(doc, warnings);
  const declaredContexts = new Set(contexts.map((c) => c.uri));
  const byId = new Map<string, DeclaredMethod>();
  const methods: DeclaredMethod[] = [];

  const declare = (value: unknown, where: string): DeclaredMethod | undefined => {
    if (!isObject(value)) {
      warnings.push(`${where} holds an entry that is neither a method reference nor a method object.`);
      return undefined;
    }
    if (typeof value['id'] !== 'string') {
      warnings.push(`${where} holds a verification method without a string "id".`);
      return undefined;
    }
    const id = absolute(value['id'], doc.id);
    if (byId.has(id)) {
      warnings.push(`The verification method ${id} is declared more than once.`);
      return byId.get(id);
    }
    try {
      const url = parseDidUrl(id);
      if (url.fragment === null) warnings.push(`The verification method id ${id} has no fragment.`);
      else if (url.did !== doc.id && value['controller'] === undefined) {
        warnings.push(`The verification method ${id} belongs to another DID and names no controller.`);
      }
    } catch {
      warnings.push(`The verification method id "${id}" is not a valid DID URL.`);
    }
    if (typeof value['controller'] !== 'string') warnings.push(`The verification method ${id} has no string "controller".`);
    const type = value['type'];
    if (typeof type !== 'string') warnings.push(`The verification method ${id} has no string "type".`);
    else if (contexts.length > 0 && TYPE_CONTEXTS[type] && !TYPE_CONTEXTS[type]!.some((c) => declaredContexts.has(c))) {
      warnings.push(`Undeclared JSON-LD context: type ${type} (${id}) needs ${TYPE_CONTEXTS[type]![0]} in @context.`);
    }
    const method: DeclaredMethod = { id, value, relationships: [] };
    byId.set(id, method);
    methods.push(method);
    return method;
  };

  const vmList = doc['verificationMethod'];
  if (vmList !== undefined) {
    if (!Array.isArray(vmList)) warnings.push('"verificationMethod" is not an array.');
    else for (const vm of vmList) declare(vm, '"verificationMethod"');
  }

  const relationships = Object.fromEntries(RELATIONSHIPS.map((r) => [r, [] as string[]])) as Record<Relationship, string[]>;
  for (const rel of RELATIONSHIPS) {
    const list = doc[rel];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      warnings.push(`"${rel}" is not an array.`);
      continue;
    }
    for (const entry of list) {
      let method: DeclaredMethod | undefined;
      if (typeof entry === 'string') {
        const id = absolute(entry, doc.id);
        method = byId.get(id);
        if (!method) {
          warnings.push(`"${rel}" refers to ${id}, which the document does not declare.`);
          relationships[rel].push(id);
          continue;
        }
      } else {
        method = declare(entry, `"${rel}"`);
      }
      if (!method) continue;
      if (!relationships[rel].includes(method.id)) relationships[rel].push(method.id);
      if (!method.relationships.includes(rel)) method.relationships.push(rel);
    }
  }

  const services: ServiceEvidence[] = [];
  const serviceList = doc['service'];
  if (serviceList !== undefined) {
    if (!Array.isArray(serviceList)) warnings.push('"service" is not an array.');
    else {
      const seen = new Set<string>();
      for (const s of serviceList) {
        if (!isObject(s) || typeof s['id'] !== 'string') {
          warnings.push('"service" holds an entry without a string "id".');
          continue;
        }
        const id = absolute(s['id'], doc.id);
        if (seen.has(id)) warnings.push(`The service ${id} is declared more than once.`);
        seen.add(id);
        const type = s['type'];
        services.push({
          id,
          type: typeof type === 'string' || (Array.isArray(type) && type.every((t) => typeof t === 'string')) ? (type as string | string[]) : null,
          serviceEndpoint: s['serviceEndpoint'] ?? null,
        });
      }
    }
  }

  return {
    evidence: {
      idMatches: doc.id === did,
      contexts,
      relationships,
      jcsSha256: documentHash(doc),
      hashProfile: HASH_PROFILE,
      warnings,
    },
    methods,
    services,
  };
}
