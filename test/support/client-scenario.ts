/**
 * One scenario for the API clients' tests (TypeScript and Python): everything a client call
 * needs, made here with test/support (never by svc's own code) and served for real on loopback.
 *
 * - `daemonUrl`: `svc serve` (direct profile) trusting the test CA and allowed to fetch from
 *   127.0.0.0/8, as an operator would configure it, its rate bucket out of the way; no
 *   SVC_ADMIN_TOKEN, so its monitoring routes answer 501 MONITORING_DISABLED;
 * - `monitoringUrl`: the same daemon with SVC_ADMIN_TOKEN = `adminToken` (the operator
 *   monitoring routes enabled; a webhook URL on 127.0.0.0/8 passes its egress policy);
 * - `publicUrl`: `svc serve --public` (standard budget 20/min, intensive 10/min per client), for
 *   429 RATE_LIMITED with a Retry-After that a retry can honour (the budget refills one token
 *   every 3 s; right after it is used up, Retry-After is 3);
 * - `unreachableUrl`: an http origin on a port where nothing listens (an authorisation against
 *   it must be DENY);
 * - a did:key and a did:web (with a linked DID configuration: none; the document only), an
 *   eddsa-jcs-2022 credential and a vc+jwt of the did:key issuer, a presentation of a credential
 *   by its holder (Data Integrity, and a vp+jwt) bound to a challenge and domain, a compact JWS, a policy,
 *   a delegation chain root → middle → agent granting `payments:*` and `search`, an MCP server
 *   (official SDK 2.x) and a signed A2A card.
 *
 * Signed results (docs/daemon.md#signed-results): `daemonUrl` signs with an Ed25519 key as its
 * did:key (`signer`), `monitoringUrl` with a P-256 key as a did:web of the loopback host
 * (`webSigner`, its document published there; `caFile` is the host's CA, for a client that fetches
 * it); `publicUrl` has no key.
 *
 * `scenarioJson()` is what the Python tests read (SVC_CLIENT_SCENARIO names a file holding it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { a2aKey, agentCard, publishJwks, serveCard, signCard } from './a2a-agent.js';
import type { Daemon } from './daemon.js';
import { startDaemonFor } from './daemon-client.js';
import { startDidWebHost, type DidWebHost, FAR_FROM_EXPIRY_DAYS } from './did-web-host.js';
import { closedPort } from './https-server.js';
import { PLAIN_TOOLS, startSdk2Server, type McpTestServer } from './mcp-servers.js';
import { didKeyPrincipal, mintReceipt, type Principal } from './receipts.js';
import { didDocument, generateTestKey, signEddsaJcs2022, signJws, type TestKey } from './signing.js';

const SERVICE_ENDPOINT = 'https://home.example.com/';

export interface ClientScenario {
  /** The direct daemon (no trailing slash). */
  daemonUrl: string;
  /** The public-profile daemon (standard 20/min, intensive 10/min per client). */
  publicUrl: string;
  /** A direct daemon whose operator monitoring routes are enabled by SVC_ADMIN_TOKEN = adminToken. */
  monitoringUrl: string;
  /** The operator token of monitoringUrl (random, 24+ visible characters). */
  adminToken: string;
  /** An http origin where nothing listens. */
  unreachableUrl: string;
  didKey: string;
  /** A did:web on the loopback host (its document published there, one Ed25519 key). */
  didWeb: string;
  /** A DID URL selecting the did:web's one service (`?service=home`), whose endpoint is serviceEndpoint. */
  didWebService: string;
  serviceEndpoint: string;
  /** A DID URL of the did:key's verification method (for dereference). */
  didKeyVerificationMethod: string;
  /** An eddsa-jcs-2022 credential of the did:key issuer: VALID. */
  credential: Record<string, unknown>;
  /** The same credential as a vc+jwt (compact JWS): VALID. */
  credentialJwt: string;
  /**
   * A holder's presentation of a credential about it (issued by the did:key), bound to `challenge`
   * and `domain`: `object` Data Integrity (eddsa-jcs-2022, authentication), `jwt` a vp+jwt (its
   * nonce and aud), both VALID with them.
   */
  presentation: { object: Record<string, unknown>; jwt: string; holder: string; challenge: string; domain: string };
  /** A compact JWS signed by the did:key (kid = its verification method): VALID. */
  jws: string;
  /** A policy the did:key passes (didResolution, allowedMethods key, allowedCurves Ed25519). */
  policy: { name: string; rules: Record<string, unknown> };
  /** root → middle → agent, the leaf granting `payments:*` and `search` for an hour. */
  delegation: { chain: string[]; root: string; agent: string; allowedTool: string; deniedTool: string };
  /** An MCP endpoint (official SDK 2.x, Streamable HTTP) with a few plain tools. */
  mcpEndpoint: string;
  /** The origin of an agent whose A2A card is signed (ES256, key by jku). */
  a2aUrl: string;
  /** Who signs daemonUrl's results: the did:key of an Ed25519 key. */
  signer: { did: string; kid: string };
  /** Who signs monitoringUrl's results: a did:web of the loopback host, a P-256 key under assertionMethod. */
  webSigner: { did: string; kid: string };
  /** The loopback host's CA certificate (PEM file), for a client that fetches the did:web itself. */
  caFile: string;
  close(): Promise<void>;
}

export async function startClientScenario(): Promise<ClientScenario> {
  const cleanup: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  };
  try {
    const host: DidWebHost = await startDidWebHost({ leafDays: FAR_FROM_EXPIRY_DAYS });
    cleanup.push(() => host.close());

    const didWeb = host.did('client');
    host.publish(didWeb, { ...didDocument(didWeb, host.key), service: [{ id: '#home', type: 'LinkedDomains', serviceEndpoint: SERVICE_ENDPOINT }] });

    const issuer = generateTestKey('EdDSA');
    const didKey = `did:key:${issuer.multikey!}`;
    const vm = `${didKey}#${issuer.multikey!}`;
    const unsigned = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential', 'ExampleCredential'],
      issuer: didKey,
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: { id: 'did:example:alice', name: 'Alice' },
    };
    const credential = signEddsaJcs2022(unsigned, issuer, vm);
    const credentialJwt = signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid: vm }, unsigned, issuer);
    const jws = signJws({ alg: 'EdDSA', kid: vm, typ: 'example+jwt' }, { hello: 'world' }, issuer);

    const holderKey = generateTestKey('EdDSA');
    const holder = `did:key:${holderKey.multikey!}`;
    const holderVm = `${holder}#${holderKey.multikey!}`;
    const held = { ...unsigned, credentialSubject: { id: holder, name: 'Alice' } };
    const challenge = randomBytes(12).toString('base64url');
    const domain = 'verifier.example';
    const presented = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiablePresentation'],
      holder,
      verifiableCredential: [signEddsaJcs2022(held, issuer, vm)],
    };
    const presentation = {
      object: signEddsaJcs2022(presented, holderKey, holderVm, '2026-01-02T00:00:00Z', { proofPurpose: 'authentication', challenge, domain }),
      jwt: signJws(
        { alg: 'EdDSA', typ: 'vp+jwt', kid: holderVm },
        {
          ...presented,
          verifiableCredential: [
            {
              '@context': ['https://www.w3.org/ns/credentials/v2'],
              type: 'EnvelopedVerifiableCredential',
              id: `data:application/vc+jwt,${signJws({ alg: 'EdDSA', typ: 'vc+jwt', kid: vm }, held, issuer)}`,
            },
          ],
          nonce: challenge,
          aud: domain,
        },
        holderKey,
      ),
      holder,
      challenge,
      domain,
    };

    const root = didKeyPrincipal();
    const middle = didKeyPrincipal();
    const agent: Principal = didKeyPrincipal();
    const now = Math.floor(Date.now() / 1000);
    const first = await mintReceipt(root, middle, { cap: ['*'], nbf: now - 60, exp: now + 3600, now });
    const leaf = await mintReceipt(middle, agent, { cap: ['payments:*', 'search'], parent: first, nbf: now - 60, exp: now + 3600, now });

    const mcp: McpTestServer = await startSdk2Server({ host, path: '/mcp', tools: PLAIN_TOOLS });
    cleanup.push(() => mcp.close());

    // The daemons' signing keys: files of their own, mode 0600, as an operator keeps them.
    const keyDir = mkdtempSync(path.join(tmpdir(), 'svc-client-keys-'));
    cleanup.push(async () => rmSync(keyDir, { recursive: true, force: true }));
    const keyFile = (name: string, key: TestKey): string => {
      const file = path.join(keyDir, name);
      writeFileSync(file, JSON.stringify(key.privateKey.export({ format: 'jwk' })), { mode: 0o600 });
      return file;
    };
    const edKey = generateTestKey('EdDSA');
    const signerDid = `did:key:${edKey.multikey!}`;
    const p256Key = generateTestKey('ES256');
    const webSignerDid = host.did('svc');
    host.publish(webSignerDid, didDocument(webSignerDid, host.key, [{ fragment: 'results', key: p256Key }]));
    const caFile = path.join(keyDir, 'ca.pem');
    writeFileSync(caFile, host.ca.certPem);

    const cardKey = await a2aKey('ES256');
    const jku = publishJwks(host.server, [{ key: cardKey, kid: 'card-key-1' }]);
    serveCard(host.server, await signCard(agentCard(host.server.origin), cardKey, { kid: 'card-key-1', jku }));

    // The operator token is set on monitoringUrl only (never inherited from the environment).
    // The three daemons start at once (each its own process; a start mostly waits on loading).
    const adminToken = `svc-operator-${randomBytes(16).toString('hex')}`;
    const starts = [
      startDaemonFor(host, { env: { SVC_ADMIN_TOKEN: undefined, SVC_SIGNING_KEY: keyFile('ed25519.jwk', edKey) } }),
      startDaemonFor(host, {
        env: { SVC_ADMIN_TOKEN: adminToken, SVC_SIGNING_KEY: keyFile('p256.jwk', p256Key), SVC_SIGNING_DID: `${webSignerDid}#results` },
      }),
      startDaemonFor(host, { args: ['--public'] }),
    ];
    for (const start of starts) cleanup.push(async () => (await start).stop());
    const [daemon, monitoringDaemon, publicDaemon] = (await Promise.all(starts)) as [Daemon, Daemon, Daemon];

    return {
      daemonUrl: daemon.url,
      publicUrl: publicDaemon.url,
      monitoringUrl: monitoringDaemon.url,
      adminToken,
      unreachableUrl: `http://127.0.0.1:${await closedPort()}`,
      didKey,
      didWeb,
      didWebService: `${didWeb}?service=home`,
      serviceEndpoint: SERVICE_ENDPOINT,
      didKeyVerificationMethod: vm,
      credential,
      credentialJwt,
      presentation,
      jws,
      policy: { name: 'keys', rules: { didResolution: 'required', allowedMethods: ['key'], allowedCurves: ['Ed25519'] } },
      delegation: { chain: [first, leaf], root: root.did, agent: agent.did, allowedTool: 'payments:refund', deniedTool: 'admin:delete' },
      mcpEndpoint: mcp.url,
      a2aUrl: host.server.origin,
      signer: { did: signerDid, kid: `${signerDid}#${edKey.multikey!}` },
      webSigner: { did: webSignerDid, kid: `${webSignerDid}#results` },
      caFile,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The scenario as JSON (no functions), for the Python tests. */
export function scenarioJson(scenario: ClientScenario): string {
  const { close: _close, ...data } = scenario;
  return JSON.stringify(data, null, 2);
}
