/** `svc graph`'s work, loaded when it runs (its options: options.ts, registered by command.ts). */
import { decodeIdentifier } from '../../../core/did/syntax.js';
import { resolve } from '../../../core/resolve/resolve.js';
import { createRuntime } from '../../../runtime/node.js';
import { exitForResolution } from '../../cmdutil/exit-codes.js';
import type { CliIo } from '../../cmdutil/io.js';
import { emitReport } from '../../cmdutil/emit.js';
import { graphResponse, graphText } from './render.js';
import type { GraphCommandOptions } from './options.js';

export async function graphAction(io: CliIo, setExit: (code: number) => void, did: string, options: GraphCommandOptions): Promise<void> {
  const runtime = createRuntime(io.env, { egressAllow: options.egressAllow });
  await emitReport(
    io,
    options,
    runtime,
    async (hooks) => {
      const result = await resolve(decodeIdentifier(did), runtime, {}, hooks);
      const value = graphResponse(result);
      return { value, exitCode: exitForResolution(result, options.strict), text: (style, width) => graphText(value, style, width) };
    },
    setExit,
  );
}
