#!/usr/bin/env node
/**
 * Import circles among the TypeScript modules under the given folders (default: src/core and
 * src/store), counting every edge: `import`, `import type`, `export … from`, `export type … from`
 * and `import('…')`. Edges are read with TypeScript's own pre-processor (no regular expressions
 * over comments or strings), resolved `./x.js` → `./x.ts`, and kept only between files inside the
 * folders. Prints each strongly connected component (a set of modules that reach each other) with
 * one circle through it, and exits 1 when there is any.
 *
 *   node scripts/import-circles.mjs [folder …]
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const folders = (process.argv.length > 2 ? process.argv.slice(2) : ['src/core', 'src/store']).map((f) => path.resolve(root, f));

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const nodes = folders.flatMap(files);
const known = new Set(nodes);
const inside = (file) => known.has(file);

function resolve(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

const edges = new Map();
let edgeCount = 0;
for (const file of nodes) {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const targets = new Set();
  for (const ref of info.importedFiles) {
    const target = resolve(file, ref.fileName);
    if (target !== null && inside(target) && target !== file) targets.add(target);
  }
  edges.set(file, [...targets].sort());
  edgeCount += targets.size;
}

// Tarjan's strongly connected components (iterative: no recursion limit to meet).
let index = 0;
const order = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const components = [];
for (const start of nodes) {
  if (order.has(start)) continue;
  const work = [[start, 0]];
  order.set(start, index);
  low.set(start, index++);
  stack.push(start);
  onStack.add(start);
  while (work.length > 0) {
    const frame = work[work.length - 1];
    const [node, i] = frame;
    const next = edges.get(node)[i];
    if (next !== undefined) {
      frame[1] = i + 1;
      if (!order.has(next)) {
        order.set(next, index);
        low.set(next, index++);
        stack.push(next);
        onStack.add(next);
        work.push([next, 0]);
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), order.get(next)));
      }
      continue;
    }
    work.pop();
    if (work.length > 0) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(node)));
    }
    if (low.get(node) === order.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  }
}

/** One circle through the component: a shortest path from its first member back to it. */
function circleThrough(component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of edges.get(node)) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = node; at !== null; at = previous.get(at)) path.unshift(at);
        return path;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

const shown = (file) => path.relative(root, file);
console.log(`${nodes.length} modules, ${edgeCount} import edges (type-only and dynamic included) in ${folders.map(shown).join(', ')}`);
if (components.length === 0) {
  console.log('no circles');
  process.exit(0);
}
for (const component of components) {
  console.log(`\ncircle of ${component.length} modules:`);
  for (const member of component) console.log(`  ${shown(member)}`);
  console.log(`  e.g. ${circleThrough(component).map(shown).join(' → ')}`);
}
process.exit(1);
