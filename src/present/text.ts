/**
 * The pieces every view of svc is made of, for the terminal (src/cli) and the web pages
 * (src/web) alike: outside text made printable, ids shortened as both shells show them, and
 * labelled values with what they mean (a tone each shell paints its own way).
 *
 * Pure: no terminal, no HTML, no I/O.
 */

/**
 * The characters `printable` escapes (one at a time; the `u` flag reads a tag character as one):
 * C0 and C1 controls, DEL, the line and paragraph separators, and every format character (Cf).
 * The web pages show the same characters as `U+XXXX` (src/web/html.ts, visibleText).
 */
export const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

/**
 * Text from a DID document, a tool server or an agent card reaches the terminal (ids, warnings
 * quoting them, tool descriptions). Control characters could drive the terminal, bidi overrides
 * reorder what is read, and invisible format characters (zero-width space and joiners, word
 * joiner, BOM, Unicode tag characters) make one name look like another ("get\u200bweather"), so
 * all of them are shown as escapes; layout whitespace becomes a plain space.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    if (c === '\t' || c === '\n' || c === '\r') return ' ';
    const code = c.codePointAt(0)!;
    if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** What a piece of text means; each renderer turns a tone into its own colour mechanism. */
export type Tone = 'good' | 'warn' | 'bad' | 'muted' | 'accent' | 'plain';

/** A labelled value: the label, its value as shown and what the value means. */
export interface Field {
  label: string;
  value: string;
  tone: Tone;
}

/** A field whose value is outside text, made printable. */
export const field = (label: string, value: string, tone: Tone = 'plain'): Field => ({ label, value: printable(value), tone });

/** The fragment (`#…`) is enough when the id is the DID's own; anything else stays whole. */
export function displayKeyId(id: string, did: string): string {
  return id.startsWith(`${did}#`) ? id.slice(did.length) : id;
}

/**
 * A multikey (or a did:key verification method) cut to its ends, e.g. `z6MkhaXg…2doK`: enough to
 * tell keys apart in a timeline line; the whole keys are in --json.
 */
export function shortKey(key: string): string {
  const hash = key.indexOf('#');
  const id = printable(key.startsWith('did:key:') && hash > 0 ? key.slice(hash + 1) : key);
  const chars = [...id];
  return chars.length > 16 ? `${chars.slice(0, 8).join('')}…${chars.slice(-4).join('')}` : id;
}
