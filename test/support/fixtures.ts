/**
 * Access to the shared fixtures, which live outside the repository (../shared/fixtures) and
 * are read-only. A clean clone may not have them: suites that need them are then reported as
 * skipped, with a visible warning, instead of failing or silently passing.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/** Root of the repository (test/support/ is two levels below it). */
export const repoRoot: string = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function isDirectory(dir: string): boolean {
  try {
    return existsSync(dir) && statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Absolute path of the shared fixtures folder, or null when it is absent. The environment
 * variable SVC_SHARED_FIXTURES overrides the default `../shared/fixtures` next to the repo.
 */
export function sharedFixturesDir(): string | null {
  const override = process.env['SVC_SHARED_FIXTURES'];
  const dir = override !== undefined && override !== '' ? path.resolve(override) : path.resolve(repoRoot, '../shared/fixtures');
  return isDirectory(dir) ? dir : null;
}

/** Absolute path of one fixture subfolder, or null when it (or the shared folder) is absent. */
export function fixtureSubdir(subdir: string): string | null {
  const base = sharedFixturesDir();
  if (base === null) return null;
  const dir = path.join(base, subdir);
  return isDirectory(dir) ? dir : null;
}

/**
 * Registers a suite that needs `<shared fixtures>/<subdir>`. When the folder is missing the
 * suite is registered as skipped (so it shows in the report) and a warning is printed;
 * otherwise `fn` runs with the folder's absolute path.
 */
export function describeWithFixtures(name: string, subdir: string, fn: (dir: string) => void): void {
  const dir = fixtureSubdir(subdir);
  if (dir === null) {
    console.warn(`[svc] skipping ${name}: ../shared/fixtures/${subdir} not found`);
    // The suite is registered (and reported as skipped) with one placeholder test, because
    // vitest reports a suite without tests as a failure in some modes.
    describe.skipIf(true)(`${name} (skipped: ../shared/fixtures/${subdir} not found)`, () => {
      it('needs the shared fixtures', () => {});
    });
    return;
  }
  describe(name, () => fn(dir));
}
