/**
 * Anything thrown that is not a ProblemError becomes INTERNAL_ERROR with a generic detail
 * (ARCHITECTURE.md "Problems"): `asProblemError` (src/core/problems.ts) and the daemon's
 * `problemFromError` (src/server/http.ts), which falls back on it. The thrown message, its
 * class name and its stack reach no problem body: they may carry attacker text or internals.
 * The original stays on `cause` for the log only; the body (`toProblem`) has no such member.
 */
import { describe, expect, it } from 'vitest';
import { asProblemError, ProblemError } from '../../src/core/problems.js';
import { problemFromError } from '../../src/server/http.js';

const SECRET = 'secret-/etc/passwd-<script>';
const GENERIC = 'An internal error prevented an answer.';

/** What may not leak: the message, a class name, a stack frame. */
const leaks = (body: string): string[] => [SECRET, 'TypeError', 'RangeError', 'Error:', '    at ', '.ts:'].filter((needle) => body.includes(needle));

const thrown: Array<[string, unknown]> = [
  ['a plain Error', new Error(SECRET)],
  ['a TypeError', new TypeError(`Cannot read properties of undefined (reading '${SECRET}')`)],
  ['a RangeError with a cause', new RangeError(SECRET, { cause: new Error(SECRET) })],
  ['a thrown string', SECRET],
  ['a thrown object', { message: SECRET, stack: `Error: ${SECRET}\n    at x (/src/a.ts:1:1)` }],
  ['undefined', undefined],
];

describe('anything thrown becomes INTERNAL_ERROR with a generic detail', () => {
  it.each(thrown)('%s, through asProblemError and problemFromError', (_, err) => {
    for (const problem of [asProblemError(err), problemFromError(err, 1024)]) {
      expect(problem).toBeInstanceOf(ProblemError);
      expect(problem.code).toBe('INTERNAL_ERROR');
      expect(problem.status).toBe(500);
      expect(problem.detail).toBe(GENERIC);
      expect(problem.message).toBe(GENERIC);
      expect(problem.hint).toBeUndefined();
      const body = problem.toProblem();
      expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
      expect(body.detail).toBe(GENERIC);
      expect(leaks(JSON.stringify(body)), JSON.stringify(body)).toEqual([]);
    }
  });

  it('a ProblemError passes through as it is', () => {
    const problem = new ProblemError('NOT_FOUND', 'No document.');
    expect(asProblemError(problem)).toBe(problem);
    expect(problemFromError(problem, 1024)).toBe(problem);
  });
});
