/**
 * The daemon's bounded history, its pure parts (docs/operations.md#bounded-history):
 * SVC_MAX_OBSERVATIONS and SVC_MAX_MCP_OBSERVATIONS parsing (a bad value is a configuration error,
 * exit 2 — the process-level check is in test/integration/daemon-bounded-history.e2e.test.ts), and
 * which resolutions the daemon records on each profile.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/node.js';
import { DEFAULT_LIMITS, limitsFromEnv } from '../../src/server/limits.js';
import { shouldRecord } from '../../src/server/recording.js';

describe('SVC_MAX_OBSERVATIONS, SVC_MAX_MCP_OBSERVATIONS', () => {
  it('default to 100000 and 1000; 0 and the maxima are accepted', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ maxObservations: 100_000, maxMcpObservations: 1_000 });
    expect(limitsFromEnv({})).toMatchObject({ maxObservations: 100_000, maxMcpObservations: 1_000 });
    expect(limitsFromEnv({ SVC_MAX_OBSERVATIONS: '', SVC_MAX_MCP_OBSERVATIONS: '' })).toMatchObject({ maxObservations: 100_000, maxMcpObservations: 1_000 });
    expect(limitsFromEnv({ SVC_MAX_OBSERVATIONS: '0', SVC_MAX_MCP_OBSERVATIONS: '0' })).toMatchObject({ maxObservations: 0, maxMcpObservations: 0 });
    expect(limitsFromEnv({ SVC_MAX_OBSERVATIONS: '100000000', SVC_MAX_MCP_OBSERVATIONS: '10000000' })).toMatchObject({
      maxObservations: 100_000_000,
      maxMcpObservations: 10_000_000,
    });
  });

  it.each([
    ['SVC_MAX_OBSERVATIONS', 'abc'],
    ['SVC_MAX_OBSERVATIONS', '-5'],
    ['SVC_MAX_OBSERVATIONS', '2.5'],
    ['SVC_MAX_OBSERVATIONS', ' 10'],
    ['SVC_MAX_OBSERVATIONS', '0x10'],
    ['SVC_MAX_OBSERVATIONS', '100000001'],
    ['SVC_MAX_MCP_OBSERVATIONS', '1e3'],
    ['SVC_MAX_MCP_OBSERVATIONS', '10000001'],
  ])('%s=%j is a configuration error', (name, value) => {
    expect(() => limitsFromEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => limitsFromEnv({ [name]: value })).toThrow(`${name} must be a whole number between 0 and`);
  });
});

describe('SVC_RECORD_BATCH', () => {
  it('defaults to 64; 1 and 1000 are accepted', () => {
    expect(DEFAULT_LIMITS.recordBatch).toBe(64);
    expect(limitsFromEnv({}).recordBatch).toBe(64);
    expect(limitsFromEnv({ SVC_RECORD_BATCH: '1' }).recordBatch).toBe(1);
    expect(limitsFromEnv({ SVC_RECORD_BATCH: '1000' }).recordBatch).toBe(1000);
  });

  it.each(['0', '1001', '2.5', 'x'])('SVC_RECORD_BATCH=%j is a configuration error', (value) => {
    expect(() => limitsFromEnv({ SVC_RECORD_BATCH: value })).toThrow('SVC_RECORD_BATCH must be a whole number between 1 and 1000');
  });
});

describe('SVC_RECORD_THREAD', () => {
  it('is off by default; on and off are accepted, in any case', () => {
    expect(limitsFromEnv({}).recordThread).toBe(false);
    expect(limitsFromEnv({ SVC_RECORD_THREAD: 'on' }).recordThread).toBe(true);
    expect(limitsFromEnv({ SVC_RECORD_THREAD: ' OFF ' }).recordThread).toBe(false);
  });

  it.each(['yes', '1', 'true'])('SVC_RECORD_THREAD=%j is a configuration error naming the values', (value) => {
    expect(() => limitsFromEnv({ SVC_RECORD_THREAD: value })).toThrow('SVC_RECORD_THREAD must be on or off');
  });
});

describe('shouldRecord', () => {
  it('public profile: did:key and did:jwk (self-certifying) are not recorded; did:web and did:webvh are', () => {
    const pub = { profile: 'public' as const };
    expect(shouldRecord(pub, { method: 'key' })).toBe(false);
    expect(shouldRecord(pub, { method: 'jwk' })).toBe(false);
    expect(shouldRecord(pub, { method: 'web' })).toBe(true);
    expect(shouldRecord(pub, { method: 'webvh' })).toBe(true);
  });

  it('direct profile: everything is recorded', () => {
    for (const method of ['key', 'jwk', 'web', 'webvh']) expect(shouldRecord({ profile: 'direct' }, { method })).toBe(true);
  });
});
