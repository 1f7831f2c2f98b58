/** `svc dereference`'s work, loaded when it runs (its options: options.ts, registered by command.ts). */
import { dereference, type DereferencingResult } from '../../../core/dereference/dereference.js';
import { decodeIdentifier } from '../../../core/did/syntax.js';
import { createRuntime } from '../../../runtime/node.js';
import { EXIT } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { dereferenceText } from './render.js';
import { emitReport } from '../../cmdutil/emit.js';
import type { DereferenceCommandOptions } from './options.js';

/** 0 found; 1 found, but the DID is deactivated (as `svc resolve` exits for DEACTIVATED). */
export function exitForDereference(result: DereferencingResult): number {
  return result.contentMetadata['deactivated'] === true ? EXIT.CHECK_FAILED : EXIT.PASS;
}

export async function dereferenceAction(io: CliIo, setExit: (code: number) => void, input: string, options: DereferenceCommandOptions): Promise<void> {
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      const didUrl = decodeIdentifier(input);
      const value = await dereference(didUrl, runtime, { hooks });
      return { value, exitCode: exitForDereference(value), text: (style, width) => dereferenceText(didUrl, value, style, width) };
    },
    setExit,
  );
}
