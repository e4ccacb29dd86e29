// The run summary grouped: plain values in one table, each section folded under its name and size.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { GroupedSummary } from "./flat-table.js";

describe("GroupedSummary", () => {
  it("puts plain values first and folds each section, closed, with its dotted names inside", () => {
    const { container } = render(
      <GroupedSummary
        record={{
          sessions: 4,
          complete: true,
          packets: { read: 120, decoded: 118, ignored: { truncated: 2 } },
          passes: [{ capture: "input", alerts: 3 }],
        }}
      />,
    );
    const folds = [...container.querySelectorAll("details")];
    expect(folds.map((d) => d.querySelector("summary")?.textContent)).toEqual(["packets (3 values)", "passes (1 row)"]);
    expect(folds.every((d) => !d.open)).toBe(true);
    const first = container.querySelector("table");
    expect(first?.closest("details")).toBeNull();
    expect([...(first?.querySelectorAll("tr") ?? [])].map((r) => r.textContent)).toEqual(["sessions4", "completetrue"]);
    expect(screen.getByRole("row", { name: "packets.ignored.truncated 2" })).toBeTruthy();
  });
});
