/** `svc resolve <did>`: resolve one DID and show the evidence. */
import type { Command } from 'commander';
import { decodeIdentifier } from '../../core/did/syntax.js';
import type { ResolveOptions } from '../../core/methods/types.js';
import { ProblemError } from '../../core/problems.js';
import { hasVersionOptions, parseVersionOptions } from '../../core/resolve/version-options.js';
import { resolve } from '../../core/resolve/resolve.js';
import { recordObservation } from '../../core/history/history.js';
import type { EnrichedResolution } from '../../core/resolve/types.js';
import type { Runtime } from '../../core/runtime.js';
import { ConfigError, createRuntime } from '../../runtime/node.js';
import { exitForResolution } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { printable } from '../output/dossier.js';
import { addOutputOptions, emitResult, type OutputOptions } from '../output/emit.js';
import { addDbOption, storePathOption, addEgressOption } from './store-options.js';

interface ResolveCommandOptions extends OutputOptions {
  strict?: boolean;
  egressAllow: string[];
  db?: string;
  store: boolean;
  versionId?: string;
  versionTime?: string;
  versionNumber?: string;
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
 * cannot be opened costs a warning, never the answer or its exit code.
 */
async function record(io: CliIo, options: ResolveCommandOptions, runtime: Runtime, result: EnrichedResolution, selected: ResolveOptions): Promise<void> {
  if (hasVersionOptions(selected)) return;
  const path = storePathOption(options.db, io.env);
  try {
    const { openStore } = await import('../../store/index.js');
    const store = openStore({ path });
    try {
      runtime.store = store;
      recordObservation(runtime, result);
    } finally {
      runtime.store = undefined;
      store.close();
    }
  } catch (err) {
    if (!options.quiet) io.stderr.write(`svc: warning: the resolution was not recorded in ${printable(path)}: ${printable(err instanceof Error ? err.message.split('\n')[0]! : String(err))}\n`);
  }
}

export function registerResolve(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const cmd = program
    .command('resolve')
    .description('Resolve a DID and report the evidence, dimension by dimension')
    .argument('<did>', 'the DID to resolve: raw (did:key:z6Mk…) or fully percent-encoded (did%3Akey%3A…)')
    .option('--strict', 'exit 1 instead of 3 when something needs attention')
    .option('--version-id <id>', 'did:webvh: serve the version with this versionId (e.g. 2-Qm…)')
    .option('--version-time <time>', 'did:webvh: serve the version in force at this RFC 3339 time (e.g. 2025-01-01T00:00:00Z)')
    .option('--version-number <n>', 'did:webvh: serve this version (1 is the first entry of the log)');
  addEgressOption(cmd);
  addDbOption(cmd);
  cmd.option('--no-store', 'do not record this resolution in the history (see svc history, svc diff)');
  addOutputOptions(cmd);
  cmd.addHelpText(
    'after',
    `
Examples:
  $ svc resolve did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK
  $ svc resolve did:web:example.com
  $ svc resolve did:web:intranet.example%3A8443:users:alice --egress-allow 10.0.0.0/8
  $ svc resolve did:webvh:QmcASXkJMnprWNJCbyJ5394tCv8JDfrGptUmbCBoy4UtHE:domain.example --version-number 1
  $ svc resolve did:jwk:eyJrdHkiOiJPS1AiLCJjcnYiOiJYMjU1MTkiLCJ1c2UiOiJlbmMiLCJ4IjoiM3A3YmZYdDl3YlRUVzJIQzdPUTFOei1EUThoYmVHZE5yZngtRkctSUswOCJ9 --json

The version options apply to did:webvh only; several may be given, and must then agree.`,
  );
  cmd.action(async (did: string, options: ResolveCommandOptions) => {
    const selected = versionOptions(options);
    const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
    await emitResult(io, options, runtime, async (hooks) => {
      const result = await resolve(decodeIdentifier(did), runtime, selected, hooks);
      if (options.store) await record(io, options, runtime, result, selected);
      return { result, exitCode: exitForResolution(result, options.strict) };
    }, setExit);
  });
}
