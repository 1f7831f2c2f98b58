/**
 * Signed results (docs/daemon.md#signed-results): what `signed=true` costs the daemon.
 *
 *  - autocannon against one `svc serve --memory` with an Ed25519 SVC_SIGNING_KEY: GET
 *    /v1/resolve/<did:key> (cached: the body is serialised once and kept) next to the same request
 *    with `signed=true` (the kept body parsed back, put in its RFC 8785 form, hashed and signed on
 *    every answer, since a signature carries its answer time), rounds interleaved in the same run;
 *  - in this process, for that body: the signature of a payload prepared once (what a cached answer
 *    costs: the daemon keeps the RFC 8785 form of the bodies it signed last), Ed25519 next to P-256;
 *    and a body not seen before (JSON.parse, RFC 8785, SHA-256, base64url, then Ed25519) next to
 *    the prepared signature alone.
 *
 * Before timing, a signed answer is checked: its svc-signature must verify (VALID) through svc's
 * own resolver of the daemon's did:key, or the benchmark throws. Needs the built CLI (dist/cli.js).
 * Informational: no goal is set.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  canonicalPayload,
  createSigner,
  signCanonical,
  signCanonicalPayload,
  signingKeyResolver,
  verifyCanonicalSignature,
} from '../src/core/signing/index.js';
import { createRuntime } from '../src/index.js';
import { median, plainEnv, serverStarted, type BenchRow } from './lib.js';

const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 16;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

async function load(url: string): Promise<{ rps: number; failed: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 });
  return { rps: result.requests.average, failed: result.non2xx + result.errors + result.timeouts };
}

/** µs per call of `once`: 5 samples of 2000 after a warm-up of 500, the median. */
function cost(once: () => unknown): number {
  for (let i = 0; i < 500; i++) once();
  const samples: number[] = [];
  for (let s = 0; s < 5; s++) {
    const n = 2000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) once();
    samples.push(((performance.now() - t0) * 1000) / n);
  }
  return median(samples);
}

function signerOf(curve: 'ed25519' | 'P-256') {
  const pair = curve === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return createSigner(pair.privateKey.export({ format: 'jwk' }));
}

/** µs per signature of `body` (JSON text as the daemon answers it): prepared once, or from the text each time. */
function signingCosts(body: string): { edPrepared: number; p256Prepared: number; edFromText: number } {
  const ed = signerOf('ed25519');
  const p256 = signerOf('P-256');
  const prepared = canonicalPayload(JSON.parse(body) as unknown);
  const options = () => ({ typ: 'svc-result+jws', iat: new Date() });
  return {
    edPrepared: cost(() => signCanonicalPayload(prepared, ed, options())),
    p256Prepared: cost(() => signCanonicalPayload(prepared, p256, options())),
    edFromText: cost(() => signCanonical(JSON.parse(body) as unknown, ed, options())),
  };
}

export async function run(): Promise<BenchRow[]> {
  const operation = 'daemon: GET /v1/resolve/<did:key>?signed=true (cached, Ed25519), autocannon';
  if (!existsSync(cli)) {
    return [
      {
        operation,
        unit: 'ops/s',
        svc: null,
        peer: 'the same request unsigned',
        peerValue: null,
        goal: null,
        status: 'not built',
        note: 'run `npm run build` first',
      },
    ];
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-signing-'));
  const keyFile = path.join(dir, 'signing.jwk');
  writeFileSync(keyFile, JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })), { mode: 0o600 });
  const env = { ...plainEnv(), SVC_RATE_LIMIT_PER_MIN: '1000000', SVC_SIGNING_KEY: keyFile };
  const daemon = spawn(process.execPath, [bin, 'serve', '--port', '0', '--memory'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const url = await serverStarted(daemon);
    const plain = `${url}/v1/resolve/${DID}`;
    const signed = `${plain}?signed=true`;
    const first = await fetch(plain);
    const text = await first.text();
    if (first.status !== 200) throw new Error(`resolve answered ${first.status}`);
    const check = await fetch(signed);
    const body = (await check.json()) as unknown;
    const verified = await verifyCanonicalSignature(body, check.headers.get('svc-signature') ?? '', { resolveKey: signingKeyResolver(createRuntime()) });
    if (!verified.verified) throw new Error(`the signed answer does not verify: ${verified.reason}: ${verified.detail}`);

    const plainRps: number[] = [];
    const signedRps: number[] = [];
    let failed = 0;
    await load(plain); // warm-up, untimed
    await load(signed);
    for (let i = 0; i < ROUNDS; i++) {
      const p = await load(plain);
      const s = await load(signed);
      plainRps.push(p.rps);
      signedRps.push(s.rps);
      failed += p.failed + s.failed;
    }
    if (failed > 0) throw new Error(`${failed} requests failed or were not 2xx under load`);
    const bytes = Buffer.byteLength(text);
    const costs = signingCosts(text);
    return [
      {
        operation,
        unit: 'ops/s',
        svc: median(signedRps),
        peer: 'the same request unsigned',
        peerValue: median(plainRps),
        goal: null,
        status: 'ok',
        note: `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, one daemon; the ${bytes}-byte EnrichedResolution signed on every answer (checked VALID first)`,
        samples: { svc: signedRps, peer: plainRps },
      },
      {
        operation: 'sign that body once prepared (a cached answer), Ed25519, in process',
        unit: 'µs',
        svc: costs.edPrepared,
        peer: 'the same with P-256 (ES256)',
        peerValue: costs.p256Prepared,
        goal: null,
        status: 'ok',
        note: `${bytes} bytes (a ${Math.ceil((bytes * 4) / 3)}-character payload); median of 5 samples of 2000 signatures`,
      },
      {
        operation: 'sign a body not seen before: JSON.parse + RFC 8785 + SHA-256 + Ed25519, in process',
        unit: 'µs',
        svc: costs.edFromText,
        peer: 'the prepared signature alone',
        peerValue: costs.edPrepared,
        goal: null,
        status: 'ok',
      },
    ];
  } finally {
    daemon.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
