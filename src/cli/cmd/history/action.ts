/** `svc history`, `svc diff` and `svc backup`: their work, loaded when one runs (their options: options.ts, registered by command.ts). */
import { existsSync } from 'node:fs';
import { decodeIdentifier } from '../../../core/did/syntax.js';
import { diffOf, historyOf, MAX_HISTORY_LIMIT } from '../../../core/history/history.js';
import { historyPrefixLength, SHOWN_HASH_PREFIX } from '../../../core/history/prefix.js';
import { asProblemError, ProblemError } from '../../../core/problems.js';
import { keptLogText } from '../../../core/webvh/kept-log.js';
import type { Runtime } from '../../../core/runtime.js';
import type { Database } from '../../../store/database.js';
import { ConfigError, createRuntime } from '../../../runtime/node.js';
import { CLI_ERROR_CODES, CliError, usageError } from '../../cmdutil/errors.js';
import { EXIT, exitForProblem } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { databaseOption, openForReading } from '../../cmdutil/database.js';
import { colorLevel } from '../../cmdutil/color.js';
import { emitProblem, styleFor } from '../../cmdutil/emit.js';
import { diffText, historyText } from './render.js';
import { printable } from '../../../present/text.js';
import { outputWidth } from '../../cmdutil/layout.js';
import { writeReport } from '../../cmdutil/paging.js';
import type { StoreCommandOptions } from './options.js';

/** Runs a store-backed query; a problem prints as one line (or JSON) and exits 4 (2 for a bad --from/--to: exitForProblem). */
async function withStore<T>(
  io: CliIo,
  options: StoreCommandOptions,
  setExit: (code: number) => void,
  run: (runtime: Runtime) => Promise<T>,
  render: (value: T) => Promise<{ text: string; exitCode: number }>,
): Promise<void> {
  const runtime = createRuntime(io.env);
  // A bad setting is a usage error (exit 2), before anything opens.
  const target = databaseOption(options.db, io.env);
  let store: Database | undefined;
  let report: { value: T; text: string; exitCode: number };
  try {
    store = await openForReading(target);
    runtime.store = store;
    // Awaited inside the try (a rejection is the problem below) and before the finally closes the store.
    const value = await run(runtime);
    report = { value, ...(await render(value)) };
  } catch (err) {
    const problem = err instanceof Error && err.name === 'StoreError' ? new ProblemError('SERVICE_UNAVAILABLE', err.message) : asProblemError(err);
    await emitProblem(io, options, runtime, problem);
    setExit(exitForProblem(problem.code));
    return;
  } finally {
    await store?.close();
  }
  // The database is closed before the report is written: a pager may stay open a while.
  if (options.json) io.stdout.write(`${JSON.stringify(report.value, null, 2)}\n`);
  else if (!options.quiet) await writeReport(io, report.text, options);
  setExit(report.exitCode);
}

function limitOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = /^[0-9]{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= MAX_HISTORY_LIMIT)) {
    throw new ConfigError(`--limit must be a whole number 1..${MAX_HISTORY_LIMIT}, not ${JSON.stringify(text.slice(0, 32))}`);
  }
  return value;
}

export async function historyAction(
  io: CliIo,
  setExit: (code: number) => void,
  did: string,
  options: StoreCommandOptions & { limit?: string; log?: boolean },
): Promise<void> {
  if (options.log) return keptLogAction(io, setExit, did, options);
  const limit = limitOption(options.limit);
  // Unique over the DID's whole history, not only the rows shown, so a diff never finds two.
  let prefixLength = SHOWN_HASH_PREFIX;
  await withStore(
    io,
    options,
    setExit,
    async (runtime) => {
      const value = await historyOf(decodeIdentifier(did), runtime, limit);
      if (runtime.store) prefixLength = await historyPrefixLength(runtime.store, value.did);
      return value;
    },
    async (value) => ({
      text: historyText(value, await styleFor(colorLevel(io.stdout, io.env, options.color === false)), prefixLength, outputWidth(io.stdout, io.env)),
      exitCode: EXIT.PASS,
    }),
  );
}

/**
 * `svc history --log <did>`: the kept did:webvh log, each line as the host published it, on
 * stdout (whatever --json says: it is JSON Lines), so that `svc resolve <did> --log kept.jsonl`
 * verifies it again. None kept (or no database) is NOT_FOUND, exit 4.
 */
async function keptLogAction(io: CliIo, setExit: (code: number) => void, did: string, options: StoreCommandOptions & { limit?: string }): Promise<void> {
  if (options.limit !== undefined) throw usageError('--limit lists observations; --log prints the whole kept log');
  let text = '';
  await withStore(
    io,
    { ...options, json: false, quiet: true },
    setExit,
    async (runtime) => {
      const id = decodeIdentifier(did);
      if (!runtime.store) throw new ProblemError('NOT_FOUND', `No log of ${id} is kept: there is no database yet.`);
      text = await keptLogText(id, runtime);
    },
    async () => ({ text: '', exitCode: EXIT.PASS }),
  );
  if (text !== '') io.stdout.write(text);
}

export async function diffAction(
  io: CliIo,
  setExit: (code: number) => void,
  did: string,
  options: StoreCommandOptions & { from?: string; to?: string },
): Promise<void> {
  await withStore(
    io,
    options,
    setExit,
    async (runtime) => diffOf(decodeIdentifier(did), runtime, { from: options.from, to: options.to }),
    async (result) => ({
      text: diffText(result, await styleFor(colorLevel(io.stdout, io.env, options.color === false)), outputWidth(io.stdout, io.env)),
      exitCode: result.identical ? EXIT.PASS : EXIT.CHECK_FAILED,
    }),
  );
}

/** The StoreError codes of a <dest> that cannot be used (store/backup.ts). */
const BAD_DESTINATION: ReadonlySet<string> = new Set(['BACKUP_DESTINATION_EXISTS', 'BACKUP_DESTINATION_UNUSABLE']);

export async function backupAction(
  io: CliIo,
  setExit: (code: number) => void,
  dest: string,
  options: { db?: string; json?: boolean; quiet?: boolean },
): Promise<void> {
  const source = databaseOption(options.db, io.env);
  const { isPostgresUrl, databaseLocation } = await import('../../../store/database.js');
  // A PostgreSQL database is the server's to back up: said before anything connects.
  if (isPostgresUrl(source)) {
    throw usageError(
      `svc backup copies an embedded SQLite file; ${printable(databaseLocation(source))} is a PostgreSQL database, which is backed up with the server's own tools`,
      'use pg_dump (e.g. pg_dump --format=custom --file=svc.dump "$SVC_DATABASE_URL") or continuous archiving',
    );
  }
  if (!existsSync(source)) throw new CliError('NOT_FOUND', `no database at ${source}; nothing to back up`, EXIT.NO_ANSWER);
  const { openDatabase } = await import('../../../store/database.js');
  let store: Database | undefined;
  try {
    store = await openDatabase({ target: source });
    const result = await store.backup(dest);
    if (options.json) io.stdout.write(`${JSON.stringify({ source, ...result }, null, 2)}\n`);
    else if (!options.quiet) io.stderr.write(`svc: backed up ${printable(source)} to ${printable(result.destination)} (${result.bytes} bytes)\n`);
    setExit(EXIT.PASS);
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    // A destination that exists, or whose directory does not, is the command line's fault (exit 2); a copy that fails is no answer.
    if (err instanceof Error && err.name === 'StoreError' && BAD_DESTINATION.has((err as { code?: string }).code ?? '')) throw usageError(message);
    throw new CliError(CLI_ERROR_CODES.BACKUP_FAILED, message, EXIT.NO_ANSWER);
  } finally {
    await store?.close();
  }
}
