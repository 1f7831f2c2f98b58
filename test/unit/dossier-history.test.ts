/**
 * The did:webvh history in the dossier: a timeline of the log built in the view model, so the
 * text and ink renderers show the same lines (parity: dossier-ink.test.tsx).
 */
import { describe, expect, it } from 'vitest';
import { dossierText } from '../../src/cli/cmd/resolve/render.js';
import { plainStyle, type Style } from '../../src/cli/cmdutil/layout.js';
import { buildDossierView } from '../../src/present/dossier.js';
import { timelineIndexes, type TimelineRow } from '../../src/present/history.js';
import { shortKey } from '../../src/present/text.js';
import { resolve } from '../../src/core/resolve/resolve.js';
import type { HistoryEvidence } from '../../src/core/webvh/types.js';
import { createRuntime } from '../../src/runtime/node.js';
import { ED25519_DID } from '../support/dids.js';
import { markStyle, section } from '../support/text.js';
import {
  entry,
  failingAtThree,
  history,
  KEY_A,
  KEY_B,
  servedAtTwo,
  versionTime,
  WEBVH_DID,
  WEBVH_SCID,
  webvhResult,
  witnessFile,
} from '../support/webvh-history.js';

const historyText = (h: HistoryEvidence, style: Style = plainStyle): string[] =>
  section(dossierText(webvhResult(h), style), style === plainStyle ? 'History' : '[b]History[/b]');

describe('history timeline: a verified log served at version 2 of 3', () => {
  const result = webvhResult(servedAtTwo());
  const text = dossierText(result, plainStyle);

  it('shows the SCID, one line per entry with what changed and who signed, and marks the served version', () => {
    expect(section(text, 'History')).toEqual([
      `  scid  ${WEBVH_SCID}`,
      '  log   3 entries, all verified',
      `  ✓ 1  ${versionTime(1)}  created  by z6MkhaXg…2doK`,
      `  ✓ 2  ${versionTime(2)}  updateKeys, nextKeyHashes  by z6MkhaXg…2doK`,
      '                             ◀ served',
      `  ✓ 3  ${versionTime(3)}  document update  by z6MkrJVn…bTQ2`,
      '  witness file  NOT_REQUIRED (no verified entry needs witnessing)',
    ]);
  });

  it('puts the served version in the header, from didDocumentMetadata', () => {
    const [did, observed, version] = text.split('\n');
    expect(did).toBe(WEBVH_DID);
    expect(observed).toMatch(/^did:webvh {2}observed /);
    expect(version).toBe(`version 2-QmEntryHash002 (${versionTime(2)})`);
  });

  it('places History after the keys and evidence sections, before the limitations', () => {
    const at = (title: string) => text.indexOf(`\n${title}\n`);
    expect(at('History')).toBeGreaterThan(at('Keys'));
    expect(at('History')).toBeLessThan(at('Limitations'));
    const web = {
      ...result,
      evidence: { ...result.evidence, source: { ...result.evidence.source, kind: 'HTTPS' as const, url: 'https://domain.example/.well-known/did.jsonl' } },
    };
    const withSource = dossierText(web, plainStyle);
    expect(withSource.indexOf('\nHistory\n')).toBeGreaterThan(withSource.indexOf('\nSource\n'));
  });

  it('marks exactly one entry as served, and the view says which', () => {
    const view = buildDossierView(result).history!;
    const served = view.timeline.filter((r): r is Extract<TimelineRow, { kind: 'entry' }> => r.kind === 'entry' && r.served);
    expect(served.map((r) => r.versionNumber)).toEqual([2]);
    expect(text.match(/◀ served/g)).toHaveLength(1);
  });

  it('colours verified entries green and the served mark as an accent', () => {
    const lines = historyText(servedAtTwo(), markStyle).join('\n');
    expect(lines.match(/\[g\]✓\[\/g\]/g)).toHaveLength(3);
    expect(lines).toContain('[c]◀ served[/c]');
    expect(lines).toContain('[d]scid[/d]');
    expect(lines).toContain('[g]3 entries, all verified[/g]');
  });

  it('fits 80 columns', () => {
    for (const line of section(text, 'History')) expect([...line].length, line).toBeLessThanOrEqual(80);
  });
});

describe('history timeline: a failure at entry 3', () => {
  const h = failingAtThree();
  const lines = historyText(h);

  it('marks verified, failed and unverified entries and says where verification stopped', () => {
    expect(lines).toEqual([
      `  scid  ${WEBVH_SCID}`,
      '  log   5 entries, 2 verified',
      `  ✓ 1  ${versionTime(1)}  created  by z6MkhaXg…2doK`,
      `  ✓ 2  ${versionTime(2)}  document update  by z6MkhaXg…2doK  ◀ served`,
      `  ✗ 3  ${versionTime(3)}  updateKeys  failed (proof)`,
      `  · 4  ${versionTime(4)}  not verified`,
      `  · 5  ${versionTime(5)}  not verified`,
      '  Entry 3 failed (proof): The proof does not verify with the update key',
      '  z6MkrJVn…bTQ2.',
      '  witness file  NOT_REQUIRED (no verified entry needs witnessing)',
    ]);
  });

  it('colours the failure red and what follows it dim', () => {
    const styled = historyText(h, markStyle).join('\n');
    expect(styled).toContain('[r]✗[/r]');
    expect(styled).toContain('[r]failed (proof)[/r]');
    expect(styled).toContain('[r]Entry 3 failed (proof):');
    expect(styled.match(/\[d\]·\[\/d\]/g)).toHaveLength(2);
    expect(styled).toContain(`[d]4  ${versionTime(4)}[/d]`);
    expect(styled).toContain('[r]5 entries, 2 verified[/r]');
  });

  it('colours entries left unverified without a failure yellow, not red', () => {
    const h = history(3, { verifiedEntries: 1, selectedVersion: 1 });
    h.entries = h.entries.map((e, i) => (i > 0 ? { ...e, status: 'UNVERIFIED' } : e));
    const styled = historyText(h, markStyle).join('\n');
    expect(styled).toContain('[y]3 entries, 1 verified[/y]');
    expect(styled).not.toContain('[r]');
  });

  it('reads an unreadable line and a missing time without inventing them', () => {
    const broken = failingAtThree();
    broken.entries[2] = { ...broken.entries[2]!, versionId: null, versionTime: null, changes: [], check: 'json' };
    broken.failure = { versionNumber: 3, check: 'json', reason: 'Line 3 is not a JSON object.' };
    const out = historyText(broken);
    expect(out).toContain(`  ✗ 3  ${'(no time)'.padEnd(versionTime(1).length)}  unreadable entry  failed (json)`);
    expect(out).toContain('  Entry 3 failed (json): Line 3 is not a JSON object.');
  });
});

describe('history timeline: witnesses, deactivation, moves and reuse', () => {
  it('shows approvals against the threshold, and the witness file with its proofs', () => {
    const h = history(3, {
      witness: witnessFile({
        status: 'FOUND',
        httpStatus: 200,
        acceptedProofs: 3,
        discarded: [{ versionId: '3-QmEntryHash003', verificationMethod: 'did:key:z6Mkx#z6Mkx', reason: 'not a listed witness' }],
      }),
    });
    h.entries[0] = entry(1, { changes: ['method', 'scid', 'updateKeys', 'witness'], witness: { threshold: 2, approvals: 2 } });
    h.entries[1] = entry(2, { witness: { threshold: 2, approvals: 3 } });
    h.entries[2] = entry(3, { changes: ['witness'], witness: { threshold: 3, approvals: 3 } });
    const lines = historyText(h);
    expect(lines[2]).toBe(`  ✓ 1  ${versionTime(1)}  created  by z6MkhaXg…2doK  2/2 witnesses`);
    // Approvals above the threshold are shown as they are.
    expect(lines[3]).toBe(`  ✓ 2  ${versionTime(2)}  document update  by z6MkhaXg…2doK  3/2 witnesses`);
    expect(lines[4]).toBe(`  ✓ 3  ${versionTime(3)}  witness  by z6MkhaXg…2doK  3/3 witnesses  ◀ served`);
    expect(lines).toContain('  witness file    FOUND https://domain.example/.well-known/did-witness.json');
    expect(lines).toContain('  witness proofs  3 accepted, 1 discarded');
    const styled = historyText(h, markStyle).join('\n');
    expect(styled).toContain('[g]2/2 witnesses[/g]');
    expect(styled).toContain('[y]3 accepted, 1 discarded[/y]');
  });

  it('colours an unmet threshold red and reports a missing or unreadable witness file', () => {
    const h = history(2, {
      verifiedEntries: 1,
      selectedVersion: 1,
      failure: { versionNumber: 2, check: 'witness', reason: 'Version 2 has 1 of the 2 witness approvals it needs.' },
      witness: witnessFile({ status: 'NOT_PUBLISHED', httpStatus: 404 }),
    });
    h.entries[1] = entry(2, { status: 'FAILED', check: 'witness', witness: { threshold: 2, approvals: 1 } });
    const styled = historyText(h, markStyle).join('\n');
    expect(styled).toContain('[r]1/2 witnesses[/r]');
    expect(historyText(h).join('\n').replace(/\s+/g, ' ')).toContain(
      ' witness file NOT_PUBLISHED https://domain.example/.well-known/did-witness.json (HTTP 404)',
    );
    const invalid = history(2, { witness: witnessFile({ status: 'INVALID', httpStatus: 200, reason: 'The witness file is not a JSON array.' }) });
    const lines = historyText(invalid).join('\n');
    expect(lines).toContain('witness file  INVALID https://domain.example/.well-known/did-witness.json: The');
    expect(lines.replace(/\s+/g, ' ')).toContain('The witness file is not a JSON array.');
    expect(historyText(invalid, markStyle).join('\n')).toContain('[r]INVALID https://');
  });

  it('marks a deactivation and a move of the document', () => {
    const moved = `did:webvh:${WEBVH_SCID}:new.example`;
    const h = history(4);
    h.entries[1] = entry(2, { documentId: moved, changes: [] });
    h.entries[2] = entry(3, { documentId: moved, changes: ['updateKeys'] });
    h.entries[3] = entry(4, { documentId: moved, changes: ['deactivated', 'updateKeys'], deactivated: true, updateKeys: [] });
    const lines = historyText(h);
    expect(lines[3]).toBe(`  ✓ 2  ${versionTime(2)}  document update  by z6MkhaXg…2doK`);
    // The SCID stays: the new location is what is shown.
    expect(lines[4]).toBe('                             moved to new.example');
    // The move is shown once, where it happened.
    expect(lines.join('\n').match(/moved to/g)).toHaveLength(1);
    expect(lines[6]).toBe(`  ✓ 4  ${versionTime(4)}  updateKeys  by z6MkhaXg…2doK  deactivated  ◀ served`);
    const only = history(2);
    only.entries[1] = entry(2, { changes: ['deactivated'], deactivated: true });
    expect(historyText(only)[3]).toBe(`  ✓ 2  ${versionTime(2)}  by z6MkhaXg…2doK  deactivated  ◀ served`);
    const styled = historyText(h, markStyle).join('\n');
    expect(styled).toContain('[r]deactivated[/r]');
    expect(styled).toContain('[y]moved to new.example[/y]');
    const elsewhere = history(2);
    elsewhere.entries[1] = entry(2, { documentId: 'did:webvh:QmOther:new.example' });
    expect(historyText(elsewhere).join('\n')).toContain('moved to did:webvh:QmOther:new.example');
  });

  it('says how many entries were reused from an earlier verification', () => {
    expect(historyText(history(14, { reusedEntries: 12 })).at(-1)).toBe('  12 entries verified earlier, reused');
    expect(historyText(history(2, { reusedEntries: 1 })).at(-1)).toBe('  1 entry verified earlier, reused');
    expect(historyText(history(2)).join('\n')).not.toContain('reused');
  });
});

describe('history timeline: long logs', () => {
  it('shows the first entry, a count of those left out and the last 8 of a 40-entry log', () => {
    const lines = historyText(history(40));
    const rows = lines.slice(2, -1);
    expect(rows[0]).toMatch(/^ {2}✓ {2}1 {2}/);
    expect(rows[1]).toBe('  … 31 more …');
    expect(rows.slice(2).map((l) => l.slice(0, 7))).toEqual(['  ✓ 33 ', '  ✓ 34 ', '  ✓ 35 ', '  ✓ 36 ', '  ✓ 37 ', '  ✓ 38 ', '  ✓ 39 ', '  ✓ 40 ']);
    expect(rows.at(-1)).toMatch(/◀ served$/);
  });

  it('keeps the served and the failed entry in view, with gaps on both sides', () => {
    const h = history(40, {
      verifiedEntries: 19,
      selectedVersion: 10,
      failure: { versionNumber: 20, check: 'entryHash', reason: 'The entry hash does not match.' },
    });
    h.entries = h.entries.map((e, i) => (i === 19 ? { ...e, status: 'FAILED', check: 'entryHash', reason: 'x' } : i > 19 ? { ...e, status: 'UNVERIFIED' } : e));
    const view = buildDossierView(webvhResult(h)).history!;
    expect(view.timeline.map((r) => (r.kind === 'gap' ? `…${r.count}` : String(r.versionNumber)))).toEqual([
      '1',
      '…8',
      '10',
      '…9',
      '20',
      '…12',
      '33',
      '34',
      '35',
      '36',
      '37',
      '38',
      '39',
      '40',
    ]);
    const text = historyText(h).join('\n');
    expect(text).toMatch(/✓ 10 [^✓✗·]*◀ served/);
    expect(text).toMatch(/✗ 20 [^✓✗·]*failed \(entryHash\)/);
  });

  it('keeps a 500-entry log to a screenful', () => {
    const lines = historyText(history(500, { selectedVersion: 250, reusedEntries: 480 }));
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(lines).toContain('  … 248 more …');
    expect(lines).toContain('  … 242 more …');
    expect(lines.join('\n')).toMatch(/✓ 250 [^✓✗·]*◀ served/);
    expect(lines.at(-1)).toBe('  480 entries verified earlier, reused');
  });

  it('shows a single left-out entry instead of "… 1 more …"', () => {
    expect(timelineIndexes(5, [])).toEqual([0, 1, 2, 3, 4]);
    expect(timelineIndexes(12, [])).toHaveLength(12);
    expect(timelineIndexes(20, [])).toEqual([0, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(timelineIndexes(20, [2])).toEqual([0, 1, 2, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(timelineIndexes(20, [10])).toEqual([0, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });
});

describe('history timeline: what it takes from the log', () => {
  it('shortens keys and keeps short ones whole', () => {
    expect(shortKey(KEY_A)).toBe('z6MkhaXg…2doK');
    expect(shortKey(`did:key:${KEY_B}#${KEY_B}`)).toBe('z6MkrJVn…bTQ2');
    expect(shortKey('z6Mkshort')).toBe('z6Mkshort');
  });

  it('escapes control characters and bidi overrides taken from the log', () => {
    const h = history(2, { failure: null });
    h.entries[1] = entry(2, {
      versionTime: '2025-01-01T01:00:00Z\u001b[2J',
      changes: ['\u202eevil'],
      documentId: `${WEBVH_DID}\u0007`,
      signedBy: 'z6Mk\u001b]0;pwned\u0007',
    });
    const text = dossierText(webvhResult(h), plainStyle);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    expect(text).toContain('\\x1b[2J');
    expect(text).toContain('\\u202eevil');
  });

  it('has no History section, and no version line, for methods without a log', async () => {
    const ed = await resolve(ED25519_DID, createRuntime({}));
    const text = dossierText(ed, plainStyle);
    expect(text).not.toContain('\nHistory\n');
    expect(text.split('\n')[2]).toBe('');
    expect(buildDossierView(ed).history).toBeNull();
    expect(buildDossierView(ed).version).toBeNull();
  });
});

describe('history timeline: an entry of a specification version svc does not implement', () => {
  const reason = 'entry 2 follows did:webvh:2.0, a version of the did:webvh specification svc does not implement';
  const h = history(2, { verifiedEntries: 1, selectedVersion: 1, failure: { versionNumber: 2, check: 'method', reason } });
  h.entries[1] = entry(2, { status: 'UNVERIFIED', check: 'method', reason, method: null, signedBy: null, changes: [], updateKeys: [] });

  it('says where verification stopped and why, as something to look at, not a failure', () => {
    const plain = historyText(h).join('\n');
    expect(plain).toContain('log   2 entries, 1 verified');
    expect(plain).toContain(`· 2  ${versionTime(2)}  not verified`);
    expect(plain).toContain('Entry 2 not verified: entry 2 follows did:webvh:2.0');
    expect(plain).not.toContain('failed');
    const styled = historyText(h, markStyle).join('\n');
    expect(styled).not.toContain('[r]');
  });
});
