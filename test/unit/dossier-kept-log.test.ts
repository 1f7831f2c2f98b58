/**
 * A rewritten did:webvh log in the dossier: the kept entry and the served one at the divergence
 * side by side (versionId, versionTime, entry hash) on the terminal — stacked when the width does
 * not hold both — and as a table on the web page; a log that extends the kept one says so.
 */
import { describe, expect, it } from 'vitest';
import { dossierText } from '../../src/cli/cmd/resolve/render.js';
import { plainStyle } from '../../src/cli/cmdutil/layout.js';
import type { KeptLogEvidence } from '../../src/core/webvh/types.js';
import { dossierPage, type TimeMachineInput } from '../../src/web/dossier.js';
import { section } from '../support/text.js';
import { history, webvhResult } from '../support/webvh-history.js';

const KEPT_HASH = 'c9db6cceaba5d55c'.padEnd(64, '0');
const SERVED_HASH = 'dfb650ec996015ad'.padEnd(64, '1');

const rewritten: KeptLogEvidence = {
  status: 'REWRITTEN',
  keptEntries: 5,
  appendedEntries: 0,
  keptSince: '2025-01-01T00:00:00Z',
  atBound: false,
  rewrite: {
    versionNumber: 3,
    kind: 'CHANGED',
    kept: { versionId: '3-QmKeptEntry', versionTime: '2025-01-01T02:00:00Z', entryHash: KEPT_HASH },
    served: { versionId: '3-QmServedEntry', versionTime: '2025-01-01T02:30:00Z', entryHash: SERVED_HASH },
    detectedAt: '2025-02-01T00:00:00Z',
  },
  reason: null,
};

const NO_HISTORY: TimeMachineInput = { history: null, diff: null, selected: null, unavailable: 'Not recorded here.' };

describe('a rewritten did:webvh log in the dossier', () => {
  const result = webvhResult(history(5, { keptLog: rewritten }));

  it('the terminal shows the kept and the served entry side by side', () => {
    const lines = section(dossierText(result, plainStyle, 200), 'History');
    const at = lines.findIndex((l) => l.includes('The log was rewritten at version 3'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at]).toContain('another entry stands in its place (first seen 2025-02-01T00:00:00Z)');
    expect(lines.slice(at + 1, at + 5).map((l) => l.trimEnd().split(/ {2,}/))).toEqual([
      ['', 'kept', 'served'],
      ['', 'versionId', '3-QmKeptEntry', '3-QmServedEntry'],
      ['', 'versionTime', '2025-01-01T02:00:00Z', '2025-01-01T02:30:00Z'],
      ['', 'entry hash', KEPT_HASH, SERVED_HASH],
    ]);
    expect(lines).toContain('  Kept since 2025-01-01T00:00:00Z: 5 entries; the served log does not extend them');
  });

  it('a narrow terminal stacks them, a value too long to share its label line below it, within the width', () => {
    const lines = section(dossierText(result, plainStyle, 80), 'History');
    const text = lines.join('\n');
    expect(text).toContain('  versionId (kept) 3-QmKeptEntry');
    expect(text).toContain('  versionId (served) 3-QmServedEntry');
    expect(text).toContain(`  entry hash (served)\n    ${SERVED_HASH}`);
    expect(lines.filter((l) => [...l].length > 80)).toEqual([]);
  });

  it('the web page has a table of both sides', () => {
    const page = dossierPage({ result, timeMachine: NO_HISTORY, mode: 'served' });
    const start = page.indexOf('<div class="rewrite"');
    const table = page.slice(start, page.indexOf('</table>', start));
    expect(table).toContain('The log was rewritten at version 3');
    expect(table).toMatch(
      /<th scope="row">versionId<\/th><td class="kept"><code>3-QmKeptEntry<\/code><\/td><td class="served"><code>3-QmServedEntry<\/code><\/td>/,
    );
    expect(table).toContain(`<td class="kept"><code>${KEPT_HASH}</code></td><td class="served"><code>${SERVED_HASH}</code></td>`);
  });

  it('a log that extends the kept one says so, with no table', () => {
    const extended = webvhResult(history(6, { keptLog: { ...rewritten, status: 'EXTENDED', appendedEntries: 1, rewrite: null } }));
    expect(section(dossierText(extended, plainStyle, 200), 'History')).toContain(
      '  Kept since 2025-01-01T00:00:00Z: the log extends the 5 kept entries, 1 more kept',
    );
    expect(dossierPage({ result: extended, timeMachine: NO_HISTORY, mode: 'served' })).not.toContain('class="rewrite"');
  });
});
