/** Reading the plain-text dossier in tests. */

/** The lines of the section whose title line is exactly `title`, up to the next blank line. */
export function section(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  if (start < 0) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}
