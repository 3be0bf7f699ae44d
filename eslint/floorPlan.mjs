// The floor plan's import graph: every import in src/, type-only and dynamic ones included (a type
// circle still says two rooms do not know which of them owns a shape), read with TypeScript's own
// pre-processor so that one lint rule can see the cycles no per-file rule can.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Graphs by project root, rebuilt when older than this (an editor's ESLint server lives long). */
const FRESH_MS = 10_000;
const graphs = new Map();

function sourceFiles(dir, into = []) {
  if (!existsSync(dir)) return into;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, into);
    else if (path.endsWith('.ts')) into.push(path);
  }
  return into;
}

/** The file a relative specifier names, as the bundler and tsc resolve it; undefined for packages. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Strongly connected components of size > 1 (Tarjan), as a map from node to its component. */
function cycles(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const component = new Map();
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const members = new Set();
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      members.add(w);
    } while (w !== v);
    if (members.size > 1) for (const m of members) component.set(m, members);
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return component;
}

/** The shortest way from `to` back to `from` inside a component (`to` … `from`), for the message. */
function wayBack(edges, members, from, to) {
  const previous = new Map([[to, undefined]]);
  const queue = [to];
  while (queue.length) {
    const v = queue.shift();
    if (v === from) break;
    for (const w of edges.get(v) ?? []) {
      if (members.has(w) && !previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  const path = [];
  for (let v = from; v !== undefined; v = previous.get(v)) path.unshift(v);
  return path;
}

/** The room a file is in: its folder right under src/ (src/chat, src/vscode…), or the file itself at the top. */
const roomOf = (root, file) => relative(root, file).split(sep).slice(0, 2).join('/').replace(/\.ts$/, '');

function graphOf(root) {
  const cached = graphs.get(root);
  if (cached && Date.now() - cached.at < FRESH_MS) return cached;
  const files = new Map();
  const rooms = new Map();
  for (const file of sourceFiles(join(root, 'src'))) {
    const targets = new Set();
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = resolveSpecifier(file, fileName);
      if (target) targets.add(target);
    }
    files.set(file, targets);
    const room = roomOf(root, file);
    if (!rooms.has(room)) rooms.set(room, new Set());
    for (const target of targets) if (roomOf(root, target) !== room) rooms.get(room).add(roomOf(root, target));
  }
  const graph = { at: Date.now(), files, rooms, fileCycles: cycles(files), roomCycles: cycles(rooms) };
  graphs.set(root, graph);
  return graph;
}

/** Every place a module names another: imports, re-exports, `import()` and `typeof import()`. */
function specifierNodes(program) {
  const found = [];
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if ((node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.source) found.push([node, node.source.value]);
    if (node.type === 'ImportExpression' && node.source?.type === 'Literal') found.push([node, node.source.value]);
    if (node.type === 'TSImportType') {
      const literal = node.argument?.literal ?? node.argument;
      if (typeof literal?.value === 'string') found.push([node, literal.value]);
    }
    for (const key of Object.keys(node)) {
      if (key === 'parent') continue;
      const child = node[key];
      if (Array.isArray(child)) child.forEach(visit);
      else if (child && typeof child === 'object') visit(child);
    }
  };
  visit(program);
  return found;
}

const noCycle = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const file = context.filename;
    return {
      Program(program) {
        const graph = graphOf(root);
        const name = (f) => relative(root, f).split(sep).join('/');
        const fileCycle = graph.fileCycles.get(file);
        const room = roomOf(root, file);
        const roomCycle = graph.roomCycles.get(room);
        if (!fileCycle && !roomCycle) return;
        for (const [node, specifier] of specifierNodes(program)) {
          const target = resolveSpecifier(file, specifier);
          if (!target) continue;
          if (fileCycle?.has(target)) {
            const loop = wayBack(graph.files, fileCycle, file, target).map(name);
            context.report({ node, message: `Import cycle (type imports count): ${[name(file), ...loop].join(' → ')}. Move what both need below both.` });
          }
          const other = roomOf(root, target);
          if (roomCycle && other !== room && roomCycle.has(other)) {
            const loop = wayBack(graph.rooms, roomCycle, room, other);
            context.report({ node, message: `Folder cycle (type imports count): ${[room, ...loop].join(' → ')}. One of the two folders sits above the other: move what the lower one needs down.` });
          }
        }
      },
    };
  },
};

export const floorPlanRules = { 'no-cycle-with-types': noCycle };
