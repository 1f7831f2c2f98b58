/**
 * The access log (one line per request on stderr): structured JSON when stderr is not a
 * terminal (a log collector reads it), a short text line on a terminal. SVC_ACCESS_LOG chooses
 * explicitly: `json`, `text` or `off`. The entries hold no header, cookie, token, query or body
 * (see AccessEntry), so nothing a client sends as a secret reaches the log.
 */
import { ConfigError } from '../runtime/node.js';
import type { AccessEntry } from './app.js';

export type AccessLogMode = 'json' | 'text' | 'off';

export function accessLogMode(env: NodeJS.ProcessEnv, isTTY: boolean): AccessLogMode {
  const raw = env['SVC_ACCESS_LOG'];
  if (raw === undefined || raw === '') return isTTY ? 'text' : 'json';
  if (raw === 'json' || raw === 'text' || raw === 'off') return raw;
  throw new ConfigError(`SVC_ACCESS_LOG must be json, text or off, not ${JSON.stringify(raw.slice(0, 32))}`);
}

export function accessLogWriter(mode: AccessLogMode, write: (line: string) => void, now: () => Date = () => new Date()): ((entry: AccessEntry) => void) | undefined {
  if (mode === 'off') return undefined;
  if (mode === 'json') return (entry) => write(`${JSON.stringify({ time: now().toISOString(), access: true, ...entry })}\n`);
  return (entry) => write(`${entry.client} ${entry.method} ${entry.route ?? '-'} ${entry.status ?? 'aborted'} ${entry.durationMs} ms\n`);
}
