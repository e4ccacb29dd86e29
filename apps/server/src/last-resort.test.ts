// The last-resort handler of the server's process: a promise rejected with nobody waiting is logged, and the process
// goes on, even when the command installed an exit-on-rejection policy first (as `tracemill` does).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const built = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/last-resort.js");

describe("logUnhandledRejections", () => {
  it("logs a stray rejection and keeps the process running", () => {
    const script = `
      process.on("unhandledRejection", () => { console.log("exit policy ran"); process.exit(1); });
      const { logUnhandledRejections } = await import(${JSON.stringify(built)});
      logUnhandledRejections();
      Promise.reject(new Error("nobody listens"));
      setTimeout(() => console.log("still running"), 100);
    `;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("still running\n");
    expect(result.stderr).toMatch(
      /^tracemill: an operation failed with nobody waiting for its result \(kept running\): Error: nobody listens\n/,
    );
  });
});
