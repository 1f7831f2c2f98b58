/**
 * The certificate of a watch (src/core/monitoring/tls.ts): `tls.certificate.expiring` at most
 * once per threshold per leaf (the smallest reached, also on the first check, an expired one
 * included), `tls.certificate.changed` when the leaf changes (never on the first certificate) with
 * a fresh expiry cycle, the state carried over when a check saw no certificate; and the setting
 * SVC_TLS_EXPIRY_DAYS (src/server/limits.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TlsEvidence } from '../../src/core/net.js';
import { certificateCheck, daysLeft, DEFAULT_TLS_EXPIRY_DAYS, thresholdReached } from '../../src/core/monitoring/tls.js';
import type { PlannedEvent, TlsState } from '../../src/core/store.js';
import { limitsFromEnv, tlsExpiryDaysFromEnv } from '../../src/server/limits.js';
import { ConfigError } from '../../src/runtime/node.js';

const DAY = 86_400_000;
const NOT_AFTER = '2026-12-31T12:00:00Z';
const at = (daysBefore: number, hoursBefore = 0) => new Date(Date.parse(NOT_AFTER) - daysBefore * DAY - hoursBefore * 3_600_000);

function evidence(fingerprint = 'AA:01', notAfter = NOT_AFTER): TlsEvidence {
  return {
    host: 'watched.example',
    validatedBy: 'CN=Test Root',
    protocol: 'TLSv1.3',
    cipher: 'TLS_AES_128_GCM_SHA256',
    certificate: {
      subject: 'CN=watched.example',
      issuer: 'CN=Test CA',
      validFrom: '2026-10-01T00:00:00Z',
      validTo: notAfter,
      serialNumber: '01',
      sha256Fingerprint: fingerprint,
      subjectAltNames: ['DNS:watched.example'],
    },
    daysUntilExpiry: 0,
    hostnameInSan: true,
  };
}

/** Runs checks in order, each with its evidence and time, and returns the events of each. */
function run(checks: Array<[TlsEvidence | null, Date]>, thresholds: readonly number[] = DEFAULT_TLS_EXPIRY_DAYS, start: TlsState | null = null) {
  let state = start;
  const all: PlannedEvent[][] = [];
  for (const [tls, now] of checks) {
    const checked = certificateCheck(state, tls, now, thresholds);
    state = checked.state;
    all.push(checked.events);
  }
  return { state, events: all };
}

const types = (events: PlannedEvent[]) => events.map((e) => e.type);

describe('daysLeft', () => {
  it('counts whole days to notAfter, rounded down (negative once it has passed)', () => {
    expect(daysLeft(NOT_AFTER, at(15, 12))).toBe(15);
    expect(daysLeft(NOT_AFTER, at(15))).toBe(15);
    expect(daysLeft(NOT_AFTER, new Date(at(15).getTime() + 1000))).toBe(14);
    expect(daysLeft(NOT_AFTER, at(0, 23))).toBe(0);
    expect(daysLeft(NOT_AFTER, new Date(Date.parse(NOT_AFTER) + 1000))).toBe(-1);
  });

  it('the threshold reached is the smallest one at or above daysLeft, in any order of the list', () => {
    expect(thresholdReached(31, [30, 14, 3])).toBeNull();
    expect(thresholdReached(30, [30, 14, 3])).toBe(30);
    expect(thresholdReached(15, [3, 30, 14])).toBe(30);
    expect(thresholdReached(14, [30, 14, 3])).toBe(14);
    expect(thresholdReached(-5, [30, 14, 3])).toBe(3);
  });
});

describe('certificateCheck', () => {
  it('15 days from expiry: one expiring event at 30 on the first check, none again until 14 days', () => {
    const { events, state } = run([
      [evidence(), at(15, 12)],
      [evidence(), at(15, 6)],
      [evidence(), at(15)],
      [evidence(), at(14, 1)],
      [evidence(), at(13)],
      [evidence(), at(12)],
    ]);
    expect(events.map(types)).toEqual([['tls.certificate.expiring'], [], [], ['tls.certificate.expiring'], [], []]);
    expect(events[0]![0]!.data).toEqual({
      host: 'watched.example',
      certificate: { sha256Fingerprint: 'AA:01', subject: 'CN=watched.example', issuer: 'CN=Test CA', notAfter: NOT_AFTER },
      daysLeft: 15,
      thresholdDays: 30,
      expired: false,
    });
    expect(events[3]![0]!.data).toMatchObject({ daysLeft: 14, thresholdDays: 14 });
    expect(state).toEqual({ leafSha256: 'AA:01', notAfter: NOT_AFTER, announcedDays: 14 });
  });

  it('a first certificate far from expiry: no event, its state recorded with nothing announced', () => {
    expect(certificateCheck(null, evidence(), at(90), DEFAULT_TLS_EXPIRY_DAYS)).toEqual({
      state: { leafSha256: 'AA:01', notAfter: NOT_AFTER, announcedDays: null },
      events: [],
    });
  });

  it('several thresholds skipped at once: one event, at the smallest reached', () => {
    const { events, state } = run([
      [evidence(), at(40)],
      [evidence(), at(2)],
      [evidence(), at(1)],
    ]);
    expect(events.map(types)).toEqual([[], ['tls.certificate.expiring'], []]);
    expect(events[1]![0]!.data).toMatchObject({ thresholdDays: 3, daysLeft: 2 });
    expect(state?.announcedDays).toBe(3);
  });

  it('a changed leaf: tls.certificate.changed (from the kept fingerprint and notAfter, to the new leaf), and a fresh expiry cycle', () => {
    const renewed = '2027-03-31T12:00:00Z';
    const { events, state } = run([
      [evidence('AA:01'), at(13)],
      [evidence('BB:02'), at(12)],
      [evidence('CC:03', NOT_AFTER), at(11)],
    ]);
    expect(events.map(types)).toEqual([
      ['tls.certificate.expiring'],
      ['tls.certificate.changed', 'tls.certificate.expiring'],
      ['tls.certificate.changed', 'tls.certificate.expiring'],
    ]);
    expect(events[1]![0]!.data).toEqual({
      host: 'watched.example',
      from: { sha256Fingerprint: 'AA:01', notAfter: NOT_AFTER },
      to: { sha256Fingerprint: 'BB:02', subject: 'CN=watched.example', issuer: 'CN=Test CA', notAfter: NOT_AFTER },
    });
    // The same notAfter, another leaf: its own cycle starts at the threshold it has reached.
    expect(events[1]![1]!.data).toMatchObject({ thresholdDays: 14, certificate: { sha256Fingerprint: 'BB:02' } });
    expect(state).toEqual({ leafSha256: 'CC:03', notAfter: NOT_AFTER, announcedDays: 14 });

    // A renewal far from expiry: changed only, and nothing announced for the new leaf yet.
    const next = certificateCheck(state, evidence('DD:04', renewed), at(10), DEFAULT_TLS_EXPIRY_DAYS);
    expect(types(next.events)).toEqual(['tls.certificate.changed']);
    expect(next.state).toEqual({ leafSha256: 'DD:04', notAfter: renewed, announcedDays: null });
  });

  it('no certificate this check (a failure, no TLS): the state is carried over and nothing is emitted', () => {
    const before: TlsState = { leafSha256: 'AA:01', notAfter: NOT_AFTER, announcedDays: 30 };
    expect(certificateCheck(before, null, at(2), DEFAULT_TLS_EXPIRY_DAYS)).toEqual({ state: before, events: [] });
    expect(certificateCheck(null, null, at(2), DEFAULT_TLS_EXPIRY_DAYS)).toEqual({ state: null, events: [] });
    // Back with the same leaf after the gap: the threshold it reached meanwhile, once.
    const back = run(
      [
        [evidence(), at(2)],
        [evidence(), at(1)],
      ],
      DEFAULT_TLS_EXPIRY_DAYS,
      before,
    );
    expect(back.events.map(types)).toEqual([['tls.certificate.expiring'], []]);
    expect(back.events[0]![0]!.data).toMatchObject({ thresholdDays: 3 });
  });

  it('custom thresholds', () => {
    const { events } = run(
      [
        [evidence(), at(70)],
        [evidence(), at(60)],
        [evidence(), at(8)],
        [evidence(), at(7)],
        [evidence(), at(1)],
      ],
      [60, 7],
    );
    expect(events.map((e) => e.map((x) => x.data['thresholdDays']))).toEqual([[], [60], [], [7], []]);
  });

  it('an expired certificate is announced once, at the smallest threshold, with a negative daysLeft and expired: true', () => {
    const { events } = run([
      [evidence(), new Date(Date.parse(NOT_AFTER) + 2 * DAY)],
      [evidence(), new Date(Date.parse(NOT_AFTER) + 3 * DAY)],
    ]);
    expect(events.map(types)).toEqual([['tls.certificate.expiring'], []]);
    expect(events[0]![0]!.data).toMatchObject({ daysLeft: -2, thresholdDays: 3, expired: true });
  });

  it('the notAfter is kept as RFC 3339 UTC, whatever form the evidence printed it in', () => {
    const checked = certificateCheck(null, evidence('AA:01', 'Dec 31 12:00:00 2026 GMT'), at(90), DEFAULT_TLS_EXPIRY_DAYS);
    expect(checked.state?.notAfter).toBe(NOT_AFTER);
    // Evidence without a usable notAfter counts as no certificate.
    expect(certificateCheck(null, evidence('AA:01', 'not a time'), at(90), DEFAULT_TLS_EXPIRY_DAYS)).toEqual({ state: null, events: [] });
  });

  it('any sequence of checks of one leaf: each threshold at most once, decreasing, and only once reached', () => {
    const thresholdsArb = fc.uniqueArray(fc.integer({ min: 1, max: 365 }), { minLength: 1, maxLength: 5 });
    const stepsArb = fc.array(fc.oneof(fc.constant<number | null>(null), fc.integer({ min: 0, max: 400 * 24 })), { maxLength: 40 });
    fc.assert(
      fc.property(thresholdsArb, stepsArb, fc.integer({ min: -30 * 24, max: 400 * 24 }), (thresholds, steps, startHours) => {
        // The clock only moves forward: each step is hours after the previous (null: no certificate that check).
        let hoursLeft = startHours;
        let state: TlsState | null = null;
        const announced: number[] = [];
        for (const step of steps) {
          if (step !== null) hoursLeft -= step % (10 * 24);
          const now = new Date(Date.parse(NOT_AFTER) - hoursLeft * 3_600_000);
          const checked = certificateCheck(state, step === null ? null : evidence(), now, thresholds);
          expect(checked.events.every((e) => e.type === 'tls.certificate.expiring')).toBe(true);
          expect(checked.events.length).toBeLessThanOrEqual(1);
          for (const e of checked.events) {
            const t = e.data['thresholdDays'] as number;
            expect(e.data['daysLeft']).toBeLessThanOrEqual(t);
            expect(thresholds.filter((x) => x < t && (e.data['daysLeft'] as number) <= x)).toEqual([]);
            announced.push(t);
          }
          state = checked.state;
        }
        expect(new Set(announced).size).toBe(announced.length);
        expect([...announced].sort((a, b) => b - a)).toEqual(announced);
      }),
    );
  });
});

describe('SVC_TLS_EXPIRY_DAYS', () => {
  const refusal = (value: string) => {
    try {
      tlsExpiryDaysFromEnv({ SVC_TLS_EXPIRY_DAYS: value });
    } catch (err) {
      return err instanceof ConfigError ? err.message : `not a ConfigError: ${String(err)}`;
    }
    return 'accepted';
  };

  it('defaults to 30,14,3; reads a comma list (spaces allowed), largest first', () => {
    expect(limitsFromEnv({}).tlsExpiryDays).toEqual([30, 14, 3]);
    expect(limitsFromEnv({ SVC_TLS_EXPIRY_DAYS: '' }).tlsExpiryDays).toEqual([30, 14, 3]);
    expect(limitsFromEnv({ SVC_TLS_EXPIRY_DAYS: '7, 60' }).tlsExpiryDays).toEqual([60, 7]);
    expect(tlsExpiryDaysFromEnv({ SVC_TLS_EXPIRY_DAYS: '365,1,2,3,4' })).toEqual([365, 4, 3, 2, 1]);
  });

  it('refuses anything else with one line naming the variable', () => {
    const line = 'SVC_TLS_EXPIRY_DAYS must list 1 to 5 distinct whole days between 1 and 365, separated by commas (e.g. 30,14,3)';
    for (const bad of ['0', '366', '30,30', '1,2,3,4,5,6', '30;14', '14.5', '-3', '30,,3', 'x', ' , ']) expect(refusal(bad), bad).toBe(line);
  });
});
