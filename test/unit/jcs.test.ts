/**
 * RFC 8785 (JCS) conformance against the reference test data of cyberphone/json-canonicalization
 * (../shared/fixtures/jcs/testdata): input → output byte for byte, and the outhex dumps.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { canonicalize } from '../../src/core/canonical.js';
import { describeWithFixtures } from '../support/fixtures.js';

describeWithFixtures('RFC 8785 canonicalization (cyberphone test data)', 'jcs/testdata', (dir) => {
  const names = readdirSync(path.join(dir, 'input'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
  const checked = new Set<string>();

  it.each(names)('%s', (name) => {
    const input = readFileSync(path.join(dir, 'input', `${name}.json`), 'utf8');
    const expected = readFileSync(path.join(dir, 'output', `${name}.json`));
    const outhex = readFileSync(path.join(dir, 'outhex', `${name}.txt`), 'utf8');

    const actual = Buffer.from(canonicalize(JSON.parse(input)), 'utf8');
    expect(actual.equals(expected), `${name}: ${actual.toString('utf8')}\n  ≠ ${expected.toString('utf8')}`).toBe(true);

    const hexBytes = Buffer.from(outhex.trim().split(/\s+/).join(''), 'hex');
    expect(hexBytes.length).toBeGreaterThan(0);
    expect(actual.equals(hexBytes)).toBe(true);
    checked.add(name);
  });

  // Runs after the pairs: a pair that was skipped, missing or failed does not go unnoticed.
  it('checked exactly the six reference pairs', () => {
    expect(names).toEqual(['arrays', 'french', 'structures', 'unicode', 'values', 'weird']);
    expect([...checked].sort()).toEqual(names);
    expect(checked.size).toBe(6);
  });
});
