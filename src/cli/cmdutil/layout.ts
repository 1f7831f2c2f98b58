/**
 * The one layout of every text report (the resolve dossier, credential, JWS, policy, delegation,
 * authorization, MCP, A2A, history, diff): how wide the output is, how text wraps to that width
 * with hanging indents, and how a line of toned pieces is painted. The ink dossier draws the same
 * lines, so it wraps exactly as the text does.
 *
 * Text breaks only at whitespace: a DID, a key id, a URL or a hash is never split. A token longer
 * than its line goes alone on a line and is the only thing that may overflow the width. Widths are
 * measured on unstyled text and count code points as terminal columns (the marks used, such as
 * ✓ ✗ ✔ · ● ◀ …, are one column each).
 *
 * Pure: no ink, no react, no chalk, no process. Colour comes in through a `Style`; what a piece of
 * text means (its `Tone`) and the `printable` rule are the view model's (src/present/text.ts).
 */
import type { Field, Tone } from '../../present/text.js';

/** Text decorations; built by the caller from a chalk instance (identity functions at level 0). */
export interface Style {
  bold: (s: string) => string;
  dim: (s: string) => string;
  green: (s: string) => string;
  yellow: (s: string) => string;
  red: (s: string) => string;
  cyan: (s: string) => string;
}

const identity = (s: string): string => s;

export const plainStyle: Style = {
  bold: identity,
  dim: identity,
  green: identity,
  yellow: identity,
  red: identity,
  cyan: identity,
};

export type ToneColor = 'green' | 'yellow' | 'red' | 'cyan' | 'dim' | null;

/** The one colour table of the reports, shared by the text and ink renderers. */
export const TONE_COLORS: Readonly<Record<Tone, ToneColor>> = {
  good: 'green',
  warn: 'yellow',
  bad: 'red',
  muted: 'dim',
  accent: 'cyan',
  plain: null,
};

export function paint(style: Style, tone: Tone, text: string): string {
  const color = TONE_COLORS[tone];
  return color === null ? text : style[color](text);
}

/* ------------------------------------------------------------------ width */

/** Pipes, files and terminals that do not say how wide they are. */
export const DEFAULT_WIDTH = 80;
/** Narrower than this, every hanging column would be a word or two wide. */
export const MIN_WIDTH = 40;
/** A hanging column narrower than this reads one word a line: the text continues further left. */
export const MIN_TEXT_WIDTH = 24;

export interface WidthSource {
  isTTY?: boolean;
  columns?: number;
}

/**
 * The width reports are laid out for: a terminal's own width when stdout is one (read at each
 * run, so it follows a resized window). Otherwise `COLUMNS` when it is a number: shells set it but
 * do not export it, so a pipe normally gets 80, yet `COLUMNS=120 svc … | less` works, as it does
 * for ls and Python's get_terminal_size. Never below MIN_WIDTH.
 */
export function outputWidth(stream: WidthSource, env: NodeJS.ProcessEnv): number {
  const terminal = stream.isTTY === true && (stream.columns ?? 0) > 0 ? stream.columns : undefined;
  const fromEnv = /^[1-9][0-9]{0,4}$/.test(env['COLUMNS'] ?? '') ? Number(env['COLUMNS']) : undefined;
  return Math.max(MIN_WIDTH, terminal ?? fromEnv ?? DEFAULT_WIDTH);
}

/** Terminal columns of unstyled text: one per code point. */
export function columns(text: string): number {
  return [...text].length;
}

/* ------------------------------------------------------------------ lines */

/** A piece of a line: unstyled text and what it means. */
export interface Span {
  text: string;
  tone?: Tone;
  bold?: boolean;
}

export type Line = Span[];

/** A unit of wrapping: a word, or a phrase kept on one line, and the gap before it (one space unless told). */
export interface Word extends Span {
  gap?: string;
  /** Kept on the line of the word before (a value after its label). */
  glue?: boolean;
}

export function lineText(line: Line): string {
  return line.map((s) => s.text).join('');
}

/** The words of `text` (split at any whitespace), all in one tone. */
export function words(text: string, tone: Tone = 'plain', bold = false): Word[] {
  return text
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => (bold ? { text: w, tone, bold } : { text: w, tone }));
}

/** Text kept on one line (a short note such as `◀ served`); `gap` is what separates it from the word before. */
export function phrase(text: string, tone: Tone = 'plain', gap = ' '): Word {
  return { text, tone, gap };
}

/**
 * Greedy line breaking over measured words: the first line holds `first` columns, the others
 * `rest`. A word longer than its line starts a line of its own and stays whole; a glued word
 * stays on the line of the word before it (the two move to the next line together).
 */
function breakWords(items: ReadonlyArray<{ width: number; gap: number; glue?: boolean }>, first: number, rest: number): number[][] {
  const lines: number[][] = [[]];
  let used = 0;
  items.forEach((item, i) => {
    const line = lines[lines.length - 1]!;
    const limit = lines.length === 1 ? first : rest;
    if (line.length === 0) {
      line.push(i);
      used = item.width;
      return;
    }
    let unit = item.width;
    for (let j = i + 1; j < items.length && items[j]!.glue; j++) unit += items[j]!.gap + items[j]!.width;
    if (item.glue || used + item.gap + unit <= limit) {
      line.push(i);
      used += item.gap + item.width;
    } else {
      lines.push([i]);
      used = item.width;
    }
  });
  return lines;
}

/**
 * Plain word wrap: the first line holds `firstWidth` columns, the others `width`. A word longer
 * than its line (a DID, a key id, a hash) stays whole on its own line: cutting it would make it
 * impossible to copy.
 */
export function wrapWords(text: string, width: number, firstWidth: number = width): string[] {
  const list = text.split(/\s+/).filter((w) => w.length > 0);
  const measured = list.map((w) => ({ width: columns(w), gap: 1 }));
  return breakWords(measured, firstWidth, width).map((line) => line.map((i) => list[i]).join(' '));
}

const sameStyle = (a: Span, b: Span): boolean => (a.tone ?? 'plain') === (b.tone ?? 'plain') && (a.bold ?? false) === (b.bold ?? false);

/** One line's words as spans: a run of words in one style becomes one span (painted once), gaps included. */
function spansOf(items: readonly Word[], indexes: readonly number[]): Span[] {
  const spans: Span[] = [];
  indexes.forEach((i, n) => {
    const word = items[i]!;
    const gap = n === 0 ? '' : (word.gap ?? ' ');
    const last = spans[spans.length - 1];
    if (last !== undefined && sameStyle(last, word)) last.text += gap + word.text;
    else {
      if (gap !== '') {
        if (last !== undefined && sameStyle(last, { text: '' })) last.text += gap;
        else spans.push({ text: gap });
      }
      spans.push({ text: word.text, ...(word.tone ? { tone: word.tone } : {}), ...(word.bold ? { bold: true } : {}) });
    }
  });
  return spans;
}

/** A prefix with its trailing blanks removed (a line that ends there). */
function trimmed(prefix: Line): Line {
  const out = prefix.map((s) => ({ ...s }));
  while (out.length > 0) {
    const last = out[out.length - 1]!;
    last.text = last.text.trimEnd();
    if (last.text !== '') break;
    out.pop();
  }
  return out;
}

export interface HangOptions {
  /** Columns of continuation lines; by default they hang under the text's first column. */
  indent?: number;
  /**
   * Start the text beside the prefix even when a later word makes it continue further left (a
   * report's first line, `STATUS  headline`, which scripts read with `head -1`).
   */
  besidePrefix?: boolean;
}

/**
 * `prefix`, then `body` wrapped to `width`, continuation lines hanging at the indent. When the
 * hanging column is too narrow to read (under MIN_TEXT_WIDTH), or, after a labelled prefix (one
 * with visible text), cannot hold one of the words (a DID, a hash), the text continues two columns
 * in from the prefix's own indent instead, starting below the label (unless `besidePrefix`). It
 * also starts below the label when its first word does not fit after it. A word too long for any line goes alone on a
 * line, at that nearer indent.
 */
export function hang(prefix: Line | string, body: readonly Word[] | string, width: number, options: HangOptions = {}): Line[] {
  const head: Line = typeof prefix === 'string' ? [{ text: prefix }] : prefix;
  const items = typeof body === 'string' ? words(body) : body;
  const headText = lineText(head);
  const prefixWidth = columns(headText);
  const labelled = headText.trim() !== '';
  const lead = prefixWidth - columns(headText.trimStart());
  const hangAt = options.indent ?? prefixWidth;
  const near = Math.min(hangAt, lead + 2);
  const measured = items.map((w) => ({ width: columns(w.text), gap: columns(w.gap ?? ' '), glue: w.glue === true }));
  const cramped = width - hangAt < MIN_TEXT_WIDTH || (labelled && measured.some((m) => m.width > width - hangAt));
  const indent = cramped ? near : hangAt;
  const first = width - prefixWidth;
  const rest = width - indent;
  const below = labelled && measured.length > 0 && ((cramped && !options.besidePrefix) || measured[0]!.width > first || first < MIN_TEXT_WIDTH);
  const lines: Line[] = below ? [trimmed(head)] : [];
  breakWords(measured, below ? rest : first, rest).forEach((indexes, n) => {
    const spans = spansOf(items, indexes);
    if (n === 0 && !below) {
      lines.push(spans.length > 0 ? [...head, ...spans] : trimmed(head));
      return;
    }
    const alone = indexes.length === 1 && measured[indexes[0]!]!.width > rest;
    lines.push([{ text: ' '.repeat(alone ? near : indent) }, ...spans]);
  });
  return lines;
}

/** Labelled values in two columns, the label dimmed, each value wrapped under itself. */
export function fieldLines(fields: readonly Field[], indent: string, width: number): Line[] {
  const labelWidth = Math.max(...fields.map((f) => columns(f.label))) + 2;
  return fields.flatMap((field) =>
    hang(
      [{ text: indent }, { text: field.label, tone: 'muted' }, { text: ' '.repeat(labelWidth - columns(field.label)) }],
      words(field.value, field.tone),
      width,
    ),
  );
}

/* ------------------------------------------------------------------ painting */

export function paintSpan(span: Span, style: Style): string {
  const text = paint(style, span.tone ?? 'plain', span.text);
  return span.bold ? style.bold(text) : text;
}

export function paintLine(line: Line, style: Style): string {
  return line.map((s) => paintSpan(s, style)).join('');
}

/** Lines as text, each ending in a newline. */
export function paintLines(lines: readonly Line[], style: Style): string {
  return lines.map((l) => `${paintLine(l, style)}\n`).join('');
}

/**
 * A report under construction: lines laid out for one width, painted at the end. The reports
 * other than the dossier are built with it, so they share the dossier's wrapping.
 */
export class Report {
  readonly lines: Line[] = [];

  constructor(readonly width: number) {}

  /** A line as is: titles and other short fixed text. */
  line(...spans: Span[]): this {
    this.lines.push(spans);
    return this;
  }

  blank(): this {
    this.lines.push([]);
    return this;
  }

  hang(prefix: Line | string, body: readonly Word[] | string, options: HangOptions = {}): this {
    this.lines.push(...hang(prefix, body, this.width, options));
    return this;
  }

  /** `  label        value`: the label padded to `labelWidth`, the value (when there is one) wrapped under itself. */
  field(label: string, value: string | null | undefined, labelWidth: number, indent = '  ', tone: Tone = 'plain'): this {
    if (value === null || value === undefined || value === '') return this;
    return this.hang(`${indent}${label.padEnd(labelWidth)} `, words(value, tone));
  }

  /** The last line, when there is one and it is blank. */
  get endsBlank(): boolean {
    const last = this.lines[this.lines.length - 1];
    return last !== undefined && lineText(last) === '';
  }

  text(style: Style): string {
    return paintLines(this.lines, style);
  }
}
