/**
 * The VC data model read from a credential object, whatever secures it: data model version
 * (2.0 by the `https://www.w3.org/ns/credentials/v2` context, 1.1 by
 * `https://www.w3.org/2018/credentials/v1`), issuer, subjects, types and the validity period
 * (`validFrom`/`validUntil` in 2.0, `issuanceDate`/`expirationDate` in 1.1). What makes the
 * object no credential at all is listed in `problems` (→ MALFORMED); a presentation is
 * `unsupported` (svc verifies credentials only).
 */
import { isJsonObject, type JsonObject } from '../encoding/json.js';
import { parseDateTime } from '../proofs/datetime.js';
import type { DataModel } from './types.js';
import { ruleProblem, structureProblems, VC_V1_CONTEXT, VC_V2_CONTEXT } from './vcdm-rules.js';

export { VC_V1_CONTEXT, VC_V2_CONTEXT };

export interface ModelReading {
  dataModel: DataModel;
  issuer: string | null;
  subject: string | null;
  types: string[];
  validFrom: Date | null;
  validUntil: Date | null;
  claims: Record<string, unknown> | Array<Record<string, unknown>> | null;
  /** Why this is not a well-formed credential (empty when it is). */
  problems: string[];
  /** Set when it is well formed but not something svc verifies (a presentation). */
  unsupported: string | null;
}

/** The id of an issuer or subject written as a string or as an object with an `id`. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isJsonObject(value) && typeof value['id'] === 'string') return value['id'];
  return null;
}

function dataModelOf(context: unknown): DataModel {
  const first = Array.isArray(context) ? context[0] : context;
  if (first === VC_V2_CONTEXT) return '2.0';
  if (first === VC_V1_CONTEXT) return '1.1';
  return 'unknown';
}

function readStamp(credential: JsonObject, name: string, problems: string[], dataModel: DataModel): Date | null {
  const value = credential[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') {
    problems.push(ruleProblem(dataModel, 'validity', `"${name}" is not a date-time string`));
    return null;
  }
  const date = parseDateTime(value);
  if (date === null) problems.push(ruleProblem(dataModel, 'validity', `"${name}" (${JSON.stringify(value.slice(0, 40))}) is not a date-time with a time zone`));
  return date;
}

export function readDataModel(credential: JsonObject): ModelReading {
  const problems: string[] = [];
  const dataModel = dataModelOf(credential['@context']);

  const rawType = credential['type'];
  const types = (Array.isArray(rawType) ? rawType : [rawType]).filter((t): t is string => typeof t === 'string');
  if (rawType === undefined) problems.push(ruleProblem(dataModel, 'type', 'it has no "type"'));
  else if (types.length !== (Array.isArray(rawType) ? rawType.length : 1))
    problems.push(ruleProblem(dataModel, 'type', 'its "type" holds something other than strings'));
  else if (!types.includes('VerifiableCredential')) {
    if (types.includes('VerifiablePresentation')) {
      // A presentation is no broken credential: it is something else, reported as such alone.
      const unsupported = 'It is a verifiable presentation, not a credential: verify it with svc verify-presentation or POST /v1/presentations/verify.';
      return { dataModel, issuer: null, subject: null, types, validFrom: null, validUntil: null, claims: null, problems: [], unsupported };
    }
    problems.push(ruleProblem(dataModel, 'type', 'its "type" does not include VerifiableCredential'));
  }
  problems.push(...structureProblems(credential, dataModel));

  const issuer = idOf(credential['issuer']);
  const rawSubject = credential['credentialSubject'];
  let claims: ModelReading['claims'] = null;
  let subject: string | null = null;
  if (isJsonObject(rawSubject)) {
    claims = rawSubject;
    subject = idOf(rawSubject);
  } else if (Array.isArray(rawSubject) && rawSubject.length > 0 && rawSubject.every(isJsonObject)) {
    claims = rawSubject as JsonObject[];
    subject = idOf(rawSubject[0]);
  }

  let validFrom: Date | null;
  let validUntil: Date | null;
  if (dataModel === '1.1') {
    validFrom = readStamp(credential, 'issuanceDate', problems, dataModel);
    validUntil = readStamp(credential, 'expirationDate', problems, dataModel);
    if (credential['issuanceDate'] === undefined) problems.push(ruleProblem(dataModel, 'validity', 'a VC 1.1 credential must have an "issuanceDate"'));
  } else {
    validFrom = readStamp(credential, 'validFrom', problems, dataModel);
    validUntil = readStamp(credential, 'validUntil', problems, dataModel);
    if (validFrom !== null && validUntil !== null && validFrom.getTime() > validUntil.getTime()) {
      problems.push(ruleProblem(dataModel, 'validity', '"validFrom" is later than "validUntil"; a validity period must not end before it starts'));
    }
  }
  return { dataModel, issuer, subject, types, validFrom, validUntil, claims, problems, unsupported: null };
}
