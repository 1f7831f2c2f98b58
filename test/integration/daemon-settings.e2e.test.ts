/**
 * Operator settings against the real binary (its refusals: exit 2) and the daemon (started in this
 * process from its command line): identifiers too long for DNS are INVALID_DID (not a DNS error),
 * operator settings that would weaken a default silently are refused (exit 2) or announced and
 * listed in /health, X-Forwarded-For is believed only from listed proxies, and the delegation
 * registry has a per-client registration quota.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, parseCliError, svc } from '../support/cli.js';
import type { DaemonHandle } from '../support/daemon.js';
import { call, statusFrom, DID_RESOLUTION_TYPE, expectJson, expectProblem, startInProcessDaemonFor } from '../support/daemon-client.js';
import { ED25519_DID } from '../support/dids.js';
import { unsignedCredential } from '../support/peer-issuers.js';
import { rdfcIssuer } from '../support/peer-rdfc.js';
import { didKeyPrincipal, mintReceipt, type Principal } from '../support/receipts.js';
import { generateTestKey } from '../support/signing.js';

/** A did:web whose host is 254 characters (63 + 63 + 63 + 62 and three dots). */
const LONG_HOST_DID = `did:web:${['a', 'b', 'c'].map((c) => c.repeat(63)).join('.')}.${'d'.repeat(62)}`;
/** A did:web with a 64-character label. */
const LONG_LABEL_DID = `did:web:${'x'.repeat(64)}.example`;

/** Settings not inherited from the test's own environment (this machine may set NODE_EXTRA_CA_CERTS). */
const QUIET = { NODE_EXTRA_CA_CERTS: undefined, SVC_EGRESS_ALLOW: undefined, SVC_TRUST_PROXY: undefined, SVC_DELEGATION_ROOTS: undefined };

describe('identifier limits (item 5)', () => {
  let daemon: DaemonHandle;
  beforeAll(async () => {
    daemon = await startInProcessDaemonFor(null, { env: QUIET });
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('/v1/resolve: a host over 253 characters or a label over 63 → 400 INVALID_DID failing in syntax.parse', async () => {
    const problem = expectProblem(await call(`${daemon.url}/v1/resolve/${LONG_HOST_DID}`), 400, 'INVALID_DID');
    expect(problem.detail).toBe('Not a valid did:web: the host is 254 characters long; a domain name has at most 253.');
    expect(problem.trace.map((s: { stage: string; status: string }) => [s.stage, s.status])).toEqual([['syntax.parse', 'FAIL']]);
    const label = expectProblem(await call(`${daemon.url}/v1/resolve/${LONG_LABEL_DID}`), 400, 'INVALID_DID');
    expect(label.detail).toContain('a label of 64 characters');
    expect(label.trace[0]).toMatchObject({ stage: 'syntax.parse', status: 'FAIL' });
    // did:webvh shares the host rules.
    const webvh = `did:webvh:QmNdazvnrgei4agYFMVJjYduyZSYHcYWnHEgNW7A1sMUoU:${LONG_HOST_DID.slice('did:web:'.length)}`;
    expect(expectProblem(await call(`${daemon.url}/v1/resolve/${webvh}`), 400, 'INVALID_DID').detail).toContain('did:webvh: the host is 254 characters long');
  });

  it('/1.0/identifiers: 400 with INVALID_DID embedded', async () => {
    const body = expectJson(
      await call(`${daemon.url}/1.0/identifiers/${LONG_HOST_DID}`, { headers: { accept: 'application/did-resolution' } }),
      400,
      DID_RESOLUTION_TYPE,
    );
    expect(body.didDocument).toBeNull();
    expect(body.didResolutionMetadata.error).toMatchObject({ code: 'INVALID_DID', status: 400 });
  });

  it('svc resolve: exit 4, INVALID_DID, the syntax.parse stage in the trace', async () => {
    const r = await svc(['resolve', LONG_HOST_DID, '--json', '--no-store'], cleanEnv());
    expect(r.exitCode).toBe(4);
    const problem = JSON.parse(r.stdout);
    expect(problem).toMatchObject({ code: 'INVALID_DID', status: 400 });
    expect(problem.trace).toEqual([expect.objectContaining({ stage: 'syntax.parse', status: 'FAIL' })]);
    expect((await svc(['resolve', LONG_LABEL_DID, '-q', '--no-store'], cleanEnv())).exitCode).toBe(4);
  });
});

describe('settings refused at start (item 9): exit 2 with one usage error', () => {
  const serve = (env: Record<string, string>, args: string[] = []) => svc(['serve', '--memory', '--port', '0', ...args], cleanEnv(env));

  // A bad environment variable points at `svc help environment`; a bad option, at the command's --help.
  const ENV_HINT = "see 'svc help environment'";
  const SERVE_HINT = "see 'svc serve --help'";
  it.each([
    [
      { SVC_EGRESS_ALLOW: '0.0.0.0/0' },
      [],
      /^SVC_EGRESS_ALLOW: 0\.0\.0\.0\/0 also admits 169\.254\.0\.0\/16 \(link-local, where cloud metadata services answer\) without naming it; allow link-local addresses only by listing them/,
      ENV_HINT,
    ],
    [{ SVC_EGRESS_ALLOW: '169.0.0.0/8' }, [], /^SVC_EGRESS_ALLOW: 169\.0\.0\.0\/8 also admits 169\.254\.0\.0\/16/, ENV_HINT],
    [{}, ['--egress-allow', '0.0.0.0/0'], /^--egress-allow: 0\.0\.0\.0\/0 also admits 169\.254\.0\.0\/16/, SERVE_HINT],
    [{}, ['--egress-allow', '::ffff:0:0/96'], /^--egress-allow: ::ffff:0:0\/96 also admits ::ffff:169\.254\.0\.0\/112/, SERVE_HINT],
    [
      { SVC_TRUST_PROXY: 'true' },
      [],
      /^SVC_TRUST_PROXY=true would let any client that connects directly forge X-Forwarded-For; list the addresses of your proxies instead/,
      ENV_HINT,
    ],
    [{ SVC_TRUST_PROXY: '1' }, [], /^SVC_TRUST_PROXY=1 would let any client/, ENV_HINT],
    [{ SVC_LOG_LEVEL: 'verbose' }, [], /^SVC_LOG_LEVEL must be one of debug, info, warn, error \(or empty for silent\), not "verbose"$/, ENV_HINT],
    [{ SVC_REGISTRATIONS_PER_CLIENT: '0' }, [], /^SVC_REGISTRATIONS_PER_CLIENT must be a whole number between 1 and 10000$/, ENV_HINT],
    [
      { SVC_TLS_EXPIRY_DAYS: '30,30' },
      [],
      /^SVC_TLS_EXPIRY_DAYS must list 1 to 5 distinct whole days between 1 and 365, separated by commas \(e\.g\. 30,14,3\)$/,
      ENV_HINT,
    ],
  ])('%j %j', async (env, args, reason, hint) => {
    const r = await serve(env, args);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    // Exactly the error block: nothing else (no "listening", no relaxation lines) on stderr.
    const error = parseCliError(r.stderr);
    expect(error).toMatchObject({ code: 'USAGE_ERROR', failedAt: [], stageDetails: [], hint });
    expect(error.detail).toMatch(reason);
  });

  it('SVC_SIGNING_KEY open to group or others: exit 2, naming chmod 600 <file>; nothing of the key is printed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-signing-'));
    try {
      const jwk = generateTestKey('EdDSA').privateKey.export({ format: 'jwk' }) as { d: string };
      const file = path.join(dir, 'signing.jwk');
      writeFileSync(file, JSON.stringify(jwk));
      chmodSync(file, 0o644);
      const r = await serve({ SVC_SIGNING_KEY: file });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      const error = parseCliError(r.stderr);
      expect(error).toMatchObject({ code: 'USAGE_ERROR', hint: ENV_HINT });
      expect(error.detail).toBe(`SVC_SIGNING_KEY: the private key file ${file} is open to group or others (mode 0644); restrict it with: chmod 600 ${file}`);
      expect(r.stderr).not.toContain(jwk.d);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the allowance and SVC_LOG_LEVEL are refused by every command, not only serve', async () => {
    const resolve = await svc(['resolve', ED25519_DID, '--no-store', '--egress-allow', '169.0.0.0/8'], cleanEnv());
    expect(resolve.exitCode).toBe(2);
    const allowance = parseCliError(resolve.stderr);
    expect(allowance).toMatchObject({ code: 'USAGE_ERROR', failedAt: [], stageDetails: [], hint: "see 'svc resolve --help'" });
    expect(allowance.detail).toMatch(/^--egress-allow: 169\.0\.0\.0\/8 also admits/);
    // -q hides only the report, never the error.
    const logLevel = await svc(['resolve', ED25519_DID, '--no-store', '-q'], cleanEnv({ SVC_LOG_LEVEL: 'loud' }));
    expect(logLevel.exitCode).toBe(2);
    expect(logLevel.stdout).toBe('');
    expect(parseCliError(logLevel.stderr)).toEqual({
      code: 'USAGE_ERROR',
      detail: 'SVC_LOG_LEVEL must be one of debug, info, warn, error (or empty for silent), not "loud"',
      failedAt: [],
      stageDetails: [],
      hint: "see 'svc help environment'",
    });
    // Empty is unset.
    expect((await svc(['resolve', ED25519_DID, '--no-store', '-q'], cleanEnv({ SVC_LOG_LEVEL: '' }))).exitCode).toBe(0);
  });
});

describe('relaxations: announced at start and listed by /health (item 9)', () => {
  it('none: an empty list (with SVC_DELEGATION_ROOTS set)', async () => {
    const daemon = await startInProcessDaemonFor(null, { env: { ...QUIET, SVC_RATE_LIMIT_PER_MIN: undefined, SVC_DELEGATION_ROOTS: ED25519_DID } });
    try {
      expect(expectJson(await call(`${daemon.url}/health`), 200).relaxations).toEqual([]);
      expect(daemon.stderr()).not.toContain('relaxation');
    } finally {
      await daemon.stop();
    }
  });

  it('169.254.169.254/32 is accepted and reported, with the trusted proxies and the open registry', async () => {
    const daemon = await startInProcessDaemonFor(null, {
      env: { ...QUIET, SVC_RATE_LIMIT_PER_MIN: undefined, SVC_EGRESS_ALLOW: '169.254.169.254/32', SVC_TRUST_PROXY: '127.0.0.1' },
      args: ['--egress-allow', '10.0.0.0/8'],
    });
    try {
      const lines = daemon
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('svc: relaxation:'));
      expect(lines).toEqual([
        'svc: relaxation: egress allowed to 169.254.169.254/32 (SVC_EGRESS_ALLOW)',
        'svc: relaxation: egress allowed to 10.0.0.0/8 (--egress-allow)',
        'svc: relaxation: X-Forwarded-For from 127.0.0.1/32 names the client (SVC_TRUST_PROXY)',
        'svc: relaxation: delegation registration is open: any client may register chains of any root, 100 new chains per client per 24 h, up to 100 held per client and 100 per root, each expiring within 366 days (SVC_DELEGATION_ROOTS unset)',
      ]);
      const health = expectJson(await call(`${daemon.url}/health`), 200);
      expect(health).toMatchObject({ status: 'ok', rateLimited: true });
      expect(health.relaxations).toEqual([
        { setting: 'SVC_EGRESS_ALLOW', value: '169.254.169.254/32', effect: 'egress allowed to 169.254.169.254/32' },
        { setting: '--egress-allow', value: '10.0.0.0/8', effect: 'egress allowed to 10.0.0.0/8' },
        { setting: 'SVC_TRUST_PROXY', value: '127.0.0.1/32', effect: 'X-Forwarded-For from 127.0.0.1/32 names the client' },
        {
          setting: 'SVC_DELEGATION_ROOTS',
          value: null,
          effect:
            'delegation registration is open: any client may register chains of any root, 100 new chains per client per 24 h, up to 100 held per client and 100 per root, each expiring within 366 days',
        },
      ]);
    } finally {
      await daemon.stop();
    }
  });
});

describe('SVC_JSONLD=on: JSON-LD processing, announced and listed as a relaxation', () => {
  it('the daemon says so at start and in /health, and verifies an eddsa-rdfc-2022 credential; "jsonld": false turns it off', async () => {
    const daemon = await startInProcessDaemonFor(null, {
      env: { ...QUIET, SVC_RATE_LIMIT_PER_MIN: undefined, SVC_DELEGATION_ROOTS: ED25519_DID, SVC_JSONLD: 'on' },
    });
    try {
      const effect =
        "eddsa-rdfc-2022, ecdsa-rdfc-2019 and Ed25519Signature2020 proofs are verified through JSON-LD processing, RDFC-1.0 with svc's pinned JSON-LD context set (14 contexts)";
      expect(daemon.stderr()).toContain(`svc: relaxation: ${effect} (SVC_JSONLD)`);
      expect(expectJson(await call(`${daemon.url}/health`), 200).relaxations).toEqual([{ setting: 'SVC_JSONLD', value: 'on', effect }]);
      const issuer = await rdfcIssuer('eddsa-rdfc-2022');
      const credential = await issuer.sign(unsignedCredential(issuer.did));
      const verify = async (body: unknown) =>
        expectJson(
          await call(`${daemon.url}/v1/credentials/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
          200,
        );
      expect((await verify({ credential })).status).toBe('VALID');
      expect((await verify({ credential, jsonld: false })).status).toBe('UNSUPPORTED');
    } finally {
      await daemon.stop();
    }
  });
});

describe('SVC_TRUST_PROXY lists the proxies whose X-Forwarded-For names the client (item 9)', () => {
  let daemon: DaemonHandle;
  beforeAll(async () => {
    daemon = await startInProcessDaemonFor(null, { env: { ...QUIET, SVC_TRUST_PROXY: '127.0.0.1', SVC_RATE_LIMIT_PER_MIN: '2' } });
  });
  afterAll(async () => {
    await daemon?.stop();
  });
  const resolveUrl = () => `${daemon.url}/v1/resolve/${ED25519_DID}`;

  it('from the listed proxy, each forwarded client has its own bucket', async () => {
    const as = (client: string) => statusFrom(resolveUrl(), '127.0.0.1', { 'x-forwarded-for': client });
    expect([await as('203.0.113.1'), await as('203.0.113.1'), await as('203.0.113.1')]).toEqual([200, 200, 429]);
    expect(await as('203.0.113.2')).toBe(200);
    // The proxy's own requests (no header) are the proxy's bucket, untouched so far.
    expect(await statusFrom(resolveUrl(), '127.0.0.1')).toBe(200);
  });

  it('from an address not listed (127.0.0.2), forged X-Forwarded-For is ignored: one bucket', async () => {
    const forged = (client: string) => statusFrom(resolveUrl(), '127.0.0.2', { 'x-forwarded-for': client });
    expect([await forged('198.51.100.1'), await forged('198.51.100.2'), await forged('198.51.100.3')]).toEqual([200, 200, 429]);
    // Even one that names a trusted proxy as the hop before it.
    expect(await forged('198.51.100.4, 127.0.0.1')).toBe(429);
  });
});

// ---------------------------------------------------------------------------------------------
// Item 10: the registration quota

const didKey = didKeyPrincipal;

/** root → agent, one receipt; a fresh agent each time. */
async function chainFrom(root: Principal): Promise<{ chain: string[]; agent: Principal }> {
  const agent = didKey();
  return { chain: [await mintReceipt(root, agent)], agent };
}

function registerAs(daemon: DaemonHandle, client: string, chain: string[]) {
  return call(`${daemon.url}/v1/agents/verify-delegation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ chain, register: true }),
  });
}

const QUOTA_REASON =
  /^This client's registration quota \(2 new chains per 24 h\) is used up; the chain was verified but not registered\. The next registration is possible in about 12 h\.$/;

describe('registration quota per client (item 10)', () => {
  it('open registry: 2 new chains per client; the third is verified, not registered; a refresh is free; another client is unaffected', async () => {
    const daemon = await startInProcessDaemonFor(null, { env: { ...QUIET, SVC_TRUST_PROXY: '127.0.0.1', SVC_REGISTRATIONS_PER_CLIENT: '2' } });
    try {
      const root = didKey();
      const [one, two, three] = [await chainFrom(root), await chainFrom(root), await chainFrom(root)];
      expect(expectJson(await registerAs(daemon, '203.0.113.7', one.chain), 200)).toMatchObject({ registered: true });
      expect(expectJson(await registerAs(daemon, '203.0.113.7', two.chain), 200)).toMatchObject({ registered: true });
      // The same chain again only refreshes its registration: not charged.
      expect(expectJson(await registerAs(daemon, '203.0.113.7', one.chain), 200)).toMatchObject({ registered: true });
      const refused = expectJson(await registerAs(daemon, '203.0.113.7', three.chain), 200);
      expect(Object.keys(refused)).toEqual(['result', 'registered', 'registrationReason']);
      expect(refused.result.status).toBe('VALID');
      expect(refused.registered).toBe(false);
      expect(refused.registrationReason).toMatch(QUOTA_REASON);
      const tool = (agent: Principal) => call(`${daemon.url}/v1/agents/verify-tool?${new URLSearchParams({ agent: agent.did, tool: 'search' }).toString()}`);
      expect(expectJson(await tool(three.agent), 200).decision).toBe('DENY');
      // Another client has its own quota.
      expect(expectJson(await registerAs(daemon, '203.0.113.8', three.chain), 200)).toMatchObject({ registered: true });
      expect(expectJson(await tool(three.agent), 200).decision).toBe('ALLOW');
      expect(expectJson(await call(`${daemon.url}/health`), 200).relaxations).toContainEqual({
        setting: 'SVC_DELEGATION_ROOTS',
        value: null,
        effect:
          'delegation registration is open: any client may register chains of any root, 2 new chains per client per 24 h, up to 100 held per client and 100 per root, each expiring within 366 days',
      });
    } finally {
      await daemon.stop();
    }
  });

  it('with SVC_DELEGATION_ROOTS the quota applies too, and /health does not call the registry open', async () => {
    const root = didKey();
    const daemon = await startInProcessDaemonFor(null, {
      env: { ...QUIET, SVC_RATE_LIMIT_PER_MIN: undefined, SVC_DELEGATION_ROOTS: root.did, SVC_REGISTRATIONS_PER_CLIENT: '2' },
    });
    try {
      const chains = [await chainFrom(root), await chainFrom(root), await chainFrom(root)];
      const answers = [];
      for (const { chain } of chains) answers.push(expectJson(await registerAs(daemon, 'ignored: no trusted proxy', chain), 200));
      expect(answers.map((a) => a.registered)).toEqual([true, true, false]);
      expect(answers[2].registrationReason).toMatch(QUOTA_REASON);
      expect(expectJson(await call(`${daemon.url}/health`), 200).relaxations).toEqual([]);
    } finally {
      await daemon.stop();
    }
  });
});
