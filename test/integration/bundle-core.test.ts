import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBundle, encodeBundle, type EvidenceBundle } from '../../src/core/bundle/format.js';
import { recordingRuntime } from '../../src/core/bundle/record.js';
import { parseAnchors } from '../../src/core/bundle/tls.js';
import { makeBundle, verifyBundle } from '../../src/core/bundle/verify.js';
import { asRecordedResult } from '../../src/core/bundle/kinds.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import { startDidWebHost, type DidWebHost } from '../support/did-web-host.js';
import { fixedClock } from '../support/runtime.js';

let host: DidWebHost;
beforeAll(async () => {
  host = await startDidWebHost();
});
afterAll(() => host.close());

async function bundleOf(did: string): Promise<EvidenceBundle> {
  const runtime = host.runtime();
  const observedAt = runtime.clock.now();
  const { runtime: recording, recorder } = recordingRuntime(runtime);
  const result = await resolve(did, recording);
  return decodeBundle(
    encodeBundle(makeBundle({ command: { kind: 'resolve', subject: did, options: {} }, observedAt, recorder, result: asRecordedResult(result) })),
  );
}

describe('evidence bundle of a did:web resolution', () => {
  it('re-verifies offline, and a year later says the certificate expired', async () => {
    const did = host.did('alice');
    host.publish(did);
    const bundle = await bundleOf(did);
    expect(bundle.resources.map((r) => r.purpose)).toContain('DID document');
    const anchors = parseAnchors([host.ca.certPem]);
    const now = host.runtime();
    const verified = await verifyBundle(bundle, { runtime: now, trustAnchors: anchors });
    expect(verified.outcome).toBe('VERIFIED');
    const later = { ...now, clock: fixedClock(new Date(Date.parse(bundle.observedAt) + 366 * 86_400_000).toISOString()) };
    const aYearLater = await verifyBundle(bundle, { runtime: later, trustAnchors: anchors });
    expect(aYearLater.tls[0]!.summary).toBe('valid at observation, expired now');
  });
});
