/**
 * The operator token is compared by its SHA-256 digest in constant time (ARCHITECTURE.md
 * "Secrets", src/server/operator.ts).
 *
 * What this proves: behaviourally, `requireOperator` lets the right token through and refuses a
 * wrong one of any length (so a length difference neither passes nor throws), an absent or
 * malformed header. From the source: `requireOperator` calls `timingSafeEqual` on the digests and
 * compares nothing else with `===`, `!==`, `==`, `!=` (but against `undefined`, `null` or a string
 * literal, such as `typeof header === 'string'`), nor with `Buffer.compare` or `.equals(`.
 *
 * What it does not prove: that `timingSafeEqual` itself runs in constant time (Node's promise), nor
 * anything about timing measured on a machine; the source check reads one function by its text, so a
 * comparison moved into a helper it calls would have to be checked there.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../../src/core/problems.js';
import { operatorAccess, requireOperator } from '../../src/server/operator.js';
import { repoRoot } from '../support/fixtures.js';

const TOKEN = 'k3Jq9vZ2pL7xW4nR8tY1mB6c';
const request = (authorization?: string): FastifyRequest => ({ headers: authorization === undefined ? {} : { authorization } }) as unknown as FastifyRequest;

/** The problem code `requireOperator` throws, or 'allowed'. */
function outcome(authorization?: string): string {
  const access = operatorAccess(TOKEN, 'direct');
  try {
    requireOperator(access, request(authorization));
    return 'allowed';
  } catch (err) {
    if (err instanceof ProblemError) return err.code;
    throw err;
  }
}

describe('the operator token is compared by digest in constant time', () => {
  it('the right token passes; a wrong one of any length is refused', () => {
    const presented = [TOKEN, TOKEN.slice(0, -1), `${TOKEN}x`, `${TOKEN.slice(0, -1)}X`, 'a', 'x'.repeat(4096)];
    expect(presented.map((token) => outcome(`Bearer ${token}`))).toEqual(['allowed', ...new Array(presented.length - 1).fill('UNAUTHORIZED')]);
  });

  it('an absent or malformed header is refused; a disabled access says so', () => {
    expect([undefined, '', TOKEN, `Basic ${TOKEN}`, `Bearer  ${TOKEN}`, `Bearer ${TOKEN} x`].map((header) => outcome(header))).toEqual(
      new Array(6).fill('UNAUTHORIZED'),
    );
    expect(() => requireOperator(operatorAccess(undefined, 'direct'), request(`Bearer ${TOKEN}`))).toThrow(
      expect.objectContaining({ code: 'MONITORING_DISABLED' }),
    );
  });

  it('requireOperator compares through timingSafeEqual only (read from src/server/operator.ts)', () => {
    const file = 'src/server/operator.ts';
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    const start = text.indexOf('export function requireOperator(');
    expect(start, `${file} has no requireOperator`).toBeGreaterThan(-1);
    const end = text.indexOf('\n}\n', start);
    const firstLine = text.slice(0, start).split('\n').length;
    const body = text.slice(start, end);
    expect(body, `${file}: requireOperator does not call timingSafeEqual`).toMatch(/\btimingSafeEqual\(\s*digestOf\(presented\),\s*access\.digest\s*\)/);
    const problems: string[] = [];
    body.split('\n').forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      for (const m of code.matchAll(/([\w$.?'"[\]]+)\s*(===|!==|==|!=)\s*([\w$.?'"[\]]+)/g)) {
        const literal = (side: string): boolean => side === 'undefined' || side === 'null' || /^(['"]).*\1$/.test(side);
        if (!literal(m[1]!) && !literal(m[3]!)) problems.push(`${file}:${firstLine + i} compares with ${m[2]}: ${m[0]}`);
      }
      if (/Buffer\.compare|\.equals\(/.test(code)) problems.push(`${file}:${firstLine + i} compares buffers outside timingSafeEqual: ${code.trim()}`);
    });
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
