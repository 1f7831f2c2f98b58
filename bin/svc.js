#!/usr/bin/env node
// Thin launcher: all logic lives in the bundled CLI (src/cli/main.ts → dist/cli.js).
import('../dist/cli.js').then((m) => m.main(process.argv.slice(2))).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`svc: internal error: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 4;
  },
);
