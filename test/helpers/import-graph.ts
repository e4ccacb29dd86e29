// The import graph of a source folder, read from its import and export statements, and the circles in it. For tests
// that hold the folder tree to one-way dependencies (docs/architecture.md).
import fs from "node:fs";
import path from "node:path";

/** Each source file (absolute path) and the files of the same folder tree it imports, type-only imports included. */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.tsx?$/;
// Statements at the start of a line; `[^;]*?` keeps a match inside one statement (an import list has no semicolon).
const FROM = /^[ \t]*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm;
const BARE = /^[ \t]*import\s*["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
// What loads with a module: its static imports that are not type-only (a bundler's first script).
const EAGER = /^[ \t]*(?:import|export)(?!\s+type\b)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "dist" ? [] : sourceFiles(file);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/**
 * The specifiers a source file imports from (or re-exports), as written; `eager`: only those loaded with it (no
 * type-only or dynamic imports).
 */
export function importsOf(file: string, eager = false): string[] {
  const text = fs.readFileSync(file, "utf8");
  const patterns = eager ? [EAGER, BARE] : [FROM, BARE, DYNAMIC];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]));
}

/** The file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx` in the sources), or undefined. */
function resolve(from: string, specifier: string, files: Set<string>): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, "");
  return [base, `${stem}.ts`, `${stem}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find((f) =>
    files.has(f),
  );
}

/** The import graph of the source files under `root` (imports leaving `root` are left out); `eager` as importsOf's. */
export function importGraph(root: string, eager = false): ImportGraph {
  const files = sourceFiles(path.resolve(root));
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = importsOf(file, eager).map((specifier) => resolve(file, specifier, known));
    graph.set(file, [...new Set(targets.filter((target) => target !== undefined))]);
  }
  return graph;
}

/** The files `start` imports, directly or through others, itself included. */
export function reachable(graph: ImportGraph, start: string): Set<string> {
  const seen = new Set([start]);
  for (const file of seen) for (const next of graph.get(file) ?? []) seen.add(next);
  return seen;
}

/** The import circles: each a group of files that import one another round (Tarjan's strongly connected components). */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
