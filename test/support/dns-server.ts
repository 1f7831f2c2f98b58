/**
 * A real DNS server for tests (dns2): UDP and TCP on the same random port of 127.0.0.1, answering
 * from a mutable table — TXT records and A records — and NXDOMAIN for any other name. A TXT
 * value longer than 255 bytes is sent as several character-strings (RFC 1035 §3.3.14), so a
 * resolver must join them; a UDP answer over 512 bytes comes back truncated and the resolver
 * retries over TCP on the same port, as it would with a real server.
 *
 *   const dns = await startDnsServer();
 *   dns.set('_svc-claim.example.com', ['token']);
 *   const runtime = host.runtime({ dnsServers: [dns.address] });
 *   ...
 *   await dns.close();
 */
import type { AddressInfo, Socket } from 'node:net';
import { Packet, TCPServer, UDPServer, type Resource } from 'dns2';

/** How the server misbehaves: answer SERVFAIL or REFUSED, or never answer (a resolver timeout). */
export type DnsFailure = 'servfail' | 'refused' | 'drop';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as SVC_DNS_SERVERS and NetOptions.dnsServers take it. */
  address: string;
  port: number;
  /** Queries seen, as `TYPE name` (`TXT _svc-claim.example.com`), over either transport. */
  readonly queries: string[];
  /** The TXT records at `name` (one record per value), replacing earlier ones. */
  set(name: string, values: string[]): void;
  /** An A record at `name`: a query for TXT then finds the name but no TXT record (NODATA). */
  setAddress(name: string, address: string): void;
  /** Forgets everything at `name` (it becomes NXDOMAIN). */
  remove(name: string): void;
  /** Misbehaves from now on (null: answers again). */
  fail(mode: DnsFailure | null): void;
  close(): Promise<void>;
}

/** Response codes (RFC 1035 §4.1.1); dns2's typings do not declare its RCODE. */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

/** Largest character-string of a TXT record (a length byte, then the bytes). */
const CHARACTER_STRING_MAX = 255;

function key(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

function characterStrings(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += CHARACTER_STRING_MAX) parts.push(bytes.subarray(at, at + CHARACTER_STRING_MAX));
  return parts.length > 0 ? parts : [Buffer.alloc(0)];
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[]>();
  const addresses = new Map<string, string>();
  const queries: string[] = [];
  let failure: DnsFailure | null = null;

  const handle = (request: Packet, send: (response: Packet) => Promise<Buffer>): void => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (!question) return;
    const typeName = Object.entries(Packet.TYPE).find(([, code]) => code === question.type)?.[0] ?? String(question.type);
    queries.push(`${typeName} ${question.name}`);
    if (failure === 'drop') return;
    if (failure !== null) {
      response.header.rcode = failure === 'servfail' ? RCODE.SERVFAIL : RCODE.REFUSED;
      send(response).catch(() => {});
      return;
    }
    const name = key(question.name);
    const records = txt.get(name);
    const address = addresses.get(name);
    if (records === undefined && address === undefined) {
      response.header.rcode = RCODE.NXDOMAIN;
    } else if (question.type === Packet.TYPE.TXT && records) {
      for (const value of records) {
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 60,
          data: characterStrings(value),
        } as unknown as Resource);
      }
    } else if (question.type === Packet.TYPE.A && address) {
      response.answers.push({ name: question.name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address } as unknown as Resource);
    }
    // Otherwise NOERROR with no answer: the name exists, without a record of that type.
    send(response).catch(() => {});
  };

  // UDP first on a random port, then TCP on the same one; another process may hold that TCP
  // port, so try a few times.
  for (let attempt = 0; ; attempt++) {
    const udp = new UDPServer();
    udp.on('request', handle);
    udp.on('requestError', () => {});
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => {
        udp.off('error', reject);
        resolve();
      });
    });
    const port = udp.address().port;
    const tcp = new TCPServer();
    tcp.on('request', handle);
    tcp.on('requestError', () => {});
    const listening = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!listening) {
      udp.close();
      if (attempt < 5) continue;
      throw new Error('no port free for both UDP and TCP');
    }
    const sockets = new Set<Socket>();
    tcp.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    });
    let closing: Promise<void> | undefined;
    return {
      address: `127.0.0.1:${(tcp.address() as AddressInfo).port}`,
      port,
      get queries() {
        return queries;
      },
      set(name, values) {
        txt.set(key(name), [...values]);
      },
      setAddress(name, value) {
        addresses.set(key(name), value);
      },
      remove(name) {
        txt.delete(key(name));
        addresses.delete(key(name));
      },
      fail(mode) {
        failure = mode;
      },
      close() {
        closing ??= Promise.all([
          new Promise<void>((resolve) => udp.close(() => resolve())),
          new Promise<void>((resolve) => {
            tcp.close(() => resolve());
            for (const socket of sockets) socket.destroy();
          }),
        ]).then(() => undefined);
        return closing;
      },
    };
  }
}
