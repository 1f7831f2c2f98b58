/** Reading the plain-text dossier in tests. */
import type { Style } from '../../src/cli/cmdutil/layout.js';

/** Marks each colour so tests can see which function coloured what. */
export const markStyle: Style = {
  bold: (s) => `[b]${s}[/b]`,
  dim: (s) => `[d]${s}[/d]`,
  green: (s) => `[g]${s}[/g]`,
  yellow: (s) => `[y]${s}[/y]`,
  red: (s) => `[r]${s}[/r]`,
  cyan: (s) => `[c]${s}[/c]`,
};

/** The lines of the section whose title line is exactly `title`, up to the next blank line. */
export function section(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  if (start < 0) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}
