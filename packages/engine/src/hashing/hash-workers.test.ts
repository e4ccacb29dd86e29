// Hashing workers end by themselves (after a quiet time where V8 may compile in the background), and a process can
// wait until every one has ended.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { quietMs } from "./feed-layout.js";
import { workersRetired } from "./hash-workers.js";
import { InputDigests } from "./input-digests.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-hash-workers-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Settles with "retired" when workersRetired() settles before an immediate callback runs, else "next turn". */
const firstOf = () =>
  Promise.race([
    workersRetired().then(() => "retired"),
    new Promise((resolve) => setImmediate(() => resolve("next turn"))),
  ]);

describe("workersRetired", () => {
  it("waits until each worker has ended after its last digest, the last worker's too", async () => {
    const files = ["a.bin", "b.bin"].map((name) => path.join(dir, name));
    for (const file of files) fs.writeFileSync(file, path.basename(file));
    const first = new InputDigests([files[0]], [undefined]);
    await first.all();
    const second = new InputDigests([files[1]], [undefined]);
    await second.all();
    await workersRetired();
    expect(await firstOf()).toBe("retired");
    first.close();
    second.close();
  });

  it("idles a worker 50 ms before its end only where V8 may still compile in the background", () => {
    expect(quietMs([])).toBe(50);
    expect(quietMs(["--max-old-space-size=4096"])).toBe(50);
    expect(quietMs(["--no-concurrent-recompilation"])).toBe(0);
    // The tests run as the command does, so their workers end at once.
    expect(quietMs(process.execArgv)).toBe(0);
  });

  it("settles within the turn when no worker runs, and after a closed one has ended", async () => {
    expect(await firstOf()).toBe("retired");
    const holes = path.join(dir, "holes.bin");
    fs.closeSync(fs.openSync(holes, "w"));
    fs.truncateSync(holes, 256 << 20);
    const digests = new InputDigests([holes], [undefined]);
    void digests.all();
    digests.close();
    await workersRetired();
    expect(await firstOf()).toBe("retired");
  });
});
