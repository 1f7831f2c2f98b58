/** A command line svc suggests (after keygen, a claim challenge, a directory page) quotes what it repeats. */

/** A path (or any argument) as a shell word: single-quoted unless it is plainly safe. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
