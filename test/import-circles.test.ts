// Imports point one way: no circles in any workspace's sources, type-only imports included (a circle hides which
// module is the base and which builds on it); the web app takes of the project only the contracts and core's pure
// file-kind sniffer (docs/architecture.md).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCircles, importGraph, importsOf, reachable } from "./helpers/import-graph.js";

const repo = path.resolve(import.meta.dirname, "..");
const relative = (circles: string[][], root: string) => circles.map((c) => c.map((f) => path.relative(root, f)));

describe("import circles", () => {
  it.each(["apps/web/src", "apps/server/src", "apps/cli/src", "packages/core/src", "packages/contracts/src"])(
    "%s has none",
    (dir) => {
      const graph = importGraph(path.join(repo, dir));
      expect(graph.size).toBeGreaterThan(3);
      expect(relative(importCircles(graph), repo)).toEqual([]);
    },
  );

  it("sees the imports the web app's wizard is built from", () => {
    const graph = importGraph(path.join(repo, "apps/web/src"));
    const jobs = path.join(repo, "apps/web/src/jobs");
    expect(graph.get(path.join(jobs, "capability-forms.tsx"))).toEqual(
      expect.arrayContaining([path.join(jobs, "capability-steps.tsx"), path.join(jobs, "step-props.ts")]),
    );
  });

  it("leaves the web app only the contracts and core's file-kind, which reaches three small leaf modules of core", () => {
    const web = importGraph(path.join(repo, "apps/web/src"));
    const project = [...web.keys()].flatMap((file) => importsOf(file).filter((s) => s.startsWith("@tracemill/")));
    expect([...new Set(project)].sort()).toEqual([
      "@tracemill/contracts",
      "@tracemill/contracts/names",
      "@tracemill/core/file-kind",
    ]);
    const core = path.join(repo, "packages/core/src");
    const fileKind = [...reachable(importGraph(core), path.join(core, "file-kind/index.ts"))];
    expect(fileKind.map((file) => path.relative(core, file)).sort()).toEqual([
      "alerts/unified2-records.ts",
      "capture/erf-types.ts",
      "capture/utf8.ts",
      "file-kind/erf-shape.ts",
      "file-kind/index.ts",
      "file-kind/sniff-file-kind.ts",
      "file-kind/text-kind.ts",
    ]);
    expect(fileKind.flatMap((file) => importsOf(file)).filter((s) => !s.startsWith("."))).toEqual([]);
  });

  // My Jobs must draw its first page quickly (docs/performance.md, "Job lists"): the web app's first script, every
  // module main.tsx loads with it, takes the contracts' names alone, never their zod schemas, and leaves the wizards,
  // details and explorer to chunks of their own (apps/web/src/lazy-screens.ts).
  describe("the web app's first script", () => {
    const src = path.join(repo, "apps/web/src");
    const first = [...reachable(importGraph(src, true), path.join(src, "main.tsx"))];

    it("reaches the list pages and sign-in, and not the screens loaded on demand", () => {
      const files = first.map((file) => path.relative(src, file));
      expect(files).toEqual(expect.arrayContaining(["app.tsx", "jobs/job-lists.tsx", "pages/login-page.tsx"]));
      for (const screen of [
        "jobs/job-details-page.tsx",
        "jobs/create-job-page.tsx",
        "jobs/explorer/feature-explorer.tsx",
      ])
        expect(files).not.toContain(screen);
    });

    it("takes no value from the contracts' schemas, only their names", () => {
      const values = first.flatMap((file) =>
        [
          ...fs
            .readFileSync(file, "utf8")
            .matchAll(/^import\s+(?!type\s)\{([^}]*)\}\s*from\s+"@tracemill\/contracts";/gm),
        ]
          .flatMap((m) => m[1].split(",").map((name) => name.trim()))
          .filter((name) => name && !name.startsWith("type "))
          .map((name) => `${path.relative(src, file)}: ${name}`),
      );
      expect(values).toEqual([]);
      expect(first.flatMap((file) => importsOf(file, true))).toContain("@tracemill/contracts/names");
    });
  });

  describe("the walker", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "import-graph-"));
    afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
    const write = (name: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), text);
    };

    it("finds circles through type-only, re-export, bare and dynamic imports across folders", () => {
      write("a.ts", 'import type { B } from "./b.js";\nexport type A = B;\n');
      write("b.ts", 'export type B = number;\nexport {\n  a,\n} from "./a.js";\n');
      write("ui/c.tsx", 'const d = () => import("../d.js");\nexport const c = 1;\n');
      write("d.ts", 'import "./ui/c.js";\nimport { x } from "react";\n');
      write("e.ts", 'import { a } from "./a.js";\nimport { y } from "../outside.js";\n// import { e } from "./e.js"\n');
      write("lib/index.ts", 'export { e } from "../e.js";\n');
      write("f.ts", 'import { lib } from "./lib";\nexport const f = 1;\n');
      const graph = importGraph(root);
      expect(graph.get(path.join(root, "f.ts"))).toEqual([path.join(root, "lib/index.ts")]);
      expect(relative(importCircles(graph), root)).toEqual([
        ["a.ts", "b.ts"],
        ["d.ts", "ui/c.tsx"],
      ]);
    });
  });
});
