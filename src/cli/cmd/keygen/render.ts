/**
 * Plain-text report of `svc keygen`, laid out for a width with the shared layout (cmdutil/layout.ts):
 * where the private key was written and the DIDs that carry its public key. The private key
 * itself is never part of any output.
 */
import { printable } from '../../../present/text.js';
import { DEFAULT_WIDTH, Report, phrase, words, type Style } from '../../cmdutil/layout.js';
import { shellWord } from '../../cmdutil/shell-word.js';

/** What `svc keygen --json` prints. */
export interface KeygenReport {
  didKey: string;
  didJwk: string;
  curve: string;
  /** Absolute path of the private JWK file. */
  out: string;
}

/** What `svc key show --json` prints: keygen's members for the same key, and the file it read. */
export interface KeyShowReport {
  didKey: string;
  didJwk: string;
  curve: string;
  /** Absolute path of the JWK file. */
  file: string;
  /** Whether the file holds the private key (a public JWK shows the same DIDs). */
  private: boolean;
}

function didLines(out: Report, report: { didKey: string; didJwk: string }): void {
  out.hang([{ text: '  ' }, { text: 'did:key', tone: 'muted' }, { text: '  ' }], [phrase(report.didKey, 'accent')]);
  out.hang([{ text: '  ' }, { text: 'did:jwk', tone: 'muted' }, { text: '  ' }], [phrase(report.didJwk, 'accent')]);
}

/** `fileArgument`: the file as the user named it, for the command line suggested at the end. */
export function keyShowText(report: KeyShowReport, style: Style, width: number = DEFAULT_WIDTH, fileArgument = report.file): string {
  const out = new Report(width);
  out.hang('', words(`The ${report.curve} ${report.private ? 'private' : 'public'} key in ${printable(report.file)}.`, 'plain', true));
  out.blank();
  didLines(out, report);
  if (report.private) {
    out.blank();
    out.hang('', 'Sign a credential with it:');
    out.line({ text: `  $ svc sign-credential claims.json --key ${printable(shellWord(fileArgument))}` });
  }
  return out.text(style);
}

/** `outArgument`: the file as the user named it, for the command line suggested at the end. */
export function keygenText(report: KeygenReport, style: Style, width: number = DEFAULT_WIDTH, outArgument = report.out): string {
  const out = new Report(width);
  out.hang('', words(`Wrote a new ${report.curve} private key to ${printable(report.out)} (mode 0600).`, 'plain', true));
  out.blank();
  didLines(out, report);
  out.blank();
  out.hang('', 'Anyone who reads the file can sign as these DIDs: keep it private. Sign a delegation receipt with it:');
  // One line, however long: a command broken over lines would not paste into a shell.
  out.line({ text: `  $ svc delegate --key ${printable(shellWord(outArgument))} --iss ${report.didKey} --aud <did> --cap <capability>` });
  return out.text(style);
}
