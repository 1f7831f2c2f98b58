/** Catching the ProblemError a call must raise; anything else (or a result) fails the test. */
import { ProblemError } from '../../src/core/problems.js';

export async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a problem, got a result');
}

export function problemFrom(call: () => unknown): ProblemError {
  try {
    call();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a problem, got a result');
}
