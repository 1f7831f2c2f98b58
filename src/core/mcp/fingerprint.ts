/**
 * Fingerprints of an MCP inventory (docs/agents.md#fingerprints-and-the-inventory-hash), profile
 * `rfc8785-binary64-v1`:
 *
 *   definitionSha256  SHA-256 of the RFC 8785 form of a listed item — a tool, prompt, resource
 *                     or resource template — as received, without `_meta` and without the
 *                     result-envelope members (`resultType`, `ttlMs`, `cacheScope`) should a
 *                     server put them on an item. `_meta` is the protocol's extension slot for
 *                     data about the message, not the item's behaviour, and SDKs fill it with
 *                     per-response values; everything else (name, title, description, schemas,
 *                     annotations, arguments, uri, mimeType, execution, icons…) is hashed, so a
 *                     flip of `readOnlyHint` is a change. Nothing is normalised: an SDK upgrade
 *                     that adds `$schema` is a change too, and `changedFields` says where.
 *   schemaSha256      (tools) SHA-256 of the RFC 8785 form of `{inputSchema, outputSchema}`
 *                     (absent members left out).
 *   inventoryHash     When the server lists no prompts, resources or resource templates (none
 *                     declared, or empty lists): SHA-256 of the RFC 8785 form of the sorted array
 *                     of tool definitionSha256 — exactly the hash svc computed before it
 *                     inventoried anything but tools, so a tools-only server's history stays
 *                     UNCHANGED. Otherwise SHA-256 of the RFC 8785 form of
 *                       {"prompts":[…],"resourceTemplates":[…],"resources":[…],"tools":[…]}
 *                     each array the sorted definitionSha256 of its kind: the kinds are kept
 *                     apart, so an item that moves from one kind to another (the same JSON
 *                     listed as a prompt instead of a resource) changes the hash.
 */
import { canonicalize, jcsSha256, sha256Hex } from '../canonical.js';
import type { JsonObject } from '../encoding/json.js';

/** Members that describe a message rather than an item: never part of a fingerprint. */
export const ENVELOPE_MEMBERS: ReadonlySet<string> = new Set(['_meta', 'resultType', 'ttlMs', 'cacheScope']);

/**
 * The definition that is fingerprinted: the item (tool, prompt, resource, template) as received
 * minus envelope members. Built with fromEntries (own data members): an assignment would turn a
 * "__proto__" member into the definition's prototype, drop it from the fingerprint and lend its
 * members to later reads.
 */
export function itemDefinition(item: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !ENVELOPE_MEMBERS.has(name)));
}

/** The tools' name for itemDefinition (the rule is the same for every kind). */
export const toolDefinition = itemDefinition;

export function definitionSha256(definition: JsonObject): string {
  return jcsSha256(definition);
}

export function schemaSha256(definition: JsonObject): string {
  const schemas: JsonObject = {};
  if (definition['inputSchema'] !== undefined) schemas['inputSchema'] = definition['inputSchema'];
  if (definition['outputSchema'] !== undefined) schemas['outputSchema'] = definition['outputSchema'];
  return jcsSha256(schemas);
}

/** The definitionSha256 values of each kind, in any order. */
export interface InventoryFingerprints {
  tools: readonly string[];
  prompts: readonly string[];
  resources: readonly string[];
  resourceTemplates: readonly string[];
}

/** See the module comment: the tools-only form when the other kinds are empty, else the four kinds apart. */
export function inventoryHash(fingerprints: InventoryFingerprints): string {
  const sorted = (hashes: readonly string[]) => [...hashes].sort();
  const { tools, prompts, resources, resourceTemplates } = fingerprints;
  if (prompts.length === 0 && resources.length === 0 && resourceTemplates.length === 0) return sha256Hex(canonicalize(sorted(tools)));
  return sha256Hex(
    canonicalize({ prompts: sorted(prompts), resourceTemplates: sorted(resourceTemplates), resources: sorted(resources), tools: sorted(tools) }),
  );
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
