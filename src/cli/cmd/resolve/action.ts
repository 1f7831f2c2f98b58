/** `svc resolve <did>`'s work (loaded when it runs; its options: options.ts, registered by command.ts). */
import { decodeIdentifier } from '../../../core/did/syntax.js';
import type { ResolveOptions } from '../../../core/methods/types.js';
import { ProblemError } from '../../../core/problems.js';
import { hasVersionOptions, parseVersionOptions } from '../../../core/resolve/version-options.js';
import { resolve } from '../../../core/resolve/resolve.js';
import { observedChanges, recordObservation } from '../../../core/history/history.js';
import type { Database } from '../../../store/database.js';
import type { StageHooks } from '../../../core/resolve/trace.js';
import type { EnrichedResolution } from '../../../core/resolve/types.js';
import type { Runtime } from '../../../core/runtime.js';
import { ConfigError, createRuntime } from '../../../runtime/node.js';
import { usageError } from '../../cmdutil/errors.js';
import { exitForResolution } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { printable } from '../../../present/text.js';
import { emitReport } from '../../cmdutil/emit.js';
import type { ColorLevel } from '../../cmdutil/color.js';
import type { Style } from '../../cmdutil/layout.js';
import type { TimeMachineInput } from '../../../pages.js';
import { databaseOption } from '../../cmdutil/database.js';
import type { SuppliedFile, SuppliedFileOption } from '../../cmdutil/supplied.js';
import { htmlDestination, writeHtmlFile } from '../../cmdutil/html-file.js';
import { bundleDestination, recordingFor, writeBundleFile } from '../../cmdutil/bundle.js';
import { bundleResolveOptions } from '../../../core/bundle/kinds.js';
import type { ResolveCommandOptions } from './options.js';

const FILE_OPTIONS = '--document, --log, --witness, --did-configuration';

/** The identifier as written, decoded once when fully percent-encoded; a malformed encoding is left for the resolution to refuse (INVALID_DID). */
function writtenIdentifier(did: string): string {
  try {
    return decodeIdentifier(did);
  } catch {
    return did;
  }
}

/**
 * The file options of a resolution, checked against the DID (exit 2 when they do not fit it):
 * --document for a did:web, --log and --witness for a did:webvh, --did-configuration for either;
 * without --allow-network the DID document or log itself must be among them.
 */
function fileOptionsOf(identifier: string, options: ResolveCommandOptions): SuppliedFileOption[] {
  const given: SuppliedFileOption[] = [];
  const add = (kind: SuppliedFileOption['kind'], flag: string, file: string | undefined) => {
    if (file !== undefined) given.push({ kind, target: identifier, file, flag });
  };
  add('didDocument', '--document', options.document);
  add('didLog', '--log', options.log);
  add('witnessFile', '--witness', options.witness);
  add('didConfiguration', '--did-configuration', options.didConfiguration);
  if (given.length === 0) return given;
  // The method as written; a DID that does not parse is the resolution's own answer (INVALID_DID).
  const method = /^did:([a-z0-9]+):/.exec(identifier)?.[1];
  if (method !== undefined && method !== 'web' && method !== 'webvh') {
    throw usageError(`${FILE_OPTIONS} apply to did:web and did:webvh; a did:${printable(method.slice(0, 20))} is resolved without fetching anything`);
  }
  if (method === 'webvh' && options.document !== undefined)
    throw usageError('--document is the did.json of a did:web; a did:webvh is verified from its log (--log)');
  if (method === 'web' && (options.log !== undefined || options.witness !== undefined)) {
    throw usageError(`${options.log !== undefined ? '--log' : '--witness'} belongs to a did:webvh; a did:web is verified from its did.json (--document)`);
  }
  if (!options.allowNetwork) {
    if (method === 'web' && options.document === undefined)
      throw usageError('with a file option svc fetches nothing, so the DID document must be supplied too (--document), or allow the network (--allow-network)');
    if (method === 'webvh' && options.log === undefined)
      throw usageError('with a file option svc fetches nothing, so the DID log must be supplied too (--log), or allow the network (--allow-network)');
  }
  return given;
}

const FLAGS = { versionId: '--version-id', versionTime: '--version-time', versionNumber: '--version-number' } as const;

/**
 * The did:webvh version selectors, checked before anything runs by the core's one parser: a
 * malformed value is a usage error (exit 2). Whether they apply to the method, or agree with
 * each other, is the resolution's answer (INVALID_OPTIONS, exit 2; NOT_FOUND, exit 4).
 */
export function versionOptions(options: Pick<ResolveCommandOptions, 'versionId' | 'versionTime' | 'versionNumber'>): ResolveOptions {
  try {
    return parseVersionOptions(options, (name) => FLAGS[name]);
  } catch (err) {
    if (err instanceof ProblemError) throw new ConfigError(err.detail.replace(/\.$/, ''));
    throw err;
  }
}

/**
 * Records the resolution in the embedded store (better-sqlite3 loads only here). A store that
 * cannot be opened costs a warning, never the answer or its exit code. With --html, the DID's
 * observations and the diff of the latest two are read in the same visit, for the time machine.
 */
async function record(
  io: CliIo,
  options: ResolveCommandOptions,
  runtime: Runtime,
  result: EnrichedResolution,
  selected: ResolveOptions,
): Promise<TimeMachineInput | null> {
  if (hasVersionOptions(selected)) return null;
  let path = options.db ?? 'the database';
  try {
    const { openDatabase, databaseLocation } = await import('../../../store/database.js');
    const target = databaseOption(options.db, io.env);
    path = databaseLocation(target);
    // A did:webvh's store is open already (keptLogStore): it is the caller's to close.
    const early = runtime.store;
    const opened = early === undefined ? await openDatabase({ target }) : undefined;
    const store = early ?? opened!;
    try {
      runtime.store = store;
      // Awaited before the finally closes the store, and inside the outer try, so a failure is
      // the warning below.
      await recordObservation(runtime, result);
      return options.html === undefined ? null : { ...(await observedChanges(result.did, runtime)), selected: null };
    } finally {
      if (opened !== undefined) {
        runtime.store = undefined;
        await opened.close();
      }
    }
  } catch (err) {
    if (!options.quiet)
      io.stderr.write(
        `svc: warning: the resolution was not recorded in ${printable(path)}: ${printable(err instanceof Error ? err.message.split('\n')[0]! : String(err))}\n`,
      );
    return null;
  }
}

/**
 * The database opened before a did:webvh resolution, so that its log is compared with the one
 * kept and kept in turn (docs/history.md#kept-didwebvh-logs); undefined, with a warning, when it
 * cannot be opened (the resolution then says it compared nothing).
 */
async function keptLogStore(io: CliIo, options: ResolveCommandOptions): Promise<Database | undefined> {
  try {
    const { openDatabase } = await import('../../../store/database.js');
    return await openDatabase({ target: databaseOption(options.db, io.env) });
  } catch (err) {
    if (!options.quiet)
      io.stderr.write(
        `svc: warning: the did:webvh log was not compared with a kept one: ${printable(err instanceof Error ? err.message.split('\n')[0]! : String(err))}\n`,
      );
    return undefined;
  }
}

/**
 * A resolution printed as every report is (cmdutil/emit.ts), as the dossier: drawn with ink on a
 * terminal, else the text dossier. Each renderer loads only when a report is printed (not for
 * --json), ink only for a terminal.
 */
async function emitResult(
  io: CliIo,
  options: ResolveCommandOptions,
  runtime: Runtime,
  run: (hooks: StageHooks) => Promise<{ result: EnrichedResolution; exitCode: number }>,
  setExit: (code: number) => void,
): Promise<void> {
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      const { result, exitCode } = await run(hooks);
      const dossierText = options.json || options.quiet ? null : (await import('./render.js')).dossierText;
      const text = (style: Style, width: number) => (dossierText ? dossierText(result, style, width, { verbose: options.verbose === true }) : '');
      const drawn = {
        trace: result.trace,
        load: async () => {
          const { renderDossier } = await import('./render-ink.js');
          return (stdout: NodeJS.WriteStream, drawing: { colorLevel: ColorLevel; width: number; verbose: boolean }) =>
            renderDossier(result, { ...drawing, stdout });
        },
      };
      return { value: result, exitCode, text, drawn };
    },
    setExit,
  );
}

/** --html <file>: the dossier (or the problem) as one self-contained page. The page modules load only here. */
async function writeHtml(io: CliIo, file: string, quiet: boolean, page: (web: typeof import('../../../pages.js')) => string): Promise<void> {
  const web = await import('../../../pages.js');
  await writeHtmlFile(io, file, quiet, 'dossier', page(web));
}

export async function resolveAction(io: CliIo, setExit: (code: number) => void, did: string, options: ResolveCommandOptions): Promise<void> {
  const selected = versionOptions(options);
  if (options.html !== undefined) await htmlDestination(options.html);
  const fileOptions = fileOptionsOf(writtenIdentifier(did), options);
  const fromFiles = fileOptions.length > 0;
  await bundleDestination(options.bundle, fromFiles);
  // The file options' work loads only when one is given.
  const supplied = fromFiles || options.allowNetwork ? await import('../../cmdutil/supplied.js') : null;
  supplied?.requireFileOptionFor(options.allowNetwork, fileOptions, FILE_OPTIONS);
  // A SVC_DATABASE_URL svc cannot use is refused before anything runs (exit 2); from files, nothing is recorded.
  const store = options.store && !fromFiles;
  if (store) databaseOption(options.db, io.env);
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  const files: SuppliedFile[] = supplied && fromFiles ? await supplied.readSuppliedFiles(fileOptions, runtime.config) : [];
  // did:webvh: the log is compared with the kept one while it resolves, so the store opens first.
  const kept = store && writtenIdentifier(did).startsWith('did:webvh:') ? await keptLogStore(io, options) : undefined;
  runtime.store = kept;
  try {
    await resolveAndEmit();
  } finally {
    runtime.store = undefined;
    await kept?.close();
  }

  async function resolveAndEmit(): Promise<void> {
    await emitResult(
      io,
      options,
      runtime,
      async (hooks) => {
        const identifier = decodeIdentifier(did);
        let result: EnrichedResolution;
        const recording = await recordingFor(runtime, options.bundle);
        const bundle = (outcome: unknown) =>
          recording.recorder && options.bundle !== undefined
            ? writeBundleFile(io, options.bundle, options.quiet === true, {
                command: { kind: 'resolve', subject: identifier, options: bundleResolveOptions(selected) },
                observedAt: recording.observedAt,
                recorder: recording.recorder,
                result: outcome,
              })
            : Promise.resolve();
        try {
          const from = supplied && fromFiles ? supplied.suppliedRuntime(runtime, files, options.allowNetwork === true) : recording.runtime;
          result = await resolve(identifier, from, selected, hooks);
        } catch (err) {
          if (err instanceof ProblemError) await bundle({ problem: { code: err.code, detail: err.detail } });
          if (options.html !== undefined && err instanceof ProblemError) {
            await writeHtml(io, options.html, options.quiet === true, (web) => web.problemPage({ problem: err, did: identifier, mode: 'offline' }));
          }
          throw err;
        }
        await bundle(result);
        const timeMachine = store ? await record(io, options, runtime, result, selected) : null;
        if (options.html !== undefined) {
          const unavailable = fromFiles
            ? 'This resolution was verified from files and is never recorded, so no history is shown.'
            : options.store
              ? 'No observations could be read from the local history.'
              : 'This resolution was not recorded (--no-store), so no history is shown.';
          await writeHtml(io, options.html, options.quiet === true, (web) =>
            web.dossierPage({ result, mode: 'offline', timeMachine: timeMachine ?? { history: null, diff: null, selected: null, unavailable } }),
          );
        }
        return { result, exitCode: exitForResolution(result, options.strict) };
      },
      setExit,
    );
  }
}
