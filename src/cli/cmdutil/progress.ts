/**
 * Live progress of slow work on stderr, and the --verbose trace. Both listen to the stage
 * events the core reports (the same `TraceStage`s the daemon's SSE stream sends): a stage
 * starts, a stage completes with its status and duration.
 *
 *   live     a terminal: one redrawn line naming the stage in progress (`⠋ web.fetch  1.2 s …`)
 *            and a permanent line per finished stage (`✓ web.fetch  2004 ms …`). Nothing shows
 *            for the first DELAY_MS, so instant work (did:key) prints no progress at all; once
 *            something shows, the stages already finished are printed first, so the list is
 *            complete. `done()` clears the live line before the report is written.
 *   verbose  after the work: every stage with its start, status, duration and detail.
 *
 * Loaded by dynamic import only when one of them is wanted (emit.ts): --json and piped runs
 * never load it.
 */
import type { StageHooks } from '../../core/resolve/trace.js';
import type { TraceStage } from '../../core/resolve/types.js';
import type { CliStream } from './io.js';
import { printable } from '../../present/text.js';
import type { Style } from './layout.js';

/** How long work runs before progress shows: long enough that a did:key never flickers. */
export const DELAY_MS = 180;
const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;
/** Carriage return, then erase the whole line: the live line is rewritten in place. */
const CLEAR_LINE = '\r\u001b[2K';
/** Stage names are padded to this width so durations line up. */
const NAME_WIDTH = 22;

export interface StageWatchOptions {
  /** Show the live progress (stderr is a terminal; no --json, no --quiet). */
  live: boolean;
  /** Collect the stages for the --verbose trace. */
  verbose: boolean;
  /** Colours for stderr (plain when colour is off). */
  style: Style;
  delayMs?: number;
}

export interface StageWatch {
  /** Passed to the core: every stage of the work is reported here. */
  hooks: StageHooks;
  /** Ends the live progress and clears its line; idempotent. Call before any report or problem. */
  done(): void;
  /**
   * Writes the --verbose trace: `trace` when the result carries its own (a resolution), else the
   * stages seen while the work ran. Nothing unless verbose.
   */
  printTrace(trace?: readonly TraceStage[]): void;
}

/** A stage seen completing, with its start relative to when the watch began (ms). */
interface Seen {
  stage: TraceStage;
  startMs: number;
}

/** `0.4 ms`, `3.2 ms`, `123 ms`: one decimal only where it says something. */
export function formatDuration(us: number): string {
  const ms = us / 1000;
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** Cuts a plain (unstyled) line to the terminal width, so a redrawn line never wraps. */
function fit(text: string, width: number): string {
  const chars = Array.from(text);
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

export function watchStages(stream: CliStream, options: StageWatchOptions): StageWatch {
  const { style } = options;
  const origin = performance.now();
  const seen: Seen[] = [];
  const running: Array<{ stage: string; label: string; sinceMs: number }> = [];
  let shown = false;
  let closed = false;
  let frame = 0;
  let lastChangeMs = origin;
  let spinner: NodeJS.Timeout | undefined;
  const width = () => Math.max(20, (stream.columns ?? 80) - 1);

  const mark = (status: TraceStage['status']): string =>
    status === 'FAIL' ? style.red('✗') : status === 'WARN' ? style.yellow('!') : status === 'SKIP' ? style.dim('-') : style.green('✓');

  /** The permanent line of a finished stage; with --verbose the trace lists them instead. */
  const finishedLine = (stage: TraceStage): string => {
    const name = printable(stage.stage).padEnd(NAME_WIDTH);
    const duration = formatDuration(stage.durationUs).padStart(9);
    const label = fit(printable(stage.label), Math.max(0, width() - `✓ ${name} ${duration}  `.length));
    return `${mark(stage.status)} ${name} ${duration}  ${style.dim(label)}\n`;
  };

  /**
   * The live line: the stage started last among those running (concurrent stages: the DID
   * configuration fetch runs beside the document's), how long it has run, its label. Between
   * stages the spinner's next frame shows `working`.
   */
  const draw = () => {
    if (!shown || closed) return;
    const current = running[running.length - 1];
    const glyph = SPINNER[frame % SPINNER.length]!;
    const name = current ? printable(current.stage) : 'working';
    const seconds = `${((performance.now() - (current?.sinceMs ?? lastChangeMs)) / 1000).toFixed(1)} s`;
    const room = width() - Array.from(`${glyph} ${name}  ${seconds}  `).length;
    const label = current ? fit(printable(current.label), Math.max(0, room)) : '';
    stream.write(`${CLEAR_LINE}${style.cyan(glyph)} ${name}  ${style.dim(seconds)}${label ? `  ${style.dim(label)}` : ''}`);
  };

  const show = () => {
    if (closed) return;
    shown = true;
    if (!options.verbose) for (const { stage } of seen) stream.write(finishedLine(stage));
    draw();
    spinner = setInterval(() => {
      frame += 1;
      draw();
    }, FRAME_MS);
    spinner.unref();
  };

  const delay = options.live ? setTimeout(show, options.delayMs ?? DELAY_MS) : undefined;
  delay?.unref();

  const hooks: StageHooks = {
    onStageStart: ({ stage, label }) => {
      if (closed) return;
      running.push({ stage, label, sinceMs: performance.now() });
      draw();
    },
    onStage: (stage) => {
      const now = performance.now();
      lastChangeMs = now;
      seen.push({ stage, startMs: Math.max(0, now - origin - stage.durationUs / 1000) });
      const at = running.findIndex((r) => r.stage === stage.stage && r.label === stage.label);
      if (at >= 0) running.splice(at, 1);
      if (!shown || closed) return;
      // With --verbose the trace lists every stage afterwards: only the live line shows now.
      if (!options.verbose) stream.write(`${CLEAR_LINE}${finishedLine(stage)}`);
      if (running.length > 0) draw();
    },
  };

  return {
    hooks,
    done() {
      if (closed) return;
      closed = true;
      clearTimeout(delay);
      clearInterval(spinner);
      if (shown) stream.write(CLEAR_LINE);
    },
    printTrace(trace) {
      if (!options.verbose) return;
      const rows: Seen[] = trace ? trace.map((stage) => ({ stage, startMs: stage.startedUs / 1000 })) : seen;
      if (rows.length === 0) {
        stream.write(`${style.bold('Trace')}  no stages: nothing was fetched or resolved.\n`);
        return;
      }
      const totalMs = Math.max(...rows.map((r) => r.startMs + r.stage.durationUs / 1000));
      const count = `${rows.length} stage${rows.length === 1 ? '' : 's'}`;
      const lines = [`${style.bold('Trace')}  ${count}, ${formatDuration(totalMs * 1000)}`];
      for (const { stage, startMs } of rows) {
        const start = `+${formatDuration(startMs * 1000)}`.padStart(10);
        const status = stage.status.padEnd(4);
        const tone = stage.status === 'FAIL' ? style.red : stage.status === 'WARN' ? style.yellow : stage.status === 'SKIP' ? style.dim : style.green;
        const what = stage.detail ? `${printable(stage.label)} — ${printable(stage.detail)}` : printable(stage.label);
        lines.push(
          `${style.dim(start)}  ${tone(status)}  ${printable(stage.stage).padEnd(NAME_WIDTH)} ${formatDuration(stage.durationUs).padStart(9)}  ${what}`,
        );
      }
      stream.write(`${lines.join('\n')}\n`);
    },
  };
}
