/**
 * Counts the assertions each test file makes when SVC_COUNT_ASSERTIONS names a directory: one
 * JSON line per file ({file, tests, assertions}) is appended there, so a change that moves tests
 * between layers can show it kept every assertion (compare the sums per area before and after).
 * Without the variable it does nothing.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';

const directory = process.env.SVC_COUNT_ASSERTIONS;
if (directory) {
  let assertions = 0;
  let tests = 0;
  afterEach(() => {
    tests += 1;
    assertions += expect.getState().assertionCalls;
  });
  afterAll(() => {
    const file = expect.getState().testPath ?? 'unknown';
    mkdirSync(directory, { recursive: true });
    appendFileSync(join(directory, 'counts.jsonl'), `${JSON.stringify({ file: relative(process.cwd(), file), tests, assertions })}\n`);
  });
}
