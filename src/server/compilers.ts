/**
 * The route schemas at work (schemas/): Fastify validates every request's query and body with
 * them (Ajv) and serialises every JSON response with them (fast-json-stringify), the same
 * schemas that openapi.json is generated from — but the enriched resolution, which
 * routes/resolution.ts writes with JSON.stringify (its schema still holds it).
 *
 * - Validation is strict, as the handlers are: no type coercion, no defaults filled in, unknown
 *   members and query options refused (never silently removed, Fastify's default). Duplicate JSON
 *   members are refused earlier, by the body parser. A failure becomes one precise problem
 *   (`validationProblem`): the member or option by name, what it must be, the code of its place
 *   (a query option: INVALID_OPTIONS; a body member: INVALID_REQUEST; the W3C binding's body
 *   holds resolution options: INVALID_OPTIONS).
 * - What storage cannot hold is refused here, by the rules of core/storable.ts: `format:
 *   date-time` is an RFC 3339 instant within years 0000–9999 (Ajv knows no format of its own
 *   here: this is the one), and STORED_TEXT_PATTERN refuses NUL and lone surrogates, each named
 *   in its own words.
 * - Path parameters are validated too (an id holding what no stored id holds is the 404 of an
 *   unknown id, NOT_FOUND naming the parameter), except on the wildcard routes: their identifier
 *   is taken from the raw request line and decoded once (http.ts), and its syntax is the core's
 *   to judge (INVALID_DID).
 * - An absent body is left to the handler, which says whether the route needs one.
 * - Both compile on first use and are shared by every route with the same schema, so a daemon
 *   starts without compiling what it may never serve.
 */
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { ProblemError } from '../core/problems.js';
import { INSTANT_RANGE, parseInstant, STORED_TEXT_PATTERN, UNSTORABLE_TEXT } from '../core/storable.js';
import { clause, plural, truncate } from '../core/text.js';

const Ajv = AjvModule.default;

interface Compilers {
  validatorCompiler: FastifySchemaCompiler<unknown>;
  serializerCompiler: FastifySerializerCompiler<unknown>;
}

/** The validator and serializer compilers of one app, over its shared (`$id`) schemas. */
export function schemaCompilers(shared: readonly TSchema[]): Compilers {
  let ajv: InstanceType<typeof Ajv> | undefined;
  const ajvInstance = () => {
    if (ajv === undefined) {
      ajv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: false, removeAdditional: false, verbose: true, strict: false });
      ajv.addFormat('date-time', { type: 'string', validate: (text: string) => parseInstant(text) !== null });
      for (const schema of shared) ajv.addSchema(schema);
    }
    return ajv;
  };
  const external: Record<string, unknown> = Object.fromEntries(shared.map((schema) => [(schema as { $id: string }).$id, schema]));
  const validators = new Map<string, ValidateFunction>();
  const serializers = new Map<string, (data: unknown) => string>();

  const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, url }) => {
    // A wildcard route's parameter is the raw identifier, read by the handler (http.ts).
    if (httpPart === 'params' && url.includes('*')) return () => true;
    const key = JSON.stringify(schema);
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown): boolean => {
      // Fastify hands an absent body over as null; the handler answers it (the body is required
      // or optional per route). A body of JSON `null` is refused there too.
      if (httpPart === 'body' && data === null) return true;
      compiled ??= validators.get(key) ?? compileOnce(validators, key, () => ajvInstance().compile(schema as object));
      const ok = compiled(data);
      validate.errors = ok ? null : (compiled.errors ?? null);
      return ok;
    };
    validate.errors = null as ErrorObject[] | null;
    return validate;
  };

  const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
    const key = JSON.stringify(schema);
    let compiled: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      compiled ??=
        serializers.get(key) ??
        compileOnce(serializers, key, () =>
          fastJsonStringify(schema as fastJsonStringify.Schema, { schema: external as Record<string, fastJsonStringify.Schema> }),
        );
      return compiled(data);
    };
  };

  return { validatorCompiler, serializerCompiler };
}

function compileOnce<T>(cache: Map<string, T>, key: string, compile: () => T): T {
  const value = compile();
  cache.set(key, value);
  return value;
}

/** What Fastify attaches to a failed validation. */
export interface ValidationFailure {
  validation: ErrorObject[];
  validationContext?: string;
}

export function isValidationFailure(err: unknown): err is ValidationFailure {
  return typeof err === 'object' && err !== null && Array.isArray((err as { validation?: unknown }).validation);
}

/**
 * One precise problem for a failed validation: the member or query option by name and what it
 * must be. `optionsBody`: the body holds resolution options (the W3C binding), so its faults are
 * INVALID_OPTIONS like a query option's.
 */
export function validationProblem(failure: ValidationFailure, options: { optionsBody?: boolean } = {}): ProblemError {
  if (failure.validationContext === 'params') return paramProblem(failure.validation[0]);
  const query = failure.validationContext === 'querystring';
  const code = query || options.optionsBody ? 'INVALID_OPTIONS' : 'INVALID_REQUEST';
  const error = pickError(failure.validation);
  if (error === undefined) return new ProblemError(code, query ? 'A query option is not valid.' : 'The request body is not valid.');
  return new ProblemError(code, describe(error, query));
}

/**
 * A path parameter no stored id can equal: the 404 of an id that does not exist (it is data that
 * matches nothing), naming the parameter.
 */
function paramProblem(error: ErrorObject | undefined): ProblemError {
  const name = error?.instancePath.split('/')[1] ?? '';
  const what = name === '' ? 'the path' : `the path parameter "${truncate(name)}"`;
  return new ProblemError('NOT_FOUND', `Nothing has this id: ${what} holds ${UNSTORABLE_TEXT}.`);
}

/**
 * The error to tell: an unknown member first (the likeliest slip: a misspelt member is also a
 * missing one), then the first outside any alternative, then the alternatives' own summary
 * ("must be a string or an object").
 */
function pickError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  return (
    errors.find((e) => e.keyword === 'additionalProperties') ??
    errors.find((e) => !e.schemaPath.includes('/anyOf/')) ??
    errors.find((e) => e.keyword === 'anyOf') ??
    errors[0]
  );
}

function describe(error: ErrorObject, query: boolean): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const name = (segments: string[]) => segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
  const subject = (segments: string[]) => {
    if (segments.length === 0) return query ? 'The query' : 'The request body';
    return query ? `The query option "${truncate(name(segments))}"` : `"${truncate(name(segments))}"`;
  };
  const where = subject(path);
  const params = error.params as Record<string, unknown>;
  const schema = (error.parentSchema ?? {}) as { description?: string; properties?: Record<string, unknown>; anyOf?: unknown[] };
  const hint = typeof schema.description === 'string' ? ` (${gist(schema.description)})` : '';
  switch (error.keyword) {
    case 'additionalProperties': {
      const allowed = Object.keys(schema.properties ?? {});
      const unknown = Object.keys((error.data ?? {}) as object).filter((k) => !allowed.includes(k));
      const list = unknown.map((k) => JSON.stringify(truncate(k))).join(', ');
      if (query) return `Unknown query option ${list}; this route takes ${allowed.length > 0 ? allowed.join(', ') : 'none'}.`;
      const inside = path.length > 0 ? ` in "${truncate(name(path))}"` : '';
      const takes = allowed.length > 0 ? allowed.join(', ') : 'no member';
      return `Unknown member${unknown.length > 1 ? 's' : ''} ${list}${inside}; ${path.length > 0 ? `"${truncate(name(path))}" takes` : 'the request takes'} ${takes}.`;
    }
    case 'required': {
      const missing = String(params['missingProperty']);
      const property = (schema.properties?.[missing] ?? {}) as { description?: string };
      // What to give: the member's description ("The URL of the MCP endpoint, e.g. …").
      const what = typeof property.description === 'string' ? `; give ${gist(property.description)}` : '';
      return `${subject([...path, missing])} (required) is missing${what}.`;
    }
    case 'type': {
      if (path.length === 0 && !query) return 'The request body must be a JSON object.';
      if (query && Array.isArray(error.data)) return `${where} is given ${error.data.length} times; give it once.`;
      return `${where} must be ${typeName(params['type'])}, not ${valueKind(error.data)}${hint}.`;
    }
    case 'const':
    case 'enum':
    case 'anyOf': {
      const choices = choicesOf(error);
      if (choices !== null) return `${where} must be one of ${choices.join(', ')}, not ${shown(error.data)}.`;
      const kinds = (schema.anyOf ?? []).map((s) => typeName((s as { type?: unknown }).type)).filter((t) => t !== 'a value');
      return `${where} must be ${kinds.length > 0 ? [...new Set(kinds)].join(' or ') : 'of another shape'}, not ${valueKind(error.data)}${hint}.`;
    }
    case 'minLength':
      return Number(params['limit']) === 1 ? `${where} must not be empty${hint}.` : `${where} must be at least ${String(params['limit'])} characters long.`;
    case 'maxLength':
      return `${where} is longer than ${String(params['limit'])} characters.`;
    case 'minItems':
      return `${where} needs at least ${plural(Number(params['limit']), 'entry', 'entries')}.`;
    case 'maxItems':
      return `${where} has ${plural(Array.isArray(error.data) ? error.data.length : Number(params['limit']) + 1, 'entry', 'entries')}; at most ${String(params['limit'])} are taken.`;
    case 'pattern':
      if (params['pattern'] === STORED_TEXT_PATTERN) return `${where} holds ${UNSTORABLE_TEXT}.`;
      return `${where} is not valid, ${shown(error.data)}${hint || ` (it must match ${String(params['pattern'])})`}.`;
    case 'format':
      if (params['format'] === 'date-time') {
        return `${where} is not an RFC 3339 date-time (seconds and Z or ±hh:mm required) from ${INSTANT_RANGE}, not ${shown(error.data)}.`;
      }
      return `${where} is not valid (format ${String(params['format'])}), not ${shown(error.data)}.`;
    case 'minimum':
    case 'maximum':
      return `${where} must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params['limit'])}, not ${shown(error.data)}.`;
    default:
      return `${where} is not valid (${error.keyword})${hint}.`;
  }
}

/** The allowed values of an enumeration (`enum`, `const`, or `anyOf` of consts), or null. */
function choicesOf(error: ErrorObject): string[] | null {
  const schema = error.parentSchema as { enum?: unknown[]; const?: unknown; anyOf?: Array<{ const?: unknown }> } | undefined;
  if (schema === undefined) return null;
  const values = schema.enum ?? ('const' in schema ? [schema.const] : schema.anyOf?.every((s) => 'const' in s) ? schema.anyOf.map((s) => s.const) : null);
  return values === null ? null : values.map((v) => (v === '' ? '(empty)' : typeof v === 'string' ? v : JSON.stringify(v)));
}

function typeName(type: unknown): string {
  switch (type) {
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    default:
      return Array.isArray(type) ? type.map(typeName).join(' or ') : 'a value';
  }
}

function valueKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${shown(value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
  return String(value);
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(truncate(value)) : truncate(JSON.stringify(value) ?? String(value));
}

/** The first sentence of a description, as a clause ("The URL of …, e.g. …" → "the URL of …, e.g. …"). */
function gist(description: string): string {
  const first = clause(description.split(/\.\s+(?=[A-Z0-9])/)[0]!);
  // The article "A"/"An" is an ordinary word too (clause keeps a lone capital, as in acronyms).
  return first.replace(/^(A|An) /, (article) => article.toLowerCase());
}
