#!/usr/bin/env node
/**
 * A hostile MCP stdio server for test/integration/mcp-stdio.e2e.test.ts, one behaviour per run
 * (argv[2]); its pid file (argv[3], when given) receives `<pid>\n` of itself and of any child it
 * forks, so the test can check by PID that nothing outlived the inspection.
 *
 *   well       a correct server (two tools), for comparison
 *   noise      correct, but writes non-JSON lines, a notification, a ping request and an answer
 *              to another id before each answer
 *   silent     reads requests, never answers
 *   flood      answers initialize, then floods stdout with non-JSON lines
 *   longline   answers initialize, then writes one line without end (past 2 MiB)
 *   stubborn   correct, but ignores SIGTERM and the end of stdin (only SIGKILL ends it)
 *   fork       correct, but forks a child that ignores SIGTERM and would live forever; exits
 *              itself when stdin closes
 *   fork-silent  forks that child, then never answers (for Ctrl-C)
 *   exit       exits at once, writing to stderr
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [mode = 'well', given] = process.argv.slice(2);
// An argument that starts with -- is an option that only changes the command line (a drift key
// of its own), never a pid file to write in the working directory.
const pidFile = given !== undefined && !given.startsWith('--') ? given : undefined;
const note = (pid) => pidFile && appendFileSync(pidFile, `${pid}\n`);
note(process.pid);

const TOOLS = [
  { name: 'echo', description: 'Echoes its input.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'add', description: 'Adds two numbers.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
];

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

if (mode === 'exit') {
  process.stderr.write('hostile: refusing to start\n');
  process.exit(3);
}
if (mode === 'stubborn') {
  process.on('SIGTERM', () => process.stderr.write('hostile: SIGTERM ignored\n'));
  // Never ends by itself: the end of stdin is ignored too.
  setInterval(() => {}, 1000);
}
if (mode === 'fork' || mode === 'fork-silent') {
  const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
  note(child.pid);
}

function flood() {
  const line = `${'noise '.repeat(100)}\n`;
  const write = () => {
    while (process.stdout.write(line));
    process.stdout.once('drain', write);
  };
  write();
}

function longLine() {
  const chunk = 'x'.repeat(64 * 1024);
  const write = () => {
    while (process.stdout.write(chunk));
    process.stdout.once('drain', write);
  };
  write();
}

function answer(request) {
  const { id, method } = request;
  if (id === undefined || method === undefined) return; // a notification, or svc's answer to our ping
  if (mode === 'silent' || mode === 'fork-silent') return;
  if (mode === 'noise') {
    process.stdout.write('this is not JSON\n');
    process.stdout.write('{"not": "json-rpc"}\n');
    send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } });
    send({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' });
    send({ jsonrpc: '2.0', id: 9999, result: {} });
  }
  if (method === 'initialize') {
    send({
      jsonrpc: '2.0',
      id,
      result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: `hostile-${mode}`, version: '1.0.0' } },
    });
    return;
  }
  if (mode === 'flood') return flood();
  if (mode === 'longline') return longLine();
  if (method === 'tools/list') return send({ jsonrpc: '2.0', id, result: { tools: TOOLS } });
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  buffer += text;
  let newline;
  while ((newline = buffer.indexOf('\n')) !== -1) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    try {
      answer(JSON.parse(line));
    } catch {
      // not ours to judge
    }
  }
});
process.stdin.on('end', () => {
  if (mode !== 'stubborn') process.exit(0);
});
