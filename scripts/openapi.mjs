// `npm run openapi`: writes openapi.json at the repository root — the bytes the built daemon
// serves at GET /openapi.json (run `npm run build` first). Starts `svc serve` on a free loopback
// port with an in-memory database, fetches the document, stops the daemon.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const child = spawn(process.execPath, ['bin/svc.js', 'serve', '--host', '127.0.0.1', '--port', '0', '--memory'], {
  cwd: root,
  env: { ...process.env, NO_COLOR: '1' },
  stdio: ['ignore', 'ignore', 'pipe'],
});
let stderr = '';
child.stderr.setEncoding('utf8');
try {
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc serve did not start within 15 s:\n${stderr}`)), 15_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc serve exited (${code}) before listening:\n${stderr}`));
    });
  });
  const res = await fetch(`${url}/openapi.json`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}: ${text.slice(0, 500)}`);
  JSON.parse(text);
  writeFileSync(new URL('../openapi.json', import.meta.url), text);
  process.stdout.write(`openapi.json: ${Buffer.byteLength(text)} bytes\n`);
} finally {
  child.kill('SIGTERM');
}
