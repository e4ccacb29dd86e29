// Download names: an ASCII fallback plus the exact UTF-8 name, and titles made safe for file systems.
import { describe, expect, it } from "vitest";
import { contentDisposition, safeName } from "./send-file.js";

describe("download names", () => {
  it("writes both forms of Content-Disposition", () => {
    expect(contentDisposition('Übung "1".csv')).toBe(
      `attachment; filename="_bung _1_.csv"; filename*=UTF-8''%C3%9Cbung%20%221%22.csv`,
    );
    expect(contentDisposition("it's (1).csv")).toBe(
      `attachment; filename="it's (1).csv"; filename*=UTF-8''it%27s%20%281%29.csv`,
    );
  });

  it("keeps letters of any script, drops path and control characters, falls back when nothing is left", () => {
    expect(safeName("Résumé: run/1", "x")).toBe("Résumé-run-1");
    expect(safeName("a\u0000b\tc", "x")).toBe("a-b-c");
    expect(safeName(" /// ", "job-id")).toBe("job-id");
    expect(safeName("y".repeat(200), "x")).toHaveLength(80);
  });
});
