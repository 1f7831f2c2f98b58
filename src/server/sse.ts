/**
 * The live resolution stream (docs/daemon.md#the-live-stream): the same pipeline as /v1/resolve
 * with a listener on stage completion. Frames: `stage` as each stage completes, then `result` or
 * `error`, then `done`. A client that disconnects aborts the resolution: no stage starts after it
 * and outbound fetches are cut off. The stream obeys the request time limit like every request
 * (45 s by default): past it, the resolution is abandoned and the stream ends with an `error` frame
 * carrying the 408 problem, then `done`. A stream still open when a shutting-down daemon's drain
 * time runs out ends the same way with a 503 SERVICE_UNAVAILABLE problem (retry: another instance
 * or the restarted daemon answers), never with a cut connection.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolveOptions } from '../core/methods/types.js';
import { ProblemError } from '../core/problems.js';
import { admitResolution, clientOf, type ServerContext } from './context.js';
import { problemFromError } from './http.js';

function frame(event: string, data: unknown): string {
  // JSON.stringify escapes line breaks, so one data line per frame is always enough.
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export async function streamResolution(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, did: string, options: ResolveOptions): Promise<void> {
  // Admission (capacity) happens before the stream commits to 200, so 503 stays a status.
  const run = admitResolution(ctx, did, options, clientOf(request));
  const abort = new AbortController();
  const raw = reply.raw;
  const onClose = () => {
    if (!raw.writableFinished) abort.abort();
  };
  // The handler time limit does not apply to a hijacked reply: the limit is kept here.
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
  let timer: NodeJS.Timeout | undefined;
  const timeLimit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const problem = new ProblemError('REQUEST_TIMEOUT', 'The request ran past its time limit and was abandoned; no answer was produced.');
      abort.abort(problem);
      reject(problem);
    }, ctx.limits.requestTimeoutMs);
  });
  // The shutdown ends an open stream (serve.ts) as the time limit does, with its own problem.
  let rejectLeaving!: (problem: ProblemError) => void;
  const leaving = new Promise<never>((_resolve, reject) => {
    rejectLeaving = reject;
  });
  const leave = () => {
    const problem = new ProblemError(
      'SERVICE_UNAVAILABLE',
      'svc is restarting; the resolution was abandoned: retry it (another instance or the restarted daemon answers).',
      {
        retryAfter: 5,
      },
    );
    abort.abort(problem);
    clearTimeout(timer);
    rejectLeaving(problem);
  };
  ctx.streams?.add(leave);
  try {
    // The race ends the stream at the limit even if a stage in progress is slow to notice.
    const result = await Promise.race([run(abort.signal, { onStage: (stage) => send('stage', stage) }), timeLimit, leaving]);
    send('result', result);
  } catch (err) {
    const timedOut = abort.signal.reason instanceof ProblemError;
    if (timedOut || !abort.signal.aborted) {
      const problem = problemFromError(timedOut ? abort.signal.reason : err, ctx.limits.bodyLimitBytes).toProblem(ctx.runtime.config.problemsBase);
      send('error', { ...problem, requestId: request.id });
    }
  } finally {
    ctx.streams?.delete(leave);
    clearTimeout(timer);
    send('done', {});
    raw.off('close', onClose);
    if (!raw.writableEnded) raw.end();
  }
}
