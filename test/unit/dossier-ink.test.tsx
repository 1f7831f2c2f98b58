import { PassThrough } from 'node:stream';
import chalk from 'chalk';
import { describe, it, expect } from 'vitest';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { createRuntime } from '../../src/runtime/node.js';
import { renderDossier } from '../../src/cli/cmd/resolve/render-ink.js';
import { dossierText } from '../../src/cli/cmd/resolve/render.js';
import { plainStyle } from '../../src/cli/cmdutil/layout.js';
import { ED25519_DID, OFF_CURVE_DID } from '../support/dids.js';
import { section } from '../support/text.js';
import { entry, failingAtThree, history, servedAtTwo, webvhResult, witnessFile } from '../support/webvh-history.js';

/** A terminal-like stream: a TTY (100 columns wide unless told) and shorter than the dossier. */
function fakeTerminal(columns = 100): { stream: NodeJS.WriteStream; output: () => string } {
  const stream = Object.assign(new PassThrough(), { columns, rows: 24, isTTY: true });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream: stream as unknown as NodeJS.WriteStream, output: () => Buffer.concat(chunks).toString('utf8') };
}

async function rendered(result: EnrichedResolution, colorLevel: 0 | 1 | 2 | 3, columns = 100): Promise<string> {
  const { stream, output } = fakeTerminal(columns);
  await renderDossier(result, { colorLevel, stdout: stream });
  return output();
}

const ed = await resolve(ED25519_DID, createRuntime({}));
const jwk = await resolve(OFF_CURVE_DID, createRuntime({}));

describe('renderDossier (ink)', () => {
  it('renders the verdict, the groups and the keys', async () => {
    const out = await rendered(ed, 0);
    expect(out).toContain(ED25519_DID);
    expect(out).toContain('RESOLVED');
    expect(out).toContain(ed.verdict.headline);
    expect(out).toContain('Confirmed');
    expect(out).toContain('Not confirmed');
    expect(out).not.toContain('Needs attention');
    expect(out.indexOf('Confirmed')).toBeLessThan(out.indexOf('Not confirmed'));
    expect(out).toContain('#z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK');
    expect(out).toContain('#z6LSj72tK8brWgZja8NLRwPigth2T9QRiG1uH9oKZuKjdh9p');
    expect(out.match(/VALID_KEY/g)).toHaveLength(2);
    expect(out).toContain('Limitations');
  });

  it('shows what needs attention and the invalid key', async () => {
    const out = await rendered(jwk, 0);
    expect(out).toContain('RESOLVED_WITH_WARNINGS');
    expect(out.indexOf('Confirmed')).toBeLessThan(out.indexOf('Needs attention'));
    expect(out.indexOf('Needs attention')).toBeLessThan(out.indexOf('Not confirmed'));
    expect(out).toContain('#0');
    expect(out).toContain('INVALID_KEY');
    expect(out).toContain('the point is not on the P-256 curve');
  });

  it('writes no colour at level 0, even when chalk was set to colour', async () => {
    chalk.level = 3;
    const out = await rendered(ed, 0);
    expect(out).not.toContain('\u001b[3');
    expect(chalk.level).toBe(0);
  });

  it('colours at level 1', async () => {
    const out = await rendered(ed, 1);
    expect(out).toContain(chalk.green('VALID_KEY'));
  });

  it('writes the dossier once, without clearing a terminal shorter than it', async () => {
    const out = await rendered(ed, 0);
    expect(out.split(ed.verdict.headline)).toHaveLength(2);
    expect(out).not.toContain('\u001b[2J');
  });
});

/**
 * The ink lines as text: without ink's cursor sequences and trailing padding, with the no-break
 * spaces that keep a short note on one line read as spaces.
 */
function inkLines(out: string): string[] {
  return out
    .replace(/\u001b\[\?[0-9]+[hl]/g, '')
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => l.trimEnd());
}

describe('renderDossier (ink): the did:webvh history', () => {
  const witnessed = history(3, {
    witness: witnessFile({
      status: 'FOUND',
      httpStatus: 200,
      acceptedProofs: 2,
      discarded: [{ versionId: null, verificationMethod: null, reason: 'bad signature' }],
    }),
    reusedEntries: 2,
  });
  witnessed.entries[1] = entry(2, { changes: ['witness'], witness: { threshold: 2, approvals: 1 } });
  witnessed.entries[2] = entry(3, { deactivated: true, changes: ['deactivated'], documentId: 'did:webvh:QmOther:elsewhere.example' });
  const long = history(40, { selectedVersion: 10, reusedEntries: 38 });
  const cases: Array<[string, EnrichedResolution]> = [
    ['a log served at version 2 of 3', webvhResult(servedAtTwo())],
    ['a failure at entry 3', webvhResult(failingAtThree())],
    ['witnesses, a deactivation and a move', webvhResult(witnessed)],
    ['a 40-entry log', webvhResult(long)],
  ];

  for (const [name, result] of cases) {
    it(`renders the same history lines as the text dossier: ${name}`, async () => {
      const ink = inkLines(await rendered(result, 0, 80));
      const text = dossierText(result, plainStyle).split('\n');
      const timeline = section(text.join('\n'), 'History');
      expect(timeline.length).toBeGreaterThan(3);
      expect(section(ink.join('\n'), 'History')).toEqual(timeline);
      // The served version in the header, too.
      expect(ink.slice(0, 3)).toEqual(text.slice(0, 3));
    });
  }

  it('elides a long log in ink as in text', async () => {
    const ink = inkLines(await rendered(webvhResult(long), 0, 80)).join('\n');
    expect(ink).toContain('… 8 more …');
    expect(ink).toContain('… 22 more …');
    expect(ink).toContain('38 entries verified earlier, reused');
  });

  it('colours the timeline marks at level 1', async () => {
    const out = await rendered(webvhResult(failingAtThree()), 1, 80);
    expect(out).toContain(chalk.green('✓'));
    expect(out).toContain(chalk.red('✗'));
    expect(out).toContain(chalk.cyan('◀ served'));
  });
});

describe('renderDossier (ink): the text dossier’s lines at any width', () => {
  for (const columns of [60, 100]) {
    it(`draws the text dossier's lines at ${columns} columns, only the verdict boxed, no DID split`, async () => {
      for (const result of [ed, jwk]) {
        const ink = inkLines(await rendered(result, 0, columns));
        const text = dossierText(result, plainStyle, columns).split('\n');
        // Header, then the verdict box (5 lines for a headline of 2 lines at most), then the sections as in text.
        expect(ink.slice(0, 2)).toEqual(text.slice(0, 2));
        expect(ink[0]).toBe(result.did);
        const inkSections = ink.slice(ink.indexOf('Confirmed'));
        const textSections = text.slice(text.indexOf('Confirmed'));
        expect(inkSections.join('\n').trimEnd()).toBe(textSections.join('\n').trimEnd());
        for (const line of ink) if ([...line].length > columns) expect(line.trim()).not.toMatch(/\s/);
      }
    });
  }

  it('boxes the verdict at the terminal width and wraps the headline inside it', async () => {
    const ink = inkLines(await rendered(ed, 0, 60));
    const box = ink.slice(
      ink.findIndex((l) => l.startsWith('╭')),
      ink.findIndex((l) => l.startsWith('╰')) + 1,
    );
    expect(box.length).toBeGreaterThan(3);
    for (const line of box) expect([...line].length).toBe(60);
    expect(
      box
        .slice(2, -1)
        .map((l) => l.slice(2, -1).trim())
        .join(' '),
    ).toBe(ed.verdict.headline);
  });

  it('adds the trace only when verbose', async () => {
    expect(inkLines(await rendered(ed, 0, 100))).not.toContain('Trace');
    const { stream, output } = fakeTerminal(100);
    await renderDossier(ed, { colorLevel: 0, stdout: stream, verbose: true });
    expect(inkLines(output())).toContain('Trace');
  });
});
