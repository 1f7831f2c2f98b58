/**
 * Proofs of control and the directory on the daemon in process (test/support/live-daemon.ts: the
 * real app, store and Runtime over loopback HTTP), on a SQLite file and on PostgreSQL: signature
 * claims (did:key, did:jwk, a did:web key; a key only under assertionMethod
 * refused; a reused or expired challenge refused), well-known claims against a loopback HTTPS host
 * with the test CA (wrong content, 404, a redirect to a blocked address), DNS claims against a
 * real DNS server on loopback (present, absent, wrong; removed later → the claim lapses on
 * re-check and its listing with it), and the directory: 120 listings paged 50/50/20 in a stable
 * order, listings added between pages, the 400s, and a claim without opt-in never listed.
 *
 * The claim re-checker runs a pass when the test runs one, and time is moved by SQL on the
 * daemon's database rather than waited for (a re-check made due now, a challenge's lifetime
 * moved back); the re-checker's own schedule (SVC_CLAIM_PERIOD) is tested on a real process by
 * cli-claims.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectJson, expectProblem } from '../support/daemon-client.js';
import { postgresSql, sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { raw, redirect } from '../support/https-server.js';
import { afterPasses, schemaUrl, startLiveDaemon, type LiveDaemon } from '../support/live-daemon.js';
import { schemaPool } from '../support/pg-schemas.js';
import { describePostgres, postgresUrl } from '../support/postgres.js';
import { didDocument, generateTestKey, signBytes, type TestKey } from '../support/signing.js';
import { b64url, didJwkOf } from '../support/codec.js';

const WELL_KNOWN = '/.well-known/svc-claim.txt';

interface Identity {
  did: string;
  kid: string;
  key: TestKey;
}

function didKeyIdentity(): Identity {
  const key = generateTestKey('EdDSA');
  const did = `did:key:${key.multikey}`;
  return { did, kid: `${did}#${key.multikey}`, key };
}

function didJwkIdentity(): Identity {
  const key = generateTestKey('ES256');
  const did = didJwkOf(key.publicJwk);
  return { did, kid: `${did}#0`, key };
}

/** A compact JWS whose payload is the challenge's payload text, exactly. */
function signPayload(identity: Identity, payload: string, kid = identity.kid): string {
  const input = `${b64url(JSON.stringify({ alg: identity.key.alg, kid }))}.${payload}`;
  return `${input}.${b64url(signBytes(identity.key.alg, identity.key.privateKey, Buffer.from(input)))}`;
}

/** Migrated PostgreSQL schemas (test/support/pg-schemas.ts). */
const schemas = schemaPool();
afterAll(() => schemas.dispose());

const onSqlite = (): Promise<TestDatabase> => sqliteDatabase('svc-claims');
const onPostgres = async (): Promise<TestDatabase> => {
  const { schema, drop } = await schemas.take();
  const target = schemaUrl(postgresUrl, schema);
  return { target, sql: postgresSql(target), done: drop };
};

function claimsSuite(engine: string, describeEngine: (name: string, fn: () => void) => void, database: () => Promise<TestDatabase>) {
  describeEngine(`proofs of control and the directory on ${engine}`, () => {
    let daemon: LiveDaemon;
    let opened: TestDatabase;
    let host: DidWebHost;
    /** A second host of the same CA: its well-known file is absent, then redirects. */
    let other: DidWebHost;
    let dns: TestDnsServer;
    /** The lines of the test host's svc-claim.txt (every well-known test adds its own). */
    const lines: string[] = ['# svc claims'];

    beforeAll(async () => {
      opened = await database();
      host = await startDidWebHost();
      other = await startDidWebHost({ ca: host.ca });
      dns = await startDnsServer();
      host.server.route(WELL_KNOWN, (req, res) => raw(`${lines.join('\n')}\n`, { contentType: 'text/plain' })(req, res));
      // Re-checks every 2 s (claims hold 14 s); a pass runs when a test runs one.
      daemon = await startLiveDaemon({ target: opened.target, host, env: { SVC_DNS_SERVERS: dns.address, SVC_CLAIM_RECHECK_INTERVAL: '2' } });
    }, 60_000);

    afterAll(async () => {
      await daemon?.stop();
      await host?.close();
      await other?.close();
      await dns?.close();
      await opened?.done();
    });

    /** The DID's current claims due for a re-check now (their interval moved by SQL rather than waited for). */
    const dueNow = (did: string) =>
      opened.sql(`UPDATE claims SET next_check_at_ms = 0 WHERE did = '${did}' AND lapsed_at_ms IS NULL AND next_check_at_ms IS NOT NULL`);

    const post = (path: string, body: unknown) =>
      call(`${daemon.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const get = (path: string) => call(`${daemon.url}${path}`);
    const challenge = async (did: string, method: string, extra: Record<string, unknown> = {}) =>
      expectJson(await post('/v1/claims/challenges', { did, method, ...extra }), 201);
    const verify = async (body: Record<string, unknown>) => expectJson(await post('/v1/claims/verify', body), 200);
    const claimsOf = async (did: string) => expectJson(await get(`/v1/claims/${encodeURIComponent(did)}`), 200);

    /** Proves control of `identity` by signature, for `purpose`; returns the verification. */
    async function proveBySignature(identity: Identity, purpose = 'claim', kid = identity.kid) {
      const terms = await challenge(identity.did, 'signature', { purpose });
      return verify({ did: identity.did, token: terms.token, jws: signPayload(identity, terms.signature.payload, kid) });
    }

    async function walk(query = '', limit = 50, between?: (page: number) => Promise<void>): Promise<{ dids: string[]; sizes: number[] }> {
      const dids: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const params = new URLSearchParams(query);
        params.set('limit', String(limit));
        if (cursor !== null) params.set('cursor', cursor);
        const page = expectJson(await get(`/v1/directory?${params}`), 200);
        dids.push(...page.entries.map((e: { did: string }) => e.did));
        sizes.push(page.entries.length);
        cursor = page.nextCursor;
        if (between && cursor !== null) await between(sizes.length);
      } while (cursor !== null);
      return { dids, sizes };
    }

    it('signature claims with did:key and did:jwk: the challenge names the exact payload; the claim says what it proves and what not', async () => {
      for (const identity of [didKeyIdentity(), didJwkIdentity()]) {
        const terms = await challenge(identity.did, 'signature');
        expect(terms).toMatchObject({ did: identity.did, method: 'signature', purpose: 'claim', wellKnown: null, dns: null, attemptsAllowed: 5 });
        expect(terms.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        const statement = JSON.parse(Buffer.from(terms.signature.payload, 'base64url').toString('utf8'));
        expect(statement).toMatchObject({ aud: 'svc-claim', did: identity.did, token: terms.token, purpose: 'claim' });
        const result = await verify({ did: identity.did, token: terms.token, jws: signPayload(identity, terms.signature.payload) });
        expect(result).toMatchObject({ status: 'VERIFIED', verified: true, refusal: null, listed: false, method: 'signature' });
        expect(result.claim.subject).toBe(identity.kid);
        expect(result.claim.proves).toContain(identity.kid);
        expect(result.claim.doesNotProve.join(' ')).toMatch(/legal or real-world identity/);
        expect(result.claim.nextCheckAt).toBeNull();
        const listed = await claimsOf(identity.did);
        expect(listed.claims).toHaveLength(1);
        expect(listed.claims[0].subject).toBe(identity.kid);
        expect(listed.listed).toBe(false);
        expect(listed.limitations.length).toBeGreaterThan(0);
      }
    });

    it('a did:web key under authentication proves control; a key only under assertionMethod is refused with that reason', async () => {
      const did = host.did('user', 'signer');
      const assertionOnly = generateTestKey('EdDSA');
      const document = didDocument(did, host.key) as Record<string, unknown>;
      (document['verificationMethod'] as unknown[]).push({ id: `${did}#assert`, type: 'JsonWebKey', controller: did, publicKeyJwk: assertionOnly.publicJwk });
      document['assertionMethod'] = [...(document['assertionMethod'] as string[]), `${did}#assert`];
      host.publish(did, document);
      const signer: Identity = { did, kid: `${did}#key-1`, key: host.key };
      expect(await proveBySignature(signer)).toMatchObject({ verified: true, claim: { subject: `${did}#key-1` } });

      const refused = await proveBySignature({ did, kid: `${did}#assert`, key: assertionOnly });
      expect(refused).toMatchObject({ status: 'REFUSED', verified: false, claim: null, listed: null, refusal: { code: 'KEY_NOT_AUTHENTICATION' } });
      expect(refused.refusal.reason).toMatch(/assertionMethod/);
    });

    it('a challenge proves once; an expired or unknown one is refused; a wrong signature costs an attempt, the fifth is the last', async () => {
      const identity = didKeyIdentity();
      const terms = await challenge(identity.did, 'signature');
      const jws = signPayload(identity, terms.signature.payload);
      expect((await verify({ did: identity.did, token: terms.token, jws })).verified).toBe(true);
      expect(await verify({ did: identity.did, token: terms.token, jws })).toMatchObject({ verified: false, refusal: { code: 'CHALLENGE_USED' } });
      // Another DID's token, and no token at all: unknown.
      expect(await verify({ did: didKeyIdentity().did, token: terms.token, jws })).toMatchObject({ verified: false, refusal: { code: 'CHALLENGE_UNKNOWN' } });
      expect(await verify({ did: identity.did, token: 'x'.repeat(43) })).toMatchObject({ refusal: { code: 'CHALLENGE_UNKNOWN' } });

      const short = await challenge(identity.did, 'signature', { expiresInSeconds: 1 });
      // Two seconds later: its lifetime moved back by SQL on the database's clock.
      await opened.sql(`UPDATE claim_challenges SET created_at_ms = created_at_ms - 2100, expires_at_ms = expires_at_ms - 2100 WHERE token = '${short.token}'`);
      expect(await verify({ did: identity.did, token: short.token, jws: signPayload(identity, short.signature.payload) })).toMatchObject({
        verified: false,
        refusal: { code: 'CHALLENGE_EXPIRED' },
      });

      const tries = await challenge(identity.did, 'signature');
      const stranger = didKeyIdentity();
      const codes: string[] = [];
      for (let i = 0; i < 5; i++)
        codes.push((await verify({ did: identity.did, token: tries.token, jws: signPayload(stranger, tries.signature.payload, identity.kid) })).refusal.code);
      expect(codes).toEqual(Array(5).fill('SIGNATURE_INVALID'));
      const sixth = await verify({ did: identity.did, token: tries.token, jws: signPayload(identity, tries.signature.payload) });
      expect(sixth.refusal.code).toBe('CHALLENGE_EXHAUSTED');
    });

    it('bad requests are 400 problems: well-known or dns for a did:key, an unknown method, a lifetime over the maximum, a bad DID', async () => {
      const { did } = didKeyIdentity();
      expect(expectProblem(await post('/v1/claims/challenges', { did, method: 'dns' }), 400, 'INVALID_REQUEST').detail).toMatch(/no host/);
      expectProblem(await post('/v1/claims/challenges', { did, method: 'email' }), 400, 'INVALID_REQUEST');
      expect(expectProblem(await post('/v1/claims/challenges', { did, method: 'signature', expiresInSeconds: 901 }), 400, 'INVALID_REQUEST').detail).toMatch(
        /900/,
      );
      expectProblem(await post('/v1/claims/challenges', { did: 'not-a-did', method: 'signature' }), 400, 'INVALID_DID');
      expectProblem(await post('/v1/claims/verify', { did, token: 'a', extra: 1 }), 400, 'INVALID_REQUEST');
      expectProblem(await get('/v1/claims/not-a-did'), 400, 'INVALID_DID');
      expectProblem(await get(`/v1/claims/${did}?x=1`), 400, 'INVALID_OPTIONS');
    });

    it('well-known: the token as a line of the file proves control; wrong content, a 404 and a redirect to a blocked address are refused with their reasons', async () => {
      const did = host.did('user', 'site');
      host.publish(did);
      const terms = await challenge(did, 'well-known', { purpose: 'list' });
      expect(terms.wellKnown).toEqual({ url: `https://localhost:${host.server.port}${WELL_KNOWN}`, content: terms.token });
      // Not published yet: the file holds other lines only.
      expect(await verify({ did, token: terms.token })).toMatchObject({ verified: false, refusal: { code: 'TOKEN_MISMATCH' } });
      lines.push(terms.token);
      const result = await verify({ did, token: terms.token });
      expect(result).toMatchObject({ verified: true, listed: true, claim: { method: 'well-known', subject: terms.wellKnown.url } });
      expect(result.claim.nextCheckAt).not.toBeNull();

      const absent = other.did('user', 'absent');
      const missing = await challenge(absent, 'well-known');
      expect(await verify({ did: absent, token: missing.token })).toMatchObject({ verified: false, refusal: { code: 'FILE_NOT_FOUND' } });
      other.server.route(WELL_KNOWN, redirect('https://169.254.169.254/.well-known/svc-claim.txt'));
      const blocked = await verify({ did: absent, token: missing.token });
      expect(blocked).toMatchObject({ verified: false, refusal: { code: 'EGRESS_BLOCKED' } });
      expect(blocked.refusal.reason).toMatch(/169\.254\.169\.254/);

      // Re-checked when due (every 2 s), the claim holds while the file does.
      await dueNow(did);
      expect(await daemon.jobs.claims.pass()).toBeGreaterThanOrEqual(1);
      const later = await claimsOf(did);
      expect(later.claims.map((c: { method: string }) => c.method)).toEqual(['well-known']);
      expect(later.claims[0].lastCheckedAt >= result.claim.lastCheckedAt).toBe(true);
      expect(later.listed).toBe(true);
    });

    it('dns: wrong and absent records are refused; the record proves control and lists the DID; removed, the claim lapses on re-check and the listing with it', async () => {
      const did = host.did('user', 'zone');
      const name = '_svc-claim.localhost';
      const terms = await challenge(did, 'dns', { purpose: 'list' });
      expect(terms.dns).toEqual({ name, type: 'TXT', value: terms.token });
      dns.set(name, ['v=spf1 -all', 'not-the-token']);
      expect(await verify({ did, token: terms.token })).toMatchObject({ verified: false, refusal: { code: 'TOKEN_MISMATCH' } });
      dns.remove(name);
      expect(await verify({ did, token: terms.token })).toMatchObject({ verified: false, refusal: { code: 'RECORD_ABSENT' } });
      dns.set(name, ['v=spf1 -all', terms.token]);
      expect(await verify({ did, token: terms.token })).toMatchObject({ verified: true, listed: true, claim: { method: 'dns', subject: name } });
      expect((await walk(`q=${encodeURIComponent(did)}`)).dids).toEqual([did]);

      dns.remove(name);
      await dueNow(did);
      await afterPasses('the DNS claim lapses on re-check', daemon.jobs.claims, async () =>
        (await claimsOf(did)).lapsed.some((l: { method: string }) => l.method === 'dns'),
      );
      const after = await claimsOf(did);
      expect(after.claims).toEqual([]);
      expect(after.listed).toBe(false);
      expect(after.lapsed[0].reason).toMatch(/RECORD_ABSENT|no TXT record/);
      expect((await walk(`q=${encodeURIComponent(did)}`)).dids).toEqual([]);
    }, 30_000);

    it('the directory: 120 listings paged 50/50/20 in a stable order; listings added between pages come after, once; a claim without opt-in never appears; unlist leaves', async () => {
      // No other test of this suite lists a did:key, so method=key holds exactly these.
      const listed: Identity[] = [];
      // Ten challenges at a time (fewer than a client may hold pending), then their proofs one by one, in order.
      for (let i = 0; i < 120; i += 10) {
        const identities = Array.from({ length: 10 }, () => didKeyIdentity());
        const terms = await Promise.all(identities.map((identity) => challenge(identity.did, 'signature', { purpose: 'list' })));
        for (const [j, identity] of identities.entries()) {
          const proof = await verify({ did: identity.did, token: terms[j].token, jws: signPayload(identity, terms[j].signature.payload) });
          expect(proof.listed).toBe(true);
          listed.push(identity);
        }
      }
      const unlisted = didKeyIdentity();
      expect((await proveBySignature(unlisted, 'claim')).listed).toBe(false);

      const first = await walk('method=key');
      expect(first.sizes).toEqual([50, 50, 20]);
      expect(first.dids).toEqual(listed.map((i) => i.did));
      expect((await walk(`q=${encodeURIComponent(unlisted.did)}`)).dids).toEqual([]);
      // q matches case-insensitively inside the DID.
      expect((await walk(`q=${encodeURIComponent(listed[7]!.did.slice(12).toUpperCase())}`)).dids).toEqual([listed[7]!.did]);

      const added: string[] = [];
      const second = await walk('method=key', 50, async (page) => {
        if (page !== 1) return;
        for (let i = 0; i < 3; i++) {
          const identity = didKeyIdentity();
          await proveBySignature(identity, 'list');
          added.push(identity.did);
        }
      });
      expect(second.sizes).toEqual([50, 50, 23]);
      expect(second.dids).toEqual([...first.dids, ...added]);

      // Proving again with purpose list keeps the place; unlist leaves the directory, the claim stays.
      expect((await proveBySignature(listed[0]!, 'list')).listed).toBe(true);
      expect((await walk('method=key&limit=1')).dids[0]).toBe(listed[0]!.did);
      expect((await proveBySignature(listed[1]!, 'unlist')).listed).toBe(false);
      const third = await walk('method=key');
      expect(third.dids).not.toContain(listed[1]!.did);
      expect(third.dids.length).toBe(122);
      expect((await claimsOf(listed[1]!.did)).claims).toHaveLength(1);
    }, 180_000);

    it('directory parameters: q over 100 characters, limit 0 or 51, a repeated q, an unknown parameter, a bad or foreign cursor, an unknown method → 400', async () => {
      for (const query of [
        `q=${'a'.repeat(101)}`,
        'limit=0',
        'limit=51',
        'limit=x',
        'q=a&q=b',
        'sort=did',
        'cursor=!!!',
        'cursor=bm90LWEtY3Vyc29y',
        'method=ethr',
      ]) {
        expectProblem(await get(`/v1/directory?${query}`), 400, 'INVALID_OPTIONS');
      }
      expectJson(await get(`/v1/directory?q=${'a'.repeat(100)}`), 200);
      const page = expectJson(await get('/v1/directory?limit=1'), 200);
      expect(page.nextCursor).not.toBeNull();
      expect(expectProblem(await get(`/v1/directory?limit=1&q=z&cursor=${page.nextCursor}`), 400, 'INVALID_OPTIONS').detail).toMatch(/another query/);
      expectJson(await get(`/v1/directory?limit=5&cursor=${page.nextCursor}`), 200);
    });
  });
}

claimsSuite('SQLite', describe, onSqlite);
claimsSuite('PostgreSQL', describePostgres, onPostgres);
