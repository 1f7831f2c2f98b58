/**
 * The access log (one line per request on stderr): structured JSON when stderr is not a
 * terminal (a log collector reads it), a short text line on a terminal. SVC_ACCESS_LOG chooses
 * explicitly: `json`, `text` or `off`. The entries hold no header, cookie, token, query or body
 * (see AccessEntry), so nothing a client sends as a secret reaches the log.
 */
import { ConfigError } from '../runtime/node.js';

/**
 * One access-log entry: what was asked (method and route pattern — never the raw path or query,
 * which may carry credentials), the answer, its time and the client. Never a header, cookie,
 * token or body.
 */
export interface AccessEntry {
  method: string;
  /** The route pattern (`/v1/resolve/*`), or null when no route matched or the request was unreadable. */
  route: string | null;
  /** The status sent, or null when the client left before any answer. */
  status: number | null;
  durationMs: number;
  client: string;
  /** The request's id (request-id.ts), as in its X-Request-Id response header and problem body. */
  requestId: string;
}

export type AccessLogMode = 'json' | 'text' | 'off';

export function accessLogMode(env: NodeJS.ProcessEnv, isTTY: boolean): AccessLogMode {
  const raw = env['SVC_ACCESS_LOG'];
  if (raw === undefined || raw === '') return isTTY ? 'text' : 'json';
  if (raw === 'json' || raw === 'text' || raw === 'off') return raw;
  throw new ConfigError(`SVC_ACCESS_LOG must be json, text or off, not ${JSON.stringify(raw.slice(0, 32))}`);
}

/**
 * The writer of one mode. Lines are gathered and written once per turn of the event loop: one
 * write per request would cost the hot path a system call each (about a third of the cached
 * fast-verify throughput, measured). A line is written at the latest when the loop next turns,
 * and those still pending at exit are written then.
 */
export type AccessLog = ((entry: AccessEntry) => void) & {
  /** Writes the pending lines now (before another line on the same stream, to keep the order). */
  flush(): void;
};

export function accessLogWriter(mode: AccessLogMode, write: (line: string) => void, now: () => Date = () => new Date()): AccessLog | undefined {
  if (mode === 'off') return undefined;
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const lines = pending;
    pending = '';
    write(lines);
  };
  process.once('exit', flush);
  const format =
    mode === 'json'
      ? (entry: AccessEntry) => `${JSON.stringify({ time: now().toISOString(), access: true, ...entry })}\n`
      : (entry: AccessEntry) =>
          `${entry.client} ${entry.method} ${entry.route ?? '-'} ${entry.status ?? 'aborted'} ${entry.durationMs} ms ${entry.requestId}\n`;
  const log = (entry: AccessEntry) => {
    if (pending === '') setImmediate(flush);
    pending += format(entry);
  };
  return Object.assign(log, { flush });
}
