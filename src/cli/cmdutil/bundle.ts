/**
 * --bundle <file> (svc resolve, verify-credential, inspect-mcp, inspect-a2a): the evidence bundle
 * of the run — every resource fetched, byte for byte, with its TLS chain, and the result — written
 * beside the report, to be checked offline with `svc verify-bundle` (docs/evidence.md#evidence-bundles).
 * A run that ends in a problem writes its bundle too: what the host served is the evidence.
 */
import type { Command } from 'commander';
import type { BundleCommand } from '../../core/bundle/format.js';
import type { Recorder } from '../../core/bundle/record.js';
import type { GivenInput } from '../../core/bundle/verify.js';
import type { JsonObject } from '../../core/encoding/json.js';
import type { Runtime } from '../../core/runtime.js';
import { completeFiles } from './completion.js';
import { usageError } from './errors.js';
import type { CliIo } from './io.js';

export function addBundleOption(cmd: Command): void {
  cmd.option(
    '--bundle <file>',
    'also write an evidence bundle: the bytes of every resource fetched, their TLS chains and the result, to re-check offline (svc verify-bundle)',
  );
  completeFiles(cmd, '--bundle');
}

/** --bundle checked before anything runs (exit 2): a file to write, and something to record. */
export async function bundleDestination(file: string | undefined, fromFiles: boolean): Promise<void> {
  if (file === undefined) return;
  if (fromFiles) {
    throw usageError(
      '--bundle records what svc fetches, and verifying from files fetches nothing: the files are already the record',
      'drop the file options to fetch and record, or keep the files you verified',
    );
  }
  await (await import('./html-file.js')).outputDestination(file, '--bundle');
}

/**
 * The run's Runtime, recording every fetch when a bundle is asked for (the recorder's module loads
 * only then); its clock then stands at the observation instant for the whole run (record.ts).
 */
export async function recordingFor(runtime: Runtime, file: string | undefined): Promise<{ runtime: Runtime; recorder: Recorder | null; observedAt: Date }> {
  if (file === undefined) return { runtime, recorder: null, observedAt: runtime.clock.now() };
  const { recordingRuntime } = await import('../../core/bundle/record.js');
  return recordingRuntime(runtime);
}

/** Writes the bundle of a recorded run to `file` (whole or not at all). */
export async function writeBundleFile(
  io: CliIo,
  file: string,
  quiet: boolean,
  work: { command: BundleCommand; observedAt: Date; recorder: Recorder; inputs?: readonly GivenInput[]; result: unknown },
): Promise<void> {
  const [{ encodeBundle }, { makeBundle }, { asRecordedResult }, { writeOutputFile }] = await Promise.all([
    import('../../core/bundle/format.js'),
    import('../../core/bundle/verify.js'),
    import('../../core/bundle/kinds.js'),
    import('./html-file.js'),
  ]);
  const bundle = makeBundle({ ...work, result: asRecordedResult(work.result) as JsonObject });
  await writeOutputFile(io, file, quiet, 'evidence bundle', 'evidence bundle', encodeBundle(bundle));
}
