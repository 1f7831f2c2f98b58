/** Catching the ProblemError (or ConfigError) a call must raise; anything else (or a result) fails the test. */
import { ProblemError } from '../../src/core/problems.js';
import { ConfigError } from '../../src/runtime/node.js';

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

/** The message of the ConfigError (a bad setting: the CLI exits 2) that `run` must throw. */
export function configError(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('expected a ConfigError');
}
