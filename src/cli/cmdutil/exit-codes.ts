/**
 * Exit codes: the contract for shell scripts and CI gates, the same for every command
 * (docs/reference/exit-codes.md is generated from this file). Never 0 when nothing was checked.
 */
import type { EnrichedResolution } from '../../core/resolve/types.js';

export const EXIT = {
  /** Everything checked passed (RESOLVED without attention items, VALID, PASS, ALLOW). */
  PASS: 0,
  /** Ran, and a check failed (a FAILED dimension, DEACTIVATED, INVALID, DENY …). */
  CHECK_FAILED: 1,
  /** The command line was wrong: a usage error, or an option value that cannot be used (INVALID_OPTIONS). */
  USAGE: 2,
  /** Ran, but something could not be decided or needs attention (INDETERMINATE, warnings). */
  INDETERMINATE: 3,
  /** No answer: invalid input, unsupported method, upstream unavailable, egress blocked. */
  NO_ANSWER: 4,
  /** Interrupted (SIGINT). */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The one rule for a run that ends without an answer: 2 when the command line is what is wrong —
 * a usage error, or a problem about an option's value (INVALID_OPTIONS: a hash prefix too short
 * or shared, a version selector the method has none of, a policy or key file an option names that
 * holds no usable policy or key) — else 4, no answer (the identifier or input examined is
 * malformed, the host is unreachable, egress is blocked, storage is unavailable …).
 */
export function exitForProblem(code: string): ExitCode {
  return code === 'INVALID_OPTIONS' || code === 'USAGE_ERROR' ? EXIT.USAGE : EXIT.NO_ANSWER;
}

/** The EXIT CODES section of `svc --help` (and of docs/reference/exit-codes.md). */
export const EXIT_CODES_HELP = `Exit codes:
  0    pass: resolved, nothing needs attention; a credential, JWS or chain VALID;
       a policy PASS; a tool call ALLOW
  1    a check failed: a dimension FAILED (e.g. an invalid key) or the DID is DEACTIVATED;
       a credential INVALID, EXPIRED, REVOKED, MALFORMED …; a policy FAIL; DENY; an MCP
       inventory or A2A card that differs from its approved --baseline
  2    usage error: unknown command or option, missing argument, an option value that
       cannot be used (malformed, out of range, not applicable, a file it names that is
       missing or holds no usable policy or key, an output file that exists) or a bad
       environment setting (svc alone prints this help on stderr and exits 2)
  3    needs attention: a dimension is INDETERMINATE or the document has warnings
       (--strict turns this into 1); a credential, JWS, chain or policy INDETERMINATE;
       a chain VALID or an ALLOW without a trusted root (--trusted-root, --root, or --any-root);
       an inspection check warns (--strict: 1; --allow-warn <check-id> accepts a known one)
  4    no answer: the DID (or other input examined) is malformed, the method unsupported,
       the host unreachable or egress blocked (a problem, see --json)
  130  interrupted
An error is one line on stderr (svc: CODE: reason) and a hint; --quiet never hides it.
A reader that stops early (svc … | head -1) is not an error: the output ends quietly and the
exit code is still the command's own.`;

/** One exit code as EXIT_CODES_HELP describes it: its number, its name in EXIT and its text. */
export interface ExitCodeDescription {
  code: ExitCode;
  name: keyof typeof EXIT;
  /** The help's text for it, its continuation lines joined: `pass: resolved, …`. */
  text: string;
}

/**
 * EXIT_CODES_HELP read back: each code's text (`  0    pass: …` and its indented continuation
 * lines) and the notes below the list, so the man page's EXIT STATUS and
 * docs/reference/exit-codes.md say what `svc --help` says. Throws when the help and EXIT do not
 * list the same codes (a test builds both pages, so such a change cannot pass unnoticed).
 */
export function exitCodeDescriptions(): { codes: ExitCodeDescription[]; notes: string[] } {
  const names = new Map(Object.entries(EXIT).map(([name, code]) => [code as number, name as keyof typeof EXIT]));
  const codes: ExitCodeDescription[] = [];
  const notes: string[] = [];
  for (const line of EXIT_CODES_HELP.split('\n').slice(1)) {
    const start = /^ {2}(\d+)\s+(.*)$/.exec(line);
    if (start) {
      const name = names.get(Number(start[1]));
      if (name === undefined) throw new Error(`EXIT_CODES_HELP describes exit code ${start[1]}, which EXIT does not have`);
      codes.push({ code: EXIT[name], name, text: start[2]! });
    } else if (/^ {3,}/.test(line) && codes.length > 0 && notes.length === 0) codes[codes.length - 1]!.text += ` ${line.trim()}`;
    else notes.push(line);
  }
  const missing = [...names].filter(([code]) => !codes.some((c) => c.code === code)).map(([code, name]) => `${code} (${name})`);
  if (missing.length > 0) throw new Error(`EXIT_CODES_HELP does not describe exit code ${missing.join(', ')}`);
  return { codes, notes };
}

export function exitForResolution(result: EnrichedResolution, strict = false): ExitCode {
  if (result.verdict.outcome === 'DEACTIVATED') return EXIT.CHECK_FAILED;
  if (result.dimensions.some((d) => d.state === 'FAILED')) return EXIT.CHECK_FAILED;
  const attention = result.verdict.outcome === 'RESOLVED_WITH_WARNINGS' || result.dimensions.some((d) => d.state === 'INDETERMINATE');
  if (attention) return strict ? EXIT.CHECK_FAILED : EXIT.INDETERMINATE;
  return EXIT.PASS;
}
