/**
 * The did:webvh log bounds (core/webvh/limits.ts): entries are counted from the bytes as
 * verifyLogEntries splits them, stopping once the bound is passed; the runtime reads both
 * settings with their defaults.
 */
import { describe, expect, it } from 'vitest';
import { countLogEntries, DEFAULT_WEBVH_MAX_BYTES, DEFAULT_WEBVH_MAX_ENTRIES, requireLogWithinEntries } from '../../src/core/webvh/limits.js';
import { createRuntime } from '../../src/runtime/node.js';
import { problemFrom } from '../support/problems.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('did:webvh log bounds', () => {
  it('counts entries as JSON Lines: a final newline ends the last line, empty lines count', () => {
    expect(countLogEntries(bytes(''), 10)).toBe(0);
    expect(countLogEntries(bytes('{}'), 10)).toBe(1);
    expect(countLogEntries(bytes('{}\n'), 10)).toBe(1);
    expect(countLogEntries(bytes('{}\n{}'), 10)).toBe(2);
    expect(countLogEntries(bytes('{}\n\n{}\n'), 10)).toBe(3);
    expect(countLogEntries(bytes('\n'), 10)).toBe(1);
    // Multibyte UTF-8 never holds a newline byte.
    expect(countLogEntries(bytes('{"é":"日本"}\n{"🙂":1}\n'), 10)).toBe(2);
    // A view into a larger buffer counts only its own bytes.
    const whole = bytes('x\ny\nz\n');
    expect(countLogEntries(whole.subarray(2, 4), 10)).toBe(1);
  });

  it('stops counting once the bound is passed', () => {
    expect(countLogEntries(bytes('{}\n'.repeat(1_000_000)), 5)).toBe(6);
  });

  it('refuses a log over the bound with PAYLOAD_TOO_LARGE naming the bound and SVC_WEBVH_MAX_ENTRIES', () => {
    expect(() => requireLogWithinEntries(bytes('{}\n{}\n'), 2, 'https://example.com/.well-known/did.jsonl')).not.toThrow();
    const problem = problemFrom(() => requireLogWithinEntries(bytes('{}\n{}\n{}'), 2, 'https://example.com/.well-known/did.jsonl'));
    expect(problem.code).toBe('PAYLOAD_TOO_LARGE');
    expect(problem.detail).toBe(
      'The DID log at https://example.com/.well-known/did.jsonl has more than 2 entries; svc verifies at most 2 (SVC_WEBVH_MAX_ENTRIES), so none was verified.',
    );
  });

  it('the runtime reads SVC_WEBVH_MAX_ENTRIES and SVC_WEBVH_MAX_BYTES, 1,000 entries and 4 MiB by default', () => {
    expect(createRuntime({}).config).toMatchObject({ webvhMaxEntries: DEFAULT_WEBVH_MAX_ENTRIES, webvhMaxBytes: DEFAULT_WEBVH_MAX_BYTES });
    expect([DEFAULT_WEBVH_MAX_ENTRIES, DEFAULT_WEBVH_MAX_BYTES]).toEqual([1000, 4 * 1024 * 1024]);
    expect(createRuntime({ SVC_WEBVH_MAX_ENTRIES: '50', SVC_WEBVH_MAX_BYTES: '65536' }).config).toMatchObject({ webvhMaxEntries: 50, webvhMaxBytes: 65536 });
  });
});
