/**
 * Whois evidence against a real loopback HTTPS host serving a did:webvh log and its whois.vp
 * (the implicit `#whois` Linked Verifiable Presentation), and a did:web that declares one: a
 * presentation signed by the DID's key with a did:key issuer's credential is VERIFIED and its
 * claims listed as claims, organization stays NOT_ESTABLISHED; one signed by another key, a 404,
 * a file one byte past the bound and one with duplicate members are evidence, the resolution
 * RESOLVED. Nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainStyle } from '../../src/cli/cmdutil/layout.js';
import { dossierText } from '../../src/cli/cmd/resolve/render.js';
import { dossierPage } from '../../src/web/dossier.js';
import { signCredential } from '../../src/core/issue/credential.js';
import { readIssuingKey, type IssuingKey } from '../../src/core/issue/key.js';
import { signPresentation } from '../../src/core/issue/presentation.js';
import { generateSigningKey } from '../../src/core/keys/generate.js';
import { WHOIS_MAX_CREDENTIALS } from '../../src/core/presentations/whois.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { WHOIS_MAX_BYTES } from '../../src/core/resolve/whois.js';
import type { Runtime } from '../../src/core/runtime.js';
import { SCID_PLACEHOLDER } from '../../src/core/webvh/hash.js';
import { call, expectJson, startInProcessDaemonFor } from '../support/daemon-client.js';
import { startDidWebHost, tableLookup, type DidWebHost } from '../support/did-web-host.js';
import { raw, stream } from '../support/https-server.js';
import { didDocument, signEddsaJcs2022 } from '../support/signing.js';
import { createWebvhLog, type WebvhTestLog } from '../support/webvh-log.js';

let host: DidWebHost;
let holder: IssuingKey;
let issuer: IssuingKey;
let stranger: IssuingKey;
let log: WebvhTestLog;

function runtime(): Runtime {
  return host.runtime({ lookup: tableLookup({ 'example.com': ['127.0.0.1'] }), connectTo: (_h, port) => (port === 443 ? host.server.port : undefined) });
}

/** A did:webvh log whose DIDDoc authorises `holder` for authentication as `#key-1`. */
function holderLog(domain: string, service?: unknown[]): WebvhTestLog {
  const placeholder = `did:webvh:${SCID_PLACEHOLDER}:${domain}`;
  return createWebvhLog({
    domain,
    state: {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: placeholder,
      verificationMethod: [
        { id: `${placeholder}#key-1`, type: 'Multikey', controller: placeholder, publicKeyMultibase: holder.didKey.slice('did:key:'.length) },
      ],
      authentication: [`${placeholder}#key-1`],
      ...(service ? { service } : {}),
    },
  });
}

beforeAll(async () => {
  host = await startDidWebHost({ dnsNames: ['example.com'] });
  holder = readIssuingKey((await generateSigningKey('Ed25519')).privateJwk);
  issuer = readIssuingKey((await generateSigningKey('Ed25519')).privateJwk);
  stranger = readIssuingKey((await generateSigningKey('Ed25519')).privateJwk);
  log = holderLog('example.com');
  host.server.route('/.well-known/did.jsonl', raw(log.text(), { contentType: 'text/jsonl' }));
  host.server.route('/.well-known/did-witness.json', raw('not found', { status: 404 }));
});
afterAll(async () => {
  await host.close();
});

async function credentialFor(subject: string): Promise<string> {
  const vc = { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiableCredential'], credentialSubject: { id: subject, name: 'Example Org' } };
  return (await signCredential(vc, { key: issuer, format: 'di-eddsa-jcs', now: new Date() })).text;
}

async function whoisBy(key: IssuingKey, as?: { holder: string; kid: string }): Promise<string> {
  const credential = JSON.parse(await credentialFor(log.did));
  return signPresentation([credential], { key, format: 'di-eddsa-jcs', challenge: 'whois', now: new Date(), ...(as ?? {}) }).text;
}

function serveWhois(body: string | Uint8Array, status = 200): void {
  host.server.route('/whois.vp', raw(body, { status, contentType: 'application/json' }));
}

function organization(result: EnrichedResolution) {
  return result.dimensions.find((d) => d.id === 'organization')!;
}

describe('whois evidence of a did:webvh', () => {
  it('a presentation signed by the DID with a did:key issuer credential is VERIFIED; its claim is listed, organization NOT_ESTABLISHED', async () => {
    serveWhois(await whoisBy(holder, { holder: log.did, kid: `${log.did}#key-1` }));
    const result = await resolve(log.did, runtime(), { noCache: true });
    expect(result.verdict.outcome).toBe('RESOLVED');
    const whois = result.evidence.whois!;
    expect(whois).toMatchObject({
      url: 'https://example.com/whois.vp',
      service: 'IMPLICIT',
      status: 'VERIFIED',
      httpStatus: 200,
      presentationStatus: 'VALID',
      holder: log.did,
      signedBy: `${log.did}#key-1`,
    });
    expect(whois.credentials).toEqual([
      expect.objectContaining({ index: 0, issuer: issuer.didKey, status: 'VALID', verified: true, claims: { id: log.did, name: 'Example Org' } }),
    ]);
    const org = organization(result);
    expect(org.state).toBe('NOT_ESTABLISHED');
    expect(org.statement).toContain('name "Example Org"');
    expect(org.statement).toContain('claims, not verified identity');
    expect(org.statement).toContain('svc never verifies real-world or legal identity');
    expect(result.trace.map((s) => s.stage)).toEqual(expect.arrayContaining(['whois.fetch', 'whois.verify']));

    // Terminal and web dossier: the claims shown as claims.
    const text = dossierText(result, plainStyle, 120);
    expect(text).toContain('Whois (claims, not verified identity)');
    expect(text).toMatch(/claims name\s+Example Org/);
    expect(text).toContain(`issued by ${issuer.didKey}`);
    const page = dossierPage({ result, timeMachine: { history: null, diff: null, selected: null, unavailable: 'Not recorded here.' }, mode: 'served' });
    expect(page).toContain('id="evidence-whois"');
    expect(page).toContain('Whois (claims, not verified identity)');
    expect(page).toContain('Example Org');
    expect(page).toContain('These are claims, not verified identity');
  });

  it('a vp+jwt whois.vp (compact JWT) verifies the same way', async () => {
    const credential = JSON.parse(await credentialFor(log.did));
    const token = signPresentation([credential], {
      key: holder,
      format: 'vp+jwt',
      challenge: 'w',
      holder: log.did,
      kid: `${log.did}#key-1`,
      now: new Date(),
    }).text;
    serveWhois(token);
    const result = await resolve(log.did, runtime(), { noCache: true });
    expect(result.evidence.whois).toMatchObject({ status: 'VERIFIED', presentationStatus: 'VALID', holder: log.did, signedBy: `${log.did}#key-1` });
    expect(result.evidence.whois!.credentials.map((c) => c.claims)).toEqual([{ id: log.did, name: 'Example Org' }]);
  });

  it('a presentation signed by another key is FAILED and says so', async () => {
    serveWhois(await whoisBy(stranger));
    const result = await resolve(log.did, runtime(), { noCache: true });
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.evidence.whois).toMatchObject({ status: 'FAILED', signedBy: expect.stringContaining(stranger.didKey) });
    expect(result.evidence.whois!.reason).toContain('signed by another key');
    expect(organization(result)).toMatchObject({ state: 'NOT_ESTABLISHED', statement: 'svc never verifies real-world or legal identity.' });
  });

  it('a 404 is INDETERMINATE evidence; the resolution stays RESOLVED', async () => {
    serveWhois('not found', 404);
    const result = await resolve(log.did, runtime(), { noCache: true });
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.evidence.whois).toMatchObject({ status: 'INDETERMINATE', httpStatus: 404, credentials: [] });
    expect(result.evidence.whois!.reason).toBe('https://example.com/whois.vp answered HTTP 404: no whois presentation is published.');
    // Most DIDs publish none: the stage is no warning.
    expect(result.trace.find((s) => s.stage === 'whois.fetch')).toMatchObject({
      status: 'PASS',
      detail: expect.stringContaining('no whois presentation published'),
    });
  });

  it('one byte past 1 MiB is refused without reading it whole, precisely', async () => {
    serveWhois(new Uint8Array(WHOIS_MAX_BYTES + 1).fill(0x20));
    const result = await resolve(log.did, runtime(), { noCache: true });
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.evidence.whois!.status).toBe('INDETERMINATE');
    expect(result.evidence.whois!.reason).toContain(`the limit is ${WHOIS_MAX_BYTES} bytes`);
    serveWhois(new Uint8Array(WHOIS_MAX_BYTES).fill(0x20));
    const exactly = await resolve(log.did, runtime(), { noCache: true });
    expect(exactly.evidence.whois).toMatchObject({ status: 'INDETERMINATE', bytes: WHOIS_MAX_BYTES });
    expect(exactly.evidence.whois!.reason).not.toContain('limit');
  });

  it('a chunked body that runs past 1 MiB is cut off at the bound, not read whole', async () => {
    const body = stream({ totalBytes: 8 * WHOIS_MAX_BYTES });
    host.server.route('/whois.vp', body);
    const result = await resolve(log.did, runtime(), { noCache: true });
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.evidence.whois!.status).toBe('INDETERMINATE');
    expect(result.evidence.whois!.reason).toContain(`the limit is ${WHOIS_MAX_BYTES} bytes`);
    await body.stopped();
    expect(body.aborted).toBe(true);
    expect(body.bytesWritten).toBeLessThan(8 * WHOIS_MAX_BYTES);
  });

  it('a presentation with duplicate members is INDETERMINATE with the parser reason, not a crash', async () => {
    const text = await whoisBy(holder, { holder: log.did, kid: `${log.did}#key-1` });
    serveWhois(text.replace('{', '{"holder":"did:example:shadow",'));
    const result = await resolve(log.did, runtime(), { noCache: true });
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.evidence.whois!.status).toBe('INDETERMINATE');
    expect(result.evidence.whois!.reason).toMatch(/duplicate/i);
  });

  it('more than WHOIS_MAX_CREDENTIALS credentials: INDETERMINATE, none verified (no fan-out of issuer resolutions)', async () => {
    const credential = JSON.parse(await credentialFor(log.did));
    const many = Array.from({ length: WHOIS_MAX_CREDENTIALS + 1 }, () => credential);
    serveWhois(signPresentation(many, { key: holder, format: 'di-eddsa-jcs', challenge: 'w', holder: log.did, kid: `${log.did}#key-1`, now: new Date() }).text);
    const result = await resolve(log.did, runtime(), { noCache: true });
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.evidence.whois).toMatchObject({ status: 'INDETERMINATE', credentials: [], presentationStatus: null });
    expect(result.evidence.whois!.reason).toBe(
      `The whois presentation carries ${WHOIS_MAX_CREDENTIALS + 1} credentials; svc verifies whois presentations of at most ${WHOIS_MAX_CREDENTIALS}, and verified none of these.`,
    );
  });

  it('a deactivated DID gets no whois evidence: its keys authorise nothing, so its presentation is not verified', async () => {
    const gone = holderLog('example.com:gone');
    gone.append({ params: { deactivated: true } });
    host.server.route('/gone/did.jsonl', raw(gone.text(), { contentType: 'text/jsonl' }));
    host.server.route('/gone/did-witness.json', raw('not found', { status: 404 }));
    host.server.route('/gone/whois.vp', raw(await whoisBy(holder, { holder: gone.did, kid: `${gone.did}#key-1` }), { contentType: 'application/json' }));
    const result = await resolve(gone.did, runtime(), { noCache: true });
    expect(result.verdict.outcome).toBe('DEACTIVATED');
    expect(result.evidence.whois).toBeUndefined();
    expect(result.trace.map((s) => s.stage)).not.toContain('whois.verify');
  });

  it('is cached with the resolution: a hit fetches nothing', async () => {
    serveWhois(await whoisBy(holder, { holder: log.did, kid: `${log.did}#key-1` }));
    const rt = runtime();
    const first = await resolve(log.did, rt);
    const before = host.server.requests.filter((r) => r === 'GET /whois.vp').length;
    const second = await resolve(log.did, rt);
    expect(second.cached).toBe(true);
    expect(second.evidence.whois).toEqual(first.evidence.whois);
    expect(host.server.requests.filter((r) => r === 'GET /whois.vp').length).toBe(before);
  });
});

describe('a whois credential whose issuer is a did:web with a whois of its own', () => {
  it('resolves the issuer without its whois (no circle) and writes nothing of that resolution to the cache', async () => {
    const org = host.did('org');
    host.publish(org, {
      ...didDocument(org, host.key),
      service: [{ id: '#whois', type: 'LinkedVerifiablePresentation', serviceEndpoint: `https://localhost:${host.server.port}/org/whois.vp` }],
    });
    host.server.route('/org/whois.vp', raw('{}', { contentType: 'application/json' }));
    const unsigned = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential'],
      issuer: org,
      credentialSubject: { id: log.did, name: 'Example Org' },
    };
    const credential = signEddsaJcs2022(unsigned, host.key, `${org}#key-1`, new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'));
    serveWhois(
      signPresentation([credential], { key: holder, format: 'di-eddsa-jcs', challenge: 'whois', now: new Date(), holder: log.did, kid: `${log.did}#key-1` })
        .text,
    );
    const rt = runtime();
    const orgWhois = () => host.server.requests.filter((r) => r === 'GET /org/whois.vp').length;
    const before = orgWhois();
    const result = await resolve(log.did, rt, { noCache: true });
    expect(result.evidence.whois).toMatchObject({ status: 'VERIFIED' });
    expect(result.evidence.whois!.credentials).toEqual([expect.objectContaining({ issuer: org, status: 'VALID', verified: true })]);
    // The issuer was resolved without its own whois, and that resolution was not cached:
    expect(orgWhois()).toBe(before);
    const direct = await resolve(org, rt);
    expect(direct.cached).toBe(false);
    expect(direct.evidence.whois).toMatchObject({ service: 'DECLARED' });
    expect(orgWhois()).toBe(before + 1);
  });
});

describe('a did:webvh that defines its own #whois', () => {
  it('a LinkedVerifiablePresentation elsewhere is fetched there (DECLARED); the implicit URL is not used', async () => {
    const own = holderLog('example.com:own', [
      { id: '#whois', type: 'LinkedVerifiablePresentation', serviceEndpoint: 'https://example.com/elsewhere/whois.vp' },
    ]);
    host.server.route('/own/did.jsonl', raw(own.text(), { contentType: 'text/jsonl' }));
    host.server.route('/own/whois.vp', raw('{"not":"this one"}', { contentType: 'application/json' }));
    host.server.route('/elsewhere/whois.vp', raw('not found', { status: 404 }));
    const result = await resolve(own.did, runtime(), { noCache: true });
    expect(result.evidence.whois).toMatchObject({
      url: 'https://example.com/elsewhere/whois.vp',
      service: 'DECLARED',
      status: 'INDETERMINATE',
      httpStatus: 404,
    });
    expect(result.trace.filter((s) => s.stage === 'whois.fetch')).toHaveLength(1);
  });

  it('a #whois of another type replaces the implicit one: no whois evidence', async () => {
    const other = holderLog('example.com:other', [{ id: '#whois', type: 'LinkedDomains', serviceEndpoint: 'https://example.com/' }]);
    host.server.route('/other/did.jsonl', raw(other.text(), { contentType: 'text/jsonl' }));
    const result = await resolve(other.did, runtime(), { noCache: true });
    expect(result.verdict.outcome).toBe('RESOLVED');
    expect(result.evidence.whois).toBeUndefined();
    expect(result.trace.map((s) => s.stage)).not.toContain('whois.fetch');
  });
});

describe('whois evidence of a did:web', () => {
  it('a did:web that declares a #whois LinkedVerifiablePresentation gets it fetched (DECLARED); one without has no whois member', async () => {
    const did = host.did('declares');
    const vm = `${did}#key-1`;
    const document = (service: unknown[]) => ({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
      id: did,
      verificationMethod: [{ id: vm, type: 'Multikey', controller: did, publicKeyMultibase: holder.didKey.slice(8) }],
      authentication: [vm],
      service,
    });
    host.publish(
      did,
      document([{ id: '#whois', type: 'LinkedVerifiablePresentation', serviceEndpoint: `https://localhost:${host.server.port}/declares/whois.vp` }]),
    );
    const vc = JSON.parse(await credentialFor(did));
    host.server.route(
      '/declares/whois.vp',
      raw(signPresentation([vc], { key: holder, format: 'di-eddsa-jcs', challenge: 'w', holder: did, kid: vm, now: new Date() }).text),
    );
    const result = await resolve(did, host.runtime(), { noCache: true });
    expect(result.evidence.whois).toMatchObject({ service: 'DECLARED', status: 'VERIFIED', holder: did });

    host.publish(did, document([]));
    const plain = await resolve(did, host.runtime(), { noCache: true });
    expect(plain.evidence.whois).toBeUndefined();
    expect(plain.trace.map((s) => s.stage)).not.toContain('whois.fetch');
  });
});

describe('whois evidence over the daemon', () => {
  it('GET /v1/resolve carries evidence.whois through the response schema', async () => {
    const daemonLog = holderLog(`localhost%3A${host.server.port}:daemon`);
    host.server.route('/daemon/did.jsonl', raw(daemonLog.text(), { contentType: 'text/jsonl' }));
    host.server.route('/daemon/did-witness.json', raw('not found', { status: 404 }));
    const credential = JSON.parse(await credentialFor(daemonLog.did));
    host.server.route(
      '/daemon/whois.vp',
      raw(
        signPresentation([credential], {
          key: holder,
          format: 'di-eddsa-jcs',
          challenge: 'w',
          holder: daemonLog.did,
          kid: `${daemonLog.did}#key-1`,
          now: new Date(),
        }).text,
      ),
    );
    const daemon = await startInProcessDaemonFor(host);
    try {
      const body = expectJson(await call(`${daemon.url}/v1/resolve/${encodeURIComponent(daemonLog.did)}`), 200);
      expect(body.verdict.outcome).toBe('RESOLVED');
      expect(body.evidence.whois).toMatchObject({
        url: `https://localhost:${host.server.port}/daemon/whois.vp`,
        service: 'IMPLICIT',
        status: 'VERIFIED',
        credentials: [{ index: 0, issuer: issuer.didKey, verified: true, claims: { id: daemonLog.did, name: 'Example Org' } }],
      });
      expect(body.dimensions.find((d: { id: string }) => d.id === 'organization').state).toBe('NOT_ESTABLISHED');
    } finally {
      await daemon.stop();
    }
  });
});
