/**
 * The TypeScript client fetches an evidence bundle (GET /v1/resolve/{did}?bundle=true) and checks
 * its embedded signature itself (src/client/signature.ts verifyBundleSignature: typ
 * svc-bundle+jws over the bundle without `signature`): VALID naming the daemon's key, EDITED after
 * an edit, WRONG_KEY for another key's signature under the daemon's kid, null from a daemon
 * without a key. The client talks to the daemon's app in process (Fastify inject behind its
 * `fetch` option); the signer is a did:key, decoded by the client offline.
 */
import type { JsonWebKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient, verifyBundleSignature, type FetchLike } from '../../src/client/index.js';
import { BUNDLE_MEDIA_TYPE, decodeBundle, type EvidenceBundle } from '../../src/core/bundle/format.js';
import { signBundle } from '../../src/core/bundle/signature.js';
import { createSigner, signCanonical, type Signer } from '../../src/core/signing/index.js';
import { sqliteDatabase, type TestDatabase } from '../support/databases.js';
import { injectedApp, type InjectedApp } from '../support/injected.js';
import { fixedClock } from '../support/runtime.js';
import { generateTestKey } from '../support/signing.js';

const SUBJECT = `did:key:${generateTestKey('EdDSA').multikey!}`;

let db: TestDatabase;
let keyed: InjectedApp;
let plain: InjectedApp;
let signer: Signer;

/** The client's fetch, answered by the app's inject(): status, headers and the body's bytes. */
function injectFetch(app: InjectedApp): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    const res = await app.app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: { ...(init.headers as Record<string, string>) },
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, String(value));
    return new Response(new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };
}

const clientOf = (app: InjectedApp) => new SvcClient({ baseUrl: 'http://svc.test', fetch: injectFetch(app) });

beforeAll(async () => {
  db = await sqliteDatabase('svc-client-bundle');
  signer = createSigner(generateTestKey('EdDSA').privateKey.export({ format: 'jwk' }) as JsonWebKey);
  const clock = fixedClock('2026-02-03T04:05:06.000Z');
  keyed = await injectedApp(db.target, { clock, signer });
  plain = await injectedApp(db.target, { clock });
});

afterAll(async () => {
  await keyed?.close();
  await plain?.close();
  await db?.done();
});

describe('SvcClient.resolveBundle and verifyBundleSignature', () => {
  it('a signed bundle: its bytes as served, VALID naming the daemon’s key (pinned or not)', async () => {
    const fetched = await clientOf(keyed).resolveBundle(SUBJECT, { expectedSigner: signer.identity.did });
    expect(fetched.signature).toMatchObject({ verified: true, reason: 'VALID', signer: { did: signer.identity.did, kid: signer.identity.kid } });
    expect(fetched.signature!.signedAt).toBe('2026-02-03T04:05:06Z');
    expect(fetched.bundle.command).toEqual({ kind: 'resolve', subject: SUBJECT, options: {} });
    // The bytes are the daemon's encoding of the bundle the client parsed.
    expect(decodeBundle(fetched.bytes)).toEqual(fetched.bundle);
    expect((await keyed.anonymous('GET', `/v1/resolve/${SUBJECT}?bundle=true`)).headers['content-type']).toBe(BUNDLE_MEDIA_TYPE);
    expect(await verifyBundleSignature(fetched.bundle)).toMatchObject({ verified: true, reason: 'VALID' });
    // Pinned to another signer: WRONG_KEY.
    expect(await verifyBundleSignature(fetched.bundle, { expectedSigner: 'did:web:elsewhere.example' })).toMatchObject({
      verified: false,
      reason: 'WRONG_KEY',
    });
  });

  it('the bundle edited after signing: EDITED', async () => {
    const { bundle } = await clientOf(keyed).resolveBundle(SUBJECT);
    const edited = { ...bundle, observedAt: new Date(Date.parse(bundle.observedAt) - 1000).toISOString() };
    const check = await verifyBundleSignature(edited);
    expect(check).toMatchObject({ verified: false, reason: 'EDITED', signer: { did: signer.identity.did, kid: signer.identity.kid } });
    expect(check!.detail).toMatch(/^The bundle was changed after it was signed/);
  });

  it('another key’s signature under the daemon’s kid: WRONG_KEY', async () => {
    const { bundle } = await clientOf(keyed).resolveBundle(SUBJECT);
    const other = createSigner(generateTestKey('EdDSA').privateKey.export({ format: 'jwk' }) as JsonWebKey);
    const { signature: _kept, ...unsigned } = bundle;
    const resigned = signBundle(unsigned as EvidenceBundle, (value, typ) => signCanonical(value, other, { typ, iat: new Date() }));
    const header = JSON.parse(Buffer.from(resigned.signature!.protected, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = {
      ...bundle,
      signature: {
        protected: Buffer.from(JSON.stringify({ ...header, kid: signer.identity.kid })).toString('base64url'),
        signature: resigned.signature!.signature,
      },
    };
    expect(await verifyBundleSignature(forged)).toMatchObject({ verified: false, reason: 'WRONG_KEY', signer: { kid: signer.identity.kid } });
  });

  it('a result signature is not a bundle signature (typ), and a signature member of the wrong shape is MALFORMED', async () => {
    const { bundle } = await clientOf(keyed).resolveBundle(SUBJECT);
    const { signature: _kept, ...unsigned } = bundle;
    const asResult = signBundle(unsigned as EvidenceBundle, (value) => signCanonical(value, signer, { typ: 'svc-result+jws', iat: new Date() }));
    expect(await verifyBundleSignature(asResult)).toMatchObject({ verified: false, reason: 'MALFORMED' });
    expect(await verifyBundleSignature({ ...bundle, signature: 'x..y' })).toMatchObject({ verified: false, reason: 'MALFORMED' });
    expect(await verifyBundleSignature([bundle])).toMatchObject({ verified: false, reason: 'MALFORMED' });
  });

  it('a daemon without a key: the bundle is unsigned, signature null', async () => {
    const fetched = await clientOf(plain).resolveBundle(SUBJECT);
    expect(fetched.bundle.signature).toBeUndefined();
    expect(fetched.signature).toBeNull();
    expect(await verifyBundleSignature(fetched.bundle)).toBeNull();
  });

  it('a refused request is an SvcError with the daemon’s problem', async () => {
    await expect(clientOf(keyed).resolveBundle('not-a-did')).rejects.toMatchObject({ code: 'INVALID_DID', status: 400 });
  });
});
