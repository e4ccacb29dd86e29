// The sample datasets archive: the shipped sample captures plus the datasets generated from them, built once per
// version on first request and kept in the data directory.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { extractFeatures, TRACEMILL_VERSION } from "@tracemill/engine";
import { HttpError } from "./http-error.js";

function tarGz(sourceDir: string, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // Arguments as a list, never through a shell.
    const child = spawn("tar", ["-czf", target, "-C", sourceDir, "."], { stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`))));
  });
}

export function samplesService(options: { samplesDir: string; dataDir: string }) {
  const archive = path.join(options.dataDir, "samples", `sampledatasets-${TRACEMILL_VERSION}.tar.gz`);
  let building: Promise<string> | null = null;

  async function build(): Promise<string> {
    const captures = path.join(options.samplesDir, "captures");
    if (!fs.existsSync(captures)) throw new HttpError(404, ["Sample datasets are not installed on this server"]);
    const staging = fs.mkdtempSync(path.join(path.dirname(archive), "build-"));
    try {
      fs.cpSync(captures, path.join(staging, "captures"), { recursive: true });
      for (const name of fs.readdirSync(captures).sort()) {
        const outDir = path.join(staging, "datasets", name.replace(/\.[^.]+$/, ""));
        fs.mkdirSync(outDir, { recursive: true });
        await extractFeatures(path.join(captures, name), { outDir });
      }
      const partial = `${archive}.part`;
      await tarGz(staging, partial);
      fs.renameSync(partial, archive);
      return archive;
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }

  return {
    /** The archive's path, building it first if this version has none yet (concurrent callers share one build). */
    async archive(): Promise<string> {
      if (fs.existsSync(archive)) return archive;
      fs.mkdirSync(path.dirname(archive), { recursive: true });
      building ??= build().finally(() => {
        building = null;
      });
      return building;
    },
  };
}
