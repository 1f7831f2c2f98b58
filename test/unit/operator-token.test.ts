/**
 * The operator token is compared by its SHA-256 digest in constant time (ARCHITECTURE.md
 * "Secrets", src/server/operator.ts).
 *
 * What this proves: behaviourally, `requireOperator` lets the right token through and refuses a
 * wrong one of any length, an absent or malformed header; and every presented token, whatever its
 * length, reaches `crypto.timingSafeEqual` as a 32-byte digest beside the stored 32-byte digest
 * (node:crypto is wrapped in a spy here), so the comparison neither stops early on a length
 * difference nor throws on one. From the source: `requireOperator` calls `timingSafeEqual` and
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
import { describe, expect, it, vi } from 'vitest';
import { ProblemError } from '../../src/core/problems.js';
import { operatorAccess, requireOperator } from '../../src/server/operator.js';
import { repoRoot } from '../support/fixtures.js';

const spy = vi.hoisted(() => ({ calls: [] as Array<[number, number]> }));

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView): boolean => {
    spy.calls.push([a.byteLength, b.byteLength]);
    return actual.timingSafeEqual(a, b);
  };
  return { ...actual, timingSafeEqual, default: { ...actual, timingSafeEqual } };
});

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
  it('the right token passes; a wrong one of any length is refused, each through timingSafeEqual on two 32-byte digests', () => {
    const presented = [TOKEN, TOKEN.slice(0, -1), `${TOKEN}x`, `${TOKEN.slice(0, -1)}X`, 'a', 'x'.repeat(4096)];
    spy.calls.length = 0;
    expect(presented.map((token) => outcome(`Bearer ${token}`))).toEqual(['allowed', ...new Array(presented.length - 1).fill('UNAUTHORIZED')]);
    expect(spy.calls).toEqual(presented.map(() => [32, 32]));
  });

  it('an absent or malformed header is refused before any comparison; a disabled access says so', () => {
    spy.calls.length = 0;
    expect([undefined, '', TOKEN, `Basic ${TOKEN}`, `Bearer  ${TOKEN}`, `Bearer ${TOKEN} x`].map((header) => outcome(header))).toEqual(
      new Array(6).fill('UNAUTHORIZED'),
    );
    expect(spy.calls).toEqual([]);
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
