/**
 * The A2A card schemas as data, and one validator over them.
 *
 * - A2A 1.0 (`lf.a2a.v1.AgentCard` of a2a.proto v1.0.x, the version @a2a-js/sdk 1.3.0 builds
 *   on): the JSON (camelCase) name of every field, its proto3 kind, `REQUIRED` field
 *   behaviour and proto3 `optional` (explicit presence). The same table drives the A2A 1.0
 *   canonicalisation (canonical.ts), so the validator and the signature payload can never
 *   disagree about which members the schema has.
 * - A2A 0.3 (the v0.3.0 JSON schema): required members and member types, no canonical form
 *   (0.3 defines none).
 *
 * Validation is about JSON types and required members. It accepts members the schema does not
 * name (A2A clients ignore them) and lists them separately: they are not covered by an
 * a2a-1.0 signature.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../encoding/json.js';

export type FieldKind =
  | 'string'
  | 'bool'
  | 'message'
  | 'repeated-string'
  | 'repeated-message'
  | 'map-string'
  | 'map-message'
  /** google.protobuf.Struct: any JSON object, kept as written. */
  | 'struct'
  /** 0.3 only: an array of anything (OpenAPI-style `security`). */
  | 'array';

export interface FieldSpec {
  /** The JSON (lowerCamelCase) name. */
  readonly json: string;
  readonly kind: FieldKind;
  /** The message type of `message`, `repeated-message` and `map-message` fields. */
  readonly message?: string;
  /** `(google.api.field_behavior) = REQUIRED`. */
  readonly required?: boolean;
  /** proto3 `optional`: explicit presence, so a set default value (false) is kept. */
  readonly optional?: boolean;
  /** Validation only: the array must not be empty. */
  readonly nonEmpty?: boolean;
}

export interface MessageSpec {
  readonly fields: readonly FieldSpec[];
  /** A proto3 `oneof` of message-typed cases, in declaration order (at most one may be set). */
  readonly oneof?: readonly FieldSpec[];
  /** Members outside `fields` are part of the message (0.3 OpenAPI security schemes). */
  readonly open?: boolean;
}

export type Schema = Readonly<Record<string, MessageSpec>>;

const s = (json: string, more: Partial<FieldSpec> = {}): FieldSpec => ({ json, kind: 'string', ...more });
const req = (json: string): FieldSpec => s(json, { required: true });
const f = (json: string, kind: FieldKind, more: Partial<FieldSpec> = {}): FieldSpec => ({ json, kind, ...more });
const m = (json: string, message: string, more: Partial<FieldSpec> = {}): FieldSpec => ({ json, kind: 'message', message, ...more });

/** A2A 1.0 (a2a.proto v1.0.x), root `AgentCard`. */
export const A2A_V1_SCHEMA: Schema = {
  AgentCard: {
    fields: [
      req('name'),
      req('description'),
      f('supportedInterfaces', 'repeated-message', { message: 'AgentInterface', required: true, nonEmpty: true }),
      m('provider', 'AgentProvider'),
      req('version'),
      s('documentationUrl', { optional: true }),
      m('capabilities', 'AgentCapabilities', { required: true }),
      f('securitySchemes', 'map-message', { message: 'SecurityScheme' }),
      f('securityRequirements', 'repeated-message', { message: 'SecurityRequirement' }),
      f('defaultInputModes', 'repeated-string', { required: true }),
      f('defaultOutputModes', 'repeated-string', { required: true }),
      f('skills', 'repeated-message', { message: 'AgentSkill', required: true }),
      f('signatures', 'repeated-message', { message: 'AgentCardSignature' }),
      s('iconUrl', { optional: true }),
    ],
  },
  AgentInterface: { fields: [req('url'), req('protocolBinding'), s('tenant'), req('protocolVersion')] },
  AgentProvider: { fields: [req('url'), req('organization')] },
  AgentCapabilities: {
    fields: [
      f('streaming', 'bool', { optional: true }),
      f('pushNotifications', 'bool', { optional: true }),
      f('extensions', 'repeated-message', { message: 'AgentExtension' }),
      f('extendedAgentCard', 'bool', { optional: true }),
    ],
  },
  AgentExtension: { fields: [s('uri'), s('description'), f('required', 'bool'), f('params', 'struct')] },
  AgentSkill: {
    fields: [
      req('id'),
      req('name'),
      req('description'),
      f('tags', 'repeated-string', { required: true }),
      f('examples', 'repeated-string'),
      f('inputModes', 'repeated-string'),
      f('outputModes', 'repeated-string'),
      f('securityRequirements', 'repeated-message', { message: 'SecurityRequirement' }),
    ],
  },
  AgentCardSignature: { fields: [req('protected'), req('signature'), f('header', 'struct')] },
  SecurityRequirement: { fields: [f('schemes', 'map-message', { message: 'StringList' })] },
  StringList: { fields: [f('list', 'repeated-string')] },
  SecurityScheme: {
    fields: [],
    oneof: [
      m('apiKeySecurityScheme', 'APIKeySecurityScheme'),
      m('httpAuthSecurityScheme', 'HTTPAuthSecurityScheme'),
      m('oauth2SecurityScheme', 'OAuth2SecurityScheme'),
      m('openIdConnectSecurityScheme', 'OpenIdConnectSecurityScheme'),
      m('mtlsSecurityScheme', 'MutualTlsSecurityScheme'),
    ],
  },
  APIKeySecurityScheme: { fields: [s('description'), req('location'), req('name')] },
  HTTPAuthSecurityScheme: { fields: [s('description'), req('scheme'), s('bearerFormat')] },
  OAuth2SecurityScheme: { fields: [s('description'), m('flows', 'OAuthFlows', { required: true }), s('oauth2MetadataUrl')] },
  OpenIdConnectSecurityScheme: { fields: [s('description'), req('openIdConnectUrl')] },
  MutualTlsSecurityScheme: { fields: [s('description')] },
  OAuthFlows: {
    fields: [],
    oneof: [
      m('authorizationCode', 'AuthorizationCodeOAuthFlow'),
      m('clientCredentials', 'ClientCredentialsOAuthFlow'),
      m('implicit', 'ImplicitOAuthFlow'),
      m('password', 'PasswordOAuthFlow'),
      m('deviceCode', 'DeviceCodeOAuthFlow'),
    ],
  },
  AuthorizationCodeOAuthFlow: {
    fields: [req('authorizationUrl'), req('tokenUrl'), s('refreshUrl'), f('scopes', 'map-string', { required: true }), f('pkceRequired', 'bool')],
  },
  ClientCredentialsOAuthFlow: { fields: [req('tokenUrl'), s('refreshUrl'), f('scopes', 'map-string', { required: true })] },
  ImplicitOAuthFlow: { fields: [s('authorizationUrl'), s('refreshUrl'), f('scopes', 'map-string')] },
  PasswordOAuthFlow: { fields: [s('tokenUrl'), s('refreshUrl'), f('scopes', 'map-string')] },
  DeviceCodeOAuthFlow: {
    fields: [req('deviceAuthorizationUrl'), req('tokenUrl'), s('refreshUrl'), f('scopes', 'map-string', { required: true })],
  },
};

/** A2A 0.3 (specification/json/a2a.json of v0.3.0), root `AgentCard`. */
export const A2A_V03_SCHEMA: Schema = {
  AgentCard: {
    fields: [
      req('name'),
      req('description'),
      req('url'),
      req('version'),
      req('protocolVersion'),
      s('preferredTransport'),
      f('additionalInterfaces', 'repeated-message', { message: 'AgentInterface' }),
      m('provider', 'AgentProvider'),
      s('documentationUrl'),
      s('iconUrl'),
      m('capabilities', 'AgentCapabilities', { required: true }),
      f('securitySchemes', 'map-message', { message: 'SecurityScheme' }),
      f('security', 'array'),
      f('defaultInputModes', 'repeated-string', { required: true }),
      f('defaultOutputModes', 'repeated-string', { required: true }),
      f('skills', 'repeated-message', { message: 'AgentSkill', required: true }),
      f('supportsAuthenticatedExtendedCard', 'bool'),
      f('signatures', 'repeated-message', { message: 'AgentCardSignature' }),
    ],
  },
  AgentInterface: { fields: [req('url'), req('transport')] },
  AgentProvider: { fields: [req('organization'), req('url')] },
  AgentCapabilities: {
    fields: [
      f('streaming', 'bool'),
      f('pushNotifications', 'bool'),
      f('stateTransitionHistory', 'bool'),
      f('extensions', 'repeated-message', { message: 'AgentExtension' }),
    ],
  },
  AgentExtension: { fields: [req('uri'), s('description'), f('required', 'bool'), f('params', 'struct')] },
  AgentSkill: {
    fields: [
      req('id'),
      req('name'),
      req('description'),
      f('tags', 'repeated-string', { required: true }),
      f('examples', 'repeated-string'),
      f('inputModes', 'repeated-string'),
      f('outputModes', 'repeated-string'),
      f('security', 'array'),
    ],
  },
  AgentCardSignature: { fields: [req('protected'), req('signature'), f('header', 'struct')] },
  SecurityScheme: { fields: [req('type'), s('description')], open: true },
};

/** camelCase → the proto field name ProtoJSON parsers also accept (`supportedInterfaces` → `supported_interfaces`). */
export function protoName(json: string): string {
  return json.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A member name as it appears in a path: plain when it is an identifier, else quoted and shortened. */
export function memberToken(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) ? `.${name}` : `[${quoteShort(name, 40)}]`;
}

/** A map key in a path, always quoted: keys are the card author's text. */
export function keyToken(key: string): string {
  return `[${quoteShort(key, 40)}]`;
}

/** A JSON-quoted value cut to `max` characters: the only form in which card text reaches a detail. */
export function quoteShort(value: string, max = 60): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

/** Joins a path and a member token (`` + `.name` → `name`). */
export function joinPath(path: string, token: string): string {
  return path === '' && token.startsWith('.') ? token.slice(1) : `${path}${token}`;
}

export interface SchemaReport {
  /** One line each, e.g. `skills[2].id is missing`; paths use schema names, indexes and quoted keys. */
  problems: string[];
  /** Paths of members the schema does not name. */
  unknown: string[];
}

function typeName(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** Validates `card` against `schema` (root `AgentCard`). */
export function validateCard(card: JsonObject, schema: Schema): SchemaReport {
  const report: SchemaReport = { problems: [], unknown: [] };
  validateMessage(schema, 'AgentCard', card, '', report);
  return report;
}

function validateMessage(schema: Schema, name: string, value: JsonObject, path: string, report: SchemaReport): void {
  const spec = schema[name];
  if (!spec) throw new Error(`no message ${name} in the schema`);
  const known = new Set<string>([...spec.fields.map((x) => x.json), ...(spec.oneof ?? []).map((x) => x.json)]);
  if (!spec.open) {
    for (const key of Object.keys(value)) if (!known.has(key)) report.unknown.push(joinPath(path, memberToken(key)));
  }
  for (const field of spec.fields) validateField(schema, field, value[field.json], joinPath(path, memberToken(field.json)), report);
  if (spec.oneof) {
    const set = spec.oneof.filter((c) => value[c.json] !== undefined && value[c.json] !== null);
    const where = path === '' ? 'the card' : path;
    if (set.length === 0) report.problems.push(`${where} has none of ${spec.oneof.map((c) => c.json).join(', ')}`);
    if (set.length > 1) report.problems.push(`${where} sets ${set.map((c) => c.json).join(' and ')}, of which only one may be set`);
    for (const c of set) validateField(schema, c, value[c.json], joinPath(path, memberToken(c.json)), report);
  }
}

function validateField(schema: Schema, field: FieldSpec, value: JsonValue | undefined, path: string, report: SchemaReport): void {
  const problem = (text: string) => report.problems.push(`${path} ${text}`);
  if (value === undefined) {
    if (field.required) problem('is missing');
    return;
  }
  if (value === null) {
    if (field.required) problem('is null');
    return;
  }
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') problem(`is ${typeName(value)}, not a string`);
      else if (field.required && value === '') problem('is empty');
      return;
    case 'bool':
      if (typeof value !== 'boolean') problem(`is ${typeName(value)}, not a boolean`);
      return;
    case 'message':
      if (!isJsonObject(value)) problem(`is ${typeName(value)}, not an object`);
      else validateMessage(schema, field.message!, value, path, report);
      return;
    case 'struct':
      if (!isJsonObject(value)) problem(`is ${typeName(value)}, not an object`);
      return;
    case 'array':
      if (!Array.isArray(value)) problem(`is ${typeName(value)}, not an array`);
      return;
    case 'repeated-string':
    case 'repeated-message': {
      if (!Array.isArray(value)) {
        problem(`is ${typeName(value)}, not an array`);
        return;
      }
      if (field.nonEmpty && value.length === 0) problem('is empty');
      value.forEach((item, i) => {
        const at = `${path}[${i}]`;
        if (field.kind === 'repeated-string') {
          if (typeof item !== 'string') report.problems.push(`${at} is ${typeName(item)}, not a string`);
        } else if (!isJsonObject(item)) {
          report.problems.push(`${at} is ${typeName(item)}, not an object`);
        } else {
          validateMessage(schema, field.message!, item, at, report);
        }
      });
      return;
    }
    case 'map-string':
    case 'map-message': {
      if (!isJsonObject(value)) {
        problem(`is ${typeName(value)}, not an object`);
        return;
      }
      for (const [key, item] of Object.entries(value)) {
        const at = `${path}${keyToken(key)}`;
        if (field.kind === 'map-string') {
          if (typeof item !== 'string') report.problems.push(`${at} is ${typeName(item)}, not a string`);
        } else if (!isJsonObject(item)) {
          report.problems.push(`${at} is ${typeName(item)}, not an object`);
        } else {
          validateMessage(schema, field.message!, item, at, report);
        }
      }
      return;
    }
  }
}
