/**
 * A small did:webvh v1.0 log writer for tests that need logs the public vectors do not have:
 * tampered, mis-signed, mis-timed, witnessed in odd ways. Hashes come from svc (they are checked
 * against every public vector in test/unit/webvh-hash.test.ts); signatures are made with
 * node:crypto in ./signing.ts. didwebvh-ts, the independent oracle, is in ./webvh-ts.ts.
 *
 *   const log = createWebvhLog({ key });
 *   log.append({ key, time: '2024-01-02T00:00:00Z', params: { updateKeys: [next.multikey!] } });
 *   log.text()   // did.jsonl
 */
import { computeEntryHash, computeScid, SCID_PLACEHOLDER } from '../../src/core/webvh/hash.js';
import { generateTestKey, signEddsaJcs2022, type TestKey } from './signing.js';

export type Entry = Record<string, any>;

export interface AppendOptions {
  /** Signs the entry (default: the log's first key). */
  key?: TestKey;
  /** versionTime (default: one day after the previous entry). */
  time?: string;
  params?: Record<string, unknown>;
  /** Changes the state (the DIDDoc) of this version. */
  state?: (previous: Entry) => Entry;
  /** Changes the entry after hashing and before signing (a controller publishing a bad entry). */
  beforeSign?: (entry: Entry) => void;
  /** Changes the entry after signing (tampering in transit or on the server). */
  afterSign?: (entry: Entry) => void;
  /** The versionId to chain from (default: the previous entry's). */
  chainFrom?: string;
  /** Further members of the entry's proof, signed with it (e.g. `expires`). */
  proof?: Record<string, unknown>;
}

export interface WebvhTestLog {
  did: string;
  scid: string;
  domain: string;
  entries: Entry[];
  append(options?: AppendOptions): Entry;
  text(): string;
}

function dayAfter(time: string): string {
  return new Date(new Date(time).getTime() + 86_400_000).toISOString().replace('.000Z', 'Z');
}

export function sign(entry: Entry, key: TestKey, proofExtra: Record<string, unknown> = {}): Entry {
  const { proof: _p, ...unsigned } = entry;
  const vm = `did:key:${key.multikey}#${key.multikey}`;
  const signed = signEddsaJcs2022(unsigned, key, vm, entry['versionTime'], proofExtra);
  return { ...unsigned, proof: [signed['proof']] };
}

export function createWebvhLog(options: { key?: TestKey; domain?: string; time?: string; params?: Record<string, unknown>; state?: Entry } = {}): WebvhTestLog {
  const key = options.key ?? generateTestKey('EdDSA');
  const domain = options.domain ?? 'example.com';
  const time = options.time ?? '2024-01-01T00:00:00Z';
  const placeholderDid = `did:webvh:${SCID_PLACEHOLDER}:${domain}`;
  const preliminary: Entry = {
    versionId: SCID_PLACEHOLDER,
    versionTime: time,
    parameters: { method: 'did:webvh:1.0', scid: SCID_PLACEHOLDER, updateKeys: [key.multikey!], ...options.params },
    state: options.state ?? { '@context': ['https://www.w3.org/ns/did/v1'], id: placeholderDid },
  };
  const scid = hashWithPlaceholder(preliminary);
  const first: Entry = JSON.parse(JSON.stringify(preliminary).split(SCID_PLACEHOLDER).join(scid));
  first['versionId'] = `1-${computeEntryHash(first, scid)}`;
  const did = `did:webvh:${scid}:${domain}`;
  const entries: Entry[] = [sign(first, key)];
  const log: WebvhTestLog = {
    did,
    scid,
    domain,
    entries,
    append(opts = {}) {
      const previous = entries[entries.length - 1]!;
      const n = entries.length + 1;
      const entry: Entry = {
        versionId: opts.chainFrom ?? previous['versionId'],
        versionTime: opts.time ?? dayAfter(previous['versionTime']),
        parameters: opts.params ?? {},
        state: opts.state ? opts.state(structuredClone(previous['state'])) : structuredClone(previous['state']),
      };
      entry['versionId'] = `${n}-${computeEntryHash(entry, entry['versionId'])}`;
      opts.beforeSign?.(entry);
      const signed = sign(entry, opts.key ?? key, opts.proof);
      opts.afterSign?.(signed);
      entries.push(signed);
      return signed;
    },
    text: () => entries.map((e) => JSON.stringify(e)).join('\n') + '\n',
  };
  return log;
}

/** The SCID of a preliminary first entry (every SCID position holds the placeholder). */
function hashWithPlaceholder(preliminary: Entry): string {
  // computeScid replaces occurrences of its second argument by the placeholder; here they are
  // already placeholders, so hashing with a string that never occurs gives H(preliminary).
  return computeScid(preliminary, '\u0000never-in-json\u0000');
}

/** A witness proof of `versionId` by `witness` (eddsa-jcs-2022 over {versionId}). */
export function witnessProof(versionId: string, witness: TestKey, created = '2024-01-01T00:00:00Z'): Entry {
  return signEddsaJcs2022({ versionId }, witness, `did:key:${witness.multikey}#${witness.multikey}`, created)['proof'] as Entry;
}

/** did-witness.json: `[{versionId, proof: [...]}]`. */
export function witnessFileText(items: Array<{ versionId: string; by: TestKey[] }>): string {
  return JSON.stringify(items.map((i) => ({ versionId: i.versionId, proof: i.by.map((w) => witnessProof(i.versionId, w)) })));
}
