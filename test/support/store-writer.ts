/**
 * Crash-test child: opens the store at argv[2] and records observations in a tight loop until it
 * is killed, printing `ready` once 100 have been written. Rows alternate between new snapshots
 * and coalesced ones, so the kill lands in inserts and updates alike.
 */
import { writeSync } from 'node:fs';
import { openStore } from '../../src/store/index.js';
import { sampleObservation } from './store.js';

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write('usage: store-writer <database file>\n');
  process.exit(2);
}
const store = openStore({ path: file, production: true });
const base = Date.UTC(2025, 0, 1);
for (let n = 0; ; n++) {
  const did = `did:web:crash${n % 7}.example`;
  // Each DID comes round every 7 writes and keeps a snapshot for 21: one insert, two coalesced.
  const snapshot = Math.floor(n / 21);
  await store.observations.record(
    sampleObservation({
      did,
      documentHash: snapshot.toString(16).padStart(64, '0'),
      document: { id: did, service: [{ id: '#s', type: 'Example', serviceEndpoint: `https://x.example/${snapshot}`, padding: 'x'.repeat(n % 2048) }] },
      observedAt: `${new Date(base + n * 1000).toISOString().slice(0, 19)}Z`,
    }),
  );
  // The awaits yield to microtasks only, never to the event loop, so a stream write might never
  // flush: written synchronously.
  if (n === 99) writeSync(1, 'ready\n');
}
