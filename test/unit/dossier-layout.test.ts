/**
 * The shared layout of every report (src/cli/cmdutil/layout.ts): word wrap and hanging indents,
 * checked as properties over random words and widths (fast-check) — no line runs past the width
 * unless it is one token too long for any line, and no token is ever split — then the width a
 * run is laid out for and how toned lines are painted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WIDTH,
  MIN_WIDTH,
  columns,
  hang,
  lineText,
  outputWidth,
  paintLine,
  phrase,
  plainStyle,
  words,
  wrapWords,
  type Word,
} from '../../src/cli/cmdutil/layout.js';
import { markStyle } from '../support/text.js';

/** Words as reports see them: short ones, marks, ids and DIDs far longer than a line. */
const word = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-z]{1,9}[,.:]?$/) },
  { weight: 1, arbitrary: fc.constantFrom('✓', '✗', '●', '—', '→', '◀', '…', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK') },
  { weight: 1, arbitrary: fc.stringMatching(/^did:jwk:[A-Za-z0-9_-]{20,160}$/) },
);
const text = fc.array(word, { minLength: 0, maxLength: 40 }).map((list) => list.join(' '));

/** A line that runs past the width is allowed only when it holds a single token. */
function expectFits(line: string, width: number): void {
  if (columns(line) <= width) return;
  expect(line.trim(), `over ${width} columns: ${JSON.stringify(line)}`).not.toMatch(/\s/);
}

describe('wrapWords', () => {
  it('keeps every line within its width unless it is one long token, and never splits or reorders a token', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1, max: 120 }), (input, width, firstWidth) => {
        const lines = wrapWords(input, width, firstWidth);
        lines.forEach((line, i) => expectFits(line, i === 0 ? firstWidth : width));
        expect(lines.join(' ').split(' ').filter(Boolean)).toEqual(input.split(' ').filter(Boolean));
        if (input !== '') for (const line of lines) expect(line).not.toBe('');
      }),
    );
  });

  it('fills each line greedily: the next word would not have fitted', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 10, max: 100 }), (input, width) => {
        const lines = wrapWords(input, width);
        for (let i = 0; i + 1 < lines.length; i++) {
          const next = lines[i + 1]!.split(' ')[0]!;
          expect(columns(lines[i]!) + 1 + columns(next)).toBeGreaterThan(width);
        }
      }),
    );
  });

  it('counts a mark as one column', () => {
    expect(wrapWords('✓ ✓ ✓ ✓ ✓', 9)).toEqual(['✓ ✓ ✓ ✓ ✓']);
    expect(wrapWords('✓ ✓ ✓ ✓ ✓', 8)).toEqual(['✓ ✓ ✓ ✓', '✓']);
  });
});

/** A label prefix as the reports write it: an indent, then a label padded to a column (or nothing). */
const prefix = fc
  .tuple(fc.integer({ min: 0, max: 6 }), fc.stringMatching(/^[a-z]{0,14}$/), fc.integer({ min: 0, max: 40 }))
  .map(([indent, label, pad]) => `${' '.repeat(indent)}${label}${label ? ' '.repeat(Math.max(1, pad - label.length)) : ''}`);

describe('hang', () => {
  it('fits every width from 40 up, hangs continuation lines at one indent, and keeps every token whole and in order', () => {
    fc.assert(
      fc.property(prefix, text, fc.integer({ min: MIN_WIDTH, max: 140 }), (head, input, width) => {
        const lines = hang(head, input, width).map(lineText);
        for (const line of lines) expectFits(line, width);
        // The prefix first, then only the words, in order and whole.
        expect(lines[0]!.startsWith(head.trimEnd())).toBe(true);
        const rest = [lines[0]!.slice(head.trimEnd().length), ...lines.slice(1)].join(' ');
        expect(rest.split(/\s+/).filter(Boolean)).toEqual(input.split(' ').filter(Boolean));
        // Continuation lines start with blanks only, and lines without an over-long token share one indent.
        const indents = new Set(
          lines
            .slice(1)
            .filter((l) => columns(l) <= width && l.trim().includes(' '))
            .map((l) => columns(l) - columns(l.trimStart())),
        );
        expect(indents.size).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('hangs the text under its first column, after the label', () => {
    const lines = hang('  relationships   ', 'authentication, assertionMethod, capabilityInvocation, capabilityDelegation', 55).map(lineText);
    expect(lines).toEqual([
      '  relationships   authentication, assertionMethod,',
      '                  capabilityInvocation,',
      '                  capabilityDelegation',
    ]);
  });

  it('moves a value that does not fit after its label to the next line, whole', () => {
    const hash = 'a'.repeat(64);
    expect(hang('  sha256          ', hash, 80).map(lineText)).toEqual(['  sha256', `    ${hash}`]);
    // Where it fits, it stays beside the label.
    expect(hang('  sha256          ', hash, 100).map(lineText)).toEqual([`  sha256          ${hash}`]);
  });

  it('continues further left when the hanging column would be too narrow to read', () => {
    const lines = hang('  ✓ PASS          did.method-allowed            ', 'The method did:key is allowed by this policy.', 60).map(lineText);
    expect(lines).toEqual(['  ✓ PASS          did.method-allowed', '    The method did:key is allowed by this policy.']);
  });

  it('puts a token longer than any line alone on its line, unbroken', () => {
    const did = `did:jwk:${'e'.repeat(150)}`;
    const lines = hang('  ', `issued by ${did} yesterday`, 60).map(lineText);
    expect(lines).toEqual(['  issued by', `  ${did}`, '  yesterday']);
  });

  it('moves text below its label when the hanging column cannot hold one of its DIDs; a headline stays beside its status', () => {
    const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const detail = `A receipt from ${did} to ${did}.`;
    expect(hang('  ✓ PASS          receipt      ', detail, 60).map(lineText)).toEqual([
      '  ✓ PASS          receipt',
      `    A receipt from`,
      `    ${did}`,
      `    to`,
      `    ${did}.`,
    ]);
    expect(hang('VALID  ', detail, 60, { besidePrefix: true }).map(lineText)).toEqual(['VALID  A receipt from', `  ${did}`, '  to', `  ${did}.`]);
  });

  it('keeps a glued word on the line of the word before it', () => {
    const list: Word[] = [
      phrase('declared', 'muted'),
      { ...phrase('read_only'), glue: true },
      phrase('drift', 'muted', '  '),
      { ...phrase('FIRST_OBSERVATION'), glue: true },
    ];
    expect(hang('    ', list, 40).map(lineText)).toEqual(['    declared read_only', '    drift FIRST_OBSERVATION']);
  });

  it('keeps a phrase together and separates words by their own gap', () => {
    const notes: Word[] = [...words('created'), phrase('by z6MkhaXg…2doK', 'plain', '  '), phrase('◀ served', 'accent', '  ')];
    expect(hang('  ✓ 1  ', notes, 40).map(lineText)).toEqual(['  ✓ 1  created  by z6MkhaXg…2doK', '       ◀ served']);
  });
});

describe('painting a line', () => {
  it('paints a run of words in one tone once, and leaves plain text and gaps unpainted', () => {
    const [line] = hang([{ text: '  ' }, { text: '!', tone: 'warn' }, { text: ' ' }], words('The first @context is odd.', 'warn'), 80);
    expect(paintLine(line!, markStyle)).toBe('  [y]![/y] [y]The first @context is odd.[/y]');
    const [mixed] = hang('', [...words('a b', 'good'), ...words('c', 'bad'), ...words('d e')], 80);
    expect(paintLine(mixed!, markStyle)).toBe('[g]a b[/g] [r]c[/r] d e');
    expect(paintLine([{ text: 'RESOLVED', tone: 'good', bold: true }], markStyle)).toBe('[b][g]RESOLVED[/g][/b]');
    expect(paintLine([{ text: 'x', tone: 'bad' }], plainStyle)).toBe('x');
  });
});

describe('outputWidth', () => {
  it('is the terminal width on a terminal, COLUMNS or 80 otherwise, never below 40', () => {
    expect(outputWidth({ isTTY: true, columns: 132 }, { COLUMNS: '60' })).toBe(132);
    expect(outputWidth({ isTTY: false }, {})).toBe(DEFAULT_WIDTH);
    expect(outputWidth({}, { COLUMNS: '100' })).toBe(100);
    // A terminal that reports no size reads like a pipe.
    expect(outputWidth({ isTTY: true, columns: 0 }, { COLUMNS: '90' })).toBe(90);
    expect(outputWidth({ isTTY: true, columns: 20 }, {})).toBe(MIN_WIDTH);
    expect(outputWidth({}, { COLUMNS: '12' })).toBe(MIN_WIDTH);
    for (const junk of ['', 'wide', '-5', '0', '80px', '1e3']) expect(outputWidth({}, { COLUMNS: junk })).toBe(DEFAULT_WIDTH);
  });
});
