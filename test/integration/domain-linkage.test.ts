/**
 * Domain binding end to end (`evidence.domainBinding`, the origin dimension): the DID configuration
 * is served by a real HTTPS host and fetched under the same egress policy as the document. The
 * public examples are served for their own origins (`https://domain.example`,
 * `https://identity.foundation`) by pointing the test DNS at loopback and dialling the test port,
 * like curl's --connect-to; certificates and the policy are checked as in production.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDomainBinding, DID_CONFIGURATION_TTL_MS } from '../../src/core/linkage/check.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { Trace } from '../../src/core/resolve/trace.js';
import type { DidDocument, EnrichedResolution } from '../../src/core/resolve/types.js';
import { systemClock } from '../../src/runtime/node.js';
import { describeWithFixtures } from '../support/fixtures.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { hang, json, raw, redirect } from '../support/https-server.js';
import { didConfiguration, didDocument, generateTestKey, linkageCredentialDi, linkageCredentialJwt, type TestKey } from '../support/signing.js';
import { fixedClock, shiftedClock } from '../support/runtime.js';

const CONFIG_PATH = '/.well-known/did-configuration.json';

let host: DidWebHost;
let origin: string;
let p256: TestKey;

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: ['domain.example', 'identity.foundation'] });
  origin = `https://localhost:${host.server.port}`;
  p256 = generateTestKey('ES256');
});
afterAll(async () => {
  await host.close();
});

/** Publishes a did:web on the host (Ed25519 #key-1, P-256 #p256) and resolves it with `configuration` served. */
async function resolveWith(name: string, configuration: Parameters<DidWebHost['server']['route']>[1] | null): Promise<EnrichedResolution> {
  const did = host.did(name);
  host.publish(did, didDocument(did, host.key, [{ fragment: 'p256', key: p256 }]));
  if (configuration) host.server.route(CONFIG_PATH, configuration);
  else host.server.route(CONFIG_PATH, json({ error: 'not found' }, { status: 404 }));
  return resolve(did, host.runtime({ limits: { headersMs: 400 } }));
}

function origin_(result: EnrichedResolution) {
  return result.dimensions.find((d) => d.id === 'origin')!;
}

describe('did:web domain binding', () => {
  it('VERIFIED with a Data Integrity (eddsa-jcs-2022) credential → origin ESTABLISHED', async () => {
    const did = host.did('di');
    const result = await resolveWith('di', json(didConfiguration(linkageCredentialDi(did, origin, host.key, `${did}#key-1`))));
    expect(result.evidence.domainBinding).toMatchObject({ status: 'VERIFIED', origin, configurationUrl: `${origin}${CONFIG_PATH}` });
    expect(result.evidence.domainBinding!.credentials[0]).toMatchObject({ format: 'DATA_INTEGRITY', status: 'VERIFIED', proof: 'eddsa-jcs-2022' });
    expect(origin_(result).state).toBe('ESTABLISHED');
    expect(result.verdict.outcome).toBe('RESOLVED');
    const stages = result.trace.map((s) => `${s.stage}:${s.status}`);
    expect(stages).toEqual(expect.arrayContaining(['linkage.fetch:PASS', 'linkage.verify_proof:PASS']));
    expect(result.graph.edges).toContainEqual({ from: 'linkage:0', to: did, relation: 'linksDomain', state: 'VERIFIED' });
  });

  it('VERIFIED with a JWT (ES256) credential', async () => {
    const did = host.did('jwt');
    const result = await resolveWith('jwt', json(didConfiguration(linkageCredentialJwt(did, origin, p256, `${did}#p256`))));
    expect(result.evidence.domainBinding!.status).toBe('VERIFIED');
    expect(result.evidence.domainBinding!.credentials[0]).toMatchObject({ format: 'JWT', proof: 'ES256', verificationMethod: `${did}#p256` });
    expect(origin_(result).state).toBe('ESTABLISHED');
  });

  it('NOT_LINKED when the configuration links another DID → origin NOT_ESTABLISHED', async () => {
    const other = host.did('someone-else');
    const result = await resolveWith('unlinked', json(didConfiguration(linkageCredentialDi(other, origin, host.key, `${other}#key-1`))));
    expect(result.evidence.domainBinding!.status).toBe('NOT_LINKED');
    expect(origin_(result).state).toBe('NOT_ESTABLISHED');
    expect(result.verdict.outcome).toBe('RESOLVED');
  });

  it('INVALID_PROOF for a credential signed by another key → origin FAILED, exit-worthy warning', async () => {
    const did = host.did('forged');
    const stranger = generateTestKey('EdDSA');
    const result = await resolveWith('forged', json(didConfiguration(linkageCredentialDi(did, origin, stranger, `${did}#key-1`))));
    expect(result.evidence.domainBinding!.status).toBe('INVALID_PROOF');
    expect(origin_(result).state).toBe('FAILED');
    expect(result.verdict.outcome).toBe('RESOLVED_WITH_WARNINGS');
    expect(result.trace.find((s) => s.stage === 'linkage.verify_proof')!.status).toBe('FAIL');
  });

  it('INVALID_PROOF for a Data Integrity proof whose "expires" has passed → origin FAILED', async () => {
    const did = host.did('proof-expired');
    const credential = linkageCredentialDi(did, origin, host.key, `${did}#key-1`, {}, { expires: '2026-02-01T00:00:00Z' });
    const result = await resolveWith('proof-expired', json(didConfiguration(credential)));
    expect(result.evidence.domainBinding!.status).toBe('INVALID_PROOF');
    expect(JSON.stringify(result.evidence.domainBinding)).toContain('the proof expired');
    expect(origin_(result).state).toBe('FAILED');
  });

  it('MALFORMED for a configuration that is not JSON → origin FAILED', async () => {
    const result = await resolveWith('malformed', raw('<html>not here</html>', { contentType: 'text/html' }));
    expect(result.evidence.domainBinding!.status).toBe('MALFORMED');
    expect(origin_(result).state).toBe('FAILED');
  });

  it('NOT_CONFIGURED when the origin publishes none (404)', async () => {
    const result = await resolveWith('unconfigured', null);
    expect(result.evidence.domainBinding).toMatchObject({ status: 'NOT_CONFIGURED', credentials: [] });
    expect(origin_(result).state).toBe('NOT_ESTABLISHED');
    expect(result.verdict.outcome).toBe('RESOLVED');
  });

  it('UNREACHABLE when the configuration never arrives → origin INDETERMINATE, the document still resolves', async () => {
    const result = await resolveWith('silent', hang());
    expect(result.evidence.domainBinding!.status).toBe('UNREACHABLE');
    expect(result.evidence.domainBinding!.reason).toContain('no response headers');
    expect(origin_(result).state).toBe('INDETERMINATE');
    expect(result.trace.find((s) => s.stage === 'linkage.fetch')!.status).toBe('FAIL');
  });

  it('caches a resolution with a settled binding, never one whose configuration was unreachable', async () => {
    const clock = shiftedClock(systemClock);
    const runtime = host.runtime({ limits: { headersMs: 400 } }, clock);
    const settled = host.did('cached');
    host.publish(settled);
    host.server.route(CONFIG_PATH, json({ error: 'not found' }, { status: 404 }));
    await resolve(settled, runtime);
    expect((await resolve(settled, runtime)).cached).toBe(true);
    // Past the time the origin's fetched configuration serves its other DIDs.
    clock.advance(DID_CONFIGURATION_TTL_MS);

    const flaky = host.did('flaky');
    host.publish(flaky);
    host.server.route(CONFIG_PATH, hang());
    expect((await resolve(flaky, runtime)).evidence.domainBinding!.status).toBe('UNREACHABLE');
    host.server.route(CONFIG_PATH, json({ error: 'not found' }, { status: 404 }));
    const again = await resolve(flaky, runtime);
    expect(again.cached).toBe(false);
    expect(again.evidence.domainBinding!.status).toBe('NOT_CONFIGURED');
  });

  it('UNREACHABLE when the configuration redirects to a blocked address (same egress policy)', async () => {
    const result = await resolveWith('sneaky', redirect('https://169.254.169.254/latest/meta-data/'));
    expect(result.evidence.domainBinding!.status).toBe('UNREACHABLE');
    expect(result.evidence.domainBinding!.reason).toContain('169.254.169.254');
  });
});

describeWithFixtures('public DID configurations served for their own origins', '.', (fixtures) => {
  async function bindingFor(did: string, document: DidDocument, servedOrigin: string, file: string, now: string) {
    host.server.route(CONFIG_PATH, raw(readFileSync(file), { contentType: 'application/json' }));
    const runtime = host.runtime({
      lookup: tableLookup({ [new URL(servedOrigin).hostname]: ['127.0.0.1'] }),
      connectTo: () => host.server.port,
    });
    const clock = fixedClock(now);
    // Null only when verifying from files without the configuration; here it is fetched.
    return (await checkDomainBinding(did, document, servedOrigin, { runtime: { ...runtime, clock }, trace: new Trace(systemClock) }))!;
  }

  it('the eddsa-jcs-2022 credential of didwebvh-py sample-diddoc is VERIFIED for https://domain.example', async () => {
    const dir = path.join(fixtures, 'didwebvh-py-sample/sample-diddoc');
    const document = JSON.parse(readFileSync(path.join(dir, 'did-v2.json'), 'utf8')) as DidDocument;
    const binding = await bindingFor(document.id, document, 'https://domain.example', path.join(dir, 'did-configuration.json'), '2026-11-21T00:00:00Z');
    expect(binding.status).toBe('VERIFIED');
    expect(binding.configurationUrl).toBe('https://domain.example/.well-known/did-configuration.json');
    expect(binding.credentials[0]).toMatchObject({ status: 'VERIFIED', proof: 'eddsa-jcs-2022', issuer: document.id });
  });

  it('the DIF example: JSON-LD entry UNSUPPORTED_PROOF, JWT entry not VERIFIED with its reasons', async () => {
    const did = 'did:key:z6MkoTHsgNNrby8JzCNQ1iRLyW5QQ6R8Xuu6AA8igGrMVPUM';
    const { didDocument: document } = await resolve(did, host.runtime());
    const file = path.join(fixtures, 'did-configuration/dif-example-did-configuration.json');
    const binding = await bindingFor(did, document, 'https://identity.foundation', file, '2026-11-21T00:00:00Z');
    expect(binding.status).not.toBe('VERIFIED');
    const [ld, jwt] = binding.credentials;
    expect(ld).toMatchObject({ format: 'DATA_INTEGRITY', status: 'UNSUPPORTED_PROOF', proof: 'Ed25519Signature2018' });
    expect(jwt!.format).toBe('JWT');
    expect(jwt!.status).not.toBe('VERIFIED');
    expect(jwt!.reason).toContain('no scheme');
    expect(jwt!.reason).toContain('expired on 2025-12-04');
  });
});

describe('the configuration fetch keeps the document path clean', () => {
  it('a document fetch that fails leaves no linkage stage in the problem trace', async () => {
    const did = host.did('gone');
    host.server.route(CONFIG_PATH, json(didConfiguration()));
    const err = await resolve(did, host.runtime()).catch((e: unknown) => e);
    expect((err as { code: string }).code).toBe('NOT_FOUND');
    const stages = (err as { trace: Array<{ stage: string }> }).trace.map((s) => s.stage);
    expect(stages).not.toContain('linkage.fetch');
    expect(stages).toEqual(['syntax.parse', 'dns.resolve', 'tls.handshake', 'web.fetch']);
  });
});
