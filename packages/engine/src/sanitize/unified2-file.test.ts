// alerts.u2 on a full disk: the run gets an OUTPUT_FAILED naming the file, and the process does not end on the error.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EveAlertFields } from "@tracemill/core";
import { afterEach, describe, expect, it } from "vitest";
import { Unified2File } from "./unified2-file.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("Unified2File", () => {
  it("closes cleanly with nothing written, and reports a full disk as OUTPUT_FAILED on close", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-u2-"));
    dirs.push(dir);
    const empty = new Unified2File(path.join(dir, "empty.u2"));
    await empty.close();
    expect(fs.statSync(path.join(dir, "empty.u2")).size).toBe(0);

    const file = path.join(dir, "alerts.u2");
    fs.symlinkSync("/dev/full", file);
    const u2 = new Unified2File(file);
    // An alert without addresses is only counted; the IPv4 one is written to /dev/full when the batch goes out.
    const noAddresses = new EveAlertFields();
    noAddresses.addressLength = 0;
    u2.write(noAddresses);
    expect(u2.skipped).toBe(1);
    u2.write(new EveAlertFields());
    await expect(u2.close()).rejects.toMatchObject({
      code: "OUTPUT_FAILED",
      message: `${file}: could not be written (ENOSPC: no space left on device, write)`,
      context: { file },
    });
  });
});
