/**
 * Preload (`node --import ./bench/support/max-rss.mjs …`): when the process exits, writes its
 * peak resident set size in KiB (`process.resourceUsage().maxRSS`) to file descriptor 3, which
 * the benchmark opens as a pipe. Nothing else is changed.
 */
import { writeSync } from 'node:fs';

process.on('exit', () => {
  try {
    writeSync(3, `${process.resourceUsage().maxRSS}\n`);
  } catch {
    // No fd 3: run outside the benchmark.
  }
});
