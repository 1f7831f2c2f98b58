/**
 * Resolution: one pipeline of timed stages from a DID string to an EnrichedResolution.
 *
 *   syntax.parse → <method stages> → document.inspect → crypto.validate_keys → evidence.evaluate
 *
 * Each stage appends to the trace and produces evidence; dimensions, verdict, graph and
 * limitations are computed from that evidence at the end. A ProblemError (no answer) carries
 * the trace up to and including the failing stage.
 */
import { parseDid, type ParsedDid } from '../did/syntax.js';
import { driverFor, SUPPORTED_METHODS } from '../methods/registry.js';
import type { MethodDriver, ResolveOptions } from '../methods/types.js';
import { ProblemError } from '../problems.js';
import { rfc3339, type Runtime } from '../runtime.js';
import { didMethodLabel, thrownOutcome } from '../telemetry.js';
import { plural } from '../text.js';
import { RESOLVER } from '../../version.js';
import { hasVersionOptions } from './version-options.js';
import { evaluateDimensions, type EvaluationInput } from './dimensions.js';
import { readDocument } from './document.js';
import { buildGraph } from './graph.js';
import { validateKeys } from './keys.js';
import { Trace, type StageHooks, type StageListener } from './trace.js';
import type { EnrichedResolution, Evidence } from './types.js';
import { buildLimitations, buildVerdict } from './verdict.js';
import { startWhois } from './whois.js';

export type { ResolveOptions } from '../methods/types.js';

export interface ResolveHooks extends StageHooks {
  /** Called as each stage completes (the SSE stream listens here). */
  onStage?: StageListener;
}

function cacheKey(did: string, options: ResolveOptions): string {
  const { versionId, versionTime, versionNumber } = options;
  if (versionId === undefined && versionTime === undefined && versionNumber === undefined) return did;
  return `${did}?versionId=${versionId ?? ''}&versionTime=${versionTime ?? ''}&versionNumber=${versionNumber ?? ''}`;
}

export async function resolve(input: string, runtime: Runtime, options: ResolveOptions = {}, hooks: ResolveHooks = {}): Promise<EnrichedResolution> {
  const telemetry = runtime.telemetry;
  if (!telemetry) return resolveOnce(input, runtime, options, hooks);
  // Counted where the outcome is decided: its method family, `ok` or the problem's code, and whether the cache answered.
  const answer = { cached: false };
  const method = didMethodLabel(input);
  try {
    const result = await resolveOnce(input, runtime, options, hooks, answer);
    telemetry.record({ type: 'resolution', method, outcome: 'ok', cached: answer.cached });
    return result;
  } catch (err) {
    telemetry.record({ type: 'resolution', method, outcome: thrownOutcome(err), cached: false });
    throw err;
  }
}

async function resolveOnce(
  input: string,
  runtime: Runtime,
  options: ResolveOptions,
  hooks: ResolveHooks,
  answer: { cached: boolean } = { cached: false },
): Promise<EnrichedResolution> {
  // Fast path: a plain DID is its own cache key (parseDid does not rewrite it), so a hit
  // needs neither parsing nor a trace. Invalid input never reaches the cache.
  if (!options.noCache && !hasVersionOptions(options)) {
    const hit = runtime.cache.get(input);
    if (hit) {
      answer.cached = true;
      return hit;
    }
  }
  const started = runtime.clock.now();
  const trace = new Trace(runtime.clock, hooks.onStage, options.signal, hooks.onStageStart, runtime.telemetry);

  const { parsed, driver } = await trace.run('syntax.parse', 'Parse the DID', (stage) => {
    const parsed: ParsedDid = parseDid(input);
    const driver: MethodDriver | undefined = driverFor(parsed.method);
    if (!driver) {
      throw new ProblemError(
        'METHOD_NOT_SUPPORTED',
        `The DID method "${parsed.method}" is not supported; svc resolves ${SUPPORTED_METHODS.map((m) => `did:${m}`).join(', ')}.`,
      );
    }
    if (hasVersionOptions(options) && !driver.acceptsVersionOptions) {
      throw new ProblemError('INVALID_OPTIONS', `did:${parsed.method} has no versions; versionId, versionTime and versionNumber do not apply.`);
    }
    // Method-specific syntax (a did:web host too long for DNS…) is a syntax failure too.
    driver.checkIdentifier?.(parsed);
    stage.detail = `did:${parsed.method}`;
    return { parsed, driver };
  });

  const key = cacheKey(parsed.did, options);
  if (!options.noCache && hasVersionOptions(options)) {
    const hit = runtime.cache.get(key);
    if (hit) {
      answer.cached = true;
      return hit;
    }
  }

  // The whois presentation of a did:webvh is fetched beside its log (resolve/whois.ts).
  const whois = startWhois(parsed, runtime, trace, hasVersionOptions(options));
  const abandon = (err: unknown): never => {
    whois.abandon();
    throw err;
  };
  const method = await driver.resolve(parsed, { runtime, trace, options }).catch(abandon);

  const reading = await trace
    .run('document.inspect', 'Read the DID document', (stage) => {
      const reading = readDocument(parsed.did, method.document);
      if (!reading.evidence.idMatches) {
        throw new ProblemError('INVALID_DID_DOCUMENT', `The document's id (${String(method.document.id)}) does not match ${parsed.did}.`);
      }
      const { warnings } = reading.evidence;
      stage.status = warnings.length > 0 ? 'WARN' : 'PASS';
      stage.detail = `${plural(reading.methods.length, 'verification method')}, ${plural(reading.services.length, 'service')}${warnings.length ? `, ${plural(warnings.length, 'warning')}` : ''}`;
      return reading;
    })
    .catch(abandon);

  const keys = await trace
    .run('crypto.validate_keys', 'Validate key material', async (stage) => {
      const validation = await validateKeys(reading.methods, method.keyChecks);
      const invalid = validation.keys.filter((k) => k.status === 'INVALID_KEY').length;
      const unsupported = validation.keys.filter((k) => k.status === 'UNSUPPORTED_KEY').length;
      const valid = validation.keys.length - invalid - unsupported;
      stage.status = invalid > 0 ? 'FAIL' : unsupported > 0 ? 'WARN' : 'PASS';
      stage.detail = `${valid} valid, ${invalid} invalid, ${unsupported} unsupported`;
      return validation;
    })
    .catch(abandon);
  const deactivated = method.didDocumentMetadata['deactivated'] === true;
  // A deactivated DID's keys authorise nothing: its whois presentation could only fail.
  if (deactivated) whois.abandon();
  const whoisResult = deactivated ? undefined : await whois.finish(parsed.did, method.document);

  const evidence: Evidence = {
    source: method.source,
    document: { ...reading.evidence, warnings: [...reading.evidence.warnings, ...keys.warnings] },
    keys: keys.keys,
    services: reading.services,
    domainBinding: method.domainBinding ?? null,
    tls: method.tls ?? null,
    history: method.history ?? null,
    ...(whoisResult ? { whois: whoisResult.evidence } : {}),
  };
  const evaluationInput: EvaluationInput = {
    did: parsed.did,
    method: parsed.method,
    selfCertifying: driver.selfCertifying,
    deactivated,
    evidence,
    allowances: method.allowances ?? [],
    supplied: method.supplied ?? [],
  };

  const evaluation = await trace.run('evidence.evaluate', 'Evaluate the seven dimensions', (stage) => {
    const dimensions = evaluateDimensions(evaluationInput);
    const verdict = buildVerdict(evaluationInput, dimensions);
    stage.detail = verdict.outcome;
    return { dimensions, verdict, graph: buildGraph(parsed.did, evidence, evaluationInput.supplied), limitations: buildLimitations(evaluationInput) };
  });

  const startedAt = rfc3339(started);
  const result: EnrichedResolution = {
    did: parsed.did,
    method: parsed.method,
    didDocument: method.document,
    didResolutionMetadata: {
      contentType: method.contentType,
      retrieved: startedAt,
      durationMs: Math.round(trace.elapsedUs() / 1000),
    },
    didDocumentMetadata: method.didDocumentMetadata,
    verdict: evaluation.verdict,
    dimensions: evaluation.dimensions,
    evidence,
    graph: evaluation.graph,
    trace: trace.stages,
    limitations: evaluation.limitations,
    resolver: { ...RESOLVER },
    observedAt: startedAt,
    cached: false,
  };
  runtime.cache.set(key, result, whoisResult?.transient ? 0 : (method.ttlSeconds ?? runtime.config.cacheTtlSeconds));
  return result;
}
