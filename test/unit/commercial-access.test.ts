/**
 * The commercial mode's switch and the verified-session bridge (src/server/commercial.ts): on only
 * with SVC_COMMERCIAL=on, the direct profile, the operator routes and an origin; the bridge secret
 * is fresh per start and compared by digest; a request without it is 401 whatever it claims.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../../src/core/problems.js';
import {
  BRIDGE_HEADER,
  bridgedSubject,
  canonicalOrigin,
  commercialAccess,
  requireBridge,
  requireCommercial,
  SUBJECT_HEADER,
} from '../../src/server/commercial.js';
import { operatorAccess } from '../../src/server/operator.js';

const OPERATOR = operatorAccess('o'.repeat(24), 'direct');
const ORIGIN = 'http://127.0.0.1:8081';

function request(headers: Record<string, string>): FastifyRequest {
  return { headers } as unknown as FastifyRequest;
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProblemError) return error.code;
    throw error;
  }
  return 'none';
}

describe('commercialAccess', () => {
  it('is off, with a reason, unless every condition holds', () => {
    const off = (setting: string | undefined, origin: string | undefined, op = OPERATOR, profile: 'direct' | 'public' = 'direct') => {
      const access = commercialAccess(setting, origin, op, profile);
      expect(access.enabled).toBe(false);
      return access.enabled ? '' : access.reason;
    };
    expect(off('on', ORIGIN, OPERATOR, 'public')).toContain('direct profile');
    expect(off(undefined, ORIGIN)).toContain('SVC_COMMERCIAL is not on');
    expect(off('off', ORIGIN)).toContain('SVC_COMMERCIAL is not on');
    expect(off('yes', ORIGIN)).toContain('takes on or off');
    expect(off('on', ORIGIN, operatorAccess(undefined, 'direct'))).toContain('operator routes');
    expect(off('on', undefined)).toContain('SVC_COMMERCIAL_ORIGIN');
    expect(off('on', 'http://127.0.0.1:8081/path')).toContain('not an origin');
  });

  it('on: the origin canonical, a fresh 32-byte bridge secret per start', () => {
    const a = commercialAccess('on', 'HTTP://LocalHost:8081', OPERATOR, 'direct');
    const b = commercialAccess('on', ORIGIN, OPERATOR, 'direct');
    if (!a.enabled || !b.enabled) throw new Error('expected on');
    expect(a.origin).toBe('http://localhost:8081');
    expect(a.bridgeSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.bridgeSecret).not.toBe(b.bridgeSecret);
  });

  it('canonicalOrigin refuses what is not an origin', () => {
    for (const text of ['ftp://x', 'http://u:p@x', 'http://x/?q', 'http://x/#f', 'not a url']) expect(canonicalOrigin(text), text).toBeNull();
    expect(canonicalOrigin('https://example.com:443/')).toBe('https://example.com');
  });
});

describe('requireBridge', () => {
  const on = commercialAccess('on', ORIGIN, OPERATOR, 'direct');
  if (!on.enabled) throw new Error('expected on');
  const subject = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

  it('takes the bridge secret and a DID subject', () => {
    expect(requireBridge(on, request({ [BRIDGE_HEADER]: on.bridgeSecret, [SUBJECT_HEADER]: subject }))).toBe(subject);
  });

  it("without the secret, with another start's or a wrong one: 401, whatever the subject header says", () => {
    const other = commercialAccess('on', ORIGIN, OPERATOR, 'direct');
    if (!other.enabled) throw new Error('expected on');
    for (const headers of <Array<Record<string, string>>>[
      { [SUBJECT_HEADER]: subject },
      { [BRIDGE_HEADER]: other.bridgeSecret, [SUBJECT_HEADER]: subject },
      { [BRIDGE_HEADER]: '', [SUBJECT_HEADER]: subject },
    ]) {
      expect(codeOf(() => requireBridge(on, request(headers)))).toBe('UNAUTHORIZED');
    }
    expect(codeOf(() => requireBridge(on, request({ [BRIDGE_HEADER]: on.bridgeSecret, [SUBJECT_HEADER]: 'alice' })))).toBe('UNAUTHORIZED');
  });

  it("bridgedSubject: the subject only with this start's secret, else null (never a throw)", () => {
    expect(bridgedSubject(on, request({ [BRIDGE_HEADER]: on.bridgeSecret, [SUBJECT_HEADER]: subject }))).toBe(subject);
    expect(bridgedSubject(on, request({ [SUBJECT_HEADER]: subject }))).toBeNull();
    expect(bridgedSubject(on, request({ [BRIDGE_HEADER]: 'x'.repeat(43), [SUBJECT_HEADER]: subject }))).toBeNull();
    expect(
      bridgedSubject(commercialAccess(undefined, ORIGIN, OPERATOR, 'direct'), request({ [BRIDGE_HEADER]: on.bridgeSecret, [SUBJECT_HEADER]: subject })),
    ).toBeNull();
  });

  it('mode off: 501 COMMERCIAL_DISABLED before anything else', () => {
    expect(codeOf(() => requireBridge(commercialAccess(undefined, ORIGIN, OPERATOR, 'direct'), request({})))).toBe('COMMERCIAL_DISABLED');
    expect(codeOf(() => requireCommercial(undefined))).toBe('COMMERCIAL_DISABLED');
  });
});
