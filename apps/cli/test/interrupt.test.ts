// Ctrl-C during a run: the command stops, leaves no partial output behind, and exits 130.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot } from "./run-cli.js";

const capture = fs.readFileSync(path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap"));

describe("an interrupted capture command", () => {
  for (const args of [
    ["extract", "-", "-o", "features.csv"],
    ["ipt", "-", "-o", "ipt.txt"],
  ]) {
    it(`${args[0]}: SIGINT mid-run removes the partial outputs and exits 130`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-interrupt-"));
      // The capture comes on a pipe that stays open, so the run is surely under way when the signal comes.
      const child = spawn(process.execPath, [cliPath, ...args], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (data) => {
        stderr += data;
      });
      const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.stdin.write(capture.subarray(0, capture.length >> 1));
      // Its temporary output exists once the run has started.
      for (let waited = 0; fs.readdirSync(dir).length === 0 && waited < 10_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(fs.readdirSync(dir).length).toBeGreaterThan(0);
      child.kill("SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 200));
      child.stdin.end();
      expect(await exit).toBe(130);
      expect(stderr).toContain("tracemill: interrupted; no partial output was kept\n");
      expect(fs.readdirSync(dir)).toEqual([]);
    });
  }
});
