/**
 * did:webvh parameters (spec §"did:webvh DID Method Parameters"): validation of one entry's
 * `parameters` and the active set they produce. Unspecified parameters take the defaults in the
 * first entry and keep their previous value later; a `null` is read as the default (v1.0
 * forbids it but asks resolvers to accept it from early implementations; v0.5 used it for
 * "not active").
 *
 * Two versions of the specification are processed, named by the `method` parameter; an entry
 * follows the rules of the method active after it (a later entry may move up, never down).
 * Where v0.5 (spec-v0.5) differs from v1.0:
 *   - `scid` may be restated in later entries (it must not change);
 *   - no `watchers` parameter, but `prerotation` (the v0.4 switch, still in the v0.5 spec's own
 *     example) is accepted as an informative boolean, and `watchers` as written by didwebvh-ts's
 *     v0.5 implementation; neither changes verification;
 *   - `null` (not `[]`/`{}`) turns nextKeyHashes, witness and ttl off; `updateKeys: null`
 *     (deactivation) leaves no update key;
 *   - witnesses carry a `weight` (default 1) and the threshold is reached by the sum of the
 *     approving witnesses' weights;
 *   - a `witness` set in a later entry takes effect after it, even when it turns witnessing on.
 * A `method` that names another version of did:webvh (or did:tdw) is not a broken log but one
 * svc does not implement: `unsupported` (FEATURE_NOT_SUPPORTED, never INVALID_DID_DOCUMENT).
 */
import { decodeMultikey } from '../keys/multicodec.js';
import { isJsonObject } from '../encoding/json.js';

export const WEBVH_METHOD_V05 = 'did:webvh:0.5';
export const WEBVH_METHOD_V1 = 'did:webvh:1.0';

/** Methods (spec versions) svc processes, oldest first. */
export const WEBVH_METHODS: readonly string[] = [WEBVH_METHOD_V05, WEBVH_METHOD_V1];

/** A `method` value that names a version of did:webvh or of its predecessor did:tdw. */
const VERSION_NAME = /^did:(webvh|tdw):[0-9A-Za-z.+-]{1,32}$/;

/**
 * The version `method` names when svc does not implement it (e.g. did:webvh:0.4, did:tdw:0.3,
 * did:webvh:2.0), or null: a supported method, or a value that names no version (a broken entry).
 */
export function unsupportedMethod(method: unknown): string | null {
  return typeof method === 'string' && VERSION_NAME.test(method) && !WEBVH_METHODS.includes(method) ? method : null;
}

/** Largest ttl the spec allows (2^31 seconds). */
export const MAX_TTL = 2 ** 31;
export const DEFAULT_TTL = 3600;

export interface WitnessRule {
  threshold: number;
  /** Witness DIDs (`did:key:z6Mk…`), distinct. */
  witnesses: string[];
  /** v0.5: each witness's weight, in the order of `witnesses` (v1.0: absent, every witness counts 1). */
  weights?: number[];
}

export interface WebvhParameters {
  method: string;
  scid: string;
  updateKeys: string[];
  nextKeyHashes: string[];
  /** null: no witnesses (`{}`). */
  witness: WitnessRule | null;
  watchers: string[];
  portable: boolean;
  deactivated: boolean;
  ttl: number;
}

const NAMES: ReadonlySet<string> = new Set(['method', 'scid', 'updateKeys', 'nextKeyHashes', 'witness', 'watchers', 'portable', 'deactivated', 'ttl']);
const NAMES_V05: ReadonlySet<string> = new Set([...NAMES, 'prerotation']);

/** `unsupported`: the entry's method names a version svc does not implement (not a fault of the log). */
export type ParametersResult = { ok: true; active: WebvhParameters; changes: string[] } | { ok: false; reason: string; unsupported?: string };

function stringArray(value: unknown, name: string): string[] | string {
  if (!Array.isArray(value)) return `"${name}" is not an array`;
  for (const item of value) {
    if (typeof item !== 'string' || item === '') return `"${name}" holds something other than non-empty strings`;
  }
  if (new Set(value).size !== value.length) return `"${name}" lists the same value twice`;
  return value as string[];
}

/** The Ed25519 multikey in the body of a `did:key:z6Mk…` DID, or why it is not one. */
export function didKeyEd25519(did: string): { multikey: string; publicKey: Uint8Array } | string {
  if (!did.startsWith('did:key:')) return `${did} is not a did:key`;
  const multikey = did.slice('did:key:'.length);
  const decoded = decodeMultikey(multikey);
  if (typeof decoded === 'string') return `${did}: ${decoded}`;
  if (decoded.code !== 0xed || decoded.bytes.length !== 32) return `${did} is not an Ed25519 key, the only kind eddsa-jcs-2022 allows`;
  return { multikey, publicKey: decoded.bytes };
}

function witnessRule(value: unknown, v05: boolean): WitnessRule | null | string {
  if (value === null) return null;
  if (!isJsonObject(value)) return '"witness" is not an object';
  const names = Object.keys(value);
  if (names.length === 0) return null;
  const version = v05 ? 'v0.5' : 'v1.0';
  const extra = names.filter((n) => n !== 'threshold' && n !== 'witnesses');
  if (extra.length > 0) return `"witness" has the member "${extra[0]}", which ${version} does not define`;
  const { threshold, witnesses } = value;
  if (!Array.isArray(witnesses) || witnesses.length === 0) return '"witness.witnesses" is not a non-empty array';
  const ids: string[] = [];
  const weights: number[] = [];
  for (const w of witnesses) {
    if (!isJsonObject(w) || typeof w['id'] !== 'string') return 'a witness has no string "id"';
    const extraMember = Object.keys(w).find((n) => n !== 'id' && !(v05 && n === 'weight'));
    if (extraMember) return `witness ${w['id']} has the member "${extraMember}", which ${version} does not define`;
    const weight = w['weight'] ?? 1;
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 1)
      return `witness ${w['id']} has the weight ${JSON.stringify(weight)}, not a positive integer`;
    weights.push(weight);
    // didwebvh-rs writes a witness as its bare multikey ("z6Mk…"); that names the same key as
    // did:key:z6Mk…, so it is read as such (did:key is the form the spec asks for).
    const written = w['id'].normalize('NFC');
    const id = written.startsWith('z') ? `did:key:${written}` : written;
    const key = didKeyEd25519(id);
    if (typeof key === 'string') return `witness ${key}`;
    if (ids.includes(id)) return `witness ${id} is listed twice`;
    ids.push(id);
  }
  if (typeof threshold !== 'number' || !Number.isInteger(threshold)) return '"witness.threshold" is not an integer';
  if (v05) {
    const total = weights.reduce((a, b) => a + b, 0);
    if (threshold < 1 || threshold > total) return `"witness.threshold" is ${threshold}, not between 1 and the witnesses' total weight ${total}`;
    return { threshold, witnesses: ids, weights };
  }
  if (threshold < 1 || threshold > ids.length) return `"witness.threshold" is ${threshold}, not between 1 and the ${ids.length} distinct witnesses`;
  return { threshold, witnesses: ids };
}

function sameRule(a: WitnessRule | null, b: WitnessRule | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.threshold === b.threshold &&
    a.witnesses.length === b.witnesses.length &&
    a.witnesses.every((w, i) => w === b.witnesses[i] && (a.weights?.[i] ?? 1) === (b.weights?.[i] ?? 1))
  );
}

/**
 * Applies one entry's parameters to the previously active set (null for the first entry).
 * Checks types and allowed values, first-entry-only members, `portable` and `method` rules.
 * Pre-rotation and deactivation are the log verifier's (they need the previous entry).
 */
export function applyParameters(value: unknown, previous: WebvhParameters | null): ParametersResult {
  const fail = (reason: string): ParametersResult => ({ ok: false, reason });
  if (!isJsonObject(value)) return fail('"parameters" is not an object');
  const first = previous === null;
  const has = (name: string): boolean => name in value;
  const changes = Object.keys(value);

  // The method first: it says which rules the rest of the entry follows.
  let method = previous?.method ?? '';
  if (has('method')) {
    const m = value['method'];
    const unsupported = unsupportedMethod(m);
    if (unsupported !== null) {
      return {
        ok: false,
        unsupported,
        reason: `the entry follows ${unsupported}, a version of the specification svc does not implement (it implements ${WEBVH_METHODS.join(' and ')})`,
      };
    }
    if (typeof m !== 'string' || !WEBVH_METHODS.includes(m)) return fail(`the method ${JSON.stringify(m)} names no version of did:webvh`);
    if (!first && WEBVH_METHODS.indexOf(m) < WEBVH_METHODS.indexOf(method)) return fail(`the method goes back from ${method} to ${m}`);
    method = m;
  } else if (first) return fail('the first entry does not name its "method"');
  const v05 = method === WEBVH_METHOD_V05;
  for (const name of Object.keys(value)) {
    if (!(v05 ? NAMES_V05 : NAMES).has(name)) return fail(`the parameter "${name}" is not defined by ${method}`);
  }
  if (v05 && has('prerotation') && typeof value['prerotation'] !== 'boolean' && value['prerotation'] !== null) return fail('"prerotation" is not a boolean');

  let scid = previous?.scid ?? '';
  if (first) {
    if (typeof value['scid'] !== 'string' || value['scid'] === '') return fail('the first entry has no string "scid"');
    scid = value['scid'];
  } else if (has('scid')) {
    // v0.5 does not forbid restating it (didwebvh-py does), but it never changes.
    if (!v05) return fail('"scid" may appear only in the first entry');
    if (value['scid'] !== scid) return fail(`"scid" changes from ${scid} to ${JSON.stringify(value['scid'])}`);
  }

  let updateKeys = previous?.updateKeys ?? [];
  if (v05 && !first && has('updateKeys') && value['updateKeys'] === null) {
    // v0.5: set to null when deactivating, so that no key can add a version.
    updateKeys = [];
  } else if (has('updateKeys') && value['updateKeys'] !== null) {
    const keys = stringArray(value['updateKeys'], 'updateKeys');
    if (typeof keys === 'string') return fail(keys);
    updateKeys = keys;
  } else if (first) return fail('the first entry has no "updateKeys"');

  let nextKeyHashes = previous?.nextKeyHashes ?? [];
  if (has('nextKeyHashes')) {
    const hashes = value['nextKeyHashes'] === null ? [] : stringArray(value['nextKeyHashes'], 'nextKeyHashes');
    if (typeof hashes === 'string') return fail(hashes);
    nextKeyHashes = hashes;
  }

  let witness = previous?.witness ?? null;
  if (has('witness')) {
    const rule = witnessRule(value['witness'], v05);
    if (typeof rule === 'string') return fail(rule);
    witness = rule;
  }

  let watchers = previous?.watchers ?? [];
  if (has('watchers')) {
    const list = value['watchers'] === null ? [] : stringArray(value['watchers'], 'watchers');
    if (typeof list === 'string') return fail(list);
    watchers = list;
  }

  let portable = previous?.portable ?? false;
  if (has('portable') && value['portable'] !== null) {
    const p = value['portable'];
    if (typeof p !== 'boolean') return fail('"portable" is not a boolean');
    if (!first && p) return fail('"portable": true is allowed only in the first entry');
    portable = p;
  }

  let deactivated = previous?.deactivated ?? false;
  if (has('deactivated') && value['deactivated'] !== null) {
    const d = value['deactivated'];
    if (typeof d !== 'boolean') return fail('"deactivated" is not a boolean');
    deactivated = d;
  }

  let ttl = previous?.ttl ?? DEFAULT_TTL;
  if (has('ttl')) {
    const t = value['ttl'] === null ? DEFAULT_TTL : value['ttl'];
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 0 || t > MAX_TTL) return fail(`"ttl" is ${JSON.stringify(t)}, not an integer from 0 to 2^31`);
    ttl = t;
  }

  const active: WebvhParameters = { method, scid, updateKeys, nextKeyHashes, witness, watchers, portable, deactivated, ttl };
  // Report what actually changed (an entry may restate a value).
  const changed = first
    ? changes
    : changes.filter((name) => {
        const before = previous[name as keyof WebvhParameters];
        const after = active[name as keyof WebvhParameters];
        if (name === 'witness') return !sameRule(before as WitnessRule | null, after as WitnessRule | null);
        if (name === 'prerotation') return false;
        return JSON.stringify(before) !== JSON.stringify(after);
      });
  return { ok: true, active, changes: changed };
}

/** The `witness` of didDocumentMetadata: `{}` or `{threshold: "<n>", witnesses: [{id}]}` (strings, as the spec asks). */
export function witnessMetadata(rule: WitnessRule | null): Record<string, unknown> {
  if (rule === null) return {};
  return { threshold: String(rule.threshold), witnesses: rule.witnesses.map((id, i) => (rule.weights ? { id, weight: String(rule.weights[i]) } : { id })) };
}
