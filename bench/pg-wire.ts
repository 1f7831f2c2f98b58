/**
 * A counting relay between a daemon and PostgreSQL, for the benches that report round trips per
 * request of a process they do not run in: it forwards every byte both ways and counts the
 * client's messages that end a round trip — a simple Query ('Q', however many statements it
 * holds) and a Sync ('S', the end of an extended query: Parse/Bind/Execute…). Only the frontend
 * stream is parsed (a type byte and a 32-bit length per message, after the untyped startup
 * message); the server's answers pass untouched. No TLS (the relay would only see ciphertext):
 * the loopback server of the benches speaks plain TCP.
 */
import net from 'node:net';

export interface WireCounter {
  /** A URL of the relay in place of `target`'s host and port (same user, database and options). */
  readonly url: string;
  /** Round trips (Query + Sync messages) so far, every connection of the relay together. */
  roundTrips(): number;
  close(): Promise<void>;
}

/** Starts a relay on a free loopback port to the server of `target` (a postgres:// URL). */
export async function countingRelay(target: string): Promise<WireCounter> {
  const upstream = new URL(target);
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const server = net.connect(Number(upstream.port || 5432), upstream.hostname);
    sockets.add(client).add(server);
    let buffered: Buffer = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      server.write(chunk);
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      let at = 0;
      for (;;) {
        if (!started) {
          if (buffered.length - at < 4) break;
          const length = buffered.readInt32BE(at);
          if (buffered.length - at < length) break;
          at += length;
          started = true;
          continue;
        }
        if (buffered.length - at < 5) break;
        const length = buffered.readInt32BE(at + 1);
        if (buffered.length - at < 1 + length) break;
        const type = buffered[at];
        if (type === 0x51 /* Q */ || type === 0x53 /* S */) count += 1;
        at += 1 + length;
      }
      buffered = buffered.subarray(at);
    });
    server.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    client.on('close', end).on('error', end);
    server.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    roundTrips: () => count,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
