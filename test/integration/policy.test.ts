/**
 * The policy engine against real resolutions from a loopback HTTPS host (test CA, production
 * fetch policy otherwise): did:web documents with real domain-binding states and TLS evidence,
 * did:webvh logs that verify, break or deactivate, and real resolution problems. Nothing here is
 * derived by editing evidence; the `now` of an evaluation is the only thing chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluatePolicy, parsePolicy, type PolicyEvaluation, type PolicyEvidence, type RuleEvaluation } from '../../src/core/policy/index.js';
import { ProblemError } from '../../src/core/problems.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { Runtime } from '../../src/core/runtime.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { hang, json, raw, type Handler } from '../support/https-server.js';
import { didConfiguration, didDocument, generateTestKey, linkageCredentialDi, type TestKey } from '../support/signing.js';
import { createWebvhLog, type WebvhTestLog } from '../support/webvh-log.js';

const CONFIG_PATH = '/.well-known/did-configuration.json';

let host: DidWebHost;
let origin: string;
let p256: TestKey;
let webvhRuntime: Runtime;

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: ['example.com'] });
  origin = `https://localhost:${host.server.port}`;
  p256 = generateTestKey('ES256');
  webvhRuntime = host.runtime({
    lookup: tableLookup({ 'example.com': ['127.0.0.1'] }),
    connectTo: (_h, port) => (port === 443 ? host.server.port : undefined),
  });
});
afterAll(async () => {
  await host.close();
});

/** Resolves a did:web of the host (Ed25519 #key-1 Multikey, P-256 #p256 JsonWebKey) with `configuration` served; a problem becomes evidence. */
async function didWeb(
  name: string,
  configuration: Handler | null,
  document?: (did: string) => Record<string, unknown>,
): Promise<{ did: string; evidence: PolicyEvidence }> {
  const did = host.did(name);
  host.publish(did, document ? document(did) : didDocument(did, host.key, [{ fragment: 'p256', key: p256 }]));
  host.server.route(CONFIG_PATH, configuration ?? json({ error: 'not found' }, { status: 404 }));
  return { did, evidence: await gather(did, host.runtime({ limits: { headersMs: 400 } })) };
}

async function gather(did: string, runtime: Runtime, options = {}): Promise<PolicyEvidence> {
  try {
    return { resolution: await resolve(did, runtime, { noCache: true, ...options }), resolutionProblem: null, credential: null };
  } catch (err) {
    if (err instanceof ProblemError) return { resolution: null, resolutionProblem: err, credential: null };
    throw err;
  }
}

function evaluate(did: string, rules: Record<string, unknown>, evidence: PolicyEvidence, now = new Date()): PolicyEvaluation {
  return evaluatePolicy(did, parsePolicy({ name: 'integration', rules }), evidence, now);
}

function only(did: string, name: string, value: unknown, evidence: PolicyEvidence, now = new Date()): RuleEvaluation {
  const evaluation = evaluate(did, { [name]: value }, evidence, now);
  expect(evaluation.status).toBe(evaluation.evaluations[0]!.status);
  return evaluation.evaluations[0]!;
}

function publishLog(log: WebvhTestLog | Handler): void {
  host.server.route('/.well-known/did.jsonl', typeof log === 'function' ? log : raw(log.text(), { contentType: 'text/jsonl' }));
  host.server.route('/.well-known/did-witness.json', raw('not found', { status: 404 }));
}

describe('did:web over a loopback HTTPS host', () => {
  it('a verified, fresh did:web passes a full policy; each rule reports what it saw', async () => {
    const did = host.did('full');
    const { evidence } = await didWeb('full', json(didConfiguration(linkageCredentialDi(did, origin, host.key, `${did}#key-1`))));
    const resolution = evidence.resolution!;
    expect(resolution.evidence.domainBinding!.status).toBe('VERIFIED');
    const days = resolution.evidence.tls!.daysUntilExpiry;
    expect(days).toBeGreaterThanOrEqual(8); // the test CA's leaf lives 10 days
    const evaluation = evaluate(
      did,
      {
        didResolution: 'required',
        allowedMethods: ['did:web', 'webvh'],
        allowedCurves: ['Ed25519', 'P-256'],
        allowedKeySuites: ['Multikey', 'JsonWebKey'],
        minKeyBits: 256,
        requireKeyRelationship: 'assertionMethod',
        domainBinding: 'required',
        tlsMinDaysRemaining: 5,
        maxCacheAgeSeconds: 60,
      },
      evidence,
    );
    expect(evaluation.evaluations.map((e) => [e.rule, e.status, e.observedValue])).toEqual([
      ['didResolution', 'PASS', 'RESOLVED'],
      ['allowedMethods', 'PASS', 'web'],
      ['allowedCurves', 'PASS', ['Ed25519', 'P-256']],
      ['allowedKeySuites', 'PASS', ['Multikey', 'JsonWebKey']],
      ['minKeyBits', 'PASS', 256],
      ['requireKeyRelationship', 'PASS', [`${did}#key-1`, `${did}#p256`]],
      ['domainBinding', 'PASS', 'VERIFIED'],
      ['tlsMinDaysRemaining', 'PASS', days],
      ['maxCacheAgeSeconds', 'PASS', expect.any(Number)],
    ]);
    expect(evaluation.status).toBe('PASS');
    expect(evaluation.headline).toBe('The policy passes: 9 of 9 rules pass.');
    expect(evaluation.evaluations.find((e) => e.rule === 'domainBinding')!.message).toBe(
      `The domain ${origin} is bound to the DID by a verified domain linkage credential.`,
    );
    expect(evaluation.evaluations.find((e) => e.rule === 'tlsMinDaysRemaining')!.message).toBe(
      `The TLS certificate of localhost expires in ${days} days, at least the 5 days required.`,
    );

    // The same evidence against stricter values fails where the evidence falls short.
    const strict = evaluate(
      did,
      { allowedCurves: ['Ed25519'], tlsMinDaysRemaining: 30, verifiableHistory: 'required', allowedKeySuites: ['Multikey'] },
      evidence,
    );
    expect(strict.evaluations.map((e) => [e.rule, e.status])).toEqual([
      ['allowedCurves', 'FAIL'],
      ['tlsMinDaysRemaining', 'FAIL'],
      ['verifiableHistory', 'FAIL'],
      ['allowedKeySuites', 'FAIL'],
    ]);
    expect(strict.evaluations[0]!.message).toBe(`The signing key ${did}#p256 (P-256) uses a curve the policy does not allow (allowed: Ed25519).`);
    expect(strict.evaluations[1]).toMatchObject({
      observedValue: days,
      message: `The TLS certificate of localhost expires in ${days} days, less than the 30 days required.`,
    });
    expect(strict.evaluations[2]).toMatchObject({ observedValue: null, message: 'did:web keeps no verifiable log of versions.' });
    expect(strict.headline).toBe('The policy fails: 4 of 4 rules fail (allowedCurves, tlsMinDaysRemaining, verifiableHistory and allowedKeySuites).');

    // Evaluated two minutes after the observation, the evidence is too old.
    const later = new Date(Date.parse(resolution.observedAt) + 120_000);
    expect(only(did, 'maxCacheAgeSeconds', 60, evidence, later)).toMatchObject({ status: 'FAIL', observedValue: 120 });
  });

  it('domainBinding: NOT_LINKED fails either way', async () => {
    const other = host.did('someone-else');
    const { did, evidence } = await didWeb('unlinked', json(didConfiguration(linkageCredentialDi(other, origin, host.key, `${other}#key-1`))));
    for (const value of ['required', 'optional']) {
      const e = only(did, 'domainBinding', value, evidence);
      expect(e).toMatchObject({ status: 'FAIL', observedValue: 'NOT_LINKED' });
      expect(e.message).toContain(`The DID configuration of ${origin} does not bind the DID (NOT_LINKED): `);
    }
  });

  it('domainBinding: MALFORMED and INVALID_PROOF fail even when optional', async () => {
    const malformed = await didWeb('malformed', raw('<html>not here</html>', { contentType: 'text/html' }));
    expect(only(malformed.did, 'domainBinding', 'optional', malformed.evidence)).toMatchObject({ status: 'FAIL', observedValue: 'MALFORMED' });
    const did = host.did('forged');
    const forged = await didWeb('forged', json(didConfiguration(linkageCredentialDi(did, origin, generateTestKey('EdDSA'), `${did}#key-1`))));
    expect(only(did, 'domainBinding', 'optional', forged.evidence)).toMatchObject({ status: 'FAIL', observedValue: 'INVALID_PROOF' });
  });

  it('domainBinding: NOT_CONFIGURED fails when required, passes when optional', async () => {
    const { did, evidence } = await didWeb('unconfigured', null);
    expect(only(did, 'domainBinding', 'required', evidence)).toMatchObject({
      status: 'FAIL',
      observedValue: 'NOT_CONFIGURED',
      message: `A domain binding is required, but ${origin} publishes no DID configuration (NOT_CONFIGURED).`,
    });
    expect(only(did, 'domainBinding', 'optional', evidence)).toMatchObject({ status: 'PASS', observedValue: 'NOT_CONFIGURED' });
  });

  it('domainBinding: UNREACHABLE is INDETERMINATE either way, while the document rules still decide', async () => {
    const { did, evidence } = await didWeb('silent', hang());
    expect(evidence.resolution!.evidence.domainBinding!.status).toBe('UNREACHABLE');
    for (const value of ['required', 'optional']) {
      const e = only(did, 'domainBinding', value, evidence);
      expect(e).toMatchObject({ status: 'INDETERMINATE', observedValue: 'UNREACHABLE' });
      expect(e.message).toContain(`The DID configuration of ${origin} could not be retrieved (UNREACHABLE): `);
    }
    const evaluation = evaluate(did, { domainBinding: 'required', didResolution: 'required' }, evidence);
    expect(evaluation.status).toBe('INDETERMINATE');
    expect(evaluation.headline).toBe('The policy could not be decided: 1 of 2 rules is indeterminate (domainBinding) and none fails.');
  });

  it('a document without keys: curve, size and suite rules are INDETERMINATE, a required relationship FAILs', async () => {
    const { did, evidence } = await didWeb('keyless', null, (d) => ({ '@context': ['https://www.w3.org/ns/did/v1'], id: d }));
    expect(evidence.resolution!.evidence.keys).toEqual([]);
    const evaluation = evaluate(
      did,
      { allowedCurves: ['Ed25519'], minKeyBits: 256, allowedKeySuites: ['Multikey'], requireKeyRelationship: 'authentication' },
      evidence,
    );
    expect(evaluation.evaluations.map((e) => [e.rule, e.status])).toEqual([
      ['allowedCurves', 'INDETERMINATE'],
      ['minKeyBits', 'INDETERMINATE'],
      ['allowedKeySuites', 'INDETERMINATE'],
      ['requireKeyRelationship', 'FAIL'],
    ]);
    expect(evaluation.evaluations[0]!.message).toBe('No curve could be checked: the document declares no verification methods.');
    expect(evaluation.evaluations[3]!.message).toBe('No verification method is authorised for authentication.');
    expect(evaluation.status).toBe('FAIL');
  });

  it('NOT_FOUND is a verdict (didResolution FAILs); the other rules are INDETERMINATE naming it', async () => {
    const did = host.did('never-published');
    const evidence = await gather(did, host.runtime());
    expect(evidence.resolutionProblem!.code).toBe('NOT_FOUND');
    const evaluation = evaluate(
      did,
      { didResolution: 'required', allowedMethods: ['web'], tlsMinDaysRemaining: 1, requireKeyRelationship: 'authentication' },
      evidence,
    );
    expect(evaluation.evaluations.map((e) => [e.rule, e.status, e.observedValue])).toEqual([
      ['didResolution', 'FAIL', 'NOT_FOUND'],
      ['allowedMethods', 'PASS', 'web'],
      ['tlsMinDaysRemaining', 'INDETERMINATE', null],
      ['requireKeyRelationship', 'INDETERMINATE', null],
    ]);
    expect(evaluation.evaluations[0]!.message).toContain('The DID does not resolve (NOT_FOUND): ');
    expect(evaluation.evaluations[2]!.message).toBe('The DID could not be resolved (NOT_FOUND), so its TLS certificate could not be examined.');
    expect(evaluation.status).toBe('FAIL');
  });

  it('a failing host (UPSTREAM_UNAVAILABLE) and a blocked address (EGRESS_BLOCKED) are no verdict: INDETERMINATE', async () => {
    const did = host.did('broken');
    host.server.route('/broken/did.json', raw('oops', { status: 500 }));
    const upstream = await gather(did, host.runtime());
    expect(upstream.resolutionProblem!.code).toBe('UPSTREAM_UNAVAILABLE');
    const e = only(did, 'didResolution', 'required', upstream);
    expect(e).toMatchObject({ status: 'INDETERMINATE', observedValue: 'UPSTREAM_UNAVAILABLE' });
    expect(e.message).toContain('The DID could not be resolved (UPSTREAM_UNAVAILABLE), which is no verdict about the DID: ');

    const blocked = await gather(host.did('full'), host.runtime({ allow: [] }));
    expect(blocked.resolutionProblem!.code).toBe('EGRESS_BLOCKED');
    const evaluation = evaluate(host.did('full'), { didResolution: 'required', domainBinding: 'optional', minKeyBits: 1 }, blocked);
    expect(evaluation.evaluations.map((x) => x.status)).toEqual(['INDETERMINATE', 'INDETERMINATE', 'INDETERMINATE']);
    expect(evaluation.status).toBe('INDETERMINATE');
  });
});

describe('did:webvh logs over the loopback host', () => {
  it('verifiableHistory PASSes for a log verified to its end; did:webvh has a certificate too', async () => {
    const log = createWebvhLog();
    log.append({});
    log.append({});
    publishLog(log);
    const evidence = await gather(log.did, webvhRuntime);
    const evaluation = evaluate(
      log.did,
      { verifiableHistory: 'required', didResolution: 'required', allowedMethods: ['did:webvh'], tlsMinDaysRemaining: 1 },
      evidence,
    );
    expect(evaluation.evaluations.map((e) => [e.rule, e.status, e.observedValue])).toEqual([
      ['verifiableHistory', 'PASS', { entries: 3, verifiedEntries: 3 }],
      ['didResolution', 'PASS', 'RESOLVED'],
      ['allowedMethods', 'PASS', 'webvh'],
      ['tlsMinDaysRemaining', 'PASS', evidence.resolution!.evidence.tls!.daysUntilExpiry],
    ]);
    expect(evaluation.evaluations[0]!.message).toBe('The did:webvh log verifies: all 3 entries verified.');
  });

  it('verifiableHistory FAILs for a log broken after the version served', async () => {
    const log = createWebvhLog();
    log.append({ key: generateTestKey() }); // signed by a key that is not an update key
    publishLog(log);
    const evidence = await gather(log.did, webvhRuntime, { versionNumber: 1 });
    const e = only(log.did, 'verifiableHistory', 'required', evidence);
    expect(e).toMatchObject({ status: 'FAIL', observedValue: { entries: 2, verifiedEntries: 1 } });
    expect(e.message).toMatch(/^The log does not verify: entry 2 fails the proof check \(.+\), 1 of 2 entries verified\.$/);
  });

  it('a deactivated DID FAILs didResolution while its log still verifies', async () => {
    const log = createWebvhLog();
    log.append({ params: { deactivated: true, updateKeys: [] } });
    publishLog(log);
    const evidence = await gather(log.did, webvhRuntime);
    const evaluation = evaluate(log.did, { didResolution: 'required', verifiableHistory: 'required' }, evidence);
    expect(evaluation.evaluations.map((e) => [e.rule, e.status, e.observedValue])).toEqual([
      ['didResolution', 'FAIL', 'DEACTIVATED'],
      ['verifiableHistory', 'PASS', { entries: 2, verifiedEntries: 2 }],
    ]);
    expect(evaluation.headline).toBe('The policy fails: 1 of 2 rules fails (didResolution).');
  });

  it('a log the host fails to serve leaves history and resolution INDETERMINATE', async () => {
    const log = createWebvhLog();
    publishLog(raw('oops', { status: 500 }));
    const evidence = await gather(log.did, webvhRuntime);
    expect(evidence.resolutionProblem!.code).toBe('UPSTREAM_UNAVAILABLE');
    const evaluation = evaluate(log.did, { verifiableHistory: 'required', didResolution: 'required' }, evidence);
    expect(evaluation.evaluations.map((e) => e.status)).toEqual(['INDETERMINATE', 'INDETERMINATE']);
    expect(evaluation.evaluations[0]!.message).toBe('The DID could not be resolved (UPSTREAM_UNAVAILABLE), so its history could not be examined.');
  });
});
