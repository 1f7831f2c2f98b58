/**
 * A node:http server on 127.0.0.1 for a Fetch-API handler (`(Request) => Promise<Response>`), as
 * the frameworks that only speak Web requests (tmcp's HttpTransport, mcp-lite's
 * StreamableHttpTransport) expect to be served: request headers and body in, response status,
 * headers and streamed body out; the request is aborted when the client goes away.
 * `listen(handler, port)` resolves with the port once it accepts connections (port 0: any free).
 */
import { createServer } from 'node:http';

export function listen(handler, port = 0) {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const headers = new Headers();
    for (const [name, values] of Object.entries(req.headersDistinct)) for (const value of values ?? []) headers.append(name, value);
    const method = req.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
    let response;
    try {
      response =
        (await handler(new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, { method, headers, body, signal: abort.signal }))) ??
        new Response(null, { status: 404 });
    } catch (err) {
      response = new Response(String(err), { status: 500 });
    }
    const out = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    res.writeHead(response.status, out);
    if (!response.body) return void res.end();
    try {
      for await (const chunk of response.body) {
        if (res.destroyed) break;
        res.write(chunk);
      }
    } catch {
      // A cancelled stream ends the response below.
    }
    res.end();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server.address().port));
  });
}
