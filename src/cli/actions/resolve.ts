/** `svc resolve <did>`'s work (loaded when it runs; its options: commands/resolve.ts). */
import { decodeIdentifier } from '../../core/did/syntax.js';
import type { ResolveOptions } from '../../core/methods/types.js';
import { ProblemError } from '../../core/problems.js';
import { hasVersionOptions, parseVersionOptions } from '../../core/resolve/version-options.js';
import { resolve } from '../../core/resolve/resolve.js';
import { observedChanges, recordObservation } from '../../core/history/history.js';
import type { EnrichedResolution } from '../../core/resolve/types.js';
import type { Runtime } from '../../core/runtime.js';
import { ConfigError, createRuntime } from '../../runtime/node.js';
import { exitForResolution } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { printable } from '../output/layout.js';
import { emitResult, type OutputOptions } from '../output/emit.js';
import type { TimeMachineInput } from '../../web/dossier.js';
import { databaseOption } from './database.js';
import { writeHtmlFile } from './html-file.js';

export interface ResolveCommandOptions extends OutputOptions {
  strict?: boolean;
  egressAllow: string[];
  db?: string;
  store: boolean;
  versionId?: string;
  versionTime?: string;
  versionNumber?: string;
  html?: string;
}

const FLAGS = { versionId: '--version-id', versionTime: '--version-time', versionNumber: '--version-number' } as const;

/**
 * The did:webvh version selectors, checked before anything runs by the core's one parser: a
 * malformed value is a usage error (exit 2). Whether they apply to the method, or agree with
 * each other, is the resolution's answer (INVALID_OPTIONS, NOT_FOUND).
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
async function record(io: CliIo, options: ResolveCommandOptions, runtime: Runtime, result: EnrichedResolution, selected: ResolveOptions): Promise<TimeMachineInput | null> {
  if (hasVersionOptions(selected)) return null;
  let path = options.db ?? 'the database';
  try {
    const { openDatabase, databaseLocation } = await import('../../store/database.js');
    const target = databaseOption(options.db, io.env);
    path = databaseLocation(target);
    const store = await openDatabase({ target });
    try {
      runtime.store = store;
      // Awaited before the finally closes the store, and inside the outer try, so a failure is
      // the warning below.
      await recordObservation(runtime, result);
      return options.html === undefined ? null : { ...(await observedChanges(result.did, runtime)), selected: null };
    } finally {
      runtime.store = undefined;
      await store.close();
    }
  } catch (err) {
    if (!options.quiet) io.stderr.write(`svc: warning: the resolution was not recorded in ${printable(path)}: ${printable(err instanceof Error ? err.message.split('\n')[0]! : String(err))}\n`);
    return null;
  }
}

/** --html <file>: the dossier (or the problem) as one self-contained page. The page modules load only here. */
async function writeHtml(io: CliIo, file: string, quiet: boolean, page: (web: typeof import('../../web/dossier.js')) => string): Promise<void> {
  const web = await import('../../web/dossier.js');
  await writeHtmlFile(io, file, quiet, 'dossier', page(web));
}

export async function resolveAction(io: CliIo, setExit: (code: number) => void, did: string, options: ResolveCommandOptions): Promise<void> {
  const selected = versionOptions(options);
  // A SVC_DATABASE_URL svc cannot use is refused before anything runs (exit 2).
  if (options.store) databaseOption(options.db, io.env);
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  await emitResult(io, options, runtime, async (hooks) => {
    const identifier = decodeIdentifier(did);
    let result: EnrichedResolution;
    try {
      result = await resolve(identifier, runtime, selected, hooks);
    } catch (err) {
      if (options.html !== undefined && err instanceof ProblemError) {
        const problem = err.toProblem(runtime.config.problemsBase);
        await writeHtml(io, options.html, options.quiet === true, (web) => web.problemPage({ problem, did: identifier, mode: 'offline' }));
      }
      throw err;
    }
    const timeMachine = options.store ? await record(io, options, runtime, result, selected) : null;
    if (options.html !== undefined) {
      const unavailable = options.store ? 'No observations could be read from the local history.' : 'This resolution was not recorded (--no-store), so no history is shown.';
      await writeHtml(io, options.html, options.quiet === true, (web) =>
        web.dossierPage({ result, mode: 'offline', timeMachine: timeMachine ?? { history: null, diff: null, selected: null, unavailable } }),
      );
    }
    return { result, exitCode: exitForResolution(result, options.strict) };
  }, setExit);
}
