/**
 * One check of an MCP or A2A watch: the endpoint's inventory or the card inspected afresh and
 * compared with the watch's baseline (docs/daemon.md#operator-monitoring).
 */
import type { WatchCheckInput } from '../../core/store.js';
import type { ServerContext } from '../context.js';
import type { Observation } from './poller.js';

/** Inspects the watched MCP endpoint or A2A card and compares it with the watch's baselines. */
export async function observeTarget(ctx: ServerContext, input: WatchCheckInput): Promise<Observation> {
  void ctx;
  return { skipped: `${input.watch.kind === 'mcp' ? 'MCP' : 'A2A'} watches are not checked by this build` };
}
