/**
 * HTML from templates that escape by default. Every page of the web dossier is built with `html`;
 * a value interpolated into it is text unless it is already `Html` (markup built the same way), so
 * remote content — ids, service endpoints, credential text, names — can only ever be text.
 * Control characters, bidi overrides and invisible format characters are shown as escapes
 * first (`printable`, the terminal's rule), so a name cannot be made to look like another.
 *
 * There is no way to turn a string from outside into markup: `trusted` takes only svc's own
 * constants and its own built stylesheet.
 */
import { printable, UNPRINTABLE } from '../present/text.js';

/** Markup: built by `html`, never from outside text. */
export class Html {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

export type Interpolation = Html | string | number | boolean | null | undefined | readonly Interpolation[];

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element or a quoted attribute value (both quote kinds escaped). */
export function escapeHtml(text: string): string {
  return printable(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: Interpolation): string {
  if (value instanceof Html) return value.toString();
  if (value === null || value === undefined || value === false || value === true) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'string') return escapeHtml(value);
  return value.map(render).join('');
}

/** A template of markup: the literal parts as written, every value escaped (see Interpolation). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup svc wrote itself (a constant, its own built stylesheet), never text from outside. */
export function trusted(constant: string): Html {
  return new Html(constant);
}

/**
 * Text for a `<pre>`: each line escaped as `escapeHtml` does, the line breaks kept (`printable`
 * alone would turn them into spaces, and a pretty-printed document into one long line). Only
 * `\n` separates lines; any other control character is still shown as an escape.
 */
export function preformatted(text: string): Html {
  return new Html(text.split('\n').map(escapeHtml).join('\n'));
}

/**
 * An identifier or URL as text that may wrap only after its separators (`:` `/` `#` `?` `&` `=`
 * `.`, by `<wbr>`), never inside a word: a table cell then wraps `did:web:example.com#key-1` at
 * its colons rather than a letter at a time. The text (and so copying it) is unchanged.
 */
export function breakable(text: string): Html {
  return new Html(
    text
      .split(/(?<=.[:/#?&=.])(?=.)/su)
      .map(escapeHtml)
      .join('<wbr>'),
  );
}

/** Items joined into one piece of markup. */
export function join(items: readonly Interpolation[], separator: Interpolation = ''): Html {
  const sep = render(separator);
  return new Html(items.map(render).join(sep));
}

/**
 * An id for an element (`id="…"`, `href="#…"`) from any text: letters, digits, `-` and `_`
 * kept, everything else as `-XX` hex, so two texts never share an id and no id can break out of
 * its attribute.
 */
export function anchorId(prefix: string, text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_]/.test(c) ? c : `-${byte.toString(16).padStart(2, '0')}`;
  }
  return `${prefix}-${out}`;
}

/** One UNPRINTABLE character at a time, kept by split (the capture group). */
const UNPRINTABLE_SPLIT = new RegExp(`(${UNPRINTABLE.source})`, 'u');

/**
 * Text from outside with every character `printable` would escape shown as a visible, marked
 * `U+XXXX` (`<span class="codepoint">`), so a zero-width space or a run of tag characters in a
 * tool description is seen, not hidden, and cannot make one name look like another. Tabs are a
 * space; line breaks are kept with `lines` (for an element that shows them: white-space
 * pre-line), else a space.
 */
export function visibleText(text: string, options: { lines?: boolean } = {}): Html {
  const source = options.lines ? text.replace(/\r\n?/g, '\n') : text;
  const parts = source.split(UNPRINTABLE_SPLIT);
  let out = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i % 2 === 0) out += escapeHtml(part);
    else if (part === '\n' && options.lines) out += '\n';
    else if (part === '\t' || part === '\n' || part === '\r') out += ' ';
    else out += `<span class="codepoint">U+${part.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}</span>`;
  }
  return new Html(out);
}
