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

export const VC_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
export const VC_V1_CONTEXT = 'https://www.w3.org/2018/credentials/v1';

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

function readStamp(credential: JsonObject, name: string, problems: string[]): Date | null {
  const value = credential[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') {
    problems.push(`"${name}" is not a date-time string`);
    return null;
  }
  const date = parseDateTime(value);
  if (date === null) problems.push(`"${name}" (${JSON.stringify(value.slice(0, 40))}) is not a date-time with a time zone`);
  return date;
}

export function readDataModel(credential: JsonObject): ModelReading {
  const problems: string[] = [];
  const context = credential['@context'];
  const dataModel = dataModelOf(context);
  if (context === undefined) problems.push('it has no @context');
  else if (dataModel === 'unknown') problems.push(`its first @context is neither ${VC_V2_CONTEXT} (VC 2.0) nor ${VC_V1_CONTEXT} (VC 1.1)`);

  const rawType = credential['type'];
  const types = (Array.isArray(rawType) ? rawType : [rawType]).filter((t): t is string => typeof t === 'string');
  if (rawType === undefined) problems.push('it has no "type"');
  else if (types.length !== (Array.isArray(rawType) ? rawType.length : 1)) problems.push('its "type" holds something other than strings');
  else if (!types.includes('VerifiableCredential')) {
    if (types.includes('VerifiablePresentation')) {
      // A presentation is no broken credential: it is something else, reported as such alone.
      const unsupported = 'It is a verifiable presentation; svc verifies credentials, not presentations.';
      return { dataModel, issuer: null, subject: null, types, validFrom: null, validUntil: null, claims: null, problems: [], unsupported };
    }
    problems.push('its "type" does not include VerifiableCredential');
  }

  const issuer = idOf(credential['issuer']);
  if (credential['issuer'] === undefined) problems.push('it has no "issuer"');
  else if (issuer === null) problems.push('its "issuer" is neither a URL string nor an object with a string "id"');

  const rawSubject = credential['credentialSubject'];
  let claims: ModelReading['claims'] = null;
  let subject: string | null = null;
  if (rawSubject === undefined) problems.push('it has no "credentialSubject"');
  else if (isJsonObject(rawSubject)) {
    claims = rawSubject;
    subject = idOf(rawSubject);
  } else if (Array.isArray(rawSubject) && rawSubject.length > 0 && rawSubject.every(isJsonObject)) {
    claims = rawSubject as JsonObject[];
    subject = idOf(rawSubject[0]);
  } else problems.push('its "credentialSubject" is neither an object nor a non-empty array of objects');

  let validFrom: Date | null;
  let validUntil: Date | null;
  if (dataModel === '1.1') {
    validFrom = readStamp(credential, 'issuanceDate', problems);
    validUntil = readStamp(credential, 'expirationDate', problems);
    if (credential['issuanceDate'] === undefined) problems.push('a VC 1.1 credential must have an "issuanceDate"');
  } else {
    validFrom = readStamp(credential, 'validFrom', problems);
    validUntil = readStamp(credential, 'validUntil', problems);
  }
  return { dataModel, issuer, subject, types, validFrom, validUntil, claims, problems, unsupported: null };
}
