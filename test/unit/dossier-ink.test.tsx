import { PassThrough } from 'node:stream';
import chalk from 'chalk';
import { describe, it, expect } from 'vitest';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { EnrichedResolution } from '../../src/core/resolve/types.js';
import { createRuntime } from '../../src/runtime/node.js';
import { renderDossier } from '../../src/cli/ui/dossier.js';
import { ED25519_DID, OFF_CURVE_DID } from '../support/dids.js';


/** A terminal-like stream: a TTY 100 columns wide and shorter than the dossier. */
function fakeTerminal(): { stream: NodeJS.WriteStream; output: () => string } {
  const stream = Object.assign(new PassThrough(), { columns: 100, rows: 24, isTTY: true });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream: stream as unknown as NodeJS.WriteStream, output: () => Buffer.concat(chunks).toString('utf8') };
}

async function rendered(result: EnrichedResolution, colorLevel: 0 | 1 | 2 | 3): Promise<string> {
  const { stream, output } = fakeTerminal();
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
