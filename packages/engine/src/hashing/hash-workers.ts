// Starts hashing workers (hash-worker.ts) from the built JavaScript, or from the TypeScript sources when the engine
// itself runs from them (the tests), and lets a process wait until every one has ended.
import fs from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { HashWorkerData } from "./feed-layout.js";

/** Workers started and not ended yet: each one's end. */
const running = new Set<Promise<void>>();

/** A hashing worker given `data`; it ends by itself once its inputs are hashed or it is told to stop. */
export function startHashWorker(data: HashWorkerData): Worker {
  const worker = new Worker(workerUrl(), { workerData: data });
  const ended = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  running.add(ended);
  void ended.then(() => running.delete(ended));
  return worker;
}

/**
 * Resolves once every hashing worker started so far has ended. A process that ends itself with `process.exit` calls
 * this first: exiting terminates the workers still idling before their end at once (docs/architecture.md, "Worker
 * threads").
 */
export async function workersRetired(): Promise<void> {
  while (running.size > 0) await Promise.all(running);
}

let sourceUrl: URL | null = null;

/**
 * The worker's module. Running from the sources (a `.ts` module URL: Vitest's `source` condition), the worker's
 * TypeScript and its one relative import have their types stripped by the TypeScript compiler (a development
 * dependency) into data: URLs, once per process: a worker thread gets none of Vitest's transforms.
 */
function workerUrl(): URL {
  if (!import.meta.url.endsWith(".ts")) return new URL("./hash-worker.js", import.meta.url);
  sourceUrl ??= new URL(strippedModule(new URL("./hash-worker.ts", import.meta.url)));
  return sourceUrl;
}

/** The minimal surface of the TypeScript compiler used here. */
interface TypeScript {
  transpileModule(source: string, options: { compilerOptions: Record<string, unknown> }): { outputText: string };
  ModuleKind: { ESNext: unknown };
  ScriptTarget: { ES2022: unknown };
}

function strippedModule(file: URL): string {
  const ts = createRequire(import.meta.url)("typescript") as TypeScript;
  const { outputText } = ts.transpileModule(fs.readFileSync(file, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const code = outputText.replace(
    /from "(\.\.?\/[^"]+)\.js"/g,
    (_, path: string) => `from "${strippedModule(new URL(`${path}.ts`, file))}"`,
  );
  return `data:text/javascript,${encodeURIComponent(code)}`;
}
