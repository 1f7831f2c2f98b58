/**
 * Exit codes: the contract for shell scripts and CI gates, the same for every command
 * (DESIGN §6). Never 0 when nothing was checked.
 */
import type { EnrichedResolution } from '../core/resolve/types.js';

export const EXIT = {
  /** Everything checked passed (RESOLVED without attention items, VALID, PASS, ALLOW). */
  PASS: 0,
  /** Ran, and a check failed (a FAILED dimension, DEACTIVATED, INVALID, DENY …). */
  CHECK_FAILED: 1,
  /** The command line was wrong. */
  USAGE: 2,
  /** Ran, but something could not be decided or needs attention (INDETERMINATE, warnings). */
  INDETERMINATE: 3,
  /** No answer: invalid input, unsupported method, upstream unavailable, egress blocked. */
  NO_ANSWER: 4,
  /** Interrupted (SIGINT). */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The EXIT CODES section of `svc --help` and the README. */
export const EXIT_CODES_HELP = `Exit codes:
  0    pass: resolved, nothing needs attention; a credential, JWS or chain VALID;
       a policy PASS; a tool call ALLOW
  1    a check failed: a dimension FAILED (e.g. an invalid key) or the DID is DEACTIVATED;
       a credential INVALID, EXPIRED, REVOKED, MALFORMED …; a policy FAIL; DENY
  2    usage error: unknown command or option, missing argument, a bad option value or
       environment setting (svc alone prints this help on stderr and exits 2)
  3    needs attention: a dimension is INDETERMINATE or the document has warnings
       (--strict turns this into 1); a credential, JWS, chain or policy INDETERMINATE;
       a chain VALID or an ALLOW without a trusted root (--trusted-root, --root, or --any-root);
       an inspection check warns (--strict: 1; --allow-warn <check-id> accepts a known one)
  4    no answer: invalid DID, unsupported method, unreachable host (a problem, see --json)
  130  interrupted
An error is one line on stderr (svc: CODE: reason) and a hint; --quiet never hides it.
A reader that stops early (svc … | head -1) is not an error: the output ends quietly and the
exit code is still the command's own.`;

export function exitForResolution(result: EnrichedResolution, strict = false): ExitCode {
  if (result.verdict.outcome === 'DEACTIVATED') return EXIT.CHECK_FAILED;
  if (result.dimensions.some((d) => d.state === 'FAILED')) return EXIT.CHECK_FAILED;
  const attention =
    result.verdict.outcome === 'RESOLVED_WITH_WARNINGS' || result.dimensions.some((d) => d.state === 'INDETERMINATE');
  if (attention) return strict ? EXIT.CHECK_FAILED : EXIT.INDETERMINATE;
  return EXIT.PASS;
}
