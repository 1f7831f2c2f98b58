import { describe, expect, it } from 'vitest';
import { versionOptions } from '../../src/cli/cmd/resolve/action.js';
import { ConfigError } from '../../src/runtime/node.js';

describe('svc resolve: version options', () => {
  it('passes valid selectors to the core as ResolveOptions', () => {
    expect(versionOptions({})).toEqual({});
    expect(versionOptions({ versionNumber: '12', versionTime: '2025-01-01T00:00:00.5+02:00', versionId: '2-QmX' })).toEqual({
      versionNumber: 12,
      versionTime: '2025-01-01T00:00:00.5+02:00',
      versionId: '2-QmX',
    });
    expect(versionOptions({ versionNumber: '007' })).toEqual({ versionNumber: 7 });
  });

  it('refuses malformed selectors as configuration (usage) errors', () => {
    for (const versionNumber of ['0', '-1', '1.5', 'abc', '0x10', ' 1', '9007199254740993']) {
      expect(() => versionOptions({ versionNumber }), versionNumber).toThrow(ConfigError);
    }
    expect(() => versionOptions({ versionTime: '2025-13-01T00:00:00Z' })).toThrow(/RFC 3339/);
    expect(() => versionOptions({ versionId: '' })).toThrow(/--version-id/);
    // A very long value is cut in the message, which stays one line.
    const message = (() => {
      try {
        versionOptions({ versionNumber: `x${'9'.repeat(500)}\n` });
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    expect(message.length).toBeLessThan(160);
    expect(message).not.toContain('\n');
  });
});
