/**
 * Plain-text reports of the local delegation registry, laid out for a width with the shared
 * layout (cmdutil/layout.ts): a `svc verify-tool` answer, and what `svc verify-delegation --register`
 * did. DIDs, tools and reasons quote receipts and the command line: all `printable`.
 */
import type { Authorization } from '../../../core/delegation/types.js';
import { printable } from '../../../present/text.js';
import { DEFAULT_WIDTH, Report, words, type Style } from '../../cmdutil/layout.js';
import { headlineLines, statusTone } from '../../cmdutil/check-report.js';

/** Width of the field labels, as in the authorize report. */
const LABEL = 13;

/** A registered chain of the agent that was verified again for this answer and not used. */
export interface SetAside {
  id: string;
  /** The chain's status now (INVALID, INDETERMINATE …) or ERROR when it could not be verified. */
  status: string;
  reason: string;
}

/** What the registry held for the agent, beside the answer. */
export interface RegistryNote {
  /** The database file read (absent file: nothing registered). */
  database: string;
  /** Unexpired registered chains of the agent that were verified again. */
  checked: number;
  setAside: SetAside[];
}

export function verifyToolText(authorization: Authorization, note: RegistryNote, style: Style, width: number = DEFAULT_WIDTH): string {
  const out = new Report(width);
  headlineLines(out, authorization.decision, authorization.reason);
  out.blank();
  const field = (label: string, value: string | null | undefined): Report => out.field(label, value ? printable(value) : null, LABEL);
  field('agent', authorization.agent);
  field('tool', authorization.tool);
  field('matched', authorization.matchedCapability);
  field('root', authorization.root);
  field('expires', authorization.expires);
  const verified = `${note.checked} registered chain${note.checked === 1 ? '' : 's'} of the agent verified again`;
  out.blank().hang('', words(`Registry ${printable(note.database)}: ${verified}.`, 'muted'));
  for (const chain of note.setAside) {
    out.hang(
      [{ text: '  ' }, { text: chain.status, tone: statusTone(chain.status) }, { text: ' ' }],
      `chain ${chain.id.slice(0, 16)}… not used: ${printable(chain.reason)}`,
    );
  }
  return out.text(style);
}

/** The lines `verify-delegation --register` adds after the chain report. */
export function registrationText(registered: boolean, reason: string | null, database: string, style: Style, width: number = DEFAULT_WIDTH): string {
  const text = registered
    ? `Registered in ${printable(database)}: svc verify-tool answers from this chain until it expires.`
    : `Not registered: ${printable(reason ?? 'no reason was given')}`;
  return new Report(width).hang('', words(text, registered ? 'good' : 'warn')).text(style);
}
