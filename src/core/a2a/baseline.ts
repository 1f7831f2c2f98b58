/**
 * Approved A2A baselines (docs/agents.md#approved-baselines): the agent cards a reviewer approved,
 * in a file meant to be committed (`svc a2a approve` writes it, `svc inspect-a2a --baseline` reads
 * it), laid out as core/baseline.ts says. One file holds one or more cards by name:
 *
 *   {
 *     "agents": {
 *       "<card URL>": {
 *         "canonicalSha256": "…",      SHA-256 of the RFC 8785 form of `card`
 *         "card": { … },               the card as received, without `signatures`
 *         "cardUrl": "https://agent.example/.well-known/agent-card.json",
 *         "signingKeys": { "<kid>": {"alg": "ES256", "jku": null, "keyThumbprint": "…"} }
 *       }
 *     },
 *     "format": "svc-a2a-baseline",
 *     "hashProfile": "rfc8785-binary64-v1",
 *     "version": 1
 *   }
 *
 * What is pinned: the card's canonical hash (without its signatures, so that the same key signing
 * the same card again is no change), its skills (by `id`) and interfaces (by URL) item by item,
 * its other members, and the keys that signed it — each signature's kid, alg, jku and the RFC 7638
 * thumbprint of the key svc found. A key that cannot be found now is a change (its thumbprint
 * cannot be shown to be the approved one): a gate fails closed.
 */
import { HASH_PROFILE, jcsSha256 } from '../canonical.js';
import { baselineLayout, baselineProblem, BASELINE_VERSION, checkEnvelope, onlyKnownMembers, pointerToken, quoted, readBaselineBytes } from '../baseline.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../encoding/json.js';
import { changedMembers } from '../mcp/fingerprint.js';
import { plural } from '../text.js';
import { interfacesOf as cardInterfaces, specVersionOf } from './inspect.js';
import type { A2aBaselineComparison, A2aCheck, A2aInspection, A2aItemChanges } from './types.js';

export const A2A_BASELINE_FORMAT = 'svc-a2a-baseline';

/** A signing key as pinned: what the signature named and the key svc found. */
export interface A2aSigningKey {
  alg: string | null;
  jku: string | null;
  keyThumbprint: string | null;
}

export interface A2aBaselineAgent {
  cardUrl: string;
  /** SHA-256 of the RFC 8785 form of `card`. */
  canonicalSha256: string;
  /** The card as received, without `signatures`. */
  card: JsonObject;
  signingKeys: Record<string, A2aSigningKey>;
}

export interface A2aBaseline {
  format: typeof A2A_BASELINE_FORMAT;
  version: typeof BASELINE_VERSION;
  hashProfile: string;
  agents: Record<string, A2aBaselineAgent>;
}

export function emptyA2aBaseline(): A2aBaseline {
  return { format: A2A_BASELINE_FORMAT, version: BASELINE_VERSION, hashProfile: HASH_PROFILE, agents: {} };
}

function define<T>(target: Record<string, T>, key: string, value: T): void {
  // Own data members only (a "__proto__" key stays a key).
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const nullableString = (value: JsonValue | undefined) => value === null || typeof value === 'string';

function checkAgent(value: JsonValue, where: string): A2aBaselineAgent {
  if (!isJsonObject(value)) throw baselineProblem(where, 'is not an object');
  onlyKnownMembers(value, ['canonicalSha256', 'card', 'cardUrl', 'signingKeys'], where);
  const { cardUrl, canonicalSha256, card, signingKeys } = value;
  if (typeof cardUrl !== 'string' || cardUrl === '') throw baselineProblem(where, 'has no "cardUrl" string');
  if (!isJsonObject(card)) throw baselineProblem(where, 'has no "card" object');
  if (card['signatures'] !== undefined) throw baselineProblem(where, 'has a card with "signatures" (a baseline pins the card without them)');
  if (typeof canonicalSha256 !== 'string' || jcsSha256(card) !== canonicalSha256)
    throw baselineProblem(where, "has a canonicalSha256 that is not its card's (edited by hand?)");
  if (!isJsonObject(signingKeys)) throw baselineProblem(where, 'has no "signingKeys" object');
  const keys: Record<string, A2aSigningKey> = {};
  for (const [kid, key] of Object.entries(signingKeys)) {
    const at = `${where} (signing key ${quoted(kid)})`;
    if (!isJsonObject(key)) throw baselineProblem(at, 'is not an object');
    onlyKnownMembers(key, ['alg', 'jku', 'keyThumbprint'], at);
    if (!nullableString(key['alg']) || !nullableString(key['jku']) || !nullableString(key['keyThumbprint']))
      throw baselineProblem(at, 'needs "alg", "jku" and "keyThumbprint", each a string or null');
    define(keys, kid, { alg: key['alg'] as string | null, jku: key['jku'] as string | null, keyThumbprint: key['keyThumbprint'] as string | null });
  }
  return { cardUrl, canonicalSha256, card, signingKeys: keys };
}

/** An A2A baseline from a parsed value (a request body's member); `where` names it in refusals. */
export function a2aBaselineOf(value: JsonValue, where: string): A2aBaseline {
  const envelope = checkEnvelope(value, where, A2A_BASELINE_FORMAT);
  onlyKnownMembers(envelope, ['agents', 'format', 'hashProfile', 'version'], where);
  const agents = envelope['agents'];
  if (!isJsonObject(agents)) throw baselineProblem(where, 'has no "agents" object');
  const checked: Record<string, A2aBaselineAgent> = {};
  for (const [name, agent] of Object.entries(agents)) define(checked, name, checkAgent(agent, `${where} (agent ${quoted(name)})`));
  return { format: A2A_BASELINE_FORMAT, version: BASELINE_VERSION, hashProfile: HASH_PROFILE, agents: checked };
}

/** A baseline file's bytes (core/baseline.ts's rules, then a2aBaselineOf's), with the line of each member. */
export function readA2aBaseline(bytes: Uint8Array, where: string): { baseline: A2aBaseline; lines: ReadonlyMap<string, number> } {
  const document = readBaselineBytes(bytes, where, A2A_BASELINE_FORMAT, 5);
  return { baseline: a2aBaselineOf(document.value, where), lines: document.lines };
}

export function a2aBaselineText(baseline: A2aBaseline): string {
  return baselineLayout(baseline as unknown as JsonValue, 0).text;
}

/** The JSON pointer of an agent's entry, or of a member under its card (`card/skills/2`), or a signing key. */
export function a2aBaselinePointer(name: string, ...path: Array<string | number>): string {
  return `/agents/${pointerToken(name)}${path.map((p) => `/${pointerToken(String(p))}`).join('')}`;
}

/** The entry a card is compared with: the one approved from its card URL (core/mcp/baseline.ts's rule for targets). */
export function agentFor(baseline: A2aBaseline, cardUrl: string, where: string): { name: string; entry: A2aBaselineAgent } {
  const names = Object.keys(baseline.agents);
  if (names.length === 0) throw baselineProblem(where, 'approves no agent card yet (approve one with svc a2a approve)');
  const matching = names.filter((name) => baseline.agents[name]!.cardUrl === cardUrl);
  if (matching.length === 1) return { name: matching[0]!, entry: baseline.agents[matching[0]!]! };
  if (matching.length > 1) throw baselineProblem(where, `holds ${matching.length} cards approved from ${quoted(cardUrl)}`);
  if (names.length === 1)
    throw baselineProblem(where, `is the baseline of another agent: ${quoted(baseline.agents[names[0]!]!.cardUrl)}, not ${quoted(cardUrl)}`);
  throw baselineProblem(where, `holds no card approved from ${quoted(cardUrl)} (it holds ${plural(names.length, 'card')})`);
}

/** The card without its signatures: what the baseline pins. */
function unsigned(card: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(card).filter(([name]) => name !== 'signatures'));
}

/** Entries keyed by `key(entry)`, `#<index>` without one; a key seen before gets `#<index>` after it. */
function keyed<T>(entries: readonly T[], key: (entry: T) => string | null): Map<string, { index: number; entry: T }> {
  const out = new Map<string, { index: number; entry: T }>();
  entries.forEach((entry, index) => {
    const own = key(entry);
    const name = own === null ? `#${index}` : out.has(own) ? `${own}#${index}` : own;
    out.set(name, { index, entry });
  });
  return out;
}

function skillsOf(card: JsonObject): Map<string, { index: number; entry: JsonObject }> {
  const skills = Array.isArray(card['skills']) ? card['skills'].filter(isJsonObject) : [];
  return keyed(skills, (skill) => (typeof skill['id'] === 'string' ? skill['id'] : null));
}

function signingKeysOf(inspection: A2aInspection): Map<string, A2aSigningKey> {
  const keys = keyed(inspection.signatures, (s) => s.kid);
  return new Map([...keys].map(([kid, { entry }]) => [kid, { alg: entry.alg, jku: entry.jku, keyThumbprint: entry.keyThumbprint }]));
}

/** The card of an inspection as a baseline entry. */
export function a2aEntryOf(inspection: A2aInspection): A2aBaselineAgent {
  const card = unsigned(inspection.card);
  const signingKeys: Record<string, A2aSigningKey> = {};
  for (const [kid, key] of signingKeysOf(inspection)) define(signingKeys, kid, key);
  return { cardUrl: inspection.cardUrl, canonicalSha256: jcsSha256(card), card, signingKeys };
}

/** Two keyed sets of JSON objects compared: added, removed, changed with the members that differ. */
function compareItems(before: ReadonlyMap<string, JsonObject>, after: ReadonlyMap<string, JsonObject>): A2aItemChanges {
  const added = [...after.keys()].filter((key) => !before.has(key));
  const removed = [...before.keys()].filter((key) => !after.has(key));
  const changed: A2aItemChanges['changed'] = [];
  for (const [key, now] of after) {
    const then = before.get(key);
    if (then === undefined || jcsSha256(then) === jcsSha256(now)) continue;
    changed.push({ key, changedFields: changedMembers(then, now) });
  }
  return { added, removed, changed };
}

const asObjects = <T extends object>(map: ReadonlyMap<string, T>): Map<string, JsonObject> =>
  new Map([...map].map(([key, value]) => [key, value as unknown as JsonObject]));

/** The interfaces of a card as compared: url, protocolBinding, protocolVersion (as the inspection read them). */
function interfacesOf(inspection: Pick<A2aInspection, 'interfaces'>): Map<string, JsonObject> {
  const map = keyed(inspection.interfaces, (i) => i.url);
  return new Map([...map].map(([url, { entry }]) => [url, { url: entry.url, protocolBinding: entry.protocolBinding, protocolVersion: entry.protocolVersion }]));
}

/** What a baseline comparison is given. */
export interface A2aBaselineUse {
  file: string;
  name: string;
  entry: A2aBaselineAgent;
}

const LABEL = 'Card as approved';

const NOUN: Readonly<Record<'skills' | 'interfaces' | 'signingKeys', readonly [string, string]>> = {
  skills: ['skill', 'skills'],
  interfaces: ['interface', 'interfaces'],
  signingKeys: ['signing key', 'signing keys'],
};

/** `added skill "x"; changed signing key "k" (keyThumbprint)`. */
function differenceParts(comparison: Omit<A2aBaselineComparison, 'status'>): string[] {
  const parts: string[] = [];
  for (const kind of ['skills', 'interfaces', 'signingKeys'] as const) {
    const changes = comparison[kind];
    const noun = (n: number) => NOUN[kind][n === 1 ? 0 : 1];
    if (changes.added.length) parts.push(`added ${noun(changes.added.length)} ${changes.added.map(quoted).join(', ')}`);
    if (changes.removed.length) parts.push(`removed ${noun(changes.removed.length)} ${changes.removed.map(quoted).join(', ')}`);
    for (const c of changes.changed) parts.push(`changed ${NOUN[kind][0]} ${quoted(c.key)} (${c.changedFields.join(', ')})`);
  }
  if (comparison.card.length) parts.push(`card members changed: ${comparison.card.join(', ')}`);
  return parts;
}

/**
 * A card inspection compared with its approved entry: `baseline` set, the `drift` check appended
 * (PASS identical, FAIL on any difference) and the headline saying which.
 */
export function compareA2aBaseline(inspection: A2aInspection, use: A2aBaselineUse): A2aInspection {
  const now = a2aEntryOf(inspection);
  const then = use.entry;
  const beforeSkills = skillsOf(then.card);
  const afterSkills = skillsOf(now.card);
  const comparison: Omit<A2aBaselineComparison, 'status'> = {
    file: use.file,
    name: use.name,
    entrySha256: jcsSha256(then),
    card: changedMembers(then.card, now.card).filter((member) => member !== 'skills'),
    skills: compareItems(new Map([...beforeSkills].map(([k, v]) => [k, v.entry])), new Map([...afterSkills].map(([k, v]) => [k, v.entry]))),
    interfaces: compareItems(interfacesOf({ interfaces: cardInterfaces(then.card, specVersionOf(then.card), then.cardUrl) }), interfacesOf(inspection)),
    signingKeys: compareItems(asObjects(new Map(Object.entries(then.signingKeys))), asObjects(new Map(Object.entries(now.signingKeys)))),
  };
  const parts = differenceParts(comparison);
  const status = parts.length > 0 ? 'CHANGED' : 'UNCHANGED';
  const of = `the approved baseline ${use.file}`;
  const check: A2aCheck =
    status === 'CHANGED'
      ? { id: 'drift', label: LABEL, status: 'FAIL', detail: `Differs from ${of}: ${parts.join('; ')}. Approve it with svc a2a approve after review.` }
      : {
          id: 'drift',
          label: LABEL,
          status: 'PASS',
          detail: `Identical to ${of}: the card (canonical SHA-256 ${now.canonicalSha256.slice(0, 16)}…), ${plural(afterSkills.size, 'skill')}, ${plural(inspection.interfaces.length, 'interface')} and ${plural(Object.keys(now.signingKeys).length, 'signing key')}.`,
        };
  const headline = `${inspection.headline.replace(/\.$/, '')}, ${status === 'CHANGED' ? 'differs from' : 'identical to'} the approved baseline.`;
  return {
    ...inspection,
    checks: [...inspection.checks, check],
    headline,
    baseline: { ...comparison, status },
    limitations: [...inspection.limitations, `The card is compared with the approved baseline ${use.file}: it changes only when svc a2a approve rewrites it.`],
  };
}

/**
 * Two entries compared as compareA2aBaseline compares a card with its entry (a watch's snapshots:
 * core/monitoring/target-events.ts): skills by id, interfaces by URL, signing keys by kid, and the
 * card's other top-level members.
 */
export function a2aEntryDifferences(
  then: A2aBaselineAgent,
  now: A2aBaselineAgent,
): { skills: A2aItemChanges; interfaces: A2aItemChanges; signingKeys: A2aItemChanges; members: string[] } {
  const skills = (entry: A2aBaselineAgent) => new Map([...skillsOf(entry.card)].map(([k, v]) => [k, v.entry]));
  const interfaces = (entry: A2aBaselineAgent) => interfacesOf({ interfaces: cardInterfaces(entry.card, specVersionOf(entry.card), entry.cardUrl) });
  const keys = (entry: A2aBaselineAgent) => asObjects(new Map(Object.entries(entry.signingKeys)));
  return {
    skills: compareItems(skills(then), skills(now)),
    interfaces: compareItems(interfaces(then), interfaces(now)),
    signingKeys: compareItems(keys(then), keys(now)),
    members: changedMembers(then.card, now.card).filter((member) => member !== 'skills'),
  };
}

/** A baseline with one entry set (added or replaced). */
export function withAgent(baseline: A2aBaseline, name: string, entry: A2aBaselineAgent): A2aBaseline {
  const agents: Record<string, A2aBaselineAgent> = {};
  for (const [key, value] of Object.entries(baseline.agents)) define(agents, key, value);
  define(agents, name, entry);
  return { ...baseline, agents };
}

/** Where each difference of a comparison sits in the baseline: the entry's pointer for a kind and key. */
export function a2aDifferencePointer(name: string, entry: A2aBaselineAgent, kind: 'skills' | 'interfaces' | 'signingKeys' | 'card', key: string): string {
  if (kind === 'signingKeys')
    return Object.hasOwn(entry.signingKeys, key) ? a2aBaselinePointer(name, 'signingKeys', key) : a2aBaselinePointer(name, 'signingKeys');
  if (kind === 'skills') {
    const found = skillsOf(entry.card).get(key);
    return found ? a2aBaselinePointer(name, 'card', 'skills', found.index) : a2aBaselinePointer(name, 'card', 'skills');
  }
  if (kind === 'card') return Object.hasOwn(entry.card, key) ? a2aBaselinePointer(name, 'card', key) : a2aBaselinePointer(name, 'card');
  return a2aBaselinePointer(name, 'card');
}
