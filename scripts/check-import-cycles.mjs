#!/usr/bin/env node
// Fails when the folders under src/ import each other in a cycle (src/apply -> src/preview -> src/apply),
// and when two files import each other, directly or through others, anywhere under src/.
// Reads the relative `import ... from`, `export ... from` and `import('...')` specifiers of every .ts file;
// type-only imports count too, because a folder that needs another's types depends on it.
// Usage: node scripts/check-import-cycles.mjs [root]   (root defaults to src)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = process.argv[2] ?? 'src';
const SPECIFIER =
  /(?:^|[\s;}])(?:import|export)\s[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** `./x.js` in src/a/b.ts -> src/a/x.ts */
function resolve(from, specifier) {
  return path.normalize(path.join(path.dirname(from), specifier)).replace(/\.js$/, '.ts');
}

/** The top folder under root a file belongs to (a file directly under root is its own "folder"). */
function folderOf(file) {
  const rel = path.relative(root, file).split(path.sep);
  return rel.length === 1 ? rel[0].replace(/\.ts$/, '') : rel[0];
}

/** Strongly connected components with more than one node, or a node with an edge to itself (Tarjan). */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const visit = (node) => {
    info.set(node, { index, low: index, onStack: true });
    index += 1;
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!info.has(next)) {
        visit(next);
        info.get(node).low = Math.min(info.get(node).low, info.get(next).low);
      } else if (info.get(next).onStack) {
        info.get(node).low = Math.min(info.get(node).low, info.get(next).index);
      }
    }
    if (info.get(node).low === info.get(node).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        info.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!info.has(node)) visit(node);
  return found;
}

function addEdge(graph, from, to, why) {
  if (!graph.has(from)) graph.set(from, new Map());
  if (!graph.has(to)) graph.set(to, new Map());
  const reasons = graph.get(from).get(to) ?? [];
  reasons.push(why);
  graph.get(from).set(to, reasons);
}

const folders = new Map();
const files = new Map();
for (const file of listFiles(root)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(SPECIFIER)) {
    const target = resolve(file, match[1] ?? match[2]);
    addEdge(files, file, target, file);
    const [a, b] = [folderOf(file), folderOf(target)];
    if (a !== b) addEdge(folders, a, b, `${file} imports ${match[1] ?? match[2]}`);
  }
}

let failed = false;
for (const component of cycles(folders)) {
  failed = true;
  console.error(`import cycle between folders of ${root}/: ${component.join(', ')}`);
  const members = new Set(component);
  for (const from of component) {
    for (const [to, reasons] of folders.get(from)) {
      if (members.has(to)) console.error(`  ${from} -> ${to}: ${reasons.join('; ')}`);
    }
  }
}
for (const component of cycles(files)) {
  failed = true;
  console.error(`import cycle between files: ${component.join(', ')}`);
}
if (failed) process.exit(1);
console.log(`no import cycles between the ${folders.size} folders and ${files.size} files of ${root}/`);
