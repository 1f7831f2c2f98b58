/**
 * A watch of did:web:watched.example whose webhook is `https://<host>/hook`, and checks written
 * straight to the store, each changing its document (one identity.document.changed event): for
 * tests of delivery that need events without a resolution.
 */
import type { RuntimeStore } from '../../src/core/store.js';

export async function watchWithChanges(store: RuntimeStore, host: string, secret: string) {
  const watch = await store.watches.add(
    { did: 'did:web:watched.example', webhookUrl: `https://${host}/hook`, secret, intervalSeconds: 60, createdAt: '2026-11-27T00:00:00Z' },
    10,
  );
  if (watch === 'full') throw new Error('no room');
  const input = (await store.watches.forCheck(watch.id))!;
  /** The n-th change (0, 1 …): document hash `h<n>`. */
  const record = (n: number) =>
    store.watches.recordCheck({
      watchId: watch.id,
      revision: input.watch.revision + n,
      outcome: {
        status: 'RESOLVED',
        documentHash: `h${n}`,
        fingerprintProfile: null,
        domainBindingStatus: null,
        document: { id: 'did:web:watched.example' },
        problem: null,
        checkedAt: '2026-11-27T00:00:00Z',
        tls: null,
      },
      events: [{ type: 'identity.document.changed', data: { fromHash: null, toHash: `h${n}`, domainBinding: null, diff: null, headline: 'h', problem: null } }],
      maxEvents: 10_000,
      maxPayloadBytes: 256 * 1024,
    });
  return { watch, record };
}
