/**
 * The A2A 1.0 canonical form of a card (A2A 1.0 §8.4.1), as signers actually compute it.
 *
 * The specification says: drop what proto3 presence says is unset, leave out `signatures`,
 * apply RFC 8785. @a2a-js/sdk 1.3.0 (`canonicalizeAgentCard`) does this by reading the card
 * into its ts-proto `AgentCard` and writing it back, then removing every empty string, empty
 * array and empty object that is left. A verifier that applies plain RFC 8785 to the card
 * minus `signatures` rejects SDK-signed cards, so svc reproduces the
 * SDK's result from the schema table in schema.ts:
 *
 * - Members not in the 1.0 schema are dropped, at every depth.
 * - A proto field name (`supported_interfaces`) stands in for the JSON name when the JSON
 *   name is absent (or, for lists and maps, not a list or map), as ProtoJSON readers allow.
 * - Scalars are converted the way ts-proto reads them: a string field takes `String(value)`,
 *   a boolean field JavaScript truthiness. A JSON object that cannot be turned into a string
 *   (one with its own `toString` member) makes the SDK throw; here the form is undefined.
 * - Strings equal to "" are dropped (also for `optional` fields, and inside lists); `false` is
 *   dropped unless the field is proto3 `optional` (`streaming`, `pushNotifications`,
 *   `extendedAgentCard`); empty lists, maps and messages are dropped, REQUIRED ones included.
 * - Of a `oneof`, the first case set (in declaration order) is kept; any other is dropped.
 * - `google.protobuf.Struct` values (`params`) are kept as written, minus null, "", [] and {}
 *   at any depth.
 * - A map key or Struct member named `__proto__` is dropped (the SDK's plain-object maps
 *   cannot hold it).
 * - A `null` list element or map value makes the SDK throw, except where the message read has
 *   only list fields (`StringList`); here the form is undefined then.
 *
 * Whatever the card carries that the form leaves out is listed in `uncovered` (paths), so the
 * inspection can say what a signature does not cover: unknown members, dropped map entries
 * (a security requirement with no scopes), extra `oneof` cases, dropped Struct members.
 */
import { canonicalize } from '../canonical.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../encoding/json.js';
import { A2A_V1_SCHEMA, joinPath, keyToken, memberToken, protoName, type FieldSpec, type MessageSpec } from './schema.js';

export type A2aCanonicalForm =
  | {
      /** RFC 8785 text of the normalised card without `signatures`. */
      text: string;
      /** Paths of card content the form leaves out (empty-valued members aside), in card order. */
      uncovered: string[];
      /** The subset of `uncovered` inside `securitySchemes` or any `securityRequirements`. */
      uncoveredSecurity: string[];
    }
  | { error: string };

/** Why the form is undefined for a card (the SDK throws on it). */
class Undefined extends Error {}

interface Context {
  uncovered: string[];
  /** False under `signatures`, which the form leaves out by design. */
  record: boolean;
}

/** The A2A 1.0 canonical form of `card` (signatures left out), or why it is undefined. */
export function canonicalizeA2aCard(card: JsonObject): A2aCanonicalForm {
  const ctx: Context = { uncovered: [], record: true };
  let normalised: JsonObject | undefined;
  try {
    normalised = readMessage('AgentCard', card, '', ctx);
  } catch (err) {
    if (err instanceof Undefined) return { error: err.message };
    throw err;
  }
  if (normalised) delete normalised['signatures'];
  const uncovered = outermost(ctx.uncovered);
  return {
    text: canonicalize(normalised ?? {}),
    uncovered,
    uncoveredSecurity: uncovered.filter((p) => /^(securitySchemes|securityRequirements|skills\[\d+\]\.securityRequirements)/.test(p)),
  };
}

function spec(name: string): MessageSpec {
  const found = A2A_V1_SCHEMA[name];
  if (!found) throw new Error(`no message ${name} in the A2A 1.0 schema`);
  return found;
}

/** Keeps, in card order, only paths that no other recorded path contains. */
function outermost(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  const inside = (p: string, k: string) => p.startsWith(`${k}.`) || p.startsWith(`${k}[`);
  return unique.filter((p) => !unique.some((k) => k !== p && inside(p, k)));
}

function note(ctx: Context, path: string): void {
  if (ctx.record) ctx.uncovered.push(path);
}

/** Own member of a JSON object (never an inherited one). */
function own(value: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

const isSet = (v: JsonValue | undefined): v is JsonValue => v !== undefined && v !== null;
const isList = (v: JsonValue | undefined): v is JsonValue[] => Array.isArray(v);
/** `typeof v === 'object'` and not null: arrays count, as in the SDK's map readers. */
const isObjectLike = (v: JsonValue | undefined): v is JsonObject | JsonValue[] => typeof v === 'object' && v !== null;

/** Which of the JSON name and the proto name supplies a field's value, as ts-proto picks it. */
function pick(field: FieldSpec, message: JsonObject): { value: JsonValue | undefined; from: string | null } {
  const names = protoName(field.json) === field.json ? [field.json] : [field.json, protoName(field.json)];
  const accept =
    field.kind === 'repeated-string' || field.kind === 'repeated-message'
      ? isList
      : field.kind === 'map-string' || field.kind === 'map-message' || field.kind === 'struct'
        ? isObjectLike
        : isSet;
  for (const name of names) {
    const v = own(message, name);
    if (accept(v)) return { value: v, from: name };
  }
  return { value: undefined, from: null };
}

/** `String(value)` for a JSON value, as JavaScript computes it; Undefined where it would throw. */
function jsString(value: JsonValue, path: string): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((item) => (item === null ? '' : jsString(item, path))).join(',');
  // An own `toString` (never callable in JSON) hides Object.prototype.toString; then
  // valueOf yields an object and the conversion throws.
  if (Object.hasOwn(value, 'toString')) throw new Undefined(`${path} holds an object that cannot be read as a string`);
  return '[object Object]';
}

/** JavaScript truthiness of a JSON value (`Boolean(value)`). */
function truthy(value: JsonValue): boolean {
  return !(value === false || value === 0 || value === '' || value === null);
}

/** A message read and written back; undefined when nothing is left. */
function readMessage(name: string, value: JsonValue, path: string, ctx: Context): JsonObject | undefined {
  const s = spec(name);
  if (value === null) {
    // ts-proto reads list-only messages with `object?.field`, everything else with `object.field`.
    if (s.fields.length > 0 && s.fields.every((x) => x.kind.startsWith('repeated'))) return undefined;
    throw new Undefined(`${path === '' ? 'the card' : path} is null where the schema expects ${name}`);
  }
  if (!isJsonObject(value)) {
    // A string, number, boolean or array read as a message has none of its fields.
    if (value !== '' && value !== false && !(Array.isArray(value) && value.length === 0)) note(ctx, path);
    return undefined;
  }
  const known = new Set<string>();
  for (const field of [...s.fields, ...(s.oneof ?? [])]) {
    known.add(field.json);
    known.add(protoName(field.json));
  }
  for (const key of Object.keys(value)) {
    if (!known.has(key)) note(ctx, joinPath(path, memberToken(key)));
  }

  const out: JsonObject = {};
  for (const field of s.fields) {
    const { value: v, from } = pick(field, value);
    // The name not used for the value is content the form leaves out.
    for (const alias of new Set([field.json, protoName(field.json)])) {
      if (alias !== from && isSet(own(value, alias))) note(ctx, joinPath(path, memberToken(alias)));
    }
    if (v === undefined) continue;
    // `signatures` is read (a null entry makes the SDK throw) but left out by design.
    const inner = path === '' && field.json === 'signatures' ? { uncovered: ctx.uncovered, record: false } : ctx;
    const written = readField(field, v, joinPath(path, memberToken(field.json)), inner);
    if (written !== undefined) out[field.json] = written;
  }
  if (s.oneof) {
    let chosen: { field: FieldSpec; value: JsonValue; name: string } | null = null;
    for (const field of s.oneof) {
      for (const alias of new Set([field.json, protoName(field.json)])) {
        const v = own(value, alias);
        if (!isSet(v)) continue;
        if (chosen === null) chosen = { field, value: v, name: alias };
        else note(ctx, joinPath(path, memberToken(alias)));
      }
    }
    if (chosen) {
      const at = joinPath(path, memberToken(chosen.field.json));
      const written = readMessage(chosen.field.message!, chosen.value, at, ctx);
      if (written !== undefined) out[chosen.field.json] = written;
      else note(ctx, at);
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function readField(field: FieldSpec, value: JsonValue, path: string, ctx: Context): JsonValue | undefined {
  switch (field.kind) {
    case 'string': {
      const text = jsString(value, path);
      return text === '' ? undefined : text;
    }
    case 'bool': {
      const b = truthy(value);
      return field.optional || b ? b : undefined;
    }
    case 'message':
      return readMessage(field.message!, value, path, ctx);
    case 'repeated-string': {
      const items = (value as JsonValue[]).map((item) => jsString(item, path)).filter((t) => t !== '');
      return items.length > 0 ? items : undefined;
    }
    case 'repeated-message': {
      const items: JsonValue[] = [];
      (value as JsonValue[]).forEach((item, i) => {
        const written = readMessage(field.message!, item, `${path}[${i}]`, ctx);
        if (written !== undefined) items.push(written);
      });
      return items.length > 0 ? items : undefined;
    }
    case 'map-string':
    case 'map-message': {
      const out: JsonObject = {};
      for (const [key, item] of Object.entries(value as JsonObject)) {
        const at = `${path}${keyToken(key)}`;
        if (key === '__proto__') {
          note(ctx, at);
          continue;
        }
        const written = field.kind === 'map-string' ? nonEmptyString(jsString(item, at)) : readMessage(field.message!, item, at, ctx);
        if (written === undefined) {
          // A map entry carries meaning by its key alone (a scheme required with no scopes).
          note(ctx, at);
          continue;
        }
        define(out, key, written);
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
    case 'struct':
      return cleanStruct(value, path, ctx);
    case 'array':
      throw new Error('the A2A 1.0 schema has no untyped arrays');
  }
}

function nonEmptyString(text: string): string | undefined {
  return text === '' ? undefined : text;
}

/** An own data member, even one named `__proto__` (never a prototype change). */
function define(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A Struct without null, "", [] and {} at any depth; dropped members are noted. */
function cleanStruct(value: JsonValue, path: string, ctx: Context): JsonValue | undefined {
  if (value === null || value === '') return undefined;
  if (Array.isArray(value)) {
    const items: JsonValue[] = [];
    value.forEach((item, i) => {
      const cleaned = cleanStruct(item, `${path}[${i}]`, ctx);
      if (cleaned === undefined) note(ctx, `${path}[${i}]`);
      else items.push(cleaned);
    });
    return items.length > 0 ? items : undefined;
  }
  if (isJsonObject(value)) {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}${keyToken(key)}`;
      const cleaned = key === '__proto__' ? undefined : cleanStruct(item, at, ctx);
      if (cleaned === undefined) note(ctx, at);
      else define(out, key, cleaned);
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return value;
}
