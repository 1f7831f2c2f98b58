/**
 * Capability strings of delegation receipts (docs/delegation.md#capabilities): `*` grants every
 * tool; `<label>:*` every tool whose name starts with `<label>:`; `<label>:<tool>` and `<tool>`
 * that one tool. Comparison is case-insensitive. Labels are descriptive and do not partition tools:
 * `payments:*` does not grant a tool named `refund`.
 *
 * Grammar svc enforces (a receipt with another string is MALFORMED): 1 to 256 printable
 * characters without whitespace; `*` only alone or as the whole last segment after `:` (so
 * `pay*`, `a:*:b` and `:*` are refused); no empty segment (`a::b`, `a:`).
 */
import { MAX_CAPABILITY_LENGTH } from './types.js';

/** Null when `cap` is a valid capability string, else why not. */
export function validateCapability(cap: unknown): string | null {
  if (typeof cap !== 'string') return 'a capability is a string';
  if (cap.length === 0) return 'a capability is not empty';
  if (cap.length > MAX_CAPABILITY_LENGTH) return `a capability is at most ${MAX_CAPABILITY_LENGTH} characters`;
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(cap)) return `the capability ${JSON.stringify(cap.slice(0, 40))} holds whitespace or control characters`;
  if (cap === '*') return null;
  const segments = cap.split(':');
  if (segments.some((s) => s.length === 0)) return `the capability ${JSON.stringify(cap)} has an empty segment`;
  const star = segments.findIndex((s) => s.includes('*'));
  if (star !== -1 && (star !== segments.length - 1 || segments[star] !== '*' || segments.length < 2)) {
    return `the capability ${JSON.stringify(cap)} uses "*" other than alone or as its whole last segment ("label:*")`;
  }
  return null;
}

/** What a capability grants: everything, every tool under a prefix (lower-case, ending in `:`), or one tool. */
type Grant = { kind: 'all' } | { kind: 'prefix'; prefix: string } | { kind: 'tool'; tool: string };

function grantOf(cap: string): Grant {
  const lower = cap.toLowerCase();
  if (lower === '*') return { kind: 'all' };
  if (lower.endsWith(':*')) return { kind: 'prefix', prefix: lower.slice(0, -1) };
  return { kind: 'tool', tool: lower };
}

/** True when the capability grants the tool. */
export function grants(cap: string, tool: string): boolean {
  const grant = grantOf(cap);
  const name = tool.toLowerCase();
  if (grant.kind === 'all') return true;
  if (grant.kind === 'prefix') return name.startsWith(grant.prefix);
  return name === grant.tool;
}

/** The first capability that grants the tool, or null. */
export function matchCapability(capabilities: readonly string[], tool: string): string | null {
  return capabilities.find((cap) => grants(cap, tool)) ?? null;
}

/** True when every tool `child` grants is granted by some capability of `parent`. */
export function capabilityCovered(parent: readonly string[], child: string): boolean {
  const grant = grantOf(child);
  return parent.some((p) => {
    const by = grantOf(p);
    if (by.kind === 'all') return true;
    if (grant.kind === 'all') return false;
    if (grant.kind === 'prefix') return by.kind === 'prefix' && grant.prefix.startsWith(by.prefix);
    return by.kind === 'prefix' ? grant.tool.startsWith(by.prefix) : grant.tool === by.tool;
  });
}
