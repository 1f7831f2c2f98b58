/**
 * Where a report goes: straight to standard output, or through a pager when it would scroll off
 * the terminal. Decided here, cheaply, for every report; the pager itself (pager.ts: the choice of
 * program, the child process) loads only when a report is paged, so --json, piped and short runs
 * load nothing more (bench/cold-start.bench.ts).
 *
 * Paged only when all hold: the report is for a person (not --json, not --quiet, not
 * --no-pager), standard output is this process's terminal with a known height (never a pipe or a
 * file), TERM is not dumb, and the report is taller than the terminal.
 */
import { EventEmitter } from 'node:events';
import type { CliIo, CliStream } from './io.js';

export interface PagingOptions {
  json?: boolean;
  quiet?: boolean;
  /** false with --no-pager. */
  pager?: boolean;
}

/** Whether this run's report may be paged at all (its height not yet known). */
export function mayPage(io: CliIo, options: PagingOptions): boolean {
  const out = io.stdout;
  return (
    options.json !== true &&
    options.quiet !== true &&
    options.pager !== false &&
    out === process.stdout &&
    out.isTTY === true &&
    (out.rows ?? 0) > 0 &&
    io.env['TERM'] !== 'dumb'
  );
}

const ESCAPE = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Terminal rows `text` takes at `columns`: each line at least one, a longer one wrapped. */
export function rowsOf(text: string, columns: number): number {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  const width = Math.max(1, columns);
  return lines.reduce((rows, line) => rows + Math.max(1, Math.ceil([...line.replace(ESCAPE, '')].length / width)), 0);
}

/** Writes a report: through the pager when mayPage and it is taller than the terminal, else as is. */
export async function writeReport(io: CliIo, text: string, options: PagingOptions): Promise<void> {
  if (mayPage(io, options) && rowsOf(text, io.stdout.columns ?? 80) > (io.stdout.rows ?? 0)) {
    const { pageText } = await import('./pager.js');
    if (await pageText(text, io.env)) return;
  }
  io.stdout.write(text);
}

/**
 * A stand-in terminal for the ink dossier when it may be paged: ink draws into it (same size,
 * same TTY-ness), and writeReport then decides where the drawing goes.
 */
export class CapturedTerminal extends EventEmitter implements CliStream {
  readonly isTTY = true;
  readonly columns: number;
  readonly rows: number;
  readonly #chunks: string[] = [];

  constructor(like: CliStream) {
    super();
    this.columns = like.columns ?? 80;
    this.rows = like.rows ?? 24;
  }

  write(chunk: string | Uint8Array): boolean {
    this.#chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }

  /** What was drawn, as written. */
  text(): string {
    return this.#chunks.join('');
  }
}
