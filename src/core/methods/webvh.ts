/**
 * did:webvh v1.0 and v0.5 (decentralized-identity/didwebvh, spec-v1.0 and spec-v0.5): the identifier names an HTTPS
 * location of a hash-chained, signed log (`did.jsonl`) whose first entry hashes to the SCID in
 * the identifier. Resolution fetches the log through the Runtime's fetcher (egress policy,
 * pinned connection, TLS evidence), verifies every entry (src/core/webvh/verify.ts), fetches
 * `did-witness.json` only when a verified entry needs witnessing, and serves the version asked
 * for. The domain's DID configuration is fetched beside the log, as for did:web.
 *
 * What is a result and what is no answer (docs/evidence.md#versions):
 *   - the whole log verifies → RESOLVED, integrity SELF_CERTIFYING, control and history
 *     ESTABLISHED;
 *   - an earlier version is asked for and a later entry fails → that version is served, with
 *     the failing dimension(s) FAILED and RESOLVED_WITH_WARNINGS (spec: "return the
 *     corresponding DIDDoc … even if later entries in the log are invalid");
 *   - the current version (no selector) or a version at/after the failure is asked for, or no
 *     entry verifies at all → INVALID_DID_DOCUMENT with the failing entry and check;
 *   - the version asked for does not exist, or the selectors disagree → NOT_FOUND;
 *   - the version asked for is at or after an entry of a specification version svc does not
 *     implement (did:webvh:0.4, did:tdw:…, did:webvh:2.0) → FEATURE_NOT_SUPPORTED naming it.
 */
import { startDomainBinding } from '../linkage/check.js';
import { DEFAULT_CACHE_MAX_BYTES, estimateResolutionBytes } from '../resolve/cache.js';
import { ProblemError } from '../problems.js';
import { rfc3339 } from '../runtime.js';
import type { Runtime } from '../runtime.js';
import { DEFAULT_WEBVH_MAX_BYTES, DEFAULT_WEBVH_MAX_ENTRIES, requireLogWithinEntries } from '../webvh/limits.js';
import { didWebvhLocation } from '../webvh/location.js';
import { witnessMetadata } from '../webvh/parameters.js';
import { withImplicitServices } from '../webvh/services.js';
import { parseVersionTime, selectVersion, unsupportedVersion } from '../webvh/select.js';
import type { HistoryEvidence } from '../webvh/types.js';
import { applyWitnesses, needsWitnesses, verifyLogEntries, type LogVerification, type VerifiedPrefix, type WitnessFileInput } from '../webvh/verify.js';
import { decodeJsonText, parseJsonBytes } from '../encoding/json.js';
import { keepVerifiedLog } from '../webvh/keep-stage.js';
import type { MethodDriver, MethodResolution } from './types.js';
import { fetchWebResource, httpsSource } from './web-fetch.js';
import { colonPortHint } from './web-location.js';
import { plural } from '../text.js';
import { describeResponse, suppliedNotes } from '../supplied/resources.js';

/**
 * Largest did.jsonl svc reads by default (bytes); a larger one is PAYLOAD_TOO_LARGE. The
 * Runtime's config can change it (SVC_WEBVH_MAX_BYTES), and bounds the entries too
 * (SVC_WEBVH_MAX_ENTRIES): see core/webvh/limits.ts.
 */
export const DID_LOG_MAX_BYTES = DEFAULT_WEBVH_MAX_BYTES;
/** Largest did-witness.json svc reads (bytes). */
export const DID_WITNESS_MAX_BYTES = 1024 * 1024;

const LOG_ACCEPT = 'text/jsonl, application/jsonl;q=0.9, application/json;q=0.5, */*;q=0.1';

/*
 * Verified prefixes per resolution cache (i.e. per Runtime), by DID: a log that only grew is
 * verified from where it was left. A prefix holds every verified version's document, so it is
 * bounded like the resolution cache: at most 256 prefixes, and at most a quarter of the cache's
 * byte budget (SVC_CACHE_MAX_BYTES; 16 MiB by default) by the same estimate, least recently
 * stored first. A prefix larger than that budget is not kept (its log is verified whole again).
 */
const PREFIX_CACHE_ENTRIES = 256;
const PREFIX_BUDGET_SHARE = 4;

interface PrefixCache {
  prefixes: Map<string, { prefix: VerifiedPrefix; bytes: number }>;
  bytes: number;
  maxBytes: number;
}

const prefixCaches = new WeakMap<object, PrefixCache>();

function prefixCache(runtime: Runtime): PrefixCache {
  let cache = prefixCaches.get(runtime.cache);
  if (!cache) {
    const maxBytes = Math.floor((runtime.cache.usage?.().maxBytes ?? DEFAULT_CACHE_MAX_BYTES) / PREFIX_BUDGET_SHARE);
    cache = { prefixes: new Map(), bytes: 0, maxBytes };
    prefixCaches.set(runtime.cache, cache);
  }
  return cache;
}

function forget(cache: PrefixCache, did: string): void {
  const kept = cache.prefixes.get(did);
  if (kept === undefined) return;
  cache.prefixes.delete(did);
  cache.bytes -= kept.bytes;
}

function remember(cache: PrefixCache, prefix: VerifiedPrefix): void {
  forget(cache, prefix.did);
  if (prefix.versions.length === 0) return;
  const bytes = estimateResolutionBytes(prefix.versions) + estimateResolutionBytes(prefix.entries);
  if (bytes > cache.maxBytes) return;
  cache.prefixes.set(prefix.did, { prefix, bytes });
  cache.bytes += bytes;
  while (cache.prefixes.size > PREFIX_CACHE_ENTRIES || cache.bytes > cache.maxBytes) forget(cache, cache.prefixes.keys().next().value as string);
}

/** Bytes and entries of the verified prefixes kept for `runtime` (tests). */
export function verifiedPrefixUsage(runtime: Runtime): { entries: number; bytes: number; maxBytes: number } {
  const cache = prefixCache(runtime);
  return { entries: cache.prefixes.size, bytes: cache.bytes, maxBytes: cache.maxBytes };
}

export const didWebvh: MethodDriver = {
  method: 'webvh',
  selfCertifying: false,
  acceptsVersionOptions: true,
  checkIdentifier(parsed) {
    didWebvhLocation(parsed.id);
  },
  async resolve(parsed, context): Promise<MethodResolution> {
    const { runtime, trace, options } = context;
    const location = didWebvhLocation(parsed.id);
    if (options.versionTime !== undefined) parseVersionTime(options.versionTime);

    const binding = startDomainBinding(location.origin, context);
    const { response, abandon } = await fetchWebResource(context, binding, {
      url: location.logUrl,
      purpose: 'DID log',
      maxBytes: runtime.config.webvhMaxBytes ?? DEFAULT_WEBVH_MAX_BYTES,
      maxBytesSetting: 'SVC_WEBVH_MAX_BYTES',
      accept: LOG_ACCEPT,
      origin: location.origin,
      hint: colonPortHint('webvh', parsed.id),
    });

    const cache = prefixCache(runtime);
    let logText = '';
    const entries = await trace
      .run('webvh.verify_log', 'Verify every entry of the DID log', async (stage) => {
        // The entry bound first: a log over it costs a scan for newlines, no verification.
        requireLogWithinEntries(response.body, runtime.config.webvhMaxEntries ?? DEFAULT_WEBVH_MAX_ENTRIES, response.url);
        const text = decodeJsonText(response.body, `The DID log at ${response.url}`);
        if (typeof text !== 'string') throw new ProblemError('INVALID_DID_DOCUMENT', `${text.error}.`);
        logText = text;
        const resume = options.noCache ? undefined : cache.prefixes.get(parsed.did)?.prefix;
        const verification = await verifyLogEntries(parsed.did, location.scid, text, runtime.clock.now().getTime(), resume);
        remember(cache, verification.prefix);
        const { versions, entries: all, failure, reusedEntries } = verification;
        if (all.length === 0) throw new ProblemError('INVALID_DID_DOCUMENT', `The DID log at ${response.url} is empty.`);
        if (versions.length === 0) {
          if (failure!.unsupportedMethod !== undefined) throw unsupportedVersion(failure!, 'no version of the DID');
          throw new ProblemError(
            'INVALID_DID_DOCUMENT',
            `No version of the DID log verifies: entry ${failure!.versionNumber} fails (${failure!.check}): ${failure!.reason}.`,
          );
        }
        stage.status = failure ? 'WARN' : 'PASS';
        stage.detail =
          `${versions.length} of ${plural(all.length, 'entry', 'entries')} verified` +
          (reusedEntries > 0 ? ` (${reusedEntries} reused from an earlier verification)` : '') +
          (failure ? `; entry ${failure.versionNumber} fails (${failure.check}): ${failure.reason}` : '');
        return verification;
      })
      .catch(abandon);

    // Only a log with witnessed entries needs the witness file; its absence means no approvals.
    const witnessFile = needsWitnesses(entries)
      ? await trace
          .run('webvh.fetch_witnesses', 'Fetch the witness proofs', async (stage): Promise<WitnessFileInput | null> => {
            const fetched = await runtime.net.fetch({
              url: location.witnessUrl,
              purpose: 'witness proofs',
              maxBytes: DID_WITNESS_MAX_BYTES,
              accept: 'application/json',
              signal: trace.signal,
            });
            stage.detail = describeResponse(fetched);
            if (fetched.status === 404 || fetched.status === 410) {
              stage.detail += ': no witness file published';
              return null;
            }
            if (fetched.status < 200 || fetched.status > 299) {
              throw new ProblemError('UPSTREAM_UNAVAILABLE', `${location.origin} answered HTTP ${fetched.status} for the witness proofs.`);
            }
            return {
              parsed: parseJsonBytes(fetched.body, 'the witness file'),
              evidence: {
                url: fetched.url,
                httpStatus: fetched.supplied ? null : fetched.status,
                contentType: fetched.contentType,
                bytes: fetched.bytes,
                sha256: fetched.sha256,
              },
            };
          })
          .catch(abandon)
      : null;

    const log: LogVerification = await trace
      .run('webvh.verify_witnesses', 'Check witness approvals', async (stage) => {
        const verified = await applyWitnesses(entries, witnessFile, location.witnessUrl, runtime.clock.now().getTime());
        const { witness } = verified;
        if (witness.status === 'NOT_REQUIRED') {
          stage.status = 'SKIP';
          stage.detail = 'no verified entry needs witnessing';
        } else {
          const failed = verified.failure?.check === 'witness';
          stage.status = failed ? 'FAIL' : 'PASS';
          stage.detail = `${witness.status === 'FOUND' ? `${plural(witness.acceptedProofs, 'proof')} accepted, ${witness.discarded.length} discarded` : witness.status === 'NOT_PUBLISHED' ? 'no witness file published' : `unreadable witness file: ${witness.reason}`}${failed ? `; ${verified.failure!.reason}` : ''}`;
        }
        if (verified.valid.length === 0) {
          throw new ProblemError('INVALID_DID_DOCUMENT', `No version of the DID log verifies: ${verified.failure!.reason}.`);
        }
        return verified;
      })
      .catch(abandon);

    // With a store, the log is compared with the one kept from earlier verifications, and kept.
    const keptLog = await keepVerifiedLog(context, { did: parsed.did, scid: location.scid, text: logText, log, witnessFile });

    const { version: selected, document } = await trace
      .run('webvh.select_version', 'Select the version asked for', (stage) => {
        if (!log.valid.some((v) => v.document.id === parsed.did)) {
          throw new ProblemError(
            'INVALID_DID_DOCUMENT',
            `No verified entry of the DID log is for ${parsed.did} (the log is for ${log.valid[log.valid.length - 1]!.document.id}).`,
          );
        }
        const version = selectVersion(log, options);
        if (version.document.id !== parsed.did) {
          throw new ProblemError(
            'INVALID_DID_DOCUMENT',
            `Version ${version.versionNumber} of the log is the document of ${version.document.id}, not ${parsed.did}: the DID moved (it is portable).`,
          );
        }
        const served = withImplicitServices(version.document, location);
        stage.detail = `version ${version.versionNumber} (${version.versionId})${served.added.length > 0 ? `; implicit services ${served.added.join(', ')} added` : ''}`;
        return { version, document: served.document };
      })
      .catch(abandon);

    const last = log.valid[log.valid.length - 1]!;
    // "updated" is the last entry that verifies on its own (hash chain, proof, time): an update
    // the controller signed, even while it waits for witness approval (the python resolver suite
    // reads the spec's "last valid log entry" so).
    const lastSigned = log.versions[log.versions.length - 1]!;
    const first = log.valid[0]!;
    const next = log.valid[selected.versionNumber];
    const params = last.parameters;
    const didDocumentMetadata: Record<string, unknown> = {
      versionId: selected.versionId,
      versionNumber: selected.versionNumber,
      versionTime: rfc3339(new Date(selected.timeMs)),
      created: rfc3339(new Date(first.timeMs)),
      updated: rfc3339(new Date(lastSigned.timeMs)),
      ...(next ? { nextVersionId: next.versionId } : {}),
      scid: location.scid,
      portable: params.portable,
      deactivated: params.deactivated,
      ttl: String(params.ttl),
      witness: witnessMetadata(params.witness),
      watchers: params.watchers,
      webvhMethod: selected.parameters.method,
    };
    const history: HistoryEvidence = {
      scid: location.scid,
      entries: log.entries,
      witness: log.witness,
      verifiedEntries: log.valid.length,
      selectedVersion: selected.versionNumber,
      failure: log.failure && { versionNumber: log.failure.versionNumber, check: log.failure.check, reason: log.failure.reason },
      reusedEntries: log.reusedEntries,
      ...(keptLog ? { keptLog } : {}),
    };
    const domainBinding = await binding.finish(parsed.did, document);
    return {
      document,
      contentType: 'application/did',
      source: httpsSource(response),
      didDocumentMetadata,
      tls: response.tls,
      domainBinding,
      history,
      allowances: response.allowances,
      supplied: suppliedNotes(runtime, [
        { purpose: 'DID log', url: location.logUrl },
        ...(log.witness.status !== 'NOT_REQUIRED' ? [{ purpose: 'witness file', url: location.witnessUrl }] : []),
        { purpose: 'DID configuration', url: binding.url },
      ]),
      // A log that fails verification, or was rewritten, is not cached (spec: SHOULD NOT cache); otherwise its ttl,
      // within the operator's cache lifetime.
      ttlSeconds:
        log.failure || keptLog?.status === 'REWRITTEN' || domainBinding?.status === 'UNREACHABLE' ? 0 : Math.min(params.ttl, runtime.config.cacheTtlSeconds),
    };
  },
};
