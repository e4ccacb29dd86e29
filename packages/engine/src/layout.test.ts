// The engine's folder tree is its architecture (docs/architecture.md, "The engine"): a capability never imports
// another capability, the shared layers under them never import a capability, and no module or folder imports
// itself back through others, type-only imports included. Tests may use any module (they compare outputs).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type ImportGraph, importCircles, importGraph } from "../../../test/helpers/import-graph.js";

const src = path.dirname(fileURLToPath(import.meta.url));

/** The folders holding one capability each; every other folder is a shared layer. */
const CAPABILITIES = ["combine", "dataset", "extract", "images", "info", "ipt", "label", "merge", "sanitize"];

/** The folder of a source file ("" for the files at the root of src). */
function folderOf(file: string): string {
  const relative = path.relative(src, file);
  return relative.includes(path.sep) ? relative.split(path.sep)[0] : "";
}

/** The modules of the engine (tests aside) and what each imports, the public surface (src/index.ts) aside. */
function modules(graph: ImportGraph): ImportGraph {
  return new Map([...graph].filter(([file]) => !file.endsWith(".test.ts") && file !== path.join(src, "index.ts")));
}

/** The imports that break the layout's rule, as "from → to: why" (paths relative to src). */
function layoutBreaches(graph: ImportGraph): string[] {
  const breaches: string[] = [];
  for (const [from, imports] of graph) {
    const fromFolder = folderOf(from);
    for (const to of imports) {
      const toFolder = folderOf(to);
      if (toFolder === fromFolder || !CAPABILITIES.includes(toFolder)) continue;
      const why = CAPABILITIES.includes(fromFolder)
        ? "a capability imports another capability"
        : "a shared layer imports a capability";
      breaches.push(`${path.relative(src, from)} → ${path.relative(src, to)}: ${why}`);
    }
  }
  return breaches;
}

/** The folders' graph: an edge wherever a module of one imports a module of another. */
function folderGraph(graph: ImportGraph): ImportGraph {
  const folders = new Map<string, Set<string>>();
  for (const [from, imports] of graph) {
    const edges = folders.get(folderOf(from)) ?? new Set<string>();
    for (const to of imports) if (folderOf(to) !== folderOf(from)) edges.add(folderOf(to));
    folders.set(folderOf(from), edges);
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

describe("the engine's layout", () => {
  const graph = modules(importGraph(src));

  it("reads the imports of every module, capabilities and shared layers alike", () => {
    const folders = new Set([...graph.keys()].map(folderOf));
    for (const folder of [...CAPABILITIES, "input", "pass", "hashing", "output", "labels", "zip"]) {
      expect(folders).toContain(folder);
    }
    expect(graph.get(path.join(src, "extract/extract-features.ts"))).toContain(path.join(src, "pass/index.ts"));
    expect(folderGraph(graph).get("label")).toEqual(expect.arrayContaining(["labels", "pass", "output"]));
    // The one zip reader, below the capability that joins images zips and the gallery that pages through them.
    expect(folderGraph(graph).get("combine")).toContain("zip");
    expect(folderGraph(graph).get("browse")).toContain("zip");
  });

  it("has no capability importing another, and no shared layer importing a capability", () => {
    expect(layoutBreaches(graph)).toEqual([]);
  });

  it("has no import circle between modules, nor between folders", () => {
    expect(importCircles(graph).map((circle) => circle.map((file) => path.relative(src, file)))).toEqual([]);
    expect(importCircles(folderGraph(graph))).toEqual([]);
  });

  it("would report a capability or a shared layer importing a capability, and folders importing each other", () => {
    const breaches: ImportGraph = new Map([
      [path.join(src, "images/a.ts"), [path.join(src, "label/b.ts"), path.join(src, "images/c.ts")]],
      [path.join(src, "pass/d.ts"), [path.join(src, "ipt/e.ts"), path.join(src, "input/f.ts")]],
      [path.join(src, "input/f.ts"), [path.join(src, "pass/g.ts")]],
    ]);
    expect(layoutBreaches(breaches)).toEqual([
      "images/a.ts → label/b.ts: a capability imports another capability",
      "pass/d.ts → ipt/e.ts: a shared layer imports a capability",
    ]);
    expect(importCircles(folderGraph(breaches))).toEqual([["input", "pass"]]);
  });
});
