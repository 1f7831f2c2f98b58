/**
 * The certificate of a watch, without I/O (docs/daemon.md#operator-monitoring): what the leaf
 * certificate a check's evidence held means against the certificate state of the watch's previous
 * baseline (monitor_baselines.tls_*), for any watch whose evidence has TLS (did:web, did:webvh,
 * an MCP endpoint or an A2A card over HTTPS).
 *
 * - No certificate this check (a failure, or no TLS): the previous state is carried over, no event.
 * - The leaf's SHA-256 fingerprint differs from the previous state's: `tls.certificate.changed`,
 *   and the new leaf starts with no threshold announced. Never on a watch's first certificate:
 *   there is nothing to compare it with.
 * - Expiry: daysLeft is the whole days from `now` to the leaf's notAfter, rounded down (23 hours
 *   left is 0 days; one second past notAfter is −1). The threshold reached is the smallest T of
 *   the configured ones with daysLeft ≤ T; `tls.certificate.expiring` is emitted when one is
 *   reached and it is smaller than the one already announced for this leaf (or none was): so at
 *   most once per threshold per leaf, also on a watch's first check (an expiring certificate is a
 *   state to warn of, not a change), and one event only when a check skips past several
 *   thresholds at once. A certificate already expired is announced like this too (at the smallest
 *   threshold, once), with a negative daysLeft and `expired: true`.
 *
 * The changed event comes before the expiring one when a check has both.
 */
import type { JsonObject } from '../encoding/json.js';
import type { CertificateEvidence, TlsEvidence } from '../net.js';
import type { PlannedEvent, TlsState } from './store.js';

const DAY_MS = 86_400_000;

/** The default expiry thresholds, days before notAfter (SVC_TLS_EXPIRY_DAYS). */
export const DEFAULT_TLS_EXPIRY_DAYS: readonly number[] = [30, 14, 3];

/** RFC 3339 UTC (whole seconds) of a certificate time as the evidence prints it; null when it is no time. */
export function certificateTime(text: string): string | null {
  const ms = new Date(text).getTime();
  return Number.isNaN(ms) ? null : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** Whole days from `now` until `notAfter` (RFC 3339), rounded down: negative once it has passed. */
export function daysLeft(notAfter: string, now: Date): number {
  return Math.floor((new Date(notAfter).getTime() - now.getTime()) / DAY_MS);
}

/** The smallest threshold with daysLeft ≤ it, or null when none is reached yet. */
export function thresholdReached(days: number, thresholds: readonly number[]): number | null {
  let reached: number | null = null;
  for (const t of thresholds) if (days <= t && (reached === null || t < reached)) reached = t;
  return reached;
}

function certificateData(certificate: CertificateEvidence, notAfter: string): JsonObject {
  return { sha256Fingerprint: certificate.sha256Fingerprint, subject: certificate.subject, issuer: certificate.issuer, notAfter };
}

/**
 * The certificate state of this check and its events (see the module comment). `previous` is the
 * state of the watch's previous baseline; `tls` the evidence of this check's connection, or null.
 * Evidence whose notAfter is no time (it never is: the fetcher prints it from the certificate)
 * counts as no certificate.
 */
export function certificateCheck(
  previous: TlsState | null,
  tls: TlsEvidence | null,
  now: Date,
  thresholds: readonly number[],
): { state: TlsState | null; events: PlannedEvent[] } {
  const notAfter = tls ? certificateTime(tls.certificate.validTo) : null;
  if (!tls || notAfter === null) return { state: previous, events: [] };
  const { certificate, host } = tls;
  const events: PlannedEvent[] = [];
  const sameLeaf = previous !== null && previous.leafSha256 === certificate.sha256Fingerprint;
  if (previous !== null && !sameLeaf) {
    events.push({
      type: 'tls.certificate.changed',
      data: {
        host,
        // svc keeps the fingerprint and notAfter of a leaf it saw (the baseline), not its names.
        from: { sha256Fingerprint: previous.leafSha256, notAfter: previous.notAfter },
        to: certificateData(certificate, notAfter),
      },
    });
  }
  let announcedDays = sameLeaf ? previous.announcedDays : null;
  const days = daysLeft(notAfter, now);
  const threshold = thresholdReached(days, thresholds);
  if (threshold !== null && (announcedDays === null || threshold < announcedDays)) {
    events.push({
      type: 'tls.certificate.expiring',
      data: { host, certificate: certificateData(certificate, notAfter), daysLeft: days, thresholdDays: threshold, expired: days < 0 },
    });
    announcedDays = threshold;
  }
  return { state: { leafSha256: certificate.sha256Fingerprint, notAfter, announcedDays }, events };
}
