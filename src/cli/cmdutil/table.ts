/** The tables of the commands that list what a daemon answers (watches, events, tenants, keys, claims …). */
import { printable } from '../../present/text.js';

/** Columns of printable cells, each as wide as its widest, the last one unpadded. */
export function table(header: string[], rows: string[][]): string {
  const cells = [header, ...rows.map((r) => r.map((c) => printable(c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return (
    cells
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
