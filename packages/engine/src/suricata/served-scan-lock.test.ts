// The cross-process lock of scans through a served Suricata: one holder at a time, freed by release or by the
// holder's death (a killed process leaves no stale lock).
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lockServedScan } from "./served-scan-lock.js";

const dir = `/tmp/tracemill-lock-test-${process.pid}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("lockServedScan", () => {
  it("lets a second scan in only when the first lets go", async () => {
    const first = await lockServedScan(dir);
    let second: (() => void) | undefined;
    const waiting = lockServedScan(dir).then((unlock) => {
      second = unlock;
    });
    await sleep(300);
    expect(second).toBeUndefined();
    first();
    await waiting;
    expect(second).toBeTypeOf("function");
    second?.();
    // Another daemon's lock is another name.
    const other = await lockServedScan(`${dir}-other`);
    other();
  });

  it("gives up waiting when the run is cancelled", async () => {
    const held = await lockServedScan(dir);
    const controller = new AbortController();
    const waiting = lockServedScan(dir, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: "CANCELLED" });
    held();
  });

  it("is free again once a process holding it is killed", async () => {
    // The built module (the test suite runs after the build), in a process of its own.
    const module = path.resolve(import.meta.dirname, "../../dist/suricata/served-scan-lock.js");
    const script = `const { lockServedScan } = await import(${JSON.stringify(module)});
await lockServedScan(${JSON.stringify(dir)});
process.stdout.write("held\\n");
setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`the holder exited first (status ${code})`)));
    });
    let mine: (() => void) | undefined;
    const waiting = lockServedScan(dir).then((unlock) => {
      mine = unlock;
    });
    await sleep(300);
    expect(mine).toBeUndefined();
    child.kill("SIGKILL");
    await waiting;
    expect(mine).toBeTypeOf("function");
    mine?.();
  });
});
