/**
 * What a request may hand to storage on both engines (src/core/storable.ts): instants within
 * years 0000–9999 and text without NUL or lone surrogates; and the retention cutoff, which reads
 * its instant by the same rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retentionCutoff } from '../../src/core/monitoring/rules.js';
import { INSTANT_MAX_MS, INSTANT_MIN_MS, isStorableText, parseInstant, readInstant } from '../../src/core/storable.js';

describe('instants', () => {
  it('the range is years 0000 to 9999, UTC, as toISOString spells its ends', () => {
    expect(new Date(INSTANT_MIN_MS).toISOString()).toBe('0000-01-01T00:00:00.000Z');
    expect(new Date(INSTANT_MAX_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });

  it('reads RFC 3339 date-times, the offset and a fraction applied', () => {
    expect(parseInstant('2026-01-01T02:00:00+02:00')).toBe(Date.UTC(2026, 0, 1));
    expect(parseInstant('0099-03-01T00:00:00Z')).toBe(new Date('0099-03-01T00:00:00Z').getTime());
    expect(readInstant('2026-01-01T00:00:00.5Z')).toEqual({ ms: Date.UTC(2026, 0, 1) + 500, subSecond: true });
    expect(readInstant('2026-01-01T00:00:00.000Z')).toEqual({ ms: Date.UTC(2026, 0, 1), subSecond: false });
    expect(parseInstant('0000-01-01T00:00:00Z')).toBe(INSTANT_MIN_MS);
    expect(parseInstant('9999-12-31T23:59:59.9999Z')).toBe(INSTANT_MAX_MS);
  });

  it('refuses what is not one, or falls outside the range once its offset applies', () => {
    for (const text of [
      '+275760-09-13T00:00:00.000Z',
      '-000001-01-01T00:00:00Z',
      '10000-01-01T00:00:00Z',
      '0000-01-01T00:00:00+00:01',
      '9999-12-31T23:59:59-00:01',
      '2025-02-29T00:00:00Z',
      '2025-04-31T00:00:00Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T00:00:60Z',
      '2025-01-01T00:00:00+24:00',
      '2025-01-01T00:00:00',
      '2025-01-01 00:00:00Z',
      '2025-01-01T00:00:00\u0000Z',
      '１２３４-01-01T00:00:00Z',
      'NaN',
    ]) {
      expect(parseInstant(text), text).toBeNull();
    }
  });

  it('every instant it reads is a finite epoch ms that Date formats and reads back (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.date({ noInvalidDate: false }), (text, date) => {
        for (const candidate of [text, Number.isNaN(date.getTime()) ? text : date.toISOString()]) {
          const ms = parseInstant(candidate);
          if (ms === null) continue;
          expect(Number.isFinite(ms) && ms >= INSTANT_MIN_MS && ms <= INSTANT_MAX_MS).toBe(true);
          expect(new Date(new Date(ms).toISOString()).getTime()).toBe(ms);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('text both engines store', () => {
  it('refuses NUL and lone surrogates, keeps surrogate pairs and other characters', () => {
    expect(isStorableText('plain')).toBe(true);
    expect(isStorableText('emoji \ud83d\ude00, tab\t, bell\u0007, U+FFFF \uffff')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('\ud800')).toBe(false);
    expect(isStorableText('x\udc00')).toBe(false);
    expect(isStorableText('\ude00\ud83d')).toBe(false);
  });

  it('a text it accepts has a UTF-8 form that reads back unchanged and holds no 0x00 byte (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (text) => {
        if (!isStorableText(text)) return;
        const bytes = Buffer.from(text, 'utf8');
        expect(bytes.includes(0)).toBe(false);
        expect(bytes.toString('utf8')).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the retention cutoff reads its instant by the same rule', () => {
  it('UTC at whole seconds, a fraction rounded up; nothing outside the range', () => {
    expect(retentionCutoff('2026-01-01T02:00:00+02:00')).toBe('2026-01-01T00:00:00Z');
    expect(retentionCutoff('2026-01-01T00:00:00.5Z')).toBe('2026-01-01T00:00:01Z');
    expect(retentionCutoff('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00Z');
    expect(retentionCutoff('0000-01-01T00:00:00Z')).toBe('0000-01-01T00:00:00Z');
    expect(retentionCutoff('1969-12-31T23:59:59.5Z')).toBe('1970-01-01T00:00:00Z');
    expect(retentionCutoff('9999-12-31T23:59:59Z')).toBe('9999-12-31T23:59:59Z');
    expect(retentionCutoff('9999-12-31T23:59:59.5Z')).toBeNull();
    expect(retentionCutoff('+275760-09-13T00:00:00Z')).toBeNull();
    expect(retentionCutoff('0000-01-01T00:30:00+01:00')).toBeNull();
    expect(retentionCutoff('2025-01-01T00:00:60Z')).toBeNull();
  });
});
