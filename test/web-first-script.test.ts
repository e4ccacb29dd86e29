// What the first script carries: every module main.tsx reaches by static imports. My Jobs must draw its first page
// quickly (docs/performance.md), so that graph takes the contracts' names alone, never their zod schemas, and leaves
// the wizards, details and explorer to chunks of their own.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = path.dirname(fileURLToPath(import.meta.url));

/** Static imports of a module, type-only ones aside: [what is imported, from where]. */
function staticImports(file: string): [string, string][] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(/^import\s+(?!type\s)([\s\S]*?)\s*from\s+"([^"]+)";/gm)].map((m) => [m[1], m[2]]);
}

function firstScript(): Map<string, [string, string][]> {
  const graph = new Map<string, [string, string][]>();
  const queue = [path.join(src, "main.tsx")];
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (graph.has(file)) continue;
    const imports = staticImports(file);
    graph.set(file, imports);
    for (const [, from] of imports) {
      if (!from.startsWith(".")) continue;
      const base = path.join(path.dirname(file), from).replace(/\.js$/, "");
      const found = [".ts", ".tsx"].map((ext) => base + ext).find((candidate) => fs.existsSync(candidate));
      if (found) queue.push(found);
    }
  }
  return graph;
}

/** The names an import clause takes as values: `{ a, type B, c }` gives a and c. */
const valueNames = (clause: string) =>
  (clause.match(/\{([\s\S]*)\}/)?.[1] ?? clause)
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name && !name.startsWith("type "));

describe("the first script", () => {
  const graph = firstScript();
  const named = (file: string) => path.relative(src, file);

  it("reaches the list pages and sign-in, and not the screens loaded on demand", () => {
    const files = [...graph.keys()].map(named);
    expect(files).toEqual(expect.arrayContaining(["app.tsx", "jobs/job-lists.tsx", "pages/login-page.tsx"]));
    for (const lazy of ["jobs/job-details-page.tsx", "jobs/create-job-page.tsx", "jobs/explorer/feature-explorer.tsx"])
      expect(files).not.toContain(lazy);
  });

  it("takes no value from the contracts' schemas, only their names", () => {
    const schemaValues = [...graph].flatMap(([file, imports]) =>
      imports
        .filter(([, from]) => from === "@tracemill/contracts")
        .flatMap(([clause]) => valueNames(clause).map((name) => `${named(file)}: ${name}`)),
    );
    expect(schemaValues).toEqual([]);
    expect([...graph.values()].flat().some(([, from]) => from === "@tracemill/contracts/names")).toBe(true);
  });
});
