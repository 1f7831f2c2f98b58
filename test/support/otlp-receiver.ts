/**
 * A loopback OTLP/HTTP receiver for tests and the bench: a node:http server that takes the JSON
 * export requests (POST /v1/traces) a collector would, keeps their spans (or only counts them),
 * and answers 200 — or refuses, to play a collector that is down.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
  /** From the resource of its export request. */
  serviceName?: string;
}

export interface OtlpReceiver {
  /** The base URL (http://127.0.0.1:PORT), as SVC_OTEL_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** Export requests taken (with any path), and their paths. */
  requests: string[];
  /** Spans taken, counted also when `discard` keeps none. */
  count: number;
  /** Waits until `predicate` holds over the spans taken so far (polls; bounded). */
  until(predicate: (spans: ReceivedSpan[]) => boolean, limitMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The value of a span's attribute, whatever its type. */
export function attribute(span: ReceivedSpan, key: string): unknown {
  const found = span.attributes.find((a) => a.key === key);
  return found ? Object.values(found.value)[0] : undefined;
}

/** Starts a receiver on 127.0.0.1 (an ephemeral port). `discard`: count spans without keeping them. */
export async function otlpReceiver(options: { discard?: boolean } = {}): Promise<OtlpReceiver> {
  const receiver: Omit<OtlpReceiver, 'url' | 'close' | 'until'> = { spans: [], requests: [], count: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.requests.push(req.url ?? '');
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { resource?: { attributes?: ReceivedSpan['attributes'] }; scopeSpans: { spans: ReceivedSpan[] }[] }[];
      };
      for (const resourceSpans of body.resourceSpans) {
        const service = resourceSpans.resource?.attributes?.find((a) => a.key === 'service.name')?.value['stringValue'] as string | undefined;
        for (const scope of resourceSpans.scopeSpans) {
          receiver.count += scope.spans.length;
          if (!options.discard) for (const span of scope.spans) receiver.spans.push({ ...span, ...(service !== undefined ? { serviceName: service } : {}) });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    async until(predicate: (spans: ReceivedSpan[]) => boolean, limitMs = 10_000) {
      const deadline = Date.now() + limitMs;
      while (!predicate(receiver.spans)) {
        if (Date.now() > deadline) throw new Error(`the receiver did not get the spans expected within ${limitMs} ms (${receiver.spans.length} taken)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
