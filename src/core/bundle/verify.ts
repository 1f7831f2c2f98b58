/**
 * Making a bundle from recorded work, and checking one offline (`svc verify-bundle`): every
 * resource against its digest, every TLS chain at the bundle's time and now, the work re-run from
 * the recorded bytes at the bundle's time (it must give the recorded result) and now (what has
 * changed since: a certificate expired, a proof window closed), and the signature when there is one.
 * Nothing is fetched. What a bundle cannot prove is said with every answer.
 */
import type { X509Certificate } from 'node:crypto';
import type { JsonObject, JsonValue } from '../encoding/json.js';
import { MemoryResolutionCache } from '../resolve/cache.js';
import { rfc3339, type ResolutionCache, type Runtime } from '../runtime.js';
import { RESOLVER } from '../../version.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_HASH_PROFILE,
  BUNDLE_VERSION,
  digest,
  fromBase64,
  responseBody,
  toBase64,
  type BundleCommand,
  type BundleKind,
  type EvidenceBundle,
} from './format.js';
import { isKeptLogLimitation } from '../webvh/kept-log.js';
import { bundleKind } from './kinds.js';
import { fixedClock, replayRuntime, type Recorder } from './record.js';
import { chainAt, chainStructure, type ChainCheck } from './tls.js';

/** Bytes the work was given (a credential file), kept so the work can run again. */
export interface GivenInput {
  name: string;
  mediaType: string | null;
  body: Uint8Array;
}

/** The bundle of one piece of recorded work (unsigned). */
export function makeBundle(options: {
  command: BundleCommand;
  observedAt: Date;
  recorder: Recorder;
  inputs?: readonly GivenInput[];
  result: JsonObject;
}): EvidenceBundle {
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    hashProfile: BUNDLE_HASH_PROFILE,
    svc: { version: RESOLVER.version },
    observedAt: options.observedAt.toISOString(),
    command: options.command,
    inputs: (options.inputs ?? []).map((i) => ({ name: i.name, mediaType: i.mediaType, sha256: digest(i.body), body: toBase64(i.body) })),
    resources: options.recorder.resources,
    ...(options.recorder.failures.length > 0 ? { failures: options.recorder.failures } : {}),
    txt: options.recorder.txt,
    result: options.result,
  };
}

/** One resource checked against its digests. */
export interface ResourceCheck {
  id: string;
  purpose: string;
  url: string;
  bytes: number;
  /** The body's SHA-256 is the one recorded (and the request body's, when there was one). */
  intact: boolean;
  problems: string[];
}

/** One request the bundle records as having got no response. */
export interface FailureRecord {
  id: string;
  purpose: string;
  url: string;
  /** The problem code it ended in (UPSTREAM_UNAVAILABLE, PAYLOAD_TOO_LARGE …). */
  code: string;
}

/** One recorded TLS chain, at the bundle's time and now. */
export interface TlsCheck {
  id: string;
  host: string;
  anchor: string | null;
  /** The anchor is in this machine's trust store (null: no store was given). */
  anchorTrusted: boolean | null;
  atObservation: ChainCheck;
  now: ChainCheck;
  /** "valid at observation, valid now" | "valid at observation, expired now" | "invalid at observation" … */
  summary: string;
}

/** One place where a re-run's result differs from the recorded one. */
export interface Difference {
  /** Where, as a path into the result: `dimensions[keys].state`. */
  path: string;
  recorded: JsonValue | null;
  recomputed: JsonValue | null;
}

export interface RerunCheck {
  at: string;
  /** The re-run gave the recorded result (volatile members aside: timings, the trace). */
  matches: boolean;
  differences: Difference[];
  /** Requests the re-run made that the bundle holds no response for. */
  unrecorded: string[];
}

/** What a signature on the bundle says; filled by the caller's checker (the signing module). */
export interface SignatureCheck {
  verified: boolean;
  reason: string;
  detail: string;
  signer: { did: string; kid: string } | null;
  signedAt: string | null;
  /** What a valid signature proves, and what it does not. */
  proves: string;
}

export type BundleOutcome = 'VERIFIED' | 'CHANGED_SINCE' | 'FAILED' | 'INDETERMINATE';

export interface BundleVerification {
  outcome: BundleOutcome;
  /** One line: why the outcome is what it is. */
  summary: string;
  bundle: { version: number; svcVersion: string; kind: BundleKind; subject: string; observedAt: string; resources: number; signed: boolean };
  resources: ResourceCheck[];
  /** Requests that got no response (their problem is part of what the checks re-run on). */
  failures: FailureRecord[];
  tls: TlsCheck[];
  atObservation: RerunCheck | null;
  now: RerunCheck | null;
  signature: SignatureCheck | null;
  /** What this bundle shows, given the checks above. */
  shows: string[];
  /** What no bundle can prove. */
  cannotProve: string[];
}

export interface VerifyBundleOptions {
  /** Its clock is "now"; its config bounds what is read. Nothing is fetched through it. */
  runtime: Runtime;
  /** The certificates this machine trusts (null: not checked, anchorTrusted null). */
  trustAnchors: readonly X509Certificate[] | null;
  /** Checks the bundle's signature (present only when the bundle has one). */
  checkSignature?: (bundle: EvidenceBundle) => Promise<SignatureCheck>;
}

/** Members that differ from run to run without saying anything about the subject. */
const VOLATILE = new Set([
  'trace',
  'latencyMs',
  'durationMs',
  'cached',
  'observedAt',
  'checkedAt',
  'verifiedAt',
  'inspectedAt',
  'daysUntilExpiry',
  'elapsedMs',
  'retrieved',
  // How many did:webvh log entries were resumed from an earlier verification, not what they say.
  'reusedEntries',
  // What a store kept from earlier verifications: a bundle re-run offline has none to compare.
  'keptLog',
]);

function label(item: JsonValue, index: number): string {
  if (item && typeof item === 'object' && !Array.isArray(item)) {
    for (const key of ['name', 'id', 'dimension', 'check']) {
      const v = (item as JsonObject)[key];
      if (typeof v === 'string' && v.length <= 80) return v;
    }
  }
  return String(index);
}

/** An RFC 3339 date-time as svc writes one in a sentence, and a count of days ("9 days", "1 day"). */
const WRITTEN_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g;
const WRITTEN_DAYS = /\b\d+ days?\b/g;

/** A sentence with the times and day counts it names left out: what it says whatever the instant it was said at. */
function timeless(text: string): string {
  return text.replace(WRITTEN_TIME, '<time>').replace(WRITTEN_DAYS, '<n> days');
}

export interface CompareOptions {
  /** At most this many differences (default 50). */
  limit?: number;
  /**
   * The two results were computed at different instants on the same bytes (the re-run "now"):
   * a sentence that differs only in the times and day counts it names ("Valid at …", "expires in
   * 9 days") says the same thing, and is no difference — every decision (a state, a status) and
   * every other word still is.
   */
  otherInstant?: boolean;
}

/** The differences between two results, volatile members aside, at most `limit` of them. */
export function compareResults(recorded: JsonValue, recomputed: JsonValue, options: CompareOptions = {}): Difference[] {
  const limit = options.limit ?? 50;
  const out: Difference[] = [];
  const walk = (a: JsonValue | undefined, b: JsonValue | undefined, path: string): void => {
    if (out.length >= limit) return;
    if (a === b) return;
    if (options.otherInstant && typeof a === 'string' && typeof b === 'string' && timeless(a) === timeless(b)) return;
    const objA = a !== null && typeof a === 'object';
    const objB = b !== null && typeof b === 'object';
    if (objA && objB && Array.isArray(a) === Array.isArray(b)) {
      if (Array.isArray(a) && Array.isArray(b)) {
        const labels = a.map(label);
        const labelsB = b.map(label);
        const keyed = new Set(labels).size === labels.length && new Set(labelsB).size === labelsB.length && labels.some((l, i) => l !== String(i));
        if (keyed) {
          const mapB = new Map(b.map((item, i) => [labelsB[i]!, item]));
          a.forEach((item, i) => walk(item, mapB.get(labels[i]!), `${path}[${labels[i]}]`));
          b.forEach((item, i) => {
            if (!labels.includes(labelsB[i]!)) walk(undefined, item, `${path}[${labelsB[i]}]`);
          });
        } else {
          for (let i = 0; i < Math.max(a.length, b.length); i += 1) walk(a[i], b[i], `${path}[${i}]`);
        }
        return;
      }
      const oa = a as JsonObject;
      const ob = b as JsonObject;
      // Which svc computed a resolution (`resolver.version`) is the bundle's svc.version, not evidence.
      const inResolver = path === 'resolver' || path.endsWith('.resolver');
      for (const key of new Set([...Object.keys(oa), ...Object.keys(ob)])) {
        if (VOLATILE.has(key) || (inResolver && key === 'version')) continue;
        // What a store kept is not in the bundle: the sentences about the kept log are left out.
        if (key === 'limitations' && Array.isArray(oa[key]) && Array.isArray(ob[key])) {
          walk(
            (oa[key] as JsonValue[]).filter((l) => !isKeptLogLimitation(l)),
            (ob[key] as JsonValue[]).filter((l) => !isKeptLogLimitation(l)),
            key,
          );
          continue;
        }
        walk(oa[key], ob[key], path ? `${path}.${key}` : key);
      }
      return;
    }
    out.push({ path: path || '(the result)', recorded: a ?? null, recomputed: b ?? null });
  };
  walk(recorded, recomputed, '');
  return out;
}

function checkResources(bundle: EvidenceBundle): ResourceCheck[] {
  return bundle.resources.map((r) => {
    const problems: string[] = [];
    const body = responseBody(r.response);
    if (!body || digest(body) !== r.response.sha256) problems.push('its bytes do not match the SHA-256 recorded with them');
    if (r.request.body !== undefined) {
      const sent = fromBase64(r.request.body);
      if (!sent || digest(sent) !== r.request.sha256) problems.push('the request body does not match the SHA-256 recorded with it');
    }
    return { id: r.id, purpose: r.purpose, url: r.request.url, bytes: r.response.bytes, intact: problems.length === 0, problems };
  });
}

function tlsSummary(then: ChainCheck, now: ChainCheck): string {
  if (!then.valid) return 'invalid at observation';
  if (now.valid) return 'valid at observation, valid now';
  return now.problems.some((p) => p.includes('expired')) ? 'valid at observation, expired now' : 'valid at observation, invalid now';
}

function checkTls(bundle: EvidenceBundle, anchors: readonly X509Certificate[] | null, now: Date): TlsCheck[] {
  const out: TlsCheck[] = [];
  // Every resource from one host carries the same chain: its time-free checks are made once.
  const structures = new Map<string, ReturnType<typeof chainStructure>>();
  for (const r of bundle.resources) {
    if (!r.tls) continue;
    const key = `${r.tls.host} ${r.tls.chain.join(' ')}`;
    let structure = structures.get(key);
    if (!structure) {
      structure = chainStructure(r.tls.chain, r.tls.host, anchors);
      structures.set(key, structure);
    }
    const atObservation = chainAt(structure, new Date(r.fetchedAt));
    const atNow = chainAt(structure, now);
    out.push({
      id: r.id,
      host: r.tls.host,
      anchor: structure.anchor,
      anchorTrusted: structure.anchorTrusted,
      atObservation,
      now: atNow,
      summary: tlsSummary(atObservation, atNow),
    });
  }
  return out;
}

/**
 * The work re-run on the recorded bytes at `at`. `atObservation`: the bundle's own time, TLS
 * evidence as of each fetch — it must give the recorded result word for word; else "now", where
 * only what the result says counts (compareResults `otherInstant`).
 */
async function rerun(
  bundle: EvidenceBundle,
  runtime: Runtime,
  at: Date,
  inputs: ReadonlyMap<string, Uint8Array>,
  atObservation: boolean,
  cache: ResolutionCache | undefined,
): Promise<RerunCheck | null> {
  const spec = bundleKind(bundle.command.kind);
  if (!spec) return null;
  // Each run starts from an empty cache (a resolution it makes twice is fetched as in the original);
  // the verified did:webvh prefixes kept beside the cache carry over.
  cache?.clear();
  const replay = replayRuntime(runtime, bundle, at, atObservation, cache);
  const result = await spec.rerun(replay.runtime, bundle.command, inputs);
  const differences = compareResults(bundle.result, result, { otherInstant: !atObservation });
  return { at: rfc3339(at), matches: differences.length === 0, differences, unrecorded: replay.log.missing };
}

const CANNOT_PROVE = [
  'That the host really served these bytes: an unsigned bundle is a file anyone could have written, and a signed one shows only what the signing svc reported.',
  'What the host serves today, or served before or after the observation: a bundle is one observation, not a history.',
  'That the recorded trust anchor was trusted by anyone but the svc that made the bundle, unless this machine trusts it too (see each chain).',
];

/** Checks a decoded bundle offline; never fetches. A failed check is in the answer, not thrown. */
export async function verifyBundle(bundle: EvidenceBundle, options: VerifyBundleOptions): Promise<BundleVerification> {
  const now = options.runtime.clock.now();
  const resources = checkResources(bundle);
  const tls = checkTls(bundle, options.trustAnchors, now);
  const inputs = new Map<string, Uint8Array>();
  const inputProblems: string[] = [];
  for (const input of bundle.inputs) {
    const body = fromBase64(input.body);
    if (!body || digest(body) !== input.sha256) inputProblems.push(`the input "${input.name}" does not match the SHA-256 recorded with it`);
    else inputs.set(input.name, body);
  }
  const observed = new Date(bundle.observedAt);
  // One cache for both runs when "now" is not before the observation: what holds of a log's
  // entries at the bundle's time holds later (an entry in the future then is so now).
  const shared = now.getTime() >= observed.getTime() ? new MemoryResolutionCache(fixedClock(observed, options.runtime.clock), 64) : undefined;
  const atObservation = await rerun(bundle, options.runtime, observed, inputs, true, shared);
  const atNow = await rerun(bundle, options.runtime, now, inputs, false, shared);
  const signature = bundle.signature && options.checkSignature ? await options.checkSignature(bundle) : null;

  const damaged = resources.filter((r) => !r.intact);
  const failed: string[] = [
    ...damaged.map((r) => `${r.id} (${r.purpose}, ${r.url}): ${r.problems.join('; ')}`),
    ...inputProblems,
    ...tls
      .filter((t) => !t.atObservation.valid)
      .map((t) => `${t.id}: the TLS chain of ${t.host} was not valid at observation (${t.atObservation.problems[0]})`),
  ];
  if (atObservation && !atObservation.matches) {
    const d = atObservation.differences[0]!;
    // svc.version is informational: another svc's bundle is read alike, and a difference is still
    // FAILED (fail closed), but it may come from svc's checks having changed rather than the evidence.
    const another =
      bundle.svc.version === RESOLVER.version
        ? ''
        : ` (the bundle was made by svc ${brief(bundle.svc.version)}, this is svc ${RESOLVER.version}: svc's checks may have changed between them)`;
    failed.push(`re-run at the bundle's time: ${d.path} gives ${brief(d.recomputed)}, recorded ${brief(d.recorded)}${another}`);
  }
  if (signature && !signature.verified) failed.push(`signature: ${signature.detail}`);

  const changed: string[] = [
    ...tls.filter((t) => t.atObservation.valid && !t.now.valid).map((t) => `${t.id}: ${t.summary} (${t.now.problems[0]})`),
    ...(atNow && !atNow.matches ? atNow.differences.slice(0, 3).map((d) => `now: ${d.path} ${brief(d.recorded)} → ${brief(d.recomputed)}`) : []),
  ];
  const untrusted = tls.filter((t) => t.anchorTrusted === false).map((t) => `${t.id}: this machine does not trust the anchor ${t.anchor ?? ''}`);

  let outcome: BundleOutcome;
  let summary: string;
  if (failed.length > 0) {
    outcome = 'FAILED';
    summary = failed[0]!;
  } else if (!atObservation) {
    outcome = 'INDETERMINATE';
    summary = `this svc cannot re-run a ${bundle.command.kind} bundle; only its digests and TLS chains were checked`;
  } else if (untrusted.length > 0) {
    outcome = 'INDETERMINATE';
    summary = untrusted[0]!;
  } else if (changed.length > 0) {
    outcome = 'CHANGED_SINCE';
    summary = changed[0]!;
  } else {
    outcome = 'VERIFIED';
    summary = `every recorded resource is intact and every check gives the recorded result, at ${bundle.observedAt} and now`;
  }

  const shows = [
    `${bundle.resources.length} resource${bundle.resources.length === 1 ? '' : 's'} recorded at ${bundle.observedAt}, each with the bytes svc saw and their SHA-256.`,
    'Every check that needs no network, re-run on those bytes, and what it gives at the bundle’s time and now.',
  ];
  if (signature?.verified) shows.push(signature.proves);
  return {
    outcome,
    summary,
    bundle: {
      version: bundle.version,
      svcVersion: bundle.svc.version,
      kind: bundle.command.kind,
      subject: bundle.command.subject,
      observedAt: bundle.observedAt,
      resources: bundle.resources.length,
      signed: bundle.signature !== undefined,
    },
    resources,
    failures: (bundle.failures ?? []).map((f) => ({ id: f.id, purpose: f.purpose, url: f.request.url, code: f.problem.code })),
    tls,
    atObservation,
    now: atNow,
    signature,
    shows,
    cannotProve: CANNOT_PROVE,
  };
}

function brief(value: JsonValue | null): string {
  if (value === null) return 'absent';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
