/**
 * The `webvh.compare_kept_log` stage of a did:webvh resolution (core/webvh/kept-log.ts): with a
 * store, the verified log is compared with the kept one and its new entries kept; without one
 * (`--no-store`, verifying from files) nothing is compared, no stage runs, and the
 * limitations say so.
 */
import type { MethodContext } from '../methods/types.js';
import { plural } from '../text.js';
import { compareAndKeep, rewriteStatement } from './kept-log.js';
import type { KeptLogEvidence } from './types.js';
import type { LogVerification, WitnessFileInput } from './verify.js';

export interface KeepStageInput {
  did: string;
  scid: string;
  text: string;
  log: LogVerification;
  witnessFile: WitnessFileInput | null;
}

/** The comparison's evidence, or undefined when the Runtime has no store. */
export async function keepVerifiedLog(context: MethodContext, input: KeepStageInput): Promise<KeptLogEvidence | undefined> {
  const { runtime, trace } = context;
  const store = runtime.store;
  // No store, no stage: the limitations say that nothing was compared (resolve/verdict.ts).
  if (!store) return undefined;
  return await trace.run('webvh.compare_kept_log', 'Compare the log with the one kept', async (stage) => {
    const parsed = input.witnessFile?.parsed;
    const witness = parsed && 'value' in parsed ? JSON.stringify(parsed.value) : null;
    const evidence = await compareAndKeep(store.keptLogs, runtime, {
      did: input.did,
      scid: input.scid,
      text: input.text,
      entries: input.log.entries,
      verified: input.log.valid.length,
      witness,
    });
    switch (evidence.status) {
      case 'REWRITTEN':
        stage.status = 'FAIL';
        stage.detail = rewriteStatement(evidence);
        break;
      case 'NOT_COMPARED':
        stage.status = 'WARN';
        stage.detail = `not compared: ${evidence.reason}`;
        break;
      case 'FIRST_KEPT':
        stage.detail = `nothing kept before; ${plural(evidence.appendedEntries, 'entry', 'entries')} now kept`;
        break;
      default:
        stage.detail = `extends the ${plural(evidence.keptEntries, 'kept entry', 'kept entries')}${evidence.appendedEntries > 0 ? `; ${evidence.appendedEntries} more kept` : ''}${evidence.atBound ? '; the kept log is at its bound' : ''}`;
    }
    return evidence;
  });
}
