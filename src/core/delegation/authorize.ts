/**
 * Whether a verified chain allows one tool call, stateless: ALLOW only when the
 * chain is VALID and a leaf capability grants the tool; otherwise DENY with the reason (scope, or
 * the chain's own headline). Any error from an authorisation endpoint must be read as DENY.
 */
import { matchCapability } from './capability.js';
import type { Authorization, DelegationChainResult } from './types.js';

export function authorize(result: DelegationChainResult, tool: string): Authorization {
  const agent = result.leaf;
  if (result.status !== 'VALID') {
    return { agent, tool, decision: 'DENY', authorized: false, reason: result.headline };
  }
  const matched = matchCapability(result.effectiveCapabilities, tool);
  if (matched === null) {
    return {
      agent,
      tool,
      decision: 'DENY',
      authorized: false,
      reason: `The chain is valid, but none of its capabilities (${result.effectiveCapabilities.join(', ')}) grants the tool ${JSON.stringify(tool)}.`,
    };
  }
  return {
    agent,
    tool,
    decision: 'ALLOW',
    authorized: true,
    reason: `${result.root} delegated ${JSON.stringify(matched)} to ${agent}, which grants the tool ${JSON.stringify(tool)} until ${result.notAfter}.`,
    matchedCapability: matched,
    root: result.root!,
    expires: result.notAfter!,
  };
}
