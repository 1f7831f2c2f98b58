/**
 * The live resolution stream (SPEC §6.1): the same pipeline as /v1/resolve with a listener on
 * stage completion. Frames: `stage` as each stage completes, then `result` or `error`, then
 * `done`. A client that disconnects aborts the resolution: no stage starts after it and
 * outbound fetches are cut off.
 */
import type { FastifyReply } from 'fastify';
import type { ResolveOptions } from '../core/methods/types.js';
import { admitResolution, type ServerContext } from './context.js';
import { problemFromError } from './http.js';

function frame(event: string, data: unknown): string {
  // JSON.stringify escapes line breaks, so one data line per frame is always enough.
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export async function streamResolution(
  ctx: ServerContext,
  reply: FastifyReply,
  did: string,
  options: ResolveOptions,
): Promise<void> {
  // Admission (capacity) happens before the stream commits to 200, so 503 stays a status.
  const run = admitResolution(ctx, did, options);
  const abort = new AbortController();
  const raw = reply.raw;
  const onClose = () => {
    if (!raw.writableFinished) abort.abort();
  };
  // The handler time limit does not apply to a hijacked reply; the stream ends with its work.
  reply.hijack();
  raw.on('close', onClose);
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  const send = (event: string, data: unknown) => {
    if (!raw.destroyed && !raw.writableEnded) raw.write(frame(event, data));
  };
  try {
    const result = await run(abort.signal, { onStage: (stage) => send('stage', stage) });
    send('result', result);
  } catch (err) {
    if (!abort.signal.aborted) send('error', problemFromError(err, ctx.limits.bodyLimitBytes).toProblem(ctx.runtime.config.problemsBase));
  } finally {
    send('done', {});
    raw.off('close', onClose);
    if (!raw.writableEnded) raw.end();
  }
}
