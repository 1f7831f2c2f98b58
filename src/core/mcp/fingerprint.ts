/**
 * Fingerprints of MCP tools (SPEC §2.11, §9.5), profile `rfc8785-binary64-v1`:
 *
 *   definitionSha256  SHA-256 of the RFC 8785 form of the tool definition as received, without
 *                     `_meta` and without the result-envelope members (`resultType`, `ttlMs`,
 *                     `cacheScope`) should a server put them on a tool. `_meta` is the protocol's
 *                     extension slot for data about the message, not the tool's behaviour, and
 *                     SDKs fill it with per-response values; everything else (name, title,
 *                     description, schemas, annotations, execution, icons…) is hashed, so a flip
 *                     of `readOnlyHint` is a change. Nothing is normalised: an SDK upgrade that
 *                     adds `$schema` is a change too, and `changedFields` says where.
 *   schemaSha256      SHA-256 of the RFC 8785 form of `{inputSchema, outputSchema}` (absent
 *                     members left out).
 *   inventoryHash     SHA-256 of the RFC 8785 form of the sorted array of definitionSha256.
 */
import { canonicalize, jcsSha256, sha256Hex } from '../canonical.js';
import type { JsonObject } from '../encoding/json.js';

/** Members that describe a message rather than a tool: never part of a tool fingerprint. */
export const ENVELOPE_MEMBERS: ReadonlySet<string> = new Set(['_meta', 'resultType', 'ttlMs', 'cacheScope']);

/**
 * The tool definition that is fingerprinted: the tool as received minus envelope members.
 * Built with fromEntries (own data members): an assignment would turn a "__proto__" member into
 * the definition's prototype, drop it from the fingerprint and lend its members to later reads.
 */
export function toolDefinition(tool: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(tool).filter(([name]) => !ENVELOPE_MEMBERS.has(name)));
}

export function definitionSha256(definition: JsonObject): string {
  return jcsSha256(definition);
}

export function schemaSha256(definition: JsonObject): string {
  const schemas: JsonObject = {};
  if (definition['inputSchema'] !== undefined) schemas['inputSchema'] = definition['inputSchema'];
  if (definition['outputSchema'] !== undefined) schemas['outputSchema'] = definition['outputSchema'];
  return jcsSha256(schemas);
}

export function inventoryHash(fingerprints: readonly string[]): string {
  return sha256Hex(canonicalize([...fingerprints].sort()));
}

/** An own member only: a name one side lacks ("constructor", "toString") must not read Object.prototype. */
function ownMember(definition: JsonObject, name: string): JsonObject[string] | undefined {
  return Object.hasOwn(definition, name) ? definition[name] : undefined;
}

/** Top-level members whose canonical form differs between two definitions, sorted. */
export function changedMembers(previous: JsonObject, current: JsonObject): string[] {
  const names = new Set([...Object.keys(previous), ...Object.keys(current)]);
  const changed: string[] = [];
  for (const name of names) {
    const a = ownMember(previous, name);
    const b = ownMember(current, name);
    if (a === undefined || b === undefined ? a !== b : canonicalize(a) !== canonicalize(b)) changed.push(name);
  }
  return changed.sort();
}
