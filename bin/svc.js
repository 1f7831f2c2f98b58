#!/usr/bin/env node
// Thin launcher: all logic lives in the bundled CLI (src/cli/main.ts → dist/cli.js).
let cli;
try {
  cli = await import('../dist/cli.js');
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli.js')) {
    process.stderr.write('svc: not built yet; run `npm run build` (npm ci does it for you)\n');
    process.exit(4);
  }
  throw err;
}
process.exitCode = await cli.main(process.argv.slice(2));
