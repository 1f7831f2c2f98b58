/**
 * The order test files start in (vitest.config.ts `sequence.sequencer`). Files run on a queue
 * shared by the workers, so the suite ends when its last long file does: long files go first.
 * - A file the last run saw (vitest's cache of results): failed ones first, then the longest.
 * - A file it did not (every file on a fresh clone, as in CI): before those, end-to-end files
 *   first (they wait on processes, so they overlap well with the CPU-bound in-process files
 *   that follow), larger files first within each layer.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class LayeredSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const keyed = files.map((file) => {
      const key = `${file.project.name}:${relative(config.root, file.moduleId)}`;
      return { file, last: cache.getFileTestResults(key), size: cache.getFileStats(key)?.size ?? 0, e2e: file.moduleId.endsWith('.e2e.test.ts') };
    });
    const rank = (k: (typeof keyed)[number]): number[] => (k.last === undefined ? [0, k.e2e ? 0 : 1, -k.size] : [1, k.last.failed ? 0 : 1, -k.last.duration]);
    const compare = (a: number[], b: number[]): number => {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
      return 0;
    };
    return keyed.sort((a, b) => compare(rank(a), rank(b)) || (a.file.moduleId < b.file.moduleId ? -1 : 1)).map((k) => k.file);
  }
}
