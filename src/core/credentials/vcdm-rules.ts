/**
 * The structural rules of the VC data model a verifier must enforce before any proof work
 * (docs/credentials.md#structure-rules): VC Data Model 2.0 §4.3–4.11, §5.3–5.6 and §11.1, and the
 * same rules of VC Data Model 1.1 (§4.1–4.9, §5.3–5.6) where 1.1 states them. Each broken rule
 * is one problem that names the rule and its section, so a MALFORMED `structure` check says
 * which MUST was broken; every broken rule is listed, not only the first.
 *
 * What this does not do: JSON-LD processing. A context that redefines a protected term, a type
 * that maps to no URL and `@vocab: null` are JSON-LD expansion errors svc, a JSON verifier of
 * JCS and JOSE proofs, does not detect. Related resources are not fetched (their digests'
 * shapes are checked; the resources are not).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../encoding/json.js';
import type { DataModel } from './types.js';

export const VC_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
export const VC_V1_CONTEXT = 'https://www.w3.org/2018/credentials/v1';

/** The rules checked here, each with its section in VC Data Model 2.0 and (where it states it) 1.1. */
export const VCDM_RULES = {
  context: { v2: '§4.3 Contexts', v1: '§4.1 Contexts' },
  id: { v2: '§4.4 Identifiers', v1: '§4.2 Identifiers' },
  type: { v2: '§4.5 Types', v1: '§4.3 Types' },
  names: { v2: '§4.6 Names and Descriptions', v1: null },
  issuer: { v2: '§4.7 Issuer', v1: '§4.5 Issuer' },
  credentialSubject: { v2: '§4.8 Credential Subject', v1: '§4.4 Credential Subject' },
  validity: { v2: '§4.9 Validity Period', v1: '§4.6 Issuance Date and §4.8 Expiration' },
  credentialStatus: { v2: '§4.10 Status', v1: '§4.9 Status' },
  credentialSchema: { v2: '§4.11 Data Schemas', v1: '§5.3 Data Schemas' },
  relatedResource: { v2: '§5.3 Integrity of Related Resources', v1: null },
  refreshService: { v2: '§5.4 Refreshing', v1: '§5.4 Refreshing' },
  termsOfUse: { v2: '§5.5 Terms of Use', v1: '§5.5 Terms of Use' },
  evidence: { v2: '§5.6 Evidence', v1: '§5.6 Evidence' },
  languageValue: { v2: '§11.1 Language and Base Direction', v1: null },
} as const;

export type VcdmRule = keyof typeof VCDM_RULES;

/**
 * An absolute URL as the data model uses the word (a scheme, a colon, then no white space or
 * control character): `https://…`, `did:…`, `urn:uuid:…`. Stricter than WHATWG's parser, which
 * trims surrounding white space and so would take `" https://x"`.
 */
const URL_SHAPE = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\u0000-\u001f\u007f]+$/;

export function isVcdmUrl(value: unknown): value is string {
  return typeof value === 'string' && URL_SHAPE.test(value);
}

/** A well-formed BCP 47 language tag, by its syntax (RFC 5646 §2.1): subtags of 1–8 alphanumerics, the first alphabetic. */
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
/** Subresource Integrity metadata: one or more `sha256|sha384|sha512-<base64>` separated by spaces. */
const SRI = /^sha(?:256|384|512)-[A-Za-z0-9+/]+={0,2}(?: +sha(?:256|384|512)-[A-Za-z0-9+/]+={0,2})*$/;

class Problems {
  readonly list: string[] = [];
  constructor(private readonly version: DataModel) {}

  /** True when the data model in use states `rule`. */
  states(rule: VcdmRule): boolean {
    return this.version === '1.1' ? VCDM_RULES[rule].v1 !== null : true;
  }

  add(rule: VcdmRule, text: string): void {
    const section = this.version === '1.1' ? VCDM_RULES[rule].v1 : VCDM_RULES[rule].v2;
    this.list.push(`${text} (VC Data Model ${this.version === '1.1' ? '1.1' : '2.0'} ${section ?? VCDM_RULES[rule].v2}, rule "${rule}")`);
  }
}

function show(value: JsonValue | undefined): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** One or more: a value or a non-empty array of them, as the data model writes sets. */
function oneOrMore(value: JsonValue): JsonValue[] | null {
  if (Array.isArray(value)) return value.length > 0 ? value : null;
  return [value];
}

function checkId(problems: Problems, what: string, value: JsonValue | undefined): void {
  if (value === undefined) return;
  if (Array.isArray(value)) problems.add('id', `${what} "id" is an array; an id must be a single URL`);
  else if (!isVcdmUrl(value)) problems.add('id', `${what} "id" ${show(value)} is not a URL`);
}

/** `type` is one or more strings (terms or URLs). */
function typeProblem(value: JsonValue | undefined): string | null {
  if (value === undefined) return 'has no "type"';
  const types = oneOrMore(value);
  if (types === null) return 'has an empty "type"';
  if (!types.every((t) => typeof t === 'string' && t.length > 0)) return `has a "type" ${show(value)} that is not one or more non-empty strings`;
  return null;
}

/**
 * A member that holds one or more typed objects (`credentialStatus`, `credentialSchema`,
 * `refreshService`, `termsOfUse`, `evidence`): each an object with a `type` and, when present
 * (required for `credentialSchema`), a URL `id`.
 */
function checkTypedObjects(
  problems: Problems,
  credential: JsonObject,
  name: 'credentialStatus' | 'credentialSchema' | 'refreshService' | 'termsOfUse' | 'evidence',
  idRequired: boolean,
): void {
  const value = credential[name];
  if (value === undefined) return;
  const items = oneOrMore(value);
  if (items === null) {
    problems.add(name, `"${name}" is an empty array; it must be one or more objects`);
    return;
  }
  items.forEach((item, index) => {
    const what = items.length === 1 && !Array.isArray(value) ? `"${name}"` : `"${name}"[${index}]`;
    if (!isJsonObject(item)) {
      problems.add(name, `${what} is ${show(item)}, not an object`);
      return;
    }
    const typeIssue = typeProblem(item['type']);
    if (typeIssue) problems.add(name, `${what} ${typeIssue}; each ${name} must state its type`);
    if (idRequired && item['id'] === undefined) problems.add(name, `${what} has no "id"; each ${name} must have a URL id`);
    else checkId(problems, what, item['id']);
  });
}

/** A language value object (§11.1): `@value` a string, optional `@language` and `@direction`, nothing else. */
function languageValueProblem(value: JsonObject): string | null {
  if (typeof value['@value'] !== 'string') return 'has no string "@value"';
  for (const key of Object.keys(value)) {
    if (key !== '@value' && key !== '@language' && key !== '@direction')
      return `has the member "${key.slice(0, 40)}"; only @value, @language and @direction are allowed`;
  }
  const language = value['@language'];
  if (language !== undefined && !(typeof language === 'string' && LANGUAGE_TAG.test(language)))
    return `has "@language" ${show(language)}, not a well-formed BCP 47 language tag`;
  const direction = value['@direction'];
  if (direction !== undefined && direction !== 'ltr' && direction !== 'rtl') return `has "@direction" ${show(direction)}; it must be "ltr" or "rtl"`;
  return null;
}

/** `name` or `description`: a string, a language value object, or one or more of them (one per language). */
function checkNameOrDescription(problems: Problems, what: string, value: JsonValue | undefined): void {
  if (value === undefined || typeof value === 'string') return;
  const items = oneOrMore(value);
  if (items === null) {
    problems.add('names', `${what} is an empty array`);
    return;
  }
  for (const item of items) {
    if (typeof item === 'string') continue;
    if (!isJsonObject(item)) {
      problems.add('names', `${what} is ${show(item)}; it must be a string or a language value object`);
      return;
    }
    const issue = languageValueProblem(item);
    if (issue) {
      problems.add('languageValue', `${what} is a language value object that ${issue}`);
      return;
    }
  }
}

function checkContext(problems: Problems, context: JsonValue | undefined, version: DataModel): void {
  if (context === undefined) {
    problems.add('context', 'it has no "@context"');
    return;
  }
  if (version === 'unknown') {
    problems.add(
      'context',
      `its first "@context" is ${show(Array.isArray(context) ? context[0] : context)}, neither ${VC_V2_CONTEXT} (VC 2.0) nor ${VC_V1_CONTEXT} (VC 1.1)`,
    );
  }
  if (!Array.isArray(context)) return;
  for (let index = 1; index < context.length; index++) {
    const item = context[index]!;
    if (isJsonObject(item) || isVcdmUrl(item)) continue;
    problems.add('context', `"@context"[${index}] is ${show(item)}; each context after the first must be a URL or an object`);
  }
}

function checkIssuer(problems: Problems, issuer: JsonValue | undefined): void {
  if (issuer === undefined) {
    problems.add('issuer', 'it has no "issuer"');
    return;
  }
  if (isJsonObject(issuer)) {
    if (issuer['id'] === undefined) problems.add('issuer', 'its "issuer" object has no "id"; the issuer must be a URL or an object with a URL id');
    else if (!isVcdmUrl(issuer['id'])) problems.add('issuer', `its "issuer" id ${show(issuer['id'])} is not a URL`);
    if (problems.states('names')) {
      checkNameOrDescription(problems, 'the issuer\'s "name"', issuer['name']);
      checkNameOrDescription(problems, 'the issuer\'s "description"', issuer['description']);
    }
    return;
  }
  if (!isVcdmUrl(issuer)) problems.add('issuer', `its "issuer" ${show(issuer)} is neither a URL nor an object with a URL id`);
}

function checkSubjects(problems: Problems, subject: JsonValue | undefined): void {
  if (subject === undefined) {
    problems.add('credentialSubject', 'it has no "credentialSubject"');
    return;
  }
  // One subject object, as most credentials have: checked without a list.
  if (isJsonObject(subject)) {
    checkSubject(problems, 'its "credentialSubject"', subject);
    return;
  }
  const items = oneOrMore(subject);
  if (items === null || !items.every(isJsonObject)) {
    problems.add('credentialSubject', 'its "credentialSubject" is neither an object nor a non-empty array of objects');
    return;
  }
  items.forEach((item, index) => checkSubject(problems, `its "credentialSubject"[${index}]`, item as JsonObject));
}

function checkSubject(problems: Problems, what: string, subject: JsonObject): void {
  if (!hasMembers(subject)) problems.add('credentialSubject', `${what} is empty; each subject must make at least one claim`);
  checkId(problems, what, subject['id']);
}

/** True when the object has an own enumerable member (Object.keys(object).length > 0, without the list). */
function hasMembers(object: JsonObject): boolean {
  for (const name in object) if (Object.hasOwn(object, name)) return true;
  return false;
}

function checkRelatedResources(problems: Problems, value: JsonValue | undefined): void {
  if (value === undefined) return;
  const items = oneOrMore(value);
  if (items === null) {
    problems.add('relatedResource', '"relatedResource" is an empty array; it must be one or more objects');
    return;
  }
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const what = `"relatedResource"[${index}]`;
    if (!isJsonObject(item)) {
      problems.add('relatedResource', `${what} is ${show(item)}, not an object`);
      return;
    }
    const id = item['id'];
    if (id === undefined) problems.add('relatedResource', `${what} has no "id"; each related resource must be identified by a URL`);
    else if (!isVcdmUrl(id)) problems.add('relatedResource', `${what} "id" ${show(id)} is not a URL`);
    else if (seen.has(id)) problems.add('relatedResource', `${what} repeats the id ${show(id)}; each related resource must be listed once`);
    else seen.add(id);
    const sri = item['digestSRI'];
    const multibase = item['digestMultibase'];
    if (sri === undefined && multibase === undefined) problems.add('relatedResource', `${what} has neither "digestSRI" nor "digestMultibase"`);
    if (sri !== undefined && !(typeof sri === 'string' && SRI.test(sri)))
      problems.add('relatedResource', `${what} "digestSRI" ${show(sri)} is not Subresource Integrity metadata (sha256-, sha384- or sha512-<base64>)`);
    if (multibase !== undefined && !(typeof multibase === 'string' && multibase.length > 1))
      problems.add('relatedResource', `${what} "digestMultibase" ${show(multibase)} is not a multibase string`);
    if (item['mediaType'] !== undefined && typeof item['mediaType'] !== 'string') problems.add('relatedResource', `${what} "mediaType" is not a string`);
  });
}

/**
 * Every structural rule `credential` breaks, each naming its rule, for data model `version`
 * (what its first @context says; rules of 2.0 are applied when it says neither). The
 * credential's `type` and validity dates are read, and their problems reported, by model.ts.
 */
export function structureProblems(credential: JsonObject, version: DataModel): string[] {
  const problems = new Problems(version);
  checkContext(problems, credential['@context'], version);
  checkId(problems, 'the credential', credential['id']);
  checkIssuer(problems, credential['issuer']);
  checkSubjects(problems, credential['credentialSubject']);
  if (problems.states('names')) {
    checkNameOrDescription(problems, 'the credential\'s "name"', credential['name']);
    checkNameOrDescription(problems, 'the credential\'s "description"', credential['description']);
  }
  checkTypedObjects(problems, credential, 'credentialStatus', false);
  checkTypedObjects(problems, credential, 'credentialSchema', true);
  checkTypedObjects(problems, credential, 'refreshService', false);
  checkTypedObjects(problems, credential, 'termsOfUse', false);
  checkTypedObjects(problems, credential, 'evidence', false);
  if (problems.states('relatedResource')) checkRelatedResources(problems, credential['relatedResource']);
  return problems.list;
}

/** Formats a problem of a rule that is not checked here (type, validity) the same way. */
export function ruleProblem(version: DataModel, rule: VcdmRule, text: string): string {
  const problems = new Problems(version);
  problems.add(rule, text);
  return problems.list[0]!;
}
