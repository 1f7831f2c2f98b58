/**
 * How every command turns a result or a problem into output and an exit code:
 *   --json   exactly one JSON document on stdout (the documented result, or the problem object)
 *   --format sarif  one SARIF 2.1.0 log on stdout (the outcome's `sarif`; a problem's log from
 *            `sarifProblem`, beside the usual error on stderr)
 *   TTY      the report drawn with ink when it has a drawing (a resolution's dossier; ink is
 *            imported only then), else its text; a report taller than the terminal through the
 *            pager (paging.ts; --no-pager, SVC_PAGER)
 *   piped    the plain-text report (for a resolution, the plain-text dossier)
 * Diagnostics go to stderr; --quiet hides the report (not --json output), never an error.
 */
import { asProblemError, hintText, type ProblemError } from '../../core/problems.js';
import type { Runtime } from '../../core/runtime.js';
import type { StageHooks } from '../../core/resolve/trace.js';
import type { TraceStage } from '../../core/resolve/types.js';
import { exitForProblem } from './exit-codes.js';
import type { CliIo, CliStream } from './io.js';
import { colorLevel, styleFor, type ColorLevel } from './color.js';
import { CliError, failingStages, reportError, helpHint, runningCommand } from './errors.js';
import { outputWidth, type Style } from './layout.js';
import { CapturedTerminal, mayPage, writeReport } from './paging.js';
import { addOutputOptions, type OutputOptions } from './output-options.js';
import type { StageWatch } from './progress.js';

export { addOutputOptions, type OutputOptions };

export { styleFor };

/**
 * ink only for a real terminal with a known size: a pseudo-terminal reporting 0 rows (some
 * CI runners, editors' shells) would make ink clear the screen and redraw; plain text it is.
 */
function useInk(stream: CliStream, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && env['TERM'] !== 'dumb' && (stream.rows ?? 0) > 0 && (stream.columns ?? 0) > 0;
}

/**
 * Live progress on stderr: only on a terminal that can redraw a line, never with --json or
 * --quiet (their output is for programs and scripts).
 */
function progressWanted(io: CliIo, options: OutputOptions): boolean {
  return io.stderr.isTTY === true && io.env['TERM'] !== 'dumb' && !machineReadable(options) && !options.quiet;
}

/** Output for programs: --json or --format sarif. */
function machineReadable(options: OutputOptions): boolean {
  return options.json === true || options.format === 'sarif';
}

/**
 * Watches the stages of the work when progress or the --verbose trace is wanted; progress.ts
 * is imported only then, so --json and piped runs load nothing more (the cold-start benchmark).
 */
async function watchWork(io: CliIo, options: OutputOptions): Promise<StageWatch | null> {
  const live = progressWanted(io, options);
  const verbose = options.verbose === true && !options.quiet;
  if (!live && !verbose) return null;
  const [{ watchStages }, style] = await Promise.all([import('./progress.js'), styleFor(colorLevel(io.stderr, io.env, options.color === false))]);
  return watchStages(io.stderr, { live, verbose, style });
}

export interface ReportOutcome<T> {
  /** The documented result, printed as is with --json. */
  value: T;
  exitCode: number;
  /** The plain-text (coloured) report, laid out for `width` columns (layout.ts outputWidth). */
  text: (style: Style, width: number) => string;
  /** A report drawn with ink instead of `text` on a real terminal (a resolution's dossier: cmd/resolve). */
  drawn?: DrawnReport;
  /**
   * Why the exit code is what it is, when the result alone does not say (e.g. "needs attention:
   * no trusted root was given; …"): each a line `svc: <note>` on stderr after the report, also
   * with --json and --quiet (like an error, it is never hidden).
   */
  notes?: readonly string[];
  /** The SARIF 2.1.0 log of the result, for --format sarif (cmd/inspect/sarif.ts). */
  sarif?: () => unknown;
}

/** How a report is drawn with ink, for a real terminal of a known size. */
export interface DrawnReport {
  /** The stages the drawn report shows itself with --verbose (stderr does not repeat them then). */
  trace: readonly TraceStage[];
  /** Loads the drawing (ink is imported only then) and returns what draws the report on `stdout`. */
  load: () => Promise<(stdout: NodeJS.WriteStream, options: { colorLevel: ColorLevel; width: number; verbose: boolean }) => Promise<void>>;
}

/** The SARIF log of a problem (no answer), for --format sarif: built from the problem object and the exit code. */
export type SarifProblem = (problem: { code: string; type: string; detail: string }, exitCode: number) => unknown;

/**
 * How every command prints: the result as JSON, or its report (the ink dossier of a resolution
 * on a terminal, text otherwise); a problem as a problem, exit 4 (2 when it is about an option's
 * value: exitForProblem). `run` gets the hooks to pass to the core, so its stages show as
 * progress (and in the --verbose trace); progress is finished and its line cleared before
 * anything else is written.
 */
export async function emitReport<T>(
  io: CliIo,
  options: OutputOptions,
  runtime: Runtime,
  run: (hooks: StageHooks) => Promise<ReportOutcome<T>>,
  setExit: (code: number) => void,
  sarifProblem?: SarifProblem,
): Promise<void> {
  const watch = await watchWork(io, options);
  let outcome: ReportOutcome<T>;
  try {
    outcome = await run(watch?.hooks ?? {});
  } catch (err) {
    watch?.done();
    // The command's own failures (an output file it could not write) are reported as they are.
    if (err instanceof CliError) throw err;
    const problem = asProblemError(err);
    watch?.printTrace();
    const exitCode = exitForProblem(problem.code);
    if (options.format === 'sarif' && sarifProblem) {
      const body = problem.toProblem(runtime.config.problemsBase);
      io.stdout.write(`${JSON.stringify(sarifProblem({ code: body.code, type: body.type, detail: problem.detail || body.title }, exitCode), null, 2)}\n`);
    }
    await emitProblem(io, options, runtime, problem);
    setExit(exitCode);
    return;
  }
  watch?.done();
  // A resolution's dossier shows its own trace with --verbose, so stderr repeats it only when
  // the dossier is not printed (--json); other work prints the stages seen while it ran.
  if (!outcome.drawn || machineReadable(options)) watch?.printTrace(outcome.drawn?.trace);
  if (options.format === 'sarif' && outcome.sarif) {
    io.stdout.write(`${JSON.stringify(outcome.sarif(), null, 2)}\n`);
  } else if (options.json) {
    io.stdout.write(`${JSON.stringify(outcome.value, null, 2)}\n`);
  } else if (!options.quiet) {
    const level = colorLevel(io.stdout, io.env, options.color === false);
    const width = outputWidth(io.stdout, io.env);
    // biome-ignore lint/correctness/useHookAtTopLevel: useInk is not a React hook; it asks whether the terminal gets the ink dossier.
    if (outcome.drawn && useInk(io.stdout, io.env)) {
      const draw = await outcome.drawn.load();
      const render = (stdout: CliStream) => draw(stdout as NodeJS.WriteStream, { colorLevel: level, width, verbose: options.verbose === true });
      // A dossier that may need the pager is drawn aside first, then written or paged whole.
      if (mayPage(io, options)) {
        const drawn = new CapturedTerminal(io.stdout);
        await render(drawn);
        await writeReport(io, drawn.text(), options);
      } else {
        await render(io.stdout);
      }
    } else {
      await writeReport(io, outcome.text(await styleFor(level), width), options);
    }
  }
  for (const note of outcome.notes ?? []) io.stderr.write(`svc: ${note}\n`);
  setExit(outcome.exitCode);
}

/**
 * A problem (no answer): the problem object with --json, else one styled block on stderr. The
 * hint line names the fix when the problem knows it (PROBLEM_HINTS), else the command's --help;
 * the detail line is the problem's own, since the hint follows it (the JSON's detail ends with it).
 */
export async function emitProblem(io: CliIo, options: OutputOptions, runtime: Runtime, problem: ProblemError): Promise<void> {
  const body = problem.toProblem(runtime.config.problemsBase);
  if (options.json) io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  // The error itself, even with --quiet (it hides only the report); with --json the stages are
  // in the problem object, so stderr keeps to the reason and the hint.
  await reportError(
    io,
    {
      code: body.code,
      detail: problem.detail || body.title,
      stages: options.json ? [] : failingStages(body.trace),
      hint: problem.hint ? hintText(problem.hint) : helpHint(runningCommand(io)),
    },
    { noColor: options.color === false },
  );
}
